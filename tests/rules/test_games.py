"""One registry of the games (pitable/rules/games.py): its facts are the rules' own, and the
config, the setup, the CLI and the log read it instead of writing them again."""

import ast
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


# -- no game told apart by its name outside the rules and the registrations ---------------------
# An AST walk (not a regex over the text): a game's name as a literal compared, used as a dict
# key, a subscript or a positional argument; a rules module's ``GAME`` in those places; or a
# specific game's rules module imported. A game's own files (named after it, or listed in
# OWN) may import their own game's rules; nothing else may.

RULES_MODULES = {f"pitable.rules.{name}": name for name in NAMES}
REGISTRATIONS = {"pitable/rules/games.py", "pitable/table/games.py"}
OWN = {  # files not named after their game, and why they are that game's alone
    "pitable/sim/search.py": "grasshopper",     # the assistant's strong Grasshopper Poker player
    "pitable/sim/runs.py": "grasshopper",       # Grasshopper Poker's simulation (table.games names it)
    "pitable/table/assistant.py": "grasshopper",  # the assistant plays Grasshopper Poker only
}
ELSEWHERE = {  # the same words meaning something else
    "pitable/screens/icons.py": "grasshopper and cockroach are card kinds there, drawn as pictures",
}


def _owner(rel: str):
    if rel in OWN:
        return OWN[rel]
    stem = rel.rsplit("/", 1)[-1].removesuffix(".py")
    return next((name for name in NAMES if stem == name or stem.startswith(name + "_")), None)


def _names_a_game(node) -> bool:
    if isinstance(node, ast.Constant):
        return node.value in NAMES
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return any(_names_a_game(e) for e in node.elts)
    return isinstance(node, ast.Attribute) and node.attr == "GAME"  # gh.GAME, cockroach.GAME


def _a_picture(call) -> bool:
    """icons.icon("grasshopper"), icons.mini("cockroach"): a picture's name (a card kind, or
    the game's picture in the evening's score), not a game told apart."""
    f = call.func
    return isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id == "icons"


def dispatch_in(source: str, rel: str) -> list:
    """(line, what) for each place in ``source`` that tells a game apart by its name."""
    owner = _owner(rel)
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare) and any(map(_names_a_game, [node.left, *node.comparators])):
            found.append((node.lineno, "compares a game's name"))
        elif isinstance(node, ast.Dict) and any(k is not None and _names_a_game(k) for k in node.keys):
            found.append((node.lineno, "a dict keyed by a game's name"))
        elif isinstance(node, ast.Subscript) and _names_a_game(node.slice):
            found.append((node.lineno, "looks a game up by a name written in"))
        elif isinstance(node, ast.Call) and any(map(_names_a_game, node.args)) and not _a_picture(node):
            found.append((node.lineno, "passes a game's name written in"))
        elif isinstance(node, ast.MatchValue) and _names_a_game(node.value):
            found.append((node.lineno, "matches a game's name"))
        elif isinstance(node, ast.Import):
            for alias in node.names:
                game_of = RULES_MODULES.get(alias.name)
                if game_of is not None and game_of != owner:
                    found.append((node.lineno, f"imports {alias.name}"))
        elif isinstance(node, ast.ImportFrom):
            modules = [node.module] if node.module in RULES_MODULES else []
            if node.module == "pitable.rules":
                modules = [f"pitable.rules.{a.name}" for a in node.names if f"pitable.rules.{a.name}" in RULES_MODULES]
            found += [(node.lineno, f"imports {m}") for m in modules if RULES_MODULES[m] != owner]
    return sorted(found)


@pytest.mark.parametrize("source, rel, what", [
    ('if header["game"] == "cockroach":\n    pass', "pitable/table/app.py", "compares a game's name"),
    ('ok = name in ("grasshopper", "cockroach")', "pitable/web/payload.py", "compares a game's name"),
    ('SET_UP = {gh.GAME: a, cr.GAME: b}', "pitable/table/public.py", "a dict keyed by a game's name"),
    ('DESCRIBE = {"grasshopper": f}', "pitable/screens/text.py", "a dict keyed by a game's name"),
    ('spec = GAMES["grasshopper"]', "pitable/table/setup.py", "looks a game up by a name written in"),
    ('spec = game("grasshopper")', "pitable/table/setup.py", "passes a game's name written in"),
    ('for g in zip(("grasshopper", "cockroach"), cols):\n    pass', "pitable/screens/grasshopper.py",
     "passes a game's name written in"),
    ('match g:\n    case "cockroach":\n        pass', "pitable/cli.py", "matches a game's name"),
    ('from pitable.rules import cockroach as cr', "pitable/table/app.py", "imports pitable.rules.cockroach"),
    ('from pitable.rules.grasshopper import Bids', "pitable/web/payload.py", "imports pitable.rules.grasshopper"),
    ('import pitable.rules.grasshopper', "pitable/screens/text.py", "imports pitable.rules.grasshopper"),
    ('from pitable.rules.cockroach import Pass', "pitable/table/grasshopper.py", "imports pitable.rules.cockroach"),
])
def test_the_dispatch_check_sees_each_way_of_telling_a_game_by_its_name(source, rel, what):
    assert [w for _, w in dispatch_in(source, rel)] == [what]


def test_the_dispatch_check_lets_a_game_import_its_own_rules_and_the_registry_be_read():
    assert dispatch_in("from pitable.rules.cockroach import Pass", "pitable/table/cockroach_quick.py") == []
    assert dispatch_in("from pitable.rules import grasshopper as gh", "pitable/sim/search.py") == []
    assert dispatch_in('pic = icons.mini("grasshopper")', "pitable/screens/cockroach.py") == []
    assert dispatch_in('spec = table_game(header["game"])\nif spec.losers: pass', "pitable/table/app.py") == []


def test_no_game_is_told_apart_by_its_name_outside_the_rules_and_the_registrations():
    found = {}
    for path in sorted((ROOT / "pitable").rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("pitable/rules/") or rel in REGISTRATIONS or rel in ELSEWHERE:
            continue
        hits = dispatch_in(path.read_text(encoding="utf-8"), rel)
        if hits:
            found[rel] = hits
    assert found == {}
