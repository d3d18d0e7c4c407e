"""The eight keys of a seat's pad, named and numbered in one place: the pads, the wiring,
the controllers, the screens and the phone's buttons all say them from here.

A key is an index 0..7; its name is what its cap says. The names are the Grasshopper Poker
cards (G1), each pressed with its own key."""

from __future__ import annotations

NAMES = ("1", "2", "3", "4", "5", "6", "A", "X")
COUNT = len(NAMES)

# What the keys do wherever their meaning is the same on every screen.
KEY_SAME = 0    # "1" on a game's result: the next game with the same players
KEY_PHONE = 4   # "5": a phone joins (set-up) or, held, the QR for a seat without a phone
KEY_PI = 5      # "6" of a joined pad in set-up: the assistant takes a seat (Grasshopper Poker only)
KEY_BIDS = 0    # "1" held in a game: the last bids again (Grasshopper Poker)
KEY_DROP = 5    # "6" held in a game: drop this unfinished game (confirmed with A)
KEY_A = 6       # "A": go on, confirm
KEY_X = 7       # "X": back, undo, leave


def name(key: int) -> str:
    return NAMES[key]
