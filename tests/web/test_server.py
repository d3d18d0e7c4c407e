"""The web server core on loopback: /api/state, the pages, the table stream, in the table's words."""

from __future__ import annotations

import json
import re

from pitable.rules.log import by_seat, replay, seats_of
from pitable.table.journal import SUFFIX


def start_game(t, phone=True):
    """Grasshopper Poker with pads 1 and 2 and (when ``phone``) a phone as seat 4."""
    t.press(1, 0)                 # game 1
    t.press(1, 0)
    t.press(2, 0)                 # pads 1 and 2 join
    code = None
    if phone:
        seat, code = t.phone_join(1)
        assert seat == 4
    t.press(1, 6)                 # A: options
    t.press(1, 6)                 # A: start
    # a new game made a fresh code (its phone's stream was told it: test_security)
    return t.phones.codes[4] if phone else None


def reveal_start(t):
    """The physical deck: pad 1 tells the three kinds turned up (corn, corn, strawberry)."""
    for key in (1, 1, 2):
        t.press(1, key)


def test_api_state_has_the_keys_and_meanings_of_replay_json_plus_who_locked_in(web_table, tmp_path):
    t = web_table()
    code = start_game(t)
    reveal_start(t)
    t.press(1, 2)                                   # S1 locks in (a 3)
    status, headers, body, _ = t.get("/api/state")
    assert status == 200 and headers["content-type"] == "application/json"
    got = json.loads(body)
    log = next((tmp_path / "logs0").glob(f"*{SUFFIX}")).read_text()
    state, parsed = replay(log)
    want = by_seat(state.to_json(), seats_of(parsed.header, state.players))   # as `pitable replay --json`
    assert {k: v for k, v in got.items() if k not in ("locked", "pads")} == json.loads(json.dumps(want))
    assert [s["seat"] for s in got["seats"]] == [1, 2, 4]
    assert got["locked"] == [1] and got["pads"] == [1, 2, 4]
    assert t.key(code, 4) == 204                    # the phone (player 3, seat 4) locks in: seat 4
    assert json.loads(t.get("/api/state")[2])["locked"] == [1, 4]


def test_the_table_page_is_package_data_with_no_outside_assets(web_table):
    t = web_table()
    status, headers, body, raw = t.get("/")
    assert status == 200 and headers["content-type"].startswith("text/html")
    assert b'src="/app.js"' in body and b'href="/style.css"' in body
    assert not re.search(rb'(src|href)="(https?:)?//', body)
    for path in ("/app.js", "/style.css"):
        s, h, b, _ = t.get(path)
        assert s == 200 and b and b"http://" not in b and b"https://" not in b
    assert "set-cookie" not in headers and b"Server:" not in raw and b"Date:" not in raw
    assert "default-src 'self'" in headers["content-security-policy"]


def test_the_table_stream_speaks_the_tables_language_from_the_catalogs(web_table):
    t = web_table(language="de")
    tv = t.stream("/events")
    code = start_game(t)
    reveal_start(t)
    t.press(2, 4)                                   # S2 locks in
    last = tv.events("table")[-1][1]
    assert last["lang"] == "de" and last["game"] == "Heuschrecken Poker"
    assert last["where"] == "Runde 1, Zug 1"
    assert last["display"] == ["2 Mais", "1 Erdbeere"]
    assert [s["name"] for s in last["seats"]] == ["P1", "P2", "P4"]
    assert [s["locked"] for s in last["seats"]] == [False, True, False] and last["words"]["web.locked"] == "geboten"
    assert all("phone" not in s for s in last["seats"])  # pads and phones look the same
    # the OLED frame goes along (1024 bytes, base64): the glass's picture, never more
    assert len(__import__("base64").b64decode(last["frame"])) == 128 * 64 // 8
    t.press(1, 0)
    t.key(code, 5)                                  # all in: the reveal; the history has the bids
    last = tv.events("table")[-1][1]
    assert last["history"][0]["lines"][0] == {"bids": [["P1", "1"], ["P2", "5"], ["P4", "6"]]}
    tv.close()


def test_a_snapshot_is_a_copy_the_game_moving_on_does_not_change_it(web_table):
    t = web_table()
    start_game(t, phone=False)
    snap = t.loop.publish.latest
    before = json.dumps(snap.state, sort_keys=True)
    reveal_start(t)
    assert json.dumps(snap.state, sort_keys=True) == before
    assert t.loop.publish.latest.state["display"] == {"corn": 2, "strawberry": 1}
