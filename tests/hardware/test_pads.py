import threading
import time

import pytest

from pitable.errors import HardwareError, PitableError
from pitable.hardware.keys import KeyEdge, KeyTracker, KeyEvent
from pitable.hardware.mockmatrix import MockDirectKeys, MockMatrix
from pitable.hardware.pads import DirectPads, MatrixPads, PadsError, SeatSignals

SEATS = [
    [4, 17, 27, 22, 5, 6, 13, 19],
    [12, 16, 20, 21, 26, 18, 23, 24],
]
ROWS = [5, 6, 13, 19]
COLS = [4, 17, 27, 22, 23, 24, 25, 12]


# --- DirectPads ----------------------------------------------------------------------

@pytest.fixture
def direct(factory, clock):
    edges = []
    keys = MockDirectKeys(factory, SEATS)
    with DirectPads(SEATS, edges.append, pin_factory=factory, clock=clock) as pads:
        yield pads, keys, edges


def test_direct_press_and_release(direct, clock):
    pads, keys, edges = direct
    t0 = clock.t
    keys.press(1, 6)
    assert edges == [] and pads.next_deadline() == pytest.approx(t0 + 0.02)
    clock.advance(0.02)
    pads.settle()   # still pressed 20 ms later: a key, dated when it went down
    assert edges == [KeyEdge(1, 6, True, t0)]
    assert pads.pressed(1, 6)
    clock.advance(0.2)
    keys.release(1, 6)
    t1 = clock.t
    assert edges[1:] == [] and pads.next_deadline() == pytest.approx(t1 + 0.005)
    clock.advance(0.005)
    pads.settle()   # still open 5 ms later: a release, dated when the finger left
    assert edges[1:] == [KeyEdge(1, 6, False, t1)]
    assert not pads.pressed(1, 6)


def test_direct_chatter_shorter_than_bounce_is_no_key(direct, clock):
    pads, keys, edges = direct
    keys.press(0, 2)
    clock.advance(0.004)
    keys.chatter(0, 2, [False, True, False])
    dl = pads.next_deadline()
    assert dl == pytest.approx(clock.t - 0.004 + 0.02)
    pads.settle()  # too early: nothing
    clock.t = dl
    pads.settle()
    assert edges == [] and not pads.pressed(0, 2)
    assert pads.next_deadline() is None


def test_direct_chatter_ending_pressed_gives_one_press(direct, clock):
    pads, keys, edges = direct
    keys.press(0, 0)
    keys.chatter(0, 0, [False, True, False, True])
    clock.advance(0.05)
    pads.settle()
    assert [e.pressed for e in edges] == [True]
    # held: the loop wakes only once more, to see whether it is stuck
    assert pads.next_deadline() == pytest.approx(edges[0].time + 30.0)


@pytest.mark.parametrize("wiring", ["direct", "matrix"])
@pytest.mark.parametrize("width", [0.0, 0.001, 0.019])
def test_a_single_glitch_is_never_a_key_but_a_real_press_is(factory, clock, wiring, width):
    """A spark of static pulls a line low for one sample (or a few ms): no key. The
    same line held for the bounce time: a key, dated at its first edge."""
    edges = []
    if wiring == "direct":
        keys = MockDirectKeys(factory, SEATS)
        pads = DirectPads(SEATS, edges.append, pin_factory=factory, clock=clock)
    else:
        keys = MockMatrix(factory, ROWS, COLS)
        pads = MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock)
    with pads:
        keys.press(1, 3)
        clock.advance(width)
        keys.release(1, 3)
        run_loop(pads, clock, clock.t + 1)
        assert edges == [] and not pads.pressed(1, 3)
        t0 = clock.t
        keys.press(1, 3)
        run_loop(pads, clock, t0 + 0.05)
        assert edges == [KeyEdge(1, 3, True, t0)]
        keys.release(1, 3)
        t1 = clock.t
        run_loop(pads, clock, t1 + 0.01)
        assert edges[-1] == KeyEdge(1, 3, False, t1)   # confirmed, dated when it opened


@pytest.mark.parametrize("wiring", ["direct", "matrix"])
def test_a_press_whose_check_the_loop_reaches_late_still_counts(factory, clock, wiring):
    """The loop is drawing a frame when the check falls due (50 ms on a Pi Zero) and the
    40 ms tap is over by then: what the line did at the check decides, not the late read."""
    edges = []
    if wiring == "direct":
        keys = MockDirectKeys(factory, SEATS)
        pads = DirectPads(SEATS, edges.append, pin_factory=factory, clock=clock)
    else:
        keys = MockMatrix(factory, ROWS, COLS)
        pads = MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock)
    with pads:
        t0 = clock.t
        keys.press(0, 5)
        clock.advance(0.04)
        keys.release(0, 5)     # nobody settled at t0 + 20 ms
        clock.advance(0.01)
        pads.settle()
        assert [(e.pressed, e.time) for e in edges] == [(True, t0), (False, t0 + 0.04)]


def test_direct_seats_and_keys_are_independent(direct, clock):
    pads, keys, edges = direct
    keys.press(0, 0)
    keys.press(1, 0)
    keys.press(0, 7)
    clock.advance(0.02)
    pads.settle()
    assert {(e.seat, e.key) for e in edges} == {(0, 0), (1, 0), (0, 7)}


def test_direct_with_tracker_short_tap_is_a_press(direct, clock):
    pads, keys, edges = direct
    tracker = KeyTracker(1.0)
    keys.press(1, 3)
    clock.t = pads.next_deadline()
    pads.settle()
    clock.advance(0.03)
    keys.release(1, 3)  # a 50 ms tap
    clock.advance(0.005)
    pads.settle()
    events = tracker.edges(edges) + tracker.expire(clock.t)
    assert events == [KeyEvent(1, 3, "press")]


def test_direct_key_held_at_start_is_ignored_until_pressed_again(factory, clock):
    keys = MockDirectKeys(factory, SEATS[:1])
    keys.press(0, 4)
    edges = []
    with DirectPads(SEATS[:1], edges.append, pin_factory=factory, clock=clock) as pads:
        keys.release(0, 4)
        assert edges == []
        clock.advance(1)
        t0 = clock.t
        keys.press(0, 4)
        clock.advance(0.02)
        pads.settle()
        assert edges == [KeyEdge(0, 4, True, t0)]


def test_direct_wrong_key_count(factory):
    with pytest.raises(PadsError, match="seat 1: 3 key pins"):
        DirectPads([[1, 2, 3]], print, pin_factory=factory)


def test_direct_pin_in_use_names_seat_and_key_and_frees_the_rest(factory):
    bad = [SEATS[0], SEATS[1][:7] + [4]]  # seat 2 key 8 reuses GPIO 4
    with pytest.raises(PadsError, match=r"seat 2 key 8 \(GPIO 4\)") as info:
        DirectPads(bad, print, pin_factory=factory)
    assert isinstance(info.value, HardwareError)
    assert isinstance(info.value, PitableError) and isinstance(info.value, RuntimeError)
    # everything opened before the failure was released
    DirectPads(SEATS, print, pin_factory=factory).close()


def test_direct_bad_pin_name(factory):
    with pytest.raises(PadsError, match="GPIO99"):
        DirectPads([["GPIO99"] + SEATS[0][1:]], print, pin_factory=factory)


def test_direct_close_releases_pins_and_stops_events(factory, clock):
    edges = []
    keys = MockDirectKeys(factory, SEATS)
    pads = DirectPads(SEATS, edges.append, pin_factory=factory, clock=clock)
    pads.close()
    pads.close()  # idempotent
    keys.press(0, 0)
    assert edges == []
    DirectPads(SEATS, edges.append, pin_factory=factory).close()


def test_direct_concurrent_presses_keep_per_key_order(factory):
    # Handlers come from other threads; each key's edges must still alternate.
    edges = []
    keys = MockDirectKeys(factory, SEATS)
    with DirectPads(SEATS, edges.append, pin_factory=factory, bounce=0.0, release=0.0):
        def hammer(seat, key):
            for _ in range(200):
                keys.press(seat, key)
                keys.release(seat, key)
        threads = [threading.Thread(target=hammer, args=(s, k))
                   for s in range(2) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    for s in range(2):
        for k in range(4):
            mine = [e.pressed for e in edges if (e.seat, e.key) == (s, k)]
            assert mine == [True, False] * 200


# --- MatrixPads ----------------------------------------------------------------------

@pytest.fixture
def matrix(factory, clock):
    edges = []
    sim = MockMatrix(factory, ROWS, COLS)
    with MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock) as pads:
        yield pads, sim, edges


def run_loop(pads, clock, until):
    """What the loop does: wake at each deadline and settle, until ``until``."""
    while True:
        dl = pads.next_deadline()
        if dl is None or dl > until:
            clock.t = until
            return
        clock.t = dl
        pads.settle()


def test_matrix_idle_after_open_no_polling(matrix, clock):
    pads, sim, edges = matrix
    assert pads.scan_count == 1  # the baseline scan at open
    assert pads.next_deadline() is None
    for _ in range(100):
        clock.advance(1)
        pads.settle()
    assert pads.scan_count == 1
    assert edges == []


def test_matrix_press_release(matrix, clock):
    pads, sim, edges = matrix
    t0 = clock.t
    sim.press(2, 5)
    assert edges == []
    run_loop(pads, clock, t0 + 0.02)
    assert edges == [KeyEdge(2, 5, True, t0)]
    scans = pads.scan_count
    assert scans <= 4  # a press costs a scan and its check, not a storm of them
    clock.advance(0.2)
    sim.release(2, 5)
    t1 = clock.t
    run_loop(pads, clock, t1 + 0.005)
    assert edges[-1] == KeyEdge(2, 5, False, t1)
    run_loop(pads, clock, clock.t + 5)
    assert pads.next_deadline() is None
    assert not pads.pressed(2, 5)
    final = pads.scan_count
    run_loop(pads, clock, clock.t + 60)
    assert pads.scan_count == final


def test_matrix_rows_left_low_after_scan(matrix):
    pads, sim, edges = matrix
    sim.press(0, 0)
    assert all(r.driving_low() for r in sim.rows)


def test_matrix_seats_independent(matrix, clock):
    pads, sim, edges = matrix
    sim.press(0, 1)
    clock.advance(0.001)
    sim.press(3, 6)
    clock.advance(0.001)
    sim.press(1, 2)
    run_loop(pads, clock, clock.t + 0.03)
    assert [(e.seat, e.key, e.pressed) for e in edges] == [
        (0, 1, True), (3, 6, True), (1, 2, True)]


def test_matrix_diodes_no_ghost_keys(matrix, clock):
    pads, sim, edges = matrix
    for sk in [(0, 1), (0, 2), (1, 1)]:
        sim.press(*sk)
        clock.advance(0.1)
    run_loop(pads, clock, clock.t + 1)
    downs = {(e.seat, e.key) for e in edges if e.pressed}
    assert downs == {(0, 1), (0, 2), (1, 1)}
    assert not pads.pressed(1, 2)


def test_matrix_same_key_other_seat_while_held(matrix, clock):
    # Seat 1 holds key 3, so column 3 is already low: seat 2's tap makes no edge.
    pads, sim, edges = matrix
    sim.press(0, 3)
    run_loop(pads, clock, clock.t + 0.5)
    sim.press(1, 3)
    assert [(e.seat, e.pressed) for e in edges] == [(0, True)]
    assert pads.next_deadline() is not None  # the re-scan while a key is held
    run_loop(pads, clock, clock.t + 0.1)
    assert (1, 3, True) in [(e.seat, e.key, e.pressed) for e in edges]
    sim.release(1, 3)
    run_loop(pads, clock, clock.t + 0.1)
    assert edges[-1][:3] == (1, 3, False)
    sim.release(0, 3)
    run_loop(pads, clock, clock.t + 0.005)
    assert edges[-1][:3] == (0, 3, False)
    run_loop(pads, clock, clock.t + 10)
    assert pads.next_deadline() is None


def test_matrix_chatter_shorter_than_bounce_is_no_key(matrix, clock):
    pads, sim, edges = matrix
    sim.press(0, 0)
    clock.advance(0.003)
    sim.release(0, 0)
    clock.advance(0.003)
    sim.press(0, 0)
    clock.advance(0.003)
    sim.release(0, 0)
    run_loop(pads, clock, clock.t + 1)
    assert edges == []      # closed 9 ms in all: shorter than bounce, no key
    assert pads.next_deadline() is None


def test_matrix_chatter_ending_pressed(matrix, clock):
    pads, sim, edges = matrix
    sim.press(0, 0)
    clock.advance(0.003)
    sim.release(0, 0)
    clock.advance(0.003)
    sim.press(0, 0)
    run_loop(pads, clock, clock.t + 0.5)
    assert [e.pressed for e in edges] == [True]
    assert pads.pressed(0, 0)


def test_matrix_key_held_at_open(factory, clock):
    sim = MockMatrix(factory, ROWS, COLS)
    sim.press(2, 2)
    edges = []
    with MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock) as pads:
        t0 = clock.t
        sim.press(1, 4)
        run_loop(pads, clock, t0 + 0.02)
        assert edges == [KeyEdge(1, 4, True, t0)]
        clock.advance(1)
        sim.release(2, 2)
        run_loop(pads, clock, clock.t + 1)
        assert all(e.seat != 2 for e in edges)


def test_matrix_handler_runs_on_other_threads(matrix, clock):
    pads, sim, edges = matrix
    done = threading.Event()

    def presser():
        for k in range(8):
            sim.press(k % 4, k)
        done.set()

    t = threading.Thread(target=presser)
    t.start()
    while not done.is_set():
        pads.settle()
    t.join()
    run_loop(pads, clock, clock.t + 1)
    assert {(e.seat, e.key) for e in edges if e.pressed} == {(k % 4, k) for k in range(8)}


def test_matrix_wrong_columns(factory):
    with pytest.raises(PadsError, match="7 column pins"):
        MatrixPads(ROWS, COLS[:7], print, pin_factory=factory)


def test_matrix_pin_conflict_frees_pins(factory):
    with pytest.raises(PadsError, match="column of key 1"):
        MatrixPads(ROWS, [5] + COLS[1:], print, pin_factory=factory)
    MatrixPads(ROWS, COLS, print, pin_factory=factory).close()


def test_mock_matrix_must_come_first(factory):
    pads = MatrixPads(ROWS, COLS, print, pin_factory=factory)
    try:
        with pytest.raises(ValueError, match="before the pads"):
            MockMatrix(factory, ROWS, COLS)
    finally:
        pads.close()


# --- SeatSignals ---------------------------------------------------------------------

def wait_states(pin, n, timeout=2.0):
    end = time.monotonic() + timeout
    while len(pin.states) < n and time.monotonic() < end:
        time.sleep(0.002)
    time.sleep(0.02)
    return [s.state for s in pin.states]


def test_signals_refuse_blinks_that_seat_twice(factory):
    with SeatSignals([16, None, 21], [None, 20], pin_factory=factory,
                     flash=0.002, beep=0.002) as sig:
        sig.refuse(0)
        assert wait_states(factory.pin(16), 5) == [False, True, False, True, False]
        assert [s.state for s in factory.pin(21).states] == [False]  # other seats quiet
        sig.refuse(1)  # buzzer only
        assert wait_states(factory.pin(20), 3) == [False, True, False]
        sig.refuse(3)  # nothing fitted, out of range: no error
        assert sig.fitted(0) and sig.fitted(1) and not sig.fitted(3)


def test_signals_close_frees_pins(factory):
    SeatSignals([16], pin_factory=factory).close()
    SeatSignals([16], pin_factory=factory).close()


def test_matrix_with_tracker_hold_then_silent_release(matrix, clock):
    # The loop's recipe: wake at the earliest deadline of pads and tracker, settle, expire.
    pads, sim, edges = matrix
    tracker = KeyTracker(1.0)
    events = []

    def wake_until(t_end):
        while True:
            events.extend(tracker.edges(edges))
            edges.clear()
            dls = [d for d in (pads.next_deadline(), tracker.next_deadline()) if d is not None]
            if not dls or min(dls) > t_end:
                clock.t = t_end
                return
            clock.t = max(clock.t, min(dls))
            pads.settle()
            events.extend(tracker.edges(edges))
            edges.clear()
            events.extend(tracker.expire(clock.t))

    start = clock.t
    sim.press(3, 7)
    wake_until(start + 1.5)
    assert events == [KeyEvent(3, 7, "hold")]
    sim.release(3, 7)
    wake_until(start + 3)
    assert events == [KeyEvent(3, 7, "hold")]
    assert pads.next_deadline() is None and tracker.next_deadline() is None


class _NoEdges:
    """A pin library whose edge detection fails: RPi.GPIO on a kernel 6.6 or later raises
    RuntimeError('Failed to add edge detection') when a handler is set."""

    def _enable_event_detect(self):
        raise RuntimeError("Failed to add edge detection")


@pytest.mark.parametrize("wiring", ["direct", "matrix"])
def test_edge_detection_that_fails_is_a_pads_error_naming_the_pin(factory, wiring):
    from gpiozero.pins.mock import MockPin

    bad = type("NoEdgePin", (_NoEdges, MockPin), {})
    pin = SEATS[0][2] if wiring == "direct" else 17
    factory.pin(pin, pin_class=bad)
    with pytest.raises(PadsError, match=rf"GPIO {pin}.*Failed to add edge detection.*pin_factory"):
        if wiring == "direct":
            DirectPads(SEATS, print, pin_factory=factory)
        else:
            MatrixPads([5, 6], [4, 17, 27, 22, 23, 24, 25, 12], print, pin_factory=factory)
    # everything opened before the failure was released
    factory.reset()


def test_a_pin_library_error_of_its_own_kind_is_a_pads_error_naming_the_pin(factory):
    from gpiozero.pins.mock import MockPin

    class LgpioError(Exception):  # lgpio.error is a plain Exception subclass
        pass

    class Busy(MockPin):
        refused = False

        def _set_function(self, value):
            if not Busy.refused:  # the claim fails; closing it afterwards works
                Busy.refused = True
                raise LgpioError("GPIO busy")
            super()._set_function(value)

    factory.pin(SEATS[1][4], pin_class=Busy)
    with pytest.raises(PadsError, match=rf"seat 2 key 5 \(GPIO {SEATS[1][4]}\): LgpioError: GPIO busy"):
        DirectPads(SEATS, print, pin_factory=factory)


@pytest.mark.parametrize("wiring", ["direct", "matrix"])
def test_a_press_waiting_for_its_check_wakes_a_loop_that_waits_on_its_queue(factory, clock, wiring):
    """The press posts no edge until it is confirmed; a loop blocked on its queue with
    no timeout (an idle table) must still wake at the check, or a hold would only be
    seen when the key is let go."""
    edges, wakes = [], []
    if wiring == "direct":
        keys = MockDirectKeys(factory, SEATS)
        pads = DirectPads(SEATS, edges.append, pin_factory=factory, clock=clock,
                          wake=lambda: wakes.append(clock.t))
    else:
        keys = MockMatrix(factory, ROWS, COLS)
        pads = MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock,
                          wake=lambda: wakes.append(clock.t))
    with pads:
        assert pads.next_deadline() is None       # idle: the loop blocks with no timeout
        keys.press(0, 2)
        assert edges == [] and wakes               # ...and is woken to look again
        assert pads.next_deadline() == pytest.approx(clock.t + 0.02)
        n = len(wakes)
        keys.release(0, 2)
        keys.press(0, 2)                           # chatter inside the window: no more wakes
        assert len(wakes) == n
