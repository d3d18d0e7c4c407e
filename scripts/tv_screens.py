#!/usr/bin/env python3
"""The TV page (the party's big screen) at 1920x1080 and at a phone's width, for both games
and every language, from real games played by keys (pads posted as a keyboard pad would):
docs/screens/web/tv-{cockroach,cockroach-quick,grasshopper}-{en,de,vi}.png (1920x1080), the set-up at the
start tv-{cockroach,grasshopper}-start-{en,de,vi}.png, and tv-{cockroach,grasshopper}-phone-{en,de,vi}.png
(412 px wide, the whole page), each with the words it shows beside it (.txt). Needs Debian's chromium and
chromium-driver.

    .venv/bin/python scripts/tv_screens.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser import open_browser, wait_for  # noqa: E402
from tests.web.conftest import WebTable  # noqa: E402

OUT = ROOT / "docs" / "screens" / "web"


def save(driver, path: Path) -> None:
    """The screenshot, in 128 colours (the page has few): a third of the bytes in git; and
    beside it the words it shows (``.txt``), which tests/test_previews.py holds to what the
    same game makes the page say now (a picture older than the catalog fails)."""
    from PIL import Image

    driver.save_screenshot(str(path))
    Image.open(path).convert("RGB").quantize(128).save(path, optimize=True)
    path.with_suffix(".txt").write_text(driver.execute_script("return document.body.innerText") + "\n",
                                        encoding="utf-8")


def read_notices(t, pad=1):
    while t.table.current.notices:
        t.press(pad, 7)


def cockroach_round(t, starter, to, claim, answers):
    """One round by keys: ``starter`` offers to ``to`` claiming ``claim`` (a key 0-7);
    ``answers``: (seat, pass-to or None, claim or call) steps, the last one a call
    ("true"/"false"), then the real kind (key) flipped."""
    t.press(starter, to - 1)
    t.press(starter, claim)
    holder = to
    for step in answers:
        if step[0] == "call":
            _, true, real = step
            t.press(holder, 6 if true else 7)
            t.press(1, real)
            read_notices(t)
            return
        nxt, new_claim = step
        t.press(holder, nxt - 1)
        t.press(holder, new_claim)
        holder = nxt


def play_cockroach(t):
    """Six players: a first game S5 loses (four rats), then the next game with the same
    players (key 1: S5 starts), two rounds told, and a card on its way."""
    t.press(1, 1)
    for pad in range(1, 7):
        t.press(pad, 0)
    t.press(1, 6)
    t.press(1, 1)                                    # mode full: the TV tells the chain
    t.press(1, 6)
    read_notices(t)
    game = t.table.current
    for _ in range(30):                              # every card a rat that ends with S5
        st = game.state
        if st.is_over():
            break
        starter = game.seats[st.active]
        if starter == 5:
            cockroach_round(t, 5, 1, 0, [("call", True, 0)])
        else:
            cockroach_round(t, starter, 5, 0, [("call", False, 0)])
    read_notices(t)
    t.press(1, 0)                                    # key 1: again, same players; S5 starts
    read_notices(t)
    game = t.table.current
    starter = lambda: game.seats[game.state.active]  # noqa: E731
    s = starter()
    cockroach_round(t, s, s % 6 + 1, 3, [((s + 1) % 6 + 1, 3), ((s + 3) % 6 + 1, 1), ("call", False, 3)])
    s = starter()
    cockroach_round(t, s, s % 6 + 1, 6, [((s + 1) % 6 + 1, 6), ("call", True, 2)])
    s = starter()
    a, b = s % 6 + 1, (s + 2) % 6 + 1
    t.press(s, a - 1)
    t.press(s, 4)                                    # a "scorpion" ...
    t.press(a, b - 1)
    t.press(a, 4)                                    # ... peeked at and passed on: "scorpion"
    t.press(b, (b % 6))
    t.press(b, 7)                                    # ... and on again: "toad"


def play_cockroach_quick(t):
    """Six players in quick mode (the default): a first game S5 loses (four rats, one key a
    round, the taker's), then the next game with the same players (S5 starts), five cards
    laid, S2's third toad one short of losing."""
    t.press(1, 1)
    for pad in range(1, 7):
        t.press(pad, 0)
    t.press(1, 6)
    t.press(1, 6)                                    # quick: the default
    read_notices(t)
    for seat, kind in ((2, 3), (5, 0), (1, 7), (5, 0), (5, 0), (3, 2), (5, 0)):
        t.press(seat, kind)                          # the taker presses the critter it lays face up
    read_notices(t)
    t.press(1, 0)                                    # key 1: again, same players; S5 starts
    read_notices(t)
    for seat, kind in ((2, 7), (4, 4), (2, 7), (6, 1), (2, 7)):
        t.press(seat, kind)


def play_grasshopper(t):
    """Four players, the Pi deals: a game played to its end by keys, then the next one
    with the same players (key 1) a few turns in, the bids of a turn pending."""
    import random

    from pitable.rules.grasshopper import BIDDING, CHOOSING

    t.press(1, 0)
    for pad in range(1, 5):
        t.press(pad, 0)
    t.press(1, 6)
    t.press(1, 6)
    rng = random.Random(5)
    for again in (False, True):
        game = t.table.current
        turns = 0
        for _ in range(3000):
            st = game.state
            if st.is_over() or (again and turns >= 5 and st.phase is BIDDING and not game.notices):
                break
            if game.notices or game.overlay:
                t.press(1, 7)
            elif st.phase is BIDDING:
                for p in range(4):
                    if p not in game.pending:
                        t.press(p + 1, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1]))
                turns += 1
            elif st.phase is CHOOSING:
                t.press(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))
            else:
                t.press(1, 7)
        if not again:
            read_notices(t)
            t.press(1, 0)                            # key 1: again
    st = t.table.current.state
    for pad in (2, 3):                               # two lock in: who, never what
        t.press(pad, next(c for c in range(8) if not st.spent[pad - 1] >> c & 1))


def shoot(game: str, lang: str, phone: bool = False) -> Path:
    t = WebTable(Path(tempfile.mkdtemp()), pads=6 if game.startswith("cockroach") else 4, language=lang,
                 deck="virtual", seed=11)
    size = (412, 915) if phone else (1920, 1080)
    tv = open_browser(*size, lang=lang)
    # the page's own size (the viewport), not the window's with its frame
    tv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": size[0], "height": size[1],
                                                              "deviceScaleFactor": 1, "mobile": phone})
    try:
        PLAYS[game](t)
        tv.get(f"http://127.0.0.1:{t.port}/")
        wait_for(lambda: tv.find_element("id", "history").text, what="the story on the TV")
        wait_for(lambda: tv.find_element("id", "sitting").text, what="the evening's score")
        OUT.mkdir(parents=True, exist_ok=True)
        path = OUT / (f"tv-{game}-phone-{lang}.png" if phone else f"tv-{game}-{lang}.png")
        if phone:  # the whole page, scrolled
            height = tv.execute_script("return document.body.scrollHeight")
            tv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": 412, "height": min(height, 4000), "deviceScaleFactor": 1, "mobile": True})
        save(tv, path)
        return path
    finally:
        tv.quit()
        t.close()


def shoot_start(game: str, lang: str = "en") -> Path:
    """Right after the start: the set-up (the deal) on the TV beside the glass."""
    t = WebTable(Path(tempfile.mkdtemp()), pads=6 if game == "cockroach" else 4, language=lang,
                 deck="physical", seed=11)
    tv = open_browser(1920, 1080, lang=lang)
    tv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 1920, "height": 1080,
                                                              "deviceScaleFactor": 1, "mobile": False})
    try:
        t.press(1, 1 if game == "cockroach" else 0)
        for pad in range(1, 7 if game == "cockroach" else 4):
            t.press(pad, 0)
        t.press(1, 6)
        t.press(1, 6)
        tv.get(f"http://127.0.0.1:{t.port}/")
        wait_for(lambda: tv.find_element("id", "setup").text, what="the set-up on the TV")
        path = OUT / f"tv-{game}-start-{lang}.png"
        save(tv, path)
        return path
    finally:
        tv.quit()
        t.close()


PLAYS = {"cockroach": play_cockroach, "cockroach-quick": play_cockroach_quick, "grasshopper": play_grasshopper}


def main(argv=None) -> int:
    games = (argv or sys.argv[1:]) or ("cockroach", "cockroach-quick", "grasshopper")
    for game in games:
        for lang in ("en", "de", "vi"):
            print(shoot(game, lang).relative_to(ROOT))
            if game in ("cockroach", "grasshopper"):
                print(shoot_start(game, lang).relative_to(ROOT))
                print(shoot(game, lang, phone=True).relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
