import pytest
from hypothesis import example, given, settings, strategies as st

from pitable.hardware.keys import Debouncer, KeyEdge, KeyEvent, KeyTracker


# --- Debouncer: a press counts only if the key still reads pressed `bounce` later ------

def test_a_press_is_not_accepted_at_once_but_when_it_still_reads_pressed_bounce_later():
    d = Debouncer(0.02)
    assert d.edge(0, 3, True, 10.0) == []
    assert d.level(0, 3) is False
    assert d.next_deadline() == pytest.approx(10.02)
    assert d.due(10.019) == []
    # confirmed, and dated when the finger went down: a hold is timed from there
    assert d.settle_due(10.02, lambda s, k: True) == [KeyEdge(0, 3, True, 10.0)]
    assert d.level(0, 3) is True and d.next_deadline() is None


@pytest.mark.parametrize("width", [0.0001, 0.001, 0.005, 0.0199])
def test_a_single_glitch_is_not_a_key(width):
    """Static or a switching lamp pulls the open line low for a moment: nothing."""
    d = Debouncer(0.02)
    assert d.edge(0, 0, True, 1.0) == []
    assert d.edge(0, 0, False, 1.0 + width) == []
    assert d.settle_due(1.02, lambda s, k: False) == []
    assert d.level(0, 0) is False and d.next_deadline() is None


def test_chatter_on_the_press_gives_one_press_dated_at_its_first_edge():
    d = Debouncer(0.02)
    out = d.edge(0, 0, True, 1.000)
    for t, lvl in [(1.002, False), (1.003, True), (1.006, False), (1.008, True)]:
        out += d.edge(0, 0, lvl, t)
    out += d.settle_due(1.02, lambda s, k: True)
    assert out == [KeyEdge(0, 0, True, 1.0)]


def test_a_release_is_accepted_at_once():
    d = Debouncer(0.02)
    d.edge(0, 0, True, 0.0)
    d.settle_due(0.02, lambda s, k: True)
    assert d.edge(0, 0, False, 0.100) == [KeyEdge(0, 0, False, 0.100)]


def test_release_chatter_is_not_a_second_press():
    d = Debouncer(0.02)
    d.edge(0, 2, True, 0.0)
    d.settle_due(0.02, lambda s, k: True)
    out = d.edge(0, 2, False, 1.0)
    out += d.edge(0, 2, True, 1.002)     # the contact closes once more as it opens
    out += d.edge(0, 2, False, 1.004)
    out += d.settle_due(1.022, lambda s, k: False)
    assert out == [KeyEdge(0, 2, False, 1.0)]


def test_a_quick_real_re_press_after_a_release_counts():
    d = Debouncer(0.02)
    d.edge(0, 2, True, 0.0)
    d.settle_due(0.02, lambda s, k: True)
    d.edge(0, 2, False, 1.0)
    assert d.edge(0, 2, True, 1.005) == []
    assert d.settle_due(1.025, lambda s, k: True) == [KeyEdge(0, 2, True, 1.005)]


def test_same_level_twice_is_not_an_edge():
    d = Debouncer(0.02)
    d.edge(0, 0, True, 0.0)
    d.settle_due(0.02, lambda s, k: True)
    assert d.edge(0, 0, True, 5.0) == []


def test_keys_are_independent():
    d = Debouncer(0.02)
    d.edge(0, 0, True, 0.0)
    d.edge(0, 1, True, 0.001)
    d.edge(1, 0, True, 0.002)
    d.edge(0, 1, False, 0.003)           # a glitch on one key only
    out = d.settle_due(0.03, lambda s, k: (s, k) != (0, 1))
    assert out == [KeyEdge(0, 0, True, 0.0), KeyEdge(1, 0, True, 0.002)]


def test_an_overdue_check_is_decided_by_the_next_edge_from_the_level_before_it():
    # Nobody settled in time (a busy loop); the release edge shows the key was still
    # down at the check, so the press stands and the release follows.
    d = Debouncer(0.02)
    assert d.edge(0, 1, True, 0.0) == []
    assert d.edge(0, 1, False, 0.045) == [KeyEdge(0, 1, True, 0.0), KeyEdge(0, 1, False, 0.045)]


def test_an_overdue_glitch_stays_a_glitch_when_the_next_edge_comes():
    d = Debouncer(0.02)
    d.edge(0, 1, True, 0.0)
    d.edge(0, 1, False, 0.001)
    assert d.edge(0, 1, True, 5.0) == []           # the old check: released, nothing
    assert d.next_deadline() == pytest.approx(5.02)  # the new press waits its own turn


def test_a_check_decided_before_it_is_due_changes_nothing():
    d = Debouncer(0.02)
    d.edge(0, 0, True, 0.0)
    assert d.decide(0, 0, True, 0.01) == []
    assert d.level(0, 0) is False and d.next_deadline() == pytest.approx(0.02)


def test_zero_bounce_accepts_at_once():
    d = Debouncer(0)
    assert d.edge(0, 0, True, 1.0) == [KeyEdge(0, 0, True, 1.0)]


def test_negative_bounce_refused():
    with pytest.raises(ValueError):
        Debouncer(-1)


@settings(deadline=None)
@given(st.lists(st.floats(min_value=0.0005, max_value=0.05), min_size=1, max_size=30))
# pressed again a float's breadth before its check: pressed at the check (hypothesis found it)
@example([0.03125, 0.03125, 0.03125, 0.01, 0.01])
@example([0.03125, 0.02])  # let go at the check's own instant: the check reads the level before
def test_accepted_level_always_converges_to_the_pin_and_no_short_pulse_is_a_press(gaps):
    """Any alternating burst, then settling: edges alternate, the accepted level ends as
    the pin, and every accepted press had the pin pressed at its check."""
    d = Debouncer(0.02)
    t, level, out, history = 0.0, False, [], [(0.0, False)]
    for gap in gaps:
        t += gap
        level = not level
        history.append((t, level))
        out += d.edge(0, 0, level, t)
    for _ in range(10):
        dl = d.next_deadline()
        if dl is None:
            break
        out += d.settle_due(dl, lambda s, k: level)
    assert d.next_deadline() is None
    assert [e.pressed for e in out] == [i % 2 == 0 for i in range(len(out))]

    def pin_at(when):
        return [lvl for at, lvl in history if at <= when][-1]

    def pin_into(when):
        # the level the check reads: an edge at the check's own instant is decided after it
        return [lvl for at, lvl in history if at < when][-1]

    for e in out:
        if e.pressed:
            assert pin_at(e.time) and pin_into(e.time + 0.02)  # still down at its check (the same sum as the check's)
    assert d.level(0, 0) == level


# --- KeyTracker --------------------------------------------------------------------

def E(seat, key, pressed, t):
    return KeyEdge(seat, key, pressed, t)


def test_short_press_yields_press_on_release():
    k = KeyTracker(1.0)
    assert k.edge(E(0, 2, True, 0.0)) == []
    assert k.is_down(0, 2)
    assert k.edge(E(0, 2, False, 0.3)) == [KeyEvent(0, 2, "press")]
    assert not k.is_down(0, 2)
    assert k.next_deadline() is None


def test_hold_fires_at_deadline_and_release_is_silent():
    k = KeyTracker(1.0)
    k.edge(E(1, 7, True, 2.0))
    assert k.next_deadline() == pytest.approx(3.0)
    assert k.expire(2.999) == []
    assert k.expire(3.0) == [KeyEvent(1, 7, "hold")]
    assert k.expire(4.0) == []  # only once
    assert k.next_deadline() is None
    assert k.is_down(1, 7)
    assert k.edge(E(1, 7, False, 5.0)) == []


def test_late_release_without_expire_is_a_hold():
    k = KeyTracker(1.0)
    k.edge(E(0, 0, True, 0.0))
    assert k.edge(E(0, 0, False, 1.5)) == [KeyEvent(0, 0, "hold")]


def test_seats_are_independent():
    k = KeyTracker(1.0)
    k.edge(E(0, 1, True, 0.0))
    k.edge(E(1, 1, True, 0.5))
    k.edge(E(2, 4, True, 0.6))
    assert k.next_deadline() == pytest.approx(1.0)
    assert k.expire(1.0) == [KeyEvent(0, 1, "hold")]
    assert k.next_deadline() == pytest.approx(1.5)
    assert k.edge(E(2, 4, False, 0.9 + 0.5)) == [KeyEvent(2, 4, "press")]  # 0.8 s: short
    assert k.expire(2.0) == [KeyEvent(1, 1, "hold")]
    assert k.edge(E(0, 1, False, 3.0)) == []


def test_expire_orders_by_deadline():
    k = KeyTracker(1.0)
    k.edge(E(3, 0, True, 0.2))
    k.edge(E(0, 0, True, 0.1))
    assert k.expire(5.0) == [KeyEvent(0, 0, "hold"), KeyEvent(3, 0, "hold")]


def test_release_without_press_and_double_press_ignored():
    k = KeyTracker(1.0)
    assert k.edge(E(0, 0, False, 0.0)) == []
    k.edge(E(0, 0, True, 0.0))
    k.edge(E(0, 0, True, 0.9))  # duplicate must not restart the hold timer
    assert k.next_deadline() == pytest.approx(1.0)


def test_two_keys_of_one_seat():
    k = KeyTracker(1.0)
    k.edge(E(0, 0, True, 0.0))
    k.edge(E(0, 1, True, 0.1))
    assert k.edge(E(0, 0, False, 0.2)) == [KeyEvent(0, 0, "press")]
    assert k.is_down(0, 1)
    assert k.expire(1.1) == [KeyEvent(0, 1, "hold")]
