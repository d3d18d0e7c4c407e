"""The table on a full or failing disk: every write to the log (a move, an undo, the
assistant's reveals, a new game) takes one refusal path. A clear message, the state as
before the key, the log holding exactly what the table confirmed, the daemon running."""

import errno

import pytest

from pitable.rules.log import replay
from pitable.i18n import msg
from pitable.screens import views as v
from pitable.table import notices

from .conftest import press, start_grasshopper
from .test_cockroach_table import start as start_cockroach

DISK_ERRORS = [("pwrite", errno.ENOSPC), ("pwrite", errno.EIO), ("fsync", errno.ENOSPC), ("fsync", errno.EIO)]


def on_disk(game):
    return replay(game.journal.path.read_text())[0]


def reveal(table, kind):
    press(table, table.current.seats[0], ["grasshopper", "corn", "strawberry", "broccoli", "blackberry"].index(kind))


@pytest.mark.parametrize("call,code", DISK_ERRORS)
def test_a_reveal_refused_on_a_full_disk_never_reaches_the_log(new_table, faults, call, code):
    """A refused write loses nothing: corn refused, space freed, strawberry: the log has strawberry only."""
    table = new_table()
    game = start_grasshopper(table)
    faults.fail[call] = code
    reveal(table, "corn")
    assert table.view().toast == msg(notices.MOVE_NOT_SAVED) and game.state.moves == []
    faults.fail.clear()
    reveal(table, "strawberry")
    for kind in ("broccoli", "corn"):
        reveal(table, kind)
    for seat in (1, 2, 3):
        press(table, seat, seat)  # the last lock-in: still replays
    assert on_disk(game) == game.state
    assert [m.kind for m in game.state.moves[:3]] == ["strawberry", "broccoli", "corn"]


def test_when_the_take_back_fails_too_nothing_is_written_past_it(new_table, faults):
    table = new_table()
    game = start_grasshopper(table)
    reveal(table, "corn")
    faults.short = True
    faults.fail["pwrite"] = errno.EIO
    faults.fail["ftruncate"] = errno.EIO
    reveal(table, "strawberry")
    faults.fail.pop("pwrite")
    reveal(table, "broccoli")  # the cut still fails: refused too
    assert table.view().toast == msg(notices.MOVE_NOT_SAVED)
    assert on_disk(game) == game.state and len(game.state.moves) == 1
    faults.fail.clear()
    reveal(table, "broccoli")
    assert on_disk(game) == game.state and len(game.state.moves) == 2


@pytest.mark.parametrize("call,code", DISK_ERRORS)
def test_grasshopper_undo_on_a_failing_disk_is_refused_and_changes_nothing(new_table, faults, call, code):
    table = new_table()
    game = start_grasshopper(table)
    reveal(table, "corn")
    reveal(table, "strawberry")
    before, text = game.state.copy(), game.journal.path.read_text()
    press(table, 1, 7, "hold")  # hold X: undo?
    faults.fail[call] = code
    press(table, 1, 6)  # A: yes
    assert table.view().toast == msg(notices.UNDO_NOT_SAVED)
    assert game.state == before and game.journal.path.read_text() == text
    faults.fail.clear()
    press(table, 1, 7, "hold")
    press(table, 1, 6)
    assert table.view().toast == msg("toast.undone") and len(game.state.moves) == 1 and on_disk(game) == game.state


@pytest.mark.parametrize("call,code", DISK_ERRORS)
def test_cockroach_undo_on_a_failing_disk_is_refused_and_changes_nothing(new_table, faults, call, code):
    table = new_table()
    game = start_cockroach(table)
    press(table, 1, 2)  # to seat 3
    press(table, 1, 4)  # claim: scorpion
    before, text = game.state.copy(), game.journal.path.read_text()
    press(table, 1, 7, "hold")
    faults.fail[call] = code
    press(table, 1, 6)
    assert table.view().toast == msg(notices.UNDO_NOT_SAVED)
    assert game.state == before and game.journal.path.read_text() == text
    faults.fail.clear()
    press(table, 1, 7, "hold")
    press(table, 1, 6)
    assert table.view().toast == msg("toast.undone") and game.state.moves == [] and on_disk(game) == game.state


def test_undo_of_a_choice_with_virtual_reveals_after_it_is_all_or_nothing(new_table, faults):
    table = new_table()
    game = start_grasshopper(table, deck_toggle=True)
    for seat, key in ((1, 6), (2, 4), (3, 3)):  # the Ace takes all, the assistant reveals 3
        press(table, seat, key)
    while game.notices:
        press(table, 1, 0)
    before, text = game.state.copy(), game.journal.path.read_text()
    press(table, 1, 7, "hold")
    faults.fail["fsync"] = errno.EIO
    press(table, 1, 6)
    assert game.state == before and game.journal.path.read_text() == text
    faults.fail.clear()
    press(table, 1, 7, "hold")
    press(table, 1, 6)
    assert on_disk(game) == game.state and game.state.phase == "bidding" and game.state.turn == 1


@pytest.mark.parametrize("call,code", DISK_ERRORS)
def test_a_new_game_the_disk_refuses_stays_in_setup_then_plays_unsaved_if_asked(new_table, faults, call, code):
    table = new_table()
    faults.fail[call] = code
    setup = table.current
    start_grasshopper(table)
    assert table.current is setup and table.view().toast == msg(notices.GAME_NOT_STARTED)
    assert table.view().step == "options"
    assert [p for p in (table.log_dir).iterdir()] == []
    press(table, 1, 6)  # A again: play, unsaved
    assert table.view()._replace(keys=()) == notices.not_saving(code)
    press(table, 1, 0)  # read
    assert isinstance(table.view(), v.RevealPrompt) and not table.current.journal.saving
    reveal(table, "corn")
    assert len(table.current.state.moves) == 1


def test_a_new_game_goes_on_saved_when_the_disk_is_back(new_table, faults):
    table = new_table()
    faults.fail["pwrite"] = errno.ENOSPC
    start_grasshopper(table)
    faults.fail.clear()
    press(table, 1, 6)  # A again: the disk has room now
    assert table.current.journal.saving and isinstance(table.view(), v.RevealPrompt)


def test_resumed_virtual_reveals_refused_by_the_disk_are_tried_again(new_table, faults):
    table = new_table()
    game = start_grasshopper(table, deck_toggle=True)
    path = game.journal.path
    text = path.read_text()
    table.close()
    path.write_text(text.splitlines()[0] + "\n")  # the header only: 3 reveals are due
    faults.fail["fsync"] = errno.EIO
    again = new_table()
    assert again.current.state.moves == [] and path.read_text() == text.splitlines()[0] + "\n"
    faults.fail.clear()
    while again.current.notices:
        press(again, 1, 0)
    press(again, 1, 0)  # any key: the reveals again
    assert len(again.current.state.moves) == 3 and on_disk(again.current) == again.current.state


def test_a_really_full_disk_refuses_moves_and_undos_and_the_log_matches_the_table(small_disk, clock):
    """A full disk loses nothing, on a real 64 KiB tmpfs: a new game, moves and undos on a full disk."""
    import random

    from pitable.table.app import Table

    from .conftest import fill

    filler = fill(small_disk)
    table = Table(seats=4, log_dir=small_disk / "logs", clock=clock, rng=random.Random(1))
    setup = start_grasshopper(table)
    assert table.current is setup and table.view().toast == msg(notices.GAME_NOT_STARTED)  # no room for a log
    filler.unlink()
    press(table, 1, 6)  # A again: there is room now
    game = table.current
    assert game.journal.saving
    filler = fill(small_disk)
    refusals = 0
    for _ in range(400):  # reveal and undo until the log needs a page the disk does not have
        reveal(table, "corn")
        refusals += table.view().toast == msg(notices.MOVE_NOT_SAVED)
        press(table, 1, 7, "hold")
        press(table, 1, 6)
        refusals += table.view().toast == msg(notices.UNDO_NOT_SAVED)
        assert on_disk(game) == game.state
        if refusals >= 2:
            break
    assert refusals >= 2, "the disk never filled"
    filler.unlink()
    before = len(game.state.moves)  # 0 or 1 (a corn whose undo was refused)
    kinds = ["strawberry", "broccoli", "blackberry"][: 3 - before]
    for kind in kinds:
        reveal(table, kind)
    assert on_disk(game) == game.state and game.state.phase == "bidding"
    assert [m.kind for m in game.state.moves[before:]] == kinds


def test_a_key_before_the_last_one_is_durable_waits_for_it_and_a_refusal_is_not_lost(new_table, faults):
    """Driven without the loop (no ``durable`` between keys): a failed sync is still taken back."""
    from pitable.hardware.keys import KeyEvent

    table = new_table()
    game = start_grasshopper(table)
    faults.fail["fsync"] = errno.EIO
    table.on_key(KeyEvent(0, 1, "press"))  # corn: its sync fails on the worker thread
    faults.fail.clear()
    table.on_key(KeyEvent(0, 2, "press"))  # settles the corn first: taken back, this key dropped
    assert table.view().toast == msg(notices.MOVE_NOT_SAVED) and game.state.moves == []
    table.on_key(KeyEvent(0, 2, "press"))
    table.durable()
    assert [m.kind for m in game.state.moves] == ["strawberry"] and on_disk(game) == game.state


@pytest.mark.parametrize("seed", range(6))
def test_random_games_on_a_flaky_disk_keep_log_and_table_equal_after_every_key(new_table, faults, seed):
    """Any write, sync or cut may fail at any key (moves, undos, the assistant's reveals):
    after every key what is on disk replays to exactly the state the table shows."""
    import random

    from pitable.hardware.keys import KeyEvent

    rng = random.Random(seed)
    table = new_table()
    game = start_grasshopper(table, deck_toggle=seed % 2 == 1) if seed < 4 else start_cockroach(table)
    for _ in range(400):
        faults.fail = {call: rng.choice([errno.ENOSPC, errno.EIO]) for call in ("pwrite", "fsync", "ftruncate")
                       if rng.random() < 0.15}
        faults.short = rng.random() < 0.1
        action = "hold" if rng.random() < 0.1 else "press"
        table.on_key(KeyEvent(rng.randrange(3), rng.choice([0, 1, 2, 3, 4, 5, 6, 6, 7]), action))
        table.durable()
        faults.fail, faults.short = {}, False
        if table.current is not game:
            break
        assert on_disk(game) == game.state
