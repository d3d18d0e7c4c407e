"""The assistant's strong player (pitable.sim.search): fair, reproducible, and legal."""

import random

import pytest

from pitable.rules.grasshopper import BIDDING, CHOOSING, HANDS, REVEAL, Bids, Choose, Options, State, VirtualDeck
from pitable.sim import grasshopper as sim
from pitable.sim.search import SELECTIONS, StrongBot, decide, public_bids


def position(seed, players=3, bids_until=5):
    """A real position reached by heuristic games through push: bidding after some turns."""
    rng = random.Random(seed)
    bots = [sim.HeuristicBot(rng) for _ in range(players)]
    state = State(players)
    deck = VirtualDeck(seed)
    turns = 0
    while True:
        if state.phase is REVEAL:
            state.push(deck.next_reveal(state))
        elif state.phase is BIDDING:
            if turns == bids_until:
                return state, deck
            turns += 1
            state.push(Bids(tuple(bots[s].bid(state, s) for s in range(players))))
        elif state.phase is CHOOSING:
            state.push(Choose(bots[state.chooser].choose(state, state.chooser)))


def bids_a_card_in_hand_that_repeats_with_the_seed(bot_class, selection):
    state, _ = position(1)
    bot = bot_class(random.Random(0), budget=60, selection=selection, seed=42)
    bid = bot.bid_card(state, 1)
    assert bid in HANDS[state.spent[1]]
    again = bot_class(random.Random(99), budget=60, selection=selection, seed=42)
    assert again.bid_card(state, 1) == bid  # the shared rng plays no part: only seed and position


@pytest.mark.parametrize("selection", SELECTIONS)
def test_the_bid_is_a_card_in_hand_and_repeats_with_the_seed(selection):
    bids_a_card_in_hand_that_repeats_with_the_seed(StrongBot, selection)


def test_the_bid_does_not_depend_on_the_pile_order_nor_on_the_others_bids():
    state, deck = position(3, players=4)
    bot = StrongBot(random.Random(0), budget=80, seed=7)
    alone = bot.bid_card(state, 2)
    # Others decide first (their bids exist, but are nowhere in the state it reads) ...
    others = [sim.HeuristicBot(random.Random(s)).bid_card(state, s) for s in (0, 1, 3)]
    assert others and bot.bid_card(state, 2) == alone
    # ... and the state is the same whatever the pile holds: a copy made from the public
    # facts alone (the log's moves replayed onto a fresh state) decides the same.
    replayed = State(4)
    for move in state.moves:
        replayed.push(move)
    assert bot.bid_card(replayed, 2) == alone
    assert bot.bid_card(state, 2) == alone
    assert state.pile > 0 and deck.matches(state)


def test_the_search_leaves_the_state_untouched():
    state, _ = position(5)
    before = state.copy(history=True)
    StrongBot(random.Random(0), budget=50).bid_card(state, 0)
    assert state == before and state.moves == before.moves


def test_a_last_card_is_played_without_search():
    state = State(2)
    state.spent = [0x7F, 0x7F]
    bot = StrongBot(random.Random(0), budget=10**9)  # would never end if it searched
    state.display = [0, 1, 1, 0, 0]
    state.phase = BIDDING
    assert bot.bid_card(state, 0) == 7


@pytest.mark.parametrize("options", [Options(), Options(beginner=True), Options(x_takes_cancelled_ace=True),
                                     Options(end_on_empty_pile=True)])
def test_strong_plays_whole_legal_games_under_every_option(options):
    rng = random.Random(4)
    bots = [StrongBot(rng, budget=8), sim.HeuristicBot(rng), sim.RandomBot(rng)]
    for seed in range(2):
        state = sim.play(3, bots, rng, options, seed=seed)  # through push: every input checked
        assert state.is_over()


def test_a_state_travels_to_the_worker_as_its_position_only():
    """Pickled for the assistant's worker: the same position, a few hundred bytes, and a
    copy taken while someone chooses plays on (its kinds to choose from come back)."""
    import pickle

    rng = random.Random(2)
    bots = [sim.HeuristicBot(rng) for _ in range(3)]
    state = sim.play(3, bots, rng, seed=2)
    replayed = State(3)
    phases = set()
    for move in state.moves:
        data = pickle.dumps(replayed)
        back = pickle.loads(data)
        assert back == replayed and len(data) < 600 and back.moves == [] and back.history == []
        if replayed.phase is CHOOSING:
            assert back.choice_kinds == replayed.choice_kinds
            back.copy().playout(random.Random(1))
        phases.add(replayed.phase)
        replayed.push(move)
    assert CHOOSING in phases


def test_the_estimate_counts_chips_open_sets_the_plant_lead_and_a_plague_risk():
    """The value of a playout cut between rounds (``estimate``): in chips a seat can expect."""
    from pitable.sim.search import estimate

    state, _ = position(4, players=4, bids_until=9)
    state.gardens = [[0] * 5 for _ in range(4)]
    state.chips = [2, 2, 2, 2]
    state.gardens[0][1] = 2                     # two corn: a set is near
    state.gardens[1][1] = 1                     # one corn
    state.gardens[2][1], state.gardens[2][0] = 2, 2  # two corn, two grasshoppers: a plague away
    rounds_left = state.pile / 24                # the pile's rounds: 8 bids of about 3 cards
    assert rounds_left > 0.5
    shared_lead = 0.5 * rounds_left / 2         # seats 0 and 2 tie for the most plants
    assert estimate(state).chips == pytest.approx((2 + 0.8 + shared_lead, 2 + 0.4, 2 + 0.4 + shared_lead, 2))
    assert estimate(state).winners == (0,)
    state.chips[3] = 4                          # two chips ahead beat any open set
    assert estimate(state).winners == (3,)
    state.unseen = [0] * 5                      # no rounds left: no lead to share
    assert estimate(state).chips[:3] == pytest.approx((2.8, 2.4, 2.4))
    state.chips = [2, 2, 2, 2]
    state.gardens = [[0] * 5 for _ in range(4)]
    state.gardens[1][0], state.gardens[3][0] = 1, 2
    assert estimate(state).winners == (0, 2)    # a tie goes to the fewest grasshoppers (G12)


@pytest.mark.parametrize("players", (2, 3, 4))
def test_the_strong_players_playouts_stop_at_the_rounds_end_from_four_players(players):
    """STRONG["cut"]: at four players a playout stops when the round ends and is valued by
    the estimate; fewer players play to the game's end."""
    from pitable.rules.grasshopper import OVER
    from pitable.sim.search import STRONG, Estimate, Search

    search = Search(random.Random(1), "duct", shape=STRONG["shape"])
    search.greedy, search.cut = STRONG["greedy"], STRONG["cut"]
    state, _ = position(6, players=players, bids_until=3)
    end = state.copy()
    result = search.play_out(end, random.Random(2))
    if players >= STRONG["cut"]:
        assert isinstance(result, Estimate) and end.round == state.round + 1 and end.phase is not OVER
        assert set(result.winners) <= set(range(players)) and len(result.chips) == players
    else:
        assert end.phase is OVER and result is end.outcome


@pytest.mark.parametrize("players", (2, 3, 4))
def test_a_strong_bid_plays_cut_playouts_times_its_budget_from_four_players(players, monkeypatch):
    """A cut playout costs about half a whole one: where playouts are cut, a bid plays
    STRONG["cut_playouts"] times its budget (its first search and its answer together)."""
    from pitable.sim import search

    calls = []
    real = search.Search.play_out
    monkeypatch.setattr(search.Search, "play_out", lambda self, state, rng: calls.append(1) or real(self, state, rng))
    state, _ = position(7, players=players, bids_until=4)
    budget = 40
    hand = len(HANDS[state.spent[0]])
    search.decide(state, 0, "strong", 5, budget=budget)
    times = search.STRONG["cut_playouts"] if players >= search.STRONG["cut"] else 1
    assert times > 1 or players < 4
    assert budget * times <= len(calls) < budget * times + hand


def _pi_decides_every_bid(state, seat, bot, budget, seen):
    """A bot's bid_card that checks each bid against the Pi's own decision there."""
    bid = StrongBot.bid_card(bot, state, seat)
    past = public_bids(state) if state.moves else bot.past_bids(state)
    if state.moves:
        assert past == bot.past_bids(state)  # what the table hands the Pi is what the bot read
    assert bid == decide(state.copy(), seat, "strong", bot.seed, budget, past)
    seen.append(len(past))
    return bid


@pytest.mark.parametrize("players", (2, 4))
def test_simulate_plays_the_pis_strong_player_bid_for_bid(players, monkeypatch):
    """``pitable simulate --bots strong`` (make_bot) bids exactly as the table's assistant
    (decide, with the revealed bids the table hands it): the same settings (STRONG), the same
    fit to the game's bids, read from the moves through push and followed on the fast path."""
    from pitable.sim import runs

    budget = 6
    bot = runs.make_bot("strong", random.Random(players), budget)
    assert (bot.selection, bot.searcher, bot.cut, bot.cut_playouts, bot.shape) == \
        ("adaptive", "duct", 4, 2, 0.5)
    seen = []
    monkeypatch.setattr(bot, "bid_card", lambda state, seat: _pi_decides_every_bid(state, seat, bot, budget, seen))
    rng = random.Random(1)
    others = [sim.HeuristicBot(rng) for _ in range(players - 1)]
    sim.play(players, [bot] + others, rng, seed=3)           # through push: moves kept
    through_push = len(seen)
    sim.play_fast(players, [bot] + others, rng, seed=4)      # the fast path simulate plays
    sim.play_fast(players, [bot] + others, rng, seed=5)      # a second game: the bot starts afresh
    assert through_push > 20 and len(seen) > through_push + 40
    assert max(seen) == 16 and seen[through_push] == 0      # a full window, and a new game's empty one
