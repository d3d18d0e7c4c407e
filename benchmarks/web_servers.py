"""Web servers for the phones and the table page, measured as a Pi Zero would want them.

For each candidate server (stdlib or from PyPI) this script starts a small server in a
child process that does what pitable's web side will do, and nothing more:

- GET /            a small page;            GET /api/state   the published state as JSON
- GET /events      the table page's push stream;  GET /s/<code>/events  a seat's stream
  (server-sent events), or /ws and /s/<code>/ws for the WebSocket candidates
- POST /s/<code>/key  {"key": 3, "t": <monotonic>} with a JSON content type and an
  X-Pitable header (the WebSocket candidates get keys as messages on their socket)
- a "table loop" thread that only takes keys off a queue and publishes a new state to
  every stream, as pitable's one loop will (the server never touches the state itself)
- a keep-alive every 15 s on every stream (an SSE comment, a WebSocket ping)

and measures, from this process (so the clients' CPU is not counted):

- import: CPU seconds (process_time: what a busy machine adds stays out) to import the
  server's modules in a fresh interpreter that has already imported what the daemon has
  anyway (json, logging, threading, queue, socket); fastest and median of 7
- RSS: VmRSS of the server after start, and with 20 seat streams + 2 table streams, minus
  the same child with no server at all ("none")
- idle CPU: CPU time of the server process (utime+stime from /proc/PID/stat, and the
  nanosecond sum of /proc/PID/task/*/schedstat) over --idle seconds with the 22 streams
  connected and nobody pressing; repeated --repeats times
- key latency on loopback: client sends a key -> the table loop takes it off its queue
  ("key->loop", stamped with the shared monotonic clock), and -> the new state arrives back
  on the sender's stream after being pushed to all 22 ("key->push"); median and p99
- bad requests: CPU time per malformed request (a new connection each), and how each was
  answered (4xx expected)

Nothing is installed by this script, and pitable does not depend on these libraries.
To rerun it with all candidates, use a throwaway venv outside the repository:

    python3 -m venv /tmp/webvenv
    /tmp/webvenv/bin/pip install aiohttp tornado websockets
    /tmp/webvenv/bin/python benchmarks/web_servers.py [--idle 30] [--repeats 3] [--keys 300]

Candidates whose library is missing are skipped (the two stdlib ones always run).
CPU-time figures hold on a busy machine; latencies do not (the load average is printed).
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import secrets
import selectors
import socket
import statistics
import struct
import subprocess
import sys
import tempfile
import threading
import time

HEARTBEAT = 15.0
SEATS = 20
TABLES = 2
PRELUDE = "import json, logging, threading, queue, socket"
CANDIDATES = {
    # name: (modules to import, push kind, note)
    "none": ("", "-", "the same child process without a server: the baseline"),
    "stdlib-threads": ("http.server", "sse", "http.server.ThreadingHTTPServer, a thread per connection"),
    "stdlib-asyncio": ("asyncio", "sse", "asyncio.start_server with a ~100-line HTTP/1.1 subset"),
    "aiohttp": ("aiohttp.web", "sse", "aiohttp.web, StreamResponse for SSE"),
    "aiohttp-ws": ("aiohttp.web", "ws", "aiohttp.web, WebSocketResponse(heartbeat=15), keys as messages"),
    "tornado": ("tornado.web, tornado.httpserver", "sse", "tornado.web on asyncio"),
    "websockets": ("websockets.asyncio.server", "ws", "websockets (asyncio), process_request for GETs"),
}

PAGE = b"<!doctype html><meta charset=utf-8><title>pitable</title><p>table page</p>"


# =============================================================================================
# The server side (runs in the child: python web_servers.py --serve NAME --port P --codes ...)
# =============================================================================================

class Table:
    """Stands in for pitable's loop: keys come in on a queue, states go out by publish()."""

    def __init__(self, publish):
        import queue
        self.queue = queue.SimpleQueue()
        self.publish = publish
        self.n = 0
        self.latest = self._state(None, None, 0)
        threading.Thread(target=self._run, daemon=True).start()

    def _state(self, seat, key, lat_us):
        return json.dumps({"n": self.n, "seat": seat, "key": key, "lat_us": lat_us},
                          separators=(",", ":")).encode()

    def post(self, seat: int, key: int, t: float) -> None:
        self.queue.put((seat, key, t))  # the only thing a web thread may do with the table

    def _run(self):
        while True:
            seat, key, t = self.queue.get()
            lat = round((time.monotonic() - t) * 1e6)  # CLOCK_MONOTONIC is shared by processes
            self.n += 1
            self.latest = self._state(seat, key, lat)
            self.publish(self.latest)


class Codes:
    """Seat codes, compared in constant time against every seat (no early exit)."""

    def __init__(self, codes):
        self.codes = [c.encode() for c in codes]

    def seat(self, code: str):
        import hmac
        given = code.encode("ascii", "replace")
        found = None
        for i, c in enumerate(self.codes):
            if hmac.compare_digest(given, c):
                found = i
        return found


def parse_key(body: bytes):
    """The key message: {"key": 0..7, "t": float}; anything else is None (-> 400)."""
    try:
        obj = json.loads(body)
    except ValueError:
        return None
    if not isinstance(obj, dict) or set(obj) != {"key", "t"}:
        return None
    key, t = obj["key"], obj["t"]
    if type(key) is not int or not 0 <= key <= 7 or type(t) not in (int, float):
        return None
    return key, float(t)


def origin_ok(headers, host_header: str | None) -> bool:
    origin = headers.get("origin") or headers.get("Origin")
    return origin is None or (host_header is not None and origin == f"http://{host_header}")


def route(path: str):
    """-> ("page"|"state"|"table"|"seat"|"key", code or None), or None for 404."""
    if path == "/":
        return "page", None
    if path == "/api/state":
        return "state", None
    if path in ("/events", "/ws"):
        return "table", None
    parts = path.split("/")
    if len(parts) == 4 and parts[1] == "s" and parts[3] in ("events", "ws", "key"):
        return ("key" if parts[3] == "key" else "seat"), parts[2]
    return None


def serve_none(port, codes):
    Table(lambda data: None)
    print("READY", flush=True)
    threading.Event().wait()


# -- stdlib: http.server, a thread per connection ---------------------------------------------

def serve_stdlib_threads(port, codes):
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    cond = threading.Condition()
    box = {"data": b"", "version": 0}

    def publish(data):
        with cond:
            box["data"], box["version"] = data, box["version"] + 1
            cond.notify_all()

    table = Table(publish)
    box["data"] = table.latest
    seats = Codes(codes)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def _send(self, status, body=b"", ctype="text/plain"):
            self.send_response(status)
            self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            r = route(self.path)
            if r is None or r[0] == "key":
                return self._send(404)
            kind, code = r
            if kind == "page":
                return self._send(200, PAGE, "text/html; charset=utf-8")
            if kind == "state":
                return self._send(200, box["data"], "application/json")
            if kind == "seat" and seats.seat(code) is None:
                return self._send(404)
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.close_connection = True
            seen = -1
            try:
                while True:
                    with cond:
                        cond.wait_for(lambda: box["version"] != seen, timeout=HEARTBEAT)  # noqa: B023 - called at once
                        changed, seen, data = box["version"] != seen, box["version"], box["data"]
                    self.wfile.write(b"data: " + data + b"\n\n" if changed else b": k\n\n")
                    self.wfile.flush()
            except OSError:
                pass

        def do_POST(self):
            r = route(self.path)
            if r is None or r[0] != "key":
                return self._send(404)
            if self.headers.get("X-Pitable") != "1" or \
                    self.headers.get("Content-Type") != "application/json" or \
                    not origin_ok(self.headers, self.headers.get("Host")):
                return self._send(403)
            try:
                length = int(self.headers.get("Content-Length", ""))
            except ValueError:
                return self._send(411)
            if not 0 < length <= 256:
                return self._send(413)
            msg = parse_key(self.rfile.read(length))
            seat = seats.seat(r[1])
            if seat is None:
                return self._send(404)
            if msg is None:
                return self._send(400)
            table.post(seat, *msg)
            self._send(204)

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    print("READY", flush=True)
    server.serve_forever()  # poll_interval 0.5 s: two wake-ups a second, measured as they are


# -- stdlib: asyncio streams, a hand-rolled HTTP/1.1 subset -------------------------------------

class AioHub:
    """Streams on one asyncio loop; publish() is safe from the table loop's thread."""

    def __init__(self, loop):
        self.loop = loop
        self.queues = set()
        self.latest = b""

    def publish(self, data):
        self.loop.call_soon_threadsafe(self._publish, data)

    def _publish(self, data):
        self.latest = data
        for q in self.queues:
            if q.full():
                q.get_nowait()  # a slow client gets the newest state, never a backlog
            q.put_nowait(data)

    def subscribe(self):
        import asyncio
        q = asyncio.Queue(maxsize=1)
        q.put_nowait(self.latest)
        self.queues.add(q)
        return q


async def _next_or_none(q, timeout):
    import asyncio
    try:
        return await asyncio.wait_for(q.get(), timeout)
    except TimeoutError:
        return None


def serve_stdlib_asyncio(port, codes):
    import asyncio

    reasons = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
               405: "Method Not Allowed", 411: "Length Required", 413: "Content Too Large",
               431: "Request Header Fields Too Large"}

    async def main():
        hub = AioHub(asyncio.get_running_loop())
        table = Table(hub.publish)
        hub.latest = table.latest
        seats = Codes(codes)

        def response(status, body=b"", ctype="text/plain", close=False):
            head = (f"HTTP/1.1 {status} {reasons[status]}\r\nContent-Type: {ctype}\r\n"
                    f"Content-Length: {len(body)}\r\n" + ("Connection: close\r\n" if close else "")
                    + "\r\n")
            return head.encode() + body

        async def handle(reader, writer):
            try:
                while True:
                    try:
                        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 30)
                    except asyncio.LimitOverrunError:
                        writer.write(response(431, close=True))
                        break
                    except (TimeoutError, asyncio.IncompleteReadError):
                        break
                    lines = head[:-4].split(b"\r\n")
                    parts = lines[0].split(b" ")
                    headers = {}
                    ok = len(parts) == 3 and parts[2] in (b"HTTP/1.1", b"HTTP/1.0")
                    for line in lines[1:]:
                        name, sep, value = line.partition(b":")
                        if not sep or not name or name != name.strip():
                            ok = False
                            break
                        headers[name.decode("latin-1").lower()] = value.strip().decode("latin-1")
                    if not ok or "transfer-encoding" in headers:
                        writer.write(response(400, close=True))
                        break
                    method, path = parts[0], parts[1].decode("latin-1")
                    r = route(path)
                    if method == b"GET":
                        if r is None or r[0] == "key":
                            writer.write(response(404))
                        elif r[0] == "page":
                            writer.write(response(200, PAGE, "text/html; charset=utf-8"))
                        elif r[0] == "state":
                            writer.write(response(200, hub.latest, "application/json"))
                        elif r[0] == "seat" and seats.seat(r[1]) is None:
                            writer.write(response(404))
                        else:
                            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                         b"Cache-Control: no-store\r\nConnection: close\r\n\r\n")
                            q = hub.subscribe()
                            try:
                                while True:
                                    data = await _next_or_none(q, HEARTBEAT)
                                    writer.write(b": k\n\n" if data is None else b"data: " + data + b"\n\n")
                                    await writer.drain()
                            finally:
                                hub.queues.discard(q)
                    elif method == b"POST":
                        if r is None or r[0] != "key":
                            writer.write(response(404))
                            continue
                        if headers.get("x-pitable") != "1" or headers.get("content-type") != "application/json" \
                                or not origin_ok(headers, headers.get("host")):
                            writer.write(response(403, close=True))
                            break
                        length = headers.get("content-length", "")
                        if not length.isdigit():
                            writer.write(response(411, close=True))
                            break
                        if not 0 < int(length) <= 256:
                            writer.write(response(413, close=True))
                            break
                        body = await asyncio.wait_for(reader.readexactly(int(length)), 10)
                        msg = parse_key(body)
                        seat = seats.seat(r[1])
                        if seat is None:
                            writer.write(response(404))
                        elif msg is None:
                            writer.write(response(400))
                        else:
                            table.post(seat, *msg)
                            writer.write(response(204))
                    else:
                        writer.write(response(405, close=True))
                        break
                    await writer.drain()
            except (TimeoutError, OSError, asyncio.IncompleteReadError):
                pass
            finally:
                try:
                    await writer.drain()
                except OSError:
                    pass
                writer.close()

        server = await asyncio.start_server(handle, "127.0.0.1", port, limit=4096)
        print("READY", flush=True)
        await server.serve_forever()

    asyncio.run(main())


# -- aiohttp ------------------------------------------------------------------------------------

def serve_aiohttp(port, codes, ws=False):
    import asyncio
    from aiohttp import WSMsgType, web

    async def main():
        hub = AioHub(asyncio.get_running_loop())
        table = Table(hub.publish)
        hub.latest = table.latest
        seats = Codes(codes)

        async def page(request):
            return web.Response(body=PAGE, content_type="text/html", charset="utf-8")

        async def state(request):
            return web.Response(body=hub.latest, content_type="application/json")

        async def stream(request, seat):
            q = hub.subscribe()
            try:
                if ws:
                    sock = web.WebSocketResponse(heartbeat=HEARTBEAT)
                    await sock.prepare(request)

                    async def pusher():
                        while True:
                            await sock.send_str((await q.get()).decode())

                    task = asyncio.create_task(pusher())
                    try:
                        async for msg in sock:
                            if msg.type == WSMsgType.TEXT and seat is not None:
                                key = parse_key(msg.data.encode())
                                if key is not None:
                                    table.post(seat, *key)
                    finally:
                        task.cancel()
                    return sock
                resp = web.StreamResponse(headers={"Content-Type": "text/event-stream",
                                                   "Cache-Control": "no-store"})
                await resp.prepare(request)
                while True:
                    data = await _next_or_none(q, HEARTBEAT)
                    await resp.write(b": k\n\n" if data is None else b"data: " + data + b"\n\n")
            finally:
                hub.queues.discard(q)

        async def table_stream(request):
            return await stream(request, None)

        async def seat_stream(request):
            seat = seats.seat(request.match_info["code"])
            if seat is None:
                raise web.HTTPNotFound()
            return await stream(request, seat)

        async def key(request):
            if request.headers.get("X-Pitable") != "1" or request.content_type != "application/json" \
                    or not origin_ok(request.headers, request.host):
                raise web.HTTPForbidden()
            if request.content_length is None or not 0 < request.content_length <= 256:
                raise web.HTTPRequestEntityTooLarge(256, request.content_length or 0)
            msg = parse_key(await request.read())
            seat = seats.seat(request.match_info["code"])
            if seat is None:
                raise web.HTTPNotFound()
            if msg is None:
                raise web.HTTPBadRequest()
            table.post(seat, *msg)
            return web.Response(status=204)

        app = web.Application(client_max_size=1024)
        app.add_routes([web.get("/", page), web.get("/api/state", state),
                        web.get("/ws" if ws else "/events", table_stream),
                        web.get("/s/{code}/ws" if ws else "/s/{code}/events", seat_stream),
                        web.post("/s/{code}/key", key)])
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", port).start()
        print("READY", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


# -- tornado ------------------------------------------------------------------------------------

def serve_tornado(port, codes):
    import asyncio
    import tornado.web

    async def main():
        hub = AioHub(asyncio.get_running_loop())
        table = Table(hub.publish)
        hub.latest = table.latest
        seats = Codes(codes)

        class Page(tornado.web.RequestHandler):
            def get(self):
                self.set_header("Content-Type", "text/html; charset=utf-8")
                self.write(PAGE)

        class State(tornado.web.RequestHandler):
            def get(self):
                self.set_header("Content-Type", "application/json")
                self.write(hub.latest)

        class Stream(tornado.web.RequestHandler):
            async def get(self, code=None):
                if code is not None and seats.seat(code) is None:
                    raise tornado.web.HTTPError(404)
                self.set_header("Content-Type", "text/event-stream")
                self.set_header("Cache-Control", "no-store")
                q = hub.subscribe()
                try:
                    while True:
                        data = await _next_or_none(q, HEARTBEAT)
                        self.write(b": k\n\n" if data is None else b"data: " + data + b"\n\n")
                        await self.flush()
                except tornado.iostream.StreamClosedError:
                    pass
                finally:
                    hub.queues.discard(q)

        class Key(tornado.web.RequestHandler):
            def post(self, code):
                h = self.request.headers
                if h.get("X-Pitable") != "1" or h.get("Content-Type") != "application/json" \
                        or not origin_ok(h, h.get("Host")):
                    raise tornado.web.HTTPError(403)
                if len(self.request.body) > 256:
                    raise tornado.web.HTTPError(413)
                msg = parse_key(self.request.body)
                seat = seats.seat(code)
                if seat is None:
                    raise tornado.web.HTTPError(404)
                if msg is None:
                    raise tornado.web.HTTPError(400)
                table.post(seat, *msg)
                self.set_status(204)

        app = tornado.web.Application([(r"/", Page), (r"/api/state", State), (r"/events", Stream),
                                       (r"/s/([^/]+)/events", Stream), (r"/s/([^/]+)/key", Key)])
        app.listen(port, "127.0.0.1", max_body_size=1024, max_header_size=4096)
        print("READY", flush=True)
        await asyncio.Event().wait()

    import logging
    logging.getLogger("tornado.access").disabled = True
    asyncio.run(main())


# -- websockets ---------------------------------------------------------------------------------

def serve_websockets(port, codes):
    import asyncio
    from http import HTTPStatus
    from websockets.asyncio.server import serve

    async def main():
        hub = AioHub(asyncio.get_running_loop())
        table = Table(hub.publish)
        hub.latest = table.latest
        seats = Codes(codes)

        def process_request(connection, request):
            r = route(request.path)
            if r is None or r[0] == "key":
                return connection.respond(HTTPStatus.NOT_FOUND, "")
            if r[0] == "page":
                return connection.respond(HTTPStatus.OK, PAGE.decode())
            if r[0] == "state":
                return connection.respond(HTTPStatus.OK, hub.latest.decode())
            if r[0] == "seat" and seats.seat(r[1]) is None:
                return connection.respond(HTTPStatus.NOT_FOUND, "")
            if not origin_ok(request.headers, request.headers.get("Host")):
                return connection.respond(HTTPStatus.FORBIDDEN, "")
            return None  # go on with the WebSocket handshake

        async def handler(sock):
            r = route(sock.request.path)
            seat = seats.seat(r[1]) if r[0] == "seat" else None
            q = hub.subscribe()

            async def pusher():
                while True:
                    await sock.send((await q.get()).decode())

            task = asyncio.create_task(pusher())
            try:
                async for message in sock:
                    if seat is not None and isinstance(message, str):
                        key = parse_key(message.encode())
                        if key is not None:
                            table.post(seat, *key)
            finally:
                task.cancel()
                hub.queues.discard(q)

        async with serve(handler, "127.0.0.1", port, process_request=process_request,
                         ping_interval=HEARTBEAT, max_size=1024):
            print("READY", flush=True)
            await asyncio.Event().wait()

    asyncio.run(main())


SERVERS = {"none": serve_none, "stdlib-threads": serve_stdlib_threads,
           "stdlib-asyncio": serve_stdlib_asyncio, "aiohttp": serve_aiohttp,
           "aiohttp-ws": lambda port, codes: serve_aiohttp(port, codes, ws=True),
           "tornado": serve_tornado, "websockets": serve_websockets}


# =============================================================================================
# The measuring side
# =============================================================================================

def cpu_ticks(pid: int) -> float:
    """utime + stime of the whole process (exited threads included), in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def cpu_sched(pid: int) -> float:
    """On-CPU time of the process's live threads, nanosecond resolution, in seconds."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (FileNotFoundError, ProcessLookupError):
            pass
    return total / 1e9


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Conn:
    """One push stream (SSE or WebSocket) read by the Reader thread."""

    def __init__(self, sock, kind):
        self.sock, self.kind = sock, kind
        self.buf = b""
        self.head_done = False
        self.chunked = False
        self.raw = b""          # de-chunked body bytes
        self.events = []        # (monotonic arrival, dict)
        self.closed = False
        self.lock = threading.Lock()

    def feed(self, data: bytes):
        self.buf += data
        if not self.head_done:
            end = self.buf.find(b"\r\n\r\n")
            if end < 0:
                return
            head, self.buf = self.buf[:end].lower(), self.buf[end + 4:]
            status = head.split(b" ", 2)[1]
            if status not in (b"200", b"101"):
                raise RuntimeError(f"stream refused: {head[:80]!r}")
            self.chunked = b"transfer-encoding: chunked" in head
            self.head_done = True
        if self.kind == "ws":
            self._ws()
            return
        if self.chunked:
            while True:
                nl = self.buf.find(b"\r\n")
                if nl < 0:
                    break
                size = int(self.buf[:nl], 16)
                if len(self.buf) < nl + 2 + size + 2:
                    break
                self.raw += self.buf[nl + 2:nl + 2 + size]
                self.buf = self.buf[nl + 2 + size + 2:]
        else:
            self.raw, self.buf = self.raw + self.buf, b""
        while b"\n\n" in self.raw:
            block, self.raw = self.raw.split(b"\n\n", 1)
            for line in block.split(b"\n"):
                if line.startswith(b"data: "):
                    self._event(json.loads(line[6:]))

    def _ws(self):
        while len(self.buf) >= 2:
            b0, b1 = self.buf[0], self.buf[1]
            n, off = b1 & 0x7F, 2
            if n == 126:
                if len(self.buf) < 4:
                    return
                n, off = struct.unpack(">H", self.buf[2:4])[0], 4
            elif n == 127:
                if len(self.buf) < 10:
                    return
                n, off = struct.unpack(">Q", self.buf[2:10])[0], 10
            if len(self.buf) < off + n:
                return
            payload, self.buf = self.buf[off:off + n], self.buf[off + n:]
            op = b0 & 0x0F
            if op == 1:
                self._event(json.loads(payload))
            elif op == 9:
                self.send_ws(payload, 10)  # answer pings, as a browser does

    def send_ws(self, payload: bytes, op=1):
        mask = secrets.token_bytes(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        assert len(payload) < 126
        with self.lock:
            self.sock.sendall(bytes([0x80 | op, 0x80 | len(payload)]) + mask + masked)

    def _event(self, obj):
        self.events.append((time.monotonic(), obj))


class Reader(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.sel = selectors.DefaultSelector()
        self.cv = threading.Condition()
        self.stop = False
        self.errors = []

    def add(self, conn):
        conn.sock.setblocking(False)
        self.sel.register(conn.sock, selectors.EVENT_READ, conn)

    def run(self):
        while not self.stop:
            for key, _ in self.sel.select(0.5):
                conn = key.data
                try:
                    data = conn.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError as e:
                    data = b""
                    self.errors.append(repr(e))
                if not data:
                    conn.closed = True
                    self.sel.unregister(conn.sock)
                    continue
                try:
                    conn.feed(data)
                except Exception as e:  # noqa: BLE001 - reported, not hidden
                    self.errors.append(repr(e))
                with self.cv:
                    self.cv.notify_all()


def open_stream(port, path, kind) -> Conn:
    sock = socket.create_connection(("127.0.0.1", port))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if kind == "ws":
        key = base64.b64encode(secrets.token_bytes(16)).decode()
        req = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"
               f"Origin: http://127.0.0.1:{port}\r\n\r\n")
    else:
        req = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\n"
               f"Origin: http://127.0.0.1:{port}\r\n\r\n")
    sock.sendall(req.encode())
    return Conn(sock, kind)


def wait_for(reader, pred, timeout=10.0) -> bool:
    end = time.monotonic() + timeout
    with reader.cv:
        while not pred():
            left = end - time.monotonic()
            if left <= 0:
                return False
            reader.cv.wait(left)
    return True


def pct(values, p):
    values = sorted(values)
    return values[min(len(values) - 1, int(len(values) * p))]


def bad_requests(port, count):
    """Malformed requests, a new connection each; -> {answer: count}."""
    samples = [b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n\r\n",
               b"POST /s/nope/key HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello",
               b"GET /etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\r\n\r\n",
               b"GET / HTTP/1.1\r\nBad Header\r\n\r\n",
               b"POST /s/x/key HTTP/1.1\r\nHost: x\r\nX-Pitable: 1\r\nContent-Type: application/json\r\n"
               b"Content-Length: 99999999\r\n\r\n{"]
    answers = {}
    for i in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.settimeout(3)
        try:
            s.sendall(samples[i % len(samples)])
            first = s.recv(64)
            answer = (first.split(b" ")[1].decode() if first.startswith(b"HTTP/")
                      else "closed, no answer" if not first else "body without status line")
        except (OSError, IndexError):
            answer = "reset or timeout"
        finally:
            s.close()
        answers[answer] = answers.get(answer, 0) + 1
    return answers


def import_time(modules, runs=7):
    """(fastest, median) of ``runs`` fresh interpreters: the fastest is the cost itself,
    the median shows how much a busy machine adds."""
    if not modules:
        return 0.0, 0.0
    code = (f"{PRELUDE}\nimport time\nt = time.process_time()\nimport {modules}\n"
            "print(time.process_time() - t)")
    times = []
    for _ in range(runs):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode:
            return None
        times.append(float(out.stdout))
    return min(times), statistics.median(times)


def measure(name, args):
    modules, kind, _ = CANDIDATES[name]
    imp = import_time(modules)
    if imp is None:
        return None
    port = free_port()
    log = tempfile.TemporaryFile("w+")  # what the server writes to stderr (its logging)
    codes = [secrets.token_urlsafe(16) for _ in range(SEATS)]  # 128 bits each
    argv = [__file__, '--serve', name, '--port', str(port), '--codes=' + ','.join(codes)]
    proc = subprocess.Popen([sys.executable, "-c", f"{PRELUDE}\nimport sys, runpy\n"
                             f"sys.argv = {argv!r}\n"
                             f"runpy.run_path({__file__!r}, run_name='__main__')"],
                            stdout=subprocess.PIPE, stderr=log, text=True)
    res = {"name": name, "import_s": imp[0], "import_median_s": imp[1]}
    try:
        if proc.stdout.readline().strip() != "READY":
            raise RuntimeError(f"{name}: server did not start")
        time.sleep(0.5)
        res["rss_start"] = rss_mb(proc.pid)
        if name == "none":
            return res
        reader = Reader()
        reader.start()
        suffix = "ws" if kind == "ws" else "events"
        seats = [open_stream(port, f"/s/{c}/{suffix}", kind) for c in codes]
        tables = [open_stream(port, f"/{suffix}", kind) for _ in range(TABLES)]
        conns = seats + tables
        for c in conns:
            reader.add(c)
        if not wait_for(reader, lambda: all(c.events for c in conns)):
            raise RuntimeError(f"{name}: streams did not all start: {reader.errors[:3]}")
        time.sleep(1.0)
        res["rss_streams"] = rss_mb(proc.pid)
        res["threads"] = len(os.listdir(f"/proc/{proc.pid}/task"))

        idle = []
        for _ in range(args.repeats):
            t0, s0, w0 = cpu_ticks(proc.pid), cpu_sched(proc.pid), time.monotonic()
            time.sleep(args.idle)
            t1, s1, w1 = cpu_ticks(proc.pid), cpu_sched(proc.pid), time.monotonic()
            idle.append((100 * (t1 - t0) / (w1 - w0), 100 * (s1 - s0) / (w1 - w0)))
        res["idle"] = idle
        if any(c.closed for c in conns):
            raise RuntimeError(f"{name}: a stream closed while idle")

        # keys: seat 0 presses, waits for its own stream to bring the new state back
        me = seats[0]
        post = None
        if kind == "sse":
            post = socket.create_connection(("127.0.0.1", port))
            post.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            post_file = post.makefile("rb")
        to_loop, to_push = [], []
        for i in range(args.keys):
            seen = len(me.events)
            t = time.monotonic()
            body = json.dumps({"key": i % 8, "t": t}).encode()
            if post is not None:
                post.sendall(f"POST /s/{codes[0]}/key HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                             f"Origin: http://127.0.0.1:{port}\r\nX-Pitable: 1\r\n"
                             f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode()
                             + body)
            else:
                me.send_ws(body)
            if not wait_for(reader, lambda i=i, seen=seen: any(e[1]["n"] and e[1]["key"] == i % 8
                                                               for e in me.events[seen:])):
                raise RuntimeError(f"{name}: key {i} never came back")
            arrived, ev = next(e for e in me.events[seen:] if e[1]["n"])
            to_loop.append(ev["lat_us"] / 1000)
            to_push.append((arrived - t) * 1000)
            if post is not None:  # read the 204 so the connection stays in step
                status = post_file.readline()
                if b" 204 " not in status:
                    raise RuntimeError(f"{name}: key answered {status!r}")
                while post_file.readline() not in (b"\r\n", b""):
                    pass
            time.sleep(0.01)
        res["to_loop"] = (statistics.median(to_loop), pct(to_loop, 0.99))
        res["to_push"] = (statistics.median(to_push), pct(to_push, 0.99))
        if not wait_for(reader, lambda: all(c.events[-1][1]["n"] == args.keys for c in conns)):
            raise RuntimeError(f"{name}: not every stream got the last state")

        c0 = cpu_ticks(proc.pid)
        res["bad"] = bad_requests(port, args.bad)
        res["bad_us"] = (cpu_ticks(proc.pid) - c0) / args.bad * 1e6
        res["alive"] = proc.poll() is None and not any(c.closed for c in conns)
        log.seek(0)
        res["stderr_lines"] = len(log.read().splitlines())
        reader.stop = True
        res["errors"] = reader.errors
        return res
    except Exception:
        log.seek(0)
        sys.stderr.write(log.read()[-2000:])
        raise
    finally:
        proc.kill()
        proc.wait()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--serve", help=argparse.SUPPRESS)
    p.add_argument("--port", type=int, help=argparse.SUPPRESS)
    p.add_argument("--codes", help=argparse.SUPPRESS)
    p.add_argument("--only", help="comma-separated candidates (default: all that import)")
    p.add_argument("--idle", type=float, default=30.0, help="seconds per idle window (default 30)")
    p.add_argument("--repeats", type=int, default=3, help="idle windows per candidate (default 3)")
    p.add_argument("--keys", type=int, default=300, help="keys for the latency figures (default 300)")
    p.add_argument("--bad", type=int, default=800, help="malformed requests (default 800)")
    args = p.parse_args(argv)
    if args.serve:
        SERVERS[args.serve](args.port, args.codes.split(","))
        return 0
    names = args.only.split(",") if args.only else list(CANDIDATES)
    if "none" not in names:
        names.insert(0, "none")
    with open("/proc/loadavg") as f:
        load = f.read().split()[:3]
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {' '.join(load)}; "
          f"{SEATS} seat streams + {TABLES} table streams, keep-alive every {HEARTBEAT:.0f} s")
    results = []
    base = None
    for name in names:
        res = measure(name, args)
        if res is None:
            print(f"{name:15} skipped: {CANDIDATES[name][0]} does not import here")
            continue
        if name == "none":
            base = res["rss_start"]
            print(f"{name:15} baseline RSS {base:.1f} MB (prelude: {PRELUDE[7:]})")
            continue
        results.append(res)
        idle_t = ", ".join(f"{a:.3f}" for a, _ in res["idle"])
        idle_s = ", ".join(f"{b:.4f}" for _, b in res["idle"])
        print(f"{name:15} import {res['import_s'] * 1000:5.1f} ms (median {res['import_median_s'] * 1000:5.1f}) "
              f"| RSS +{res['rss_start'] - base:5.1f} MB "
              f"at start, +{res['rss_streams'] - base:5.1f} MB with 22 streams ({res['threads']} threads)")
        print(f"{'':15} idle CPU % of a core, ticks: {idle_t}; schedstat: {idle_s}")
        print(f"{'':15} key->loop median {res['to_loop'][0]:.2f} ms p99 {res['to_loop'][1]:.2f} | "
              f"key->push back median {res['to_push'][0]:.2f} ms p99 {res['to_push'][1]:.2f}")
        print(f"{'':15} bad requests: {res['bad_us']:.0f} us CPU each, answers {res['bad']}, "
              f"server and streams alive: {res['alive']}; {res['stderr_lines']} lines on its stderr"
              + (f", errors {res['errors'][:2]}" if res["errors"] else ""))
    if results:
        ref = next((r for r in results if r["name"] == "stdlib-asyncio"), results[0])
        print(f"ratios to {ref['name']} (import time, RSS added with 22 streams, CPU per bad request; "
              "idle CPU is compared in absolute figures above):")
        for r in results:
            print(f"  {r['name']:15} {r['import_s'] / max(ref['import_s'], 1e-9):5.1f}x "
                  f"{(r['rss_streams'] - base) / max(ref['rss_streams'] - base, 1e-9):5.1f}x "
                  f"{r['bad_us'] / max(ref['bad_us'], 1e-9):5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
