"""What the table says on screen about its game log: saving refused, a game not saved,
a damaged log resumed, a log that cannot be resumed; and a key stuck on a pad.

Views carry messages (ids and values, ``pitable.i18n``); the words are in the catalogs.
The journal (the Python log) gets the details in English (file names, line numbers, the
error); the screen gets what the people at the table must know, and which key goes on.
"""

from __future__ import annotations

import errno

from pitable.i18n import Msg, msg
from pitable.screens import views as v

MOVE_NOT_SAVED = "toast.cannot_save"
UNDO_NOT_SAVED = "toast.cannot_save_undo"
REVEAL_NOT_SAVED = "toast.cannot_save_retry"
GAME_NOT_STARTED = "toast.cannot_save_game"

_REASONS = {errno.ENOSPC: "full", errno.EDQUOT: "full", errno.EROFS: "read_only", errno.ENOTDIR: "not_dir",
            errno.EEXIST: "not_dir", errno.EISDIR: "not_dir", errno.EACCES: "denied", errno.EPERM: "denied"}


def reason(code: int | None) -> Msg:
    """Why the log cannot be written, said briefly (by the errno of the OSError)."""
    why = _REASONS.get(code, "") if code is not None else ""
    return {
        "full": msg("log.reason.full"), "read_only": msg("log.reason.read_only"),
        "not_dir": msg("log.reason.not_dir"), "denied": msg("log.reason.denied"),
    }.get(why, msg("log.reason.failed"))


def not_saving(code: int | None) -> v.Message:
    """A game that goes on without its log: people must know a power cut loses it."""
    return v.Message(msg("log.not_saved.title"), (msg("log.not_saved.why", reason=reason(code)),
                                                  msg("log.not_saved.line"), msg("foot.next")))


def log_repaired(line: int) -> v.Message:
    """The newest log had a bad line: the game goes on from the line before it."""
    return v.Message(msg("log.damaged.title"), (msg("log.damaged.line", line=line),
                                                msg("log.damaged.kept"), msg("foot.next")))


def not_resumed(pads: int | None = None) -> v.Message:
    """The newest log is of an unfinished game that cannot be resumed here: unreadable,
    or it needs ``pads`` pads and this table has fewer."""
    why = msg("log.not_resumed.unreadable") if pads is None else msg("log.not_resumed.pads", pads=pads)
    return v.Message(msg("log.not_resumed.title"), (why, msg("log.not_resumed.kept"), msg("foot.next")))


KEY_NAMES = ("1", "2", "3", "4", "5", "6", "A", "X")


def key_stuck(seat: int, key: int, seconds: float) -> v.Message:
    """A key held far longer than a player holds one (0-based seat and key): the pads
    noticed it; the table is told which, and what to look for."""
    return v.Message(msg("pads.stuck.title"),
                     (msg("pads.stuck.which", seat=seat + 1, key=KEY_NAMES[key], seconds=int(seconds)),
                      msg("pads.stuck.what"), msg("foot.next")))
