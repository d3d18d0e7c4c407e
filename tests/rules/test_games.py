"""One registry of the games (pitable/rules/games.py): its facts are the rules' own, and the
config, the setup, the CLI and the log read it instead of writing them again."""

import re
from pathlib import Path

import pytest

from pitable.errors import IllegalMove, PitableError
from pitable.rules.games import GAMES, NAMES, game

ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.mark.parametrize("name", NAMES)
def test_the_seat_limits_are_the_rules_own(name):
    spec = game(name)
    spec.rules.State(spec.min_players), spec.rules.State(spec.max_players)
    for players in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(IllegalMove):
            spec.rules.State(players)
    assert not spec.seats_ok(spec.max_players + 1) and spec.seats_ok(spec.min_players)


def test_the_losing_count_is_c6():
    assert game("cockroach").losing_count(2) == 5 and game("cockroach").losing_count(6) == 4
    assert game("grasshopper").losing_count is None


def test_an_unknown_game_is_a_clear_error():
    with pytest.raises(PitableError, match=r"unknown game 'poker' \(games: grasshopper, cockroach\)"):
        game("poker")


def test_config_setup_cli_and_log_read_the_registry():
    from pitable import config
    from pitable.rules import log
    from pitable.table import setup

    assert config.GAMES == {n: (s.title, s.min_players, s.max_players) for n, s in GAMES.items()}
    assert setup.LIMITS == {n: (s.min_players, s.max_players) for n, s in GAMES.items()}
    assert setup.GAMES == log.GAMES == NAMES
    assert list(setup.OPTIONS) == ["beginner", "x_takes_cancelled_ace", "end_on_empty_pile"]


# Where a game's name is still compared, and why (each goes when its reason does).
KNOWN = {
    "pitable/table/app.py": "_start and _controller build each game's header and controller",
}


def test_no_game_is_told_apart_by_its_name_outside_the_registry():
    compare = re.compile(r"""[!=]=\s*["'](grasshopper|cockroach)["']|["'](grasshopper|cockroach)["']\s*[!=]=""")
    found = {}
    for path in (ROOT / "pitable").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        hits = [n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if compare.search(line)]
        if hits and rel != "pitable/rules/games.py":
            found[rel] = hits
    assert set(found) <= set(KNOWN), {k: v for k, v in found.items() if k not in KNOWN}
    assert len(found.get("pitable/table/app.py", ())) <= 2
