"""What the table says on screen about its game log: saving refused, a game not saved,
a damaged log resumed, a log that cannot be resumed.

All these words live here, in one place, to move into the language catalogs with the
rest of the on-screen text. The journal (the Python log) gets the details (file names,
line numbers, the error); the screen gets what the people at the table must know.
"""

from __future__ import annotations

from pitable.screens import views as v

MOVE_NOT_SAVED = "Cannot save! Move not taken"
UNDO_NOT_SAVED = "Cannot save! Not undone"
REVEAL_NOT_SAVED = "Cannot save! Any key: try again"
GAME_NOT_STARTED = "Cannot save! A again: play unsaved"


def not_saving(reason: str) -> v.Message:
    """A game that goes on without its log: people must know a power cut loses it."""
    return v.Message("NOT SAVED", (f"Game log: {reason}.", "This game is not saved."))


def log_repaired(line: int) -> v.Message:
    """The newest log had a bad line: the game goes on from the line before it."""
    return v.Message("Log damaged", (f"Resumed before line {line}.", "The rest is kept aside."))


def not_resumed(why: str) -> v.Message:
    """The newest log is of an unfinished game that cannot be resumed here."""
    return v.Message("Not resumed", (f"Last game: {why}.", "File kept. New game."))


def reason(error: OSError) -> str:
    """An OSError said briefly ("No space left on device")."""
    return error.strerror or str(error) or type(error).__name__
