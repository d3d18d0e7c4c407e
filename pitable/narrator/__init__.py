"""What happened, told once: one narrator per game turns a move and its effects into the
lines the table must hear, each marked with when it must be told.

The glass (``pitable.table``: on the next key screen, or on pages that wait for a key) and
the phone/TV story (``pitable.web``) both read these lines; neither words an event on its
own, so they cannot disagree. Pure functions over values: no I/O, no controller.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

from pitable.i18n import Msg

# When a line must be told on the glass:
NOW = "now"        # the table acts as the cards land: told before anyone acts again, never dropped
REPEAT = "repeat"  # what a screen already said big (the bids reveal, a virtual card): where there is room
STORY = "story"    # the story only: the glass showed it as a screen of its own (the bids, an offer)


class RevealedBids(NamedTuple):
    """A turn's bids, once revealed: (seat number, card name) per player."""

    bids: tuple[tuple[int, str], ...]


class Line(NamedTuple):
    """One thing the table hears: the section it belongs to ("Turn 3", "Stalemate",
    "Round 2 over"), what is said, and when it must be said."""

    head: Msg
    text: Msg | RevealedBids
    when: str


class Told(NamedTuple):
    """What one move told: the round and turn it was made in (turn None: Cockroach Poker
    tells rounds) and its lines, in the order they happened."""

    round: int
    turn: int | None
    lines: tuple[Line, ...]


class StoryItem(NamedTuple):
    """A turn (Grasshopper Poker) or a round (Cockroach Poker) as told so far."""

    round: int
    turn: int | None
    lines: tuple[Msg | RevealedBids, ...]


def story(told: Iterable[Told]) -> tuple[StoryItem, ...]:
    """The game's story from the moves' ``Told``s, oldest first: a turn's (or round's) lines
    together, the bids opening a new entry."""
    items: list[StoryItem] = []
    for t in told:
        lines = tuple(line.text for line in t.lines)
        if not lines:
            continue
        last = items[-1] if items else None
        if last is not None and (last.round, last.turn) == (t.round, t.turn) \
                and not isinstance(lines[0], RevealedBids):
            items[-1] = last._replace(lines=last.lines + lines)  # the rest of a turn goes with its bids
        else:
            items.append(StoryItem(t.round, t.turn, lines))
    return tuple(items)


def for_glass(lines: Iterable[Line]) -> tuple[Line, ...]:
    """The lines the glass says (the story's own are left out)."""
    return tuple(line for line in lines if line.when != STORY)


def said(told: Iterable[Told]) -> frozenset[str]:
    """The message ids said so far in a game (what is said once a game asks)."""
    return frozenset(line.text.id for t in told for line in t.lines if isinstance(line.text, Msg))
