"""A guest's laptop on the party's Wi-Fi, played against the real server on loopback: each
attacker is its own address (127.0.0.x). The five attacks that once went through (docs/phones.md,
"Threat model"), and what the table promises instead:

1. the TV stream never carries a join code, so nobody takes a seat from it;
2. a pad's seat goes to a phone only by a key on that pad, and no phone learns a pad's bid;
3. sockets and streams are capped per address, and a seated phone always gets in;
4. wrong codes slow only the client that sends them;
5. an old code stops: its `next` is given once, and never after a new game or a take-back.
"""

from __future__ import annotations

import base64
import json
import shutil
import socket
import subprocess
import time

import pytest
from PIL import Image

from pitable.screens.render import render
from tests.web.conftest import StreamClient, request
from tests.web.test_server import reveal_start

ATTACKERS = [f"127.0.0.{i}" for i in range(2, 8)]
PHONE = "127.0.0.1"


def frame_of(event: dict) -> Image.Image:
    """The OLED frame a `table` event carries, as the page draws it."""
    bits = base64.b64decode(event["frame"])
    return Image.frombytes("1", (128, 64), bits)


def decode_qr(img: Image.Image, tmp_path) -> list:
    """What a real QR decoder (zbarimg) reads in a frame at 2x and 4x; [] when nothing.
    Without zbarimg, the same question asked of the bits: does the frame hold the QR
    of any address it could be?"""
    found = []
    if shutil.which("zbarimg"):
        for scale in (2, 4):
            path = tmp_path / f"seen{scale}.png"
            img.convert("L").resize((128 * scale, 64 * scale), 0).save(path)
            out = subprocess.run(["zbarimg", "-q", "--raw", str(path)], capture_output=True, text=True)
            found += [line for line in out.stdout.split("\n") if line.strip()]
    return found


def tickets_in(data: bytes, url: str) -> bool:
    ticket = url.rsplit("/", 1)[1]
    low = data.lower()
    return any(t.lower().encode() in low for t in (ticket, ticket.replace("-", "")))


def test_the_tv_stream_never_carries_the_join_code_so_nobody_takes_the_seat_from_it(web_table, tmp_path):
    t = web_table()
    tvs = [t.stream("/events", source=a) for a in ATTACKERS[:3]]
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)                                       # pad 1 asks for a phone: the QR on the glass
    seat, url = t.view().phone
    glass = render(t.view(), "en")
    if shutil.which("zbarimg"):
        assert set(decode_qr(glass, tmp_path)) == {t.view().phone_qr}  # the glass's own QR does scan (at 2x and 4x)
    for tv, source in zip(tvs, ATTACKERS):
        last = tv.events("table")[-1][1]
        seen = frame_of(last)
        assert seen.tobytes() != glass.tobytes()
        assert decode_qr(seen, tmp_path) == []          # nothing to decode on the TV's copy
        assert not tickets_in(tv.data, url)             # nor the ticket typed anywhere in the stream
        # what the attacker tries anyway: every ticket-shaped thing it could find
        for guess in decode_qr(seen, tmp_path):
            assert request(t.port, "POST", "/api/join", {"ticket": guess.rsplit("/", 1)[1]}, source=source)[0] != 200
    for path in ("/", "/api/state", "/app.js"):
        assert not tickets_in(t.get(path, source=ATTACKERS[0])[3], url)
    # the public frame says in words that a phone joins and where its code is
    assert t.get("/api/state")[0] == 200
    status, _, body, _ = t.post("/api/join", {"ticket": url.rsplit("/", 1)[1]})
    assert status == 200 and json.loads(body)["seat"] == seat   # the phone at the table gets in
    t.sync()
    toast = t.table.current.toast[0]
    assert toast.id == "toast.phone_joined" and toast.get("seat") == seat   # the glass says who joined
    assert t.post("/api/join", {"ticket": url.rsplit("/", 1)[1]})[0] == 404   # one ticket, one phone
    for tv in tvs:
        tv.close()


def test_the_public_frame_is_the_same_whatever_the_ticket(web_table, tmp_path):
    """Twin tables that differ only in their join tickets: every byte of the TV stream and
    /api/state is the same (the frame with the code in it never leaves the Pi)."""
    from tests.web.conftest import free_port

    seen = []
    port = free_port()
    for seed in (1, 2):
        t = web_table(seed=seed, port=port)
        tv = t.stream("/events", source=ATTACKERS[0])
        t.press(1, 0)
        t.press(1, 0)
        t.press(1, 4)
        seen.append((t.view().phone[1], tv.data, t.get("/api/state")[3]))
        tv.close()
        t.close()
    assert seen[0][0] != seen[1][0]
    assert seen[0][1:] == seen[1][1:]


def three_pads_bidding(t):
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.press(3, 0)
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    assert type(t.view()).__name__ == "Bidding"


def test_a_pad_seat_goes_to_a_phone_only_by_a_key_on_that_pad(web_table, tmp_path):
    t = web_table()
    three_pads_bidding(t)
    tv = t.stream("/events", source=ATTACKERS[0])
    t.press(1, 0)                                       # pad 1 bids a 1: pending
    t.press(2, 4, "hold")                               # pad 2 holds 5: a phone for ... its own seat
    seat, url = t.view().phone
    assert seat == 2
    assert decode_qr(frame_of(tv.events("table")[-1][1]), tmp_path) == []
    assert not tickets_in(tv.data, url)
    # the attacker's join, with a ticket shaped guess: refused
    assert request(t.port, "POST", "/api/join", {"ticket": "0000-0000"}, source=ATTACKERS[0])[0] == 404
    tv.close()


def test_a_phone_that_takes_a_pad_seat_never_sees_the_bid_made_on_the_pad(web_table):
    t = web_table()
    three_pads_bidding(t)
    t.press(2, 5)                                       # pad 2 bids a 6
    t.press(2, 4, "hold")                               # then hands its seat to a phone
    url = t.view().phone[1]
    status, _, body, _ = t.post("/api/join", {"ticket": url.rsplit("/", 1)[1]})
    assert status == 200
    t.sync()
    code = json.loads(body)["code"]
    phone = t.stream(f"/s/{code}/events")
    seat = phone.events("seat")[-1][1]
    assert seat["seat"] == 2 and seat["bid"] is None and not any(k["mine"] for k in seat["keys"])
    assert b'"bid":"6"' not in phone.data and b'"mine":true' not in phone.data
    assert t.key(code, 2) == 204                        # the phone's own bid: shown to it
    assert phone.events("seat")[-1][1]["bid"] == "3"
    t.press(2, 4)                                       # the pad changes it: no longer the phone's
    assert phone.events("seat")[-1][1]["bid"] is None
    assert b'"bid":"5"' not in phone.data
    phone.close()


def seated_phone(t):
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    return t.phone_join(1)[1]


def idle_sockets(n, port, sources) -> list:
    out = []
    for i in range(n):
        try:
            out.append(socket.create_connection(("127.0.0.1", port), timeout=2,
                                                source_address=(sources[i % len(sources)], 0)))
        except OSError:
            pass
    return out


@pytest.mark.parametrize("sources", [ATTACKERS[:1], [f"127.0.0.{i}" for i in range(10, 40)]],
                         ids=["one address", "30 addresses"])
def test_idle_sockets_and_streams_never_lock_a_seated_phone_out(web_table, sources):
    t = web_table()
    code = seated_phone(t)
    held = idle_sockets(70 * len(sources) if len(sources) == 1 else 300, t.port, sources)
    streams = [StreamClient(t.port, "/events", source=sources[i % len(sources)]) for i in range(70)]
    try:
        t.sync()
        time.sleep(0.2)
        answers = [t.key(code, 7 if i % 2 == 0 else 0) for i in range(20)]   # leaves, joins, ...
        assert answers == [204] * 20
        phone = t.stream(f"/s/{code}/events")
        assert phone.status() == 200 and phone.events("seat")
        assert t.get("/", source="127.0.0.200")[0] == 200          # a new phone's page loads
        time.sleep(0.2)
        live = [s for s in streams if s.status() == 200 and not s.closed.is_set()]
        assert len(live) <= 24                                      # streams capped...
        if len(sources) == 1:
            assert len(live) <= 3                                   # ...per address too
            assert t.web.per_address.get(sources[0], 0) <= 8
        phone.close()
    finally:
        for s in held:
            s.close()
        for s in streams:
            s.close()


def test_an_idle_socket_is_closed_after_the_head_time_out(web_table, monkeypatch):
    import pitable.web.server as server

    monkeypatch.setattr(server, "HEAD_SECONDS", 0.3)
    t = web_table()
    s = socket.create_connection(("127.0.0.1", t.port), source_address=(ATTACKERS[0], 0))
    s.settimeout(3)
    started = time.monotonic()
    assert s.recv(10) == b""                            # closed by the server, unanswered
    assert time.monotonic() - started < 2.5
    s.close()


def test_a_public_stream_ends_after_its_time_and_keep_alives_flow(web_table, monkeypatch):
    import pitable.web.server as server

    monkeypatch.setattr(server, "STREAM_SECONDS", 0.5)
    monkeypatch.setattr(server, "KEEPALIVE_SECONDS", 0.1)
    t = web_table()
    tv = t.stream("/events", source=ATTACKERS[0])
    assert tv.closed.wait(5)
    assert b"retry: 3000" in tv.data and b":\n\n" in tv.data
    tv.close()


def test_wrong_codes_from_many_addresses_never_slow_a_valid_phone(web_table):
    t = web_table()
    code = seated_phone(t)
    wrong = [request(t.port, "POST", f"/s/{'A' * 22}/key", {"key": 0}, source=a)[0]
             for a in ATTACKERS for _ in range(7)]
    assert wrong.count(404) == 5 * len(ATTACKERS) and wrong.count(429) == 2 * len(ATTACKERS)
    assert [t.key(code, k) for k in (7, 0, 7, 0)] == [204] * 4       # keys, as ever
    phone = t.stream(f"/s/{code}/events")
    assert phone.status() == 200                                      # and its stream reconnects
    phone.close()
    # the phone's own address typing a wrong code: its valid code still works
    for _ in range(6):
        request(t.port, "POST", f"/s/{'B' * 22}/key", {"key": 0})
    assert t.key(code, 7) == 204
    # wrong tickets from six addresses never keep a valid ticket out
    for a in ATTACKERS:
        for _ in range(6):
            request(t.port, "POST", "/api/join", {"ticket": "0000-0000"}, source=a)
    t.press(1, 4)
    ticket = t.view().phone[1].rsplit("/", 1)[1]
    assert request(t.port, "POST", "/api/join", {"ticket": ticket}, source="127.0.0.99")[0] == 200


def test_an_old_code_gets_next_once_then_stops(web_table):
    t = web_table()
    old = seated_phone(t)
    t.press(1, 6)
    t.press(1, 6)                                       # the game starts: the setup code is old
    new = t.phones.codes[4]
    first = t.stream(f"/s/{old}/events")                # the phone wakes up: told once
    assert first.closed.wait(5) and first.events("next") == [("next", {"code": new})]
    for source in (PHONE, *ATTACKERS[:2]):              # ...and never again, to anyone
        again = t.get(f"/s/{old}/events", source=source, timeout=2)
        assert again[0] == 404 and new.encode() not in again[3]
    assert t.key(old, 0) == 404
    assert t.key(new, 7) in (204,)


def test_an_old_code_stops_after_a_take_back(web_table):
    t = web_table()
    old = seated_phone(t)
    t.press(1, 6)
    t.press(1, 6)                                       # game 1: old -> new (not yet fetched)
    t.press(1, 4, "hold")
    t.press(1, 3)                                       # key 4: seat 4's phone is taken back
    for code in (old, t.phones.codes.get(4)):
        if code is None:
            continue
        status, _, body, _ = t.get(f"/s/{code}/events", timeout=2)
        assert status == 404 and b"next" not in body
    assert t.phones.moved == {}


def test_an_old_code_stops_when_the_next_game_replaces_it_even_unasked(web_table):
    t = web_table()
    setup_code = seated_phone(t)
    t.press(1, 6)
    t.press(1, 6)                                       # game 1: setup code -> code 1 (nobody asked)
    first = t.phones.codes[4]
    done = []
    t.loop.post(lambda: done.append(t.phones.new_game((1, 2, 4))))   # as the table does for the next game
    t.sync()
    assert done
    second = t.phones.codes[4]
    status, _, body, _ = t.get(f"/s/{setup_code}/events", source=ATTACKERS[0], timeout=2)
    assert status == 404 and second.encode() not in body and first.encode() not in body
    phone = t.stream(f"/s/{first}/events")              # the last game's code: told once
    assert phone.closed.wait(5) and phone.events("next") == [("next", {"code": second})]
    assert t.get(f"/s/{first}/events", timeout=2)[0] == 404


def test_the_web_thread_yields_the_cpu_to_the_tables_loop(web_table):
    """Under a flood the web thread is busy: it runs at a higher nice value than the loop
    (Linux: a thread's own), and the interpreter switches threads every 1 ms, not 5."""
    import os
    import sys

    from pitable.web import server

    t = web_table()
    web = os.getpriority(os.PRIO_PROCESS, t.web.thread.native_id)
    loop = os.getpriority(os.PRIO_PROCESS, t.thread.native_id)
    assert web >= min(19, loop + server.WEB_NICE) and (web > loop or loop == 19)
    assert sys.getswitchinterval() <= server.SWITCH_SECONDS


def test_a_tv_page_gets_in_while_other_addresses_hold_every_public_stream(web_table):
    """Eight devices holding three TV streams each (all 24) cannot keep the table's TV out:
    the newcomer's address holds fewer than theirs, so the oldest stream of an address that
    holds the most ends (its page reconnects by itself), and the TV page stays while they
    reconnect."""
    t = web_table()
    hogs = [f"127.0.0.{i}" for i in range(60, 68)]
    held = [t.stream("/events", source=a) for a in hogs for _ in range(3)]
    try:
        assert all(s.status() == 200 for s in held)
        tv = t.stream("/events", source="127.0.0.90")
        assert tv.status() == 200 and not tv.closed.wait(0.5)
        assert sum(1 for s in held if s.closed.is_set()) == 1      # one hog's oldest ended
        again = [t.stream("/events", source=a) for a in hogs]      # they all reconnect
        assert not tv.closed.wait(0.5) and tv.status() == 200      # the TV stays
        assert sum(1 for s in held + again if not s.closed.is_set()) == 23
        per_address: dict = {}
        for s in t.web.streams:
            per_address[s.conn.address] = per_address.get(s.conn.address, 0) + 1
        assert max(per_address.values()) == 3 and per_address["127.0.0.90"] == 1
        for s in again:
            s.close()
        tv.close()
    finally:
        for s in held:
            s.close()
