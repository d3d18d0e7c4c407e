"""What a QR phone's join and a wrong sealed join cost the Pi, in CPU time on this machine
(docs/phones.md, "Sealed phone traffic"): the loop's part of a join (seal.Join.accept:
open the phone's box, a key pair, X25519, seal the answer) and the web thread's
try of a box against the QR on the glass (seal.Join.opens), for a box that opens and one
that opens nothing (what a flood of wrong sealed joins costs).

Run: python benchmarks/seal_join.py [--n 2000]
"""

from __future__ import annotations

import argparse
import statistics
import time

from pitable.web.seal import Join, PhoneJoin

SECRET = "ABCDEFGHJKMNPQRSTVWXYZ2345"


def timed(fn, n: int) -> tuple:
    """(median, p99) of ``fn()``'s CPU time in microseconds over ``n`` calls."""
    out = []
    for _ in range(n):
        t0 = time.thread_time_ns()
        fn()
        out.append((time.thread_time_ns() - t0) / 1000)
    out.sort()
    return statistics.median(out), out[min(len(out) - 1, int(len(out) * 0.99))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=2000, help="calls of each (bounded: at most 100,000)")
    n = min(max(parser.parse_args().n, 10), 100_000)
    join = Join(SECRET)
    boxes = [PhoneJoin(SECRET).box() for _ in range(n)]
    wrong = PhoneJoin("1" * 26).box()
    it = iter(boxes)
    rows = [("a join, the loop's part (open, key pair, X25519, seal the answer)",
             timed(lambda: join.accept(next(it), 4, "S" * 16), n)),
            ("the web thread's try of a box that opens", timed(lambda: join.opens(boxes[0]), n)),
            ("the web thread's try of a wrong box (opens nothing)", timed(lambda: join.opens(wrong), n))]
    print(f"CPU time per call, {n} calls each (thread_time), median / p99:")
    for what, (median, p99) in rows:
        print(f"  {what}: {median:.1f} / {p99:.1f} us")


if __name__ == "__main__":
    main()
