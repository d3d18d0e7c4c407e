"""A small proportional pixel font shipped as data, so no system font is needed.

Each glyph is 7 rows above the baseline (capitals and digits), lower case has a
5-row x-height, and descenders (g j p q y , ; _) take 2 more rows: a cell is 9 rows.
Rows are strings of ``#`` (ink) and ``.``, separated by spaces; the width of a
glyph is the length of its rows (digits are all 5 wide, so numbers line up).

Glyph and text images are built on first use and cached; importing this module
only parses nothing and costs next to nothing (start-up time matters on a Pi Zero).
Big text is the same bitmap scaled by an integer with nearest neighbour: crisp.
"""

from __future__ import annotations

from functools import lru_cache

from PIL import Image

ASCENT = 7       # rows from the top of a capital to the baseline
DESCENT = 2      # rows below the baseline (g, p, y, ...)
HEIGHT = ASCENT + DESCENT
SPACING = 1      # columns between glyphs, before scaling
ELLIPSIS = "\u2026"
ARROW = "\u2192"

_GLYPHS = {
    " ": "... ... ... ... ... ... ...",
    "!": "# # # # # . #",
    '"': "#.# #.# ... ... ... ... ...",
    "#": ".#.#. .#.#. ##### .#.#. ##### .#.#. .#.#.",
    "$": "..#.. .#### #.#.. .###. ..#.# ####. ..#..",
    "%": "##..# ##..# ...#. ..#.. .#... #..## #..##",
    "&": ".##.. #..#. #.#.. .#... #.#.# #..#. .##.#",
    "'": "# # . . . . .",
    "(": "..# .#. #.. #.. #.. .#. ..#",
    ")": "#.. .#. ..# ..# ..# .#. #..",
    "*": "..... ..#.. #.#.# .###. #.#.# ..#.. .....",
    "+": "..... ..#.. ..#.. ##### ..#.. ..#.. .....",
    ",": ".. .. .. .. .. .# .# #.",
    "-": ".... .... .... #### .... .... ....",
    ".": ". . . . . . #",
    "/": "....# ...#. ...#. ..#.. .#... .#... #....",
    "0": ".###. #...# #...# #...# #...# #...# .###.",
    "1": "..#.. .##.. ..#.. ..#.. ..#.. ..#.. .###.",
    "2": ".###. #...# ....# ...#. ..#.. .#... #####",
    "3": ".###. #...# ....# ..##. ....# #...# .###.",
    "4": "...#. ..##. .#.#. #..#. ##### ...#. ...#.",
    "5": "##### #.... ####. ....# ....# #...# .###.",
    "6": "..##. .#... #.... ####. #...# #...# .###.",
    "7": "##### ....# ...#. ..#.. .#... .#... .#...",
    "8": ".###. #...# #...# .###. #...# #...# .###.",
    "9": ".###. #...# #...# .#### ....# ...#. .##..",
    ":": ". . # . . . #",
    ";": ".. .. .# .. .. .. .# #.",
    "<": "...# ..#. .#.. #... .#.. ..#. ...#",
    "=": ".... .... #### .... #### .... ....",
    ">": "#... .#.. ..#. ...# ..#. .#.. #...",
    "?": ".###. #...# ....# ...#. ..#.. ..... ..#..",
    "@": ".###. #...# #.### #.#.# #.##. #.... .####",
    "A": ".###. #...# #...# ##### #...# #...# #...#",
    "B": "####. #...# #...# ####. #...# #...# ####.",
    "C": ".###. #...# #.... #.... #.... #...# .###.",
    "D": "###.. #..#. #...# #...# #...# #..#. ###..",
    "E": "##### #.... #.... ####. #.... #.... #####",
    "F": "##### #.... #.... ####. #.... #.... #....",
    "G": ".###. #...# #.... #.### #...# #...# .####",
    "H": "#...# #...# #...# ##### #...# #...# #...#",
    "I": "### .#. .#. .#. .#. .#. ###",
    "J": "..### ...#. ...#. ...#. ...#. #..#. .##..",
    "K": "#...# #..#. #.#.. ##... #.#.. #..#. #...#",
    "L": "#.... #.... #.... #.... #.... #.... #####",
    "M": "#...# ##.## #.#.# #.#.# #...# #...# #...#",
    "N": "#...# #...# ##..# #.#.# #..## #...# #...#",
    "O": ".###. #...# #...# #...# #...# #...# .###.",
    "P": "####. #...# #...# ####. #.... #.... #....",
    "Q": ".###. #...# #...# #...# #.#.# #..#. .##.#",
    "R": "####. #...# #...# ####. #.#.. #..#. #...#",
    "S": ".#### #.... #.... .###. ....# ....# ####.",
    "T": "##### ..#.. ..#.. ..#.. ..#.. ..#.. ..#..",
    "U": "#...# #...# #...# #...# #...# #...# .###.",
    "V": "#...# #...# #...# #...# #...# .#.#. ..#..",
    "W": "#...# #...# #...# #.#.# #.#.# #.#.# .#.#.",
    "X": "#...# #...# .#.#. ..#.. .#.#. #...# #...#",
    "Y": "#...# #...# .#.#. ..#.. ..#.. ..#.. ..#..",
    "Z": "##### ....# ...#. ..#.. .#... #.... #####",
    "[": "## #. #. #. #. #. ##",
    "\\": "#.... .#... .#... ..#.. ...#. ...#. ....#",
    "]": "## .# .# .# .# .# ##",
    "^": "..#.. .#.#. #...# ..... ..... ..... .....",
    "_": "..... ..... ..... ..... ..... ..... ..... #####",
    "`": "#. .# .. .. .. .. ..",
    "a": "..... ..... .###. ....# .#### #...# .####",
    "b": "#.... #.... ####. #...# #...# #...# ####.",
    "c": ".... .... .### #... #... #... .###",
    "d": "....# ....# .#### #...# #...# #...# .####",
    "e": "..... ..... .###. #...# ##### #.... .###.",
    "f": "..## .#.. ###. .#.. .#.. .#.. .#..",
    "g": "..... ..... .#### #...# #...# #...# .#### ....# .###.",
    "h": "#.... #.... ####. #...# #...# #...# #...#",
    "i": ".#. ... ##. .#. .#. .#. ###",
    "j": "...# .... ..## ...# ...# ...# ...# #..# .##.",
    "k": "#... #... #..# #.#. ##.. #.#. #..#",
    "l": "##. .#. .#. .#. .#. .#. ###",
    "m": "..... ..... ##.#. #.#.# #.#.# #.#.# #.#.#",
    "n": "..... ..... ####. #...# #...# #...# #...#",
    "o": "..... ..... .###. #...# #...# #...# .###.",
    "p": "..... ..... ####. #...# #...# #...# ####. #.... #....",
    "q": "..... ..... .#### #...# #...# #...# .#### ....# ....#",
    "r": ".... .... #.## ##.. #... #... #...",
    "s": "..... ..... .#### #.... .###. ....# ####.",
    "t": ".#.. .#.. ###. .#.. .#.. .#.. ..##",
    "u": "..... ..... #...# #...# #...# #...# .####",
    "v": "..... ..... #...# #...# #...# .#.#. ..#..",
    "w": "..... ..... #...# #...# #.#.# #.#.# .#.#.",
    "x": "..... ..... #...# .#.#. ..#.. .#.#. #...#",
    "y": "..... ..... #...# #...# #...# #...# .#### ....# .###.",
    "z": "..... ..... ##### ...#. ..#.. .#... #####",
    "{": "..# .#. .#. #.. .#. .#. ..#",
    "|": "# # # # # # #",
    "}": "#.. .#. .#. ..# .#. .#. #..",
    "~": "..... ..... .#... #.#.# ...#. ..... .....",
    ELLIPSIS: "..... ..... ..... ..... ..... ..... #.#.#",
    "\u2192": "..... ..#.. ...#. ##### ...#. ..#.. .....",   # right arrow

}


def add_glyphs(glyphs: dict) -> None:
    """More glyphs (same row format), e.g. small pictures used inline in text."""
    _GLYPHS.update(glyphs)
    char_width.cache_clear()
    glyph.cache_clear()
    text_image.cache_clear()


def has_glyph(ch: str) -> bool:
    return ch in _GLYPHS


def _rows(ch: str) -> list:
    return _GLYPHS.get(ch, _GLYPHS["?"]).split()


@lru_cache(maxsize=None)
def char_width(ch: str) -> int:
    return len(_rows(ch)[0])


@lru_cache(maxsize=4096)  # layout asks the same widths again and again (wrapping, fitting)
def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` drawn at ``scale`` (no trailing spacing)."""
    if not text:
        return 0
    return (sum(char_width(c) for c in text) + SPACING * (len(text) - 1)) * scale


@lru_cache(maxsize=4096)
def has_descender(text: str) -> bool:
    return any(len(_rows(c)) > ASCENT for c in text)


@lru_cache(maxsize=None)
def glyph(ch: str) -> Image.Image:
    """The glyph of ``ch`` at scale 1: a mode "1" image, ``char_width`` x HEIGHT."""
    rows = _rows(ch)
    w = len(rows[0])
    data = [1 if p == "#" else 0 for row in rows for p in row]
    data += [0] * (w * HEIGHT - len(data))
    im = Image.new("1", (w, HEIGHT))
    im.putdata(data)
    return im


@lru_cache(maxsize=1024)
def text_image(text: str, scale: int = 1) -> Image.Image:
    """``text`` as a mode "1" mask (ink = 1), HEIGHT * scale tall, cached."""
    w = max(1, text_width(text, 1))
    im = Image.new("1", (w, HEIGHT))
    x = 0
    for ch in text:
        g = glyph(ch)
        im.paste(g, (x, 0))
        x += g.width + SPACING
    if scale != 1:
        im = im.resize((w * scale, HEIGHT * scale), Image.NEAREST)
    return im
