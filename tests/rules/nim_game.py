"""A third game for the tests only, in the shape of a rules module: a pile of stones, each
player in turn takes one or two, who takes the last loses. Registered by a test, it shows
that the registry is what the generic checks (and the log) read."""

from __future__ import annotations

from typing import Any, NamedTuple

from pitable.errors import IllegalMove

GAME = "nim"
MIN_PLAYERS, MAX_PLAYERS = 2, 3


class Take(NamedTuple):
    stones: int

    def to_json(self) -> dict[str, Any]:
        return {"take": self.stones}


def move_from_json(obj: dict[str, Any]) -> Take:
    if set(obj) != {"take"}:
        raise IllegalMove(f"not a nim input: {obj!r}")
    return Take(obj["take"])


class Outcome(NamedTuple):
    losers: tuple[int, ...]


class State:
    def __init__(self, players: int, pile: int = 7):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalMove(f"nim is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}")
        self.players, self.pile, self.turn = players, pile, 0
        self.outcome: Outcome | None = None
        self.moves: list[Take] = []
        self.history: list[tuple[int, int, Outcome | None]] = []

    def is_over(self) -> bool:
        return self.outcome is not None

    def waiting_for(self) -> str:
        return "nothing" if self.is_over() else f"seat {self.turn + 1} to take"

    def legal_moves(self) -> list[Take]:
        return [] if self.is_over() else [Take(n) for n in (1, 2) if n <= self.pile]

    def push(self, move: Take) -> tuple[Any, ...]:
        if move not in self.legal_moves():
            raise IllegalMove(f"cannot take {move} now")
        self.history.append((self.pile, self.turn, self.outcome))
        self.moves.append(move)
        self.pile -= move.stones
        if self.pile == 0:
            self.outcome = Outcome((self.turn,))
        else:
            self.turn = (self.turn + 1) % self.players
        return ()

    def pop(self) -> Take:
        if not self.history:
            raise IllegalMove("nothing to undo")
        self.pile, self.turn, self.outcome = self.history.pop()
        return self.moves.pop()

    def copy(self) -> State:
        other = State(self.players, self.pile)
        other.turn, other.outcome = self.turn, self.outcome
        return other

    def to_json(self) -> dict[str, Any]:
        return {"game": GAME, "players": self.players, "pile": self.pile, "turn": self.turn + 1}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, State) and (self.players, self.pile, self.turn, self.outcome) == \
            (other.players, other.pile, other.turn, other.outcome)

    __hash__ = None  # type: ignore[assignment]


def header(players: int, options: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"game": GAME, "players": players, "options": dict(options), **extra}


def state_from_header(head: dict[str, Any]) -> State:
    return State(head["players"], head.get("options", {}).get("pile", 7))
