"""``render(view, lang)``: a view value (``pitable.screens.views``) drawn on a 128x64 one-bit image.

A pure function of the view and the language: the same view gives the same pixels.
The words are made here, from the language's catalog (``pitable.i18n``). The frame
is a PIL image of mode "1" (lit = 1), ready for a luma device.
"""

from __future__ import annotations

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
}
DRAWERS: dict = {}  # filled as views are first drawn


def _drawer(kind):
    drawer = DRAWERS.get(kind)
    if drawer is None:
        where = _WHERE.get(kind)
        if where is None:
            raise TypeError(f"no screen for {kind.__name__}")
        import importlib

        module = importlib.import_module(f"pitable.screens.{where[0]}")
        drawer = DRAWERS[kind] = getattr(module, where[1])
    return drawer


def draw(c: Canvas, view) -> None:
    """Draw ``view`` on the canvas ``c``, its toast (if any) on top."""
    _drawer(type(view))(c, view)
    toast = getattr(view, "toast", None)
    if toast:
        widgets.toast(c, c.say(toast))


def render(view, lang: str = "en", size: tuple = (widgets.W, widgets.H)) -> Image.Image:
    """The frame for ``view`` in the words of ``lang``: a mode "1" image of ``size``
    (the layout is for 128x64)."""
    image = Image.new("1", size)
    draw(Canvas(image, size=(widgets.W, widgets.H), lang=lang), view)
    return image
