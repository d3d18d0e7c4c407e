"""The loop's side of the web: after each step, one immutable ``Snapshot`` for the web thread.

Runs on the loop's thread and only copies values (the public state as JSON values,
the frame's bytes, the moves so far, the phone seats' own pending bids). It never
hands the web thread a live object of the game. A snapshot is made only when
something a page shows could have changed; the web thread is woken with
``call_soon_threadsafe`` and takes the newest one.
"""

from __future__ import annotations

from typing import NamedTuple


class Snapshot(NamedTuple):
    language: str
    frame: bytes                 # the OLED frame shown now, 1 bit a pixel, rows of 16 bytes
    view: object                 # the table's view (values and Msgs: public, like the OLED)
    state: dict                  # GET /api/state: the rules' to_json() + locked + pads
    header: dict | None          # the game's header (to replay its history), None in setup
    moves: tuple                 # the game's moves so far (public: bids only once revealed)
    seats: tuple                 # pad numbers of the players in player order
    private: dict                # phone seat -> its own pending bid key (or None): only for that seat
    access: object               # access.Access: the codes valid now
    phones: tuple                # seat numbers that have a phone
    sitting: dict | None = None  # the evening's score (pitable.table.sitting.Sitting.public), as on the glass


def public_state(current, seats_in_setup: int) -> tuple:
    """(state JSON, header, moves, seats) of what is at the table now."""
    state = getattr(current, "state", None)
    if state is None:  # setup: no game yet
        view = current.view()
        return ({"phase": "setup", "game": current.game, "step": current.step,
                 "joined": list(current.joined), "locked": [], "pads": []},
                None, (), ())
    out = state.to_json()
    pending = getattr(current, "pending", None) or {}
    # who has locked in: players (1-based, as everywhere in this JSON), never what they bid
    out["locked"] = sorted(p + 1 for p in pending)
    out["pads"] = list(current.seats)
    return out, getattr(current, "header", None), tuple(state.moves), tuple(current.seats)


class Publisher:
    """Called by the loop after each step (loop thread). ``wake`` hands the snapshot
    to the web thread (``call_soon_threadsafe``); it must not block."""

    def __init__(self, table, phones, wake):
        self.table = table
        self.phones = phones
        self.wake = wake
        self._key = None
        self.latest: Snapshot | None = None

    def __call__(self, view, frame) -> None:
        table = self.table
        current = table.current
        state = getattr(current, "state", None)
        moves = getattr(state, "moves", ())
        pending = getattr(current, "pending", None) or {}
        seats = current.seats if state is not None else ()
        mine = {}
        for player, key in pending.items():
            pad = seats[player] if player < len(seats) else None
            if pad in self.phones.codes:
                mine[pad] = key
        sitting = getattr(table, "sitting", None)
        key = (view, id(frame), table.language, len(moves), moves[-1] if moves else None,
               self.phones.version, tuple(sorted(mine.items())), id(current),
               sitting.version if sitting is not None else 0)
        if key == self._key:
            return
        self._key = key
        st, header, moves_t, seats_t = public_state(current, table.seats)
        self.latest = Snapshot(table.language, frame.tobytes() if frame is not None else b"",
                               view, st, header, moves_t, seats_t, mine, self.phones.public(),
                               self.phones.seats(), sitting.public() if sitting is not None else None)
        try:
            self.wake(self.latest)
        except Exception:  # noqa: BLE001 - the web side stopped: the table goes on
            pass
