"""The durable log: synced lines, torn lines cut before appending, resume."""

import os

from pitable.rules.grasshopper import Options, header
from pitable.table.journal import Journal, find_unfinished


def test_each_line_is_synced_before_append_returns(tmp_path, monkeypatch):
    synced = []
    real = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real(fd)))
    journal = Journal.create(tmp_path, header(2, Options()))
    before = len(synced)
    journal.append({"reveal": "corn"})
    assert len(synced) == before + 1
    assert journal.path.read_text().splitlines()[-1] == '{"reveal": "corn"}'


def test_reopen_cuts_a_torn_last_line_before_appending(tmp_path):
    journal = Journal.create(tmp_path, header(2, Options()))
    journal.append({"reveal": "corn"})
    journal.close()
    with open(journal.path, "a") as f:
        f.write('{"reveal": "stra')  # power cut mid-write
    again = Journal.reopen(journal.path)
    again.append({"reveal": "broccoli"})
    lines = journal.path.read_text().splitlines()
    assert lines[1:] == ['{"reveal": "corn"}', '{"reveal": "broccoli"}']


def test_find_unfinished_returns_the_newest_open_game(tmp_path):
    assert find_unfinished(tmp_path / "none") is None
    journal = Journal.create(tmp_path, header(2, Options()))
    journal.append({"reveal": "corn"})
    found = find_unfinished(tmp_path)
    assert found.path == journal.path and found.state.to_reveal == 2 and found.log.header["players"] == 2
    assert found.problem is None


def test_two_games_in_one_second_get_two_files(tmp_path):
    a = Journal.create(tmp_path, header(2, Options()), now=0)
    b = Journal.create(tmp_path, header(2, Options()), now=0)
    assert a.path != b.path and a.path.exists() and b.path.exists()


def test_a_cut_after_close_is_an_oserror_like_a_write(tmp_path):
    """A take-back that reaches a closed log (the daemon shutting down under a disk fault)
    is the same OSError a write gets there, which the table handles, not a TypeError."""
    import errno

    import pytest

    j = Journal.create(tmp_path, header(3, Options()))
    mark = j.tell()
    j.append({"bids": [1, 2, 3]})
    j.close()
    with pytest.raises(OSError) as cut:
        j.truncate(mark)
    assert cut.value.errno == errno.EBADF
    with pytest.raises(OSError) as write:
        j.write({"bids": [1, 2, 3]})
    assert write.value.errno == errno.EBADF
