"""No press only turns a page (docs/pace.md): whole seeded games through the real table
(pins, loop, controllers, journal; benchmarks/pace.py's player) where what a turn asks of
the real cards is on the next screen that takes a key, or on one page before it where it
does not fit there. Counts, not times: a table that put a turn's lines on "Any key: next"
pages a section (2-3 presses a turn) fails here."""

from __future__ import annotations

import importlib.util
import statistics
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _pace():
    spec = importlib.util.spec_from_file_location("pace", ROOT / "benchmarks" / "pace.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("players, deck, pi", [(3, "physical", False), (4, "physical", False),
                                               (3, "virtual", False), (4, "virtual", False),
                                               (2, "physical", True), (2, "virtual", True)])
def test_a_turn_needs_no_page_press(tmp_path, players, deck, pi):
    got = _pace().play(players, deck, pi, 0, tmp_path)
    pages = [t[1] for t in got["turns"]]
    assert len(pages) > 15  # a whole game
    assert statistics.median(pages) == 0
    # p90 at most one page press a turn: what does not fit a key screen is one page, not a
    # page a section
    assert sorted(pages)[int(0.9 * (len(pages) - 1))] <= 1, pages
