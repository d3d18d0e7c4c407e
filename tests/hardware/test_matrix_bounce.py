"""Matrix: the debounce decision comes from a fresh scan.

Seat 1 holds X, so X's column is low and seat 2's X makes no column edge: only scans
see it. Seat 2 taps X and its release bounces for 9 ms; a scan made in that window
(here: seat 3 pressing another key) catches the contact closed again. The check at the
end of the lockout must re-read the matrix, not trust that mid-bounce reading.
"""

import pytest

from pitable.hardware.keys import PRESS
from pitable.harness import ManualClock, SimTable

X = 7


@pytest.fixture
def sim(tmp_path):
    sim = SimTable(tmp_path, seats=3, wiring="matrix", clock=ManualClock(), hold=1.0)
    sim.loop.reaction = 0  # what the edges make, not what the keys meant on the screen
    sim.events = []
    on_key = sim.table.on_key
    sim.table.on_key = lambda e: (sim.events.append((e.seat, e.key, e.action)), on_key(e))
    yield sim
    sim.close()


def run(sim, seconds, step=0.001):
    """Let the loop run for ``seconds`` as it would: woken at each deadline it asks for."""
    end = sim.clock.t + seconds
    while sim.clock.t < end:
        sim.clock.t = min(end, sim.clock.t + step)
        sim.loop.drain()


def until_scan_sees(sim, seat, key, level, limit=0.2):
    for _ in range(int(limit / 0.001)):
        run(sim, 0.001)
        if sim.pads.pressed(seat, key) == level:
            return
    raise AssertionError("no scan saw it")


@pytest.mark.parametrize("other_key_at", [0.001, 0.003, 0.006, 0.008])
def test_tap_on_a_held_column_with_a_bouncing_release_is_one_press(sim, other_key_at):
    sim.raw_keys.press(0, X)
    run(sim, 0.05)
    sim.raw_keys.press(1, X)
    until_scan_sees(sim, 1, X, True)
    run(sim, 0.1)
    sim.raw_keys.release(1, X)             # the release starts bouncing
    until_scan_sees(sim, 1, X, False)  # a periodic scan catches it open: accepted
    t0 = sim.clock.t
    sim.raw_keys.press(1, X)               # ...the contact closes again for a moment
    run(sim, other_key_at)
    sim.raw_keys.press(2, 2)               # a column edge: a scan sees seat 2's X closed
    run(sim, 0.009 - other_key_at)
    sim.raw_keys.release(1, X)             # the bounce is over, 9 ms after it began
    assert sim.clock.t - t0 == pytest.approx(0.009)
    run(sim, 0.3)
    sim.raw_keys.release(2, 2)
    run(sim, 0.1)
    assert [e for e in sim.events if e[:2] == (1, X)] == [(1, X, PRESS)]
    assert (2, 2, PRESS) in sim.events
    sim.raw_keys.release(0, X)
    run(sim, 0.1)
    assert [e for e in sim.events if e[:2] == (0, X)] == [(0, X, PRESS)]  # held 0.6 s: a press


@pytest.mark.parametrize("interval", [0.002, 0.004, 0.007])
def test_fast_rescans_inside_a_bouncing_release_give_one_press(sim, interval):
    # re-scans while a key is held come every ``interval``: several fall inside the bounce
    sim.pads.scan_interval = interval
    sim.raw_keys.press(0, X)
    run(sim, 0.05)
    sim.raw_keys.press(1, X)
    until_scan_sees(sim, 1, X, True)
    run(sim, 0.1)
    sim.raw_keys.release(1, X)
    until_scan_sees(sim, 1, X, False)
    for _ in range(3):  # closed, open, closed... over 9 ms
        sim.raw_keys.press(1, X)
        run(sim, 0.0015)
        sim.raw_keys.release(1, X)
        run(sim, 0.0015)
    run(sim, 0.3)
    assert [e for e in sim.events if e[:2] == (1, X)] == [(1, X, PRESS)]
