"""The phone's and TV's panel says where the glass is: after a turn's
last choice the rules are at the next turn, while the glass still shows the finished
turn's pages; the panel's "Round 1, turn 2" is the glass's, never ahead of it."""

from __future__ import annotations

import random

import pytest

from pitable.i18n import catalog, msg
from pitable.screens import views as v
from pitable.web.payload import table_payload
from tests.table.test_what_you_saw import key_asked
from tests.web.test_server import start_game


def glass_where(view, last):
    """(round, turn) the glass shows, or None where it names neither; ``last``: the round
    and turn of the last bidding screen (a turn's pages name only its turn)."""
    if isinstance(view, v.Bidding):
        return view.round, view.turn
    if isinstance(view, v.Instructions) and view.title.id == "title.turn" and last is not None:
        return last[0], view.title.get("turn")
    if isinstance(view, v.Instructions) and view.title.id == "title.round_over" and last is not None:
        return view.title.get("round"), last[1]
    return None


@pytest.mark.parametrize("lang, pages", [("en", True), ("de", True), ("vi", True), ("en", False)])
def test_the_panel_says_the_round_and_turn_the_glass_shows(web_table, lang, pages):
    rng = random.Random(lang)
    t = web_table(language=lang)
    start_game(t, phone=False)
    game = t.table.current
    # every turn's lines on pages (as where they do not fit the next key screen): the pages
    # of finished turns are what the rules run ahead of
    if pages:
        game.fits = lambda view: False
    say = catalog(lang).words
    last, checked, behind = None, 0, 0
    for _ in range(3000):
        view = t.view()
        where = glass_where(view, last)
        if isinstance(view, v.Bidding):
            last = where
        if where is not None:
            got = table_payload(t.loop.publish.latest)["where"]
            assert got == say(msg("resumed.round_turn", round=where[0], turn=where[1])), (view, game.state.turn)
            checked += 1
            behind += (game.state.round, game.state.turn) != where  # the rules have moved on
        nxt = key_asked(game, rng)
        if nxt is None:
            break
        t.press(*nxt)
    assert game.state.is_over()
    assert checked > 20 and (behind > 5 or not pages), (checked, behind)  # the pages of finished turns were checked
