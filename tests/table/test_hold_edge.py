"""A press is as long as its edges say, also at the hold time's edge: the pads confirm a
release only once the key still reads open RELEASE (5 ms) later, so the loop must not call
a press a hold while a release before the hold time is still being confirmed."""

import pytest

from pitable.hardware.keys import HOLD, PRESS
from pitable.hardware.pads import RELEASE
from pitable.harness import ManualClock, SimTable


def run_like_the_daemon(sim, seconds):
    """The loop as it runs on a Pi: it wakes when its own timeout says (a hold's deadline
    too, not only the pads'), and handles what is due then."""
    end = sim.clock.t + seconds
    while sim.clock.t < end:
        dt = sim.loop._timeout()
        sim.clock.t = end if dt is None else min(end, sim.clock.t + max(dt, 1e-6))
        sim.loop.step(0)


@pytest.mark.parametrize("wiring", ["direct", "matrix"])
@pytest.mark.parametrize("down,action", [(1.0 - RELEASE * 0.6, PRESS), (1.0 - 0.001, PRESS),
                                         (1.0 - RELEASE - 0.002, PRESS), (1.0 + 0.002, HOLD), (1.3, HOLD)])
def test_a_release_just_before_the_hold_time_is_a_press(tmp_path, wiring, down, action):
    sim = SimTable(tmp_path / "logs", seats=3, wiring=wiring, clock=ManualClock())
    sim.loop.reaction = 0
    got = []
    sim.loop.app.on_key = lambda event: got.append(event.action)
    try:
        t0 = sim.clock.t
        sim.raw_keys.press(0, 2)
        run_like_the_daemon(sim, down)
        assert sim.clock.t == pytest.approx(t0 + down)
        sim.raw_keys.release(0, 2)
        run_like_the_daemon(sim, 0.2)
        assert got == [action]
    finally:
        sim.close()
