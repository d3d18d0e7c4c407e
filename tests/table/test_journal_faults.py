"""Disk faults: a full disk or a failing card never puts a refused line in the log.

The log must hold exactly what the table confirmed: a write, flush, fsync or
take-back that fails leaves the file as it was before the refused key, and a later
good write never carries a refused line to disk with it.
"""

import errno
import json
import os

import pytest

from pitable.rules.grasshopper import Options, header
from pitable.table.journal import Journal

from .conftest import fill

HEAD = header(2, Options())


def lines(path):
    return path.read_text().splitlines()


def commit(journal, obj):
    """What the table does for one key: mark, write, sync; take back if the disk refuses."""
    mark = journal.tell()
    try:
        journal.write(obj)
        journal.sync()
    except OSError:
        try:
            journal.truncate(mark)
        except OSError:
            pass
        return False
    return True


def test_a_line_refused_by_a_really_full_disk_never_reaches_the_log(small_disk):
    logs = small_disk / "logs"
    # A header that ends close to a page boundary: the next lines need a new page.
    journal = Journal.create(logs, {**HEAD, "note": "x" * (4096 - 160)})
    size = journal.path.stat().st_size
    while size < 4096 - 30:
        assert commit(journal, {"reveal": "corn"})
        size = journal.path.stat().st_size
    before = lines(journal.path)
    filler = fill(small_disk)
    refused = 0
    for _ in range(3):
        refused += not commit(journal, {"reveal": "strawberry"})
    assert refused >= 1, "the disk was not full"
    filler.unlink()
    assert commit(journal, {"reveal": "broccoli"})
    journal.close()
    after = lines(journal.path)
    kept = len(after) - len(before) - 1  # strawberries the disk took before it was full
    assert after[:len(before)] == before
    assert after[len(before):] == ['{"reveal": "strawberry"}'] * kept + ['{"reveal": "broccoli"}']
    assert kept == 3 - refused



@pytest.mark.parametrize("call,code", [("pwrite", errno.ENOSPC), ("pwrite", errno.EIO),
                                       ("fsync", errno.ENOSPC), ("fsync", errno.EIO)])
def test_a_refused_line_is_not_in_the_log_and_never_follows_a_later_one(tmp_path, faults, call, code):
    journal = Journal.create(tmp_path, HEAD)
    assert commit(journal, {"reveal": "corn"})
    faults.fail[call] = code
    assert not commit(journal, {"reveal": "strawberry"})
    faults.fail.clear()
    assert commit(journal, {"reveal": "broccoli"})
    assert lines(journal.path)[1:] == ['{"reveal": "corn"}', '{"reveal": "broccoli"}']
    assert journal.lines == 3


def test_a_short_write_then_a_full_disk_leaves_no_half_line(tmp_path, faults):
    journal = Journal.create(tmp_path, HEAD)
    faults.short = True
    faults.fail["pwrite"] = errno.ENOSPC
    assert not commit(journal, {"reveal": "strawberry"})
    assert journal.path.read_text() == lines(journal.path)[0] + "\n"
    faults.fail.clear()
    assert commit(journal, {"reveal": "corn"})
    assert lines(journal.path)[1:] == ['{"reveal": "corn"}']


@pytest.mark.parametrize("call", ["pwrite", "fsync"])
def test_when_even_the_take_back_fails_the_journal_refuses_until_it_can_cut(tmp_path, faults, call):
    """Never writes past garbage: the refused bytes are blanked in place (a last line
    without a newline, which replay ignores), and every write is refused until the cut works."""
    from pitable.rules.log import replay

    journal = Journal.create(tmp_path, HEAD)
    assert commit(journal, {"reveal": "corn"})
    faults.fail[call] = errno.EIO
    faults.fail["ftruncate"] = errno.EIO
    if call == "pwrite":
        faults.short = True  # half the line reached the file before the error
    assert not commit(journal, {"reveal": "strawberry"})
    faults.fail.pop(call)
    state, log = replay(journal.path.read_text())  # what is on disk replays to what was confirmed
    assert [m.kind for m in state.moves] == ["corn"]
    with pytest.raises(OSError):
        journal.write({"reveal": "broccoli"})  # the cut still fails: refused
    assert "broccoli" not in journal.path.read_text()
    faults.fail.clear()
    assert commit(journal, {"reveal": "broccoli"})  # the cut works again: the journal goes on
    assert lines(journal.path)[1:] == ['{"reveal": "corn"}', '{"reveal": "broccoli"}']
    assert journal.path.read_text().endswith("\n")


@pytest.mark.parametrize("call,code", [("pwrite", errno.ENOSPC), ("fsync", errno.EIO)])
def test_a_new_log_the_disk_refuses_raises_and_leaves_no_file(tmp_path, faults, call, code):
    faults.fail[call] = code
    with pytest.raises(OSError):
        Journal.create(tmp_path, HEAD)
    assert list(tmp_path.iterdir()) == []


def test_append_is_all_or_nothing(tmp_path, faults):
    journal = Journal.create(tmp_path, HEAD)
    faults.fail["fsync"] = errno.EIO
    with pytest.raises(OSError):
        journal.append({"undo": True})
    faults.fail.clear()
    assert lines(journal.path) == [lines(journal.path)[0]] and journal.lines == 1


class PowerCut(BaseException):
    """The process dies here: nothing after it runs, no handler sees it."""


@pytest.mark.parametrize("at", ["pwrite", "fsync"])
def test_a_power_cut_while_a_new_log_is_made_never_leaves_a_log_without_its_header(tmp_path, monkeypatch, at):
    # An empty *.jsonl (made, then the power went before its header was on disk) could
    # not be replayed: the next start said "not resumed" for a game nobody had started.
    def cut(*args, **kwargs):
        raise PowerCut()

    monkeypatch.setattr(os, at, cut)
    with pytest.raises(PowerCut):
        Journal.create(tmp_path, HEAD)
    monkeypatch.undo()
    assert list(tmp_path.glob("*.jsonl")) == []
    journal = Journal.create(tmp_path, HEAD)  # the next start makes its log as ever
    journal.close()
    (log,) = tmp_path.glob("*.jsonl")
    assert len(lines(log)) == 1 and log == journal.path


def test_two_new_logs_in_one_second_get_two_names(tmp_path):
    first = Journal.create(tmp_path, HEAD, now=0)
    second = Journal.create(tmp_path, HEAD, now=0)
    first.append({"reveal": "corn"})
    second.append({"reveal": "toad"})
    first.close()
    second.close()
    assert first.path != second.path
    assert json.loads(lines(first.path)[1]) == {"reveal": "corn"}
    assert json.loads(lines(second.path)[1]) == {"reveal": "toad"}
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([first.path.name, second.path.name])
