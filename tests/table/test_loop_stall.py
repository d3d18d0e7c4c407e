"""The length of a press comes from when its edges happened, not from when the loop got
to them: a slow bus write or fsync stalls the loop while fingers go
on pressing; the pads' handlers stamp each edge on their own thread, with the clock."""

import pytest

from pitable.hardware.keys import HOLD, PRESS
from pitable.harness import ManualClock, SimTable


@pytest.fixture(params=["direct", "matrix"])
def sim(request, tmp_path):
    sim = SimTable(tmp_path, seats=3, wiring=request.param, clock=ManualClock(), hold=1.0)
    sim.events = []
    on_key = sim.table.on_key

    def record(event):
        sim.events.append((event.seat, event.key, event.action))
        on_key(event)

    sim.table.on_key = record
    # what these keys mean is not the point here (tests/table/test_what_you_saw.py): how long they were
    sim.loop.reaction = 0
    yield sim
    sim.close()


def stall(sim, seconds, during=()):
    """The loop is busy for ``seconds`` (a write that hangs); ``during`` are (at, action)
    the fingers do meanwhile, ``at`` seconds into the stall. Then the loop catches up."""
    start = sim.clock.t
    for at, action in sorted(during, key=lambda x: x[0]):
        sim.clock.t = start + at
        action()
    sim.clock.t = start + seconds
    sim.loop.drain()


def test_a_tap_during_a_stall_is_a_press(sim):
    stall(sim, 1.5, [(0.1, lambda: sim.raw_keys.press(1, 2)), (0.18, lambda: sim.raw_keys.release(1, 2))])
    assert sim.events == [(1, 2, PRESS)]


def test_a_tap_shorter_than_the_bounce_during_a_stall_is_no_key(sim):
    # a glitch is not a key, stall or not: 12 ms down is less than the 20 ms bounce
    stall(sim, 1.5, [(0.1, lambda: sim.raw_keys.press(1, 2)), (0.112, lambda: sim.raw_keys.release(1, 2))])
    assert sim.events == []


def test_a_tap_just_longer_than_the_bounce_during_a_stall_is_a_press(sim):
    # its check falls due while the loop is stuck; the release decides it from the line
    stall(sim, 1.5, [(0.1, lambda: sim.raw_keys.press(1, 2)), (0.125, lambda: sim.raw_keys.release(1, 2))])
    assert sim.events == [(1, 2, PRESS)]


def test_a_tap_that_began_before_the_stall_is_a_press(sim):
    sim.raw_keys.press(0, 5)
    sim.loop.drain()
    stall(sim, 1.5, [(0.08, lambda: sim.raw_keys.release(0, 5))])
    assert sim.events == [(0, 5, PRESS)]


def test_a_hold_during_a_stall_is_still_a_hold(sim):
    stall(sim, 1.5, [(0.1, lambda: sim.raw_keys.press(2, 6)), (1.3, lambda: sim.raw_keys.release(2, 6))])
    assert sim.events == [(2, 6, HOLD)]
    stall(sim, 1.5, [(0.1, lambda: sim.raw_keys.press(2, 6))])  # still down after the stall
    assert sim.events == [(2, 6, HOLD)] * 2
    sim.raw_keys.release(2, 6)
    sim.clock.advance(0.1)
    sim.loop.drain()
    assert sim.events == [(2, 6, HOLD)] * 2


def test_taps_of_several_seats_during_one_stall(sim):
    stall(sim, 2.0, [(0.1, lambda: sim.raw_keys.press(0, 1)), (0.15, lambda: sim.raw_keys.press(1, 3)),
                     (0.2, lambda: sim.raw_keys.release(0, 1)), (0.3, lambda: sim.raw_keys.release(1, 3))])
    assert sorted(sim.events) == [(0, 1, PRESS), (1, 3, PRESS)]


def test_an_80ms_tap_during_a_1_5s_bus_stall_of_the_loop_is_a_press(tmp_path):
    # the loop is stuck in a display write while a finger taps on another (real) thread; the
    # clock is a manual one, moved by the stall itself, so no real time is waited for
    import threading

    clock = ManualClock()
    sim = SimTable(tmp_path, seats=3, wiring="direct", clock=clock, hold=1.0)
    sim.loop.reaction = 0  # when the keys were, not what they meant
    events = []
    on_key = sim.table.on_key
    sim.table.on_key = lambda e: (events.append((e.seat, e.key, e.action)), on_key(e))
    device = sim.screen.device
    real_display = device.display

    stalls = []

    def finger():
        clock.advance(0.3)
        sim.raw_keys.press(0, 1)
        clock.advance(0.08)
        sim.raw_keys.release(0, 1)

    def slow_display(image):
        if not stalls:  # one I2C write that hangs (clock stretching, a flaky cable) for 1.5 s
            stalls.append(image)
            thread = threading.Thread(target=finger)
            thread.start()
            thread.join()
            clock.advance(1.5 - 0.38)
        real_display(image)

    try:
        device.display = slow_display
        sim.raw_keys.press(0, 0)
        clock.advance(0.03)     # past the debounce lockout
        sim.raw_keys.release(0, 0)  # 1: Grasshopper Poker -> a new screen -> a slow write
        clock.advance(0.006)    # past the release's confirmation
        sim.loop.drain()        # stuck in the write while the finger taps
        assert stalls and events[0] == (0, 0, PRESS)
        device.display = real_display
        for _ in range(10):
            clock.advance(0.05)
            sim.loop.drain()
        assert [e for e in events if e[:2] == (0, 1)] == [(0, 1, PRESS)]
    finally:
        sim.close()


def test_what_queued_during_a_stall_is_applied_in_the_order_it_came(tmp_path):
    from pitable.hardware.keys import KeyEdge

    sim = SimTable(tmp_path, seats=3, wiring="direct", clock=ManualClock())
    sim.loop.reaction = 0  # the order things came in, not what the keys meant
    order = []
    on_key = sim.table.on_key
    sim.table.on_key = lambda e: (order.append(("key", e.key)), on_key(e))
    try:
        t = sim.clock.t
        sim.loop.post(KeyEdge(0, 2, True, t))
        sim.loop.post(KeyEdge(0, 2, False, t + 0.08))
        sim.loop.post(lambda: order.append(("callable",)))  # e.g. the assistant's answer
        sim.loop.post(KeyEdge(1, 3, True, t + 0.1))
        sim.loop.post(KeyEdge(1, 3, False, t + 0.2))
        sim.clock.advance(1.5)
        sim.loop.drain()
        assert order == [("key", 2), ("callable",), ("key", 3)]
    finally:
        sim.close()
