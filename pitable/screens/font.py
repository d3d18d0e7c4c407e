"""A small proportional pixel font shipped as data, so no system font is needed.

Each glyph is 7 rows above the baseline (capitals and digits), lower case has a
5-row x-height, and descenders (g j p q y , ; _) take 2 more rows: a cell is 9 rows.
Rows are strings of ``#`` (ink) and ``.``, separated by spaces; the width of a
glyph is the length of its rows (digits are all 5 wide, so numbers line up).

Letters with marks (German umlauts, every Vietnamese letter) are not typed out: they
are composed on first use from a base letter and the marks of a small table (``_MARKS``),
so the letters and the marks stay alike; the few that compose badly are drawn by hand
(``_HAND``). A capital with a mark above, and a lower-case letter with two stacked marks,
have ink above the capital line: ``overhang`` says how much, and ``text_image`` makes the
image that much taller (``Canvas.text`` keeps ``y`` as the top of the capitals). Text is
normalised to NFC first, so decomposed input draws like composed input.

Glyph and text images are built on first use and cached; importing this module
only parses nothing and costs next to nothing (start-up time matters on a Pi Zero).
Big text is the same bitmap scaled by an integer with nearest neighbour: crisp.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from functools import lru_cache, cache

from PIL import Image

ASCENT = 7       # rows from the top of a capital to the baseline
DESCENT = 2      # rows below the baseline (g, p, y, ...)
HEIGHT = ASCENT + DESCENT
SPACING = 1      # columns between glyphs, before scaling
MAX_OVERHANG = 3  # rows any glyph's ink may reach above the capitals (see ``overhang``)
ELLIPSIS = "\u2026"
ARROW = "\u2192"

_GLYPHS = {
    " ": "... ... ... ... ... ... ...",
    "\u00a0": "... ... ... ... ... ... ...",   # no-break space: a space where a row may not end
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
    # German and Vietnamese letters that are not a vowel plus marks (those are composed)
    "\u00df": ".##.. #..#. #..#. #.##. #...# #...# #.##.",        # sharp s
    "\u1e9e": ".###. #...# #..#. #.#.. #..#. #...# #.##.",        # capital sharp s
    "\u0111": "....#. ...### .####. #...#. #...#. #...#. .####.",  # d with stroke
    "\u0110": ".###.. .#..#. .#...# ####.# .#...# .#..#. .###..",  # D with stroke
    # punctuation of German and Vietnamese text
    "\u201e": ".... .... .... .... .... .#.# .#.# #.#.",   # low double quote (German opening)
    "\u201c": ".#.# #.#. #.#. .... .... .... ....",        # left double quote
    "\u201d": ".#.# .#.# #.#. .... .... .... ....",        # right double quote
    "\u201a": ".. .. .. .. .. .# .# #.",                   # low single quote
    "\u2018": ".# #. #. .. .. .. ..",                      # left single quote
    "\u2019": ".# .# #. .. .. .. ..",                      # right single quote
    "\u2013": "..... ..... ..... ##### ..... ..... .....", # en dash
    "\u2014": "....... ....... ....... ####### ....... ....... .......",  # em dash
    "\u00ab": "..... ..... ..#.# .#.#. #.#.. .#.#. ..#.#", # guillemets
    "\u00bb": "..... ..... #.#.. .#.#. ..#.# .#.#. #.#..",
    "\u00b7": ". . . # . . .",                             # middle dot
    "\u00b0": ".#. #.# .#. ... ... ... ...",               # degree
    "\u00d7": "... ... #.# .#. #.# ... ...",               # multiplication sign
}

# Capital vowels 6 rows tall (rows 1 to 6 of the cell) for the letters with a mark above
# or a horn: the row freed on top keeps the mark apart from the letter while it reaches
# no more than 1 to 3 rows above the capital line.
_CAP6 = {
    "A": "..... .###. #...# #...# ##### #...# #...#",
    "E": "..... ##### #.... ####. #.... #.... #####",
    "I": "... ### .#. .#. .#. .#. ###",
    "O": "..... .###. #...# #...# #...# #...# .###.",
    "U": "..... #...# #...# #...# #...# #...# .###.",
    "Y": "..... #...# #...# .#.#. ..#.. ..#.. ..#..",
}
# i under a mark loses its dot and a row, so the mark keeps a row of air above it
_DOTLESS = {"i": "... ... ... ##. .#. .#. ###"}
_AXIS = {"i": 1.0, "I": 1.0}                       # the column a mark centres on, if not the middle

# Combining marks: (where, rows). Marks above stack from the letter up in NFD order
# (circumflex, breve or diaeresis first, then the tone); the horn hangs on the top right.
_ACUTE, _GRAVE, _HOOK, _TILDE, _DOT = "\u0301", "\u0300", "\u0309", "\u0303", "\u0323"
_CIRCUMFLEX, _BREVE, _DIAERESIS, _HORN = "\u0302", "\u0306", "\u0308", "\u031b"
_MARKS = {
    _ACUTE: ("above", ".# #."),
    _GRAVE: ("above", "#. .#"),
    _HOOK: ("above", "## .# #."),    # a small question mark: as "## .#" its stem read as a horn (bỏ/bơ)
    _TILDE: ("above", ".##.# #..#."),  # a wave 5 wide: as ".#.# #.#." it read as a breve (đã/đă)
    _CIRCUMFLEX: ("above", ".#. #.#"),
    _BREVE: ("above", "#.# .#."),
    _DIAERESIS: ("above", "#.#"),
    _DOT: ("below", "#"),
    _HORN: ("horn", ""),
}
_STACKED_HOOK = ["##", ".#", "#."]   # hỏi beside a circumflex or breve (see ``_compose``)
_STACKED_TILDE = [".#.#", "#.#."]   # ngã over a circumflex or breve on a capital: the narrow wave
_ROUND_RIGHT = {_ACUTE, _TILDE, _HOOK}   # odd room: these sit a half pixel right, the others left
_MARK_BASES = "aeiouyAEIOUY"

# Composed letters that read badly are drawn by hand: (rows above the capital line, rows).
_HAND: dict[str, tuple[int, str]] = {
    # y with dot below: the dot apart from the tail, left of it (fused, it read as y)
    "\u1ef5": (0, "..... ..... #...# #...# #...# #...# .#### ....# #.##."),
}


# What a character without a glyph shows: a box, so a gap in the font is seen, not
# mistaken for a question mark. ``missing`` lists such characters.
_NOTDEF = "#### #..# #..# #..# #..# #..# ####"


def add_glyphs(glyphs: dict[str, str]) -> None:
    """More glyphs (same row format), e.g. small pictures used inline in text."""
    _GLYPHS.update(glyphs)
    for f in (_shape, char_width, text_width, has_descender, overhang, glyph, text_image):
        f.cache_clear()


def nfc(text: str) -> str:
    """``text`` composed (NFC): a letter and its combining marks become one character."""
    return text if text.isascii() else unicodedata.normalize("NFC", text)


def has_glyph(ch: str) -> bool:
    return ch in _GLYPHS or ch in _HAND or _compose(ch) is not None


def missing(text: str) -> set[str]:
    """The characters of ``text`` (after NFC) that the font has no glyph for."""
    return {ch for ch in nfc(text) if not has_glyph(ch)}


@cache
def _compose(ch: str) -> tuple[int, tuple[str, ...]] | None:
    """(rows above the capital line, rows) of a vowel with marks, or None."""
    parts = unicodedata.normalize("NFD", ch)
    base, marks = parts[0], parts[1:]
    if len(ch) != 1 or base not in _MARK_BASES or not marks or any(m not in _MARKS for m in marks):
        return None
    above = [_MARKS[m][1].split() for m in marks if _MARKS[m][0] == "above"]
    raised = bool(above) or _HORN in marks
    if base.isupper() and raised:
        rows = _CAP6[base].split()
    elif raised and base in _DOTLESS:
        rows = _DOTLESS[base].split()
    else:
        rows = _GLYPHS[base].split()
    ink = {(x, y) for y, row in enumerate(rows) for x, p in enumerate(row) if p == "#"}
    width = len(rows[0])
    top = min(y for _, y in ink)
    axis = _AXIS.get(base, (width - 1) / 2)
    if _HORN in marks:
        # a horn that reads: two rows up from the letter's top right (one pixel was taken
        # for a slip of the pen: "đưa" looked like "đua")
        ink |= {(width - 1, top), (width, top - 1), (width, top - 2)}
    # Marks above. One mark: a row of air under it on capitals; on lower case it sits on
    # the x-height (the 2 rows above it are all there is). A circumflex with an acute,
    # grave or hook (and a breve with one): the tone beside it on the right, a column
    # apart, as Vietnamese type sets it (and it saves a row). A tilde stacks on top,
    # the pair touching the letter, so that a capital reaches at most 3 rows up.
    codes = [c for c in marks if _MARKS[c][0] == "above"]
    if len(codes) == 1:
        (m,) = above
        # dots (German umlauts) keep a row of air above a lower-case letter, at every scale
        low = top - 2 if base.isupper() or codes[0] == _DIAERESIS else min(top - 1, 1)
        left = _left(axis, m, codes[0])
        if _HORN in marks:  # a clear column between the mark and the horn: ữ, not a long ũ
            left = min(left, width - 1 - len(m[0]))
        _put(ink, m, left, low)
    elif len(codes) == 2 and codes[0] in (_CIRCUMFLEX, _BREVE) and codes[1] != _TILDE:
        bottom = top - (2 if base.isupper() else 1)
        left = round(axis) - 2
        _put(ink, above[0], left, bottom)
        if codes[1] == _HOOK:
            # beside a circumflex the hook is 3 rows, a small question mark: as 2 rows it
            # differed from the grave by one pixel (ể read as ề, ổ as ồ)
            _put(ink, _STACKED_HOOK, left + 4, bottom)
        else:
            _put(ink, above[1], left + 4, bottom - 1)
    elif above:
        bottom = top - 1
        for m, code in zip(above, codes):
            if code == _TILDE and base.isupper():
                m = _STACKED_TILDE  # the narrow wave, so that a capital stays 3 rows high
            _put(ink, m, _left(axis, m, code), bottom)
            bottom -= len(m)
    if _DOT in marks:
        ink.add((round(axis), ASCENT + DESCENT - 1))
    return _rows_of(ink, width)


def _left(axis: float, mark: Sequence[str], code: str) -> int:
    """The column of a mark's left edge that centres it on ``axis``."""
    left = axis - (len(mark[0]) - 1) / 2
    return int(left) + (1 if left != int(left) and code in _ROUND_RIGHT else 0)


def _put(ink: set[tuple[int, int]], mark: Sequence[str], left: int, bottom: int) -> None:
    """Add the ink of ``mark`` (rows) with its left edge at ``left`` and last row at ``bottom``."""
    for dy, row in enumerate(mark):
        for dx, p in enumerate(row):
            if p == "#":
                ink.add((left + dx, bottom - len(mark) + 1 + dy))


def _rows_of(ink: set[tuple[int, int]], width: int) -> tuple[int, tuple[str, ...]]:
    """(rows above the capital line, rows) of a set of ink pixels, widened to fit."""
    x0 = min(0, min(x for x, _ in ink))
    x1 = max(width - 1, max(x for x, _ in ink))
    y0 = min(0, min(y for _, y in ink))
    y1 = max(ASCENT - 1, max(y for _, y in ink))
    rows = tuple("".join("#" if (x, y) in ink else "." for x in range(x0, x1 + 1))
                 for y in range(y0, y1 + 1))
    return -y0, rows


@cache
def _shape(ch: str) -> tuple[int, tuple[str, ...]]:
    """(rows above the capital line, rows from the top of the ink area) of ``ch``."""
    if ch in _GLYPHS:
        return 0, tuple(_GLYPHS[ch].split())
    if ch in _HAND:
        above, rows = _HAND[ch]
        return above, tuple(rows.split())
    return _compose(ch) or (0, tuple(_NOTDEF.split()))


@cache
def char_width(ch: str) -> int:
    return len(_shape(ch)[1][0])


@lru_cache(maxsize=4096)  # layout asks the same widths again and again (wrapping, fitting)
def text_width(text: str, scale: int = 1) -> int:
    """Width in pixels of ``text`` drawn at ``scale`` (no trailing spacing)."""
    text = nfc(text)
    if not text:
        return 0
    return (sum(char_width(c) for c in text) + SPACING * (len(text) - 1)) * scale


@lru_cache(maxsize=4096)
def has_descender(text: str) -> bool:
    return any(len(rows) - above > ASCENT for above, rows in map(_shape, nfc(text)))


@lru_cache(maxsize=4096)  # asked on every draw of a text (the key press path)
def overhang(text: str, scale: int = 1) -> int:
    """Pixels that the ink of ``text`` reaches above the top of the capitals at ``scale``:
    0 for ASCII and any text without capitals with marks or letters with stacked marks."""
    if text.isascii():
        return 0
    return max((_shape(c)[0] for c in nfc(text)), default=0) * scale


@cache
def glyph(ch: str) -> Image.Image:
    """The glyph of ``ch`` at scale 1: a mode "1" image, ``char_width`` wide and
    HEIGHT tall plus the rows of its ink above the capital line (``overhang(ch)``)."""
    above, rows = _shape(ch)
    w = len(rows[0])
    data = [1 if p == "#" else 0 for row in rows for p in row]
    data += [0] * (w * (above + HEIGHT) - len(data))
    im = Image.new("1", (w, above + HEIGHT))
    im.putdata(data)
    return im


@lru_cache(maxsize=1024)
def text_image(text: str, scale: int = 1) -> Image.Image:
    """``text`` as a mode "1" mask (ink = 1), cached: (HEIGHT + overhang) * scale tall,
    the top of the capitals ``overhang(text, scale)`` pixels below its top."""
    text = nfc(text)
    top = overhang(text)
    w = max(1, text_width(text, 1))
    im = Image.new("1", (w, top + HEIGHT))
    x = 0
    for ch in text:
        g = glyph(ch)
        im.paste(g, (x, top - (g.height - HEIGHT)))
        x += g.width + SPACING
    if scale != 1:
        # Pillow types it only as Image.Resampling.NEAREST (9.1+); pitable takes 9.0 too
        im = im.resize((w * scale, (top + HEIGHT) * scale), Image.NEAREST)  # type: ignore[attr-defined]
    return im
