"""A guest on the party's Wi-Fi against the real server on loopback, each device its own
127.0.0.x: a phone sees only the bids its own keys made, no socket holds a slot it does
not use, a phone presses only for its own seat, and the limits hold with many addresses
(docs/phones.md, "Threat model")."""

from __future__ import annotations

import json
import socket
import time


from tests.web.conftest import request
from tests.web.test_server import reveal_start

PHONE = "127.0.0.1"
SECOND = "127.0.0.9"          # a second device, one the table did not mean to seat
ATTACKERS = [f"127.0.0.{i}" for i in range(20, 50)]


def bidding(t, phones=0):
    """Pads 1 and 2 and ``phones`` phones (seats 4, 5) in a Grasshopper Poker bid."""
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    for _ in range(phones):
        t.phone_join(1)
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    assert type(t.view()).__name__ == "Bidding"
    return [t.phones.codes[s] for s in (4, 5)[:phones]]


def join(t, source=PHONE):
    url = t.view().phone[1]
    status, _, body, _ = request(t.port, "POST", "/api/join", {"ticket": url.rsplit("/", 1)[1]}, source=source)
    assert status == 200, body
    t.sync()
    return json.loads(body)["code"]


def key(t, code, k, action="press", source=PHONE):
    status = request(t.port, "POST", f"/s/{code}/key", {"key": k, "action": action}, source=source)[0]
    t.sync()
    return status


def answered(stream, seconds=10.0) -> int:
    """The stream's status once its head has come (a busy machine: not within a sync)."""
    deadline = time.monotonic() + seconds
    while not stream.status() and not stream.closed.is_set() and time.monotonic() < deadline:
        time.sleep(0.05)
    return stream.status()


def shows_a_bid(stream) -> bool:
    return any(s["bid"] is not None or any(k["mine"] for k in s["keys"]) for _, s in stream.events("seat"))


# -- a bid is the phone's only if that phone's key made it ---------------------------------


def test_a_phone_handed_a_pad_seat_mid_turn_never_reads_the_pad_bid_after_a_harmless_key(web_table):
    t = web_table()
    bidding(t)
    t.press(2, 5)                                       # pad 2 bids a 6: pending
    t.press(2, 4, "hold")                               # and hands its seat to a phone
    code = join(t, SECOND)
    phone = t.stream(f"/s/{code}/events", source=SECOND)
    assert key(t, code, 0, "hold", SECOND) == 204       # hold "1": a harmless key (a toast)
    assert key(t, code, 6, "hold", SECOND) == 204       # and the scores, there and back
    assert key(t, code, 0, source=SECOND) == 204
    assert not shows_a_bid(phone) and b'"bid":"6"' not in phone.data
    assert t.table.current.pending == {1: 5}            # the pad's bid stands, unseen by the phone
    assert key(t, code, 2, source=SECOND) == 204        # the phone's own bid: its own to see
    assert phone.events("seat")[-1][1]["bid"] == "3"
    phone.close()


def test_a_phone_never_reads_another_phone_bid_by_taking_its_seat_over(web_table):
    """From phone 4: take phone 5 back, open seat 5's QR, join it with a second device,
    press a harmless key. And the same by the pads' keys: a new device at a seat is not
    the phone that made the seat's bid."""
    t = web_table()
    c4, c5 = bidding(t, phones=2)
    assert key(t, c5, 3) == 204                         # phone 5 bids a 4
    key(t, c4, 4, "hold")                               # phone 4: hold 5 ...
    key(t, c4, 4)                                       # ... 5: take phone 5 back
    key(t, c4, 4, "hold")                               # ... hold 5: seat 5's QR
    if getattr(t.view(), "phone", None) is None:        # refused to a phone: a pad does it
        t.press(1, 4, "hold")
        t.press(1, 4)                                   # pad 1 takes phone 5 back
        t.press(1, 4, "hold")                           # and opens seat 5's QR
    assert t.view().phone[0] == 5
    code = join(t, SECOND)
    phone = t.stream(f"/s/{code}/events", source=SECOND)
    key(t, code, 0, "hold", SECOND)
    key(t, code, 6, "hold", SECOND)
    key(t, code, 0, source=SECOND)
    assert not shows_a_bid(phone) and b'"bid":"4"' not in phone.data
    assert t.table.current.pending[3] == 3              # phone 5's bid stands, seen by no one
    phone.close()


# -- no socket holds a slot it does not use ----------------------------------------------------


def server_queues(port) -> int:
    """Bytes the kernel holds queued on the server's side of its sockets (send and
    receive queues of every TCP socket whose local port is the server's)."""
    total = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().split("\n")[1:]
        except OSError:
            continue
        for line in lines:
            parts = line.split()
            if len(parts) > 4 and int(parts[1].rsplit(":", 1)[1], 16) == port and parts[3] != "0A":
                tx, rx = parts[4].split(":")
                total += int(tx, 16) + int(rx, 16)
    return total


def readers_that_never_read(port, sources, per_address=8, requests=1500) -> list:
    """Sockets that pipeline GET /app.js and never read an answer."""
    out = []
    pipelined = f"GET /app.js HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode() * requests
    for source in sources:
        for _ in range(per_address):
            s = socket.socket()
            s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            s.bind((source, 0))
            s.settimeout(2)
            try:
                s.connect(("127.0.0.1", port))
                s.setblocking(False)
                s.send(pipelined)       # as much as the server takes in
            except OSError:
                pass
            out.append(s)
    return out


def test_readers_that_never_read_never_lock_the_seated_phone_or_the_tv_out(web_table, monkeypatch):
    import pitable.web.server as server

    monkeypatch.setattr(server, "WRITE_SECONDS", 2.0, raising=False)
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    code = t.phone_join(1)[1]
    tv = t.stream("/events", source="127.0.0.5")      # the TV, streaming before the attack
    held = readers_that_never_read(t.port, ATTACKERS)  # 30 addresses x 8 sockets
    try:
        time.sleep(0.5)
        t.sync()
        answers = [key(t, code, 7 if i % 2 == 0 else 0) for i in range(10)]   # at once, not after a time-out
        assert answers == [204] * 10
        phone = t.stream(f"/s/{code}/events")
        assert answered(phone) == 200
        again = t.stream("/events", source="127.0.0.6")                       # a TV page reconnecting
        assert answered(again) == 200
        assert tv.status() == 200 and not tv.closed.is_set()                  # the streaming TV stays
        pinned = server_queues(t.port)
        # the kernel memory they pin on the Pi's side is bounded (before: 48 MB here, and
        # up to 4 MiB of send queue a socket)
        assert pinned < 160 * 64 * 1024, pinned
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and sum(t.web.per_address.get(a, 0) for a in ATTACKERS):
            time.sleep(0.2)
        assert sum(t.web.per_address.get(a, 0) for a in ATTACKERS) == 0       # closed at their deadline
        for s in (phone, again):
            s.close()
    finally:
        for s in held:
            s.close()
        tv.close()


# -- a phone presses for its own seat only -----------------------------------------------------


def toast(t):
    from pitable.i18n import catalog

    shown = t.view().toast
    return catalog("en").words(shown) if shown is not None else None


def test_a_phone_neither_opens_the_phones_screen_nor_takes_a_phone_back_mid_game(web_table):
    t = web_table()
    c4, c5 = bidding(t, phones=2)
    assert key(t, c4, 4, "hold") == 204                 # phone 4: hold 5
    assert getattr(t.view(), "phone", None) is None and type(t.view()).__name__ == "Bidding"
    assert toast(t) == "Phones: by a pad's key only"
    t.press(1, 4, "hold")                               # a pad opens it (the QR of its own seat)
    assert type(t.view()).__name__ in ("Setup", "Message")
    assert key(t, c4, 4) == 204                         # phone 4 presses 5 there: refused
    assert 5 in t.phones.codes and toast(t) == "S1 answers (or wait)"
    t.press(1, 4)                                       # the pad that opened it: takes phone 5 back
    assert 5 not in t.phones.codes


def test_a_phone_neither_opens_the_qr_nor_takes_a_phone_back_on_the_join_screen(web_table):
    t = web_table()
    t.press(1, 1)                                       # Cockroach Poker: up to 6 seats
    t.press(1, 0)
    t.press(2, 0)
    c4 = t.phone_join(1)[1]
    c5 = t.phone_join(2)[1]
    assert key(t, c4, 4) == 204                         # phone 4: 5 asks for a phone: refused
    assert t.view().phone is None and toast(t) == "Phones: by a pad's key only"
    t.press(2, 4)                                       # pad 2 shows seat 6's QR
    assert t.view().phone[0] == 6
    assert key(t, c4, 4) == 204                         # phone 4 presses 5: phone 5 stays
    assert 5 in t.phones.codes and t.view().phone is not None
    t.press(1, 4)                                       # another pad: told whose screen it is
    assert 5 in t.phones.codes and t.view().phone is not None and toast(t) == "S2 answers (or wait)"
    t.press(2, 4)                                       # pad 2, whose screen it is: takes it back
    assert 5 not in t.phones.codes and c5 not in t.phones.codes.values()


def test_only_the_seat_that_asked_answers_its_undo_question_others_get_a_toast(web_table):
    t = web_table()
    c4, _ = bidding(t, phones=2)
    moves = len(t.table.current.state.moves)
    assert key(t, c4, 7, "hold") == 204                 # phone 4 asks to undo the last reveal
    assert type(t.view()).__name__ == "ConfirmUndo" and t.view().seat == 4
    t.press(1, 6)                                       # pad 1 bids its ace: not an answer
    assert len(t.table.current.state.moves) == moves and type(t.view()).__name__ == "ConfirmUndo"
    assert toast(t) == "S4 answers (or wait)" and t.table.current.pending == {}
    assert key(t, c4, 6) == 204                         # phone 4's A: undone
    assert len(t.table.current.state.moves) == moves - 1


def test_an_overlay_closes_by_itself(web_table):
    t = web_table()
    c4, _ = bidding(t, phones=2)
    key(t, c4, 7, "hold")
    assert type(t.view()).__name__ == "ConfirmUndo"
    t.clock.t += 21
    t.sync()
    assert type(t.view()).__name__ == "Bidding" and toast(t) == "Not undone"
    t.press(1, 6, "hold")                               # the scores, by a pad
    t.press(2, 0)                                       # another seat waits at most 5 s
    assert type(t.view()).__name__ == "Scores"
    t.clock.t += 6
    t.sync()
    assert type(t.view()).__name__ == "Bidding"


def test_a_seated_phone_holding_a_ten_times_a_second_cannot_eat_the_pads_keys(web_table):
    t = web_table()
    c4, _ = bidding(t, phones=2)
    landed, said = 0, set()
    for i in range(16):
        key(t, c4, 6, "hold")                           # the phone's flood: hold A, again and again
        t.clock.t += 0.1
        t.press(1, i % 2)                               # pad 1 bids a 1, a 2, a 1 ...
        said.add(toast(t))
        landed += t.table.current.pending.get(0) == i % 2
    assert landed >= 15, landed                         # before: 0 of 16
    assert "S4 answers (or wait)" in said               # the glass said whose screen held the key


# -- guessing: a blocked address stays blocked, and a total cap bounds everyone's guesses -----


def wrong_ticket(t, source) -> int:
    return request(t.port, "POST", "/api/join", {"ticket": "0000-0000"}, source=source, timeout=5)[0]


def test_the_ticket_limit_never_forgets_a_blocked_address_and_caps_all_guesses(web_table):
    t = web_table()
    t.web.limit.clock = t.clock                         # the minute passes when the test says
    blocked = "127.0.0.66"
    assert [wrong_ticket(t, blocked) for _ in range(6)] == [404] * 5 + [429]
    others = [f"127.0.{1 + i // 250}.{1 + i % 250}" for i in range(4200)]
    answers = [wrong_ticket(t, a) for a in others]      # one wrong ticket from each of 4,200 addresses
    checked = answers.count(404)
    assert checked <= 600, checked                      # at most 600 checked a minute, whoever asks
    assert wrong_ticket(t, blocked) == 429              # and the blocked address is still blocked
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)                                       # a QR on the glass ...
    ticket = t.view().phone[1].rsplit("/", 1)[1]
    assert request(t.port, "POST", "/api/join", {"ticket": ticket}, source="127.0.0.77")[0] == 429
    t.clock.t += 61                                     # ... joins once the minute has room again
    assert request(t.port, "POST", "/api/join", {"ticket": ticket}, source="127.0.0.77")[0] == 200


# -- a laptop party: a phone seat's keyboard row is off while the phone holds the seat --------


def test_on_the_laptop_party_config_a_phone_seats_keyboard_row_is_off_and_the_glass_says_so(web_table):
    from pathlib import Path

    from pitable.config import load_config

    config = load_config(Path(__file__).parents[2] / "config/laptop/party-6-seats.yaml")
    assert config.pads.wiring == "keyboard" and config.seats == 6 and config.web is not None
    t = web_table(pads=config.seats)
    t.table.rows_yield_to_phones = config.pads.wiring == "keyboard"   # as `pitable run` sets it
    t.press(1, 0)                                       # Grasshopper Poker
    t.press(1, 0)
    t.press(2, 0)
    seat, code = t.phone_join(1)                        # the phone takes a seat that has a row
    assert seat == 3
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    code = t.phones.codes[3]                            # the game's code (the phone was told it)
    assert key(t, code, 3) == 204                       # the phone player bids a 4
    t.press(3, 5)                                       # someone types on row 3
    assert t.table.current.pending == {2: 3}            # the phone's bid stands
    assert toast(t) == "S3 plays by phone"
    t.press(1, 4, "hold")
    t.press(1, 2)                                       # row 1 takes the phone back: row 3 is on again
    t.press(3, 5)
    assert t.table.current.pending.get(2) == 5
