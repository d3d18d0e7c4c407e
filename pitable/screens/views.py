"""What a screen shows, as plain values: the contract between controllers and drawings.

Controllers (``pitable.table``) decide *what* to show and build one of these;
``pitable.screens.render`` draws it on a 128x64 one-bit image. Seats here are the
numbers printed on the pads (1-based), kinds and cards are the rules' names.

Secrecy: no view built before the reveal carries a bid. ``Bidding`` knows only who
has locked in.
"""

from __future__ import annotations

from typing import NamedTuple


class Toast(NamedTuple):
    """A short message over the screen (a refused key, a confirmation)."""

    text: str


class Setup(NamedTuple):
    """Choosing the game, who plays and the options, with the pads."""

    step: str            # "game" | "join" | "options"
    game: str            # "grasshopper" | "cockroach"
    joined: tuple        # seat numbers that have joined
    seats: int           # pads wired
    options: tuple       # (label, value text) per option line, keys 1.. in order
    can_start: bool
    toast: str | None = None


class Resumed(NamedTuple):
    game: str
    round: int
    turn: int
    rebid: bool          # bids of the unfinished turn were lost: everyone bids again
    toast: str | None = None


class RevealPrompt(NamedTuple):
    """Physical deck: the table turns up a card and tells which kind (keys 1..5)."""

    to_reveal: int       # cards still to turn up now
    reason: str          # "start" | "refill" | "stalemate" | "renew" | "round"
    display: dict        # kind -> count, what is already face up
    pile: int
    toast: str | None = None


class Bidding(NamedTuple):
    round: int
    turn: int
    display: dict        # kind -> count
    seats: tuple         # seat numbers playing
    locked: tuple        # seat numbers that have locked in (never what they bid)
    pile: int
    toast: str | None = None


class BidsRevealed(NamedTuple):
    """All bids at once, large; cancelled ones marked; then the pick order."""

    seats: tuple         # seat numbers playing
    bids: tuple          # card per seat, same order
    cancelled: tuple     # seat numbers whose bid was cancelled
    takes_all: int | None  # seat number taking the whole display
    how: str | None      # "ace" | "x" | "alone"
    order: tuple         # seat numbers choosing, in order
    stalemate: bool
    toast: str | None = None


class Choosing(NamedTuple):
    seat: int            # seat number choosing now
    kinds: tuple         # ((kind, count), ...) on display, key 1 is the first
    then: tuple          # seat numbers choosing after this one
    toast: str | None = None


class Instructions(NamedTuple):
    """What to do with the real cards after a turn. Lines are short plain sentences."""

    title: str           # "Turn 3", "Stalemate", "Round 2 over"
    lines: tuple         # e.g. ("S2 takes 2 corn", "S2 harvests 3 corn: +1 chip")
    page: int = 1
    pages: int = 1
    toast: str | None = None


class Scores(NamedTuple):
    round: int
    seats: tuple         # seat numbers
    chips: tuple
    gardens: tuple       # per seat: dict kind -> count
    pile: int
    toast: str | None = None


class ConfirmUndo(NamedTuple):
    seat: int            # who asked
    what: str            # the input to take back, said for people ("S2 chose corn")
    toast: str | None = None


class GameOver(NamedTuple):
    seats: tuple
    chips: tuple
    grasshoppers: tuple
    winners: tuple       # seat numbers
    toast: str | None = None


class Message(NamedTuple):
    """A plain screen: a title and a few lines (errors, the pads test, blank prompts)."""

    title: str
    lines: tuple = ()
    toast: str | None = None


View = (Setup | Resumed | RevealPrompt | Bidding | BidsRevealed | Choosing | Instructions | Scores
        | ConfirmUndo | GameOver | Message)
