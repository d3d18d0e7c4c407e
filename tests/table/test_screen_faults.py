"""A display that fails in any way never stops the game.

Every call the screen makes into the device (display, hide, show, invalidate,
cleanup, and reopening it) may raise whatever luma, smbus2 or spidev raise: luma's own
errors (DeviceNotFoundError is not an OSError), OSError, RuntimeError, ValueError,
AttributeError from a half-open device, an AssertionError from a luma check...
"""

import itertools

import luma.core.error as lerr
import pytest

from pitable.errors import DisplayError
from pitable.table.screen import Screen

from .test_screen import Clock, frame

FAULTS = (lerr.DeviceNotFoundError("I2C device not found on address: 0x3C"),
          lerr.Error("luma"), lerr.DevicePermissionError("no"), OSError(121, "Remote I/O error"),
          BrokenPipeError(32, "Broken pipe"), RuntimeError("smbus"), ValueError("spidev closed"),
          AttributeError("'NoneType' object has no attribute 'write'"), TypeError("half-open"),
          AssertionError(), DisplayError("did not take the frame"), KeyError("x"))
CALLS = ("display", "hide", "show", "invalidate", "cleanup")


class FlakyDevice:
    """Raises ``fault`` from ``broken`` calls while ``failing``."""

    def __init__(self, fault=None, broken=()):
        self.fault, self.broken, self.failing = fault, set(broken), False
        self.frames, self.hidden, self.calls = [], False, []

    def _maybe_fail(self, name):
        self.calls.append(name)
        if self.failing and name in self.broken:
            raise self.fault

    def display(self, image):
        self._maybe_fail("display")
        self.frames.append(image.tobytes())

    def hide(self):
        self._maybe_fail("hide")
        self.hidden = True

    def show(self):
        self._maybe_fail("show")
        self.hidden = False

    def invalidate(self):
        self._maybe_fail("invalidate")

    def cleanup(self):
        self._maybe_fail("cleanup")


def run_evening(screen, device, clock, fail_from, fail_until):
    """Frames, blanking, a waking key, pixel shifts and retries, with the device failing
    between two steps; returns nothing, must not raise."""
    steps = [lambda: screen.show(frame("a")), lambda: screen.show(frame("b")),
             lambda: screen.tick(clock.t), lambda: screen.key(), lambda: screen.show(frame("c")),
             lambda: screen.tick(clock.t), lambda: screen.show(frame("d")), lambda: screen.key()]
    for i, step in enumerate(steps):
        device.failing = fail_from <= i < fail_until
        clock.t += 40.0  # past blank_after (30) and shift_after (35): every tick does something
        step()
        screen.tick(clock.t)


@pytest.mark.parametrize("fault,call", list(itertools.product(FAULTS, CALLS)),
                         ids=lambda x: x if isinstance(x, str) else type(x).__name__)
def test_any_fault_at_any_call_never_stops_the_game_and_the_screen_comes_back(fault, call):
    device, clock = FlakyDevice(fault, {call}), Clock()
    screen = Screen(device, clock, blank_after=30, shift_after=35)
    run_evening(screen, device, clock, 1, 5)
    # the device works again: within the backoff the last frame is on it, not hidden
    device.failing = False
    for _ in range(10):
        clock.t += 31.0
        screen.key()
        screen.show(frame("z"))
        screen.tick(clock.t)
    assert screen.failed_at is None
    assert device.frames and device.frames[-1] in {frame("z").tobytes(),
                                                   *(screen._image().tobytes(),)}
    assert not device.hidden
    screen.close()  # cleanup goes through the same handling
    device.failing = True
    screen.close()


@pytest.mark.parametrize("fault", FAULTS, ids=lambda e: type(e).__name__)
def test_unplugged_while_blank_then_a_key(fault):
    # hide()/show() on an unplugged I2C display raised out of the loop
    device, clock = FlakyDevice(fault, set(CALLS)), Clock()
    screen = Screen(device, clock, blank_after=30, shift_after=0)
    screen.show(frame("a"))
    device.failing = True
    clock.t = 30.0
    screen.tick(clock.t)      # hide() fails
    assert screen.key() is True  # the key still only wakes the screen
    clock.t = 100.0
    device.failing = False
    screen.tick(clock.t)
    assert screen.failed_at is None and not device.hidden
    assert device.frames[-1] == frame("a").tobytes()


@pytest.mark.parametrize("fault", FAULTS, ids=lambda e: type(e).__name__)
def test_reopen_failing_in_any_way_is_retried(fault):
    device, clock = FlakyDevice(OSError(5, "EIO"), {"display"}), Clock()
    attempts = []

    def reopen():
        attempts.append(clock.t)
        if len(attempts) < 3:
            raise fault
        return FlakyDevice()

    screen = Screen(device, clock, blank_after=0, shift_after=0, reopen=reopen)
    device.failing = True
    screen.show(frame("a"))
    for t in range(1, 20):
        clock.t = float(t)
        screen.tick(clock.t)
    assert len(attempts) == 3 and screen.failed_at is None
    assert screen.device.frames == [frame("a").tobytes()]


def test_a_display_back_while_blank_stays_blank():
    device, clock = FlakyDevice(OSError(121, "x"), {"hide"}), Clock()
    screen = Screen(device, clock, blank_after=30, shift_after=0, reopen=lambda: FlakyDevice())
    screen.show(frame("a"))
    device.failing = True
    clock.t = 30.0
    screen.tick(clock.t)
    clock.t = 31.0
    screen.tick(clock.t)  # reopened: a fresh panel is on, and must be put to sleep again
    assert screen.failed_at is None and screen.device.hidden


def test_a_wake_up_that_failed_is_done_again_when_the_display_is_back():
    device, clock = FlakyDevice(lerr.DeviceNotFoundError("gone"), {"show"}), Clock()
    screen = Screen(device, clock, blank_after=30, shift_after=0)
    screen.show(frame("a"))
    clock.t = 30.0
    screen.tick(clock.t)
    assert device.hidden
    device.failing = True
    assert screen.key() is True
    device.failing = False
    clock.t = 32.0
    screen.tick(clock.t)
    assert screen.failed_at is None and not device.hidden


def test_the_daemon_loop_survives_an_unplugged_display_while_blank(tmp_path):
    # end to end: real pads, loop and table; the display is pulled while blank
    from pitable.harness import ManualClock, SimTable

    sim = SimTable(tmp_path, seats=3, clock=ManualClock())
    try:
        real = sim.screen.device

        class Pulled:
            unplugged = False

            def __getattr__(self, name):
                if self.unplugged:
                    raise lerr.DeviceNotFoundError("I2C device not found on address: 0x3C")
                return getattr(real, name)

        device = Pulled()
        sim.screen.device = device
        sim.screen.blank_after = 60
        sim.tap(1, 0)  # game 1: Grasshopper Poker
        device.unplugged = True
        sim.clock.advance(61)
        sim.loop.drain()  # blanking: hide() fails
        sim.tap(1, 0)     # wakes (show() fails too)...
        sim.tap(1, 0)     # ...and the next key is played: seat 1 joins
        assert sim.view().joined == (1,)
        device.unplugged = False
        sim.clock.advance(40)
        sim.loop.drain()
        assert sim.screen.failed_at is None
        assert real.image.tobytes() == sim.screen.frame.tobytes()
    finally:
        sim.close()
