"""Cockroach Poker's quick-mode screen (one press a round) reads whole in every language
with the longest real values, 2 to 6 seats: the starter, every seat's hand count (27 with
two players), rows with every critter (3 of each, the most a row holds without losing;
4 with two players), a round in two digits, and the 8 critter keys."""

from __future__ import annotations

import pytest
from PIL import Image

from pitable.i18n import LANGUAGES, msg
from pitable.rules.cockroach import KINDS, deal, loss_count
from pitable.screens import icons
from pitable.screens import views as v
from pitable.screens.render import draw, layout_problems, render
from pitable.screens.widgets import Canvas


def quick_views(players: int) -> list:
    seats = tuple(range(7 - players, 7))            # the highest pads: "S6" is the widest label
    short = loss_count(players) - 1
    full_rows = tuple({k: short for k in KINDS} for _ in seats)
    one_each = tuple({k: 1 for k in KINDS} for _ in seats)
    hands = deal(players)
    keys = tuple(v.Key(i, ("lay", k), msg(f"kind.{k}")) for i, k in enumerate(KINDS))
    out = []
    for starter in (seats[0], seats[-1]):
        for rows in (full_rows, one_each, tuple({} for _ in seats)):
            out.append(v.CockroachQuick(54, starter, seats, hands, rows, short + 1, None, keys))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("players", range(2, 7))
def test_the_quick_screen_reads_whole(lang, players):
    for view in quick_views(players):
        assert layout_problems(view, lang) == [], (lang, players, view)


def _ink(view, lang, box) -> int:
    image = render(view, lang)
    return sum(image.crop(box).convert("L").histogram()[1:])


def _first_row_y(view) -> int:
    c = Canvas(Image.new("1", (128, 64)))
    draw(c, view)
    return min(box[1] for what, box in c.drawn if what == "hand")


@pytest.mark.parametrize("players", range(2, 7))
def test_the_starter_label_is_lit_and_a_row_one_short_lit(players):
    """The starter's label is a lit box (dark letters), the others plain; a count one
    short of losing is a lit cell, a count below it is not."""
    view = quick_views(players)[2]                   # no rows yet: labels and hand counts
    seats = view.seats
    y = _first_row_y(view)
    label = (0, y - 1, 13, y + 7)                    # the first seat's label
    lit = _ink(view._replace(starter=seats[0]), "en", label)
    plain = _ink(view._replace(starter=seats[-1]), "en", label)
    assert lit > 14 * 9 // 2 > plain
    short = view.lose_at - 1
    warn = view._replace(rows=({"rat": short},) + tuple({} for _ in seats[1:]))
    calm = view._replace(rows=({"rat": max(1, short - 1)},) + tuple({} for _ in seats[1:]))
    right = (30, y - 1, 127, y + 7)               # after the hand count
    assert _ink(warn, "en", right) > _ink(calm, "en", right) + 30   # a lit cell, not a plain count


def test_the_8_critter_keys_are_drawn_in_the_last_row_in_key_order():
    view = quick_views(4)[0]
    c = Canvas(Image.new("1", (128, 64)))
    draw(c, view)
    legend = sorted((box[0], what) for what, box in c.drawn if what.startswith("mark ") and box[1] >= 55)
    assert [what for _, what in legend] == [f"mark {k}" for k in icons.CRITTERS]


def test_the_legend_is_drawn_from_the_screens_key_table():
    """The OLED's critter keys are the view's key table (the one the controller dispatches
    from): a table that gave key 1 the toad would show the toad at key 1."""
    view = quick_views(3)[2]._replace(keys=(v.Key(0, ("lay", "toad"), msg("kind.toad")),))
    c = Canvas(Image.new("1", (128, 64)))
    draw(c, view)
    legend = [(box[0], what) for what, box in c.drawn if what.startswith("mark ") and box[1] >= 55]
    assert [what for _, what in legend] == ["mark toad"] and legend[0][0] < 16
