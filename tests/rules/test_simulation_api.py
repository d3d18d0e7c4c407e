"""The rules State's public simulation API (what the search, the bots and the league use
instead of its private fields): the position as a value, the revealed bids, the chance step."""

import random

from pitable.rules.grasshopper import BIDDING, CARDS, REVEAL, Bids, Choose, Reveal, State, VirtualDeck
from pitable.sim.grasshopper import HeuristicBot


def a_game(seed, players=3, inputs=40):
    rng = random.Random(seed)
    bot = HeuristicBot(rng)
    state, deck = State(players), VirtualDeck(seed)
    for _ in range(inputs):
        if state.phase is REVEAL:
            state.push(deck.next_reveal(state))
        elif state.phase is BIDDING:
            state.push(Bids(tuple(bot.bid(state, s) for s in range(players))))
        else:
            state.push(Choose(bot.choose(state, state.chooser)))
    return state


def test_the_position_key_is_the_position_whatever_led_there():
    state = a_game(1)
    replayed = State(3)
    for move in state.moves:
        replayed.push(move)
    assert replayed.position_key() == state.position_key() == state.copy().position_key()
    hash(state.position_key())
    before = state.position_key()
    state.pop()
    assert state.position_key() != before


def test_revealed_bids_are_the_logs_bids_at_the_positions_they_were_made():
    state = a_game(2, inputs=60)
    bids = state.revealed_bids()
    moves = [m for m in state.moves if isinstance(m, Bids)]
    assert [b for _, b in bids] == [tuple(CARDS.index(c) if isinstance(c, str) else c for c in m.cards)
                                    for m in moves]
    replay = State(3)
    at = []
    for move in state.moves:
        if isinstance(move, Bids):
            at.append(replay.position_key())
        replay.push(move)
    assert [p.position_key() for p, _ in bids] == at
    assert all(p.phase is BIDDING and p.moves == [] and p.history == [] for p, _ in bids)
    assert state.revealed_bids(5) == bids[-5:]


def test_the_chance_step_draws_from_the_unseen_cards_and_plays_until_a_player_is_due():
    state = State(4)
    rand = random.Random(3).random
    before = state.position_key()
    kinds = state.draw_reveals(rand)
    assert len(kinds) == state.to_reveal == 3 and state.position_key() == before  # drawing changes nothing
    assert all(state.unseen[k] > 0 for k in kinds)
    state.play_chance(random.Random(3).random)
    assert state.phase is BIDDING and sum(state.display) == 3
    assert [state.display[k] for k in range(5)] == [kinds.count(k) for k in range(5)]  # the same draw
    # an almost empty pile: only what is unseen can come up
    state = State(2)
    state.push(Reveal("corn")), state.push(Reveal("corn")), state.push(Reveal("corn"))
    state.unseen = [0, 0, 1, 0, 0]
    state.to_reveal = 1
    assert state.draw_reveals(random.Random(0).random) == [2]
