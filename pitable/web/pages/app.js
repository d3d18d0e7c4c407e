// pitable's pages: words come from the Pi (made from the table's catalog); no script
// here formats a sentence. Keys go out as POST with the JSON type and X-Pitable.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const page = document.body.dataset.page;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function post(url, body) {
    return fetch(url, { method: "POST", headers: { "Content-Type": "application/json", "X-Pitable": "1" },
      body: JSON.stringify(body), credentials: "omit", cache: "no-store" });
  }

  function drawFrame(b64) {
    const c = $("screen");
    if (!c || !b64) return;
    const bytes = atob(b64), ctx = c.getContext("2d"), img = ctx.createImageData(128, 64);
    for (let i = 0; i < 128 * 64; i++) {
      const on = (bytes.charCodeAt(i >> 3) >> (7 - (i & 7))) & 1, v = on ? 235 : 0;
      img.data[4 * i] = v; img.data[4 * i + 1] = on ? 245 : 0; img.data[4 * i + 2] = on ? 255 : 0; img.data[4 * i + 3] = 255;
    }
    ctx.putImageData(img, 0, 0);
  }

  function showTable(t) {
    document.documentElement.lang = t.lang;
    drawFrame(t.frame);
    $("game").textContent = t.game;
    $("where").textContent = t.where;
    if ($("w-screen")) $("w-screen").textContent = t.words["web.screen"];
    $("w-display").textContent = t.display ? t.words["web.display"] : "";
    $("w-history").textContent = t.history.length ? t.words["web.history"] : "";
    if ($("display-box")) $("display-box").hidden = !t.display;
    const display = $("display");
    display.replaceChildren(...(t.display || []).map((d) => el("li", "", d)));
    $("pile").textContent = t.display ? (t.pile || "") : "";
    $("seats").replaceChildren(...t.seats.map((s) => {
      const li = el("li", (s.active ? "active " : "") + (s.warn ? "warn" : ""));
      const name = el("span", "name", s.name);
      li.append(name);
      if (s.count) li.append(el("span", "count", s.count));
      if (t.bidding) li.append(el("span", s.locked ? "locked" : "waiting", s.locked ? t.words["web.locked"] : ""));
      if (s.lines.length) li.append(el("span", "lines", s.lines.join(", ")));
      return li;
    }));
    $("history").replaceChildren(...t.history.map(story));
    showCard(t);
    showSitting(t);
    if ($("setup-box")) {  // how the real cards are set up, until the game has begun
      $("setup-box").hidden = !t.setup;
      if (t.setup) {
        $("setup-title").textContent = t.setup.title;
        $("setup").replaceChildren(...t.setup.lines.map((line) => el("li", "", line)));
      }
    }
  }

  // one round (or turn) of the story: its head, then each line on a line of its own, in order
  function story(h) {
    const li = el("li");
    li.append(el("span", "head", h.head));
    h.lines.forEach((line) => {
      if (typeof line === "string") { li.append(el("span", "line", line)); return; }
      const bids = el("span", "line bids");
      line.bids.forEach(([seat, card]) => {
        const b = el("span", "bid", seat + " "); b.append(el("span", "card", card)); bids.append(b);
      });
      li.append(bids);
    });
    return li;
  }

  // Cockroach Poker: the card in play (who holds it, the claim, who has seen it, the round so far)
  function showCard(t) {
    const box = $("card-box");
    if (!box) return;
    box.hidden = !t.card;
    if (!t.card) return;
    $("w-card").textContent = t.words["web.card"];
    $("card-holder").textContent = t.card.holder;
    $("card-claim").textContent = t.card.claim;
    $("card-seen").textContent = t.card.seen;
    $("card-story").replaceChildren(...t.card.story.map((line) => el("li", "", line)));
  }

  // the evening's score: per seat, Grasshopper Poker wins and Cockroach Poker losses
  function showSitting(t) {
    const box = $("sitting-box");
    if (!box) return;
    box.hidden = !t.sitting;
    if (!t.sitting) return;
    $("sitting-title").textContent = t.sitting.title;
    // a column per seat; per game its head on a row of its own, then its counts
    const seats = el("tr");
    seats.append(...t.sitting.rows.map(([name]) => el("th", "seat", name)));
    const rows = t.sitting.heads.flatMap((h, i) => {
      const head = el("tr"), th = el("th", "what", h);
      th.colSpan = t.sitting.rows.length;
      head.append(th);
      const tr = el("tr");
      tr.append(...t.sitting.rows.map((r) => el("td", r[i + 1] ? "some" : "", String(r[i + 1]))));
      return [head, tr];
    });
    $("sitting").replaceChildren(seats, ...rows);
  }

  // A stream refused with an error status (the Pi busy, 503) is closed for good by the
  // browser: try again a few times before a phone says its seat is gone; a TV page always.
  function listen(url, onSeat, tries) {
    const es = new EventSource(url);
    let heard = false;
    es.addEventListener("table", (e) => { heard = true; showTable(JSON.parse(e.data)); });
    const again = (n) => setTimeout(() => listen(url, onSeat, n), 3000);
    if (onSeat) {
      es.addEventListener("seat", (e) => { heard = true; onSeat(JSON.parse(e.data)); });
      es.addEventListener("next", (e) => { es.close(); keep({ code: JSON.parse(e.data).code }); location.replace("/phone"); });
      es.addEventListener("gone", () => { es.close(); gone(); });
      es.onerror = () => {
        if (es.readyState !== EventSource.CLOSED) return;
        const n = heard ? 0 : (tries || 0) + 1;
        if (n < 3) again(n); else gone();
      };
    } else {
      es.onerror = () => { if (es.readyState === EventSource.CLOSED) again(0); };
    }
    return es;
  }

  let goneWords = "";
  function gone() {
    $("gone").hidden = false;
    $("gone").textContent = goneWords || "-";
    $("keys").replaceChildren();
  }

  // A phone's sealed channel (docs/phones.md): tweetnacl's secretbox (XSalsa20-Poly1305,
  // the Pi's libsodium secretbox). The QR's secret (in the fragment) keys the join only:
  // the page sends an X25519 public key of its own, the Pi answers with its own, and the
  // session's secret is nacl.box.before of the two. The QR's secret is spent by the join
  // and the session's secret is kept in this page's memory only: nothing the browser
  // writes down (history, storage, profile files) can act for the seat. Each direction
  // has its own key; each box carries its route and a number, and a number already seen
  // is refused on both sides, so nothing recorded on the Wi-Fi can be played again or
  // sent back.
  const enc = new TextEncoder(), dec = new TextDecoder();
  const PI_TO_PHONE = "pitable pi->phone 2\u0000", PHONE_TO_PI = "pitable phone->pi 2\u0000";
  function b64(bytes) { let s = ""; for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]); return btoa(s); }
  function unb64(text) { const s = atob(text), out = new Uint8Array(s.length); for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i); return out; }
  function keyOf(secret, label) {   // SHA-512 of the direction's label and the secret, first half
    const l = enc.encode(label), all = new Uint8Array(l.length + secret.length);
    all.set(l); all.set(secret, l.length);
    return nacl.hash(all).subarray(0, 32);
  }
  function channel(secret) {        // the phone's side: seals with phone->pi, opens with pi->phone
    const out = keyOf(secret, PHONE_TO_PI), inn = keyOf(secret, PI_TO_PHONE);
    let sent = 0, seen = 0;
    return {
      seal(obj, route) {
        let text = JSON.stringify({ ...obj, n: ++sent, r: route });
        text += " ".repeat((64 - enc.encode(text).length % 64) % 64);   // lengths say little
        const nonce = nacl.randomBytes(24), box = nacl.secretbox(enc.encode(text), nonce, out);
        const all = new Uint8Array(24 + box.length); all.set(nonce); all.set(box, 24);
        return b64(all);
      },
      // the message if it opens, is for this route and carries a number not seen yet
      open(text, route) {
        let m = null;
        try {
          const raw = unb64(text), plain = nacl.secretbox.open(raw.subarray(24), raw.subarray(0, 24), inn);
          m = plain ? JSON.parse(dec.decode(plain)) : null;
        } catch (e) { m = null; }
        if (!m || m.r !== route || !(m.n > seen)) return null;
        seen = m.n;
        return m;
      },
    };
  }

  // A typed address's session lives in this tab's sessionStorage (never in the address):
  // {code}. A sealed session lives in memory only (see above).
  const SESSION = "pitable-phone";
  function session() { try { return JSON.parse(sessionStorage.getItem(SESSION)) || {}; } catch (e) { return {}; } }
  function keep(s) { sessionStorage.setItem(SESSION, JSON.stringify(s)); }

  // The phone page: `me` is {sid, sealed} (a sealed session, in memory) or {code} (typed).
  function phone(me) {
    const sealed = me.sealed || null;
    const base = sealed ? "/x/" + me.sid : "/s/" + me.code;
    // What you saw is what you pressed: a tap names the screen this page had shown for a
    // reaction time when the finger went down (the table judges the key by it).
    let shown = [];   // [screen version, since (ms)], newest last
    let reaction = 300;
    let down = null;  // when the finger went down (a click comes on its release)
    document.addEventListener("pointerdown", () => { down = performance.now(); }, true);
    const seen = (at) => {
      for (let i = shown.length - 1; i >= 0; i--) if (shown[i][1] <= at - reaction) return shown[i][0];
      return 0;   // nothing up long enough: no screen this table knows (the key does nothing)
    };
    function send(key, action, screen) {
      if (sealed) return post(base + "/key", { box: sealed.seal({ key: key, action: action, screen: screen }, "key") });
      return post(base + "/key", { key: key, action: action, screen: screen });
    }
    const tap = (k, action) => () => {
      const at = down === null ? performance.now() : down;
      down = null;
      send(k, action, seen(at));
    };
    // the buttons are the seat's keys as the Pi names them (its payload's "name"): made
    // when the first seat update comes
    const buttons = [];
    const button = (i) => {
      const b = el("button"); b.type = "button"; b.dataset.key = i;
      b.addEventListener("click", tap(i, "press"));
      $("keys").append(b);
      return b;
    };
    $("hold-a").addEventListener("click", tap(6, "hold"));
    $("hold-x").addEventListener("click", tap(7, "hold"));
    const onSeat = (s) => {
      reaction = s.reaction;
      if (!shown.length || shown[shown.length - 1][0] !== s.screen) {
        shown.push([s.screen, performance.now()]);
        shown = shown.slice(-16);
      }
      goneWords = s.words["web.gone"];
      $("me").textContent = s.name;
      $("mybid").textContent = s.bid === null ? "" : s.words["web.my_bid"] + " " + s.bid;
      $("hold-a").textContent = "A: " + s.words["web.scores"];
      $("hold-x").textContent = "X: " + s.words["web.undo"];
      s.keys.forEach((k, i) => {
        const b = buttons[i] || (buttons[i] = button(i));
        b.replaceChildren(el("span", "n", k.name), document.createTextNode(k.label === k.name ? "" : k.label));
        if (k.label === k.name) b.firstChild.className = "big";
        b.disabled = !k.on;
        b.classList.toggle("mine", !!k.mine);
      });
    };
    if (!me.sid && !me.code) {
      gone();
    } else if (sealed) {
      // each opening carries a fresh number: the browser's own retry (the same address)
      // would be a replay, so the page closes a failed stream and opens a new one
      const open = (tries) => {
        const es = new EventSource(base + "/events/" + sealed.seal({}, "events"));
        let heard = false;
        es.addEventListener("box", (e) => {
          const m = sealed.open(e.data, "stream");
          if (!m) return;                                    // not ours, another route, or seen before
          heard = true;
          if (m.seat) onSeat(m.seat);
          if (m.table) showTable(m.table);
        });
        es.addEventListener("gone", () => { es.close(); gone(); });
        es.onerror = () => {
          es.close();
          const n = heard ? 0 : (tries || 0) + 1;
          if (n < 3) setTimeout(() => open(n), 3000); else gone();
        };
      };
      open(0);
    } else {
      listen(base + "/events", onSeat);
    }
  }

  if (page === "table") {
    listen("/events");
  } else if (page === "phone") {
    if (location.pathname.startsWith("/s/")) {          // an old address: its code moves out of it
      keep({ code: location.pathname.split("/")[2] });
      history.replaceState(null, "", "/phone");
    }
    // a sealed session is not kept anywhere a reload could find it: only a typed one is
    const me = session();
    if (me.code) {
      phone(me);
    } else {
      // no seat here (a sealed phone's page reloaded): say so in the table's words
      gone();
      const es = new EventSource("/events");
      es.addEventListener("table", (e) => {
        const t = JSON.parse(e.data);
        document.documentElement.lang = t.lang;
        goneWords = t.words["web.gone"];
        gone();
        es.close();
      });
    }
  } else if (page === "join") {
    // The QR's address carries the join's secret in its fragment (never sent): out of the
    // address bar at once; the browser's history keeps it, but it is good for one join.
    // A typed address carries the ticket in its path.
    const secret = location.hash.slice(1).toUpperCase();
    if (secret) history.replaceState(null, "", location.pathname);
    const ticket = secret ? null : location.pathname.slice(1);
    let words = {};
    // the button's words in the table's language, from the table's stream
    const es = new EventSource("/events");
    es.addEventListener("table", (e) => {
      const t = JSON.parse(e.data);
      document.documentElement.lang = t.lang;
      words = t.words;
      $("join").textContent = t.words["web.join"];
      es.close();
    });
    const refused = (status) => {
      $("join-error").textContent = status === 429 ? (words["web.join_busy"] || "429") : (words["web.join_used"] || "404");
    };
    // the phone page takes this page's place in the same document: the session's keys
    // stay in this page's memory, never in the address, the history or storage
    async function become(me) {
      let r = null;
      for (let i = 0; i < 3 && !(r && r.ok); i++) {   // the Pi busy (503): the seat is ours, try again
        if (i) await new Promise((done) => setTimeout(done, 1000));
        r = await fetch("/phone", { credentials: "omit", cache: "no-store" }).catch(() => null);
      }
      if (!r || !r.ok) { refused(503); return; }
      const doc = new DOMParser().parseFromString(await r.text(), "text/html");
      doc.querySelectorAll("script").forEach((x) => x.remove());   // this page's scripts run already
      document.body.replaceChildren(...doc.body.childNodes);
      document.body.dataset.page = "phone";
      history.replaceState(null, "", "/phone");
      phone(me);
    }
    $("join").addEventListener("click", async () => {
      if (!secret) {
        const r = await post("/api/join", { ticket: ticket });
        if (!r.ok) { refused(r.status); return; }
        keep({ code: (await r.json()).code });
        location.replace("/phone");
        return;
      }
      const qr = channel(enc.encode(secret)), mine = nacl.box.keyPair(), pk = b64(mine.publicKey);
      const r = await post("/api/join", { box: qr.seal({ pk: pk }, "join") });
      if (!r.ok) { refused(r.status); return; }
      const j = await r.json(), m = qr.open(j.box, "joined");
      if (!m || m.to !== pk || m.sid !== j.sid) { refused(404); return; }
      const shared = nacl.box.before(unb64(m.pk), mine.secretKey);
      mine.secretKey.fill(0);
      const sealed = channel(shared);
      shared.fill(0);
      sessionStorage.removeItem(SESSION);
      await become({ sid: m.sid, sealed: sealed });
    });
  }
})();
