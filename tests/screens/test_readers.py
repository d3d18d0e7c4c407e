"""What German and Vietnamese readers (and a newcomer) could not read whole, or read as
something else, on the glass: each screen drawn in every language and read back."""

from __future__ import annotations

import ast

import pytest
from PIL import Image

from pitable.i18n import LANGUAGES, catalog, msg
from pitable.screens import views as v
from pitable.screens.render import draw, layout_problems
from pitable.screens.widgets import Canvas


def texts(view, lang):
    """Every text drawn, in the words of the glass (no-break spaces as spaces)."""
    c = Canvas(Image.new("1", (128, 64)), lang=lang)
    draw(c, view)
    return [ast.literal_eval(what[5:]).replace("\xa0", " ") for what, _ in c.drawn if what.startswith("text ")]


def _read(what: str) -> str:
    """A drawn part's name: a text's words (no-break spaces as spaces), else as it is ("mini corn")."""
    return ast.literal_eval(what[5:]).replace("\xa0", " ") if what.startswith("text ") else what


def say(m, lang):
    return catalog(lang).words(m).replace("\xa0", " ")


def join(lang, assistant=(101,), level="strong", phones=()):
    return v.Setup("join", "grasshopper", (1, 2, 3), 4, (), True, None, lang, assistant,
                   level if assistant else None, None, phones, None, msg("key.change"))


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("assistant, level, state", [
    ((101,), "strong", msg("setup.pi_level", level=msg("value.strong"))),
    ((101,), "easy", msg("setup.pi_level", level=msg("value.easy"))),
    ((), None, msg("setup.no_pi")),
])
def test_who_plays_shows_the_pis_level_as_it_is_and_key_6_changes_it(lang, assistant, level, state):
    """The Pi's level as a state ("Pi strong"), not the next press ("6: Pi easy" read as the level)."""
    view = join(lang, assistant, level)
    drawn = texts(view, lang)
    assert say(state, lang) in drawn
    assert say(msg("key.change"), lang) in drawn
    assert not layout_problems(view, lang)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_who_plays_with_phones_reads_whole(lang):
    """The join footer with phones on and the Pi: every key and its meaning whole, none on another."""
    view = join(lang, phones=())
    assert not layout_problems(view, lang)
    drawn = texts(view, lang)
    for m in (msg("key.leave"), msg("key.go_on"), msg("setup.phone_key")):
        assert say(m, lang) in drawn


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("locked", [(), (101,), (1, 101)])
def test_bid_and_the_display_are_never_under_the_seat_boxes(lang, locked):
    """A turn's lines on top, the Pi locked in or not: "Bid!" and the display stay in sight,
    the seat boxes (who has locked in) always below them."""
    told = (msg("line.harvest", seat=101, cards=msg("n.corn", n=3), n=1), msg("line.get_nothing", seats=(1, 2, 3)))
    view = v.Bidding(1, 3, {"grasshopper": 1, "corn": 1, "strawberry": 1}, (1, 2, 3, 101), locked, 50, None, told)
    assert not layout_problems(view, lang), layout_problems(view, lang)
    c = Canvas(Image.new("1", (128, 64)), lang=lang)
    draw(c, view)
    boxes = [box for what, box in c.drawn if what == "seat box"]
    others = [box for what, box in c.drawn if what != "seat box"]
    assert len(boxes) == 4
    assert max(b[3] for b in others) < min(b[1] for b in boxes)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_six_players_pass_list_names_every_seat(lang):
    view = v.CockroachAnswer(2, 4, "stinkbug", (4,), True, "decide", None, None, (1, 3, 5, 6))
    assert not layout_problems(view, lang)
    drawn = " ".join(texts(view, lang))
    for seat in (1, 3, 5, 6):
        assert say(msg("seat", seat=seat), lang) in drawn


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phones_qr_says_whole_which_keys_take_a_phone_back(lang):
    view = v.Setup("join", "grasshopper", (1, 2), 4, (), True, None, lang, (), None,
                   (4, "HTTP://192.168.178.23:8080/3F6C-X9K1"), (1, 2),
                   "HTTP://192.168.178.23:8080/#3F6CX9K1.AAAAAAAAAAAAAAAAAAAAAA", None)
    assert not layout_problems(view, lang), layout_problems(view, lang)
    said = say(msg("web.qr_take_back", seats="1,2"), lang)
    assert " ".join(texts(view, lang)).endswith(said)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_card_3_of_3_shows_every_kind_named_so_far(lang):
    """The count catches a double press only if the first card's kind is still in sight:
    on the "so far" row, in words or (where the words do not fit) as pictures."""
    view = v.RevealPrompt(1, "start", {}, 60, None, ("blackberry", "strawberry"), 2, ())
    assert not layout_problems(view, lang)
    c = Canvas(Image.new("1", (128, 64)), lang=lang)
    draw(c, view)
    head = say(msg("reveal.so_far", kinds=()), lang).strip()
    shown = [(_read(what), box) for what, box in c.drawn]
    row = next(box for what, box in shown if what.startswith(head))
    on_row = [what for what, box in shown if box[1] <= row[3] and row[1] <= box[3]]
    for kind in ("blackberry", "strawberry"):
        name = say(msg(f"kind.{kind}"), lang)
        assert any(name in what for what in on_row) or f"mini {kind}" in on_row, (lang, kind, on_row)
