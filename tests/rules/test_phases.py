"""Phases and outcomes are enum members that are also strings: JSON and the log see the
plain words, a pickled state (the assistant's worker gets one) comes back holding the very
same members, so the hot paths' ``is`` tests keep holding."""

from __future__ import annotations

import json
import pickle
import random

import pytest

from pitable.rules import cockroach, grasshopper
from pitable.rules.games import GAMES


def played(module, players: int, seed: int, moves: int):
    state = module.new_game(players)
    rng = random.Random(seed)
    for _ in range(moves):
        if state.is_over():
            break
        state.push(rng.choice(list(state.legal_moves())))
    return state


@pytest.mark.parametrize("module", [grasshopper, cockroach])
def test_a_pickled_state_holds_the_same_phase_member(module):
    seen = set()
    for seed in range(30):
        state = played(module, 3, seed, seed % 17)
        copy = pickle.loads(pickle.dumps(state))
        assert copy.phase is state.phase and type(copy.phase) is module.Phase
        seen.add(state.phase)
    assert len(seen) >= 3  # the games stopped in several phases


@pytest.mark.parametrize("module", [grasshopper, cockroach])
def test_phases_are_their_words_in_json_and_text(module):
    for phase in module.Phase:
        assert json.dumps({"phase": phase}) == json.dumps({"phase": phase.value})
        assert f"{phase}" == str(phase) == phase.value == phase
        assert module.Phase(phase.value) is phase


def test_how_a_seat_took_cards_and_why_a_seat_lost_are_words_too():
    assert [str(h) for h in grasshopper.How] == ["ace", "x", "alone", "choice", "forced"]
    assert {str(r) for r in cockroach.Loss} == {"four_of_a_kind", "five_of_a_kind", "empty_hand"}
    assert {str(w) for w in cockroach.Why} == {"right_call", "wrong_call", "laid"}
    assert set(GAMES) == {"grasshopper", "cockroach"}
