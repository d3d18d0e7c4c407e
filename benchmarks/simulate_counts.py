"""Instructions per game, counted by callgrind: the rules core's random playout (the
reference) and `pitable simulate` with random and heuristic bots, 4 players.

Wall-clock games per second (benchmarks/playouts.py) swing with the machine's load;
instruction counts do not. Each figure is the difference of a run of 300 games and one of
100, divided by 200, so the interpreter's start-up and the imports cancel out.

Run: python benchmarks/simulate_counts.py   (needs valgrind; a few minutes)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WORK = {
    "playout (the reference)": "import random\nfrom pitable.rules.grasshopper import State\n"
                               "r = random.Random(1)\nfor _ in range({games}): State(4).playout(r)",
    "simulate, random bots": "from pitable.sim.runs import simulate\nsimulate({games}, 4, 1, ['random'] * 4)",
    "simulate, heuristic bots": "from pitable.sim.runs import simulate\nsimulate({games}, 4, 1, ['heuristic'] * 4)",
}


def instructions(code: str) -> int:
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", code],
                         capture_output=True, text=True, check=True, cwd=ROOT,
                         env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0"})
    return int(re.search(r"Collected : (\d+)", out.stderr).group(1))


def main() -> int:
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    per = {}
    for name, code in WORK.items():
        per[name] = (instructions(code.format(games=300)) - instructions(code.format(games=100))) / 200
    reference = per["playout (the reference)"]
    print(f"{'4 players, per game':<28} {'instructions':>14} {'x the playout':>14}")
    for name, n in per.items():
        print(f"{name:<28} {n:>14,.0f} {n / reference:>13.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
