"""One card, one record (real garden cards, G2/G10): the first seat to name a card of a
reveal names the rest of it, and the screen says who; another seat's key for the same
card is refused; the screen counts "Card 2 of 3" and names the kinds so far, so a double
press shows at once and one undo fixes it."""

from __future__ import annotations

import pytest

from pitable.i18n import LANGUAGES, msg, words
from pitable.screens import views as v
from pitable.screens.render import render

from .conftest import press, start_grasshopper

CORN, STRAWBERRY = 1, 2


def test_g2_the_first_seat_to_name_a_card_names_the_reveal_and_another_seat_is_refused(new_table):
    table = new_table()
    start_grasshopper(table)
    view = table.view()
    assert isinstance(view, v.RevealPrompt) and view.named == () and view.by is None
    assert words(msg("reveal.anyone")).startswith("One of you")
    press(table, 2, CORN)  # seat 2 names the first card
    press(table, 3, CORN)  # seat 3 reacts to the same card: refused, not a second corn
    view = table.view()
    assert view.named == ("corn",) and view.by == 2 and view.to_reveal == 2
    assert words(view.toast) == "S2 names the cards"
    press(table, 2, STRAWBERRY)
    assert table.view().named == ("corn", "strawberry")


def test_g2_a_double_press_shows_as_one_card_too_many_and_one_undo_fixes_it(new_table):
    table = new_table()
    game = start_grasshopper(table)
    press(table, 1, CORN)
    press(table, 1, CORN)  # one corn turned up, pressed twice
    view = table.view()
    assert view.named == ("corn", "corn") and view.to_reveal == 1
    assert words(msg("reveal.card_of", i=3, n=3)) == "Card 3 of 3"  # what the screen counts now
    press(table, 1, 7, "hold")
    assert words(table.view().what) == words(msg("undo.reveal", kind=msg("kind.corn")))
    press(table, 1, 6)
    view = table.view()
    assert view.named == ("corn",) and view.to_reveal == 2 and len(game.state.moves) == 1


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_reveal_prompt_draws_the_count_the_kinds_so_far_and_who_names(new_table, lang):
    from PIL import Image

    from pitable.screens.render import draw
    from pitable.screens.widgets import Canvas

    table = new_table(language=lang)
    start_grasshopper(table)
    press(table, 3, CORN)
    view = table.view()
    c = Canvas(Image.new("1", (128, 64)), lang=lang)
    draw(c, view)
    drawn = " ".join(w for w, _ in c.drawn).replace("\\xa0", " ")
    assert words(msg("reveal.card_of", i=2, n=3), lang) in drawn
    assert words(msg("kind.corn"), lang) in drawn
    assert words(msg("reveal.by", seat=3), lang) in drawn
    assert not c.cuts and not c.overflows
    assert render(view, lang) != render(view._replace(named=(), by=None), lang)
