"""Every view draws a clear 128x64 frame: not blank, nothing off-screen, a pure
function of the view (so a frame cannot leak a bid the view does not carry)."""

from __future__ import annotations

import pytest
from PIL import Image

from pitable.i18n import msg
from pitable.screens import font, icons, widgets
from pitable.screens import views as v
from pitable.screens.render import draw, render
from pitable.screens.widgets import Canvas

SEATS4 = (1, 2, 3, 4)
SEATS6 = (1, 2, 3, 4, 5, 6)
LONG = "S1 takes all: 1 grasshopper, 2 corn, 1 strawberry and 2 blackberries from the display"
WORD = "Supercalifragilisticexpialidocious-and-then-some-more-characters"
ALL = tuple(msg(f"n.{k}", n=12) for k in icons.KINDS)
LONG_MSG = msg("line.takes_all", seat=6, cards=ALL)
GH_OPTIONS = ((msg("opt.beginner"), msg("value.off")), (msg("opt.x_takes_cancelled_ace"), msg("value.on")),
              (msg("opt.end_on_empty_pile"), msg("value.off")), (msg("opt.deck"), msg("value.physical")))

VIEWS = [
    v.Setup("game", "grasshopper", (), 4, (), False),
    v.Setup("join", "grasshopper", (), 4, (), False),
    v.Setup("join", "grasshopper", (1, 3), 4, (), True),
    v.Setup("join", "cockroach", (1, 2, 3, 4, 5, 6), 6, (), True),
    v.Setup("options", "grasshopper", (1, 2), 4, GH_OPTIONS, True),
    v.Setup("options", "grasshopper", (1, 2), 4, GH_OPTIONS + ((LONG, WORD),) * 4, True),
    v.Setup("options", "cockroach", (1, 2), 6, ((msg("opt.first"), msg("seat", seat=2)),), True),
    v.Resumed("grasshopper", 2, 5, False),
    v.Resumed("cockroach", 12, 88, True),
    v.RevealPrompt(3, "start", {}, 66),
    v.RevealPrompt(1, "stalemate", {"grasshopper": 2, "corn": 1, "broccoli": 1}, 31),
    v.RevealPrompt(12, "renew", {k: 9 for k in icons.KINDS}, 100),
    v.Bidding(1, 1, {"grasshopper": 1, "corn": 1, "strawberry": 1}, SEATS4, (), 63),
    v.Bidding(2, 5, {"corn": 2, "blackberry": 1}, SEATS4, (2, 4), 35),
    v.Bidding(1, 4, {k: 1 for k in icons.KINDS}, SEATS4, SEATS4, 50),
    v.Bidding(10, 8, {k: 12 for k in icons.KINDS}, SEATS6, (2, 5), 100),
    v.Bidding(1, 1, {}, (1, 2), (), 0),
    v.BidsRevealed(SEATS4, ("5", "2", "5", "6"), (1, 3), None, None, (4, 2), False),
    v.BidsRevealed(SEATS4, ("3", "A", "6", "1"), (), 2, "ace", (), False),
    v.BidsRevealed((1, 2, 3), ("X", "A", "4"), (), 1, "x", (), False),
    v.BidsRevealed(SEATS4, ("4", "X", "4", "X"), SEATS4, None, None, (), True),
    v.BidsRevealed((1, 2), ("X", "3"), (), 2, "alone", (), False),
    v.BidsRevealed(SEATS4, ("6", "5", "4", "3"), (), None, None, (1, 2, 3, 4), False),
    v.BidsRevealed(SEATS6, ("1", "2", "3", "3", "6", "A"), (3, 4), 6, "ace", (), False),
    v.BidsRevealed(SEATS6, ("1", "2", "3", "4", "5", "6"), (), None, None, (6, 5, 4, 3, 2, 1), False),
    v.Choosing(3, (("grasshopper", 1), ("corn", 2)), (1,)),
    v.Choosing(1, tuple((k, 1) for k in icons.KINDS), (3, 4, 2)),
    v.Choosing(4, tuple((k, 12) for k in icons.KINDS), (3, 2, 1)),  # Grasshopper Poker: 2-4 seats
    v.Choosing(2, (("corn", 3),), ()),
    v.Instructions(msg("title.turn", turn=3), (msg("line.takes", seat=2, cards=(msg("n.corn", n=2),)),
                                               msg("line.harvest", seat=2, cards=msg("n.corn", n=3), n=1))),
    v.Instructions(msg("title.turn", turn=6), (LONG_MSG, msg("line.plague", seat=3)), 1, 2),
    v.Instructions("A title far too long for the screen at any size", (WORD, LONG, LONG, LONG), 12, 13),
    v.Instructions(msg("title.display"), ()),
    v.Scores(2, SEATS4, (3, 5, 0, 12), ({"corn": 2, "grasshopper": 1}, {}, {k: 2 for k in icons.KINDS},
                                        {"blackberry": 2}), 28),
    v.Scores(9, SEATS4, (24, 23, 22, 21), tuple({k: 2 for k in icons.KINDS} for _ in SEATS4), 0),
    v.ConfirmUndo(2, msg("undo.choice", kind=msg("kind.corn"))),
    v.ConfirmUndo(4, LONG + " " + LONG),
    v.GameOver(SEATS4, (7, 9, 4, 9), (0, 1, 2, 0), (4,)),
    v.GameOver(SEATS4, (16, 16, 16, 16), (2, 2, 2, 2), SEATS4),  # Grasshopper Poker: 2-4 players
    v.GameOver((1, 2), (0, 0), (0, 0), ()),
    v.Message(msg("pads.title"), (msg("pads.key_press", seat=2, key="A"), msg("pads.key_hold", seat=1, key="3"))),
    v.Message("Cannot save the game log", (LONG, WORD, LONG)),
    v.Message("", ()),
    v.Message(WORD, (WORD,)),
    v.CockroachOffer(2, "target", None, (1, 2, 3, 4, 5), (6, 5, 7, 6, 6)),
    v.CockroachOffer(6, "target", None, SEATS6, (27, 27, 27, 27, 27, 27)),
    v.CockroachOffer(2, "claim", 4, (1, 2, 3, 4, 5), (6, 5, 7, 6, 6)),
    v.CockroachAnswer(4, 2, "scorpion", (2,), True, "decide", None),
    v.CockroachAnswer(6, 5, "cockroach", SEATS6[:5], False, "decide", None),
    v.CockroachAnswer(4, 2, "rat", (2,), True, "claim", 5),
    v.CockroachFlip(3, "bat", False),
    v.CockroachFlip(6, "stinkbug", True),
    v.CockroachRows(SEATS6, (27,) * 6, tuple({k: 4 for k in icons.CRITTERS} for _ in SEATS6)),
    v.CockroachQuick(12, 3, SEATS6, (10,) * 6, tuple({k: 3 for k in icons.CRITTERS} for _ in SEATS6), 4, None,
                     tuple(v.Key(i, ("lay", k), k) for i, k in enumerate(icons.CRITTERS))),
    v.CockroachRows((1, 2), (5, 4), ({"rat": 1}, {})),
    v.CockroachOver((1, 2, 3, 4), (3,), "four_of_a_kind", "toad"),
    v.CockroachOver(SEATS6, (2,), "five_of_a_kind", "cockroach"),
    v.CockroachOver((1, 2, 3), (2,), "empty_hand", None),
]


def ids(view) -> str:
    return type(view).__name__


@pytest.mark.parametrize("view", VIEWS, ids=ids)
def test_renders_a_128x64_one_bit_frame_that_is_not_blank(view):
    frame = render(view)
    assert frame.size == (128, 64)
    assert frame.mode == "1"
    if view != v.Message("", ()):
        assert frame.getbbox() is not None


def test_every_view_type_has_a_screen():
    kinds = {type(view) for view in VIEWS}
    assert kinds == set(v.View.__args__)


def drawn_with_margin(view, m: int = 40) -> tuple:
    """The view drawn inside a bigger image at (m, m): (canvas, image)."""
    image = Image.new("1", (128 + 2 * m, 64 + 2 * m))
    canvas = Canvas(image, origin=(m, m), size=(128, 64))
    draw(canvas, view)
    return canvas, image


@pytest.mark.parametrize("view", VIEWS + [view._replace(toast=LONG) for view in VIEWS], ids=ids)
def test_nothing_is_drawn_off_the_frame(view):
    canvas, image = drawn_with_margin(view)
    assert canvas.overflows == []
    inside = Image.new("1", image.size)
    inside.paste(image.crop((40, 40, 168, 104)), (40, 40))
    assert image.tobytes() == inside.tobytes(), "ink outside the 128x64 frame"


@pytest.mark.parametrize("view", VIEWS, ids=ids)
def test_a_toast_changes_the_frame(view):
    plain = render(view)
    toasted = render(view._replace(toast=msg("toast.keys_kind")))
    assert plain.tobytes() != toasted.tobytes()
    if isinstance(view, (v.Bidding, v.Choosing, v.BidsRevealed, v.Instructions)):
        return  # these keep what they reveal in sight: tests/screens/test_toasts.py
    # the toast sits over the lower part: the top rows are the screen's, dimmed
    assert render(view._replace(toast=msg("toast.undone"))).crop((0, 0, 128, 40)).getbbox() == \
        _dimmed(plain).crop((0, 0, 128, 40)).getbbox()


def _dimmed(frame):
    from PIL import ImageChops
    return ImageChops.logical_and(frame, icons.checker(128, 64))


def test_rendering_is_a_pure_function_of_the_view():
    for view in VIEWS:
        assert render(view).tobytes() == render(view).tobytes()
        assert render(view).tobytes() == render(v.__dict__[type(view).__name__](*view)).tobytes()


def test_bidding_shows_who_locked_and_nothing_else():
    """Secrecy: the view carries no bids; the frame changes with ``locked`` only."""
    a = v.Bidding(2, 5, {"corn": 2, "blackberry": 1}, SEATS4, (2,), 35)
    b = a._replace(locked=(2, 4))
    # told: the lines of the turn before (what its takes and harvests ask), made before any bid
    # keys: each seat's cards not spent (public since their bids were revealed), never a pending bid
    assert set(v.Bidding._fields) == {"round", "turn", "display", "seats", "locked", "pile", "toast", "told", "keys"}
    assert render(a).tobytes() == render(a._replace(locked=(2,))).tobytes()
    assert render(a).tobytes() != render(b).tobytes()
    # the order seats locked in does not show either
    assert render(b).tobytes() == render(a._replace(locked=(4, 2))).tobytes()


def test_cancelled_bids_are_marked():
    base = v.BidsRevealed(SEATS4, ("5", "2", "5", "6"), (), None, None, (4, 3, 1, 2), False)
    cancelled = base._replace(cancelled=(1, 3), order=(4, 2))
    assert render(base).tobytes() != render(cancelled).tobytes()
    # only the cancelled cards' columns and the result line differ
    diff = _xor(render(base), render(cancelled))
    left, top, right, bottom = diff.getbbox()
    assert top >= 0 and left < 64


def _xor(a, b):
    from PIL import ImageChops
    return ImageChops.logical_xor(a, b)


def test_the_reveal_is_big():
    """Big card glyphs for up to four players, then the result, why, and who goes on."""
    frame = render(v.BidsRevealed(SEATS4, ("1", "A", "X", "6"), (), 2, "ace", (), False,
                                  foot=msg("foot.bid"), why=msg("why.ace_takes_all")))
    left, top, right, bottom = frame.getbbox()
    assert bottom - top > 50 and right - left > 110
    w, h = icons.card_size("big")
    assert (w, h) == (22, 30)


def test_text_helpers_fit_or_cut():
    assert widgets.clip("hello", 200) == "hello"
    cut = widgets.clip(LONG, 60)
    assert cut.endswith(font.ELLIPSIS) and font.text_width(cut) <= 60
    for dx, row in widgets.wrap(LONG + " " + WORD, 50, indent=6):
        assert font.text_width(row.rstrip(widgets.BROKEN)) + dx <= 50
    block = widgets.layout_paragraph((LONG, LONG), 128, 20, scales=(2, 1))
    assert block.cut and block.height <= 20 and block.scale == 1
    # a word too long for a row is broken only at the smallest scale, and that is a cut
    block = widgets.layout_paragraph((WORD,), 128, 60, scales=(2, 1))
    assert block.cut and block.scale == 1
    block = widgets.layout_paragraph(("Bid again!",), 128, 20, scales=(2, 1))
    assert not block.cut and block.scale == 2


def test_font_covers_printable_ascii_and_is_crisp():
    for code in range(32, 127):
        assert font.has_glyph(chr(code))
    big = font.text_image("A", 3)
    assert big.mode == "1" and big.size == (15, 27)
    assert big.getextrema() in ((0, 1), (0, 255))


def test_icons_for_every_kind_and_card():
    for kind in icons.KINDS:
        assert icons.icon(kind).size == (12, 12) and icons.icon(kind).getbbox()
        assert icons.icon(kind, 2).size == (24, 24)
        assert icons.mini(kind).size == (7, 7)
    assert len({icons.icon(k).tobytes() for k in icons.KINDS}) == 5
    for label in ("1", "2", "3", "4", "5", "6", "A", "X"):
        for style in ("face", "solid", "cancelled"):
            assert icons.card(label, "big", style).getbbox()
    for kind in icons.CRITTERS:
        assert icons.icon(kind).size == (12, 12) and icons.icon(kind).getbbox()
    assert len({icons.icon(k).tobytes() for k in icons.CRITTERS + icons.KINDS}) == 13
    assert icons.inline_kinds("S2 takes 2 corn and 3 strawberries") == \
        f"S2 takes 2 {icons.INLINE['corn']} and 3 {icons.INLINE['strawberry']}"


def test_an_unknown_view_is_refused():
    with pytest.raises(TypeError):
        render(("not", "a", "view"))
