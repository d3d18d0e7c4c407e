"""Cockroach Poker rules core: rulings C1..C7, validation, undo, the log."""

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitable.errors import IllegalMove, LogError, OptionError
from pitable.rules import cockroach as c
from pitable.rules.cockroach import Call, Flip, Lost, Offered, Passed, Pass, State, Took
from pitable.rules.log import encode, replay


# -- helpers ---------------------------------------------------------------------------

def give(state: State, seat: int, kind: str) -> tuple:
    """Play one round in which ``seat`` ends up taking a ``kind`` (the state is in offer)."""
    assert state.phase == c.OFFER
    active = state.active
    if active == seat:
        other = (seat + 1) % state.players
        state.push(Pass(other, kind))
        state.push(Call(True))           # right: the offerer takes it back
    else:
        state.push(Pass(seat, kind))
        state.push(Call(False))          # wrong: the receiver takes it
    return state.push(Flip(kind))


def frozen(state: State):
    return (state._snapshot(), json.dumps(state.to_json()), len(state.history), list(state.moves))


def log_text(state: State, **extra) -> str:
    head = c.header(state.players, state.first, **extra)
    return encode(head) + "".join(encode(m.to_json()) for m in state.moves)


def check_accounting(state: State) -> None:
    assert state.accounted() == 64
    assert all(n <= 8 for n in state.face_up())
    assert all(h >= 0 for h in state.hands)
    assert sum(state.hands) + state.in_flight + sum(state.face_up()) + state.aside == 64


# -- C1 deck and deal ----------------------------------------------------------------------

def test_c1_deck_is_64_cards_eight_of_each_of_eight_kinds():
    assert c.KINDS == ("rat", "cockroach", "bat", "fly", "scorpion", "stinkbug", "spider", "toad")
    assert c.PER_KIND == 8 and c.DECK_SIZE == 64


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_c1_all_cards_dealt_one_at_a_time(players):
    s = State(players)
    assert sum(s.hands) + s.aside == 64
    assert max(s.hands) - min(s.hands) <= 1
    assert s.accounted() == 64


def test_c1_two_players_set_aside_ten_deal_27_each():
    s = State(2)
    assert s.aside == 10 and s.hands == [27, 27]
    assert s.to_json()["aside"] == 10


def test_c1_first_player_and_the_next_get_the_extra_cards():
    assert State(3, first=0).hands == [22, 21, 21]
    assert State(3, first=1).hands == [21, 22, 21]   # 64 = 3 * 21 + 1
    assert State(5, first=0).hands == [13, 13, 13, 13, 12]
    assert State(5, first=3).hands == [13, 13, 12, 13, 13]
    assert State(6, first=4).hands == [11, 11, 10, 10, 11, 11]  # 64 = 6 * 10 + 4, from seat 5 on
    assert State(4, first=2).hands == [16, 16, 16, 16]


def test_c1_set_aside_cards_are_never_played():
    s = State(2)
    give(s, 1, "rat")
    assert s.aside == 10
    assert s.accounted() == 64


# -- C2 first player -------------------------------------------------------------------------

def test_c2_first_player_chosen_at_the_table_starts():
    s = c.state_from_header(c.header(4, 2))
    assert s.first == 2 and s.active == 2 and s.phase == c.OFFER
    assert s.to_json()["active"] == 3 and s.to_json()["first"] == 3
    assert c.header(4, 2, seed=9) == {"game": "cockroach", "players": 4, "options": {"first": 3}, "seed": 9}


def test_c2_header_without_options_starts_with_seat_1():
    s = c.state_from_header({"game": "cockroach", "players": 3})
    assert s.active == 0


@pytest.mark.parametrize("head, words", [
    ({"players": 1}, "2 to 6 players"),
    ({"players": 7}, "2 to 6 players"),
    ({"players": "4"}, "whole number"),
    ({"players": True}, "whole number"),
    ({"players": 4, "options": {"first": 5}}, "first must be a seat from 1 to 4"),
    ({"players": 4, "options": {"first": 0}}, "first must be a seat from 1 to 4"),
    ({"players": 4, "options": {"first": "1"}}, "first must be a seat"),
    ({"players": 4, "options": {"first": True}}, "first must be a seat"),
    ({"players": 4, "options": []}, "options must be an object"),
])
def test_c2_bad_header_refused_with_reason(head, words):
    with pytest.raises(IllegalMove, match=words):
        c.state_from_header({"game": "cockroach", **head})


def test_c2_an_unknown_option_is_an_option_error_not_a_move():
    with pytest.raises(OptionError, match="unknown option 'start'") as caught:
        c.state_from_header({"game": "cockroach", "players": 4, "options": {"start": 1}})
    assert not isinstance(caught.value, IllegalMove)


def test_c2_state_refuses_bad_first_and_players():
    with pytest.raises(IllegalMove, match="first player must be a seat from 1 to 3"):
        State(3, first=3)
    with pytest.raises(IllegalMove, match="2 to 6 players"):
        State(8)


# -- C3 offer --------------------------------------------------------------------------------

def test_c3_offer_gives_a_hand_card_face_down_with_a_claim():
    s = State(4, first=1)
    fx = s.push(Pass(3, "toad"))
    assert fx == (Offered(1, 3, "toad"),) and s.last == fx
    assert s.hands == [16, 15, 16, 16]
    assert s.phase == c.ANSWER and s.active == 3 and s.in_flight == 1
    assert s.chain == [1] and s.to == 3 and c.KINDS[s.claim] == "toad"
    j = s.to_json()
    assert j["chain"] == [2] and j["claim"] == "toad" and j["to"] == 4 and j["from"] == 2
    assert j["active"] == 4 and "call" not in j
    assert s.accounted() == 64


def test_c3_offer_to_yourself_or_nobody_refused():
    s = State(3)
    with pytest.raises(IllegalMove, match="cannot offer a card to itself"):
        s.check(Pass(0, "rat"))
    with pytest.raises(IllegalMove, match="no seat 4"):
        s.check(Pass(3, "rat"))
    with pytest.raises(IllegalMove, match="no seat 0"):
        s.check(Pass(-1, "rat"))
    with pytest.raises(IllegalMove, match="unknown kind 'ladybug'"):
        s.check(Pass(1, "ladybug"))


def test_c3_offer_from_an_empty_hand_refused():
    s = State(3)
    s.hands[0] = 0  # cannot happen in play: such a seat has lost (C6); the check still holds
    with pytest.raises(IllegalMove, match="no card to offer"):
        s.check(Pass(1, "rat"))


def test_c3_offer_moves_in_the_offer_phase():
    s = State(3)
    moves = s.legal_moves()
    assert len(moves) == 2 * 8
    assert all(isinstance(m, Pass) and m.to != 0 for m in moves)
    with pytest.raises(IllegalMove, match="no call is expected now"):
        s.check(Call(True))
    with pytest.raises(IllegalMove, match="no card is to be turned face up"):
        s.check(Flip("rat"))


# -- C4 answer -------------------------------------------------------------------------------

def test_c4_peek_and_pass_to_an_unseen_seat_with_a_new_claim():
    s = State(4)
    s.push(Pass(1, "rat"))
    fx = s.push(Pass(2, "bat"))
    assert fx == (Passed(1, 2, "bat"),)
    assert s.chain == [0, 1] and s.to == 2 and c.KINDS[s.claim] == "bat" and s.active == 2
    assert s.to_json()["chain"] == [1, 2] and s.to_json()["from"] == 2
    s.push(Pass(3, "bat"))  # the same claim is fine too
    assert s.chain == [0, 1, 2] and s.to == 3
    assert s.hands == [15, 16, 16, 16]  # passing takes nothing from a hand


def test_c4_cannot_pass_to_a_seat_that_has_seen_it():
    s = State(4)
    s.push(Pass(1, "rat"))
    s.push(Pass(2, "rat"))
    for seen in (0, 1):  # the offerer and the peeker
        with pytest.raises(IllegalMove, match=f"seat {seen + 1} has already seen this card"):
            s.check(Pass(seen, "rat"))
    with pytest.raises(IllegalMove, match="cannot pass the card to itself"):
        s.check(Pass(2, "rat"))
    assert s.unseen_seats() == [3]
    assert {m.to for m in s.legal_moves() if isinstance(m, Pass)} == {3}


def test_c4_must_accept_when_everyone_has_seen_it():
    s = State(3)
    s.push(Pass(1, "fly"))
    s.push(Pass(2, "fly"))
    assert not s.can_pass()
    with pytest.raises(IllegalMove, match="everybody else has seen the card: seat 3 must accept"):
        s.check(Pass(0, "fly"))
    assert s.legal_moves() == [Call(True), Call(False)]
    assert "call" in s.waiting_for() and "pass" not in s.waiting_for()


def test_c4_two_players_no_passing():
    s = State(2)
    s.push(Pass(1, "spider"))
    assert not s.can_pass()
    with pytest.raises(IllegalMove, match="no passing with two players"):
        s.check(Pass(0, "spider"))
    assert s.legal_moves() == [Call(True), Call(False)]


def test_c4_receiver_may_call_or_pass():
    s = State(5)
    s.push(Pass(4, "rat"))
    moves = s.legal_moves()
    assert Call(True) in moves and Call(False) in moves
    assert len(moves) == 2 + 3 * 8
    assert "peek and pass" in s.waiting_for()


def test_c4_call_goes_to_the_flip_and_the_receiver_turns_the_card():
    s = State(3)
    s.push(Pass(2, "rat"))
    fx = s.push(Call(False))
    assert fx == (c.Called(2, False),)
    assert s.phase == c.FLIP and s.active == 2
    j = s.to_json()
    assert j["call"] is False and j["active"] == 3 and j["claim"] == "rat"
    with pytest.raises(IllegalMove, match="no card is to be offered or passed now"):
        s.check(Pass(1, "rat"))


# -- C5 resolution -------------------------------------------------------------------------

@pytest.mark.parametrize("call, kind, taker, why", [
    (True, "rat", 0, "right_call"),    # true, and it is a rat: the offerer takes it
    (False, "bat", 0, "right_call"),   # false, and it is not a rat
    (True, "bat", 1, "wrong_call"),    # the receiver takes it
    (False, "rat", 1, "wrong_call"),
])
def test_c5_right_call_sender_takes_wrong_call_receiver_takes(call, kind, taker, why):
    s = State(3)
    s.push(Pass(1, "rat"))
    s.push(Call(call))
    fx = s.push(Flip(kind))
    assert fx == (Took(taker, kind, why),)
    assert s.rows[taker][c.KIND_INDEX[kind]] == 1
    assert s.to_json()["seats"][taker]["row"] == {kind: 1}
    assert s.phase == c.OFFER and s.active == taker and s.round == 2  # the taker starts the next round
    assert s.chain == [] and s.to is None and s.claim is None and s.call is None
    assert s.accounted() == 64


def test_c5_after_passes_the_last_passer_takes_on_a_right_call():
    s = State(4)
    s.push(Pass(1, "rat"))
    s.push(Pass(2, "toad"))
    s.push(Pass(3, "toad"))
    s.push(Call(True))
    assert s.push(Flip("toad")) == (Took(2, "toad", "right_call"),)
    assert s.active == 2 and s.hands == [15, 16, 16, 16]


def test_c5_after_passes_a_wrong_call_leaves_it_with_the_receiver():
    s = State(4)
    s.push(Pass(1, "rat"))
    s.push(Pass(2, "toad"))
    s.push(Call(False))
    assert s.push(Flip("toad")) == (Took(2, "toad", "wrong_call"),)
    assert s.active == 2


# -- C6 losing ----------------------------------------------------------------------------

def test_c6_four_of_a_kind_loses_at_once_and_the_others_share_the_win():
    s = State(4)
    for _ in range(3):
        give(s, 2, "scorpion")
    assert not s.is_over()
    fx = give(s, 2, "scorpion")
    assert fx == (Took(2, "scorpion", "right_call"), Lost(2, "four_of_a_kind"))  # its own offer came back
    assert s.is_over() and s.phase == c.OVER and s.active is None
    assert s.outcome.losers == (2,) and s.outcome.winners == (0, 1, 3)
    j = s.to_json()
    assert j["losers"] == [3] and j["winners"] == [1, 2, 4] and j["reason"] == "four_of_a_kind"
    assert j["kind"] == "scorpion" and j["active"] is None
    assert s.legal_moves() == []
    with pytest.raises(IllegalMove, match="the game is over"):
        s.check(Pass(0, "rat"))


def test_c6_four_different_kinds_do_not_lose():
    s = State(3)
    for kind in ("rat", "bat", "fly", "toad", "rat", "bat", "fly", "toad", "rat", "bat", "fly"):
        give(s, 1, kind)
    assert not s.is_over() and sum(s.rows[1]) == 11


def test_c6_two_players_five_of_a_kind():
    s = State(2)
    for _ in range(4):
        give(s, 0, "stinkbug")
    assert not s.is_over()  # four is not enough with two players
    fx = give(s, 0, "stinkbug")
    assert fx[-1] == Lost(0, "five_of_a_kind")
    assert s.outcome.losers == (0,) and s.outcome.winners == (1,)


def test_c6_empty_hand_loses_when_the_taker_must_start_a_round():
    s = State(2)
    kinds = [k for k in c.KINDS for _ in range(4)][:27]  # never five of a kind
    for i, kind in enumerate(kinds):
        assert s.active == 0
        fx = give(s, 0, kind)  # seat 1 offers and gets it back each time (right call)
        if i < 26:
            assert not s.is_over() and s.hands[0] == 26 - i
    assert s.hands[0] == 0
    assert fx == (Took(0, kinds[-1], "right_call"), Lost(0, "empty_hand"))
    assert s.outcome.losers == (0,) and s.outcome.reason == "empty_hand" and s.outcome.kind is None
    assert s.accounted() == 64


def test_c6_empty_hand_does_not_lose_while_someone_else_starts():
    s = State(2)
    kinds = [k for k in c.KINDS for _ in range(4)][:27]
    for kind in kinds[:26]:
        give(s, 0, kind)
    # Seat 1 offers its last card; seat 2 calls wrong and takes it: seat 2 starts next, seat 1
    # (empty hand, not starting) plays on.
    s.push(Pass(1, "toad"))
    s.push(Call(True))
    assert s.push(Flip("rat")) == (Took(1, "rat", "wrong_call"),)
    assert s.hands[0] == 0 and not s.is_over() and s.active == 1


def test_c6_of_a_kind_is_the_reason_when_both_happen():
    s = State(2)
    kinds = ["rat"] * 4 + [k for k in c.KINDS[1:] for _ in range(4)][:22] + ["rat"]
    assert len(kinds) == 27
    for kind in kinds:
        fx = give(s, 0, kind)
    assert s.hands[0] == 0
    assert fx[-1] == Lost(0, "five_of_a_kind")


# -- C7 real cards --------------------------------------------------------------------------

def test_c7_the_real_kind_is_entered_at_the_flip():
    s = State(3)
    s.push(Pass(1, "rat"))
    s.push(Pass(2, "cockroach"))
    s.push(Call(True))
    assert s.rows == [[0] * 8] * 3  # nothing is known before the flip
    s.push(Flip("bat"))
    assert s.row(2) == {"bat": 1} and s.face_up()[c.KIND_INDEX["bat"]] == 1


def test_c7_flip_of_a_kind_already_all_face_up_refused():
    s = State(3)
    for seat in (0, 1, 2, 0, 1, 2, 0, 1):  # three seats hold 3 + 3 + 2 = 8 bats, nobody four
        give(s, seat, "bat")
    assert s.face_up()[c.KIND_INDEX["bat"]] == 8 and not s.is_over()
    s.push(Pass((s.active + 1) % 3, "bat"))
    s.push(Call(True))
    with pytest.raises(IllegalMove, match="all 8 bat cards are already face up"):
        s.check(Flip("bat"))
    assert Flip("bat") not in s.legal_moves() and len(s.legal_moves()) == 7


def test_c7_flip_of_an_unknown_kind_refused():
    s = State(3)
    s.push(Pass(1, "rat"))
    s.push(Call(True))
    with pytest.raises(IllegalMove, match="unknown kind 'beetle'"):
        s.check(Flip("beetle"))
    with pytest.raises(IllegalMove, match="unknown kind 3"):
        s.check(Flip(3))


# -- moves and JSON -----------------------------------------------------------------------

def test_moves_to_json_and_back():
    assert Pass(2, "rat").to_json() == {"pass": {"to": 3, "claim": "rat"}}
    assert Call(True).to_json() == {"call": True}
    assert Call(False).to_json() == {"call": False}
    assert Flip("toad").to_json() == {"flip": "toad"}
    for m in (Pass(0, "toad"), Pass(5, "bat"), Call(True), Call(False), Flip("fly")):
        assert c.move_from_json(json.loads(json.dumps(m.to_json()))) == m


@pytest.mark.parametrize("obj, words", [
    ([], "one key"),
    ({}, "one key"),
    ({"call": True, "flip": "rat"}, "one key"),
    ({"offer": 1}, "unknown input 'offer'"),
    ({"pass": 3}, "pass must be an object"),
    ({"pass": {"to": 3}}, "pass must be an object"),
    ({"pass": {"to": 3, "claim": "rat", "x": 1}}, "pass must be an object"),
    ({"pass": {"to": "3", "claim": "rat"}}, "seat number"),
    ({"pass": {"to": True, "claim": "rat"}}, "seat number"),
    ({"pass": {"to": 2, "claim": 4}}, "kind name"),
    ({"call": "true"}, "true or false"),
    ({"call": 1}, "true or false"),
    ({"flip": None}, "kind name"),
])
def test_malformed_json_refused(obj, words):
    with pytest.raises(IllegalMove, match=words):
        c.move_from_json(obj)


# -- illegal inputs change nothing ----------------------------------------------------------

def _states():
    """A state in each phase, plus an over one, with the moves illegal in it."""
    offer = State(4)
    give(offer, 1, "rat")
    answer = offer.copy(history=True)
    answer.push(Pass(2, "bat"))
    answer.push(Pass(3, "bat"))
    flip = answer.copy(history=True)
    flip.push(Call(True))
    over = State(3)
    for _ in range(4):
        give(over, 1, "fly")
    return [
        (offer, [Pass(1, "rat"), Pass(4, "rat"), Pass(0, "mouse"), Call(True), Flip("rat"), "junk"]),
        (answer, [Pass(3, "bat"), Pass(1, "bat"), Pass(2, "bat"), Pass(0, "nope"), Flip("bat")]),
        (flip, [Call(False), Pass(0, "bat"), Flip("worm")]),
        (over, [Pass(0, "rat"), Call(True), Flip("rat")]),
    ]


def test_illegal_inputs_refused_with_reasons_and_state_unchanged():
    for state, bad in _states():
        before = frozen(state)
        for move in bad:
            assert not state.is_legal(move)
            with pytest.raises(IllegalMove) as info:
                state.push(move)
            assert str(info.value)  # says why
            assert frozen(state) == before, move


def test_waiting_for_says_who_and_what():
    s = State(3, first=2)
    assert s.waiting_for().startswith("seat 3 to offer")
    s.push(Pass(0, "rat"))
    assert s.waiting_for().startswith("seat 1 to call the rat")
    s.push(Call(False))
    assert s.waiting_for() == "seat 1 to turn the card face up and enter its kind"


# -- undo ------------------------------------------------------------------------------------

def test_undo_back_to_the_start_restores_the_exact_state():
    rng = random.Random(5)
    for players in (2, 3, 6):
        s = State(players, first=players - 1)
        start = frozen(s)
        seen = [frozen(s)]
        while not s.is_over():
            s.push(rng.choice(s.legal_moves()))
            seen.append(frozen(s))
        seen.pop()
        while s.can_pop():
            s.pop()
            assert frozen(s) == seen.pop()
        assert frozen(s) == start and s == State(players, first=players - 1)
        with pytest.raises(IllegalMove, match="nothing to undo"):
            s.pop()


def test_pop_returns_the_move_and_restores_last():
    s = State(3)
    fx = s.push(Pass(1, "rat"))
    s.push(Call(True))
    assert s.pop() == Call(True)
    assert s.last == fx and s.phase == c.ANSWER


def test_copy_is_independent():
    s = State(4)
    t = s.copy()
    t.push(Pass(1, "rat"))
    assert s.hands == [16] * 4 and s.phase == c.OFFER and t != s


# -- the log ------------------------------------------------------------------------------

def test_log_replay_end_to_end_with_undo():
    s = State(3, first=1)
    s.push(Pass(0, "rat"))
    s.push(Pass(2, "bat"))
    s.push(Call(False))
    s.push(Flip("toad"))
    text = (encode(c.header(3, 1, seed=4)) + "".join(encode(m.to_json()) for m in s.moves)
            + '{"pass": {"to": 2, "claim": "fly"}}\n{"undo": true}\n')
    state, log = replay(text)
    assert log.header["seed"] == 4
    assert state.to_json() == s.to_json()
    # "false" and it is no bat: a right call, so seat 1, who passed it to seat 3, takes it
    assert state.to_json()["seats"][0]["row"] == {"toad": 1} and state.to_json()["active"] == 1


def test_log_replay_names_the_bad_line():
    text = encode(c.header(2, 0)) + encode({"pass": {"to": 2, "claim": "rat"}}) + encode(
        {"pass": {"to": 1, "claim": "rat"}})
    with pytest.raises(LogError, match="line 3: no passing with two players"):
        replay(text)
    with pytest.raises(LogError, match="line 1: header: first must be a seat"):
        replay(encode({"game": "cockroach", "players": 2, "options": {"first": 3}}))


# -- property: random games -------------------------------------------------------------

@settings(deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_random_games_account_for_every_card_and_replay_the_same(players, seed):
    rng = random.Random(seed)
    s = State(players, first=rng.randrange(players))
    text = encode(c.header(players, s.first, seed=seed))  # the log as written, undo lines included
    check_accounting(s)
    steps = 0
    while not s.is_over() and steps < 400:
        steps += 1
        if s.can_pop() and rng.random() < 0.1:
            s.pop()
            text += encode({"undo": True})
        else:
            move = rng.choice(s.legal_moves())
            s.push(move)
            text += encode(move.to_json())
        check_accounting(s)
        if steps % 3 == 0 or s.is_over():
            replayed, _ = replay(text)
            assert replayed.to_json() == s.to_json()
            assert replayed == s
            assert replay(log_text(s))[0] == s  # the live moves alone give the same
    assert s.is_over() or steps == 400
