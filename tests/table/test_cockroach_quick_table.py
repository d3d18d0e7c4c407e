"""Cockroach Poker in quick mode at the table: the round is played aloud with the real
cards, and whoever lays its card face up presses the critter on their own pad (or phone).
One press a round; the rules core (QuickState) keeps the hands, rows, starter and loss."""

import json
import types
import random

import pytest

from pitable.i18n import LANGUAGES, catalog, msg, words
from pitable.rules import cockroach as cr
from pitable.rules.cockroach import KINDS
from pitable.rules.log import replay
from pitable.screens import views as v
from pitable.table import public
from pitable.table.cockroach import CockroachTable
from pitable.table.cockroach_quick import QuickCockroachTable
from pitable.web import payload
from tests.rules.test_cockroach_quick import scripted, same

from .conftest import press


def start(table, pads=(1, 2, 3), first_presses=0):
    press(table, pads[0], 1)        # 2: Cockroach Poker
    for pad in pads:
        press(table, pad, 0)        # join
    press(table, pads[0], 6)        # A: the options (quick is the default with real cards)
    for _ in range(first_presses):
        press(table, pads[0], 0)    # 1: the first player moves on
    press(table, pads[0], 6)        # A: start
    while table.current.notices:    # the deal (C1): read while the real cards are dealt
        press(table, pads[0], 7)
    return table.current


def log_lines(game):
    return [json.loads(line) for line in game.journal.path.read_text().splitlines()]


def lay(table, seat, kind):
    """``seat`` takes the round's card and lays it face up: it presses the critter's key."""
    press(table, seat, KINDS.index(kind))


def test_the_options_offer_quick_first_and_full_on_key_2(new_table):
    table = new_table()
    press(table, 1, 1)
    for pad in (1, 2, 3):
        press(table, pad, 0)
    press(table, 1, 6)
    assert [words(value) for _, value in table.view().options] == ["S1", "quick"]
    assert [words(label) for label, _ in table.view().options] == ["First player", "Mode"]
    press(table, 1, 1)
    assert words(table.view().options[1][1]) == "full"
    press(table, 1, 1)
    assert words(table.view().options[1][1]) == "quick"
    press(table, 1, 6)
    game = table.current
    assert isinstance(game, QuickCockroachTable)
    assert log_lines(game)[0]["options"] == {"first": 1, "mode": "quick"}


def test_the_deal_says_who_presses_in_quick_mode(new_table):
    table = new_table()
    press(table, 1, 1)
    for pad in (1, 2, 3):
        press(table, pad, 0)
    press(table, 1, 6)
    press(table, 1, 6)
    told = [words(line) for page in table.current.notices for line in page.lines]
    assert "Who lays a card face up presses its critter" in told
    assert told[-1] == "S1 offers first"


def test_the_round_screen_shows_the_starter_hands_rows_and_the_8_critter_keys(new_table):
    table = new_table()
    start(table, first_presses=1)
    view = table.view()
    assert isinstance(view, v.CockroachQuick)
    assert (view.round, view.starter, view.seats, view.hands) == (1, 2, (1, 2, 3), (21, 22, 21))
    assert view.rows == ({}, {}, {}) and view.lose_at == 4
    assert [k.does for k in view.keys] == [("lay", kind) for kind in KINDS]
    assert all(k.seats is None for k in view.keys)   # every seat: whoever takes the card presses
    for seat in (1, 2, 3):
        assert v.meaning(view.keys, seat, 5) == ("lay", "stinkbug")


def test_c5_the_presser_row_grows_the_starter_hand_shrinks_and_the_presser_starts(new_table):
    table = new_table()
    game = start(table, first_presses=1)            # S2 starts
    lay(table, 3, "fly")                            # S3 took it: a wrong call, or a right one on its pass
    assert log_lines(game)[-1] == {"laid": {"seat": 3, "kind": "fly"}}
    view = table.view()
    assert view.hands == (21, 21, 21) and view.rows == ({}, {}, {"fly": 1})
    assert view.starter == 3 and view.round == 2
    assert words(view.toast) == "S3: fly face up"
    lay(table, 3, "fly")                            # S3 started and took its own card back
    assert table.view().hands == (21, 21, 20) and table.view().starter == 3


def test_c6_a_row_one_short_is_said_and_the_fourth_loses(new_table):
    table = new_table()
    start(table)
    for _ in range(2):
        lay(table, 2, "rat")
    lay(table, 2, "rat")
    assert words(table.view().toast) == "S2: 3 rats: one more loses"
    assert public.one_short(table.current) == (2,)
    lay(table, 2, "rat")
    over = table.view()
    assert isinstance(over, v.CockroachOver)
    assert (over.losers, over.reason, over.kind) == ((2,), "four_of_a_kind", "rat")


def test_c6_an_empty_hand_loses_when_its_seat_must_start(new_table):
    table = new_table()
    game = start(table, pads=(1, 2))                # 27 each, 10 aside
    for i in range(27):                             # S1 takes its own card back every round
        assert not game.state.is_over()
        lay(table, 1, KINDS[i % 8])
    over = table.view()
    assert isinstance(over, v.CockroachOver) and over.losers == (1,) and over.reason == "empty_hand"


def test_a_ninth_card_of_a_critter_is_refused_and_nothing_is_logged(new_table):
    table = new_table(seats=6)
    game = start(table, pads=(1, 2, 3, 4, 5, 6))
    for seat in (1, 2, 3, 4):
        for _ in range(2):
            lay(table, seat, "toad")                # 8 toads face up, none of a row at 4
    lines = len(log_lines(game))
    lay(table, 5, "toad")
    assert len(log_lines(game)) == lines and words(table.view().toast) == "8 toads face up already"


def test_undo_takes_the_card_back_as_today(new_table):
    table = new_table()
    game = start(table)
    lay(table, 2, "bat")
    press(table, 3, 7, "hold")                      # hold X: undo?
    assert words(table.view().what) == "S2 laid bat"
    press(table, 3, 6)                              # A: yes
    assert game.state.moves == [] and table.view().starter == 1 and table.view().hands == (22, 21, 21)
    assert log_lines(game)[-1] == {"undo": True}
    state, _ = replay(game.journal.path.read_text())
    assert state == game.state


def test_resume_keeps_the_hands_rows_and_starter(new_table, tmp_path):
    table = new_table()
    start(table)
    for seat, kind in ((2, "rat"), (3, "bat"), (3, "rat"), (1, "spider")):
        lay(table, seat, kind)
    before = (table.view().hands, table.view().rows, table.view().starter, table.view().round)
    table.close()
    again = new_table()
    resumed = again.current
    assert isinstance(resumed, QuickCockroachTable)
    while resumed.notices:                          # the resumed notice
        press(again, 1, 7)
    view = again.view()
    assert (view.hands, view.rows, view.starter, view.round) == before
    lay(again, 1, "toad")
    assert again.view().hands == (before[0][0] - 1,) + before[0][1:] and again.view().starter == 1


def test_again_plays_quick_again_and_the_loser_starts(new_table):
    table = new_table()
    start(table)
    for _ in range(4):
        lay(table, 3, "scorpion")
    press(table, 1, 0)                              # 1: again, the same players
    while table.current.notices:
        press(table, 1, 7)
    game = table.current
    assert isinstance(game, QuickCockroachTable) and game.state.active == 2   # S3 lost: S3 starts
    assert log_lines(game)[0]["options"] == {"first": 3, "mode": "quick"}


def test_the_full_mode_is_the_old_chain(new_table):
    from .test_cockroach_table import start as start_full

    table = new_table()
    game = start_full(table)
    assert type(game) is CockroachTable and isinstance(table.view(), v.CockroachOffer)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phone_seat_gets_the_8_critter_buttons(new_table, lang):
    table = new_table()
    start(table)
    for seat in (1, 3):
        labels = payload.seat_keys(types.SimpleNamespace(language=lang, private={}, keys=table.view().keys), seat)
        assert [k["on"] for k in labels] == [True] * 8
        assert [k["label"] for k in labels] == [catalog(lang).words(msg(f"kind.{k}")) for k in KINDS]


def test_the_tv_page_says_quick_mode_and_tells_each_card_laid(new_table):
    from pitable.web import payload

    table = new_table()
    game = start(table)
    lay(table, 2, "rat")
    story = public.story(game)
    assert [words(m) for m in story[0].lines] == ["S2: rat face up"]

    class Snap:  # what pitable.web.publish hands the web thread, as far as the table page reads it
        language, frame, sitting, where, set_up, one_short = "en", b"", None, (2, None), None, ()
        state = {**cr.QuickState(3).to_json(), "pads": [1, 2, 3]}

    Snap.story = story
    Snap.state = {**game.state.to_json(), "pads": [1, 2, 3]}
    out = payload.table_payload(Snap)
    assert out["where"] == "Round 2 · quick mode"
    assert out["card"] is None


# -- whole games on simulated pins ------------------------------------------------------------

def sim_start(sim, players: int, first: int) -> None:
    sim.tap(1, 1)                                   # 2: Cockroach Poker
    for pad in range(1, players + 1):
        sim.tap(pad, 0)
    sim.tap(1, 6)
    for _ in range(first):
        sim.tap(1, 0)
    sim.tap(1, 6)                                   # quick, the default
    while sim.game.notices:                         # the deal
        sim.tap(1, 7)


@pytest.mark.parametrize("players", range(2, 7))
def test_whole_seeded_games_on_the_pads_end_in_both_kinds_of_loss_as_the_rules_say(tmp_path, players):
    """Each seeded game's rounds pressed on the pads, one key a round by the taker; the
    table ends where the full rules core (every offer, pass, call, flip) ends, with both
    losses (of a kind and an empty hand) among the games; one resumes mid-game."""
    from pitable.harness import ManualClock, SimTable

    reasons = set()
    for seed, careful in ((0, False), (1, True)):
        full, quick, pairs, lays = scripted(players, seed, careful)
        sim = SimTable(tmp_path / f"{players}-{seed}", seats=players, clock=ManualClock(),
                       wiring="direct" if players <= 3 else "matrix", rng=random.Random(seed))
        try:
            sim_start(sim, players, seed % players)
            for i, (seat, kind) in enumerate(lays):
                sim.tap(seat + 1, KINDS.index(kind))
                st = sim.game.state
                assert len(st.moves) == i + 1, (i, sim.view())
                same(pairs[i][0], st)
                if i == len(lays) // 2 and careful:   # the power goes: the game comes back
                    sim.close()
                    sim = SimTable(tmp_path / f"{players}-{seed}", seats=players, clock=ManualClock(),
                                   wiring="direct" if players <= 3 else "matrix", rng=random.Random(seed))
                    assert sim.game.state == st
                    while sim.game.notices:
                        sim.tap(1, 7)
                    view = sim.view()
                    assert view.hands == tuple(st.hands) and view.rows == tuple(st.row(p) for p in range(players))
            assert sim.game.state.outcome == full.outcome == quick.outcome
            assert isinstance(sim.view(), v.CockroachOver)
            reasons.add(full.outcome.reason)
            state, _ = replay(sim.game.journal.path.read_text())
            assert state == sim.game.state
        finally:
            sim.close()
    assert reasons == {"five_of_a_kind" if players == 2 else "four_of_a_kind", "empty_hand"}
