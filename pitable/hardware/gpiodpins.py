"""A gpiozero pin factory on libgpiod v2 (PyPI ``gpiod``): idle means idle.

gpiozero's ``LGPIOFactory`` watches edges with lgpio's alert thread, which polls with a
0.5 ms timeout: about 2,000 wake-ups a second on a table where nobody presses a key.
This factory has one thread that *blocks* on the line requests' file descriptors
(``poll`` without a timeout) and wakes only for an edge or a change of what it
watches. Each edge is dated by the kernel's timestamp (``CLOCK_MONOTONIC``, the clock of
``time.monotonic()``), which gpiozero hands on as the edge's ticks, so the pads'
debouncer sees when a contact moved, not when a busy CPU got round to it.

Lines are requested from the character device one per pin, and changed in place
(``reconfigure_lines``): a row switched between "driven low" and "let go" is never
released and claimed again, and an output is requested with its initial value, so it
never shows another level for an instant.

Registered as gpiozero's ``gpiod`` pin factory (entry point ``gpiozero_pin_factories``):
``GPIOZERO_PIN_FACTORY=gpiod`` or ``pads.pin_factory: gpiod``; pitable's ``default``
prefers it where ``gpiod`` is installed (:func:`pitable.host.pin_factory`).
"""

from __future__ import annotations

import logging
import os
import select
import threading
from datetime import timedelta

import gpiod
from gpiod.line import Bias, Direction, Edge, Value
from gpiozero.exc import (PinFixedPull, PinInvalidBounce, PinInvalidFunction, PinInvalidPull,
                          PinSetInput)
from gpiozero.pins.local import LocalPiFactory, LocalPiPin

__all__ = ["GPIODFactory", "GPIODPin"]

log = logging.getLogger(__name__)

CONSUMER = "pitable"
_BIAS = {"up": Bias.PULL_UP, "down": Bias.PULL_DOWN, "floating": Bias.DISABLED}
_EDGE = {"both": Edge.BOTH, "rising": Edge.RISING, "falling": Edge.FALLING}


class GPIODFactory(LocalPiFactory):
    """Pins of the Pi's GPIO chip through libgpiod v2.

    ``chip`` is a path, a number (``/dev/gpiochipN``) or None: the Pi 5's header is on
    gpiochip4 where that exists (the RP1 chip), every other Pi's on gpiochip0."""

    def __init__(self, chip=None):
        super().__init__()
        if chip is None:
            pi5 = (self._get_revision() & 0xff0) >> 4 == 0x17
            chip = 4 if pi5 and os.path.exists("/dev/gpiochip4") else 0
        self._path = f"/dev/gpiochip{chip}" if isinstance(chip, int) else str(chip)
        self._chip = gpiod.Chip(self._path)
        self._watcher = _Watcher()
        self.pin_class = GPIODPin

    @property
    def chip(self):
        return self._path

    def close(self):
        super().close()   # closes the pins
        self._watcher.stop()
        if self._chip is not None:
            self._chip.close()
            self._chip = None


class GPIODPin(LocalPiPin):
    """One line, requested on its own; its function, pull and edges are its settings."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self._function = "input"
        self._pull = "floating"
        self._edges = "both"
        self._bounce = None
        self._watching = False
        self._out = Value.INACTIVE
        self._request = None
        self._apply()

    # -- the line's settings, applied in one request or reconfiguration ---------------
    def _settings(self) -> gpiod.LineSettings:
        if self._function == "output":
            return gpiod.LineSettings(direction=Direction.OUTPUT, output_value=self._out)
        return gpiod.LineSettings(
            direction=Direction.INPUT, bias=_BIAS[self._pull],
            edge_detection=_EDGE[self._edges] if self._watching else Edge.NONE,
            debounce_period=timedelta(seconds=self._bounce or 0))

    def _apply(self) -> None:
        config = {self._number: self._settings()}
        if self._request is None:
            self._request = self.factory._chip.request_lines(config, consumer=CONSUMER)
        else:
            self._request.reconfigure_lines(config)

    def close(self):
        if self._request is None:
            return
        self.factory._watcher.unwatch(self)
        self._watching = False
        try:
            # let go as an input without bias, like gpiozero's own factories leave a pin
            self._function, self._pull = "input", "floating"
            self._apply()
        finally:
            self._request.release()
            self._request = None

    # -- function and state ------------------------------------------------------------
    def _get_function(self):
        return self._function

    def _set_function(self, value):
        if value not in ("input", "output"):
            raise PinInvalidFunction(f'invalid function "{value}" for pin {self!r}')
        if value == "output":
            self._out = Value.INACTIVE
        self._function = value
        self._apply()

    def output_with_state(self, state):
        # one request: the line never shows another level on its way to this one
        self._function = "output"
        self._out = Value.ACTIVE if state else Value.INACTIVE
        self._apply()

    def input_with_pull(self, pull):
        self._check_pull(pull)
        self._function, self._pull = "input", pull
        self._apply()

    def _get_state(self):
        return self._request.get_value(self._number) == Value.ACTIVE

    def _set_state(self, value):
        if self._function == "input":
            raise PinSetInput(f"cannot set state of pin {self!r}")
        self._out = Value.ACTIVE if value else Value.INACTIVE
        self._request.set_value(self._number, self._out)

    # -- pull, bounce, edges -------------------------------------------------------------
    def _check_pull(self, value):
        if value not in _BIAS:
            raise PinInvalidPull(f'invalid pull "{value}" for pin {self!r}')
        if self.info.pull not in (value, ""):
            raise PinFixedPull(f"{self!r} has a physical pull-{self.info.pull} resistor")

    def _get_pull(self):
        return self._pull

    def _set_pull(self, value):
        if self._function != "input":
            raise PinFixedPull(f"cannot set pull on non-input pin {self!r}")
        self._check_pull(value)
        self._pull = value
        self._apply()

    def _get_bounce(self):
        return self._bounce

    def _set_bounce(self, value):
        if value is not None and value < 0:
            raise PinInvalidBounce("bounce must be 0 or greater")
        self._bounce = value or None
        if self._function == "input":
            self._apply()

    def _get_edges(self):
        return self._edges

    def _set_edges(self, value):
        if value not in _EDGE:
            raise PinInvalidFunction(f'invalid edges "{value}" for pin {self!r}')
        self._edges = value
        if self._watching:
            self._apply()

    def _enable_event_detect(self):
        self._watching = True
        self._apply()
        self.factory._watcher.watch(self)

    def _disable_event_detect(self):
        self.factory._watcher.unwatch(self)
        self._watching = False
        if self._request is not None and self._function == "input":
            self._apply()

    # -- on the watcher's thread -----------------------------------------------------
    def _deliver(self) -> None:
        for event in self._request.read_edge_events():
            rising = event.event_type is gpiod.EdgeEvent.Type.RISING_EDGE
            try:
                self._call_when_changed(event.timestamp_ns / 1e9, int(rising))
            except Exception as e:  # noqa: BLE001 - a handler's bug must not end the thread
                log.error("gpiod: an edge handler of %s failed (%s)", self, type(e).__name__)


class _Watcher:
    """One thread for every watched line: asleep in ``poll()`` (no timeout) until an
    edge arrives or a line is added or removed. Changes are made on that thread and
    waited for, so once ``unwatch`` returns no edge of that line is read any more,
    and the line can be released at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._todo: list[tuple] = []
        self._pins: dict[int, GPIODPin] = {}
        self._thread: threading.Thread | None = None
        self._poll = None
        self._wake_r = self._wake_w = None
        self._stopping = False

    def watch(self, pin: GPIODPin) -> None:
        self._do(self._add, pin)

    def unwatch(self, pin: GPIODPin) -> None:
        if self._thread is not None:
            self._do(self._remove, pin)

    def stop(self) -> None:
        if self._thread is None:
            return
        self._do(self._stop)
        if threading.current_thread() is not self._thread:
            self._thread.join(5)
        os.close(self._wake_r)
        os.close(self._wake_w)
        self._thread = None

    # -- any thread ----------------------------------------------------------------
    def _do(self, fn, *args) -> None:
        if self._thread is None:
            self._start()
        if threading.current_thread() is self._thread:   # from an edge handler
            fn(*args)
            return
        done = threading.Event()
        with self._lock:
            self._todo.append((fn, args, done))
        os.write(self._wake_w, b"\0")
        if not done.wait(5):
            log.warning("gpiod: the edge thread did not answer in 5 s")

    def _start(self) -> None:
        self._wake_r, self._wake_w = os.pipe()
        os.set_blocking(self._wake_r, False)
        self._poll = select.poll()
        self._poll.register(self._wake_r, select.POLLIN)
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="gpiod-edges", daemon=True)
        self._thread.start()

    # -- the watcher's thread ------------------------------------------------------
    def _add(self, pin: GPIODPin) -> None:
        fd = pin._request.fd
        self._pins[fd] = pin
        self._poll.register(fd, select.POLLIN)

    def _remove(self, pin: GPIODPin) -> None:
        for fd, p in list(self._pins.items()):
            if p is pin:
                del self._pins[fd]
                self._poll.unregister(fd)

    def _stop(self) -> None:
        for fd in list(self._pins):
            self._poll.unregister(fd)
        self._pins.clear()
        self._stopping = True

    def _run(self) -> None:
        while not self._stopping:
            for fd, _ in self._poll.poll():
                if fd == self._wake_r:
                    self._run_todo()
                    continue
                pin = self._pins.get(fd)
                if pin is None:
                    continue
                try:
                    pin._deliver()
                except Exception as e:  # noqa: BLE001 - one line's failure must not end the others
                    log.error("gpiod: an edge of %s could not be delivered (%s)", pin, type(e).__name__)

    def _run_todo(self) -> None:
        try:
            while os.read(self._wake_r, 4096):
                pass
        except BlockingIOError:
            pass
        with self._lock:
            todo, self._todo = self._todo, []
        for fn, args, done in todo:
            try:
                fn(*args)
            except Exception as e:  # noqa: BLE001 - reported, and the caller goes on
                log.error("gpiod: %s failed (%s: %s)", fn.__name__, type(e).__name__, e)
            finally:
                done.set()
