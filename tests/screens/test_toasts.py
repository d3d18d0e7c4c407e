"""Nothing covers the reveal: a toast never hides a bid, a seat label, who takes what or
the pick order (checked on the drawn ink of real frames in every language, with every
toast the catalog has), and a toast does not outlive the screen it was said on."""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from pitable.i18n import ASSISTANT_SEAT, LANGUAGES, catalog, msg
from pitable.screens import views as v
from pitable.screens.render import draw
from pitable.screens.widgets import Canvas

TOASTS = sorted(i for i in catalog("en").entries if i.startswith("toast."))
VALUES = dict(seat=ASSISTANT_SEAT + 2, n=6, last=5, kind=msg("kind.grasshopper"), seats=(1, 2, 3, 4, 5))


def drawn(view, lang):
    image = Image.new("1", (128, 64))
    c = Canvas(image, lang=lang)
    draw(c, view)
    return image, c


def reveals(lang):
    """Screens that reveal, with the longest real values: the bids and their seats, the
    order, who takes what, who has locked in, who chooses and who after."""
    order = (3, 4, 5, 6)
    yield v.BidsRevealed(order, ("6", "5", "4", "3"), (), None, None, order, False,
                         foot=msg("foot.choose", seat=3, last=4))
    yield v.BidsRevealed((5, 6, ASSISTANT_SEAT + 1, ASSISTANT_SEAT + 2), ("X", "A", "5", "5"),
                         (ASSISTANT_SEAT + 1, ASSISTANT_SEAT + 2), 5, "x", (), False,
                         foot=msg("foot.next"), why=msg("why.x_beats_ace"))
    yield v.Instructions(msg("title.turn", turn=8), (msg("line.takes", seat=6, cards=(msg("n.grasshopper", n=2),)),
                                                      msg("line.takes", seat=5, cards=(msg("n.strawberry", n=1),))),
                         1, 2, foot=msg("foot.next"))
    yield v.Bidding(12, 8, {"corn": 2, "grasshopper": 1}, (3, 4, 5, 6), (3, 5), 60)
    yield v.Choosing(3, (("corn", 2), ("grasshopper", 1), ("broccoli", 1)), (4, 5, 6))


def protected(view, c):
    """The ink boxes that must stay in sight: every text and picture but the footer."""
    foot = catalog(c.lang).glued(view.foot) if getattr(view, "foot", None) else None
    out = []
    for what, box in c.drawn:
        if foot and what == f"text {foot!r}":
            continue
        out.append((what, box))
    if isinstance(view, v.Bidding):  # the display may be covered, never who has locked in
        return [("seat boxes", (0, 40, 127, 63))]
    if isinstance(view, v.Choosing):  # the kinds may be covered: who chooses now and after, never
        texts = [(w, b) for w, b in out if w.startswith("text ")]
        return [texts[0], texts[-1]]
    if isinstance(view, v.BidsRevealed) and view.why is not None:
        why = catalog(c.lang).glued(view.why)
        out = [(w, b) for w, b in out if w != f"text {why!r}"]  # the reason gives way to the toast
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_toast_never_hides_a_bid_a_seat_who_takes_what_or_the_order(lang):
    bad = []
    for view, id in itertools.product(list(reveals(lang)), TOASTS):
        plain, c0 = drawn(view, lang)
        keep = protected(view, c0)
        toast_words = catalog(lang).glued(msg(id, **VALUES))
        image, c = drawn(view._replace(toast=msg(id, **VALUES)), lang)
        for what, (x0, y0, x1, y1) in keep:
            if what.startswith("text ") or what.startswith("card ") or what == "seat boxes":
                box = (x0, y0, x1 + 1, y1 + 1)
                if isinstance(view, (v.BidsRevealed, v.Instructions)):
                    # the footer gives way to the toast; the rest may be laid out again,
                    # but every text and card is still drawn whole and untouched
                    again = [b for w, b in c.drawn if w == what]
                    if not again:
                        bad.append((lang, type(view).__name__, id, what, "gone"))
                        continue
                    x0, y0, x1, y1 = again[0]
                    box = (x0, y0, x1 + 1, y1 + 1)
                    others = [b for w, b in c.drawn if w != what and w != f"text {toast_words!r}" and
                              b[0] <= x1 and x0 <= b[2] and b[1] <= y1 and y0 <= b[3]]
                    if others:
                        bad.append((lang, type(view).__name__, id, what, "covered"))
                elif plain.crop(box).tobytes() != image.crop(box).tobytes():
                    bad.append((lang, type(view).__name__, id, what, "changed"))
        assert not c.cuts, (lang, id, c.cuts)
        assert any(toast_words in w for w, _ in c.drawn) or \
            any(w.startswith("text ") for w, _ in c.drawn), (lang, id)
    assert not bad, bad[:10]


def test_the_bids_reveal_with_a_toast_still_shows_every_bid_in_pixels():
    """The issue's case: "Seat 1: card spent, bid again" over the bids reveal hid seat 3's
    bid. Each card picture's pixels are the same with the toast as without it."""
    view = v.BidsRevealed((1, 2, 3), ("6", "5", "4"), (), None, None, (1, 2, 3), False,
                          foot=msg("foot.choose", seat=1, last=3))
    plain, c0 = drawn(view, "en")
    image, c = drawn(view._replace(toast=msg("toast.card_spent", seat=1)), "en")
    cards0 = [b for w, b in c0.drawn if w.startswith("card ")]
    cards = [b for w, b in c.drawn if w.startswith("card ")]
    assert len(cards) == 3
    for b0, b in zip(cards0, cards):
        assert plain.crop((b0[0], b0[1], b0[2] + 1, b0[3] + 1)).tobytes() == \
            image.crop((b[0], b[1], b[2] + 1, b[3] + 1)).tobytes()
