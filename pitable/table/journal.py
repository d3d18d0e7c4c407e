"""The durable game log: every committed input is on disk before the screen confirms it.

One JSON Lines file per game (``docs/log-format.md``) in the log directory. Each
line is written with one ``write``, flushed and ``fsync``-ed; a new file's directory
entry is synced too, so a power cut keeps every line that was confirmed. A line torn
by a power cut mid-write is cut off before the next append, so the log stays valid.

The file is written with ``os.pwrite`` at a position the journal keeps itself (no
buffer of Python's in between): a write the disk refused leaves nothing behind that a
later write could carry to disk. Taking lines back cuts the file at that position; if
even that fails the refused bytes are blanked in place (a line without its newline,
which replay ignores) and the journal refuses to write until the cut succeeds, so it
never writes past garbage.
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pitable.errors import LogError
from pitable.rules.log import encode, parse_line, replay_good_part

if TYPE_CHECKING:
    from concurrent.futures import Future, ThreadPoolExecutor

    from pitable.rules.games import GameState

log = logging.getLogger(__name__)

SUFFIX = ".jsonl"
ASIDE = ".bad"  # the part of a log that could not be replayed is kept in LOG.jsonl.bad
MAX_LOG_BYTES = 16 << 20  # a whole evening's log is a few hundred KiB; anything far larger is not one


class Journal:
    """An open game log, appended to durably. Every method that touches the disk
    raises OSError when the disk refuses; the file then holds what it held before."""

    saving: Literal[True] = True

    def __init__(self, path: Path, fd: int, size: int, lines: int = 0):
        self.path = Path(path)
        self._fd = fd
        self._size = size           # where the confirmed and written lines end
        self._end = size            # how far bytes may lie on disk (refused ones too)
        self._broken: OSError | None = None  # an OSError: a take-back failed, refuse until it is cut
        self._syncer: ThreadPoolExecutor | None = None
        self.lines = lines

    @classmethod
    def create(cls, log_dir: Path, header: dict, now: float | None = None) -> Journal:
        """A new log with its header on disk. OSError when the directory or the disk
        refuses: then no log is left behind.

        The header is written and synced under a hidden name first and the log takes its
        real name only then (a hard link, which never replaces a file): a power cut at any
        moment leaves either no log or a log with its whole header, never an empty one."""
        log_dir = Path(log_dir)
        log_dir.mkdir(parents=True, exist_ok=True)
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
        flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
        temp = log_dir / f".{header['game']}-{stamp}-{os.getpid()}.new"
        try:
            fd = os.open(temp, flags, 0o644)
        except FileExistsError:
            temp.unlink()  # left by a start that died before it was named: no confirmed line
            fd = os.open(temp, flags, 0o644)
        journal = cls(temp, fd, 0)
        try:
            journal.append(header)
            n = 1
            path = log_dir / f"{header['game']}-{stamp}{SUFFIX}"
            while True:
                try:
                    _name(temp, path)
                    break
                except FileExistsError:  # two games in one second
                    n += 1
                    path = log_dir / f"{header['game']}-{stamp}-{n}{SUFFIX}"
            journal.path = path
            _sync_dir(log_dir)
        except OSError:
            journal.close()
            for name in {temp, journal.path}:
                try:
                    name.unlink()  # it holds no confirmed line
                except OSError:
                    pass
            raise
        return journal

    @classmethod
    def reopen(cls, path: Path, size: int | None = None) -> Journal:
        """Open an existing log for appending, first cutting off a torn last line (or
        everything past ``size``, the end of its good part). OSError if it cannot be."""
        path = Path(path)
        fd = os.open(path, os.O_RDWR | getattr(os, "O_CLOEXEC", 0))
        try:
            data = _read_all(fd)
            keep = data.rfind(b"\n") + 1 if size is None else size
            if keep != len(data):
                os.ftruncate(fd, keep)
                os.fsync(fd)
        except OSError:
            os.close(fd)
            raise
        return cls(path, fd, keep, data[:keep].count(b"\n"))

    def append(self, obj: dict) -> None:
        """Write one line and make it durable. Raises OSError if the disk refuses
        (and then the line is not in the file)."""
        mark = self.tell()
        try:
            self.write(obj)
            self.sync()
        except OSError:
            self.truncate(mark)
            raise

    def write(self, obj: dict) -> None:
        """Write one line, not yet durable: a key's lines are synced together (``sync``).
        On OSError nothing of the line stays in the file (or the journal is broken)."""
        self._usable()
        data = encode(obj).encode("utf-8")
        at = self._size
        self._end = max(self._end, at + len(data))
        try:
            done = 0
            while done < len(data):  # a short write (a disk filling up) goes on where it stopped
                n = os.pwrite(self._fd, data[done:], at + done)
                if n <= 0:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                done += n
        except OSError:
            self._cut(at)
            raise
        self._size = at + len(data)
        self.lines += 1

    def sync(self) -> None:
        """Make every line written so far survive a power cut."""
        self._usable()
        os.fsync(self._fd)

    def sync_start(self):
        """Start ``sync`` on a worker thread and return at once (a Future): the loop draws
        the frame while the disk works, and waits for it before showing the frame."""
        if self._syncer is None:
            from concurrent.futures import ThreadPoolExecutor

            self._syncer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pitable-fsync")
        return self._syncer.submit(self.sync)

    def tell(self) -> tuple:
        """Where the log ends now, for ``truncate``."""
        return self._size, self.lines

    def truncate(self, mark: tuple) -> None:
        """Cut the log back to ``mark`` (lines the disk would not keep are taken back).
        OSError if the cut failed: the journal then refuses to write until it succeeds."""
        if self._fd is None:  # closed: the same error a write gets, not a TypeError
            raise OSError(errno.EBADF, "the game log is closed")
        size, lines = mark
        self._size, self.lines = size, lines
        self._cut(size)
        if self._broken is not None:
            raise self._broken

    def _cut(self, size: int) -> None:
        """Make the file end at ``size``; if the disk will not, blank what lies past it
        and remember that the journal is broken."""
        try:
            os.ftruncate(self._fd, size)
        except OSError as e:
            self._broken = OSError(e.errno, f"the log could not be cut back ({e.strerror})")
            log.error("cannot cut the game log back: %s", e)
            self._blank(size)
            return
        self._end = size
        self._broken = None
        try:
            os.fsync(self._fd)  # the cut survives a power cut too (the next key syncs it if not)
        except OSError:
            pass

    def _blank(self, size: int) -> None:
        """Overwrite bytes past ``size`` with spaces and no newline: no new blocks are
        needed, and replay ignores a last line without its newline."""
        if self._end <= size:
            return
        try:
            os.pwrite(self._fd, b" " * (self._end - size), size)
            os.fsync(self._fd)
        except OSError as e:
            log.error("cannot blank the refused lines either: %s", e)

    def _usable(self) -> None:
        """Refuse to write while a take-back is pending; try the cut again first."""
        if self._fd is None:
            raise OSError(errno.EBADF, "the game log is closed")
        if self._broken is not None:
            self._cut(self._size)
            if self._broken is not None:
                raise self._broken

    def close(self) -> None:
        if self._syncer is not None:
            self._syncer.shutdown(wait=True)  # a sync under way finishes first
            self._syncer = None
        if self._fd is not None:
            fd, self._fd = self._fd, None
            os.close(fd)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class NoJournal:
    """Stands in for the log when there is none (the directory or the disk refused):
    the game goes on in memory only, and the table says so on the screen."""

    saving: Literal[False] = False
    path = None
    lines = 0

    def __init__(self, error: OSError):
        self.errno = error.errno
        self.reason = error.strerror or str(error)

    def append(self, obj: dict) -> None:
        pass

    write = append

    def sync(self) -> None:
        pass

    def sync_start(self):
        from concurrent.futures import Future

        done: Future[None] = Future()
        done.set_result(None)
        return done

    def tell(self) -> tuple:
        return (0, 0)

    def truncate(self, mark: tuple) -> None:
        pass

    def close(self) -> None:
        pass


def cannot_write(log_dir: Path) -> OSError | None:
    """Why no game log could be made in ``log_dir`` (an OSError, not raised), or None when
    it looks writable. Only looks (no test file): a start-up check, the write decides."""
    def error(code):
        return OSError(code, os.strerror(code))

    path = Path(log_dir)
    try:
        while not path.exists():
            if path.parent == path:
                return None
            path = path.parent
        if not path.is_dir():
            return error(errno.ENOTDIR)
        if os.statvfs(path).f_flag & os.ST_RDONLY:
            return error(errno.EROFS)
        if not os.access(path, os.W_OK | os.X_OK):
            return error(errno.EACCES)
    except OSError as e:
        return e
    return None


def _read_all(fd: int) -> bytes:
    chunks: list[bytes] = []
    at = 0
    while True:
        chunk = os.pread(fd, 1 << 16, at)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        at += len(chunk)


def _name(temp: Path, path: Path) -> None:
    """Give the file ``temp`` the name ``path``; FileExistsError if that name is taken."""
    try:
        os.link(temp, path)
    except FileExistsError:
        raise
    except OSError:  # a filesystem without hard links (FAT): a rename, checked first
        if path.exists():
            raise FileExistsError(errno.EEXIST, "exists", str(path)) from None
        os.rename(temp, path)
        return
    os.unlink(temp)


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


# -- finding the game to resume --------------------------------------------------------------

class Found(NamedTuple):
    """The newest log of an unfinished game, as far as it replays."""

    path: Path
    state: GameState | None  # None: nothing of it can be resumed (``problem`` says why)
    log: Any                    # the rules.log.Log read, or None
    problem: str | None = None  # the first bad line, or why the file cannot be read: one line
    bad_line: int | None = None  # where the part that replays ends, when a bad tail follows
    good_size: int | None = None  # bytes of the part that replays, when something follows it


_NAME = re.compile(r"-(\d{8}-\d{6})(?:-(\d+))?" + re.escape(SUFFIX) + "$")


def _content_order(path: Path) -> tuple:
    """How new a log is by what it says: the header's ``started``, then the time and
    the counter in its name (``-2`` is the second game of that second)."""
    started = ""
    try:
        with open(path, "rb") as f:
            first = f.readline(4096).decode("utf-8", errors="replace")
        head = parse_line(1, first)
        if isinstance(head.get("started"), str):
            started = head["started"]
    except (OSError, LogError):
        pass
    m = _NAME.search(path.name)
    return (started, m.group(1) if m else "", int(m.group(2) or 1) if m else 0, path.name)


def find_unfinished(log_dir: Path) -> Found | None:
    """The newest log in ``log_dir`` if its game is not over: replayed up to its first
    bad line (``problem``), or with ``state`` None when not even its header is good.

    Newest by modification time, ties decided by content (``_content_order``), never by
    the order the directory lists. Entries that are not files (a broken symlink, a
    directory) are skipped with a warning. None when there is nothing to resume. Never
    raises for what is in the directory.
    """
    log_dir = Path(log_dir)
    try:
        names = list(log_dir.glob(f"*{SUFFIX}")) if log_dir.is_dir() else []
    except OSError as e:
        log.warning("cannot list the log directory %s: %s", log_dir, e.strerror or e)
        return None
    logs = []
    for path in names:
        try:
            st = path.stat()
        except OSError as e:
            log.warning("ignoring %s: %s", path, e.strerror or e)
            continue
        if not stat.S_ISREG(st.st_mode):
            log.warning("ignoring %s: not a file", path)
            continue
        logs.append((st.st_mtime_ns, st.st_size, path))
    if not logs:
        return None
    newest = max(m for m, _, _ in logs)
    size, path = max(((s, p) for m, s, p in logs if m == newest), key=lambda sp: _content_order(sp[1]))
    if size > MAX_LOG_BYTES:
        return Found(path, None, None, f"{size} bytes is too large for a game log")
    try:
        data = path.read_bytes()
    except OSError as e:
        return Found(path, None, None, f"cannot read it: {e.strerror or e}")
    try:
        good = replay_good_part(data.decode("utf-8", errors="replace"))
    except LogError as e:
        return Found(path, None, None, str(e))
    from pitable.rules.log import abandoned

    if good.state.is_over() or abandoned(good.log):
        if good.bad_line is not None:
            log.warning("%s: the game is over, but %s (left as it is)", path, good.problem)
        return None
    if good.bad_line is not None:
        return Found(path, good.state, good.log, good.problem, good.bad_line, _line_start(data, good.bad_line))
    if data and not data.endswith(b"\n"):  # a line torn by a power cut: kept aside too
        return Found(path, good.state, good.log, good_size=data.rfind(b"\n") + 1)
    return Found(path, good.state, good.log)


def _line_start(data: bytes, line: int) -> int:
    """The byte offset where line ``line`` (1-based) begins."""
    at = 0
    for _ in range(line - 1):
        at = data.index(b"\n", at) + 1
    return at


def set_aside(path: Path, size: int) -> Path:
    """Keep what lies past ``size`` in a sibling file (``LOG.jsonl.bad``, durably), then
    cut the log there. Nothing is deleted. OSError if the disk refuses (then the log is
    as it was)."""
    path = Path(path)
    with open(path, "rb") as f:
        f.seek(size)
        tail = f.read()
    aside = path.with_name(path.name + ASIDE)
    n = 1
    while True:
        try:
            fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            break
        except FileExistsError:
            n += 1
            aside = path.with_name(f"{path.name}.{n}{ASIDE}")
    try:
        done = 0
        while done < len(tail):
            done += os.write(fd, tail[done:])
        os.fsync(fd)
    except OSError:
        os.close(fd)
        try:
            aside.unlink()  # a part-copy: the original still holds it all
        except OSError:
            pass
        raise
    os.close(fd)
    _sync_dir(path.parent)
    fd = os.open(path, os.O_RDWR)
    try:
        os.ftruncate(fd, size)
        os.fsync(fd)
    finally:
        os.close(fd)
    return aside
