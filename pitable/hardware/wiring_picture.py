"""``pitable wiring --picture``: the 40-pin header seen from above, and every wire.

One layout (:func:`layout`) turns a :class:`~pitable.hardware.wiring.Wiring` into a list
of shapes; two small back ends draw the same list as PNG (Pillow) or SVG (text, no
dependency). The layout never measures a font (it estimates text widths), so the SVG
is the same on every machine and the README's pictures can be checked by a test.

The picture, top to bottom: the board's edge; the header as the ``pinout`` command
shows it (even pins along the edge, pin 1 at the bottom left, drawn square); each pin
coloured by role, its number large, what it is for and its GPIO small; the wires, routed
in lanes, an LED's resistor on its wire at the Pi (on the hub); then the display and the
pads: for direct wiring each pad's keys
``1 2 3 4 5 6 A X`` with the key wires in the seat's colour; for a matrix the grid of
rows (seats) and columns (keys) with a key and a diode at every crossing, the diode's
band towards the row. A legend and notes close it.
"""

from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path

from pitable.hardware.wiring import KEY_NAMES, RESISTOR, PinUse, Wiring

__all__ = ["layout", "to_svg", "to_png", "ROLE_COLOURS"]

ROLE_COLOURS = {
    "key": "#1f6fb4", "row": "#d9660b", "column": "#138a72", "led": "#b8860b",
    "buzzer": "#8c564b", "display": "#7b3fbf", "power": "#d62728", "ground": "#222222",
}
SEAT_COLOURS = ("#1f6fb4", "#2e9b2e", "#c2185b", "#6d4c9f", "#00838f", "#795548")
UNUSED = "#ececec"
INK = "#1a1a1a"
GREY = "#777777"
BOARD = "#e3f0df"
BOARD_EDGE = "#2f6b2f"
FONT = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif"


# ---------------------------------------------------------------- shapes

@dataclass
class Drawing:
    width: int
    height: int
    shapes: list = field(default_factory=list)

    def rect(self, x0, y0, x1, y1, fill=None, outline=None, width=1, radius=0):
        self.shapes.append(("rect", (x0, y0, x1, y1), fill, outline, width, radius))

    def line(self, points, colour=INK, width=2):
        self.shapes.append(("line", tuple(points), colour, width))

    def circle(self, cx, cy, r, fill=None, outline=None, width=1):
        self.shapes.append(("circle", (cx, cy, r), fill, outline, width))

    def polygon(self, points, fill, outline=None):
        self.shapes.append(("polygon", tuple(points), fill, outline))

    def text(self, x, y, text, size=14, colour=INK, anchor="l", bold=False):
        """``y`` is the text's vertical middle; ``anchor`` l, m or r."""
        self.shapes.append(("text", (x, y), str(text), size, colour, anchor, bold))


def text_width(text: str, size: int, bold: bool = False) -> float:
    """An estimate (DejaVu Sans is about 0.6 em a character), so layout needs no font."""
    return len(text) * size * (0.64 if bold else 0.6)


# ---------------------------------------------------------------- layout

PITCH = 66          # header pin pitch in the picture
BOX_W, BOX_H = 60, 60
MARGIN = 40
TRACK = 10          # distance between wire lanes


def _pin_xy(board: int, x0: int, top_y: int) -> tuple[int, int]:
    """Box centre of a physical pin: pinout's view, even pins along the board's edge (top)."""
    column = (board - 1) // 2
    row_top = board % 2 == 0
    return x0 + column * PITCH, top_y + (0 if row_top else BOX_H + 10)


@dataclass
class _Wire:
    board: int
    exit_x: int
    end_x: int
    end_y: int
    colour: str
    tail: tuple = ()       # points after (end_x, end_y)
    track: int = 0


def _order_tracks(wires: list[_Wire], tries: int = 12) -> None:
    """Give each wire a lane so that few wires cross and none runs on top of another.

    With lane a above lane b, b's drop from its pin crosses a's lane when it passes
    inside a's span, and a's drop to its end crosses b's lane likewise; if a's end is
    right under b's pin, their drops would share a stretch (never allowed). Each wire
    in turn moves to the place in the order that costs least, until none moves, from a
    sorted start and a few shuffled ones (seeded: the same picture every time)."""
    import random

    n = len(wires)

    def span(w):
        return min(w.exit_x, w.end_x), max(w.exit_x, w.end_x)

    def cost(a, b):   # a's lane above b's
        alo, ahi = span(a)
        blo, bhi = span(b)
        overlap = 1000 if abs(a.end_x - b.exit_x) < 8 else 0
        return int(alo < b.exit_x < ahi) + int(blo < a.end_x < bhi) + overlap

    c = [[cost(a, b) if a is not b else 0 for b in wires] for a in wires]

    def total(order):
        return sum(c[a][b] for i, a in enumerate(order) for b in order[i + 1:])

    def sift(order):
        moved = True
        while moved:
            moved = False
            for w in list(order):
                rest = [x for x in order if x != w]
                here = order.index(w)
                above, below = 0, sum(c[w][x] for x in rest)
                best_j, best = here, None
                for j in range(n):
                    cost_j = above + below
                    if j == here:
                        now = cost_j
                    if best is None or cost_j < best:
                        best_j, best = j, cost_j
                    if j < n - 1:
                        above += c[rest[j]][w]
                        below -= c[w][rest[j]]
                if best < now:
                    order[:] = rest[:best_j] + [w] + rest[best_j:]
                    moved = True
        return order

    rng = random.Random(0)
    start = sorted(range(n), key=lambda i: (wires[i].end_x > wires[i].exit_x,
                                            abs(wires[i].end_x - wires[i].exit_x)))
    best = sift(start)
    best_cost = total(best)
    for _ in range(tries):
        order = list(range(n))
        rng.shuffle(order)
        order = sift(order)
        cost_now = total(order)
        if cost_now < best_cost:
            best, best_cost = order, cost_now
    for track, i in enumerate(best):
        wires[i].track = track


def layout(wiring: Wiring, title: str = "") -> Drawing:
    uses = {u.board: u for u in wiring.uses}
    header_w = 19 * PITCH
    devices, dev_w, dev_h, ends = _devices(wiring)
    width = int(max(header_w + 2 * MARGIN + 2 * BOX_W + 80, dev_w + 2 * MARGIN))
    hx0 = (width - header_w) // 2          # x of pins 1 and 2
    dev_x = (width - dev_w) // 2
    edge_y = 132
    top_y = edge_y + 18 + BOX_H // 2       # centre of the edge row
    hub = bool(wiring.hub)
    # with a hub, its resistors and the pull-ups' 3V3 rail sit between the header and the lanes
    exit_y = top_y + BOX_H + 10 + BOX_H // 2 + (74 if hub else 34)
    rail_y = exit_y + 8
    track_y0 = exit_y + (28 if hub else 14)
    dev_y = track_y0 + len(ends) * TRACK + 24
    wires = []
    for board, (end_x, end_y, tail, colour) in ends.items():
        x, y = _pin_xy(board, hx0, top_y)
        exit_x = x if board % 2 else x + PITCH // 2
        wires.append(_Wire(board, exit_x, dev_x + end_x, dev_y + end_y, colour,
                           tuple((dev_x + tx, dev_y + ty) for tx, ty in tail)))
    _order_tracks(wires)
    legend_y = dev_y + dev_h + 30
    notes = _notes(wiring, width - 2 * MARGIN)
    legend = _legend_rows(wiring, width - 2 * MARGIN)
    height = legend_y + 30 * len(legend) + 10 + 24 * len(notes) + MARGIN
    d = Drawing(width, height)
    d.rect(0, 0, width, height, fill="#ffffff")
    # title
    d.text(MARGIN, 34, "pitable wiring" + (f": {title}" if title else ""), 26, INK, bold=True)
    seats = f"{wiring.seats} seat" + ("s" if wiring.seats != 1 else "")
    d.text(MARGIN, 70, f"{seats}, {wiring.kind} wiring, display {wiring.display}", 18, INK)
    d.text(MARGIN, 98, "The header from above, as the `pinout` command shows it: board edge at the top, "
                       "pin 1 at the bottom left (from below, its solder pad is the square one).", 15, GREY)
    # the board and its edge
    bx0, bx1 = hx0 - BOX_W, hx0 + header_w + BOX_W
    d.rect(bx0 - 40, edge_y, bx1 + 40, top_y + BOX_H + 10 + BOX_H // 2 + 20, fill=BOARD)
    d.line([(bx0 - 40, edge_y), (bx1 + 40, edge_y)], BOARD_EDGE, 5)
    d.text(bx1 + 36, edge_y - 12, "board edge", 14, BOARD_EDGE, "r", bold=True)
    d.text(bx0 - 34, edge_y - 12, "Raspberry Pi, seen from above", 14, BOARD_EDGE, bold=True)
    d.rect(hx0 - BOX_W // 2 - 8, top_y - BOX_H // 2 - 6, hx0 + header_w + BOX_W // 2 + 8,
           top_y + BOX_H + 10 + BOX_H // 2 + 6, fill="#202020", radius=6)
    # wires first, so pins and devices are drawn over their ends
    for w in wires:
        x, y = _pin_xy(w.board, hx0, top_y)
        ty = track_y0 + w.track * TRACK
        if w.board % 2 == 0:     # edge row: down between the inner row's pins
            pts = [(x, y + BOX_H // 2), (x, y + BOX_H // 2 + 5), (w.exit_x, y + BOX_H // 2 + 5)]
        else:
            pts = [(x, y + BOX_H // 2)]
        pts += [(w.exit_x, ty), (w.end_x, ty), (w.end_x, w.end_y)] + list(w.tail)
        d.line(pts, w.colour, 3)
        line = wiring.line_of(w.board)
        if line is not None and line.series:   # right at its header pin, on the hub
            ry = exit_y - 48
            d.rect(w.exit_x - 6, ry, w.exit_x + 6, ry + 22, fill="#ffffff", outline=INK, width=2)
        elif line is None and uses[w.board].role == "led":   # its resistor sits at the Pi, on the hub
            ry = exit_y - 12
            d.rect(w.exit_x - 6, ry, w.exit_x + 6, ry + 22, fill="#ffffff", outline=INK, width=2)
    pulled = [w for w in wires if (wiring.line_of(w.board) or None) and wiring.line_of(w.board).pull_up]
    rail = next((w for w in wires if uses[w.board].role == "power"), None)
    if pulled and rail is not None:
        # the pull-ups, after the series resistors, each to the 3V3 rail from pin 1
        xs = [w.exit_x + 12 for w in pulled] + [rail.exit_x]
        d.line([(min(xs), rail_y), (max(xs), rail_y)], ROLE_COLOURS["power"], 3)
        d.circle(rail.exit_x, rail_y, 4, fill=ROLE_COLOURS["power"])
        for w in pulled:
            tap = exit_y - 20
            x = w.exit_x + 12
            d.circle(w.exit_x, tap, 3.5, fill=INK)
            d.line([(w.exit_x, tap), (x, tap), (x, rail_y)], ROLE_COLOURS["power"], 2)
            d.rect(x - 4, tap + 3, x + 4, rail_y - 3, fill="#ffffff", outline=ROLE_COLOURS["power"], width=2)
    reserved = dict(wiring.reserved)
    for board in range(1, 41):
        _pin(d, board, uses.get(board), *_pin_xy(board, hx0, top_y), reserved)
    for dx, draw in devices:
        draw(d, dev_x + dx, dev_y)
    _legend(d, wiring, legend_y, legend, notes)
    return d


def _pin(d: Drawing, board: int, use: PinUse | None, x: int, y: int, reserved: dict) -> None:
    from pitable.hardware.header import HEADER

    bcm, name = HEADER[board]
    x0, y0, x1, y1 = x - BOX_W // 2, y - BOX_H // 2, x + BOX_W // 2, y + BOX_H // 2
    radius = 0 if board == 1 else 8     # pin 1 has the square pad
    if use is None and bcm in reserved:    # a bus pin the display leaves unwired: not free
        d.rect(x0, y0, x1, y1, fill=UNUSED, outline=ROLE_COLOURS["display"], width=3, radius=radius)
        d.text(x, y - 12, board, 20, GREY, "m", bold=True)
        d.text(x, y + 8, "(SPI)", 12, ROLE_COLOURS["display"], "m", bold=True)
        d.text(x, y + 22, f"GPIO{bcm}", 11, GREY, "m")
        return
    if use is None:
        d.rect(x0, y0, x1, y1, fill=UNUSED, outline="#bbbbbb", radius=radius)
        d.text(x, y - 10, board, 20, GREY, "m", bold=True)
        label = f"GPIO{bcm}" if bcm is not None else name
        d.text(x, y + 16, label, 11, "#d62728" if name == "5V" else GREY, "m", bold=name == "5V")
        return
    colour = _pin_colour(use)
    d.rect(x0, y0, x1, y1, fill=colour, outline="#ffffff", width=2, radius=radius)
    # the pin's number large (it is what the maker counts on the header), its use small
    d.text(x, y - 13, board, 20, "#ffffff", "m", bold=True)
    size = 13 if text_width(use.short, 13, True) <= BOX_W - 6 else 11
    d.text(x, y + 7, use.short, size, "#ffffff", "m", bold=True)
    if use.role == "key":
        detail = f"seat {use.seat + 1}"
    elif use.bcm is None and use.seat is not None:
        detail = f"pad {use.seat + 1}"
    else:
        detail = f"GPIO{use.bcm}" if use.bcm is not None else name
    d.text(x, y + 21, detail, 11, "#ffffff", "m")


def _pin_colour(use: PinUse) -> str:
    """The role's colour; a direct pad's keys take their seat's colour (the legend says so)."""
    if use.role == "key":
        return SEAT_COLOURS[use.seat % len(SEAT_COLOURS)]
    return ROLE_COLOURS[use.role]


# ---------------------------------------------------------------- devices

def _devices(w: Wiring):
    """The display and the pads side by side: [(x offset, drawer)], their width and
    height, and each pin's wire end: board -> (x, y, tail points, colour), relative to
    the devices' top left corner."""
    found = []
    if w.display_kind:
        found.append(_display(w))
    if w.kind == "direct":
        found += [_direct_pad(w, s) for s in range(w.seats)]
    elif w.kind == "matrix":
        found.append(_matrix(w))
    parts, ends, x, height = [], {}, 0, 0
    for draw, dw, dh, dends in found:
        parts.append((x, draw))
        for board, (ex, ey, tail, colour) in dends.items():
            ends[board] = (x + ex, ey, tuple((x + tx, ty) for tx, ty in tail), colour)
        x += dw + 40
        height = max(height, dh)
    return parts, max(0, x - 40), height, ends


def _display(w: Wiring):
    by_short = {u.short: u for u in w.uses if u.role == "display"
                or (u.role in ("power", "ground") and u.what.startswith("display"))}
    if w.display_kind == "i2c":
        terms = [("GND", "GND"), ("VCC", "3V3"), ("SCL", "SCL"), ("SDA", "SDA")]
    else:
        cs = next((s for s in ("CE0", "CE1", "CE2") if s in by_short), "CE0")
        terms = [("GND", "GND"), ("VCC", "3V3"), ("D0", "SCLK"), ("D1", "MOSI"), ("RES", "RST"),
                 ("DC", "DC"), ("CS", cs)]
    terms = [(label, by_short[key]) for label, key in terms if key in by_short]
    tw = 56
    width = max(30 + tw * len(terms), 250)
    height = 186
    ends = {}
    for i, (_label, use) in enumerate(terms):
        ends[use.board] = (20 + tw // 2 + i * tw, 0, (), ROLE_COLOURS[use.role])

    def draw(d: Drawing, ox: int, oy: int) -> None:
        d.rect(ox, oy, ox + width, oy + height, fill="#f2ecfa", outline=ROLE_COLOURS["display"],
               width=2, radius=10)
        for i, (label, use) in enumerate(terms):
            cx = ox + 20 + tw // 2 + i * tw
            d.circle(cx, oy, 7, fill="#ffffff", outline=ROLE_COLOURS[use.role], width=3)
            d.text(cx, oy + 22, label, 14, INK, "m", bold=True)
            d.text(cx, oy + 40, f"pin {use.board}", 12, GREY, "m")
        d.rect(ox + 22, oy + 58, ox + width - 22, oy + 118, fill="#101010", radius=4)
        d.text(ox + width // 2, oy + 88, "OLED", 18, "#7fd4ff", "m", bold=True)
        d.text(ox + width // 2, oy + 134, w.display.split(" ")[0].upper(), 14, INK, "m", bold=True)
        # the order above is the common one, not every module's
        d.text(ox + width // 2, oy + 156, "pin order varies by module:", 12, "#b22222", "m", bold=True)
        d.text(ox + width // 2, oy + 172, "wire by the labels on it", 12, "#b22222", "m", bold=True)
    return draw, width, height, ends


KEY = 40            # a key's square
KEY_PITCH = 50


def _direct_pad(w: Wiring, s: int):
    colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
    extras = [u for u in w.seat_pins(s) if u.role in ("led", "buzzer")]
    ground = next((u for u in w.seat_pins(s) if u.role == "ground"), None)
    width = 24 + KEY_PITCH * (len(KEY_NAMES) + len(extras)) + 70
    height = 230
    key_y = 56            # top of the keys, below the pad's title
    ends = {}
    for k in range(len(KEY_NAMES)):
        use = w.key_pins(s, k)[0]
        ends[use.board] = (24 + KEY // 2 + k * KEY_PITCH, key_y, (), colour)
    for i, use in enumerate(extras):
        ends[use.board] = (24 + KEY // 2 + (len(KEY_NAMES) + i) * KEY_PITCH, key_y - 6, (),
                           ROLE_COLOURS[use.role])

    def draw(d: Drawing, ox: int, oy: int) -> None:
        d.rect(ox, oy, ox + width, oy + height, fill=None, outline=colour, width=3, radius=12)
        d.text(ox + 14, oy + 22, f"Seat {s + 1}", 18, colour, bold=True)
        bus_y = oy + key_y + KEY + 62
        for k, name in enumerate(KEY_NAMES):
            use = w.key_pins(s, k)[0]
            x0 = ox + 24 + k * KEY_PITCH
            # the key's other leg, down the gap beside it to the ground wire (clear of its label)
            gap_x = x0 + KEY + (KEY_PITCH - KEY) // 2
            d.line([(x0 + KEY, oy + key_y + KEY // 2), (gap_x, oy + key_y + KEY // 2), (gap_x, bus_y)], INK, 2)
            d.circle(gap_x, bus_y, 3, fill=INK)
            d.rect(x0, oy + key_y, x0 + KEY, oy + key_y + KEY, fill="#ffffff", outline=INK,
                   width=2, radius=6)
            d.text(x0 + KEY // 2, oy + key_y + KEY // 2, name, 20, INK, "m", bold=True)
            d.text(x0 + KEY // 2, oy + key_y + KEY + 14, f"pin {use.board}", 12, INK, "m")
            d.text(x0 + KEY // 2, oy + key_y + KEY + 30, f"GPIO{use.bcm}", 11, GREY, "m")
        for i, use in enumerate(extras):
            cx = ox + 24 + KEY // 2 + (len(KEY_NAMES) + i) * KEY_PITCH
            c = ROLE_COLOURS[use.role]
            top = oy + key_y - 6
            d.line([(cx, top), (cx, bus_y)], INK, 2)
            d.circle(cx, bus_y, 3, fill=INK)
            if use.role == "led":   # its resistor is at the Pi, on the hub
                _diode(d, cx, top + 52, top + 70, c, led=True)
            else:
                d.circle(cx, top + 50, 15, fill="#ffffff", outline=c, width=3)
                d.text(cx, top + 50, "BZ", 12, c, "m", bold=True)
            # below the part, right of its wire: clear of the wires coming in from above
            d.text(cx + 5, oy + key_y + 80, "LED" if use.role == "led" else "buzzer", 11, c, bold=True)
            d.text(cx + 5, oy + key_y + 94, f"pin {use.board}", 11, c, bold=True)
        x_end = ox + 24 + (len(KEY_NAMES) + len(extras)) * KEY_PITCH + 20
        d.line([(ox + 24 + KEY + (KEY_PITCH - KEY) // 2, bus_y), (x_end, bus_y)], INK, 3)
        _ground(d, x_end, bus_y, f"pin {ground.board}" if ground else "GND")
        d.text(ox + 24, oy + height - 16, "each key: GPIO to the ground wire", 12, GREY)
    return draw, width, height, ends


def _ground(d: Drawing, x: int, y: int, label: str) -> None:
    d.line([(x, y), (x, y + 12)], INK, 3)
    for i, half in enumerate((12, 8, 4)):
        d.line([(x - half, y + 12 + i * 5), (x + half, y + 12 + i * 5)], INK, 2)
    d.text(x, y + 36, "GND", 12, INK, "m", bold=True)
    d.text(x, y + 50, label, 11, INK, "m")


def _diode(d: Drawing, x: int, y0: int, y1: int, colour: str, led: bool = False) -> None:
    """A diode pointing down (anode at y0, band at y1)."""
    half = 8
    d.polygon([(x - half, y0), (x + half, y0), (x, y1)], fill=colour if led else "#ffffff",
              outline=INK)
    d.line([(x - half, y1), (x + half, y1)], INK, 3)
    if led:
        for dy in (4, 12):
            d.line([(x + 10, y0 + dy), (x + 18, y0 + dy - 6)], colour, 2)


CELL_W, CELL_H = 64, 74


def _matrix(w: Wiring):
    rows = w.of_role("row")
    cols = {u.key: u for u in w.of_role("column")}
    leds = {u.seat: u for u in w.of_role("led")}
    grounds = {u.seat: u for u in w.of_role("ground") if u.seat is not None}
    n = len(rows)
    lanes_left = 14 * n + 90          # the seat labels and the rows' lanes
    grid_x0 = lanes_left
    top = 50                          # column terminals; rows start below
    caption = ("A row per seat, a column per key; a diode on every key, its band (cathode) "
               "towards the row.")
    width = grid_x0 + CELL_W * len(KEY_NAMES) + 30 + 14 * len(leds) + 150
    width = max(width, int(text_width(caption, 13, True)) + 28)
    height = top + 30 + CELL_H * n + 40
    ends = {}

    def col_x(k):
        return grid_x0 + 20 + k * CELL_W

    def row_y(s):
        return top + 30 + CELL_H * (s + 1)

    grid_x1 = col_x(len(KEY_NAMES) - 1) + 44
    for k, use in cols.items():
        ends[use.board] = (col_x(k), top, (), ROLE_COLOURS["column"])
    for u in rows:
        lane = grid_x0 - 14 * (u.seat + 1)
        ends[u.board] = (lane, top, ((lane, row_y(u.seat)), (grid_x0, row_y(u.seat))),
                         ROLE_COLOURS["row"])
    for s, u in leds.items():
        lane = grid_x1 + 20 + 14 * (n - 1 - s)
        ends[u.board] = (lane, top, ((lane, row_y(s) - 30), (grid_x1 + 20 + 14 * n + 6, row_y(s) - 30)),
                         ROLE_COLOURS["led"])

    def draw(d: Drawing, ox: int, oy: int) -> None:
        d.rect(ox, oy - 10, ox + width, oy + height, fill=None, outline="#9aa7b8", width=2, radius=12)
        for k, name in enumerate(KEY_NAMES):
            x = ox + col_x(k)
            d.line([(x, oy + top), (x, oy + row_y(n - 1) - 44)], ROLE_COLOURS["column"], 3)
            d.text(x + 6, oy + top + 14, f"col {name}", 12, ROLE_COLOURS["column"], bold=True)
            d.text(x + 6, oy + top + 28, f"pin {cols[k].board}", 11, ROLE_COLOURS["column"])
        for u in rows:
            s, y = u.seat, oy + row_y(u.seat)
            colour = SEAT_COLOURS[s % len(SEAT_COLOURS)]
            d.line([(ox + grid_x0, y), (ox + grid_x1, y)], ROLE_COLOURS["row"], 3)
            d.text(ox + 8, y - 24, f"Seat {s + 1}", 15, colour, bold=True)
            d.text(ox + 8, y - 8, f"row pin {u.board}", 11, ROLE_COLOURS["row"])
            for k, name in enumerate(KEY_NAMES):
                x = ox + col_x(k)
                kx = x + 18                     # the key and its diode hang right of the column
                d.line([(x, y - 56), (kx, y - 56), (kx, y)], INK, 2)
                d.circle(x, y - 56, 4, fill=ROLE_COLOURS["column"])
                d.rect(kx - 13, y - 66, kx + 13, y - 40, fill="#ffffff", outline=INK, width=2, radius=4)
                d.text(kx, y - 53, name, 14, INK, "m", bold=True)
                _diode(d, kx, y - 30, y - 14, INK)
                d.circle(kx, y, 4, fill=ROLE_COLOURS["row"])
            if s not in leds and s in grounds:    # the cable's ground wire, for its return path
                gx = ox + grid_x1 + 20 + 14 * n + 6 + 84
                d.line([(gx - 20, y - 30), (gx, y - 30)], INK, 2)
                _ground(d, gx, y - 30, f"pin {grounds[s].board}")
            if s in leds:
                u_led = leds[s]
                x0 = ox + grid_x1 + 20 + 14 * n + 6
                ly = y - 30
                d.line([(x0, ly), (x0 + 50, ly)], INK, 2)    # its resistor is at the Pi
                d.polygon([(x0 + 50, ly - 8), (x0 + 50, ly + 8), (x0 + 66, ly)], fill=ROLE_COLOURS["led"],
                          outline=INK)
                d.line([(x0 + 66, ly - 8), (x0 + 66, ly + 8)], INK, 3)
                d.line([(x0 + 66, ly), (x0 + 84, ly)], INK, 2)
                g = grounds.get(s)
                _ground(d, x0 + 84, ly, f"pin {g.board}" if g else "GND")
                d.text(x0, ly + 18, f"LED pin {u_led.board}", 11, ROLE_COLOURS["led"], bold=True)
        d.text(ox + 14, oy + height - 18, caption, 13, INK, bold=True)
    return draw, width, height, ends


# ---------------------------------------------------------------- legend and notes

def _notes(w: Wiring, width: float) -> list[str]:
    """The notes under the legend, as lines wrapped to the picture's width."""
    import textwrap

    out = []
    per_line = int(width // text_width("x", 14))
    for note in list(w.notes) + [f"Leave GPIO {bcm} free: {why}." for bcm, why in w.reserved]:
        out += textwrap.wrap(note, per_line, subsequent_indent="    ")
    return out


def _legend_items(w: Wiring) -> list[tuple[str, str, float]]:
    """(kind, label, width) of each legend entry, in order."""
    from pitable.hardware.wiring import ROLES

    items = []
    for role in [r for r in ROLES if any(u.role == r for u in w.uses)]:
        if role == "key":
            label = "pad key, one colour per seat"
            items.append((role, label, 12 * (w.seats - 1) + 28 + text_width(label, 14) + 30))
        else:
            items.append((role, ROLES[role], 28 + text_width(ROLES[role], 14) + 30))
    if w.hub:
        values = sorted({h.series for h in w.hub if h.series}, key=lambda v: (len(v), v))
        label = "series resistor at the pin, on the hub (" + ", ".join(values) + ")"
        items.append(("resistor", label, 28 + text_width(label, 14) + 30))
        if any(h.pull_up for h in w.hub):
            from pitable.hardware.wiring import PULL_UP

            label = f"{PULL_UP} pull-up to the 3V3 rail (pin 1), on the hub"
            items.append(("pull-up", label, 28 + text_width(label, 14) + 30))
    elif any(u.role == "led" for u in w.uses):
        label = f"{RESISTOR} for an LED, on the hub at the Pi"
        items.append(("resistor", label, 28 + text_width(label, 14) + 30))
    label = "free (5V in red: never to a GPIO)"
    items.append(("free", label, 28 + text_width(label, 14)))
    return items


def _legend_rows(w: Wiring, width: float) -> list[list[tuple[str, str, float]]]:
    """The legend's entries, in rows that fit ``width``."""
    rows: list[list] = [[]]
    used = 0.0
    for item in _legend_items(w):
        if rows[-1] and used + item[2] > width:
            rows.append([])
            used = 0.0
        rows[-1].append(item)
        used += item[2]
    return rows


def _legend(d: Drawing, w: Wiring, y: int, rows: list, notes: list[str]) -> None:
    for row in rows:
        x = MARGIN
        for kind, label, item_w in row:
            if kind == "key":
                for s in range(w.seats):
                    d.rect(x + 12 * s, y - 10, x + 12 * s + 20, y + 10,
                           fill=SEAT_COLOURS[s % len(SEAT_COLOURS)], outline="#ffffff", radius=4)
                d.text(x + 12 * (w.seats - 1) + 28, y, label, 14, INK)
            elif kind == "resistor":
                d.rect(x + 4, y - 11, x + 16, y + 11, fill="#ffffff", outline=INK, width=2)
                d.text(x + 28, y, label, 14, INK)
            elif kind == "pull-up":
                d.rect(x + 6, y - 9, x + 14, y + 9, fill="#ffffff", outline=ROLE_COLOURS["power"], width=2)
                d.text(x + 28, y, label, 14, INK)
            elif kind == "free":
                d.rect(x, y - 10, x + 20, y + 10, fill=UNUSED, outline="#bbbbbb", radius=4)
                d.text(x + 28, y, label, 14, INK)
            else:
                d.rect(x, y - 10, x + 20, y + 10, fill=ROLE_COLOURS[kind], radius=4)
                d.text(x + 28, y, label, 14, INK)
            x += int(item_w)
        y += 30
    for i, note in enumerate(notes):
        d.text(MARGIN, y + 6 + 24 * i, note, 14, INK)


# ---------------------------------------------------------------- back ends

def to_svg(d: Drawing) -> str:
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{d.width}" height="{d.height}" '
           f'viewBox="0 0 {d.width} {d.height}" font-family="{FONT}">']
    for shape in d.shapes:
        kind = shape[0]
        if kind == "rect":
            (x0, y0, x1, y1), fill, outline, width, radius = shape[1:]
            attrs = f'x="{x0}" y="{y0}" width="{x1 - x0}" height="{y1 - y0}"'
            if radius:
                attrs += f' rx="{radius}"'
            out.append(f"<rect {attrs} {_paint(fill, outline, width)}/>")
        elif kind == "line":
            points, colour, width = shape[1:]
            pts = " ".join(f"{x},{y}" for x, y in points)
            out.append(f'<polyline points="{pts}" fill="none" stroke="{colour}" stroke-width="{width}" '
                       'stroke-linejoin="round" stroke-linecap="round"/>')
        elif kind == "circle":
            (cx, cy, r), fill, outline, width = shape[1:]
            out.append(f'<circle cx="{cx}" cy="{cy}" r="{r}" {_paint(fill, outline, width)}/>')
        elif kind == "polygon":
            points, fill, outline = shape[1:]
            pts = " ".join(f"{x},{y}" for x, y in points)
            out.append(f'<polygon points="{pts}" {_paint(fill, outline, 2)} stroke-linejoin="round"/>')
        elif kind == "text":
            (x, y), text, size, colour, anchor, bold = shape[1:]
            a = {"l": "start", "m": "middle", "r": "end"}[anchor]
            weight = ' font-weight="bold"' if bold else ""
            out.append(f'<text x="{x}" y="{y}" font-size="{size}" fill="{colour}" text-anchor="{a}" '
                       f'dominant-baseline="central"{weight}>{html.escape(text)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _paint(fill, outline, width) -> str:
    return (f'fill="{fill or "none"}"' + (f' stroke="{outline}" stroke-width="{width}"' if outline else ""))


_FONTS: dict = {}
_FONT_FILES = {False: ("DejaVuSans.ttf", "LiberationSans-Regular.ttf", "Arial.ttf"),
               True: ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "Arial Bold.ttf")}
_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
              "/usr/share/fonts/TTF", "/Library/Fonts", "C:/Windows/Fonts")


def _font(size: int, bold: bool):
    from PIL import ImageFont

    key = (size, bold)
    if key not in _FONTS:
        font = None
        for folder in _FONT_DIRS:
            for name in _FONT_FILES[bold]:
                try:
                    font = ImageFont.truetype(str(Path(folder) / name), size)
                    break
                except OSError:
                    continue
            if font is not None:
                break
        if font is None:
            try:
                font = ImageFont.load_default(size)     # Pillow >= 10.1 ships a scalable one
            except TypeError:
                font = ImageFont.load_default()
        _FONTS[key] = font
    return _FONTS[key]


def to_png(d: Drawing, scale: float = 1.0):
    from PIL import Image, ImageDraw

    def s(v):
        return int(round(v * scale))

    image = Image.new("RGB", (s(d.width), s(d.height)), "#ffffff")
    draw = ImageDraw.Draw(image)
    for shape in d.shapes:
        kind = shape[0]
        if kind == "rect":
            (x0, y0, x1, y1), fill, outline, width, radius = shape[1:]
            box = (s(x0), s(y0), s(x1), s(y1))
            w = max(1, s(width)) if outline else 0
            if radius:
                draw.rounded_rectangle(box, s(radius), fill=fill, outline=outline, width=w)
            else:
                draw.rectangle(box, fill=fill, outline=outline, width=w)
        elif kind == "line":
            points, colour, width = shape[1:]
            pts = [(s(x), s(y)) for x, y in points]
            draw.line(pts, fill=colour, width=max(1, s(width)), joint="curve")
        elif kind == "circle":
            (cx, cy, r), fill, outline, width = shape[1:]
            draw.ellipse((s(cx - r), s(cy - r), s(cx + r), s(cy + r)), fill=fill, outline=outline,
                         width=max(1, s(width)) if outline else 0)
        elif kind == "polygon":
            points, fill, outline = shape[1:]
            draw.polygon([(s(x), s(y)) for x, y in points], fill=fill, outline=outline)
        elif kind == "text":
            (x, y), text, size, colour, anchor, bold = shape[1:]
            font = _font(s(size), bold)
            try:
                draw.text((s(x), s(y)), text, fill=colour, font=font, anchor=anchor + "m")
            except (ValueError, TypeError):     # a bitmap font has no anchors
                draw.text((s(x), s(y) - 5), text, fill=colour, font=font)
    return image
