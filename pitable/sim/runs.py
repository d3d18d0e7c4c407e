"""Seeded runs of many Grasshopper Poker games by bot name (``pitable simulate``): the bots
of :mod:`pitable.sim.grasshopper` and the Pi's strong player (:mod:`pitable.sim.search`).

Apart from both so that neither sim module imports the other's user: the search builds on
the bots, and this module on both."""

from __future__ import annotations

import random

from pitable.rules.grasshopper import Options
from pitable.sim.grasshopper import BOTS, format_stats, play_fast
from pitable.sim.search import DEFAULT_BUDGET, StrongBot

__all__ = ["BOT_NAMES", "CHUNK", "format_stats", "make_bot", "simulate"]

BOT_NAMES = ("random", "heuristic", "strong")

CHUNK = 100  # games per seeded chunk: the unit that --jobs spreads over processes


def make_bot(name: str, rng: random.Random, budget: int | None = None):
    """A bot by name (``BOT_NAMES``); ``budget``: the strong player's playouts per decision."""
    if name == "strong":
        return StrongBot(rng, DEFAULT_BUDGET if budget is None else budget)  # the Pi's player
    return BOTS[name](rng)


def _chunk(job: tuple) -> tuple:
    """Games ``start``..``stop`` of a simulation, with the chunk's own seeded rng."""
    seed, index, count, players, names, options, budget = job
    rng = random.Random(f"{seed}/{index}")  # a string seed: the same on every machine
    made: dict = {}  # one bot object per name: it plays all its seats
    agents = [made.get(name) or made.setdefault(name, make_bot(name, rng, budget)) for name in names]
    turns = rounds = stalemates = plagues = 0
    chips = [0] * players
    wins = [0.0] * players
    for _ in range(count):
        state, t, st, pl = play_fast(players, agents, rng, options)
        turns += t
        stalemates += st
        plagues += pl
        rounds += state.round
        for s in range(players):
            chips[s] += state.chips[s]
        winners = state.outcome.winners
        for w in winners:
            wins[w] += 1 / len(winners)
    return turns, rounds, stalemates, plagues, chips, wins


def simulate(games: int, players: int, seed: int, bots: list[str],
             options: Options = Options(), budget: int | None = None, jobs: int = 1) -> dict:
    """Play ``games`` seeded games and gather what players want to know.

    Games go in chunks of ``CHUNK``, each with an rng seeded by (seed, chunk): the
    statistics are the same whatever ``jobs`` (processes) plays them.
    """
    names = list(bots)
    work = [(seed, i, min(CHUNK, games - start), players, names, options, budget)
            for i, start in enumerate(range(0, games, CHUNK))]
    if jobs > 1 and len(work) > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(min(jobs, len(work))) as pool:
            parts = pool.map(_chunk, work, chunksize=1)
    else:
        parts = [_chunk(job) for job in work]
    turns = rounds = stalemates = plagues = 0
    chips = [0] * players
    wins = [0.0] * players
    for t, r, st, pl, c, w in parts:
        turns, rounds, stalemates, plagues = turns + t, rounds + r, stalemates + st, plagues + pl
        chips = [a + b for a, b in zip(chips, c)]
        wins = [a + b for a, b in zip(wins, w)]
    per_bot: dict = {}
    for s, name in enumerate(names):
        entry = per_bot.setdefault(name, {"seats": 0, "wins": 0.0, "chips": 0})
        entry["seats"] += 1
        entry["wins"] += wins[s]
        entry["chips"] += chips[s]
    return {
        "game": "grasshopper",
        "games": games,
        "players": players,
        "seed": seed,
        "bots": names,
        "options": options.to_dict(),
        **({"budget": DEFAULT_BUDGET if budget is None else budget} if "strong" in names else {}),
        "turns_per_game": turns / games,
        "rounds_per_game": rounds / games,
        "stalemates_per_game": stalemates / games,
        "plagues_per_game": plagues / games,
        "chips_per_seat": [c / games for c in chips],
        "win_rate_per_seat": [w / games for w in wins],
        "win_rate_per_bot": {name: e["wins"] / (games * e["seats"]) for name, e in per_bot.items()},
        "chips_per_bot": {name: e["chips"] / (games * e["seats"]) for name, e in per_bot.items()},
    }
