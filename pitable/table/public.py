"""What the outputs beside the glass say, worked out on the loop thread from the table's own
values: what each key of a seat does on the screen shown now, the game's story, how the real
cards are set up, and which Cockroach Poker rows are one short of losing (C6).

These are values and ``Msg``s, like the views: the phone and TV pages (``pitable.web``) only
make words of them. Nothing here is secret: a seat's pending bid is never in a view, and the
one private thing a phone sees (its own bid) is decided in ``pitable.web.publish.own_bids``.
"""

from __future__ import annotations

from typing import NamedTuple

from pitable.i18n import Msg, msg
from pitable.keys import KEY_A, KEY_PI, KEY_SAME, KEY_X, NAMES
from pitable.rules.games import GAMES
from pitable.screens import views as v
from pitable.table.notices import REVEAL_NOT_SAVED


class KeyLabel(NamedTuple):
    """One key of a seat's pad as the screen shown now means it."""

    name: str            # what the key's cap says ("1".."6", "A", "X")
    label: Msg | str     # what it does here; the cap's name itself where the key is a card
    on: bool             # False: the key does nothing on this screen


def _only(labels: dict) -> tuple:
    return tuple(KeyLabel(n, labels.get(i, n), i in labels) for i, n in enumerate(NAMES))


def _all(label: Msg) -> tuple:
    return tuple(KeyLabel(n, label, True) for n in NAMES)


def seat_keys(view, seat: int, state: dict | None = None) -> tuple:
    """The 8 keys of ``seat`` (a seat number) on ``view``, with the same meanings the
    controllers give them and the screens label (docs/architecture.md, "Keys and screens").
    ``state`` is the public state by seat (``pitable.web.publish.public_state``): the
    bidding screen's spent cards."""
    if getattr(view, "keys", ()):  # a view that carries its key table (views.Key): its labels
        return tuple(KeyLabel(n, next((k.label for k in view.keys if k.key == i), n),
                              v.meaning(view.keys, seat, i) is not None) for i, n in enumerate(NAMES))
    if isinstance(view, v.Setup):
        if view.step == "game":
            return _only({i: msg(f"game.{name}") for i, name in enumerate(GAMES)} | {KEY_X: msg("web.language")})
        if view.step == "join":
            if view.phone:
                return _only({KEY_X: msg("key.go_on")})
            if seat not in view.joined:
                return _all(msg("web.join"))
            labels = {KEY_A: msg("key.go_on"), KEY_X: msg("key.leave")}
            if GAMES[view.game].assistant:
                labels[KEY_PI] = view.pi_key or msg("seat.assistant")
            return _only(labels)
        labels = {i: label for i, (label, _) in enumerate(view.options)}
        labels.update({KEY_A: msg("key.start"), KEY_X: msg("web.back")})
        return _only(labels)
    if isinstance(view, v.Bidding):
        pads = (state or {}).get("pads", ())
        if seat not in pads:
            return _only({})
        spent = set(state["seats"][pads.index(seat)].get("spent", ()))
        return tuple(KeyLabel(n, n, n not in spent) for n in NAMES)
    if isinstance(view, v.RevealPrompt):
        from pitable.rules.grasshopper import KINDS

        if view.by is not None and view.by != seat:  # one card, one record: the seat that names them
            return _only({})
        return _only({i: msg(f"kind.{k}") for i, k in enumerate(KINDS)})
    if isinstance(view, v.Choosing):
        if view.seat != seat:
            return _only({})
        from pitable.rules.grasshopper import KINDS

        return _only({KINDS.index(k): msg(f"n.{k}", n=n) for k, n in view.kinds})  # a kind's one key
    if isinstance(view, v.ConfirmUndo):
        return tuple(KeyLabel(n, msg("key.yes") if i == KEY_A else msg("key.no"), True) for i, n in enumerate(NAMES))
    if isinstance(view, (v.GameOver, v.CockroachOver)):
        return _only({KEY_SAME: msg("key.again"), KEY_A: msg("key.new_game")})
    if isinstance(view, (v.CockroachOffer, v.CockroachAnswer, v.CockroachFlip)):
        return _cockroach_keys(view, seat)
    # Screens that say "any key": every button says what any key does there, and no button
    # is a card, a kind or a seat
    if isinstance(view, (v.Scores, v.CockroachRows, v.Sitting)):
        return _all(msg("web.back"))
    if isinstance(view, v.Message) and view.title == msg(REVEAL_NOT_SAVED):
        return _all(msg("key.try_again"))
    if isinstance(view, (v.BidsRevealed, v.Instructions, v.Resumed, v.Message)):
        return _all(msg("key.go_on"))
    return tuple(KeyLabel(n, n, True) for n in NAMES)


def code_elsewhere(seat: int):
    """What the pages show in the glass's place while a seat's join code is on it: which
    seat a phone joins, and that its code is on the Pi's own screen (a ticket reaches no
    client but the glass)."""
    return v.Message(msg("web.qr_public", seat=seat), (msg("web.qr_public_where"),))


def _seats(seats, but: int | None = None) -> dict:
    """Keys 1-6 name seats 1-6 (a phone's seat after 6 has no key of its own)."""
    return {s - 1: msg("seat", seat=s) for s in seats if s != but and s <= 6}


def _cockroach_keys(view, seat: int) -> tuple:
    from pitable.rules.cockroach import KINDS

    critters = {i: msg(f"kind.{k}") for i, k in enumerate(KINDS)}
    if isinstance(view, v.CockroachOffer):
        if view.seat != seat:
            return _only({})
        return _only(_seats(view.seats, but=seat) if view.step == "target" else critters)
    if isinstance(view, v.CockroachAnswer):
        if view.seat != seat:
            return _only({})
        if view.step == "claim":
            return _only(critters)
        return _only(_seats(view.pass_to) | {KEY_A: msg("key.true"), KEY_X: msg("key.false")})
    return _only(critters)  # the flip: any seat may report the face-up critter (as on the pads)



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
        elif isinstance(e, Took) and e.why == "laid":  # quick mode: the table heard no call
            lines.append(msg("cr.quick.laid", seat=seats[e.seat], kind=msg(f"kind.{e.kind}")))
            count = st.rows[e.seat][KIND_INDEX[e.kind]]
            if not st.is_over() and count == st.losing_count - 1:
                lines.append(msg("cr.line.one_more", seat=seats[e.seat], cards=msg(f"n.{e.kind}", n=count)))
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
