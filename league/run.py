"""The league's round-robin: seeded tables over 2, 3 and 4 players, every seat rotated.

Prints a rating per bot with its interval (openskill's Plackett-Luce model, a test/bench
extra), the head-to-head win rates with Wilson 95% intervals, and the CPU time per bid.
Every game's deck and every bot's seed come from (seed, table, game): the same numbers
on every machine, whatever ``jobs``.
"""

from __future__ import annotations

import itertools
import math
import random
import sys
import time

from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL, State, VirtualDeck

# Bots of the league and the levels of pitable's Pi player. Budgets: playouts (or iterations)
# per bid; the search bots get about the CPU per bid of pitable's strong level.
ENTRANTS = ("strong", "easy", "ismcts", "regret", "sensible", "heuristic", "random")
FOCUS = ("strong", "easy")  # the players the league is for: they meet everyone at every size


def make(name: str, seed: int, budgets: dict):
    from league import bots

    if name in ("strong", "easy"):
        return PiPlayer(name, seed, budgets.get(name))
    if name.startswith("sb-"):  # a candidate: sb-SELECTION[-PRIOR], e.g. sb-eq-0.3
        from league.baselines import BaselineBot

        parts = name.split("-")
        return BaselineBot(random.Random(seed), budgets.get(name, budgets.get("strong", 200)), parts[1],
                         seed=seed, prior=float(parts[2]) if len(parts) > 2 else 0.0,
                         shape=float(parts[3]) if len(parts) > 3 else 0.0, greedy="g" in parts[4:])
    if name == "ismcts":
        return bots.ISMCTSBot(seed, budgets.get("ismcts", 400))
    if name == "regret":
        return bots.RegretBot(seed, budgets.get("regret", 400))
    if name == "sensible":
        return bots.SensibleBot(seed)
    if name == "exploit":
        return bots.ExploitBot(seed, budgets.get("exploit", 400), budgets.get("strong"))
    from pitable.sim.grasshopper import BOTS

    return BOTS[name](random.Random(seed))


class PiPlayer:
    """The Pi's own decisions, exactly as the table makes them (pitable.sim.search.decide)."""

    def __init__(self, level: str, seed: int, budget: int | None):
        from pitable.sim import search

        self.level, self.seed = level, seed
        self.budget = search.DEFAULT_BUDGET if budget is None else budget
        self._decide, self._choice = search.decide, search.decide_choice
        self.past: tuple = ()

    def bid_card(self, state: State, seat: int) -> int:
        return self._decide(state, seat, self.level, self.seed, self.budget, self.past)

    def choose_kind(self, state: State, seat: int) -> int:
        return self._choice(state, seat, self.level, self.seed, self.budget)


def budgets_at(budgets: dict, players: int) -> dict:
    """The budgets at a table of ``players``: ``"BOT@P"`` entries (``--budget P:BOT=N``) over
    the plain ones, so that a search bot can get the CPU per bid strong takes at that size."""
    out = {k: v for k, v in budgets.items() if "@" not in k}
    out.update({k.partition("@")[0]: v for k, v in budgets.items() if k.endswith(f"@{players}")})
    return out


def play_game(names: tuple, seed: str, budgets: dict) -> tuple:
    """One game; returns (winners, ranks, cpu seconds per bid per seat, bids per seat).

    Bots with a ``past`` attribute are handed the game's last revealed bids before each of
    theirs, as the table hands them to the Pi (pitable.sim.search.public_bids)."""
    from pitable.sim.search import PAST

    rng = random.Random(seed)
    players = len(names)
    budgets = budgets_at(budgets, players)
    agents = [make(n, rng.getrandbits(32), budgets) for n in names]
    deck = VirtualDeck(rng.getrandbits(32))
    state = State(players)
    cpu = [0.0] * players
    bids_made = [0] * players
    past: list = []
    clock = time.process_time
    while True:
        phase = state.phase
        if phase is REVEAL:
            k = deck.order[66 - state.pile]
            state.play_reveals((k,))
        elif phase is BIDDING:
            bids = []
            for s, a in enumerate(agents):
                if hasattr(a, "past"):
                    a.past = tuple(past[-PAST:])  # the game's revealed bids: public
                t = clock()
                bids.append(a.bid_card(state.copy(), s))
                cpu[s] += clock() - t
                bids_made[s] += 1
            past.append((state.copy(), tuple(bids)))
            state.play_bids(tuple(bids))
        elif phase is CHOOSING:
            s = state.choosers[0]
            state.play_choice(agents[s].choose_kind(state.copy(), s))
        else:
            break
    out = state.outcome
    key = {s: (out.chips[s], -out.grasshoppers[s]) for s in range(players)}
    ranks = [1 + sum(1 for q in range(players) if key[q] > key[s]) for s in range(players)]
    return out.winners, ranks, cpu, bids_made


BEST_RESPONSES = {"exploit": "strong"}  # bots that only make sense against the one they model


def schedule(entrants: tuple, focus: tuple, games: dict, sizes=(2, 3, 4), all_pairs: bool = True) -> list:
    """Tables: (players, names per seat, games). 2 players: every pair (or only the focus
    players' pairs); 3 and 4: each focus player against copies of every other entrant.
    Seats rotate game by game. A best response meets only the player it models, at 2."""
    tables = []
    if 2 in sizes:
        for a, b in itertools.combinations(entrants, 2):
            if not all_pairs and a not in focus and b not in focus:
                continue
            if BEST_RESPONSES.get(a, b) != b or BEST_RESPONSES.get(b, a) != a:
                continue
            n = games.get((2, a, b), games.get((2, b, a), games[2]))
            if n:
                tables.append((2, (a, b), n))
    for p in (3, 4):
        if p not in sizes:
            continue
        for f in focus:
            for o in entrants:
                if o in BEST_RESPONSES or o == f or (o in focus and focus.index(o) < focus.index(f)):
                    continue
                n = games.get((p, f, o), games[p])
                if n:
                    tables.append((p, (f,) + (o,) * (p - 1), n))
    return tables


def _job(job: tuple) -> tuple:
    seed, t, g, players, names, budgets = job
    rot = g % players
    seats = names[rot:] + names[:rot]  # the first name sits at seat (players - rot) % players
    winners, ranks, cpu, bids = play_game(seats, f"{seed}/{t}/{g}", budgets)
    return t, g, seats, winners, ranks, cpu, bids


def run(seed: int = 1, entrants: tuple = ENTRANTS, focus: tuple = FOCUS, games: dict | None = None,
        budgets: dict | None = None, jobs: int = 1, sizes=(2, 3, 4), out=None,
        all_pairs: bool = True, deadline: float | None = None, record_to: str | None = None,
        resume: bool = False) -> dict:
    """Play the league. ``resume``: the games ``record_to`` already holds (the same table and
    game number, played from the same seed) count as played and are not played again."""
    games = games or {2: 20, 3: 12, 4: 12}
    budgets = budgets or {}
    tables = schedule(tuple(entrants), tuple(focus), games, sizes, all_pairs)
    done = {(r[0], r[1]): r for r in read_record(record_to)} if resume and record_to else {}
    results = [r for r in done.values() if r[0] < len(tables) and r[1] < tables[r[0]][2]]
    for r in results:
        if sorted(r[2]) != sorted(tables[r[0]][1]):
            raise ValueError(f"{record_to}: game {r[0]}/{r[1]} was played at another table ({', '.join(r[2])}); "
                             "resume with the options it was recorded with")
    work = [(seed, t, g, p, names, budgets) for t, (p, names, n) in enumerate(tables) for g in range(n)
            if (t, g) not in done]
    # In step across the tables (by the share of each table played): a run stopped at its
    # deadline has played the same share of every table.
    work.sort(key=lambda j: ((j[2] + 0.5) / tables[j[1]][2], j[1]))
    stop = None if deadline is None else time.monotonic() + deadline
    record = open(record_to, "a") if record_to else None
    if record is not None:
        # the code the games below are played with: a record can be replayed at that commit
        _record(record, {"played_at": played_at(), "seed": seed})
    try:
        if jobs > 1:
            import multiprocessing

            pool = multiprocessing.get_context("fork").Pool(jobs)
            try:
                for r in pool.imap_unordered(_job, work, chunksize=1):
                    results.append(r)
                    _record(record, r)
                    if stop is not None and time.monotonic() > stop:
                        break
            finally:
                pool.terminate()
        else:
            for j in work:
                r = _job(j)
                results.append(r)
                _record(record, r)
                if stop is not None and time.monotonic() > stop:
                    break
    finally:
        if record:
            record.close()
    if len(results) < sum(n for _, _, n in tables):
        print(f"stopped at the deadline: {len(results)} of {sum(n for _, _, n in tables)} games played",
              file=out or sys.stdout)
    return summarise(tables, results, out)


def read_record(path: str) -> list:
    """The results a ``--record`` file holds (a missing file holds none)."""
    import json
    import os

    if not os.path.exists(path):
        return []
    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    # a dict line names the commit the games after it were played at (played_at)
    return [tuple(tuple(x) if isinstance(x, list) else x for x in r) for r in rows if isinstance(r, list)]


def record_commits(path: str) -> list:
    """The commits a ``--record`` file's games were played at, in the order it names them."""
    import json

    with open(path) as f:
        rows = [json.loads(line) for line in f if line.strip()]
    return [r["played_at"] for r in rows if isinstance(r, dict) and "played_at" in r]


def played_at() -> dict:
    """The commit of the repository this league runs from, and whether files were changed
    since (``dirty``: the games are then not quite that commit's)."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent

    def git(*args):
        try:
            out = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return out.stdout.strip() if out.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    changed = git("status", "--porcelain", "--untracked-files=no", "--", "pitable", "league")
    return {"commit": commit, "dirty": bool(changed) if changed is not None else None}


def _record(f, r) -> None:
    if f is not None:
        import json

        f.write(json.dumps(r) + "\n")
        f.flush()


def wilson(wins: float, n: int, z: float = 1.96) -> tuple:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, c - h), min(1.0, c + h)


def summarise(tables: list, results: list, out=None) -> dict:
    focus = {names[0] for p, names, _ in tables if p > 2}
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    names = sorted({n for _, ns, _ in tables for n in ns})
    ratings = {n: model.rating(name=n) for n in names}
    h2h: dict = {}  # (players, focus, opponent) -> [wins of focus, games]
    cpu = {n: [0.0, 0] for n in names}
    for t, g, seats, winners, ranks, c, b in sorted(results, key=lambda r: (r[0], r[1])):
        players, tnames, _ = tables[t]
        for s, n in enumerate(seats):
            cpu[n][0] += c[s]
            cpu[n][1] += b[s]
        # openskill: every seat is a team of one; distinct bots of the same name share a rating.
        distinct = len(set(seats)) == len(seats)
        if distinct:
            new = model.rate([[ratings[n]] for n in seats], ranks=list(ranks))
            for n, team in zip(seats, new):
                ratings[n] = team[0]
        else:
            # copies of one bot: rate the single one against its copies' best placing
            f = tnames[0]
            fs = seats.index(f)
            other = min(r for s, r in enumerate(ranks) if s != fs)
            o = next(n for n in seats if n != f)
            new = model.rate([[ratings[f]], [ratings[o]]], ranks=[ranks[fs], other])
            ratings[f], ratings[o] = new[0][0], new[1][0]
        share = 1.0 / len(winners)
        for f in set(seats):
            if players == 2:
                o = next(n for n in seats if n != f) if seats[0] != seats[1] else f
                key = (2, f, o)
            else:
                if f != tnames[0]:
                    continue
                key = (players, f, tnames[1])
            w = sum(share for s in winners if seats[s] == f)
            e = h2h.setdefault(key, [0.0, 0])
            e[0] += w
            e[1] += 1
    lines = ["rating (openskill Plackett-Luce: mu, 95% interval mu +- 2 sigma), best first"]
    for n in sorted(names, key=lambda n: -ratings[n].mu):
        r = ratings[n]
        lines.append(f"  {n:<10} {r.mu:6.2f}  [{r.mu - 2 * r.sigma:6.2f}, {r.mu + 2 * r.sigma:6.2f}]")
    lines.append("head to head: wins of the row bot (ties shared), Wilson 95% interval, games")
    for (p, f, o), (w, n) in sorted(h2h.items(), key=lambda kv: (kv[0][1] not in focus, kv[0])):
        if p == 2 and f not in focus and (o in focus or o < f):
            continue  # each pair once: from a focus player's side, else alphabetically
        lo, hi = wilson(w, n)
        against = o if p == 2 else f"{p - 1} x {o}"
        lines.append(f"  {p}p {f:<9} vs {against:<14} {100 * w / n:5.1f}%  [{100 * lo:4.1f}, {100 * hi:4.1f}]  {n}")
    lines.append("CPU per bid (ms, process time on this machine)")
    for n in names:
        total, count = cpu[n]
        lines.append(f"  {n:<10} {1000 * total / max(1, count):8.2f}  ({count} bids)")
    print("\n".join(lines), file=out or sys.stdout)
    return {"ratings": {n: (ratings[n].mu, ratings[n].sigma) for n in names},
            "h2h": {f"{p}p {f} vs {o}": (w, n) for (p, f, o), (w, n) in h2h.items()},
            "cpu_ms_per_bid": {n: 1000 * cpu[n][0] / max(1, cpu[n][1]) for n in names}}


def main(argv=None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="pitable league", description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--games", default="20,12,12", metavar="G2,G3,G4",
                   help="games per table at 2, 3 and 4 players (seats rotate game by game)")
    p.add_argument("--bots", default=",".join(ENTRANTS), help="entrants, comma-separated")
    p.add_argument("--focus", default=",".join(FOCUS), help="who meets copies of everyone at 3 and 4 players")
    p.add_argument("--sizes", default="2,3,4")
    p.add_argument("--budget", action="append", default=[], metavar="[P:]BOT=N",
                   help="playouts per bid of a search bot (strong, ismcts, regret, exploit); "
                        "P: at tables of P players only, e.g. 4:ismcts=300")
    p.add_argument("--jobs", type=int, default=1)
    p.add_argument("--pairs", choices=("all", "focus"), default="all",
                   help="2 players: every pair of entrants, or only the focus players' pairs")
    p.add_argument("--table", action="append", default=[], metavar="P:A,B=N",
                   help="games at one table, e.g. 2:strong,ismcts=120 or 4:strong,regret=80")
    p.add_argument("--deadline", type=float, metavar="SECONDS",
                   help="stop starting games after this long and rate what was played")
    p.add_argument("--record", metavar="FILE", help="append every game's result to FILE (JSON Lines)")
    p.add_argument("--resume", action="store_true",
                   help="with --record: the games FILE already holds are not played again, but counted")
    p.add_argument("--summarise", metavar="FILE",
                   help="play nothing: rate the games a --record FILE holds (the same other options)")
    a = p.parse_args(argv)
    g = [int(x) for x in a.games.split(",")]
    budgets = {}
    for item in a.budget:
        k, _, v = item.partition("=")
        size, _, bot = k.rpartition(":")
        budgets[f"{bot}@{int(size)}" if size else bot] = int(v)
    games = {2: g[0], 3: g[1], 4: g[2]}
    for item in a.table:
        spec, _, n = item.partition("=")
        size, _, names = spec.partition(":")
        pair = names.split(",")
        games[(int(size), pair[0], pair[1])] = int(n)
    if a.summarise:
        tables = schedule(tuple(a.bots.split(",")), tuple(a.focus.split(",")), games,
                          tuple(int(x) for x in a.sizes.split(",")), a.pairs == "all")
        results = read_record(a.summarise)
        print(f"{len(results)} of {sum(n for _, _, n in tables)} games", file=sys.stdout)
        summarise(tables, results)
        return 0
    run(a.seed, tuple(a.bots.split(",")), tuple(a.focus.split(",")), games,
        budgets, a.jobs, tuple(int(x) for x in a.sizes.split(",")), all_pairs=a.pairs == "all",
        deadline=a.deadline, record_to=a.record, resume=a.resume)
    return 0


if __name__ == "__main__":
    sys.exit(main())
