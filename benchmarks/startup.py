"""Start-up: process start to first frame, against the bare imports; and peak memory.

Both are whole Python processes started the same way, run alternately N times:
  bare     python -c "import gpiozero, luma.oled.device, PIL.Image"
  pitable  pitable run --config benchmarks/configs/mock-4-seats.yaml --exit-after-first-frame
           (as the console script runs it)
           (config check, mock pins, 4-seat matrix pads, the table, the first frame drawn and
           handed to the display; then exit)
Prints medians, their ratio (target: within 1.5x) and peak RSS (target: under 40 MB).

Run: python benchmarks/startup.py [--runs 15]
"""

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def run(cmd, env):
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(proc.pid, 0)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{cmd} failed: {proc.stderr.read().decode()}")
    return elapsed, usage.ru_maxrss / 1024  # KiB -> MiB on Linux


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": ROOT, "STATE_DIRECTORY": tempfile.mkdtemp()}
    # pip compiles an installed package to bytecode, as it did gpiozero, luma and Pillow;
    # a source checkout may not have it (PYTHONDONTWRITEBYTECODE): compile it the same way.
    import compileall

    compileall.compile_dir(os.path.join(ROOT, "pitable"), quiet=1)
    bare = [sys.executable, "-c", "import gpiozero, luma.oled.device, PIL.Image"]
    # What the console script (the systemd unit's ExecStart) runs.
    argv = ["run", "--config", os.path.join(HERE, "configs", "mock-4-seats.yaml"),
            "--exit-after-first-frame", "--new"]
    ours = [sys.executable, "-c", f"from pitable.cli import main; raise SystemExit(main({argv!r}))"]
    times = {"bare": [], "pitable": []}
    rss = {"bare": [], "pitable": []}
    for _ in range(args.runs):
        for name, cmd in (("bare", bare), ("pitable", ours)):
            t, m = run(cmd, env)
            times[name].append(t)
            rss[name].append(m)
    b, p = statistics.median(times["bare"]), statistics.median(times["pitable"])
    print(f"start-up over {args.runs} runs each (medians, whole processes)")
    print(f"  bare imports (gpiozero, luma.oled, Pillow)  {b * 1000:7.1f} ms   peak RSS {max(rss['bare']):5.1f} MB")
    print(f"  pitable run to first frame                  {p * 1000:7.1f} ms   peak RSS {max(rss['pitable']):5.1f} MB")
    print(f"  ratio {p / b:.2f}x   (targets: within 1.5x of the bare imports, peak RSS under 40 MB)")


if __name__ == "__main__":
    main()
