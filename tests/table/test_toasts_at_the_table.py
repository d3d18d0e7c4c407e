"""A toast belongs to the screen it was said on: it goes when that screen goes (the bids
reveal never opens under "card spent, bid again"; the options never under the join
screen's "A: go on X: leave")."""

from __future__ import annotations

from pitable.rules.grasshopper import BIDDING, CHOOSING
from pitable.screens import views as v

from .conftest import press, start_grasshopper


def test_the_spent_card_toast_does_not_cover_the_bids_reveal(new_table):
    table = new_table()
    game = start_grasshopper(table)
    for k in (1, 2, 3):
        press(table, 1, k)
    for seat, key in ((1, 4), (2, 3), (3, 2)):   # 5 > 4 > 3
        press(table, seat, key)
    while game.notices or game.state.phase is not BIDDING:
        if game.notices:
            press(table, 1, 7)
        elif game.state.phase is CHOOSING:
            press(table, game.seats[game.state.chooser], next(k for k, n in enumerate(game.state.display) if n))
        else:
            press(table, 1, game.state.unseen.index(next(n for n in game.state.unseen if n)))
    press(table, 1, 4)  # seat 1's 5 is spent
    assert table.view().toast is not None
    press(table, 2, 0)
    press(table, 3, 1)
    press(table, 1, 5)  # the last lock-in: the reveal, at once (well within the toast's time)
    view = table.view()
    assert isinstance(view, v.BidsRevealed) and view.toast is None


def test_the_join_screens_toast_does_not_carry_over_onto_the_options(new_table):
    table = new_table()
    press(table, 1, 0)
    press(table, 1, 0)
    press(table, 2, 0)
    press(table, 1, 2)  # a joined seat's other key: "A: go on  X: leave"
    assert table.view().toast is not None
    press(table, 1, 6)
    view = table.view()
    assert view.step == "options" and view.toast is None
