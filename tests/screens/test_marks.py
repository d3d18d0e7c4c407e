"""Marks that read at a glance (the native reviews: shared/reviews/*-screens.md): ữ and ỡ
are not ũ and õ with a longer tilde, hỏi beside a circumflex is not huyền, the horn is more
than one pixel, and German umlauts keep a row of air above the letter (the big font too)."""

from __future__ import annotations

import pytest

from pitable.screens import font


def ink(ch: str) -> set:
    im = font.glyph(ch)
    above = font.overhang(ch)
    return {(x, y - above) for y in range(im.height) for x in range(im.width) if im.getpixel((x, y))}


def columns(pixels: set) -> list:
    return sorted({x for x, _ in pixels})


@pytest.mark.parametrize("with_horn,plain", [("ữ", "ũ"), ("ỡ", "õ"), ("Ữ", "Ũ"), ("Ỡ", "Õ")])
def test_vi1_the_tilde_and_the_horn_have_a_clear_column_between_them(with_horn, plain):
    top = min(y for _, y in ink("u" if with_horn.islower() else "U"))
    xs = columns({p for p in ink(with_horn) if p[1] < top})  # the marks above: tilde and horn
    gaps = [b - a for a, b in zip(xs, xs[1:])]
    assert max(gaps) >= 2, (with_horn, xs)  # a blank column: two marks, not one long tilde
    assert ink(with_horn) != ink(plain)


@pytest.mark.parametrize("hook,grave", [("ể", "ề"), ("ổ", "ồ"), ("ẩ", "ầ"), ("Ể", "Ề"), ("Ổ", "Ồ"), ("Ẩ", "Ầ")])
def test_vi2_hoi_beside_a_circumflex_differs_from_huyen_by_more_than_a_pixel(hook, grave):
    assert len(ink(hook) ^ ink(grave)) >= 2  # it differed by one pixel
    assert font.overhang(hook) <= font.MAX_OVERHANG


@pytest.mark.parametrize("horned,plain", [("ư", "u"), ("ơ", "o"), ("Ư", "U"), ("Ơ", "O")])
def test_vi26_the_horn_is_more_than_one_pixel(horned, plain):
    extra = ink(horned) - ink(plain)
    assert len(extra) >= 2, horned


@pytest.mark.parametrize("ch", ["ä", "ö", "ü"])
@pytest.mark.parametrize("scale", [1, 2, 3])
def test_de24_umlaut_dots_keep_a_row_of_air_above_the_letter(ch, scale):
    im = font.text_image(ch, scale)
    rows = [any(im.getpixel((x, y)) for x in range(im.width)) for y in range(im.height)]
    first = rows.index(True)
    body = rows.index(True, first + scale)  # after the dots' rows
    assert body - first >= 2 * scale  # the dots' row and a row of air, at every scale
    assert not any(rows[first + scale:first + 2 * scale])
