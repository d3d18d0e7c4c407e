"""Cockroach Poker at the table, driven by key events (the controller, no pins). Rulings C1-C7."""

import json

from pitable.i18n import words
from pitable.rules import cockroach as cr
from pitable.rules.log import replay
from pitable.screens import views as v

from .conftest import press


def start(table, pads=(1, 2, 3), first_presses=0, full=True):
    press(table, pads[0], 1)  # game 2: Cockroach Poker
    for pad in pads:
        press(table, pad, 0)
    press(table, pads[0], 6)  # A: on to the options
    for _ in range(first_presses):
        press(table, pads[0], 0)  # key 1 moves the first player on
    if full:
        press(table, pads[0], 1)  # key 2: mode full (every offer, pass and call), not quick
    press(table, pads[0], 6)  # A: start
    while table.current.notices:  # the deal (C1): read while the real cards are dealt
        press(table, pads[0], 7)
    return table.current


def log_lines(game):
    return [json.loads(line) for line in game.journal.path.read_text().splitlines()]


def test_c2_first_player_is_chosen_at_the_table(new_table):
    table = new_table(seats=4)
    game = start(table, pads=(1, 2, 3), first_presses=2)
    assert game.state.active == 2  # S3
    assert log_lines(game)[0]["options"] == {"first": 3, "mode": "full"}
    view = table.view()
    assert isinstance(view, v.CockroachOffer) and view.seat == 3 and view.step == "target"


def test_c1_hand_counts_shown_at_the_start(new_table):
    table = new_table(seats=4)
    start(table, pads=(1, 2, 3))
    assert table.view().hands == (22, 21, 21)


def test_c3_offer_is_a_seat_then_a_claim_logged_as_one_line(new_table):
    table = new_table()
    game = start(table)
    press(table, 1, 2)  # to seat 3
    view = table.view()
    assert view.step == "claim" and view.target == 3
    assert len(log_lines(game)) == 1  # nothing logged until the claim
    press(table, 1, 4)  # claim: scorpion
    assert log_lines(game)[-1] == {"pass": {"to": 3, "claim": "scorpion"}}
    answer = table.view()
    assert isinstance(answer, v.CockroachAnswer) and answer.seat == 3 and answer.sender == 1
    assert answer.claim == "scorpion" and answer.seen == (1,) and answer.can_pass


def test_c3_only_the_active_seat_offers_and_not_to_itself(new_table):
    table = new_table()
    start(table)
    press(table, 2, 0)
    assert words(table.view().toast) == "Seat 1 offers now"
    press(table, 1, 0)
    assert words(table.view().toast) == "Not to yourself"
    press(table, 1, 7)
    assert words(table.view().toast) == "Offer to: S2, S3"  # C3: the seats it may go to (3 seats)


def test_c4_pass_only_to_a_seat_that_has_not_seen_it(new_table):
    table = new_table(seats=4)
    game = start(table, pads=(1, 2, 3, 4))
    press(table, 1, 1)
    press(table, 1, 0)  # S1 -> S2 "rat"
    press(table, 2, 0)  # S2 tries to pass back to S1, who has seen it
    assert words(table.view().toast) == "Seat 1 has seen it"
    press(table, 2, 2)  # to S3
    press(table, 2, 7)  # claim: toad
    assert log_lines(game)[-1] == {"pass": {"to": 3, "claim": "toad"}}
    assert table.view().seen == (1, 2)


def test_c4_must_accept_when_everyone_has_seen_it(new_table):
    table = new_table()
    start(table)
    press(table, 1, 1)
    press(table, 1, 0)  # S1 -> S2
    press(table, 2, 2)
    press(table, 2, 0)  # S2 -> S3
    view = table.view()
    assert not view.can_pass
    press(table, 3, 0)  # trying to pass
    assert words(table.view().toast) == "Everyone saw it: A true, X false"


def test_c4_two_players_never_pass(new_table):
    table = new_table(seats=2)
    start(table, pads=(1, 2))
    press(table, 1, 3)  # "fly" to S2, the only other seat (chosen by itself)
    assert not table.view().can_pass
    press(table, 2, 0)
    assert words(table.view().toast) == "A: true  X: false"


def test_c5_c7_flip_then_the_right_seat_takes_the_card(new_table):
    table = new_table()
    game = start(table)
    press(table, 1, 1)
    press(table, 1, 5)  # S1 -> S2 "stinkbug"
    press(table, 2, 6)  # A: true ("it is a stinkbug")
    flip = table.view()
    assert isinstance(flip, v.CockroachFlip) and flip.call is True and flip.claim == "stinkbug"
    press(table, 3, 0)  # anyone reports the face-up card: a rat
    note = table.view()
    assert isinstance(note, v.Instructions) and words(note.title) == "The card"
    said = tuple(words(line) for page in game.notices for line in page.lines)  # as many pages as the words need
    assert said == ("It is a rat: the call was wrong", "S2 lays it face up", "S2 starts the next round")
    assert game.state.rows[1][0] == 1  # the wrong caller takes it
    while game.notices:
        press(table, 1, 6)
    assert table.view().seat == 2  # the taker starts the next round


def test_c6_loser_announced(new_table):
    table = new_table()
    game = start(table)
    game.state.rows[1][0] = 3  # S2 has three rats face up
    press(table, 1, 1)
    press(table, 1, 0)  # "rat"
    press(table, 2, 7)  # X: false ... but it is a rat
    press(table, 3, 0)
    assert game.state.is_over()
    while table.current.notices:
        press(table, 1, 0)
    over = table.view()
    assert isinstance(over, v.CockroachOver) and over.losers == (2,) and over.reason == "four_of_a_kind"


def test_hold_a_shows_rows_and_hold_x_backs_out_then_undoes(new_table):
    table = new_table()
    game = start(table)
    press(table, 2, 6, "hold")
    assert isinstance(table.view(), v.CockroachRows)
    press(table, 2, 0)
    press(table, 1, 1)  # S1 chose S2 as target...
    press(table, 1, 7, "hold")  # ...and backs out: nothing logged
    assert table.view().step == "target" and words(table.view().toast) == "Choose the seat again"
    press(table, 1, 1)
    press(table, 1, 0)
    press(table, 3, 7, "hold")
    assert isinstance(table.view(), v.ConfirmUndo) and words(table.view().what) == "pass to S2 (rat)"
    press(table, 3, 6)
    assert game.state.phase == cr.OFFER and log_lines(game)[-1] == {"undo": True}
    assert replay(game.journal.path.read_text())[0] == game.state
