"""Nothing is cut at the glass's edges: every frame of the layout cases in every language
(the longest real values) keeps all its ink on the glass when the anti-burn-in shift moves
it, in every step of the shift; and the cases people saw cut (the pick order's last digit
at the right edge, the footer's lowest row, Vietnamese marks) stay whole on the real Screen."""

from __future__ import annotations

import pytest
from PIL import Image

from pitable.i18n import LANGUAGES, msg
from pitable.screens import views as v
from pitable.screens.render import render
from pitable.table.screen import SHIFTS, Screen, shifted

from .test_layouts import CASES


def lit(image) -> int:
    return sum(image.histogram()[1:]) if image.mode == "1" else image.getbbox() is not None


def moved(frame, dx, dy):
    out = Image.new("1", frame.size)
    out.paste(frame, (dx, dy))
    return out


def keeps_ink(frame, image) -> bool:
    """``image`` is ``frame`` moved by at most a pixel each way, and no ink lost."""
    if lit(image) != lit(frame):
        return False
    return any(moved(frame, dx, dy).tobytes() == image.tobytes() for dx in (-1, 0, 1) for dy in (-1, 0, 1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_burn_in_shift_never_takes_ink_off_the_glass(lang):
    bad = []
    for case_lang, view in CASES[::3]:  # every third case: all kinds of screen, a third of the values
        if case_lang != lang:
            continue
        frame = render(view, lang)
        for dx, dy in SHIFTS:
            if not keeps_ink(frame, shifted(frame, dx, dy)):
                bad.append((type(view).__name__, (dx, dy)))
    assert not bad, bad[:10]


class Device:
    def __init__(self):
        self.frames = []

    def display(self, image):
        self.frames.append(image.copy())


class Clock:
    t = 0.0

    def __call__(self):
        return self.t


NAMED = [
    ("en", v.BidsRevealed((1, 2, 3, 4), ("5", "5", "6", "2"), (1, 2), None, None, (3, 4), False,
                          foot=msg("foot.choose", seat=3, last=3))),
    ("en", v.Instructions(msg("title.turn", turn=1), (msg("line.takes", seat=3, cards=(msg("n.corn", n=1),)),),
                          foot=msg("foot.choose", seat=4, last=2))),
    ("vi", v.Setup("options", "grasshopper", (1, 2), 4, ((msg("opt.beginner"), msg("value.off")),), True)),
    ("vi", v.Resumed("grasshopper", 1, 2, True)),
]


@pytest.mark.parametrize("lang,view", NAMED)
def test_the_screens_people_saw_cut_keep_every_pixel_through_a_whole_shift_round(lang, view):
    frame = render(view, lang)
    device, clock = Device(), Clock()
    screen = Screen(device, clock, blank_after=0, shift_after=10)
    screen.show(frame)
    for _ in SHIFTS:
        clock.t += 11
        screen.tick(clock.t)
    for image in device.frames:
        assert keeps_ink(frame, image), (lang, type(view).__name__)


def test_the_order_reaches_the_right_edge_so_the_check_above_is_not_idle():
    frame = render(NAMED[0][1], "en")
    assert frame.getbbox()[2] == 128  # ink in the last column: a wrap-around shift would cut it
