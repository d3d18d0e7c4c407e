"""One candidate (league/candidates.py) against copies of one league bot, seats rotated.

python -m league.match 'SPEC-JSON' OPP PLAYERS GAMES [OPPBUDGET] [SEED]   (POOL=N processes, 2)
SPEC: {"cls": a class of league/candidates.py, its keyword arguments...}. Prints the win
share with its Wilson interval and the CPU per bid of both sides. The second round's rows
used SEED x (and y where said).
"""
import sys, json, random, time, multiprocessing as mp
import league.run as L
from league import candidates as proto
from pitable.rules.grasshopper import BIDDING, CHOOSING, DECK_SIZE, REVEAL, State, VirtualDeck

SPEC, OPP, P, G, OB, SEED = {}, "heuristic", 2, 0, 200, "x"  # set by main (pool workers fork with them)


def _args(argv):
    global SPEC, OPP, P, G, OB, SEED
    SPEC = json.loads(argv[1]); OPP = argv[2]; P = int(argv[3]); G = int(argv[4])
    OB = int(argv[5]) if len(argv) > 5 else 200
    SEED = argv[6] if len(argv) > 6 else "x"

def play(names, seed, budgets):
    rng = random.Random(seed)
    players = len(names)
    agents = []
    for n in names:
        sd = rng.getrandbits(32)
        if n == "cand":
            sp = dict(SPEC); cls = getattr(proto, sp.pop("cls", "CandM"))
            agents.append(cls(sd, **sp))
        else:
            agents.append(L.make(n, sd, budgets))
    deck = VirtualDeck(rng.getrandbits(32))
    state = State(players)
    cpu = [0.0] * players; nb = [0] * players
    past = []
    clock = time.process_time
    while True:
        phase = state.phase
        if phase is REVEAL:
            state.play_reveals((deck.order[DECK_SIZE - state.pile],))
        elif phase is BIDDING:
            bids = []
            for s, a in enumerate(agents):
                if hasattr(a, "past"):  # the one bot protocol (league/run.py): the revealed bids so far
                    a.past = tuple(past)
                t = clock(); bids.append(a.bid_card(state.copy(), s)); cpu[s] += clock() - t; nb[s] += 1
            past.append((state.copy(), tuple(bids)))
            state.play_bids(tuple(bids))
        elif phase is CHOOSING:
            s = state.choosers[0]
            state.play_choice(agents[s].choose_kind(state.copy(), s))
        else:
            break
    return state.outcome.winners, cpu, nb

def job(g):
    names = ("cand",) + (OPP,) * (P - 1)
    rot = g % P
    seats = names[rot:] + names[:rot]
    winners, cpu, nb = play(seats, f"{SEED}/{OPP}/{P}/{g}", {OPP: OB, "strong": 200})
    c = seats.index("cand")
    share = (1.0 / len(winners)) if c in winners else 0.0
    oc = [i for i in range(P) if i != c]
    return share, cpu[c] / nb[c], sum(cpu[i] for i in oc) / sum(nb[i] for i in oc)

if __name__ == "__main__":
    _args(sys.argv)
    with mp.Pool(int(__import__("os").environ.get("POOL", "2"))) as pool:
        res = pool.map(job, range(G), chunksize=1)
    w = sum(r[0] for r in res); n = len(res)
    lo, hi = L.wilson(w, n)
    print(f"{json.dumps(SPEC)} vs {OPP} {P}p: {100*w/n:.1f}% [{100*lo:.0f},{100*hi:.0f}] n={n}  cpu/bid cand {1000*sum(r[1] for r in res)/n:.1f} ms opp {1000*sum(r[2] for r in res)/n:.1f} ms", flush=True)
