"""Releases are confirmed (a contact break inside a press is no second press) and a key
held for half a minute is noticed (logged, shown, and on a matrix it stops hiding the
other seats' taps on its column). Mock pins and a hand-moved clock, on both wirings."""

import logging

import pytest

from pitable.hardware.keys import HOLD, PRESS, KeyEdge, KeyEvent, KeyStuck, KeyTracker
from pitable.hardware.mockmatrix import MockDirectKeys, MockMatrix
from pitable.hardware.pads import RELEASE, STUCK_AFTER, DirectPads, MatrixPads

SEATS = [
    [4, 17, 27, 22, 5, 6, 13, 19],
    [12, 16, 20, 21, 26, 18, 23, 24],
]
ROWS = [5, 6, 13, 19]
COLS = [4, 17, 27, 22, 23, 24, 25, 12]


class Table:
    """The pads and what the loop would do with them: wake at each deadline, settle,
    and feed the edges to a KeyTracker (hold 1 s)."""

    def __init__(self, factory, clock, wiring):
        self.clock = clock
        self.items = []
        if wiring == "direct":
            self.keys = MockDirectKeys(factory, SEATS)
            self.pads = DirectPads(SEATS, self.items.append, pin_factory=factory, clock=clock)
        else:
            self.keys = MockMatrix(factory, ROWS, COLS)
            self.pads = MatrixPads(ROWS, COLS, self.items.append, pin_factory=factory, clock=clock,
                                   sleep=lambda dt: None)
        self.tracker = KeyTracker(1.0)
        self.events = []
        self._fed = 0

    def run(self, seconds):
        until = self.clock.t + seconds
        while True:
            self._feed()
            dls = [d for d in (self.pads.next_deadline(), self.tracker.next_deadline()) if d is not None]
            dl = min(dls) if dls else None
            if dl is None or dl > until:
                self.clock.t = until
                self._feed()
                return
            self.clock.t = max(self.clock.t, dl)
            self.pads.settle()
            self._feed()
            self.events += self.tracker.expire(self.clock.t)

    def _feed(self):
        for item in self.items[self._fed:]:
            if isinstance(item, KeyEdge):
                self.events += self.tracker.edge(item)
        self._fed = len(self.items)

    def stuck(self):
        return [i for i in self.items if isinstance(i, KeyStuck)]


@pytest.fixture(params=["direct", "matrix"])
def table(request, factory, clock):
    t = Table(factory, clock, request.param)
    yield t
    t.pads.close()


@pytest.mark.parametrize("gap", [0.0002, 0.0005, 0.001])
def test_a_contact_break_inside_a_press_is_one_press(table, gap):
    table.keys.press(1, 3)
    table.run(0.15)
    table.keys.release(1, 3)      # the contact opens for a moment...
    table.run(gap)
    table.keys.press(1, 3)        # ...and closes again: the finger never left
    table.run(0.15)
    table.keys.release(1, 3)
    table.run(0.1)
    assert table.events == [KeyEvent(1, 3, PRESS)]


@pytest.mark.parametrize("gap", [0.0002, 0.001])
def test_a_contact_break_inside_a_hold_does_not_turn_it_into_a_press(table, gap):
    table.keys.press(0, 6)
    table.run(0.5)
    table.keys.release(0, 6)
    table.run(gap)
    table.keys.press(0, 6)
    table.run(0.7)                # 1.2 s down in all
    table.keys.release(0, 6)
    table.run(0.1)
    assert table.events == [KeyEvent(0, 6, HOLD)]


def test_a_release_that_bounces_is_one_release_dated_when_the_finger_left(table):
    table.keys.press(1, 2)
    table.run(0.1)
    t_left = table.clock.t
    for _ in range(3):            # the contact chatters as it opens
        table.keys.release(1, 2)
        table.run(0.0003)
        table.keys.press(1, 2)
        table.run(0.0003)
    last_open = table.clock.t
    table.keys.release(1, 2)
    table.run(RELEASE / 2)
    assert [e for e in table.items if isinstance(e, KeyEdge) and not e.pressed] == []
    table.run(RELEASE)
    releases = [e for e in table.items if isinstance(e, KeyEdge) and not e.pressed]
    assert len(releases) == 1 and releases[0].time == pytest.approx(last_open)
    assert releases[0].time > t_left
    assert table.events == [KeyEvent(1, 2, PRESS)]


def test_a_release_is_known_its_confirmation_time_after_the_finger_left(table):
    table.keys.press(0, 0)
    table.run(0.1)
    table.keys.release(0, 0)
    t_left = table.clock.t
    assert table.pads.next_deadline() == pytest.approx(t_left + RELEASE)
    table.run(RELEASE - 0.0001)
    assert table.events == []
    table.run(0.0002)
    assert table.events == [KeyEvent(0, 0, PRESS)]


def test_a_key_held_half_a_minute_is_logged_and_handed_out_once(table, caplog):
    caplog.set_level(logging.WARNING, logger="pitable.hardware.pads")
    t0 = table.clock.t
    table.keys.press(1, 7)
    table.run(STUCK_AFTER - 1)
    assert table.stuck() == []
    table.run(2)
    assert table.stuck() == [KeyStuck(1, 7, t0, True)]
    assert (1, 7) in table.pads._held.stuck
    assert any("seat 2 key 8" in r.getMessage() and "stuck" in r.getMessage() for r in caplog.records)
    table.run(60)
    assert len(table.stuck()) == 1          # said once, not every time it is looked at
    table.keys.release(1, 7)
    table.run(0.5)
    assert table.stuck()[-1] == KeyStuck(1, 7, t0, False)
    assert table.events == [KeyEvent(1, 7, HOLD)]   # the hold, then nothing on its release


def test_a_stuck_key_on_a_matrix_stops_the_fast_rescans_and_hides_no_tap_on_its_column(factory, clock):
    t = Table(factory, clock, "matrix")
    with t.pads:
        t.keys.press(0, 3)                  # something rests on seat 1's key 4
        t.run(STUCK_AFTER + 1)
        assert t.stuck() and t.pads.stuck == {(0, 3)}
        before = t.pads.scan_count
        t.run(10)
        # 50 scans a second while a key holds its column low; a stuck pad only a few
        assert t.pads.scan_count - before <= 10 / t.pads.stuck_poll + 2
        # another seat's short tap on the stuck key's column is seen, as on any column
        t.keys.press(2, 3)
        t.run(0.025)
        t.keys.release(2, 3)
        t.run(0.05)
        t.keys.press(1, 5)                  # and on another column
        t.run(0.025)
        t.keys.release(1, 5)
        t.run(0.05)
        assert t.events[-2:] == [KeyEvent(2, 3, PRESS), KeyEvent(1, 5, PRESS)]
        # the stuck pad's other keys are still read (by its slow scan)
        t.keys.press(0, 1)
        t.run(0.3)
        t.keys.release(0, 1)
        t.run(0.3)
        assert t.events[-1] == KeyEvent(0, 1, PRESS)
        # let go: the row is driven low again, and a press on it makes its edge
        t.keys.release(0, 3)
        t.run(0.3)
        assert t.pads.stuck == set() and all(r.driving_low() for r in t.keys.rows)
        assert t.keys.faults == []
        before = t.pads.scan_count
        t.run(5)
        assert t.pads.scan_count == before   # nothing held: no scans at all
        t.keys.press(0, 2)
        t.run(0.03)
        assert t.pads.pressed(0, 2)


def test_the_table_shows_a_stuck_key_and_takes_it_off_once_let_go(tmp_path):
    from pitable.i18n import words
    from pitable.harness import ManualClock, SimTable

    sim = SimTable(tmp_path, seats=3, wiring="matrix", clock=ManualClock(), hold=1.0)
    try:
        sim.keys.press(2, 4)
        for _ in range(int((STUCK_AFTER + 1) / 0.5)):
            sim.clock.t += 0.5
            sim.loop.drain()
        view = sim.table.view()
        text = " ".join(words(m, "en") for m in (view.title, *view.lines))
        assert "Key stuck" in text and "S3: key 5 held 30 s" in text
        sim.keys.release(2, 4)
        for _ in range(4):
            sim.clock.t += 0.1
            sim.loop.drain()
        assert sim.table.view() != view
    finally:
        sim.close()


@pytest.mark.parametrize("name", ["NativeFactory", "PiGPIOFactory"])
def test_a_matrix_is_refused_on_a_pin_factory_that_drives_the_old_latch(name):
    from gpiozero.pins.mock import MockFactory

    from pitable.hardware.pads import PadsError

    factory = type(name, (MockFactory,), {})()
    try:
        sim = MockMatrix(factory, ROWS, COLS)
        for row in sim.rows:
            row.latch = True       # another program left a 1 in the output latch
        with pytest.raises(PadsError, match="lgpio or rpigpio"):
            MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, sleep=lambda dt: None)
        assert not any(r.driving_high() for r in sim.rows)
        assert sim.faults == []
    finally:
        factory.reset()
