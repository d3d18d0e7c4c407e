"""Undo with the Pi seated takes back the last input a person made and everything the Pi
did after it (its choice, its part of the bids): the Pi never makes the same choice again
at once, and the person's input before it can always be taken back."""

from __future__ import annotations

import json
import random

import pytest

from pitable.rules.grasshopper import BIDDING, Bids, Choose
from pitable.screens import views as v
from pitable.table.app import Table

from .conftest import play_on, press


@pytest.fixture
def pi_table(tmp_path, clock):
    def make(**kw):
        return Table(seats=4, log_dir=tmp_path / "logs", clock=clock, rng=random.Random(7),
                     assistant={"seats": 0, "level": "easy", "budget": 4}, assistant_worker="inline", **kw)
    return make


def start(table, pads=(1, 2)):
    press(table, pads[0], 0)
    for pad in pads:
        press(table, pad, 0)
    press(table, pads[0], 5)  # the Pi takes a seat
    press(table, pads[0], 6)
    press(table, pads[0], 6)
    return table.current


def pi_chose_last(game) -> bool:
    st = game.state
    if not st.moves or not isinstance(st.moves[-1], Choose) or st.is_over():
        return False
    before = st.copy(history=True)
    before.pop()
    return before.chooser in game.assistant.players


def log_lines(game) -> list:
    return [json.loads(line) for line in game.journal.path.read_text().splitlines()[1:]]


def undo(table, seat=1):
    press(table, seat, 7, "hold")
    assert isinstance(table.view(), v.ConfirmUndo)
    press(table, seat, 6)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_undo_after_the_pis_choice_takes_back_the_persons_input_before_it(pi_table, seed):
    table = pi_table()
    game = start(table)
    play_on(table, random.Random(seed), until=pi_chose_last)
    assert pi_chose_last(game)
    moves = list(game.state.moves)
    person = game._undo_index()
    assert person is not None and person < len(moves) - 1  # the Pi's choice is after it
    lines = len(log_lines(game))
    undo(table)
    assert game.state.moves == moves[:person]  # the person's input and the Pi's choice went
    new = log_lines(game)[lines:]
    assert new == [{"undo": True}] * (len(moves) - person)  # no choice made again at once
    assert not game.state.moves or game.state.moves[-1] == moves[person - 1]
    # and again: the input before can be taken back too (never stuck on the Pi's choice)
    if game._undo_index() is not None:
        before = len(game.state.moves)
        undo(table)
        assert len(game.state.moves) < before


def test_undo_takes_back_the_turns_bids_with_the_pis_bid_in_them(pi_table):
    table = pi_table()
    game = start(table)
    while game.notices:
        press(table, 1, 5)
    for k in (1, 2, 3):
        press(table, 1, k)  # corn, strawberry, broccoli
    assert game.state.phase is BIDDING and list(game.pending) == [2]  # the Pi has locked in
    press(table, 1, 5)
    press(table, 2, 4)
    bids = next(m for m in game.state.moves if isinstance(m, Bids))
    assert len(bids.cards) == 3  # its bid went with the people's
    moves = list(game.state.moves)
    index = moves.index(bids)
    undo(table)
    assert game.state.moves == moves[:index] and game.state.phase is BIDDING
    # the people bid again; the Pi has locked in again (in secret), nothing more
    assert set(game.pending) == {2}
    assert isinstance(table.view(), v.Bidding) and table.view().locked == (101,)
    press(table, 1, 0)
    press(table, 2, 1)
    again = [m for m in game.state.moves if isinstance(m, Bids)]
    assert len(again) == 1 and again[0].cards[:2] == ("1", "2")
