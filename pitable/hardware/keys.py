"""Key logic without hardware: debouncing raw edges and turning edges into presses/holds.

Nothing here imports gpiozero or starts a thread; every method takes the time as an
argument, so tests (and the pads) drive it with any clock.

Debouncing (:class:`Debouncer`): **a glitch is not a key.** A press is accepted only if
the key still reads pressed ``bounce`` seconds after its first press edge; whatever the
line did in between (contact chatter, a spark of static, a lamp switching on a 1.5 m
unshielded cable) does not matter, only the level when the time is up. The press is
then dated at its first edge: it began when the finger went down, so a hold is timed
from there.

**A release is confirmed too**, after ``release`` seconds (5 ms by default in the pads):
the key must still read open then, else the opening was a contact break and the press
goes on. Noise cannot lift a closed contact off ground, but a cheap tactile switch
pressed lightly, or with a rolling finger, opens for 0.2-1 ms in the middle of a press
(mechanical chatter): counted at once, that would be a release and a second press, and
a 1 s hold would end as a short press. The release is dated at its first edge (the
finger left then), so a press is as long as the finger made it. Release chatter needs
no lockout: each closing in it cancels the pending release, and the release is
confirmed ``release`` after the contact last opened.

The cost: a press is known ``bounce`` (20 ms) after the finger went down. Nothing a
player sees waits for it (a key acts on release, a hold is timed from the first edge);
``benchmarks/latency.py`` prints it. A release is known ``release`` (5 ms) after the
finger left: that is added to every key's key-to-frame latency (a key acts on its
release), and ``benchmarks/latency.py`` measures it. A tap shorter than ``bounce`` is dropped: a
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

from typing import NamedTuple, Protocol
from collections.abc import Callable, Iterable

__all__ = ["KeyEdge", "KeyEvent", "KeyStuck", "InputSource", "Debouncer", "KeyTracker", "PRESS", "HOLD", "RELEASE"]

PRESS = "press"
HOLD = "hold"
# A release counts once the key still reads open this long after it opened: a contact
# break of 0.2-1 ms inside a press (mechanical chatter of a cheap tactile switch) is then
# not a release and a second press. It adds this much to a key's key-to-frame latency
# (a key acts on its release): benchmarks/latency.py measures it. Here, in the pure module,
# so that the loop and the daemon's composition read it without loading gpiozero.
RELEASE = 0.005


class KeyEdge(NamedTuple):
    """A debounced change of one key: ``pressed`` is the new level."""

    seat: int
    key: int
    pressed: bool
    time: float


class KeyStuck(NamedTuple):
    """A key held far longer than any player holds one (something resting on the pad, a
    shorted key): ``stuck`` True when the pads notice it, False once it is let go.
    ``since`` is when it went down. The table shows it; no game acts on it."""

    seat: int
    key: int
    since: float
    stuck: bool = True


class KeyEvent(NamedTuple):
    """What a player did: ``action`` is ``"press"`` (short) or ``"hold"`` (long).

    ``screen``: a phone's key names the screen version its page showed (the loop judges
    the key by it); None for pads and keyboards, judged by when the key went down."""

    seat: int
    key: int
    action: str
    # Who pressed: None for the seat's pad (or keyboard row); ("phone", session) for a
    # phone, set by the web server from the seat code the key came with. A bid made
    # by this key carries it, so that a phone is shown only the bids its own keys made.
    by: object = None
    # The screen version a phone's page had shown for a reaction time when it was tapped
    # (None: a pad or keyboard key, dated by its edge instead): the loop judges the key by it.
    screen: int | None = None


class InputSource(Protocol):
    """Pads that post their keys to the loop (``Loop.post``, from their own threads: a
    ``KeyEdge`` or ``KeyStuck`` from the pads, a ``KeyEvent`` from a keyboard) and sit in
    ``Loop.sources``: the loop asks when each next needs a wake-up (``next_deadline``: a
    debounce check, a matrix re-scan while a key is held), calls ``settle`` then (post the
    edges that check found) and ``close`` at the end. ``DirectPads``, ``MatrixPads``,
    ``KeyboardPads`` and ``PygameKeyboard`` declare it, so the type checker holds each to
    it. Here, below both the pads and the loop, so that each can name it."""

    def next_deadline(self) -> float | None: ...

    def settle(self, now: float | None = None) -> None: ...

    def close(self) -> None: ...


class _KeyState:
    __slots__ = ("level", "raw", "since", "check")

    def __init__(self) -> None:
        self.level = False  # accepted level
        self.raw = False  # last level seen, accepted or not
        # The change waiting to be confirmed is always away from ``level``: a press
        # while the key is up, a release while it is down. ``since`` is its first edge,
        # ``check`` when to confirm it (since + bounce, or since + release); None: nothing.
        self.since: float | None = None
        self.check: float | None = None


class Debouncer:
    """Press and release confirmation per (seat, key); see the module docstring.

    ``release=0`` accepts a release at once (as before releases were confirmed).
    Not thread-safe: the pads call it under their own lock.
    """

    def __init__(self, bounce: float, release: float = 0.0) -> None:
        if bounce < 0:
            raise ValueError(f"bounce must be >= 0, not {bounce!r}")
        if release < 0:
            raise ValueError(f"release must be >= 0, not {release!r}")
        self.bounce = float(bounce)
        self.release = float(release)
        self._keys: dict[tuple[int, int], _KeyState] = {}

    def _state(self, seat: int, key: int) -> _KeyState:
        st = self._keys.get((seat, key))
        if st is None:
            st = self._keys[(seat, key)] = _KeyState()
        return st

    def decide(self, seat: int, key: int, level: bool, time: float) -> list[KeyEdge]:
        """The key's pending check, decided with ``level`` read at ``time`` (>= the check):
        a pending press counts if it still reads pressed, else it was a glitch; a pending
        release counts if it still reads open, else it was a contact break."""
        st = self._state(seat, key)
        if st.check is None or time < st.check:
            return []
        since, st.check, st.since = st.since, None, None
        assert since is not None  # a pending check has its first edge
        if level and not st.level:
            st.level = True
            return [KeyEdge(seat, key, True, since)]
        if not level and st.level:
            st.level = False
            return [KeyEdge(seat, key, False, since)]
        return []

    def edge(self, seat: int, key: int, pressed: bool, time: float) -> list[KeyEdge]:
        """A raw edge as the pads see it: 0, 1 or 2 debounced edges.

        An overdue check is decided first, from the level before this edge (it held
        from the last edge until now, so at the check too)."""
        st = self._state(seat, key)
        out = self.decide(seat, key, st.raw, time) if st.check is not None else []
        pressed = bool(pressed)
        st.raw = pressed
        if pressed != st.level and st.check is None:
            wait = self.bounce if pressed else self.release
            st.since, st.check = time, time + wait
            if wait == 0:
                out += self.decide(seat, key, pressed, time)
        elif pressed == st.level and st.check is not None and st.level:
            # closed again before its release was confirmed: a break, the press goes on
            st.since = st.check = None
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
        """When the key's pending press (or release) is to be confirmed, or None."""
        st = self._keys.get((seat, key))
        return st.check if st else None

    def settle_due(self, now: float, read: Callable[[int, int], bool],
                   wait: Callable[[int, int, bool], bool] | None = None) -> list[KeyEdge]:
        """Decide every due check with ``read(seat, key)``, a fresh reading taken at ``now``.
        ``wait(seat, key, level)`` true leaves that check for later (an edge that
        will decide it is on its way)."""
        out = []
        for seat, key in self.due(now):
            level = bool(read(seat, key))
            if wait is not None and wait(seat, key, level):
                continue
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
