"""A whole table on simulated hardware, for tests and benchmarks.

gpiozero's MockFactory pins (direct wiring or a diode matrix), the real pads,
debounce, key tracker, loop, controllers, journal and screens, and a display that
is either luma's in-memory ``dummy`` or a page-diff SSD1306 on a byte-counting bus.
Nothing here is faked but the pins, the bus and (optionally) the clock.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pitable.hardware.busmeter import CountingSerial
    from pitable.hardware.pads import DirectPads, MatrixPads

# Direct wiring: 3 seats x 8 keys on GPIOs that avoid I2C (2, 3).
DIRECT_PINS = ((4, 17, 27, 22, 5, 6, 13, 19), (18, 23, 24, 25, 8, 7, 12, 16),
               (0, 1, 9, 10, 11, 14, 15, 20))
MATRIX_ROWS = (5, 6, 13, 19, 26, 12)
MATRIX_COLUMNS = (4, 17, 27, 22, 23, 24, 25, 18)


class ManualClock:
    """A clock that only moves when told to: debounce and holds become exact."""

    def __init__(self, t: float = 1000.0):
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> None:
        self.t += dt


class SimTable:
    def __init__(self, log_dir, *, seats: int = 3, wiring: str = "direct", display: str = "dummy",
                 clock=None, bounce: float = 0.02, hold: float = 1.0, deck: str = "physical",
                 on_frame=None, rng=None, language: str = "en", notice_seconds: float | None = None,
                 assistant: dict | None = None, assistant_worker: str = "inline", release: float | None = None,
                 reveal_seconds: float | None = None):
        from gpiozero.pins.mock import MockFactory

        from pitable.hardware.mockmatrix import MockDirectKeys, MockMatrix
        from pitable.hardware.pads import DirectPads, MatrixPads, nothing
        from pitable.daemon import assemble

        self.clock = clock or ManualClock()
        self.bounce, self.hold_time = bounce, hold
        from pitable.hardware.keys import RELEASE

        self.release = RELEASE if release is None else release
        self.factory = MockFactory()
        self.bus: CountingSerial | None = None
        self.device = self._device(display)
        self.changed_at = self.clock()   # when the glass last got a new frame

        def framed(view):
            self.changed_at = self.clock()
            if on_frame is not None:
                on_frame(view)

        # the daemon's own wiring of table, screen and loop (pitable.daemon.assemble)
        self.table, self.loop, self.screen = assemble(
            self.device, clock=self.clock, hold=hold, release=self.release, on_frame=framed,
            screen={"blank_after": 0, "shift_after": 0},
            seats=seats, log_dir=log_dir, deck=deck, rng=rng, language=language,
            notice_seconds=notice_seconds, assistant=assistant, assistant_worker=assistant_worker,
            **({} if reveal_seconds is None else {"reveal_seconds": reveal_seconds}))
        self.keys: Any                            # the mock keys, then what reads them (_Reading)
        self.pads: DirectPads | MatrixPads
        if wiring == "direct":
            if seats > len(DIRECT_PINS):
                raise ValueError(f"direct wiring fits {len(DIRECT_PINS)} seats on one Pi; use matrix")
            self.keys = MockDirectKeys(self.factory, DIRECT_PINS[:seats])  # before the pads
            self.pads = DirectPads(DIRECT_PINS[:seats], self.loop.post, pin_factory=self.factory,
                                   bounce=bounce, release=self.release, clock=self.clock,
                                   wake=lambda: self.loop.post(nothing))
        else:
            self.keys = MockMatrix(self.factory, MATRIX_ROWS[:seats], MATRIX_COLUMNS)
            # mock lines settle at once; with a hand-moved clock the 100 us waits would
            # only cost the tests real time (a real clock keeps them, for the benchmarks)
            settle: dict[str, Any] = {"sleep": lambda dt: None} if isinstance(self.clock, ManualClock) else {}
            self.pads = MatrixPads(MATRIX_ROWS[:seats], MATRIX_COLUMNS, self.loop.post,
                                   pin_factory=self.factory, bounce=bounce, release=self.release,
                                   clock=self.clock, wake=lambda: self.loop.post(nothing), **settle)
        self.loop.sources.append(self.pads)
        self.loop.refresh()
        self.raw_keys, self.keys = self.keys, _Reading(self.keys, self)


    def _device(self, display: str):
        if display == "dummy":
            from luma.core.device import dummy

            return dummy(width=128, height=64, mode="1")
        from pitable.hardware.busmeter import CountingSerial
        from pitable.hardware.pagediff import PagedSH1106, PagedSSD1306

        self.bus = CountingSerial(record=False)
        cls = {"ssd1306": PagedSSD1306, "sh1106": PagedSH1106}[display]
        return cls(serial_interface=self.bus, width=128, height=64)

    # -- fingers ------------------------------------------------------------------------------

    def read(self) -> None:
        """Wait until the screen up now has been shown for a reaction time, as a person
        does before pressing for it (a key pressed sooner is judged by the screen before)."""
        left = self.changed_at + getattr(self.loop, "reaction", 0.3) - self.clock()
        if left > 0:
            self._wait(left)

    def press_raw(self, seat: int, key: int, down: float = 0.05) -> None:
        """Press and release a key now, without reading the screen first."""
        self.raw_keys.press(seat - 1, key)
        self._wait(self.bounce + down)
        self.keys.release(seat - 1, key)
        self._wait(self.bounce + 0.03)

    def tap(self, seat: int, key: int) -> None:
        """Press and release a key (seat 1-based as printed, key 0..7), as a person would:
        once the screen has been up for a reaction time."""
        self.read()
        self.keys.press(seat - 1, key)
        self._wait(self.bounce + 0.03)
        self.keys.release(seat - 1, key)
        self._wait(self.bounce + 0.03)

    def long_press(self, seat: int, key: int) -> None:
        self.read()
        self.keys.press(seat - 1, key)
        self._wait(self.hold_time + 0.05)
        self.keys.release(seat - 1, key)
        self._wait(self.bounce + 0.03)

    def _wait(self, dt: float) -> None:
        if isinstance(self.clock, ManualClock):
            # the loop wakes at each deadline the pads ask for (a press to confirm, a
            # re-scan), as it does on a Pi, not only at the end of the wait
            end = self.clock.t + dt
            for _ in range(10_000):
                dls = [d for d in (s.next_deadline() for s in self.loop.sources)
                       if d is not None and self.clock.t < d < end]
                if not dls:
                    break
                self.clock.t = min(dls)
                self.loop.drain()
            self.clock.t = end
            self.loop.drain()
        else:
            deadline = time.monotonic() + dt
            while time.monotonic() < deadline:
                self.loop.step(max(0.0, deadline - time.monotonic()))
            self.loop.drain()

    # -- what people see ----------------------------------------------------------------------

    @property
    def game(self):
        return self.table.current

    def view(self):
        return self.table.view()

    def frame(self):
        return self.screen.sent

    def close(self) -> None:
        self.pads.close()
        self.table.close()


class _Reading:
    """The mock keys as a person's fingers: a press waits until the screen up has been
    seen for a reaction time (``SimTable.raw_keys`` presses at once)."""

    def __init__(self, keys, table):
        self._keys, self._table = keys, table

    def press(self, seat: int, key: int) -> None:
        self._table.read()
        self._keys.press(seat, key)

    def chatter(self, *args, **kw):
        self._table.read()
        return self._keys.chatter(*args, **kw)

    def __getattr__(self, name):
        return getattr(self._keys, name)
