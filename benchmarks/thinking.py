"""Where the assistant should think: what its search does to the loop's reaction time.

A stand-in for the loop (a thread sleeping on a queue, as table/loop.py does) handles
events that another thread posts every few ms, doing ~0.2 ms of Python work on each (a
frame's worth). We measure post -> handled while the strong player searches:
  none     nobody searches (the floor)
  thread   the search runs on a thread of the same process (it holds the GIL;
           the switch interval is 5 ms)
  process  the search runs in a worker process (what the table does)
Run: python benchmarks/thinking.py [--events 600]
"""

import argparse
import multiprocessing
import os
import queue
import random
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from pitable.rules.grasshopper import State  # noqa: E402
from pitable.sim.search import DEFAULT_BUDGET, StrongBot  # noqa: E402


def position():
    state = State(4)
    state.play_reveals((1, 2, 0))
    return state


def think(stop):
    """Bid after bid at an opening position until told to stop (a busy assistant)."""
    bot = StrongBot(random.Random(1), DEFAULT_BUDGET, seed=1)  # the Pi's player (STRONG, its defaults)
    state = position()
    while not stop.is_set():
        bot.bid_card(state, 0)


def work():
    s = 0
    for i in range(4000):  # ~0.2 ms of Python: a key's handling and a frame
        s += i * i
    return s


def measure(mode: str, events: int) -> list:
    q: queue.SimpleQueue = queue.SimpleQueue()
    delays = []

    def loop():
        while True:
            t0 = q.get()
            if t0 is None:
                return
            work()
            delays.append(time.perf_counter() - t0)

    t = threading.Thread(target=loop)
    t.start()
    stop = threading.Event() if mode == "thread" else multiprocessing.Event()
    thinker = None
    if mode == "thread":
        thinker = threading.Thread(target=think, args=(stop,), daemon=True)
    elif mode == "process":
        thinker = multiprocessing.get_context("fork").Process(target=think, args=(stop,), daemon=True)
    if thinker:
        thinker.start()
        time.sleep(0.3)
    rng = random.Random(1)
    for _ in range(events):
        time.sleep(0.002 + rng.random() * 0.004)
        q.put(time.perf_counter())
    q.put(None)
    t.join()
    if thinker:
        stop.set()
        thinker.join(5)
    return sorted(d * 1000 for d in delays)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=600)
    args = parser.parse_args()
    print(f"post -> handled (incl. ~0.2 ms work), {args.events} events, search budget {DEFAULT_BUDGET}, "
          f"switch interval {sys.getswitchinterval() * 1000:.0f} ms, {os.cpu_count()} cores")
    base = None
    for mode in ("none", "thread", "process"):
        ms = measure(mode, args.events)
        med, p99 = statistics.median(ms), ms[int(0.99 * (len(ms) - 1))]
        base = base or med
        print(f"  {mode:<8} median {med:6.3f} ms  p99 {p99:6.3f} ms  max {ms[-1]:6.3f} ms  "
              f"(median {med / base:.1f}x none)")


if __name__ == "__main__":
    main()
