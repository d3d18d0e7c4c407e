"""The assistant's strong Grasshopper Poker player (``strong``).

Grasshopper Poker is Goofspiel with chance: every seat bids at once from a public hand,
garden cards come from a hidden pile. ``strong`` (:class:`Adaptive`, settings in
``STRONG``, the defaults of :class:`StrongBot`):

- a first search for every seat, the tree search with decoupled UCT (``duct``: every seat
  its own UCB bandit over its own cards at each bidding turn, after Lanctot, Lisý and
  Winands (2014); open loop over chance), gives what a searcher in each seat would play;
- each other seat is modelled as the heuristic bot, as a bidder with no preference, or as
  such a searcher (mixed, or sharpened towards its likeliest card), weighted by how well
  each explained that seat's revealed bids in this game;
- then every card of its hand is played out, paired, against that model: the best mean
  wins. Its choices are searched too (:func:`decide_choice`: every kind on the display
  played out).

Every playout draws a fresh order of the unseen garden cards (nothing depends on the real
pile) and runs on the rules core's fast path (``State.playout``); at 4 players (``cut``)
playouts stop when the round ends and are valued by :func:`estimate`, ``cut_playouts``
times as many of them: four random bidders cancel each other so often that the rest of a
game played out is mostly noise. The baselines it was chosen against (``br``, ``eq``,
regret matching and Exp3 bandits) live in ``league/baselines.py``; how and why it was chosen:
docs/assistant-player.md.

Fair play: a decision reads only the public state (display, gardens, chips, spent
cards, counts of unseen cards), the bids this game has revealed (``State.revealed_bids``:
the log's bids, never a pending one) and a seed made of the player's seed and the public
position. It never sees the others' pending bids (they are not in the state) or a
virtual deck's order (it is not given one), so the same position after the same
revealed bids gives the same bid whatever they are, and replays repeat it.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from pitable.rules.games import ASSISTANT_LEVELS
from pitable.rules.grasshopper import CARDS, CHOOSING, DISPLAY_SIZE, GRASSHOPPER, HANDS, OVER, PLANTS, REVEAL, State
from pitable.sim.grasshopper import HeuristicBot, RandomBot, kind_value

# Playouts per decision (at 4 players twice as many, cut: STRONG's "cut_playouts"): ~20-27 ms
# of CPU on the development machine; counted, 216 M instructions a bid on the mean and 310 M
# at the most, 0.24-1.0 s on a Pi Zero 2 W (benchmarks/counts.py, docs/performance.md);
# strength at this budget: docs/assistant-player.md.
DEFAULT_BUDGET = 200


def playouts(budget: int, players: int, cut: int, times: int) -> int:
    """Playouts for a decision: the budget, ``times`` it at ``cut`` players or more, where a
    playout stops at the round's end and costs about half of one played to the game's end."""
    return budget * times if cut and players >= cut else budget

LEVELS = ASSISTANT_LEVELS  # the registry's: decide() plays each
# The strong level's method (docs/assistant-player.md, "The league"): StrongBot's defaults.
STRONG = {"selection": "adaptive", "searcher": "duct", "shape": 0.5, "greedy": True, "split": 0.5,
          "betas": (0.0, 1.0, 3.0, 12.0), "window": 16, "floor": 0.2, "cut": 4, "cut_playouts": 2}
PAST = STRONG["window"]  # how many of the game's last bidding turns a decision reads
SELECTIONS = ("duct", "adaptive")  # the searches shipped here; league/baselines.py has the others


class Node:
    """A bidding turn in the tree: one bandit per seat over its hand, children by joint bid."""

    __slots__ = ("hands", "regret", "total", "visits", "children")

    def __init__(self, state: State):
        spent = state.spent
        self.hands = [HANDS[m] for m in spent]
        # DUCT: reward sums and visits per card (league/baselines.py's bandits keep regrets or
        # gains, and average strategies, in the same two tables)
        self.regret = [[0.0] * len(h) for h in self.hands]
        self.total = [[0.0] * len(h) for h in self.hands]
        self.visits = 0
        self.children: dict = {}


class Search:
    """One decision's search: the tree search with decoupled UCT (``duct``); its playouts
    (``play_out``), chance (``advance``) and rewards are what every search here shares.
    ``greedy``: playouts' choosers take the heuristic's kind (else random ones); ``cut``:
    playouts at this many players or more stop when the round ends (0: never)."""

    def __init__(self, rng: random.Random, selection: str = "duct", c: float = 0.7,
                 shape: float = 0.0, greedy: bool = False, cut: int = 0):
        self.rng = rng
        self.shape = shape
        self.random = rng.random
        self.selection = selection
        self.c = c
        self.greedy, self.cut = greedy, cut
        self.chooser = HeuristicBot(rng)

    def run(self, root_state: State, seat: int, budget: int) -> Node:
        root = Node(root_state)
        for _ in range(budget):
            state = root_state.copy()
            self.iterate(root, state)
        return root

    # -- one iteration --------------------------------------------------------------------

    def iterate(self, root: Node, state: State) -> None:
        path = []
        node = root
        players = state.players
        seats = range(players)
        select = self.select
        while True:
            picks = [select(node, p) for p in seats]  # (index, probabilities) per seat
            path.append((node, picks))
            hands = node.hands
            bids = tuple([hands[p][picks[p][0]] for p in seats])
            state.play_bids(bids)
            self.advance(state)
            if state.phase is OVER:
                break
            child = node.children.get(bids)
            if child is None:
                node.children[bids] = Node(state)
                break
            node = child
        outcome = state.outcome if state.phase is OVER else self.play_out(state, self.rng)
        rewards = self.rewards(outcome, players)
        update = self.update
        for node, picks in path:
            node.visits += 1
            for p in seats:
                i, probs = picks[p]
                if probs is not None:
                    update(node, p, i, probs, rewards[p])

    def play_out(self, state: State, rng: random.Random):
        choose = _greedy_kind if self.greedy else None
        if self.cut and state.players >= self.cut:
            return state.playout(rng, choose=choose, stop_round=state.round + 1) or estimate(state)
        return state.playout(rng, choose=choose)

    def advance(self, state: State, rand=None) -> None:
        """Choices (the heuristic's) and reveals (the rules' chance step, drawn by ``rand``,
        the search's own by default) up to the next bids."""
        rand = rand or self.random
        while True:
            phase = state.phase
            if phase is CHOOSING:
                seat = state.choosers[0]
                state.play_choice(self.chooser.choose_kind(state, seat))
            elif phase is REVEAL:
                state.play_chance(rand)
            else:
                return

    def rewards(self, outcome, players: int) -> list:
        """Per seat: its share of the win, blended (``shape``) with its chip margin over the
        best other seat, squashed into 0..1: a denser signal than win or lose alone."""
        winners = outcome.winners
        share = 1.0 / len(winners)
        out = [0.0] * players
        for w in winners:
            out[w] = share
        shape = self.shape
        if shape:
            chips = outcome.chips
            for p in range(players):
                best = max(c for q, c in enumerate(chips) if q != p)
                margin = 0.5 + 0.5 * math.tanh((chips[p] - best) / 3.0)
                out[p] = (1 - shape) * out[p] + shape * margin
        return out

    # -- bandits ------------------------------------------------------------------------

    def select(self, node: Node, p: int) -> tuple:
        """(index in the seat's hand, ``()``): UCB1 over the seat's cards at the node (a
        card not tried yet first; None for a last card, which is not a choice)."""
        n = len(node.hands[p])
        if n == 1:
            return 0, None
        visits, sums = node.total[p], node.regret[p]
        for i in range(n):
            if not visits[i]:
                return i, ()
        log_n = math.log(node.visits)
        c = self.c
        best, pick = -1.0, 0
        for i in range(n):
            v = sums[i] / visits[i] + c * math.sqrt(log_n / visits[i])
            if v > best:
                best, pick = v, i
        return pick, ()

    def update(self, node: Node, p: int, i: int, probs, reward: float) -> None:
        node.total[p][i] += 1
        node.regret[p][i] += reward

    def final(self, node: Node, p: int) -> int:
        """The move to play: most visited (DUCT) or the largest average-strategy weight."""
        return max(range(len(node.hands[p])), key=node.total[p].__getitem__)

    def _paired(self, root_state: State, bids: list, p: int, hand, deal: int) -> list:
        """Seat ``p``'s reward for each card of ``hand`` on one deal and seed (paired
        playouts: the cards differ only in the card), the others bidding ``bids``."""
        players = root_state.players
        out = []
        for card in hand:
            state = root_state.copy()
            bids[p] = card
            state.play_bids(tuple(bids))
            sub = random.Random(deal)
            self.advance(state, sub.random)
            outcome = state.outcome if state.phase is OVER else self.play_out(state, sub)
            out.append(self.rewards(outcome, players)[p])
        return out


class Adaptive(Search):
    """``strong``: a model of every other seat fitted to this game's bids, and the best answer to it.

    First part of the budget (``split``): a search for every seat, the tree search with
    decoupled UCT (every seat its own UCB bandit at each bidding turn, open loop over chance),
    whose visits per card are what a searcher in that seat would play (league/baselines.py
    adds ``searcher="rm"``, regret matching at the root). Each other seat is then one of several
    models, weighted by how well
    each explained that seat's revealed bids in this game (``weights``, from
    :meth:`StrongBot.fit`): the heuristic bot (people's rules of thumb), or the searcher's
    strategy sharpened by each power in ``betas`` (0: no preference at all, 1: a mixed
    searcher, 12: nearly its likeliest card). The rest: every card of the hand played out,
    paired, against the others' cards drawn from their models; the best mean wins.
    (Variants measured and left off live in league/.)
    """

    def __init__(self, rng: random.Random, shape: float = 0.0, split: float = 0.5,
                 betas: tuple = (1.0,), weights: dict | None = None, searcher: str = "duct"):
        super().__init__(rng, "adaptive", shape=shape)
        self.split, self.betas, self.searcher = split, tuple(betas), searcher
        self.weights = weights or {}
        self.model = HeuristicBot(rng)
        self.values: list = []

    def equilibrium(self, root_state: State, budget: int) -> Node:
        """The first search, for every seat, ``budget`` playouts: the root's ``total`` holds
        each seat's visits (duct) or average strategy (rm) per card of its hand."""
        if self.searcher != "duct":
            raise ValueError(f"unknown first search {self.searcher!r} (league/baselines.py has the others)")
        search = Search(self.rng, "duct", shape=self.shape, greedy=self.greedy, cut=self.cut)
        root = search.run(root_state, 0, budget)
        root.children = {}  # only the root's visits are read; kept roots stay small (_remember)
        self.random = self.rng.random
        self.used = budget
        return root

    def run(self, root_state: State, seat: int, budget: int) -> Node:
        root = self.equilibrium(root_state, int(budget * self.split))
        hands = root.hands
        players = root_state.players
        rng = self.rng
        rand = rng.random
        betas = self.betas
        others = [s for s in range(players) if s != seat]
        even = (1.0 / (len(betas) + 1),) * (len(betas) + 1)
        models = {s: (self.weights.get(s, even), [sharpen(root.total[s], b) for b in betas]) for s in others}
        used = self.used
        values = self.values = [0.0] * len(hands[seat])
        n = 0
        while used < budget or not n:
            bids = self.draw_others(root_state, hands, models)
            u = self._paired(root_state, bids, seat, hands[seat], rng.getrandbits(32))
            self.random = rand
            used += len(u)
            n += 1
            for i, x in enumerate(u):
                values[i] += x
        return root

    def draw_others(self, root_state: State, hands: list, models: dict) -> list:
        """A bid for every other seat, each from its models by their fitted weights (the
        seat's own entry is left 0 for the caller)."""
        rand = self.rng.random
        bids = [0] * root_state.players
        for s, (weights, dists) in models.items():
            r = rand() - weights[0]
            if r < 0:
                bids[s] = self.model.bid_card(root_state, s)
                continue
            j = 0
            while j < len(dists) - 1 and r >= weights[1 + j]:
                r -= weights[1 + j]
                j += 1
            bids[s] = hands[s][_draw(dists[j], rand())]
        return bids

    def final(self, node: Node, p: int) -> int:
        values = self.values
        return max(range(len(values)), key=values.__getitem__)


def sharpen(weights: list, beta: float) -> list:
    """A distribution proportional to ``weights`` to the power ``beta`` (1: as it is; large:
    nearly all on the largest)."""
    top = max(weights)
    if top <= 0:
        return [1.0 / len(weights)] * len(weights)
    powered = [(w / top) ** beta for w in weights]
    s = sum(powered)
    return [w / s for w in powered]


def _draw(probs, r: float) -> int:
    for i, q in enumerate(probs):
        r -= q
        if r < 0:
            return i
    return len(probs) - 1


class StrongBot(RandomBot):
    """``strong``, the Pi's player: bids by :class:`Adaptive` with the settings of ``STRONG``
    (its defaults), chooses kinds like the heuristic (the table's assistant searches its
    choices too: :func:`decide_choice`). The bids of the game so far (``past``) are read from
    the state's moves when it keeps them (the table's, ``play``'s), else followed by the bot
    itself from what each turn spent (``play_fast``): the same as the Pi reads."""

    name = "strong"
    adaptive = Adaptive  # the ``adaptive`` search's class (league/ passes variants)

    def __init__(self, rng: random.Random, budget: int = DEFAULT_BUDGET,
                 selection: str = STRONG["selection"], seed: int | None = None, shape: float = STRONG["shape"],
                 greedy: bool = STRONG["greedy"], split: float = STRONG["split"], betas: tuple = STRONG["betas"],
                 window: int = STRONG["window"], floor: float = STRONG["floor"], searcher: str = STRONG["searcher"],
                 cut: int = STRONG["cut"], cut_playouts: int = STRONG["cut_playouts"]):
        super().__init__(rng)
        self.cut, self.cut_playouts = cut, cut_playouts
        self.searcher = searcher
        self.split, self.betas, self.window, self.floor = split, tuple(betas), window, floor
        self.past: tuple | None = None  # this game's revealed bids (None: read or follow them)
        self.greedy = greedy
        self.shape = shape
        self.budget = budget
        self.selection = selection
        self.seed = rng.getrandbits(32) if seed is None else seed
        self._seen: list = []  # play_fast: (position, spent) at each bidding turn this game

    def playouts(self, players: int) -> int:
        """The playouts a bid gets at this many players (:func:`playouts`)."""
        return playouts(self.budget, players, self.cut, self.cut_playouts)

    def decision_rng(self, state: State, seat: int, what: str) -> random.Random:
        return _position_rng(self.seed, what, state, seat)

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        self._follow(state)
        if len(hand) == 1:
            return hand[0]
        search, root = self.search(state, seat)
        return hand[search.final(root, seat)]

    def search(self, state: State, seat: int) -> tuple:
        """(the search, its root) for the seat's bid at this position."""
        rng = self.decision_rng(state, seat, "bid")
        if self.selection == "adaptive":
            weights = self.fit(seat, state.players, self.past_bids(state))
            search = self.adaptive(rng, self.shape, self.split, self.betas, weights, self.searcher)
            search.greedy, search.cut = self.greedy, self.cut
            root = search.run(state, seat, self.playouts(state.players))
            _remember(self._key(state, seat), root)
            return search, root
        search = self.searcher_for(rng)
        return search, search.run(state, seat, self.playouts(state.players))

    def searcher_for(self, rng: random.Random) -> Search:
        """The search a ``selection`` other than ``adaptive`` bids by (league/baselines.py
        adds its baselines here)."""
        if self.selection != "duct":
            raise ValueError(f"unknown selection {self.selection!r} (league/baselines.py has the others)")
        return Search(rng, "duct", shape=self.shape, greedy=self.greedy, cut=self.cut)

    def past_bids(self, state: State) -> tuple:
        """The game's last ``window`` revealed bids before this position, as the Pi reads
        them: given (``past``), the state's own moves, or what this bot followed."""
        if self.past is not None:
            return tuple(self.past)[-self.window:]
        if state.moves:
            return state.revealed_bids(self.window)
        seen = self._seen  # the last one is this position (_follow)
        out = []
        for (before, spent), (_, after) in zip(seen, seen[1:]):
            # each seat's bid is the card its spent mask gained; a round's last bid (the masks
            # start again) was the one card left in its hand
            out.append((before, tuple((a ^ b).bit_length() - 1 if a & b == b and a != b else HANDS[b][0]
                                      for b, a in zip(spent, after))))
        return tuple(out[-self.window:])

    def _follow(self, state: State) -> None:
        """Keep the positions of this game's bidding turns (a state that keeps no moves)."""
        if self.past is not None or state.moves:
            return
        seen = self._seen
        if seen and (seen[-1][0].round, seen[-1][0].turn) >= (state.round, state.turn):
            if seen[-1][0].position_key() == state.position_key():
                return  # another seat of the same turn
            seen.clear()  # an earlier turn: a new game
        seen.append((state.copy(), tuple(state.spent)))

    def bid_cards(self, state: State, seats: tuple) -> list:
        return [self.bid_card(state, s) for s in seats]

    # -- adaptive: the model of the others, fitted to this game's bids ---------------------------

    def _key(self, state: State, seat: int) -> tuple:
        return (self.seed, self.budget, self.split, self.searcher, self.cut, self.cut_playouts, state.players,
                state.options, state.position_key(), seat)

    def equilibrium_at(self, state: State, seat: int) -> Node:
        """The first half of ``adaptive``'s search at a position (the searchers' strategies):
        the very numbers the decision there made, from the same seed (remembered, or made again
        after a restart)."""
        key = self._key(state, seat)
        root = _EQUILIBRIA.get(key)
        if root is None:
            search = self.adaptive(self.decision_rng(state, seat, "bid"), self.shape, self.split, self.betas,
                                   searcher=self.searcher)
            search.greedy, search.cut = self.greedy, self.cut
            root = search.equilibrium(state, int(self.playouts(state.players) * self.split))
            _remember(key, root)
        return root

    def fit(self, seat: int, players: int, past: tuple | None = None) -> dict:
        """Per other seat, the weight of each model (the heuristic, then each sharpened
        searcher): how well each explained that seat's last ``window`` revealed bids
        (``past``, else those set in :attr:`past`; likelihoods, each mixed with ``floor`` of a
        uniform bid so one surprise is not fatal)."""
        out = {}
        floor, betas = self.floor, self.betas
        past = tuple(self.past or ())[-self.window:] if past is None else past
        for s in range(players):
            if s == seat:
                continue
            logs = [0.0] * (len(betas) + 1)
            for position, bids in past:
                hand = HANDS[position.spent[s]]
                if len(hand) == 1:
                    continue
                i = hand.index(bids[s])
                total = self.equilibrium_at(position, seat).total[s]
                likely = [HeuristicBot.probabilities(position, s).get(bids[s], 0.0)]
                likely += [sharpen(total, b)[i] for b in betas]
                for j, q in enumerate(likely):
                    logs[j] += math.log((1 - floor) * q + floor / len(hand))
            top = max(logs)
            e = [math.exp(x - top) for x in logs]
            out[s] = tuple(x / sum(e) for x in e)
        return out

    def choose_kind(self, state: State, seat: int) -> int:
        garden = state.gardens[seat]
        return max((kind_value(garden, k, n), k) for k, n in enumerate(state.display) if n)[1]


# The first searches of ``adaptive`` (their roots), by (seed, budget, split, searcher, position, seat):
# a decision fits its model on the positions of the game's last bids, where it (the same
# seat, the same seed) searched before. Bounded: cleared when full.
_EQUILIBRIA: dict = {}
_EQUILIBRIA_MAX = 1024


def _remember(key: tuple, root: Node) -> None:
    if len(_EQUILIBRIA) >= _EQUILIBRIA_MAX:
        _EQUILIBRIA.clear()
    _EQUILIBRIA[key] = root


def public_bids(state: State, last: int = PAST) -> tuple:
    """The game's last ``last`` revealed bids, oldest first (:meth:`State.revealed_bids`):
    what the table hands a decision as ``past``."""
    return state.revealed_bids(last)


def _strong(seed: int, budget: int, past: tuple) -> StrongBot:
    bot = StrongBot(random.Random(0), budget, seed=seed, **STRONG)
    bot.past = tuple(past)
    return bot


def decide(state: State, seat: int, level: str, seed: int, budget: int = DEFAULT_BUDGET,
           past: tuple = ()) -> int:
    """The assistant's bid (a card int) for ``seat``: a function of the public position,
    this game's revealed bids before it (``past``, :func:`public_bids`) and ``seed`` only.
    ``easy`` bids like the heuristic bot, ``strong`` searches."""
    if level == "strong":
        return _strong(seed, budget, past).bid_card(state, seat)
    return HeuristicBot(_position_rng(seed, "easy-bid", state, seat)).bid_card(state, seat)


def decide_choice(state: State, seat: int, level: str, seed: int, budget: int = DEFAULT_BUDGET,
                  settings: dict = STRONG) -> int:
    """The assistant's choice of a kind (an int) when ``seat`` chooses: ``easy`` takes what
    the heuristic's measure likes, ``strong`` plays every kind on the display out (half a
    bid's playouts, paired: what it leaves to the next choosers counts too). ``settings``:
    the strong level's (league/candidates.py passes others)."""
    rng = _position_rng(seed, "choice", state, seat)
    kinds = [k for k, n in enumerate(state.display) if n]
    if level != "strong" or len(kinds) == 1 or state.phase is not CHOOSING:
        return HeuristicBot(rng).choose_kind(state, seat)
    search = Search(rng, "choice", shape=settings["shape"], greedy=settings["greedy"], cut=settings["cut"])
    sums = [0.0] * len(kinds)
    n = playouts(budget, state.players, search.cut, settings["cut_playouts"])
    for _ in range(max(1, (n // 2) // len(kinds))):
        deal = rng.getrandbits(32)
        for i, k in enumerate(kinds):
            position = state.copy()
            position.play_choice(k)
            sub = random.Random(deal)  # every kind on the same deal and playout seed
            search.advance(position, sub.random)
            outcome = position.outcome if position.phase is OVER else search.play_out(position, sub)
            sums[i] += search.rewards(outcome, state.players)[seat]
    return kinds[max(range(len(kinds)), key=sums.__getitem__)]


def _position_rng(seed: int, what: str, state: State, seat: int) -> random.Random:
    key = (seed, what, seat, state.round, state.turn, tuple(state.unseen), tuple(state.display),
           tuple(state.spent), tuple(state.chips), tuple(tuple(g) for g in state.gardens))
    return random.Random(repr(key))  # a string seed is hashed with SHA-512: the same everywhere


def _greedy_kind(state: State) -> int:
    """The kind the heuristic's measure likes best for the chooser."""
    garden, display = state.gardens[state.choosers[0]], state.display
    best, pick = -1e9, 0
    for k in state.choice_kinds:
        v = kind_value(garden, k, display[k])
        if v > best:
            best, pick = v, k
    return pick


class Estimate(NamedTuple):
    """What a playout cut at a round's end says (as an Outcome does at the game's end):
    the chips each seat can expect at the end, and who leads by them."""

    chips: tuple
    winners: tuple


def estimate(state: State, hold: float = 0.4, lead: float = 0.5) -> Estimate:
    """Chips a seat can expect from a position between rounds: its chips, ``hold`` of a chip
    per card of an unfinished set in its garden (half of it with two grasshoppers there, a
    plague away), and ``lead`` of a chip for each round the pile still holds to the seat
    with the most plants (shared when tied). Leaders by that, ties to fewer grasshoppers
    (G12)."""
    gardens = state.gardens
    rounds_left = sum(state.unseen) / (DISPLAY_SIZE * len(CARDS))  # a round: 8 bids, ~3 cards each
    plants = [sum(g[k] for k in PLANTS) for g in gardens]
    most = max(plants)
    leaders = plants.count(most) if most else 0
    chips = []
    for s, garden in enumerate(gardens):
        v = state.chips[s] + hold * sum(garden[k] % 3 for k in PLANTS) * (0.5 if garden[GRASSHOPPER] >= 2 else 1.0)
        if leaders and plants[s] == most:
            v += lead * rounds_left / leaders
        chips.append(v)
    best = max((c, -g[GRASSHOPPER]) for c, g in zip(chips, gardens))
    return Estimate(tuple(chips), tuple(s for s, (c, g) in enumerate(zip(chips, gardens))
                                        if (c, -g[GRASSHOPPER]) == best))
