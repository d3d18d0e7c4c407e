"""What a screen shows, as plain values: the contract between controllers and drawings.

Controllers (``pitable.table``) decide *what* to show and build one of these;
``pitable.screens.render`` draws it on a 128x64 one-bit image. Seats here are the
numbers printed on the pads (1-based), kinds and cards are the rules' names.

Words: a view carries values, never sentences. What must be said in words (a toast,
an instruction line, an option's label, a reason) is a ``Msg`` (``pitable.i18n``):
a message id and its values. The output makes the words with the table's catalog,
so every output says the same thing in the table's language.

Secrecy: no view built before the reveal carries a bid. ``Bidding`` knows only who
has locked in.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from pitable.i18n import Msg  # noqa: F401 - the type of every wording field below

# How long screens stay (config's defaults and the table's, from here)
NOTICE_SECONDS = 8.0  # a screen that only informs moves on by itself after this (0: on a key only)
REVEAL_SECONDS = 3.0  # the bids stay on the glass at least this long, whatever is pressed


class Key(NamedTuple):
    """One key of a screen's key table: what pressing it does, and what the glass and the
    phone say beside it. The controller that builds a view builds its table (one place)
    and dispatches a key from it; the loop judges a key by it (docs/architecture.md)."""

    key: int                       # the pad's key 0..7 (pitable.keys: 1..6, A, X)
    does: tuple[Any, ...]          # what pressing it does: a plain hashable value the loop compares,
    #                                e.g. ("bid", 3), ("choose", "corn"), ("page", serial), ("join",)
    label: Msg | str               # what the glass and the phone say beside it
    seats: tuple[int, ...] | None = None  # seat numbers it is for; None: every seat


def meaning(keys: tuple[Key, ...], seat: int, key: int) -> tuple[Any, ...] | None:
    """What ``key`` of ``seat`` (a seat number) does on a screen with ``keys``, or None."""
    for k in keys:
        if k.key == key and (k.seats is None or seat in k.seats):
            return k.does
    return None


def label(keys: tuple[Key, ...], key: int, default: Msg | str) -> Msg | str:
    """What the glass says beside ``key`` on a screen with ``keys``: the label its key table
    gives it (whichever seat it is for), else ``default`` (a key that does nothing here,
    drawn as it is printed)."""
    return next((k.label for k in keys if k.key == key), default)


def page_serial(view: object) -> int | None:
    """The serial number of the notice ``view`` is (its keys turn that page), or None."""
    keys = getattr(view, "keys", ())
    does = keys[0].does if keys else None
    return does[1] if does is not None and does[0] == "page" else None


class Setup(NamedTuple):
    """Choosing the game, who plays and the options, with the pads."""

    step: str            # "game" | "join" | "options"
    game: str            # "grasshopper" | "cockroach"
    joined: tuple[int, ...]  # seat numbers that have joined
    seats: int           # pads wired
    options: tuple[tuple[Msg, Msg | str], ...]  # (label, value) per option line, keys 1.. in order
    can_start: bool
    toast: Msg | None = None
    language: str = "en"  # the table's language (chosen with X on the first step)
    assistant: tuple[int, ...] = ()  # the assistant's seat numbers (Grasshopper Poker: key 6 at the join step)
    assistant_level: str | None = None  # "easy" | "strong" when it plays
    phone: tuple[int, str] | None = None  # (seat, join address) while a phone's QR is shown (config web:)
    phones: tuple[int, ...] | None = None  # seat numbers that have a phone; None: phones are off
    phone_qr: str | None = None  # what the QR carries: the join page, its key in the fragment
    pi_key: Msg | None = None    # what key 6 does on the join step ("Pi strong", "no Pi"): an action
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Resumed(NamedTuple):
    game: str
    round: int
    turn: int
    rebid: bool          # bids of the unfinished turn were lost: everyone bids again
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class RevealPrompt(NamedTuple):
    """Physical deck: the table turns up a card and tells which kind (keys 1..5)."""

    to_reveal: int       # cards still to turn up now
    reason: str          # "start" | "refill" | "stalemate" | "renew" | "round"
    display: dict[str, int]  # kind -> count, what is already face up
    pile: int
    toast: Msg | None = None
    named: tuple[str, ...] = ()  # kinds named so far in this reveal, in order ("card 2 of 3": a double press shows)
    by: int | None = None  # the seat that names this reveal's cards (the first to press one), or None: one of you
    told: tuple[Msg, ...] = ()  # what the turn just played asks of the table's real cards (in the title's place)
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Bidding(NamedTuple):
    round: int
    turn: int
    display: dict[str, int]  # kind -> count
    seats: tuple[int, ...]  # seat numbers playing
    locked: tuple[int, ...]  # seat numbers that have locked in (never what they bid)
    pile: int
    toast: Msg | None = None
    told: tuple[Msg, ...] = ()  # what the turn (or round) just played asks of the table, until the first lock-in
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class BidsRevealed(NamedTuple):
    """All bids at once, large; cancelled ones marked; then the pick order."""

    seats: tuple[int, ...]  # seat numbers playing
    bids: tuple[str, ...]  # card per seat, same order
    cancelled: tuple[int, ...]  # seat numbers whose bid was cancelled
    takes_all: int | None  # seat number taking the whole display
    how: str | None      # "ace" | "x" | "alone"
    order: tuple[int, ...]  # seat numbers choosing, in order
    stalemate: bool
    toast: Msg | None = None
    foot: Msg | None = None  # who presses what to go on (set by the controller)
    why: Msg | None = None   # why it works out so: "X beats the Ace", "2 players: alone takes all"
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Choosing(NamedTuple):
    seat: int            # seat number choosing now
    kinds: tuple[tuple[str, int], ...]  # on display, key 1 is the first
    then: tuple[int, ...]  # seat numbers choosing after this one
    toast: Msg | None = None
    told: tuple[Msg, ...] = ()  # what the choice before asks of the table ("S3 takes 1 corn"), on top
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Instructions(NamedTuple):
    """What to do with the real cards after a turn: a title and line messages."""

    title: Msg           # "Turn 3", "Stalemate", "Round 2 over"
    lines: tuple[Msg, ...]  # e.g. "S2 takes 2 corn", "S2 harvests 3 corn: discard, +1 chip"
    page: int = 1
    pages: int = 1
    toast: Msg | None = None
    foot: Msg | None = None  # who presses what to go on (set by the controller)
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Scores(NamedTuple):
    round: int
    seats: tuple[int, ...]  # seat numbers
    chips: tuple[int, ...]
    gardens: tuple[dict[str, int], ...]  # per seat: kind -> count
    pile: int
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class ConfirmUndo(NamedTuple):
    seat: int            # who asked
    what: Msg            # the input to take back ("choice of corn"), or what a drop loses
    toast: Msg | None = None
    title: Msg | None = None  # None: "Undo?"; dropping the game says so
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class GameOver(NamedTuple):
    seats: tuple[int, ...]
    chips: tuple[int, ...]
    grasshoppers: tuple[int, ...]
    winners: tuple[int, ...]  # seat numbers
    toast: Msg | None = None
    tiebreak: bool = False  # chips tied at the top and fewer grasshoppers decided (G12)
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Message(NamedTuple):
    """A plain screen: a title and a few lines (errors, the pads test, blank prompts)."""

    title: Msg
    lines: tuple[Msg | str, ...] = ()
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class Sitting(NamedTuple):
    """The evening's score (hold A while choosing the game or who plays)."""

    games: int           # games counted this evening
    seats: tuple[int, ...]  # seat numbers that played
    wins: tuple[int, ...]  # Grasshopper Poker wins per seat, same order
    losses: tuple[int, ...]  # Cockroach Poker losses per seat, same order
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


# -- Cockroach Poker ---------------------------------------------------------------------------
# Keys: in a seat step, keys 1-6 are seats; in a kind step, the 8 keys are the 8 critters
# (KINDS order of pitable.rules.cockroach: rat cockroach bat fly scorpion stinkbug spider toad).


class CockroachOffer(NamedTuple):
    """The active seat gives a hand card: first to whom, then what it claims."""

    seat: int            # seat number offering
    step: str            # "target" (keys 1-6 pick a seat) | "claim" (8 critter keys)
    target: int | None   # chosen seat number once past "target"
    seats: tuple[int, ...]  # seat numbers playing
    hands: tuple[int, ...]  # hand counts, same order
    toast: Msg | None = None
    only: bool = False   # two players: the target is the only other seat, chosen by itself
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class CockroachAnswer(NamedTuple):
    """The receiver calls (A: true, X: false) or peeks and passes (seat key, then a claim)."""

    seat: int            # the receiver
    sender: int          # who passed it to the receiver
    claim: str
    seen: tuple[int, ...]  # seat numbers that have seen the card (offerer first)
    can_pass: bool       # someone has not seen it, and more than two players
    step: str            # "decide" | "claim" (passing: the new claim)
    target: int | None   # the seat it is being passed to, in step "claim"
    toast: Msg | None = None
    pass_to: tuple[int, ...] = ()  # seat numbers that may still get the card
    forced: str | None = None  # why the receiver must call: "all_seen" | "two_players" (C4); None: may pass
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class CockroachFlip(NamedTuple):
    """The card is turned face up: which critter is it? (8 critter keys)"""

    seat: int            # the receiver, who called
    claim: str
    call: bool           # True: "it is what was claimed"
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class CockroachRows(NamedTuple):
    """Rows and hand counts, on demand."""

    seats: tuple[int, ...]
    hands: tuple[int, ...]
    rows: tuple[dict[str, int], ...]  # per seat: dict kind -> count face up
    toast: Msg | None = None
    lose_at: int = 4     # this many of one critter lose (C6: five with two players)
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class CockroachOver(NamedTuple):
    seats: tuple[int, ...]
    losers: tuple[int, ...]  # seat numbers
    reason: str          # "four_of_a_kind" | "five_of_a_kind" | "empty_hand"
    kind: str | None     # the losing row's critter
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # the key table: what each key does on this screen


class CockroachQuick(NamedTuple):
    """Quick mode: the round is played aloud; whoever lays its card face up presses the
    critter (8 keys). The rows, hand counts and who starts, in one screen."""

    round: int
    starter: int         # seat number that starts this round (the last taker)
    seats: tuple[int, ...]  # seat numbers playing
    hands: tuple[int, ...]  # hand counts, same order
    rows: tuple[dict[str, int], ...]  # per seat: dict kind -> count face up
    lose_at: int         # this many of one critter lose (C6: five with two players)
    toast: Msg | None = None
    keys: tuple[Key, ...] = ()  # every seat's 8 keys lay a critter


View = (Setup | Resumed | RevealPrompt | Bidding | BidsRevealed | Choosing | Instructions | Scores
        | ConfirmUndo | GameOver | Message | CockroachOffer | CockroachAnswer | CockroachFlip
        | CockroachRows | CockroachOver | CockroachQuick)
