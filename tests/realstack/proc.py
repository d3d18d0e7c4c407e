"""A pitable command (or a Python child) run as its user would, read as it prints."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

PYTHON = sys.executable


class Running:
    """A child process whose stdout and stderr are collected by threads, so that a test
    waits for what it printed (never for a fixed time)."""

    def __init__(self, args, env=None, cwd=None) -> None:
        self.args = args
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "TERM": "dumb", **(env or {})}
        self.proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL, env=env, cwd=cwd)
        self.out = bytearray()
        self.err = bytearray()
        self._cv = threading.Condition()
        self._threads = [threading.Thread(target=self._read, args=(f, buf), daemon=True)
                         for f, buf in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for t in self._threads:
            t.start()

    def _read(self, f, buf) -> None:
        while True:
            chunk = os.read(f.fileno(), 65536)
            with self._cv:
                if not chunk:
                    self._cv.notify_all()
                    return
                buf += chunk
                self._cv.notify_all()

    @property
    def text(self) -> str:
        with self._cv:
            return self.out.decode(errors="replace")

    @property
    def errors(self) -> str:
        with self._cv:
            return self.err.decode(errors="replace")

    def count(self, needle: str) -> int:
        return self.text.count(needle)

    def wait_for(self, needle: str, times: int = 1, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        with self._cv:
            while self.out.decode(errors="replace").count(needle) < times:
                left = deadline - time.monotonic()
                if left <= 0 or (self.proc.poll() is not None and not any(t.is_alive() for t in self._threads)):
                    raise AssertionError(
                        f"{needle!r} x{times} not printed in {timeout} s by {self.args}\n"
                        f"--- stdout (end)\n{self.out.decode(errors='replace')[-3000:]}\n"
                        f"--- stderr (end)\n{self.err.decode(errors='replace')[-3000:]}")
                self._cv.wait(min(left, 0.5))

    def stop(self, sig=signal.SIGTERM, timeout: float = 60.0) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(sig)
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            rc = self.proc.wait()
        for t in self._threads:
            t.join(5)
        return rc

    def finish(self, timeout: float = 600.0) -> int:
        """Wait for the child to end by itself; its whole output is in by then."""
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            raise AssertionError(f"{self.args} did not end in {timeout} s\n"
                                 f"{self.text[-3000:]}\n{self.errors[-3000:]}") from None
        for t in self._threads:
            t.join(5)
        return rc

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


FRAME_END = "\x1b[J"   # the terminal display ends every frame with it
FIRST_FRAME = 300.0    # s: the first frame under TCG on a loaded host (imports, fonts)


def pitable(*args, env=None, cwd=None) -> Running:
    return Running([PYTHON, "-m", "pitable", *args], env=env, cwd=cwd)


def child(code: str, env=None) -> Running:
    """Python code in a process of its own: gpiozero keeps one pin factory per process
    and never cancels lgpio's callbacks, so each scenario starts clean."""
    return Running([PYTHON, "-c", code], env=env)
