"""The TV page in a real Chromium at 1920x1080, in every phase a table reaches by keys and
in every language: nothing is cut at the bottom or the side (the Vietnamese set-up lost
its last line, who starts), at a game's start the page is one screen high with the set-up
in the right column (it was 1,217 px high with an empty right third), the heading says
what the glass asks ("Which game?", not a game's name and "Who plays?"), and the
evening's score keeps its seats apart ("S1S2S3S4S5S6Pi" read as one word)."""

from __future__ import annotations

import json
import time

import pytest

from pitable.i18n import LANGUAGES, catalog, msg
from tests.web.browser import need_browser, open_browser, wait_for
from tests.web.conftest import WebTable

FIT = """
const bad = [];
for (const e of document.querySelectorAll('body *')) {
  if (!e.offsetParent) continue;
  if (e.closest('#history-box')) continue;   // the story: its oldest lines fade out below, by design
  const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
  if (!own) continue;
  const r = e.getBoundingClientRect();
  if (r.bottom > window.innerHeight + 0.5 || r.right > window.innerWidth + 0.5 || r.left < -0.5)
    bad.push([e.id || e.className || e.tagName, Math.round(r.bottom), Math.round(r.right),
              e.textContent.trim().slice(0, 40)]);
}
const right = document.getElementById('right').getBoundingClientRect();
const seats = [...document.querySelectorAll('#sitting th.seat')].map((th) => {
  const range = document.createRange(); range.selectNodeContents(th);
  const r = range.getBoundingClientRect(); return [r.left, r.right];
});
return {bad: bad, height: document.scrollingElement.scrollHeight, width: document.scrollingElement.scrollWidth,
        game: document.getElementById('game').textContent, where: document.getElementById('where').textContent,
        rightText: document.getElementById('right').innerText.trim().length, right: [right.left, right.right],
        seats: seats, em: parseFloat(getComputedStyle(document.getElementById('sitting')).fontSize || '0')};
"""


@pytest.fixture(scope="module")
def tv():
    need_browser()
    b = open_browser(1920, 1080)
    b.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080,
                                                           "deviceScaleFactor": 1, "mobile": False})
    yield b
    b.quit()


def evening(log_dir):
    """An evening of two games with six pads and the Pi: the widest score header."""
    log_dir.mkdir(parents=True, exist_ok=True)
    (log_dir / "sitting.json").write_text(json.dumps({"games": [
        {"id": "a", "game": "grasshopper", "seats": [1, 2, 3, 4, 5, 6, 101], "winners": [101], "losers": [1, 2],
         "at": time.time()},
        {"id": "b", "game": "cockroach", "seats": [1, 2, 3, 4, 5, 6], "winners": [1, 3], "losers": [2],
         "at": time.time()}]}))


def phases(t, game):
    """Key presses that take a fresh table through the phases of ``game``: yields a name
    after each step, the page is measured there."""
    yield "which game"
    t.press(1, 1 if game == "cockroach" else 0)
    pads = range(1, 7) if game == "cockroach" else range(1, 5)
    for pad in pads:
        t.press(pad, 0)
    yield "who plays"
    t.press(1, 6)
    yield "options"
    if game == "cockroach":
        t.press(1, 1)                 # key 2: mode full (a card in play, below)
    t.press(1, 6)
    yield "the set-up"
    if game == "cockroach":
        while t.table.current.notices:
            t.press(1, 7)
        t.press(1, 1)
        t.press(1, 3)
        yield "a card in play"
        t.press(2, 2)          # P2 looks and passes it on to P3: "bat"
        t.press(2, 2)
        t.press(3, 3)          # P3 to P4: "fly"
        t.press(3, 3)
        t.press(4, 4)          # P4 to P5: "scorpion"
        t.press(4, 4)
        yield "a card passed on"
    else:
        for pad in pads:
            t.press(pad, 1)
        yield "bids revealed"


@pytest.mark.system
@pytest.mark.parametrize("game", ["cockroach", "grasshopper"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tv_page_fits_1920x1080_in_every_phase(tv, tmp_path, lang, game):
    evening(tmp_path / "logs")
    t = WebTable(tmp_path / "logs", pads=6 if game == "cockroach" else 4, language=lang, seed=11)
    say = catalog(lang).words
    try:
        tv.get(f"http://127.0.0.1:{t.port}/")
        for phase in phases(t, game):
            t.sync()
            want = say(msg("setup.which_game")) if phase == "which game" else say(msg(f"game.{game}"))
            wait_for(lambda: tv.find_element("id", "game").text == want,  # noqa: B023 - waited for at once
                     what=f"the heading in {phase}")
            if phase == "the set-up":
                wait_for(lambda: tv.find_element("id", "setup").text, what="the set-up")
            time.sleep(0.15)  # the last event drawn
            got = tv.execute_script(FIT)
            where = f"{lang} {game} {phase}"
            assert got["height"] <= 1080 and got["width"] <= 1920, (where, got["height"], got["width"])
            assert not got["bad"], (where, got["bad"])
            if phase == "which game":
                assert got["where"] == "", where       # no game chosen yet: no step of one
            if phase == "the set-up":
                assert got["rightText"] > 0, where     # the set-up fills the right column
            seats = got["seats"]
            assert len(seats) == 7, where
            gaps = [b[0] - a[1] for a, b in zip(seats, seats[1:])]
            assert min(gaps) >= 8, (where, gaps)   # "S1 S2 ... Pi", never "S1S2S3"
    finally:
        t.close()


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", ["cockroach", "grasshopper"])
def test_the_phones_hold_a_button_says_what_holding_a_shows_in_this_game(web_table, lang, game):
    """In Cockroach Poker there are no chips: holding A shows the face-up rows."""
    t = web_table(language=lang)
    t.press(1, 1 if game == "cockroach" else 0)
    for pad in (1, 2, 3):
        t.press(pad, 0)
    seat, code = t.phone_join(1)
    t.press(1, 6)
    t.press(1, 6)
    stream = t.stream(f"/s/{code}/events")
    t.sync()
    while not stream.events("seat") and stream.events("next"):   # a new game: the phone's new code
        code = stream.events("next")[-1][1]["code"]
        stream.close()
        stream = t.stream(f"/s/{code}/events")
        t.sync()
    words = stream.events("seat")[-1][1]["words"]
    want = catalog(lang).words(msg("web.rows" if game == "cockroach" else "web.scores"))
    assert words["web.scores"] == want
    assert (game == "cockroach") == (want != catalog(lang).words(msg("web.scores")))
    stream.close()
