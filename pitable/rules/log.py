"""The game log: JSON Lines, a header then one input per line (see docs/log-format.md).

Pure: text in, values out. Reading and writing files is the caller's business
(``pitable.table.journal`` writes them durably, ``pitable.cli`` replays them).
"""

from __future__ import annotations

import json
from typing import NamedTuple

from pitable.errors import IllegalMove, LogError

UNDO = {"undo": True}


GAMES = ("grasshopper", "cockroach")


def game_module(name: str):
    """The rules module of a game (``pitable.rules.<name>``), imported on first use."""
    if name not in GAMES:
        raise LogError(f"unknown game {name!r} (games: {', '.join(GAMES)})")
    import importlib

    return importlib.import_module(f"pitable.rules.{name}")


class Log(NamedTuple):
    header: dict
    entries: list   # (line number, object) after the header
    warnings: list  # things skipped, said in words


def header_line(header: dict) -> str:
    return encode(header)


def encode(obj: dict) -> str:
    """One log line, newline included. Compact and key-ordered as given."""
    return json.dumps(obj, separators=(", ", ": ")) + "\n"


def read_log(text: str) -> Log:
    """Split a log into header and entries; LogError names the line of a bad one.

    A last line without its newline was cut short by a power cut while being
    written: it is skipped with a warning and the rest stands.
    """
    warnings = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        warnings.append(f"line {len(lines)}: ignored a last line cut short (no final newline)")
        lines.pop()
    entries = []
    for n, line in enumerate(lines, 1):
        if not line.strip():
            continue  # a blank line says nothing; tolerate it
        try:
            obj = json.loads(line)
        except ValueError as e:
            raise LogError(f"line {n}: not valid JSON ({e.msg})") from None
        if not isinstance(obj, dict):
            raise LogError(f"line {n}: expected a JSON object, got {type(obj).__name__}")
        entries.append((n, obj))
    if not entries:
        raise LogError("line 1: the log is empty (expected a header like "
                       '{"game": "grasshopper", "players": 3, "options": {}})')
    (n, header), *rest = entries
    if "game" not in header:
        raise LogError(f"line {n}: the first line must be a header with a \"game\" key")
    return Log(header, rest, warnings)


def new_state(header: dict, line: int = 1):
    """The starting state a header describes."""
    module = game_module(header.get("game"))
    try:
        return module.state_from_header(header)
    except IllegalMove as e:
        raise LogError(f"line {line}: {e}") from None


def replay(text: str):
    """Apply a whole log. Returns (state, log). LogError says which line is wrong and why."""
    log = read_log(text)
    module = game_module(log.header["game"])
    state = new_state(log.header)
    for n, obj in log.entries:
        try:
            if obj == UNDO:
                state.pop()
            else:
                state.push(module.move_from_json(obj))
        except IllegalMove as e:
            raise LogError(f"line {n}: {e}") from None
    return state, log
