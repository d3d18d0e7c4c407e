"""Grasshopper Poker told: a move's effects as the lines the table hears (docs/architecture.md,
"One narrator"). The rules say what happened (``fx``); this says it in ``Msg``s, in order:
takes, harvests, a plague and its discard, a stalemate and its card, who gets nothing, the
round's end."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pitable.i18n import ASSISTANT_SEAT, Msg, msg
from pitable.narrator import NOW, REPEAT, STORY, Line, RevealedBids, Told
from pitable.rules import grasshopper as gh
from pitable.rules.grasshopper import KINDS, Bids, Move, State, Choose, Harvested, Plagued, RoundEnded, Stalemate, Took


def counted(n: int, kind: str) -> Msg:
    """"3 corn", "2 strawberries": a count of a garden kind, in words at the output."""
    return msg(f"n.{kind}", n=n)


def cards_list(cards: Iterable[int]) -> tuple[Msg, ...]:
    """Counts per kind index -> a list of counted kinds (a message value)."""
    return tuple(counted(n, KINDS[k]) for k, n in enumerate(cards) if n)


def nothing(seats: Sequence[int]) -> list[Msg]:
    """"S2 gets nothing", or for several seats one line, in seat order: "S2, S3 get nothing"."""
    seats = sorted(seats)
    if not seats:
        return []
    if len(seats) == 1:
        return [msg("line.gets_nothing", seat=seats[0])]
    return [msg("line.get_nothing", seats=tuple(seats))]


def narrate(st: State, move: Move, fx: Sequence[object], seats: tuple[int, ...], virtual: bool, turn: int,
            said: frozenset[str] = frozenset()) -> Told:
    """What ``move`` (just pushed on ``st``, made in turn ``turn``) tells the table.

    ``seats``: the seat number of each player; ``virtual``: the Pi deals the garden cards (no
    real card moves: takes and discards are said where there is room); ``said``: the message
    ids said before in this game (the Pi's lay and chips lines are said once a game)."""
    ended = [e.round for e in fx if isinstance(e, RoundEnded)]
    told = Told(ended[0] if ended else st.round, turn, ())
    head = msg("title.turn", turn=turn)
    out: list[Line] = []

    def say(text: Msg | RevealedBids, when: str, under: Msg | None = None) -> None:
        out.append(Line(under or head, text, when))

    if isinstance(move, Bids):
        say(RevealedBids(tuple((seats[p], c) for p, c in enumerate(move.cards))), STORY)
    garden = REPEAT if virtual else NOW   # with the virtual deck no garden card moves
    for e in fx:
        if isinstance(e, Took):
            seat = seats[e.seat]
            # a take of all the bids reveal said in big letters for 3 s: where there is room
            whole = e.how in ("ace", "x", "alone")
            when = REPEAT if virtual or whole else NOW
            say(msg("line.takes_all" if whole else "line.takes", seat=seat, cards=cards_list(e.cards)), when)
            if seat > ASSISTANT_SEAT and "line.pi_lay_n" not in said:
                # the Pi has no hands: someone lays its cards by it (said on its first take)
                say(msg("line.pi_lay_n", n=sum(e.cards)), when)
                said = said | {"line.pi_lay_n"}
        elif isinstance(e, Harvested):
            seat = seats[e.seat]
            say(msg("line.harvest", seat=seat, cards=counted(3 * e.chips, KINDS[e.kind]), n=e.chips), NOW)
            if seat > ASSISTANT_SEAT and "line.pi_chips" not in said:
                say(msg("line.pi_chips"), NOW)   # on its first harvest, likewise
                said = said | {"line.pi_chips"}
        elif isinstance(e, Plagued):
            # no plants in the garden: nothing to harvest was ever there, so no "no harvest"
            bare = not any(e.cards[1:])
            say(msg("line.plague_bare" if bare else "line.plague", seat=seats[e.seat]), NOW)
            say(msg("line.plague_discard", seat=seats[e.seat]), garden)
        elif isinstance(e, Stalemate):
            stale = msg("title.stalemate")
            round_ends = any(isinstance(x, RoundEnded) for x in fx)
            for m in stalemate_lines(st, e, round_ends, virtual):
                # the spent bid cards may wait (the pads know them); the display's discard not
                say(m, REPEAT if m.id == "line.bids_spent" else NOW, stale)
        elif isinstance(e, RoundEnded):
            for m in nothing_lines(st, move, fx, seats, turn):
                say(m, REPEAT)   # nothing moves: where there is room
            end = msg("title.game_over") if e.final else msg("title.round_over", round=e.round)
            say(end, NOW, end)
            say(msg("line.majority", seats=tuple(seats[s] for s in e.majority)) if e.majority
                else msg("line.no_majority"), NOW, end)
            if not e.final:
                say(msg("line.cards_back"), NOW, end)
    if not any(isinstance(e, RoundEnded) for e in fx):
        for m in nothing_lines(st, move, fx, seats, turn):
            say(m, REPEAT)
    return told._replace(lines=tuple(out))


def stalemate_lines(st: State, e: Stalemate, round_ends: bool, virtual: bool) -> list[Msg]:
    """G7: the bid cards are spent; the display discarded on a second stalemate; then the
    stalemate's card (with an empty draw pile none, and the screen says so). The card entry
    that follows says "turn up, then bid again" with real cards."""
    # the bid cards are spent (on a round's last bid they come back with the round's end)
    lines = [] if round_ends else [msg("line.bids_spent")]
    if e.count > 1:
        lines.append(msg("line.display_discarded"))
    if round_ends or st.is_over():
        return lines  # the round's end says what comes next
    n = st.to_reveal
    if n == 0:
        lines.append(msg("line.no_card_left"))
    elif virtual:
        lines.append(msg("line.card_added", n=n))
    return lines


def nothing_lines(st: State, move: Move, fx: Sequence[object], seats: tuple[int, ...], turn: int) -> list[Msg]:
    """Who gets nothing this turn, in one line in seat order: G3 the seats whose bids
    cancelled (the reveal greyed them), G4 and G6 every other seat beside a take of all (the X
    seat too when it took nothing), G5 the choosers left when the display ran out."""
    if not isinstance(move, (Bids, Choose)):
        return []
    index = max(i for i, m in enumerate(st.moves) if isinstance(m, Bids))
    bids = st.moves[index]
    assert isinstance(bids, Bids)  # the index of the last Bids
    res = gh.resolve(tuple(gh.CARD_INDEX[c] for c in bids.cards), st.options)
    if res.stalemate:
        return []  # the stalemate's lines say the bid cards are spent
    if res.takes_all is not None:  # said with the bids' own move
        if not isinstance(move, Bids):
            return []
        return nothing([seats[p] for p in range(len(bids.cards)) if p != res.takes_all])
    if st.phase is gh.CHOOSING and st.turn == turn:
        return []  # the turn goes on: said at its end (the chooser's screen keeps its big head)
    took = sum(1 for m in st.moves[index + 1:] if isinstance(m, Choose))
    took += sum(1 for e in fx if isinstance(e, Took) and e.how == "forced")
    got = set(res.choosers[:took])  # an X with no Ace to beat chooses nothing: it is counted too
    return nothing([seats[p] for p in range(len(bids.cards)) if p not in got])
