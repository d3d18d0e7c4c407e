"""No bid leaves the Pi before the reveal: two runs that differ only in pending bids give
byte-identical responses to every client but the bidding phone, whose stream differs only
in its own pending bid (the table's secrecy tests, for the web)."""

from __future__ import annotations

import json
import logging

from tests.web.conftest import free_port
from tests.web.test_server import reveal_start


def play(t, first):
    """Pads 1, 2 and phones 4, 5; S1 and the phone of S4 bid ``first`` and then change
    to the same final bids in every run."""
    tv = t.stream("/events")
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.phone_join(1)
    t.phone_join(1)
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    c4, c5 = t.phones.codes[4], t.phones.codes[5]
    p4, p5 = t.stream(f"/s/{c4}/events"), t.stream(f"/s/{c5}/events")
    seen = {"page": t.get("/")[3], "phone page": t.get(f"/s/{c5}")[3]}
    t.press(1, first[0])                          # pending bids that differ between runs
    seen["S4 key"] = t.key(c4, first[1])
    seen["state, pending"] = t.get("/api/state")[3]
    seen["S5 key"] = t.key(c5, 7)                 # another phone locks in
    t.press(1, 2)                                 # then the same bids in every run
    seen["S4 key again"] = t.key(c4, 5)
    seen["state, before the last"] = t.get("/api/state")[3]
    t.press(2, 4)                                 # the last lock-in: the reveal
    seen["state, revealed"] = t.get("/api/state")[3]
    for s in (tv, p4, p5):
        s.close()
    seen["table stream"], seen["S5 stream"] = tv.data, p5.data
    return seen, p4


def test_secrecy_nothing_but_the_own_phone_depends_on_pending_bids(web_table, caplog):
    caplog.set_level(logging.DEBUG)
    runs = []
    port = free_port()  # the QR on the join screen shows the port: the same in every run
    for first in ((0, 1), (3, 4), (5, 0)):
        t = web_table(seed=7, port=port)
        runs.append(play(t, first))
        t.close()
    web_lines = [r.getMessage() for r in caplog.records if r.name.startswith("pitable.web")]
    assert web_lines == []
    a, p4a = runs[0]
    for other, p4 in runs[1:]:
        for what in a:
            assert other[what] == a[what], what
        # the bidding phone: only its own bid differs, and only while it is pending
        def public(p):
            out = []
            for name, data in p.events():
                if name == "seat":
                    data = {**data, "bid": None, "keys": [{**k, "mine": False} for k in data["keys"]]}
                out.append((name, data))
            return out
        assert public(p4) == public(p4a)
        assert p4.data != p4a.data
    # the reveal itself did happen, in every run, with the final bids
    revealed = json.loads(a["state, revealed"].partition(b"\r\n\r\n")[2])
    assert revealed["phase"] == "choosing" or revealed["phase"] == "reveal"
    assert b'"bids":[["S1","3"],["S2","5"],["S4","6"],["S5","X"]]' in a["table stream"]


def test_a_phone_sees_its_own_pending_bid_and_no_other(web_table):
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.phone_join(1)
    t.phone_join(1)
    t.press(1, 6)
    t.press(1, 6)
    reveal_start(t)
    c4, c5 = t.phones.codes[4], t.phones.codes[5]
    p4, p5 = t.stream(f"/s/{c4}/events"), t.stream(f"/s/{c5}/events")
    t.key(c4, 2)
    mine = p4.events("seat")[-1][1]
    assert mine["bid"] == "3" and [k["mine"] for k in mine["keys"]] == [False, False, True] + [False] * 5
    theirs = p5.events("seat")[-1][1]
    assert theirs["bid"] is None and not any(k["mine"] for k in theirs["keys"])
    # the table's part of every stream says only who locked in
    table = p5.events("table")[-1][1]
    assert [s["locked"] for s in table["seats"]] == [False, False, True, False]
    assert b'"bid":"3"' not in p5.data and b'"bid":"3"' in p4.data
    p4.close()
    p5.close()


def test_secrecy_a_phone_that_takes_a_pad_seat_mid_turn_gets_the_same_bytes_whatever_the_pad_bid(web_table):
    """Twin tables, pads and phones mixed, that differ only in the bid pad 2 made before it
    handed its seat to a phone: every client, the new phone of seat 2 included, gets the
    same bytes."""
    port = free_port()
    runs = []
    for bid in (0, 5):
        t = web_table(seed=11, port=port)
        tv = t.stream("/events", source="127.0.0.2")
        t.press(1, 0)
        t.press(1, 0)
        t.press(2, 0)
        t.phone_join(1)                               # a phone at seat 4
        t.press(1, 6)
        t.press(1, 6)
        reveal_start(t)
        p4 = t.stream(f"/s/{t.phones.codes[4]}/events", source="127.0.0.3")
        t.press(2, bid)                               # pad 2's pending bid: differs between the twins
        t.press(2, 4, "hold")                         # pad 2 hands its seat to a phone
        ticket = t.view().phone[1].rsplit("/", 1)[1]
        status, _, body, raw_join = t.post("/api/join", {"ticket": ticket}, source="127.0.0.4")
        assert status == 200
        t.sync()
        p2 = t.stream(f"/s/{json.loads(body)['code']}/events", source="127.0.0.4")
        seen = {"join": raw_join, "state": t.get("/api/state", source="127.0.0.5")[3]}
        t.press(1, 3)                                 # pad 1 locks in too: still pending
        seen["state, later"] = t.get("/api/state", source="127.0.0.5")[3]
        for s in (tv, p4, p2):
            s.close()
        seen.update({"tv": tv.data, "phone 4": p4.data, "phone 2": p2.data})
        runs.append(seen)
        t.close()
    for what in runs[0]:
        assert runs[0][what] == runs[1][what], what
