"""The loop's side of the web: a fault handing the pages their update is logged (once an
outage), and the table goes on."""

from __future__ import annotations

import logging

from PIL import Image

from pitable.table.app import Table
from pitable.web.access import Phones
from pitable.web.publish import Publisher


def test_a_failing_wake_is_logged_once_an_outage_and_the_table_goes_on(tmp_path, caplog):
    table = Table(seats=3, log_dir=tmp_path / "logs", resume=False, clock=lambda: 1000.0)
    answers = [RuntimeError("the web thread is gone"), RuntimeError("still gone"), None,
               RuntimeError("gone again")]
    woken = []

    def wake(snapshot):
        woken.append(snapshot)
        error = answers[len(woken) - 1]
        if error is not None:
            raise error

    publish = Publisher(table, Phones(clock=lambda: 1000.0), wake)
    caplog.set_level(logging.ERROR, logger="pitable")
    frames = [Image.new("1", (128, 64)) for _ in answers]  # kept: each a new frame, so each call wakes the pages
    for frame in frames:
        publish(table.view(), frame)
    assert len(woken) == 4
    failed = [r for r in caplog.records if r.name == "pitable.web.publish"]
    assert [r.exc_info[1].args[0] for r in failed] == ["the web thread is gone", "gone again"]
