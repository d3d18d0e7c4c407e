"""The baselines the strong player was chosen against (league/baselines.py): legal,
reproducible, and the strategy the league's exploiter reads is what strong plays."""

import random

import pytest

from league.baselines import SELECTIONS, BaselineBot, playout_greedy, strategy
from pitable.rules.grasshopper import DECK_SIZE, OVER
from pitable.sim.search import decide
from tests.sim.test_grasshopper_search import bids_a_card_in_hand_that_repeats_with_the_seed, position


@pytest.mark.parametrize("selection", SELECTIONS)
def test_the_bid_is_a_card_in_hand_and_repeats_with_the_seed(selection):
    bids_a_card_in_hand_that_repeats_with_the_seed(BaselineBot, selection)


def test_the_strong_level_bids_what_its_strategy_says_and_its_seed_repeats_it():
    for seed in (2, 3, 5):
        state, _ = position(seed, players=2 + seed % 3, bids_until=seed)
        cards, probs = strategy(state.copy(), 0, 11, budget=60)
        assert list(cards) == [c for c in range(8) if not state.spent[0] >> c & 1]
        assert abs(sum(probs) - 1) < 1e-9 and min(probs) >= 0
        assert strategy(state.copy(), 0, 11, budget=60) == (cards, probs)
        bid = decide(state.copy(), 0, "strong", 11, budget=60)
        assert probs[cards.index(bid)] == max(probs)  # what a best response asks is what it plays


def test_greedy_playouts_end_the_game_with_every_garden_card_accounted_for():
    for seed in range(6):
        state, _ = position(seed, players=2 + seed % 3, bids_until=seed * 2)
        end = state.copy()
        outcome = playout_greedy(end, random.Random(seed))
        assert end.phase is OVER and outcome is end.outcome
        cards = sum(end.unseen) + sum(end.display) + sum(end.discard) + sum(sum(g) for g in end.gardens)
        assert cards == DECK_SIZE
        assert sum(end.chips) >= sum(state.chips)
