"""Idle: what the daemon costs while nobody presses a key.

Starts the real daemon (`pitable run`, 4 seats on a key matrix with gpiozero's mock
pins, luma's in-memory display), lets it settle, then reads its CPU time from
/proc over the idle window. In the same run, an in-process table on the same code
counts how often its loop wakes up with nobody pressing: our own code never polls,
so that count should be 0 until a timer of its own is due (blanking, pixel shift).

Run: python benchmarks/idle.py [--seconds 30]

On the real GPIO stack (the real-stack guest, docs/real-gpio.md, or a Pi):
``--factories lgpio,gpiod`` starts ``pitable run --display terminal`` on the shipped
direct config once per pin factory and counts the context switches of all the
daemon's threads over the window (/proc/PID/task/*/status): each is a wake-up. It
prints them side by side, per thread and per second, and their ratio.
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
    from pitable.harness import SimTable

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


def switches(pid: int) -> dict[str, int]:
    """Context switches (voluntary + not) of each thread of a process, by "tid name"."""
    out = {}
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/status") as f:
                fields = dict(line.split(":", 1) for line in f if ":" in line)
        except FileNotFoundError:
            continue   # a thread that ended
        n = int(fields["voluntary_ctxt_switches"]) + int(fields["nonvoluntary_ctxt_switches"])
        out[f"{tid} {fields['Name'].strip()}"] = n
    return out


def real_daemon_wakeups(factory: str | None, seconds: float, config: str | None = None,
                        settle: float = 5.0) -> tuple[dict[str, int], float]:
    """Wake-ups per thread of ``pitable run`` on real GPIO over ``seconds`` of idle.
    ``factory`` None: pitable's default choice."""
    config = config or os.path.join(ROOT, "config", "direct-3-seats.yaml")
    env = {**os.environ, "PYTHONPATH": ROOT, "STATE_DIRECTORY": tempfile.mkdtemp()}
    env.pop("GPIOZERO_PIN_FACTORY", None)
    if factory:
        env["GPIOZERO_PIN_FACTORY"] = factory
    logs = tempfile.mkdtemp()
    import yaml

    with open(config) as f:
        raw = yaml.safe_load(f)
    raw["log_dir"] = logs
    path = os.path.join(logs, "idle.yaml")
    with open(path, "w") as f:
        yaml.safe_dump(raw, f)
    proc = subprocess.Popen([sys.executable, "-m", "pitable", "run", "--new", "--display", "terminal",
                             "--config", path], env=env, cwd=logs,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            line = proc.stderr.readline()
            if not line:
                raise RuntimeError(f"pitable run ended before it was running (factory {factory}): "
                                   f"{proc.stderr.read().decode(errors='replace')[-2000:]}")
            if b"pitable running" in line:
                break
        time.sleep(settle)  # start-up work (the first frames, imports) done
        before, start = switches(proc.pid), time.monotonic()
        time.sleep(seconds)
        after, elapsed = switches(proc.pid), time.monotonic() - start
    finally:
        proc.terminate()
        proc.wait(60)
    return {t: after[t] - before.get(t, 0) for t in after}, elapsed


def compare_factories(names: list[str], seconds: float) -> dict[str, float]:
    rates = {}
    for name in names:
        per_thread, elapsed = real_daemon_wakeups(None if name == "default" else name, seconds)
        total = sum(per_thread.values())
        rates[name] = total / elapsed
        busy = ", ".join(f"{t}: {n}" for t, n in sorted(per_thread.items(), key=lambda x: -x[1]) if n)
        print(f"{name:>8}: {total:7d} wake-ups in {elapsed:.0f} s = {total / elapsed:9.1f}/s "
              f"({len(per_thread)} threads; {busy or 'none woke'})", flush=True)
    if len(rates) == 2:
        (a, ra), (b, rb) = rates.items()
        if rb:
            print(f"{a}/{b}: {ra / rb:.0f} times the wake-ups ({ra:.1f}/s vs {rb:.1f}/s)")
        else:
            print(f"{a}: {ra:.1f} wake-ups a second; {b}: none in the whole window")
    return rates


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--factories", help="on real GPIO: compare these pin factories "
                        "(comma-separated, e.g. lgpio,gpiod; 'default' is pitable's own choice)")
    args = parser.parse_args()
    if args.factories:
        print(f"idle daemon on real GPIO ({args.seconds:.0f} s each): context switches of all its threads")
        compare_factories(args.factories.split(","), args.seconds)
        return
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
