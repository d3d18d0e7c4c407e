"""The pixel font covers German and Vietnamese: every letter has its own bitmap at scale 1,
marks stay inside their letter's box, ``overhang`` is the ink above the capitals that
``Canvas.text`` draws above ``y``, and decomposed (NFD) text draws like composed text."""

from __future__ import annotations

import ast
import pathlib
import string
import subprocess
import sys
import unicodedata

import pytest
from PIL import Image

from pitable.screens import font
from pitable.screens.widgets import Canvas

ROOT = pathlib.Path(__file__).resolve().parents[2]

# Vietnamese from Unicode's own data: a vowel, at most one of the marks that make
# ă â ê ô ơ ư (on the vowels that take it), at most one of the five tones.
_VI_MODIFIERS = {"a": ("", "\u0306", "\u0302"), "e": ("", "\u0302"), "o": ("", "\u0302", "\u031b"),
                 "u": ("", "\u031b"), "i": ("",), "y": ("",)}
_VI_TONES = ("", "\u0301", "\u0300", "\u0309", "\u0303", "\u0323")


def _vietnamese_letters() -> set:
    wanted = {unicodedata.normalize("NFD", base + mod + tone)
              for base, mods in _VI_MODIFIERS.items() for mod in mods for tone in _VI_TONES}
    letters = {"\u0111", "\u0110"}   # đ Đ
    for code in range(0x80, 0x2000):
        ch = chr(code)
        if not unicodedata.category(ch).startswith("L"):
            continue
        nfd = unicodedata.normalize("NFD", ch)
        if nfd[0].lower() + nfd[1:] in wanted:
            letters.add(ch)
    return letters


VIETNAMESE = _vietnamese_letters()
GERMAN = set("äöüßÄÖÜ")
NEW = sorted(VIETNAMESE | GERMAN | {"\u1e9e"})
LETTERS = sorted(set(string.ascii_letters) | set(NEW))
PUNCTUATION = "„“”‚‘’–—…«»·°×"
WORDS = ("Heuschrecke", "Brombeere", "Ärger", "Übersicht", "Mais", "Erdbeere", "châu chấu", "ngô",
         "dâu tây", "bông cải xanh", "mâm xôi", "Người chơi", "Lượt", "ĐẤU GIÁ", "Ở", "Bỏ qua")


def _ink(im: Image.Image) -> set:
    px = im.load()
    return {(x, y) for x in range(im.width) for y in range(im.height) if px[x, y]}


def test_every_vietnamese_and_german_letter_has_a_glyph():
    # 12 vowels (a ă â e ê i o ô ơ u ư y) x 6 (5 tones and none) x 2 cases, less the 12 of
    # ASCII, and đ Đ: all of Unicode's precomposed Vietnamese letters
    assert len(VIETNAMESE) == 12 * 6 * 2 - 12 + 2
    assert font.missing("".join(NEW) + PUNCTUATION) == set()
    for ch in NEW:
        assert font.has_glyph(ch), ch
        assert font.glyph(ch).getbbox(), ch


def test_no_two_letters_share_a_bitmap_at_scale_1():
    # ế ề ể ễ ệ ê and e, Ở and Ỏ, ă and â...: told apart by their pixels at the smallest size
    seen: dict = {}
    for ch in LETTERS:
        g = font.glyph(ch)
        key = (g.size, g.tobytes())
        assert key not in seen, f"{ch!r} looks like {seen[key]!r}"
        seen[key] = ch


def test_double_marks_differ_in_their_marks_not_only_the_tone_position():
    # the pairs a reader must tell apart by the mark alone: same letter, one mark changed
    for base in "aeoAEO":
        for tone in _VI_TONES[1:]:
            with_hat = unicodedata.normalize("NFC", base + "\u0302" + tone)
            without = unicodedata.normalize("NFC", base + tone)
            assert len(_ink(font.glyph(with_hat))) > len(_ink(font.glyph(without)))


def test_marks_stay_in_their_letters_box_and_apart_from_neighbours():
    for ch in NEW:
        w = font.char_width(ch)
        for left, right in (("H", "H"), ("x", "x"), ("ấ", "Ở"), ("f", "j")):
            s = left + ch + right
            im = font.text_image(s)
            top = font.overhang(s)
            x0 = font.text_width(left) + font.SPACING
            # the letter's own box holds exactly its glyph, placed on the capital line
            g = font.glyph(ch)
            box = im.crop((x0, top - (g.height - font.HEIGHT), x0 + w, top + font.HEIGHT))
            assert box.tobytes() == g.tobytes(), s
            # and a blank column on either side: nothing touches a neighbour
            for col in (x0 - 1, x0 + w):
                assert not im.crop((col, 0, col + 1, im.height)).getbbox(), (s, col)


@pytest.mark.parametrize("scale", (1, 2, 3))
def test_overhang_is_the_ink_drawn_above_the_capitals(scale):
    for s in NEW + list(WORDS) + ["H", "Hay", "x" * 3, PUNCTUATION]:
        image = Image.new("1", (400, 80))
        c = Canvas(image)
        y = 40
        c.text(10, y, "H" + s, scale)          # H: its top is the capital line
        top = image.getbbox()[1]
        assert top == y - font.overhang(s, scale), s
        assert font.overhang(s, scale) == font.overhang(s) * scale
        assert font.text_image(s, scale).height == (font.HEIGHT + font.overhang(s)) * scale
    assert font.overhang("Heuschrecke") == font.overhang("ngô") == 0


def test_overhang_per_case_is_at_most_3_rows():
    lower = [ch for ch in NEW if ch.islower()]
    upper = [ch for ch in NEW if ch.isupper()]
    assert max(map(font.overhang, lower)) <= 2
    assert max(map(font.overhang, upper)) <= 3
    everything = [chr(c) for c in range(0x20, 0x2200) if font.has_glyph(chr(c))]
    assert max(map(font.overhang, everything)) == font.MAX_OVERHANG == 3
    # one mark on a lower-case letter fits the 2 rows above the x-height, but the hỏi:
    # a 3-row question mark (as 2 rows its stem read as a horn: bỏ/bơ)
    for ch in lower:
        parts = unicodedata.normalize("NFD", ch)
        if len(parts) == 2:
            assert font.overhang(ch) == (1 if parts[1] == "\u0309" else 0), ch
    assert font.overhang("äöüß") == 0 and font.overhang("ÄÖÜ") == 1


def test_the_canvas_counts_ink_above_the_capitals_as_leaving_the_frame():
    for s, scale in (("Ở", 1), ("ĐẤU", 2), ("Ärger", 1)):
        c = Canvas(Image.new("1", (128, 64)))
        c.text(0, 0, s, scale)
        assert c.overflows, s
        c = Canvas(Image.new("1", (128, 64)))
        c.text(0, font.overhang(s, scale), s, scale)
        assert not c.overflows, s


def test_decomposed_text_draws_like_composed_text():
    for s in NEW + list(WORDS):
        nfd = unicodedata.normalize("NFD", s)
        assert font.text_image(nfd).tobytes() == font.text_image(s).tobytes(), s
        assert font.text_width(nfd, 2) == font.text_width(s, 2)
        assert font.overhang(nfd, 2) == font.overhang(s, 2)
        assert font.has_descender(nfd) == font.has_descender(s)
        assert font.missing(nfd) == set()


def test_a_character_without_a_glyph_is_named_and_drawn_as_a_box():
    assert font.missing("Hi 漢 ü\u0327x") == {"漢", "\u0327"}   # a mark the font cannot place
    assert not font.has_glyph("漢")
    box, question = font.glyph("漢"), font.glyph("?")
    assert box.tobytes() != question.tobytes()
    assert len(_ink(box)) > len(_ink(question))


def test_dot_below_counts_as_a_descender():
    assert font.has_descender("Lượt") and font.has_descender("Ạ")
    assert not font.has_descender("Ấ") and not font.has_descender("Ärger".replace("g", "b"))


def _po_strings(path: pathlib.Path):
    """(line, text) of every msgctxt, msgid and msgstr of a gettext catalog."""
    current, start = None, 0
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = line.strip()
        if line.startswith("msg"):
            if current is not None:
                yield start, current
            current, start = ast.literal_eval(line.split(None, 1)[1]), n
        elif line.startswith('"') and current is not None:
            current += ast.literal_eval(line)
        elif not line or line.startswith("#"):
            if current is not None:
                yield start, current
            current = None
    if current is not None:
        yield start, current


CATALOGS = sorted(p for pattern in ("*.po", "*.pot") for p in (ROOT / "pitable").rglob(pattern))


@pytest.mark.parametrize("path", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_character_of_every_catalog_has_a_glyph(path):
    texts = list(_po_strings(path))
    assert texts
    gaps = {(line, ch) for line, text in texts for ch in font.missing(text.replace("\n", ""))}
    assert not gaps, f"{path.name}: no glyph for " + ", ".join(f"{ch!r} (line {n})" for n, ch in sorted(gaps))


def test_the_catalog_reader_finds_the_strings(tmp_path):
    # the test above is only as good as its reader: msgid, msgstr, plural forms, continued lines
    po = tmp_path / "de.po"
    po.write_text('# c\nmsgid ""\nmsgstr ""\n"Language: de\\n"\n\nmsgid "Bid"\nmsgstr "Bieten"\n\n'
                  'msgid "one"\nmsgid_plural "many"\nmsgstr[0] "ein"\nmsgstr[1] "viele "\n"\u201eK\u00e4fer\u201c"\n'
                  'msgctxt "kind"\nmsgid "corn"\nmsgstr ""\n"ng\u00f4"\n',
                  encoding="utf-8")
    texts = [t for _, t in _po_strings(po)]
    assert "Bieten" in texts and "viele \u201eK\u00e4fer\u201c" in texts and "many" in texts
    assert "kind" in texts and "ng\u00f4" in texts
    assert font.missing("".join(texts).replace("\n", "")) == set()
    po.write_text('msgid "x"\nmsgstr "\u6f22"\n', encoding="utf-8")
    assert {ch for _, t in _po_strings(po) for ch in font.missing(t)} == {"\u6f22"}


def test_importing_the_font_builds_no_glyph():
    # start-up on a Pi Zero: glyphs are composed on first use, not at import
    code = ("import pitable.screens.font as f; "
            "print(f._compose.cache_info().currsize, f._shape.cache_info().currsize, f.glyph.cache_info().currsize)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "0", "0"]
