"""The games pitable knows, and what every part asks of a game, in one place (after
OpenSpiel's ``GameType`` and ``register_game``): config, setup, screens, the web edge and the
CLI look a game up here instead of testing its name. A third game is one more rules module
and one more entry in ``GAMES``, plus its table-side registration (``pitable.table.games``:
controller, set-up lines, the plain-text description, the simulation, the web's seat rows),
which this layer cannot see."""

from __future__ import annotations

from dataclasses import dataclass, fields
from types import ModuleType
from collections.abc import Callable
from typing import Any

from pitable.errors import PitableError
from pitable.rules import cockroach, grasshopper


@dataclass(frozen=True)
class GameSpec:
    name: str                 # in configs, logs' headers and the web's JSON
    title: str                # the English name (the screens say it from the catalogs)
    rules: ModuleType         # State, move_from_json, state_from_header, header
    min_players: int
    max_players: int
    options: tuple[str, ...]  # the rule options' names (Options fields; msg "opt.<name>")
    assistant: bool           # the Pi may take seats (it plays from the public state alone)
    virtual_deck: bool        # the Pi may deal the cards (none needed in hand)
    first_chosen: bool        # the first player is chosen at the table (C2)
    losers: bool              # the game ends with losers and everyone else wins (C6)
    # a new game's log header: (players, the header's options, extra keys) -> header; the
    # start state is then ``rules.state_from_header(header)``
    new_header: Callable[..., dict[str, Any]]
    losing_count: Callable[[int], int] | None = None  # C6: of one kind face up, by players
    modes: tuple[str, ...] = ()  # how much the table enters, the first the default (msg "value.<mode>")

    def seats_ok(self, players: int) -> bool:
        return self.min_players <= players <= self.max_players


def _grasshopper_header(players: int, options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return grasshopper.header(players, grasshopper.Options.from_dict(options), **extra)


def _cockroach_header(players: int, options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """Options as in the header: first (a seat from 1) and mode."""
    return cockroach.header(players, options.get("first", 1) - 1, mode=options.get("mode"), **extra)


GAMES = {
    grasshopper.GAME: GameSpec(
        grasshopper.GAME, "Grasshopper Poker", grasshopper, grasshopper.MIN_PLAYERS, grasshopper.MAX_PLAYERS,
        options=tuple(f.name for f in fields(grasshopper.Options)), assistant=True, virtual_deck=True,
        first_chosen=False, losers=False, new_header=_grasshopper_header),
    cockroach.GAME: GameSpec(
        cockroach.GAME, "Cockroach Poker", cockroach, cockroach.MIN_PLAYERS, cockroach.MAX_PLAYERS,
        options=(), assistant=False, virtual_deck=False, first_chosen=True, losers=True,
        new_header=_cockroach_header,
        losing_count=cockroach.loss_count, modes=cockroach.MODES),
}
NAMES = tuple(GAMES)
# a registered game's state, for annotations outside the rules (journal, table)
GameState = grasshopper.State | cockroach.State
# The assistant's levels, for every game it plays (GameSpec.assistant): the log's header,
# the config and the set-up screen offer these; pitable.sim.search plays each.
ASSISTANT_LEVELS = ("easy", "strong")


class UnknownGame(PitableError, KeyError):
    def __str__(self) -> str:
        return str(self.args[0])


def game(name: object) -> GameSpec:
    """The game called ``name``; an unknown one is an error that lists the games."""
    if isinstance(name, str) and name in GAMES:
        return GAMES[name]
    raise UnknownGame(f"unknown game {name!r} (games: {', '.join(NAMES)})")
