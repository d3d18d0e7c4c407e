"""Idle: what the daemon costs while nobody presses a key.

Starts the real daemon (`pitable run`, 4 seats on a key matrix with gpiozero's mock
pins, luma's in-memory display), lets it settle, then reads its CPU time from
/proc over the idle window. In the same run, an in-process table on the same code
counts how often its loop wakes up with nobody pressing: our own code never polls,
so that count should be 0 until a timer of its own is due (blanking, pixel shift).

Run: python benchmarks/idle.py [--seconds 30]
"""

import argparse
import os
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)


def cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def threads(pid: int) -> int:
    return len(os.listdir(f"/proc/{pid}/task"))


def daemon(seconds: float):
    env = {**os.environ, "PYTHONPATH": ROOT, "STATE_DIRECTORY": tempfile.mkdtemp()}
    cmd = [sys.executable, "-c", "from pitable.cli import main; raise SystemExit(main(['run', '--config', "
           f"{os.path.join(HERE, 'configs', 'mock-4-seats.yaml')!r}, '--new']))"]
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while b"pitable running" not in proc.stderr.readline():
        pass
    time.sleep(1.0)  # let start-up work finish
    before, start = cpu_seconds(proc.pid), time.monotonic()
    time.sleep(seconds)
    used, elapsed = cpu_seconds(proc.pid) - before, time.monotonic() - start
    n_threads = threads(proc.pid)
    proc.terminate()
    proc.wait(10)
    return used, elapsed, n_threads


def loop_wakeups(seconds: float) -> int:
    from pitable.table.harness import SimTable

    sim = SimTable(tempfile.mkdtemp(), seats=4, wiring="matrix", clock=time.monotonic)
    steps = 0
    real_step = sim.loop.step

    def counting_step(timeout):
        nonlocal steps
        steps += 1
        real_step(timeout)

    sim.loop.step = counting_step
    scans_at_start = sim.pads.scan_count  # the pads read the matrix once when they open
    thread = threading.Thread(target=sim.loop.run, daemon=True)
    thread.start()
    time.sleep(seconds)
    wakeups = steps - 1  # the first call is the loop going to sleep
    scans = sim.pads.scan_count - scans_at_start
    from pitable.table.loop import Stop

    sim.loop.post(Stop())
    thread.join(2)
    sim.close()
    return wakeups, scans


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    args = parser.parse_args()
    used, elapsed, n_threads = daemon(args.seconds)
    share = used / elapsed * 100
    print(f"idle daemon over {elapsed:.1f} s: CPU {used * 1000:.1f} ms = {share:.3f}% of a core "
          f"({n_threads} threads)   target: under 0.1%")
    wakeups, scans = loop_wakeups(min(args.seconds, 10.0))
    print(f"in-process loop over {min(args.seconds, 10.0):.0f} s idle: {wakeups} wake-ups, {scans} matrix scans "
          f"(our code polls nothing: both should be 0)")
    print("CPU time is counted in clock ticks (10 ms each): a reading of 0.0 ms means under one tick")


if __name__ == "__main__":
    main()
