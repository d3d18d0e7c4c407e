"""The candidates measured in the league's second round (docs/assistant-player.md), kept as
they were run, so that every row of its candidates table can be played again:
``python -m league.match '{"cls": "CandB", "choice_budget": 0, "betas": [1, 3, 12]}' ismcts 2 100``.

Prototypes, not the Pi's code: the chosen one is ``adaptive`` in pitable/sim/search.py
(``Real`` and ``RealX`` here call it; ``RealC`` adds a searched choice, the next lever).
Classes: ``Cand`` (eq, its playouts: greedy or all bidding like the heuristic), ``Cand2``
(+ searched choices), ``CandK`` (regret matching for all, then the best answer to the
others' likeliest cards), ``CandM`` (fitted: heuristic or searcher), ``CandM3`` (heuristic,
likeliest card, average), ``CandB`` (heuristic and sharpened averages), ``CandB2`` (without
its own seat in the first half). The fourth step's candidates are ``RealX`` settings
(``searcher``, ``betas``, ``split``) and ``RealHP`` (``halving``, ``pool``).
"""
import math, random
from pitable.rules.grasshopper import ACE, X, HANDS, REVEAL, BIDDING, CHOOSING, OVER
from pitable.sim.grasshopper import kind_value
from pitable.sim import search as S
from league import baselines as B

def heur_bid(state, seat, rand, noise=0.25):
    hand = HANDS[state.spent[seat]]
    if len(hand) == 1:
        return hand[0]
    garden = state.gardens[seat]
    whole = 0.0; best = -1e9; any_=False
    for k, n in enumerate(state.display):
        if n:
            v = kind_value(garden, k, n); whole += v
            if v > best: best = v
            any_=True
    if not any_: best = 0.0
    mask = state.spent[seat]
    has_ace = not mask >> ACE & 1
    has_x = not mask >> X & 1
    numbers = [c for c in hand if c < ACE]
    if has_ace and whole >= 5 and whole > best + 1.5:
        return ACE
    if has_x and (best <= 0 or (not has_ace and whole >= 6 and rand() < 0.3)):
        return X
    if not numbers:
        return hand[int(rand() * len(hand))]
    if best >= 3: pick = numbers[-1]
    elif best >= 1.5: pick = numbers[len(numbers) // 2]
    else: pick = numbers[0]
    if rand() < noise:
        pick = numbers[int(rand() * len(numbers))]
    return pick

def playout_policy(state, rng, noise=0.25):
    rand = rng.random
    players = state.players
    while True:
        phase = state.phase
        if phase is REVEAL:
            state.play_chance(rand)
        elif phase is BIDDING:
            state.play_bids(tuple([heur_bid(state, s, rand, noise) for s in range(players)]))
        elif phase is CHOOSING:
            state.play_choice(S._greedy_kind(state))
        else:
            return state.outcome

class EqP(B.Equilibrium):
    rollout = "greedy"
    noise = 0.25
    def play_out(self, state, rng):
        if self.rollout == "policy":
            return playout_policy(state, rng, self.noise)
        return B.playout_greedy(state, rng)

class Cand(B.BaselineBot):
    name = "cand"
    def __init__(self, seed, budget=200, prior=0.7, shape=0.5, rollout="greedy", noise=0.25, keep=0.1):
        super().__init__(random.Random(seed), budget, "eq", seed=seed, prior=prior, shape=shape, greedy=True)
        self.rollout, self.noise, self.keep = rollout, noise, keep
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqP(rng, prior=self.prior, shape=self.shape)
        s.rollout, s.noise = self.rollout, self.noise
        return s, s.run(state, seat, self.budget)

def choice_search(state, seat, rng, budget, shape=0.5, rollout="greedy"):
    kinds = list(state.choice_kinds)
    if len(kinds) == 1:
        return kinds[0]
    sums = [0.0] * len(kinds)
    srch = EqP(rng, shape=shape)
    srch.rollout = rollout
    players = state.players
    for _ in range(max(1, budget // len(kinds))):
        deal = rng.getrandbits(32)
        for i, k in enumerate(kinds):
            st = state.copy()
            st.play_choice(k)
            sub = random.Random(deal)
            srch.random = sub.random
            srch.advance(st)
            out = st.outcome if st.phase is OVER else srch.play_out(st, sub)
            sums[i] += srch.rewards(out, players)[seat]
    return kinds[max(range(len(kinds)), key=sums.__getitem__)]

class Cand2(Cand):
    def __init__(self, seed, choice_budget=100, **kw):
        super().__init__(seed, **kw)
        self.choice_budget = choice_budget
    def choose_kind(self, state, seat):
        if not self.choice_budget:
            return super().choose_kind(state, seat)
        rng = self.decision_rng(state, seat, "choice")
        return choice_search(state, seat, rng, self.choice_budget, self.shape, self.rollout)

class EqK(EqP):
    """Level-k: RM for all seats first (the others as searchers), then a best response to
    the others' modes (with prob q) or their RM strategies."""
    q = 0.8
    split = 0.5
    def run(self, root_state, seat, budget):
        root = S.Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng; rand = rng.random
        others = [s for s in range(players) if s != seat]
        used = it = 0
        b1 = int(budget * self.split)
        while used < b1:
            p = it % players
            it += 1
            bids = [0] * players; probs = [None] * players
            for s in range(players):
                pr = probs[s] = B._rm(root.regret[s])
                bids[s] = hands[s][S._draw(pr, rand())]
            u = self._paired(root_state, bids, p, hands[p], rng.getrandbits(32))
            used += len(hands[p]); self.random = rand
            pr = probs[p]; v = sum(a * b for a, b in zip(pr, u))
            for i in range(len(u)):
                root.regret[p][i] += u[i] - v; root.total[p][i] += pr[i]
        modes = {s: max(range(len(hands[s])), key=root.total[s].__getitem__) for s in others}
        self.modes = modes
        vals = [0.0] * len(hands[seat]); n = 0
        while used < budget or n == 0:
            bids = [0] * players
            for s in others:
                if rand() < self.q:
                    bids[s] = hands[s][modes[s]]
                else:
                    bids[s] = hands[s][S._draw(B._rm(root.regret[s]), rand())]
            u = self._paired(root_state, bids, seat, hands[seat], rng.getrandbits(32))
            used += len(hands[seat]); self.random = rand; n += 1
            for i in range(len(u)): vals[i] += u[i]
        self.vals = vals
        return root
    def final(self, node, p):
        v = self.vals
        return max(range(len(v)), key=v.__getitem__)

class CandK(Cand2):
    def __init__(self, seed, q=0.8, split=0.5, **kw):
        super().__init__(seed, **kw); self.q, self.split = q, split
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqK(rng, shape=self.shape); s.q, s.split = self.q, self.split
        s.rollout = self.rollout
        return s, s.run(state, seat, self.budget)

def heur_probs(state, seat):
    """The heuristic bot's exact bid distribution: {card: p}."""
    hand = HANDS[state.spent[seat]]
    if len(hand) == 1:
        return {hand[0]: 1.0}
    garden = state.gardens[seat]
    values = [kind_value(garden, k, n) for k, n in enumerate(state.display) if n]
    whole = sum(values); best = max(values, default=0.0)
    numbers = [c for c in hand if c < ACE]
    out = {}
    if ACE in hand and whole >= 5 and whole > best + 1.5:
        return {ACE: 1.0}
    mass = 1.0
    if X in hand:
        if best <= 0:
            return {X: 1.0}
        if ACE not in hand and whole >= 6:
            out[X] = 0.3; mass = 0.7
    if not numbers:
        for c in hand: out[c] = out.get(c, 0.0) + mass / len(hand)
        return out
    if best >= 3: pick = numbers[-1]
    elif best >= 1.5: pick = numbers[len(numbers) // 2]
    else: pick = numbers[0]
    out[pick] = out.get(pick, 0.0) + mass * 0.75
    for c in numbers: out[c] = out.get(c, 0.0) + mass * 0.25 / len(numbers)
    return out

_phase1 = {}

class EqM(EqK):
    """Level-k against a per-seat mixture: the heuristic (weight w_h) or a searcher."""
    weights = None
    def run(self, root_state, seat, budget):
        root = S.Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng; rand = rng.random
        others = [s for s in range(players) if s != seat]
        used = it = 0
        b1 = int(budget * self.split)
        while used < b1:
            p = it % players
            it += 1
            bids = [0] * players; probs = [None] * players
            for s in range(players):
                pr = probs[s] = B._rm(root.regret[s])
                bids[s] = hands[s][S._draw(pr, rand())]
            u = self._paired(root_state, bids, p, hands[p], rng.getrandbits(32))
            used += len(hands[p]); self.random = rand
            pr = probs[p]; v = sum(a * b for a, b in zip(pr, u))
            for i in range(len(u)):
                root.regret[p][i] += u[i] - v; root.total[p][i] += pr[i]
        self.root1 = root
        modes = {s: max(range(len(hands[s])), key=root.total[s].__getitem__) for s in others}
        w = self.weights or {}
        vals = [0.0] * len(hands[seat]); n = 0
        model = S.HeuristicBot(rng)
        while used < budget or n == 0:
            bids = [0] * players
            for s in others:
                r = rand()
                if r < w.get(s, 0.0):
                    bids[s] = model.bid_card(root_state, s)
                elif rand() < self.q:
                    bids[s] = hands[s][modes[s]]
                else:
                    bids[s] = hands[s][S._draw(B._rm(root.regret[s]), rand())]
            u = self._paired(root_state, bids, seat, hands[seat], rng.getrandbits(32))
            used += len(hands[seat]); self.random = rand; n += 1
            for i in range(len(u)): vals[i] += u[i]
        self.vals = vals
        return root

def search_probs(root, s, q):
    hand = root.hands[s]
    tot = root.total[s]
    mode = max(range(len(hand)), key=tot.__getitem__)
    rm = B._rm(root.regret[s])
    return {c: (q if i == mode else 0.0) + (1 - q) * rm[i] for i, c in enumerate(hand)}

class CandM(Cand2):
    """Keeps this game's public bid history; fits per seat heuristic-vs-searcher weights."""
    def __init__(self, seed, q=0.8, split=0.5, window=16, temper=1.0, wmax=0.95, pure=True, **kw):
        super().__init__(seed, **kw); self.q, self.split = q, split
        self.window, self.temper, self.wmax, self.pure = window, temper, wmax, pure
        self.past = []  # set by the game loop before each bid: the game's revealed bids
    def modes_at(self, state, seat):
        key = (self.seed, self.budget, state.position_key(), seat)
        r = _phase1.get(key)
        if r is None:
            rng = self.decision_rng(state, seat, "bid")
            s = EqM(rng, shape=self.shape); s.q, s.split = self.q, 1.0
            s.run(state, seat, int(self.budget * self.split))  # phase 1 only (budget = b1)
            r = _phase1[key] = s.root1
        return r
    def weights_for(self, seat, players):
        w = {}
        for s in range(players):
            if s == seat: continue
            lh = ls = 0.0
            for st, bids in self.past[-self.window:]:
                if len(HANDS[st.spent[s]]) == 1: continue
                ph = heur_probs(st, s).get(bids[s], 0.0)
                root = self.modes_at(st, seat)
                ps = search_probs(root, s, self.q).get(bids[s], 0.0)
                lh += math.log(ph * 0.9 + 0.1 / len(HANDS[st.spent[s]]))
                ls += math.log(ps * 0.9 + 0.1 / len(HANDS[st.spent[s]]))
            d = max(-30, min(30, self.temper * (lh - ls)))
            wh = 1.0 / (1.0 + math.exp(-d))
            w[s] = min(self.wmax, max(1 - self.wmax, wh))
        return w
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqM(rng, shape=self.shape); s.q, s.split = self.q, self.split
        s.weights = self.weights_for(seat, state.players)
        s.rollout = self.rollout
        root = s.run(state, seat, self.budget)
        _phase1[(self.seed, self.budget, state.position_key(), seat)] = s.root1
        return s, root

def avg_probs(root, s):
    t = root.total[s]; z = sum(t)
    hand = root.hands[s]
    return {c: (t[i] / z if z > 0 else 1.0 / len(hand)) for i, c in enumerate(hand)}

class EqM3(EqM):
    def run(self, root_state, seat, budget):
        root = S.Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng; rand = rng.random
        others = [s for s in range(players) if s != seat]
        used = it = 0
        b1 = int(budget * self.split)
        while used < b1:
            p = it % players
            it += 1
            bids = [0] * players; probs = [None] * players
            for s in range(players):
                pr = probs[s] = B._rm(root.regret[s])
                bids[s] = hands[s][S._draw(pr, rand())]
            u = self._paired(root_state, bids, p, hands[p], rng.getrandbits(32))
            used += len(hands[p]); self.random = rand
            pr = probs[p]; v = sum(a * b for a, b in zip(pr, u))
            for i in range(len(u)):
                root.regret[p][i] += u[i] - v; root.total[p][i] += pr[i]
        self.root1 = root
        modes = {s: max(range(len(hands[s])), key=root.total[s].__getitem__) for s in others}
        avgs = {}
        for s in others:
            t = root.total[s]; z = sum(t)
            avgs[s] = [x / z for x in t] if z > 0 else [1.0 / len(t)] * len(t)
        w = self.weights or {}
        vals = [0.0] * len(hands[seat]); n = 0
        model = S.HeuristicBot(rng)
        while used < budget or n == 0:
            bids = [0] * players
            for s in others:
                wh, wm, wa = w.get(s, (0.0, 0.5, 0.5))
                r = rand()
                if r < wh:
                    bids[s] = model.bid_card(root_state, s)
                elif r < wh + wm:
                    bids[s] = hands[s][modes[s]]
                else:
                    bids[s] = hands[s][S._draw(avgs[s], rand())]
            u = self._paired(root_state, bids, seat, hands[seat], rng.getrandbits(32))
            used += len(hands[seat]); self.random = rand; n += 1
            for i in range(len(u)): vals[i] += u[i]
        self.vals = vals
        return root

class CandM3(CandM):
    def modes_at(self, state, seat):
        key = (self.seed, self.budget, state.position_key(), seat)
        r = _phase1.get(key)
        if r is None:
            rng = self.decision_rng(state, seat, "bid")
            s = EqM3(rng, shape=self.shape); s.split = 1.0
            s.run(state, seat, int(self.budget * self.split))
            r = _phase1[key] = s.root1
        return r
    def weights_for(self, seat, players):
        w = {}
        for s in range(players):
            if s == seat: continue
            ll = [0.0, 0.0, 0.0]
            for st, bids in self.past[-self.window:]:
                n = len(HANDS[st.spent[s]])
                if n == 1: continue
                b = bids[s]
                root = self.modes_at(st, seat)
                hand = root.hands[s]; tot = root.total[s]
                mode = hand[max(range(len(hand)), key=tot.__getitem__)]
                ps = (heur_probs(st, s).get(b, 0.0), 1.0 if b == mode else 0.0, avg_probs(root, s).get(b, 0.0))
                for i in range(3):
                    ll[i] += math.log(ps[i] * 0.8 + 0.2 / n)
            top = max(ll)
            e = [math.exp(self.temper * (x - top)) for x in ll]
            z = sum(e)
            w[s] = tuple(x / z for x in e)
        return w
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqM3(rng, shape=self.shape); s.split = self.split
        s.weights = self.weights_for(seat, state.players)
        root = s.run(state, seat, self.budget)
        _phase1[(self.seed, self.budget, state.position_key(), seat)] = s.root1
        return s, root

def sharp(t, beta):
    z0 = sum(t)
    if z0 <= 0:
        return [1.0 / len(t)] * len(t)
    m = max(t)
    e = [(x / m) ** beta for x in t]
    z = sum(e)
    return [x / z for x in e]

class EqB(EqM):
    betas = (1.0, 4.0)
    skip = None
    def run(self, root_state, seat, budget):
        root = S.Node(root_state)
        hands = root.hands
        players = root_state.players
        rng = self.rng; rand = rng.random
        others = [s for s in range(players) if s != seat]
        order = [s for s in range(players) if s != self.skip]
        used = it = 0
        b1 = int(budget * self.split)
        while used < b1:
            p = order[it % len(order)]
            it += 1
            bids = [0] * players; probs = [None] * players
            for s in range(players):
                pr = probs[s] = B._rm(root.regret[s])
                bids[s] = hands[s][S._draw(pr, rand())]
            u = self._paired(root_state, bids, p, hands[p], rng.getrandbits(32))
            used += len(hands[p]); self.random = rand
            pr = probs[p]; v = sum(a * b for a, b in zip(pr, u))
            for i in range(len(u)):
                root.regret[p][i] += u[i] - v; root.total[p][i] += pr[i]
        self.root1 = root
        w = self.weights or {}
        nb = len(self.betas)
        dists = {s: [sharp(root.total[s], b) for b in self.betas] for s in others}
        vals = [0.0] * len(hands[seat]); n = 0
        model = S.HeuristicBot(rng)
        while used < budget or n == 0:
            bids = [0] * players
            for s in others:
                ws = w.get(s) or (1.0 / (nb + 1),) * (nb + 1)
                r = rand()
                if r < ws[0]:
                    bids[s] = model.bid_card(root_state, s)
                else:
                    r -= ws[0]
                    j = 0
                    while j < nb - 1 and r >= ws[1 + j]:
                        r -= ws[1 + j]; j += 1
                    bids[s] = hands[s][S._draw(dists[s][j], rand())]
            u = self._paired(root_state, bids, seat, hands[seat], rng.getrandbits(32))
            used += len(hands[seat]); self.random = rand; n += 1
            for i in range(len(u)): vals[i] += u[i]
        self.vals = vals
        return root

class CandB(CandM):
    def __init__(self, seed, betas=(1.0, 4.0), floor=0.2, **kw):
        super().__init__(seed, **kw); self.betas = tuple(betas); self.floor = floor
    def modes_at(self, state, seat):
        key = (self.seed, self.budget, state.position_key(), seat)
        r = _phase1.get(key)
        if r is None:
            rng = self.decision_rng(state, seat, "bid")
            s = EqB(rng, shape=self.shape); s.split = 1.0
            s.run(state, seat, int(self.budget * self.split))
            r = _phase1[key] = s.root1
        return r
    def weights_for(self, seat, players):
        w = {}
        nb = len(self.betas)
        for s in range(players):
            if s == seat: continue
            ll = [0.0] * (nb + 1)
            for st, bids in self.past[-self.window:]:
                n = len(HANDS[st.spent[s]])
                if n == 1: continue
                b = bids[s]
                root = self.modes_at(st, seat)
                hand = root.hands[s]; i = hand.index(b)
                ps = [heur_probs(st, s).get(b, 0.0)] + [sharp(root.total[s], be)[i] for be in self.betas]
                for j in range(nb + 1):
                    ll[j] += math.log(ps[j] * (1 - self.floor) + self.floor / n)
            top = max(ll)
            e = [math.exp(self.temper * (x - top)) for x in ll]
            z = sum(e)
            w[s] = tuple(x / z for x in e)
        return w
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqB(rng, shape=self.shape); s.split = self.split; s.betas = self.betas
        s.weights = self.weights_for(seat, state.players)
        root = s.run(state, seat, self.budget)
        _phase1[(self.seed, self.budget, state.position_key(), seat)] = s.root1
        return s, root

class CandB2(CandB):
    def search(self, state, seat):
        rng = self.decision_rng(state, seat, "bid")
        s = EqB(rng, shape=self.shape); s.split = self.split; s.betas = self.betas
        s.weights = self.weights_for(seat, state.players)
        s.skip = seat
        root = s.run(state, seat, self.budget)
        _phase1[(self.seed, self.budget, state.position_key(), seat)] = s.root1
        return s, root

def _modes_at_skip(self, state, seat):
    key = (self.seed, self.budget, state.position_key(), seat)
    r = _phase1.get(key)
    if r is None:
        rng = self.decision_rng(state, seat, "bid")
        s = EqB(rng, shape=self.shape); s.split = 1.0; s.skip = seat
        s.run(state, seat, int(self.budget * self.split))
        r = _phase1[key] = s.root1
    return r
CandB2.modes_at = _modes_at_skip

class Real:
    """The integrated strong (pitable.sim.search.decide) with the past the game loop sets."""
    def __init__(self, seed, **kw):
        self.seed = seed; self.past = []
    def bid_card(self, state, seat):
        return S.decide(state, seat, "strong", self.seed, 200, tuple(self.past[-16:]))
    def choose_kind(self, state, seat):
        return S.decide_choice(state, seat, "strong", self.seed)

class RealX(Real):
    """The integrated strong with STRONG overrides (its choices with them too, at budget 200)."""
    def __init__(self, seed, **kw):
        super().__init__(seed); self.kw = kw
    def choose_kind(self, state, seat):
        kw = {k: v for k, v in self.kw.items() if k != "budget"}
        return S.decide_choice(state, seat, "strong", self.seed, settings=dict(S.STRONG, **kw))
    def bid_card(self, state, seat):
        kw = dict(self.kw); b = kw.pop('budget', 200)
        bot = B.BaselineBot(random.Random(0), b, seed=self.seed, **dict(S.STRONG, **kw))
        bot.past = tuple(self.past[-16:])
        return bot.bid_card(state, seat)

class RealC(RealX):
    def __init__(self, seed, choice_budget=100, **kw):
        super().__init__(seed, **kw); self.cb = choice_budget
    def choose_kind(self, state, seat):
        rng = S._position_rng(self.seed, "choice", state, seat)
        return choice_search(state, seat, rng, self.cb, 0.5, "greedy")

# -- the fourth step's variants measured and left off (docs/assistant-player.md) ----------------

class AdaptiveHP(B.Adaptive):
    """``adaptive`` with ``halving`` (sequential halving of the cards over the answer's budget)
    or ``pool`` (the tree search's own values of its seat added into the answer)."""
    halving = pool = False

    def run(self, root_state, seat, budget):
        root = self.equilibrium(root_state, int(budget * self.split))
        hands, rng = root.hands, self.rng
        rand = rng.random
        even = (1.0 / (len(self.betas) + 1),) * (len(self.betas) + 1)
        models = {s: (self.weights.get(s, even), [S.sharpen(root.total[s], b) for b in self.betas])
                  for s in range(root_state.players) if s != seat}
        hand = hands[seat]
        used, left = self.used, budget - self.used
        sums, counts, alive = [0.0] * len(hand), [0] * len(hand), list(range(len(hand)))
        rounds = max(1, math.ceil(math.log2(len(hand)))) if self.halving else 1
        for rnd in range(rounds):
            last = rnd == rounds - 1
            samples = max(1, -(-(budget - used) // len(alive))) if last else max(1, left // (rounds * len(alive)))
            for _ in range(samples):
                bids = self.draw_others(root_state, hands, models)
                u = self._paired(root_state, bids, seat, [hand[i] for i in alive], rng.getrandbits(32))
                self.random = rand
                used += len(u)
                for i, x in zip(alive, u):
                    sums[i] += x
                    counts[i] += 1
            if not last:
                alive.sort(key=lambda i: -sums[i] / counts[i])
                alive = sorted(alive[:max(1, (len(alive) + 1) // 2)])
        if self.pool and self.searcher == "duct":
            own, visits = root.regret[seat], root.total[seat]
            self.values = [(sums[i] + own[i]) / (counts[i] + visits[i]) for i in range(len(hand))]
        else:
            self.values = [sums[i] / counts[i] if i in alive else -1.0 for i in range(len(hand))]
        return root


class RealHP(RealX):
    """The integrated strong with ``halving`` and/or ``pool`` (``AdaptiveHP``), other STRONG
    overrides as ``RealX``."""
    def __init__(self, seed, halving=False, pool=False, **kw):
        super().__init__(seed, **kw)
        self.variant = type("AdaptiveHPx", (AdaptiveHP,), {"halving": halving, "pool": pool})

    def bid_card(self, state, seat):
        kw = dict(self.kw); b = kw.pop('budget', 200)
        bot = B.BaselineBot(random.Random(0), b, seed=self.seed, **dict(S.STRONG, **kw))
        bot.adaptive = self.variant
        bot.past = tuple(self.past[-16:])
        return bot.bid_card(state, seat)

# -- the fifth step: what a 4-player playout says a position is worth -----------------------------

def playout_cut(state, rng, rounds=0, hold=0.4, lead=0.5):
    """Random bids (greedy choices) like State.playout, cut when ``rounds`` more rounds after
    the current one have ended; the position is then valued (pitable's ``estimate``, as it
    was written for this candidate first)."""
    outcome = state.playout(rng, choose=S._greedy_kind, stop_round=state.round + rounds + 1)
    return outcome or S.estimate(state, hold, lead)


class _CutMixin:
    rounds, hold, lead, min_players = 0, 0.4, 0.5, 4

    def play_out(self, state, rng):
        if state.players < self.min_players:
            return S.Search.play_out(self, state, rng)
        return playout_cut(state, rng, self.rounds, self.hold, self.lead)


class CutSearch(_CutMixin, B.BanditSearch):
    pass


class AdaptiveCut(_CutMixin, B.Adaptive):
    """``adaptive`` whose playouts (first search and answer) are cut and evaluated."""

    def equilibrium(self, root_state, budget):
        search = type("CutSearchX", (CutSearch,), {"rounds": self.rounds, "hold": self.hold,
                                                   "lead": self.lead, "min_players": self.min_players})(
            self.rng, "duct", shape=self.shape)
        search.greedy = self.greedy
        root = search.run(root_state, 0, budget)
        root.children = {}
        self.random = self.rng.random
        self.used = budget
        return root


class RealCut(RealX):
    """The integrated strong with cut playouts (``AdaptiveCut``) at ``min_players`` or more, its
    choices and its ``budget`` as the fourth step's (STRONG's own cut off: measured as it was run)."""
    def __init__(self, seed, rounds=0, hold=0.4, lead=0.5, min_players=4, **kw):
        super().__init__(seed, **kw)
        self.variant = type("AdaptiveCutX", (AdaptiveCut,), {"rounds": rounds, "hold": hold, "lead": lead,
                                                             "min_players": min_players})

    def choose_kind(self, state, seat):
        return S.decide_choice(state, seat, "strong", self.seed, settings=dict(S.STRONG, cut=0))

    def bid_card(self, state, seat):
        kw = dict(self.kw); b = kw.pop('budget', 200)
        bot = B.BaselineBot(random.Random(0), b, seed=self.seed, **dict(S.STRONG, cut=0, **kw))
        bot.adaptive = self.variant
        bot.past = tuple(self.past[-16:])
        return bot.bid_card(state, seat)
