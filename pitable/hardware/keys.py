"""Key logic without hardware: debouncing raw edges and turning edges into presses/holds.

Nothing here imports gpiozero or starts a thread; every method takes the time as an
argument, so tests (and the pads) drive it with any clock.

Debouncing (:class:`Debouncer`) is a *lockout*: the first edge of a key is accepted at
once (no added latency), and further edges of that key within ``bounce`` seconds of the
last accepted change are chatter. A pure lockout can lose the final level of a burst (a
tap shorter than ``bounce``, or chatter ending opposite to the accepted level), leaving
the key "stuck". So every accepted change arms a *check* at ``change + bounce``; whoever
owns the pins re-reads the level of the keys that are due (:meth:`Debouncer.settle_due`)
and the hidden level is delivered then. No timer thread is needed: the loop waits on its
queue with a timeout of ``pads.next_deadline()`` and calls ``pads.settle()`` on waking.
If nobody settles in time, the next raw edge of that key catches up first
(:meth:`Debouncer.edge`). Either way a level found late is dated when it became certain
(the check's time), not when someone got round to looking: the length of a press comes
from when its edges happened, however late the loop is.

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
    """What a player did: ``action`` is ``"press"`` (short) or ``"hold"`` (long)."""

    seat: int
    key: int
    action: str


class _KeyState:
    __slots__ = ("level", "until", "raw", "check")

    def __init__(self) -> None:
        self.level = False  # accepted level
        self.until: float | None = None  # end of the lockout of the last accepted change
        self.raw = False  # last level seen, accepted or not
        self.check: float | None = None  # armed re-read time (== until), None when done


class Debouncer:
    """Lockout debounce per (seat, key); see the module docstring.

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

    def accept(self, seat: int, key: int, pressed: bool, time: float) -> bool:
        """The lockout rule for one raw edge: True if it is a real change.

        An edge is accepted iff it changes the accepted level and the lockout of the
        previous accepted change is over. Accepting arms a check at ``time + bounce``.
        """
        st = self._state(seat, key)
        pressed = bool(pressed)
        st.raw = pressed
        if pressed == st.level:
            return False
        if st.until is not None and time < st.until:
            return False
        st.level = pressed
        # Compare against the stored sum later, never recompute time - until: float
        # rounding could otherwise make an edge exactly ``bounce`` later look early.
        st.until = st.check = time + self.bounce
        return True

    def settle(self, seat: int, key: int, level: bool, time: float) -> bool:
        """Re-read ``level`` at ``time``: disarm a due check, then apply the lockout rule.

        True when ``level`` was hidden inside chatter and is now accepted.
        """
        st = self._state(seat, key)
        if st.check is not None and time >= st.check:
            st.check = None
        return self.accept(seat, key, level, time)

    def edge(self, seat: int, key: int, pressed: bool, time: float) -> list[KeyEdge]:
        """A raw edge as the pads see it: 0, 1 or 2 debounced edges.

        If the key's check is overdue (nobody settled it) and the level before this edge
        differs from the accepted one, that level was real: deliver it, dated at the
        check, before judging this edge.
        """
        out: list[KeyEdge] = []
        st = self._state(seat, key)
        if st.check is not None and time >= st.check:
            at = st.check
            if self.settle(seat, key, st.raw, at):
                out.append(KeyEdge(seat, key, st.level, at))
        if self.accept(seat, key, pressed, time):
            out.append(KeyEdge(seat, key, bool(pressed), time))
        return out

    def next_deadline(self) -> float | None:
        """The earliest armed check, or None: the pads' contribution to the loop timeout."""
        checks = [st.check for st in self._keys.values() if st.check is not None]
        return min(checks) if checks else None

    def due(self, now: float) -> list[tuple[int, int]]:
        """Keys whose check is due at ``now``, earliest first."""
        items = [
            (st.check, sk) for sk, st in self._keys.items()
            if st.check is not None and st.check <= now
        ]
        return [sk for _, sk in sorted(items)]

    def settle_due(self, now: float, read: Callable[[int, int], bool]) -> list[KeyEdge]:
        """Re-read every due key with ``read(seat, key)`` (a fresh reading, taken at
        ``now``) and settle it.

        A level delivered here is dated when it became certain, not when someone got
        round to checking: if the reading is the level last seen (nothing changed since),
        it already held when the check fell due, so the edge is dated at the check. A
        loop that settles late (a stall) thus never stretches a tap into a hold."""
        out = []
        for seat, key in self.due(now):
            st = self._state(seat, key)
            level = bool(read(seat, key))
            at = st.check if level == st.raw and st.check is not None else now
            if self.settle(seat, key, level, at):
                out.append(KeyEdge(seat, key, level, at))
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
