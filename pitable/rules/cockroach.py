"""Cockroach Poker (Kakerlakenpoker): the rules, as a small state object.

Pure Python: no I/O, no hardware, no threads. Same shape as
:mod:`pitable.rules.grasshopper`: the state says what it waits for
(:attr:`State.phase`), takes one input at a time with :meth:`State.push` and
takes the last one back with :meth:`State.pop`; validation (:meth:`State.check`)
is separate from mutation. Ruling ids (C1..C7) refer to ``docs/rulings.md``.

The assistant never knows what is in anybody's hand: it tracks hand *counts*,
the face-up rows, and the one card in flight (who offered it, who has seen it,
who holds it, what it is claimed to be). A card's real kind is learnt only when
it is turned face up (C7).

Inside, seats are 0-based and kinds are ints 0..7 (indexes into ``KINDS``);
in JSON (the log and :meth:`State.to_json`) seats are 1-based and kinds are names.

Two modes (option ``mode`` of the header): ``full`` follows every offer, pass and call;
``quick`` (:class:`QuickState`) takes one input a round, the card laid face up
(:class:`Laid`): who lays it and what it is. The talk (claims, passes, calls) stays at
the table; the counts, rows, the next starter and the losses are the same rules.
"""

from __future__ import annotations

import enum
from typing import Any, NamedTuple

from pitable.errors import IllegalMove, OptionError

Fx = list[Any]  # what a push did, gathered

GAME = "cockroach"
KINDS = ("rat", "cockroach", "bat", "fly", "scorpion", "stinkbug", "spider", "toad")
PER_KIND = 8                      # C1
DECK_SIZE = PER_KIND * len(KINDS)  # 64
SET_ASIDE_TWO = 10                # C1: two players set 10 cards aside unseen
MIN_PLAYERS, MAX_PLAYERS = 2, 6
FULL, QUICK = "full", "quick"
MODES = (QUICK, FULL)             # option "mode"; a header without it is a full game
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
_K8 = tuple(range(len(KINDS)))


class Phase(enum.StrEnum):
    """What the state waits for. Strings (JSON writes them as they are), one object each
    (``is`` holds, also across a pickle)."""

    OFFER = "offer"    # the active seat gives a hand card face down to another seat, with a claim
    ANSWER = "answer"  # the receiver calls true/false, or peeks and passes it on
    FLIP = "flip"      # the called card is turned face up: its real kind is entered
    LAY = "lay"        # quick mode: the round is played aloud; its taker lays the card face up
    OVER = "over"


OFFER, ANSWER, FLIP, LAY, OVER = Phase.OFFER, Phase.ANSWER, Phase.FLIP, Phase.LAY, Phase.OVER


def loss_count(players: int) -> int:
    """C6: this many of one kind face up in a row loses (5 with two players, else 4)."""
    return 5 if players == 2 else 4


def deal(players: int, first: int = 0) -> tuple[int, ...]:
    """C1: hand sizes, seat order. Dealt one at a time from ``first``, so ``first``
    and the seats after it get the extra cards. Two players: 10 set aside first."""
    cards = DECK_SIZE - (SET_ASIDE_TWO if players == 2 else 0)
    base, extra = divmod(cards, players)
    return tuple(base + (1 if (s - first) % players < extra else 0) for s in range(players))


# -- inputs -------------------------------------------------------------------------

class Pass(NamedTuple):
    """The first offer of a round, or a pass after peeking (C3, C4).

    ``to`` is a 0-based seat inside (1-based in JSON); ``claim`` a kind name.
    """

    to: int
    claim: str

    def to_json(self) -> dict[str, Any]:
        return {"pass": {"to": self.to + 1, "claim": self.claim}}


class Call(NamedTuple):
    """The receiver accepts the card and calls: ``true`` = "it is what was claimed" (C4)."""

    true: bool

    def to_json(self) -> dict[str, Any]:
        return {"call": self.true}


class Flip(NamedTuple):
    """The called card turned face up: its real kind (C7)."""

    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"flip": self.kind}


class Laid(NamedTuple):
    """Quick mode: the round's card ends face up in ``seat``'s row (the taker: C5), and
    it is a ``kind``. The card came from the round's starter's hand."""

    seat: int
    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"laid": {"seat": self.seat + 1, "kind": self.kind}}


Move = Pass | Call | Flip | Laid


def move_from_json(obj: dict[str, Any]) -> Move:
    """One log line's object -> a move. Raises IllegalMove on a malformed object.

    Whether the move is legal now is :meth:`State.check`'s business.
    """
    if not isinstance(obj, dict) or len(obj) != 1:
        raise IllegalMove("expected an object with one key: pass, call, flip or laid")
    (key, value), = obj.items()
    if key == "pass":
        if not isinstance(value, dict) or set(value) != {"to", "claim"}:
            raise IllegalMove('pass must be an object {"to": SEAT, "claim": KIND}')
        to, claim = value["to"], value["claim"]
        if isinstance(to, bool) or not isinstance(to, int):
            raise IllegalMove(f"pass: to must be a seat number (1, 2, ...), not {to!r}")
        if not isinstance(claim, str):
            raise IllegalMove(f"pass: claim must be a kind name ({', '.join(KINDS)}), not {claim!r}")
        return Pass(to - 1, claim)
    if key == "call":
        if not isinstance(value, bool):
            raise IllegalMove(f"call must be true or false, not {value!r}")
        return Call(value)
    if key == "flip":
        if not isinstance(value, str):
            raise IllegalMove(f"flip must be a kind name ({', '.join(KINDS)}), not {value!r}")
        return Flip(value)
    if key == "laid":
        if not isinstance(value, dict) or set(value) != {"seat", "kind"}:
            raise IllegalMove('laid must be an object {"seat": SEAT, "kind": KIND}')
        seat, kind = value["seat"], value["kind"]
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise IllegalMove(f"laid: seat must be a seat number (1, 2, ...), not {seat!r}")
        if not isinstance(kind, str):
            raise IllegalMove(f"laid: kind must be a kind name ({', '.join(KINDS)}), not {kind!r}")
        return Laid(seat - 1, kind)
    raise IllegalMove(f"unknown input {key!r} (expected pass, call, flip or laid)")


# -- what happened: results as values ------------------------------------------------

class Offered(NamedTuple):
    """A round starts: ``seat`` gives a hand card face down to ``to`` claiming ``claim`` (C3)."""

    seat: int
    to: int
    claim: str


class Passed(NamedTuple):
    """``seat`` peeked at the card and passed it to ``to`` claiming ``claim`` (C4)."""

    seat: int
    to: int
    claim: str


class Called(NamedTuple):
    seat: int
    true: bool


class Why(enum.StrEnum):
    """Who takes a flipped card (``Took.why``, C5)."""

    RIGHT_CALL = "right_call"  # the receiver called right: the seat that passed it takes it
    WRONG_CALL = "wrong_call"  # the receiver takes it
    LAID = "laid"              # quick mode: the table heard no call; the taker says it by laying the card


class Took(NamedTuple):
    """``seat`` lays the card face up in its row (C5)."""

    seat: int
    kind: str
    why: Why


class Loss(enum.StrEnum):
    """Why a seat lost (C6); the catalogs' words are ``cr.line.loses.<reason>``."""

    FOUR_OF_A_KIND = "four_of_a_kind"
    FIVE_OF_A_KIND = "five_of_a_kind"  # with two players
    EMPTY_HAND = "empty_hand"


class Lost(NamedTuple):
    """C6: the seat that lost, and why."""

    seat: int
    reason: Loss


class Outcome(NamedTuple):
    """The result at game end (C6): one loser, everyone else shares the win."""

    losers: tuple[int, ...]   # seats, 0-based
    winners: tuple[int, ...]  # seats, 0-based
    reason: Loss
    kind: str | None  # the kind of the losing row (None for an empty hand)

    def to_json(self) -> dict[str, Any]:
        return {"losers": [s + 1 for s in self.losers], "winners": [s + 1 for s in self.winners],
                "reason": self.reason, "kind": self.kind}


# -- the state ------------------------------------------------------------------------

class State:
    """A game in progress. Mutable; ``push``/``pop`` keep an undo stack of snapshots.

    Attributes (0-based seats, int kinds):
    ``hands`` cards in hand per seat (counts only); ``rows`` face-up count per seat
    and kind; ``aside`` cards set aside unseen (two players); ``active`` the seat to
    act (the offerer in ``offer``, the receiver in ``answer`` and in ``flip``: the
    receiver turns the card, since the taker is unknown until then); ``chain`` the
    seats that have seen the card in flight, offerer first; ``to`` its receiver;
    ``claim`` its current claim; ``call`` the receiver's call (``flip`` only).
    """

    mode = FULL
    __slots__ = ("players", "first", "hands", "rows", "aside", "round", "active", "phase",
                 "chain", "to", "claim", "call", "outcome", "history", "moves", "last")

    def __init__(self, players: int, first: int = 0):
        if isinstance(players, bool) or not isinstance(players, int) \
                or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalMove(f"Cockroach Poker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        if isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < players:
            shown = first + 1 if isinstance(first, int) and not isinstance(first, bool) else first
            raise IllegalMove(f"the first player must be a seat from 1 to {players}, not {shown!r}")
        self.players = players
        self.first = first                       # C2
        self.hands = list(deal(players, first))  # C1
        self.rows = [[0] * len(KINDS) for _ in range(players)]
        self.aside = SET_ASIDE_TWO if players == 2 else 0
        self.round = 1
        self.active: int | None = first  # None once the game is over
        self.phase = OFFER
        self.chain: list[int] = []
        self.to: int | None = None
        self.claim: int | None = None
        self.call: bool | None = None
        self.outcome: Outcome | None = None
        self.history: list[tuple[Any, ...]] = []
        self.moves: list[Move] = []
        self.last: tuple[Any, ...] = ()

    # -- reading ---------------------------------------------------------------------

    @property
    def losing_count(self) -> int:
        return loss_count(self.players)

    @property
    def in_flight(self) -> int:
        """1 while a card is on its way (answer and flip), else 0."""
        return 1 if self.phase in (ANSWER, FLIP) else 0

    @property
    def offerer(self) -> int | None:
        return self.chain[0] if self.chain else None

    @property
    def sender(self) -> int | None:
        """The seat that passed the card in flight to its receiver (takes it on a right call)."""
        return self.chain[-1] if self.chain else None

    @property
    def receiver(self) -> int | None:
        return self.to

    def _flight(self) -> tuple[int, int]:
        """(receiver, claim) of the card in flight: only in answer and flip."""
        to, claim = self.to, self.claim
        if to is None or claim is None:
            raise IllegalMove("no card is in flight")
        return to, claim

    def _actor(self) -> int:
        """The seat to act (the game is not over)."""
        if self.active is None:
            raise IllegalMove("the game is over")
        return self.active

    def face_up(self) -> list[int]:
        """Face-up cards per kind, all rows together."""
        return [sum(row[k] for row in self.rows) for k in _K8]

    def row(self, seat: int) -> dict[str, int]:
        """A seat's face-up row as {kind name: count}."""
        return {KINDS[k]: n for k, n in enumerate(self.rows[seat]) if n}

    def unseen_seats(self) -> list[int]:
        """Seats the card in flight may still be passed to (not the holder, nobody who saw it)."""
        if self.phase != ANSWER:
            return []
        seen = set(self.chain)
        seen.add(self._flight()[0])
        return [s for s in range(self.players) if s not in seen]

    def can_pass(self) -> bool:
        """C4: the receiver may pass on (more than two players and somebody unseen left)."""
        return self.phase == ANSWER and self.players > 2 and bool(self.unseen_seats())

    def is_over(self) -> bool:
        return self.phase == OVER

    def accounted(self) -> int:
        """Hands + card in flight + face-up rows + set aside: always 64."""
        return sum(self.hands) + self.in_flight + sum(map(sum, self.rows)) + self.aside

    def copy(self, history: bool = False) -> State:
        other = type(self).__new__(type(self))
        other.players, other.first, other.aside = self.players, self.first, self.aside
        other._restore(self._snapshot())
        other.history = list(self.history) if history else []
        other.moves = list(self.moves) if history else []
        return other

    def to_json(self) -> dict[str, Any]:
        """The public state (what ``pitable replay --json`` prints). Seats 1-based."""
        out = {
            "game": GAME,
            "players": self.players,
            "first": self.first + 1,
            "phase": self.phase,
            "round": self.round,
            "active": None if self.active is None else self.active + 1,
            "seats": [{"hand": self.hands[s], "row": self.row(s)} for s in range(self.players)],
            "aside": self.aside,
            "chain": [s + 1 for s in self.chain],
        }
        if self.phase in (ANSWER, FLIP):
            to, claim = self._flight()
            out["claim"] = KINDS[claim]
            out["from"] = self.chain[-1] + 1
            out["to"] = to + 1
        if self.phase == FLIP:
            out["call"] = self.call
        if self.outcome is not None:
            out.update(self.outcome.to_json())
        return out

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self.players == other.players and \
            self.first == other.first and self._snapshot() == other._snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return f"<cockroach.State {self.players}p round {self.round} {self.phase}>"

    # -- validation -------------------------------------------------------------------

    def _kind(self, name: object) -> int:
        k = KIND_INDEX.get(name) if isinstance(name, str) else None
        if k is None:
            raise IllegalMove(f"unknown kind {name!r} (kinds: {', '.join(KINDS)})")
        return k

    def check(self, move: Move) -> None:
        """Raise IllegalMove saying why ``move`` is not legal now; return None if it is."""
        if self.phase == OVER:
            raise IllegalMove("the game is over")
        if isinstance(move, Pass):
            to = move.to
            if isinstance(to, bool) or not isinstance(to, int) or not 0 <= to < self.players:
                shown = to + 1 if isinstance(to, int) and not isinstance(to, bool) else to
                raise IllegalMove(f"there is no seat {shown!r} (seats 1 to {self.players})")
            if self.phase == OFFER:
                if not self.hands[self._actor()]:  # unreachable: such a seat has lost (C6)
                    raise IllegalMove(f"seat {self._actor() + 1} has no card to offer")
                if to == self.active:
                    raise IllegalMove(f"seat {to + 1} cannot offer a card to itself")
            elif self.phase == ANSWER:
                if self.players == 2:
                    raise IllegalMove("no passing with two players: the card must be accepted (call true or false)")
                if to == self.to:
                    raise IllegalMove(f"seat {to + 1} cannot pass the card to itself")
                if not self.unseen_seats():
                    raise IllegalMove(f"everybody else has seen the card: seat {self._flight()[0] + 1} must accept it "
                                      "(call true or false)")
                if to in self.chain:
                    raise IllegalMove(f"seat {to + 1} has already seen this card (pass to seat "
                                      f"{' or '.join(str(s + 1) for s in self.unseen_seats())})")
            else:
                raise IllegalMove(f"no card is to be offered or passed now (waiting for {self.waiting_for()})")
            self._kind(move.claim)
        elif isinstance(move, Call):
            if self.phase != ANSWER:
                raise IllegalMove(f"no call is expected now (waiting for {self.waiting_for()})")
            if not isinstance(move.true, bool):
                raise IllegalMove(f"a call is true or false, not {move.true!r}")
        elif isinstance(move, Flip):
            if self.phase != FLIP:
                raise IllegalMove(f"no card is to be turned face up now (waiting for {self.waiting_for()})")
            k = self._kind(move.kind)
            if self.face_up()[k] >= PER_KIND:
                raise IllegalMove(f"all {PER_KIND} {move.kind} cards are already face up: that flip is impossible")
        elif isinstance(move, Laid):
            raise IllegalMove("a card laid without its round is a quick-mode input; this game follows "
                              "every offer, pass and call")
        else:
            raise IllegalMove(f"not a Cockroach Poker input: {move!r}")

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def waiting_for(self) -> str:
        if self.phase == OFFER:
            return f"seat {self._actor() + 1} to offer a card (to a seat, with a claim)"
        if self.phase == ANSWER:
            to, k = self._flight()
            claim = KINDS[k]
            if self.can_pass():
                return f"seat {to + 1} to call the {claim} true or false, or peek and pass it on"
            return f"seat {to + 1} to call the {claim} true or false"
        if self.phase == FLIP:
            return f"seat {self._flight()[0] + 1} to turn the card face up and enter its kind"
        return "nothing: the game is over"

    def legal_moves(self) -> list[Move]:
        """Every legal input now."""
        if self.phase == OFFER:
            return [Pass(s, c) for s in range(self.players) if s != self.active for c in KINDS]
        if self.phase == ANSWER:
            moves: list[Move] = [Call(True), Call(False)]
            if self.players > 2:
                moves += [Pass(s, c) for s in self.unseen_seats() for c in KINDS]
            return moves
        if self.phase == FLIP:
            up = self.face_up()
            return [Flip(KINDS[k]) for k in _K8 if up[k] < PER_KIND]
        return []

    # -- mutation ---------------------------------------------------------------------

    def push(self, move: Move) -> tuple[Any, ...]:
        """Apply a legal input. Returns what happened as values (:class:`Offered`,
        :class:`Passed`, :class:`Called`, :class:`Took`, :class:`Lost`), also kept in
        :attr:`last`. An illegal input raises IllegalMove and changes nothing."""
        self.check(move)
        self.history.append(self._snapshot())
        self.moves.append(move)
        fx: list[Any] = []
        if isinstance(move, Pass):
            if self.phase == OFFER:
                self._offer(move.to, KIND_INDEX[move.claim], fx)
            else:
                self._pass(move.to, KIND_INDEX[move.claim], fx)
        elif isinstance(move, Call):
            fx.append(Called(self._flight()[0], move.true))
            self.call = move.true
            self.phase = FLIP
        else:
            self._flip(KIND_INDEX[move.kind], fx)
        self.last = tuple(fx)
        return self.last

    def pop(self) -> Move:
        """Take back the last input, restoring the exact state before it."""
        if not self.history:
            raise IllegalMove("nothing to undo")
        self._restore(self.history.pop())
        return self.moves.pop()

    def can_pop(self) -> bool:
        return bool(self.history)

    # -- transitions (no validation: callers have checked) -----------------------------

    def _offer(self, to: int, claim: int, fx: Fx) -> None:
        """C3: one hand card, face down, to another seat, with a claim."""
        seat = self._actor()
        self.hands[seat] -= 1
        self.chain = [seat]
        self.to, self.claim, self.call = to, claim, None
        self.active = to
        self.phase = ANSWER
        fx.append(Offered(seat, to, KINDS[claim]))

    def _pass(self, to: int, claim: int, fx: Fx) -> None:
        """C4: the receiver has peeked and passes the card on, with a claim."""
        seat = self._flight()[0]
        self.chain.append(seat)
        self.to, self.claim = to, claim
        self.active = to
        fx.append(Passed(seat, to, KINDS[claim]))

    def _flip(self, kind: int, fx: Fx) -> None:
        """C5: right call -> the sender takes it; wrong call -> the receiver. C6 then."""
        to, claim = self._flight()
        right = self.call == (kind == claim)
        taker = self.chain[-1] if right else to
        self.chain = []
        self.to = self.claim = self.call = None
        self._take(taker, kind, Why.RIGHT_CALL if right else Why.WRONG_CALL, fx)

    def _take(self, taker: int, kind: int, why: Why, fx: Fx) -> None:
        """C5: the taker lays the card face up and starts the next round; C6 first."""
        self.rows[taker][kind] += 1
        fx.append(Took(taker, KINDS[kind], why))
        if self.rows[taker][kind] >= self.losing_count:  # the game ends at once
            reason = Loss.FIVE_OF_A_KIND if self.players == 2 else Loss.FOUR_OF_A_KIND
            self._lose(taker, reason, KINDS[kind], fx)
        elif not self.hands[taker]:  # the taker would have to start a round empty-handed
            self._lose(taker, Loss.EMPTY_HAND, None, fx)
        else:
            self.round += 1
            self.active = taker
            self.phase = self._starts

    def _lose(self, seat: int, reason: Loss, kind: str | None, fx: Fx) -> None:
        fx.append(Lost(seat, reason))
        winners = tuple(s for s in range(self.players) if s != seat)
        self.outcome = Outcome((seat,), winners, reason, kind)
        self.active = None
        self.phase = OVER

    _starts = OFFER     # the phase a round starts in

    # -- snapshots ----------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        return (tuple(self.hands), tuple(tuple(r) for r in self.rows), self.round, self.active,
                self.phase, tuple(self.chain), self.to, self.claim, self.call, self.outcome, self.last)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (hands, rows, self.round, self.active, self.phase, chain, self.to, self.claim,
         self.call, self.outcome, self.last) = snap
        self.hands = list(hands)
        self.rows = [list(r) for r in rows]
        self.chain = list(chain)


class QuickState(State):
    """Quick mode: one input a round, :class:`Laid` (who lays the card face up, and what).

    Claims, passes and calls are spoken at the table and never entered; from the card
    laid the rules know the same as in a full game: the starter's hand is one card
    fewer (C3: the round's card came from it), the taker's row grows (C5), the taker
    starts the next round (C5) or loses (C6: four of a kind, five with two players; or
    an empty hand when it must start). ``active`` is the round's starter.
    """

    __slots__ = ()
    _starts = LAY

    def __init__(self, players: int, first: int = 0):
        super().__init__(players, first)
        self.phase = LAY

    mode = QUICK

    def check(self, move: Move) -> None:
        if self.phase == OVER:
            raise IllegalMove("the game is over")
        if not isinstance(move, Laid):
            said = next(iter(move.to_json())) if hasattr(move, "to_json") else repr(move)
            raise IllegalMove(f"quick mode takes only the card laid face up (laid: seat and kind), not {said}")
        seat = move.seat
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            shown = seat + 1 if isinstance(seat, int) and not isinstance(seat, bool) else seat
            raise IllegalMove(f"there is no seat {shown!r} (seats 1 to {self.players})")
        k = self._kind(move.kind)
        starter = self._actor()
        if not self.hands[starter]:  # unreachable: such a starter has lost (C6)
            raise IllegalMove(f"seat {starter + 1} has no card to start the round with")
        if self.face_up()[k] >= PER_KIND:
            raise IllegalMove(f"all {PER_KIND} {move.kind} cards are already face up: that card is impossible")

    def waiting_for(self) -> str:
        if self.phase == OVER:
            return "nothing: the game is over"
        return (f"the taker of round {self.round} (started by seat {self._actor() + 1}) to lay its card "
                "face up and say which kind")

    def legal_moves(self) -> list[Move]:
        if self.phase == OVER:
            return []
        up = self.face_up()
        return [Laid(s, KINDS[k]) for s in range(self.players) for k in _K8 if up[k] < PER_KIND]

    def push(self, move: Move) -> tuple[Any, ...]:
        """Apply a legal :class:`Laid`; returns (:class:`Took` with why ``"laid"``,
        then :class:`Lost` if it ends the game), also kept in :attr:`last`."""
        self.check(move)
        assert isinstance(move, Laid) and self.active is not None  # check() refused anything else
        self.history.append(self._snapshot())
        self.moves.append(move)
        fx: Fx = []
        self.hands[self.active] -= 1   # C3: the starter's card, whoever ends up with it
        self._take(move.seat, KIND_INDEX[move.kind], Why.LAID, fx)
        self.last = tuple(fx)
        return self.last

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["mode"] = QUICK
        return out


def new_game(players: int, first: int = 0, mode: str = FULL) -> State:
    return (QuickState if mode == QUICK else State)(players, first)


def header(players: int, first: int = 0, mode: str | None = None, **extra: Any) -> dict[str, Any]:
    """A log header for a new game. ``first`` is a 0-based seat here, 1-based in the header;
    ``mode`` (quick or full) is written when given (a header without it is a full game).

    Extra keys (seed, started, ...) are kept as they are."""
    options = {"first": first + 1} if mode is None else {"first": first + 1, "mode": mode}
    return {"game": GAME, "players": players, "options": options, **extra}


def state_from_header(head: dict[str, Any]) -> State:
    """The starting state a header describes; IllegalMove says what is wrong with it."""
    players = head.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalMove(f"header: players must be a whole number, not {players!r}")
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalMove(f"header: Cockroach Poker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
    options = head.get("options", {})
    if not isinstance(options, dict):
        raise IllegalMove("header: options must be an object")
    unknown = sorted(set(options) - {"first", "mode"})
    if unknown:
        raise OptionError(f"header: unknown option {unknown[0]!r} (options: first, mode)")
    mode = options.get("mode", FULL)
    if mode not in MODES:
        raise IllegalMove(f"header: mode must be {' or '.join(MODES)}, not {mode!r}")
    first = options.get("first", 1)
    if isinstance(first, bool) or not isinstance(first, int) or not 1 <= first <= players:
        raise IllegalMove(f"header: first must be a seat from 1 to {players}, not {first!r}")
    return new_game(players, first - 1, mode)
