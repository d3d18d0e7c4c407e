"""What is in the log directory never stops the daemon, and the newest game is not
given up in silence.

A damaged newest log is resumed up to its last good line, the rest kept in a sibling
file; a log that cannot go on at this table is left as it is and the screen says so;
a log directory that cannot be written gives a game that says it is not saved.
"""

import errno
import json
import logging
import os
import subprocess

import pytest

from pitable.rules import cockroach as cr
from pitable.rules.grasshopper import Options, header
from pitable.rules.log import encode, replay
from pitable.i18n import msg
from pitable.screens import views as v
from pitable.table import notices
from pitable.table.journal import find_unfinished

from .conftest import press, start_grasshopper

HEAD = header(3, Options(), pads=[1, 2, 3], deck="physical", started="2026-11-29T20:00:00")
REVEALS = [{"reveal": "corn"}, {"reveal": "strawberry"}, {"reveal": "broccoli"}]


def write_log(folder, lines, name="grasshopper-20261129-200000.jsonl", raw=""):
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(encode(x) for x in lines) + raw)
    return path


def snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def runs(table):
    """The table takes keys and can start a game: what 'the daemon runs' means here."""
    while table.notices:
        press(table, 1, 0)
    if isinstance(table.view(), v.Setup):
        start_grasshopper(table)
    assert isinstance(table.view(), (v.RevealPrompt, v.Resumed, v.Message, v.Bidding)), table.view()


# -- 10.3: the newest log cannot be replayed ---------------------------------------------------

def test_a_junk_line_after_good_ones_resumes_up_to_it_and_keeps_the_rest(tmp_path, new_table, caplog):
    logs = tmp_path / "logs"
    path = write_log(logs, [HEAD] + REVEALS, raw='{"reveal": "corn"\n{"bids": ["1"]}\n')
    original = path.read_bytes()
    caplog.set_level(logging.INFO)
    table = new_table()
    assert table.view()._replace(keys=()) == notices.log_repaired(5)
    game = table.current
    assert [m.kind for m in game.state.moves] == ["corn", "strawberry", "broccoli"]
    aside = logs / (path.name + ".bad")
    assert path.read_bytes() + aside.read_bytes() == original  # nothing deleted
    assert any("line 5" in r.getMessage() and str(aside) in r.getMessage() for r in caplog.records)
    runs(table)
    for seat in (1, 2, 3):
        press(table, seat, 0)
    assert replay(path.read_text())[0] == game.state  # the log goes on from its good part


def test_a_second_damage_keeps_both_bad_tails(tmp_path, new_table):
    logs = tmp_path / "logs"
    path = write_log(logs, [HEAD], raw="junk\n")
    new_table().close()
    with open(path, "a") as f:
        f.write("more junk\n")
    new_table().close()
    assert (logs / (path.name + ".bad")).read_text() == "junk\n"
    assert (logs / (path.name + ".2.bad")).read_text() == "more junk\n"


@pytest.mark.parametrize("first", [
    "not json",
    '{"game": "grasshopper", "players": 9, "options": {}}',
    '{"game": "chess", "players": 2}',
    '{"players": 2}',
])
def test_a_bad_header_is_said_on_screen_and_in_the_journal_and_the_file_left_alone(tmp_path, new_table, caplog, first):
    logs = tmp_path / "logs"
    write_log(logs, [HEAD] + REVEALS, name="grasshopper-20261129-190000.jsonl")  # older, unfinished
    os.utime(logs / "grasshopper-20261129-190000.jsonl", (1, 1))
    write_log(logs, [], raw=first + "\n" + encode(REVEALS[0]))
    before = snapshot(logs)
    table = new_table()
    assert table.view()._replace(keys=()) == notices.not_resumed()
    assert any(r.levelno == logging.ERROR and "grasshopper-20261129-200000" in r.getMessage()
               and "line 1" in r.getMessage() for r in caplog.records)
    assert snapshot(logs) == before
    runs(table)


def test_two_unfinished_logs_with_the_same_mtime_the_later_started_is_resumed(tmp_path, new_table):
    logs = tmp_path / "logs"
    later = write_log(logs, [{**HEAD, "started": "2026-11-29T21:00:00"}, REVEALS[0]],
                      name="grasshopper-20261129-210000.jsonl")
    earlier = write_log(logs, [HEAD] + REVEALS, name="grasshopper-20261129-200000.jsonl")
    for p in (later, earlier):
        os.utime(p, ns=(10**18, 10**18))
    assert find_unfinished(logs).path == later
    assert len(new_table().current.state.moves) == 1


def test_two_games_in_one_second_the_second_is_newer(tmp_path):
    logs = tmp_path / "logs"
    first = write_log(logs, [HEAD], name="grasshopper-20261129-200000.jsonl")
    second = write_log(logs, [HEAD], name="grasshopper-20261129-200000-2.jsonl")
    for p in (first, second):
        os.utime(p, ns=(10**18, 10**18))
    assert find_unfinished(logs).path == second


# -- 10.4: one bad file never stops the daemon --------------------------------------------------

BAD_LOGS = {
    "nested 100000 deep": [HEAD, "[" * 100000 + "]" * 100000],
    "nested header": ["[" * 100000],
    "a 5000-digit number": [HEAD, '{"reveal": ' + "9" * 5000 + "}"],
    "a 5000-digit header": ['{"game": "grasshopper", "players": ' + "9" * 5000 + "}"],
    "pads a b": [{**HEAD, "pads": ["a", "b", "c"]}],
    "pads 3": [{**HEAD, "pads": 3}],
    "pads 1 1": [{**HEAD, "pads": [1, 1, 2]}],
    "pads 0 1": [{**HEAD, "pads": [0, 1, 2]}],
    "pads too few": [{**HEAD, "pads": [1, 2]}],
    "virtual without seed": [{**HEAD, "deck": "virtual"}],
    "virtual seed list": [{**HEAD, "deck": "virtual", "seed": [1]}],
    "virtual seed true": [{**HEAD, "deck": "virtual", "seed": True}],
    "deck odd": [{**HEAD, "deck": 5}],
    "started a number": [{**HEAD, "started": 5}],
    "players a string": [{**HEAD, "players": "3"}],
    "options a list": [{**HEAD, "options": [1]}],
    "game a list": [{**HEAD, "game": ["grasshopper"]}],
    "not utf-8": [],
}


@pytest.mark.parametrize("case", sorted(BAD_LOGS))
def test_one_bad_log_never_stops_the_table(tmp_path, new_table, caplog, case):
    logs = tmp_path / "logs"
    lines = [x if isinstance(x, str) else json.dumps(x) for x in BAD_LOGS[case]]
    logs.mkdir()
    path = logs / "grasshopper-20261129-200000.jsonl"
    path.write_bytes(("\n".join(lines) + "\n").encode() if lines else b'{"game": "\xff\xfe"}\n')
    before = path.read_bytes()
    table = new_table()
    problems = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert problems and all("\n" not in r.getMessage() and len(r.getMessage()) < 600 for r in problems)
    assert isinstance(table.view(), v.Message)  # said on screen
    kept = path.read_bytes() + b"".join(p.read_bytes() for p in logs.glob("*.bad"))
    assert kept == before
    runs(table)


def test_pads_beyond_this_table_are_not_resumed_and_said(tmp_path, new_table, caplog):
    logs = tmp_path / "logs"
    write_log(logs, [header(4, Options(), pads=[1, 2, 5, 6])])
    table = new_table(seats=4)
    assert table.view()._replace(keys=()) == notices.not_resumed(6)
    assert any("pad 6" in r.getMessage() for r in caplog.records)
    runs(table)


def test_a_log_of_the_other_game_is_resumed(tmp_path, new_table):
    logs = tmp_path / "logs"
    write_log(logs, [cr.header(3, 1, pads=[1, 2, 3], deck="physical")], name="cockroach-20261129-200000.jsonl")
    table = new_table(game="grasshopper")
    assert table.current.game == "cockroach" and isinstance(table.view(), v.Resumed)


def test_a_broken_symlink_and_a_directory_named_like_logs_are_skipped(tmp_path, new_table, caplog):
    logs = tmp_path / "logs"
    path = write_log(logs, [HEAD] + REVEALS)
    os.utime(path, (1, 1))
    (logs / "zz-20261130-000000.jsonl").symlink_to(logs / "gone")
    (logs / "dir.jsonl").mkdir()
    table = new_table()
    assert len(table.current.state.moves) == 3
    assert any("gone" in r.getMessage() or "zz-" in r.getMessage() for r in caplog.records)


def test_log_dir_naming_a_file_is_said_at_start_and_games_play_unsaved(tmp_path, new_table, caplog):
    (tmp_path / "logs").write_text("I am a file\n")
    table = new_table()
    assert table.view()._replace(keys=()) == notices.not_saving(errno.ENOTDIR)
    assert any("cannot write game logs" in r.getMessage() for r in caplog.records)
    press(table, 1, 0)
    start_grasshopper(table)
    assert table.view().title == msg("log.not_saved.title")
    assert (tmp_path / "logs").read_text() == "I am a file\n"
    assert any("cannot create a game log" in r.getMessage() for r in caplog.records)
    runs(table)


@pytest.fixture
def read_only(tmp_path):
    """A tmpfs remounted read-only after the test writes into it (root only)."""
    where = tmp_path / "ro"
    where.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(where)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here")

    def lock():
        assert subprocess.run(["mount", "-o", "remount,ro", str(where)], capture_output=True).returncode == 0
    try:
        yield where, lock
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def test_a_read_only_filesystem_resumes_unsaved_and_says_so(read_only, new_table, clock):
    from pitable.table.app import Table

    where, lock = read_only
    path = write_log(where / "logs", [HEAD] + REVEALS, raw="junk\n")
    before = path.read_bytes()
    lock()
    table = Table(seats=4, log_dir=where / "logs", clock=clock)
    assert table.view()._replace(keys=()) == notices.log_repaired(5)
    press(table, 1, 0)
    assert table.view().title == msg("log.not_saved.title")
    press(table, 1, 0)
    assert isinstance(table.view(), v.Resumed) and not table.current.journal.saving
    while table.current.notices:
        press(table, 1, 0)
    for seat in (1, 2, 3):
        press(table, seat, 0)
    assert len(table.current.state.moves) == 4 and path.read_bytes() == before


def test_a_read_only_filesystem_is_said_at_start_and_a_new_game_plays_unsaved(read_only, clock):
    from pitable.table.app import Table

    where, lock = read_only
    (where / "logs").mkdir()
    lock()
    table = Table(seats=4, log_dir=where / "logs", clock=clock)
    assert table.view()._replace(keys=()) == notices.not_saving(errno.EROFS)  # said at start
    press(table, 1, 0)
    start_grasshopper(table)
    assert table.view()._replace(keys=()) == notices.not_saving(errno.EROFS)  # and when the game starts
    press(table, 1, 0)
    assert isinstance(table.view(), v.RevealPrompt) and not table.current.journal.saving


@pytest.mark.parametrize("content", ["[" * 100000, "{" + '"language": ' + "9" * 5000 + "}", "\xff", "[]"])
def test_a_bad_table_settings_file_is_ignored(tmp_path, new_table, content):
    logs = tmp_path / "logs"
    logs.mkdir()
    (logs / "table.json").write_text(content, errors="surrogateescape")
    table = new_table()
    assert table.language == "en" and isinstance(table.view(), v.Setup)


def test_a_table_settings_fifo_is_not_read(tmp_path, new_table):
    logs = tmp_path / "logs"
    logs.mkdir()
    os.mkfifo(logs / "table.json")
    assert new_table().language == "en"  # would block forever if opened


def test_a_huge_file_named_like_a_log_is_not_read(tmp_path, new_table, monkeypatch, caplog):
    from pitable.table import journal

    monkeypatch.setattr(journal, "MAX_LOG_BYTES", 1000)
    logs = tmp_path / "logs"
    path = write_log(logs, [HEAD] + REVEALS * 30)
    before = path.read_bytes()
    table = new_table()
    assert table.view()._replace(keys=()) == notices.not_resumed() and path.read_bytes() == before
    assert any("too large" in r.getMessage() for r in caplog.records)


def test_the_tables_log_lines_name_the_module_that_wrote_them(tmp_path, new_table, caplog):
    """A line about the log directory is filed under the table's module (``--log-level`` and a
    journal filter can pick it), still under the "pitable" tree the daemon's handler reads."""
    (tmp_path / "logs").write_text("I am a file\n")
    new_table()
    names = {r.name for r in caplog.records if "cannot write game logs" in r.getMessage()}
    assert names == {"pitable.table.app"}
