"""Grasshopper Poker at the table: pad keys in, views out.

The controller holds the rules state, the secret bids of the turn in progress
(memory only: they reach the log and the screen only when the last seat locks in),
and what the table has still to read (notices). It writes every committed input to
the journal before the state takes it, so the screen never confirms a move that a
power cut could lose.
"""

from __future__ import annotations

import logging

from pitable.errors import IllegalMove
from pitable.hardware.keys import HOLD
from pitable.rules import grasshopper as gh
from pitable.rules.grasshopper import (BIDDING, CHOOSING, KINDS, OVER, REVEAL, Bids, Choose,
                                       Harvested, Plagued, Reveal, RoundEnded, Stalemate, Took)
from pitable.screens import views as v

log = logging.getLogger(__name__)

KEY_A, KEY_X = 6, 7
TOAST_SECONDS = 2.5
LINES_PER_PAGE = 3
SHORT = {"grasshopper": "grasshopper", "corn": "corn", "strawberry": "strawberry",
         "broccoli": "broccoli", "blackberry": "blackberry"}


def plural(n: int, kind: str) -> str:
    if kind == "strawberry" or kind == "blackberry":
        return f"{n} {kind[:-1]}ies" if n > 1 else f"1 {kind}"
    return f"{n} {kind}{'s' if n > 1 and kind == 'grasshopper' else ''}"


def cards_text(cards) -> str:
    return ", ".join(plural(n, KINDS[k]) for k, n in enumerate(cards) if n) or "nothing"


class GrasshopperTable:
    """One game of Grasshopper Poker driven by the pads.

    ``seats`` are the pad numbers (1-based) of the players, in player order: the
    rules' seat 0 sits at pad ``seats[0]``. ``deck`` is a VirtualDeck, or None when
    the table turns up real garden cards and reports them.
    """

    game = gh.GAME

    def __init__(self, state: gh.State, seats: tuple, journal, deck: gh.VirtualDeck | None = None,
                 clock=None, signal=None, resumed: bool = False):
        import time

        self.state = state
        self.seats = tuple(seats)
        self.player_of = {pad - 1: i for i, pad in enumerate(self.seats)}  # pad index -> player
        self.journal = journal
        self.deck = deck
        self.clock = clock or time.monotonic
        self.signal = signal or (lambda pad_index: None)
        self.pending: dict = {}     # player -> card int: secret until the last lock-in
        self.notices: list = []     # views the table reads before the game goes on
        self.overlay = None         # ("scores", pad) or ("undo", pad)
        self.toast = None           # (text, until)
        self.finished = False       # the table asked for a new game after the end
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, state.turn,
                                          rebid=state.phase == BIDDING))
        self._auto_reveal()

    # -- what to show ---------------------------------------------------------------------

    def view(self):
        toast = self._toast_text()
        if self.overlay is not None:
            kind, pad = self.overlay
            if kind == "scores":
                return self._scores_view(toast)
            return v.ConfirmUndo(pad, self._undo_text(), toast)
        if self.notices:
            return self.notices[0]._replace(toast=toast)
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

    def next_deadline(self):
        return self.toast[1] if self.toast else None

    def tick(self, now: float) -> bool:
        """Expire the toast; True when the view changed."""
        if self.toast and now >= self.toast[1]:
            self.toast = None
            return True
        return False

    # -- keys ---------------------------------------------------------------------------------

    def on_key(self, event) -> None:
        pad, key = event.seat, event.key
        player = self.player_of.get(pad)
        if player is None:
            self._say(f"Seat {pad + 1} is not in this game")
            return
        if event.action == HOLD:
            self._hold(pad, key)
            return
        if self.overlay is not None:
            self._overlay_key(key)
            return
        if self.notices:
            self._next_notice()
            return
        phase = self.state.phase
        if phase is REVEAL:
            self._reveal_key(key)
        elif phase is BIDDING:
            self._bid_key(pad, player, key)
        elif phase is CHOOSING:
            self._choose_key(pad, player, key)
        elif key == KEY_A:
            self.finished = True
        else:
            self._say("A: new game")

    def _hold(self, pad: int, key: int) -> None:
        if key == KEY_A:
            self.overlay = ("scores", pad + 1)
        elif key == KEY_X:
            if self._undo_target() is None:
                self._say("Nothing to undo")
            else:
                self.overlay = ("undo", pad + 1)
        else:
            self._say("Hold A: scores, X: undo")

    def _overlay_key(self, key: int) -> None:
        kind, _ = self.overlay
        self.overlay = None
        if kind == "undo":
            if key == KEY_A:
                self.undo()
            else:
                self._say("Not undone")

    def _next_notice(self) -> None:
        self.notices.pop(0)

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
        """Check, write to disk, then apply. False (and a toast) when refused."""
        try:
            self.state.check(move)
        except IllegalMove as e:
            self._say(str(e))
            return False
        try:
            self.journal.append(move.to_json())
        except OSError as e:
            log.error("cannot write the game log: %s", e)
            self._say("Cannot save! Move not taken")
            return False
        turn = self.state.turn
        fx = self.state.push(move)
        self._announce(move, fx, turn)
        self._auto_reveal()
        return True

    def _auto_reveal(self) -> None:
        """With a virtual deck the assistant turns up the cards itself (and logs them)."""
        if self.deck is None:
            return
        revealed = []
        while self.state.phase is REVEAL:
            move = self.deck.next_reveal(self.state)
            self.journal.append(move.to_json())
            turn = self.state.turn
            fx = self.state.push(move)
            revealed.append(move.kind)
            if fx:
                self._announce(move, fx, turn)
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

    def _add_lines(self, title: str, lines: tuple) -> None:
        pages = [lines[i:i + LINES_PER_PAGE] for i in range(0, len(lines), LINES_PER_PAGE)]
        for i, page in enumerate(pages, 1):
            self.notices.append(v.Instructions(title, page, i, len(pages)))

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
        while True:
            self.journal.append({"undo": True})
            move = self.state.pop()
            if move is target:
                break
        self.pending = {}
        self.notices = []
        self._say("Undone")
        return True

    # -- helpers ---------------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.toast = (text, self.clock() + TOAST_SECONDS)

    def _toast_text(self):
        if self.toast and self.clock() < self.toast[1]:
            return self.toast[0]
        return None

    def _display(self) -> dict:
        return {KINDS[k]: n for k, n in enumerate(self.state.display) if n}

    def _reveal_reason(self) -> str:
        st = self.state
        if not st.moves:
            return "start"
        if st.stalemates == 1:
            return "stalemate"
        if st.turn == 1 and any(isinstance(m, Bids) for m in st.moves):
            return "round"
        return "refill"

    def _scores_view(self, toast):
        st = self.state
        return v.Scores(st.round, self.seats, tuple(st.chips),
                        tuple({KINDS[k]: n for k, n in enumerate(g) if n} for g in st.gardens),
                        st.pile, toast)
