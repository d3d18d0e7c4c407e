"""The players' pads on GPIO (gpiozero), and per-seat feedback LEDs/buzzers.

Each pad has 8 keys (0..7). Two wirings:

* :class:`DirectPads`: one GPIO per key, pulled up, the switch shorts it to ground.
* :class:`MatrixPads`: seats are rows, the 8 keys are columns shared by all seats, with
  a diode per key from the column to the row.

Threads: gpiozero calls our handlers on its own threads. A handler only debounces
(:class:`~pitable.hardware.keys.Debouncer`) and calls ``on_edge(KeyEdge)``, which must
not block (the loop's ``queue.put``). ``on_edge`` is called in order for any one key.
gpiozero's own ``bounce_time`` is not used (mock pins ignore it, and its lockout can
lose a short tap's release); we debounce in :mod:`pitable.hardware.keys`.

The loop's part (no timer threads anywhere)::

    dls = [d for d in (tracker.next_deadline(), pads.next_deadline()) if d is not None]
    timeout = max(0.0, min(dls) - clock()) if dls else None   # None: block until an edge
    try: item = queue.get(timeout=timeout)
    except queue.Empty: item = None
    pads.settle()              # cheap no-op when nothing is due; may put edges on the queue
    ... drain the queue, feeding KeyEdges to tracker.edge(), then tracker.expire(clock())

``pads.next_deadline()`` is when a press or a release is to be confirmed (a glitch is
not a key, a contact break is not a release: see :mod:`pitable.hardware.keys`), when a
held key counts as stuck (``STUCK_AFTER``: handed out as a ``KeyStuck`` for the table to
show), and, for the matrix, the next re-scan while a key is held (see :class:`MatrixPads`).
When no key is down and no press waits, it is None: an idle table wakes nobody. A press
waiting for its check posts no edge, so the pads call
``wake()`` (the loop's ``post(nothing)``) when their deadline comes earlier: a loop
blocked on its queue then asks again.

gpiozero's ``Button`` is deliberately not used: each Button starts a hold thread that
wakes every 0.1 s, i.e. 32 threads polling for 4 pads. ``DigitalInputDevice`` has the
same pull-up/active-low behaviour without it. Holds are timed by the KeyTracker.
"""

from __future__ import annotations

import logging
import threading
import time
from functools import partial, wraps
from collections.abc import Callable, Sequence

from gpiozero import Buzzer, DigitalInputDevice, GPIODevice, LED
from gpiozero.exc import GPIOZeroError

from ..errors import HardwareError
from ..keys import COUNT as KEYS  # a pad's keys
from .keys import RELEASE, Debouncer, InputSource, KeyEdge, KeyStuck

__all__ = ["PadsError", "DirectPads", "MatrixPads", "SeatSignals", "KEYS", "nothing",
           "RELEASE", "STUCK_AFTER"]

log = logging.getLogger(__name__)

# A key held this long is stuck (something on the pad, a shorted key): no game holds a
# key for half a minute. It is logged and shown on the table; a matrix stops re-scanning
# for it (see MatrixPads).
STUCK_AFTER = 30.0

log = logging.getLogger(__name__)

Pin = int | str
OnEdge = Callable[[KeyEdge | KeyStuck], None]


class _Held:
    """When each debounced-down key went down, and which of them are stuck."""

    def __init__(self, after: float) -> None:
        self.after = after
        self.since: dict[tuple[int, int], float] = {}
        self.stuck: set[tuple[int, int]] = set()

    def track(self, edges) -> list[KeyStuck]:
        """Follow the edges the pads hand out; a stuck key's release says it is over."""
        out = []
        for e in edges:
            sk = (e.seat, e.key)
            if e.pressed:
                self.since[sk] = e.time
            else:
                since = self.since.pop(sk, e.time)
                if sk in self.stuck:
                    self.stuck.discard(sk)
                    log.info("seat %d key %d let go after %.0f s", e.seat + 1, e.key + 1, e.time - since)
                    out.append(KeyStuck(e.seat, e.key, since, False))
        return out

    def due(self, now: float) -> list[KeyStuck]:
        out = []
        for (seat, key), since in sorted(self.since.items(), key=lambda kv: kv[1]):
            if (seat, key) not in self.stuck and now >= since + self.after:
                self.stuck.add((seat, key))
                log.warning("seat %d key %d has been held for %.0f s: stuck? (something on "
                            "the pad, or a shorted key)", seat + 1, key + 1, now - since)
                out.append(KeyStuck(seat, key, since))
        return out

    def next_deadline(self) -> float | None:
        times = [t + self.after for sk, t in self.since.items() if sk not in self.stuck]
        return min(times) if times else None


def nothing() -> None:
    """A no-op for the loop's queue: ``wake=lambda: post(nothing)`` wakes a loop that
    blocks on its queue, so that it asks ``next_deadline()`` again."""


class PadsError(HardwareError):
    """A pad pin that cannot be opened (wrong number, in use, no GPIO library)."""


def _gpio_error(what: str, pin, exc: Exception) -> PadsError:
    if isinstance(exc, ImportError):  # gpiozero's BadPinFactory: no pin library here
        return PadsError(
            f"{what} (GPIO {pin}): no GPIO library could be loaded ({exc}); "
            "not on a Raspberry Pi? use pads.wiring: keyboard")
    if isinstance(exc, GPIOZeroError):
        return PadsError(f"{what} (GPIO {pin}): {exc}")
    if "edge" in str(exc).lower():
        return _edge_error(what, pin, exc)
    # the pin library's own errors (lgpio.error "GPIO busy", OSError...): still one clear line
    return PadsError(f"{what} (GPIO {pin}): {type(exc).__name__}: {exc}")


def _edge_error(what: str, pin, exc: Exception) -> PadsError:
    # RPi.GPIO (and gpiozero's native factory) watch edges through sysfs, which kernel
    # 6.6 renumbered: "Failed to add edge detection". lgpio uses the character device.
    return PadsError(f"{what} (GPIO {pin}): the pin library cannot watch its edges "
                     f"({type(exc).__name__}: {exc}); on Raspberry Pi OS Bookworm use "
                     "pads.pin_factory: lgpio (or default)")


def _contained(handler):
    """An edge handler that cannot stop the other keys. lgpio delivers every pin's
    callback from one thread and catches nothing: one exception there ends that thread,
    and every key of every pad goes dead until a restart. So a failing handler logs and
    returns. The log names neither seat nor key, nor the error's text (which may carry
    an edge): which keys a seat pressed before the reveal is a secret."""
    @wraps(handler)
    def contained(*args, **kwargs):
        try:
            handler(*args, **kwargs)
        except Exception as e:  # noqa: BLE001 - anything: the callback thread must live on
            tb = e.__traceback__
            while tb is not None and tb.tb_next is not None:
                tb = tb.tb_next
            where = f"{tb.tb_frame.f_code.co_filename}:{tb.tb_lineno}" if tb is not None else "?"
            log.error("pads: a key's edge handler failed (%s at %s); the other keys go on",
                      type(e).__name__, where)
    return contained


# lgpio's "GPIO busy": it waits only ~2 ms for its alert thread to leave a line before
# re-claiming it, which a loaded CPU can miss. Retries a little apart release it; if
# the line still refuses, it is logged and the kernel frees it when the process exits.
CLOSE_TRIES = 6
CLOSE_PAUSE = 0.01   # doubled after each refusal: 0.31 s in all


def _close_all(devices, sleep: Callable[[float], None] = time.sleep) -> None:
    """Close every device, each however the others fare."""
    for dev in devices:
        for attempt in range(CLOSE_TRIES):
            try:
                dev.close()
                break
            except Exception as e:  # noqa: BLE001 - lgpio.error "GPIO busy", OSError...
                if attempt + 1 == CLOSE_TRIES:
                    log.warning("pads: could not release %s (%s: %s); the kernel frees it "
                                "when pitable exits", _pin_name(dev), type(e).__name__, e)
                else:
                    sleep(CLOSE_PAUSE * 2 ** attempt)


def _pin_name(dev) -> str:
    try:
        return str(dev.pin.info.name) if dev.pin is not None else "a pin"
    except Exception:  # noqa: BLE001 - a half-closed device
        return "a pin"


class _Closing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class DirectPads(_Closing, InputSource):
    """One input per key: ``seats[s][k]`` is the GPIO of key ``k`` of seat ``s``."""

    def __init__(self, seats: Sequence[Sequence[Pin]], on_edge: OnEdge, *,
                 pin_factory=None, bounce: float = 0.02, release: float = RELEASE,
                 stuck_after: float = STUCK_AFTER,
                 clock: Callable[[], float] = time.monotonic,
                 wake: Callable[[], None] | None = None) -> None:
        self._on_edge = on_edge
        self._wake = wake
        self._clock = clock
        # edges dated by the pin library's clock: only when ours is the real one too
        self._dated = clock is time.monotonic
        self._debouncer = Debouncer(bounce, release)
        self._held = _Held(stuck_after)
        # RLock: with mock pins a handler can run inside our own settle() call.
        self._lock = threading.RLock()
        self._closed = False
        self._waiting: dict[tuple[int, int], float] = {}  # checks left for an edge in flight: until when
        self._keys: list[list[DigitalInputDevice]] = []
        self.seats = len(seats)
        try:
            for s, pins in enumerate(seats):
                if len(pins) != KEYS:
                    raise PadsError(f"seat {s + 1}: {len(pins)} key pins, need {KEYS}")
                row: list[DigitalInputDevice] = []
                self._keys.append(row)
                for k, pin in enumerate(pins):
                    try:
                        dev = DigitalInputDevice(pin, pull_up=True, bounce_time=None,
                                                 pin_factory=pin_factory)
                    except Exception as e:  # noqa: BLE001 - GPIOZeroError, lgpio.error, RuntimeError...
                        raise _gpio_error(f"seat {s + 1} key {k + 1}", pin, e) from e
                    row.append(dev)
                    try:
                        dev.when_activated = _contained(partial(self._raw, s, k, True))
                        dev.when_deactivated = _contained(partial(self._raw, s, k, False))
                    except Exception as e:  # noqa: BLE001 - each pin library fails its own way
                        raise _edge_error(f"seat {s + 1} key {k + 1}", pin, e) from e
        except BaseException:
            self.close()
            raise

    def _raw(self, seat: int, key: int, pressed: bool) -> None:
        # gpiozero thread: debounce and hand over, nothing else.
        with self._lock:
            if self._closed:  # a late callback from a line being released
                return
            before = self._next_deadline()
            self._waiting.pop((seat, key), None)
            self._emit(self._debouncer.edge(seat, key, pressed, self._edge_time(seat, key, pressed)))
            _wake_if_earlier(self._wake, before, self._next_deadline())

    def _edge_time(self, seat: int, key: int, pressed: bool) -> float:
        """When the edge happened: the pin library's time of the edge (the kernel's
        timestamp with lgpio and libgpiod) rather than when this handler got to run,
        so a callback thread that was held up cannot squeeze a tap's two edges into
        a glitch. gpiozero gives it as an age (``active_time``), in seconds on
        every factory's own clock; it is used only when ours is the real monotonic
        clock too (tests move a clock of their own)."""
        now = self._clock()
        if not self._dated:
            return now
        try:
            dev = self._keys[seat][key]
            age = dev.active_time if pressed else dev.inactive_time
        except Exception:  # noqa: BLE001 - a device closing under us: its time is now
            return now
        # a sane age only: a wrapped or foreign tick counter must not date an edge
        return now - age if age is not None and 0 <= age < 10 else now

    # How long a due check waits for an edge the callback thread has not handed over yet.
    EDGE_WAIT = 0.5

    def _emit(self, edges) -> None:
        for item in [*edges, *self._held.track(edges)]:
            self._on_edge(item)

    def next_deadline(self) -> float | None:
        with self._lock:
            return self._next_deadline()

    def _next_deadline(self) -> float | None:
        checks = [self._waiting.get(sk, self._debouncer.check_of(*sk))
                  for sk in self._debouncer.due(float("inf"))]
        dls = [d for d in (*checks, self._held.next_deadline()) if d is not None]
        return min(dls) if dls else None

    def settle(self, now: float | None = None) -> None:
        """Re-read keys whose debounce check is due; deliver levels hidden in chatter;
        say which keys have been held so long that they are stuck.

        A key that reads otherwise than its last edge said has an edge on its way (the
        callback thread is behind the wire): that edge carries the time it happened
        and decides the check (was the key still down at the check?), so the check
        waits for it, ``EDGE_WAIT`` at most. Deciding from the level of now would call
        a tap released since the check a glitch."""
        with self._lock:
            if self._closed:
                return
            now = self._clock() if now is None else now

            def wait(seat: int, key: int, level: bool) -> bool:
                if not self._dated or level == self._debouncer.raw(seat, key):
                    return False
                until = self._waiting.setdefault((seat, key), now + self.EDGE_WAIT)
                return now < until

            edges = self._debouncer.settle_due(now, self._read, wait)
            for e in edges:
                self._waiting.pop((e.seat, e.key), None)
            for sk in [sk for sk in self._waiting if self._debouncer.check_of(*sk) is None]:
                del self._waiting[sk]
            self._emit(edges)
            for item in self._held.due(now):
                self._on_edge(item)

    def _read(self, seat: int, key: int) -> bool:
        return bool(self._keys[seat][key].is_active)

    def pressed(self, seat: int, key: int) -> bool:
        """The debounced level of one key."""
        with self._lock:
            return self._debouncer.level(seat, key)

    def close(self) -> None:
        with self._lock:  # waits for a handler that is running
            self._closed = True
            keys, self._keys = self._keys, []
        _close_all([dev for row in keys for dev in row])


# A released column rises through its pull-up: 65 kOhm (the Pi's internal, worst case)
# x 900 pF (6 pads x 1.5 m of cable at ~100 pF/m) is an RC of 59 us, and the input reads
# high at ~0.6 of 3.3 V, after ~0.9 RC = 54 us. 100 us leaves margin; 10 kOhm external
# pull-ups (docs/wiring.md) bring it to ~9 us. time.sleep waits at least that long.
SETTLE = 100e-6


def _wake_if_earlier(wake, before: float | None, after: float | None) -> None:
    """A press waiting for its check posts no edge: wake the loop (blocked on its queue
    with the old timeout) so that it wakes again at the check, and a hold is timed
    while the key is still down."""
    if wake is not None and after is not None and (before is None or after < before):
        wake()


# gpiozero's native and pigpio factories switch a pin to output at its latch's old value
# before they write 0: a row must never be driven high, not even for microseconds
_LATCHING = ("NativeFactory", "PiGPIOFactory")


def _drive_low(pin) -> None:
    """Make a row an output at 0 in one step (lgpio claims it at 0, RPi.GPIO sets it up
    with initial=0): it never drives high, not even for an instant."""
    pin.output_with_state(False)


def _let_go(pin) -> None:
    pin.input_with_pull("up")


class MatrixPads(_Closing, InputSource):
    """Seats are rows (open drain: driven low or let go), the 8 keys are shared columns
    (pulled up).

    **No output ever drives against another.** A row is either an output driven *low*
    or an input (let go, pulled up); no row is ever driven high. So even with a diode
    missing, reversed or bridged and keys held on several pads, no current runs from
    one pin into another: at worst a key reads on the wrong seat (a ghost), and the
    diodes, one per key, are there to stop that.

    Idle: every row is driven low, so any key press pulls its column low and fires a
    column edge; nothing polls. A column edge makes us compare the columns with what the
    last scan predicts; only if they differ do we *scan*: all rows let go, then one row
    driven low at a time reading the 8 columns, then all rows low again. **Lines settle
    before they are read:** after every row change we wait ``settle`` seconds before
    reading a column (a released column rises only through its pull-up and the cable's
    capacitance: see docs/wiring.md). Scanning toggles the columns, so its own edges
    fire the handler again: a lock and a "dirty" flag merge them into the running scan,
    and the comparison makes late echoes harmless.

    Limit of the wiring: columns are shared, so while one seat holds key 3, another seat
    pressing or releasing key 3 makes no edge (the column is already low). While any key
    is held, ``next_deadline()`` therefore asks the loop for a re-scan every
    ``scan_interval`` seconds; with no key held there are no scans at all
    (``scan_count`` proves it). A press is confirmed on a fresh scan ``bounce`` after
    it began (a glitch is not a key, :mod:`pitable.hardware.keys`). If the loop comes
    late to that check and the key has been let go meanwhile, the columns tell what it
    read at the check: a column that has not moved since the last scan, and that no
    other seat holds, still shows that key's level.

    **A stuck key** (held ``stuck_after``, 30 s: something resting on a pad, a shorted
    key) is logged and handed out as a :class:`~pitable.hardware.keys.KeyStuck`, and its
    row is *let go* between scans instead of driven low. A let-go row pulls no column
    down, so the stuck key no longer holds its column low: every other seat's press on
    that column makes an edge again, and short taps there are seen at once, as on any
    other column. The periodic re-scan stops counting the stuck key (no 50 scans a
    second all evening); the stuck pad is scanned every ``stuck_poll`` seconds (and on
    every other key's edge), which sees its other keys and the stuck key's release.
    Once let go, the row is driven low again.
    """

    def __init__(self, rows: Sequence[Pin], columns: Sequence[Pin], on_edge: OnEdge, *,
                 pin_factory=None, bounce: float = 0.02, release: float = RELEASE,
                 stuck_after: float = STUCK_AFTER, stuck_poll: float = 0.1,
                 clock: Callable[[], float] = time.monotonic,
                 scan_interval: float = 0.02, settle: float = SETTLE,
                 sleep: Callable[[float], None] = time.sleep,
                 wake: Callable[[], None] | None = None) -> None:
        if len(columns) != KEYS:
            raise PadsError(f"matrix: {len(columns)} column pins, need {KEYS}")
        self._on_edge = on_edge
        self._clock = clock
        self._sleep = sleep
        self._wake = wake
        self.settle_time = settle
        self._debouncer = Debouncer(bounce, release)
        self._held = _Held(stuck_after)
        self.stuck_poll = stuck_poll
        self._isolated: set[int] = set()   # rows of stuck keys: let go between scans
        self.scan_interval = scan_interval
        self.seats = len(rows)
        self.scan_count = 0
        self._flags = threading.Lock()
        self._busy = False  # one thread scans at a time; others leave flags for it
        self._dirty = False  # a column changed (or settle was asked) while busy
        self._force = False  # a scan was asked for while busy
        self._closed = False  # set by close(): no new scan starts
        self._idle = threading.Condition(self._flags)  # notified when a scan ends
        self._scanner: int | None = None  # the thread that scans now
        self._raw = [[False] * KEYS for _ in rows]
        self._moved: list[float | None] = [None] * KEYS  # first time a column left the last scan's level
        self._last_scan = 0.0
        self._deadline: float | None = None
        self._rows: list[GPIODevice] = []
        self._cols: list[DigitalInputDevice] = []
        try:
            for s, pin in enumerate(rows):
                try:
                    dev = GPIODevice(pin, pin_factory=pin_factory)
                except Exception as e:  # noqa: BLE001 - GPIOZeroError, lgpio.error, RuntimeError...
                    raise _gpio_error(f"matrix row of seat {s + 1}", pin, e) from e
                self._rows.append(dev)
                if type(dev.pin_factory).__name__ in _LATCHING:
                    raise PadsError(
                        f"matrix row of seat {s + 1} (GPIO {pin}): pin factory "
                        f"{type(dev.pin_factory).__name__} turns a pin into an output at "
                        "whatever its output latch holds (another program may have left a 1 "
                        "there), so a row could be driven high for microseconds; the matrix "
                        "needs pads.pin_factory: lgpio or rpigpio (or default)")
                try:
                    _drive_low(dev.pin)
                except Exception as e:  # noqa: BLE001
                    raise _gpio_error(f"matrix row of seat {s + 1}", pin, e) from e
            self._settle()   # opening a column reads it
            for k, pin in enumerate(columns):
                try:
                    self._cols.append(DigitalInputDevice(
                        pin, pull_up=True, bounce_time=None, pin_factory=pin_factory))
                except Exception as e:  # noqa: BLE001 - GPIOZeroError, lgpio.error, RuntimeError...
                    raise _gpio_error(f"matrix column of key {k + 1}", pin, e) from e
            # Baseline without edges: a key held at start is reported once released
            # and pressed again, like gpiozero does for its own devices.
            self._raw = self._scan_matrix()
            for k, (col, pin) in enumerate(zip(self._cols, columns)):
                try:
                    col.when_activated = _contained(self._column_changed)
                    col.when_deactivated = _contained(self._column_changed)
                except Exception as e:  # noqa: BLE001 - each pin library fails its own way
                    raise _edge_error(f"matrix column of key {k + 1}", pin, e) from e
        except BaseException:
            self.close()
            raise

    # -- gpiozero thread ----------------------------------------------------------
    def _column_changed(self) -> None:
        self._service(scan=False)

    # -- loop thread --------------------------------------------------------------
    def next_deadline(self) -> float | None:
        return self._deadline

    def settle(self, now: float | None = None) -> None:
        """Do what ``next_deadline()`` asked for: a press to confirm, or a held-key re-scan."""
        now = self._clock() if now is None else now
        dl = self._deadline
        if dl is None or now < dl:
            return
        due = self._next_scan()
        self._service(scan=due is not None and now >= due)

    def _next_scan(self) -> float | None:
        """When the next periodic scan is due: soon while a key holds its column low (a
        press on that column by another seat makes no edge), slowly while only stuck
        pads are down (their rows are let go and hide nothing), never when no key is."""
        if any(self._raw[s][k] for s in range(self.seats) if s not in self._isolated
               for k in range(KEYS)):
            return self._last_scan + self.scan_interval
        if self._isolated:
            return self._last_scan + self.stuck_poll
        return None

    @property
    def stuck(self) -> set[tuple[int, int]]:
        """(seat, key) of the keys held so long they count as stuck."""
        return set(self._held.stuck)

    def pressed(self, seat: int, key: int) -> bool:
        return self._debouncer.level(seat, key)

    # -- scanning -----------------------------------------------------------------
    def _settle(self) -> None:
        if self.settle_time > 0:
            self._sleep(self.settle_time)

    def _service(self, scan: bool) -> None:
        with self._flags:
            if self._closed:
                return
            if self._busy:
                self._dirty = True
                self._force |= scan
                return
            self._busy = True
            self._scanner = threading.get_ident()
            self._force = scan
        try:
            while True:
                with self._flags:
                    scan, self._force, self._dirty = self._force, False, False
                now = self._clock()
                idle = self._read_idle()
                expected = self._expected_idle()
                for k in range(KEYS):
                    if idle[k] != expected[k] and self._moved[k] is None:
                        self._moved[k] = now
                # checks the loop came late to: decided from the last scan where the
                # columns prove it still held at the check
                edges = self._catch_up()
                # A press is confirmed on a fresh reading, never on the last scan: that
                # may have caught a contact mid-bounce or a glitch, and on a shared column
                # nothing tells us it has changed since.
                if self._debouncer.due(now) or idle != expected:
                    scan = True
                if scan:
                    m = self._scan_matrix()
                    # the due checks first, from this scan; then the other changes
                    edges += self._debouncer.settle_due(self._last_scan, lambda s, k: m[s][k])  # noqa: B023 - called at once
                    edges += self._apply(m)
                items = edges + self._held.track(edges) + self._held.due(now)
                self._isolate()
                before, self._deadline = self._deadline, self._next_deadline()
                # Edges go out after the deadline is updated, so the loop never sees
                # an edge without the check it arms.
                for e in items:
                    self._on_edge(e)
                _wake_if_earlier(self._wake, before, self._deadline)
                with self._flags:
                    if self._closed or not (self._dirty or self._force):
                        self._end_scan()
                        return
        except BaseException:
            with self._flags:
                self._end_scan()
            raise

    def _end_scan(self) -> None:  # with self._flags held
        self._busy = False
        self._scanner = None
        self._idle.notify_all()

    def _catch_up(self) -> list[KeyEdge]:
        edges = []
        for s, k in self._debouncer.due(self._clock()):
            check = self._debouncer.check_of(s, k)
            assert check is not None  # due: it has a check
            others = any(self._raw[o][k] for o in range(self.seats)
                         if o != s and o not in self._isolated)
            moved = self._moved[k]
            still = moved is None or moved > check
            if self._last_scan <= check and still and not others:
                edges += self._debouncer.decide(s, k, self._raw[s][k], check)
        return edges

    def _read_idle(self) -> list[bool]:
        return [bool(c.is_active) for c in self._cols]

    def _expected_idle(self) -> list[bool]:
        return [any(row[k] for s, row in enumerate(self._raw) if s not in self._isolated)
                for k in range(KEYS)]

    def _isolate(self) -> None:
        """Let go the rows of stuck keys, drive low again the rows no longer stuck."""
        rows = {s for s, _ in self._held.stuck}
        if rows == self._isolated:
            return
        for s in rows - self._isolated:
            _let_go(self._rows[s].pin)
        for s in self._isolated - rows:
            _drive_low(self._rows[s].pin)
        self._isolated = rows
        self._settle()

    def _raw_level(self, seat: int, key: int) -> bool:
        return self._raw[seat][key]

    def _scan_matrix(self) -> list[list[bool]]:
        for row in self._rows:
            _let_go(row.pin)
        m = []
        for row in self._rows:
            _drive_low(row.pin)
            self._settle()
            m.append([bool(c.is_active) for c in self._cols])
            _let_go(row.pin)
        for s, row in enumerate(self._rows):
            if s not in self._isolated:
                _drive_low(row.pin)
        # the columns of keys held on other rows fall now: driven, fast, but read only
        # after a settle like every other reading
        self._settle()
        self.scan_count += 1
        self._last_scan = self._clock()
        self._moved = [None] * KEYS
        return m

    def _apply(self, m: list[list[bool]]) -> list[KeyEdge]:
        now = self._last_scan
        edges = []
        for s, (old, new) in enumerate(zip(self._raw, m)):
            for k in range(KEYS):
                if old[k] != new[k]:
                    edges += self._debouncer.edge(s, k, new[k], now)
        self._raw = m
        return edges

    def _next_deadline(self) -> float | None:
        dls = [self._debouncer.next_deadline(), self._next_scan(), self._held.next_deadline()]
        due = [d for d in dls if d is not None]
        return min(due) if due else None

    # A scan takes milliseconds; a handler stuck for longer than this is not waited for.
    CLOSE_WAIT = 2.0

    def close(self) -> None:
        """Release the lines, after the scan that may be running on gpiozero's thread
        (closing its columns under it would raise there); no new scan starts."""
        with self._flags:
            self._closed = True
            if self._scanner != threading.get_ident():  # not from inside our own scan
                self._idle.wait_for(lambda: not self._busy, timeout=self.CLOSE_WAIT)
            devices, self._cols, self._rows = self._cols + self._rows, [], []
        _close_all(devices)


class SeatSignals(_Closing):
    """Private feedback per seat: ``leds[s]`` / ``buzzers[s]`` are GPIOs or None."""

    def __init__(self, leds: Sequence[Pin | None] = (), buzzers: Sequence[Pin | None] = (),
                 *, pin_factory=None, flash: float = 0.12, beep: float = 0.08) -> None:
        self.flash = flash
        self.beep = beep
        self._leds: list[LED | None] = []
        self._buzzers: list[Buzzer | None] = []
        try:
            for s, pin in enumerate(leds):
                self._leds.append(self._open(LED, pin, f"LED of seat {s + 1}", pin_factory))
            for s, pin in enumerate(buzzers):
                self._buzzers.append(
                    self._open(Buzzer, pin, f"buzzer of seat {s + 1}", pin_factory))
        except BaseException:
            self.close()
            raise

    @staticmethod
    def _open(cls, pin, what, pin_factory):
        if pin is None:
            return None
        try:
            return cls(pin, pin_factory=pin_factory)
        except Exception as e:  # noqa: BLE001 - GPIOZeroError, lgpio.error, RuntimeError...
            raise _gpio_error(what, pin, e) from e

    def refuse(self, seat: int) -> None:
        """Two short blinks / one short beep for that seat only; no-op if nothing fitted."""
        led = self._leds[seat] if 0 <= seat < len(self._leds) else None
        bz = self._buzzers[seat] if 0 <= seat < len(self._buzzers) else None
        # background=True: gpiozero's own thread times it; the loop never sleeps.
        if led is not None:
            led.blink(on_time=self.flash, off_time=self.flash, n=2, background=True)
        if bz is not None:
            bz.beep(on_time=self.beep, off_time=self.beep, n=1, background=True)

    def fitted(self, seat: int) -> bool:
        """Whether the seat has any private feedback device."""
        return any(0 <= seat < len(devs) and devs[seat] is not None
                   for devs in (self._leds, self._buzzers))

    def close(self) -> None:
        _close_all([dev for dev in self._leds + self._buzzers if dev is not None])
        self._leds, self._buzzers = [], []
