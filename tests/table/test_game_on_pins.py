"""Whole games played by driving gpiozero mock pins: the real pads, debounce, loop,
controllers, journal and screens, with frames checked on luma's dummy device."""

import random

import pytest

from pitable.i18n import words
from pitable.rules import cockroach as cr
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL
from pitable.rules.log import replay
from pitable.screens import views as v
from pitable.screens.render import render
from pitable.harness import SimTable


@pytest.fixture
def sim(tmp_path):
    made = []

    def make(**kw):
        s = SimTable(tmp_path / f"logs{len(made)}", rng=random.Random(5), **kw)
        made.append(s)
        return s
    yield make
    for s in made:
        s.close()


def start(sim_table, game_key=0, pads=(1, 2, 3), virtual=False):
    sim_table.tap(pads[0], game_key)
    for pad in pads:
        sim_table.tap(pad, 0)
    sim_table.tap(pads[0], 6)
    if virtual:
        sim_table.tap(pads[0], 3)
    sim_table.tap(pads[0], 6)
    return sim_table.game


def frame_is(sim_table, view):
    """The display holds exactly the drawing of this view."""
    return sim_table.device.image.tobytes() == render(view).tobytes()


def play_grasshopper(s, rng, max_taps=4000):
    game = s.game
    for _ in range(max_taps):
        st = game.state
        if st.is_over():
            return
        if game.notices:
            s.tap(game.seats[0], rng.randrange(8))
        elif st.phase is REVEAL:
            s.tap(rng.choice(game.seats), rng.choice([k for k in range(5) if st.unseen[k]]))
        elif st.phase is BIDDING:
            for p, pad in enumerate(game.seats):
                s.tap(pad, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1]))
        elif st.phase is CHOOSING:
            s.tap(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))
        assert frame_is(s, s.view())
    raise AssertionError("the game did not end")


@pytest.mark.system
def test_whole_grasshopper_game_on_direct_wired_pins(sim):
    s = sim(seats=3, wiring="direct")
    assert isinstance(s.view(), v.Setup) and frame_is(s, s.view())
    game = start(s)
    assert isinstance(s.view(), v.RevealPrompt) and frame_is(s, s.view())
    play_grasshopper(s, random.Random(1))
    state, _ = replay(game.journal.path.read_text())
    assert state == game.state and state.is_over()
    while not isinstance(s.view(), v.GameOver):
        s.tap(1, 0)
    assert frame_is(s, s.view()) and s.view().winners


@pytest.mark.system
def test_whole_grasshopper_game_on_a_four_seat_matrix(sim):
    s = sim(seats=4, wiring="matrix")
    game = start(s, pads=(1, 2, 3, 4))
    play_grasshopper(s, random.Random(2))
    assert game.state.is_over()
    assert replay(game.journal.path.read_text())[0] == game.state


def test_chatter_on_a_key_is_one_press(sim):
    s = sim(seats=3)
    start(s)
    s.keys.chatter(0, 1, [True, False, True, False, True])  # a burst of edges, ending pressed
    s._wait(0.05)
    s.keys.release(0, 1)
    s._wait(0.05)
    assert s.game.state.display[1] == 1 and s.game.state.to_reveal == 2  # one corn, not three


def test_chatter_on_release_is_one_press(sim):
    s = sim(seats=3)
    start(s)
    s.keys.press(0, 2)
    s._wait(0.05)
    s.keys.chatter(0, 2, [False, True, False, True, False])
    s._wait(0.05)
    assert s.game.state.display[2] == 1 and s.game.state.to_reveal == 2


def test_two_seats_pressing_at_once_both_count(sim):
    s = sim(seats=3, wiring="matrix")
    game = start(s)
    for kind in (1, 2, 3):
        s.tap(1, kind)
    s.keys.press(0, 5)
    s.keys.press(1, 4)  # same moment, different seats
    s._wait(0.05)
    s.keys.release(0, 5)
    s.keys.release(1, 4)
    s._wait(0.05)
    assert s.view().locked == (1, 2)
    s.tap(3, 0)
    assert game.state.moves[-1].cards == ("6", "5", "1")


def test_same_key_on_two_matrix_seats_at_once(sim):
    s = sim(seats=3, wiring="matrix")
    start(s)
    for kind in (1, 2, 3):
        s.tap(1, kind)
    s.keys.press(0, 3)
    s._wait(0.05)
    s.keys.press(1, 3)  # the shared column is already low: only a re-scan can see it
    s._wait(0.05)
    s.keys.release(0, 3)
    s.keys.release(1, 3)
    s._wait(0.05)
    assert s.view().locked == (1, 2)


@pytest.mark.system
def test_keys_pressed_in_every_phase_never_break_the_game(sim):
    s = sim(seats=3)
    game = start(s)
    rng = random.Random(9)
    for _ in range(400):
        s.tap(rng.randint(1, 3), rng.randrange(8))
        if rng.random() < 0.02:
            s.long_press(rng.randint(1, 3), rng.choice((6, 7)))
        assert frame_is(s, s.view())
        if game.state.is_over():
            break
    assert replay(game.journal.path.read_text())[0] == game.state


def test_spent_card_and_undo_on_pins(sim):
    s = sim(seats=3)
    game = start(s)
    for kind in (1, 2, 3):
        s.tap(1, kind)
    for pad, key in ((1, 0), (2, 1), (3, 7)):
        s.tap(pad, key)
    while game.notices or game.state.phase is not REVEAL:
        if game.state.phase is CHOOSING and not game.notices:   # a kind's own key, as in card entry
            s.tap(game.seats[game.state.chooser], next(k for k, n in enumerate(game.state.display) if n))
        else:
            s.tap(1, 0)
    while game.state.phase is REVEAL:
        s.tap(1, 4)
    s.tap(1, 0)  # seat 1 already spent its "1"
    # the bid made before stands: not "bid again" and s.view().locked == ()
    assert words(s.view().toast) == "Seat 1: card spent, pick another"
    assert frame_is(s, s.view())
    moves = len(game.state.moves)
    s.long_press(2, 7)  # hold X: undo?
    assert isinstance(s.view(), v.ConfirmUndo)
    s.tap(2, 6)  # A: yes
    assert len(game.state.moves) == moves - 1


@pytest.mark.system
def test_whole_cockroach_game_on_a_six_seat_matrix(sim):
    s = sim(seats=6, wiring="matrix")
    game = start(s, game_key=1, pads=(1, 2, 3, 4, 5, 6))
    assert game.game == "cockroach" and game.state.players == 6
    rng = random.Random(4)
    for _ in range(3000):
        st = game.state
        if st.is_over():
            break
        if game.notices:
            s.tap(1, 0)
        elif st.phase == cr.OFFER:
            pad = game.seats[st.active]
            s.tap(pad, rng.choice([p for p in game.seats if p != pad]) - 1)
            s.tap(pad, rng.randrange(8))
        elif st.phase == cr.ANSWER:
            pad = game.seats[st.to]
            if st.can_pass() and rng.random() < 0.5:
                s.tap(pad, game.seats[rng.choice(st.unseen_seats())] - 1)
                s.tap(pad, rng.randrange(8))
            else:
                s.tap(pad, rng.choice((6, 7)))
        else:
            up = st.face_up()
            s.tap(rng.randint(1, 6), rng.choice([k for k in range(8) if up[k] < 8]))
        assert frame_is(s, s.view())
    assert game.state.is_over()
    assert replay(game.journal.path.read_text())[0] == game.state
    while not isinstance(s.view(), v.CockroachOver):
        s.tap(1, 0)
    assert s.view().losers == tuple(game.seats[p] for p in game.state.outcome.losers)


def test_secrecy_frames_and_log_are_the_same_whatever_the_bids(sim):
    """Until the last seat locks in, every frame sent and the log on disk do not depend on the bids."""
    seen = []
    for bids in ((0, 1), (7, 6), (3, 3)):
        frames = []
        s = sim(seats=3, on_frame=lambda view, f=frames: f.append(view))
        game = start(s)
        for kind in (1, 2, 3):
            s.tap(1, kind)
        sent = []
        for pad, key in zip((1, 2), bids):
            s.keys.press(pad - 1, key)
            s._wait(0.05)
            sent.append(s.device.image.tobytes())
            s.keys.release(pad - 1, key)
            s._wait(0.05)
            sent.append(s.device.image.tobytes())
        s.tap(2, 5)  # seat 2 changes its mind: still nothing to see
        sent.append(s.device.image.tobytes())
        log = game.journal.path.read_text().split("\n", 1)[1]  # the header has a time stamp
        seen.append((sent, frames[-4:], log))
    assert seen[0] == seen[1] == seen[2]


def test_display_bus_fails_mid_game_and_comes_back(sim, caplog):
    """A loose cable: the game goes on, the fault is logged once, the frame returns whole."""
    s = sim(seats=3, display="ssd1306")
    game = start(s)
    real_data = s.bus.data

    def broken(data):
        raise OSError(121, "Remote I/O error")

    s.bus.data = broken
    for kind in (1, 2, 3):
        s.tap(1, kind)  # the reveals still count
    s.tap(1, 5)
    assert game.state.phase is BIDDING and s.view().locked == (1,)
    assert sum("display failed" in r.message for r in caplog.records) == 1
    s.bus.data = real_data
    sent = s.bus.data_bytes
    s._wait(31)  # past the longest backoff
    assert s.bus.data_bytes - sent == 1024  # the whole frame again, not a diff
    assert s.screen.failed_at is None
    s.tap(2, 4)
    assert s.view().locked == (1, 2)
