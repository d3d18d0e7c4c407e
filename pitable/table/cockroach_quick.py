"""Cockroach Poker in quick mode at the table: one press a round.

The round is played aloud with the real cards (the offer, the claims, the passes, the
call); the table does not hear it. Whoever lays the round's card face up presses its
critter on their own pad (or phone): the 8 keys are the 8 critters in ``KINDS`` order,
for every seat. From that press the rules (``pitable.rules.cockroach.QuickState``) know
whose row grew, who starts next (that taker), the starter's hand one card fewer, a row
one short of losing, and the loss.
"""

from __future__ import annotations

from pitable.i18n import msg
from pitable.rules import cockroach as cr
from pitable.rules.cockroach import KINDS, Laid, Lost, Took
from pitable.screens import views as v
from pitable.table.cockroach import CockroachTable


class QuickCockroachTable(CockroachTable):
    """The full mode's table (the deal pages, the rows on hold A, the result, undo, drop)
    with the round's one key screen in place of the offer, answer and flip."""

    def deal_lines(self) -> tuple:
        """The full mode's deal (C1, C6), and who presses in quick mode, before who starts."""
        lines = super().deal_lines()
        return lines[:-1] + (msg("cr.deal.quick"), lines[-1])

    def _keys(self) -> tuple:
        """The one key table of the round's screen: every seat's key k lays critter k."""
        return tuple(v.Key(k, ("lay", kind), msg(f"kind.{kind}")) for k, kind in enumerate(KINDS))

    def _phase_view(self, toast, st):
        if st.phase != cr.LAY:
            return super()._phase_view(toast, st)   # the result
        return v.CockroachQuick(st.round, self.seats[st.active], self.seats, tuple(st.hands),
                                tuple(st.row(p) for p in range(st.players)), st.losing_count, toast,
                                self._keys())

    def _phase_keys(self, shown) -> tuple:
        if self.state.phase != cr.LAY:
            return super()._phase_keys(shown)
        return self._keys()

    def _phase_do(self, pad: int, player: int, does: tuple) -> None:
        if does[0] != "lay":
            return super()._phase_do(pad, player, does)
        kind = does[1]
        if self.state.face_up()[cr.KIND_INDEX[kind]] >= cr.PER_KIND:  # C1: 8 of each; a slip of the finger
            self._say("cr.quick.all_up", cards=msg(f"n.{kind}", n=cr.PER_KIND))
            return
        self._commit(Laid(player, kind))   # the presser is the taker: its own pad

    def _phase_refuse(self, pad: int, player: int, key: int) -> None:
        self._say("toast.hold_help_rows")

    def _next_step(self):
        st = self.state
        if st.is_over():
            return msg("foot.results")
        assert st.active is not None  # a game not over has its starter
        return msg("foot.offers", seat=self.seats[st.active])

    def _hold(self, pad: int, key: int) -> None:
        super(CockroachTable, self)._hold(pad, key)   # no half-made offer to back out of

    def _pushed(self, move, fx) -> None:
        """The press is confirmed by a toast on the next round's screen (no page to turn):
        the card laid, or the row it makes one short of losing (C6). The loss goes
        straight to the result. The story tells it as the narrator does."""
        self._record(move, fx, self._before)
        st = self.state
        for e in fx:
            if isinstance(e, Lost):
                return
        for e in fx:
            if isinstance(e, Took):
                count = st.rows[e.seat][cr.KIND_INDEX[e.kind]]
                if count == st.losing_count - 1:
                    self._say("cr.line.one_more", seat=self.seats[e.seat], cards=msg(f"n.{e.kind}", n=count))
                else:
                    self._say("cr.quick.laid", seat=self.seats[e.seat], kind=msg(f"kind.{e.kind}"))

    def _undo_text(self):
        move = self.state.moves[-1] if self.state.moves else None
        if isinstance(move, Laid):
            return msg("undo.laid", seat=self.seats[move.seat], kind=msg(f"kind.{move.kind}"))
        return msg("undo.nothing")
