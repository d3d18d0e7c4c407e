"""Where a move's lines go on the glass: pure functions over the narrator's lines and a
``fits`` answer for the next key screen (``told -> bool``: does it read whole with these
lines on top). No controller, no drawing: the controller asks, these decide.

A line said now (``pitable.narrator.NOW``) is never dropped: it goes on the next key screen
when it fits there, else on pages that wait for a key, before that screen. Lines that repeat
what a screen already said (``REPEAT``) go beside them where there is room."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pitable.i18n import Msg, msg
from pitable.narrator import REPEAT, Line, RevealedBids

Fits = Callable[[tuple[Msg | RevealedBids, ...]], bool]  # do these lines read whole on the key screen
Page = tuple[Msg, tuple[Msg | RevealedBids, ...]]        # (title, lines)


def split(lines: list[Line], fits: Fits) -> tuple[list[Line], list[Line]]:
    """(the lines for pages, the lines for the next key screen): as many of the last lines as
    fit the key screen go on it, the ones before on pages first (one page rather than a page
    a section). A section other than a turn's (a stalemate, a round's end) is not cut in two."""
    for k in range(len(lines) + 1):
        if 0 < k < len(lines) and lines[k].head == lines[k - 1].head and lines[k].head.id != "title.turn":
            continue
        told = fitting(lines[k:], fits)
        if told is not None:
            return lines[:k], told
    return lines, []


def fitting(lines: Sequence[Line], fits: Fits) -> list[Line] | None:
    """``lines`` as the key screen shows them, or None when the lines said now do not fit it
    (those that repeat a screen give way first, the last first)."""
    lines = list(lines)
    while lines:
        if fits(tuple(line.text for line in lines)):
            return lines
        optional = [i for i, line in enumerate(lines) if line.when == REPEAT]
        if not optional:
            return None
        del lines[optional[-1]]
    return []


def sections(lines: Sequence[Line]) -> list[Page]:
    """Lines as pages' (title, lines): a section's title heads its page; a later section
    goes on the same page with its title as a line, unless it says its title itself (a
    round's end: "Round 2 over" heads a page of its own)."""
    pages: list[Page] = []
    for line in lines:
        if not pages or (pages[-1][0] != line.head and line.text == line.head):
            pages.append((line.head, ()))
        elif pages[-1][0] != line.head and line.head not in pages[-1][1]:
            pages[-1] = (pages[-1][0], pages[-1][1] + (line.head,))
        if line.text != line.head:
            pages[-1] = (pages[-1][0], pages[-1][1] + (line.text,))
    return [(head, texts) for head, texts in pages if texts]


def with_stalemate_card(pages: Sequence[Page], n: int) -> list[Page]:
    """The stalemate's card on the stalemate's page ("turn up 1 card, then bid again"), also
    on a round's last bid, where the stalemate has no page of its own: before the round's
    end, never "Round 3 over ... Turn up 1 card"."""
    stale = msg("title.stalemate")
    pages = list(pages)
    at = [i for i, (head, _) in enumerate(pages) if head == stale]
    if not at:
        ends = [i for i, (head, _) in enumerate(pages) if head.id in ("title.round_over", "title.game_over")]
        i = ends[0] if ends else len(pages)
        pages.insert(i, (stale, ()))
        at = [i]
    head, texts = pages[at[-1]]
    pages[at[-1]] = (head, texts + (msg("line.turn_up_then_bid", n=n),))
    return pages
