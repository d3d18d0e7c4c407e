#!/usr/bin/env python3
"""Render the font's German and Vietnamese letters to docs/screens/font-glyphs.png, to look at.

Every letter at scale 1 and 2 and sample words of the table's languages, 4x (nearest
neighbour), white on black; a dim bar at the left of each row spans the capitals
(from their top to the baseline), so the ink above them (``font.overhang``) shows.

    PYTHONPATH=. python scripts/render_font_sheet.py [--out docs/screens/font-glyphs.png]
"""

from __future__ import annotations

import argparse
import pathlib
import sys
import unicodedata

from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pitable.screens import font  # noqa: E402
from pitable.screens.widgets import Canvas  # noqa: E402

TONES = ("", "\u0301", "\u0300", "\u0309", "\u0303", "\u0323")
VOWELS = ("a", "a\u0306", "a\u0302", "e", "e\u0302", "i", "o", "o\u0302", "o\u031b", "u", "u\u031b", "y")
WORDS = ("Heuschrecke", "Brombeere", "\u00c4rger", "\u00dcbersicht", "Mais", "Erdbeere",
         "ch\u00e2u ch\u1ea5u", "ng\u00f4", "d\u00e2u t\u00e2y", "b\u00f4ng c\u1ea3i xanh",
         "m\u00e2m x\u00f4i", "Ng\u01b0\u1eddi ch\u01a1i", "L\u01b0\u1ee3t",
         "\u0110\u1ea4U GI\u00c1", "\u1ede", "B\u1ecf qua")
GERMAN = ("\u00e4\u00f6\u00fc\u00df \u00c4\u00d6\u00dc\u1e9e \u201eSpiel\u201c \u2013 \u2026 \u00abja\u00bb "
          "\u2018a\u2019 \u201ax\u2019 \u00b7 3\u00d74 5\u00b0")


def rows():
    """(text, scale) lines of the sheet."""
    lines = []
    for case in (str.lower, str.upper):
        for v in VOWELS:
            lines.append(" ".join(unicodedata.normalize("NFC", case(v) + t) for t in TONES))
    lines.append("d \u0111 D \u0110")
    lines.append(GERMAN)
    out = [(line, 1) for line in lines]
    out += [(" ".join(lines[i:i + 2]), 2) for i in range(0, 24, 2)]
    out += [(w, 1) for w in WORDS] + [(w, 2) for w in WORDS]
    return out


def sheet() -> Image.Image:
    items = rows()
    width = 9 + max(font.text_width(t, s) for t, s in items)
    pitch = [(font.HEIGHT + 4) * s + 3 for _, s in items]
    height = 4 + sum(pitch)
    mask = Image.new("1", (width, height))
    guide = Image.new("L", (width, height))
    c = Canvas(mask)
    y = 4
    for (text, scale), p in zip(items, pitch):
        top = y + 3 * scale                      # room for 3 rows of overhang
        guide.paste(90, (0, top, 2, top + font.ASCENT * scale))
        c.text(5, top, text, scale)
        y += p
    assert not c.overflows, c.overflows
    im = Image.composite(Image.new("L", mask.size, 255), guide, mask)
    return im.resize((width * 4, height * 4), Image.NEAREST)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default="docs/screens/font-glyphs.png")
    args = ap.parse_args()
    sheet().save(args.out)
    print(args.out)


if __name__ == "__main__":
    main()
