"""Grasshopper Poker at the table, driven by key events (the controller, no pins)."""

import json
import random

from pitable.i18n import words
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL, Phase
from pitable.rules.log import replay
from pitable.screens import views as v

from .conftest import play_on, press, start_grasshopper


def log_text(table):
    return table.current.journal.path.read_text()


def reveal(table, *kinds):
    for kind in kinds:
        kinds = ["grasshopper", "corn", "strawberry", "broccoli", "blackberry"]
        press(table, table.current.seats[0], kinds.index(kind))


def test_setup_joins_seats_by_pressing_and_writes_the_header(new_table):
    table = new_table()
    assert table.view().step == "game"
    game = start_grasshopper(table, pads=(2, 4), toggles=(0,))
    header = json.loads(log_text(table).splitlines()[0])
    assert header["game"] == "grasshopper" and header["players"] == 2 and header["pads"] == [2, 4]
    assert header["options"]["beginner"] is True and header["deck"] == "physical"
    assert isinstance(table.view(), v.RevealPrompt) and game.seats == (2, 4)


def test_setup_needs_two_players_and_refuses_seven(new_table):
    table = new_table()
    press(table, 1, 0)
    press(table, 1, 0)
    press(table, 1, 6)
    assert words(table.view().toast) == "Need 2 players" and table.view().step == "join"


def test_physical_reveals_are_asked_and_impossible_ones_refused(new_table):
    table = new_table()
    game = start_grasshopper(table)
    reveal(table, "corn", "corn")
    assert table.view().to_reveal == 1
    game.state.unseen[0] = 0  # pretend all grasshoppers are out
    reveal(table, "grasshopper")
    assert words(table.view().toast) == "No grasshopper left: which kind is it?" and game.state.to_reveal == 1
    press(table, 1, 6)
    assert words(table.view().toast) == "Keys 1-5 name the kind"


def test_bidding_shows_who_locked_in_never_what(new_table):
    table = new_table()
    start_grasshopper(table)
    reveal(table, "corn", "strawberry", "broccoli")
    press(table, 2, 5)
    view = table.view()
    assert isinstance(view, v.Bidding) and view.locked == (2,)
    press(table, 2, 0)  # a seat may change its bid: nothing on screen changes
    assert table.view() == view
    assert len(log_text(table).splitlines()) == 4  # header + 3 reveals: no bid on disk


def test_secrecy_frames_and_log_do_not_depend_on_pending_bids(new_table, tmp_path):
    """Until the last seat locks in, the views and the log are the same whatever the bids."""
    runs = []
    for n, bids in enumerate([(0, 1), (6, 7), (5, 5)]):
        table = new_table(log_dir=f"logs{n}")
        start_grasshopper(table)
        reveal(table, "corn", "strawberry", "broccoli")
        views = []
        for seat, key in zip((1, 2), bids):
            press(table, seat, key)
            views.append(table.view())
        log = table.current.journal.path.read_text()
        runs.append((views, log.split("\n", 1)[1]))  # the header has a time stamp
        table.close()
    assert runs[0] == runs[1] == runs[2]


def test_reveal_shows_all_bids_then_the_order(new_table):
    table = new_table()
    start_grasshopper(table)
    reveal(table, "corn", "strawberry", "broccoli")
    for seat, key in ((1, 1), (2, 5), (3, 1)):
        press(table, seat, key)
    view = table.view()
    assert isinstance(view, v.BidsRevealed)
    assert view.bids == ("2", "6", "2") and view.cancelled == (1, 3) and view.order == (2,)
    assert json.loads(log_text(table).splitlines()[-1]) == {"bids": ["2", "6", "2"]}
    press(table, 1, 0)  # any key: on to the choice
    choosing = table.view()
    assert isinstance(choosing, v.Choosing) and choosing.seat == 2
    assert choosing.kinds == (("corn", 1), ("strawberry", 1), ("broccoli", 1))


def test_only_the_chooser_chooses_and_instructions_follow(new_table):
    table = new_table()
    start_grasshopper(table)
    reveal(table, "corn", "corn", "broccoli")
    for seat, key in ((1, 5), (2, 4), (3, 7)):
        press(table, seat, key)
    assert words(table.view().foot) == "→ S1 chooses"  # the bids reveal says who goes on (by itself)
    press(table, 2, 0)  # past the reveal: it goes on by itself
    press(table, 2, 0)
    assert words(table.view().toast) == "Seat 1 chooses now"
    press(table, 1, 1)  # seat 1 takes the corn (its key, 2, as in card entry); seat 2 is forced to the broccoli
    # no page to turn: the card entry tells who takes what in its title's place
    view = table.view()
    assert isinstance(view, v.RevealPrompt) and view.to_reveal == 3 and not table.current.notices
    # S3 played the X with no Ace to beat: it chooses nothing, and is said so
    assert tuple(map(words, view.told)) == ("S1 takes 2 corn", "S2 takes 1 broccoli", "S3 gets nothing")
    press(table, 3, 0)  # the first card named: the lines give way to the count
    view = table.view()
    assert view.named == ("grasshopper",) and view.told == ()


def test_spent_card_is_refused_privately_without_naming_it(new_table):
    refused = []
    table = new_table()
    start_grasshopper(table)
    table.current.signal = refused.append
    reveal(table, "corn", "strawberry", "broccoli")
    for seat, key in ((1, 0), (2, 1), (3, 2)):
        press(table, seat, key)
    while not isinstance(table.view(), (v.Bidding, v.RevealPrompt)):
        st = table.current.state
        if st.phase is CHOOSING and not table.current.notices:   # a kind's own key, as in card entry
            press(table, table.current.seats[st.chooser], next(k for k, n in enumerate(st.display) if n))
        else:
            press(table, 1, 0)
    while table.current.state.phase is REVEAL:
        reveal(table, "corn")
    press(table, 2, 1)  # seat 2's "2" is spent
    assert refused == [1]
    # the bid made before stands: not "bid again"
    assert words(table.view().toast) == "Seat 2: card spent, pick another"
    assert table.view().locked == ()


def test_hold_a_shows_scores_and_any_key_returns(new_table):
    table = new_table()
    start_grasshopper(table)
    press(table, 3, 6, "hold")
    assert isinstance(table.view(), v.Scores)
    press(table, 3, 0)
    assert isinstance(table.view(), v.RevealPrompt) and table.current.state.to_reveal == 3


def test_undo_by_long_press_is_confirmed_and_logged(new_table):
    table = new_table()
    game = start_grasshopper(table)
    reveal(table, "corn", "strawberry")
    press(table, 2, 7, "hold")
    view = table.view()
    assert isinstance(view, v.ConfirmUndo) and words(view.what) == "revealed strawberry" and view.seat == 2
    press(table, 2, 7)  # X: no
    assert game.state.to_reveal == 1 and words(table.view().toast) == "Not undone"
    press(table, 2, 7, "hold")
    press(table, 1, 6)  # another seat's A: only the seat that asked answers
    assert game.state.to_reveal == 1 and words(table.view().toast) == "S2 answers (or wait)"
    press(table, 2, 6)  # A: yes
    assert game.state.to_reveal == 2 and words(table.view().toast) == "Undone"
    assert log_text(table).splitlines()[-1] == '{"undo": true}'
    state, _ = replay(log_text(table))
    assert state == game.state


def test_virtual_deck_deals_by_itself_and_undo_skips_its_reveals(new_table):
    table = new_table()
    game = start_grasshopper(table, deck_toggle=True)
    assert game.deck is not None and game.state.phase is BIDDING
    for seat, key in ((1, 5), (2, 4), (3, 3)):
        press(table, seat, key)
    assert any(isinstance(m, type(game.state.moves[0])) for m in game.state.moves)
    press(table, 1, 7, "hold")
    assert words(table.view().what).startswith("the bids")
    press(table, 1, 6)
    assert game.state.phase is BIDDING and len(game.state.moves) == 3
    state, _ = replay(log_text(table))
    assert state == game.state


def test_a_whole_game_with_random_keys_ends_with_winners_and_replays(new_table):
    table = new_table()
    start_grasshopper(table, pads=(1, 2, 3, 4))
    game = play_on(table, random.Random(3))
    view = table.view()
    while not isinstance(view, v.GameOver):
        press(table, 1, 0)
        view = table.view()
    assert view.winners == tuple(game.seats[w] for w in game.state.outcome.winners)
    state, _ = replay(log_text(table))
    assert state.to_json() == game.state.to_json() and state.phase == Phase.OVER
    press(table, 1, 6)  # A: new game
    assert isinstance(table.view(), v.Setup)


def test_an_unfinished_game_is_resumed_and_bids_in_progress_are_asked_again(new_table):
    table = new_table()
    game = start_grasshopper(table)
    reveal(table, "corn", "strawberry", "broccoli")
    press(table, 1, 3)  # a pending bid: never on disk
    table.close()
    again = new_table()
    view = again.view()
    assert isinstance(view, v.Resumed) and view.rebid
    assert again.current.state == game.state and again.current.pending == {}
    press(again, 1, 0)  # "Any key: go on": the key only goes on (tests/table/test_keys_and_screens.py)
    assert isinstance(again.view(), v.Bidding) and again.view().locked == ()
    press(again, 1, 0)  # the bidding screen asks for the bids
    assert again.view().locked == (1,)


def test_a_disk_that_refuses_the_sync_takes_the_whole_key_back(new_table):
    """Nothing shows a move that is not on disk: the move and the reveals it set off go back."""
    table = new_table()
    game = start_grasshopper(table, deck_toggle=True)  # virtual: reveals follow a take by themselves
    for seat, key in ((1, 6), (2, 4), (3, 3)):  # seat 1's Ace takes all: a refill of 3 follows
        press(table, seat, key)
    while game.notices:
        press(table, 1, 6)
    before_state, before_log = game.state.copy(), log_text(table)
    real_sync = game.journal.sync

    def refuse():
        raise OSError(28, "No space left on device")

    game.journal.sync = refuse
    for seat, key in ((1, 5), (2, 3), (3, 2)):  # 6 > 4 > 3: seat 1 will choose
        press(table, seat, key)
    assert words(table.view().toast) == "Cannot save! Move not taken"
    assert game.state == before_state and log_text(table) == before_log
    assert isinstance(table.view(), v.Bidding) and table.view().locked == ()
    game.journal.sync = real_sync
    for seat, key in ((1, 5), (2, 3), (3, 2)):
        press(table, seat, key)
    assert json.loads(log_text(table).splitlines()[-1]) == {"bids": ["6", "4", "3"]}
    state, _ = replay(log_text(table))
    assert state == game.state


def test_one_sync_per_key_even_when_the_assistant_reveals(new_table):
    table = new_table()
    game = start_grasshopper(table, deck_toggle=True)
    syncs = []
    real_sync = game.journal.sync
    game.journal.sync = lambda: (syncs.append(1), real_sync())
    for seat, key in ((1, 6), (2, 4), (3, 3)):  # the Ace takes all, 3 reveals follow
        press(table, seat, key)
    assert len(syncs) == 1
    assert [json.loads(line) for line in log_text(table).splitlines()[-4:]][0] == {"bids": ["A", "5", "4"]}


def test_reveal_prompt_says_why_cards_are_turned_up(new_table):
    table = new_table()
    start_grasshopper(table)
    assert table.view().reason == "start"
    reveal(table, "corn", "strawberry", "broccoli")
    for seat in (1, 2, 3):
        press(table, seat, 4)  # all 5s: a stalemate
    while table.current.notices:
        press(table, 1, 6)  # A: names no kind, so it only leaves the page
    assert table.view().reason == "stalemate" and table.view().to_reveal == 1
    reveal(table, "corn")
    for seat in (1, 2, 3):
        press(table, seat, 3)  # all 4s: the second stalemate renews the display
    while table.current.notices:
        press(table, 1, 6)  # A: names no kind, so it only leaves the page
    assert table.view().reason == "renew" and table.view().to_reveal == 3
    reveal(table, "corn", "corn", "corn")
    for seat, key in ((1, 5), (2, 2), (3, 7)):
        press(table, seat, key)
    while table.current.notices:
        press(table, 1, 6)  # A: names no kind, so it only leaves the page
    assert table.view().reason == "refill"
