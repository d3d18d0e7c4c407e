"""The TV page as the party's big screen: each round's story in order, the card in play, the
evening's score, in the table's language, public only; and in a real browser at 1920x1080
(read from 3 m) and at a phone's width."""

from __future__ import annotations

import json
import time

import pytest

from tests.web.browser import need_browser, open_browser, wait_for
from tests.web.test_secrecy import play as secrecy_play

# every field the table page gets; a new one must be added here, and so to the secrecy checks
TABLE_FIELDS = {"lang", "frame", "words", "game", "where", "seats", "display", "history", "bidding",
                "sitting", "card", "pile", "setup"}


def last_table(t, stream):
    t.sync()
    return stream.events("table")[-1][1]


def cockroach_four(t):
    t.press(1, 1)
    for pad in (1, 2, 3):
        t.press(pad, 0)
    t.phone_join(1)                   # S4 on a phone
    t.press(1, 6)
    t.press(1, 1)                     # key 2: mode full (the chain the TV tells)
    t.press(1, 6)
    while t.table.current.notices:    # the deal
        t.press(1, 7)


def test_tv_tells_a_cockroach_round_in_order_and_the_card_in_play(web_table):
    t = web_table()
    tv = t.stream("/events")
    cockroach_four(t)
    page = last_table(t, tv)
    assert page["card"] is None                        # no card on its way yet
    assert page["setup"] == {"title": "The deal", "lines": [
        "Deal 64 cards one by one from S1", "S1, S2, S3, S4: 16 cards", "4 of one critter face up loses",
        "No card to offer at your turn: you lose", "S1 offers first"]}
    t.press(1, 1)
    t.press(1, 3)                     # S1 gives S2 a "fly"
    t.press(2, 2)
    t.press(2, 0)                     # S2 peeks, passes to S3: "rat"
    page = last_table(t, tv)
    assert page["setup"] is None                       # the game has begun
    card = page["card"]
    assert card["holder"] == "S3 holds it" and card["claim"] == "S2 said: rat" and card["seen"] == "Seen: S1, S2"
    assert card["story"] == ["S1 gives S2 a card: “fly”", "S2 peeks, passes to S3: “rat”"]
    t.press(3, 7)                     # "false"
    assert last_table(t, tv)["card"]["claim"] == "S2 said: rat"  # still in play until it is turned up
    t.press(1, 0)                     # it is a rat: S3 was wrong
    page = last_table(t, tv)
    assert page["card"] is None
    assert page["history"][0] == {"head": "Round 1", "lines": [
        "S1 gives S2 a card: “fly”", "S2 peeks, passes to S3: “rat”", "S3 calls: false",
        "It is a rat: the call was wrong", "S3 lays it face up", "S3 starts the next round"]}
    assert set(page) == TABLE_FIELDS - {"pile"}


def test_tv_tells_the_grasshopper_set_up_until_the_first_bids(web_table):
    from tests.web.test_server import reveal_start

    t = web_table()
    tv = t.stream("/events")
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    t.press(1, 6)
    t.press(1, 6)
    assert last_table(t, tv)["setup"]["lines"] == [
        "Each player: the 8 poker cards of one colour (1-6, A, X)", "The 24 win chips ready",
        "Shuffle the 66 garden cards: the draw pile", "Turn up 3 of them: the display"]
    reveal_start(t)
    t.press(1, 0)
    assert last_table(t, tv)["setup"] is not None      # one bid is no reveal
    t.press(2, 1)
    page = last_table(t, tv)
    assert page["setup"] is None and page["history"][0]["lines"][0] == {"bids": [["S1", "1"], ["S2", "2"]]}
    tv.close()


def test_tv_speaks_the_tables_language(web_table):
    t = web_table(language="de")
    tv = t.stream("/events")
    cockroach_four(t)
    t.press(1, 1)
    t.press(1, 3)
    page = last_table(t, tv)
    assert page["card"]["holder"] == "P2 hat sie" and page["card"]["story"] == ["P1 schiebt P2 eine Karte zu: „Fliege“"]
    tv.close()


def test_tv_flags_a_row_one_short_of_losing(web_table):
    t = web_table()
    tv = t.stream("/events")
    cockroach_four(t)
    for _ in range(3):                # three rats end in S2's row, by keys
        game = t.table.current
        starter = game.seats[game.state.active]
        if starter == 2:
            t.press(2, 0)
            t.press(2, 0)             # a "rat" to S1, who calls true: right, S2 takes it back
            t.press(1, 6)
        else:
            t.press(starter, 1)
            t.press(starter, 0)
            t.press(2, 7)             # S2 calls "false" on a rat: wrong, S2 takes it
        t.press(1, 0)
        while t.table.current.notices:
            t.press(1, 7)
    page = last_table(t, tv)
    s2 = page["seats"][1]
    assert s2["lines"] == ["3 rats"] and s2["warn"]
    assert not any(s["warn"] for i, s in enumerate(page["seats"]) if i != 1)
    assert "S2: 3 rats: one more loses" in [line for h in page["history"] for line in h["lines"]]
    tv.close()


def test_tv_shows_the_evenings_score(web_table, tmp_path):
    (tmp_path / "logs0").mkdir()
    (tmp_path / "logs0" / "sitting.json").write_text(json.dumps({"games": [
        {"id": "a", "game": "cockroach", "seats": [1, 2, 3], "winners": [1, 3], "losers": [2], "at": time.time()},
        {"id": "b", "game": "grasshopper", "seats": [1, 2], "winners": [1], "losers": [2], "at": time.time()}]}))
    t = web_table()
    tv = t.stream("/events")
    page = last_table(t, tv)
    assert page["sitting"] == {"title": "This evening: 2 games",
                               "heads": ["Grasshopper Poker wins", "Cockroach Poker losses"],
                               "rows": [["S1", 1, 0], ["S2", 0, 1], ["S3", 0, 0]]}
    tv.close()


def test_secrecy_the_new_fields_do_not_depend_on_pending_bids(web_table, tmp_path):
    """The secrecy run (pending bids that differ between runs) with an evening's score on
    the page: every response but the bidding phone's is the same byte for byte."""
    from tests.web.conftest import free_port

    port = free_port()
    runs = []
    for i, first in enumerate(((0, 1), (5, 0))):
        logs = tmp_path / f"logs{i}"
        logs.mkdir()
        (logs / "sitting.json").write_text(json.dumps({"games": [
            {"id": "a", "game": "grasshopper", "seats": [1, 2, 4, 5], "winners": [4], "losers": [1, 2, 5],
             "at": time.time()}]}))
        t = web_table(seed=7, port=port)
        runs.append(secrecy_play(t, first)[0])
        t.close()
    a, b = runs
    for what in a:
        assert a[what] == b[what], what
    assert b'"sitting":{"heads"' in a["table stream"]


# -- the real browser -------------------------------------------------------------------------

@pytest.fixture
def tv_browser():
    need_browser()
    opened = []

    def make(width, height):
        b = open_browser(width, height)
        b.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                  "deviceScaleFactor": 1, "mobile": width < 800})
        opened.append(b)
        return b

    yield make
    for b in opened:
        b.quit()


MEASURE = """
const out = [];
for (const e of document.querySelectorAll('body *')) {
  if (!e.offsetParent && getComputedStyle(e).position !== 'fixed') continue;
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const r = e.getBoundingClientRect();
  out.push([e.id || e.className || e.tagName, parseFloat(getComputedStyle(e).fontSize), r.left, r.right, r.top,
            e.textContent.trim().slice(0, 30)]);
}
return {texts: out, scroll: document.scrollingElement.scrollWidth, width: window.innerWidth,
        story: document.getElementById('history-box').getBoundingClientRect().toJSON(),
        left: document.getElementById('left').getBoundingClientRect().toJSON()};
"""


@pytest.mark.system
def test_tv_page_at_1920x1080_uses_the_width_and_text_reads_from_3_m(web_table, tv_browser):
    """On a 1080p TV every text is at least 30 CSS px (about 19 mm on a 55-inch set), the
    three columns sit side by side across the width, nothing sticks out sideways."""
    t = web_table()
    cockroach_four(t)
    t.press(1, 1)
    t.press(1, 3)
    tv = tv_browser(1920, 1080)
    tv.get(f"http://127.0.0.1:{t.port}/")
    wait_for(lambda: tv.find_element("id", "card-claim").text.endswith("fly"), what="the card on the TV")
    got = tv.execute_script(MEASURE)
    texts = [x for x in got["texts"] if x[4] < 1080]   # what shows (the story's oldest lines may go below)
    assert texts and min(size for _, size, *_ in texts) >= 30, sorted(texts, key=lambda x: x[1])[:3]
    assert got["scroll"] <= 1920
    assert got["left"]["right"] < got["story"]["left"] and got["story"]["right"] > 1800
    assert max(x[3] for x in texts) <= 1920


@pytest.mark.system
def test_tv_page_at_a_phones_width_is_one_column_without_sideways_scroll(web_table, tv_browser):
    t = web_table()
    cockroach_four(t)
    t.press(1, 1)
    t.press(1, 3)
    phone = tv_browser(412, 915)
    phone.get(f"http://127.0.0.1:{t.port}/")
    wait_for(lambda: phone.find_element("id", "card-claim").text.endswith("fly"), what="the card on the phone")
    got = phone.execute_script(MEASURE)
    assert got["scroll"] <= 412
    assert got["story"]["top"] > got["left"]["bottom"] - 1   # one column: the story below
    assert min(size for _, size, *_ in got["texts"]) >= 16
