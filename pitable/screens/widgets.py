"""Drawing helpers shared by all screens: a canvas, fitted and wrapped text, key labels,
seat boxes, the toast overlay and the generic ``Message`` screen.

Coordinates are in pixels of the frame (0..127, 0..63). Ink is 1 (lit), paper 0.
Nothing here knows about a game.
"""

from __future__ import annotations

import functools

from collections.abc import Collection, Iterable, Sequence
from typing import TYPE_CHECKING, NamedTuple

from PIL import Image, ImageChops, ImageDraw

from pitable.i18n import ASSISTANT_SEAT, catalog, msg
from pitable.screens import font, icons
from pitable.screens.frame import HEIGHT, WIDTH  # the one frame size

W, H = WIDTH, HEIGHT  # the drawers' names for it

if TYPE_CHECKING:
    from pitable.screens.views import Message

overhang = getattr(font, "overhang", lambda s, scale=1: 0)  # ink above the capitals (marks on capitals)
LINE = font.HEIGHT            # line pitch of small text: 9 px (7 above the baseline, 2 below)
ELLIPSIS = font.ELLIPSIS


class Canvas:
    """A frame to draw on: an image plus an origin, so a test can draw a frame inside a
    bigger image and see whether anything lands outside it. Every drawing call checks
    its box; ``overflows`` lists the ones that left the frame, ``drawn`` every text and
    picture with its ink box (a test checks they do not overlap), ``cuts`` every text
    cut short (an ellipsis, a word broken across rows).

    ``say(msg)`` makes the words of a message in the canvas's language."""

    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0), size: tuple[int, int] | None = None,
                 lang: str = "en") -> None:
        self.image = image
        self.ox, self.oy = origin
        self.w, self.h = size or image.size
        self.draw = ImageDraw.Draw(image)
        self.overflows: list[tuple[str, tuple[int, int, int, int]]] = []
        self.drawn: list[tuple[str, tuple[int, int, int, int]]] = []
        self.cuts: list[str] = []
        self.blocks: list[list[str]] = []   # the rows of every wrapped paragraph (a test checks where rows end)
        self.lang = lang
        self.say = catalog(lang).glued  # a row never ends inside "2 corn" or "châu chấu"

    def _check(self, what: str, x0: int, y0: int, x1: int, y1: int) -> None:
        """(x1, y1) inclusive."""
        if x0 < 0 or y0 < 0 or x1 >= self.w or y1 >= self.h:
            self.overflows.append((what, (x0, y0, x1, y1)))

    def paste(self, mask: Image.Image, x: int, y: int, fill: int = 1, what: str = "image") -> None:
        """Paint ``fill`` through ``mask`` (a mode "1" image) with its top left at (x, y)."""
        bbox = mask.getbbox()
        if bbox:
            box = (x + bbox[0], y + bbox[1], x + bbox[2] - 1, y + bbox[3] - 1)
            self._check(what, *box)
            self.drawn.append((what, box))
        self.image.paste(fill, (x + self.ox, y + self.oy), mask)

    def rect(self, x0: int, y0: int, x1: int, y1: int, fill: int | None = None, outline: int | None = None,
             radius: int = 0) -> None:
        self._check("rect", x0, y0, x1, y1)
        box = (x0 + self.ox, y0 + self.oy, x1 + self.ox, y1 + self.oy)
        if radius:
            self.draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline)

    def line(self, x0: int, y0: int, x1: int, y1: int, fill: int = 1, width: int = 1) -> None:
        self._check("line", min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        self.draw.line((x0 + self.ox, y0 + self.oy, x1 + self.ox, y1 + self.oy), fill=fill, width=width)

    def clear(self, x0: int, y0: int, x1: int, y1: int) -> None:
        self.rect(x0, y0, x1, y1, fill=0)

    def dim(self, x0: int = 0, y0: int = 0, x1: int | None = None, y1: int | None = None) -> None:
        """Turn off every other pixel (a checkerboard) of the frame, or of the box
        x0..x1, y0..y1 (inclusive): greys it out."""
        x1 = self.w - 1 if x1 is None else x1
        y1 = self.h - 1 if y1 is None else y1
        self._check("dim", x0, y0, x1, y1)
        box = (self.ox + x0, self.oy + y0, self.ox + x1 + 1, self.oy + y1 + 1)
        part = self.image.crop(box)
        dots = icons.checker(self.w, self.h).crop((x0, y0, x1 + 1, y1 + 1))
        self.image.paste(ImageChops.logical_and(part, dots), box[:2])

    # -- text -----------------------------------------------------------------------------

    def text(self, x: int, y: int, s: str, scale: int = 1, fill: int = 1, align: str = "left") -> int:
        """Draw ``s`` with the top of its capitals at ``y``. ``align``: "left" (x is the
        left edge), "center" (x is the middle), "right" (x is the right edge, inclusive).
        Marks above capitals (and stacked marks) are drawn above ``y``: from
        ``y - font.overhang(s, scale)``. Returns the width drawn."""
        if not s:
            return 0
        if ELLIPSIS in s:
            self.cuts.append(s)
        w = font.text_width(s, scale)
        if align == "center":
            x -= w // 2
        elif align == "right":
            x -= w - 1
        top = font.overhang(s, scale)
        self.paste(font.text_image(s, scale), x, y - top, fill, what=f"text {s!r}")
        return w

    def text_fit(self, x: int, y: int, width: int, s: str, scales: Sequence[int] = (2, 1), fill: int = 1,
                 align: str = "left") -> int:
        """Draw ``s`` at the largest of ``scales`` that fits ``width``; at the smallest
        it is cut short with an ellipsis. ``x`` as in ``text`` for ``align``. Returns the scale."""
        scale = fit_scale(s, width, scales) or scales[-1]
        self.text(x, y, clip(s, width, scale), scale, fill, align)
        return scale

    def paragraph(self, x: int, y: int, width: int, height: int, lines: str | Iterable[str],
                  scales: Sequence[int] = (2, 1),
                  fill: int = 1, align: str = "left", indent: int = 0) -> int:
        """Draw ``lines`` wrapped to ``width`` inside ``height`` pixels (see
        ``layout_paragraph``). Returns the height used."""
        block = layout_paragraph(lines, width, height, scales, indent)
        self.block(x, y, width, block, fill, align)
        return block.height

    def block(self, x: int, y: int, width: int, block: Block, fill: int = 1, align: str = "left") -> None:
        if block.cut:
            self.cuts.append(" / ".join(r for _, r in block.rows))
        self.blocks.append([r for _, r in block.rows])
        y += block.top
        for i, (dx, row) in enumerate(block.rows):
            if align == "center":
                self.text(x + width // 2, y + i * block.pitch, row, block.scale, fill, "center")
            else:
                self.text(x + dx, y + i * block.pitch, row, block.scale, fill)


class Block(NamedTuple):
    """Laid out text: rows of (x offset, text) at ``scale``, ``pitch`` apart."""

    rows: list[tuple[int, str]]
    scale: int
    pitch: int
    height: int     # pixels from the top of the first row's ink to the last ink (descenders if any)
    cut: bool       # something did not fit and was cut short
    top: int = 0    # ink above the first row's capitals: the rows start this much lower


def line_pitch(scale: int, loose: bool = False) -> int:
    """Distance between rows. Tight: the descenders of one row end just above the
    capitals of the next; loose: one more pixel of the font (``scale`` pixels)."""
    return font.HEIGHT * scale + (scale if loose else 0)


@functools.lru_cache(maxsize=1024)
def _rows_touch(rows: tuple[tuple[int, str], ...], scale: int, pitch: int, width: int) -> bool:
    """Whether any row's ink touches (8 neighbours) the ink of the next row, ``pitch``
    apart, drawn from the left or centred in ``width``: at 2x "chọn" over "châu chấu"
    put the dot under ọ on the â ("chẩu")."""
    centred = tuple((max(0, (width - font.text_width(r, scale)) // 2) // scale, r) for _, r in rows)
    return _touch(rows, scale, pitch) or _touch(centred, scale, pitch)


def _touch(rows: tuple[tuple[int, str], ...], scale: int, pitch: int) -> bool:
    from PIL import ImageFilter

    for (dx_a, a), (dx_b, b) in zip(rows, rows[1:]):
        ia, ib = font.text_image(a, scale), font.text_image(b, scale)
        top_a, top_b = font.overhang(a, scale), font.overhang(b, scale)
        w = max(dx_a * scale + ia.width, dx_b * scale + ib.width) + 2
        h = top_a + pitch + ib.height + 2
        la, lb = Image.new("L", (w, h)), Image.new("L", (w, h))
        la.paste(255, (dx_a * scale + 1, 1), ia)
        lb.paste(255, (dx_b * scale + 1, 1 + top_a + pitch - top_b), ib)
        grown = la.filter(ImageFilter.MaxFilter(3))
        if ImageChops.multiply(grown, lb).getbbox():
            return True
    return False


def fit_scale(s: str, width: int, scales: Sequence[int] = (3, 2, 1)) -> int | None:
    """The largest scale of ``scales`` at which ``s`` fits ``width`` pixels, or None."""
    for scale in scales:
        if font.text_width(s, scale) <= width:
            return scale
    return None


def clip(s: str, width: int, scale: int = 1) -> str:
    """``s``, or as much of it as fits ``width`` followed by an ellipsis."""
    if font.text_width(s, scale) <= width:
        return s
    while s and font.text_width(s.rstrip() + ELLIPSIS, scale) > width:
        s = s[:-1]
    return s.rstrip() + ELLIPSIS if s else ""


BROKEN = "\u00ad"  # marks a row that ends inside a word too long for a row (a cut; never shown)


def wrap(s: str, width: int, scale: int = 1, indent: int = 0) -> list[tuple[int, str]]:
    """Greedy word wrap to ``width`` pixels, rows after the first ``indent`` narrower:
    [(x offset, text), ...]. A word longer than a row is broken (its rows are marked
    ``BROKEN`` so a layout can refuse them)."""
    rows: list[str] = []
    cur = ""

    def room() -> int:
        return width - (indent if rows else 0)

    for word in s.split(" "):  # spaces only: a no-break space holds its words together
        if not word:
            continue
        cand = f"{cur} {word}" if cur else word
        if font.text_width(cand, scale) <= room():
            cur = cand
            continue
        if cur:
            rows.append(cur)
        while font.text_width(word, scale) > room():
            n = len(word)
            while n > 1 and font.text_width(word[:n], scale) > room():
                n -= 1
            rows.append(word[:n] + BROKEN)
            word = word[n:]
        cur = word
    if cur or not rows:
        rows.append(cur)
    return [(0 if i == 0 else indent, r) for i, r in enumerate(rows)]


def layout_paragraph(lines: str | Iterable[str], width: int, height: int, scales: Sequence[int] = (2, 1),
                     indent: int = 0) -> Block:
    """``lines`` wrapped at the largest scale of ``scales`` where all of them fit
    ``height`` (small text loosely spaced if there is room); a line's continued rows
    are indented by ``indent``. At the smallest scale, rows that do not fit are dropped
    and the last kept one ends with an ellipsis (``cut``)."""
    if isinstance(lines, str):
        lines = (lines,)
    rows: list[tuple[int, str]] = []
    for scale in scales:
        rows = [r for line in lines for r in wrap(line, width, scale, indent)]
        broken = any(r.endswith(BROKEN) for _, r in rows)
        if broken and scale != scales[-1]:
            continue  # a smaller scale may keep every word whole
        rows = [(dx, r.rstrip(BROKEN)) for dx, r in rows]
        top, extra = _overhangs(rows, scale)
        for loose in (True, False):
            pitch = line_pitch(scale, loose) + extra
            if scale > 1 and not loose and _rows_touch(tuple(rows), scale, pitch, width):
                continue  # big rows whose descenders or dots below run into the marks of the next
            h = top + rows_height([r for _, r in rows], scale, pitch)
            if h <= height:
                return Block(rows, scale, pitch, h, broken, top)
    top, extra = _overhangs(rows, scale)
    pitch = line_pitch(scale) + extra
    cut = False
    while len(rows) > 1 and top + rows_height([r for _, r in rows], scale, pitch) > height:
        rows.pop()
        cut = True
    if cut:
        dx, last = rows[-1]
        rows[-1] = (dx, clip(last + ELLIPSIS, width - dx, scale))
    return Block(rows, scale, pitch, top + rows_height([r for _, r in rows], scale, pitch), True, top)


def _overhangs(rows: Sequence[tuple[int, str]], scale: int) -> tuple[int, int]:
    """Ink above the capitals: of the first row (room above the block), and the most of
    the others (more room between rows, so marks never touch the row above)."""
    if not rows:
        return 0, 0
    return overhang(rows[0][1], scale), max((overhang(r, scale) for _, r in rows[1:]), default=0)


def rows_height(rows: Sequence[str], scale: int, pitch: int | None = None) -> int:
    """Pixels taken by these rows of text: the last one's descenders count only if it has some."""
    if not rows:
        return 0
    last = font.HEIGHT if font.has_descender(rows[-1]) else font.ASCENT
    return (len(rows) - 1) * (pitch or line_pitch(scale)) + last * scale


# -- key labels -------------------------------------------------------------------------------

KEY_H = 9   # a key cap is 9 px tall: 7 px of text, 1 px of padding above and below


def key_width(label: str) -> int:
    return font.text_width(label) + 4


def key(c: Canvas, x: int, y: int, label: str) -> int:
    """A key cap: ``label`` cut out of a small lit box, top left at (x, y). Returns width."""
    w = key_width(label)
    c.rect(x, y, x + w - 1, y + KEY_H - 1, fill=1, radius=1)
    c.text(x + 2, y + 1, label, fill=0)
    return w


def open_key(c: Canvas, x: int, y: int, label: str) -> int:
    """A key cap drawn open: its top and sides, the label lit inside (the one key of a
    row of caps that stands out: the critter claimed so far; no bottom edge, which the
    foot of a "1" would run into). Returns width."""
    w = key_width(label)
    c.line(x + 1, y, x + w - 2, y)
    c.line(x, y + 1, x, y + KEY_H - 1)
    c.line(x + w - 1, y + 1, x + w - 1, y + KEY_H - 1)
    c.text(x + 2, y + 1, label)
    return w


def hint_width(label: str, text: str) -> int:
    return key_width(label) + 2 + font.text_width(text)


def hint(c: Canvas, x: int, y: int, label: str, text: str, align: str = "left") -> int:
    """A key cap followed by what the key does ("[A] start"). ``y`` is the cap's top."""
    w = hint_width(label, text)
    if align == "right":
        x -= w - 1
    elif align == "center":
        x -= w // 2
    kw = key(c, x, y, label)
    c.text(x + kw + 2, y + 1, text)
    return w


def hints(c: Canvas, y: int, pairs: Iterable[tuple[str, str] | None], x0: int = 0, x1: int = W - 1) -> None:
    """Key hints spread along a row: the first at the left, the last at the right."""
    shown = [p for p in pairs if p]
    if not shown:
        return
    widths = [hint_width(*p) for p in shown]
    if len(shown) == 1:
        hint(c, x1, y, *shown[0], align="right")
        return
    gap = (x1 - x0 + 1 - sum(widths)) / (len(shown) - 1)
    x = float(x0)
    for p, w in zip(shown, widths):
        hint(c, round(x), y, *p)
        x += w + gap


# -- seats -------------------------------------------------------------------------------------

def columns(n: int, x0: int = 0, x1: int = W - 1, gap: int = 2) -> list[tuple[int, int]]:
    """``n`` equal columns across x0..x1 with ``gap`` between them: [(left, right), ...]."""
    n = max(1, n)
    span = x1 - x0 + 1
    w = (span - gap * (n - 1)) // n
    left = x0 + (span - (w * n + gap * (n - 1))) // 2
    return [(left + i * (w + gap), left + i * (w + gap) + w - 1) for i in range(n)]


def seat_boxes(c: Canvas, y0: int, y1: int, seats: Iterable[int], filled: Collection[int], check: bool = False,
               x0: int = 0, x1: int = W - 1) -> None:
    """One box per seat with its number: lit when the seat is in ``filled`` (with a tick
    if ``check`` and there is room), an empty frame otherwise."""
    seats = tuple(seats)
    gap = 3 if len(seats) <= 4 else 2
    cols = columns(len(seats), x0, x1, gap)
    for seat, (a, b) in zip(seats, cols):
        # a pad's number; the assistant's seats by name ("Pi"), from the catalog
        label = str(seat) if seat <= ASSISTANT_SEAT else c.say(msg("seat", seat=seat))
        box = _seat_box(label, seat in filled, check, b - a + 1, y1 - y0 + 1)
        c._check("seat box", a, y0, b, y1)
        c.drawn.append(("seat box", (a, y0, b, y1)))
        c.image.paste(box, (a + c.ox, y0 + c.oy))


@functools.lru_cache(maxsize=256)
def _seat_box(label: str, on: bool, check: bool, w: int, h: int) -> Image.Image:
    # Drawn once per look and pasted whole: a lock-in redraws only these boxes, and
    # it is the most frequent frame of the game (the key press path).
    image = Image.new("1", (w, h))
    c = Canvas(image, size=(w, h))
    a, b, y0, y1 = 0, w - 1, 0, h - 1
    c.rect(a, y0, b, y1, fill=1 if on else 0, outline=1, radius=2)
    # big only with 2 px of air inside the frame all round: a stroke next to the frame
    # reads as a heavy border (a box that means something else) at arm's length
    scale = 2 if (y1 - y0 + 1) >= 2 * font.ASCENT + 5 and font.text_width(label, 2) <= b - a + 1 - 6 else 1
    tw, th = font.text_width(label, scale), font.ASCENT * scale
    tick = icons.mark("check")
    with_tick = on and check and tw + 3 + tick.width <= b - a - 4
    total = tw + (3 + tick.width if with_tick else 0)
    x = a + (b - a + 1 - total) // 2
    y = y0 + (y1 - y0 + 1 - th) // 2
    c.text(x, y, label, scale, fill=0 if on else 1)
    if with_tick:
        c.paste(tick, x + tw + 3, y + (th - tick.height) // 2, fill=0)
    return image


# -- frame pieces -----------------------------------------------------------------------------

def title(c: Canvas, s: str, y: int = 0, right: str | None = None) -> int:
    """A big title at the top (scale 2 if it fits, else 1), ``right`` small text at the
    right of the same row. Returns the y below it."""
    rw = font.text_width(right) + 4 if right else 0
    scale = fit_scale(s, W - rw, (2, 1))
    if scale is None:  # too long for one row: wrapped, never cut
        block = layout_paragraph((s,), W - rw, H - y, scales=(1,))
        c.block(0, y, W - rw, block)
        if right:
            c.text(W - 1, y + block.top, right, align="right")
        return y + block.height + 2
    top = max(overhang(s, scale), overhang(right) if right else 0)
    c.text(0, y + top, s, scale)
    if right:
        c.text(W - 1, y + top, right, align="right")
    return y + top + bottom(s, scale) + 2


def top_row(c: Canvas, left: str, right: str | None = None, scale: int = 1) -> int:
    """Small text at the top left and (optionally) the top right, their capitals on one
    line low enough for marks above them (``overhang``). Returns the y of the capitals."""
    y = max(overhang(left, scale), overhang(right) if right else 0)
    c.text(0, y, left, scale)
    if right:
        c.text(W - 1, y, right, align="right")
    return y


def bottom(s: str, scale: int) -> int:
    """Height of the ink of ``s`` from the top of its capitals (descenders if it has any)."""
    return (font.HEIGHT if font.has_descender(s) else font.ASCENT) * scale


def toast(c: Canvas, text: str, band: tuple[int, int] | None = None) -> None:
    """A lit box with dark text over the lower part of the frame. What is under it is
    dimmed (every other pixel), so the box reads as a notice on top of the screen.
    ``band`` (y0, y1): the box goes inside these rows instead, and nothing else is
    touched (the screen said what may be covered)."""
    block = None
    if band is not None and band[1] - band[0] >= 3 * LINE // 2:
        block = layout_paragraph(text, W - 8, band[1] - band[0] + 1 - 6, scales=(2, 1))
    if band is not None and block is not None and not block.cut:  # else over the lower part: a toast is read whole
        y0, y1 = band
        h = block.height + 6
        top = y0 + (y1 - y0 + 1 - h) // 2
        c.clear(0, y0, W - 1, y1)
        c.rect(1, top, W - 2, top + h - 1, fill=1, radius=3)
        c.block(4, top + 3, W - 8, block, fill=0, align="center")
        return
    block = layout_paragraph(text, W - 8, 3 * LINE, scales=(2, 1))
    h = block.height + 6
    y0 = H - 2 - h
    c.dim()
    c.clear(0, y0 - 2, W - 1, H - 1)
    c.rect(1, y0, W - 2, H - 2, fill=1, radius=3)
    c.block(4, y0 + 3, W - 8, block, fill=0, align="center")


def lit_footer(c: Canvas, text: str) -> None:
    """Turn the footer rows holding ``text`` (drawn there by the screen) into a lit band
    with dark letters: a toast in the footer's place, covering nothing else."""
    from PIL import ImageChops

    block = layout_paragraph((text,), W, 20, scales=(1,))
    y0 = H - block.height - 1  # a row of lit air above the letters
    box = (c.ox, c.oy + y0, c.ox + W, c.oy + H)
    c._check("toast", 0, y0, W - 1, H - 1)
    c.drawn.append(("toast band", (0, y0, W - 1, H - 1)))
    band = c.image.crop(box)
    ink = band.getbbox()
    if ink:  # the letters centred, as a toast's are: none on the glass's edge, where lit it reads cut
        letters = band.crop(ink)
        band = Image.new("1", band.size)
        band.paste(letters, ((W - letters.width) // 2, ink[1]))
    c.image.paste(ImageChops.invert(band.convert("L")).convert("1"), box[:2])


def draw_message(c: Canvas, view: Message) -> None:
    """``Message``: a title and a few lines."""
    y = title(c, c.say(view.title))
    c.paragraph(0, y + 1, W, H - y - 1, [c.say(m) for m in view.lines], scales=(2, 1))
