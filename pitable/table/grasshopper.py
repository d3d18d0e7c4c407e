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
from pitable.i18n import ASSISTANT_SEAT, Msg, msg
from pitable.screens import views as v
from pitable.table import notices
from pitable.table.base import GameTable


def counted(n: int, kind: str) -> Msg:
    """"3 corn", "2 strawberries": a count of a garden kind, in words at the output."""
    return msg(f"n.{kind}", n=n)


def cards_list(cards) -> tuple:
    """Counts per kind index -> a list of counted kinds (a message value)."""
    return tuple(counted(n, KINDS[k]) for k, n in enumerate(cards) if n)


def _nothing(seats: list) -> list:
    """"S2 gets nothing", or for several seats one line: "S2, S3 get nothing"."""
    if not seats:
        return []
    if len(seats) == 1:
        return [msg("line.gets_nothing", seat=seats[0])]
    return [msg("line.get_nothing", seats=tuple(seats))]


ROOM = "room"   # a line's urgency: said where there is room (and on pages), never a reason for a page


def _told(sections) -> tuple:
    """Sections (title, ((line, urgent), ...)) as the lines of a key screen, in order
    (urgent None: a line for a page only)."""
    return tuple(line for _, lines in sections for line, urgent in lines if urgent is not None)


def _units(sections) -> list:
    """The lines of the bidding screen in units that stay on one screen, in order, as
    (lines, said only where room, a round's end): a round's end whole (its title, the
    majority chip, the cards back); every other line on its own."""
    out: list = []
    for head, lines in sections:
        shown = tuple(line for line, urgent in lines if urgent is not None)
        if head.id in ("title.round_over", "title.game_over"):
            out.append((shown, False, True))
        else:
            out += [((line,), urgent == ROOM, False) for line, urgent in lines if urgent is not None]
    return [(unit, optional, whole) for unit, optional, whole in out if unit]


class GrasshopperTable(GameTable):
    """One game of Grasshopper Poker driven by the pads.

    ``deck`` is a VirtualDeck, or None when the table turns up real garden cards and
    reports them. Bids of the turn in progress stay in memory (``pending``) until the
    last seat locks in: only then do they reach the log and the screen.
    """

    game = gh.GAME

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
        # What a move asks of the real cards goes on the next screen that takes a key, not
        # on pages to turn (docs/pace.md): ``told`` on that screen until its next move;
        # ``_deferred`` (sections: title, lines) kept for the next bidding screen (a harvest,
        # a plague, a round's end may wait that long; a take may not), which shows them in
        # ``_parts``, one part until each person's lock-in.
        self.told: tuple = ()
        self._deferred: list = []
        self._parts: list = []      # the bidding screen's lines: one part a person's lock-in
        self._news: list = []       # sections the move being pushed made: placed once it is done
        self._made_in: dict = {}    # id(a section's title) -> (title, (round, turn) of its move)
        if resumed:
            self.notices.append(v.Resumed(self.game, state.round, state.turn,
                                          rebid=state.phase == BIDDING))
            if state.phase is CHOOSING or (state.moves and isinstance(state.moves[-1], Bids)):
                # the power went in the turn of these bids: nobody may have seen them
                self.notices.append(self._last_bids())
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
            # a part of the turn's lines for each person's lock-in (the Pi's do not turn them)
            people = sum(1 for p in self.pending if self.made_by.get(p) != "pi")
            told = self._parts[people] if people < len(self._parts) else ()
            return v.Bidding(st.round, st.turn, self._display(), self.seats, locked, st.pile, toast, told)
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

    def _phase_key(self, pad: int, player: int, key: int) -> None:
        phase = self.state.phase
        if phase is REVEAL and self.deck is not None:
            self._auto_reveal_now()  # the disk refused the reveals before: any key tries again
        elif phase is REVEAL:
            self._reveal_key(pad, key)
        elif phase is BIDDING:
            self._bid_key(pad, player, key)
        elif phase is CHOOSING:
            self._choose_key(pad, player, key)

    def _can_undo(self) -> bool:
        return self._undo_target() is not None

    def _phase_meaning(self):
        """Bidding: one screen while seats lock in (each may still change its bid); the
        reveal prompt: one screen while cards are named (3, 4, 4 in a row); choosing: one
        screen a chooser."""
        st = self.state
        chooser = st.chooser if st.phase is CHOOSING else None
        return (st.phase, st.round, st.turn, st.stalemates, chooser)

    def _next_step(self):
        st = self.state
        if st.is_over():
            return msg("foot.results")
        if st.phase is CHOOSING:
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

    _reveal_by = None   # the pad number that names this reveal's cards (the first to press one)

    def _named(self) -> tuple:
        """Kinds named so far in the reveal under way (real garden cards): the reveals
        since the last other input. The screen counts them: a double press shows."""
        out = []
        for move in reversed(self.state.moves):
            if not isinstance(move, Reveal):
                break
            out.append(move.kind)
        return tuple(reversed(out))

    def _reveal_key(self, pad: int, key: int) -> None:
        """One card, one record: the first seat to name a card names the rest of this
        reveal (the screen says who); another seat's key is refused, so two people
        reacting to one card do not record two."""
        named = self._named()
        if named and self._reveal_by is not None and self._reveal_by != pad + 1:
            self._say("toast.reveal_by", seat=self._reveal_by)
            return
        if key >= len(KINDS):
            self._say("toast.keys_kind")
            return
        if not self.state.unseen[key]:  # every card of that kind is already out (G2)
            self._say("toast.none_left", kind=msg(f"kind.{KINDS[key]}"))
            return
        if self._commit(Reveal(KINDS[key])):
            self._reveal_by = pad + 1

    def _bid_key(self, pad: int, player: int, key: int) -> None:
        if self.state.spent[player] >> key & 1:
            # Said without the card: the others must not learn what this seat has left.
            self.signal(pad)
            self._say("toast.card_spent", seat=pad + 1)
            return
        self._pend(player, key, self.by)  # a seat may change its bid until the last locks in
        self._bids_if_all_in()

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
        return [p for p in self.assistant.players if p not in self.pending]

    def _assist(self) -> None:
        """Whatever the assistant's seats owe now: bids (thought out off the loop) or a choice."""
        a = self.assistant
        st = self.state
        if a is None or st.is_over():
            return
        if st.phase is BIDDING:
            for p in self._thinking():
                a.think(st, p, self._position, self._assistant_bid)
        elif st.phase is CHOOSING and st.chooser in a.players:
            # The strong level searches its choice too: off the loop, like its bids; the
            # screen names it as the chooser and says it is thinking meanwhile.
            a.think(st, st.chooser, self._position, self._assistant_choice, choice=True)

    def _assistant_choice(self, position, player: int, kind: int) -> None:
        """The assistant's choice arrives (on the loop's thread): committed like a key."""
        st = self.state
        if position != self._position or st.phase is not CHOOSING or st.chooser != player:
            return  # the game moved on (an undo, a resume): it thinks again about the new position
        self._commit(Choose(KINDS[kind]))

    def _assistant_bid(self, position, player: int, card: int) -> None:
        """The assistant's bid arrives (on the loop's thread): it locks in like a pad."""
        if position != self._position or self.state.phase is not BIDDING or player in self.pending:
            return  # the game moved on (an undo, a resume): it thinks again about the new position
        self._pend(player, card, "pi")
        self._bids_if_all_in()

    def _choose_key(self, pad: int, player: int, key: int) -> None:
        if player != self.state.chooser:
            self._say("toast.chooses_now", seat=self.seats[self.state.chooser])
            return
        # a kind has one key everywhere: 4 is broccoli here as in card entry
        if key >= len(KINDS) or not self.state.display[key]:
            self._say("toast.choose_shown", seat=pad + 1)
            return
        self._commit(Choose(KINDS[key]))

    # -- committing inputs ---------------------------------------------------------------------

    def _commit(self, move) -> bool:
        self._turn = self.state.turn  # the instructions name the turn just played
        return super()._commit(move)

    def _pushed(self, move, fx) -> None:
        self._position += 1
        self._announce(move, fx, self._turn)
        self._auto_reveal(sync=False)  # synced with the move that made them due
        self._place()
        self._assist()  # its bids and choices: it starts thinking (answers come as events)

    def _auto_reveal_now(self) -> None:
        """The assistant's reveals due now (a resumed game), durable before they show."""
        if self.deck is None or self.state.phase is not REVEAL:
            return
        mark = self._mark()
        try:
            self._auto_reveal(sync=True)
        except OSError as e:
            self._refused(e, mark, notices.REVEAL_NOT_SAVED)
            return
        self._place()

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
        if revealed:
            counts = [0] * len(KINDS)
            for kind in revealed:
                counts[KINDS.index(kind)] += 1
            self._dealt = counts  # said on a page only when the turn's lines go on pages

    _dealt = None   # what the virtual deck turned up with the move being pushed
    _said_pi_lay = _said_pi_chips = False  # the Pi's cards and chips go by it: said once a game

    def _announce(self, move, fx, turn: int) -> None:
        """Turn what happened into what the table reads: the reveal (a page of its own),
        then sections (a stalemate, the turn, the round's end), each a title and its lines
        as (line, urgent): a take is urgent (its cards move before the next key), a harvest,
        a plague or the round's end may wait for the next bidding screen."""
        if isinstance(move, Bids):
            self.notices.append(self._reveal_of(move))
            self._parts = []  # the bidding screen that said them has been read: all locked in
        title = msg("title.turn", turn=turn)
        turn_lines: list = []

        ended = [e.round for e in fx if isinstance(e, RoundEnded)]
        made_in = (ended[0] if ended else self.state.round, turn)  # the panel's where, if on pages

        def section(head, lines) -> None:
            if lines:
                self._news.append((head, tuple(lines)))
                self._made_in[id(head)] = (head, made_in)

        for e in fx:
            if isinstance(e, Took):
                seat = self.seats[e.seat]
                # A take moves real cards before the next key. A take of all the bids reveal
                # said in big letters for 3 s ("S1 takes all": the whole display), and with
                # the virtual deck no card moves (the chooser's screen showed the choice):
                # those lines are said where there is room.
                urgent = ROOM if self.deck is not None or e.how in ("ace", "x", "alone") else True
                if e.how in ("ace", "x", "alone"):
                    turn_lines.append((msg("line.takes_all", seat=seat, cards=cards_list(e.cards)), urgent))
                else:
                    turn_lines.append((msg("line.takes", seat=seat, cards=cards_list(e.cards)), urgent))
                if seat > ASSISTANT_SEAT and not self._said_pi_lay:
                    # the Pi has no hands: someone lays its cards by it (said on its first take:
                    # "Pi takes 2 corn" says it after that, as the start's page did before)
                    turn_lines.append((msg("line.pi_lay_n", n=sum(e.cards)), urgent))  # "it" for one card
                    self._said_pi_lay = True
            elif isinstance(e, Harvested):
                seat = self.seats[e.seat]
                turn_lines.append((msg("line.harvest", seat=seat, cards=counted(3 * e.chips, KINDS[e.kind]),
                                       n=e.chips), False))
                if seat > ASSISTANT_SEAT and not self._said_pi_chips:
                    turn_lines.append((msg("line.pi_chips"), False))  # on its first harvest, likewise
                    self._said_pi_chips = True
            elif isinstance(e, Plagued):
                # no plants in the garden: nothing to harvest was ever there, so no "no harvest"
                bare = not any(e.cards[1:])
                turn_lines.append((msg("line.plague_bare" if bare else "line.plague", seat=self.seats[e.seat]), False))
                # with the virtual deck the garden goes by itself: "plague!" says it, where room
                turn_lines.append((msg("line.plague_discard", seat=self.seats[e.seat]),
                                   ROOM if self.deck is not None else False))
            elif isinstance(e, Stalemate):
                section(title, turn_lines)
                turn_lines = []
                ends = any(isinstance(x, RoundEnded) for x in fx)
                # "turn up 1 card, then bid again" only on a page: the card entry below says it;
                # the spent bid cards may wait (the pads know them), the display's discard not
                urgency = {"line.turn_up_then_bid": None, "line.bids_spent": False}
                section(msg("title.stalemate"), [(m, urgency.get(m.id, True))
                                                 for m in self._stalemate_lines(e, ends)])
            elif isinstance(e, RoundEnded):
                turn_lines += [(m, ROOM) for m in self._nothing_lines(move, fx)]  # nothing moves: where room
                section(title, turn_lines)
                turn_lines = []
                lines = [msg("line.majority", seats=tuple(self.seats[s] for s in e.majority))
                         if e.majority else msg("line.no_majority")]
                if not e.final:
                    lines.append(msg("line.cards_back"))
                head = msg("title.game_over") if e.final else msg("title.round_over", round=e.round)
                section(head, [(head, False)] + [(m, False) for m in lines])
        if not any(isinstance(e, RoundEnded) for e in fx):
            turn_lines += [(m, ROOM) for m in self._nothing_lines(move, fx)]
        section(title, turn_lines)

    def _place(self) -> None:
        """Put the sections the move made where the table reads them, then fix the bids
        reveal's footer (the Pi may choose while the bids show: the glass holds still)."""
        self._place_news()
        for i, shown in enumerate(self.notices):
            if isinstance(shown, v.BidsRevealed) and shown.foot is None:
                last = i == len(self.notices) - 1
                self.notices[i] = shown._replace(foot=(self._next_step() if last else None) or msg("foot.next"))

    def _place_news(self) -> None:
        """The sections the move made: on the next screen that takes a key when they fit
        there (the urgent ones at least: the rest waits for the bidding screen), else on
        pages ("Any key: next"), the last resort."""
        news, self._news = self._news, []
        dealt, self._dealt = self._dealt, None
        keep = {id(head) for head, _ in self._deferred + news}
        self._made_in = {k: m for k, m in self._made_in.items() if k in keep}
        self.told = ()
        st = self.state
        if self.fits is None or st.is_over() or any(not isinstance(n, v.BidsRevealed) for n in self.notices):
            # the game's end, a resume's notice first, or no display to measure: pages
            self._pages_of(self._deferred + news, dealt)
            self._deferred = []
            return
        if st.phase is BIDDING:
            sections = self._deferred + news
            self._deferred = []
            parts = self._bidding_parts(_units(sections))
            if parts is None:
                self._pages_of(sections, dealt)
            else:
                self._parts = parts
            return
        if not news:
            return
        now = tuple(line for _, lines in news for line, urgent in lines if urgent is True)
        later = [(head, line, urgent) for head, lines in news for line, urgent in lines
                 if urgent is False or urgent == ROOM]
        # as many of the lines that may wait as fit beside the urgent ones (a round's end
        # whole or not at all), the rest on the bidding screen
        for k in range(len(later), -1, -1):
            if 0 < k < len(later) and later[k][0] is later[k - 1][0] and later[k][0].id != "title.turn":
                continue
            told = now + tuple(line for _, line, _ in later[:k])
            if not told or self.fits(self._peek(notices=[], overlay=None, toast=None, told=told)._replace(toast=None)):
                self.told = told
                wait: list = []
                for head, line, urgent in later[k:]:
                    if wait and wait[-1][0] is head:
                        wait[-1] = (head, wait[-1][1] + ((line, urgent),))
                    else:
                        wait.append((head, ((line, urgent),)))
                self._deferred = self._deferred + wait
                return
        self._pages_of(news, dealt)

    def to_read(self) -> list:
        """Every line the table has still to read, in order: on pages, on the key screen
        shown after them, kept for the bidding screen (a part a lock-in)."""
        pages = [line for n in self.notices if isinstance(n, v.Instructions) for line in n.lines]
        return pages + list(self.told) + list(_told(self._deferred)) + [line for part in self._parts for line in part]

    def _bidding_parts(self, units: list):
        """As ``_split`` does, dropping units said only where there is room (the last
        first) until the rest fit; None when they never do."""
        in_order = [(unit, opt) for unit, opt, _ in units]
        parts = self._split(in_order)
        if parts is not None and len(parts) == 1:
            return parts  # all on the first screen: in the order it happened
        # else a round's end first, where there is the most room (the cards back are needed to bid)
        units = [(unit, opt) for unit, opt, _ in sorted(units, key=lambda u: not u[2])]
        while True:
            parts = self._split(units)
            optional = [i for i, (_, opt) in enumerate(units) if opt]
            if parts is not None or not optional:
                return parts
            del units[optional[-1]]

    def _split(self, units: list):
        """``units`` (lines that go together) split into what the bidding screen shows
        before the first lock-in of a person, before the second, and so on (each part as
        many as fit); None when a unit fits no bidding screen or there are more parts than
        people bidding."""
        parts: list = []
        for unit, optional in units:
            if parts and self._bidding_fits(parts[-1] + unit, len(parts) - 1):
                parts[-1] += unit
            elif self._bidding_fits(unit, len(parts)) and (not optional or len(parts) < self._people()):
                parts.append(unit)
            elif not optional:
                return None  # else: said where there is room only (the bids reveal showed it)
        return parts if len(parts) <= self._people() else None

    def _people(self) -> int:
        """How many seats people bid for (the Pi's lock-ins turn no part)."""
        pi = self.assistant.players if self.assistant is not None else ()
        return self.state.players - len(pi)

    def _bidding_fits(self, told: tuple, locked: int) -> bool:
        """Whether the bidding screen reads whole with ``told`` and ``locked`` seats locked in
        (the part after each person's lock-in is shown with the seats that have)."""
        view = self._peek(notices=[], overlay=None, toast=None, pending={}, _parts=[])
        return self.fits(view._replace(told=told, locked=tuple(self.seats[:locked]), toast=None))

    def _pages_of(self, sections, dealt) -> None:
        """Sections as instruction pages, each its title; with real cards to turn up next,
        the last page says how many (a stalemate's lines say it already); with the virtual
        deck, what it turned up."""
        st = self.state
        pages = [(head, tuple(line for line, _ in lines if line is not head)) for head, lines in sections]
        pages = [(head, lines) for head, lines in pages if lines]
        if pages and st.phase is REVEAL and self.deck is None and not st.is_over():
            # the card to turn up is said with what it is for: a stalemate's (also on a round's
            # last bid: never "Round 3 over ... Turn up 1 card"), else the last page's
            stalemate = [i for i, (head, _) in enumerate(pages) if head == msg("title.stalemate")]
            i = stalemate[-1] if stalemate else len(pages) - 1
            if not any(line.id == "line.turn_up_then_bid" for line in pages[i][1]):
                pages[i] = (pages[i][0], pages[i][1] + (msg("line.turn_up", n=st.to_reveal),))
        if pages and dealt:
            pages.append((msg("title.display"), (msg("line.new_cards", cards=cards_list(dealt)),)))
        for head, lines in pages:
            before = len(self.notices)
            self._add_lines(head, lines)
            made = self._made_in.get(id(head))
            if made is not None and made[0] is head:  # pages of lines kept for later: their turn's
                for n in self.notices[before:]:
                    self._page_where[id(n)] = (n, made[1])

    def _mark(self) -> tuple:
        return super()._mark() + ((self.told, list(self._deferred), list(self._parts)),)

    def _take_back(self, mark) -> None:
        self.told, self._deferred, self._parts = mark[3]
        self._news, self._dealt = [], None
        self._take_back_game(mark[:3])

    def _reveal_of(self, move):
        """The bids reveal of a bids move (a view)."""
        cards = tuple(gh.CARD_INDEX[c] for c in move.cards)
        res = gh.resolve(cards, self.state.options)
        return v.BidsRevealed(
            self.seats, move.cards, tuple(self.seats[p] for p in res.cancelled),
            None if res.takes_all is None else self.seats[res.takes_all], res.how,
            () if res.takes_all is not None else tuple(self.seats[p] for p in res.choosers),
            res.stalemate, why=self._why(cards, res))

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

    def _stalemate_lines(self, e, round_ends: bool) -> list:
        """G7: the bid cards are spent; then the order: turn up, then bid again. With an
        empty draw pile no card is added, and the screen says so."""
        st = self.state
        lines = [msg("line.bids_spent")]
        if e.count > 1:
            lines.append(msg("line.display_discarded"))
        if round_ends or st.is_over():
            return lines  # the round's end says what comes next
        n = st.to_reveal
        if n == 0:
            lines.append(msg("line.no_card_left"))
        elif self.deck is None:
            lines.append(msg("line.turn_up_then_bid", n=n))
        else:
            lines.append(msg("line.card_added", n=n))
        return lines

    def _nothing_lines(self, move, fx) -> list:
        """Who gets nothing this turn, said in one line where there is room: G3 the seats
        whose bids cancelled (the reveal greyed them), G4 and G6 every other seat beside a
        take of all, G5 the choosers left when the display ran out."""
        if not isinstance(move, (Bids, Choose)):
            return []
        st = self.state
        index = max(i for i, m in enumerate(st.moves) if isinstance(m, Bids))
        bids = st.moves[index]
        res = gh.resolve(tuple(gh.CARD_INDEX[c] for c in bids.cards), st.options)
        if res.stalemate:
            return []  # the stalemate's lines say the bid cards are spent
        if res.takes_all is not None:  # said with the bids' own move
            first = isinstance(move, Bids)
            return _nothing([self.seats[p] for p in range(len(bids.cards)) if p != res.takes_all]) if first else []
        if st.phase is CHOOSING and st.turn == self._turn:
            return []  # the turn goes on: said at its end (the chooser's screen keeps its big head)
        took = sum(1 for m in st.moves[index + 1:] if isinstance(m, Choose))
        took += sum(1 for e in fx if isinstance(e, Took) and e.how == "forced")
        # every seat that took nothing (cancelled, an X that met no Ace, the display ran out), in seat order
        return _nothing([self.seats[p] for p in range(len(bids.cards)) if p not in res.choosers[:took]])

    # -- undo -----------------------------------------------------------------------------------

    _undo_cache = (None, None)

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
        self.told, self._deferred, self._parts = (), [], []  # they told of what is taken back
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
