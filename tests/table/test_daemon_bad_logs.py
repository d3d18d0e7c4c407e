"""The real daemon (``pitable run``) with a bad log directory: it starts, takes keys,
says what is wrong in its log, and stops cleanly. No restart loop under systemd."""

import json
import queue
import re
import signal
import threading
import time

import pytest

from .test_crash import config, start


class Lines:
    """The daemon's log lines, read on a thread so that waiting can time out."""

    def __init__(self, proc):
        self.seen: list = []
        self._q: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, args=(proc.stderr,), daemon=True).start()

    def _read(self, stream):
        for raw in stream:
            self._q.put(raw.decode(errors="replace"))
        self._q.put(None)

    def wait_for(self, pattern, timeout=30):
        deadline = time.monotonic() + timeout
        while True:
            try:
                line = self._q.get(timeout=max(0.01, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no {pattern!r} in time; saw {self.seen}") from None
            if line is None:
                raise AssertionError(f"daemon ended before {pattern!r}; saw {self.seen}")
            self.seen.append(line)
            if re.search(pattern, line):
                return line


@pytest.mark.parametrize("case", ["log_dir is a file", "a line nested 100000 deep", "pads 1 1",
                                  "a broken symlink"])
def test_the_daemon_runs_whatever_is_in_its_log_directory(tmp_path, case):
    cfg = config(tmp_path)
    logs = tmp_path / "logs"
    if case == "log_dir is a file":
        logs.write_text("not a directory\n")
    else:
        logs.mkdir()
        path = logs / "grasshopper-20261129-200000.jsonl"
        head = {"game": "grasshopper", "players": 3, "options": {}, "pads": [1, 2, 3]}
        if case == "a line nested 100000 deep":
            path.write_text(json.dumps(head) + "\n" + "[" * 100000 + "]" * 100000 + "\n")
        elif case == "pads 1 1":
            path.write_text(json.dumps({**head, "pads": [1, 1, 2]}) + "\n")
        else:
            path.symlink_to(logs / "gone")
    proc = start(cfg)
    out = Lines(proc)
    try:
        out.wait_for("pitable running")
        assert any(re.match(r"(ERROR|WARNING) ", line) for line in out.seen), out.seen
        if case == "a line nested 100000 deep":  # resumed up to the line before it
            assert any("resumed up to line 1" in line for line in out.seen)
            return
        # a key past the notice (if any), then Grasshopper Poker: seats 1-3 join, A, A
        keys = b"1" if case in ("pads 1 1", "log_dir is a file") else b""
        proc.stdin.write(keys + b"1" + b"1qa" + b"7" + b"7")
        proc.stdin.flush()
        if case == "log_dir is a file":  # said at start: the game starts unsaved
            out.wait_for("cannot create a game log")
            out.wait_for("NOT SAVED")
        else:
            out.wait_for("new grasshopper game")
    finally:
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=10) == 0
        assert not any("Traceback" in line for line in out.seen), out.seen
