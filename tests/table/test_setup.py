"""Setup at the table (game, join, options) driven through Table: what the options
screen shows is always what A would start, whoever joined or left on the way."""

import random

import pytest

from pitable.hardware.keys import HOLD, PRESS, KeyEvent
from pitable.i18n import ASSISTANT_SEAT, msg
from pitable.screens import views as v
from pitable.table.setup import Setup

from .conftest import press


def _keys(table, spec):
    """``"1:2 1:1"``: seat:key with keys 1..8 as printed on the pad (A = 7, X = 8)."""
    for item in spec.split():
        seat, key = item.split(":")
        press(table, int(seat), int(key) - 1)


def _first_shown(view):
    """The seat number the options screen shows as the first player (None: no such line)."""
    value = dict(view.options).get(msg("opt.first"))
    return value.get("seat") if value is not None and value != "-" else None


def test_c2_first_player_who_left_is_not_shown_nor_started(new_table):
    # a seat leaving setup must not leave its options on screen: S2 chosen first, S2 leaves, the options
    # screen showed S2 and A crashed
    table = new_table(seats=4)
    _keys(table, "1:2 1:1 2:1 3:1 1:7 1:1 1:8 2:8 1:7")
    view = table.view()
    assert isinstance(view, v.Setup) and view.step == "options" and view.joined == (1, 3)
    assert _first_shown(view) == 1
    _keys(table, "1:7")
    game = table.current
    assert not isinstance(game, Setup)
    assert game.seats == (1, 3) and game.state.first == 0


def test_c2_first_player_kept_when_another_seat_leaves(new_table):
    table = new_table(seats=4)
    _keys(table, "1:2 1:1 2:1 3:1 1:7 1:1 1:1 1:8 2:8 1:7")  # first: S3; S2 leaves
    assert _first_shown(table.view()) == 3
    _keys(table, "1:7")
    assert table.current.seats == (1, 3) and table.current.state.first == 1


def _expected(view):
    """What the options screen promises A would start."""
    return view.game, view.joined, _first_shown(view)


def test_a_seat_beyond_the_configured_ones_cannot_join(new_table):
    table = new_table(seats=2)
    _keys(table, "1:2 1:1 3:1 2:1")
    view = table.view()
    assert view.joined == (1, 2) and view.toast == msg("toast.not_in_game", seat=3)


@pytest.mark.parametrize("seed", range(40))
def test_setup_fuzz_never_raises_and_starts_what_it_shows(new_table, seed):
    rng = random.Random(seed)
    seats = rng.choice([2, 3, 4, 6])
    table = new_table(seats=seats)
    started = 0
    for _ in range(400):
        before = table.view()
        seat = rng.randrange(seats + 2)  # and keys of seats beyond the configured ones
        key = rng.choice([0, 0, 1, 2, 3, 6, 6, 7, 7, rng.randrange(8), rng.choice([-1, 8])])
        action = HOLD if rng.random() < 0.05 else PRESS
        table.on_key(KeyEvent(seat, key, action))
        table.durable()
        view = table.view()
        if isinstance(view, v.Sitting):  # hold A: the evening's score, over the setup
            assert isinstance(table.current, Setup) and table.current.choice is None
            continue
        if isinstance(view, v.Setup):
            assert len(set(view.joined)) == len(view.joined)
            assert all(1 <= pad <= seats for pad in view.joined)
            first = _first_shown(view)
            if view.step == "options" and view.game == "cockroach":
                assert first in view.joined, view
            continue
        # a game started from the options screen shown just before this key
        assert isinstance(before, v.Setup) and before.step == "options"
        game, joined, first = _expected(before)
        humans = tuple(s for s in table.current.seats if s <= ASSISTANT_SEAT)
        assert table.current.game == game and humans == joined
        assert len(table.current.seats) - len(humans) == len(before.assistant)  # the Pi's seats
        if game == "cockroach":
            assert joined[table.current.state.first] == first
        started += 1
        table.current.journal.close()
        table.current = table._setup()
    assert started, "the fuzz never started a game"
