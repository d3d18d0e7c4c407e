"""A real table loop in its own thread (as in the daemon) with the web server on loopback.

Pads are simulated by posting the ``KeyEvent`` s a pad makes; phones are HTTP clients on
raw sockets. The table's clock is frozen (toasts never expire mid-test), and seat codes
come from a seeded random source, so two runs that differ only in pending bids can be
compared byte for byte."""

from __future__ import annotations

import fcntl
import json
import random
import socket
import struct
import termios
import threading
import time
import weakref

import pytest

from pitable.hardware.keys import KeyEvent


class FrozenClock:
    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t


def request(port, method, path, body=None, headers=None, raw=None, timeout=5.0, source="127.0.0.1") -> tuple:
    """One request on a fresh connection from ``source`` (any 127.0.0.x: a device on the
    party's Wi-Fi): (status, headers dict, body bytes, raw bytes)."""
    if raw is None:
        h = {"Host": f"127.0.0.1:{port}", "Connection": "close"}
        data = b""
        if body is not None:
            data = body if isinstance(body, bytes) else json.dumps(body).encode()
            h.update({"Content-Type": "application/json", "X-Pitable": "1", "Content-Length": str(len(data))})
        h.update(headers or {})
        h = {k: v for k, v in h.items() if v is not None}
        raw = (f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in h.items())
               + "\r\n").encode() + data
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    try:
        s.sendall(raw)
        out = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (TimeoutError, ConnectionResetError):
                break
            if not chunk:
                break
            out += chunk
    finally:
        s.close()
    head, _, body = out.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ")[1]) if lines and lines[0].startswith("HTTP/1.1 ") else 0
    hdrs = {}
    for line in lines[1:]:
        k, _, v = line.partition(":")
        hdrs[k.strip().lower()] = v.strip()
    return status, hdrs, body, out


# every StreamClient still alive: sync() waits for loopback only while one of them reads
# (or the server has a stream open to any other client, e.g. through test_sealed's relay)
READING: weakref.WeakSet[StreamClient] = weakref.WeakSet()


class StreamClient:
    """An SSE client on a raw socket: every byte it receives is kept."""

    def __init__(self, port, path, source="127.0.0.1"):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
        self.data = b""
        self.closed = threading.Event()
        READING.add(self)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    break
                self.data += chunk
        except OSError:
            pass
        self.closed.set()

    def unread(self) -> int:
        """Bytes that have reached this socket and that its thread has not read yet."""
        try:
            return struct.unpack("i", fcntl.ioctl(self.sock.fileno(), termios.FIONREAD, b"\0\0\0\0"))[0]
        except (OSError, ValueError):
            return 0

    def status(self) -> int:
        head = self.data.partition(b"\r\n")[0]
        return int(head.split(b" ")[1]) if head.startswith(b"HTTP/1.1 ") else 0

    def events(self, kind=None) -> list:
        out = []
        for block in self.data.partition(b"\r\n\r\n")[2].split(b"\n\n"):
            lines = block.split(b"\n")
            if lines and lines[0].startswith(b"event: "):
                name = lines[0][7:].decode()
                data = json.loads(lines[1][6:]) if len(lines) > 1 else None
                if kind is None or name == kind:
                    out.append((name, data))
        return out

    def close(self):
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()
        self.thread.join(2)


class WebTable:
    """Pads 1..``pads`` and phone seats after them; the loop runs in its own thread."""

    def __init__(self, log_dir, pads=3, seed=7, language="en", deck="physical", port=0):
        from luma.core.device import dummy

        from pitable.daemon import assemble
        from pitable.web.access import Phones
        from pitable.web.server import WebServer

        rng = random.Random(seed)
        self.clock = FrozenClock()
        # how long sync() gives the streams' bytes to cross loopback (only while a stream
        # reads: with none open the loop and the web thread are synced without it); a test
        # that reads none of its open streams' bytes meanwhile may set 0
        self.loopback_wait = 0.02
        self.web = WebServer(None, bind="127.0.0.1", port=port)
        self.closed = False
        self.web.start()
        self.port = self.web.port
        self.phones = Phones(token_bytes=rng.randbytes, clock=self.clock)
        # the daemon's own wiring (pitable.daemon.assemble); a frozen clock: no reaction time to wait out
        self.table, self.loop, self.screen = assemble(
            dummy(width=128, height=64, mode="1"), clock=self.clock, reaction=0, web=self.web,
            screen={"blank_after": 0, "shift_after": 0},
            seats=pads, log_dir=log_dir, rng=random.Random(seed), language=language, deck=deck,
            notice_seconds=0, reveal_seconds=0, phones=self.phones, web_address=f"HTTP://127.0.0.1:{self.port}/")
        self.posted = 0  # keys the web side put on the loop's queue
        post = self.web.post

        def counted(item):
            if isinstance(item, KeyEvent):
                self.posted += 1
            post(item)

        self.web.post = counted
        self.thread = threading.Thread(target=self.loop.run, daemon=True)
        self.thread.start()
        self.sync()

    def sync(self):
        """Wait until the loop has handled everything queued and published it, and the
        web thread has sent it to every stream."""
        for _ in range(2):
            done = threading.Event()
            self.loop.post(done.set)
            assert done.wait(10), "the loop did not answer"
        if self.web.stopped.is_set():
            return
        done = threading.Event()
        self.web.aloop.call_soon_threadsafe(done.set)
        assert done.wait(10), "the web thread did not answer"
        reading = [s for s in list(READING) if not s.closed.is_set()]
        if reading or self.web.streams:  # a StreamClient, or any other reader the server streams to
            time.sleep(self.loopback_wait)  # the bytes on their way through loopback to a stream
            # ... and read by its thread, however busy the machine (more test workers than cores)
            for _ in range(500):
                if not any(s.unread() for s in reading):
                    break
                time.sleep(0.005)

    def press(self, seat, key, action="press"):
        self.loop.post(KeyEvent(seat - 1, key, action))
        self.sync()

    def view(self):
        return self.table.view()

    def phone_join(self, pad_seat=1) -> tuple:
        """A joined pad asks for a phone (key 5), the phone uses the QR's ticket."""
        self.press(pad_seat, 4)
        seat, url = self.view().phone
        ticket = url.rsplit("/", 1)[1]
        status, _, body, _ = request(self.port, "POST", "/api/join", {"ticket": ticket})
        assert status == 200, body
        self.sync()
        out = json.loads(body)
        return out["seat"], out["code"]

    def get(self, path, **kw):
        return request(self.port, "GET", path, **kw)

    def post(self, path, body, **kw):
        return request(self.port, "POST", path, body, **kw)

    def key(self, code, key, action="press"):
        status = request(self.port, "POST", f"/s/{code}/key", {"key": key, "action": action})[0]
        self.sync()
        return status

    def stream(self, path, source="127.0.0.1") -> StreamClient:
        s = StreamClient(self.port, path, source)
        self.sync()
        return s

    def close(self):
        from pitable.table.loop import Stop

        if self.closed:
            return
        self.closed = True
        self.loop.post(Stop())
        self.thread.join(10)
        self.web.close()
        self.table.close()


class SealedPhone:
    """A phone that scanned the QR, in Python: the page's protocol with PyNaCl (the same
    secretbox and X25519 as tweetnacl in the page): its public key sealed with the QR's
    secret to join, then every key and every event of its stream sealed with the session's
    keys and numbered (docs/phones.md, "Sealed phone traffic")."""

    def __init__(self, t, url, source="127.0.0.1"):
        from pitable.web.seal import Channel, PhoneJoin

        self.t, self.source = t, source
        self.secret = url.split("#", 1)[1]
        self.joining = PhoneJoin(self.secret)
        # until the join: the QR's secret (what a guest who has it would seal with)
        self.channel = Channel(self.secret, side="phone")
        self.sent = 0
        self.sid = self.seat = None
        self.last = {}              # what the phone's last join or key request got

    def box(self, obj, route) -> str:
        self.sent += 1
        return self.channel.seal_as(obj, self.sent, route).decode()

    def join(self) -> int:
        status, _, body, raw = request(self.t.port, "POST", "/api/join", {"box": self.joining.box()},
                                       source=self.source)
        self.last = {"status": status, "raw": raw}
        if status == 200:
            self.seat, self.sid, self.channel = self.joining.finish(json.loads(body)["box"])
            assert self.sid == json.loads(body)["sid"]
            self.sent = 0
        self.t.sync()
        return status

    def key_request(self, key, action="press") -> bytes:
        body = json.dumps({"box": self.box({"key": key, "action": action}, "key")}).encode()
        return (f"POST /x/{self.sid}/key HTTP/1.1\r\nHost: 127.0.0.1:{self.t.port}\r\nConnection: close\r\n"
                f"Content-Type: application/json\r\nX-Pitable: 1\r\n"
                f"Content-Length: {len(body)}\r\n\r\n").encode() + body

    def key(self, key, action="press", source=None) -> int:
        status = request(self.t.port, "POST", "", raw=self.key_request(key, action), source=source or self.source)[0]
        self.t.sync()
        return status

    def stream(self, source=None) -> StreamClient:
        return self.t.stream(f"/x/{self.sid}/events/{self.box({}, 'events')}", source=source or self.source)

    def events(self, stream) -> list:
        """What the phone reads of its stream: (kind, data) in order, each opened once."""
        out, seen = [], 0
        for block in stream.data.partition(b"\r\n\r\n")[2].split(b"\n\n"):
            if block.startswith(b"event: box\ndata: "):
                m = self.channel.peek(block[len(b"event: box\ndata: "):].decode(), "stream")
                assert m["n"] > seen
                seen = m["n"]
                out += [(k, m[k]) for k in ("seat", "table") if k in m]
        return out


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


@pytest.fixture
def web_table(tmp_path):
    made = []

    def make(**kw):
        t = WebTable(tmp_path / f"logs{len(made)}", **kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()
