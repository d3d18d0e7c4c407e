"""Simulated pads on gpiozero's MockFactory, for tests and benchmarks (no hardware).

:class:`MockMatrix` models a diode keyboard matrix: a column reads low iff some row that
is currently *driven low* (an output at 0) has that key held. Row pins are a
:class:`~gpiozero.pins.mock.MockPin` subclass that recomputes the columns whenever
the pads drive them, so a scan reads exactly what real diodes would give.

:class:`MockDirectKeys` presses direct-wired keys by driving their pins low.

Create the simulation *before* the pads: MockFactory hands out the pin object that
already exists for a number, so the pads get our pin classes.
"""

from __future__ import annotations

import threading
from typing import Sequence

from gpiozero.pins.mock import MockFactory, MockPin

__all__ = ["MockMatrix", "MockDirectKeys"]


class _RowPin(MockPin):
    def __init__(self, factory, info, matrix=None):
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix._update()
        return changed

    def _set_function(self, value):
        super()._set_function(value)
        if self.matrix is not None:  # output <-> input starts/stops driving the row
            self.matrix._update()

    def driving_low(self) -> bool:
        return self._function == "output" and not self._state


class _ColumnPin(MockPin):
    def __init__(self, factory, info, matrix=None):
        super().__init__(factory, info)
        self.matrix = matrix

    def _set_pull(self, value):
        super()._set_pull(value)  # MockPin drives the pin to its pull...
        if self.matrix is not None:  # ...but a held key still wins
            self.matrix._update()


def _pin(factory: MockFactory, name, cls, **kwargs):
    pin = factory.pin(name, pin_class=cls, **kwargs)
    if not isinstance(pin, cls):
        raise ValueError(f"pin {name} already exists as {type(pin).__name__}: "
                         "create the mock before the pads")
    return pin


class MockMatrix:
    """A keyboard matrix with diodes: ``rows`` (one per seat) x 8 ``columns``."""

    def __init__(self, factory: MockFactory, rows: Sequence, columns: Sequence) -> None:
        self._lock = threading.RLock()
        self._held: set[tuple[int, int]] = set()
        self.rows = [_pin(factory, p, _RowPin, matrix=self) for p in rows]
        self.columns = [_pin(factory, p, _ColumnPin, matrix=self) for p in columns]

    def press(self, seat: int, key: int) -> None:
        with self._lock:
            self._held.add((seat, key))
            self._update()

    def release(self, seat: int, key: int) -> None:
        with self._lock:
            self._held.discard((seat, key))
            self._update()

    def held(self) -> set[tuple[int, int]]:
        return set(self._held)

    def _update(self) -> None:
        # Re-entrant: driving a column calls the pads' handler, which may scan, which
        # drives rows, which lands here again. Each column's level is computed from
        # the state at the moment it is driven, so the outermost call ends consistent.
        with self._lock:
            for k, col in enumerate(self.columns):
                if col.function != "input":
                    continue
                low = any(
                    (s, k) in self._held and row.driving_low()
                    for s, row in enumerate(self.rows)
                )
                if low:
                    col.drive_low()
                elif col.pull == "up":
                    col.drive_high()


class MockDirectKeys:
    """Press/release direct-wired keys: ``seats[s][k]`` is the GPIO of key k of seat s."""

    def __init__(self, factory: MockFactory, seats: Sequence[Sequence]) -> None:
        self._pins = [[factory.pin(p) for p in pins] for pins in seats]

    def press(self, seat: int, key: int) -> None:
        self._pins[seat][key].drive_low()

    def release(self, seat: int, key: int) -> None:
        self._pins[seat][key].drive_high()

    def chatter(self, seat: int, key: int, levels: Sequence[bool]) -> None:
        """Drive a burst of levels (True = pressed) back to back."""
        for pressed in levels:
            if pressed:
                self.press(seat, key)
            else:
                self.release(seat, key)
