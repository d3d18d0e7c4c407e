"""Cockroach Poker in quick mode: one input a round, the card laid face up (who, what).

Checked against the rulebook (C1, C3, C5, C6 in docs/rulings.md) and against the full
rules core: a whole game played with every offer, pass and call gives the same hands,
rows, starters and loss when only its face-up cards are entered."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pitable.errors import IllegalMove, LogError
from pitable.rules import cockroach as c
from pitable.rules.cockroach import Call, Flip, Laid, Lost, Pass, QuickState, Took
from pitable.rules.log import encode, replay
from pitable.sim.cockroach import Game, make_bot
from tests.conftest import examples


def lay(s: QuickState, seat: int, kind: str, times: int = 1) -> tuple:
    fx = ()
    for _ in range(times):
        fx = s.push(Laid(seat, kind))
    return fx


# -- one press a round ---------------------------------------------------------------------

def test_c5_the_taker_row_grows_and_the_taker_starts_the_next_round():
    s = QuickState(4, first=1)
    assert s.phase == c.LAY and s.active == 1 and s.round == 1
    fx = s.push(Laid(3, "fly"))
    assert fx == (Took(3, "fly", "laid"),)
    assert s.row(3) == {"fly": 1} and s.active == 3 and s.round == 2 and s.phase == c.LAY


def test_c3_each_round_costs_its_starter_one_card_from_the_deal():
    s = QuickState(3, first=1)
    dealt = list(c.deal(3, 1))
    assert s.hands == dealt == [21, 22, 21]     # C1: the first player and the next get the extra
    s.push(Laid(0, "rat"))                        # round 1: seat 2 started
    s.push(Laid(0, "bat"))                        # round 2: seat 1 started (the taker)
    s.push(Laid(2, "toad"))                       # round 3: seat 1 again
    assert s.hands == [dealt[0] - 2, dealt[1] - 1, dealt[2]]
    assert s.active == 2 and s.round == 4


def test_c5_a_starter_who_takes_its_own_card_back_starts_again():
    s = QuickState(3)
    s.push(Laid(0, "spider"))                     # a right call on seat 1's offer
    assert s.hands == [21, 21, 21] and s.row(0) == {"spider": 1} and s.active == 0


def test_c6_four_of_a_kind_loses_at_once_three_warns_nothing_ends():
    s = QuickState(4)
    lay(s, 2, "rat", 3)
    assert not s.is_over() and s.rows[2][c.KIND_INDEX["rat"]] == 3
    fx = s.push(Laid(2, "rat"))
    assert fx[-1] == Lost(2, "four_of_a_kind") and s.is_over()
    assert s.outcome.losers == (2,) and s.outcome.winners == (0, 1, 3) and s.outcome.kind == "rat"
    assert s.to_json()["reason"] == "four_of_a_kind"


def test_c6_two_players_lose_at_five_of_a_kind():
    s = QuickState(2)
    lay(s, 1, "bat", 4)
    assert not s.is_over()
    assert s.push(Laid(1, "bat"))[-1] == Lost(1, "five_of_a_kind")
    assert s.aside == 10 and s.accounted() == 64


def test_c6_an_empty_hand_loses_when_it_must_start_a_round():
    s = QuickState(6)                              # 11 11 11 11 10 10
    kinds = list(c.KINDS)
    for i in range(11):                            # seat 1 takes its own card every round
        s.push(Laid(0, kinds[i % 8]))
        if i < 10:
            assert not s.is_over()
    assert s.hands[0] == 0 and s.is_over()
    assert s.outcome.reason == "empty_hand" and s.outcome.losers == (0,) and s.outcome.kind is None


def test_c6_an_empty_hand_plays_on_while_someone_else_starts():
    s = QuickState(3)
    s.hands = [5, 0, 5]                            # seat 2 has played its last card
    s.push(Laid(0, "rat"))
    assert not s.is_over() and s.active == 0       # seat 1 starts: seat 2 plays on empty-handed
    s.push(Laid(2, "bat"))
    assert not s.is_over() and s.active == 2
    assert s.push(Laid(1, "bat"))[-1] == Lost(1, "empty_hand")  # seat 2 takes one: it must start


def test_c6_of_a_kind_is_the_reason_when_both_happen():
    s = QuickState(2)
    s.hands = [5, 4]
    s.rows[1][0] = 4
    s.active = 1
    fx = s.push(Laid(1, "rat"))                    # seat 2's last card makes five rats
    assert s.hands[1] == 3 and fx[-1] == Lost(1, "five_of_a_kind")
    s = QuickState(3)
    s.hands = [1, 5, 5]
    s.rows[0][3] = 3
    fx = s.push(Laid(0, "fly"))                    # the last card, and the fourth fly
    assert s.hands[0] == 0 and fx[-1] == Lost(0, "four_of_a_kind")


def test_an_impossible_card_and_full_mode_inputs_are_refused_and_change_nothing():
    s = QuickState(3)
    for seat in range(3):
        s.rows[seat][4] = 2
    s.rows[0][4] = 3
    s.rows[1][4] = 3                               # 8 scorpions face up: no ninth
    before = (s._snapshot(), list(s.moves))
    for move, words in [(Laid(2, "scorpion"), "all 8 scorpion"), (Laid(3, "rat"), "no seat 4"),
                        (Laid(0, "unicorn"), "unknown kind"), (Pass(1, "rat"), "quick mode takes only"),
                        (Call(True), "quick mode takes only"), (Flip("rat"), "quick mode takes only")]:
        with pytest.raises(IllegalMove, match=words):
            s.push(move)
        assert (s._snapshot(), list(s.moves)) == before
    assert not c.State(3).is_legal(Laid(0, "rat"))
    with pytest.raises(IllegalMove, match="quick-mode input"):
        c.State(3).check(Laid(0, "rat"))


def test_undo_restores_hands_rows_starter_and_the_end():
    s = QuickState(4)
    lay(s, 1, "toad", 3)
    snap = s._snapshot()
    s.push(Laid(1, "toad"))
    assert s.is_over()
    assert s.pop() == Laid(1, "toad")
    assert s._snapshot() == snap and not s.is_over() and s.active == 1


# -- the log ----------------------------------------------------------------------------

def test_the_header_records_the_mode_and_old_headers_are_full_games():
    assert c.header(4, 2, mode="quick", seed=9) == {"game": "cockroach", "players": 4,
                                                    "options": {"first": 3, "mode": "quick"}, "seed": 9}
    assert type(c.state_from_header(c.header(4, 2, mode="quick"))) is QuickState
    assert type(c.state_from_header(c.header(4, 2, mode="full"))) is c.State
    assert type(c.state_from_header({"game": "cockroach", "players": 3})) is c.State
    with pytest.raises(IllegalMove, match="mode must be quick or full, not 'fast'"):
        c.state_from_header({"game": "cockroach", "players": 3, "options": {"mode": "fast"}})


def test_laid_lines_replay_with_undo_and_name_a_bad_line():
    s = QuickState(3, first=1)
    s.push(Laid(0, "rat"))
    s.push(Laid(2, "bat"))
    text = (encode(c.header(3, 1, mode="quick")) + "".join(encode(m.to_json()) for m in s.moves)
            + encode({"laid": {"seat": 1, "kind": "fly"}}) + encode({"undo": True}))
    assert '{"laid": {"seat": 1, "kind": "rat"}}' in text
    state, _ = replay(text)
    assert state == s and state.to_json()["mode"] == "quick"
    only_laid = r"line 2: quick mode takes only the card laid face up \(laid: seat and kind\), not pass$"
    with pytest.raises(LogError, match=only_laid):
        replay(encode(c.header(3, 1, mode="quick")) + encode({"pass": {"to": 2, "claim": "rat"}}))
    with pytest.raises(LogError, match="line 2: laid: seat must be a seat number"):
        replay(encode(c.header(3, 1, mode="quick")) + encode({"laid": {"seat": "2", "kind": "rat"}}))


# -- against the full rules: the same game, one input a round -----------------------------

def full_and_quick(players: int, seed: int):
    """A whole game with bots and a real shuffled deck in the full rules, and the same
    game in quick mode from its face-up cards only; both states after every round."""
    rng = random.Random(seed)
    first = seed % players
    game = Game(players, first, rng, [make_bot("heuristic" if seed % 2 else "random") for _ in range(players)])
    quick = QuickState(players, first)
    pairs = []
    while not game.state.is_over():
        game.step()
        for e in game.state.last:
            if isinstance(e, Took):
                quick.push(Laid(e.seat, e.kind))
                pairs.append((game.state.copy(), quick.copy()))
    return game.state, quick, pairs


def scripted(players: int, seed: int, careful: bool):
    """A whole game played in the full rules round by round (offer, call, flip) and the
    same rounds in quick mode: each round a seeded taker and kind; ``careful`` takers
    avoid a losing row while they can, so hands run out (C6's other loss)."""
    rng = random.Random(seed)
    full, quick = c.State(players, seed % players), QuickState(players, seed % players)
    pairs, lays = [], []
    while not full.is_over():
        starter, taker = full.active, rng.randrange(players)
        up = full.face_up()
        kinds = [k for k in c.KINDS if up[c.KIND_INDEX[k]] < c.PER_KIND]
        safe = [k for k in kinds if full.rows[taker][c.KIND_INDEX[k]] < full.losing_count - 1]
        kind = rng.choice(safe if careful and safe else kinds)
        if taker == starter:   # a right call: the card goes back to the one who offered it
            full.push(Pass((starter + 1) % players, kind))
            full.push(Call(True))
        else:                  # a wrong "false": the receiver keeps it
            full.push(Pass(taker, kind))
            full.push(Call(False))
        full.push(Flip(kind))
        quick.push(Laid(taker, kind))
        lays.append((taker, kind))
        pairs.append((full.copy(), quick.copy()))
    return full, quick, pairs, lays


def same(full, quick) -> None:
    assert full.hands == quick.hands and full.rows == quick.rows and full.round == quick.round
    assert full.outcome == quick.outcome
    if not full.is_over():
        assert full.phase == c.OFFER and quick.phase == c.LAY and full.active == quick.active


@settings(max_examples=examples(40), deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1))
def test_quick_mode_keeps_the_same_hands_rows_starters_and_loss_as_the_full_rules(players, seed):
    full, quick, pairs = full_and_quick(players, seed)
    for f, q in pairs:
        same(f, q)
    assert quick.is_over() and quick.accounted() == 64


@pytest.mark.parametrize("careful", [False, True])
@pytest.mark.parametrize("players", range(2, 7))
def test_scripted_whole_games_agree_with_the_full_rules_round_by_round(players, careful):
    for seed in range(5):
        full, quick, pairs, _ = scripted(players, seed, careful)
        for f, q in pairs:
            same(f, q)
        assert quick.accounted() == 64


def test_whole_games_of_2_to_6_players_end_in_both_kinds_of_loss():
    reasons = {p: set() for p in range(2, 7)}
    for players in range(2, 7):
        for seed in range(3):
            for careful in (False, True):
                full, quick, _, _ = scripted(players, seed, careful)
                same(full, quick)
                reasons[players].add(quick.outcome.reason)
    assert reasons[2] == {"five_of_a_kind", "empty_hand"}
    for players in range(3, 7):
        assert reasons[players] == {"four_of_a_kind", "empty_hand"}, players


def test_replay_describes_a_quick_round_by_its_starter():
    from pitable.rules.log import by_seat
    from pitable.screens.text import describe_cockroach

    s = QuickState(3, first=1)
    s.push(Laid(0, "rat"))
    text = describe_cockroach(by_seat(s.to_json(), (1, 2, 3)))
    assert "Round 2, started by seat 1: its taker lays the card face up." in text
    assert "Seat 1: 21 in hand; face up: 1 rat" in text
