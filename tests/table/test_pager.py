"""The pager alone (pitable.table.pager): where a move's lines go, from the lines and a fit
answer, data-driven. A line said now is never dropped; what repeats a screen gives way."""

from __future__ import annotations

import pytest

from pitable.i18n import msg
from pitable.narrator import NOW, REPEAT, Line
from pitable.table import pager

TURN = msg("title.turn", turn=3)
END = msg("title.round_over", round=1)
STALE = msg("title.stalemate")


def line(name, when=NOW, head=TURN):
    return Line(head, msg(name), when)


TAKE, HARVEST, NOTHING = line("line.take"), line("line.harvest"), line("line.nothing", REPEAT)
OVER, CHIP, BACK = Line(END, END, NOW), line("line.majority", head=END), line("line.cards_back", head=END)


def room(n):
    """A key screen with room for ``n`` lines."""
    return lambda told: len(told) <= n


@pytest.mark.parametrize("lines, n, paged, told", [
    ([TAKE, HARVEST], 3, [], [TAKE, HARVEST]),                       # all fit
    ([TAKE, HARVEST, NOTHING], 2, [], [TAKE, HARVEST]),               # what repeats gives way
    ([TAKE, HARVEST], 1, [TAKE], [HARVEST]),                          # the first on a page, before
    ([TAKE, OVER, CHIP, BACK], 3, [TAKE], [OVER, CHIP, BACK]),        # a round's end stays whole
    ([TAKE, OVER, CHIP, BACK], 2, [TAKE, OVER, CHIP, BACK], []),      # ... or all on pages
    ([TAKE, HARVEST], 0, [TAKE, HARVEST], []),
])
def test_lines_said_now_are_never_dropped(lines, n, paged, told):
    got_paged, got_told = pager.split(lines, room(n))
    assert (got_paged, got_told) == (paged, told)
    kept = got_paged + got_told
    assert [x for x in lines if x.when == NOW] == [x for x in kept if x.when == NOW]  # in order


def test_sections_share_a_page_and_a_round_end_heads_its_own():
    stale = line("line.display_discarded", head=STALE)
    pages = pager.sections([TAKE, stale, OVER, CHIP])
    assert pages == [(TURN, (TAKE.text, STALE, stale.text)), (END, (CHIP.text,))]


def test_the_stalemate_card_goes_before_the_rounds_end():
    pages = pager.with_stalemate_card([(TURN, (TAKE.text,)), (END, (CHIP.text,))], 1)
    assert [head for head, _ in pages] == [TURN, STALE, END]
    assert pages[1][1] == (msg("line.turn_up_then_bid", n=1),)
