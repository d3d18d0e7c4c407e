"""The one loop: it alone owns the game state and the display.

gpiozero (and the keyboard reader) call their handlers on their own threads; the
handlers only put events on this loop's queue. The loop sleeps on the queue with
a timeout set by the next thing due (a hold, a toast, a display retry, blanking):
nothing polls while nobody presses a key.
"""

from __future__ import annotations

import gc
import logging
import queue
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol

from pitable.hardware.keys import HOLD, RELEASE, InputSource, KeyEdge, KeyEvent, KeyStuck, KeyTracker
from pitable.screens.views import Key, meaning

log = logging.getLogger(__name__)

# A person answers a screen some 0.3-0.5 s after it appears: the shortest choice
# reaction times (which of 8 keys, after reading) start near 0.3 s, and a press begun
# sooner than that was aimed at the screen before. The config's ``reaction_seconds``.
REACTION_SECONDS = 0.3
HISTORY = 64    # screens remembered (a key is judged by one shown up to a hold's time before)


def _meanings(keys: tuple[Key, ...]) -> frozenset[tuple[int, tuple[Any, ...], tuple[int, ...] | None]]:
    """What every key of a key table does, for every seat it is for (its labels aside)."""
    return frozenset((k.key, k.does, k.seats) for k in keys)


class Stop(Exception):
    """Put on the queue (SIGTERM does) to end the loop after what it is doing.

    Anything else that escapes a step ends the process on purpose: systemd restarts
    it and the game resumes from its log, which is the one place that is always right."""


class App(Protocol):
    """What the loop drives (``pitable.table.app.Table``, ``pitable.pads_test.PadsTest``):
    keys in, views out, timers. A ``typing.Protocol``: the type checker holds every app
    to it (each declares it), and the loop calls these, never looks for them. An app
    that declares it inherits these defaults: no timers, nothing written.

    The loop calls them on its own thread only, in this order a step: ``on_key`` (and
    ``stale_key``, ``key_stuck``) for what was queued, then ``tick``, ``view``,
    ``durable`` before a frame is shown, and ``next_views`` after it. ``view`` only
    draws: it changes nothing (the loop calls it more than once a step). Every view
    carries its key table (``keys``): the loop judges each key by it."""

    def on_key(self, event: KeyEvent) -> None:
        """A key (a :class:`~pitable.hardware.keys.KeyEvent`) meant for the screen up now."""
        raise NotImplementedError

    def view(self) -> Any:
        """What the glass shows now (a view from ``pitable.screens.views``: each carries
        its key table, ``keys``)."""
        raise NotImplementedError

    def next_deadline(self) -> float | None:
        """When the app next needs a ``tick`` (the loop's clock), or None."""
        return None

    def tick(self, now: float) -> bool:
        """Time passed: True when the view changed."""
        return False

    def durable(self) -> bool:
        """Wait until the last key's writes are on disk; False when the disk refused them
        (the key was taken back: the loop asks for the view again)."""
        return True

    def stale_key(self, event: KeyEvent, meant: tuple[Any, ...] | None = None) -> None:
        """A key aimed at a screen that has gone since (``meant``: what its key table said
        the key did there, or None): it did nothing."""
        return None  # a body: a default, not a method each app must write

    def key_stuck(self, item: KeyStuck) -> None:
        """The pads say a key is stuck, or let go again (a :class:`~pitable.hardware.keys.KeyStuck`)."""
        return None

    def next_views(self) -> list[Any]:
        """Views the next key is likely to show (the loop draws them ahead)."""
        return []


class Loop:
    def __init__(self, app: App, screen: Any, render: Callable[[Any], Any], *, hold: float = 1.0,
                 clock: Callable[[], float] = time.monotonic, on_frame: Callable[[Any], object] | None = None,
                 watchdog: tuple[float, Callable[[], object]] | None = None, sources: Sequence[InputSource] = (),
                 reaction: float = REACTION_SECONDS, release: float = RELEASE,
                 queued: queue.SimpleQueue[Any] | None = None) -> None:
        self.app: App = app           # keys in (on_key), views out (view), timers (next_deadline/tick)
        self.screen = screen
        self.render = render          # view -> image
        self.tracker = KeyTracker(hold)
        # A release reaches the loop only once the pads have confirmed it (the key still
        # read open ``release`` s later): a hold is declared that much after its time, so
        # a press let go just before the hold time is never called a hold.
        self.release = float(release)
        self.clock = clock
        # what the app was given to post to (the assistant's answers), or a queue of its own
        self.queue: queue.SimpleQueue[Any] = queued if queued is not None else queue.SimpleQueue()
        self.on_frame = on_frame      # called after each frame is handed over (benchmarks, tests)
        self.watchdog = watchdog      # (interval, ping) for systemd, or None
        # Pads that need a wake-up now and then (a debounce check, a matrix re-scan
        # while a key is held): they say when with next_deadline() and act in settle().
        self.sources: list[InputSource] = list(sources)
        self._last_ping = clock()
        self._view = None
        self._ready: list[tuple[Any, Any]] = []  # (view, frame) drawn ahead for the likely next keys
        self._frame = None            # the frame shown now
        # Phones and the TV page (pitable.web), when configured: called after each step
        # with the view and frame shown; it only copies values and wakes the web thread.
        self.publish = None
        self.running = True
        # What you saw is what you pressed (docs/architecture.md): the screens shown, as
        # (version, its key table, since when), newest last; a key is judged by the table
        # of the one that had been up for ``reaction`` seconds when it went down.
        self.reaction = float(reaction)
        self.version = 0
        self._shown: list[tuple[int, tuple[Key, ...], float]] = []
        self._down: dict[tuple[int, int], float] = {}  # (seat, key) -> when its press went down (first edge)

    # -- from any thread -------------------------------------------------------------------------

    def post(self, item: KeyEdge | KeyEvent | KeyStuck | Stop | Callable[[], object]) -> None:
        """A KeyEdge, a KeyEvent, a KeyStuck, Stop(), or work for the loop's thread (the
        assistant's answer, the pygame window's keys): safe from any thread."""
        self.queue.put(item)

    # -- the loop's own thread -------------------------------------------------------------------

    def run(self) -> None:
        # Everything start-up made lives all evening: move it out of the collector's
        # sight, so that a collection on the key press path has little to scan.
        gc.freeze()
        self.refresh()
        self._publish()
        while self.running:
            self.step(self._timeout())

    def step(self, timeout: float | None) -> None:
        """Handle what is queued (waiting up to ``timeout`` for the first item), then
        what fell due.

        A press is as long as its edges say (each stamped by the pads' handler when it
        happened), not as long as the loop took to get to it: after a stall (a slow bus
        write or fsync) the press and the release of a tap are both queued, and a hold
        may only be declared once every edge up to ``now`` has been seen. So: take
        ``now``, let the pads deliver what their debounce checks hid, take *everything*
        queued, and only then expire holds at ``now``."""
        try:
            first = self.queue.get(timeout=timeout) if timeout is None or timeout > 0 else self.queue.get_nowait()
        except queue.Empty:
            first = None
        now = self.clock()
        for source in self.sources:
            source.settle(now)  # may post edges, dated when they happened
        items = [] if first is None else [first]
        while True:
            try:
                items.append(self.queue.get_nowait())
            except queue.Empty:
                break
        for item in items:  # in the order they came: a key and the assistant's answer, say
            if isinstance(item, Stop) or item is Stop:
                self.running = False
                return
            if isinstance(item, KeyEdge):
                if item.pressed:
                    self._down.setdefault((item.seat, item.key), item.time)
                events = self.tracker.edge(item)
                down = self._down.pop((item.seat, item.key), None) if not item.pressed else None
                self._keys(events, down=down)
            elif isinstance(item, KeyEvent):
                self._keys([item], down=now)
            elif isinstance(item, KeyStuck):   # the pads noticed a key held for half a minute
                self.app.key_stuck(item)
            elif callable(item):
                item()  # work handed over from another thread (e.g. the pygame window's keys)
        for event in self.tracker.expire(now - self.release):
            self._keys([event], down=self._down.get((event.seat, event.key), now))
        self.app.tick(now)
        self.screen.tick(now)
        self.refresh()
        self._publish()
        self._ping(now)

    def _publish(self) -> None:
        if self.publish is None:
            return
        try:
            self.publish(self._view, self._frame)
        except Exception:  # noqa: BLE001 - a web fault never stops the table
            log.exception("publishing to the web pages failed; they stop updating")
            self.publish = None

    def _keys(self, events: Iterable[KeyEvent], down: float | None = None) -> None:
        """Keys to the app, each judged by the screen its presser saw: ``down`` is when
        the key went down (a pad's first edge; a keyboard's arrival), a phone's event
        names the screen version its page showed (``event.screen``)."""
        for event in events:
            if self.screen.key():
                continue  # the key only woke the screen
            taken, meant = self.judge(event, self.clock() if down is None else down)
            if not taken:
                self.app.stale_key(event, meant)
                continue
            self.app.on_key(event)

    def judge(self, event: KeyEvent, down: float) -> tuple[bool, tuple[Any, ...] | None]:
        """(taken, what the key did on the screen its presser saw). A key is taken only if
        the key table of the screen its presser saw (the one that had been shown for at
        least a reaction time when the key went down; for a phone, the version its page
        showed) gives it the same meaning as the table of the screen up now: a key aimed
        at a screen that has gone since (a page that timed out, a bidding screen replaced
        by the bids, the bids replaced by the chooser) means nothing now. A hold is taken
        only if the two tables are the same in every key's meaning (what it opens or
        closes is said by the screen up when it is declared)."""
        if not self._shown or (not self.reaction and event.screen is None):
            return True, None  # reaction_seconds 0: every key acts on the screen up when it arrives
        if event.screen is None:
            at = down - self.reaction
            seen = next((e for e in reversed(self._shown) if e[2] <= at), None)
        else:
            seen = next((e for e in reversed(self._shown) if e[0] == event.screen), None)
        if seen is None:
            return False, None  # no screen was up that long (or a version never shown)
        now = self.app.view().keys  # an earlier item of this step may have changed it: nobody saw that
        if event.action == HOLD:
            return _meanings(seen[1]) == _meanings(now), None
        seat = event.seat + 1
        meant = meaning(seen[1], seat, event.key)
        return meant == meaning(now, seat, event.key), meant

    def _remember_screen(self) -> None:
        keys = self._view.keys if self._view is not None else ()
        if not self._shown or self._shown[-1][1] != keys:
            self.version += 1
            self._shown.append((self.version, keys, self.clock()))
            del self._shown[:-HISTORY]

    def refresh(self) -> None:
        """Draw the app's view if it changed; the screen skips frames it already has.

        The frame is drawn while the last key's log lines are still on their way to
        the disk, and shown only once they are there (``durable``)."""
        view = self.app.view()
        frame = None
        if view != self._view:
            frame = next((f for v, f in self._ready if v == view), None)
            if frame is None:
                frame = self.render(view)
        if not self.app.durable():
            view = self.app.view()  # the disk refused: the key was taken back
            frame = self.render(view) if view != self._view else None
        if frame is None:
            self._remember_screen()
            return
        self._view = view
        self._frame = frame
        self.screen.show(frame)
        self._remember_screen()
        if self.on_frame is not None:
            self.on_frame(view)
        self._draw_ahead()

    def _draw_ahead(self) -> None:
        """Draw the frames the next key is likely to bring (the next notice, the next
        lock-in) now, while nobody waits: that key then only sends its frame. A guess
        that misses costs nothing but the drawing; a Pi Zero draws a frame in ~4 ms."""
        self._ready = [(v, self.render(v)) for v in self.app.next_views()]

    def drain(self) -> None:
        """Handle everything queued now (tests and benchmarks drive the loop this way)."""
        while not self.queue.empty():
            self.step(0)
        self.step(0)

    def _timeout(self) -> float | None:
        held = self.tracker.next_deadline()
        times: list[float] = [t for t in (None if held is None else held + self.release, self.app.next_deadline(),
                             self.screen.next_deadline(), *(s.next_deadline() for s in self.sources))
                 if t is not None]
        if self.watchdog:
            times.append(self._last_ping + self.watchdog[0])
        if not times:
            return None
        return max(0.0, min(times) - self.clock())

    def _ping(self, now: float) -> None:
        if self.watchdog and now >= self._last_ping + self.watchdog[0]:
            self._last_ping = now
            self.watchdog[1]()
