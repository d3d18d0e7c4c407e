"""Grasshopper Poker (Heuschrecken Poker): the rules, as a small state object.

Pure Python: no I/O, no hardware, no threads. The state says what it waits for
(:attr:`State.phase`) and takes one input at a time with :meth:`State.push`;
:meth:`State.pop` takes the last one back. Validation (:meth:`State.check`) is
separate from mutation. Ruling ids (G1..G13) refer to ``docs/rulings.md``.

Inside, kinds and cards are small ints so that simulations run fast:
kinds 0..4 are ``KINDS``, cards 0..7 are ``CARDS`` (0 is the "1", 6 the Ace, 7 the X).
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, NamedTuple

from pitable.errors import IllegalMove, OptionError
from pitable.keys import NAMES as KEYS

if TYPE_CHECKING:
    import random

Fx = list[Any] | None  # what a push did, gathered; None on the fast paths

GAME = "grasshopper"
KINDS = ("grasshopper", "corn", "strawberry", "broccoli", "blackberry")
GRASSHOPPER = 0
PLANTS = (1, 2, 3, 4)
_K5 = (0, 1, 2, 3, 4)
DECK = (14, 13, 13, 13, 13)  # G2
DECK_SIZE = sum(DECK)
CARDS = KEYS  # G1: 1 to 6, an Ace, an X; each card is pressed with the key of its name
ACE = 6
X = 7
ALL_SPENT = 0xFF
DISPLAY_SIZE = 3
MIN_PLAYERS, MAX_PLAYERS = 2, 4

HANDS = tuple(tuple(c for c in range(8) if not m >> c & 1) for m in range(256))  # unspent cards per spent-mask
KIND_INDEX = {k: i for i, k in enumerate(KINDS)}
CARD_INDEX = {c: i for i, c in enumerate(CARDS)}


class Phase(enum.StrEnum):
    """What the state waits for. Strings (JSON writes them as they are) that are also one
    object each: the hot paths compare them with ``is``, and a pickled state (the
    assistant's worker) comes back holding the same members."""

    REVEAL = "reveal"      # a garden card to be turned up from the draw pile
    BIDDING = "bidding"    # every seat's bid, all together
    CHOOSING = "choosing"  # a seat's choice of a kind on the display
    OVER = "over"


REVEAL, BIDDING, CHOOSING, OVER = Phase.REVEAL, Phase.BIDDING, Phase.CHOOSING, Phase.OVER
# (module constants: an enum member read as Phase.X goes through a descriptor, ~70 ns in 3.11)


@dataclass(frozen=True)
class Options:
    """Rule options; the defaults are the rulebook's game."""

    beginner: bool = False               # G13: X is only a pass card
    x_takes_cancelled_ace: bool = False  # G4: a cancelled Ace still gives X its power
    end_on_empty_pile: bool = False      # G11: end at the first refill that finds the pile empty

    @classmethod
    def from_dict(cls, data: dict[str, Any] | None) -> Options:
        data = dict(data or {})
        names = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise OptionError(f"unknown option {unknown[0]!r} (options: {', '.join(sorted(names))})")
        for key, value in data.items():
            if not isinstance(value, bool):
                raise OptionError(f"option {key!r} must be true or false, not {value!r}")
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


# -- inputs -------------------------------------------------------------------------

class Reveal(NamedTuple):
    """A garden card turned up from the draw pile."""

    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"reveal": self.kind}


class Bids(NamedTuple):
    """Every seat's poker card of one turn, seat 1 first (applied together)."""

    cards: tuple[str, ...]  # labels (the log's words)

    def to_json(self) -> dict[str, Any]:
        return {"bids": list(self.cards)}


class Choose(NamedTuple):
    """The waiting seat takes all cards of one kind from the display."""

    kind: str

    def to_json(self) -> dict[str, Any]:
        return {"choose": self.kind}


Move = Reveal | Bids | Choose


def move_from_json(obj: dict[str, Any]) -> Move:
    """One log line's object -> a move. Raises IllegalMove on a malformed object."""
    if not isinstance(obj, dict) or len(obj) != 1:
        raise IllegalMove("expected an object with one key: reveal, bids or choose")
    (key, value), = obj.items()
    if key == "reveal":
        return Reveal(value)
    if key == "choose":
        return Choose(value)
    if key == "bids":
        if not isinstance(value, list):
            raise IllegalMove("bids must be a list of cards, seat 1 first")
        return Bids(tuple(value))
    raise IllegalMove(f"unknown input {key!r} (expected reveal, bids or choose)")


# -- what happened: results as values ------------------------------------------------

class How(enum.StrEnum):
    """How a seat came to take cards (``Took.how``, ``Resolution.how``)."""

    ACE = "ace"        # G4: the lone Ace takes the whole display
    X = "x"            # G4, G13: the X takes it
    ALONE = "alone"    # G6: the only chooser left takes it
    CHOICE = "choice"  # a chooser's kind
    FORCED = "forced"  # the one kind left on the display


_ACE, _X, _ALONE, _CHOICE, _FORCED = How.ACE, How.X, How.ALONE, How.CHOICE, How.FORCED



class Took(NamedTuple):
    """A seat took cards from the display, and how."""

    seat: int
    cards: tuple[int, ...]  # count per kind
    how: How


class Harvested(NamedTuple):
    seat: int
    kind: int
    chips: int  # one per three plants (G8)


class Plagued(NamedTuple):
    seat: int
    cards: tuple[int, ...]  # the whole garden, count per kind, to the discard pile (G8)


class Stalemate(NamedTuple):
    count: int    # type: ignore[assignment]  # (shadows tuple.count) 1: a card joins the display; 2: discarded (G7)
    discarded: tuple[int, ...]  # count per kind (all zero on a first stalemate)


class RoundEnded(NamedTuple):
    round: int
    majority: tuple[int, ...]  # seats given the G9 chip
    final: bool      # the game ended with it (G11)


class Resolution(NamedTuple):
    """How a turn's bids work out (G3..G6), before anything is taken."""

    cancelled: tuple[int, ...]  # seats whose bid was cancelled
    takes_all: int | None  # seat taking the whole display (Ace, X, G6 lone chooser)
    how: How | None   # ACE, X or ALONE
    choosers: tuple[int, ...]   # seats choosing one kind each, highest number first

    @property
    def stalemate(self) -> bool:
        return self.takes_all is None and not self.choosers


class Outcome(NamedTuple):
    """The result at game end (G12)."""

    chips: tuple[int, ...]
    grasshoppers: tuple[int, ...]
    winners: tuple[int, ...]  # seats, 0-based

    def to_json(self) -> dict[str, Any]:
        return {"chips": list(self.chips), "grasshoppers": list(self.grasshoppers),
                "winners": [s + 1 for s in self.winners]}


# Options -> {bids: Resolution}; at most 8**4 entries per option set
_tables: dict[Options, dict[tuple[int, ...], Resolution]] = {}


def resolve(bids: tuple[int, ...], options: Options = Options()) -> Resolution:
    """Work out a turn's bids (card ints, seat order). Pure."""
    counts = [0] * 8
    for c in bids:
        counts[c] += 1
    cancelled = tuple(s for s, c in enumerate(bids) if counts[c] > 1)  # G3
    alive = [(c, s) for s, c in enumerate(bids) if counts[c] == 1]
    ace = next((s for c, s in alive if c == ACE), None)
    x = next((s for c, s in alive if c == X), None)
    takes_all, how = None, None
    if not options.beginner and x is not None and (
            ace is not None or (options.x_takes_cancelled_ace and counts[ACE] > 1)):
        takes_all, how = x, _X  # G4, G13
    elif ace is not None:
        takes_all, how = ace, _ACE  # G4
    choosers = tuple(s for c, s in sorted(alive, reverse=True) if c < ACE)  # G5
    if takes_all is None and len(bids) == 2 and len(choosers) == 1:
        takes_all, how, choosers = choosers[0], _ALONE, ()  # G6
    return Resolution(cancelled, takes_all, how, choosers)


# -- the state ------------------------------------------------------------------------

class State:
    """A game in progress. Mutable; ``push``/``pop`` keep an undo stack of snapshots."""

    __slots__ = ("players", "options", "unseen", "display", "discard", "gardens", "chips",
                 "spent", "round", "turn", "stalemates", "to_reveal", "choosers", "phase",
                 "outcome", "history", "moves", "last", "_table", "_present")

    def __init__(self, players: int, options: Options | None = None):
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalMove(f"Grasshopper Poker is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players!r}")
        self.players = players
        self.options = options or Options()
        self.unseen = list(DECK)          # the draw pile, kind by kind (unseen cards)
        self.display = [0] * 5
        self.discard = [0] * 5
        self.gardens = [[0] * 5 for _ in range(players)]
        self.chips = [0] * players
        self.spent = [0] * players        # bitmask of cards spent this round
        self.round = 1
        self.turn = 1                     # bidding turns this round, stalemates included
        self.stalemates = 0               # in a row (G7)
        self.to_reveal = DISPLAY_SIZE     # cards to turn up before bidding goes on
        self.choosers: list[int] = []          # seats still to choose this turn, in order
        self.phase = REVEAL
        self.outcome: Outcome | None = None
        self.history: list[tuple[Any, ...]] = []           # snapshots, for pop
        self.moves: list[Move] = []             # the inputs pushed, for the log
        self.last: tuple[Any, ...] = ()             # what the last push did (Took, Harvested, ...)
        self._table = _tables.setdefault(self.options, {})  # resolve() memo for these options

    # -- reading ---------------------------------------------------------------------

    @property
    def pile(self) -> int:
        return sum(self.unseen)

    @property
    def chooser(self) -> int | None:
        """The seat whose choice is awaited, if any."""
        return self.choosers[0] if self.phase is CHOOSING else None

    @property
    def choice_kinds(self) -> list[int]:
        """Kinds (ints) the waiting chooser can take, when :attr:`phase` is CHOOSING."""
        return self._present

    def hand(self, seat: int) -> list[str]:
        """Cards (labels) the seat can still bid this round."""
        return [CARDS[c] for c in range(8) if not self.spent[seat] >> c & 1]

    def spent_cards(self, seat: int) -> list[str]:
        return [CARDS[c] for c in range(8) if self.spent[seat] >> c & 1]

    def display_kinds(self) -> list[str]:
        """Kinds on the display (names), in KINDS order."""
        return [KINDS[k] for k in range(5) if self.display[k]]

    def is_over(self) -> bool:
        return self.phase is OVER

    def copy(self, history: bool = False) -> State:
        """The same position (and with ``history``, the same undo stack and moves)."""
        other = State.__new__(State)
        other._restore(self._snapshot())
        other.players, other.options, other._table = self.players, self.options, self._table
        other.history = list(self.history) if history else []
        other.moves = list(self.moves) if history else []
        return other

    def to_json(self) -> dict[str, Any]:
        """The public state (what ``pitable replay --json`` prints)."""
        out = {
            "game": GAME,
            "players": self.players,
            "phase": self.phase,
            "round": self.round,
            "turn": self.turn,
            "pile": self.pile,
            "display": {KINDS[k]: n for k, n in enumerate(self.display) if n},
            "discard": sum(self.discard),
            "seats": [{"garden": {KINDS[k]: n for k, n in enumerate(g) if n},
                       "chips": self.chips[s],
                       "spent": self.spent_cards(s)} for s, g in enumerate(self.gardens)],
            "stalemates": self.stalemates,
        }
        if self.phase is REVEAL:
            out["to_reveal"] = self.to_reveal
        if self.phase is CHOOSING:
            out["chooser"] = self.choosers[0] + 1
        if self.outcome is not None:
            out["winners"] = [s + 1 for s in self.outcome.winners]
        return out

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and self.players == other.players and \
            self.options == other.options and self._snapshot() == other._snapshot()

    __hash__ = None  # type: ignore[assignment]  # mutable: not hashable

    def __repr__(self) -> str:
        return f"<grasshopper.State {self.players}p round {self.round} turn {self.turn} {self.phase}>"

    # -- validation -------------------------------------------------------------------

    def check(self, move: Move) -> None:
        """Raise IllegalMove saying why ``move`` is not legal now; return None if it is."""
        if self.phase is OVER:
            raise IllegalMove("the game is over")
        if isinstance(move, Reveal):
            self._want_phase(REVEAL, "no card is to be revealed now")
            k = self._kind(move.kind)
            if not self.unseen[k]:
                raise IllegalMove(f"all {DECK[k]} {move.kind} cards are already out: that reveal is impossible")
        elif isinstance(move, Bids):
            self._want_phase(BIDDING, "bids are not expected now")
            if len(move.cards) != self.players:
                raise IllegalMove(f"expected {self.players} bids, one per seat, got {len(move.cards)}")
            for s, label in enumerate(move.cards):
                c = CARD_INDEX.get(label) if isinstance(label, str) else None
                if c is None:
                    raise IllegalMove(f"seat {s + 1}: unknown card {label!r} (cards: {' '.join(CARDS)})")
                if self.spent[s] >> c & 1:
                    raise IllegalMove(f"seat {s + 1}: card {label} is already spent this round")
        elif isinstance(move, Choose):
            self._want_phase(CHOOSING, "no choice is expected now")
            if not self.display[self._kind(move.kind)]:
                raise IllegalMove(f"there is no {move.kind} on the display")
        else:
            raise IllegalMove(f"not a Grasshopper Poker input: {move!r}")

    def _want_phase(self, phase: Phase, refusal: str) -> None:
        if self.phase is not phase:
            raise IllegalMove(f"{refusal} (waiting for {self.waiting_for()})")

    @staticmethod
    def _kind(name: object) -> int:
        k = KIND_INDEX.get(name) if isinstance(name, str) else None  # a log may hold anything
        if k is None:
            raise IllegalMove(f"unknown kind {name!r} (kinds: {', '.join(KINDS)})")
        return k

    def is_legal(self, move: Move) -> bool:
        try:
            self.check(move)
        except IllegalMove:
            return False
        return True

    def waiting_for(self) -> str:
        if self.phase is REVEAL:
            return f"{self.to_reveal} card{'s' if self.to_reveal > 1 else ''} to be revealed"
        if self.phase is BIDDING:
            return "everyone's bids"
        if self.phase is CHOOSING:
            return f"seat {self.choosers[0] + 1} to choose a kind"
        return "nothing: the game is over"

    def legal_moves(self) -> list[Move]:
        """Every legal input now (bids: every combination of the hands)."""
        if self.phase is REVEAL:
            return [Reveal(KINDS[k]) for k in range(5) if self.unseen[k]]
        if self.phase is CHOOSING:
            return [Choose(KINDS[k]) for k in range(5) if self.display[k]]
        if self.phase is BIDDING:
            combos: list[tuple[str, ...]] = [()]
            for s in range(self.players):
                hand = self.hand(s)
                combos = [c + (h,) for c in combos for h in hand]
            return [Bids(c) for c in combos]
        return []

    # -- mutation ---------------------------------------------------------------------

    def push(self, move: Move) -> tuple[Any, ...]:
        """Apply a legal input (forced choices and take-alls follow by themselves).

        Returns what happened as values (:class:`Took`, :class:`Harvested`, ...),
        also kept in :attr:`last`. An illegal input raises IllegalMove and changes nothing.
        """
        self.check(move)
        self.history.append(self._snapshot())
        self.moves.append(move)
        fx: list[Any] = []
        if isinstance(move, Reveal):
            self._reveal(KIND_INDEX[move.kind], fx)
        elif isinstance(move, Bids):
            self._bids(tuple(CARD_INDEX[c] for c in move.cards), fx)
        else:
            self._choose(KIND_INDEX[move.kind], _CHOICE, fx)
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

    # -- the fast path: simulations and search -----------------------------------------
    # The same transitions as push, without validation, the undo stack, the move list
    # or (unless ``fx`` is a list) the results. Inputs are ints (kinds 0..4, cards 0..7)
    # that the caller took from the legal sets (unseen, hand, display): a bot's game
    # must cost microseconds, not a push's snapshot.

    def play_reveals(self, kinds: Sequence[int], fx: Fx = None) -> None:
        """Turn up ``kinds`` (at most :attr:`to_reveal` of them) from the pile."""
        self._reveals(kinds, fx)

    def play_bids(self, bids: tuple[int, ...], fx: Fx = None) -> None:
        self._bids(bids, fx)

    def play_choice(self, k: int, fx: Fx = None) -> None:
        self._choose(k, _CHOICE, fx)

    # The simulation API: what searches, bots and the league read and play, so that none of
    # them reaches into the state's fields (python-chess's public position, OpenSpiel's
    # chance outcomes).

    def position_key(self) -> tuple[Any, ...]:
        """The position as a hashable value (all a search may key a cache on): equal for
        equal positions, whatever moves led there; no undo stack, no move list."""
        return self._snapshot()

    def position_before(self, i: int) -> State:
        """A state at the position before ``moves[i]`` was pushed (without history): what
        the players saw when they made that move."""
        position = State.__new__(State)
        position._restore(self.history[i])
        position.players, position.options, position._table = self.players, self.options, self._table
        position.history, position.moves = [], []
        return position

    def revealed_bids(self, last: int | None = None) -> tuple[tuple[State, tuple[int, ...]], ...]:
        """The game's revealed bids, oldest first, the last ``last`` of them (all: None):
        (the position they were made at, the bids as card ints). Public: pending bids are
        not moves, so every one of these was revealed."""
        out: list[tuple[State, tuple[int, ...]]] = []
        moves = self.moves
        for i in range(len(moves) - 1, -1, -1):
            if last is not None and len(out) == last:
                break
            move = moves[i]
            if isinstance(move, Bids):
                out.append((self.position_before(i),
                            tuple(CARD_INDEX[c] if isinstance(c, str) else c for c in move.cards)))
        out.reverse()
        return tuple(out)

    def draw_reveals(self, rand: Callable[[], float]) -> list[int]:
        """The chance step: the kinds of the next :attr:`to_reveal` cards, each drawn
        uniformly from the unseen cards by ``rand()`` (a float in [0, 1)); the state is not
        changed. (``playout`` draws from a lazily shuffled pile instead, inlined for speed.)"""
        counts = list(self.unseen)
        left = sum(counts)
        kinds = []
        for _ in range(self.to_reveal):
            r = int(rand() * left)
            for k in _K5:
                r -= counts[k]
                if r < 0:
                    break
            counts[k] -= 1
            left -= 1
            kinds.append(k)
        return kinds

    def play_chance(self, rand: Callable[[], float]) -> None:
        """Play reveals drawn by :meth:`draw_reveals` until the state waits for a player."""
        while self.phase is REVEAL:
            self.play_reveals(self.draw_reveals(rand))

    def playout(self, rng: random.Random, deck: VirtualDeck | None = None,
                choose: Callable[[State], int] | None = None,
                stop_round: int | None = None) -> Outcome | None:
        """Play on to the end with uniformly random legal inputs, for simulations.

        Uses the same transitions as :meth:`push` but skips validation, the undo
        stack, the move list and the results (``fx=None``): a random game must cost
        microseconds. Reveals come from ``deck`` if given, else from a shuffle of
        the unseen cards. ``stop_round``: stop instead when that round begins (its
        majority chips given, before its first reveal) and return None, the state
        left there for the caller to evaluate.
        """
        rand = rng.random
        if deck is None:
            pile = [k for k in range(5) for _ in range(self.unseen[k])]
        else:
            pile = list(reversed(deck.order[DECK_SIZE - self.pile:]))
        left = len(pile)
        perms = hand_orders()
        n_perms = len(perms)
        players = self.players
        bids_of_round: list[Any] = []
        bids_round = None
        while True:
            phase = self.phase
            if stop_round is not None and self.round >= stop_round and phase is not OVER:
                self.last = ()
                return None
            if phase is REVEAL:
                unseen, display = self.unseen, self.display
                for _ in range(self.to_reveal):
                    if deck is None:  # a uniform draw from what is left, lazily shuffled
                        i = int(rand() * left)
                        left -= 1
                        k = pile[i]
                        pile[i] = pile[left]
                    else:
                        left -= 1
                        k = pile[left]
                    unseen[k] -= 1
                    display[k] += 1
                self.to_reveal = 0
                self._after_reveals(None)
            elif phase is BIDDING:
                if bids_round != self.round:
                    # Uniform random bids, turn by turn, are a uniform random order of
                    # each hand: one lookup per seat and round instead of one per turn.
                    bids_round = self.round
                    spent = self.spent
                    if any(spent):  # started mid-round: draw from what is left
                        hands: list[Sequence[int]] = [[c for c in perms[int(rand() * n_perms)] if not spent[s] >> c & 1]
                                 for s in range(players)]
                    else:
                        hands = [perms[int(rand() * n_perms)] for _ in range(players)]
                    bids_of_round = list(zip(*hands))
                    bids_of_round.reverse()
                self._bids(bids_of_round.pop(), None)
            elif phase is CHOOSING:
                present = self._present
                # ``choose(state)``: a chooser's policy (the search's greedy playouts); else random
                k = choose(self) if choose is not None else present[int(rand() * len(present))]
                self._choose(k, _CHOICE, None)
            else:
                self.last = ()
                return self.outcome

    # -- transitions (no validation: callers have checked) -----------------------------
    # ``fx`` collects what happened for the caller, or is None when nobody listens.

    def _reveal(self, k: int, fx: Fx) -> None:
        self._reveals((k,), fx)

    def _reveals(self, kinds: Sequence[int], fx: Fx) -> None:
        unseen, display = self.unseen, self.display
        for k in kinds:
            unseen[k] -= 1
            display[k] += 1  # same kinds stack
        self.to_reveal -= len(kinds)
        if not self.to_reveal:
            self._after_reveals(fx)

    def _after_reveals(self, fx: Fx) -> None:
        if not any(self.display) and not any(self.unseen):
            self._game_over(fx)  # G11: nothing left to play for
        else:
            self.phase = BIDDING

    def _bids(self, bids: tuple[int, ...], fx: Fx) -> None:
        spent = self.spent
        for s, c in enumerate(bids):
            spent[s] |= 1 << c
        res = self._table.get(bids) or self._resolve(bids)
        if res.takes_all is not None:
            display = self.display
            self.display = [0] * 5
            self._take(res.takes_all, display, res.how, fx)  # type: ignore[arg-type]  # set with takes_all
        elif not res.choosers:
            self._stalemate(fx)
            return
        self.stalemates = 0
        self.choosers = list(res.choosers)
        self._next_chooser(fx)

    def _resolve(self, bids: tuple[int, ...]) -> Resolution:
        res = self._table[bids] = resolve(bids, self.options)
        return res

    def _next_chooser(self, fx: Fx) -> None:
        """Hand the choice to the next chooser, applying forced choices (G5)."""
        choosers, d = self.choosers, self.display
        while choosers:
            present = [k for k in _K5 if d[k]]
            if len(present) > 1:
                self.phase = CHOOSING
                self._present = present  # playout picks from it without recounting
                return
            if not present:
                choosers.clear()  # nothing left: the rest get nothing
                break
            self._give(present[0], _FORCED, fx)
        self._end_turn(fx)

    def _choose(self, k: int, how: How, fx: Fx) -> None:
        self._give(k, how, fx)
        self._next_chooser(fx)

    def _give(self, k: int, how: How, fx: Fx) -> None:
        """The first chooser takes all cards of kind ``k``."""
        seat = self.choosers.pop(0)
        n = self.display[k]
        self.display[k] = 0
        garden = self.gardens[seat]
        if fx is not None or garden[GRASSHOPPER] + (n if k == GRASSHOPPER else 0) >= 3:
            took = [0] * 5
            took[k] = n
            self._take(seat, took, how, fx)
        else:
            # The common case, kept short for simulations: one kind, no plague.
            garden[k] += n
            if k and garden[k] >= 3:
                sets = garden[k] // 3
                garden[k] -= 3 * sets
                self.discard[k] += 3 * sets
                self.chips[seat] += sets

    def _take(self, seat: int, cards: list[int], how: How, fx: Fx) -> None:
        """G8: won cards join the garden; then plague, or harvest in threes."""
        if fx is not None:
            fx.append(Took(seat, tuple(cards), how))
        garden = self.gardens[seat]
        for k in range(5):
            garden[k] += cards[k]
        if garden[GRASSHOPPER] >= 3:
            if fx is not None:
                fx.append(Plagued(seat, tuple(garden)))
            discard = self.discard
            for k in range(5):
                discard[k] += garden[k]
            self.gardens[seat] = [0] * 5
            return
        for k in PLANTS:
            if garden[k] >= 3:
                sets = garden[k] // 3
                garden[k] -= 3 * sets
                self.discard[k] += 3 * sets
                self.chips[seat] += sets
                if fx is not None:
                    fx.append(Harvested(seat, k, sets))

    def _stalemate(self, fx: Fx) -> None:
        """G7: the bid cards are spent; add a card, or on the second in a row renew the display."""
        self.stalemates += 1
        if self.stalemates == 1:
            if fx is not None:
                fx.append(Stalemate(1, (0,) * 5))
            need = 1 if any(self.unseen) else 0
        else:
            if fx is not None:
                fx.append(Stalemate(2, tuple(self.display)))
            for k in range(5):
                self.discard[k] += self.display[k]
            self.display = [0] * 5
            self.stalemates = 0  # a fresh display starts the count again
            need = min(DISPLAY_SIZE, sum(self.unseen))
        if self._round_over():
            self._end_round(fx, extra=need)
        else:
            self.turn += 1
            self._expect(need, fx)

    def _end_turn(self, fx: Fx) -> None:
        """G10: refill after a turn in which cards were taken; G9 round end."""
        if self.spent[0] == ALL_SPENT:  # _round_over(), inlined: the hot path of simulations
            self._end_round(fx)
            return
        self.turn += 1
        self._refill(fx)

    def _round_over(self) -> bool:
        # Every bid spends one card of every seat, so the seats run out together (G9).
        return self.spent[0] == ALL_SPENT

    def _refill(self, fx: Fx, extra: int = 0) -> None:
        need = max(0, DISPLAY_SIZE - sum(self.display) - extra) + extra
        pile = sum(self.unseen)
        if self.options.end_on_empty_pile and need > extra and not pile:
            self._game_over(fx)  # G11 option: the refill finds the pile empty
            return
        n = self.to_reveal = need if need < pile else pile
        if n:
            self.phase = REVEAL
        else:
            self._after_reveals(fx)

    def _expect(self, n: int, fx: Fx) -> None:
        self.to_reveal = n
        if n:
            self.phase = REVEAL
        else:
            self._after_reveals(fx)

    def _end_round(self, fx: Fx, extra: int = 0) -> None:
        """G9: the majority chip, cards back to hand, refill to 3."""
        majority = self._majority_chip()
        if fx is not None:
            fx.append(RoundEnded(self.round, majority, False))
        self.round += 1
        self.turn = 1
        self.spent = [0] * self.players
        self.stalemates = 0
        # A stalemate on the round's last bid still adds (or renews) its cards (extra),
        # then the display is made up to 3.
        self._refill(fx, extra)

    def _majority_chip(self) -> tuple[int, ...]:
        plants = [sum(g) - g[GRASSHOPPER] for g in self.gardens]
        best = max(plants)
        if best == 0:
            return ()
        seats = tuple(s for s, p in enumerate(plants) if p == best)
        for s in seats:
            self.chips[s] += 1
        return seats

    def _game_over(self, fx: Fx) -> None:
        """G11: the final intermediate score, then G12's winners."""
        if any(self.spent):
            majority = self._majority_chip()  # mid-round
            if fx is not None:
                fx.append(RoundEnded(self.round, majority, True))
        else:
            # The round that just ended gave its chip; that was the final score.
            self.round -= 1
            if fx and isinstance(fx[-1], RoundEnded):
                fx[-1] = fx[-1]._replace(final=True)
        hoppers = tuple(g[GRASSHOPPER] for g in self.gardens)
        best = max((c, -h) for c, h in zip(self.chips, hoppers))
        winners = tuple(s for s in range(self.players) if (self.chips[s], -hoppers[s]) == best)
        self.outcome = Outcome(tuple(self.chips), hoppers, winners)
        self.phase = OVER
        self.to_reveal = 0
        self.choosers = []

    # -- snapshots ----------------------------------------------------------------------

    def _snapshot(self) -> tuple[Any, ...]:
        return (tuple(self.unseen), tuple(self.display), tuple(self.discard),
                tuple(tuple(g) for g in self.gardens), tuple(self.chips), tuple(self.spent),
                self.round, self.turn, self.stalemates, self.to_reveal, tuple(self.choosers),
                self.phase, self.outcome, self.last)

    def _restore(self, snap: tuple[Any, ...]) -> None:
        (unseen, display, discard, gardens, chips, spent, self.round, self.turn,
         self.stalemates, self.to_reveal, choosers, phase, self.outcome, self.last) = snap
        self.phase = phase  # a Phase member, also after a pickle
        self.unseen, self.display, self.discard = list(unseen), list(display), list(discard)
        self.gardens = [list(g) for g in gardens]
        self.chips, self.spent, self.choosers = list(chips), list(spent), list(choosers)
        if self.phase is CHOOSING:
            self._present = [k for k in _K5 if self.display[k]]

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled as its position only (a copy for the assistant's worker process): no undo
        # stack, no move list, no resolution memo: a few hundred bytes.
        return _from_position, (self.players, self.options, self._snapshot())


def _from_position(players: int, options: Options, snap: tuple[Any, ...]) -> State:
    state = State(players, options)
    state._restore(snap)
    return state


def new_game(players: int, options: Options | dict[str, Any] | None = None) -> State:
    if isinstance(options, dict) or options is None:
        options = Options.from_dict(options)
    return State(players, options)


def header(players: int, options: Options, **extra: Any) -> dict[str, Any]:
    """A log header for a new game (extra keys: deck, seed, started, ...)."""
    return {"game": GAME, "players": players, "options": options.to_dict(), **extra}


def state_from_header(head: dict[str, Any]) -> State:
    players = head.get("players")
    if isinstance(players, bool) or not isinstance(players, int):
        raise IllegalMove(f"header: players must be a whole number, not {players!r}")
    options = head.get("options", {})
    if not isinstance(options, dict):
        raise IllegalMove("header: options must be an object")
    return State(players, Options.from_dict(options))


_perms: list[tuple[int, ...]] = []


def hand_orders() -> list[tuple[int, ...]]:
    """All 40320 orders of a hand, built on first use (simulations only)."""
    if not _perms:
        from itertools import permutations

        _perms.extend(permutations(range(8)))
    return _perms


class VirtualDeck:
    """A seeded shuffle of the 66 garden cards, for playing without them.

    The next card is found from how many cards the state has seen, so undo and
    resume need nothing more than the seed.
    """

    def __init__(self, seed: int):
        import random  # local: the module stays import-light for the daemon's start-up

        self.seed = seed
        order = [k for k, n in enumerate(DECK) for _ in range(n)]
        random.Random(seed).shuffle(order)
        self.order = tuple(order)

    def next_reveal(self, state: State) -> Reveal:
        return Reveal(KINDS[self.order[DECK_SIZE - state.pile]])

    def matches(self, state: State) -> bool:
        """True when every card the state has seen came from this deck, in order."""
        seen = [0] * 5
        for k in self.order[:DECK_SIZE - state.pile]:
            seen[k] += 1
        return all(seen[k] == DECK[k] - state.unseen[k] for k in range(5))
