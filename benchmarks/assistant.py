"""The assistant's strong player: playouts per second and time per decision.

Decisions are taken at real positions: every bid of the strong seat in whole games
against heuristic bots (a last card in hand is played without search and not counted).
Both wall-clock and CPU time are printed: on a shared machine the CPU figure is the
one to trust. What a decision takes on a Pi Zero 2 W is counted, not scaled from these
times: `python benchmarks/counts.py --only bid` (instructions, and the model of
docs/performance.md).
Run: python benchmarks/assistant.py [--budget N] [--games G] [--selection br|rm|exp3|duct|eq|brc]
(the default is the strong level's own method, pitable.sim.search.STRONG)
"""

import argparse
import os
import platform
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from pitable.rules.grasshopper import HANDS  # noqa: E402
from pitable.sim.grasshopper import HeuristicBot, play_fast  # noqa: E402
from league.baselines import SELECTIONS, BaselineBot  # noqa: E402
from pitable.sim.search import DEFAULT_BUDGET, STRONG  # noqa: E402



class Timed(BaselineBot):  # the shipped player with STRONG, a baseline otherwise
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.wall: list = []
        self.cpu: list = []

    def bid_card(self, state, seat):
        if len(HANDS[state.spent[seat]]) == 1:
            return super().bid_card(state, seat)
        w, c = time.perf_counter(), time.process_time()
        card = super().bid_card(state, seat)
        self.cpu.append(time.process_time() - c)
        self.wall.append(time.perf_counter() - w)
        return card


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=DEFAULT_BUDGET)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--selection", choices=SELECTIONS, default=STRONG["selection"])
    args = parser.parse_args()
    print(f"Python {platform.python_version()} ({platform.python_implementation()}), {platform.machine()}; "
          f"budget {args.budget} playouts per bid, selection {args.selection}")
    print(f"{'players':>8} {'bids':>5} {'playouts/s':>11} {'ms/bid (cpu)':>13} {'p90':>6} {'max':>6} "
          f"{'ms/bid (wall)':>14}")
    for players in (2, 3, 4):
        rng = random.Random(players)
        settings = dict(STRONG, selection=args.selection) if args.selection == STRONG["selection"] else \
            {"selection": args.selection}
        bot = Timed(rng, args.budget, seed=1, **settings)
        others = HeuristicBot(rng)
        for g in range(args.games):
            seats = [others] * players
            seats[g % players] = bot
            play_fast(players, seats, rng)
        cpu = sorted(bot.cpu)
        mean = statistics.fmean(cpu)
        p90 = cpu[int(0.9 * (len(cpu) - 1))]
        print(f"{players:>8} {len(cpu):>5} {args.budget / mean:>11.0f} {1000 * mean:>13.1f} {1000 * p90:>6.1f} "
              f"{1000 * cpu[-1]:>6.1f} {1000 * statistics.fmean(bot.wall):>14.1f}")
    print("goal: under ~2 s per bid on a Pi Zero 2 W at the default budget: "
          "counted by benchmarks/counts.py --only bid (docs/performance.md)")


if __name__ == "__main__":
    main()
