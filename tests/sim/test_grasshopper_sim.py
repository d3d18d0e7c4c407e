"""Grasshopper Poker simulations (pitable.sim.grasshopper): the fast path plays the very
games that push plays, and counts what push's results report."""

import random

import pytest

from pitable.rules.grasshopper import DECK, Options, Plagued, Stalemate
from pitable.sim import grasshopper as sim
from pitable.sim import runs

OPTION_SETS = [Options(), Options(beginner=True), Options(x_takes_cancelled_ace=True),
               Options(end_on_empty_pile=True)]


class PerTurnRandom(sim.RandomBot):
    """A random bot that draws every bid on its own (as push-based play does)."""

    def bid_cards(self, state, seats):
        return [self.bid_card(state, s) for s in seats]


@pytest.mark.parametrize("options", OPTION_SETS,
                         ids=lambda o: ",".join(k for k, v in o.to_dict().items() if v) or "default")
@pytest.mark.parametrize("players", [2, 3, 4])
def test_fast_games_are_the_pushed_games_with_the_same_counts(players, options):
    for seed in range(15):
        kinds = [sim.HeuristicBot, PerTurnRandom]
        picks = random.Random(seed).choices(kinds, k=players)
        counts = {Plagued: 0, Stalemate: 0}

        def count(result, counts=counts):
            if type(result) in counts:
                counts[type(result)] += 1

        rng = random.Random(seed)
        pushed = sim.play(players, [k(rng) for k in picks], rng, options, seed=seed, on_result=count)
        rng = random.Random(seed)
        fast, turns, stalemates, plagues = sim.play_fast(players, [k(rng) for k in picks], rng, options, seed=seed)
        # Everything but ``last`` (what the final push reported, which the fast path skips).
        assert fast._snapshot()[:-1] == pushed._snapshot()[:-1]
        assert fast.to_json() == pushed.to_json()
        assert fast.outcome == pushed.outcome
        assert turns == sum(1 for m in pushed.moves if type(m).__name__ == "Bids")
        assert (stalemates, plagues) == (counts[Stalemate], counts[Plagued])


def test_plagues_and_stalemates_are_counted_in_real_numbers():
    stats = runs.simulate(300, 4, 5, ["heuristic", "random", "random", "heuristic"])
    assert stats["plagues_per_game"] > 1 and stats["stalemates_per_game"] > 0.3


@pytest.mark.parametrize("players", [2, 4])
def test_random_bots_play_legal_whole_games_and_share_wins_fairly(players):
    rng = random.Random(7)
    bots = [sim.RandomBot(rng)] * players  # one object for every seat, as simulate makes it
    for _ in range(50):
        state, *_ = sim.play_fast(players, bots, rng)
        assert state.is_over()
        held = tuple(state.unseen[k] + state.display[k] + state.discard[k]
                     + sum(g[k] for g in state.gardens) for k in range(5))
        assert held == DECK
    stats = runs.simulate(2000, players, 3, ["random"] * players)
    assert all(abs(w - 1 / players) < 0.05 for w in stats["win_rate_per_seat"])


def test_simulate_repeats_with_a_seed_and_changes_without():
    a = runs.simulate(100, 3, 4, ["random", "heuristic", "random"])
    assert runs.simulate(100, 3, 4, ["random", "heuristic", "random"]) == a
    assert runs.simulate(100, 3, 5, ["random", "heuristic", "random"]) != a
