"""Cockroach Poker told: a move's effects as the lines the table hears. In quick mode, the
card laid face up (and a row one short). The offer, each pass
and the call are the story's (the glass showed each on a screen of its own); the card's kind,
who lays it face up, a row one short of losing (C6), who starts next and the loss are said on
the glass before anyone plays on."""

from __future__ import annotations

from collections.abc import Sequence

from pitable.i18n import msg
from pitable.narrator import NOW, STORY, Line, Told
from pitable.rules.cockroach import KIND_INDEX, Move, State, Called, Lost, Offered, Passed, Took


def narrate(st: State, move: Move, fx: Sequence[object], seats: tuple[int, ...], round_: int) -> Told:
    """What ``move`` (just pushed on ``st``, made in round ``round_``) tells the table."""
    head = msg("cr.title.card")
    out: list[Line] = []
    for e in fx:
        if isinstance(e, (Offered, Passed)):
            out.append(Line(head, msg("cr.story.offer" if isinstance(e, Offered) else "cr.story.pass",
                                      seat=seats[e.seat], to=seats[e.to], kind=msg(f"kind.{e.claim}")), STORY))
        elif isinstance(e, Called):
            out.append(Line(head, msg("cr.story.true" if e.true else "cr.story.false", seat=seats[e.seat]), STORY))
        elif isinstance(e, Took) and e.why == "laid":  # quick mode: the table heard no call
            out.append(Line(head, msg("cr.quick.laid", seat=seats[e.seat], kind=msg(f"kind.{e.kind}")), NOW))
            count = st.rows[e.seat][KIND_INDEX[e.kind]]
            if not st.is_over() and count == st.losing_count - 1:
                out.append(Line(head, msg("cr.line.one_more", seat=seats[e.seat],
                                          cards=msg(f"n.{e.kind}", n=count)), NOW))
        elif isinstance(e, Took):
            out.append(Line(head, msg("cr.line.right" if e.why == "right_call" else "cr.line.wrong",
                                      kind=msg(f"kind.{e.kind}")), NOW))
            out.append(Line(head, msg("cr.line.face_up", seat=seats[e.seat]), NOW))
            if not st.is_over():
                count = st.rows[e.seat][KIND_INDEX[e.kind]]
                if count == st.losing_count - 1:  # C6: the table is warned at the moment
                    out.append(Line(head, msg("cr.line.one_more", seat=seats[e.seat],
                                              cards=msg(f"n.{e.kind}", n=count)), NOW))
                out.append(Line(head, msg("cr.line.starts", seat=seats[e.seat]), NOW))
        elif isinstance(e, Lost):
            out.append(Line(head, msg(f"cr.line.loses.{e.reason}", seat=seats[e.seat]), NOW))
    return Told(round_, None, tuple(out))
