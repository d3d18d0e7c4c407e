"""Sealed phone traffic (docs/phones.md): everything that crosses the Wi-Fi, recorded byte
for byte during a game with two phones that scanned the QR, holds no seat code, ticket,
key, key press or bid in the clear; a recorded request played again, from the same
address or another, is refused; the page's crypto file is tweetnacl 1.0.3 as published."""

from __future__ import annotations

import base64
import hashlib
import json
import re
import socket
import threading
from pathlib import Path

from tests.web.conftest import SealedPhone, request
from tests.web.test_server import reveal_start

PAGES = Path(__file__).parents[2] / "pitable" / "web" / "pages"


class Recorder:
    """A TCP relay in front of the server: every byte each way, per connection, is kept
    (what a guest with the Wi-Fi password could decrypt off the air)."""

    def __init__(self, port):
        self.port = port
        self.wire: list = []        # (connection, "in" | "out", bytes)
        self.lock = threading.Lock()
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.via = self.sock.getsockname()[1]
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        n = 0
        while True:
            try:
                client, _ = self.sock.accept()
            except OSError:
                return
            n += 1
            server = socket.create_connection(("127.0.0.1", self.port))
            for a, b, way in ((client, server, "in"), (server, client, "out")):
                threading.Thread(target=self._pump, args=(a, b, n, way), daemon=True).start()

    def _pump(self, a, b, n, way):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                with self.lock:
                    self.wire.append((n, way, data))
                b.sendall(data)
        except OSError:
            pass
        for s in (a, b):
            try:
                s.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def all(self) -> bytes:
        with self.lock:
            return b"".join(d for _, _, d in self.wire)

    def close(self):
        self.sock.close()


class RelayedPhone(SealedPhone):
    """A sealed phone whose every connection goes through the recorder."""

    def __init__(self, t, url, recorder):
        super().__init__(t, url)
        self.via = recorder.via

    def _raw(self, method, path, body=None) -> bytes:
        head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.t.port}\r\nConnection: close\r\n"
        if body is None:
            return (head + "\r\n").encode()
        data = json.dumps(body).encode()
        return (head + f"Content-Type: application/json\r\nX-Pitable: 1\r\nContent-Length: {len(data)}\r\n\r\n"
                ).encode() + data

    def join(self) -> int:
        raw = self._raw("POST", "/api/join", {"box": self.joining.box()})
        status, _, body, _ = request(self.via, "POST", "", raw=raw)
        if status == 200:
            self.seat, self.sid, self.channel = self.joining.finish(json.loads(body)["box"])
            self.sent = 0
        self.t.sync()
        return status

    def key(self, key, action="press", source=None) -> int:
        status = request(self.via, "POST", "", raw=self.key_request(key, action))[0]
        self.t.sync()
        return status

    def key_request(self, key, action="press") -> bytes:
        return self._raw("POST", f"/x/{self.sid}/key", {"box": self.box({"key": key, "action": action}, "key")})

    def stream(self, source=None):
        s = socket.create_connection(("127.0.0.1", self.via))
        s.sendall(self._raw("GET", f"/x/{self.sid}/events/{self.box({}, 'events')}").replace(
            b"Connection: close\r\n", b""))
        holder = type("Stream", (), {"data": b"", "sock": s})()

        def read():
            try:
                while True:
                    chunk = s.recv(65536)
                    if not chunk:
                        break
                    holder.data += chunk
            except OSError:
                pass
        threading.Thread(target=read, daemon=True).start()
        self.t.sync()
        return holder


def qr_join(t, recorder, known, pad=1):
    t.press(pad, 4)                                     # a joined pad's 5: the QR
    known |= set(t.phones.tickets) | set(t.phones.secrets.values())
    phone = RelayedPhone(t, t.view().phone_qr, recorder)
    assert phone.join() == 200
    return phone


def test_nothing_secret_crosses_the_wifi_in_the_clear_in_a_game_with_two_sealed_phones(web_table):
    t = web_table()
    rec = Recorder(t.port)
    known: set = set()                                  # every ticket and QR key of the evening
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    phones = [qr_join(t, rec, known) for _ in range(2)]
    assert [p.seat for p in phones] == [4, 5]
    codes = set(t.phones.codes.values())
    tv = socket.create_connection(("127.0.0.1", rec.via))
    tv.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{t.port}\r\n\r\n".encode())
    t.press(1, 6)
    t.press(1, 6)                                       # the game starts: codes move, sessions stay
    codes |= set(t.phones.codes.values())
    reveal_start(t)
    streams = [p.stream() for p in phones]
    bids = [(phones[0], 5), (phones[1], 3)]
    for phone, k in bids:
        assert phone.key(k) == 204                      # the phones bid a 6 and a 4 ...
    assert phones[0].key(2) == 204                      # ... and S4 changes to a 3
    mine = phones[0].events(streams[0])[-1]
    assert mine[0] == "table" or mine[1]["bid"] == "3"
    seats = [m for k, m in phones[0].events(streams[0]) if k == "seat"]
    assert seats[-1]["bid"] == "3" and seats[-1]["keys"][2]["mine"]
    t.press(1, 0)
    t.press(2, 1)                                       # the last lock-in: the reveal
    assert phones[1].key(0, "hold") == 204              # a hold, sealed too
    t.sync()
    wire = rec.all()
    low = wire.lower()
    # no seat code, ticket or key ...
    assert len(known) == 4 and codes
    for secret in codes | known:
        assert secret.encode().lower() not in low, secret
        assert secret.replace("-", "").encode().lower() not in low
    # ... no key press and no phone's bid: nothing of a seat's view or a key's body
    for clear in (b'"key"', b'"action"', b'"press"', b'"hold"', b'"bid"', b'"mine"', b'"seat":', b"event: seat"):
        assert clear not in wire, clear
    # with the QR's secrets too (a browser's History keeps them), the recording opens no
    # box of a session: the session's key came from the join's X25519 pair
    from pitable.web.seal import Channel, Refused

    boxes = set(re.findall(rb"[A-Za-z0-9+/]{100,}={0,2}", wire))
    assert len(boxes) > 10
    for secret in (k for k in known if len(k) == 26):
        for side in ("pi", "phone"):
            probe = Channel(secret, side=side)
            for box in boxes:
                for route in ("key", "events", "stream"):
                    try:
                        probe.peek(box.decode(), route)
                    except Refused:
                        continue
                    raise AssertionError(f"a session's box opened with the QR's secret ({route})")
    # what the phones' streams carry: sealed boxes (and keep-alive comments) only
    for s in streams:
        body = s.data.partition(b"\r\n\r\n")[2]
        assert re.fullmatch(rb"(retry: 3000\n\n)?((event: box\ndata: [A-Za-z0-9+/=]+\n\n)|(:\n\n))*", body)
    # the recorded requests, played again: refused from the phone's address and from another
    keys = [d for _, way, d in rec.wire if way == "in" and b"/key HTTP/1.1" in d]
    assert keys
    before = t.posted
    for source in ("127.0.0.1", "127.0.0.42"):
        for raw in keys:
            assert request(t.port, "POST", "", raw=raw, source=source)[0] in (404, 429)
        for _, way, d in rec.wire:
            if way == "in" and (d.startswith(b"GET /x/") or b"/api/join" in d):
                assert request(t.port, "GET", "", raw=d.replace(b"\r\n\r\n", b"\r\nConnection: close\r\n\r\n", 1)
                               if d.startswith(b"GET") else d, source=source, timeout=2)[0] in (404, 429)
    t.sync()
    assert t.posted == before                           # no replayed key reached the table
    assert phones[0].key(7) == 204                      # and the phone itself goes on
    for s in streams:
        s.sock.close()
    tv.close()
    rec.close()


def test_a_box_sealed_with_another_key_or_changed_by_one_bit_is_refused(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)
    url = t.view().phone_qr
    wrong = SealedPhone(t, url.split("#")[0] + "#" + "0" * 26, source="127.0.0.43")
    assert wrong.join() == 404                          # a key of its own opens nothing
    phone = SealedPhone(t, url)
    assert phone.join() == 200
    raw = phone.key_request(0)
    head, _, body = raw.partition(b"\r\n\r\n")
    box = bytearray(base64.b64decode(json.loads(body)["box"]))
    box[-1] ^= 1
    changed = json.dumps({"box": base64.b64encode(bytes(box)).decode()}).encode()
    assert request(t.port, "POST", "", raw=head + b"\r\n\r\n" + changed)[0] == 404
    assert request(t.port, "POST", "", raw=raw)[0] == 204   # the untouched one, once
    assert request(t.port, "POST", "", raw=raw)[0] == 404   # and never twice


def test_the_pages_crypto_is_tweetnacl_1_0_3_as_published():
    """nacl.min.js and its licence, byte for byte as in the npm package tweetnacl 1.0.3
    (tarball sha512 6rt+RN7a..., shasum ac0af716...): a changed file fails here."""
    assert hashlib.sha256((PAGES / "nacl.min.js").read_bytes()).hexdigest() == \
        "973cc5733cc7432e30ee4682098f413094f494bccf76a567c23908c5035ddbbc"
    licence = (PAGES / "nacl.LICENSE").read_text()
    assert licence.startswith("This is free and unencumbered software released into the public domain.")


def test_the_pi_and_the_page_seal_the_same_way():
    """PyNaCl and tweetnacl are one construction: node runs the shipped file as the page's
    phone (its key pair, the direction keys from the labels, box.before for the session)
    against the Pi's side here: the join, a key the phone seals, a stream box the Pi seals."""
    import shutil
    import subprocess

    import pytest

    from pitable.web.seal import EVENTS, KEY, PHONE_TO_PI, PI_TO_PHONE, STREAM, Join, Refused

    node = shutil.which("node")
    if node is None:
        pytest.skip("no node to run the page's crypto file outside a browser")
    secret = "ABCDEFGHJKMNPQRSTVWXYZ2345"
    label = {"in": PI_TO_PHONE.decode().replace("\x00", "\\u0000"),
             "out": PHONE_TO_PI.decode().replace("\x00", "\\u0000")}
    script = (f"const nacl=require({json.dumps(str(PAGES / 'nacl.min.js'))});"
              "const enc=new TextEncoder(),dec=new TextDecoder(),"
              "rl=require('readline').createInterface({input:process.stdin});"
              "const b64=(u)=>Buffer.from(u).toString('base64'),unb64=(t)=>new Uint8Array(Buffer.from(t,'base64'));"
              "const cat=(a,b)=>{const o=new Uint8Array(a.length+b.length);o.set(a);o.set(b,a.length);return o;};"
              "const keyOf=(s,l)=>nacl.hash(cat(enc.encode(l),s)).subarray(0,32),"
              f"IN='{label['in']}',OUT='{label['out']}';"
              "const seal=(k,o)=>{const n=nacl.randomBytes(24);"
              "return b64(cat(n,nacl.secretbox(enc.encode(JSON.stringify(o)),n,k)));};"
              "const open=(k,t)=>{const r=unb64(t),m=nacl.secretbox.open(r.subarray(24),r.subarray(0,24),k);"
              "return m?JSON.parse(dec.decode(m)):null;};"
              f"const qr=enc.encode('{secret}'),me=nacl.box.keyPair();"
              "console.log(seal(keyOf(qr,OUT),{r:'join',n:1,pk:b64(me.publicKey)}));"
              "const lines=[];rl.on('line',(l)=>{lines.push(l);if(lines.length<2)return;"
              "const a=open(keyOf(qr,IN),lines[0]);const s=nacl.box.before(unb64(a.pk),me.secretKey);"
              "console.log(JSON.stringify(a));console.log(seal(keyOf(s,OUT),{r:'key',n:1,key:3}));"
              "console.log(JSON.stringify(open(keyOf(s,IN),lines[1])));rl.close();});")
    proc = subprocess.Popen([node, "-e", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        box = proc.stdout.readline().strip()
        join = Join(secret)
        channel, answer = join.accept(box, 4, "S" * 16)
        proc.stdin.write(answer.decode() + "\n" + channel.seal({"seat": {"bid": "6"}}, STREAM).decode() + "\n")
        proc.stdin.flush()
        out, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    answered, key, streamed = out.strip().split("\n")
    assert json.loads(answered)["seat"] == 4 and json.loads(answered)["r"] == "joined"
    assert channel.open(key, KEY) == {"n": 1, "r": "key", "key": 3}
    assert json.loads(streamed) == {"n": 1, "r": "stream", "seat": {"bid": "6"}}
    with pytest.raises(Refused):
        channel.peek(key, EVENTS)               # a box is taken on its own route only
