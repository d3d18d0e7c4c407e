"""The web thread's side: a snapshot -> the bytes each kind of client receives.

Words are made here with the table's catalog (``catalog(lang).words``), from the same
``Msg`` values the OLED draws: the browser gets words, never message ids, and no
script formats a sentence. The table payload is made once per snapshot whatever the
number of pages; a seat's payload once per phone seat. Only the seat payload carries
anything private, and only that seat's own pending bid.
"""

from __future__ import annotations

import base64
import json

from pitable.i18n import catalog, msg
from pitable.screens import views as v
from pitable.table.notices import REVEAL_NOT_SAVED

from pitable.keys import NAMES  # noqa: E402


def dumps(obj) -> bytes:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"), sort_keys=True).encode()


class History:
    """Replays the moves of a game on a copy of the rules (web thread, never the table's
    state) and keeps what was revealed: each turn's bids, who took what. Cached by
    the moves already replayed."""

    def __init__(self):
        self._header = None
        self._moves: tuple = ()
        self._items: list = []
        self._state = None

    def items(self, header, moves: tuple, seats: tuple) -> list:
        if header is None:
            return []
        if header is not self._header or moves[:len(self._moves)] != self._moves:
            from pitable.rules.log import new_state

            self._header, self._moves, self._items = header, (), []
            self._state = new_state(header)
        for move in moves[len(self._moves):]:
            self._push(move, seats)
        self._moves = moves
        return self._items

    def _push(self, move, seats) -> None:
        st = self._state
        game = self._header.get("game")
        round_, turn = getattr(st, "round", 0), getattr(st, "turn", 0)
        fx = st.push(move)
        if game == "cockroach":
            self._cockroach(round_, fx, seats)
            return
        from pitable.rules.grasshopper import Bids, Harvested, Plagued, RoundEnded, Stalemate, Took
        from pitable.table.grasshopper import cards_list, counted
        from pitable.rules.grasshopper import KINDS

        lines = []
        if isinstance(move, Bids):
            lines.append({"bids": [[seats[p], c] for p, c in enumerate(move.cards)]})
        for e in fx:
            if isinstance(e, Took):
                key = "line.takes_all" if e.how in ("ace", "x", "alone") else "line.takes"
                lines.append(msg(key, seat=seats[e.seat], cards=cards_list(e.cards)))
            elif isinstance(e, Harvested):
                lines.append(msg("line.harvest", seat=seats[e.seat], cards=counted(3 * e.chips, KINDS[e.kind]),
                                 n=e.chips))
            elif isinstance(e, Plagued):
                lines.append(msg("line.plague", seat=seats[e.seat]))
            elif isinstance(e, Stalemate):
                lines.append(msg("title.stalemate"))
            elif isinstance(e, RoundEnded):
                lines.append(msg("title.round_over", round=e.round))
                lines.append(msg("line.majority", seats=tuple(seats[s] for s in e.majority)) if e.majority
                             else msg("line.no_majority"))
        if not lines:
            return
        last = self._items[-1] if self._items else None
        if not isinstance(move, Bids) and last and (last["round"], last.get("turn")) == (round_, turn):
            last["lines"] = last["lines"] + lines   # the choices of a turn go with its bids
        else:
            self._items.append({"round": round_, "turn": turn, "lines": lines})


    def _cockroach(self, round_, fx, seats) -> None:
        """A round's story in order: the offer, each pass with its claim, the call, the
        card's kind and who lays it face up (and a row one short of losing), the loss."""
        from pitable.rules.cockroach import KIND_INDEX, Called, Lost, Offered, Passed, Took

        st = self._state
        lines = []
        for e in fx:
            if isinstance(e, (Offered, Passed)):
                lines.append(msg("cr.story.offer" if isinstance(e, Offered) else "cr.story.pass",
                                 seat=seats[e.seat], to=seats[e.to], kind=msg(f"kind.{e.claim}")))
            elif isinstance(e, Called):
                lines.append(msg("cr.story.true" if e.true else "cr.story.false", seat=seats[e.seat]))
            elif isinstance(e, Took):
                lines.append(msg("cr.line.right" if e.why == "right_call" else "cr.line.wrong",
                                 kind=msg(f"kind.{e.kind}")))
                lines.append(msg("cr.line.face_up", seat=seats[e.seat]))
                count = st.rows[e.seat][KIND_INDEX[e.kind]]
                if not st.is_over() and count == st.losing_count - 1:
                    lines.append(msg("cr.line.one_more", seat=seats[e.seat], cards=msg(f"n.{e.kind}", n=count)))
            elif isinstance(e, Lost):
                lines.append(msg(f"cr.line.loses.{e.reason}", seat=seats[e.seat]))
        if not lines:
            return
        last = self._items[-1] if self._items else None
        if last and last["round"] == round_:
            last["lines"] = last["lines"] + lines
        else:
            self._items.append({"round": round_, "lines": lines})


def _card(w, st, items, pads) -> dict | None:
    """Cockroach Poker: the card in play (who holds it, the claim, who has seen it, the
    round so far), public like everything said aloud at the table; None between rounds."""
    if st.get("phase") not in ("answer", "flip"):
        return None
    seen = tuple(st["chain"])  # seat numbers already (rules.log.by_seat)
    story = items[0]["lines"] if items and items[0]["head"] == w(msg("resumed.round", round=st["round"])) else []
    # the claim said as a claim ("P6 said: toad"), never as what the card is
    sender = st["chain"][-1] if st["chain"] else None
    claim = msg(f"kind.{st['claim']}")
    return {"holder": w(msg("web.holds", seat=st["to"])),
            "claim": w(msg("cr.said", sender=sender, kind=claim) if sender is not None else claim),
            "seen": w(msg("cr.seen", seats=seen)), "story": story}


def _setup(w, st, header, pads) -> dict | None:
    """How the real cards are set up, while the game has not really begun: Cockroach Poker
    until the first offer (C1, C6, as the glass tells it), Grasshopper Poker until the
    first bids are revealed (the rulebook's preparation)."""
    if header is None:
        return None
    if st["game"] == "cockroach":
        if st["phase"] != "offer" or sum(s["hand"] for s in st["seats"]) + st["aside"] != 64:
            return None  # a card has left a hand: the game has begun
        lines = [msg("cr.deal.aside")] if st["aside"] else []
        lines.append(msg("cr.deal.from", n=64 - st["aside"], seat=st["first"]))
        by_count: dict = {}
        for i, s in enumerate(st["seats"]):
            by_count.setdefault(s["hand"], []).append(pads[i])
        lines += [msg("cr.deal.each", seats=tuple(seats), n=n) for n, seats in sorted(by_count.items(), reverse=True)]
        lines += [msg("cr.deal.lose_at", n=5 if st["players"] == 2 else 4), msg("cr.deal.empty"),
                  msg("cr.deal.first", seat=st["first"])]
        return {"title": w(msg("cr.title.deal")), "lines": [w(line) for line in lines]}
    if st["round"] != 1 or st["turn"] != 1 or st["phase"] not in ("reveal", "bidding"):
        return None
    lines = [msg("gh.setup.cards"), msg("gh.setup.chips")]
    if header.get("deck") == "virtual":
        lines.append(msg("gh.setup.virtual"))
    else:
        lines += [msg("gh.setup.pile"), msg("gh.setup.display")]
    return {"title": w(msg("gh.title.setup")), "lines": [w(line) for line in lines]}


def _sitting(w, sitting) -> dict | None:
    """The evening's score as on the glass: per seat its Grasshopper Poker wins and
    Cockroach Poker losses; None before the first game ends."""
    if not sitting or not sitting.get("games"):
        return None
    return {"title": w(msg("sit.title", n=sitting["games"])),
            "heads": [w(msg("web.game_wins")), w(msg("web.game_losses"))],
            "rows": [[w(msg("seat", seat=s)), wins, losses] for s, wins, losses in sitting["seats"]]}


def _words_of_items(w, items) -> list:
    out = []
    for item in items:
        lines = []
        for line in item["lines"]:
            if isinstance(line, dict):  # the revealed bids of a turn: seat and card
                lines.append({"bids": [[w(msg("seat", seat=s)), c] for s, c in line["bids"]]})
            else:
                lines.append(w(line))
        head = (w(msg("resumed.round_turn", round=item["round"], turn=item["turn"])) if "turn" in item
                else w(msg("resumed.round", round=item["round"])))
        out.append({"head": head, "lines": lines})
    return out[::-1]  # newest first


def table_payload(snap, history: History) -> dict:
    """What the table page (and every phone, under ``table``) shows: public only."""
    lang = snap.language
    w = catalog(lang).words
    st = snap.state
    out = {"lang": lang, "frame": base64.b64encode(snap.frame).decode(),
           "words": {k: w(msg(k)) for k in ("web.display", "web.history", "web.screen", "web.locked",
                                                               "web.join", "web.card", "web.sitting",
                                                               "web.join_used", "web.join_busy")},
           "sitting": _sitting(w, getattr(snap, "sitting", None)), "card": None, "setup": None}
    if st.get("phase") == "setup":
        # the heading says what the glass asks: no game is chosen while it asks which
        if st.get("step") == "game":
            out["game"], out["where"] = w(msg("setup.which_game")), ""
        else:
            out["game"] = w(msg(f"game.{st['game']}"))
            out["where"] = w(msg("setup.options" if st.get("step") == "options" else "setup.who_plays"))
        out["seats"] = [{"name": w(msg("seat", seat=s)), "lines": [], "locked": False}
                        for s in st["joined"]]
        out["display"] = None
        out["history"] = []
        return out
    game = st["game"]
    pads = st["pads"]
    out["game"] = w(msg(f"game.{game}"))
    locked = set(st.get("locked", ()))
    seats = []
    if game == "cockroach":
        out["where"] = w(msg("resumed.round", round=st["round"]))
        for i, s in enumerate(st["seats"]):
            row = [w(msg(f"n.{k}", n=n)) for k, n in s["row"].items() if n] if isinstance(s["row"], dict) \
                else [w(msg(f"n.{k}", n=n)) for k, n in s["row"] if n]
            counts = s["row"].values() if isinstance(s["row"], dict) else [n for _, n in s["row"]]
            seats.append({"name": w(msg("seat", seat=pads[i])), "count": w(msg("web.cards", n=s["hand"])),
                          "lines": row, "locked": False,
                          "active": st.get("active") == pads[i],
                          # C6: one more of a kind loses (3, or 4 with two players)
                          "warn": any(n == (4 if st["players"] == 2 else 3) for n in counts)})
        out["display"] = None
    else:
        out["where"] = w(msg("resumed.round_turn", round=st["round"], turn=st["turn"]))
        out["display"] = [w(msg(f"n.{k}", n=n)) for k, n in st["display"].items()] or [w(msg("display.empty"))]
        out["pile"] = w(msg("pile", n=st["pile"]))
        for i, s in enumerate(st["seats"]):
            seats.append({"name": w(msg("seat", seat=pads[i])), "count": w(msg("web.chips", n=s["chips"])),
                          "lines": [w(msg(f"n.{k}", n=n)) for k, n in s["garden"].items()],
                          "locked": pads[i] in locked,
                          "active": st.get("chooser") == pads[i]})
    out["bidding"] = st.get("phase") == "bidding"
    out["seats"] = seats
    out["history"] = _words_of_items(w, history.items(snap.header, snap.moves, snap.seats))
    if game == "cockroach":
        out["card"] = _card(w, st, out["history"], pads)
    out["setup"] = _setup(w, st, snap.header, pads)
    return out


# -- a phone seat's keys: the same meanings and labels the screen gives them -------------------

def seat_keys(snap, seat: int) -> list:
    """[{"label", "on", "mine"}] for the 8 keys of ``seat``, from the table's view."""
    w = catalog(snap.language).words
    view = snap.view
    keys = [{"label": n, "on": True, "mine": False} for n in NAMES]

    def only(labels: dict) -> list:
        return [{"label": labels.get(i, NAMES[i]), "on": i in labels, "mine": False} for i in range(8)]

    if isinstance(view, v.Setup):
        if view.step == "game":
            return only({0: w(msg("game.grasshopper")), 1: w(msg("game.cockroach")), 7: w(msg("web.language"))})
        if view.step == "join":
            if getattr(view, "phone", None):
                return only({7: w(msg("key.go_on"))})
            if seat not in view.joined:
                return [{"label": w(msg("web.join")), "on": True, "mine": False} for _ in NAMES]
            labels = {6: w(msg("key.go_on")), 7: w(msg("key.leave"))}
            if view.game == "grasshopper":
                labels[5] = w(view.pi_key or msg("seat.assistant"))
            return only(labels)
        labels = {i: w(label) for i, (label, _) in enumerate(view.options)}
        labels.update({6: w(msg("key.start")), 7: w(msg("web.back"))})
        return only(labels)
    if isinstance(view, v.Bidding):
        st = snap.state
        try:
            player = st["pads"].index(seat)
        except ValueError:
            return only({})
        spent = set(st["seats"][player].get("spent", ()))
        bid = snap.private.get(seat)
        return [{"label": n, "on": n not in spent, "mine": bid == i} for i, n in enumerate(NAMES)]
    if isinstance(view, v.RevealPrompt):
        from pitable.rules.grasshopper import KINDS

        by = getattr(view, "by", None)
        if by is not None and by != seat:  # one card, one record: the seat that names them
            return only({})
        return only({i: w(msg(f"kind.{k}")) for i, k in enumerate(KINDS)})
    if isinstance(view, v.Choosing):
        if view.seat != seat:
            return only({})
        from pitable.rules.grasshopper import KINDS

        return only({KINDS.index(k): w(msg(f"n.{k}", n=n)) for k, n in view.kinds})  # a kind's one key
    if isinstance(view, v.ConfirmUndo):
        return [{"label": w(msg("key.yes")) if i == 6 else w(msg("key.no")), "on": True, "mine": False}
                for i in range(8)]
    if isinstance(view, v.GameOver) or isinstance(view, v.CockroachOver):
        return only({0: w(msg("key.again")), 6: w(msg("key.new_game"))})  # 1: the same players again
    if isinstance(view, (v.CockroachOffer, v.CockroachAnswer, v.CockroachFlip)):
        from pitable.rules.cockroach import KINDS

        critters = {i: w(msg(f"kind.{k}")) for i, k in enumerate(KINDS)}
        if isinstance(view, v.CockroachOffer):
            if view.seat != seat:
                return only({})
            if view.step == "target":
                return only({s - 1: w(msg("seat", seat=s)) for s in view.seats if s != seat and s <= 6})
            return only(critters)
        if isinstance(view, v.CockroachAnswer):
            if view.seat != seat:
                return only({})
            if view.step == "claim":
                return only(critters)
            labels = {s - 1: w(msg("seat", seat=s)) for s in view.pass_to if s <= 6}
            labels.update({6: w(msg("key.true")), 7: w(msg("key.false"))})
            return only(labels)
        return only(critters)  # the flip: any seat may report the face-up critter (as on the pads)
    # Screens that say "any key": every button says what any key does there, and no button
    # is a card, a kind or a seat (docs/architecture.md, keys and screens)
    if isinstance(view, (v.Scores, v.CockroachRows, v.Sitting)):
        return [{"label": w(msg("web.back")), "on": True, "mine": False} for _ in NAMES]
    if isinstance(view, v.Message) and view.title == msg(REVEAL_NOT_SAVED):
        return [{"label": w(msg("key.try_again")), "on": True, "mine": False} for _ in NAMES]
    if isinstance(view, (v.BidsRevealed, v.Instructions, v.Resumed, v.Message)):
        return [{"label": w(msg("key.go_on")), "on": True, "mine": False} for _ in NAMES]
    return keys


def seat_payload(snap, seat: int) -> dict:
    w = catalog(snap.language).words
    bid = snap.private.get(seat)
    return {"seat": seat, "name": w(msg("seat", seat=seat)), "keys": seat_keys(snap, seat),
            "bid": None if bid is None else NAMES[bid],
            # the screen these buttons are for: a tap sends the one its page had shown for a
            # reaction time (the loop judges the key by it: docs/architecture.md)
            "screen": snap.screen, "reaction": round(snap.reaction * 1000),
            "words": {**{k: w(msg(k)) for k in ("web.my_bid", "web.undo", "web.gone")},
                      # what holding A shows: the chips, or in Cockroach Poker (no chips) the rows
                      "web.scores": w(msg("web.rows" if _game(snap) == "cockroach" else "web.scores"))}}


def _game(snap) -> str | None:
    st = snap.state or {}
    return st.get("game")
