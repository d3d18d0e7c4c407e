"""The loop's side of the web: after each step, one immutable ``Snapshot`` for the web thread.

Runs on the loop's thread and only copies values (the public state as JSON values,
the frame's bytes, the moves so far, the phone seats' own pending bids). It never
hands the web thread a live object of the game. A snapshot is made only when
something a page shows could have changed; the web thread is woken with
``call_soon_threadsafe`` and takes the newest one.
"""

from __future__ import annotations

import logging
from typing import NamedTuple

log = logging.getLogger(__name__)


class Snapshot(NamedTuple):
    """Values only, made on the loop thread: the web thread makes words and bytes of them
    and works out nothing (no rules, no view of its own)."""

    language: str
    frame: bytes                 # the OLED frame shown now, 1 bit a pixel, rows of 16 bytes
    state: dict                  # GET /api/state: the rules' to_json() by seat number + locked + pads
    keys: tuple                  # the key table of the screen shown now (screens.views.Key): each seat's buttons
    story: tuple                 # the game's story (table.public.StoryItem), oldest first
    set_up: object               # how the real cards are set up (table.public.SetUp), or None
    one_short: tuple             # seat numbers with a row one short of losing (C6)
    private: dict                # phone seat -> its own pending bid key (or None): only for that seat
    access: object               # access.Access: the codes valid now
    phones: tuple                # seat numbers that have a phone
    sitting: dict | None = None  # the evening's score (pitable.table.sitting.Sitting.public), as on the glass
    screen: int = 0              # the loop's screen version (a phone's key names the one it showed)
    reaction: float = 0.0        # the loop's reaction time: a phone's page judges its taps by it
    where: tuple | None = None   # (round, turn) the glass shows (table.public.where), None in setup


def public_state(current) -> dict:
    """The state JSON of what is at the table now (GET /api/state)."""
    state = current.state
    if state is None:  # setup: no game yet
        return {"phase": "setup", "game": current.game, "step": current.step,
                "joined": list(current.joined), "locked": [], "pads": []}
    from pitable.rules.log import by_seat

    pending = current.pending
    out = state.to_json()
    # who has locked in, never what they bid; then every player number as its seat
    # number, as on the screens and in `pitable replay --json` (a phone at 5 is 5)
    out["locked"] = sorted(p + 1 for p in pending)
    out = by_seat(out, current.seats)
    out["locked"] = sorted(out["locked"])
    out["pads"] = list(current.seats)
    return out


def code_on_screen(view):
    """The seat whose join code (QR and typed address) the glass shows now, or None."""
    phone = getattr(view, "phone", None)
    return phone[0] if phone else None


def own_bids(current, phones) -> dict:
    """What a phone's stream may show of the pending bids: the one place that decides it.

    Phone seat -> its pending bid's key, only where that bid was made by the session
    holding the seat now (the bid carries its maker: ``made_by``, from KeyEvent.by).
    A bid a pad made, the assistant's, one made by an earlier phone at the seat (taken
    back, joined again by another device) is nobody's phone's to see."""
    pending, made_by = current.pending, current.made_by
    seats = current.seats if current.state is not None else ()
    out = {}
    for player, key in pending.items():
        seat = seats[player] if player < len(seats) else None
        by = phones.by(seat) if seat is not None else None
        if by is not None and made_by.get(player) == by:
            out[seat] = key
    return out


class Publisher:
    """Called by the loop after each step (loop thread). ``wake`` hands the snapshot
    to the web thread (``call_soon_threadsafe``); it must not block.

    Two things are decided here, at the edge where the table's values become public:
    - the frame that goes out is the glass's frame, except while a join code is up:
      then a plain screen saying which seat a phone joins and that its code is on the
      Pi's own screen (a ticket never reaches any client but the glass);
    - a phone seat sees a pending bid only if that phone made it (``own_bids``)."""

    def __init__(self, table, phones, wake, loop=None):
        self.table = table
        self.phones = phones
        self.wake = wake
        self.loop = loop                # the loop, for its screen version and reaction time
        self._key = None
        self._public = {}               # (seat, language) -> the public frame's bytes
        self.latest: Snapshot | None = None
        self._wake_failing = False      # the last wake raised: logged once, not again each step

    def _frame(self, view, frame) -> bytes:
        seat = code_on_screen(view)
        if seat is None:
            return frame.tobytes() if frame is not None else b""
        lang = self.table.language
        out = self._public.get((seat, lang))
        if out is None:
            from pitable.screens.render import render
            from pitable.table.public import code_elsewhere

            out = render(code_elsewhere(seat), lang).tobytes()
            self._public = {(seat, lang): out}
        return out

    def __call__(self, view, frame) -> None:
        table = self.table
        current = table.current
        state = current.state
        moves = state.moves if state is not None else ()
        mine = own_bids(current, self.phones)
        sitting = table.sitting
        version = self.loop.version if self.loop is not None else 0
        reaction = self.loop.reaction if self.loop is not None else 0.0
        key = (version, view, id(frame), table.language, len(moves), moves[-1] if moves else None,
               self.phones.version, tuple(sorted(mine.items())), id(current),
               sitting.version if sitting is not None else 0)
        if key == self._key:
            return
        self._key = key
        from pitable.table import public

        st = public_state(current)
        phones = self.phones.seats()
        story = public.story(current)
        self.latest = Snapshot(table.language, self._frame(view, frame), st,
                               view.keys if view is not None else (),
                               story, public.set_up(current), public.one_short(current),
                               mine, self.phones.public(), phones,
                               sitting.public() if sitting is not None else None, version, reaction,
                               public.where(current))
        try:
            self.wake(self.latest)
        except Exception:  # noqa: BLE001 - a web fault never stops the table
            if not self._wake_failing:  # once an outage: it would repeat every step
                log.exception("cannot hand the pages their update; the table goes on")
            self._wake_failing = True
        else:
            self._wake_failing = False
