"""Pixel-art icons shipped as data: the five garden kinds, the eight critters of
Cockroach Poker, card glyphs, small marks.

``icon(kind)`` is a 12x12 picture of a garden kind, ``mini(kind)`` a 7x7 one for
tight places (a garden in the scores). Images are built on first use and cached.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageChops, ImageDraw

from pitable.rules import cockroach, grasshopper
from pitable.screens import font

KINDS = grasshopper.KINDS      # the garden kinds, in the rules' order
CRITTERS = cockroach.KINDS     # Cockroach Poker's, in the rules' order

_ICONS = {
    "grasshopper": (
        "............",
        "...........#",
        "...#......#.",
        "..#.##...#..",
        ".#...###.#..",
        ".#...#####..",
        "#..######.##",
        "#.#########.",
        "#...#...#.#.",
        "#..#....#..#",
        "............",
        "............",
    ),
    "corn": (
        ".....##.....",
        "....####....",
        "....#.##....",
        "....##.#....",
        "....#.##....",
        "....##.#....",
        "#...#.##...#",
        "##..##.#..##",
        ".##.#.##.##.",
        "..##.##.##..",
        "...##..##...",
        ".....##.....",
    ),
    "strawberry": (
        ".....#......",
        "..##.#.##...",
        "...#####....",
        ".##########.",
        "###.####.###",
        "############",
        "#.####.####.",
        ".#########..",
        "..###.###...",
        "...#####....",
        "....###.....",
        ".....#......",
    ),
    "broccoli": (
        "...##.##....",
        "..#######...",
        ".##########.",
        "############",
        "############",
        ".####.####..",
        "...######...",
        "....####....",
        "....####....",
        "....####....",
        "....####....",
        "....####....",
    ),
    "blackberry": (
        ".....#......",
        "....###.....",
        "...#...#....",
        "..#.#.#.#...",
        "...#...#....",
        ".#...#...#..",
        "#.#.#.#.#.#.",
        ".#...#...#..",
        "...#...#....",
        "..#.#.#.#...",
        "...#.#.#....",
        "....#.#.....",
    ),
    # Cockroach Poker's critters (the cockroach is also the game's picture)
    "rat": (
        "............",
        "............",
        "....##......",
        "...####.....",
        "..#######...",
        ".#.#######..",
        "############",
        ".##########.",
        "...#....#..#",
        "..........#.",
        "........##..",
        "............",
    ),
    "bat": (
        "............",
        "............",
        "....#..#....",
        "....####....",
        "##..#..#..##",
        "###.####.###",
        "############",
        "##.######.##",
        "#...####...#",
        ".....##.....",
        "............",
        "............",
    ),
    "fly": (
        "............",
        "...##..##...",
        "....####....",
        ".###.##.###.",
        "#...####...#",
        "#...####...#",
        ".#..####..#.",
        "..##.##.##..",
        ".....##.....",
        "....#..#....",
        "............",
        "............",
    ),
    "scorpion": (
        ".......###..",
        "......#...#.",
        "......#...##",
        ".......#....",
        ".##.....#...",
        "#.......#...",
        "#..######...",
        ".###.####...",
        "..########..",
        "...#.#.#.#..",
        "..#.#.#.#...",
        "............",
    ),
    "stinkbug": (
        "..#......#..",
        "...#....#...",
        "....####....",
        "#..######..#",
        ".#########.#",
        "..########..",
        "#.########.#",
        ".#.######.#.",
        "...######...",
        "#...####...#",
        ".....##.....",
        "............",
    ),
    "spider": (
        "............",
        "#...#..#...#",
        ".#..#..#..#.",
        "..#..##..#..",
        "#..######..#",
        ".##.####.##.",
        "...######...",
        ".##.####.##.",
        "#..######..#",
        "..#..##..#..",
        ".#........#.",
        "#..........#",
    ),
    "toad": (
        "............",
        ".###....###.",
        ".#.#....#.#.",
        ".##########.",
        "############",
        "#..........#",
        ".##########.",
        ".##########.",
        "#.########.#",
        "##.##..##.##",
        "............",
        "............",
    ),
    "cockroach": (
        "..#......#..",
        "...#....#...",
        "....####....",
        "#..#.##.#..#",
        ".#.######.#.",
        "..##.##.##..",
        "..###..###..",
        ".#.##..##.#.",
        "#..##..##..#",
        "...##..##...",
        "....#..#....",
        ".....##.....",
    ),
}

_MINI = {
    "cockroach": (    # Cockroach Poker's picture where a row has room for 7 px (the evening's score)
        "#.....#",
        ".#...#.",
        "..###..",
        "#.###.#",
        ".#####.",
        "#.###.#",
        "..###..",
    ),
    "grasshopper": (
        ".....#.",
        "..##..#",
        ".#..###",
        "#######",
        ".#.#.#.",
        "#..#..#",
        ".......",
    ),
    "corn": (
        "...#...",
        "..###..",
        "..#.#..",
        "#.###.#",
        ".##.##.",
        "..###..",
        "...#...",
    ),
    "strawberry": (
        "..#.#..",
        "#######",
        "##.##.#",
        "#######",
        ".#.###.",
        "..###..",
        "...#...",
    ),
    "broccoli": (     # a tree: florets, a gap, a straight stem (the strawberry tapers to a point)
        ".##.##.",
        "#######",
        ".#####.",
        ".......",
        "..###..",
        "..###..",
        "..###..",
    ),
    "blackberry": (
        "...#...",
        "..###..",
        ".#.#.#.",
        "#.#.#.#",
        ".#.#.#.",
        "..#.#..",
        "...#...",
    ),
}

_MARKS = {
    "hand": (
        "..#####",
        "..#...#",
        "###...#",
        "#.#...#",
        "#.#####",
        "#...#..",
        "#####..",
    ),
    "check": (
        ".........#",
        "........##",
        ".......##.",
        "#.....##..",
        "##...##...",
        ".##.##....",
        "..###.....",
        "...#......",
    ),
    "chip": (
        "..###..",
        ".#...#.",
        "#.###.#",
        "#.#.#.#",
        "#.###.#",
        ".#...#.",
        "..###..",
    ),
}


# Cockroach Poker's critters 6 px wide, for a row of counts with no room for a header
# of pictures (the rows overlay with six seats): each count goes after its critter.
_CRITTER_MARKS = {
    "rat": ("......", "...##.", "..####", ".#####", "######", "..#..#", "......"),
    "cockroach": ("#....#", ".#..#.", "..##..", ".####.", "#.##.#", ".####.", "#.##.#"),
    "bat": (".#..#.", ".####.", "#.##.#", "######", "##..##", "#....#", "......"),
    "fly": ("##..##", "#.##.#", ".####.", "..##..", ".####.", "..##..", "......"),
    "scorpion": ("...##.", "....#.", "#...#.", ".#.#..", "..###.", ".####.", "#.#.#."),
    "stinkbug": ("#....#", ".####.", "######", "######", ".####.", "..##..", "......"),
    "spider": ("#.##.#", ".####.", "######", ".####.", "#.##.#", "#....#", "......"),
    "toad": ("##..##", "######", "#.##.#", "######", ".####.", "#....#", "......"),
}


# The mini pictures are also glyphs of the font, at these private-use code points, so
# a line of text can name a kind with its picture where words do not fit ("2 \ue001").
INLINE = {kind: chr(0xE000 + i) for i, kind in enumerate(KINDS)}
font.add_glyphs({ch: " ".join(_MINI[kind]) for kind, ch in INLINE.items()})

_WORDS = re.compile(r"\b(grasshoppers?|corn|strawberry|strawberries|broccoli|blackberry|blackberries)\b")
_WORD_KIND = {"grasshoppers": "grasshopper", "strawberries": "strawberry", "blackberries": "blackberry"}


def inline_kinds(text: str) -> str:
    """``text`` with each garden kind's name replaced by its inline picture."""
    return _WORDS.sub(lambda m: INLINE[_WORD_KIND.get(m.group(1), m.group(1))], text)


def _build(rows: Sequence[str], scale: int = 1) -> Image.Image:
    w, h = len(rows[0]), len(rows)
    im = Image.new("1", (w, h))
    im.putdata([1 if p == "#" else 0 for row in rows for p in row])
    if scale != 1:
        # Pillow types it only as Image.Resampling.NEAREST (9.1+); pitable takes 9.0 too
        im = im.resize((w * scale, h * scale), Image.NEAREST)  # type: ignore[attr-defined]
    return im


@cache
def icon(kind: str, scale: int = 1) -> Image.Image:
    """The 12x12 picture of a garden kind (an unknown kind: its initial in a box)."""
    if kind in _ICONS:
        return _build(_ICONS[kind], scale)
    im = Image.new("1", (12, 12))
    d = ImageDraw.Draw(im)
    d.rectangle((0, 0, 11, 11), outline=1)
    im.paste(1, (4, 2), font.text_image((kind or "?")[0].upper()).crop((0, 0, 5, 8)))
    if scale != 1:
        # Pillow types it only as Image.Resampling.NEAREST (9.1+); pitable takes 9.0 too
        im = im.resize((12 * scale, 12 * scale), Image.NEAREST)  # type: ignore[attr-defined]
    return im


@cache
def mini(kind: str) -> Image.Image:
    """A 7x7 picture of a garden kind."""
    if kind in _MINI:
        return _build(_MINI[kind])
    return _build(("#######",) + ("#.....#",) * 5 + ("#######",))


@cache
def critter_mark(kind: str) -> Image.Image:
    """A 6x7 picture of a Cockroach Poker critter."""
    return _build(_CRITTER_MARKS[kind])


@cache
def mark(name: str, scale: int = 1) -> Image.Image:
    """Small marks: "check", "chip", "hand" (cards in hand)."""
    return _build(_MARKS[name], scale)


# Card glyphs: a playing card outline with its value. Sizes: (width, height, text scale).
CARD_SIZES = {"big": (22, 30, 3), "mid": (17, 24, 2), "small": (11, 15, 1)}


def card_size(size: str) -> tuple[int, int]:
    w, h, _ = CARD_SIZES[size]
    return w, h


@cache
def card(label: str, size: str = "big", style: str = "face") -> Image.Image:
    """A poker card glyph (labels "1".."6", "A", "X") as a mode "1" mask.

    style "face": outlined card, value in ink; "solid": a lit card with the value cut
    out (the winners); "cancelled": a dotted outline and the value solid (a dotted X
    read as "%" and a dotted 3 as ":" on the glass; the frame says it is cancelled).
    """
    w, h, s = CARD_SIZES[size]
    im = Image.new("1", (w, h))
    d = ImageDraw.Draw(im)
    r = 3 if size != "small" else 2
    text = font.text_image(label, s)
    tw, th = font.text_width(label, s), font.ASCENT * s
    x, y = (w - tw) // 2, (h - th) // 2
    top = font.overhang(label, s)
    mask = text.crop((0, top, tw, top + th))
    if style == "cancelled":
        dots = checker(w, h)
        frame = Image.new("1", (w, h))
        ImageDraw.Draw(frame).rounded_rectangle((0, 0, w - 1, h - 1), radius=r, outline=1)
        im.paste(1, (0, 0), ImageChops.logical_and(frame, dots))
        im.paste(1, (x, y), mask)
        return im
    solid = style == "solid"
    d.rounded_rectangle((0, 0, w - 1, h - 1), radius=r, outline=1, fill=1 if solid else 0)
    im.paste(0 if solid else 1, (x, y), mask)
    return im


@cache
def checker(w: int, h: int) -> Image.Image:
    """A w x h checkerboard mask, (0, 0) lit."""
    im = Image.new("1", (w, h))
    im.putdata([(i % w + i // w) % 2 for i in range(w * h)])
    return im
