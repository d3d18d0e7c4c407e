"""The game log: JSON Lines, a header then one input per line (see docs/log-format.md).

Pure: text in, values out. Reading and writing files is the caller's business
(``pitable.table.journal`` writes them durably, ``pitable.cli`` replays them).

Whatever the text, reading it either succeeds or raises LogError naming the line:
deep nesting, huge numbers and values of the wrong type included. The header is
checked in one place (``check_header``) for replay, resume and the command line.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any, NamedTuple

from pitable.errors import IllegalMove, LogError, OptionError
from pitable.rules.games import ASSISTANT_LEVELS, NAMES
from pitable.rules.games import GAMES as GAMES_BY_NAME

UNDO = {"undo": True}
ABANDONED = {"abandoned": True}   # the table dropped the game unfinished: its last line

GAMES = NAMES
DECKS = ("physical", "virtual")  # the cards in hand, or the Pi deals them (the config's deck:)
__all__ = ["ASSISTANT_LEVELS", "DECKS", "GAMES"]  # and the functions below; re-exported for the callers
MAX_BUDGET = 1_000_000                 # a log's bound (the config allows 1 to 5,000 playouts per bid)
MAX_MESSAGE = 160  # a log error is one line a person reads: values in it are clipped

JSON = dict[str, Any]  # one line's object
Entry = tuple[int, JSON]  # (line number, object)


def game_module(name: object, line: int = 1) -> ModuleType:
    """The rules module of a game (``pitable.rules.<name>``, from the registry)."""
    if not isinstance(name, str) or name not in GAMES:
        raise LogError(f"line {line}: unknown game {_show(name)} (games: {', '.join(GAMES)})")
    return GAMES_BY_NAME[name].rules


class Log(NamedTuple):
    header: JSON
    entries: list[Entry]  # after the header
    warnings: list[str]   # things skipped, said in words


def header_line(header: JSON) -> str:
    return encode(header)


def encode(obj: JSON) -> str:
    """One log line, newline included. Compact and key-ordered as given."""
    return json.dumps(obj, separators=(", ", ": ")) + "\n"


def _show(value: object) -> str:
    """A value from a log, said briefly (a 4000-digit number or a deep list stays short)."""
    import reprlib

    short = reprlib.Repr()
    short.maxlevel, short.maxstring, short.maxother, short.maxlong = 3, 40, 40, 40
    short.maxlist = short.maxdict = 6
    try:
        return short.repr(value)
    except (RecursionError, ValueError):
        return f"a {type(value).__name__}"


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[:MAX_MESSAGE - 3] + "..."


def parse_line(n: int, line: str) -> JSON:
    """One line -> its object; LogError says what is wrong, with the line number."""
    try:
        obj: object = json.loads(line)
    except RecursionError:
        raise LogError(f"line {n}: not valid JSON (nested too deeply)") from None
    except json.JSONDecodeError as e:
        raise LogError(_clip(f"line {n}: not valid JSON ({e.msg})")) from None
    except ValueError:  # Python refuses integers of more than 4300 digits
        raise LogError(f"line {n}: not valid JSON (a number with too many digits)") from None
    if not isinstance(obj, dict):
        raise LogError(f"line {n}: expected a JSON object, got {type(obj).__name__}")
    return obj


def _lines(text: str) -> tuple[list[tuple[int, str]], list[str]]:
    """(numbered lines, warnings): a last line without its newline is dropped with a warning."""
    warnings: list[str] = []
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    elif lines:
        warnings.append(f"line {len(lines)}: ignored a last line cut short (no final newline)")
        lines.pop()
    return [(n, line) for n, line in enumerate(lines, 1) if line.strip()], warnings


def read_log(text: str) -> Log:
    """Split a log into header and entries; LogError names the line of a bad one.

    A last line without its newline was cut short by a power cut while being
    written: it is skipped with a warning and the rest stands.
    """
    lines, warnings = _lines(text)  # a blank line says nothing; tolerated
    entries = [(n, parse_line(n, line)) for n, line in lines]
    if not entries:
        raise LogError("line 1: the log is empty (expected a header like "
                       '{"game": "grasshopper", "players": 3, "options": {}})')
    (n, header), *rest = entries
    if "game" not in header:
        raise LogError(f"line {n}: the first line must be a header with a \"game\" key")
    return Log(header, rest, warnings)


def check_header(header: JSON, line: int = 1) -> Any:
    """The one check of a header, for replay, resume and the command line: the game and
    its rules (players, options) and what the table adds (pads, deck, seed, started).
    Returns the starting state; LogError names the line and the key."""
    def bad(text: str) -> LogError:
        return LogError(_clip(f"line {line}: {text}"))

    module = game_module(header.get("game"), line)
    try:
        state = module.state_from_header(header)
    except (IllegalMove, OptionError) as e:
        raise bad(str(e)) from None
    except (TypeError, ValueError, KeyError, RecursionError):
        raise bad("header: players or options are not valid") from None
    players: int = state.players
    helper = _assistant_seats(header, players, bad)
    if "pads" in header:
        pads = header["pads"]
        if (not isinstance(pads, list) or not all(type(p) is int and p >= 1 for p in pads)
                or len(set(pads)) != len(pads)):
            raise bad(f"header: pads must list distinct pad numbers (1, 2, ...), not {_show(pads)}")
        if len(pads) + helper != players:
            raise bad(f"header: pads names {len(pads)} pads for {players - helper} players at pads")
    deck = header.get("deck", "physical")
    if deck not in DECKS:
        raise bad(f"header: deck must be physical or virtual, not {_show(deck)}")
    if deck == "virtual" and type(header.get("seed")) is not int:
        raise bad(f"header: a virtual deck needs a whole-number seed, not {_show(header.get('seed'))}")
    if "started" in header and not isinstance(header["started"], str):
        raise bad(f"header: started must be a time like 2026-11-29T20:00:00, not {_show(header['started'])}")
    return state


def _assistant_seats(header: JSON, players: int, bad: Callable[[str], LogError]) -> int:
    """How many players the assistant plays (``"assistant": {"seats": [...], "level",
    "budget", "seed"}``, Grasshopper Poker only); LogError (``bad``) if the block is wrong."""
    a = header.get("assistant")
    if not a:
        return 0
    if not isinstance(a, dict):
        raise bad(f"header: assistant must be an object, not {_show(a)}")
    if not (header.get("game") in GAMES_BY_NAME and GAMES_BY_NAME[header["game"]].assistant):
        raise bad("header: the assistant plays Grasshopper Poker only")
    seats = a.get("seats")
    if (not isinstance(seats, list) or not seats or not all(type(p) is int and 1 <= p <= players for p in seats)
            or len(set(seats)) != len(seats) or len(seats) >= players):
        raise bad(f"header: assistant seats must list some of the players 1 to {players}, not {_show(seats)}")
    if a.get("level") not in ASSISTANT_LEVELS:
        raise bad(f"header: assistant level must be {' or '.join(ASSISTANT_LEVELS)}, not {_show(a.get('level'))}")
    budget = a.get("budget")
    if type(budget) is not int or not 1 <= budget <= MAX_BUDGET:
        raise bad(f"header: assistant budget must be a whole number from 1 to {MAX_BUDGET}, not {_show(budget)}")
    if type(a.get("seed")) is not int:
        raise bad(f"header: assistant seed must be a whole number, not {_show(a.get('seed'))}")
    return len(seats)


def pads_of(header: JSON, players: int) -> list[int]:
    """The pad numbers of the players at pads, in player order (a checked header): its
    ``pads``, or pads 1, 2, ... for every player the assistant does not play."""
    a = header.get("assistant")
    helper = len(a["seats"]) if a else 0
    return list(header.get("pads") or range(1, players - helper + 1))


ASSISTANT_SEAT = 100  # the assistant's seats are 101, 102, ...: the one numbering (i18n and screens read it)
SEAT_FIELDS = ("chooser", "active", "first", "from", "to")      # one player number each
SEAT_LISTS = ("winners", "losers", "chain", "locked")           # lists of player numbers


def seats_of(header: JSON, players: int) -> list[int]:
    """The seat number of each player, in player order: the one numbering the table's
    screens, its pages and ``pitable replay`` use (a phone at seat 5 is seat 5, not
    player 3). Players at pads (or phones) have their pad's number, the assistant's
    players 101, 102, ..."""
    pads = pads_of(header, players)
    a = header.get("assistant")
    mine = sorted(a["seats"]) if a else []
    out: list[int] = []
    for p in range(1, players + 1):
        out.append(ASSISTANT_SEAT + 1 + mine.index(p) if p in mine else pads.pop(0))
    return out


def by_seat(data: JSON, seats: Iterable[int]) -> JSON:
    """A state's JSON (``to_json``: players 1..n) with every player number made a seat
    number, and each entry of ``seats`` naming its seat. The rules and the log count
    players; what people read counts seats."""
    numbers = list(seats)

    def seat(p: object) -> object:
        return numbers[p - 1] if isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= len(numbers) else p

    out = dict(data)
    for k in SEAT_FIELDS:
        if k in out:
            out[k] = seat(out[k])
    for k in SEAT_LISTS:
        if isinstance(out.get(k), list):
            out[k] = [seat(p) for p in out[k]]
    if isinstance(out.get("seats"), list):
        out["seats"] = [{"seat": seat(i), **s} for i, s in enumerate(out["seats"], 1)]
    return out


def new_state(header: JSON, line: int = 1) -> Any:
    """The starting state a header describes (LogError if the header is not valid)."""
    return check_header(header, line)


def _apply(module: ModuleType, state: Any, n: int, obj: JSON) -> None:
    """One line onto ``state``. A line the rules refuse, or one that is no input at all,
    is a LogError naming it. Any other error is the rules' own (a regression): it is
    raised as it is, not dressed up as a damaged log whose good tail would be set aside."""
    try:
        if obj == UNDO:
            state.pop()
        elif obj == ABANDONED:
            pass  # the game ends here unfinished; nothing may follow (checked by the callers)
        else:
            try:
                move = module.move_from_json(obj)
            except IllegalMove:
                raise  # its own words, below (IllegalMove is also a ValueError)
            except (TypeError, ValueError, KeyError, IndexError, AttributeError) as e:
                # reading a move checks its shape; this is the net under that check, for
                # what the text of a line can hold
                raise LogError(_clip(f"line {n}: not a valid input ({type(e).__name__}: {e})")) from None
            state.push(move)
    except IllegalMove as e:
        raise LogError(_clip(f"line {n}: {e}")) from None
    except RecursionError:
        raise LogError(f"line {n}: nested too deeply") from None


def replay(text: str) -> tuple[Any, Log]:
    """Apply a whole log. Returns (state, log). LogError says which line is wrong and why."""
    log = read_log(text)
    module = game_module(log.header["game"])
    state = check_header(log.header)
    last = None
    for n, obj in log.entries:
        if last == ABANDONED:
            raise LogError(f"line {n}: an input after the game was abandoned")
        _apply(module, state, n, obj)
        last = obj
    return state, log


def abandoned(log: Log) -> bool:
    """True when the table dropped this game unfinished (its last line says so)."""
    return bool(log.entries) and log.entries[-1][1] == ABANDONED


class GoodPart(NamedTuple):
    """What ``replay_good_part`` found: the state after the last good line, and the first
    bad line (its number and what is wrong) when there is one."""

    state: Any
    log: Log
    bad_line: int | None
    problem: str | None


def replay_good_part(text: str) -> GoodPart:
    """Apply a log up to its first bad line (to resume a damaged game). LogError only
    when the header itself is bad: then nothing of the game can be trusted."""
    lines, warnings = _lines(text)
    if not lines:
        raise LogError("line 1: the log is empty")
    n, first = lines[0]
    header = parse_line(n, first)
    if "game" not in header:
        raise LogError(f"line {n}: the first line must be a header with a \"game\" key")
    module = game_module(header["game"], n)
    state = check_header(header, n)
    entries: list[Entry] = []
    for n, line in lines[1:]:
        try:
            obj = parse_line(n, line)
            if entries and entries[-1][1] == ABANDONED:
                raise LogError(f"line {n}: an input after the game was abandoned")
            _apply(module, state, n, obj)
        except LogError as e:
            return GoodPart(state, Log(header, entries, warnings), n, str(e))
        entries.append((n, obj))
    return GoodPart(state, Log(header, entries, warnings), None, None)
