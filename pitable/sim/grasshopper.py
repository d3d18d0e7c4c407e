"""Grasshopper Poker bots and simulations on a virtual deck.

Bots see only what a player at the table sees: the public state (display, gardens,
chips, spent cards) and their own hand. They play through the rules core's
``push``, so every simulated game is a legal, loggable game.
"""

from __future__ import annotations

import random

from pitable.rules.grasshopper import (BIDDING, CHOOSING, GRASSHOPPER, KINDS, PLANTS, REVEAL, Bids,
                                       Choose, Options, Plagued, Stalemate, State, VirtualDeck)


class RandomBot:
    """Any card still in hand, any kind on the display."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng

    def bid(self, state: State, seat: int) -> str:
        return self.rng.choice(state.hand(seat))

    def choose(self, state: State, seat: int) -> str:
        return self.rng.choice(state.display_kinds())


class HeuristicBot(RandomBot):
    """Bids by how much the display is worth to it; takes what completes threes.

    Worth: plants that bring a harvest count most, grasshoppers that would cause
    a plague count heavily against. A rich display draws a high card (the Ace
    when it is very rich), a poor or dangerous one a low card or the X.
    """

    name = "heuristic"

    def kind_value(self, state: State, seat: int, k: int, n: int) -> float:
        garden = state.gardens[seat]
        if k == GRASSHOPPER:
            return -6.0 * garden_plants(garden) if garden[GRASSHOPPER] + n >= 3 else -0.5 * n
        have = garden[k] + n
        return n + 2.0 * (have // 3) + (0.5 if have % 3 == 2 else 0.0)

    def display_value(self, state: State, seat: int) -> float:
        return sum(self.kind_value(state, seat, k, n) for k, n in enumerate(state.display) if n)

    def bid(self, state: State, seat: int) -> str:
        hand = state.hand(seat)
        whole = self.display_value(state, seat)
        best = max((self.kind_value(state, seat, k, n) for k, n in enumerate(state.display) if n),
                   default=0.0)
        numbers = [c for c in hand if c not in ("A", "X")]
        if "A" in hand and whole >= 5 and whole > best + 1.5:
            return "A"
        if "X" in hand and (best <= 0 or ("A" not in hand and whole >= 6 and self.rng.random() < 0.3)):
            return "X"  # nothing worth having, or a hope to catch someone's Ace
        if not numbers:
            return self.rng.choice(hand)
        numbers.sort()
        if best >= 3:
            pick = numbers[-1]
        elif best >= 1.5:
            pick = numbers[len(numbers) // 2]
        else:
            pick = numbers[0]
        # A little noise so that bots do not cancel each other in lockstep.
        if self.rng.random() < 0.25:
            pick = self.rng.choice(numbers)
        return pick

    def choose(self, state: State, seat: int) -> str:
        options = [(self.kind_value(state, seat, k, n), KINDS[k])
                   for k, n in enumerate(state.display) if n]
        return max(options)[1]


def garden_plants(garden) -> int:
    return sum(garden[k] for k in PLANTS)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def play(players: int, bots: list, rng: random.Random, options: Options = Options(),
         seed: int | None = None, on_result=None) -> State:
    """One whole game through ``push``; returns the final state (its ``moves`` are the log).

    ``on_result`` is called with every result value the rules report (Took, Plagued, ...).
    """
    state = State(players, options)
    deck = VirtualDeck(rng.getrandbits(32) if seed is None else seed)
    while True:
        phase = state.phase
        if phase is REVEAL:
            fx = state.push(deck.next_reveal(state))
        elif phase is BIDDING:
            fx = state.push(Bids(tuple(bots[s].bid(state, s) for s in range(players))))
        elif phase is CHOOSING:
            seat = state.chooser
            fx = state.push(Choose(bots[seat].choose(state, seat)))
        else:
            return state
        if on_result is not None:
            for result in fx:
                on_result(result)


def simulate(games: int, players: int, seed: int, bots: list[str],
             options: Options = Options()) -> dict:
    """Play ``games`` seeded games and gather what players want to know."""
    rng = random.Random(seed)
    names = list(bots)
    agents = [BOTS[name](rng) for name in names]
    turns = rounds = 0
    chips = [0] * players
    wins = [0.0] * players
    counts = {Plagued: 0, Stalemate: 0}

    def count(result):
        if type(result) in counts:
            counts[type(result)] += 1

    for _ in range(games):
        state = play(players, agents, rng, options, on_result=count)
        turns += sum(1 for move in state.moves if isinstance(move, Bids))
        rounds += state.round
        for s in range(players):
            chips[s] += state.chips[s]
        for w in state.outcome.winners:
            wins[w] += 1 / len(state.outcome.winners)
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
        "turns_per_game": turns / games,
        "rounds_per_game": rounds / games,
        "stalemates_per_game": counts[Stalemate] / games,
        "plagues_per_game": counts[Plagued] / games,
        "chips_per_seat": [c / games for c in chips],
        "win_rate_per_seat": [w / games for w in wins],
        "win_rate_per_bot": {name: e["wins"] / (games * e["seats"]) for name, e in per_bot.items()},
        "chips_per_bot": {name: e["chips"] / (games * e["seats"]) for name, e in per_bot.items()},
    }


def format_stats(stats: dict) -> str:
    lines = [
        f"Grasshopper Poker: {stats['games']} games, {stats['players']} players, seed {stats['seed']}",
        f"  bots: {', '.join(f'seat {i + 1} {b}' for i, b in enumerate(stats['bots']))}",
        f"  per game: {stats['turns_per_game']:.1f} turns, {stats['rounds_per_game']:.2f} rounds, "
        f"{stats['stalemates_per_game']:.2f} stalemates, {stats['plagues_per_game']:.2f} plagues",
        "  seat   chips  wins",
    ]
    for s in range(stats["players"]):
        lines.append(f"  {s + 1:>4}  {stats['chips_per_seat'][s]:6.2f}  {100 * stats['win_rate_per_seat'][s]:5.1f}%")
    lines.append("  bot        chips  wins (per seat it played)")
    for name, rate in stats["win_rate_per_bot"].items():
        lines.append(f"  {name:<9} {stats['chips_per_bot'][name]:6.2f}  {100 * rate:5.1f}%")
    return "\n".join(lines)
