"""Key logic without hardware: debouncing raw edges and turning edges into presses/holds.

Nothing here imports gpiozero or starts a thread; every method takes the time as an
argument, so tests (and the pads) drive it with any clock.

Debouncing (:class:`Debouncer`): **a glitch is not a key.** A press is accepted only if
the key still reads pressed ``bounce`` seconds after its first press edge; whatever the
line did in between (contact chatter, a spark of static, a lamp switching on a 1.5 m
unshielded cable) does not matter, only the level when the time is up. The press is
then dated at its first edge: it began when the finger went down, so a hold is timed
from there. A release is accepted at once: a closed contact holds the line at ground
through a few ohms, where noise cannot lift it, while the open line hangs on a
~50 kOhm pull-up and is the one that picks up glitches; and a key acts on its release
(a short press), so the release carries the key-to-frame latency. Release chatter
needs no lockout: each closing in it is a new press to be confirmed, and the contact
is open again when its time is up.

The cost: a press is known ``bounce`` (20 ms) after the finger went down. Nothing a
player sees waits for it (a key acts on release, a hold is timed from the first edge);
``benchmarks/latency.py`` prints it. A tap shorter than ``bounce`` is dropped: a
person's tap lasts 50 ms and more.

No timer thread: the pads report ``next_deadline()`` (the earliest pending check) and
the loop calls their ``settle()`` then, which re-reads the due keys
(:meth:`Debouncer.settle_due`). If nobody settles in time, the next raw edge of that
key decides the overdue check first from the level before it (:meth:`Debouncer.edge`).

:class:`KeyTracker` runs on the loop thread and turns debounced edges into ``press``
(on release, when short) and ``hold`` (when the key is still down ``hold`` seconds after
it went down) events.
"""

from __future__ import annotations

from typing import Callable, Iterable, NamedTuple

__all__ = ["KeyEdge", "KeyEvent", "Debouncer", "KeyTracker", "PRESS", "HOLD"]

PRESS = "press"
HOLD = "hold"


class KeyEdge(NamedTuple):
    """A debounced change of one key: ``pressed`` is the new level."""

    seat: int
    key: int
    pressed: bool
    time: float


class KeyEvent(NamedTuple):
    """What a player did: ``action`` is ``"press"`` (short) or ``"hold"`` (long).

    ``screen``: a phone's key names the screen version its page showed (the loop judges
    the key by it); None for pads and keyboards, judged by when the key went down."""

    seat: int
    key: int
    action: str
    screen: int | None = None


class _KeyState:
    __slots__ = ("level", "raw", "since", "check")

    def __init__(self) -> None:
        self.level = False  # accepted level
        self.raw = False  # last level seen, accepted or not
        self.since: float | None = None  # first press edge of a press not yet confirmed
        self.check: float | None = None  # when to confirm it (since + bounce), None: nothing pending


class Debouncer:
    """Press confirmation per (seat, key); see the module docstring.

    Not thread-safe: the pads call it under their own lock.
    """

    def __init__(self, bounce: float) -> None:
        if bounce < 0:
            raise ValueError(f"bounce must be >= 0, not {bounce!r}")
        self.bounce = float(bounce)
        self._keys: dict[tuple[int, int], _KeyState] = {}

    def _state(self, seat: int, key: int) -> _KeyState:
        st = self._keys.get((seat, key))
        if st is None:
            st = self._keys[(seat, key)] = _KeyState()
        return st

    def decide(self, seat: int, key: int, level: bool, time: float) -> list[KeyEdge]:
        """The key's pending check, decided with ``level`` read at ``time`` (>= the check):
        the press if it still reads pressed, nothing (a glitch) if not."""
        st = self._state(seat, key)
        if st.check is None or time < st.check:
            return []
        since, st.check, st.since = st.since, None, None
        if level and not st.level:
            st.level = True
            return [KeyEdge(seat, key, True, since)]
        return []

    def edge(self, seat: int, key: int, pressed: bool, time: float) -> list[KeyEdge]:
        """A raw edge as the pads see it: 0, 1 or 2 debounced edges.

        An overdue check is decided first, from the level before this edge (it held
        from the last edge until now, so at the check too)."""
        st = self._state(seat, key)
        out = self.decide(seat, key, st.raw, time) if st.check is not None else []
        pressed = bool(pressed)
        st.raw = pressed
        if pressed and not st.level and st.check is None:
            st.since, st.check = time, time + self.bounce
            if self.bounce == 0:
                out += self.decide(seat, key, True, time)
        elif not pressed and st.level:
            st.level = False
            out.append(KeyEdge(seat, key, False, time))
        return out

    def next_deadline(self) -> float | None:
        """The earliest pending check, or None: the pads' contribution to the loop timeout."""
        checks = [st.check for st in self._keys.values() if st.check is not None]
        return min(checks) if checks else None

    def due(self, now: float) -> list[tuple[int, int]]:
        """Keys whose check is due at ``now``, earliest first."""
        items = [
            (st.check, sk) for sk, st in self._keys.items()
            if st.check is not None and st.check <= now
        ]
        return [sk for _, sk in sorted(items)]

    def check_of(self, seat: int, key: int) -> float | None:
        """When the key's pending press is to be confirmed, or None."""
        st = self._keys.get((seat, key))
        return st.check if st else None

    def settle_due(self, now: float, read: Callable[[int, int], bool]) -> list[KeyEdge]:
        """Decide every due check with ``read(seat, key)``, a fresh reading taken at ``now``."""
        out = []
        for seat, key in self.due(now):
            level = bool(read(seat, key))
            self._state(seat, key).raw = level
            out += self.decide(seat, key, level, now)
        return out

    def level(self, seat: int, key: int) -> bool:
        """The accepted (debounced) level."""
        st = self._keys.get((seat, key))
        return st.level if st else False

    def raw(self, seat: int, key: int) -> bool:
        """The last level seen, accepted or not."""
        st = self._keys.get((seat, key))
        return st.raw if st else False


class KeyTracker:
    """Turns debounced :class:`KeyEdge` s into :class:`KeyEvent` s. Loop thread only.

    A short press yields ``press`` on its release. A key still down ``hold`` seconds after
    it went down yields ``hold`` from :meth:`expire` (called at/after
    :meth:`next_deadline`), and its later release yields nothing. If the loop was late
    and the release arrives after the deadline without :meth:`expire` having run, the
    release yields the ``hold`` (the player did hold it that long).
    Keys (and seats) are independent: any number may be down at once.
    """

    def __init__(self, hold: float) -> None:
        if hold <= 0:
            raise ValueError(f"hold must be > 0, not {hold!r}")
        self.hold = float(hold)
        # (seat, key) -> [deadline, held]
        self._down: dict[tuple[int, int], list] = {}

    def edge(self, e: KeyEdge) -> list[KeyEvent]:
        sk = (e.seat, e.key)
        if e.pressed:
            if sk not in self._down:  # a repeated press edge changes nothing
                self._down[sk] = [e.time + self.hold, False]
            return []
        entry = self._down.pop(sk, None)
        if entry is None or entry[1]:
            return []
        action = HOLD if e.time >= entry[0] else PRESS
        return [KeyEvent(e.seat, e.key, action)]

    def edges(self, es: Iterable[KeyEdge]) -> list[KeyEvent]:
        out: list[KeyEvent] = []
        for e in es:
            out.extend(self.edge(e))
        return out

    def next_deadline(self) -> float | None:
        """The earliest pending hold deadline, or None when no key is waiting to be held."""
        pending = [d for d, held in self._down.values() if not held]
        return min(pending) if pending else None

    def expire(self, now: float) -> list[KeyEvent]:
        """``hold`` events for every key whose deadline is <= ``now``, earliest first."""
        due = sorted(
            (entry[0], sk) for sk, entry in self._down.items()
            if not entry[1] and entry[0] <= now
        )
        out = []
        for _, sk in due:
            self._down[sk][1] = True
            out.append(KeyEvent(sk[0], sk[1], HOLD))
        return out

    def is_down(self, seat: int, key: int) -> bool:
        return (seat, key) in self._down

    def reset(self) -> None:
        """Forget every key (e.g. when a new game starts with keys still held)."""
        self._down.clear()
