"""Starting a game with the pads: which game, who plays, which options."""

from __future__ import annotations

from pitable.screens import views as v
from pitable.table.base import KEY_A, KEY_X, Toasts

GAMES = ("grasshopper", "cockroach")
LIMITS = {"grasshopper": (2, 4), "cockroach": (2, 6)}
GH_OPTIONS = (("beginner", "Beginner X"), ("x_takes_cancelled_ace", "X beats cancelled A"),
              ("end_on_empty_pile", "End on empty pile"))


class Setup(Toasts):
    """Keys in, a ``Setup`` view out; ``choice`` is set when the table starts the game.

    Steps: game (1 Grasshopper, 2 Cockroach) -> join (any key joins that seat; A goes
    on, X leaves) -> options (number keys toggle, A starts, X goes back).
    """

    def __init__(self, seats: int, game: str = "grasshopper", deck: str = "physical", clock=None):
        self.seats = seats
        self.game = game
        self.deck = deck
        self.step = "game"
        self.joined: list = []
        self.options = {name: False for name, _ in GH_OPTIONS}
        self.first = None           # Cockroach Poker: the first player's pad number
        self.choice = None          # set when the game starts: dict(game, seats, options, deck, first)
        if clock is not None:
            self.clock = clock

    def on_key(self, event) -> None:
        pad, key = event.seat + 1, event.key
        if not 1 <= pad <= self.seats:
            # e.g. a keyboard row beyond the configured seats: it may not join (a game
            # with that seat could never resume) nor choose for the table
            self._say(f"Seat {pad} is not in use")
            return
        if self.step == "game":
            if key < len(GAMES):
                self.game = GAMES[key]
                self.step = "join"
            else:
                self._say("1: Grasshopper  2: Cockroach")
        elif self.step == "join":
            self._join_key(pad, key)
        else:
            self._options_key(pad, key)

    def _join_key(self, pad: int, key: int) -> None:
        low, high = LIMITS[self.game]
        if pad not in self.joined:
            if len(self.joined) >= high:
                self._say(f"At most {high} players")
                return
            self.joined.append(pad)
            self.joined.sort()
        elif key == KEY_X:
            self.joined.remove(pad)
            if self.first == pad:
                self.first = None  # a seat that left is nobody's choice any more
        elif key == KEY_A:
            if len(self.joined) < low:
                self._say(f"Need {low} players")
            else:
                self.step = "options"
        else:
            self._say("A: go on  X: leave")

    def _options_key(self, pad: int, key: int) -> None:
        if pad not in self.joined:
            self._say(f"Seat {pad} has not joined")
            return
        if key == KEY_X:
            self.step = "join"
            return
        if key == KEY_A:
            self.choice = {"game": self.game, "seats": tuple(self.joined),
                           "deck": self.deck if self.game == "grasshopper" else "physical",
                           "options": dict(self.options) if self.game == "grasshopper" else {},
                           "first": self.first_pad()}
            return
        names = self._option_names()
        if key >= len(names):
            self._say(f"Keys 1-{len(names)} change, A starts")
            return
        name = names[key]
        if name == "deck":
            self.deck = "virtual" if self.deck == "physical" else "physical"
        elif name == "first":
            i = self.joined.index(self.first_pad())
            self.first = self.joined[(i + 1) % len(self.joined)]
        else:
            self.options[name] = not self.options[name]

    def first_pad(self):
        """Cockroach Poker's first player: the one chosen if still joined, else the
        lowest joined seat. The one answer for the view and for the start."""
        if self.first in self.joined:
            return self.first
        return self.joined[0] if self.joined else None

    def _option_names(self) -> list:
        if self.game == "grasshopper":
            return [name for name, _ in GH_OPTIONS] + ["deck"]
        return ["first"]  # Cockroach Poker is always played with the real cards in hand

    def view(self) -> v.Setup:
        lines = []
        if self.game == "grasshopper":
            for name, label in GH_OPTIONS:
                lines.append((label, "on" if self.options[name] else "off"))
        else:
            first = self.first_pad()
            lines.append(("First player", f"S{first}" if first else "-"))
        if self.game == "grasshopper":
            lines.append(("Cards", "real" if self.deck == "physical" else "virtual"))
        low, _ = LIMITS[self.game]
        toast = self._toast_text()
        return v.Setup(self.step, self.game, tuple(self.joined), self.seats, tuple(lines),
                       len(self.joined) >= low, toast)
