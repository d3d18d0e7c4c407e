"""A new game after the end (A on the result) keeps the last game's cards, real or virtual,
as the next game with the same players (1) does; it used to fall back to the config's."""

from __future__ import annotations

import random

from pitable.table.setup import Setup

from .conftest import play_on, press, start_grasshopper


def test_a_new_game_keeps_virtual_cards(new_table):
    table = new_table(seats=3)
    start_grasshopper(table, deck_toggle=True)
    assert table.current.header["deck"] == "virtual"
    play_on(table, random.Random(4))
    while table.current.notices:              # the last pages read
        press(table, 1, 5)
    press(table, 1, 6)                        # A: a new game
    assert isinstance(table.current, Setup) and table.current.deck == "virtual"
