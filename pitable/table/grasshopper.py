"""Grasshopper Poker at the table: pad keys in, views out.

The controller holds the rules state, the secret bids of the turn in progress
(memory only: they reach the log and the screen only when the last seat locks in),
and what the table has still to read (notices). It writes every committed input to
the journal before the state takes it, so the screen never confirms a move that a
power cut could lose.
"""

from __future__ import annotations

from pitable.rules import grasshopper as gh
from pitable.rules.grasshopper import BIDDING, CHOOSING, KINDS, REVEAL, Bids, Choose, Reveal
from pitable.rules.log import UNDO
from pitable.i18n import ASSISTANT_SEAT, msg
from pitable.keys import NAMES
from pitable.narrator import NOW, for_glass
from pitable.narrator.grasshopper import cards_list, narrate
from pitable.screens import views as v
from pitable.screens.views import Key
from pitable.table import notices, pager
from pitable.table.base import GameTable


class GrasshopperTable(GameTable):
    """One game of Grasshopper Poker driven by the pads.

    ``deck`` is a VirtualDeck, or None when the table turns up real garden cards and
    reports them. Bids of the turn in progress stay in memory (``pending``) until the
    last seat locks in: only then do they reach the log and the screen.
    """

    game = gh.GAME
    state: gh.State

    def __init__(self, state: gh.State, seats: tuple, journal, deck: gh.VirtualDeck | None = None,
                 clock=None, signal=None, resumed: bool = False, assistant=None, **kw):
        super().__init__(state, seats, journal, clock, signal, **kw)
        self.deck = deck
        self.pending: dict = {}     # player -> card int: secret until the last lock-in
        self.made_by: dict = {}     # player -> who made the pending bid (KeyEvent.by; "pi": the assistant)
        # The assistant's seats (pitable.table.assistant): it bids into ``pending`` like a
        # pad, from a copy of the rules state (never ``pending`` or the deck).
        self.assistant = assistant
        self._position = 0          # bumped by every commit and undo: an answer names its position
        # What a move asks of the real cards (the narrator's lines) goes on the next screen
        # that takes a key, above its own rows (``told``), or on pages that wait for a key
        # where it does not fit (docs/pace.md). ``told`` stays until the next move; the Pi's
        # own move waits until it has been up ``read_seconds`` (``_told_since``: when the
        # glass first showed it uncovered).
        self.told: tuple = ()
        self._told_lines: tuple = ()   # the narrator's Lines behind ``told``
        self._told_since: float | None = None
        self._waiting: tuple[int, int, int] | None = None  # the Pi's choice, held until the lines above it were read
        self._dealt: list[int] | None = None  # what the virtual deck turned up with the move being pushed
        self._later: tuple = ()     # lines that repeat a screen, waiting for the bidding screen's room
        self._retell()
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, state.turn,
                                          rebid=state.phase == BIDDING, keys=self._page_keys()))
            if state.phase is CHOOSING or (state.moves and isinstance(state.moves[-1], Bids)):
                # the power went in the turn of these bids: nobody may have seen them
                self.notices.append(self._last_bids())
            self._place(self._last_lines())  # and what the last move asked of the cards, again
        elif assistant is not None:
            self._add_lines(msg("title.assistant"), (msg("line.assistant_plays"),
                                                     msg("line.assistant_garden"),
                                                     msg("line.assistant_moves")))
        self._auto_reveal_now()
        self._assist()

    # -- what to show ---------------------------------------------------------------------

    def _where_now(self) -> tuple:
        return (self.state.round, self.state.turn)

    def _phase_view(self, toast, st):
        if st.phase is REVEAL and self.deck is not None:
            # the virtual deck's reveals were refused by the disk: nobody turns up real cards
            return v.Message(msg(notices.REVEAL_NOT_SAVED), (), toast)
        if st.phase is REVEAL:
            named = self._named()
            return v.RevealPrompt(st.to_reveal, self._reveal_reason(), self._display(), st.pile, toast,
                                  named, self._reveal_by if named else None, () if named else self.told)
        if st.phase is BIDDING:
            locked = tuple(self.seats[p] for p in sorted(self.pending))
            # the turn's lines stay while seats lock in: a lock-in does not say they were read
            return v.Bidding(st.round, st.turn, self._display(), self.seats, locked, st.pile, toast, self.told)
        if st.phase is CHOOSING:
            chooser = st.chooser
            if toast is None and self.assistant is not None and chooser in self.assistant.players:
                toast = msg("toast.assistant_thinking", seat=self.seats[chooser])  # until it answers
            kinds = tuple((KINDS[k], n) for k, n in enumerate(st.display) if n)
            return v.Choosing(self.seats[chooser], kinds, tuple(self.seats[p] for p in st.choosers[1:]), toast,
                              self.told)
        out = st.outcome
        best = max(out.chips)
        tied = [p for p, c in enumerate(out.chips) if c == best]
        tiebreak = len(tied) > 1 and len(out.winners) < len(tied)  # G12: fewer grasshoppers decided
        return v.GameOver(self.seats, out.chips, out.grasshoppers,
                          tuple(self.seats[p] for p in out.winners), toast, tiebreak)

    # -- keys ---------------------------------------------------------------------------------

    _bid_keys: tuple = (None, ())   # (seats and spent cards, the bidding key table they make)

    def _phase_keys(self, shown) -> tuple:
        """What each key does in the phase up: the reveal prompt names kinds (keys 1-5, of the
        seat naming this reveal's cards; a kind with no card left does nothing), the bidding
        screen takes each seat's cards it has not spent, the chooser's kinds on display are
        the chooser's (a kind has one key everywhere: 4 is broccoli here as in card entry)."""
        st = self.state
        people = tuple(s for s in self.seats if s <= ASSISTANT_SEAT)
        if st.phase is REVEAL and self.deck is not None:
            # the virtual deck's reveals were refused by the disk: any key tries again
            return tuple(Key(k, ("retry",), msg("key.try_again"), people) for k in range(len(NAMES)))
        if st.phase is REVEAL:
            by = (self._reveal_by,) if self._named() and self._reveal_by is not None else people
            return tuple(Key(i, ("reveal", kind), msg(f"kind.{kind}"), by)
                         for i, kind in enumerate(KINDS) if st.unseen[i])
        if st.phase is BIDDING:
            # a lock-in asks for this table three times (the loop's judgement, the key, the
            # frame) and spends no card: built again only when a card is spent
            made = (self.seats, tuple(st.spent))
            if self._bid_keys[0] != made:
                self._bid_keys = (made, tuple(Key(c, ("bid", c), NAMES[c], (seat,))
                                              for p, seat in enumerate(self.seats)
                                              if seat <= ASSISTANT_SEAT for c in gh.HANDS[st.spent[p]]))
            return self._bid_keys[1]
        if st.phase is CHOOSING:
            assert st.chooser is not None  # choosing has a chooser
            chooser = self.seats[st.chooser]
            if chooser > ASSISTANT_SEAT:
                return ()   # the Pi chooses: no key of a person's does
            return tuple(Key(KINDS.index(kind), ("choose", kind), msg(f"n.{kind}", n=n), (chooser,))
                         for kind, n in shown.kinds)
        return ()

    def _phase_do(self, pad: int, player: int, does: tuple) -> None:
        what = does[0]
        if what == "retry":
            self._auto_reveal_now()  # the disk refused the reveals before: any key tries again
        elif what == "reveal":
            if self._commit(Reveal(does[1])):
                self._reveal_by = pad + 1
        elif what == "bid":
            self._pend(player, does[1], self.by)  # a seat may change its bid until the last locks in
            self._bids_if_all_in()
        elif what == "choose":
            self._commit(Choose(does[1]))

    def _phase_refuse(self, pad: int, player: int, key: int) -> None:
        """Why a key does nothing here (the key table gave it no meaning)."""
        phase = self.state.phase
        if phase is REVEAL:
            self._reveal_refused(pad, key)
        elif phase is BIDDING:
            self._bid_refused(pad, player, key)
        elif phase is CHOOSING:
            self._choose_refused(pad, player, key)

    def _can_undo(self) -> bool:
        return self._undo_target() is not None

    def _next_step(self):
        st = self.state
        if st.is_over():
            return msg("foot.results")
        if st.phase is CHOOSING:
            assert st.chooser is not None  # choosing has a chooser
            return msg("foot.choose", seat=self.seats[st.chooser], last=len(st.display_kinds()))
        if st.phase is REVEAL:
            return msg("foot.reveal")
        return msg("foot.bid")

    def _phase_guesses(self) -> list:
        if self.state.phase is not BIDDING or len(self.pending) + 1 >= self.state.players:
            return []  # the last lock-in reveals bids nobody can guess
        # Who locks in next; the card is not needed (and not known): the screen shows none.
        return [self._peek(pending={**self.pending, p: None})
                for p in range(self.state.players) if p not in self.pending]

    _reveal_by: int | None = None   # the pad number that names this reveal's cards (the first to press one)

    def _named(self) -> tuple:
        """Kinds named so far in the reveal under way (real garden cards): the reveals
        since the last other input. The screen counts them: a double press shows."""
        out = []
        for move in reversed(self.state.moves):
            if not isinstance(move, Reveal):
                break
            out.append(move.kind)
        return tuple(reversed(out))

    def _reveal_refused(self, pad: int, key: int) -> None:
        """One card, one record: the first seat to name a card names the rest of this
        reveal (the screen says who); another seat's key is refused, so two people
        reacting to one card do not record two."""
        named = self._named()
        if named and self._reveal_by is not None and self._reveal_by != pad + 1:
            self._say("toast.reveal_by", seat=self._reveal_by)
        elif key >= len(KINDS):
            self._say("toast.keys_kind")
        else:  # every card of that kind is already out (G2)
            self._say("toast.none_left", kind=msg(f"kind.{KINDS[key]}"))

    def _bid_refused(self, pad: int, player: int, key: int) -> None:
        # A spent card. Said without the card: the others must not learn what this seat has left.
        self.signal(pad)
        self._say("toast.card_spent", seat=pad + 1)

    def _pend(self, player: int, card: int, by) -> None:
        """A pending bid and who made it, together: a phone is shown a pending bid only
        if its own session made it (pitable.web.publish.own_bids)."""
        self.pending[player] = card
        self.made_by[player] = by

    def _bids_if_all_in(self) -> None:
        if len(self.pending) == self.state.players:
            bids = tuple(gh.CARDS[self.pending[p]] for p in range(self.state.players))
            self.pending, self.made_by = {}, {}
            self._commit(Bids(bids))
        elif self.assistant is not None and all(p in self.pending for p in range(self.state.players)
                                                if p not in self.assistant.players):
            self._say("toast.assistant_thinking", seat=self.seats[self._thinking()[0]])

    # -- the assistant's seats ------------------------------------------------------------------

    def _thinking(self) -> list:
        players = self.assistant.players if self.assistant is not None else ()
        return [p for p in players if p not in self.pending]

    def _assist(self) -> None:
        """Whatever the assistant's seats owe now: bids (thought out off the loop) or a choice."""
        a = self.assistant
        st = self.state
        if a is None or st.is_over():
            return
        if st.phase is BIDDING:
            for p in self._thinking():
                a.think(st, p, self._position, self._assistant_bid)
        elif st.phase is CHOOSING and st.chooser is not None and st.chooser in a.players:
            # The strong level searches its choice too: off the loop, like its bids; the
            # screen names it as the chooser and says it is thinking meanwhile.
            a.think(st, st.chooser, self._position, self._assistant_choice, choice=True)

    def _assistant_choice(self, position, player: int, kind: int) -> None:
        """The assistant's choice arrives (on the loop's thread): committed like a key, once
        the lines above its screen were up long enough to read (its move would replace them)."""
        st = self.state
        if position != self._position or st.phase is not CHOOSING or st.chooser != player:
            return  # the game moved on (an undo, a resume): it thinks again about the new position
        due = self._read_by()
        if due is not None and self.clock() < due:
            self._waiting = (position, player, kind)
            return
        self._commit(Choose(KINDS[kind]))

    def _assistant_bid(self, position, player: int, card: int) -> None:
        """The assistant's bid arrives (on the loop's thread): it locks in like a pad."""
        if position != self._position or self.state.phase is not BIDDING or player in self.pending:
            return  # the game moved on (an undo, a resume): it thinks again about the new position
        self._pend(player, card, "pi")
        self._bids_if_all_in()

    def _choose_refused(self, pad: int, player: int, key: int) -> None:
        if player != self.state.chooser:
            assert self.state.chooser is not None  # a key of the choosing screen
            self._say("toast.chooses_now", seat=self.seats[self.state.chooser])
        else:  # a kind not on display, or no kind's key
            self._say("toast.choose_shown", seat=pad + 1)

    # -- committing inputs ---------------------------------------------------------------------

    def _commit(self, move) -> bool:
        self._turn = self.state.turn  # the instructions name the turn just played
        return super()._commit(move)

    def _narrate(self, move, fx, before: tuple, said_ids: frozenset):
        return narrate(self.state, move, fx, self.seats, self.deck is not None, before[1], said_ids)

    def _pushed(self, move, fx) -> None:
        self._position += 1
        if isinstance(move, Bids):
            self.notices.append(self._reveal_of(move))
        told = self._record(move, fx, (self.state.round, self._turn))
        lines = list(told.lines) + self._auto_reveal(sync=False)  # synced with the move that made them due
        self._place(lines)
        self._assist()  # its bids and choices: it starts thinking (answers come as events)

    def _auto_reveal_now(self) -> None:
        """The assistant's reveals due now (a resumed game), durable before they show."""
        if self.deck is None or self.state.phase is not REVEAL:
            return
        mark = self._mark()
        try:
            lines = self._auto_reveal(sync=True)
        except OSError as e:
            self._refused(e, mark, notices.REVEAL_NOT_SAVED)
            return
        self._place(lines)

    def _auto_reveal(self, sync: bool = True) -> list:
        """With a virtual deck the assistant turns up the cards itself (and logs them); the
        lines they told (a stalemate's display renewed, a round's end)."""
        if self.deck is None:
            return []
        revealed, lines = [], []
        while self.state.phase is REVEAL:
            move = self.deck.next_reveal(self.state)
            self.journal.write(move.to_json())
            before = self._where_now()
            fx = self.state.push(move)
            revealed.append(move.kind)
            lines += self._record(move, fx, before).lines
        if revealed and sync:
            self.journal.sync()
        if revealed:
            counts = [0] * len(KINDS)
            for kind in revealed:
                counts[KINDS.index(kind)] += 1
            self._dealt = counts  # said on a page only when the turn's lines go on pages
        return lines

    def _last_lines(self) -> list:
        """The lines of the last input a person made and of the virtual deck's reveals after it
        (a resume tells them again: the power may have gone before anyone read them)."""
        tells = self._tells[:len(self.state.moves)]
        out: list = []
        for move, told in zip(reversed(self.state.moves), reversed(tells)):
            out = list(told.lines) + out
            if not (self.deck is not None and isinstance(move, Reveal)):
                break
        return out

    # -- where a move's lines go: the pager ----------------------------------------------------

    def _place(self, lines) -> None:
        """Put what the move told where the table reads it before anyone acts on it: on the
        next screen that takes a key, above its own rows, when the lines said now fit there;
        else all of them on pages that wait for a key. Lines that repeat what a screen said
        go beside them where there is room, else wait for the bidding screen (and are left to
        the story when there is no room there either). Then fix the bids reveal's footer (the
        Pi may choose while the bids show: the glass holds still)."""
        lines = list(for_glass(lines))
        dealt, self._dealt = self._dealt, None
        self.told, self._told_lines, self._told_since = (), (), None
        if self.state.phase is BIDDING or self.state.is_over():
            lines, self._later = list(self._later) + lines, ()
        if lines:
            paged, told = self._split(lines)
            if paged:
                self._pages_of(paged, dealt if not told else None)
            if told:
                self.told = tuple(line.text for line in told)
                self._told_lines = tuple(told)
                if self.state.phase is not BIDDING:
                    self._later += tuple(line for line in lines[len(paged):] if line not in told)
        for i, shown in enumerate(self.notices):
            if isinstance(shown, v.BidsRevealed) and shown.foot is None:
                last = i == len(self.notices) - 1
                self.notices[i] = shown._replace(foot=(self._next_step() if last else None) or msg("foot.next"))
        self._seen(self.clock())

    def _split(self, lines: list) -> tuple:
        """(the lines for pages, the lines for the next key screen): ``pager.split``, or all
        on pages at the game's end, after pages already up (told in order after them), with
        no display to measure, or where no key screen follows (the virtual deck's reveals
        were refused)."""
        st = self.state
        if self.fits is None or st.is_over() or any(isinstance(n, v.Instructions) for n in self.notices) \
                or (st.phase is REVEAL and self.deck is not None):
            return lines, []
        return pager.split(lines, self._screen_fits)

    def _screen_fits(self, told: tuple) -> bool:
        """Whether the next key screen reads whole with ``told`` on top: built from the rules
        state and the lines (no copy of the controller). The bidding screen keeps them while
        seats lock in, so it must read whole with none and with all but one locked in."""
        view = self._phase_view(None, self.state)._replace(told=told)
        if isinstance(view, v.Bidding):
            return self.fits(view._replace(locked=())) and self.fits(view._replace(locked=self.seats[:-1]))
        return self.fits(view)

    def to_read(self) -> list:
        """Every line the table has still to read, in order: on pages, then on the key
        screen shown after them."""
        pages = [line for n in self.notices if isinstance(n, v.Instructions) for line in n.lines]
        return pages + list(self.told) + [line.text for line in self._later]

    def _pages_of(self, lines: list, dealt) -> None:
        """Lines as instruction pages: the sections on as few pages as hold them, a page's
        title its first section's (another section's title inside it, as a line). With real
        cards the card entry after the pages says how many to turn up; a stalemate's card is
        said on its page (also on a round's last bid: never "Round 3 over ... Turn up 1
        card"). With the virtual deck, a last page says what it turned up."""
        st = self.state
        pages = pager.sections(lines)
        if pages and st.phase is REVEAL and self.deck is None and not st.is_over() \
                and self._reveal_reason() in ("stalemate", "renew"):
            pages = pager.with_stalemate_card(pages, st.to_reveal)
        if pages and dealt:
            pages.append((msg("title.display"), (msg("line.new_cards", cards=cards_list(dealt)),)))
        for head, texts in pages:
            self._add_lines(head, texts)   # their round and turn: the move's (GameTable._tell)

    # -- the Pi's move waits until the lines above it were read ---------------------------------

    def _seen(self, now: float) -> None:
        """The lines above the key screen are on the glass, uncovered, from now on."""
        if self.told and self._told_since is None and not self.notices and self.overlay is None:
            self._told_since = now

    def _read_by(self):
        """When the lines up now have been read (None: there are none; inf: not shown yet)."""
        if not any(line.when == NOW for line in self._told_lines):
            return None
        return float("inf") if self._told_since is None else self._told_since + self.read_seconds

    def on_key(self, event) -> None:
        super().on_key(event)
        self._seen(self.clock())

    def next_deadline(self):
        times = [t for t in (super().next_deadline(), self._read_by() if self._waiting else None)
                 if t is not None and t != float("inf")]
        return min(times) if times else None

    def tick(self, now: float) -> bool:
        changed = super().tick(now)
        self._seen(now)
        if self._waiting is not None and now >= (self._read_by() or 0.0):
            waiting, self._waiting = self._waiting, None
            self._assistant_choice(*waiting)
            changed = True
        return changed

    def _mark(self) -> tuple:
        return super()._mark() + ((self.told, self._told_lines, self._told_since, self._later),)

    def _take_back(self, mark) -> None:
        self.told, self._told_lines, self._told_since, self._later = mark[3]
        self._dealt = None
        self._take_back_game(mark[:3])

    def _reveal_of(self, move):
        """The bids reveal of a bids move (a view)."""
        cards = tuple(gh.CARD_INDEX[c] for c in move.cards)
        res = gh.resolve(cards, self.state.options)
        return v.BidsRevealed(
            self.seats, move.cards, tuple(self.seats[p] for p in res.cancelled),
            None if res.takes_all is None else self.seats[res.takes_all], res.how,
            () if res.takes_all is not None else tuple(self.seats[p] for p in res.choosers),
            res.stalemate, why=self._why(cards, res), keys=self._page_keys())

    def _last_bids(self):
        last = next((m for m in reversed(self.state.moves) if isinstance(m, Bids)), None)
        return None if last is None else self._reveal_of(last)

    def _why(self, cards: tuple, res):
        """Why the bids work out so (G4, G6), or None when the order says it all."""
        if res.how == "x":
            ace = gh.CARD_INDEX["A"]
            return msg("why.x_beats_cancelled_ace" if cards.count(ace) > 1 else "why.x_beats_ace")
        if res.how == "ace":
            return msg("why.ace_takes_all")
        if res.how == "alone":
            return msg("why.alone")
        if res.stalemate:
            return msg("why.stalemate")
        return None

    # -- undo -----------------------------------------------------------------------------------

    _undo_cache: tuple[object, int | None] = (None, None)

    def _undo_index(self):
        """Where the last input a person made is in the moves, or None. Not a person's:
        the virtual deck's reveals, and the Pi's choices (its bids go with the people's in
        the turn's one bids line). Undo takes that input back and everything after it, so
        the Pi never makes the same choice again at once (the log would fill with undo and
        choose pairs and the person's input before could never be taken back)."""
        st = self.state
        key = (len(st.moves), st.moves[-1] if st.moves else None)
        if self._undo_cache[0] == key:
            return self._undo_cache[1]
        found = None
        back = st.copy(history=True)
        pi = self.assistant.players if self.assistant is not None else ()
        for i in range(len(st.moves) - 1, -1, -1):
            move = st.moves[i]
            back.pop()  # now the state the move was made in
            if self.deck is not None and isinstance(move, Reveal):
                continue
            if isinstance(move, Choose) and back.chooser in pi:
                continue
            found = i
            break
        self._undo_cache = (key, found)
        return found

    def _undo_target(self):
        """The input an undo takes back: the last one a person made."""
        i = self._undo_index()
        return None if i is None else self.state.moves[i]

    def _undo_text(self):
        move = self._undo_target()
        if isinstance(move, Reveal):
            return msg("undo.reveal", kind=msg(f"kind.{move.kind}"))
        if isinstance(move, Bids):
            return msg("undo.bids", cards=" ".join(move.cards))
        if isinstance(move, Choose):
            return msg("undo.choice", kind=msg(f"kind.{move.kind}"))
        return msg("undo.nothing")

    def undo(self) -> bool:
        """Take back the last input a person made, logged as an undo line."""
        target = self._undo_target()
        if target is None:
            self._say("toast.nothing_to_undo")
            return False
        # Every move back to the target (virtual reveals after it too): all the undo
        # lines are on disk before the state takes any of them back.
        back = len(self.state.moves) - self._undo_index()
        if not self._write_lines([UNDO] * back, notices.UNDO_NOT_SAVED):
            return False
        for _ in range(back):
            self.state.pop()
        self.pending, self.made_by = {}, {}
        self.notices = []
        self.told, self._told_lines, self._told_since, self._later = (), (), None, ()  # of what is taken back
        self._waiting = None
        self._say("toast.undone")
        self._position += 1
        if self.assistant is not None:
            self.assistant.forget()
            self._assist()
        return True

    def _take_back_game(self, mark) -> None:
        super()._take_back(mark)  # the disk refused a key: the assistant thinks again too
        self._position += 1
        if self.assistant is not None:
            self.assistant.forget()
            self._assist()

    # -- helpers ---------------------------------------------------------------------------------

    def _display(self) -> dict:
        return {KINDS[k]: n for k, n in enumerate(self.state.display) if n}

    def _reveal_reason(self) -> str:
        """Why cards are to be turned up, from the state alone (so undo and resume agree)."""
        st = self.state
        last_bids = next((m for m in reversed(st.moves) if isinstance(m, Bids)), None)
        if last_bids is None:
            return "start"
        if gh.resolve(tuple(gh.CARD_INDEX[c] for c in last_bids.cards), st.options).stalemate:
            # a stalemate's card, also when it was the round's last bid (the new round then
            # starts with the display it leaves)
            # the second in a row renews the display: it was discarded, all its cards are new
            return "renew" if st.stalemates != 1 and not any(st.display) else "stalemate"
        if st.turn == 1:
            return "round"
        return "refill"

    def _scores_view(self, toast):
        st = self.state
        return v.Scores(st.round, self.seats, tuple(st.chips),
                        tuple({KINDS[k]: n for k, n in enumerate(g) if n} for g in st.gardens),
                        st.pile, toast)
