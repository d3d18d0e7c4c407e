#!/usr/bin/env python3
"""The OLED screens of a party night, from real games played by keys, in every language:
the deal (6 and 2 players), passing on with the claim received, the forced call, the only
receiver with two players, a row one short of losing, the rows with six seats, the result
with "again", the next game's deal (the loser first), the evening's score, Grasshopper
Poker's result. docs/screens/party/{en,de,vi}.png (4x, named), and what the layout
checker finds (text cut, off the frame, overlapping) printed.

    PYTHONPATH=. .venv/bin/python scripts/party_screens.py
"""

from __future__ import annotations

import pathlib
import random
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw  # noqa: E402

from pitable.hardware.keys import KeyEvent  # noqa: E402
from pitable.screens.render import render  # noqa: E402
from pitable.table.app import Table  # noqa: E402
from tests.screens.test_layouts import problems  # noqa: E402
from tests.table.conftest import Clock, play_on  # noqa: E402
from tests.table.test_party_night import three_rats_in_s2s_row  # noqa: E402

OUT = ROOT / "docs" / "screens" / "party"


def press(t, seat, key, action="press"):
    if type(t.view()).__name__ == "BidsRevealed":
        t.clock.advance(getattr(t.current, "reveal_seconds", 0))  # the bids are read first: they hold
    t.on_key(KeyEvent(seat - 1, key, action))
    t.durable()


class Shots:
    def __init__(self, lang):
        self.lang, self.out, self.found = lang, [], []

    def __call__(self, t, name):
        view = t.view()
        self.out.append((name, render(view, self.lang).convert("L").resize((512, 256), Image.NEAREST)))
        self.found += [f"{self.lang} {name}: {p}" for p in problems(view, self.lang)]

    def notices(self, t, name, pad=1):
        i = 0
        while t.current.notices:
            self(t, f"{name}_{i + 1}")
            i += 1
            press(t, pad, 7)


def cockroach(t, pads, first_presses=0):
    press(t, pads[0], 1)
    for pad in pads:
        press(t, pad, 0)
    press(t, pads[0], 6)
    for _ in range(first_presses):
        press(t, pads[0], 0)
    press(t, pads[0], 1)   # mode full: the party screens show the chain
    press(t, pads[0], 6)


def six(shot, tmp):
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "six", rng=random.Random(1), language=shot.lang)
    cockroach(t, (1, 2, 3, 4, 5, 6), first_presses=3)  # S4 first
    shot.notices(t, "deal6")
    press(t, 4, 4)
    press(t, 4, 5)                    # S4 -> S5 "stink bug"
    press(t, 5, 5)                    # S5 peeks, to S6 ...
    shot(t, "pass_on_claim")
    press(t, 5, 3)                    # "fly"
    for seat, to in ((6, 1), (1, 2), (2, 3)):
        press(t, seat, to - 1)
        press(t, seat, 3)
    shot(t, "forced_call")            # S3: everyone has seen it
    press(t, 3, 7)                    # S3 calls "false": it is a fly, S3 takes it
    press(t, 1, 3)
    while t.current.notices:
        press(t, 1, 7)
    for _ in range(2):                # S3 offers a fly to S1, who calls true: right, S3 takes it
        press(t, 3, 0)
        press(t, 3, 3)
        press(t, 1, 6)
        press(t, 1, 3)
        if t.current.state.rows[2][3] < 3:
            while t.current.notices:
                press(t, 1, 7)
    shot.notices(t, "card")           # S3: 3 flies: one more loses
    press(t, 3, 6, "hold")
    shot(t, "rows6")


def two(shot, tmp):
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "two", rng=random.Random(1), language=shot.lang)
    cockroach(t, (5, 6))
    shot.notices(t, "deal2", 5)
    shot(t, "offer2_only_receiver")
    press(t, 5, 3)
    shot(t, "answer2_call")


def lose_s2(t):
    """Three players, every card a rat that ends in S2's row, by keys, until S2 loses."""
    cockroach(t, (1, 2, 3))
    while t.current.notices:
        press(t, 1, 7)
    game = t.current
    for _ in range(40):
        st = game.state
        if st.is_over():
            break
        starter = game.seats[st.active]
        if starter == 2:
            press(t, 2, 0)
            press(t, 2, 0)            # a "rat" to S1, who calls true: right, back to S2
            press(t, 1, 6)
        else:
            press(t, starter, 1)
            press(t, starter, 0)      # a "rat" to S2, who calls false: wrong, S2 takes it
            press(t, 2, 7)
        press(t, 1, 0)
        while t.current.notices:
            press(t, 1, 7)


def rows_one_short(shot, tmp):
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "rows", rng=random.Random(1), language=shot.lang)
    three_rats_in_s2s_row(t)          # by keys, as the test plays it
    press(t, 3, 6, "hold")
    shot(t, "rows3_one_short")


def evening(shot, tmp):
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "evening", rng=random.Random(1), language=shot.lang)
    lose_s2(t)
    shot(t, "over_again")
    press(t, 1, 0)                    # 1: again, S2 (the loser) first
    shot(t, "again_deal_1")
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "evening2", rng=random.Random(1), language=shot.lang)
    lose_s2(t)
    press(t, 1, 6)                    # A: a new game
    lose_s2(t)
    press(t, 1, 6)
    press(t, 3, 6, "hold")            # hold A choosing the game: the evening's score
    shot(t, "evening_score")


def grasshopper(shot, tmp):
    t = Table(seats=6, clock=Clock(), log_dir=tmp / "gh", rng=random.Random(2), language=shot.lang, deck="virtual")
    press(t, 1, 0)
    for pad in (1, 2, 3):
        press(t, pad, 0)
    press(t, 1, 6)
    press(t, 1, 6)
    play_on(t, random.Random(4))
    while t.current.notices:
        press(t, 1, 7)
    shot(t, "grasshopper_over_again")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    found = []
    for lang in ("en", "de", "vi"):
        shot = Shots(lang)
        tmp = pathlib.Path(tempfile.mkdtemp())
        for play in (six, two, rows_one_short, evening, grasshopper):
            play(shot, tmp)
        cols = 3
        rows = (len(shot.out) + cols - 1) // cols
        sheet = Image.new("L", (cols * 520, rows * 280), 60)
        d = ImageDraw.Draw(sheet)
        for k, (name, im) in enumerate(shot.out):
            x, y = (k % cols) * 520, (k // cols) * 280
            sheet.paste(im, (x + 4, y + 20))
            d.text((x + 4, y + 4), name, fill=255)
        sheet.save(OUT / f"{lang}.png")
        print(f"docs/screens/party/{lang}.png: {len(shot.out)} screens")
        found += shot.found
    for line in found:
        print(line)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
