"""The evening's score: who won Grasshopper Poker and who lost Cockroach Poker, game after
game, across restarts.

Kept in ``sitting.json`` in the log directory, written like ``table.json`` (a temporary
file, then ``os.replace``: a power cut leaves the old score or the new one, never half).
A game is counted once, by its id (its start time and log name), so a resumed game that
ends is not counted twice. The sitting starts afresh when asked (hold X on its screen)
or when the last counted game ended more than ``FRESH_AFTER`` ago: the next evening,
while a party going past midnight stays one evening.

Seats are pad numbers (the assistant's: above ``ASSISTANT_SEAT``): the people at the
table are the pads they sit at, game after game.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from pitable.rules.games import GAMES

log = logging.getLogger(__name__)

FILE = "sitting.json"
FRESH_AFTER = 10 * 3600    # seconds since the last counted game: a new evening
MAX_GAMES = 500            # an evening of games, with room; the oldest go first


class Sitting:
    """The games counted this evening: [{"id", "game", "seats", "winners", "losers", "at"}]."""

    def __init__(self, log_dir: str | os.PathLike[str], now: Callable[[], float] = time.time) -> None:
        self.path = Path(log_dir) / FILE
        self.now = now
        self.games: list[dict[str, Any]] = self._load()
        self.version = 0           # bumped by every change (the web pages follow it)

    # -- reading --------------------------------------------------------------------------

    def _load(self) -> list[dict[str, Any]]:
        try:
            if not self.path.is_file():
                return []
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError) as e:  # no file in the log directory stops the table
            log.warning("cannot read the evening's score %s: %s; starting afresh", self.path, e)
            return []
        games = data.get("games") if isinstance(data, dict) else None
        if not isinstance(games, list):
            return []
        good = [g for g in games if _valid(g)]
        if good and self.now() - max(g["at"] for g in good) > FRESH_AFTER:
            return []  # the last game was another evening
        return good[-MAX_GAMES:]

    def totals(self) -> dict[int, tuple[int, ...]]:
        """{seat: (Grasshopper Poker wins, Cockroach Poker losses)} of the seats that played."""
        out: dict[int, list[int]] = {}
        for g in self._current():
            for s in g["seats"]:
                out.setdefault(s, [0, 0])
            if GAMES[g["game"]].losers:  # Cockroach Poker: its losers (C6)
                for s in g["losers"]:
                    out[s][1] += 1
            else:
                for s in g["winners"]:
                    out[s][0] += 1
        return {s: tuple(n) for s, n in sorted(out.items())}

    def _current(self) -> list[dict[str, Any]]:
        if self.games and self.now() - self.games[-1]["at"] > FRESH_AFTER:
            self.games = []  # the table stayed on overnight
        return self.games

    def count(self) -> int:
        return len(self._current())

    def public(self) -> dict[str, Any]:
        """What the TV shows (nothing that was not on the glass): games and per seat totals."""
        return {"games": self.count(), "seats": [[s, w, lo] for s, (w, lo) in self.totals().items()]}

    # -- changing ---------------------------------------------------------------------------

    def record(self, game_id: str, game: str, seats: Iterable[int], winners: Iterable[int],
               losers: Iterable[int]) -> bool:
        """Count a game that ended (once: by its id). True if it was new."""
        if any(g["id"] == game_id for g in self._current()):
            return False
        self.games.append({"id": game_id, "game": game, "seats": list(seats), "winners": list(winners),
                           "losers": list(losers), "at": self.now()})
        del self.games[:-MAX_GAMES]
        self._save()
        return True

    def forget(self, game_id: str) -> None:
        """A counted game's end was undone: it counts again when it ends."""
        kept = [g for g in self.games if g["id"] != game_id]
        if len(kept) != len(self.games):
            self.games = kept
            self._save()

    def clear(self) -> None:
        self.games = []
        self._save()

    def _save(self) -> None:
        self.version += 1
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"games": self.games}), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as e:  # the score still holds until the Pi restarts
            log.warning("cannot keep the evening's score in %s: %s", self.path, e)


def _valid(g: object) -> bool:
    def seats(x: object) -> bool:
        return isinstance(x, list) and all(type(s) is int and s > 0 for s in x)

    return (isinstance(g, dict) and isinstance(g.get("id"), str) and g.get("game") in GAMES
            and seats(g.get("seats")) and seats(g.get("winners")) and seats(g.get("losers"))
            and type(g.get("at")) in (int, float))
