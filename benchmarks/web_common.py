"""Shared by benchmarks/web_latency.py, web_idle.py and web_flood.py.

``serve`` runs in a child process: the real table (Table, Loop, controllers, renderer,
a luma dummy display) with the web server on loopback, pads 1 and 2 and phone seats 4, 5
and 6 joined (Cockroach Poker's join screen: its seat toggles make a new frame on every
key). The parent is the phones, the TV pages and the attacker, so their CPU is not
counted. Commands on stdin, one JSON answer a line on stdout.
"""

from __future__ import annotations

import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def serve() -> None:
    sys.path.insert(0, str(ROOT))
    from pitable.hardware.keys import KeyEvent
    from tests.web.conftest import WebTable

    if os.environ.get("PITABLE_BENCH_WEB_NICE"):  # web_attack.py --web-nice: the web thread's nice
        import pitable.web.server as web_server

        web_server.WEB_NICE = int(os.environ["PITABLE_BENCH_WEB_NICE"])
    t = WebTable(Path(tempfile.mkdtemp()), pads=2)
    if os.environ.get("PITABLE_BENCH_SWITCH_MS"):  # web_attack.py --switch-ms: the GIL's switch interval
        sys.setswitchinterval(float(os.environ["PITABLE_BENCH_SWITCH_MS"]) / 1000)
    frames: list = []
    t.loop.on_frame = lambda view: frames.append(time.monotonic())
    t.press(1, 1)           # Cockroach Poker
    t.press(1, 0)
    t.press(2, 0)
    codes = [t.phone_join(1)[1] for _ in range(3)]
    print(json.dumps({"port": t.port, "codes": codes, "pid": os.getpid()}), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        if cmd["do"] == "pads":         # pad key -> frame, as a pad's handler posts it
            lat = []
            for i in range(cmd["n"]):
                n = len(frames)
                t0 = time.monotonic()
                t.loop.post(KeyEvent(1, 7 if i % 2 == 0 else 0, "press"))   # pad 2 leaves, joins
                while len(frames) == n:
                    time.sleep(0.00005)
                lat.append(frames[n] - t0)
                time.sleep(cmd.get("gap", 0.02))
            print(json.dumps({"lat": lat}), flush=True)
        elif cmd["do"] == "frames":
            print(json.dumps({"frames": frames[-cmd["n"]:]}), flush=True)
        elif cmd["do"] == "state":
            t.sync()
            print(json.dumps({"view": repr(t.view()), "joined": list(t.view().joined),
                              "phones": list(t.view().phones), "refused": t.web.refused}), flush=True)
        elif cmd["do"] == "quit":
            break
    t.close()


class Server:
    def __init__(self):
        self.p = subprocess.Popen([sys.executable, __file__, "serve"], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, cwd=ROOT)
        hello = json.loads(self.p.stdout.readline())
        self.port, self.codes, self.pid = hello["port"], hello["codes"], hello["pid"]

    def ask(self, **cmd) -> dict:
        self.p.stdin.write(json.dumps(cmd) + "\n")
        self.p.stdin.flush()
        return json.loads(self.p.stdout.readline())

    def cpu(self) -> float:
        """CPU seconds of the server process so far (all its threads)."""
        fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self):
        try:
            self.ask(do="quit")
        except Exception:  # noqa: BLE001
            pass
        self.p.wait(10)


def open_stream(port, path) -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port))
    s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
    threading.Thread(target=_drain, args=(s,), daemon=True).start()
    return s


def _drain(s):
    try:
        while s.recv(65536):
            pass
    except OSError:
        pass


def streams(server, phones=20, tvs=2) -> list:
    """``phones`` seat streams over the three phone seats (a phone per seat, and more tabs),
    and ``tvs`` table pages."""
    out = [open_stream(server.port, f"/s/{server.codes[i % 3]}/events") for i in range(phones)]
    out += [open_stream(server.port, "/events") for _ in range(tvs)]
    time.sleep(0.5)
    return out


def stats(xs) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return f"median {statistics.median(xs) * 1000:.3f} ms, p99 {p99 * 1000:.3f} ms (n={len(xs)})"


def busy_note() -> str:
    load = os.getloadavg()[0]
    return (f"load average {load:.1f} on {os.cpu_count()} CPUs" +
            (": the machine is busy, wall-clock numbers are upper bounds" if load > 0.5 else ""))


if __name__ == "__main__" and sys.argv[1:] == ["serve"]:
    serve()
