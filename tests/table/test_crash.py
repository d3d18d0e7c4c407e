"""Power cuts: the daemon killed with SIGKILL at many points, restarted, nothing lost.

The real ``pitable run`` runs as a subprocess (dummy display, keyboard pads fed
through a pipe). After every kill the log must replay, keep every line it had,
and the restarted daemon must resume exactly the state the log gives.
"""

import json
import os
import random
import re
import signal
import subprocess
import sys
import time

import pytest

from pitable.rules.log import replay

pytestmark = pytest.mark.system  # real daemons, SIGKILLed at random points

ROWS = ["12345678", "qwertyui", "asdfghjk"]


def config(tmp_path):
    path = tmp_path / "crash.yaml"
    path.write_text(
        "game: grasshopper\ndeck: physical\nseats: 3\n"
        "reaction_seconds: 0\n"  # keys typed ahead in one write: each acts on the screen it arrives at
        f"log_dir: {tmp_path / 'logs'}\n"
        "display:\n  display: dummy\n  blank_after: 0\n"
        "pads:\n  wiring: keyboard\n  keyboard:\n    rows: [\"12345678\", \"qwertyui\", \"asdfghjk\"]\n")
    return path


def start(cfg):
    return subprocess.Popen([sys.executable, "-m", "pitable", "run", "--config", str(cfg)],
                            stdin=subprocess.PIPE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL,
                            env={**os.environ, "PYTHONUNBUFFERED": "1"})


def wait_for(proc, pattern, timeout=20):
    """Read the daemon's log lines until one matches; returns the match."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        line = proc.stderr.readline().decode()
        if not line:
            raise AssertionError(f"daemon ended before {pattern!r}")
        m = re.search(pattern, line)
        if m:
            return m
    raise AssertionError(f"no {pattern!r} in time")


def the_log(tmp_path):
    logs = sorted((tmp_path / "logs").glob("*.jsonl"))
    return logs[-1] if logs else None


def test_sigkill_at_many_points_loses_nothing_and_resumes_the_logged_state(tmp_path):
    cfg = config(tmp_path)
    rng = random.Random(11)
    proc = start(cfg)
    wait_for(proc, "pitable running")
    # Setup: Grasshopper Poker, seats 1-3 join, A, A.
    proc.stdin.write(b"1" + b"1qa" + b"7" + b"7")
    proc.stdin.flush()
    before = []
    kills = resumes = unstarted = finished = 0
    for _ in range(25):
        keys = "".join(rng.choice(rng.choice(ROWS)) for _ in range(rng.randint(5, 40)))
        try:
            proc.stdin.write(keys.encode())
            proc.stdin.flush()
        except BrokenPipeError:
            pass
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)  # a pulled plug, at whatever point it is
        proc.wait()
        kills += 1
        path = the_log(tmp_path)
        if path is None:  # killed before the first move reached the disk: nothing to lose
            unstarted += 1
            proc = start(cfg)
            wait_for(proc, "pitable running")
            proc.stdin.write(b"1" + b"1qa" + b"7" + b"7")
            proc.stdin.flush()
            continue
        text = path.read_text()
        complete = text[: text.rfind("\n") + 1]
        lines = complete.splitlines()
        assert lines[: len(before)] == before, "a line that was on disk is gone"
        before = lines
        state, _ = replay(text)  # a torn last line is tolerated
        proc = start(cfg)
        if state.is_over():
            wait_for(proc, "pitable running")
            proc.stdin.write(b"7" + b"1" + b"1qa" + b"7" + b"7")  # past the end: a new game
            proc.stdin.flush()
            before = []
            finished += 1
            continue
        m = wait_for(proc, r"resuming (\S+): (\d+) inputs, round (\d+), (\w+)")
        assert m.group(1) == str(path)
        assert int(m.group(2)) == len(state.moves)
        assert (int(m.group(3)), m.group(4)) == (state.round, state.phase)
        resumes += 1
        wait_for(proc, "pitable running")
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=10) == 0  # a graceful stop
    # every kill was one of the three, each checked above: not started yet, a finished game, or
    # resumed at exactly the logged state (how many of each depends on the machine's speed)
    assert kills == 25 == unstarted + finished + resumes and resumes >= 1
    # every log left behind replays
    for path in (tmp_path / "logs").glob("*.jsonl"):
        replay(path.read_text())
    assert json.loads(the_log(tmp_path).read_text().splitlines()[0])["game"] == "grasshopper"
