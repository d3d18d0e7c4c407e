"""The assistant's strong Grasshopper Poker player, and the searches it was chosen from.

Grasshopper Poker is Goofspiel with chance: every seat bids at once from a public hand,
garden cards come from a hidden pile. Measured here at equal budgets (see
docs/assistant-player.md for the numbers):

- simultaneous-move MCTS after Lanctot, Lisý and Winands (2014) and Tak, Lanctot and
  Winands (2014): a tree of bidding turns where every seat runs its own bandit over its
  own cards (decoupled selection: regret matching ``rm``, ``exp3`` or UCT ``duct``) and
  the joint bid picks the child; open loop over chance;
- ``br``: one ply against a model of the others (they bid like the heuristic bot, with
  its noise), each of its cards scored by the mean result of its playouts;
- ``eq``: regret matching for every seat at the root (external sampling, common random
  numbers), the others' cards drawn mostly from the heuristic bot as a prior; it bids by
  drawing from its average (mixed) strategy;
- ``adaptive``: a first search for every seat (a tree search with decoupled UCT, or
  ``eq``'s regret matching) gives what a searcher in each seat would play; each other
  seat is modelled as the heuristic bot, as a bidder with no preference, or as such a
  searcher (mixed, or sharpened towards its likeliest card), weighted by how well each
  explained that seat's revealed bids in this game; then the best answer to that model.
  Its choices are searched too (``decide_choice``: every kind on the display played out).

``br`` beat the heuristic bot it models but only drew with searchers it does not model,
and so did ``eq`` (more playouts did not help it: its limit was its fixed model of the
others). ``adaptive`` (settings in ``STRONG``) is the ``strong`` player since the
league's second round (league/, docs/assistant-player.md); since its fourth step, the
first search is the tree search (``searcher="duct"``), whose visits foresee a searching seat's
bid far better than root regret matching does. Every variant draws a fresh
order of the unseen garden cards in each iteration (nothing depends on the real pile)
and plays playouts to the game end on the rules core's fast path (``State.playout``);
since the fifth step, strong's playouts at 4 players (``cut``) stop when the round ends
and are valued by :func:`estimate`, twice as many of them: four random bidders cancel each
other so often that the rest of a game played out is mostly noise.

Fair play: a decision reads only the public state (display, gardens, chips, spent
cards, counts of unseen cards), the bids this game has revealed (``public_bids``: the
log's bids, never a pending one) and a seed made of the player's seed and the public
position. It never sees the others' pending bids (they are not in the state) or a
virtual deck's order (it is not given one), so the same position after the same
revealed bids gives the same bid whatever they are, and replays repeat it.
"""

from __future__ import annotations

import math
import random
from typing import NamedTuple

from pitable.rules.grasshopper import (CARD_INDEX, CARDS, CHOOSING, DISPLAY_SIZE, GRASSHOPPER, HANDS, OVER, PLANTS,
                                      REVEAL, Bids, State, _K5)
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

SELECTIONS = ("br", "rm", "exp3", "duct", "eq", "brc", "adaptive")


class Node:
    """A bidding turn in the tree: one bandit per seat over its hand, children by joint bid."""

    __slots__ = ("hands", "regret", "total", "visits", "children")

    def __init__(self, state: State):
        spent = state.spent
        self.hands = [HANDS[m] for m in spent]
        self.regret = [[0.0] * len(h) for h in self.hands]  # RM regrets, Exp3 gains, DUCT sums
        self.total = [[0.0] * len(h) for h in self.hands]   # RM/Exp3 average strategy, DUCT visits
        self.visits = 0
        self.children: dict = {}


class Search:
    """One decision's search. ``selection``: rm (regret matching), exp3 or duct."""

    def __init__(self, rng: random.Random, selection: str = "rm", gamma: float = 0.1,
                 c: float = 0.7, shape: float = 0.0):
        self.rng = rng
        self.shape = shape
        self.random = rng.random
        self.selection = selection
        self.gamma = gamma
        self.c = c
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

    greedy = False  # playouts: random choices (State.playout) or the heuristic's (playout_greedy)
    cut = 0  # playouts at this many players or more stop when the round ends (estimate); 0: never

    def play_out(self, state: State, rng: random.Random):
        choose = _greedy_kind if self.greedy else None
        if self.cut and state.players >= self.cut:
            return state.playout(rng, choose=choose, stop_round=state.round + 1) or estimate(state)
        return state.playout(rng, choose=choose)

    def advance(self, state: State) -> None:
        """Choices (the heuristic's) and reveals (drawn from the unseen counts) up to the next bids."""
        rand = self.random
        while True:
            phase = state.phase
            if phase is CHOOSING:
                seat = state.choosers[0]
                state.play_choice(self.chooser.choose_kind(state, seat))
            elif phase is REVEAL:
                unseen = state.unseen
                kinds = []
                left = sum(unseen)
                counts = list(unseen)
                for _ in range(state.to_reveal):
                    r = int(rand() * left)
                    for k in _K5:
                        r -= counts[k]
                        if r < 0:
                            break
                    counts[k] -= 1
                    left -= 1
                    kinds.append(k)
                state.play_reveals(kinds)
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
        """(index in the seat's hand, the probabilities it was drawn with or () for DUCT)."""
        n = len(node.hands[p])
        if n == 1:
            return 0, None
        if self.selection == "duct":
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
            node.total[p][i] += 1
            node.regret[p][i] += reward
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
            self.random = sub.random
            self.advance(state)
            outcome = state.outcome if state.phase is OVER else self.play_out(state, sub)
            out.append(self.rewards(outcome, players)[p])
        return out


class BestResponse(Search):
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
            self.random = rand
        return root

    def final(self, node: Node, p: int) -> int:
        sums, visits = node.regret[p], node.total[p]
        return max(range(len(sums)), key=lambda i: sums[i] / visits[i] if visits[i] else -1.0)


class Equilibrium(Search):
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
            self.random = rand
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


class Adaptive(Search):
    """``strong``: a model of every other seat fitted to this game's bids, and the best answer to it.

    First part of the budget (``split``): a search for every seat. ``searcher="duct"``: the
    tree search with decoupled UCT (every seat its own UCB bandit at each bidding turn, open
    loop over chance), whose visits per card are what a searcher in that seat would play;
    ``"rm"``: regret matching at the root (as :class:`Equilibrium` without a prior), its
    average strategy. Each other seat is then one of several models, weighted by how well
    each explained that seat's revealed bids in this game (``weights``, from
    :meth:`StrongBot.fit`): the heuristic bot (people's rules of thumb), or the searcher's
    strategy sharpened by each power in ``betas`` (0: no preference at all, 1: a mixed
    searcher, 12: nearly its likeliest card). The rest: every card of the hand played out,
    paired, against the others' cards drawn from their models; the best mean wins.
    (Variants measured and left off live in league/candidates.py.)
    """

    def __init__(self, rng: random.Random, shape: float = 0.0, split: float = 0.5,
                 betas: tuple = (1.0,), weights: dict | None = None, searcher: str = "rm"):
        super().__init__(rng, "adaptive", shape=shape)
        self.split, self.betas, self.searcher = split, tuple(betas), searcher
        self.weights = weights or {}
        self.model = HeuristicBot(rng)
        self.values: list = []

    def equilibrium(self, root_state: State, budget: int) -> Node:
        """The first search, for every seat, ``budget`` playouts: the root's ``total`` holds
        each seat's visits (duct) or average strategy (rm) per card of its hand."""
        if self.searcher == "duct":
            search = Search(self.rng, "duct", shape=self.shape)
            search.greedy, search.cut = self.greedy, self.cut
            root = search.run(root_state, 0, budget)
            root.children = {}  # only the root's visits are read; kept roots stay small (_remember)
            self.random = self.rng.random
            self.used = budget
            return root
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
            self.random = rand
            _add_regrets(root, p, probs[p], u)
        self.used = used
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


def _draw(probs, r: float) -> int:
    for i, q in enumerate(probs):
        r -= q
        if r < 0:
            return i
    return len(probs) - 1


class StrongBot(RandomBot):
    """``strong``: bids by search (``br`` unless told otherwise), chooses kinds like the heuristic."""

    name = "strong"
    adaptive = Adaptive  # the ``adaptive`` search's class (a candidate's subclass in league/candidates.py)

    def __init__(self, rng: random.Random, budget: int = DEFAULT_BUDGET, selection: str = "br",
                 seed: int | None = None, shape: float = 0.0, prior: float = 0.0, greedy: bool = False,
                 split: float = 0.5, betas: tuple = (1.0,), window: int = 16, floor: float = 0.2,
                 searcher: str = "rm", cut: int = 0, cut_playouts: int = 1):
        super().__init__(rng)
        self.cut, self.cut_playouts = cut, cut_playouts
        self.searcher = searcher
        self.split, self.betas, self.window, self.floor = split, tuple(betas), window, floor
        self.past: tuple = ()  # this game's revealed bids, for ``adaptive`` (public_bids)
        self.prior = prior
        self.greedy = greedy
        self.shape = shape
        self.budget = budget
        self.selection = selection
        self.seed = rng.getrandbits(32) if seed is None else seed
        self.heuristic = HeuristicBot(rng)

    def playouts(self, players: int) -> int:
        """The playouts a bid gets at this many players (:func:`playouts`)."""
        return playouts(self.budget, players, self.cut, self.cut_playouts)

    def decision_rng(self, state: State, seat: int, what: str) -> random.Random:
        return _position_rng(self.seed, what, state, seat)

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand[0]
        search, root = self.search(state, seat)
        return hand[search.final(root, seat)]

    def search(self, state: State, seat: int) -> tuple:
        """(the search, its root) for the seat's bid at this position."""
        rng = self.decision_rng(state, seat, "bid")
        if self.selection == "br":
            search = BestResponse(rng, shape=self.shape)
        elif self.selection == "brc":
            search = BestResponse(rng, shape=self.shape, crn=True)
        elif self.selection == "eq":
            search = Equilibrium(rng, prior=self.prior, shape=self.shape)
        elif self.selection == "adaptive":
            search = self.adaptive(rng, self.shape, self.split, self.betas, self.fit(seat, state.players),
                                   self.searcher)
            search.greedy, search.cut = self.greedy, self.cut
            root = search.run(state, seat, self.playouts(state.players))
            _remember(self._key(state, seat), root)
            return search, root
        else:
            search = Search(rng, self.selection, shape=self.shape)
        search.greedy, search.cut = self.greedy, self.cut
        return search, search.run(state, seat, self.playouts(state.players))

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

    def bid_cards(self, state: State, seats: tuple) -> list:
        return [self.bid_card(state, s) for s in seats]

    # -- adaptive: the model of the others, fitted to this game's bids ---------------------------

    def _key(self, state: State, seat: int) -> tuple:
        return (self.seed, self.budget, self.split, self.searcher, self.cut, self.cut_playouts, state.players,
                state.options, state._snapshot(), seat)

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

    def fit(self, seat: int, players: int) -> dict:
        """Per other seat, the weight of each model (the heuristic, then each sharpened
        searcher): how well each explained that seat's last ``window`` revealed bids
        (likelihoods, each mixed with ``floor`` of a uniform bid so one surprise is not fatal)."""
        out = {}
        floor, betas = self.floor, self.betas
        past = self.past[-self.window:]
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


LEVELS = ("easy", "strong")
# The strong level's method (docs/assistant-player.md, "The league").
STRONG = {"selection": "adaptive", "searcher": "duct", "shape": 0.5, "greedy": True, "split": 0.5,
          "betas": (0.0, 1.0, 3.0, 12.0), "window": 16, "floor": 0.2, "cut": 4, "cut_playouts": 2}
PAST = STRONG["window"]  # how many of the game's last bidding turns a decision reads


def public_bids(state: State, last: int = PAST) -> tuple:
    """The game's last ``last`` revealed bids, oldest first: (the position they were made
    at, the bids as card ints). Read from a state that keeps its moves (the table's, a
    replay's); public: every one of them was revealed (pending bids are not moves)."""
    out = []
    moves, history = state.moves, state.history
    for i in range(len(moves) - 1, -1, -1):
        if len(out) == last:
            break
        move = moves[i]
        if isinstance(move, Bids):
            position = State.__new__(State)
            position._restore(history[i])
            position.players, position.options, position._table = state.players, state.options, state._table
            position.history, position.moves = [], []
            out.append((position, tuple(CARD_INDEX[c] if isinstance(c, str) else c for c in move.cards)))
    out.reverse()
    return tuple(out)


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
    search = Search(rng, "choice", shape=settings["shape"])
    search.greedy, search.cut = settings["greedy"], settings["cut"]
    sums = [0.0] * len(kinds)
    n = playouts(budget, state.players, search.cut, settings["cut_playouts"])
    for _ in range(max(1, (n // 2) // len(kinds))):
        deal = rng.getrandbits(32)
        for i, k in enumerate(kinds):
            position = state.copy()
            position.play_choice(k)
            sub = random.Random(deal)  # every kind on the same deal and playout seed
            search.random = sub.random
            search.advance(position)
            outcome = position.outcome if position.phase is OVER else search.play_out(position, sub)
            sums[i] += search.rewards(outcome, state.players)[seat]
    return kinds[max(range(len(kinds)), key=sums.__getitem__)]


def _position_rng(seed: int, what: str, state: State, seat: int) -> random.Random:
    key = (seed, what, seat, state.round, state.turn, tuple(state.unseen), tuple(state.display),
           tuple(state.spent), tuple(state.chips), tuple(tuple(g) for g in state.gardens))
    return random.Random(repr(key))  # a string seed is hashed with SHA-512: the same everywhere


def warm_up() -> None:
    """Build what the first search would (the assistant's worker calls it at start)."""
    from pitable.rules.grasshopper import _permutations

    _permutations()


def _greedy_kind(state: State) -> int:
    """The kind the heuristic's measure likes best for the chooser."""
    garden, display = state.gardens[state.choosers[0]], state.display
    best, pick = -1e9, 0
    for k in state._present:
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


def playout_greedy(state: State, rng: random.Random):
    """Random bids to the end, like :meth:`State.playout`, but every chooser takes the kind
    the heuristic's measure likes best (nobody takes a plague while something else is
    there): a random chooser makes gardens die that people would keep."""
    return state.playout(rng, choose=_greedy_kind)


def strategy(state: State, seat: int, seed: int, budget: int = DEFAULT_BUDGET, past: tuple = ()) -> tuple:
    """The strong level's strategy at the position: (cards, probabilities).

    What a best response that models the strong player asks (league/bots.py, ``exploit``)."""
    return _strong(seed, budget, past).strategy(state, seat)
