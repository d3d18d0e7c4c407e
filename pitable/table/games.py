"""Each game's table side, registered once (after OpenSpiel's ``register_game``): how the
table starts it (its log header from the set-up's choice), which controller plays it, how
its real cards are set up, how ``pitable replay`` describes it, which module simulates it
and how the web pages lay out its seats. The rules' side is ``pitable.rules.games``
(limits, options, flags); this layer sits above it and may name controllers and screens.

The table, the CLI and the web look a game up here instead of testing its name. A third
game is its rules module and an entry in ``rules.games.GAMES``, its controller, and one
``TableGame`` below. The per-game modules load when the game is played, not before the
first frame (start-up is what people wait for when they plug the Pi in)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, NamedTuple

from pitable.i18n import Msg, msg
from pitable.rules.games import GAMES, GameSpec, UnknownGame
from pitable.screens.text import describe_cockroach, describe_grasshopper

log = logging.getLogger(__name__)


class SetUp(NamedTuple):
    """How the real cards are set up (``pitable.table.public.set_up``)."""
    title: Msg
    lines: tuple         # Msgs


@dataclass(frozen=True)
class TableGame:
    spec: GameSpec
    # (the set-up's choice, the pads that joined, the header's extra keys, rng=, assistant=
    # the config's defaults) -> the new game's log header
    new_header: Callable[..., dict[str, Any]]
    # (rules state, journal, header=, post=, worker=, **the table's timing and outputs) -> Controller
    controller: Callable[..., Any]
    # (the game's controller, its rules state) -> SetUp while the real cards are being set up, else None
    set_up: Callable[[Any, Any], SetUp | None]
    describe: Callable[[dict], str]  # the public state by seat (rules.log.by_seat) -> plain text
    simulation: str                  # the module of ``pitable simulate``: simulate, format_stats, BOT_NAMES
    board: str                       # the web pages' seat rows: "chips" (chips, garden) or "rows" (hand, face-up row)

    @property
    def name(self) -> str:
        return self.spec.name


# -- Grasshopper Poker ------------------------------------------------------------------------

def _grasshopper_header(choice: dict, seats: tuple, extra: dict, *, rng, assistant: dict) -> dict:
    pi = choice.get("assistant") or {}
    players = len(seats) + pi.get("seats", 0)
    if pi.get("seats"):
        from pitable.sim.search import DEFAULT_BUDGET

        # its seats come after the pads'; the seed makes its decisions again on resume
        extra["assistant"] = {"seats": list(range(len(seats) + 1, players + 1)),
                              "level": pi["level"],
                              "budget": assistant.get("budget") or DEFAULT_BUDGET,
                              "seed": rng.getrandbits(32)}
    return GAMES["grasshopper"].new_header(players, choice["options"], **extra)


def _grasshopper_controller(state, journal, *, header: dict, post, worker: str, **given):
    from pitable.rules.grasshopper import VirtualDeck
    from pitable.rules.log import seats_of
    from pitable.table.grasshopper import GrasshopperTable

    deck = VirtualDeck(header["seed"]) if header.get("deck") == "virtual" else None
    if deck is not None and not deck.matches(state):
        log.warning("the log's reveals do not follow its seed; asking for reveals instead")
        deck = None
    assistant = None
    seats = tuple(seats_of(header, state.players))  # the one numbering replay and the web use
    if header.get("assistant"):
        from pitable.table.assistant import Assistant

        assistant = Assistant.from_header(header["assistant"], post=post, worker=worker)
    return GrasshopperTable(state, seats, journal, deck, assistant=assistant, header=header, **given)


def _grasshopper_set_up(current, state) -> SetUp | None:
    """Until the first bids are revealed: the rulebook's preparation."""
    from pitable.rules.grasshopper import BIDDING, REVEAL

    if state.round != 1 or state.turn != 1 or state.phase not in (REVEAL, BIDDING):
        return None
    lines = [msg("gh.setup.cards"), msg("gh.setup.chips")]
    if current.header.get("deck") == "virtual":
        lines.append(msg("gh.setup.virtual"))
    else:
        lines += [msg("gh.setup.pile"), msg("gh.setup.display")]
    return SetUp(msg("gh.title.setup"), tuple(lines))


# -- Cockroach Poker --------------------------------------------------------------------------

def _cockroach_header(choice: dict, seats: tuple, extra: dict, *, rng, assistant: dict) -> dict:
    from pitable.rules.cockroach import FULL

    options = {"first": seats.index(choice["first"]) + 1, "mode": choice.get("mode", FULL)}
    return GAMES["cockroach"].new_header(len(seats), options, **extra)


def _cockroach_controller(state, journal, *, header: dict, post, worker: str, **given):
    from pitable.table.cockroach import CockroachTable
    from pitable.table.cockroach_quick import QuickCockroachTable

    table = QuickCockroachTable if state.mode == "quick" else CockroachTable  # the header's mode
    return table(state, tuple(header.get("pads") or range(1, state.players + 1)), journal, header=header, **given)


def _cockroach_set_up(current, state) -> SetUp | None:
    """Until the first offer (C1, C6: the glass's own deal lines)."""
    return SetUp(msg("cr.title.deal"), current.deal_lines()) if not state.moves else None


# -- the registry -----------------------------------------------------------------------------

TABLE_GAMES = {
    "grasshopper": TableGame(GAMES["grasshopper"], _grasshopper_header, _grasshopper_controller,
                             _grasshopper_set_up, describe_grasshopper, "pitable.sim.runs", "chips"),
    "cockroach": TableGame(GAMES["cockroach"], _cockroach_header, _cockroach_controller,
                           _cockroach_set_up, describe_cockroach, "pitable.sim.cockroach", "rows"),
}
assert set(TABLE_GAMES) == set(GAMES), "a game of rules.games without its table side here"


def table_game(name: object) -> TableGame:
    """The table side of the game called ``name``; an unknown one is rules.games's error."""
    if isinstance(name, str) and name in TABLE_GAMES:
        return TABLE_GAMES[name]
    raise UnknownGame(f"unknown game {name!r} (games: {', '.join(GAMES)})")
