"""A phone's key is judged by the screen its page showed (docs/architecture.md, "What you saw
is what you pressed"): the page sends the screen version it had shown for a reaction time;
a key for a screen that has gone since does nothing, whatever it would mean now."""

from __future__ import annotations

import random

import pytest

from pitable.web.payload import seat_payload
from tests.table.test_what_you_saw import key_asked
from tests.web.conftest import FrozenClock
from tests.web.test_server import reveal_start, start_game


def phone_key(t, code, key, screen, action="press"):
    status = t.post(f"/s/{code}/key", {"key": key, "action": action, "screen": screen})[0]
    t.sync()
    return status


def test_a_phone_key_for_the_screen_before_does_nothing_and_for_this_one_acts(web_table):
    t = web_table()
    code = start_game(t)
    reveal_start(t)
    game = t.table.current
    assert game.state.phase == "bidding"
    bidding = t.loop.version
    assert seat_payload(t.loop.publish.latest, 4)["screen"] == bidding  # what the page is told
    t.press(1, 2)
    t.press(2, 3)                                    # pads 1 and 2 lock in: the same screen
    assert t.loop.version == bidding
    assert phone_key(t, code, 4, bidding - 1) == 204  # the page still showed the reveal prompt
    assert game.pending == {0: 2, 1: 3}              # ... so its key is no bid
    assert phone_key(t, code, 4, bidding) == 204      # its page shows the bidding screen: a bid
    assert game.pending == {} and game.notices       # the last lock-in: the bids
    reveal = t.loop.version
    assert reveal != bidding
    moves = len(game.state.moves)
    assert phone_key(t, code, 0, bidding) == 204      # a late tap meant for the bidding screen
    assert len(game.state.moves) == moves and game.notices


def test_a_key_without_a_screen_is_still_taken_and_a_bad_screen_is_refused(web_table):
    t = web_table()
    code = start_game(t)
    assert t.post(f"/s/{code}/key", {"key": 1, "action": "press", "screen": "x"})[0] == 400
    assert t.post(f"/s/{code}/key", {"key": 1, "action": "press", "screen": -1})[0] == 400
    assert t.post(f"/s/{code}/key", {"key": 1, "action": "press", "screen": 1, "more": 1})[0] == 400
    assert t.key(code, 1) == 204                      # an old page without the field: judged on arrival
    assert t.table.current.state.moves                # the phone named a card


def _game_now(game) -> tuple:
    return (tuple(game.state.moves), dict(game.pending), len(game.notices), game.overlay)


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_a_whole_game_where_the_phone_keys_late_for_every_screen_change(web_table, lang):
    """Pads 1 and 2 and a phone (seat 4) play a whole game. After every screen change the
    phone sends a key its page aimed at the screen before (it had not yet been told of the
    new one): whatever that key would mean now, nothing in the game moves. The phone's own
    moves, sent with the screen its page shows, are all taken."""
    rng = random.Random(lang)
    t = web_table(language=lang)
    # a person's pace on the phone: its seat's keys stay under the server's 20 a second.
    # The key limit reads a clock the test moves on 60 ms a key, so the pace is kept
    # without waiting it out (the limit is the same KeyLimit; only its clock is the test's).
    keys_clock = FrozenClock()
    t.web.keys.clock = keys_clock

    def paced(*a):
        keys_clock.t += 0.06
        return phone_key(t, code, *a)

    code = start_game(t)
    game = t.table.current
    late = 0
    for _ in range(3000):
        nxt = key_asked(game, rng)
        if nxt is None:
            break
        seat, key = nxt
        before, version = _game_now(game), t.loop.version
        if seat == 4:
            assert paced(key, version) == 204
        else:
            t.press(seat, key)
        assert _game_now(game) != before, (seat, key)   # a move the screen asked for is taken
        if t.loop.version == version:
            continue                                     # the same screen (a lock-in)
        now = _game_now(game)
        stray = rng.randrange(8)
        assert paced(stray, version, rng.choice(["press", "hold"])) == 204
        assert _game_now(game) == now, (stray, t.table.view())
        late += 1
    assert game.state.is_over() and late > 30
