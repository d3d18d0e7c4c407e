#!/usr/bin/env python3
"""Render every screen in several realistic states to docs/screens/*.png, for people.

Each frame is scaled up 4x (nearest neighbour) and tinted like an OLED (white, or
blue with ``--blue``) on black, with a thin border; ``all.png`` is a contact sheet.

    PYTHONPATH=. python scripts/render_screens.py [--out docs/screens] [--blue]
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import time

from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pitable.screens import views as v  # noqa: E402
from pitable.screens.font import text_image  # noqa: E402
from pitable.screens.render import render  # noqa: E402

GH_OPTIONS = (("Beginner X", "off"), ("X beats cancelled A", "on"), ("End on empty pile", "off"),
              ("Cards", "real"))

STATES = {
    "setup_game": v.Setup("game", "grasshopper", (), 4, (), False),
    "setup_join_empty": v.Setup("join", "grasshopper", (), 4, (), False),
    "setup_join": v.Setup("join", "grasshopper", (1, 3), 4, (), True),
    "setup_join_6": v.Setup("join", "cockroach", (1, 2, 4, 5, 6), 6, (), True),
    "setup_options": v.Setup("options", "grasshopper", (1, 2, 3), 4, GH_OPTIONS, True),
    "setup_options_cockroach": v.Setup("options", "cockroach", (1, 2, 3), 6,
                                       (("First player", "S2"), ("Cards", "virtual")), True),
    "resumed": v.Resumed("grasshopper", 2, 5, False),
    "resumed_rebid": v.Resumed("grasshopper", 3, 7, True),
    "reveal_start": v.RevealPrompt(3, "start", {}, 66),
    "reveal_refill": v.RevealPrompt(2, "refill", {"corn": 1}, 40),
    "reveal_stalemate": v.RevealPrompt(1, "stalemate", {"grasshopper": 1, "corn": 1, "broccoli": 1}, 31),
    "bidding_none": v.Bidding(1, 1, {"grasshopper": 1, "corn": 1, "strawberry": 1}, (1, 2, 3, 4), (), 63),
    "bidding_some": v.Bidding(2, 5, {"corn": 2, "blackberry": 1}, (1, 2, 3, 4), (2, 4), 35),
    "bidding_2p": v.Bidding(1, 3, {"broccoli": 3}, (1, 3), (3,), 57),
    "bidding_stalemate4": v.Bidding(1, 4, {"grasshopper": 1, "corn": 1, "strawberry": 1, "broccoli": 1},
                                    (1, 2, 3, 4), (1, 2, 3), 50),
    "bidding_6seats": v.Bidding(1, 1, {"corn": 1, "strawberry": 1, "blackberry": 1}, (1, 2, 3, 4, 5, 6),
                                (2, 5), 60),
    "bids_order": v.BidsRevealed((1, 2, 3, 4), ("5", "2", "5", "6"), (1, 3), None, None, (4, 2), False),
    "bids_ace": v.BidsRevealed((1, 2, 3, 4), ("3", "A", "6", "1"), (), 2, "ace", (), False),
    "bids_x": v.BidsRevealed((1, 2, 3), ("X", "A", "4"), (), 1, "x", (), False),
    "bids_order3": v.BidsRevealed((1, 2, 3, 4), ("6", "X", "3", "4"), (), None, None, (1, 4, 3), False),
    "bids_order4": v.BidsRevealed((1, 2, 3, 4), ("1", "4", "3", "2"), (), None, None, (2, 3, 4, 1), False),
    "bids_stalemate": v.BidsRevealed((1, 2, 3, 4), ("4", "X", "4", "X"), (1, 3, 2, 4), None, None, (), True),
    "bids_2p_alone": v.BidsRevealed((1, 2), ("X", "3"), (), 2, "alone", (), False),
    "bids_6seats": v.BidsRevealed((1, 2, 3, 4, 5, 6), ("1", "2", "3", "3", "6", "A"), (3, 4), 6, "ace", (), False),
    "choosing": v.Choosing(3, (("grasshopper", 1), ("corn", 2)), (1,)),
    "choosing_3": v.Choosing(2, (("corn", 1), ("strawberry", 1), ("blackberry", 1)), (4, 1)),
    "choosing_4": v.Choosing(1, (("grasshopper", 1), ("corn", 1), ("strawberry", 1), ("broccoli", 1)), (3, 4, 2)),
    "instructions": v.Instructions("Turn 3", ("S2 takes 2 corn", "S2 harvests 3 corn: +1 chip")),
    "instructions_pages": v.Instructions("Turn 6", ("S1 takes all: 1 grasshopper, 2 corn, 1 strawberry",
                                                    "S1 harvests 3 corn: +1 chip", "S3 PLAGUE! Garden to discard"),
                                         1, 2),
    "instructions_stalemate": v.Instructions("Stalemate", ("Bid again, 1 card added", "Turn up 1 card")),
    "instructions_round": v.Instructions("Round 2 over", ("Most plants +1 chip: S1, S3", "Take your 8 cards back",
                                                          "Turn up 3 cards"), 2, 2),
    "scores": v.Scores(2, (1, 2, 3, 4), (3, 5, 0, 12),
                       ({"corn": 2, "grasshopper": 1}, {}, {"strawberry": 1, "broccoli": 2, "blackberry": 1,
                                                          "grasshopper": 2, "corn": 1}, {"blackberry": 2}), 28),
    "scores_2p": v.Scores(1, (2, 4), (1, 0), ({"broccoli": 1}, {"grasshopper": 2, "corn": 1}), 55),
    "confirm_undo": v.ConfirmUndo(2, "S2 chose corn"),
    "confirm_undo_bids": v.ConfirmUndo(1, "the bids 5 2 5 6"),
    "game_over": v.GameOver((1, 2, 3, 4), (7, 9, 4, 9), (0, 1, 2, 0), (4,)),
    "game_over_tie": v.GameOver((1, 2, 3), (6, 6, 2), (1, 1, 0), (1, 2)),
    "cr_offer_target": v.CockroachOffer(2, "target", None, (1, 2, 3, 4, 5), (6, 5, 7, 6, 6)),
    "cr_offer_claim": v.CockroachOffer(2, "claim", 4, (1, 2, 3, 4, 5), (6, 5, 7, 6, 6)),
    "cr_answer": v.CockroachAnswer(4, 2, "scorpion", (2,), True, "decide", None),
    "cr_answer_seen": v.CockroachAnswer(3, 4, "cockroach", (2, 4), False, "decide", None),
    "cr_answer_pass": v.CockroachAnswer(4, 2, "rat", (2,), True, "claim", 5),
    "cr_flip": v.CockroachFlip(3, "bat", False),
    "cr_rows": v.CockroachRows((1, 2, 3, 4, 5, 6), (5, 4, 6, 3, 5, 5),
                               ({"rat": 1, "fly": 2}, {}, {"toad": 3, "bat": 1}, {"spider": 1, "stinkbug": 2,
                                                                               "scorpion": 1},
                                {"cockroach": 3}, {"rat": 2, "fly": 1, "toad": 1})),
    "cr_over": v.CockroachOver((1, 2, 3, 4), (3,), "four_of_a_kind", "toad"),
    "cr_over_empty": v.CockroachOver((1, 2, 3), (2,), "empty_hand", None),
    "resumed_cockroach": v.Resumed("cockroach", 4, 0, False),
    "message": v.Message("Pads test", ("Seat 2 key A press", "Seat 1 key 3 hold", "Seat 4 key X press")),
    "message_error": v.Message("Cannot save the game log", ("Disk full? The last move was not taken. "
                                                            "Free space, then press any key.",)),
    "toast_bidding": v.Bidding(2, 5, {"corn": 2, "blackberry": 1}, (1, 2, 3, 4), (2, 4), 35,
                               toast="Seat 3: card spent, bid again"),
    "toast_choosing": v.Choosing(3, (("grasshopper", 1), ("corn", 2)), (1,), toast="Keys 1-2 choose"),
    "toast_setup": v.Setup("join", "grasshopper", (1,), 4, (), False, toast="Need 2 players"),
}

INK = {"white": (235, 240, 255), "blue": (90, 170, 255)}


def oled(frame: Image.Image, scale: int = 4, ink: str = "white") -> Image.Image:
    """The frame as a person would see it: big, lit pixels on black, a bezel around."""
    big = frame.resize((frame.width * scale, frame.height * scale), Image.NEAREST)
    out = Image.new("RGB", (big.width + 16, big.height + 16), (24, 24, 28))
    panel = Image.new("RGB", big.size, (0, 0, 0))
    panel.paste(INK[ink], (0, 0), big)
    out.paste(panel, (8, 8))
    return out


def contact_sheet(named: list, cols: int = 4, ink: str = "white") -> Image.Image:
    tiles = [(name, oled(frame, 2, ink)) for name, frame in named]
    tw, th = tiles[0][1].size
    label_h = 14
    rows = (len(tiles) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (tw + 8) + 8, rows * (th + label_h + 8) + 8), (48, 48, 56))
    for i, (name, tile) in enumerate(tiles):
        x = 8 + (i % cols) * (tw + 8)
        y = 8 + (i // cols) * (th + label_h + 8)
        sheet.paste(tile, (x, y + label_h))
        sheet.paste((220, 220, 220), (x, y + 2), text_image(name))
    return sheet


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parents[1] / "docs" / "screens"))
    ap.add_argument("--blue", action="store_true", help="blue OLED look instead of white")
    args = ap.parse_args(argv)
    ink = "blue" if args.blue else "white"
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    named = []
    t0 = time.perf_counter()
    for name, view in STATES.items():
        frame = render(view)
        named.append((name, frame))
        oled(frame, 4, ink).save(out / f"{name}.png")
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    for _ in range(10):
        for _, view in STATES.items():
            render(view)
    warm = (time.perf_counter() - t0) / (10 * len(STATES))
    contact_sheet(named, ink=ink).save(out / "all.png")
    print(f"{len(named)} screens in {out} (first pass {cold * 1000:.0f} ms, then {warm * 1000:.2f} ms a frame)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
