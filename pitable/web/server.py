"""The web server: our own small HTTP subset on asyncio streams, in one thread (docs/phones.md).

In: a phone's key becomes the ``KeyEvent`` a pad makes, through ``loop.post``; a join
is a request to the loop (a callable on its queue, answered through a Future). Out:
the newest ``Snapshot`` the loop published, turned into words and JSON here. The web
thread never calls a controller or the rules state of the game.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import os
import itertools
import re
import socket
import sys
import threading
from importlib import resources

from pitable.hardware.keys import HOLD, PRESS, KeyEvent
from pitable.web import http
from pitable.web.access import KeyLimit, RateLimit, digest, normal_ticket
from pitable.web.payload import dumps, seat_payload, table_payload
from pitable.web.seal import EVENTS, KEY, STREAM, Refused   # (PyNaCl itself loads in the web thread)

log = logging.getLogger(__name__)

# Limits (docs/phones.md, "Threat model"). A connection counts as "seated" once it has
# shown a valid seat code: seated connections are outside the caps below, so that a
# seated phone always gets in, whatever anyone else on the Wi-Fi holds open.
MAX_CONNECTIONS = 64        # connections not (yet) seated
HARD_CONNECTIONS = 160      # all sockets: past it, 503 at once
PER_ADDRESS = 8             # sockets one address may hold (a browser uses up to 6 a host)
PUBLIC_STREAMS = 24         # GET /events (TV pages) for everyone ...
PUBLIC_PER_ADDRESS = 3      # ... and per address (a TV page, a join page, a reconnect)
SEAT_STREAMS = 2            # streams per seat: a third one ends the oldest (a phone reconnecting)
HEAD_SECONDS = 5.0          # from connecting to a whole request head
IDLE_SECONDS = 15.0         # a kept-alive connection waiting for its next request
KEEPALIVE_SECONDS = 15.0    # a comment on every stream: dead clients show as write errors
STREAM_SECONDS = 600.0      # a public stream ends then; EventSource reconnects by itself
STUCK_BYTES = 64 * 1024     # a stream this far behind at a keep-alive: its reader is gone
WRITE_SECONDS = 10.0        # every write: out of our buffer by then, or its reader does not read (closed)
SEND_BUFFER = 16 * 1024     # SO_SNDBUF of every socket (the kernel doubles it): what a reader
RECV_BUFFER = 8 * 1024      # that never reads (or a sender that never stops) can pin per socket
WRITE_HIGH = 16 * 1024      # our own buffer above the kernel's before a write waits
SWITCH_SECONDS = 0.001      # the GIL's switch interval while the web thread runs (see start)
WEB_NICE = 5                # the web thread's nice value above the loop's (see _run)
TICKET_PATH = re.compile(r"/[0-9A-Za-z]{4}-?[0-9A-Za-z]{4}")
CODE_PATH = re.compile(r"/s/([A-Za-z0-9_-]{1,64})(/events|/key)?")
SEALED_PATH = re.compile(r"/x/([A-Za-z0-9_-]{16})/(key|events/([A-Za-z0-9+/=]{40,1000}))")
PAGES = {"/": ("table.html", "text/html; charset=utf-8"),
         "/J": ("join.html", "text/html; charset=utf-8"),          # the QR's join page (key in the fragment)
         "/phone": ("phone.html", "text/html; charset=utf-8"),     # the phone page (its session in sessionStorage)
         "/nacl.min.js": ("nacl.min.js", "text/javascript; charset=utf-8"),   # tweetnacl 1.0.3, as published
         "/app.js": ("app.js", "text/javascript; charset=utf-8"),
         "/style.css": ("style.css", "text/css; charset=utf-8")}


def load_pages() -> dict:
    """Package data, read into memory once: nothing on disk is served by path."""
    folder = resources.files("pitable.web") / "pages"
    return {name: (folder / name).read_bytes() for name in
            ("table.html", "phone.html", "join.html", "app.js", "style.css", "nacl.min.js")}


def default_address() -> str:
    """The address of the interface with the default route (a UDP connect sends nothing)."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


class Stream:
    __slots__ = ("writer", "code", "last_table", "last_seat", "conn", "seat", "behind", "sid", "since")
    _opened = itertools.count()

    def __init__(self, writer, code=None, conn=None, seat=None, sid=None):
        self.writer = writer
        self.since = next(self._opened)   # the order streams opened in (the oldest ends first)
        self.code = code
        self.sid = sid          # a sealed session's id: every event of the stream is sealed
        self.conn = conn
        self.seat = seat
        self.last_table = None
        self.last_seat = None
        self.behind = None      # since when bytes wait in our buffer (its reader is slow or gone)


class Conn:
    """One client socket, as the limits see it."""
    __slots__ = ("writer", "address", "seated", "waiting", "since", "stream", "stuck")

    def __init__(self, writer, address, since):
        self.writer = writer
        self.address = address
        self.seated = False     # has shown a valid seat code
        self.waiting = True     # waiting for a request head (may be ended for a newcomer)
        self.since = since
        self.stream = None      # "public" or "seat" while it carries a stream
        self.stuck = None       # since when a write waits for its reader (may be ended for a newcomer)


class WebServer:
    """``start()`` binds (a taken port raises OSError at once) and runs the thread;
    ``publish(snapshot)`` is called on the loop's thread and never blocks."""

    def __init__(self, post, *, bind: str = "127.0.0.1", port: int = 0, host: str | None = None,
                 join=None, clock=None):
        self.post = post
        self.join = join            # callable(ticket) -> (seat, code) | None, run ON the loop thread
        self.join_sealed = None     # callable(box) -> (seat, session id, sealed answer) | None, ON the loop thread
        self.bind = bind
        self.port = port
        self.host = host
        self.pages = load_pages()
        self.snapshot = None
        self.limit = RateLimit(**({"clock": clock} if clock else {}))
        self.keys = KeyLimit(**({"clock": clock} if clock else {}))
        self.streams: set = set()
        self.conns: dict = {}          # Conn -> None, oldest first
        self.per_address: dict = {}    # address -> open sockets
        self.spent: set = set()        # digests of old codes whose `next` was given (once)
        self.refused: dict = {}
        self.aloop: asyncio.AbstractEventLoop | None = None
        self.thread: threading.Thread | None = None
        self._sock: socket.socket | None = None
        self._keepalive: asyncio.TimerHandle | None = None
        self._summary: asyncio.TimerHandle | None = None
        self._table_bytes: bytes | None = None
        self._seat_bytes: dict = {}
        self.stopped = threading.Event()

    # -- from the loop thread -----------------------------------------------------------------

    def start(self) -> None:
        # The web thread shares the GIL with the table's loop: under a flood it is busy, and
        # a key waits for the interpreter's switch interval (5 ms by default) before the
        # loop may run. 1 ms keeps the pads' and phones' p99 near the quiet one
        # (benchmarks/web_attack.py, docs/phones.md).
        if sys.getswitchinterval() > SWITCH_SECONDS:
            sys.setswitchinterval(SWITCH_SECONDS)
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # accepted sockets inherit these: the kernel memory one socket can pin is bounded
        # (by default a reader that never reads lets the send queue grow to 4 MiB)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RECV_BUFFER)
        try:
            sock.bind((self.bind, self.port))
        except OSError:
            sock.close()
            raise
        sock.listen(128)
        sock.setblocking(False)
        self._sock = sock
        self.port = sock.getsockname()[1]
        if self.host is None:
            self.host = "127.0.0.1" if self.bind.startswith("127.") else default_address()
        ready = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(ready,), name="pitable-web", daemon=True)
        self.thread.start()
        ready.wait(5)

    def address(self) -> str:
        return f"http://{self.host}:{self.port}/"

    def publish(self, snapshot) -> None:
        self.snapshot = snapshot
        aloop = self.aloop
        if aloop is not None and not self.stopped.is_set():
            try:
                aloop.call_soon_threadsafe(self._fan_out)
            except RuntimeError:  # the web loop is closed: the table goes on
                pass

    def close(self) -> None:
        aloop = self.aloop
        if aloop is not None and not self.stopped.is_set():
            aloop.call_soon_threadsafe(aloop.stop)
        if self.thread is not None:
            self.thread.join(5)

    # -- the web thread -----------------------------------------------------------------------

    def _run(self, ready) -> None:
        nice = WEB_NICE
        if nice:
            # the web thread yields the CPU to the table's loop (Linux: a thread's own nice
            # value): a flood of requests slows the pages, not the pads' and phones' frames
            try:
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), os.getpriority(os.PRIO_PROCESS, 0) + nice)
            except (OSError, AttributeError):
                pass
        try:  # the sealed channel's library, loaded here at start, not on the loop's first join
            import nacl.public  # noqa: F401 - the join's X25519
            import nacl.secret  # noqa: F401
        except ImportError:
            log.warning("PyNaCl is missing: phones can join only by the typed address (unsealed)")
        aloop = asyncio.new_event_loop()
        self.aloop = aloop
        try:
            server = aloop.run_until_complete(asyncio.start_server(self._client, sock=self._sock,
                                                                   limit=http.MAX_HEAD + 4))
            ready.set()
            aloop.run_forever()
            server.close()
        except Exception:  # noqa: BLE001 - the web side stops, the table goes on
            log.exception("the web server stopped")
        finally:
            self.stopped.set()
            ready.set()
            for task in asyncio.all_tasks(aloop):
                task.cancel()
            try:
                aloop.run_until_complete(asyncio.sleep(0))
            except Exception:  # noqa: BLE001
                pass
            aloop.close()

    def _count(self, status: int) -> None:
        """Refused requests are counted; the log gets one summary line a minute at most,
        never a path or a body (paths carry codes)."""
        self.refused[status] = self.refused.get(status, 0) + 1
        if self._summary is None and self.aloop is not None:
            self._summary = self.aloop.call_later(60.0, self._log_refused)

    def _log_refused(self) -> None:
        self._summary = None
        counts = ", ".join(f"{n} x {status}" for status, n in sorted(self.refused.items()))
        log.warning("web: refused requests so far: %s", counts)

    @property
    def connections(self) -> int:
        return len(self.conns)

    def _admit(self, writer):
        """A new socket: a Conn, or None (answered 503). Per address first; then, with no
        room left for clients that are not seated, a socket that holds a slot it does not
        use is ended for the newcomer (which may be a seated phone coming back): first
        the oldest whose reader does not read (a write waiting, a stream behind), then
        the oldest still waiting for a request head. Never a seated phone's, never a
        stream that is read (the TV page already streaming)."""
        address = self._client_of(writer)
        transport = writer.transport
        if transport is not None:
            transport.set_write_buffer_limits(high=WRITE_HIGH)
        if self.per_address.get(address, 0) >= PER_ADDRESS:
            # its own idlest socket (a kept-alive one waiting, a reader that does not
            # read) makes room: a browser's new request is worth more than its idle one
            mine = self._idlest(address)
            if mine is None:
                return None
            self._end(mine)
        unseated = sum(1 for c in self.conns if not c.seated)
        if unseated >= MAX_CONNECTIONS or len(self.conns) >= HARD_CONNECTIONS:
            oldest = self._idlest()
            if oldest is not None:
                self._end(oldest)
        if len(self.conns) >= HARD_CONNECTIONS:
            return None
        conn = Conn(writer, address, asyncio.get_running_loop().time())
        self.conns[conn] = None
        self.per_address[address] = self.per_address.get(address, 0) + 1
        return conn

    def _idlest(self, address=None):
        """The socket to end for a newcomer (from ``address`` only, if given), or None: see _admit."""
        behind = {s.conn for s in self.streams if s.behind is not None and s.conn is not None}
        conns = [c for c in self.conns if not c.seated and (address is None or c.address == address)]
        stuck = [c for c in conns if c.stuck is not None or c in behind]
        if stuck:
            return stuck[0]
        return next((c for c in conns if c.waiting), None)

    def _end(self, conn) -> None:
        self._forget(conn)
        transport = conn.writer.transport
        if transport is not None:
            transport.abort()

    def _forget(self, conn) -> None:
        if self.conns.pop(conn, False) is None:
            n = self.per_address.get(conn.address, 1) - 1
            if n > 0:
                self.per_address[conn.address] = n
            else:
                self.per_address.pop(conn.address, None)

    async def _client(self, reader, writer) -> None:
        conn = self._admit(writer)
        try:
            if conn is None:
                self._count(503)
                writer.write(http.error(503))
                return
            first = True
            while True:
                conn.waiting = True
                keep = await self._one_request(reader, writer, conn, HEAD_SECONDS if first else IDLE_SECONDS)
                first = False
                if not keep:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        except Exception:  # noqa: BLE001 - one client's fault never stops the server
            log.exception("web request failed")
        finally:
            # the socket counts against its address until it is really gone: a last
            # answer its reader does not take is dropped at the write deadline
            try:
                writer.close()
                if writer.transport.get_write_buffer_size():
                    await asyncio.wait_for(writer.wait_closed(), WRITE_SECONDS)
            except BaseException:  # noqa: BLE001 - time-out, reset, or the thread stopping
                if writer.transport is not None:
                    writer.transport.abort()
            if conn is not None:
                self._forget(conn)

    async def _one_request(self, reader, writer, conn, wait) -> bool:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), wait)
        except asyncio.LimitOverrunError:
            self._count(431)
            writer.write(http.error(431))
            return False
        except asyncio.IncompleteReadError as e:
            if e.partial.strip():
                self._count(400)
                writer.write(http.error(400))
            return False
        except (TimeoutError, ValueError):
            return False
        try:
            method, path, headers = http.parse_head(head[:-4])
            n = http.body_length(method, headers)
            # a socket still waiting for its body holds a slot it does not use yet: it stays
            # `waiting` (ended first for a newcomer, its own address's included)
            body = await asyncio.wait_for(reader.readexactly(n), HEAD_SECONDS) if n else b""
            conn.waiting = False
            answer = await self._route(method, path, headers, body, reader, writer, conn)
        except http.HTTPError as e:
            self._count(e.status)
            writer.write(http.error(e.status))
            return False
        except TimeoutError:
            return False
        if answer is None:  # a stream: it ran until the client left
            return False
        await self._answer(writer, conn, answer)
        return headers.get("connection", "").lower() != "close"

    async def _answer(self, writer, conn, data: bytes) -> None:
        """Write with a deadline: a reader that does not take it within WRITE_SECONDS is
        closed; while it waits, its socket is the first to go for a newcomer."""
        writer.write(data)
        if writer.transport.get_write_buffer_size() <= WRITE_HIGH:
            return
        conn.stuck = asyncio.get_running_loop().time()
        try:
            await asyncio.wait_for(writer.drain(), WRITE_SECONDS)
        except TimeoutError:
            writer.transport.abort()
            raise ConnectionError("the reader does not read") from None
        finally:
            conn.stuck = None

    def _check_host(self, headers) -> None:
        """DNS rebinding: the Host must be an address of ours."""
        host = headers.get("host")
        if host is None:
            return  # HTTP/1.0 without Host
        name, _, port = host.rpartition(":") if host.count(":") == 1 else (host, "", "")
        if port and port != str(self.port):
            raise http.HTTPError(421)
        if name not in {self.host, "127.0.0.1", "localhost", self.bind}:
            raise http.HTTPError(421)

    def _check_post(self, headers) -> None:
        """Nothing cross-site: the JSON type and our header force a CORS preflight (which
        gets 405, no Access-Control-* ever), and an Origin, if sent, must be ours."""
        if headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise http.HTTPError(415)
        if headers.get("x-pitable") != "1":
            raise http.HTTPError(403)
        origin = headers.get("origin")
        if origin is not None and origin != "http://" + headers.get("host", ""):
            raise http.HTTPError(403)

    def _json_body(self, body: bytes) -> dict:
        try:
            obj = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            raise http.HTTPError(400) from None
        if not isinstance(obj, dict):
            raise http.HTTPError(400)
        return obj

    def _client_of(self, writer) -> str:
        peer = writer.get_extra_info("peername")
        return str(peer[0]) if peer else "?"

    async def _route(self, method, path, headers, body, reader, writer, conn):
        self._check_host(headers)
        if method == "POST":
            self._check_post(headers)
        if path in PAGES:
            if method != "GET":
                raise http.HTTPError(405)
            name, kind = PAGES[path]
            return http.response(200, self.pages[name], kind)
        if path == "/api/state":
            if method != "GET":
                raise http.HTTPError(405)
            snap = self.snapshot
            if snap is None:
                raise http.HTTPError(503)
            return http.response(200, dumps(snap.state), "application/json")
        if path == "/events":
            if method != "GET":
                raise http.HTTPError(405)
            self._admit_public(conn)
            await self._stream(reader, writer, None, conn)
            return None
        if path == "/api/join":
            if method != "POST":
                raise http.HTTPError(405)
            return await self._join(self._json_body(body), self._client_of(writer))
        if TICKET_PATH.fullmatch(path) and method == "GET":
            return http.response(200, self.pages["join.html"], "text/html; charset=utf-8")
        m = SEALED_PATH.fullmatch(path)
        if m:
            return await self._sealed(method, m.group(1), m.group(3), body, reader, writer, conn)
        m = CODE_PATH.fullmatch(path)
        if m:
            code, what = m.groups()
            if what is None:
                if method != "GET":
                    raise http.HTTPError(405)
                return http.response(200, self.pages["phone.html"], "text/html; charset=utf-8")
            client = self._client_of(writer)
            if what == "/events":
                if method != "GET":
                    raise http.HTTPError(405)
                seat = self._seat_of(code, client, allow_moved=True)
                conn.seated = seat > 0
                await self._stream(reader, writer, code, conn, seat)
                return None
            if method != "POST":
                raise http.HTTPError(405)
            seat = self._seat_of(code, client)
            conn.seated = True
            obj = self._json_body(body)
            key, action = obj.get("key"), obj.get("action", PRESS)
            # "screen": the screen version the phone's page showed (the loop judges the key by it)
            screen = obj.get("screen")
            if type(key) is not int or not 0 <= key <= 7 or action not in (PRESS, HOLD) or \
                    not (screen is None or type(screen) is int and screen >= 0) or len(obj) > 3 or \
                    len(obj) > 2 + ("screen" in obj):
                raise http.HTTPError(400)
            if not self.keys.allow(seat):
                raise http.HTTPError(429)
            self.post(KeyEvent(seat - 1, key, action, by=self.snapshot.access.by(code), screen=screen))
            return http.response(204)
        raise http.HTTPError(404)

    async def _sealed(self, method, sid, box, body, reader, writer, conn):
        """A sealed session's key (POST /x/<id>/key, {"box": ...}) or stream (GET
        /x/<id>/events/<box>): the box must open with the key of the phone's direction,
        be for this route, carry a valid message and a counter above every one before;
        else 404 (or 400 for a message not valid for its route), whatever address it comes
        from, and nothing moves. Nothing here is guessed (a 256-bit key): no rate limit."""
        snap = self.snapshot
        found = snap.access.sealed(sid) if snap is not None else None
        if box is not None and method != "GET" or box is None and method != "POST":
            raise http.HTTPError(405)
        try:
            if found is None:
                raise Refused("no such session")
            seat, channel, by = found
            if box is not None:
                channel.open(box, EVENTS)
            else:
                obj = channel.open(self._json_body(body).get("box"), KEY, check=self._valid_key)
        except Refused:
            raise http.HTTPError(404) from None
        conn.seated = True
        if box is not None:
            await self._stream(reader, writer, None, conn, seat, sid=sid)
            return None
        if not self.keys.allow(seat):
            raise http.HTTPError(429)
        self.post(KeyEvent(seat - 1, obj["key"], obj.get("action", PRESS), by=by, screen=obj.get("screen")))
        return http.response(204)

    @staticmethod
    def _valid_key(obj: dict) -> None:
        """A sealed key's message: key 0-7, a press or a hold, the screen it was seen on."""
        key, action, screen = obj.get("key"), obj.get("action", PRESS), obj.get("screen")
        if type(key) is not int or not 0 <= key <= 7 or action not in (PRESS, HOLD) or \
                not (screen is None or type(screen) is int and screen >= 0):
            raise http.HTTPError(400)

    def _seat_of(self, code: str, client: str, allow_moved: bool = False):
        """The seat of a valid code (checked first: a valid code is never slowed by anyone's
        failures, its own client's included; 128 bits need no guessing limit). A wrong
        code counts against its client only: 404, or 429 once that client failed too
        often. An old code of the last game answers once (0: the stream says `next`)."""
        snap = self.snapshot
        seat = snap.access.seat(code) if snap is not None else None
        if seat is not None:
            return seat
        if allow_moved and snap is not None and snap.access.moved_to(code) and digest(code) not in self.spent:
            return 0
        blocked = self.limit.blocked(client)
        self.limit.failed(client)
        raise http.HTTPError(429 if blocked else 404)

    async def _join(self, obj: dict, client: str) -> bytes:
        ticket = obj.get("ticket")
        if "box" in obj and len(obj) == 1:      # before any limit: a box that opens needs none
            return await self._join_sealed(obj["box"])
        if self.limit.blocked(client):
            raise http.HTTPError(429)
        if normal_ticket(ticket) is None or len(obj) != 1:
            self.limit.failed(client)
            raise http.HTTPError(404 if isinstance(ticket, str) else 400)
        found = await self._on_loop(lambda: self.join(ticket))
        if found is None:
            self.limit.failed(client)
            raise http.HTTPError(404)
        seat, code = found
        return http.response(200, dumps({"seat": seat, "code": code}), "application/json")

    async def _on_loop(self, ask):
        """``ask()`` run on the loop thread (the one owner of the table), its answer awaited
        here; a loop that does not answer in 2 s is a 503, never a hang."""
        future: concurrent.futures.Future = concurrent.futures.Future()

        def on_loop():
            try:
                future.set_result(ask())
            except Exception as e:  # noqa: BLE001
                future.set_exception(e)

        self.post(on_loop)
        try:
            return await asyncio.wait_for(asyncio.wrap_future(future), 2.0)
        except (TimeoutError, Exception):  # noqa: BLE001
            raise http.HTTPError(503) from None

    async def _join_sealed(self, box) -> bytes:
        """The QR's join: the phone's public key sealed with the fragment's secret. Tried
        against the QR on the glass here first: a box that opens nothing never reaches the
        loop, and counts against no limit (a 128-bit secret is not guessed; the limits are
        for the typed 40-bit ticket). The answer (the session id, public, and the Pi's
        public key, sealed) is all the phone needs: no code leaves the Pi."""
        snap = self.snapshot
        if snap is None or not snap.access.opens_join(box):
            raise http.HTTPError(404)
        found = await self._on_loop(lambda: self.join_sealed(box) if self.join_sealed else None)
        if found is None:       # the QR went, or another phone was first
            raise http.HTTPError(404)
        _, sid, answer = found
        return http.response(200, dumps({"sid": sid, "box": answer}), "application/json")

    # -- streams ------------------------------------------------------------------------------

    def _admit_public(self, conn) -> None:
        """Room for one more public stream (a TV page) from ``conn``'s address, or 503.

        Full, a newcomer still gets in while another address holds more public streams
        than its own: that address's oldest ends (its page reconnects by itself), so
        devices that hold every stream cannot keep the table's TV out. A seat's stream
        (a phone's, sealed or not) is outside these caps and never counts."""
        public = [x for x in self.streams if x.code is None and x.sid is None and x.seat is None]
        def address(x):
            return x.conn.address if x.conn is not None else None
        held: dict = {}
        for x in public:
            held.setdefault(address(x), []).append(x)
        mine = len(held.get(conn.address, ()))
        if mine >= PUBLIC_PER_ADDRESS:
            raise http.HTTPError(503)
        if len(public) < PUBLIC_STREAMS:
            return
        most = max(len(xs) for xs in held.values())
        if most <= mine:
            raise http.HTTPError(503)
        oldest = min((x for xs in held.values() if len(xs) == most for x in xs), key=lambda x: x.since)
        self._drop(oldest)

    async def _stream(self, reader, writer, code, conn=None, seat=None, sid=None) -> None:
        s = Stream(writer, code, conn, seat, sid)
        if conn is not None:
            conn.stream = "seat" if code is not None or sid is not None else "public"
        if seat:  # at most SEAT_STREAMS a seat: a phone that reconnects ends its oldest
            mine = [x for x in self.streams if x.seat == seat]
            for old in mine[:max(0, len(mine) - SEAT_STREAMS + 1)]:
                self._drop(old)
        writer.write(http.stream_head() + b"retry: 3000\n\n")
        self.streams.add(s)
        if self._keepalive is None:
            self._keepalive = asyncio.get_running_loop().call_later(KEEPALIVE_SECONDS, self._ping)
        try:
            self._send(s)
            # wait for the client to go (a stream client sends nothing more); a public
            # stream ends after STREAM_SECONDS and its page reconnects
            limit = STREAM_SECONDS if code is None and sid is None else None
            await asyncio.wait_for(self._until_gone(reader), limit)
        except TimeoutError:
            pass
        finally:
            self.streams.discard(s)

    @staticmethod
    async def _until_gone(reader) -> None:
        while await reader.read(1024):
            pass

    def _ping(self) -> None:
        self._keepalive = None
        if not self.streams:
            return
        for s in list(self.streams):
            transport = s.writer.transport
            if transport is None or transport.get_write_buffer_size() > STUCK_BYTES:
                self._drop(s)   # it read nothing since the last keep-alive: nobody is there
            else:
                self._write(s, b":\n\n")
        self._keepalive = asyncio.get_running_loop().call_later(min(KEEPALIVE_SECONDS, WRITE_SECONDS), self._ping)

    def _fan_out(self) -> None:
        self._table_bytes = None
        self._seat_bytes = {}
        for s in list(self.streams):
            try:
                self._send(s)
            except Exception:  # noqa: BLE001 - one stream's fault is that stream's
                log.exception("web stream failed")
                self._drop(s)

    def _table_event(self) -> bytes:
        if self._table_bytes is None:
            snap = self.snapshot
            self._table_bytes = dumps(table_payload(snap))
        return self._table_bytes

    def _send(self, s: Stream) -> None:
        snap = self.snapshot
        if snap is None:
            return
        if s.sid is not None:
            self._send_sealed(s, snap)
            return
        if s.code is not None:
            seat = snap.access.seat(s.code)
            if seat is None:
                new = snap.access.moved_to(s.code)
                if new is not None and digest(s.code) not in self.spent:
                    self.spent.add(digest(s.code))  # given once: then the old code stops
                    self._write(s, b"event: next\ndata: " + dumps({"code": new}) + b"\n\n")
                else:
                    self._write(s, b"event: gone\ndata: {}\n\n")
                self._drop(s)
                return
            mine = self._seat_bytes.get(seat)
            if mine is None:
                mine = self._seat_bytes[seat] = dumps(seat_payload(snap, seat))
            if mine != s.last_seat:
                s.last_seat = mine
                self._write(s, b"event: seat\ndata: " + mine + b"\n\n")
        table = self._table_event()
        if table != s.last_table:
            s.last_table = table
            self._write(s, b"event: table\ndata: " + table + b"\n\n")

    def _send_sealed(self, s: Stream, snap) -> None:
        """A sealed session's stream: its own seat view and the table's, each sealed and
        numbered; one event name for both, so not even which one changed shows."""
        found = snap.access.sealed(s.sid)
        if found is None:   # taken back (the glass said so): nothing to seal it for
            self._write(s, b"event: gone\ndata: {}\n\n")
            self._drop(s)
            return
        seat, channel, _ = found
        mine = self._seat_bytes.get(seat)
        if mine is None:
            mine = self._seat_bytes[seat] = dumps(seat_payload(snap, seat))
        if mine != s.last_seat:
            s.last_seat = mine
            self._write(s, b"event: box\ndata: " + channel.seal({"seat": json.loads(mine)}, STREAM) + b"\n\n")
        table = self._table_event()
        if table != s.last_table:
            s.last_table = table
            self._write(s, b"event: box\ndata: " + channel.seal({"table": json.loads(table)}, STREAM) + b"\n\n")

    def _write(self, s: Stream, data: bytes) -> None:
        """A stream's writes have a deadline too: bytes still in our buffer WRITE_SECONDS
        after they first waited there, or more than STUCK_BYTES of them, and the reader
        is gone (the keep-alive timer looks at least every WRITE_SECONDS)."""
        transport = s.writer.transport
        if transport.is_closing():
            self._drop(s)
            return
        now = asyncio.get_running_loop().time()
        waiting = transport.get_write_buffer_size()
        if waiting == 0:
            s.behind = None
        elif s.behind is None:
            s.behind = now
        if waiting > STUCK_BYTES or (s.behind is not None and now - s.behind > WRITE_SECONDS):
            self._drop(s)
            return
        s.writer.write(data)
        if s.behind is None and transport.get_write_buffer_size():
            s.behind = now

    def _drop(self, s: Stream) -> None:
        self.streams.discard(s)
        if s.conn is not None:
            self._forget(s.conn)
        try:
            transport = s.writer.transport
            if transport is not None and transport.get_write_buffer_size():
                transport.abort()   # a close would wait for a reader that does not read
            else:
                s.writer.close()
        except Exception:  # noqa: BLE001
            pass

