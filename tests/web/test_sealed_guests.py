"""A guest with the Wi-Fi password against a phone that scanned the QR (docs/phones.md,
"Threat model"): the real server on loopback, each device its own 127.0.0.x. A box the Pi
sent, sent back to the Pi, moves nothing; wrong sealed joins from many addresses never
keep the QR's phone out; sockets that never finish their body never keep the phone's
own keys out."""

from __future__ import annotations

import json
import socket
import time

from tests.web.conftest import SealedPhone, request
from tests.web.test_server import reveal_start

PHONE = "127.0.0.7"
GUESTS = [f"127.0.0.{i}" for i in range(60, 66)]


def sealed_table(t, source=PHONE):
    """Grasshopper Poker, pads 1 and 2, a phone that scanned the QR at seat 4 (from ``source``)."""
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.press(1, 4)                                       # a joined pad's 5: the QR
    phone = SealedPhone(t, t.view().phone_qr, source=source)
    assert phone.join() == 200 and phone.seat == 4
    return phone


def stream_boxes(stream) -> list:
    """The boxes a stream carried, as a guest who decrypts the Wi-Fi reads them."""
    body = stream.data.partition(b"\r\n\r\n")[2]
    return [b[len(b"event: box\ndata: "):].decode() for b in body.split(b"\n\n") if b.startswith(b"event: box\ndata: ")]


def test_a_box_the_pi_sent_sent_back_moves_no_counter_and_locks_no_phone_out(web_table):
    t = web_table()
    phone = sealed_table(t)
    joined = json.loads(phone.last["raw"].partition(b"\r\n\r\n")[2])["box"]   # the join's answer, sniffed
    stream = phone.stream()
    t.press(1, 6)
    t.press(1, 6)                                       # the game starts
    reveal_start(t)
    for k in (1, 2, 3):
        assert phone.key(k) == 204                      # S4 changes its bid: its own updates
    boxes = stream_boxes(stream)
    assert len(boxes) >= 8
    fit = [b for b in boxes if len(b) <= 1000]          # what fits a stream's address
    assert fit
    before = t.posted
    answers = []
    for i, box in enumerate(fit + [joined]):
        # as a stream's opening (GET /x/<id>/events/<box>) and as a key, from the guests' addresses
        answers.append(request(t.port, "GET", f"/x/{phone.sid}/events/{box}", source=GUESTS[i % len(GUESTS)],
                               timeout=2)[0])
        answers.append(request(t.port, "POST", f"/x/{phone.sid}/key", {"box": box},
                               source=GUESTS[(i + 3) % len(GUESTS)])[0])
    t.sync()
    assert t.posted == before                            # nothing reached the table
    # a key the phone sealed, caught on its way and sent as a stream's opening first: not
    # its route, so its number is not taken, and the key itself still counts once
    held = phone.key_request(4)
    box = json.loads(held.partition(b"\r\n\r\n")[2])["box"]
    answers.append(request(t.port, "GET", f"/x/{phone.sid}/events/{box}", source=GUESTS[0], timeout=2)[0])
    assert request(t.port, "POST", "", raw=held, source=PHONE)[0] == 204
    t.sync()
    assert t.posted == before + 1
    # the phone goes on: its keys, and a new stream that gets its seat
    assert [phone.key(k) for k in (4, 2)] == [204, 204]
    assert set(answers) <= {404, 413, 429}, answers      # refused, every one, as a box that does not open
    assert t.table.current.pending[2] == 2
    again = phone.stream()
    assert again.status() == 200 and phone.events(again)
    stream.close()
    again.close()


def wrong_sealed_join(t, source) -> int:
    intruder = SealedPhone(t, t.view().phone_qr.split("#")[0] + "#" + "1" * 26, source=source)
    return request(t.port, "POST", "/api/join", {"box": intruder.joining.box()}, source=source, timeout=5)[0]


def test_wrong_sealed_joins_from_many_addresses_never_keep_the_qr_phone_out(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.press(1, 4)                                       # the QR for seat 4 is on the glass
    started = time.monotonic()
    wrong = [wrong_sealed_join(t, f"127.0.{a}.{b}") for a, b in
             ((1 + i // 100, 1 + i % 100) for i in range(130)) for _ in range(5)]   # 130 addresses x 5
    assert time.monotonic() - started < 60
    phone = SealedPhone(t, t.view().phone_qr, source=PHONE)
    assert phone.join() == 200 and phone.seat == 4       # at once: no wait for the minute
    # each address was refused on its own (404), never as one of everyone (429)
    assert wrong.count(404) == 650, (wrong.count(404), wrong.count(429))
    # a box that opens needs no limit: a phone whose own address failed five times joins too
    t.press(1, 4)
    for _ in range(6):
        wrong_sealed_join(t, "127.0.0.8")
    second = SealedPhone(t, t.view().phone_qr, source="127.0.0.8")
    assert second.join() == 200 and second.seat == 5


def slow_body(port, source):
    """A socket that sends a key's head and then never its body."""
    s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
    s.sendall(f"POST /x/AAAAAAAAAAAAAAAA/key HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
              f"X-Pitable: 1\r\nContent-Length: 200\r\n\r\n{{".encode())
    return s


def test_sockets_waiting_for_their_body_never_keep_the_phones_own_keys_out(web_table):
    t = web_table()
    phone = sealed_table(t)
    held = []
    try:
        answers = []
        for i in range(10):
            held += [slow_body(t.port, PHONE) for _ in range(8)]   # 8 from the phone's own address
            time.sleep(0.05)
            t.sync()
            answers.append(phone.key(7 if i % 2 == 0 else 0))
        assert answers == [204] * 10
        assert t.web.per_address.get(PHONE, 0) <= 8
    finally:
        for s in held:
            s.close()


def test_a_join_with_a_public_key_of_low_order_seats_nobody_and_the_qr_stays(web_table):
    """Whoever read the QR could send a public key whose shared secret is all zeros (a key
    anyone could work out); libsodium refuses it, and the QR's ticket is not spent by it."""
    import base64

    from pitable.web.seal import JOIN, Channel

    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)
    url = t.view().phone_qr
    weak = Channel(url.split("#", 1)[1], side="phone").seal_as({"pk": base64.b64encode(bytes(32)).decode()}, 1, JOIN)
    assert request(t.port, "POST", "/api/join", {"box": weak.decode()}, source="127.0.0.9")[0] == 404
    t.sync()
    assert t.phones.seats() == () and t.view().phone_qr == url
    phone = SealedPhone(t, url, source=PHONE)
    assert phone.join() == 200 and phone.seat == 4
