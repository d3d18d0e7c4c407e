"""``render(view)``: a view value (``pitable.screens.views``) drawn on a 128x64 one-bit image.

A pure function of the view: the same view gives the same pixels. The frame is a
PIL image of mode "1" (lit = 1), ready for a luma device.
"""

from __future__ import annotations

from PIL import Image

from pitable.screens import cockroach as cr
from pitable.screens import grasshopper as gh
from pitable.screens import views as v
from pitable.screens import widgets
from pitable.screens.widgets import Canvas

DRAWERS = {
    v.Setup: gh.draw_setup,
    v.Resumed: gh.draw_resumed,
    v.RevealPrompt: gh.draw_reveal,
    v.Bidding: gh.draw_bidding,
    v.BidsRevealed: gh.draw_bids,
    v.Choosing: gh.draw_choosing,
    v.Instructions: gh.draw_instructions,
    v.Scores: gh.draw_scores,
    v.ConfirmUndo: gh.draw_confirm_undo,
    v.GameOver: gh.draw_game_over,
    v.Message: widgets.draw_message,
    v.CockroachOffer: cr.draw_offer,
    v.CockroachAnswer: cr.draw_answer,
    v.CockroachFlip: cr.draw_flip,
    v.CockroachRows: cr.draw_rows,
    v.CockroachOver: cr.draw_over,
}


def draw(c: Canvas, view) -> None:
    """Draw ``view`` on the canvas ``c``, its toast (if any) on top."""
    drawer = DRAWERS.get(type(view))
    if drawer is None:
        raise TypeError(f"no screen for {type(view).__name__}")
    drawer(c, view)
    text = getattr(view, "toast", None)
    if text:
        widgets.toast(c, text)


def render(view, size: tuple = (widgets.W, widgets.H)) -> Image.Image:
    """The frame for ``view``: a mode "1" image of ``size`` (the layout is for 128x64)."""
    image = Image.new("1", size)
    draw(Canvas(image, size=(widgets.W, widgets.H)), view)
    return image
