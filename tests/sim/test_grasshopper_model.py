"""The strong player's model of the others (pitable.sim.search, ``adaptive``): fitted to the
game's revealed bids only, and the same decisions whether its memory is warm or cold."""

import random
from collections import Counter

from pitable.rules.grasshopper import BIDDING, CARD_INDEX, CHOOSING, HANDS, REVEAL, Bids, Choose, State, VirtualDeck
from pitable.sim import grasshopper as sim
from pitable.sim import search


def game(seed, players, bidders=None, turns=40):
    """A game through push, bid by ``bidders`` (heuristic bots by default) up to ``turns``
    bidding turns; yields each bidding position before its bids."""
    rng = random.Random(seed)
    bidders = bidders or [sim.HeuristicBot(rng).bid_card for _ in range(players)]
    chooser = sim.HeuristicBot(rng)
    state, deck = State(players), VirtualDeck(seed)
    done = 0
    while not state.is_over() and done < turns:
        if state.phase is REVEAL:
            state.push(deck.next_reveal(state))
        elif state.phase is BIDDING:
            yield state.copy(history=True)
            done += 1
            state.push(Bids(tuple(sim.CARDS[bidders[s](state, s)] for s in range(players))))
        elif state.phase is CHOOSING:
            state.push(Choose(chooser.choose(state, state.chooser)))


def test_the_heuristic_bots_exact_odds_match_its_bids():
    """``probabilities`` is the heuristic's bid_card worked out: checked against 4,000 of its
    bids at each of 30 real positions of 2-4 player games (a wrong branch shows as a gap)."""
    checked = 0
    for seed in range(10):
        for n, state in enumerate(game(seed, 2 + seed % 3, turns=24)):
            if n % 8:
                continue
            for seat in range(state.players):
                odds = sim.HeuristicBot.probabilities(state, seat)
                assert abs(sum(odds.values()) - 1) < 1e-9
                assert set(odds) <= set(HANDS[state.spent[seat]])
                bot = sim.HeuristicBot(random.Random(seed * 100 + n))
                seen = Counter(bot.bid_card(state, seat) for _ in range(4000))
                for card in set(odds) | set(seen):
                    assert abs(seen[card] / 4000 - odds.get(card, 0.0)) < 0.035, (seed, n, seat, card)
                checked += 1
    assert checked >= 30


def test_public_bids_are_the_revealed_bids_oldest_first_and_the_positions_they_met():
    positions = list(game(4, 3, turns=31))
    last = positions.pop()  # 30 bidding turns in: the positions before them are the rest
    past = search.public_bids(last)
    assert len(past) == search.PAST
    logged = [tuple(CARD_INDEX[c] for c in m.cards) for m in last.moves if isinstance(m, Bids)]
    assert [bids for _, bids in past] == logged[-search.PAST:]
    for (where, _), before in zip(past, positions[-search.PAST:]):
        assert where._snapshot() == before._snapshot() and where.moves == [] and where.history == []
    assert search.public_bids(State(3)) == ()


def test_a_seat_that_bids_like_the_heuristic_is_modelled_as_the_heuristic():
    bot = search._strong(seed=5, budget=60, past=())
    states = list(game(6, 2, turns=14))
    bot.past = search.public_bids(states[-1])
    weights = bot.fit(0, 2)[1]
    assert weights[0] == max(weights) and weights[0] > 0.9


def test_a_seat_that_bids_the_searchers_likeliest_card_is_modelled_as_the_sharp_searcher():
    """Seat 2 always bids the card a searcher at its seat most likely plays (what the Pi's
    first half of a search finds for it); the fit gives the sharpest model the most weight."""
    pi = search._strong(seed=5, budget=60, past=())

    def searcher(state, seat):
        if seat == 0:
            return sim.HeuristicBot(random.Random(len(state.moves))).bid_card(state, seat)
        hand = HANDS[state.spent[seat]]
        total = pi.equilibrium_at(state, 0).total[seat]
        return hand[max(range(len(hand)), key=total.__getitem__)]

    states = list(game(7, 2, bidders=[searcher, searcher], turns=14))
    pi.past = search.public_bids(states[-1])
    weights = pi.fit(0, 2)[1]
    assert weights[-1] == max(weights) and weights[0] < 0.1


def test_the_same_decisions_with_a_cold_memory_as_with_a_warm_one():
    """After a restart (a resume, a new worker, --check-assistant) the model is fitted again
    from the same seed and bids: the same weights, to the last bit, and the same bid as the
    process that played all along."""
    warm = []
    search._EQUILIBRIA.clear()
    for state in game(8, 3, turns=20):
        past = search.public_bids(state)
        bid = search.decide(state.copy(), 2, "strong", 9, 60, past)
        bot = search._strong(9, 60, past)
        warm.append((state, bid, bot.fit(2, 3)))
    for state, bid, weights in warm[5::5]:
        search._EQUILIBRIA.clear()
        past = search.public_bids(state)
        assert search._strong(9, 60, past).fit(2, 3) == weights
        search._EQUILIBRIA.clear()
        assert search.decide(state.copy(), 2, "strong", 9, 60, past) == bid


def test_what_it_was_shown_changes_its_model_not_what_the_position_is():
    """The same position with other revealed bids behind it may draw another bid, but the same
    bids behind it always draw the same one (no pending bid, no pile order is read)."""
    states = list(game(9, 2, turns=12))
    state = states[-1]
    past = search.public_bids(state)
    bid = search.decide(state.copy(), 0, "strong", 3, 60, past)
    replayed = State(2)
    for move in state.moves:  # the public facts alone, onto a fresh state
        replayed.push(move)
    assert search.decide(replayed.copy(), 0, "strong", 3, 60, search.public_bids(replayed)) == bid


def test_the_strong_levels_choice_is_a_kind_on_the_display_and_its_seed_repeats_it():
    """``decide_choice`` at the strong level plays the kinds out; at real choosing positions of
    2-4 player games it takes a kind on the display, the same one again from the same seed,
    and (once in a while) not the one the heuristic's measure likes: it is a search."""
    differs = checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        bots = [sim.HeuristicBot(rng) for _ in range(2 + seed % 3)]
        state, deck = State(len(bots)), VirtualDeck(seed)
        while not state.is_over() and checked < 4 * (seed + 1):
            if state.phase is REVEAL:
                state.push(deck.next_reveal(state))
            elif state.phase is BIDDING:
                state.push(Bids(tuple(b.bid(state, s) for s, b in enumerate(bots))))
            elif state.phase is CHOOSING:
                seat = state.chooser
                kind = search.decide_choice(state.copy(), seat, "strong", 4, 40)
                assert state.display[kind] > 0 and kind in state.choice_kinds
                assert search.decide_choice(state.copy(), seat, "strong", 4, 40) == kind
                differs += kind != search.decide_choice(state.copy(), seat, "easy", 4, 40)
                checked += 1
                state.push(Choose(sim.KINDS[kind]))
    assert checked >= 20 and differs >= 1


def test_a_position_that_crossed_a_pickle_decides_as_the_one_that_did_not():
    """The worker process gets the position pickled: its phase must be the rules' own
    constant again (the hot paths compare with ``is``), or a choice falls back to the
    heuristic in the worker and a check of the log finds another kind (it did, once)."""
    import pickle

    from pitable.rules.grasshopper import OVER, Phase

    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        bots = [sim.HeuristicBot(rng) for _ in range(3)]
        state, deck = State(3), VirtualDeck(seed)
        while not state.is_over() and checked < 3 * (seed + 1):
            sent = pickle.loads(pickle.dumps(state.copy()))
            assert sent.phase in (Phase.REVEAL, Phase.BIDDING, Phase.CHOOSING, OVER)
            assert any(sent.phase is p for p in (Phase.REVEAL, Phase.BIDDING, Phase.CHOOSING, OVER))
            if state.phase is REVEAL:
                state.push(deck.next_reveal(state))
            elif state.phase is BIDDING:
                state.push(Bids(tuple(b.bid(state, s) for s, b in enumerate(bots))))
            else:
                seat = state.chooser
                kind = search.decide_choice(state.copy(), seat, "strong", 6, 40)
                assert search.decide_choice(sent, seat, "strong", 6, 40) == kind
                checked += 1
                state.push(Choose(sim.KINDS[kind]))
    assert checked >= 10


def test_a_seat_that_bids_at_random_is_modelled_as_a_bidder_with_no_preference():
    """Seat 1 bids any card of its hand alike: the fit gives the model with no preference
    (the searcher sharpened by the power 0) the most weight, and the heuristic little."""
    assert search.STRONG["betas"][0] == 0.0
    pi = search._strong(seed=5, budget=60, past=())
    dice = random.Random(11)

    def bidder(state, seat):
        if seat == 0:
            return sim.HeuristicBot(random.Random(len(state.moves))).bid_card(state, seat)
        return dice.choice(HANDS[state.spent[seat]])

    states = list(game(12, 2, bidders=[bidder, bidder], turns=17))
    pi.past = search.public_bids(states[-1])
    weights = pi.fit(0, 2)[1]
    assert weights[1] == max(weights) and weights[0] < 0.2


def test_the_first_searches_it_keeps_are_roots_alone_so_a_long_evening_stays_small():
    """The fit reads only a first search's root (its visits per card): what the worker keeps
    of each holds no tree below it (1,024 kept trees would take ~100 MB on a Pi Zero's 512)."""
    search._EQUILIBRIA.clear()
    for state in game(3, 4, turns=5):
        search.decide(state.copy(), 1, "strong", 4, 40, search.public_bids(state))
    assert len(search._EQUILIBRIA) >= 4
    assert all(not root.children and sum(root.total[0]) > 0 for root in search._EQUILIBRIA.values())
