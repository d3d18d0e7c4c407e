#!/usr/bin/env python3
"""1,000 bad requests a second for 10 s from one client: nothing changes (the join screen's
seats and phones are the same after), nothing is lost (every request is answered with a
4xx or closed), and the pads' key -> frame stays within budget during the flood.

    .venv/bin/python benchmarks/web_flood.py [--rate 1000] [--seconds 10]
"""

from __future__ import annotations

import argparse
import socket
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_common import Server, busy_note, stats  # noqa: E402

BAD = [
    b"GET / HTTP/1.1\r\n\r\n",
    b"BREW / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    b"GET /../etc/passwd HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n",
    b"POST /s/AAAAAAAAAAAAAAAAAAAAAA/key HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
    b"X-Pitable: 1\r\nContent-Length: 9\r\n\r\n{\"key\":0}",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}",
    b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nbroken header\r\n\r\n",
    b"POST /api/join HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\nX-Pitable: 1\r\n"
    b"Transfer-Encoding: chunked\r\n\r\n",
    b"GET /s/../../x HTTP/1.1\r\nHost: evil.example\r\n\r\n",
]


def flood(port, rate, seconds, out):
    answers: dict = {}
    n = 0
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        due = start + n / rate
        if time.monotonic() < due:
            time.sleep(max(0.0, due - time.monotonic()))
        raw = BAD[n % len(BAD)]
        raw = raw % port if b"%d" in raw else raw
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=5)
            s.sendall(raw)
            got = s.recv(64)
            s.close()
            status = got.split(b" ")[1].decode() if got.startswith(b"HTTP/1.1 ") else "closed"
        except OSError as e:
            status = type(e).__name__
        answers[status] = answers.get(status, 0) + 1
        n += 1
    out.update(answers=answers, n=n, seconds=time.monotonic() - start)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rate", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=10)
    args = ap.parse_args()
    server = Server()
    try:
        before = server.ask(do="state")
        quiet = server.ask(do="pads", n=100)["lat"]
        result: dict = {}
        attacker = threading.Thread(target=flood, args=(server.port, args.rate, args.seconds, result))
        attacker.start()
        during = server.ask(do="pads", n=int(args.seconds * 20), gap=0.03)["lat"]
        attacker.join()
        after = server.ask(do="state")
    finally:
        server.close()
    same = (before["joined"], before["phones"]) == (after["joined"], after["phones"])
    print(f"web_flood ({busy_note()})")
    print(f"  sent {result['n']} bad requests in {result['seconds']:.1f} s "
          f"({result['n'] / result['seconds']:.0f}/s), answers: {result['answers']}")
    print(f"  the table after: joined {after['joined']}, phones {after['phones']}: "
          f"{'unchanged' if same else 'CHANGED'}; the server counted {after['refused']}")
    print(f"  pads key -> frame before the flood: {stats(quiet)}")
    print(f"  pads key -> frame during the flood: {stats(during)}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
