import pytest
from hypothesis import given, settings, strategies as st

from pitable.hardware.keys import Debouncer, KeyEdge, KeyEvent, KeyTracker


# --- Debouncer ---------------------------------------------------------------------

def test_first_edge_is_accepted_at_once():
    d = Debouncer(0.02)
    assert d.accept(0, 3, True, 10.0)
    assert d.level(0, 3) is True


def test_chatter_within_bounce_is_dropped():
    d = Debouncer(0.02)
    assert d.accept(0, 0, True, 1.000)
    assert not d.accept(0, 0, False, 1.005)
    assert not d.accept(0, 0, True, 1.010)
    assert d.level(0, 0) is True
    # a real release after the lockout is accepted
    assert d.accept(0, 0, False, 1.100)
    assert d.level(0, 0) is False


def test_edge_exactly_bounce_later_is_accepted():
    d = Debouncer(0.02)
    assert d.accept(1, 1, True, 0.1)
    assert d.accept(1, 1, False, 0.1 + 0.02)


def test_same_level_twice_is_not_an_edge():
    d = Debouncer(0.02)
    assert d.accept(0, 0, True, 0.0)
    assert not d.accept(0, 0, True, 5.0)


def test_keys_are_independent():
    d = Debouncer(0.02)
    assert d.accept(0, 0, True, 0.0)
    assert d.accept(0, 1, True, 0.001)  # another key is not locked out
    assert d.accept(1, 0, True, 0.002)  # nor the same key of another seat


def test_burst_ending_released_is_settled_not_stuck():
    # A tap shorter than bounce: press accepted, the release is hidden in chatter.
    d = Debouncer(0.02)
    assert d.accept(0, 5, True, 0.000)
    for t, lvl in [(0.003, False), (0.006, True), (0.009, False)]:
        assert not d.accept(0, 5, lvl, t)
    assert d.next_deadline() == pytest.approx(0.02)
    assert d.due(0.019) == []
    pin = {(0, 5): False}
    edges = d.settle_due(0.021, lambda s, k: pin[(s, k)])
    # dated when the lockout ended: the level was already there (issue 10 item 8)
    assert edges == [KeyEdge(0, 5, False, pytest.approx(0.02))]
    assert d.level(0, 5) is False


def test_a_late_settle_dates_the_hidden_level_at_the_check_not_at_the_reading():
    d = Debouncer(0.02)
    d.accept(0, 5, True, 0.0)
    assert not d.accept(0, 5, False, 0.012)  # released inside the lockout
    edges = d.settle_due(1.5, lambda s, k: False)  # the loop got here 1.5 s late
    assert edges == [KeyEdge(0, 5, False, pytest.approx(0.02))]


def test_a_reading_that_differs_from_the_last_seen_level_is_dated_now():
    d = Debouncer(0.02)
    d.accept(0, 5, True, 0.0)
    # no edge came, yet the pin reads released (a matrix scan): known only now
    assert d.settle_due(1.5, lambda s, k: False) == [KeyEdge(0, 5, False, 1.5)]


def test_burst_ending_pressed_delivers_nothing_extra():
    d = Debouncer(0.02)
    assert d.accept(0, 5, True, 0.000)
    assert not d.accept(0, 5, False, 0.004)
    assert not d.accept(0, 5, True, 0.008)
    assert d.settle_due(0.02, lambda s, k: True) == []
    assert d.level(0, 5) is True
    assert d.next_deadline() is None  # the check was done


def test_burst_on_release_ending_pressed_is_settled():
    # Released (accepted), then chatter that ends pressed: a quick re-press is real.
    d = Debouncer(0.02)
    d.accept(0, 2, True, 0.0)
    assert d.accept(0, 2, False, 1.0)
    assert not d.accept(0, 2, True, 1.005)
    edges = d.settle_due(1.02, lambda s, k: True)
    assert edges == [KeyEdge(0, 2, True, 1.02)]


def test_settled_change_arms_a_new_check():
    d = Debouncer(0.02)
    d.accept(0, 0, True, 0.0)
    d.accept(0, 0, False, 0.005)
    assert d.settle_due(0.02, lambda s, k: False)
    assert d.next_deadline() == pytest.approx(0.04)


def test_settle_before_the_check_changes_nothing():
    d = Debouncer(0.02)
    d.accept(0, 0, True, 0.0)
    d.accept(0, 0, False, 0.005)
    assert not d.settle(0, 0, False, 0.01)
    assert d.level(0, 0) is True
    assert d.next_deadline() == pytest.approx(0.02)


def test_edge_catches_up_an_overdue_check():
    # Nobody settled; the next raw edge first delivers the hidden release.
    d = Debouncer(0.02)
    assert d.edge(0, 1, True, 0.0) == [KeyEdge(0, 1, True, 0.0)]
    assert d.edge(0, 1, False, 0.005) == []
    assert d.edge(0, 1, True, 5.0) == [
        KeyEdge(0, 1, False, 0.02),
        KeyEdge(0, 1, True, 5.0),
    ]


def test_negative_bounce_refused():
    with pytest.raises(ValueError):
        Debouncer(-1)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(min_value=0.0005, max_value=0.05), min_size=1, max_size=30))
def test_accepted_level_always_converges_to_the_pin(gaps):
    """Any alternating burst, then settling: the accepted level equals the final pin level,
    and the accepted edges alternate (never two presses in a row)."""
    d = Debouncer(0.02)
    t, level, out = 0.0, False, []
    for gap in gaps:
        t += gap
        level = not level
        out += d.edge(0, 0, level, t)
    # the loop wakes at each deadline until nothing is armed
    for _ in range(10):
        dl = d.next_deadline()
        if dl is None:
            break
        out += d.settle_due(dl, lambda s, k: level)
    assert d.next_deadline() is None
    assert d.level(0, 0) == level
    assert [e.pressed for e in out] == [i % 2 == 0 for i in range(len(out))]
    assert all(b.time - a.time >= 0.02 - 1e-9 for a, b in zip(out, out[1:]))


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
