"""Cockroach Poker at the table: pad keys in, views out.

Keys: where a seat is asked for, keys 1-6 name seats; where a critter is asked for,
the 8 keys are the 8 critters in ``KINDS`` order; when receiving, A calls "true"
and X calls "false". The screen labels what each key means in every phase.
A choice made in two steps (target, then claim) reaches the log only when complete.
"""

from __future__ import annotations

from pitable.rules import cockroach as cr
from pitable.rules.cockroach import KINDS, Call, Flip, Lost, Pass, Took
from pitable.rules.log import UNDO
from pitable.screens import views as v
from pitable.table import notices
from pitable.table.base import KEY_A, KEY_X, GameTable

REASONS = {"four_of_a_kind": "4 of a kind", "five_of_a_kind": "5 of a kind", "empty_hand": "empty hand"}


class CockroachTable(GameTable):
    game = cr.GAME
    scores_name = "rows"

    def __init__(self, state: cr.State, seats: tuple, journal, clock=None, signal=None,
                 resumed: bool = False):
        super().__init__(state, seats, journal, clock, signal)
        self.target = None          # player index chosen in the first step of an offer or pass
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, 0, rebid=False))

    # -- what to show ---------------------------------------------------------------------

    def view(self):
        shown = self._view_or_overlay()
        if shown is not None:
            return shown
        toast = self._toast_text()
        st = self.state
        seat = lambda p: None if p is None else self.seats[p]  # noqa: E731
        if st.phase == cr.OFFER:
            return v.CockroachOffer(seat(st.active), "target" if self.target is None else "claim",
                                    seat(self.target), self.seats, tuple(st.hands), toast)
        if st.phase == cr.ANSWER:
            return v.CockroachAnswer(seat(st.to), seat(st.sender), KINDS[st.claim],
                                     tuple(seat(p) for p in st.chain), st.can_pass(),
                                     "decide" if self.target is None else "claim", seat(self.target), toast)
        if st.phase == cr.FLIP:
            return v.CockroachFlip(seat(st.to), KINDS[st.claim], st.call, toast)
        out = st.outcome
        return v.CockroachOver(self.seats, tuple(self.seats[p] for p in out.losers), out.reason,
                               None if out.kind is None else out.kind, toast)

    def _scores_view(self, toast):
        st = self.state
        return v.CockroachRows(self.seats, tuple(st.hands), tuple(st.row(s) for s in range(st.players)), toast)

    # -- keys ---------------------------------------------------------------------------------

    def _phase_key(self, pad: int, player: int, key: int) -> None:
        st = self.state
        if st.phase == cr.OFFER:
            self._offer_key(player, key)
        elif st.phase == cr.ANSWER:
            self._answer_key(player, key)
        else:
            self._commit(Flip(KINDS[key]))  # anyone may report the face-up card

    def _hold(self, pad: int, key: int) -> None:
        if key == KEY_X and self.target is not None:
            self.target = None  # back out of a half-made offer or pass: nothing logged
            self._say("Choose the seat again")
        else:
            super()._hold(pad, key)

    def _offer_key(self, player: int, key: int) -> None:
        st = self.state
        if player != st.active:
            self._say(f"Seat {self.seats[st.active]} offers now")
            return
        if self.target is None:
            self._pick_target(player, key, "offer")
            return
        target, self.target = self.target, None
        if not self._commit(Pass(target, KINDS[key])):
            self.target = target

    def _answer_key(self, player: int, key: int) -> None:
        st = self.state
        if player != st.to:
            self._say(f"Seat {self.seats[st.to]} answers now")
            return
        if self.target is not None:
            target, self.target = self.target, None
            if not self._commit(Pass(target, KINDS[key])):
                self.target = target
            return
        if key in (KEY_A, KEY_X):
            self._commit(Call(key == KEY_A))
        elif not st.can_pass():
            self._say("Everyone saw it: A true, X false" if st.players > 2 else "A: true  X: false")
        else:
            self._pick_target(player, key, "pass")

    def _pick_target(self, player: int, key: int, what: str) -> None:
        st = self.state
        pad = key + 1
        target = self.player_of.get(key)
        if key >= 6 or target is None:
            self._say(f"Keys 1-6: the seat to {what} to")
        elif target == player:
            self._say("Not to yourself")
        elif what == "pass" and target not in st.unseen_seats():
            self._say(f"Seat {pad} has seen it")
        else:
            self.target = target

    # -- committing ------------------------------------------------------------------------------

    def _pushed(self, move, fx) -> None:
        lines = []
        for e in fx:
            if isinstance(e, Took):
                kind = e.kind
                who = "right" if e.why == "right_call" else "wrong"
                lines.append(f"It is a {kind}: call {who}")
                lines.append(f"S{self.seats[e.seat]} lays it face up")
                if not self.state.is_over():
                    lines.append(f"S{self.seats[e.seat]} starts next round")
            elif isinstance(e, Lost):
                lines.append(f"S{self.seats[e.seat]} loses: {REASONS.get(e.reason, e.reason)}")
        if lines:
            self._add_lines("The card", tuple(lines))

    # -- undo -----------------------------------------------------------------------------------

    def _undo_text(self) -> str:
        move = self.state.moves[-1] if self.state.moves else None
        if isinstance(move, Pass):
            return f"pass to S{self.seats[move.to]} ({move.claim})"
        if isinstance(move, Call):
            return f"call {'true' if move.true else 'false'}"
        if isinstance(move, Flip):
            return f"flip: {move.kind}"
        return "nothing"

    def undo(self) -> bool:
        if not self.state.can_pop():
            self._say("Nothing to undo")
            return False
        if not self._write_lines([UNDO], notices.UNDO_NOT_SAVED):
            return False
        self.state.pop()
        self.target = None
        self.notices = []
        self._say("Undone")
        return True
