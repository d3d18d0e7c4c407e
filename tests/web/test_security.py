"""Seat codes, join tickets, rate limits, taking a seat back, no cookies, no cross-site
requests, nothing on disk served, malformed requests, and a web fault that never stops
the table. A real server on loopback for each."""

from __future__ import annotations

import base64
import hmac
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitable.web import http
from pitable.web.access import Phones, RateLimit
from tests.web.conftest import request
from tests.web.test_server import reveal_start, start_game
from tests.conftest import examples


def state_and_log(t, tmp_path):
    from pitable.table.journal import SUFFIX

    logs = sorted((tmp_path / "logs0").glob(f"*{SUFFIX}"))
    return t.get("/api/state")[2], [p.read_bytes() for p in logs]


def test_seat_codes_are_128_bit_secrets_fresh_per_game_and_seat():
    phones = Phones()  # secrets.token_bytes
    codes = set()
    for seat in (4, 5, 6):
        t = phones.ticket(seat)
        s, code = phones.join(t)
        assert s == seat and len(base64.urlsafe_b64decode(code + "==")) == 16
        codes.add(code)
    before = dict(phones.codes)
    phones.new_game((4, 5))
    assert set(phones.codes) == {4, 5} and not set(phones.codes.values()) & set(before.values())
    access = phones.public()
    assert access.seat(before[4]) is None and access.moved_to(before[4]) == phones.codes[4]
    assert access.seat(before[6]) is None and access.moved_to(before[6]) is None
    assert access.seat(phones.codes[4]) == 4 and access.seat(phones.codes[5]) == 5
    assert len(codes) == 3


def test_codes_are_compared_in_constant_time(monkeypatch):
    phones = Phones()
    seat, code = phones.join(phones.ticket(4))
    calls = []
    real = hmac.compare_digest
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: calls.append(1) or real(a, b))
    assert phones.public().seat(code) == 4 and calls


def test_a_ticket_is_one_use_for_one_seat_and_only_while_its_qr_is_shown(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)                                      # pad 1 asks for a phone: the QR for seat 4
    seat, url = t.view().phone
    ticket = url.rsplit("/", 1)[1]
    assert seat == 4 and len(ticket) == 9
    status, _, body, _ = t.post("/api/join", {"ticket": ticket.lower()})   # any case
    assert status == 200 and json.loads(body)["seat"] == 4
    t.sync()
    assert t.post("/api/join", {"ticket": ticket})[0] == 404                 # used up
    assert t.view().phone is None and 4 in t.view().joined
    t.press(1, 4)
    ticket2 = t.view().phone[1].rsplit("/", 1)[1]
    t.press(1, 7)                                      # X: the QR goes away, and its ticket with it
    assert t.post("/api/join", {"ticket": ticket2})[0] == 404


def test_a_code_works_only_for_its_seat_and_a_new_game_moves_the_phone_on(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    seat, old = t.phone_join(1)
    phone = t.stream(f"/s/{old}/events")
    t.press(1, 6)
    t.press(1, 6)                                      # the game starts: fresh codes
    new = t.phones.codes[4]
    assert new != old
    assert phone.closed.wait(5) and phone.events("next") == [("next", {"code": new})]
    assert t.key(old, 0) == 404                        # the setup's code is spent
    reveal_start(t)
    assert t.key(new, 3) == 204
    assert json.loads(t.get("/api/state")[2])["locked"] == [4]      # seat 4 (player 3), nobody else


def test_wrong_codes_are_rate_limited(web_table):
    t = web_table()
    start_game(t)
    answers = [t.key("A" * 22, 0) for _ in range(7)]
    assert answers[:5] == [404] * 5 and answers[5:] == [429, 429]


def test_the_rate_limit_counts_each_client_alone():
    now = [0.0]
    limit = RateLimit(per_client=5, clock=lambda: now[0])
    for i in range(300):                               # failures from 300 addresses, 1 each...
        assert not limit.blocked(f"10.0.{i // 250}.{i % 250}")
        limit.failed(f"10.0.{i // 250}.{i % 250}")
    assert not limit.blocked("10.0.9.9")               # ...never block anyone else
    for _ in range(5):
        limit.failed("10.0.9.9")
    assert limit.blocked("10.0.9.9")                   # 5 a minute of its own do
    now[0] = 61.0
    assert not limit.blocked("10.0.9.9")


def test_the_table_takes_a_phone_seat_back_and_its_phone_then_gets_nothing(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    seat, code = t.phone_join(1)
    phone = t.stream(f"/s/{code}/events")
    assert phone.events("seat")
    t.press(1, 4)                                      # the QR screen: it lists phone seats to take back
    assert t.view().phones == (4,)
    t.press(1, 3)                                      # key 4: the phone of seat 4 is taken back
    assert t.view().phones == () and 4 not in t.view().joined
    assert phone.closed.wait(5) and phone.events()[-1] == ("gone", {})
    assert t.key(code, 0) == 404
    assert t.get(f"/s/{code}/events")[0] == 404


def key_request(port, code, headers):
    body = b'{"key": 0, "action": "press"}'
    base = {"Host": f"127.0.0.1:{port}", "Content-Type": "application/json", "X-Pitable": "1",
            "Content-Length": str(len(body)), "Connection": "close"}
    base.update(headers)
    return request(port, "POST", f"/s/{code}/key", raw=(f"POST /s/{code}/key HTTP/1.1\r\n" + "".join(
        f"{k}: {v}\r\n" for k, v in base.items() if v is not None) + "\r\n").encode() + body)


def test_nothing_cross_site_no_cookies_no_cors(web_table, tmp_path):
    t = web_table()
    code = start_game(t)
    before = state_and_log(t, tmp_path)
    assert key_request(t.port, code, {"X-Pitable": None})[0] == 403
    assert key_request(t.port, code, {"Content-Type": "text/plain"})[0] == 415
    assert key_request(t.port, code, {"Content-Type": "application/x-www-form-urlencoded"})[0] == 415
    assert key_request(t.port, code, {"Origin": "http://evil.example"})[0] == 403
    assert key_request(t.port, code, {"Host": "evil.example"})[0] == 421        # DNS rebinding
    status, headers, _, raw = request(t.port, "OPTIONS", f"/s/{code}/key")
    assert status == 405 and b"access-control" not in raw.lower()
    t.sync()
    assert state_and_log(t, tmp_path) == before
    assert key_request(t.port, code, {"Origin": f"http://127.0.0.1:{t.port}"})[0] == 204
    for path in ("/", "/events", "/api/state", f"/s/{code}", "/app.js"):
        raw = request(t.port, "GET", path, timeout=0.5)[3]
        assert b"set-cookie" not in raw.lower() and b"access-control" not in raw.lower()


@pytest.mark.parametrize("path", ["/etc/passwd", "/../pitable/config.py", "/%2e%2e/%2e%2e/etc/passwd",
                                  "/pages/table.html", "/web/pages/app.js", "/app.js/../../config.py",
                                  "/pitable/table/app.py", "//etc/passwd", "/s/../../etc/passwd"])
def test_nothing_on_disk_is_served(web_table, path):
    t = web_table()
    status, _, body, _ = t.get(path)
    assert status in (400, 404) and b"root:" not in body and b"import" not in body


MALFORMED = [
    b"GET / HTTP/1.1\r\n\r\n",                                     # no Host
    b"GET /\r\n\r\n",                                              # HTTP/0.9
    b"GET / HTTP/2.0\r\nHost: 127.0.0.1\r\n\r\n",
    b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nno colon here\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX: " + b"a" * 5000 + b"\r\n\r\n",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n\r\n",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n"
    b"Content-Length: 9999\r\n\r\n",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n"
    b"Content-Length: 5\r\n\r\n{nope",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n"
    b"Content-Length: 2\r\n\r\n[]",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: evil\r\n\r\n",
    b"GET /\x00 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"\xff\xfe\r\n\r\n",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 3\r\n\r\nabc",
]


def test_any_malformed_request_gets_a_4xx_and_changes_nothing(web_table, tmp_path):
    t = web_table()
    code = start_game(t)
    reveal_start(t)
    t.press(1, 2)
    before = state_and_log(t, tmp_path)
    for raw in MALFORMED:
        status = request(t.port, "GET", "/", raw=raw.replace(b"127.0.0.1", f"127.0.0.1:{t.port}".encode()))[0]
        assert 400 <= status < 500, raw
    for body in ({"key": 8}, {"key": -1}, {"key": "1"}, {"key": True}, {"key": 1, "action": "smash"},
                 {"key": 1, "x": 1, "y": 2}, {"key": 1.0}):
        assert t.post(f"/s/{code}/key", body)[0] == 400, body
    t.sync()
    assert state_and_log(t, tmp_path) == before
    assert t.key(code, 4) == 204                       # and the server still answers


@settings(max_examples=examples(300), deadline=None)
@given(st.binary(max_size=600))
def test_the_parser_turns_any_bytes_into_a_request_or_a_4xx(data):
    try:
        req = http.parse(data)
    except http.HTTPError as e:
        assert 400 <= e.status < 500
    else:
        assert req.method in ("GET", "POST") and req.path.startswith("/")


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from([b"GET", b"POST", b" ", b"/", b"/s/", b"HTTP/1.1", b"\r\n", b"Host:", b"a",
                                 b"Content-Length:", b"5", b"99999999", b":", b"\r\n\r\n", b"{}", b"\t"]),
                max_size=30))
def test_the_parser_on_request_like_bytes(parts):
    data = b"".join(parts)
    try:
        http.parse(data)
    except http.HTTPError as e:
        assert 400 <= e.status < 500


def test_a_web_fault_never_stops_the_table(web_table, monkeypatch):
    import pitable.web.server as server

    t = web_table()
    tv = t.stream("/events")
    monkeypatch.setattr(server, "table_payload", lambda *a: 1 / 0)  # the web side breaks
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    assert t.view().joined == (1, 2)                   # pads go on
    t.web.close()                                      # the web thread is gone altogether
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    assert t.table.current.state.display[1] == 2       # the game goes on, logged
    tv.close()


def test_one_address_holds_at_most_8_sockets_others_get_in_and_the_table_goes_on(web_table):
    import socket

    t = web_table()
    idle = []
    for _ in range(64):
        try:
            idle.append(socket.create_connection(("127.0.0.1", t.port), source_address=("127.0.0.2", 0)))
        except OSError:
            pass
    try:
        t.sync()
        # that address is full: a new request from it ends its own idlest socket, never another's
        assert t.get("/api/state", source="127.0.0.2")[0] == 200
        assert t.get("/api/state", source="127.0.0.3")[0] == 200     # nobody else is
        assert t.web.per_address["127.0.0.2"] <= 8
        assert sum(1 for s in idle if s.fileno() >= 0) == len(idle)
        t.press(1, 0)
        assert t.view().step == "join"
    finally:
        for s in idle:
            s.close()
    for _ in range(50):  # the server sees them go
        t.sync()
        if t.get("/api/state", source="127.0.0.2")[0] == 200:
            break
    assert t.get("/api/state", source="127.0.0.2")[0] == 200
