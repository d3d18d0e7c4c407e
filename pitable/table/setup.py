"""Starting a game with the pads: which game, who plays, which options."""

from __future__ import annotations

from pitable.i18n import LANGUAGES, msg
from pitable.screens import views as v
from pitable.table.base import KEY_A, KEY_X, Toasts

GAMES = ("grasshopper", "cockroach")
LIMITS = {"grasshopper": (2, 4), "cockroach": (2, 6)}
GH_OPTIONS = ("beginner", "x_takes_cancelled_ace", "end_on_empty_pile")  # labels: msg "opt.<name>"


class Setup(Toasts):
    """Keys in, a ``Setup`` view out; ``choice`` is set when the table starts the game.

    Steps: game (1 Grasshopper, 2 Cockroach, X the table's language) -> join (any key
    joins that seat; A goes on, X leaves) -> options (number keys toggle, A starts, X
    goes back). ``language`` is the table's language; the table remembers a change.
    """

    def __init__(self, seats: int, game: str = "grasshopper", deck: str = "physical", clock=None,
                 language: str = "en"):
        self.seats = seats
        self.game = game
        self.deck = deck
        self.language = language
        self.step = "game"
        self.joined: list = []
        self.options = {name: False for name in GH_OPTIONS}
        self.first = None           # Cockroach Poker: the first player's pad number
        self.choice = None          # set when the game starts: dict(game, seats, options, deck, first)
        if clock is not None:
            self.clock = clock

    def on_key(self, event) -> None:
        pad, key = event.seat + 1, event.key
        if self.step == "game":
            if key < len(GAMES):
                self.game = GAMES[key]
                self.step = "join"
            elif key == KEY_X:
                self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
            else:
                self._say("toast.which_game")
        elif self.step == "join":
            self._join_key(pad, key)
        else:
            self._options_key(pad, key)

    def _join_key(self, pad: int, key: int) -> None:
        low, high = LIMITS[self.game]
        if pad not in self.joined:
            if len(self.joined) >= high:
                self._say("toast.at_most", n=high)
                return
            self.joined.append(pad)
            self.joined.sort()
        elif key == KEY_X:
            self.joined.remove(pad)
        elif key == KEY_A:
            if len(self.joined) < low:
                self._say("toast.need", n=low)
            else:
                self.step = "options"
        else:
            self._say("toast.join_keys")

    def _options_key(self, pad: int, key: int) -> None:
        if pad not in self.joined:
            self._say("toast.not_joined", seat=pad)
            return
        if key == KEY_X:
            self.step = "join"
            return
        if key == KEY_A:
            self.choice = {"game": self.game, "seats": tuple(self.joined),
                           "deck": self.deck if self.game == "grasshopper" else "physical",
                           "options": dict(self.options) if self.game == "grasshopper" else {},
                           "first": self.first or self.joined[0]}
            return
        names = self._option_names()
        if key >= len(names):
            self._say("toast.option_keys", last=len(names))
            return
        name = names[key]
        if name == "deck":
            self.deck = "virtual" if self.deck == "physical" else "physical"
        elif name == "first":
            i = self.joined.index(self.first) if self.first in self.joined else 0
            self.first = self.joined[(i + 1) % len(self.joined)]
        else:
            self.options[name] = not self.options[name]

    def _option_names(self) -> list:
        if self.game == "grasshopper":
            return list(GH_OPTIONS) + ["deck"]
        return ["first"]  # Cockroach Poker is always played with the real cards in hand

    def view(self) -> v.Setup:
        lines = []
        if self.game == "grasshopper":
            for name in GH_OPTIONS:
                on = self.options[name]
                if name == "x_takes_cancelled_ace" and on and self.options["beginner"]:
                    value = msg("value.beginner_rules")  # G13: the beginners' X never takes the Ace
                else:
                    value = msg("value.on" if on else "value.off")
                lines.append((msg(f"opt.{name}"), value))
            # one vocabulary with the config's deck: physical|virtual
            lines.append((msg("opt.deck"), msg(f"value.{self.deck}")))
        else:
            lines.append((msg("opt.first"), msg("seat", seat=self.first or (self.joined[0] if self.joined else 1))))
        low, _ = LIMITS[self.game]
        toast = self._toast_text()
        return v.Setup(self.step, self.game, tuple(self.joined), self.seats, tuple(lines),
                       len(self.joined) >= low, toast, self.language)
