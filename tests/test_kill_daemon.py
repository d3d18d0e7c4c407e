"""Ending the daemon while the assistant thinks: a SIGKILLed daemon leaves no process
behind (the assistant's worker, the forkserver it came from and multiprocessing's resource
tracker used to wait on forever, orphaned, on a laptop as on a Pi), and Ctrl-C ends it at
once (it used to wait for the search under way to finish)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pitable.rules.grasshopper import REVEAL, Options, header
from pitable.rules.log import check_header, encode

pytestmark = pytest.mark.system  # a real daemon in a subprocess, and its worker process

ROOT = Path(__file__).resolve().parent.parent


def in_session(sid: int) -> list[int]:
    """The processes of session ``sid`` (the daemon started one; its children inherit it)."""
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if os.getsid(int(entry)) == sid:
                    found.append(int(entry))
            except OSError:  # gone meanwhile
                pass
    return found


def a_game_where_the_assistant_must_bid(log_dir: Path) -> None:
    """A log the daemon resumes at a turn's bidding, the assistant (seat 3, strong) to bid."""
    head = header(3, Options(), deck="physical", pads=[1, 2], started="2026-12-05T12:00:00",
                  assistant={"seats": [3], "level": "strong", "budget": 200_000, "seed": 1})
    state = check_header(head)
    lines = [encode(head)]
    while state.phase is REVEAL:
        move = state.legal_moves()[0]
        state.push(move)
        lines.append(encode(move.to_json()))
    log_dir.mkdir()
    (log_dir / "2026-12-05-120000.jsonl").write_text("".join(lines))


def thinking_daemon(tmp_path: Path) -> subprocess.Popen:
    """A real ``pitable run`` that resumes a game where the strong assistant must bid; once
    its worker has started (the daemon, the tracker, the forkserver, the worker)."""
    a_game_where_the_assistant_must_bid(tmp_path / "logs")
    cfg = tmp_path / "pitable.yaml"
    cfg.write_text(f"game: grasshopper\nseats: 3\nlog_dir: {tmp_path / 'logs'}\n"
                   "display:\n  display: dummy\n  blank_after: 0\n"
                   "pads:\n  wiring: keyboard\n")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tmp_path / "home"),
           "STATE_DIRECTORY": str(tmp_path / "state"), "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    daemon = subprocess.Popen([sys.executable, "-m", "pitable", "run", "--config", str(cfg)],
                              stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                              env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while len(in_session(daemon.pid)) < 4:
        if daemon.poll() is not None or time.monotonic() > deadline:
            for pid in in_session(daemon.pid):
                os.kill(pid, signal.SIGKILL)
            raise AssertionError(f"no worker started (daemon exit {daemon.poll()})")
        time.sleep(0.1)
    return daemon


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="reads /proc (Linux)")
def test_ctrl_c_while_the_assistant_thinks_ends_pitable_at_once(tmp_path):
    daemon = thinking_daemon(tmp_path)
    try:
        daemon.send_signal(signal.SIGINT)
        assert daemon.wait(10) == 130  # the search (200,000 playouts) would take minutes
    finally:
        for pid in in_session(daemon.pid):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.skipif(not Path("/proc/self").exists(), reason="reads /proc (Linux)")
def test_a_sigkilled_daemon_leaves_no_process_behind(tmp_path):
    daemon = thinking_daemon(tmp_path)
    try:
        daemon.send_signal(signal.SIGKILL)
        daemon.wait()
        deadline = time.monotonic() + 10
        while in_session(daemon.pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        left = {pid: Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")[:120]
                for pid in in_session(daemon.pid)}
        assert not left, f"left behind: {left}"
    finally:
        for pid in in_session(daemon.pid):
            os.kill(pid, signal.SIGKILL)
