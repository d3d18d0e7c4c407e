"""League bots, written for the league from the rules core only (not from pitable.sim.search).

Every bot has ``bid_card(state, seat) -> card int`` and ``choose_kind(state, seat) -> kind int``
and reads only the public state it is handed (a copy: it may play on it).

- ``ismcts``: information-set MCTS over sampled deals. One tree of public positions; every
  iteration samples the unseen pile afresh (a uniform draw per reveal is a uniform deal),
  every seat (its own included) picks its card with its own UCB1 bandit at each bidding
  node (decoupled, as in simultaneous-move MCTS), the chooser by UCB1 at a choice node;
  children are keyed by the next public position, random playouts below the tree. No fixed
  model of anyone.
- ``regret``: regret matching at the root, external sampling with common random numbers:
  each iteration samples a deal and the others' cards from their current regret-matching
  strategies, then plays every card of one seat (the seats take turns) on the same deal and
  the same playout seed and adds the regrets; all seats learn together. It bids by sampling
  its average strategy (a mixed strategy, as a CFR player does).
- ``sensible``: how a careful person plays: counts what the display is worth to them and to
  the others, keeps the Ace for a rich display, throws the X when someone with an Ace is
  likely to use it, avoids numbers the others are likely to play too, and never takes a
  plague when another kind is there.
- ``exploit``: a best response to pitable's ``strong``: it models every other seat as
  ``strong`` (strong's own code, asked for its strategy with a seed of its own, since
  strong's seed is not public, and with the game's revealed bids, which strong reads too)
  and scores each of its cards by playouts against that model.
"""

from __future__ import annotations

import math
import random

from pitable.rules.grasshopper import ACE, BIDDING, CHOOSING, GRASSHOPPER, HANDS, OVER, PLANTS, REVEAL, X, State

_K5 = (0, 1, 2, 3, 4)


def _draw_reveals(state: State, rand) -> None:
    """Reveals until the next decision, each a uniform draw from the unseen cards (the rules'
    chance step)."""
    state.play_chance(rand)


def _rewards(outcome, players: int) -> list:
    out = [0.0] * players
    share = 1.0 / len(outcome.winners)
    for w in outcome.winners:
        out[w] = share
    return out


def _position_rng(seed, what: str, state: State, seat: int) -> random.Random:
    key = (seed, what, seat, state.position_key())
    return random.Random(repr(key))


class _Node:
    __slots__ = ("seats", "options", "n", "w", "visits", "children")

    def __init__(self, state: State):
        if state.phase is BIDDING:
            self.seats = tuple(range(state.players))
            self.options = [HANDS[m] for m in state.spent]
        else:  # CHOOSING: one seat chooses
            self.seats = (state.choosers[0],)
            self.options = [tuple(state.choice_kinds)]
        self.n = [[0] * len(o) for o in self.options]
        self.w = [[0.0] * len(o) for o in self.options]
        self.visits = 0
        self.children: dict = {}


class ISMCTSBot:
    """Information-set MCTS over sampled deals, every seat searched (see the module doc)."""

    name = "ismcts"

    def __init__(self, seed: int = 0, budget: int = 400, c: float = 0.8):
        self.seed, self.budget, self.c = seed, budget, c

    def _select(self, node: _Node, i: int) -> int:
        n, w = node.n[i], node.w[i]
        k = len(n)
        if k == 1:
            return 0
        for a in range(k):
            if not n[a]:
                return a
        log_n = math.log(node.visits)
        c = self.c
        return max(range(k), key=lambda a: w[a] / n[a] + c * math.sqrt(log_n / n[a]))

    def search(self, root_state: State, seat: int, what: str, budget: int) -> int:
        rng = _position_rng(self.seed, what, root_state, seat)
        rand = rng.random
        root = _Node(root_state)
        players = root_state.players
        for _ in range(budget):
            state = root_state.copy()
            node = root
            path = []
            while True:
                picks = [self._select(node, i) for i in range(len(node.seats))]
                path.append((node, picks))
                if state.phase is BIDDING:
                    state.play_bids(tuple(node.options[i][a] for i, a in enumerate(picks)))
                else:
                    state.play_choice(node.options[0][picks[0]])
                _draw_reveals(state, rand)
                if state.phase is OVER:
                    break
                key = state.position_key()
                child = node.children.get(key)
                if child is None:
                    node.children[key] = _Node(state)
                    break
                node = child
            outcome = state.outcome if state.phase is OVER else state.playout(rng)
            rewards = _rewards(outcome, players)
            for node, picks in path:
                node.visits += 1
                for i, a in enumerate(picks):
                    node.n[i][a] += 1
                    node.w[i][a] += rewards[node.seats[i]]
        i = root.seats.index(seat)
        counts = root.n[i]
        return root.options[i][max(range(len(counts)), key=counts.__getitem__)]

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand[0]
        return self.search(state, seat, "bid", self.budget)

    def choose_kind(self, state: State, seat: int) -> int:
        return self.search(state, seat, "choose", max(1, self.budget // 2))


class RegretBot:
    """Root regret matching, external sampling with common random numbers (module doc)."""

    name = "regret"

    def __init__(self, seed: int = 0, budget: int = 400):
        self.seed, self.budget = seed, budget

    def strategy(self, root_state: State, seat: int, budget: int, rng: random.Random) -> tuple:
        players = root_state.players
        hands = [HANDS[m] for m in root_state.spent]
        regret = [[0.0] * len(h) for h in hands]
        total = [[0.0] * len(h) for h in hands]
        rand = rng.random
        used = it = 0
        while used < budget:
            p = it % players
            it += 1
            sigma = [_rm(r) for r in regret]
            bids = [h[_sample(s, rand())] for h, s in zip(hands, sigma)]
            deal = rng.getrandbits(32)
            u = []
            for card in hands[p]:
                state = root_state.copy()
                bids[p] = card
                state.play_bids(tuple(bids))
                prng = random.Random(deal)
                _advance_greedy(state, prng.random)
                outcome = state.outcome if state.phase is OVER else state.playout(prng)
                u.append(_rewards(outcome, players)[p])
                used += 1
            v = sum(q * x for q, x in zip(sigma[p], u))
            rp, tp = regret[p], total[p]
            for a in range(len(u)):
                rp[a] += u[a] - v
                tp[a] += sigma[p][a]
        return hands[seat], total[seat]

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand[0]
        rng = _position_rng(self.seed, "bid", state, seat)
        hand, total = self.strategy(state, seat, self.budget, rng)
        s = sum(total)
        return hand[_sample([t / s for t in total], rng.random())] if s > 0 else hand[0]

    def choose_kind(self, state: State, seat: int) -> int:
        return greedy_choice(state, seat)


def _rm(regret: list) -> list:
    pos = [r if r > 0 else 0.0 for r in regret]
    s = sum(pos)
    n = len(regret)
    return [x / s for x in pos] if s > 0 else [1.0 / n] * n


def _sample(probs, r: float) -> int:
    for i, q in enumerate(probs):
        r -= q
        if r < 0:
            return i
    return len(probs) - 1


def _advance_greedy(state: State, rand) -> None:
    """Choices made greedily, reveals drawn, up to the next bids."""
    while True:
        if state.phase is CHOOSING:
            state.play_choice(greedy_choice(state, state.choosers[0]))
        elif state.phase is REVEAL:
            _draw_reveals(state, rand)
        else:
            return


def greedy_choice(state: State, seat: int) -> int:
    """Chips now first, then the kind the garden collects most of; a plague only if forced."""
    garden = state.gardens[seat]
    best, pick = None, None
    for k in state.choice_kinds:
        n = state.display[k]
        if k == GRASSHOPPER:
            score = -100.0 if garden[0] + n >= 3 else -1.0 - n
        else:
            have = garden[k] + n
            score = 10.0 * (have // 3) + have % 3 + 0.1 * n
        if best is None or score > best:
            best, pick = score, k
    return pick


def worth(garden, display) -> float:
    """What the whole display is worth to a garden, in rough chips."""
    plants = sum(garden[k] for k in PLANTS)
    value = 0.0
    hoppers = garden[GRASSHOPPER] + display[GRASSHOPPER]
    for k in PLANTS:
        n = display[k]
        if n:
            have = garden[k] + n
            value += have // 3 - garden[k] // 3 + 0.3 * (have % 3) + 0.15 * n
    if display[GRASSHOPPER]:
        value -= (plants + value) if hoppers >= 3 else 0.3 * display[GRASSHOPPER]
    return value


def best_kind_worth(garden, display) -> float:
    best = -9.0
    for k in _K5:
        if display[k]:
            one = [0] * 5
            one[k] = display[k]
            best = max(best, worth(garden, one))
    return best


class SensibleBot:
    """A careful person's rules of thumb (module doc). Deterministic but for its seeded dice."""

    name = "sensible"

    def __init__(self, seed: int = 0):
        self.seed = seed

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand[0]
        rng = _position_rng(self.seed, "bid", state, seat)
        display, gardens = state.display, state.gardens
        mine_all = worth(gardens[seat], display)
        mine_one = best_kind_worth(gardens[seat], display)
        others = [s for s in range(state.players) if s != seat]
        their = max(worth(gardens[s], display) for s in others)
        aces_out = [s for s in others if ACE in HANDS[state.spent[s]]]
        xs_out = [s for s in others if X in HANDS[state.spent[s]]]
        numbers = [c for c in hand if c < ACE]
        # Someone will want this display badly and still holds the Ace: catch it with the X.
        if X in hand and aces_out and their >= 1.5 and mine_all > 0 and rng.random() < 0.6:
            return X
        if ACE in hand and mine_all >= 1.2 and (not xs_out or rng.random() < 0.5) \
                and (mine_all > mine_one + 0.4 or len(numbers) <= 1):
            return ACE
        if mine_one <= 0.2 or not numbers:
            # Nothing here for me: spend what matters least (the X if nobody can use an Ace on it).
            if X in hand and not (aces_out and their >= 1.5):
                return X
            return numbers[0] if numbers else hand[0]
        # A number: as high as the display deserves, but not one the others are likely to
        # play too (a cancelled card takes nothing).
        want = min(len(numbers) - 1, int(mine_one * len(numbers) / 1.5))
        taken = {}
        for s in others:
            oh = [c for c in HANDS[state.spent[s]] if c < ACE]
            if oh:
                guess = oh[min(len(oh) - 1, int(worth(gardens[s], display) * len(oh) / 1.5))] \
                    if worth(gardens[s], display) > 0.2 else oh[0]
                taken[guess] = taken.get(guess, 0) + 1
        order = sorted(range(len(numbers)), key=lambda i: (abs(i - want) + (2 if numbers[i] in taken else 0),
                                                         -i))
        return numbers[order[0]]

    def choose_kind(self, state: State, seat: int) -> int:
        return greedy_choice(state, seat)


class ExploitBot:
    """A best response to ``strong``: the others are modelled as pitable's strong player."""

    name = "exploit"

    def __init__(self, seed: int = 0, budget: int = 400, strong_budget: int | None = None):
        self.seed, self.budget, self.strong_budget = seed, budget, strong_budget
        self.past: tuple = ()  # the game's revealed bids, which strong reads too

    def bid_card(self, state: State, seat: int) -> int:
        from league import baselines
        from pitable.sim import search

        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return hand[0]
        rng = _position_rng(self.seed, "bid", state, seat)
        budget = self.strong_budget or search.DEFAULT_BUDGET
        models = {}
        for s in range(state.players):
            if s != seat:
                # strong's own mixed strategy at this position, from a seed of ours
                models[s] = baselines.strategy(state.copy(), s, rng.getrandbits(32), budget, self.past)
        sums = [0.0] * len(hand)
        counts = [0] * len(hand)
        players = state.players
        for it in range(self.budget):
            i = it % len(hand)
            bids = [0] * players
            bids[seat] = hand[i]
            for s, (cards, probs) in models.items():
                bids[s] = cards[_sample(probs, rng.random())]
            st = state.copy()
            st.play_bids(tuple(bids))
            _advance_greedy(st, rng.random)
            outcome = st.outcome if st.phase is OVER else st.playout(rng)
            sums[i] += _rewards(outcome, players)[seat]
            counts[i] += 1
        return hand[max(range(len(hand)), key=lambda i: sums[i] / counts[i])]

    def choose_kind(self, state: State, seat: int) -> int:
        return greedy_choice(state, seat)
