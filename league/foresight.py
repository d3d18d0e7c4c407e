"""How well each model of strong's foresees the bids of a league bot it does not model.

python -m league.foresight OPP PLAYERS GAMES [POSITIONS] [SEED]

Plays GAMES games of pitable's strong against copies of OPP (seats rotated, 200 playouts
a bid for both), keeps every bidding position with the bids made there, then scores each
model at up to POSITIONS of the opponents' bids: how often its likeliest card is the one
bid (top-1) and the mean log-likelihood of the bid (each model mixed with 20% of a uniform
bid, as strong's fit mixes it). The models are the ones strong's fit weighs: the first
search for every seat, run as root regret matching (``rm``, the second round's) or as the
tree search with decoupled UCT (``duct``, the third's), its strategy sharpened by a power;
the heuristic's exact odds; no preference (uniform). ``OPP again`` is the opponent itself
with another seed: how far its own bid can be foreseen at all.
"""

from __future__ import annotations

import math
import multiprocessing
import random
import sys

from pitable.rules.grasshopper import BIDDING, CHOOSING, HANDS, REVEAL, State, VirtualDeck
from pitable.sim import search
from pitable.sim.grasshopper import HeuristicBot

from league import baselines
from league import run as league

BUDGET = 200
_ARGS: tuple = ()  # (opponent, players, seed, games), set by main


def positions(g: int) -> list:
    """One game; each bidding position as (state, the game's revealed bids before it, the
    bids, strong's seat, strong's seed)."""
    opp, players, seed, _ = _ARGS
    names = ("strong",) + (opp,) * (players - 1)
    rot = g % players
    seats = names[rot:] + names[:rot]
    rng = random.Random(f"foresight/{seed}/{opp}/{players}/{g}")
    agents = [league.make(n, rng.getrandbits(32), {opp: BUDGET, "strong": BUDGET}) for n in seats]
    deck = VirtualDeck(rng.getrandbits(32))
    state, past, out = State(players), [], []
    me = seats.index("strong")
    while True:
        if state.phase is REVEAL:
            state.play_reveals((deck.order[66 - state.pile],))
        elif state.phase is BIDDING:
            for a in agents:
                if hasattr(a, "past"):
                    a.past = tuple(past[-search.PAST:])
            bids = tuple(a.bid_card(state.copy(), s) for s, a in enumerate(agents))
            out.append((state.copy(), tuple(past[-search.PAST:]), bids, me, agents[me].seed))
            past.append((state.copy(), bids))
            state.play_bids(bids)
        elif state.phase is CHOOSING:
            s = state.choosers[0]
            state.play_choice(agents[s].choose_kind(state.copy(), s))
        else:
            return out


def score(limit: int) -> dict:
    """model -> [sum of log-likelihoods, top-1 hits, bids scored]."""
    opp, players, _, games = _ARGS
    with multiprocessing.get_context("fork").Pool(2) as pool:  # workers fork with _ARGS
        games = pool.map(positions, range(games), chunksize=1)
    table: dict = {}

    def add(name, probs, i, n):
        row = table.setdefault(name, [0.0, 0, 0])
        row[0] += math.log(0.8 * probs[i] + 0.2 / n)
        row[1] += max(range(n), key=probs.__getitem__) == i
        row[2] += 1

    scored = 0
    for game in games:
        for state, past, bids, me, strong_seed in game:
            roots = {}
            for searcher in ("rm", "duct"):
                bot = baselines.BaselineBot(random.Random(0), BUDGET, seed=strong_seed,
                                            **dict(search.STRONG, searcher=searcher))
                roots[searcher] = bot.equilibrium_at(state, me)
            for s in range(players):
                hand = HANDS[state.spent[s]]
                if s == me or len(hand) == 1 or scored >= limit:
                    continue
                scored += 1
                i, n = hand.index(bids[s]), len(hand)
                for searcher, root in roots.items():
                    for beta in (1.0, 3.0, 12.0):
                        add(f"{searcher}^{beta:g}", search.sharpen(root.total[s], beta), i, n)
                odds = HeuristicBot.probabilities(state, s)
                add("heuristic", [odds.get(c, 0.0) for c in hand], i, n)
                add("no preference", [1.0 / n] * n, i, n)
                again = league.make(opp, 7919 * scored + 1, {opp: BUDGET}).bid_card(state.copy(), s)
                add(f"{opp} again", [1.0 if c == again else 0.0 for c in hand], i, n)
    return table


def main(argv=None) -> int:
    global _ARGS
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) < 3:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    opp, players, games = argv[0], int(argv[1]), int(argv[2])
    limit = int(argv[3]) if len(argv) > 3 else 400
    _ARGS = (opp, players, argv[4] if len(argv) > 4 else "f", games)
    table = score(limit)
    print(f"{opp}, {players} players, {games} games: the opponents' bids foreseen")
    print(f"  {'model':<16} {'top-1':>6} {'log-lik':>8}  bids")
    for name, (ll, hits, n) in sorted(table.items(), key=lambda kv: -kv[1][1]):
        print(f"  {name:<16} {100 * hits / n:5.1f}% {ll / n:8.3f}  {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
