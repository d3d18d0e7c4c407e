"""Random full games of Grasshopper Poker per second, on one core.

Three figures, each over whole games from the first reveal to the winner:
  playout  State.playout(): the rules core's own transitions, no undo stack (simulations)
  push     every input through State.push(): validation, undo snapshots, results
  logged   push plus encoding every input as a log line (what the table does)
  simulate `pitable simulate` with bots (random, heuristic): the rules core's fast path
           (State.play_bids and friends) driven by bot objects, statistics included
Run: python benchmarks/playouts.py [--seconds S]
"""

import argparse
import platform
import random
import sys
import time

sys.path.insert(0, __import__("os").path.join(__import__("os").path.dirname(__file__), ".."))

from pitable.rules.grasshopper import BIDDING, REVEAL, Bids, Choose, State, VirtualDeck  # noqa: E402
from pitable.rules.log import encode  # noqa: E402


def playout(rng, players):
    State(players).playout(rng)


def pushed(rng, players, log=None):
    state = State(players)
    deck = VirtualDeck(rng.getrandbits(32))
    while not state.is_over():
        if state.phase is REVEAL:
            move = deck.next_reveal(state)
        elif state.phase is BIDDING:
            move = Bids(tuple(rng.choice(state.hand(s)) for s in range(players)))
        else:
            move = Choose(rng.choice(state.display_kinds()))
        state.push(move)
        if log is not None:
            log.append(encode(move.to_json()))


def logged(rng, players):
    pushed(rng, players, [])


def simulated(players, bot, games):
    from pitable.sim.runs import simulate

    simulate(50, players, 0, [bot] * players)  # warm up
    best = 0.0
    for seed in (1, 2):  # the better of two runs: a shared machine only ever slows it down
        start = time.perf_counter()
        simulate(games, players, seed, [bot] * players)
        best = max(best, games / (time.perf_counter() - start))
    return best


def rate(fn, players, seconds):
    rng = random.Random(1)
    fn(rng, players)  # warm up (the resolution table, the permutation table)
    games, start = 0, time.perf_counter()
    while True:
        for _ in range(50):
            fn(rng, players)
        games += 50
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return games / elapsed


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="time per figure")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}")
    print(f"{'players':>8} {'playout/s':>10} {'push/s':>8} {'logged/s':>9} {'playout:push':>13}")
    for players in (2, 3, 4):
        a = rate(playout, players, args.seconds)
        b = rate(pushed, players, args.seconds / 2)
        c = rate(logged, players, args.seconds / 2)
        print(f"{players:>8} {a:>10.0f} {b:>8.0f} {c:>9.0f} {a / b:>12.1f}x")
    print("target: 10,000 random full games per second on one core (playout)")
    print()
    # The case: pitable simulate --games 3000 --players 4 --bots random,random,random,random
    print(f"{'simulate (3000 games)':<24} {'games/s':>8} {'playout:simulate':>17}")
    for players, bot in ((4, "random"), (2, "random"), (4, "heuristic"), (2, "heuristic")):
        per = simulated(players, bot, 3000)
        ref = rate(playout, players, args.seconds / 2)
        print(f"{players}p {bot:<21} {per:>8.0f} {ref / per:>16.2f}x")
    print("target: simulate --games 3000 --players 4 --bots random x4 at 6,000 games/s or more")


if __name__ == "__main__":
    main()
