"""The bids reveal is an event nobody misses: the bids stay on the glass at least
``reveal_seconds`` (3 s) whatever is pressed, in every path (stray keys, the Pi bidding last,
a phone bidding last, a resume), checked on the frames the display received; then a key
turns them or they move on; hold 1 shows the last bids again."""

from __future__ import annotations

import pytest

from pitable.hardware.keys import KeyEvent
from pitable.screens import views as v
from pitable.harness import ManualClock, SimTable


def make(tmp_path, name="logs", **kw):
    kw.setdefault("notice_seconds", 8.0)
    sim = SimTable(tmp_path / name, seats=3, clock=ManualClock(), assistant_worker="inline", **kw)
    sim.got = []   # (time, bytes) of every image the display received
    display = sim.device.display

    def received(image):
        sim.got.append((sim.clock.t, image.tobytes()))
        display(image)

    sim.device.display = received
    return sim


def start(sim, pi=False):
    sim.tap(1, 0)
    for pad in (1, 2) if pi else (1, 2, 3):
        sim.tap(pad, 0)
    if pi:
        sim.tap(1, 5)                    # 6: the Pi plays a seat
    sim.tap(1, 6)
    sim.tap(1, 6)
    while sim.game.notices:              # the Pi's page: what it plays
        sim.tap(1, 5)
    for kind in (1, 2, 3):               # the first display, turned up
        sim.tap(1, kind)


def reveal_frame(sim):
    """When the display first received the bids, and that image."""
    at = sim.reveal_at
    frames = [(t, b) for t, b in sim.got if t >= at]
    assert frames, "the display never received the bids"
    return frames[0]


def strays(sim, seconds=3.0, every=0.35):
    """Every seat presses keys all through the reveal's first seconds (taps and a hold)."""
    end = sim.reveal_at + seconds - 0.05
    seat = 0
    while sim.clock.t + 0.2 < end:
        sim.tap(seat % 3 + 1, seat % 8)
        seat += 1
    sim._wait(max(0.0, end - sim.clock.t))


def assert_bids_stayed(sim, seconds=3.0):
    t0, bids = reveal_frame(sim)
    assert sim.screen.sent_bytes == bids and sim.clock.t >= t0 + seconds - 0.06
    assert all(b == bids for t, b in sim.got if t0 <= t < t0 + seconds - 0.06), "the bids left the glass"
    assert isinstance(sim.view(), v.BidsRevealed)


def lock_in(sim, seats=(1, 2, 3), cards=(2, 3, 1)):
    for seat, card in zip(seats, cards):
        sim.tap(seat, card)
    sim.reveal_at = sim.changed_at


def test_the_bids_stay_three_seconds_whatever_is_pressed(tmp_path):
    sim = make(tmp_path)
    try:
        start(sim)
        lock_in(sim)
        assert isinstance(sim.view(), v.BidsRevealed)
        strays(sim)
        assert_bids_stayed(sim)
        sim._wait(0.2)
        sim.tap(1, 5)                                    # now a key turns them
        assert not isinstance(sim.view(), v.BidsRevealed)
    finally:
        sim.close()


def test_the_bids_stay_when_the_pi_bids_last(tmp_path):
    sim = make(tmp_path, assistant={"seats": 0, "level": "easy"})
    try:
        start(sim, pi=True)
        sim.tap(1, 2)
        sim.tap(2, 3)                                    # the Pi's bid comes after the people's
        for _ in range(50):
            if isinstance(sim.view(), v.BidsRevealed):
                break
            sim._wait(0.05)
        sim.reveal_at = sim.changed_at
        assert isinstance(sim.view(), v.BidsRevealed)
        strays(sim)
        assert_bids_stayed(sim)
    finally:
        sim.close()


def test_the_bids_stay_when_a_phone_bids_last(tmp_path):
    sim = make(tmp_path)
    try:
        start(sim)
        sim.tap(1, 2)
        sim.tap(2, 3)
        sim.read()
        sim.loop.post(KeyEvent(2, 1, "press", screen=sim.loop.version))  # seat 3's phone, on the bidding screen
        sim._wait(0.05)
        sim.reveal_at = sim.changed_at
        assert isinstance(sim.view(), v.BidsRevealed)
        for _ in range(6):                               # the phone taps on: "go on", "go on"
            sim.loop.post(KeyEvent(2, 5, "press", screen=sim.loop.version))
            sim._wait(0.4)
        strays(sim)
        assert_bids_stayed(sim)
    finally:
        sim.close()


def test_a_resume_in_the_turn_of_the_bids_shows_them_again_for_three_seconds(tmp_path):
    sim = make(tmp_path)
    start(sim)
    lock_in(sim)
    sim.close()                                          # the power goes with the bids on the glass
    sim = make(tmp_path)
    try:
        sim._wait(0.01)
        assert isinstance(sim.view(), v.Resumed)
        sim.tap(1, 5)                                    # go on: the bids again
        sim.reveal_at = sim.changed_at
        assert isinstance(sim.view(), v.BidsRevealed)
        strays(sim)
        assert_bids_stayed(sim)
    finally:
        sim.close()


def test_the_bids_move_on_by_themselves_after_the_notice_time_never_before_reveal_seconds(tmp_path):
    sim = make(tmp_path, notice_seconds=1.0, reveal_seconds=4.0)
    try:
        start(sim)
        lock_in(sim)
        sim._wait(3.9)
        assert_bids_stayed(sim, 3.9)
        sim._wait(0.2)
        assert not isinstance(sim.view(), v.BidsRevealed)
    finally:
        sim.close()


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_hold_1_shows_the_last_bids_again_until_a_key(tmp_path, lang):
    sim = make(tmp_path, language=lang)
    try:
        start(sim)
        lock_in(sim)
        shown = sim.view()
        sim._wait(3.1)
        sim.tap(1, 5)
        assert not isinstance(sim.view(), v.BidsRevealed)
        moves = len(sim.game.state.moves)
        sim.long_press(3, 0)
        again = sim.view()
        assert isinstance(again, v.BidsRevealed) and again.bids == shown.bids
        sim.tap(2, 3)                                    # another seat's key: its opener's screen stays
        assert isinstance(sim.view(), v.BidsRevealed) and len(sim.game.state.moves) == moves
        sim.tap(3, 3)                                    # any key of its opener: back, and no move
        assert not isinstance(sim.view(), v.BidsRevealed) and len(sim.game.state.moves) == moves
    finally:
        sim.close()
