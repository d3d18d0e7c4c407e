"""Cockroach Poker screens: one function per view type, each drawing on a ``Canvas``.

Keys (see ``pitable.table.cockroach``): where a seat is asked for, keys 1-6 are seats;
where a critter is asked for, the 8 keys 1 2 3 4 5 6 A X are the 8 critters in
order, so every critter is drawn under the label of its key.
"""

from __future__ import annotations

from pitable.screens import font, icons
from pitable.screens.widgets import (H, W, Canvas, clip, columns, fit_scale, hints, key, key_width,
                                     seat_boxes)

ARROW = font.ARROW
KEY_LABELS = ("1", "2", "3", "4", "5", "6", "A", "X")
PLURALS = {"fly": "flies", "cockroach": "cockroaches"}
REASONS = {"four_of_a_kind": "4 of a kind", "five_of_a_kind": "5 of a kind", "empty_hand": "Empty hand"}


def plural(kind: str) -> str:
    return PLURALS.get(kind, kind + "s")


def critter_keys(c: Canvas, y: int) -> int:
    """The eight critters across the frame, each under the key that names it."""
    for label, kind, (a, b) in zip(KEY_LABELS, icons.CRITTERS, columns(8, gap=1)):
        mid = (a + b + 1) // 2
        kw = key_width(label)
        key(c, mid - kw // 2, y, label)
        im = icons.icon(kind)
        c.paste(im, mid - im.width // 2, y + 11, what=f"icon {kind}")
    return 11 + 12


def claim_line(c: Canvas, y: int, kind: str, prefix: str = "") -> None:
    """``prefix`` small, then the critter's picture and name as big as fits."""
    x = 0
    if prefix:
        x = c.text(0, y + 7, prefix) + 3
    im = icons.icon(kind, 2)
    room = W - x - im.width - 3
    scale = fit_scale(kind, room, (2, 1)) or 1
    total = im.width + 3 + font.text_width(clip(kind, room, scale), scale)
    x += max(0, (W - x - total) // 2)
    c.paste(im, x, y, what=f"icon {kind}")
    c.text(x + im.width + 3, y + (24 - font.ASCENT * scale) // 2, clip(kind, room, scale), scale)


def draw_offer(c: Canvas, v) -> None:
    if v.step == "target":
        c.text_fit(0, 0, W, f"S{v.seat} offers", scales=(2, 1))
        c.text(W - 1, 0, "to?", align="right")
        seat_boxes(c, 18, 39, v.seats, ())
        _own_seat_dimmed(c, v.seats, v.seat, 18, 39)
        _hand_counts(c, 42, v.seats, v.hands)
        c.text(0, 55, f"Keys 1-{max(v.seats) if v.seats else 6}: the seat")
    else:
        c.text_fit(0, 0, W - 30, f"S{v.seat} {ARROW} S{v.target}", scales=(2, 1))
        c.text(W - 1, 0, "claim?", align="right")
        critter_keys(c, 20)
        c.text(W - 1, 55, "hold X: back", align="right")


def _own_seat_dimmed(c: Canvas, seats, seat, y0, y1) -> None:
    """Cross out the box of the seat that cannot be picked (one does not offer to oneself)."""
    seats = tuple(seats)
    if seat not in seats:
        return
    gap = 3 if len(seats) <= 4 else 2
    a, b = columns(len(seats), 0, W - 1, gap)[seats.index(seat)]
    c.line(a + 2, y1 - 2, b - 2, y0 + 2)


def _hand_counts(c: Canvas, y: int, seats, hands) -> None:
    gap = 3 if len(seats) <= 4 else 2
    mark = icons.mark("hand")
    for n, (a, b) in zip(hands, columns(len(seats), 0, W - 1, gap)):
        label = str(n)
        w = mark.width + 1 + font.text_width(label)
        x = (a + b + 1 - w) // 2
        if w > b - a + 1:
            x, mark_shown = (a + b + 1 - font.text_width(label)) // 2, False
        else:
            mark_shown = True
        if mark_shown:
            c.paste(mark, x, y, what="hand")
            x += mark.width + 1
        c.text(x, y, label)


def draw_answer(c: Canvas, v) -> None:
    if v.step == "claim":
        c.text_fit(0, 0, W - 30, f"S{v.seat} {ARROW} S{v.target}", scales=(2, 1))
        c.text(W - 1, 0, "claim?", align="right")
        critter_keys(c, 20)
        c.text(W - 1, 55, "hold X: back", align="right")
        return
    c.text(0, 0, clip(f"S{v.sender} {ARROW} S{v.seat}: it is a", W))
    claim_line(c, 10, v.claim)
    if v.can_pass:
        c.text(0, 38, clip("1-6: look, pass on", W))
    if len(v.seen) > 1:
        c.text(W - 1, 38 if not v.can_pass else 46, clip("seen: " + " ".join(f"S{s}" for s in v.seen), W),
               align="right")
    hints(c, H - 10, [("A", "true"), ("X", "false")], x0=0, x1=W - 1)


def draw_flip(c: Canvas, v) -> None:
    said = "true" if v.call else "false"
    c.text_fit(0, 0, W, "Turn it up!", scales=(2, 1))
    c.text(0, 17, clip(f"S{v.seat} says {said}: {v.claim}", W))
    critter_keys(c, 29)
    c.text(W - 1, 55, "What is it?", align="right")


def draw_rows(c: Canvas, v) -> None:
    """Face-up rows: a table, one line per seat, one column per critter; a count of 3
    (one more loses) is lit."""
    n = len(v.seats)
    left = 24
    cols = [(left + i * 13, left + i * 13 + 11) for i in range(8)]
    for kind, (a, _) in zip(icons.CRITTERS, cols):
        c.paste(icons.icon(kind), a, 0, what=f"icon {kind}")
    c.paste(icons.mark("hand"), 13, 3, what="hand")
    pitch = max(8, min(10, (H - 14) // max(1, n)))
    for i, (seat, hand, row) in enumerate(zip(v.seats, v.hands, v.rows)):
        y = 14 + i * pitch
        if y + 7 > H:
            break
        c.text(0, y, f"S{seat}")
        c.text(22, y, str(hand), align="right")
        for kind, (a, b) in zip(icons.CRITTERS, cols):
            count = row.get(kind, 0)
            if not count:
                continue
            mid = (a + b + 1) // 2
            if count >= 3:
                c.rect(a + 1, y - 1, b - 1, y + 7, fill=1, radius=1)
            c.text(mid, y, str(count), fill=0 if count >= 3 else 1, align="center")


def draw_over(c: Canvas, v) -> None:
    losers = tuple(v.losers)
    if len(losers) == 1:
        head = f"S{losers[0]} loses!"
    elif losers:
        head = " ".join(f"S{s}" for s in losers) + " lose!"
    else:
        head = "Game over"
    c.text_fit(W // 2, 0, W, head, scales=(2, 1), align="center")
    if v.kind and v.reason in ("four_of_a_kind", "five_of_a_kind"):
        n = 5 if v.reason == "five_of_a_kind" else 4
        c.text(W // 2, 17, f"{n} {plural(v.kind)}", align="center")
        im = icons.icon(v.kind, 2)
        step = min(im.width + 2, W // n)
        x = (W - (step * (n - 1) + im.width)) // 2
        for i in range(n):
            c.paste(im, x + i * step, 27, what=f"icon {v.kind}")
    else:
        c.text_fit(W // 2, 24, W, REASONS.get(v.reason, v.reason), scales=(2, 1), align="center")
    hints(c, H - 10, [("A", "new game")])
