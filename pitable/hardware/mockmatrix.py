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
from collections.abc import Sequence
from typing import Any

from gpiozero.pins.mock import MockFactory, MockPin

__all__ = ["MockMatrix", "MockDirectKeys"]


class _RowPin(MockPin):
    """A row pin with an output latch, as the SoC has: switching the pin to an output
    drives the last value written to it (0 after reset), whatever it read as an input."""

    def __init__(self, factory, info, matrix=None):
        self.latch = False
        super().__init__(factory, info)
        self.matrix = matrix

    def _change_state(self, value):
        changed = super()._change_state(value)
        if changed and self.matrix is not None:
            self.matrix._update(f"{self.info.name} -> {int(bool(value))}")
        return changed

    def _set_state(self, value):
        if self._function == "output":
            self.latch = bool(value)
        super()._set_state(value)

    def _set_function(self, value):
        if value == "output":
            self._function = "output"
            super()._change_state(self.latch)
        else:
            super()._set_function(value)
        if self.matrix is not None:  # output <-> input starts/stops driving the row
            self.matrix._update(f"{self.info.name} {value}")

    def driving_low(self) -> bool:
        return self._function == "output" and not self._state

    def driving_high(self) -> bool:
        return self._function == "output" and bool(self._state)


class _ColumnPin(MockPin):
    def __init__(self, factory, info, matrix=None):
        super().__init__(factory, info)
        self.matrix = matrix

    def _get_state(self):
        if self.matrix is not None and self.matrix.trace is not None:
            self.matrix.trace.append(("read", self.info.name))
        return super()._get_state()

    def driving(self) -> bool:
        return self._function == "output"

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
        #: every time two outputs drove against each other: (what changed, keys held)
        self.faults: list[tuple[str, frozenset]] = []
        #: None, or a list the pins append to: ("row", change), ("read", column pin)
        self.trace: list | None = None
        self.rows = [_pin(factory, p, _RowPin, matrix=self) for p in rows]
        self.columns = [_pin(factory, p, _ColumnPin, matrix=self) for p in columns]

    def press(self, seat: int, key: int) -> None:
        with self._lock:
            self._held.add((seat, key))
            self._check(f"press {seat},{key}")
            self._update()

    def release(self, seat: int, key: int) -> None:
        with self._lock:
            self._held.discard((seat, key))
            self._update()

    def held(self) -> set[tuple[int, int]]:
        return set(self._held)

    def shorts(self) -> list[tuple[str, str]]:
        """Pairs of outputs driving against each other now, with every diode missing.

        The worst case of a missing, reversed or bridged diode: each held key joins its
        row and its column both ways. An output driven high and one driven low in one
        joined group would push current from one pin into the other."""
        pins = [("row", s, p) for s, p in enumerate(self.rows)]
        pins += [("column", k, p) for k, p in enumerate(self.columns)]
        group = {("row", s): ("row", s) for s in range(len(self.rows))}
        group.update({("column", k): ("column", k) for k in range(len(self.columns))})

        def find(x):
            while group[x] != x:
                x = group[x]
            return x

        for s, k in self._held:
            group[find(("row", s))] = find(("column", k))
        highs: dict[Any, list[str]] = {}
        lows: dict[Any, list[str]] = {}
        for kind, i, p in pins:
            if p.function != "output":
                continue
            (highs if p.state else lows).setdefault(find((kind, i)), []).append(p.info.name)
        return [(h, low) for g in highs for h in highs[g] for low in lows.get(g, [])]

    def _check(self, change: str) -> None:
        if self.shorts():
            self.faults.append((change, frozenset(self._held)))

    def _update(self, change: str = "") -> None:
        if change:   # a row pin changed
            if self.trace is not None:
                self.trace.append(("row", change))
            self._check(change)
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
