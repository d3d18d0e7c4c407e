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
import re
import socket
import threading
from importlib import resources

from pitable.hardware.keys import HOLD, PRESS, KeyEvent
from pitable.web import http
from pitable.web.access import KeyLimit, RateLimit, normal_ticket
from pitable.web.payload import History, dumps, seat_payload, table_payload

log = logging.getLogger(__name__)

MAX_CONNECTIONS = 64
HEAD_SECONDS = 10.0
KEEPALIVE_SECONDS = 15.0
TICKET_PATH = re.compile(r"/[0-9A-Za-z]{4}-?[0-9A-Za-z]{4}")
CODE_PATH = re.compile(r"/s/([A-Za-z0-9_-]{1,64})(/events|/key)?")
PAGES = {"/": ("table.html", "text/html; charset=utf-8"),
         "/app.js": ("app.js", "text/javascript; charset=utf-8"),
         "/style.css": ("style.css", "text/css; charset=utf-8")}


def load_pages() -> dict:
    """Package data, read into memory once: nothing on disk is served by path."""
    folder = resources.files("pitable.web") / "pages"
    return {name: (folder / name).read_bytes() for name in
            ("table.html", "phone.html", "join.html", "app.js", "style.css")}


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
    __slots__ = ("writer", "code", "last_table", "last_seat")

    def __init__(self, writer, code=None):
        self.writer = writer
        self.code = code
        self.last_table = None
        self.last_seat = None


class WebServer:
    """``start()`` binds (a taken port raises OSError at once) and runs the thread;
    ``publish(snapshot)`` is called on the loop's thread and never blocks."""

    def __init__(self, post, *, bind: str = "127.0.0.1", port: int = 0, host: str | None = None,
                 join=None, clock=None):
        self.post = post
        self.join = join            # callable(ticket) -> (seat, code) | None, run ON the loop thread
        self.bind = bind
        self.port = port
        self.host = host
        self.pages = load_pages()
        self.snapshot = None
        self.limit = RateLimit(**({"clock": clock} if clock else {}))
        self.keys = KeyLimit(**({"clock": clock} if clock else {}))
        self.history = History()
        self.streams: set = set()
        self.connections = 0
        self.refused: dict = {}
        self.aloop = None
        self.thread = None
        self._sock = None
        self._keepalive = None
        self._summary = None
        self._table_bytes = None
        self._seat_bytes: dict = {}
        self.stopped = threading.Event()

    # -- from the loop thread -----------------------------------------------------------------

    def start(self) -> None:
        family = socket.AF_INET6 if ":" in self.bind else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
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

    async def _client(self, reader, writer) -> None:
        self.connections += 1
        try:
            if self.connections > MAX_CONNECTIONS:
                self._count(503)
                writer.write(http.error(503))
                return
            while True:
                keep = await self._one_request(reader, writer)
                if not keep:
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        except Exception:  # noqa: BLE001 - one client's fault never stops the server
            log.exception("web request failed")
        finally:
            self.connections -= 1
            try:
                writer.close()
            except Exception:  # noqa: BLE001
                pass

    async def _one_request(self, reader, writer) -> bool:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), HEAD_SECONDS)
        except asyncio.LimitOverrunError:
            self._count(431)
            writer.write(http.error(431))
            return False
        except asyncio.IncompleteReadError as e:
            if e.partial.strip():
                self._count(400)
                writer.write(http.error(400))
            return False
        except (asyncio.TimeoutError, ValueError):
            return False
        try:
            method, path, headers = http.parse_head(head[:-4])
            n = http.body_length(method, headers)
            body = await asyncio.wait_for(reader.readexactly(n), HEAD_SECONDS) if n else b""
            answer = await self._route(method, path, headers, body, reader, writer)
        except http.HTTPError as e:
            self._count(e.status)
            writer.write(http.error(e.status))
            return False
        except asyncio.TimeoutError:
            return False
        if answer is None:  # a stream: it ran until the client left
            return False
        writer.write(answer)
        await writer.drain()
        return headers.get("connection", "").lower() != "close"

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

    async def _route(self, method, path, headers, body, reader, writer):
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
            await self._stream(reader, writer, None)
            return None
        if path == "/api/join":
            if method != "POST":
                raise http.HTTPError(405)
            return await self._join(self._json_body(body), self._client_of(writer))
        if TICKET_PATH.fullmatch(path) and method == "GET":
            return http.response(200, self.pages["join.html"], "text/html; charset=utf-8")
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
                await self._stream(reader, writer, code)
                return None
            if method != "POST":
                raise http.HTTPError(405)
            seat = self._seat_of(code, client)
            obj = self._json_body(body)
            key, action = obj.get("key"), obj.get("action", PRESS)
            if type(key) is not int or not 0 <= key <= 7 or action not in (PRESS, HOLD) or len(obj) > 2:
                raise http.HTTPError(400)
            if not self.keys.allow(seat):
                raise http.HTTPError(429)
            self.post(KeyEvent(seat - 1, key, action))
            return http.response(204)
        raise http.HTTPError(404)

    def _seat_of(self, code: str, client: str, allow_moved: bool = False):
        if self.limit.blocked(client):
            raise http.HTTPError(429)
        snap = self.snapshot
        seat = snap.access.seat(code) if snap is not None else None
        if seat is None and allow_moved and snap is not None and snap.access.moved_to(code):
            return 0
        if seat is None:
            self.limit.failed(client)
            raise http.HTTPError(404)
        return seat

    async def _join(self, obj: dict, client: str) -> bytes:
        ticket = obj.get("ticket")
        if self.limit.blocked(client):
            raise http.HTTPError(429)
        if normal_ticket(ticket) is None or len(obj) != 1:
            self.limit.failed(client)
            raise http.HTTPError(404 if isinstance(ticket, str) else 400)
        future: concurrent.futures.Future = concurrent.futures.Future()

        def on_loop():
            try:
                future.set_result(self.join(ticket))
            except Exception as e:  # noqa: BLE001
                future.set_exception(e)

        self.post(on_loop)
        try:
            found = await asyncio.wait_for(asyncio.wrap_future(future), 2.0)
        except (asyncio.TimeoutError, Exception):  # noqa: BLE001
            raise http.HTTPError(503) from None
        if found is None:
            self.limit.failed(client)
            raise http.HTTPError(404)
        seat, code = found
        return http.response(200, dumps({"seat": seat, "code": code}), "application/json")

    # -- streams ------------------------------------------------------------------------------

    async def _stream(self, reader, writer, code) -> None:
        s = Stream(writer, code)
        writer.write(http.stream_head())
        self.streams.add(s)
        if self._keepalive is None:
            self._keepalive = asyncio.get_running_loop().call_later(KEEPALIVE_SECONDS, self._ping)
        try:
            self._send(s)
            # wait for the client to go (a stream client sends nothing more)
            while await reader.read(1024):
                pass
        finally:
            self.streams.discard(s)

    def _ping(self) -> None:
        self._keepalive = None
        if not self.streams:
            return
        for s in list(self.streams):
            self._write(s, b":\n\n")
        self._keepalive = asyncio.get_running_loop().call_later(KEEPALIVE_SECONDS, self._ping)

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
            self._table_bytes = dumps(table_payload(snap, self.history))
        return self._table_bytes

    def _send(self, s: Stream) -> None:
        snap = self.snapshot
        if snap is None:
            return
        if s.code is not None:
            seat = snap.access.seat(s.code)
            if seat is None:
                new = snap.access.moved_to(s.code)
                if new is not None:
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

    def _write(self, s: Stream, data: bytes) -> None:
        transport = s.writer.transport
        if transport.is_closing():
            self._drop(s)
            return
        if transport.get_write_buffer_size() > 1 << 20:  # a phone that reads nothing: let it go
            self._drop(s)
            return
        s.writer.write(data)

    def _drop(self, s: Stream) -> None:
        self.streams.discard(s)
        try:
            s.writer.close()
        except Exception:  # noqa: BLE001
            pass

