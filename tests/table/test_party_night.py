"""A party night, reached by keys: six seats from the packaged desktop config, the deal
told for every player count (C1, C6), the Cockroach screens that carry the moment (the
claim received, the forced call, the only receiver with two players, a row one short of
losing), the card's result going on by itself, the next game with the same players and
the evening's score kept across restarts."""

from __future__ import annotations

import copy
import errno
import json
import random
from importlib import resources

import pytest
from PIL import Image

from pitable.config import load_config
from pitable.hardware.keys import KeyEvent
from pitable.hardware.keyboard import KeyMap
from pitable.i18n import LANGUAGES, NBSP, msg, words
from pitable.rules import cockroach as cr
from pitable.screens import views as v
from pitable.screens.render import draw
from pitable.screens.widgets import Canvas
from pitable.table.app import Table
from pitable.table.sitting import FRESH_AFTER

from tests.screens.test_layouts import problems

from .conftest import play_on, press


def drawn_texts(view, lang="en") -> list:
    """The texts a view's frame draws, and what the layout checker found wrong."""
    c = Canvas(Image.new("1", (208, 144)), origin=(40, 40), size=(128, 64), lang=lang)
    draw(c, view)
    # the glass glues "stink bug" with a no-break space (pitable.i18n.NBSP); people read a space
    texts = [what[6:-1].replace(NBSP, " ").replace(repr(NBSP)[1:-1], " ")
             for what, _ in c.drawn if what.startswith("text ")]
    return texts, [w for w, _ in c.overflows] + c.cuts


def cockroach(table, pads, first_presses=0):
    """Cockroach Poker for ``pads`` in full mode, the first player moved on ``first_presses`` times."""
    press(table, pads[0], 1)
    for pad in pads:
        press(table, pad, 0)
    press(table, pads[0], 6)
    for _ in range(first_presses):
        press(table, pads[0], 0)
    press(table, pads[0], 1)  # key 2: mode full (every offer, pass and call)
    press(table, pads[0], 6)
    return table.current


def three_rats_in_s2s_row(table):
    """Cockroach Poker for S1-S3 and three rats face up in S2's row (one short of losing),
    by keys (scripts/party_screens.py draws this screen too)."""
    cockroach(table, (1, 2, 3))
    read_notices(table)
    for _ in range(3):
        game = table.current
        starter = game.seats[game.state.active]
        if starter == 2:                # S2 offers a rat to S1, who calls it true: S2 takes it
            press(table, 2, 0)
            press(table, 2, 0)
            press(table, 1, 6)
        else:                           # the starter offers S2 a rat, S2 calls it false: S2 takes it
            press(table, starter, 1)
            press(table, starter, 0)
            press(table, 2, 7)
        press(table, 1, 0)
        read_notices(table)
    return table.current


def read_notices(table, pad=1):
    said = []
    while table.current.notices:
        said += [words(line) for line in table.view().lines]
        press(table, pad, 7)
    return said


# -- 1. six seats out of the box ---------------------------------------------------------------

def test_desktop_config_seats_six_and_alt_rows_join_a_cockroach_game(tmp_path):
    """The packaged desktop config (what ./run.sh uses on a laptop with no config) wires six
    keyboard rows; Alt+1 and Alt+q are seats 5 and 6 and join; the deal is 11/11/11/11/10/10."""
    with resources.as_file(resources.files("pitable") / "data" / "desktop.yaml") as path:
        config = load_config(path)
    keys = KeyMap(config.pads.keyboard)
    table = Table(seats=config.seats, log_dir=tmp_path / "logs", rng=random.Random(1))

    def typed(ch, alt=False):
        table.on_key(keys.event_for(ch, alt=alt))
        table.durable()

    typed("2")                       # seat 1: Cockroach Poker
    for ch in "1qaz":
        typed(ch)                    # seats 1-4 join
    typed("1", alt=True)             # seat 5
    typed("q", alt=True)             # seat 6
    assert table.view().joined == (1, 2, 3, 4, 5, 6)
    typed("7")
    typed("7")                       # seat 1: A, A
    game = table.current
    assert game.seats == (1, 2, 3, 4, 5, 6) and game.state.hands == [11, 11, 11, 11, 10, 10]


def test_laptop_party_config_is_six_keyboard_seats_with_the_tv_page():
    from pathlib import Path

    config = load_config(Path(__file__).resolve().parents[2] / "config" / "laptop" / "party-6-seats.yaml")
    assert (config.seats, config.pads.wiring, config.display.display) == (6, "keyboard", "pygame")
    assert config.web is not None


# -- 2. the deal ---------------------------------------------------------------------------------

@pytest.mark.parametrize("players, counts", [
    (2, ["S1, S2: 27 cards"]),
    (3, ["S1: 22 cards", "S2, S3: 21 cards"]),
    (4, ["S1, S2, S3, S4: 16 cards"]),
    (5, ["S1, S2, S3, S4: 13 cards", "S5: 12 cards"]),
    (6, ["S1, S2, S3, S4: 11 cards", "S5, S6: 10 cards"]),
])
def test_c1_c6_the_deal_is_told_for_every_player_count(new_table, players, counts):
    table = new_table(seats=6)
    cockroach(table, tuple(range(1, players + 1)))
    assert isinstance(table.view(), v.Instructions) and words(table.view().title) == "The deal"
    said = read_notices(table)
    aside = ["Put 10 cards aside unseen"] if players == 2 else []
    dealt = 54 if players == 2 else 64
    assert said == aside + [f"Deal {dealt} cards one by one from S1"] + counts + [
        f"{5 if players == 2 else 4} of one critter face up loses",
        "No card to offer at your turn: you lose", "S1 offers first"]
    assert isinstance(table.view(), v.CockroachOffer)  # the deal waits for a key: people deal


def test_c1_the_deal_starts_from_the_chosen_first_player(new_table):
    table = new_table(seats=6)
    cockroach(table, (1, 2, 3, 4, 5), first_presses=3)   # S4 first: S4, S5, S1, S2 get 13
    assert read_notices(table)[1:3] == ["S1, S2, S4, S5: 13 cards", "S3: 12 cards"]


def test_the_deal_is_not_told_again_on_resume(new_table):
    table = new_table(seats=4)
    cockroach(table, (1, 2, 3))
    read_notices(table)
    again = new_table(seats=4)
    assert isinstance(again.view(), v.Resumed)


# -- 3. the Cockroach screens ---------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_c4_passing_on_shows_the_claim_received(new_table, lang):
    table = new_table(seats=6, language=lang)
    cockroach(table, (1, 2, 3, 4, 5, 6))
    read_notices(table)
    press(table, 1, 3)
    press(table, 1, 5)                 # S1 -> S4: "stink bug"
    press(table, 4, 5)                 # S4 peeks, passes to S6 ...
    view = table.view()
    assert view.step == "claim" and view.claim == "stinkbug" and view.sender == 1
    texts, wrong = drawn_texts(view, lang)
    assert words(msg("cr.said", sender=1, kind=msg("kind.stinkbug")), lang) in texts and wrong == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_c4_when_all_have_seen_it_the_screen_says_call(new_table, lang):
    table = new_table(seats=4, language=lang)
    cockroach(table, (1, 2, 3))
    read_notices(table)
    press(table, 1, 1)
    press(table, 1, 0)                 # S1 -> S2
    assert table.view().forced is None
    press(table, 2, 2)
    press(table, 2, 0)                 # S2 -> S3: everyone has seen it
    view = table.view()
    assert view.forced == "all_seen"
    texts, wrong = drawn_texts(view, lang)
    assert any(words(msg("cr.all_seen"), lang).startswith(t) for t in texts if len(t) > 8) and wrong == []


def test_c4_two_players_the_offer_goes_to_the_other_seat_by_itself(new_table):
    table = new_table(seats=6)
    game = cockroach(table, (2, 5))
    read_notices(table, pad=2)
    view = table.view()
    assert isinstance(view, v.CockroachOffer) and view.step == "claim" and view.target == 5 and view.only
    texts, wrong = drawn_texts(view)
    assert "Only S5 can get it" in texts and "Hold X: back" not in texts and wrong == []
    press(table, 2, 3)                 # the first key is the claim: "fly" to S5
    assert game.state.moves[-1] == cr.Pass(1, "fly")
    answer = table.view()
    assert answer.forced == "two_players" and "2 players: no passing," in drawn_texts(answer)[0]


def test_c4_two_players_a_key_leaving_the_cards_result_is_not_a_claim(new_table):
    table = new_table(seats=2)
    game = cockroach(table, (1, 2))
    read_notices(table)
    press(table, 1, 3)
    press(table, 2, 6)                 # "true"
    press(table, 1, 0)                 # it is a rat: S2 was wrong, takes it, starts
    moves = len(game.state.moves)
    press(table, 2, 3)                 # leaves the card's result
    assert len(game.state.moves) == moves


@pytest.mark.parametrize("players, lose_at", [(3, 4), (2, 5)])
def test_c6_a_row_one_short_of_losing_is_flagged_at_the_moment(new_table, players, lose_at):
    table = new_table(seats=4)
    game = cockroach(table, tuple(range(1, players + 1)))
    read_notices(table)
    game.state.rows[1][cr.KIND_INDEX["fly"]] = lose_at - 2   # S2's row, as earlier rounds left it
    if players > 2:
        press(table, 1, 1)
    press(table, 1, 3)                 # S1 -> S2 "fly"
    press(table, 2, 7)                 # "false": it is a fly, S2 takes it
    press(table, 1, 3)
    said = read_notices(table)
    assert f"S2: {lose_at - 1} flies: one more loses" in said
    assert said[-1] == "S2 starts the next round"


def test_the_cards_result_waits_for_a_key(new_table, clock):
    """It says "Any key": it never goes by itself (a claim key pressed as it went became
    the next offer's target)."""
    table = new_table(seats=4, notice_seconds=5)
    cockroach(table, (1, 2, 3))
    read_notices(table)                # the deal waits for a key ...
    press(table, 1, 1)
    press(table, 1, 0)
    press(table, 2, 6)
    press(table, 3, 0)                 # ... and so does the card's result
    assert words(table.view().title) == "The card"
    assert table.next_deadline() is None
    clock.advance(60)
    table.tick(clock())
    assert words(table.view().title) == "The card"
    read_notices(table)
    assert isinstance(table.view(), v.CockroachOffer)


# -- 5. the next game and the evening's score -----------------------------------------------------

def lose(table, loser_pad, pads, last_key=True):
    """Play the current Cockroach game by keys until ``loser_pad`` has four rats (five with
    two players): every card is a rat that ends in its row (C5, C6). ``last_key`` False:
    stop before the flip that ends it."""
    game = table.current
    read_notices(table, pads[0])
    for _ in range(40):
        st = game.state
        if st.is_over():
            break
        starter = game.seats[st.active]
        if starter == loser_pad:  # it offers a rat, the receiver calls right: back to it
            other = next(p for p in pads if p != loser_pad)
            if st.players > 2:
                press(table, starter, other - 1)
            press(table, starter, 0)
            press(table, other, 6)
        else:                     # a rat to it, it calls "false": wrong, it takes it
            if st.players > 2:
                press(table, starter, loser_pad - 1)
            press(table, starter, 0)
            press(table, loser_pad, 7)
        if not last_key:
            trial = copy.deepcopy(st)
            trial.push(cr.Flip(cr.KINDS[0]))
            if trial.is_over():
                return
        press(table, pads[0], 0)          # it is a rat
        read_notices(table, pads[0])
    assert game.state.is_over() and game.state.outcome.losers == (game.seats.index(loser_pad),)


def test_key_1_after_a_game_starts_the_next_with_the_same_players_the_loser_first(new_table):
    table = new_table(seats=6)
    cockroach(table, (2, 3, 5))
    lose(table, 5, (2, 3, 5))
    over = table.view()
    assert isinstance(over, v.CockroachOver)
    assert "again" in drawn_texts(over)[0] and "new game" in drawn_texts(over)[0]
    press(table, 3, 0)                 # key 1: again
    game = table.current
    assert game.seats == (2, 3, 5) and game.state.first == 2 and not game.state.moves
    assert read_notices(table, 2)[-1] == "S5 offers first"


def test_key_1_after_grasshopper_keeps_players_options_deck_and_the_assistant(new_table):
    from .conftest import play_on

    table = new_table(seats=4, assistant={"seats": 0, "level": "strong", "budget": 20},
                      assistant_worker="inline")
    press(table, 1, 0)
    press(table, 1, 0)
    press(table, 3, 0)
    press(table, 1, 5)                 # key 6: the Pi takes a seat
    press(table, 1, 6)
    press(table, 1, 0)                 # beginner on
    press(table, 1, 3)                 # virtual deck
    press(table, 1, 6)
    first = table.current
    play_on(table, random.Random(3))
    assert first.state.is_over()
    while table.current.notices:
        press(table, 1, 7)
    press(table, 1, 0)                 # key 1: again
    game = table.current
    assert game is not first and game.game == "grasshopper"
    assert {type(m).__name__ for m in game.state.moves} == {"Reveal"}   # the Pi's deck turned up 3
    assert game.seats == first.seats and game.header["options"] == first.header["options"]
    assert game.header["deck"] == "virtual" and game.header["assistant"]["seats"] == first.header["assistant"]["seats"]
    assert game.header["options"]["beginner"] is True


def test_the_evenings_score_is_kept_across_restarts_and_shown_by_hold_a(new_table, tmp_path):
    table = new_table(seats=6)
    cockroach(table, (1, 2, 3))
    lose(table, 2, (1, 2, 3))
    press(table, 1, 0)                 # again: S2 starts
    lose(table, 3, (1, 2, 3))
    press(table, 1, 6)                 # A: a new game, to "Which game?"
    saved = json.loads((tmp_path / "logs" / "sitting.json").read_text())
    assert [g["losers"] for g in saved["games"]] == [[2], [3]]
    again = new_table(seats=6)         # the Pi restarts
    press(again, 4, 6, "hold")         # hold A: the evening's score
    view = again.view()
    assert isinstance(view, v.Sitting) and view.games == 2
    assert dict(zip(view.seats, view.losses)) == {1: 0, 2: 1, 3: 1}
    for lang in LANGUAGES:
        assert drawn_texts(view, lang)[1] == []
    press(again, 4, 2)                 # any key: back, nothing else happens
    assert isinstance(again.view(), v.Setup) and again.view().step == "game"


def test_the_evenings_score_starts_afresh_by_hold_x_or_the_next_day(new_table, tmp_path):
    now = [1_000_000.0]
    table = new_table(seats=6, wall=lambda: now[0])
    cockroach(table, (1, 2))
    lose(table, 1, (1, 2))
    press(table, 1, 6)
    press(table, 1, 6, "hold")
    assert table.view().games == 1
    press(table, 1, 7, "hold")         # hold X on it: afresh
    assert table.sitting.count() == 0 and words(table.view().toast) == "The evening's score starts afresh"
    cockroach(table, (1, 2))
    lose(table, 2, (1, 2))
    press(table, 1, 6)
    assert new_table(seats=6, wall=lambda: now[0] + 3600).sitting.count() == 1
    assert new_table(seats=6, wall=lambda: now[0] + FRESH_AFTER + 1).sitting.count() == 0


def test_a_broken_sitting_file_is_a_fresh_evening(new_table, tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "sitting.json").write_text('{"games": [{"id": 3}], ')
    table = new_table(seats=4)
    assert table.sitting.count() == 0


def test_an_undone_end_is_not_counted_and_the_real_end_is(new_table):
    table = new_table(seats=4)
    cockroach(table, (1, 2, 3))
    lose(table, 2, (1, 2, 3))
    assert table.sitting.totals()[2] == (0, 1)
    press(table, 1, 7, "hold")
    press(table, 1, 6)                 # undo the flip: not over any more (no frame needed)
    assert table.sitting.count() == 0
    press(table, 3, 0)                 # the card was a rat after all: S2 loses again
    while table.current.notices:
        press(table, 1, 7)
    assert table.sitting.count() == 1 and table.sitting.totals()[2] == (0, 1)


def watch_views(table, monkeypatch) -> list:
    """Make every ``table.view()`` check that drawing wrote nothing (the evening's score
    bumps its version with every save); the list gets one entry a view."""
    real, seen = table.view, []

    def pure():
        saves = table.sitting.version
        shown = real()
        assert table.sitting.version == saves, "view() wrote the evening's score"
        seen.append(shown)
        return shown

    monkeypatch.setattr(table, "view", pure)
    return seen


def test_drawing_a_finished_game_writes_nothing_and_its_last_key_counts_it_once(new_table, tmp_path,
                                                                                  monkeypatch):
    table = new_table(seats=4)
    seen = watch_views(table, monkeypatch)
    cockroach(table, (1, 2, 3))
    game = table.current
    lose(table, 2, (1, 2, 3), last_key=False)
    table.on_key(KeyEvent(0, 0, "press"))   # it is a rat: S2 has four; no frame drawn yet
    table.durable()
    assert game.state.is_over()
    assert table.sitting.count() == 1 and (tmp_path / "logs" / "sitting.json").is_file()
    saves = table.sitting.version
    table.view()
    table.view()
    assert table.sitting.version == saves and table.sitting.count() == 1
    assert seen
    again = new_table(seats=4)             # the Pi restarts: counted once, still
    watch_views(again, monkeypatch)
    again.view()
    assert again.sitting.count() == 1 and again.sitting.totals()[2] == (0, 1)


def test_an_end_the_disk_refused_is_taken_out_of_the_score_before_any_frame(new_table, faults, monkeypatch):
    table = new_table(seats=4)
    watch_views(table, monkeypatch)
    cockroach(table, (1, 2, 3))
    game = table.current
    lose(table, 2, (1, 2, 3), last_key=False)
    faults.fail["fsync"] = errno.EIO
    table.on_key(KeyEvent(0, 0, "press"))   # the last flip, and the disk refuses it
    assert not table.durable() and not game.state.is_over()
    assert table.sitting.count() == 0       # taken out by the step, not by the next frame
    faults.fail.clear()
    table.on_key(KeyEvent(0, 0, "press"))
    assert table.durable() and game.state.is_over() and table.sitting.count() == 1


def test_a_game_with_the_pi_is_counted_once_and_no_frame_of_it_writes(new_table, monkeypatch):
    table = new_table(seats=4, assistant_worker="inline", assistant={"seats": 0, "level": "strong", "budget": 12})
    watch_views(table, monkeypatch)
    press(table, 1, 0)                 # Grasshopper Poker
    press(table, 1, 0)                 # seat 1 joins
    press(table, 1, 5)                 # key 6: the Pi takes a seat
    press(table, 1, 6)
    press(table, 1, 6)
    game = play_on(table, random.Random(3))
    assert game.state.is_over() and table.sitting.count() == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_c6_the_rows_overlay_names_a_seat_one_short_of_losing(new_table, lang):
    table = new_table(seats=6, language=lang)
    three_rats_in_s2s_row(table)
    press(table, 3, 6, "hold")
    view = table.view()
    texts, wrong = drawn_texts(view, lang)
    assert words(msg("cr.rows.one_more", seats=(2,)), lang) in texts and wrong == []


def _face_up(table, to_pad, kind_key):
    """One card face up in ``to_pad``'s row, by keys: offered to it (or, when it starts,
    by it to another who calls right) and the card told."""
    game = table.current
    active = game.seats[game.state.active]
    if active == to_pad:
        other = next(p for p in game.seats if p != to_pad)
        press(table, active, other - 1)
        press(table, active, kind_key)
        press(table, other, 6)         # "true", and it is: the offerer takes it
    else:
        press(table, active, to_pad - 1)
        press(table, active, kind_key)
        press(table, to_pad, 7)        # "false", but it is: the receiver takes it
    press(table, to_pad, kind_key)     # the card turned up
    read_notices(table)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_c6_the_six_seat_rows_overlay_says_how_it_closes_and_shows_every_seat(new_table, lang):
    table = new_table(seats=6, language=lang)
    cockroach(table, (1, 2, 3, 4, 5, 6))
    read_notices(table)
    # every kind face up somewhere (the widest rows), S2 one short of losing (three rats
    # with six players); each seat offers once, S2 three times
    for pad, kind_key in ((2, 0), (3, 3), (4, 7), (2, 0), (5, 6), (2, 0), (6, 5), (1, 4), (3, 2), (4, 1)):
        _face_up(table, pad, kind_key)
    press(table, 4, 6, "hold")
    view = table.view()
    assert isinstance(view, v.CockroachRows) and len(view.seats) == 6
    assert max(view.hands) >= 10 and view.rows[1].get("rat") == 3 == view.lose_at - 1
    assert len({kind for row in view.rows for kind in row}) == 8
    texts, wrong = drawn_texts(view, lang)
    assert wrong == [] and problems(view, lang) == []
    assert words(msg("cr.rows.one_more", seats=(2,)), lang) in texts
    for seat in range(1, 7):
        assert words(msg("seat", seat=seat), lang) in texts
    assert [str(n) for n in view.hands] == [t for t in texts if t.isdigit() and int(t) >= 8]
