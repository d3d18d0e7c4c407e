"""The layering docs/architecture.md promises, checked on the source: which package of
pitable/ may import which (module-level and function-level imports alike), and no cycle.

Each package may import its own layer and those below it, never one above. Known exceptions
are listed with their reason; each must still exist (a fixed one is taken off the list), and
without them the import graph has no cycle."""

from __future__ import annotations

import ast
import functools
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pitable"

# Lowest first. ``errors`` (and the package's own __init__) is under everything.
LAYERS = ["errors", "keys", "rules", "sim", "i18n", "screens", "hardware", "config", "host", "table", "web",
          "service", "daemon", "cli"]
# Modules whose layer is not their package's.
PLACED = {
    # sd_notify and the watchdog: the host's service manager, imports nothing of pitable
    "pitable.service.systemd": "host",
    "pitable.__main__": "cli",
    # the wiring test and the table on mock pins: each a composition like the daemon's
    "pitable.pads_test": "daemon",
    "pitable.harness": "daemon",
}
# Edges that go up, each with why it is there and what removes it (none now: the daemon's
# composition, which wires the table to the web server, is pitable/daemon.py, above both).
KNOWN: dict = {}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def layer(module: str) -> str:
    if module in PLACED:
        return PLACED[module]
    parts = module.split(".")
    if len(parts) == 1:
        return "errors"  # pitable/__init__.py: the version only
    return parts[1]


@functools.cache
def imports(path: Path) -> tuple:
    """(imported module, line) for every import in the file, relative ones resolved."""
    return tuple(_imports(path))


def _imports(path: Path):
    me = module_name(path).split(".")
    here = me if path.name == "__init__.py" else me[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[:len(here) - node.level + 1]
                if node.module:
                    yield ".".join(base + [node.module]), node.lineno
                else:
                    for alias in node.names:
                        yield ".".join(base + [alias.name]), node.lineno
            else:
                for alias in node.names:  # ``from pitable.service import systemd``: the module
                    sub = f"{node.module}.{alias.name}"
                    yield (sub if sub in MODULES else node.module), node.lineno


MODULES = {module_name(p) for p in PACKAGE.rglob("*.py")}


def graph():
    edges = defaultdict(list)  # (from layer, to layer) -> ["file:line imports module"]
    for path in sorted(PACKAGE.rglob("*.py")):
        src = module_name(path)
        for target, line in imports(path):
            if target.split(".")[0] != "pitable":
                continue
            a, b = layer(src), layer(target)
            if a != b:
                edges[(a, b)].append(f"{path.relative_to(ROOT)}:{line} imports {target}")
    return edges


def test_every_package_is_in_a_layer():
    packages = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    modules = {p.stem for p in PACKAGE.glob("*.py") if p.stem not in ("__init__", "__main__")
               and f"pitable.{p.stem}" not in PLACED}
    assert packages | modules <= set(LAYERS), (packages | modules) - set(LAYERS)


def test_no_package_imports_one_above_it():
    rank = {name: i for i, name in enumerate(LAYERS)}
    up = {edge: where for edge, where in graph().items() if rank[edge[1]] > rank[edge[0]]}
    unexplained = {edge: where for edge, where in up.items() if edge not in KNOWN}
    assert not unexplained, unexplained
    assert set(KNOWN) <= set(up), f"fixed, take off KNOWN: {set(KNOWN) - set(up)}"


def test_no_cycle_between_packages_beside_the_known_exceptions():
    edges = defaultdict(set)
    for a, b in graph():
        if (a, b) not in KNOWN:
            edges[a].add(b)
    state: dict = {}

    def visit(node, path):
        state[node] = "open"
        for nxt in edges[node]:
            if state.get(nxt) == "open":
                raise AssertionError(f"import cycle: {' -> '.join(path + [node, nxt])}")
            if nxt not in state:
                visit(nxt, path + [node])
        state[node] = "done"

    for node in list(edges):
        if node not in state:
            visit(node, [])


# Module pairs that import each other, each with why and what ends it.
KNOWN_MODULE_CYCLES: dict = {}  # none (save_picture, which draws the build pictures too, is wiring_build's)


def test_no_module_imports_one_that_imports_it_back():
    mods = {}
    for path in PACKAGE.rglob("*.py"):
        name = module_name(path)
        mods[name] = {t for t, _ in imports(path) if t.startswith("pitable")}
    cycles = sorted((a, b) for a, targets in mods.items() for b in targets
                    if a < b and a in mods.get(b, ()))
    assert set(cycles) == set(KNOWN_MODULE_CYCLES), "a new cycle, or a known one fixed: update the list"


def test_only_the_cli_reaches_the_repository_only_league():
    users = sorted(module_name(p) for p in PACKAGE.rglob("*.py")
                   if any(t.split(".")[0] == "league" for t, _ in imports(p)))
    assert users == ["pitable.cli"]  # `pitable league`, which says so when league/ is not there


# What the web edge may take from the rules: the registry's facts and the log's relabelling
# of a state's JSON by seat (pure, on the loop thread). No State, no push: the table's views
# and pitable.table.public say what every output says (the story, the deal, the keys, C6).
WEB_MAY_USE_OF_RULES = {("pitable.rules.games", "GAMES"), ("pitable.rules.games", "game"),
                        ("pitable.rules.log", "by_seat")}


def test_the_web_edge_runs_no_rules():
    used, pushes = set(), []
    for path in sorted((PACKAGE / "web").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("pitable.rules"):
                used |= {(node.module, alias.name) for alias in node.names}
            elif isinstance(node, ast.Import):
                used |= {(alias.name, "*") for alias in node.names if alias.name.startswith("pitable.rules")}
            elif isinstance(node, ast.Attribute) and node.attr in ("push", "new_state", "State"):
                pushes.append(f"{path.relative_to(ROOT)}:{node.lineno} .{node.attr}")
    assert used <= WEB_MAY_USE_OF_RULES, used - WEB_MAY_USE_OF_RULES
    assert not pushes, pushes


def test_the_web_edge_takes_of_the_table_only_what_it_publishes():
    """pitable/web reads the table's outputs (pitable.table.public), never its controllers'
    helpers (notices, counted, cards_list: what the web used to work out again)."""
    found = sorted({t for p in (PACKAGE / "web").rglob("*.py") for t, _ in imports(p)
                    if t.startswith("pitable.table")})
    assert found == ["pitable.table.public"], found
