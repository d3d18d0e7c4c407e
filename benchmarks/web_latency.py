#!/usr/bin/env python3
"""Phone key -> OLED frame (goal: median < 50 ms on loopback), and the pads' key -> frame
with 20 phones and 2 table pages connected (goal: median < 0.5 ms, p99 < 2 ms, as without).

A phone's key is a POST on a kept-alive connection (as a browser's fetch); the frame time
is taken in the server process by the loop's on_frame hook (the shared monotonic clock).

    .venv/bin/python benchmarks/web_latency.py [--keys 200]
"""

from __future__ import annotations

import argparse
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_common import Server, busy_note, stats, streams  # noqa: E402


def phone_keys(server, n: int) -> list:
    s = socket.create_connection(("127.0.0.1", server.port))
    code = server.codes[0]
    sent = []
    for i in range(n):
        body = b'{"key": %d, "action": "press"}' % (7 if i % 2 == 0 else 0)   # seat 4 leaves, joins
        req = (f"POST /s/{code}/key HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
               f"Content-Type: application/json\r\nX-Pitable: 1\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
        t0 = time.monotonic()
        s.sendall(req)
        answer = s.recv(4096)
        assert answer.startswith(b"HTTP/1.1 204"), answer[:40]
        sent.append(t0)
        time.sleep(0.06)  # under the 20 keys/s a seat may send
    s.close()
    frames = server.ask(do="frames", n=4 * n)["frames"]
    return [min(f for f in frames if f > t0) - t0 for t0 in sent]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--keys", type=int, default=200)
    args = ap.parse_args()
    server = Server()
    try:
        quiet = server.ask(do="pads", n=args.keys)["lat"]
        phone = phone_keys(server, min(args.keys, 100))
        open_ = streams(server)
        loaded = server.ask(do="pads", n=args.keys)["lat"]
        phone_loaded = phone_keys(server, min(args.keys, 100))
        for s in open_:
            s.close()
    finally:
        server.close()
    print(f"web_latency ({busy_note()})")
    print(f"  pads key -> frame, no pages open:          {stats(quiet)}")
    print(f"  pads key -> frame, 20 phones + 2 TV pages: {stats(loaded)}")
    print(f"  phone key -> OLED frame, no other pages:   {stats(phone)}")
    print(f"  phone key -> OLED frame, 20 + 2 pages:     {stats(phone_loaded)}")
    print(f"  ratio pads loaded/quiet (median): {sorted(loaded)[len(loaded)//2] / sorted(quiet)[len(quiet)//2]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
