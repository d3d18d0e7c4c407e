#!/usr/bin/env python3
"""A flood from many addresses on the party's Wi-Fi (loopback 127.0.0.x only) while a seated
phone keeps pressing: its key -> OLED frame, and the pads', quiet vs flooded (goal: p99 within
2x of quiet). Quiet and flooded runs are interleaved, round after round, because the machine
is shared and its load drifts; the ratios are over the pooled rounds.

The flood (child processes, one per address block): idle sockets held open, GET /events
streams held open and never read, wrong seat codes (POST /s/<wrong>/key) and wrong join
tickets, each from its own address, as fast as the rate allows. The flooders run at nice 19:
an attacker's laptop is another machine, so it should not take the Pi's CPU; the server
still has to answer every request the flood sends.

    .venv/bin/python benchmarks/web_attack.py [--rounds 10] [--keys 40] [--rate 600] [--addresses 120]

On a shared, loaded machine one descheduling of a process is tens of ms, which is a p99 on its
own: short rounds, quiet and flood in turn, pooled; the median of the rounds' p99 ratios is
printed too, as the figure least moved by one bad round.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import os
import random
import socket
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_common import Server, busy_note, open_stream  # noqa: E402


def p99(xs) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(len(xs) * 0.99))] if xs else float("nan")  # nan: no key got through


def median(xs) -> float:
    xs = sorted(xs)
    return xs[len(xs) // 2] if xs else float("nan")


def flood(port: int, addresses: list, rate: float, stop, out) -> None:
    """One attacker process: its share of the addresses, ``rate`` actions a second."""
    os.nice(19)
    rng = random.Random(os.getpid())
    idle, streams, answers = [], [], {}
    i = 0
    gap = 1.0 / rate
    next_at = time.monotonic()
    while not stop.is_set():
        source = addresses[i % len(addresses)]
        kind = i % 5
        i += 1
        try:
            if kind == 0:                                         # an idle socket, held
                s = socket.create_connection(("127.0.0.1", port), timeout=1, source_address=(source, 0))
                idle.append(s)
                if len(idle) > 300:
                    idle.pop(0).close()
            elif kind == 1:                                       # a stream, held and never read
                s = socket.create_connection(("127.0.0.1", port), timeout=1, source_address=(source, 0))
                s.sendall(f"GET /events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
                streams.append(s)
                if len(streams) > 200:
                    streams.pop(0).close()
            else:                                                 # a wrong code or ticket
                if kind == 2:
                    path, body = "/api/join", b'{"ticket": "%s"}' % "".join(
                        rng.choice("0123456789ABCDEFGHJKMNPQRSTVWXYZ") for _ in range(8)).encode()
                else:
                    code = "".join(rng.choice("ABCDEFGHabcdefgh0123456789-_") for _ in range(22))
                    path, body = f"/s/{code}/key", b'{"key": 0, "action": "press"}'
                s = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(source, 0))
                s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                           f"X-Pitable: 1\r\nConnection: close\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
                head = s.recv(64)
                status = head[9:12].decode() if head.startswith(b"HTTP/1.1 ") else "closed"
                answers[status] = answers.get(status, 0) + 1
                s.close()
        except OSError:
            answers["refused"] = answers.get("refused", 0) + 1
        next_at += gap
        delay = next_at - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        else:
            next_at = time.monotonic()
    for s in idle + streams:
        s.close()
    answers["actions"] = i
    out.put(answers)


class Flood:
    def __init__(self, port, addresses, rate, procs=3):
        self.stop = mp.Event()
        self.out = mp.Queue()
        blocks = [addresses[k::procs] for k in range(procs)]
        self.procs = [mp.Process(target=flood, args=(port, b, rate / procs, self.stop, self.out), daemon=True)
                      for b in blocks]
        for p in self.procs:
            p.start()
        time.sleep(1.0)  # let it build up: sockets and streams held

    def end(self) -> dict:
        self.stop.set()
        total = {}
        for _ in self.procs:
            for k, v in self.out.get(timeout=30).items():
                total[k] = total.get(k, 0) + v
        for p in self.procs:
            p.join(10)
        return total


class Phone:
    """The seated phone: its stream open (read), keys as POSTs on a kept-alive connection."""

    def __init__(self, server):
        self.server = server
        self.code = server.codes[0]
        self.stream = open_stream(server.port, f"/s/{self.code}/events")
        self.refused = 0

    def keys(self, n: int) -> list:
        port = self.server.port
        s = socket.create_connection(("127.0.0.1", port), timeout=5)
        sent = []
        for i in range(n):
            body = b'{"key": %d, "action": "press"}' % (7 if i % 2 == 0 else 0)   # seat 4 leaves, joins
            req = (f"POST /s/{self.code}/key HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
                   f"X-Pitable: 1\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
            t0 = time.monotonic()
            try:
                s.sendall(req)
                answer = s.recv(4096)
            except OSError:
                answer = b""
            if not answer.startswith(b"HTTP/1.1 204"):
                self.refused += 1
                s.close()
                s = socket.create_connection(("127.0.0.1", port), timeout=5)
            else:
                sent.append(t0)
            time.sleep(0.06)  # under the 20 keys/s a seat may send
        s.close()
        frames = self.server.ask(do="frames", n=8 * n)["frames"]
        return [min(f for f in frames if f > t0) - t0 for t0 in sent]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--keys", type=int, default=40)
    ap.add_argument("--rate", type=float, default=600.0, help="flood actions a second, all processes")
    ap.add_argument("--addresses", type=int, default=120, help="attacker addresses, 127.0.0.10 on")
    ap.add_argument("--switch-ms", type=float, default=None,
                    help="the server's GIL switch interval (the build sets 1 ms; Python's default is 5)")
    ap.add_argument("--web-nice", type=int, default=None,
                    help="the web thread's nice value above the loop's (the build: 5; 0 to compare)")
    args = ap.parse_args()
    if args.web_nice is not None:
        os.environ["PITABLE_BENCH_WEB_NICE"] = str(args.web_nice)
    if args.switch_ms is not None:
        os.environ["PITABLE_BENCH_SWITCH_MS"] = str(args.switch_ms)
    addresses = [f"127.0.{10 + k // 240}.{10 + k % 240}" for k in range(args.addresses)]
    server = Server()
    phone = Phone(server)
    lat = {"quiet": {"phone": [], "pads": []}, "flood": {"phone": [], "pads": []}}
    per_round = []
    answers = {}
    try:
        for r in range(args.rounds):
            order = ("quiet", "flood") if r % 2 == 0 else ("flood", "quiet")
            row = {}
            for what in order:
                f = Flood(server.port, addresses, args.rate) if what == "flood" else None
                started = time.monotonic()
                ph = phone.keys(args.keys)
                pads = server.ask(do="pads", n=args.keys, gap=0.03)["lat"]
                if f is not None:
                    answers["seconds"] = answers.get("seconds", 0) + time.monotonic() - started + 1.0
                    for k, v in f.end().items():
                        answers[k] = answers.get(k, 0) + v
                lat[what]["phone"] += ph
                lat[what]["pads"] += pads
                row[what] = (p99(ph), p99(pads))
            per_round.append(row)
        state = server.ask(do="state")
    finally:
        phone.stream.close()
        server.close()
    switch = args.switch_ms if args.switch_ms is not None else 1.0
    print(f"web_attack ({busy_note()}; {args.addresses} attacker addresses, {args.rate:.0f} actions/s, "
          f"{args.rounds} rounds interleaved, GIL switch interval {switch:g} ms, web thread nice "
          f"+{args.web_nice if args.web_nice is not None else 5})")
    for r, row in enumerate(per_round, 1):
        print(f"  round {r}: p99 phone quiet {row['quiet'][0] * 1000:.2f} / flood {row['flood'][0] * 1000:.2f} ms; "
              f"pads quiet {row['quiet'][1] * 1000:.2f} / flood {row['flood'][1] * 1000:.2f} ms")
    for who in ("phone", "pads"):
        q, f = lat["quiet"][who], lat["flood"][who]
        print(f"  {who} key -> frame: quiet median {median(q) * 1000:.2f} ms, p99 {p99(q) * 1000:.2f} ms (n={len(q)}); "
              f"flood median {median(f) * 1000:.2f} ms, p99 {p99(f) * 1000:.2f} ms (n={len(f)}); "
              f"p99 ratio flood/quiet {p99(f) / p99(q):.2f}")
    for k, who in enumerate(("phone", "pads")):
        ratios = sorted(row["flood"][k] / row["quiet"][k] for row in per_round)
        print(f"  {who}: median over rounds of p99 flood/quiet {ratios[len(ratios) // 2]:.2f} "
              f"(rounds: {', '.join(f'{r:.2f}' for r in ratios)})")
    print(f"  the phone's keys refused under the flood: {phone.refused}")
    seconds = answers.pop("seconds", 1)
    actions = answers.pop("actions", 0)
    print(f"  flood: {actions} actions in {seconds:.0f} s ({actions / seconds:.0f}/s: idle sockets, streams, "
          f"wrong codes and tickets in turn); answers to wrong codes/tickets: {dict(sorted(answers.items()))}")
    print(f"  server's refusals (all): {state['refused']}")
    print(f"  table after: joined {state['joined']}, phones {state['phones']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
