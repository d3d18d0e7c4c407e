"""The baselines the shipped strong player (pitable/sim/search.py) was chosen against,
kept so that the league's ``sb-*`` entrants, league/candidates.py and benchmarks/assistant.py
play them as they were measured (docs/assistant-player.md has the numbers):

- ``rm`` and ``exp3``: the tree search with regret matching or Exp3 bandits instead of UCT;
- ``br``/``brc``: one ply against a model of the others (they bid like the heuristic bot,
  with its noise), each card scored by the mean result of its playouts (``brc``: paired);
- ``eq``: regret matching for every seat at the root (external sampling, common random
  numbers), the others' cards drawn mostly from the heuristic bot as a prior;
- ``adaptive`` with ``searcher="rm"``: root regret matching as its first search.

:class:`BaselineBot` takes these with the defaults the first round measured them at
(``br``, no cut playouts); the Pi never runs any of this.
"""

from __future__ import annotations

import math
import random

from pitable.rules.grasshopper import HANDS, OVER, State
from pitable.sim import search as S
from pitable.sim.grasshopper import HeuristicBot
from pitable.sim.search import Node, Search, _draw

SELECTIONS = ("br", "rm", "exp3", "duct", "eq", "brc", "adaptive")
# What a BaselineBot is without settings: the first round's ``br`` (pitable.sim.search's
# StrongBot defaults to the shipped player instead).
FIRST = {"selection": "br", "searcher": "rm", "shape": 0.0, "greedy": False, "split": 0.5,
         "betas": (1.0,), "window": 16, "floor": 0.2, "cut": 0, "cut_playouts": 1}


class BanditSearch(Search):
    """The tree search with a ``selection`` of ``rm`` (regret matching), ``exp3`` or ``duct``."""

    def __init__(self, rng: random.Random, selection: str = "rm", gamma: float = 0.1,
                 c: float = 0.7, shape: float = 0.0, greedy: bool = False, cut: int = 0):
        super().__init__(rng, selection, c=c, shape=shape, greedy=greedy, cut=cut)
        self.gamma = gamma

    def select(self, node: Node, p: int) -> tuple:
        if self.selection == "duct" or len(node.hands[p]) == 1:
            return super().select(node, p)
        n = len(node.hands[p])
        probs = self.policy(node, p)
        r = self.random()
        for i in range(n):
            r -= probs[i]
            if r < 0:
                return i, probs
        return n - 1, probs

    def policy(self, node: Node, p: int) -> list:
        """The seat's current mixed strategy at the node (RM or Exp3), exploration mixed in."""
        values = node.regret[p]
        n = len(values)
        gamma = self.gamma
        if self.selection == "rm":
            pos = [v if v > 0 else 0.0 for v in values]
            s = sum(pos)
            if s <= 0:
                return [1.0 / n] * n
            scale = (1 - gamma) / s
            floor = gamma / n
            return [v * scale + floor for v in pos]
        eta = gamma / n
        top = max(values)
        ws = [math.exp(eta * (v - top)) for v in values]
        scale = (1 - gamma) / sum(ws)
        floor = gamma / n
        return [w * scale + floor for w in ws]

    def update(self, node: Node, p: int, i: int, probs, reward: float) -> None:
        sel = self.selection
        if sel == "duct":
            super().update(node, p, i, probs, reward)
            return
        total = node.total[p]
        for j, q in enumerate(probs):
            total[j] += q
        values = node.regret[p]
        if sel == "exp3":
            values[i] += reward / probs[i]
        else:  # regret matching with the sampled reward (Lanctot et al. 2014, SM-MCTS-RM)
            for j in range(len(values)):
                values[j] -= reward
            values[i] += reward / probs[i]


class BestResponse(BanditSearch):
    """The cheap baseline: one ply against a model of the others (they bid like the
    heuristic bot), every card of the hand scored by the mean of its playouts."""

    def __init__(self, rng: random.Random, shape: float = 0.0, crn: bool = False):
        super().__init__(rng, "br", shape=shape)
        self.model = HeuristicBot(rng)
        self.crn = crn

    def run(self, root_state: State, seat: int, budget: int) -> Node:
        if self.crn:
            return self.run_paired(root_state, seat, budget)
        root = Node(root_state)
        hand = root.hands[seat]
        n = len(hand)
        others = [s for s in range(root_state.players) if s != seat]
        bid_card = self.model.bid_card
        for it in range(budget):
            state = root_state.copy()
            i = it % n
            bids = [0] * state.players
            bids[seat] = hand[i]
            for s in others:
                bids[s] = bid_card(state, s)
            state.play_bids(tuple(bids))
            self.advance(state)
            outcome = state.outcome if state.phase is OVER else self.play_out(state, self.rng)
            root.total[seat][i] += 1
            root.regret[seat][i] += self.rewards(outcome, state.players)[seat]
        return root

    def run_paired(self, root_state: State, seat: int, budget: int) -> Node:
        """Common random numbers: each sample draws the others' bids and a deal once and
        plays every card of the hand on them, so that cards are compared on equal luck."""
        root = Node(root_state)
        hand = root.hands[seat]
        others = [s for s in range(root_state.players) if s != seat]
        bid_card = self.model.bid_card
        rng, rand = self.rng, self.random
        players = root_state.players
        for _ in range(max(1, budget // len(hand))):
            bids = [0] * players
            for s in others:
                bids[s] = bid_card(root_state, s)
            for i, reward in enumerate(self._paired(root_state, bids, seat, hand, rng.getrandbits(32))):
                root.total[seat][i] += 1
                root.regret[seat][i] += reward
        return root

    def final(self, node: Node, p: int) -> int:
        sums, visits = node.regret[p], node.total[p]
        return max(range(len(sums)), key=lambda i: sums[i] / visits[i] if visits[i] else -1.0)


class Equilibrium(BanditSearch):
    """Regret matching for every seat at the root, external sampling with common random numbers.

    Each iteration draws a deal (one seed for the reveals and the playout) and every other
    seat's card from its current regret-matching strategy (mixed, with weight ``prior``,
    with the heuristic bot's bid: people at a table are not all searchers); then one seat
    (the seats take turns, the searching seat every other time) has every card of its hand
    played out on that same deal and seed, and adds the regrets. The seats' strategies
    learn together, towards an equilibrium of the turn with playouts as the values: a
    mixed strategy that no bid of the others beats by much. Its average is the answer.
    """

    def __init__(self, rng: random.Random, prior: float = 0.0, shape: float = 0.0):
        super().__init__(rng, "eq", shape=shape)
        self.prior = prior
        self.model = HeuristicBot(rng)

    def run(self, root_state: State, seat: int, budget: int) -> Node:
        root = Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng
        rand = rng.random
        prior, model = self.prior, self.model
        others = [s for s in range(players) if s != seat]
        used = it = 0
        while used < budget:
            # the searching seat every other iteration, the others in turn between
            p = seat if it % 2 == 0 else others[(it // 2) % len(others)]
            it += 1
            bids = [0] * players
            probs = [None] * players
            for s in range(players):
                pr = probs[s] = _rm(root.regret[s])
                if s != p and prior and s != seat and rand() < prior:
                    bids[s] = model.bid_card(root_state, s)
                else:
                    bids[s] = hands[s][_draw(pr, rand())]
            hand = hands[p]
            u = self._paired(root_state, bids, p, hand, rng.getrandbits(32))
            used += len(hand)
            _add_regrets(root, p, probs[p], u)
        return root

    def mixed(self, node: Node, p: int) -> list:
        """The average strategy, its small weights (mostly noise of the playouts) dropped."""
        total = node.total[p]
        s = sum(total)
        if s <= 0:
            return [1.0 / len(total)] * len(total)
        probs = [t / s for t in total]
        keep = [q if q >= 0.1 else 0.0 for q in probs]
        k = sum(keep)
        return [q / k for q in keep] if k > 0 else probs

    def final(self, node: Node, p: int) -> int:
        return _draw(self.mixed(node, p), self.rng.random())


class Adaptive(S.Adaptive):
    """``adaptive`` with ``searcher="rm"`` too: regret matching at the root as the first search
    (as :class:`Equilibrium` without a prior), its average strategy."""

    def __init__(self, rng: random.Random, shape: float = 0.0, split: float = 0.5,
                 betas: tuple = (1.0,), weights: dict | None = None, searcher: str = "rm"):
        super().__init__(rng, shape, split, betas, weights, searcher)

    def equilibrium(self, root_state: State, budget: int) -> Node:
        if self.searcher == "duct":
            return super().equilibrium(root_state, budget)
        root = Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng
        rand = rng.random
        used = it = 0
        while used < budget:
            p = it % players
            it += 1
            probs = [_rm(r) for r in root.regret]
            bids = [hands[s][_draw(probs[s], rand())] for s in range(players)]
            u = self._paired(root_state, bids, p, hands[p], rng.getrandbits(32))
            used += len(hands[p])
            _add_regrets(root, p, probs[p], u)
        self.used = used
        return root


def _add_regrets(root: Node, p: int, probs: list, u: list) -> None:
    """Regret matching's update for seat ``p``: each card's regret against the strategy's
    expected reward ``u`` (paired playouts), and the strategy into the average."""
    v = sum(q * x for q, x in zip(probs, u))
    regret, total = root.regret[p], root.total[p]
    for i in range(len(u)):
        regret[i] += u[i] - v
        total[i] += probs[i]


def _rm(regret: list) -> list:
    pos = [r if r > 0 else 0.0 for r in regret]
    s = sum(pos)
    n = len(regret)
    return [x / s for x in pos] if s > 0 else [1.0 / n] * n


class BaselineBot(S.StrongBot):
    """A StrongBot that also bids by the baselines (``selection``), with the first round's
    defaults (``FIRST``); ``prior``: ``eq``'s weight of the heuristic bot's bid."""

    adaptive = Adaptive

    def __init__(self, rng: random.Random, budget: int = S.DEFAULT_BUDGET, selection: str = FIRST["selection"],
                 seed: int | None = None, shape: float = FIRST["shape"], prior: float = 0.0,
                 greedy: bool = FIRST["greedy"], split: float = FIRST["split"], betas: tuple = FIRST["betas"],
                 window: int = FIRST["window"], floor: float = FIRST["floor"], searcher: str = FIRST["searcher"],
                 cut: int = FIRST["cut"], cut_playouts: int = FIRST["cut_playouts"]):
        super().__init__(rng, budget, selection, seed, shape, greedy, split, betas, window, floor, searcher,
                         cut, cut_playouts)
        self.prior = prior
        self.past = ()  # as measured: the revealed bids only when a caller sets them

    def searcher_for(self, rng: random.Random) -> Search:
        if self.selection == "br":
            search = BestResponse(rng, shape=self.shape)
        elif self.selection == "brc":
            search = BestResponse(rng, shape=self.shape, crn=True)
        elif self.selection == "eq":
            search = Equilibrium(rng, prior=self.prior, shape=self.shape)
        else:
            search = BanditSearch(rng, self.selection, shape=self.shape)
        search.greedy, search.cut = self.greedy, self.cut
        return search

    def strategy(self, state: State, seat: int) -> tuple:
        """(cards, probabilities): what it bids from at this position (a best response
        that models it asks; league/bots.py ``exploit``)."""
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand, [1.0]
        search, root = self.search(state, seat)
        if isinstance(search, Equilibrium):
            return hand, search.mixed(root, seat)
        pick = search.final(root, seat)
        return hand, [1.0 if i == pick else 0.0 for i in range(len(hand))]


def playout_greedy(state: State, rng: random.Random):
    """Random bids to the end, like :meth:`State.playout`, but every chooser takes the kind
    the heuristic's measure likes best (nobody takes a plague while something else is
    there): a random chooser makes gardens die that people would keep."""
    return state.playout(rng, choose=S._greedy_kind)


def strategy(state: State, seat: int, seed: int, budget: int = S.DEFAULT_BUDGET, past: tuple = ()) -> tuple:
    """The strong level's strategy at the position: (cards, probabilities).

    What a best response that models the strong player asks (league/bots.py, ``exploit``)."""
    bot = BaselineBot(random.Random(0), budget, seed=seed, **S.STRONG)
    bot.past = tuple(past)
    return bot.strategy(state, seat)
