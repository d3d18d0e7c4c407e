"""The pads outlive their own failures: a handler that raises, a close racing a scan,
a line the pin library is slow to let go of. On the real stack (lgpio) each of these
ended every key or the process (tests/realstack repeats them there); here they are
provoked on mock pins."""

import logging
import threading

import pytest
from gpiozero.pins.mock import MockFactory, MockPin

from pitable.hardware.keys import KeyEdge
from pitable.hardware.mockmatrix import MockDirectKeys, MockMatrix
from pitable.hardware.pads import DirectPads, MatrixPads, SeatSignals

SEATS = [
    [4, 17, 27, 22, 5, 6, 13, 19],
    [12, 16, 20, 21, 26, 18, 23, 24],
]
ROWS = [5, 6, 13, 19]
COLS = [4, 17, 27, 22, 23, 24, 25, 12]


def test_a_raising_handler_is_contained_and_the_other_keys_go_on(factory, clock, caplog):
    edges = []

    def on_edge(edge):
        if edge.seat == 0 and edge.key == 2:
            raise RuntimeError("seat 1 key 3 bid 7")   # a bug downstream, with a secret in its text
        edges.append(edge)

    keys = MockDirectKeys(factory, SEATS)
    with DirectPads(SEATS, on_edge, pin_factory=factory, clock=clock, bounce=0) as pads:
        with caplog.at_level(logging.ERROR, logger="pitable.hardware.pads"):
            keys.press(0, 2)       # before: the RuntimeError came out of the pin's callback
            keys.release(0, 2)
        keys.press(1, 5)
        pads.settle()
        assert KeyEdge(1, 5, True, clock.t) in edges
    failed = [r for r in caplog.records if "edge handler failed" in r.getMessage()]
    assert failed and "RuntimeError" in failed[0].getMessage()
    # the log says what failed, not which seat pressed which key
    assert not any("bid 7" in r.getMessage() or "seat" in r.getMessage() for r in caplog.records)


def test_one_callback_thread_survives_a_raising_matrix_handler(factory, clock, caplog):
    """lgpio's shape: all callbacks come from one thread that catches nothing. A handler
    that raises there must not end it."""
    matrix = MockMatrix(factory, ROWS, COLS)

    def on_edge(edge):
        raise ValueError("a bug downstream")

    pads = MatrixPads(ROWS, COLS, on_edge, pin_factory=factory, clock=clock, bounce=0, settle=0)
    delivered = []

    def callback_thread():   # like lgpio's: the edges' handlers run here, no try around them
        for seat, key in ((1, 0), (2, 1)):
            matrix.press(seat, key)
            matrix.release(seat, key)
            delivered.append((seat, key))

    with caplog.at_level(logging.ERROR, logger="pitable.hardware.pads"):
        t = threading.Thread(target=callback_thread)
        t.start()
        t.join(5)
    pads.close()
    assert len(delivered) == 2, "the callback thread died on the handler's error"


class _Hold:
    """A settle() that the test can stop in the middle of a scan."""

    def __init__(self):
        self.inside = threading.Event()
        self.go = threading.Event()
        self.armed = False

    def __call__(self, dt):
        if self.armed:
            self.armed = False
            self.inside.set()
            self.go.wait(5)


def test_close_waits_for_the_scan_running_on_the_callback_thread(factory, clock):
    # plain mock pins (MockMatrix's lock would serialize the close behind the scan)
    hold = _Hold()
    pads = MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, clock=clock, bounce=0,
                      settle=1e-6, sleep=hold)
    errors, order = [], []

    def press():   # gpiozero's thread: the column edge scans
        try:
            factory.pin(COLS[3]).drive_low()
            order.append("scan ended")
        except Exception as e:  # noqa: BLE001 - what the old close made it raise
            errors.append(e)

    hold.armed = True
    t = threading.Thread(target=press)
    t.start()
    assert hold.inside.wait(5)
    closer = threading.Thread(target=lambda: (pads.close(), order.append("closed")))
    closer.start()
    closer.join(0.3)
    assert closer.is_alive(), "close() did not wait for the scan"
    hold.go.set()
    t.join(5)
    closer.join(5)
    assert errors == [] and order == ["scan ended", "closed"]
    assert all(factory.pin(p).function == "input" for p in ROWS + COLS)


def test_close_from_inside_the_scan_does_not_wait_for_itself(factory, clock):
    box = {}
    matrix = MockMatrix(factory, ROWS, COLS)
    pads = MatrixPads(ROWS, COLS, lambda e: box["pads"].close(), pin_factory=factory, clock=clock,
                      bounce=0, settle=0)
    box["pads"] = pads
    done = threading.Event()
    t = threading.Thread(target=lambda: (matrix.press(0, 0), done.set()))
    t.start()
    assert done.wait(1.0), "close() from the handler waited for its own scan"


class BusyPin(MockPin):
    """A pin whose library refuses to let go a few times, like lgpio's 'GPIO busy'."""
    refusals = {}

    def close(self):
        left = BusyPin.refusals.get(self.info.name, 0)
        if left:
            BusyPin.refusals[self.info.name] = left - 1
            raise OSError("GPIO busy")
        super().close()


@pytest.fixture
def busy_factory():
    f = MockFactory(pin_class=BusyPin)
    yield f
    BusyPin.refusals = {}
    f.reset()


def test_close_survives_a_busy_line_and_releases_every_other(busy_factory, clock, caplog):
    pads = DirectPads(SEATS, lambda e: None, pin_factory=busy_factory, clock=clock)
    BusyPin.refusals = {"GPIO17": 2, "GPIO21": 99}   # one lets go on the 3rd try, one never
    with caplog.at_level(logging.WARNING, logger="pitable.hardware.pads"):
        pads.close()
    assert BusyPin.refusals["GPIO17"] == 0
    assert [r.getMessage() for r in caplog.records if "could not release" in r.getMessage()] == [
        "pads: could not release GPIO21 (OSError: GPIO busy); the kernel frees it when pitable exits"]
    others = [p for seat in SEATS for p in seat if p != 21]
    assert all(busy_factory.pin(p).when_changed is None for p in others)


def test_matrix_and_signals_close_survive_a_busy_line(busy_factory, clock):
    pads = MatrixPads(ROWS, COLS, lambda e: None, pin_factory=busy_factory, clock=clock, settle=0)
    signals = SeatSignals([20, 21], pin_factory=busy_factory)
    BusyPin.refusals = {"GPIO5": 1, "GPIO4": 1, "GPIO20": 1}
    pads.close()
    signals.close()
    assert BusyPin.refusals == {"GPIO5": 0, "GPIO4": 0, "GPIO20": 0}


class LatePin(MockPin):
    """A pin whose edges reach the handlers late, all at once, as from a callback thread
    that was held up; each edge keeps the time it happened at (the kernel's timestamp)."""

    def __init__(self, factory, info):
        super().__init__(factory, info)
        self.late = []

    def _call_when_changed(self):
        self.late.append((self._last_change, self._state))

    def deliver(self):
        from gpiozero.pins.pi import PiPin

        late, self.late = self.late, []
        for ticks, state in late:
            PiPin._call_when_changed(self, ticks, state)


def test_a_tap_delivered_late_is_dated_by_its_edges_not_by_the_handler():
    """A 60 ms tap whose two edges are handled a microsecond apart was a glitch when
    dated by the handler's clock; dated by the edges' own times it is a key."""
    import time

    factory = MockFactory(pin_class=LatePin)
    try:
        edges = []
        pads = DirectPads(SEATS, edges.append, pin_factory=factory)   # the real monotonic clock
        pin = factory.pin(SEATS[0][4])
        pin.drive_low()
        time.sleep(0.06)
        pin.drive_high()
        time.sleep(0.03)
        pin.deliver()
        pads.settle()
        assert [(e.seat, e.key, e.pressed) for e in edges] == [(0, 4, True), (0, 4, False)]
        down, up = edges
        assert 0.05 < up.time - down.time < 0.5
        pads.close()
    finally:
        factory.reset()


def test_a_check_due_while_the_release_is_in_flight_waits_for_that_edge():
    """The callback thread is behind: the press edge is in, the release not yet, and
    the loop's check comes now. The key reads released, but it was down at the check;
    the release edge in flight says when it went up, and decides."""
    import time

    factory = MockFactory(pin_class=LatePin)
    try:
        edges, wakes = [], []
        pads = DirectPads(SEATS, edges.append, pin_factory=factory, wake=lambda: wakes.append(1))
        pin = factory.pin(SEATS[1][2])
        pin.drive_low()
        pin.deliver()                   # the press is handed over
        time.sleep(0.06)                # held past the 20 ms check
        pin.drive_high()                # the release happens, but is not handed over yet
        pads.settle()                   # the loop's check, late: the line reads released
        assert edges == [] and pads.next_deadline() > time.monotonic()   # waits, no busy loop
        pin.deliver()
        time.sleep(0.01)
        pads.settle()                   # the release is confirmed 5 ms after its edge
        assert [(e.seat, e.key, e.pressed) for e in edges] == [(1, 2, True), (1, 2, False)]
        assert pads.next_deadline() is None
        pads.close()
    finally:
        factory.reset()


def test_a_check_whose_edge_never_comes_is_decided_from_the_line(clock):
    """Two edges merged into none (the chip keeps one pending bit per line): after
    EDGE_WAIT the line's level decides, as before."""
    import time

    factory = MockFactory(pin_class=LatePin)
    try:
        edges = []
        pads = DirectPads(SEATS, edges.append, pin_factory=factory)
        pin = factory.pin(SEATS[0][0])
        pin.drive_low()
        pin.deliver()
        time.sleep(0.03)
        pin.drive_high()
        pin.late.clear()                # the release edge is lost
        pads.settle()
        assert edges == []
        time.sleep(pads.EDGE_WAIT + 0.05)
        pads.settle()
        assert edges == [] and pads.next_deadline() is None   # what the line says now decides
        pads.close()
    finally:
        factory.reset()
