"""What you saw is what you pressed (docs/architecture.md, "Keys and screens: one rule"): a
key is judged by the screen that had been on the glass for a reaction time when it went
down. Whole games on simulated pads with a hand-moved clock, with stray keys of every seat
pressed around each screen change: before it, in the same tick, 50 ms, 300 ms and 1 s after,
and after a page timed out. No key acts on a screen its presser could not have seen, and
the game goes on at a person's pace."""

from __future__ import annotations

import random

import pytest

from pitable.hardware.keys import KeyEdge
from pitable.i18n import ASSISTANT_SEAT
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL
from pitable.screens import views as v
from pitable.screens.views import meaning, page_serial
from pitable.harness import ManualClock, SimTable

REACTION = 0.3


def make(tmp_path, name="logs", **kw):
    kw.setdefault("notice_seconds", 8.0)
    sim = SimTable(tmp_path / name, seats=3, clock=ManualClock(), **kw)
    sim.passed = []   # every key the loop handed to the table
    on_key = sim.table.on_key

    def record(event):
        sim.passed.append((event.seat, event.key, event.action))
        on_key(event)

    sim.table.on_key = record
    return sim


def start(sim, pads=(1, 2, 3), virtual=False, pi=False):
    sim.tap(pads[0], 0)          # 1: Grasshopper Poker
    for pad in pads:
        sim.tap(pad, 0)          # join
    if pi:
        sim.tap(pads[0], 5)      # 6: the Pi takes a seat
    sim.tap(pads[0], 6)          # A: go on
    if virtual:
        sim.tap(pads[0], 3)      # 4: Cards: virtual
    sim.tap(pads[0], 6)          # A: start
    return sim.game


def screen_of(sim):
    """What a person at the table would call "the screen": what it is and whose it is."""
    game = sim.game
    st = getattr(game, "state", None)
    if st is None:
        return ("setup", game.step)
    return (type(sim.view()).__name__, len(game.notices), page_serial(game.notices[0]) if game.notices else None,
            game.overlay, st.phase, st.round, st.turn, st.stalemates,
            st.chooser if st.phase is CHOOSING else None, st.is_over())


def game_now(sim) -> tuple:
    game = sim.game
    return (tuple(game.state.moves), dict(game.pending), len(game.notices), game.overlay)


def legal_key(sim, rng):
    """A key the screen asks for, from the seat it asks (None at the game's end)."""
    return key_asked(sim.game, rng)


def key_asked(game, rng):
    """(seat, key) the game's screen asks for now, or None (the end, or the Pi thinks)."""
    st = game.state
    if st.is_over():
        return None
    if game.overlay or game.notices:
        return game.seats[0], 5
    if st.phase is REVEAL:
        by = game._reveal_by if game._named() else None
        return by or game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]])
    if st.phase is BIDDING:
        for p, pad in enumerate(game.seats):
            if pad <= ASSISTANT_SEAT and p not in game.pending:
                return pad, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1])
        return None  # the Pi thinks
    if st.phase is CHOOSING:
        if game.seats[st.chooser] > ASSISTANT_SEAT:
            return None  # the Pi chooses by itself (once the lines above were read)
        return game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]])
    return None


def stray_at(sim, since: float, delta: float, seat: int, key: int) -> bool:
    """Press a key ``delta`` s after the screen changed at ``since`` (held 60 ms); True if the
    loop passed it to the table."""
    if sim.clock.t < since + delta:
        sim._wait(since + delta - sim.clock.t)
    n = len(sim.passed)
    sim.press_raw(seat, key, down=0.04)
    return len(sim.passed) > n


def play(sim, rng, delays, turns=1500):
    """Play to the end with legal keys at a person's pace; after every screen change, a
    stray key of a random seat at one of ``delays``: too soon, it does nothing at all; once
    the screen has been up for a reaction time, the table takes it (as the screen says). Too
    soon, it is taken only where the screen before gave it the meaning the screen now gives it."""
    checked = {"dropped": 0, "taken": 0}
    for _ in range(turns):
        if isinstance(sim.view(), v.BidsRevealed) and sim.clock.t < sim.changed_at + 3.0:
            sim._wait(sim.changed_at + 3.05 - sim.clock.t)  # people read the bids: they hold 3 s
            continue
        before, table = screen_of(sim), sim.view().keys
        nxt = legal_key(sim, rng)
        if nxt is None:
            if sim.game.state.is_over():
                return checked
            sim._wait(0.5)  # the Pi thinks (inline: it answers on the next step)
            continue
        sim.tap(*nxt)
        if screen_of(sim) == before or sim.game.state.is_over():
            continue
        since = sim.changed_at
        delta = rng.choice(delays)
        seat, key = rng.randrange(1, 4), rng.choice([0, 1, 2, 3, 4, 5, 6, 7])
        now = game_now(sim)
        screen = screen_of(sim)
        alike = meaning(table, seat, key) == meaning(sim.view().keys, seat, key)
        taken = stray_at(sim, since, delta, seat, key)
        if delta < REACTION and alike:
            continue  # it does here what it did on the screen its presser saw
        if delta < REACTION:  # its first edge came before the screen had been up a reaction time
            assert not taken, (delta, screen, seat, key)
            assert game_now(sim) == now and screen_of(sim) == screen, (delta, screen, seat, key)
            checked["dropped"] += 1
        else:
            assert taken, (delta, screen, seat, key)
            checked["taken"] += 1
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("lang,virtual,pi", [("en", False, False), ("de", True, False), ("vi", False, True),
                                              ("en", True, True)])
def test_a_key_pressed_before_a_reaction_time_acts_on_nothing(tmp_path, lang, virtual, pi):
    rng = random.Random(f"{lang}{virtual}{pi}")
    sim = make(tmp_path, language=lang, assistant={"seats": 0, "level": "easy"}, assistant_worker="inline")
    try:
        start(sim, virtual=virtual, pi=pi)
        checked = play(sim, rng, delays=(0.0, 0.05, 0.15, 0.25))
        assert sim.game.state.is_over()
        assert checked["dropped"] > 10  # keys that mean the same on both screens are taken: not counted
    finally:
        sim.close()


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_a_key_a_reaction_time_after_a_change_is_taken(tmp_path, lang):
    rng = random.Random(lang)
    sim = make(tmp_path, language=lang)
    try:
        start(sim)
        checked = play(sim, rng, delays=(0.3, 1.0))
        assert sim.game.state.is_over() and checked["taken"] > 20
    finally:
        sim.close()


def same_tick(sim, cause, stray) -> bool:
    """The key that changes the screen and a stray key of another seat reach the loop in
    one step (a busy loop): True if the stray was passed to the table."""
    t = sim.clock.t
    (s1, k1), (s2, k2) = cause, stray
    for edge in (KeyEdge(s1 - 1, k1, True, t), KeyEdge(s2 - 1, k2, True, t + 0.01),
                 KeyEdge(s1 - 1, k1, False, t + 0.05), KeyEdge(s2 - 1, k2, False, t + 0.06)):
        sim.loop.post(edge)
    sim.clock.advance(0.07)
    n = len(sim.passed)
    sim.loop.drain()
    return [e[:2] for e in sim.passed[n:]] == [(s1 - 1, k1)]


def to_last_lock_in(sim):
    """Seats 1 and 2 lock in; seat 3's key is the last."""
    sim.tap(1, 2)
    sim.tap(2, 3)


def test_a_stray_key_in_the_tick_of_the_last_lock_in_does_not_skip_the_bids(tmp_path):
    sim = make(tmp_path)
    try:
        start(sim)
        for kind in (1, 2, 3):
            sim.tap(1, kind)                      # the first display, turned up
        sim.read()
        to_last_lock_in(sim)
        sim.read()
        only_cause = same_tick(sim, (3, 4), (1, 5))
        assert isinstance(sim.view(), v.BidsRevealed)
        assert only_cause
    finally:
        sim.close()


@pytest.mark.parametrize("delta", [0.0, 0.05, 0.2])
def test_a_key_just_after_the_last_lock_in_does_not_skip_the_bids(tmp_path, delta):
    sim = make(tmp_path)
    try:
        start(sim)
        for kind in (1, 2, 3):
            sim.tap(1, kind)
        to_last_lock_in(sim)
        sim.tap(3, 4)                             # the last lock-in: the bids
        assert isinstance(sim.view(), v.BidsRevealed)
        assert not stray_at(sim, sim.changed_at, delta, 1, 5)
        assert isinstance(sim.view(), v.BidsRevealed)
    finally:
        sim.close()


def reveal_then_timeout(sim, seconds=3.0):
    start(sim)
    for kind in (1, 2, 3):
        sim.tap(1, kind)
    to_last_lock_in(sim)
    sim.tap(3, 1)                                 # bids 3 4 2: seat 2 takes first
    assert isinstance(sim.view(), v.BidsRevealed)
    return sim.changed_at + seconds               # when the reveal moves on by itself (reveal_seconds)


@pytest.mark.parametrize("after", [0.0, 0.05, 0.2])
def test_a_key_meant_for_a_page_that_timed_out_does_nothing(tmp_path, after):
    """The reveal moved on by itself; the key meant to turn it lands on the next screen."""
    sim = make(tmp_path)
    try:
        due = reveal_then_timeout(sim)
        sim._wait(due - sim.clock.t + after)
        assert not isinstance(sim.view(), v.BidsRevealed)
        now, screen, keys = game_now(sim), screen_of(sim), sim.view().keys
        for seat in (1, 2, 3):                     # whoever had read it: every key of theirs
            n = len(sim.passed)
            sim.press_raw(seat, 0, down=0.01)
            # none is taken as what it means now (a key that means nothing here is refused)
            assert all(meaning(keys, s + 1, k) is None for s, k, _ in sim.passed[n:])
        assert game_now(sim) == now and screen_of(sim) == screen
    finally:
        sim.close()


def test_a_key_held_across_a_page_timing_out_does_nothing(tmp_path):
    """Down 0.1 s before the page went by itself, up 0.1 s after: it was for the page."""
    sim = make(tmp_path)
    try:
        due = reveal_then_timeout(sim)
        sim._wait(due - 0.1 - sim.clock.t)
        n = len(sim.passed)
        sim.raw_keys.press(1, 0)
        sim._wait(0.2)
        sim.raw_keys.release(1, 0)
        sim._wait(0.05)
        assert not isinstance(sim.view(), v.BidsRevealed)
        assert not any(type(m).__name__ == "Choose" for m in sim.game.state.moves)
        assert all(meaning(sim.view().keys, s + 1, k) is None for s, k, _ in sim.passed[n:])
    finally:
        sim.close()


def test_the_key_that_goes_on_from_the_resumed_notice_is_no_bid(tmp_path):
    """After a restart "Resumed ... Any key: go on" went away by itself; the key pressed to go
    on was locked in as a bid. It waits for that key now, and takes only that one."""
    sim = make(tmp_path)
    start(sim)
    for kind in (1, 2, 3):
        sim.tap(1, kind)
    sim.close()
    sim = make(tmp_path)
    try:
        assert isinstance(sim.view(), v.Resumed)
        sim._wait(0.01)                           # the loop's first step: the notice's time starts
        sim._wait(8.0 + 0.05)                     # nothing under "Any key" goes by itself
        assert sim.game.state.phase is BIDDING and isinstance(sim.view(), v.Resumed)
        sim.press_raw(1, 0)                       # goes on, bids nothing
        assert sim.game.pending == {} and isinstance(sim.view(), v.Bidding)
        sim.press_raw(2, 0)                       # a second seat turning the same notice: gone
        assert sim.game.pending == {}
        sim.tap(1, 0)                             # read, then bid: taken
        assert sim.game.pending == {0: 0}
    finally:
        sim.close()


def test_two_seats_turning_one_page_turn_one_page(tmp_path):
    """Seat 1 and seat 2 both answer "Any key: go on" on the bids: the second key, a moment
    after the first, is for the page the first turned, not a choice on the next screen
    (seat 2 chooses there)."""
    sim = make(tmp_path, notice_seconds=0)        # the bids wait for a key once read
    try:
        reveal_then_timeout(sim)
        sim._wait(3.5)
        sim.tap(1, 5)
        assert sim.game.state.phase is CHOOSING and not sim.game.notices
        moves = len(sim.game.state.moves)
        assert not stray_at(sim, sim.changed_at, 0.1, 2, 0)
        assert len(sim.game.state.moves) == moves
    finally:
        sim.close()


def test_quick_keys_on_one_screen_all_count(tmp_path):
    """The rule is about screens, not keys: three cards named 100 ms apart on the reveal
    prompt, and seats locking in bids 100 ms apart, all count."""
    sim = make(tmp_path)
    try:
        start(sim)
        sim.read()
        for kind in (1, 2, 2):
            sim.press_raw(1, kind)
        assert sim.game.state.phase is BIDDING
        sim.read()
        sim.press_raw(1, 2)
        sim.press_raw(2, 3)
        assert sim.game.pending == {0: 2, 1: 3}
    finally:
        sim.close()
