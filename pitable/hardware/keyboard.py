"""The desktop fallback: rows of a computer keyboard as pads.

Default rows, seat by seat (keys 1 2 3 4 5 6 A X of each pad, left to right)::

    seat 1   1 2 3 4 5 6 7 8
    seat 2   q w e r t y u i
    seat 3   a s d f g h j k
    seat 4   z x c v b n m ,
    seat 5   Alt+1 ... Alt+8          (Cockroach Poker with 5-6 players)
    seat 6   Alt+q ... Alt+i

A key typed alone is a short press; with Shift (``Q``, ``!``, ``<`` ...) it is a long
press (hold). A terminal reports no key releases, so holding a key down does nothing
special (auto-repeat just types it again): use Shift for a long press.

Why Alt for seats 5 and 6: six pads need 48 keys that each have a distinct shifted
form, and the main block of a US keyboard has only 47. A row written ``"alt+12345678"``
means those keys with Alt. Terminals send Alt+key as ESC followed by the key (macOS:
enable "Use Option as Meta key"); so ``[`` and ``o`` cannot be in an Alt row: Alt+[
and Alt+Shift+o look like the start of escape sequences (arrow keys etc., ignored).
Shifted symbols are read as on a US layout (``!`` is Shift+``1``); in the pygame window
the layout does not matter.

Two sources, one mapping (:class:`KeyMap`):

* :class:`KeyboardPads`: a thread reading this terminal in cbreak mode (not raw: Ctrl-C
  still raises KeyboardInterrupt in the main thread), restored on close.
* :class:`PygameKeys`: the keys typed into the pygame emulator window, read by the loop
  thread (``poll()``), because pygame's events belong to the thread that opened it.
  :class:`PygameKeyboard` drives it for a loop whose queue runs posted callables.

:func:`open_keyboard` picks the source for the display in use.
"""

from __future__ import annotations

import atexit
import codecs
import os
import select
import sys
import threading
from collections.abc import Callable, Iterable, Sequence

from ..errors import HardwareError, PitableError
from ..keys import COUNT as KEYS  # a pad's keys
from .keys import HOLD, PRESS, InputSource, KeyEvent

__all__ = [
    "DEFAULT_ROWS", "KeyMap", "KeyboardLayoutError", "keyboard_event_for",
    "KeyboardPads", "PygameKeys", "PygameKeyboard", "open_keyboard",
]

DEFAULT_ROWS: tuple[str, ...] = (
    "12345678", "qwertyui", "asdfghjk", "zxcvbnm,", "alt+12345678", "alt+qwertyui",
)

ALT_PREFIX = "alt+"

# Shift on a US layout: shifted symbol -> the key it is on.
_US_SHIFTED = dict(zip('!@#$%^&*()_+{}|:"<>?~', "1234567890-=[]\\;',./`"))

ESC = "\x1b"


class KeyboardLayoutError(PitableError, ValueError):
    """Keyboard rows that cannot work (wrong length, a key used twice, a shifted key)."""


def _split_shift(char: str) -> tuple[str, bool]:
    """The key a character is typed with, and whether Shift was needed."""
    if "A" <= char <= "Z":
        return char.lower(), True
    if char in _US_SHIFTED:
        return _US_SHIFTED[char], True
    return char, False


class KeyMap:
    """Which (character, Alt) is which (seat, key). Pure; shared by both sources."""

    def __init__(self, rows: Sequence[str] = DEFAULT_ROWS) -> None:
        self.rows = tuple(rows)
        self._table: dict[tuple[str, bool], tuple[int, int]] = {}
        self._labels: list[list[str]] = []
        for seat, spec in enumerate(self.rows):
            alt = spec.lower().startswith(ALT_PREFIX)
            chars = spec[len(ALT_PREFIX):] if alt else spec
            if len(chars) != KEYS:
                raise KeyboardLayoutError(
                    f"keyboard row {seat + 1} {spec!r}: {len(chars)} keys, need {KEYS}")
            labels = []
            for key, ch in enumerate(chars):
                base, shifted = _split_shift(ch)
                if shifted or not ch.isprintable() or ch.isspace() or ord(ch) > 126:
                    raise KeyboardLayoutError(
                        f"keyboard row {seat + 1} {spec!r}: {ch!r} cannot be a key "
                        "(use unshifted keys; Shift makes the long press)")
                if alt and ch in "[o":  # Alt+[ and Alt+Shift+o start escape sequences
                    raise KeyboardLayoutError(
                        f"keyboard row {seat + 1} {spec!r}: Alt+{ch} cannot be told "
                        "from an escape sequence in a terminal")
                if (ch, alt) in self._table:
                    s, k = self._table[(ch, alt)]
                    raise KeyboardLayoutError(
                        f"keyboard row {seat + 1} {spec!r}: {ch!r} is already seat "
                        f"{s + 1} key {k + 1}")
                self._table[(ch, alt)] = (seat, key)
                labels.append(("Alt+" if alt else "") + ch)
            self._labels.append(labels)

    @property
    def seats(self) -> int:
        return len(self.rows)

    def event_for(self, char: str, shift: bool = False, alt: bool = False) -> KeyEvent | None:
        """The pad event for a key: ``char`` as typed (``"Q"``, ``"!"`` imply Shift)
        or unshifted with ``shift``; None for keys that are not on a pad."""
        if len(char) != 1:
            return None
        base, shifted = _split_shift(char)
        hit = self._table.get((base, bool(alt)))
        if hit is None:
            return None
        return KeyEvent(hit[0], hit[1], HOLD if (shift or shifted) else PRESS)

    def decode(self, text: str) -> list[KeyEvent]:
        """Terminal input to events: ESC+key is Alt+key, escape sequences are skipped."""
        out = []
        i, n = 0, len(text)
        while i < n:
            ch = text[i]
            alt = False
            if ch == ESC:
                if i + 1 >= n:  # a lone Escape key
                    break
                nxt = text[i + 1]
                if nxt == "[":  # CSI: parameters, then a final byte @..~
                    j = i + 2
                    while j < n and not ("@" <= text[j] <= "~"):
                        j += 1
                    i = j + 1
                    continue
                if nxt == "O":  # SS3: one more character (F1-F4, keypad)
                    i += 3
                    continue
                if nxt == ESC:
                    i += 1
                    continue
                alt, ch = True, nxt
                i += 1
            ev = self.event_for(ch, alt=alt)
            if ev is not None:
                out.append(ev)
            i += 1
        return out

    def labels(self, seat: int) -> list[str]:
        """How the 8 keys of a seat are typed, e.g. ``["q", "w", ...]``, for help text."""
        return list(self._labels[seat])

    def help_text(self) -> str:
        """Two short lines for a caption: each seat's keys, and how to hold."""
        seats = []
        for seat, spec in enumerate(self.rows):
            alt = spec.lower().startswith(ALT_PREFIX)
            chars = spec[len(ALT_PREFIX):] if alt else spec
            seats.append(f"{seat + 1}:{'Alt+' if alt else ''}{chars}")
        return "Pads " + " ".join(seats) + "\nShift+key = long press"


_DEFAULT_MAP: KeyMap | None = None


def keyboard_event_for(char: str, shift: bool = False, *, alt: bool = False,
                       keymap: KeyMap | None = None) -> KeyEvent | None:
    """:meth:`KeyMap.event_for` on the default rows (or ``keymap``)."""
    global _DEFAULT_MAP
    if keymap is None:
        if _DEFAULT_MAP is None:
            _DEFAULT_MAP = KeyMap(DEFAULT_ROWS)
        keymap = _DEFAULT_MAP
    return keymap.event_for(char, shift, alt)


class KeyboardPads(InputSource):
    """Reads this terminal on a thread; calls ``on_event(KeyEvent)`` for pad keys.

    ``fd`` defaults to stdin. A terminal is put in cbreak mode (no echo, no line
    buffering, signals kept: Ctrl-C is still SIGINT) until :meth:`close`, also called
    at exit as a safety net. Input that is not a terminal (a pipe) is read as it is.
    ``on_event`` must not block (the loop's ``queue.put``).

    No debounce and no hold timing here: the terminal already says press or hold, so
    ``next_deadline()`` is always None and ``settle()`` does nothing, for a loop that
    treats all pads alike.
    """

    def __init__(self, rows: Sequence[str] | KeyMap = DEFAULT_ROWS,
                 on_event: Callable[[KeyEvent], None] | None = None, *,
                 fd: int | None = None) -> None:
        self.keymap = rows if isinstance(rows, KeyMap) else KeyMap(rows)
        self._on_event = on_event or (lambda e: None)
        self._fd = sys.stdin.fileno() if fd is None else fd
        self._saved = None
        self._closed = False
        if os.isatty(self._fd):
            import termios
            import tty
            try:
                self._saved = termios.tcgetattr(self._fd)
                tty.setcbreak(self._fd, termios.TCSANOW)
            except termios.error as e:
                raise HardwareError(f"keyboard pads: cannot set up the terminal: {e}") from e
            atexit.register(self._restore)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._run, name="pitable-keyboard",
                                        daemon=True)
        self._thread.start()

    @property
    def seats(self) -> int:
        return self.keymap.seats

    def _run(self) -> None:
        decoder = codecs.getincrementaldecoder("utf-8")("replace")
        while True:
            try:
                ready, _, _ = select.select([self._fd, self._wake_r], [], [])
                if self._wake_r in ready:
                    return
                data = os.read(self._fd, 1024)
            except OSError:  # the terminal went away (EIO on a closed pty)
                return
            if not data:  # end of input
                return
            for ev in self.keymap.decode(decoder.decode(data)):
                self._on_event(ev)

    def next_deadline(self) -> float | None:
        return None

    def settle(self, now: float | None = None) -> None:
        pass

    def help_text(self) -> str:
        return self.keymap.help_text() + ", Ctrl-C ends"

    def _restore(self) -> None:
        if self._saved is not None:
            import termios
            try:
                termios.tcsetattr(self._fd, termios.TCSADRAIN, self._saved)
            except termios.error:
                pass  # the terminal is gone; nothing to restore
            self._saved = None

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            os.write(self._wake_w, b"x")
            self._thread.join(timeout=2)
        finally:
            self._restore()
            atexit.unregister(self._restore)
            os.close(self._wake_r)
            os.close(self._wake_w)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class PygameKeys:
    """Keys typed into the pygame emulator window (``display: pygame``).

    pygame's event queue belongs to the thread that opened the window, so the loop calls
    :meth:`poll` itself, from that thread, at least every ``poll_interval`` seconds
    (that also keeps the window responsive; luma only pumps events when a frame is
    drawn). ``closed`` turns True when the window's close button was clicked.
    """

    poll_interval = 0.05

    def __init__(self, rows: Sequence[str] | KeyMap = DEFAULT_ROWS) -> None:
        import pygame  # only with the emulator, which needs it anyway

        self._pg = pygame
        self.keymap = rows if isinstance(rows, KeyMap) else KeyMap(rows)
        self.closed = False

    def event_for_key(self, key: int, mod: int) -> KeyEvent | None:
        """A pygame KEYDOWN (``event.key``, ``event.mod``) as a pad event."""
        pg = self._pg
        if mod & (pg.KMOD_CTRL | pg.KMOD_META):
            return None
        if not 32 < key < 127:  # SDL keycodes of printable keys are their unshifted ASCII
            return None
        return self.keymap.event_for(chr(key), bool(mod & pg.KMOD_SHIFT),
                                     bool(mod & pg.KMOD_ALT))

    def ends(self, key: int, mod: int) -> bool:
        """Esc, Ctrl-C or Ctrl-Q typed into the window end pitable, as its title says
        (a plain Q is seat 2's first key)."""
        pg = self._pg
        return key == pg.K_ESCAPE or (bool(mod & (pg.KMOD_CTRL | pg.KMOD_META)) and key in (pg.K_c, pg.K_q))

    def poll(self) -> list[KeyEvent]:
        """Drain pygame's queue: pad events, in order; notes a window close (its button,
        or a key that ends: :meth:`ends`)."""
        pg = self._pg
        out = []
        for ev in pg.event.get():
            if ev.type == pg.QUIT:
                self.closed = True
            elif ev.type == pg.KEYDOWN and self.ends(ev.key, ev.mod):
                self.closed = True
            elif ev.type == pg.KEYDOWN:
                e = self.event_for_key(ev.key, ev.mod)
                if e is not None:
                    out.append(e)
        return out

    def events(self, raw: Iterable) -> list[KeyEvent]:
        """Map already-fetched pygame events (if the loop drains the queue itself)."""
        pg = self._pg
        return [e for ev in raw if ev.type == pg.KEYDOWN
                for e in [self.event_for_key(ev.key, ev.mod)] if e is not None]


class PygameKeyboard(InputSource):
    """:class:`PygameKeys` for a loop whose queue also runs callables on its thread.

    A small ticker thread posts ``self._poll`` every ``interval`` seconds (never more
    than one pending); the loop runs it on its own thread, where pygame's events may be
    read, and the pad events are posted back. Closing the window calls ``on_close``
    (default: raise KeyboardInterrupt in the loop, as Ctrl-C would).
    This ticks only on the desktop emulator; the Pi's pads never poll.
    """

    def __init__(self, rows: Sequence[str] | KeyMap, post: Callable, *,
                 on_close: Callable[[], None] | None = None,
                 interval: float = PygameKeys.poll_interval) -> None:
        self.keys = PygameKeys(rows)
        self.keymap = self.keys.keymap
        self.interval = interval
        self._post = post
        self._on_close = on_close
        self._pending = threading.Event()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._tick, name="pitable-pygame-keys",
                                        daemon=True)
        self._thread.start()

    @property
    def seats(self) -> int:
        return self.keymap.seats

    def _tick(self) -> None:
        while not self._stop.wait(self.interval):
            if not self._pending.is_set():
                self._pending.set()
                self._post(self._poll)

    def _poll(self) -> None:
        # on the loop's thread
        self._pending.clear()
        for ev in self.keys.poll():
            self._post(ev)
        if self.keys.closed:
            self.keys.closed = False
            if self._on_close is None:
                raise KeyboardInterrupt("the pygame window was closed")
            self._on_close()

    def next_deadline(self) -> float | None:
        return None

    def settle(self, now: float | None = None) -> None:
        pass

    def help_text(self) -> str:
        return self.keymap.help_text() + ", Esc ends"   # the window's title

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def open_keyboard(rows: Sequence[str], post: Callable, device=None, *,
                  on_close: Callable[[], None] | None = None,
                  fd: int | None = None) -> KeyboardPads | PygameKeyboard:
    """Keyboard pads for the display in use: the window's keys for the pygame emulator
    (``post`` must accept callables, run on the loop thread), else this terminal.

    Both results have ``close()``, ``help_text()``, ``seats``, ``next_deadline()`` and
    ``settle()``; ``post`` gets :class:`KeyEvent` s.
    """
    emulated = sys.modules.get("pitable.hardware.emulated")  # loaded iff an emulator is open
    if emulated is not None and isinstance(device, emulated.PygameDisplay):
        return PygameKeyboard(rows, post, on_close=on_close)
    return KeyboardPads(rows, post, fd=fd)
