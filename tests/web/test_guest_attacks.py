"""A guest on the party's Wi-Fi against the real server on loopback, each device its own
127.0.0.x: a phone sees only the bids its own keys made, no socket holds a slot it does
not use, a phone presses only for its own seat, and the limits hold with many addresses
(docs/phones.md, "Threat model")."""

from __future__ import annotations

import json
import socket
import threading
import time

import pytest

from tests.web.conftest import StreamClient, request
from tests.web.test_server import reveal_start

PHONE = "127.0.0.1"
SECOND = "127.0.0.9"          # a second device, one the table did not mean to seat
ATTACKERS = [f"127.0.0.{i}" for i in range(20, 40)]


def bidding(t, phones=0):
    """Pads 1 and 2 and ``phones`` phones (seats 4, 5) in a Grasshopper Poker bid."""
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    codes = [t.phone_join(1)[1] for _ in range(phones)]
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
