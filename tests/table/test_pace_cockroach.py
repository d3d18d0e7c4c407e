"""Cockroach Poker's pace (benchmarks/pace.py's player): in quick mode a round is one press,
the taker's, and no press only turns a page; the full mode's chain is several presses a
card. Whole seeded games through the real table on simulated pads."""

from __future__ import annotations

import statistics

import pytest

from tests.table.test_pace import _pace


@pytest.mark.parametrize("players", range(2, 7))
def test_quick_mode_is_one_press_a_round_and_no_page_press(tmp_path, players):
    got = _pace().play_cockroach(players, "quick", players, tmp_path)
    needed = [t[0] for t in got["turns"]]
    pages = [t[1] for t in got["turns"]]
    assert len(needed) > 5                          # a whole game: it ended as the rules say
    assert set(needed) == {1} and set(pages) == {0}


def test_the_full_mode_asks_several_presses_a_card(tmp_path):
    got = _pace().play_cockroach(4, "full", 1, tmp_path)
    assert statistics.median(t[0] for t in got["turns"]) >= 4   # seat, claim, call, the card at least
