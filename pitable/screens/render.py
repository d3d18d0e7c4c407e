"""``render(view, lang)``: a view value (``pitable.screens.views``) drawn on a 128x64 one-bit image.

A pure function of the view and the language: the same view gives the same pixels.
The words are made here, from the language's catalog (``pitable.i18n``). The frame
is a PIL image of mode "1" (lit = 1), ready for a luma device.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

from pitable.screens import views as v
from pitable.screens import widgets
from pitable.screens.widgets import Canvas

# view type -> (module, function). Modules load on first use: a Grasshopper evening
# never pays for the Cockroach screens, and start-up stays short on a Pi Zero.
_WHERE = {
    v.Setup: ("grasshopper", "draw_setup"),
    v.Resumed: ("grasshopper", "draw_resumed"),
    v.RevealPrompt: ("grasshopper", "draw_reveal"),
    v.Bidding: ("grasshopper", "draw_bidding"),
    v.BidsRevealed: ("grasshopper", "draw_bids"),
    v.Choosing: ("grasshopper", "draw_choosing"),
    v.Instructions: ("grasshopper", "draw_instructions"),
    v.Scores: ("grasshopper", "draw_scores"),
    v.ConfirmUndo: ("grasshopper", "draw_confirm_undo"),
    v.GameOver: ("grasshopper", "draw_game_over"),
    v.Message: ("widgets", "draw_message"),
    v.Sitting: ("cockroach", "draw_sitting"),
    v.CockroachOffer: ("cockroach", "draw_offer"),
    v.CockroachAnswer: ("cockroach", "draw_answer"),
    v.CockroachFlip: ("cockroach", "draw_flip"),
    v.CockroachRows: ("cockroach", "draw_rows"),
    v.CockroachOver: ("cockroach", "draw_over"),
    v.CockroachQuick: ("cockroach", "draw_quick"),
}
Drawer = Callable[[Canvas, Any], tuple[int, int] | None]  # draws a view; the band a toast may take, or None
DRAWERS: dict[type, Drawer] = {}  # filled as views are first drawn


def _drawer(kind: type) -> Drawer:
    drawer = DRAWERS.get(kind)
    if drawer is None:
        where = _WHERE.get(kind)
        if where is None:
            raise TypeError(f"no screen for {kind.__name__}")
        import importlib

        module = importlib.import_module(f"pitable.screens.{where[0]}")
        drawer = DRAWERS[kind] = getattr(module, where[1])
    return drawer


# Screens that reveal (the bids and their seats, who takes what, the pick order): a toast
# takes the footer's place there (the screen makes room for it) and covers nothing.
_FOOTED = (v.BidsRevealed, v.Instructions)


def draw(c: Canvas, view: v.View) -> None:
    """Draw ``view`` on the canvas ``c``, its toast (if any) on top: over the lower part,
    or where the drawing says a toast hides nothing that matters (``band``: the
    bidding's seats and the chooser's order stay in sight), or in the footer's place."""
    toast = getattr(view, "toast", None)
    if toast and isinstance(view, _FOOTED):
        # on the bids the reason ("X beats the Ace") gives way too: the result keeps its room
        extra: dict[str, Any] = {"why": None} if isinstance(view, v.BidsRevealed) else {}
        _drawer(type(view))(c, view._replace(foot=toast, toast=None, **extra))
        widgets.lit_footer(c, c.say(toast))  # lit like a toast, so it is seen as one
        return
    band = _drawer(type(view))(c, view)
    if toast:
        widgets.toast(c, c.say(toast), band)


def render(view: v.View, lang: str = "en", size: tuple[int, int] = (widgets.W, widgets.H)) -> Image.Image:
    """The frame for ``view`` in the words of ``lang``: a mode "1" image of ``size``
    (the layout is for 128x64)."""
    image = Image.new("1", size)
    draw(Canvas(image, size=(widgets.W, widgets.H), lang=lang), view)
    return image


def layout_problems(view: v.View, lang: str = "en") -> list[str]:
    """What is wrong with ``view``'s frame in ``lang``: ink off the frame, text cut
    short, drawn parts on top of one another (a toast aside, which covers on purpose).
    Empty when the frame reads whole. The layout tests check every screen with it, and
    the table asks it before it puts a turn's lines on a key screen (else: pages)."""
    import itertools

    image = Image.new("1", (widgets.W + 80, widgets.H + 80))
    c = Canvas(image, origin=(40, 40), size=(widgets.W, widgets.H), lang=lang)
    draw(c, view)
    found = [f"leaves the frame: {what} {box}" for what, box in c.overflows]
    found += [f"cut: {s!r}" for s in c.cuts]
    if getattr(view, "toast", None) is None:
        for (wa, a), (wb, b) in itertools.combinations(c.drawn, 2):
            if a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]:
                found.append(f"overlap: {wa} {a} and {wb} {b}")
    return found
