"""The Pi's cards are laid by it: "Lay it" for one card, "Lay them" for more (it read
"Lay them by the Pi" for a single card); said on its first take and harvest of a game only."""

from __future__ import annotations

from pitable.i18n import catalog
from pitable.narrator import NOW, said
from pitable.narrator.grasshopper import narrate
from pitable.rules.grasshopper import Harvested, Plagued, Reveal, Took, new_game

PI = 101
SEATS = (1, 2, PI)
words = catalog("en").words


def told(fx, before=frozenset()):
    t = narrate(new_game(3), Reveal("corn"), fx, SEATS, False, 1, before)
    return [words(line.text) for line in t.lines], t


def test_one_card_is_it_and_more_are_them():
    assert "Lay it by the Pi: its garden" in told([Took(2, (0, 1, 0, 0, 0), "choice")])[0]
    assert "Lay them by the Pi: its garden" in told([Took(2, (0, 2, 0, 0, 0), "choice")])[0]


def test_a_plague_on_a_garden_without_plants_says_no_no_harvest():
    bare, _ = told([Plagued(0, (3, 0, 0, 0, 0))])
    assert "S1: plague!" in bare and not any("harvest" in s for s in bare)
    assert "S1: plague! No harvest" in told([Plagued(0, (3, 2, 0, 0, 0))])[0]


def test_the_pi_lay_line_is_said_on_its_first_take_only():
    first, t = told([Took(2, (0, 1, 0, 0, 0), "choice")])
    assert "Lay it by the Pi: its garden" in first
    again, _ = told([Took(2, (0, 2, 0, 0, 0), "choice")], said([t]))
    assert again == ["Pi takes 2 corn"], again


def test_the_pi_chips_line_is_said_on_its_first_harvest_only_and_both_are_said_now():
    first, t = told([Harvested(2, 1, 1)])
    assert any("Pi" in s and "chip" in s.lower() for s in first) and len(first) == 2
    assert all(line.when == NOW for line in t.lines)
    again, _ = told([Harvested(2, 1, 1)], said([t]))
    assert len(again) == 1
