"""Grasshopper Poker at the table: pad keys in, views out.

The controller holds the rules state, the secret bids of the turn in progress
(memory only: they reach the log and the screen only when the last seat locks in),
and what the table has still to read (notices). It writes every committed input to
the journal before the state takes it, so the screen never confirms a move that a
power cut could lose.
"""

from __future__ import annotations

from pitable.rules import grasshopper as gh
from pitable.rules.grasshopper import (BIDDING, CHOOSING, KINDS, REVEAL, Bids, Choose,
                                       Harvested, Plagued, Reveal, RoundEnded, Stalemate, Took)
from pitable.rules.log import UNDO
from pitable.screens import views as v
from pitable.table import notices
from pitable.table.base import GameTable


def plural(n: int, kind: str) -> str:
    if kind == "strawberry" or kind == "blackberry":
        return f"{n} {kind[:-1]}ies" if n > 1 else f"1 {kind}"
    return f"{n} {kind}{'s' if n > 1 and kind == 'grasshopper' else ''}"


def cards_text(cards) -> str:
    return ", ".join(plural(n, KINDS[k]) for k, n in enumerate(cards) if n) or "nothing"


class GrasshopperTable(GameTable):
    """One game of Grasshopper Poker driven by the pads.

    ``deck`` is a VirtualDeck, or None when the table turns up real garden cards and
    reports them. Bids of the turn in progress stay in memory (``pending``) until the
    last seat locks in: only then do they reach the log and the screen.
    """

    game = gh.GAME

    def __init__(self, state: gh.State, seats: tuple, journal, deck: gh.VirtualDeck | None = None,
                 clock=None, signal=None, resumed: bool = False):
        super().__init__(state, seats, journal, clock, signal)
        self.deck = deck
        self.pending: dict = {}     # player -> card int: secret until the last lock-in
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, state.turn,
                                          rebid=state.phase == BIDDING))
        self._auto_reveal_now()

    # -- what to show ---------------------------------------------------------------------

    def view(self):
        shown = self._view_or_overlay()
        if shown is not None:
            return shown
        toast = self._toast_text()
        st = self.state
        if st.phase is REVEAL:
            return v.RevealPrompt(st.to_reveal, self._reveal_reason(), self._display(), st.pile, toast)
        if st.phase is BIDDING:
            locked = tuple(self.seats[p] for p in sorted(self.pending))
            return v.Bidding(st.round, st.turn, self._display(), self.seats, locked, st.pile, toast)
        if st.phase is CHOOSING:
            chooser = st.chooser
            kinds = tuple((KINDS[k], n) for k, n in enumerate(st.display) if n)
            return v.Choosing(self.seats[chooser], kinds, tuple(self.seats[p] for p in st.choosers[1:]), toast)
        out = st.outcome
        return v.GameOver(self.seats, out.chips, out.grasshoppers,
                          tuple(self.seats[p] for p in out.winners), toast)

    # -- keys ---------------------------------------------------------------------------------

    def _phase_key(self, pad: int, player: int, key: int) -> None:
        phase = self.state.phase
        if phase is REVEAL and self.deck is not None:
            self._auto_reveal_now()  # the disk refused the reveals before: any key tries again
        elif phase is REVEAL:
            self._reveal_key(key)
        elif phase is BIDDING:
            self._bid_key(pad, player, key)
        elif phase is CHOOSING:
            self._choose_key(pad, player, key)

    def _can_undo(self) -> bool:
        return self._undo_target() is not None

    def _phase_guesses(self) -> list:
        if self.state.phase is not BIDDING or len(self.pending) + 1 >= self.state.players:
            return []  # the last lock-in reveals bids nobody can guess
        # Who locks in next; the card is not needed (and not known): the screen shows none.
        return [self._peek(pending={**self.pending, p: None})
                for p in range(self.state.players) if p not in self.pending]

    def _reveal_key(self, key: int) -> None:
        if key >= len(KINDS):
            self._say("Keys 1-5 name the kind")
            return
        self._commit(Reveal(KINDS[key]))

    def _bid_key(self, pad: int, player: int, key: int) -> None:
        if self.state.spent[player] >> key & 1:
            # Said without the card: the others must not learn what this seat has left.
            self.signal(pad)
            self._say(f"Seat {pad + 1}: card spent, bid again")
            return
        self.pending[player] = key  # a seat may change its bid until the last locks in
        if len(self.pending) == self.state.players:
            bids = tuple(gh.CARDS[self.pending[p]] for p in range(self.state.players))
            self.pending = {}
            self._commit(Bids(bids))

    def _choose_key(self, pad: int, player: int, key: int) -> None:
        if player != self.state.chooser:
            self._say(f"Seat {self.seats[self.state.chooser]} chooses now")
            return
        kinds = self.state.display_kinds()
        if key >= len(kinds):
            self._say(f"Keys 1-{len(kinds)} choose")
            return
        self._commit(Choose(kinds[key]))

    # -- committing inputs ---------------------------------------------------------------------

    def _commit(self, move) -> bool:
        self._turn = self.state.turn  # the instructions name the turn just played
        return super()._commit(move)

    def _pushed(self, move, fx) -> None:
        self._announce(move, fx, self._turn)
        self._auto_reveal(sync=False)  # synced with the move that made them due

    def _auto_reveal_now(self) -> None:
        """The assistant's reveals due now (a resumed game), durable before they show."""
        if self.deck is None or self.state.phase is not REVEAL:
            return
        mark = self._mark()
        try:
            self._auto_reveal(sync=True)
        except OSError as e:
            self._refused(e, mark, notices.REVEAL_NOT_SAVED)

    def _auto_reveal(self, sync: bool = True) -> None:
        """With a virtual deck the assistant turns up the cards itself (and logs them)."""
        if self.deck is None:
            return
        revealed = []
        while self.state.phase is REVEAL:
            move = self.deck.next_reveal(self.state)
            self.journal.write(move.to_json())
            turn = self.state.turn
            fx = self.state.push(move)
            revealed.append(move.kind)
            if fx:
                self._announce(move, fx, turn)
        if revealed and sync:
            self.journal.sync()
        if revealed and any(n for n in self.notices if isinstance(n, v.Instructions)):
            self._add_lines("Display", (f"New: {', '.join(revealed)}",))

    def _announce(self, move, fx, turn: int) -> None:
        """Turn what happened into screens the table reads: the reveal, then instructions."""
        st = self.state
        if isinstance(move, Bids):
            cards = tuple(gh.CARD_INDEX[c] for c in move.cards)
            res = gh.resolve(cards, st.options)
            self.notices.append(v.BidsRevealed(
                self.seats, move.cards, tuple(self.seats[p] for p in res.cancelled),
                None if res.takes_all is None else self.seats[res.takes_all], res.how,
                () if res.takes_all is not None else tuple(self.seats[p] for p in res.choosers),
                res.stalemate))
        lines = []
        title = f"Turn {turn}"
        for e in fx:
            if isinstance(e, Took):
                seat = self.seats[e.seat]
                if e.how in ("ace", "x", "alone"):
                    lines.append(f"S{seat} takes all: {cards_text(e.cards)}")
                else:
                    lines.append(f"S{seat} takes {cards_text(e.cards)}")
            elif isinstance(e, Harvested):
                lines.append(f"S{self.seats[e.seat]} harvests {plural(3 * e.chips, KINDS[e.kind])}: "
                             f"+{e.chips} chip{'s' if e.chips > 1 else ''}")
            elif isinstance(e, Plagued):
                lines.append(f"S{self.seats[e.seat]} PLAGUE! Garden to discard")
            elif isinstance(e, Stalemate):
                title = "Stalemate"
                if e.count == 1:
                    lines.append("Bid again" + (", 1 card added" if st.to_reveal or self.deck else ""))
                else:
                    lines.append("2nd in a row: display to discard")
            elif isinstance(e, RoundEnded):
                title = "Game over" if e.final else f"Round {e.round} over"
                if e.majority:
                    lines.append("Most plants +1 chip: " + ", ".join(f"S{self.seats[s]}" for s in e.majority))
                else:
                    lines.append("No majority chip")
                if not e.final:
                    lines.append("Take your 8 cards back")
        if lines and st.phase is REVEAL and self.deck is None and not st.is_over():
            lines.append(f"Turn up {st.to_reveal} card{'s' if st.to_reveal > 1 else ''}")
        if lines:
            self._add_lines(title, tuple(lines))

    # -- undo -----------------------------------------------------------------------------------

    def _undo_target(self):
        """The input an undo takes back: the last one a person made (not a virtual reveal)."""
        for move in reversed(self.state.moves):
            if self.deck is None or not isinstance(move, Reveal):
                return move
        return None

    def _undo_text(self) -> str:
        move = self._undo_target()
        if isinstance(move, Reveal):
            return f"revealed {move.kind}"
        if isinstance(move, Bids):
            return "the bids " + " ".join(move.cards)
        if isinstance(move, Choose):
            return f"choice of {move.kind}"
        return "nothing"

    def undo(self) -> bool:
        """Take back the last input a person made, logged as an undo line."""
        target = self._undo_target()
        if target is None:
            self._say("Nothing to undo")
            return False
        # Every move back to the target (virtual reveals after it too): all the undo
        # lines are on disk before the state takes any of them back.
        back = len(self.state.moves) - max(i for i, m in enumerate(self.state.moves) if m is target)
        if not self._write_lines([UNDO] * back, notices.UNDO_NOT_SAVED):
            return False
        for _ in range(back):
            self.state.pop()
        self.pending = {}
        self.notices = []
        self._say("Undone")
        return True

    # -- helpers ---------------------------------------------------------------------------------

    def _display(self) -> dict:
        return {KINDS[k]: n for k, n in enumerate(self.state.display) if n}

    def _reveal_reason(self) -> str:
        """Why cards are to be turned up, from the state alone (so undo and resume agree)."""
        st = self.state
        last_bids = next((m for m in reversed(st.moves) if isinstance(m, Bids)), None)
        if last_bids is None:
            return "start"
        if st.turn == 1:
            return "round"
        if gh.resolve(tuple(gh.CARD_INDEX[c] for c in last_bids.cards), st.options).stalemate:
            return "stalemate" if st.stalemates == 1 else "renew"  # the second renews the display
        return "refill"

    def _scores_view(self, toast):
        st = self.state
        return v.Scores(st.round, self.seats, tuple(st.chips),
                        tuple({KINDS[k]: n for k, n in enumerate(g) if n} for g in st.gardens),
                        st.pile, toast)
