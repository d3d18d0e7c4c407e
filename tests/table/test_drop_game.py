"""Dropping an unfinished game from the pads: hold 6, a screen that says what is lost, A.
The log's last line says the game was abandoned; replay accepts it, the table does not
resume it, and the evening's score does not count it."""

from __future__ import annotations

import json

import pytest

from pitable.i18n import catalog
from pitable.rules.log import LogError, replay
from pitable.screens import views as v
from pitable.harness import ManualClock, SimTable
from pitable.table.setup import Setup


def make(tmp_path, **kw):
    return SimTable(tmp_path / "logs", seats=3, clock=ManualClock(), **kw)


def start(sim):
    sim.tap(1, 0)
    for pad in (1, 2, 3):
        sim.tap(pad, 0)
    sim.tap(1, 6)
    sim.tap(1, 6)
    for kind in (1, 2, 3):
        sim.tap(1, kind)
    for seat, card in ((1, 2), (2, 3), (3, 1)):
        sim.tap(seat, card)


def log_text(tmp_path):
    (path,) = (tmp_path / "logs").glob("*.jsonl")
    return path.read_text()


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_hold_6_then_a_drops_the_game_and_the_log_says_abandoned(tmp_path, lang):
    sim = make(tmp_path, language=lang)
    try:
        start(sim)
        sim._wait(3.1)                       # the bids have been read
        moves = len(sim.game.state.moves)
        sim.long_press(2, 5)
        ask = sim.view()
        assert isinstance(ask, v.ConfirmUndo) and ask.title.id == "drop.title" and ask.seat == 2
        words = catalog(lang).words
        assert words(ask.what).startswith(words(ask.what).split(":")[0]) and "1" in words(ask.what)
        sim.tap(2, 3)                        # any key but A: the game goes on
        assert len(sim.game.state.moves) == moves and not sim.game.finished
        sim.long_press(2, 5)
        sim.tap(2, 6)                        # A: dropped
        assert isinstance(sim.table.current, Setup)
        text = log_text(tmp_path)
        assert json.loads(text.splitlines()[-1]) == {"abandoned": True}
        state, _ = replay(text)              # replay accepts it
        assert not state.is_over() and len(state.moves) == moves
        assert sim.table.sitting.count() == 0
    finally:
        sim.close()
    again = make(tmp_path, language=lang)
    try:
        assert isinstance(again.table.current, Setup)  # never resumed
    finally:
        again.close()


def test_replay_refuses_an_input_after_abandoned(tmp_path):
    sim = make(tmp_path)
    try:
        start(sim)
        sim._wait(3.1)
        sim.long_press(1, 5)
        sim.tap(1, 6)
    finally:
        sim.close()
    text = log_text(tmp_path) + json.dumps({"choose": "corn"}) + "\n"
    with pytest.raises(LogError, match="abandoned"):
        replay(text)
