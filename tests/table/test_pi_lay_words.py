"""The Pi's cards are laid by it: "Lay it" for one card, "Lay them" for more (it read
"Lay them by the Pi" for a single card)."""

from __future__ import annotations

from pitable.i18n import catalog
from pitable.rules.grasshopper import Reveal, Took

from .conftest import start_grasshopper


def lines_after(game, cards):
    pi = len(game.seats) - 1
    game.notices = []
    game._said_pi_lay = False  # as on the Pi's first take of a game
    game._announce(Reveal("corn"), [Took(pi, cards, "choice")], 1)  # only the take matters here
    game._place()
    words = catalog("en").words
    return [words(m) for m in game.to_read()]


def test_one_card_is_it_and_more_are_them(new_table):
    table = new_table(seats=3, assistant={"seats": 1, "level": "easy"}, assistant_worker="inline")
    game = start_grasshopper(table, pads=(1, 2))
    assert game.seats[-1] > 6  # the Pi's seat
    assert "Lay it by the Pi: its garden" in lines_after(game, (0, 1, 0, 0, 0))
    assert "Lay them by the Pi: its garden" in lines_after(game, (0, 2, 0, 0, 0))


def test_a_plague_on_a_garden_without_plants_says_no_no_harvest(new_table):
    from pitable.rules.grasshopper import Plagued

    table = new_table(seats=3)
    game = start_grasshopper(table)
    words = catalog("en").words

    def said(cards):
        game.notices = []
        game._announce(Reveal("corn"), [Plagued(0, cards)], 1)
        game._place()
        return [words(m) for m in game.to_read()]

    assert "S1: plague!" in said((3, 0, 0, 0, 0)) and not any("harvest" in s for s in said((3, 0, 0, 0, 0)))
    assert "S1: plague! No harvest" in said((3, 2, 0, 0, 0))


def test_the_pi_lay_line_is_said_on_its_first_take_only(new_table):
    """Where its cards go is said on the Pi's first take (and at the game's start); after
    that "Pi takes 2 corn" says it, and the turn's lines fit the next key screen."""
    from pitable.rules.grasshopper import Reveal as R

    table = new_table(seats=3, assistant={"seats": 1, "level": "easy"}, assistant_worker="inline")
    game = start_grasshopper(table, pads=(1, 2))
    pi = len(game.seats) - 1
    words = catalog("en").words

    def told(cards):
        game.notices = []
        game._announce(R("corn"), [Took(pi, cards, "choice")], 1)
        game._place()
        return [words(m) for m in game.to_read()]

    assert "Lay it by the Pi: its garden" in told((0, 1, 0, 0, 0))
    again = told((0, 2, 0, 0, 0))
    assert again == ["Pi takes 2 corn"], again
