"""Cockroach Poker at the table: pad keys in, views out.

Keys: where a seat is asked for, keys 1-6 name seats; where a critter is asked for,
the 8 keys are the 8 critters in ``KINDS`` order; when receiving, A calls "true"
and X calls "false". The screen labels what each key means in every phase.
A choice made in two steps (target, then claim) reaches the log only when complete.
"""

from __future__ import annotations

from pitable.rules import cockroach as cr
from pitable.rules.cockroach import KINDS, Call, Flip, Pass
from pitable.rules.log import UNDO
from pitable.i18n import msg
from pitable.narrator import for_glass
from pitable.narrator.cockroach import narrate
from pitable.screens import views as v
from pitable.screens.views import Key
from pitable.table import notices
from pitable.table.base import KEY_A, KEY_X, GameTable


class CockroachTable(GameTable):
    game = cr.GAME
    scores_name = "rows"
    state: cr.State

    def __init__(self, state: cr.State, seats: tuple, journal, clock=None, signal=None,
                 resumed: bool = False, **kw):
        super().__init__(state, seats, journal, clock, signal, **kw)
        self.target = None          # player index chosen in the first step of an offer or pass
        self._retell()
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, 0, rebid=False, keys=self._page_keys()))
        elif not state.moves:
            self._add_lines(msg("cr.title.deal"), self.deal_lines())

    def deal_lines(self) -> tuple:
        """C1, C6: what the table does with the real cards before the first offer, for
        this number of players: cards set aside (two players), the deal from the first
        player, how many each, how the game ends, who offers first."""
        st = self.state
        lines = []
        if st.aside:
            lines.append(msg("cr.deal.aside"))
        first = self.seats[st.first]
        lines.append(msg("cr.deal.from", n=sum(st.hands), seat=first))
        by_count: dict = {}
        for p, n in enumerate(st.hands):  # the first seats get the extra cards (C1)
            by_count.setdefault(n, []).append(self.seats[p])
        for n, seats in sorted(by_count.items(), reverse=True):
            lines.append(msg("cr.deal.each", seats=tuple(seats), n=n))
        lines.append(msg("cr.deal.lose_at", n=st.losing_count))
        lines.append(msg("cr.deal.empty"))
        lines.append(msg("cr.deal.first", seat=first))
        return tuple(lines)

    def _only_target(self):
        """C4 with two players: an offer can only go to the other seat (chosen by itself)."""
        st = self.state
        if st.players == 2 and st.phase == cr.OFFER and st.active is not None:
            return 1 - st.active
        return None

    # -- what to show ---------------------------------------------------------------------

    def _phase_view(self, toast, st):
        seat = lambda p: None if p is None else self.seats[p]  # noqa: E731
        if st.phase == cr.OFFER:
            assert st.active is not None  # an offer has its offerer
            only = self._only_target()
            target = self.target if only is None else only
            return v.CockroachOffer(self.seats[st.active], "target" if target is None else "claim",
                                    seat(target), self.seats, tuple(st.hands), toast, only is not None)
        if st.phase == cr.ANSWER:
            assert st.to is not None and st.sender is not None and st.claim is not None  # a card offered
            forced = None if st.can_pass() else "two_players" if st.players == 2 else "all_seen"
            return v.CockroachAnswer(self.seats[st.to], self.seats[st.sender], KINDS[st.claim],
                                     tuple(self.seats[p] for p in st.chain), st.can_pass(),
                                     "decide" if self.target is None else "claim", seat(self.target), toast,
                                     tuple(sorted(self.seats[p] for p in st.unseen_seats())) if st.can_pass() else (),
                                     forced)
        if st.phase == cr.FLIP:
            assert st.to is not None and st.claim is not None  # a card called
            return v.CockroachFlip(self.seats[st.to], KINDS[st.claim], st.call, toast)
        out = st.outcome
        return v.CockroachOver(self.seats, tuple(self.seats[p] for p in out.losers), out.reason,
                               None if out.kind is None else out.kind, toast)

    def _scores_view(self, toast):
        st = self.state
        return v.CockroachRows(self.seats, tuple(st.hands), tuple(st.row(s) for s in range(st.players)), toast,
                               cr.loss_count(st.players))  # C6

    # -- keys ---------------------------------------------------------------------------------

    def _phase_keys(self, shown) -> tuple:
        """Where a seat is asked for, keys 1-6 name the seats that may be chosen (a phone's
        seat after 6 has no key of its own); where a critter is, the 8 keys are the 8
        critters; the receiver calls with A (true) and X (false). Only the seat whose turn
        it is presses, but anyone may report the face-up card."""
        st = self.state
        seat = lambda p: self.seats[p]  # noqa: E731
        critters = lambda does, seats: tuple(Key(i, (does, k), msg(f"kind.{k}"), seats)  # noqa: E731
                                             for i, k in enumerate(KINDS))
        seats_keys = lambda does, chosen, by: tuple(Key(s - 1, (does, s), msg("seat", seat=s), by)  # noqa: E731
                                                    for s in chosen if s <= 6)
        if st.phase == cr.OFFER:
            me = (seat(st.active),)
            if self.target is None and self._only_target() is None:
                return seats_keys("target", [s for s in self.seats if s != me[0]], me)
            return critters("claim", me)
        if st.phase == cr.ANSWER:
            me = (seat(st.to),)
            if self.target is not None:
                return critters("claim", me)
            calls = (Key(KEY_A, ("call", True), msg("key.true"), me), Key(KEY_X, ("call", False), msg("key.false"), me))
            if not st.can_pass():
                return calls
            return seats_keys("pass_to", sorted(seat(p) for p in st.unseen_seats()), me) + calls
        return critters("flip", tuple(self.seats))  # anyone may report the face-up card

    def _phase_do(self, pad: int, player: int, does: tuple) -> None:
        what = does[0]
        if what in ("target", "pass_to"):
            self.target = self.player_of[does[1] - 1]
        elif what == "claim":
            target = self.target if self.target is not None else self._only_target()
            self.target = None
            if not self._commit(Pass(target, does[1])):
                self.target = target
        elif what == "call":
            self._commit(Call(does[1]))
        elif what == "flip":
            self._commit(Flip(does[1]))

    def _phase_refuse(self, pad: int, player: int, key: int) -> None:
        """Why a key does nothing here (the key table gave it no meaning)."""
        st = self.state
        if st.phase == cr.OFFER:
            if player != st.active:
                assert st.active is not None  # an offer has its offerer
                self._say("toast.offers_now", seat=self.seats[st.active])
            else:
                self._target_refused(player, key, "offer")
        elif st.phase == cr.ANSWER:
            if player != st.to:
                assert st.to is not None  # a card offered has its receiver
                self._say("toast.answers_now", seat=self.seats[st.to])
            elif not st.can_pass():
                self._say("toast.must_call" if st.players > 2 else "toast.call_2p")
            else:
                self._target_refused(player, key, "pass")

    def _next_step(self):
        st = self.state
        if st.is_over():
            return msg("foot.results")
        if st.phase == cr.OFFER:
            assert st.active is not None  # an offer has its offerer
            return msg("foot.offers", seat=self.seats[st.active])
        return None

    def _hold(self, pad: int, key: int) -> None:
        if key == KEY_X and self.target is not None:
            self.target = None  # back out of a half-made offer or pass: nothing logged
            self._say("toast.choose_seat_again")
        else:
            super()._hold(pad, key)

    def _target_refused(self, player: int, key: int, what: str) -> None:
        """Why a key names no seat to offer or pass to."""
        st = self.state
        target = self.player_of.get(key)
        if key >= 6 or target is None:
            if what == "pass":
                may = tuple(sorted(self.seats[p] for p in st.unseen_seats()))
            else:
                may = tuple(s for s in self.seats if s != self.seats[player])
            self._say(f"toast.seat_to_{what}", seats=may)
        elif target == player:
            self._say("toast.not_yourself")
        else:
            self._say("toast.has_seen", seat=key + 1)

    # -- committing ------------------------------------------------------------------------------

    def _narrate(self, move, fx, before: tuple, said_ids: frozenset):
        return narrate(self.state, move, fx, self.seats, before[0])

    def _pushed(self, move, fx) -> None:
        lines = [line.text for line in for_glass(self._record(move, fx, self._before).lines)]
        if lines:   # the card's result: on a page that waits for a key (the table lays the card)
            self._add_lines(msg("cr.title.card"), tuple(lines))

    def _commit(self, move) -> bool:
        self._before = self._where_now()
        return super()._commit(move)

    # -- undo -----------------------------------------------------------------------------------

    def _drop_text(self):
        return msg("drop.what_rows", round=self.state.round)

    def _undo_text(self):
        move = self.state.moves[-1] if self.state.moves else None
        if isinstance(move, Pass):
            return msg("undo.pass", seat=self.seats[move.to], kind=msg(f"kind.{move.claim}"))
        if isinstance(move, Call):
            return msg("undo.call_true" if move.true else "undo.call_false")
        if isinstance(move, Flip):
            return msg("undo.flip", kind=msg(f"kind.{move.kind}"))
        return msg("undo.nothing")

    def undo(self) -> bool:
        if not self.state.can_pop():
            self._say("toast.nothing_to_undo")
            return False
        if not self._write_lines([UNDO], notices.UNDO_NOT_SAVED):
            return False
        self.state.pop()
        self.target = None
        self.notices = []
        self._say("toast.undone")
        return True
