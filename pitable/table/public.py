"""What the outputs beside the glass say, worked out on the loop thread from the table's own
values: the game's story, how the real cards are set up, and which Cockroach Poker rows are
one short of losing (C6). What each key of a seat does is the view's own key table
(``pitable.screens.views.Key``), which the phone's buttons show as they are.

These are values and ``Msg``s, like the views: the phone and TV pages (``pitable.web``) only
make words of them. Nothing here is secret: a seat's pending bid is never in a view, and the
one private thing a phone sees (its own bid) is decided in ``pitable.web.publish.own_bids``.
"""

from __future__ import annotations

from typing import NamedTuple

from pitable.i18n import Msg, msg
from pitable.rules.games import GAMES
from pitable.screens import views as v


def code_elsewhere(seat: int):
    """What the pages show in the glass's place while a seat's join code is on it: which
    seat a phone joins, and that its code is on the Pi's own screen (a ticket reaches no
    client but the glass)."""
    return v.Message(msg("web.qr_public", seat=seat), (msg("web.qr_public_where"),))


# -- the game's story -------------------------------------------------------------------------

class RevealedBids(NamedTuple):
    """A turn's bids, once revealed: (seat number, card name) per player."""

    bids: tuple


class StoryItem(NamedTuple):
    """A turn (Grasshopper Poker) or a round (Cockroach Poker) as told so far."""

    round: int
    turn: int | None     # None: Cockroach Poker tells a round
    lines: tuple         # Msgs and RevealedBids


class Story:
    """The game's story from its moves: each turn's bids once revealed, who took what,
    harvests, plagues, round ends; in Cockroach Poker each offer, pass, call, the card's
    kind and who lays it face up. Kept by the moves already told (loop thread: a move
    costs microseconds), on a copy of the rules made from the header, never the table's."""

    def __init__(self):
        self._header = None
        self._moves: tuple = ()
        self._items: list = []
        self._state = None

    def items(self, header, moves: tuple, seats: tuple) -> tuple:
        """The story of the game ``header`` after ``moves``, oldest first."""
        if header is None:
            return ()
        if header is not self._header or moves[:len(self._moves)] != self._moves:
            from pitable.rules.log import new_state

            self._header, self._moves, self._items = header, (), []
            self._state = new_state(header)
        for move in moves[len(self._moves):]:
            self._push(move, seats)
        self._moves = moves
        return tuple(self._items)

    def _push(self, move, seats) -> None:
        st = self._state
        round_, turn = st.round, getattr(st, "turn", None)
        fx = st.push(move)
        lines = TELL[self._header["game"]](st, move, fx, seats)
        if not lines:
            return
        last = self._items[-1] if self._items else None
        if last is not None and (last.round, last.turn) == (round_, turn) and not isinstance(lines[0], RevealedBids):
            self._items[-1] = last._replace(lines=last.lines + lines)  # the rest of a turn goes with its bids
        else:
            self._items.append(StoryItem(round_, turn, lines))



def _grasshopper(st, move, fx, seats) -> tuple:
    """A turn's story: its bids once revealed, who takes what, harvests, plagues, the
    stalemate, the round's end."""
    from pitable.rules.grasshopper import KINDS, Bids, Harvested, Plagued, RoundEnded, Stalemate, Took
    from pitable.table.grasshopper import cards_list, counted

    lines = []
    if isinstance(move, Bids):
        lines.append(RevealedBids(tuple((seats[p], c) for p, c in enumerate(move.cards))))
    for e in fx:
        if isinstance(e, Took):
            key = "line.takes_all" if e.how in ("ace", "x", "alone") else "line.takes"
            lines.append(msg(key, seat=seats[e.seat], cards=cards_list(e.cards)))
        elif isinstance(e, Harvested):
            lines.append(msg("line.harvest", seat=seats[e.seat], cards=counted(3 * e.chips, KINDS[e.kind]), n=e.chips))
        elif isinstance(e, Plagued):
            lines.append(msg("line.plague", seat=seats[e.seat]))
        elif isinstance(e, Stalemate):
            lines.append(msg("title.stalemate"))
        elif isinstance(e, RoundEnded):
            lines.append(msg("title.round_over", round=e.round))
            lines.append(msg("line.majority", seats=tuple(seats[s] for s in e.majority)) if e.majority
                         else msg("line.no_majority"))
    return tuple(lines)


def _cockroach(st, move, fx, seats) -> tuple:
    """A round's story in order: the offer, each pass with its claim, the call, the card's
    kind and who lays it face up (and a row one short of losing, C6), the loss."""
    from pitable.rules.cockroach import KIND_INDEX, Called, Lost, Offered, Passed, Took

    lines = []
    for e in fx:
        if isinstance(e, (Offered, Passed)):
            lines.append(msg("cr.story.offer" if isinstance(e, Offered) else "cr.story.pass",
                             seat=seats[e.seat], to=seats[e.to], kind=msg(f"kind.{e.claim}")))
        elif isinstance(e, Called):
            lines.append(msg("cr.story.true" if e.true else "cr.story.false", seat=seats[e.seat]))
        elif isinstance(e, Took):
            lines.append(msg("cr.line.right" if e.why == "right_call" else "cr.line.wrong",
                             kind=msg(f"kind.{e.kind}")))
            lines.append(msg("cr.line.face_up", seat=seats[e.seat]))
            count = st.rows[e.seat][KIND_INDEX[e.kind]]
            if not st.is_over() and count == st.losing_count - 1:
                lines.append(msg("cr.line.one_more", seat=seats[e.seat], cards=msg(f"n.{e.kind}", n=count)))
        elif isinstance(e, Lost):
            lines.append(msg(f"cr.line.loses.{e.reason}", seat=seats[e.seat]))
    return tuple(lines)


# -- where the glass is ----------------------------------------------------------------------

def where(current) -> tuple | None:
    """(round, turn) the glass shows (turn None in Cockroach Poker), or None in setup: the
    panel beside the glass says this, not the rules' round that has moved on while the
    glass still shows the last turn's pages."""
    return current.where()


# -- the real cards before the game has begun; rows one short of losing --------------------

class SetUp(NamedTuple):
    title: Msg
    lines: tuple         # Msgs


def set_up(current) -> SetUp | None:
    """How the real cards are set up while the game has not really begun: Cockroach Poker
    until the first offer (C1, C6: the glass's own deal lines), Grasshopper Poker until the
    first bids are revealed (the rulebook's preparation). None in setup or once begun."""
    state = current.state
    if state is None:
        return None
    return SET_UP[current.game](current, state)


def _cockroach_set_up(current, state) -> SetUp | None:
    return SetUp(msg("cr.title.deal"), current.deal_lines()) if not state.moves else None


def _grasshopper_set_up(current, state) -> SetUp | None:
    from pitable.rules.grasshopper import BIDDING, REVEAL

    if state.round != 1 or state.turn != 1 or state.phase not in (REVEAL, BIDDING):
        return None
    lines = [msg("gh.setup.cards"), msg("gh.setup.chips")]
    if current.header.get("deck") == "virtual":
        lines.append(msg("gh.setup.virtual"))
    else:
        lines += [msg("gh.setup.pile"), msg("gh.setup.display")]
    return SetUp(msg("gh.title.setup"), tuple(lines))


def _by_game(grasshopper, cockroach) -> dict:
    from pitable.rules import cockroach as cr, grasshopper as gh

    out = {gh.GAME: grasshopper, cr.GAME: cockroach}
    assert set(out) == set(GAMES), "a game without its story or set-up here"
    return out


TELL = _by_game(_grasshopper, _cockroach)
SET_UP = _by_game(_grasshopper_set_up, _cockroach_set_up)


def one_short(current) -> tuple:
    """C6: the seat numbers with a row one card short of losing (Cockroach Poker)."""
    rows = getattr(current.state, "rows", None)  # Cockroach Poker's rules state has rows
    if rows is None:
        return ()
    return tuple(current.seats[p] for p, row in enumerate(rows) if current.state.losing_count - 1 in row)
