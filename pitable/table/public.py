"""What the outputs beside the glass say, worked out on the loop thread from the table's own
values: the game's story, how the real cards are set up, and which Cockroach Poker rows are
one short of losing (C6). What each key of a seat does is the view's own key table
(``pitable.screens.views.Key``), which the phone's buttons show as they are.

These are values and ``Msg``s, like the views: the phone and TV pages (``pitable.web``) only
make words of them. Nothing here is secret: a seat's pending bid is never in a view, and the
one private thing a phone sees (its own bid) is decided in ``pitable.web.publish.own_bids``.
"""

from __future__ import annotations

from pitable.i18n import msg
from pitable.screens import views as v
from pitable.table.games import SetUp, table_game


def code_elsewhere(seat: int):
    """What the pages show in the glass's place while a seat's join code is on it: which
    seat a phone joins, and that its code is on the Pi's own screen (a ticket reaches no
    client but the glass)."""
    return v.Message(msg("web.qr_public", seat=seat), (msg("web.qr_public_where"),))


# -- the game's story: the narrator's (pitable.narrator), kept by the game's controller -------

def story(current) -> tuple:
    """The game's story so far, oldest first (``pitable.narrator.StoryItem``s): the lines the
    glass said, in the same words, and the bids and offers it showed on screens of their own."""
    return current.story()


# -- where the glass is ----------------------------------------------------------------------

def where(current) -> tuple | None:
    """(round, turn) the glass shows (turn None in Cockroach Poker), or None in setup: the
    panel beside the glass says this, not the rules' round that has moved on while the
    glass still shows the last turn's pages."""
    return current.where()


# -- the real cards before the game has begun; rows one short of losing --------------------

def set_up(current) -> SetUp | None:
    """How the real cards are set up while the game has not really begun: Cockroach Poker
    until the first offer (C1, C6: the glass's own deal lines), Grasshopper Poker until the
    first bids are revealed (the rulebook's preparation). None in setup or once begun."""
    state = current.state
    if state is None:
        return None
    return table_game(current.game).set_up(current, state)


def one_short(current) -> tuple:
    """C6: the seat numbers with a row one card short of losing (Cockroach Poker)."""
    rows = getattr(current.state, "rows", None)  # Cockroach Poker's rules state has rows
    if rows is None:
        return ()
    return tuple(current.seats[p] for p, row in enumerate(rows) if current.state.losing_count - 1 in row)
