#!/usr/bin/env python3
"""Idle CPU of the table process with 20 phones and 2 table pages connected and nobody
pressing (goal: < 0.1 % of a core), against the same process with no page open.

    .venv/bin/python benchmarks/web_idle.py [--seconds 30]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_common import Server, busy_note, streams  # noqa: E402


def idle(server, seconds: float) -> float:
    time.sleep(1.0)  # what connecting set off is done
    c0, t0 = server.cpu(), time.monotonic()
    time.sleep(seconds)
    return (server.cpu() - c0) / (time.monotonic() - t0) * 100


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=30)
    args = ap.parse_args()
    server = Server()
    try:
        none = idle(server, args.seconds)
        open_ = streams(server)
        loaded = idle(server, args.seconds)
        for s in open_:
            s.close()
    finally:
        server.close()
    print(f"web_idle ({busy_note()}; CPU time from /proc/PID/stat, 10 ms ticks)")
    print(f"  no page open:              {none:.3f} % of a core over {args.seconds:.0f} s")
    print(f"  20 phones + 2 table pages: {loaded:.3f} % of a core over {args.seconds:.0f} s (goal < 0.1 %)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
