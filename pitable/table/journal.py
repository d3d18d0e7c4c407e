"""The durable game log: every committed input is on disk before the screen confirms it.

One JSON Lines file per game (``docs/log-format.md``) in the log directory. Each
line is written with one ``write``, flushed and ``fsync``-ed; a new file's directory
entry is synced too, so a power cut keeps every line that was confirmed. A line torn
by a power cut mid-write is cut off before the next append, so the log stays valid.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from pitable.errors import LogError
from pitable.rules.log import encode, replay

SUFFIX = ".jsonl"


class Journal:
    """An open game log, appended to durably."""

    def __init__(self, path: Path, fileobj):
        self.path = Path(path)
        self._file = fileobj
        self._syncer = None
        self.lines = 0

    @classmethod
    def create(cls, log_dir: Path, header: dict, now: float | None = None) -> Journal:
        log_dir = Path(log_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
        path = log_dir / f"{header['game']}-{stamp}{SUFFIX}"
        n = 1
        while path.exists():  # two games in one second
            n += 1
            path = log_dir / f"{header['game']}-{stamp}-{n}{SUFFIX}"
        journal = cls(path, open(path, "x", encoding="utf-8"))
        journal.append(header)
        _sync_dir(log_dir)
        return journal

    @classmethod
    def reopen(cls, path: Path) -> Journal:
        """Open an existing log for appending, first cutting off a torn last line."""
        path = Path(path)
        with open(path, "rb+") as f:
            data = f.read()
            if data and not data.endswith(b"\n"):
                f.truncate(data.rfind(b"\n") + 1)
                f.flush()
                os.fsync(f.fileno())
        journal = cls(path, open(path, "a", encoding="utf-8"))
        journal.lines = data.count(b"\n")
        return journal

    def append(self, obj: dict) -> None:
        """Write one line and make it durable. Raises OSError if the disk refuses."""
        self.write(obj)
        self.sync()

    def write(self, obj: dict) -> None:
        """Write one line, not yet durable: a key's lines are synced together (``sync``)."""
        self._file.write(encode(obj))
        self._file.flush()
        self.lines += 1

    def sync(self) -> None:
        """Make every line written so far survive a power cut."""
        os.fsync(self._file.fileno())

    def sync_start(self):
        """Start ``sync`` on a worker thread and return at once (a Future): the loop draws
        the frame while the disk works, and waits for it before showing the frame."""
        if self._syncer is None:
            from concurrent.futures import ThreadPoolExecutor

            self._syncer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pitable-fsync")
        return self._syncer.submit(self.sync)

    def tell(self) -> tuple:
        """Where the log ends now, for ``truncate``."""
        return self._file.tell(), self.lines

    def truncate(self, mark: tuple) -> None:
        """Cut the log back to ``mark`` (lines the disk would not keep are taken back)."""
        size, self.lines = mark
        self._file.flush()
        os.truncate(self._file.fileno(), size)
        self._file.seek(size)

    def close(self) -> None:
        if self._syncer is not None:
            self._syncer.shutdown(wait=True)  # a sync under way finishes first
            self._syncer = None
        if not self._file.closed:
            self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _sync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return  # not every filesystem lets a directory be opened; the file itself is synced
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def find_unfinished(log_dir: Path):
    """The newest log in ``log_dir`` whose game is not over, replayed: (path, state, log).

    Logs that cannot be replayed are skipped (they are kept for people to look at).
    Returns None when there is nothing to resume.
    """
    log_dir = Path(log_dir)
    if not log_dir.is_dir():
        return None
    paths = sorted(log_dir.glob(f"*{SUFFIX}"), key=lambda p: p.stat().st_mtime, reverse=True)
    for path in paths:
        try:
            state, log = replay(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, LogError):
            continue
        if not state.is_over():
            return path, state, log
        return None  # the newest game finished: nothing to resume
    return None
