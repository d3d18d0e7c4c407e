"""A key stuck on a matrix pad: scans per second, and the other seats' taps on its column.

Something rests on seat 1's key 4 all evening. While it is held, the matrix re-scans
every 20 ms (a press on the same column by another seat makes no edge), and a tap there
shorter than ~40 ms is lost. Once the key counts as stuck (``STUCK_AFTER``, 30 s), its row
is let go between scans: the column makes edges again, the fast re-scans stop and a
0.1 s scan watches the stuck pad.

The run: the real MatrixPads on gpiozero's mock pins (the 100 us settles as no-ops, the
clock moved by hand, so the figures are counts, the same on every machine); 60 s with the
key held and taps of 25 ms by seats 2-4 on its column every 0.5 s, first as before the
stuck-key rule (stuck_after = forever), then with it. Prints scans per second, the taps
seen, and the ratios; and the CPU time of one scan here, to turn the counts into load.

Run: python benchmarks/stuck.py [--seconds 60] [--tap 0.025]
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from pitable.hardware.keys import KeyEdge, KeyTracker  # noqa: E402
from pitable.hardware.mockmatrix import MockMatrix  # noqa: E402
from pitable.hardware.pads import STUCK_AFTER, MatrixPads  # noqa: E402

ROWS = [5, 6, 13, 26]
COLS = [17, 27, 22, 23, 24, 25, 12, 16]
KEY = 3


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


def run(seconds: float, tap: float, stuck_after: float):
    factory = MockFactory()
    clock = Clock()
    items = []
    sim = MockMatrix(factory, ROWS, COLS)
    pads = MatrixPads(ROWS, COLS, items.append, pin_factory=factory, clock=clock,
                      sleep=lambda dt: None, stuck_after=stuck_after)
    tracker = KeyTracker(1.0)
    presses = []
    # the fingers: (time, action); seat 1's key held from the start
    sim.press(0, KEY)
    t0 = clock.t
    warm = STUCK_AFTER + 1      # the taps start once the key would count as stuck
    events = []
    seat = 1
    t = t0 + warm
    while t < t0 + warm + seconds:
        events += [(t, sim.press, seat), (t + tap, sim.release, seat)]
        seat = 1 + seat % 3
        t += 0.5
    events.sort(key=lambda e: e[0])
    scans_before = None
    fed = 0
    end = t0 + warm + seconds + 1
    while clock.t < end:
        dl = pads.next_deadline()
        nxt = events[0][0] if events else end
        step = min(x for x in (dl, nxt, end) if x is not None)
        clock.t = max(clock.t, step)
        while events and events[0][0] <= clock.t:
            _, action, s = events.pop(0)
            action(s, KEY)
        pads.settle()
        for item in items[fed:]:
            if isinstance(item, KeyEdge):
                presses += [e for e in tracker.edge(item) if e.action == "press"]
        fed = len(items)
        if scans_before is None and clock.t >= t0 + warm:
            scans_before = pads.scan_count
    scans = pads.scan_count - (scans_before or 0)
    seen = len([p for p in presses if p.seat != 0])
    pads.close()
    factory.reset()
    return scans / (seconds + 1), seen, int(seconds / 0.5)


def scan_cost(n: int = 2000) -> float:
    factory = MockFactory()
    MockMatrix(factory, ROWS, COLS)
    pads = MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, sleep=lambda dt: None)
    t = time.perf_counter()
    for _ in range(n):
        pads._scan_matrix()
    cost = (time.perf_counter() - t) / n
    pads.close()
    factory.reset()
    return cost


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--tap", type=float, default=0.025)
    args = parser.parse_args()
    before = run(args.seconds, args.tap, float("inf"))
    after = run(args.seconds, args.tap, STUCK_AFTER)
    cost = scan_cost()
    print(f"seat 1's key {KEY + 1} held for {STUCK_AFTER:.0f} s and then {args.seconds:.0f} s more; "
          f"seats 2-4 tap the same key for {args.tap * 1000:.0f} ms every 0.5 s (4 rows, mock pins)")
    print(f"  without the stuck-key rule: {before[0]:6.1f} scans/s, {before[1]:3d} of {before[2]} taps seen")
    print(f"  with it (stuck after {STUCK_AFTER:.0f} s): {after[0]:6.1f} scans/s, "
          f"{after[1]:3d} of {after[2]} taps seen")
    print(f"  scans: x{after[0] / before[0]:.2f} ({before[0] / after[0]:.1f} times fewer); taps seen: "
          f"{after[1]} against {before[1]}")
    print(f"one scan here: {cost * 1e6:.0f} us of CPU (mock pins, settles skipped): "
          f"{before[0] * cost * 100:.2f} % of a core before, {after[0] * cost * 100:.2f} % after")


if __name__ == "__main__":
    main()
