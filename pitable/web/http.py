"""A small HTTP/1.1 request parser: bytes in, a ``Request`` or an ``HTTPError`` (4xx) out.

Pure (no I/O), so it is fuzzed directly. Only what the pages need: GET and POST,
HTTP/1.0 and 1.1, ``Content-Length`` bodies up to ``MAX_BODY`` bytes, no chunked
transfer, headers within ``MAX_HEAD`` bytes.
"""

from __future__ import annotations

from typing import NamedTuple

MAX_HEAD = 4096
MAX_HEADERS = 32
MAX_BODY = 256
REASONS = {200: "OK", 204: "No Content", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
           405: "Method Not Allowed", 408: "Request Timeout", 411: "Length Required",
           413: "Content Too Large", 415: "Unsupported Media Type", 421: "Misdirected Request",
           429: "Too Many Requests", 431: "Request Header Fields Too Large", 503: "Service Unavailable"}


class HTTPError(Exception):
    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class Request(NamedTuple):
    method: str
    path: str
    headers: dict        # lower-case name -> value (the last one wins; duplicates of ours refused)
    body: bytes = b""


TOKEN = frozenset(b"!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
SINGLE = ("host", "origin", "content-length", "content-type", "x-pitable")


def parse_head(head: bytes) -> tuple[str, str, dict]:
    """The request line and headers (without the blank line) -> method, path, headers."""
    if len(head) > MAX_HEAD:
        raise HTTPError(431)
    try:
        text = head.decode("ascii")
    except UnicodeDecodeError:
        raise HTTPError(400) from None
    lines = text.split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3:
        raise HTTPError(400)
    method, target, version = parts
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise HTTPError(400)
    if not method or not all(ord(ch) in TOKEN for ch in method):
        raise HTTPError(400)
    if method not in ("GET", "POST"):
        raise HTTPError(405)
    if not target.startswith("/") or any(ord(ch) <= 32 or ord(ch) >= 127 for ch in target):
        raise HTTPError(400)
    if len(lines) - 1 > MAX_HEADERS:
        raise HTTPError(431)
    headers: dict = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or not all(ord(ch) in TOKEN for ch in name):
            raise HTTPError(400)
        if any(ord(ch) < 32 and ch != "\t" for ch in value):
            raise HTTPError(400)
        name = name.lower()
        if name in SINGLE and name in headers:
            raise HTTPError(400)
        headers[name] = value.strip(" \t")
    if "transfer-encoding" in headers:
        raise HTTPError(400)
    if version == "HTTP/1.1" and "host" not in headers:
        raise HTTPError(400)
    path = target.split("?", 1)[0]
    return method, path, headers


def body_length(method: str, headers: dict) -> int:
    """How many body bytes follow (a POST must say; a GET must have none)."""
    value = headers.get("content-length")
    if value is None:
        if method == "POST":
            raise HTTPError(411)
        return 0
    if not value.isdigit() or len(value) > 6:
        raise HTTPError(400)
    n = int(value)
    if n > MAX_BODY:
        raise HTTPError(413)
    if method == "GET" and n:
        raise HTTPError(400)
    return n


def parse(data: bytes) -> Request:
    """A whole request in bytes -> Request (for the fuzzer and tests; the server reads
    the head and the body from its stream with the same two functions)."""
    head, sep, rest = data.partition(b"\r\n\r\n")
    if not sep:
        raise HTTPError(431 if len(head) > MAX_HEAD else 400)
    method, path, headers = parse_head(head)
    n = body_length(method, headers)
    if len(rest) != n:
        raise HTTPError(400)
    return Request(method, path, headers, rest)


SECURITY_HEADERS = (b"Cache-Control: no-store\r\nReferrer-Policy: no-referrer\r\n"
                    b"X-Content-Type-Options: nosniff\r\n"
                    b"Content-Security-Policy: default-src 'self'; img-src 'self' data:; frame-ancestors 'none'\r\n")


def response(status: int, body: bytes = b"", content_type: str = "text/plain; charset=utf-8",
             close: bool = False) -> bytes:
    """A whole response: no Date or Server header (responses are the same bytes in every run)."""
    head = f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\n"
    if body or status not in (204,):
        head += f"Content-Type: {content_type}\r\nContent-Length: {len(body)}\r\n"
    if close:
        head += "Connection: close\r\n"
    return head.encode() + SECURITY_HEADERS + b"\r\n" + body


def error(status: int) -> bytes:
    return response(status, f"{status} {REASONS.get(status, 'Error')}\n".encode(), close=True)


def stream_head() -> bytes:
    return (b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            + SECURITY_HEADERS + b"\r\n")
