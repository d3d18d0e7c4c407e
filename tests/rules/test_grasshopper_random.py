"""Random whole games through the public API, checking invariants after every input
(the OpenSpiel-style fuzz, perft-style counts, and hypothesis-driven choices)."""

import random

import pytest
from hypothesis import given, settings, strategies as st

from pitable.rules.grasshopper import (DECK, KINDS, Bids, Options, Phase, State, VirtualDeck,
                                       header)
from pitable.rules.log import encode, replay


def accounted(state):
    """Every one of the 66 cards is in the pile, the display, a garden or the discard."""
    return tuple(state.unseen[k] + state.display[k] + state.discard[k]
                 + sum(g[k] for g in state.gardens) for k in range(5))


def check_invariants(state, previous):
    assert accounted(state) == DECK
    for g in state.gardens:
        assert g[0] < 3, "a garden kept 3 grasshoppers"
        assert all(g[k] < 3 for k in range(1, 5)), "a garden kept 3 of a plant"
    assert all(a >= b for a, b in zip(state.chips, previous.chips)), "chips fell"
    assert state.phase in (Phase.REVEAL, Phase.BIDDING, Phase.CHOOSING, Phase.OVER)
    if state.phase == Phase.BIDDING:
        assert sum(state.display) > 0
    if state.phase == Phase.CHOOSING:
        assert len(state.display_kinds()) > 1  # a single kind would have been forced
    if state.phase == Phase.OVER:
        assert state.outcome is not None


def random_game(seed, players, options, draw=None):
    """Play a game with random legal inputs, checking everything after each push."""
    rng = random.Random(seed)
    pick = draw or (lambda moves: rng.choice(moves))
    deck = VirtualDeck(seed)
    state = State(players, options)
    while not state.is_over():
        before = state.copy()
        if state.phase == Phase.REVEAL:
            move = deck.next_reveal(state)
        elif state.phase == Phase.BIDDING:
            move = Bids(tuple(pick(state.hand(s)) for s in range(players)))
        else:
            move = pick(state.legal_moves())
        state.push(move)
        check_invariants(state, before)
        # undo restores the exact previous state, and redo gives the same again
        after = state.copy()
        state.pop()
        assert state == before
        state.push(move)
        assert state == after
    return state


OPTION_SETS = [Options(), Options(beginner=True), Options(x_takes_cancelled_ace=True),
               Options(end_on_empty_pile=True)]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("options", OPTION_SETS,
                         ids=lambda o: ",".join(k for k, v in o.to_dict().items() if v) or "default")
def test_random_games_keep_invariants_and_replay_to_the_live_state(players, options):
    for seed in range(12):
        state = random_game(seed * 7 + players, players, options)
        text = encode(header(players, options, deck="virtual", seed=seed))
        text += "".join(encode(m.to_json()) for m in state.moves)
        replayed, _ = replay(text)
        assert replayed.to_json() == state.to_json()
        assert replayed == state
        assert state.pile == 0 or options.end_on_empty_pile


@settings(deadline=None)
@given(data=st.data(), players=st.integers(2, 4), options=st.sampled_from(OPTION_SETS),
       seed=st.integers(0, 2**16))
def test_hypothesis_chosen_games_keep_invariants(data, players, options, seed):
    draw = lambda moves: data.draw(st.sampled_from(moves))  # noqa: E731
    random_game(seed, players, options, draw)


@settings(deadline=None)
@given(seed=st.integers(0, 2**16), cut=st.integers(0, 300), undo_every=st.integers(2, 9))
def test_logged_undo_lines_replay_to_the_same_state(seed, cut, undo_every):
    """A log with undo lines in it replays to the live state at every length."""
    rng = random.Random(seed)
    state = State(3)
    deck = VirtualDeck(seed)
    lines = [encode(header(3, Options(), deck="virtual", seed=seed))]
    for i in range(cut):
        if state.is_over():
            break
        if i % undo_every == undo_every - 1 and state.can_pop():
            state.pop()
            lines.append(encode({"undo": True}))
            continue
        if state.phase == Phase.REVEAL:
            move = deck.next_reveal(state)
        else:
            move = rng.choice(state.legal_moves()[:64])
        state.push(move)
        lines.append(encode(move.to_json()))
    replayed, _ = replay("".join(lines))
    assert replayed == state


def test_playout_fast_path_agrees_with_push_accounting():
    """The simulation fast path uses the same transitions: the same invariants hold at the end."""
    rng = random.Random(5)
    for players in (2, 3, 4):
        for options in OPTION_SETS:
            for _ in range(50):
                state = State(players, options)
                outcome = state.playout(rng)
                assert state.is_over() and outcome == state.outcome
                assert accounted(state) == DECK
                assert max(state.chips) == max(outcome.chips)


def test_a_playout_told_to_stop_stops_as_that_round_begins_with_every_card_accounted_for():
    """``stop_round`` (the strong player's cut playouts): the round before has ended (every
    hand back, its majority chip given), nothing of the new one is played; a game that ends
    first ends as it would."""
    rng = random.Random(8)
    stopped = 0
    for players in (2, 3, 4):
        for options in OPTION_SETS:
            for steps in range(0, 120, 7):
                state, deck = State(players, options), VirtualDeck(steps)
                for _ in range(steps):  # a real position, reached by pushing moves
                    if state.is_over():
                        break
                    state.push(deck.next_reveal(state) if state.phase == Phase.REVEAL
                               else rng.choice(state.legal_moves()[:64]))
                start = state.copy()
                outcome = state.playout(rng, stop_round=start.round + 1)
                assert accounted(state) == DECK
                assert all(a >= b for a, b in zip(state.chips, start.chips))
                if outcome is None:
                    stopped += 1
                    assert state.round == start.round + 1 and state.phase in (Phase.REVEAL, Phase.BIDDING)
                    assert state.spent == [0] * players and state.turn == 1
                else:
                    assert state.is_over() and outcome == state.outcome
    assert stopped > 100


def test_playout_from_a_virtual_deck_matches_the_deck():
    rng = random.Random(1)
    deck = VirtualDeck(99)
    state = State(3)
    state.playout(rng, deck)
    assert deck.matches(state)




@pytest.mark.parametrize("players,expected", [(2, 64), (3, 512), (4, 4096)])
def test_perft_first_turn_bid_combinations(players, expected):
    state = State(players)
    for k in ("corn", "strawberry", "broccoli"):
        state.push(state.legal_moves()[KINDS.index(k)])
    assert len(state.legal_moves()) == expected
    # after one bid each hand has 7 cards
    state.push(Bids(tuple(["X"] * players)))  # everyone cancels: stalemate, one card added
    state.push(state.legal_moves()[0])
    assert len(state.legal_moves()) == 7 ** players


def test_resolution_table_outcomes_are_consistent_for_every_bid_vector():
    """Every 3-seat bid vector: takers are never cancelled; choosers are descending numbers."""
    from itertools import product

    from pitable.rules.grasshopper import CARDS, resolve

    for bids in product(range(8), repeat=3):
        res = resolve(bids)
        takers = set(res.choosers) | ({res.takes_all} if res.takes_all is not None else set())
        assert not takers & set(res.cancelled)
        values = [bids[s] for s in res.choosers]
        assert values == sorted(values, reverse=True) and all(v < 6 for v in values)
        assert res.stalemate == (not takers)
        if res.takes_all is not None:
            assert CARDS[bids[res.takes_all]] in ("A", "X")
