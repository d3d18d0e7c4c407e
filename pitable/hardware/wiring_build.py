"""Build drawings from the wiring model: the hub from its solder side, one pad, the cables.

:func:`hub_layout` draws the hub's stripboard as the builder sees it while soldering:
turned over, so the box header is mirrored (pin 1 top right, its pad square), every
strip cut between the header's two rows, each resistor across its cut right at its pin,
the pull-ups to the 3V3 rail at the far edge, the ground bus, and where each line goes.
:func:`pad_layout` draws one pad (its keys, diodes or capacitors, LED) and its DA-15
contacts; :func:`cable_layout` the ribbon (pin 1, the key), the display's keyed lead and
one pad's cable with its contacts. All three come from the same
:class:`~pitable.hardware.wiring.Wiring` as the tables, and draw with
:mod:`pitable.hardware.wiring_picture`'s shapes and back ends.
"""

from __future__ import annotations

import math
import textwrap
from pathlib import Path

from pitable.hardware.wiring import (
    CAP, CAP_MM, KEY_NAMES, KEY_PITCH_HOLES, KEY_PITCH_MM, LID_HOLE_MM, LID_MM, PAD_BOARD_MM, PAD_BOX_MM,
    PROUD_MM, SWITCH_MM, pad_standoff_mm, PULL_UP, Wiring, five_volt_landings,
)
from pitable.hardware.wiring_picture import (
    GREY, INK, ROLE_COLOURS, SEAT_COLOURS, Drawing, _diode, _ground, layout, text_width, to_png, to_svg,
)

__all__ = ["hub_layout", "pad_layout", "cable_layout", "BUILD_PICTURES", "save_picture"]

COPPER = "#d9a066"
COPPER_EDGE = "#b07a3c"
BOARD = "#f3ead8"
CUT = "#d62728"
RAIL = ROLE_COLOURS["power"]
MARGIN = 40
H = 26                   # hole pitch in the picture
HOLES = 13               # holes on each side of the header, from the pin outwards
R_LEGS = (1, 5)          # the series resistor's legs, across the cut at hole 3
PULL_LEGS = (6, 10)      # the pull-up's legs, across the cut at hole 8
R_CUT, FAR_CUT = 3, 8
EXIT = 7                 # the line's wire leaves here
GROUND_LINK = 2          # the ground bus link is soldered here on ground strips
RAIL_LINK = 11           # the 3V3 rail link is soldered here


def _wrap(d: Drawing, x, y, text, size, width, colour=INK, bold=False, step=None) -> int:
    """Wrapped text from (x, y); returns the y after it."""
    per_line = max(10, int(width // text_width("x", size, bold)))
    step = step or int(size * 1.45)
    for line in textwrap.wrap(text, per_line):
        d.text(x, y, line, size, colour, bold=bold)
        y += step
    return y


def _title(d: Drawing, title: str, sub: str, width: int) -> int:
    d.text(MARGIN, 34, title, 24, INK, bold=True)
    return _wrap(d, MARGIN, 66, sub, 15, width - 2 * MARGIN, GREY)


def _resistor_h(d: Drawing, x0, x1, y, label, colour=INK):
    """A resistor along a strip from hole x0 to hole x1 (legs as dots), its body drawn
    just above the strip so that the cut under it stays in sight."""
    mid = (x0 + x1) / 2
    by = y - 12
    d.line([(x0, y), (x0, by), (mid - 20, by)], colour, 2)
    d.line([(mid + 20, by), (x1, by), (x1, y)], colour, 2)
    d.rect(mid - 20, by - 7, mid + 20, by + 7, fill="#ffffff", outline=colour, width=2, radius=2)
    d.text(mid, by, label, 10, colour, "m", bold=True)
    for x in (x0, x1):
        d.circle(x, y, 4, fill=colour)


def _cut(d: Drawing, x, y, size=7):
    d.line([(x - size, y - size), (x + size, y + size)], CUT, 3)
    d.line([(x - size, y + size), (x + size, y - size)], CUT, 3)


# ---------------------------------------------------------------- the hub, solder side

def hub_layout(w: Wiring, title: str = "") -> Drawing:
    uses = {u.board: u for u in w.uses}
    lines = {h.board: h for h in w.hub}
    label_w = 250
    board_w = 2 * (HOLES * H + H)
    width = board_w + 2 * label_w + 2 * MARGIN
    cx = width // 2
    sub = ("The hub's stripboard turned over, as you hold it to solder: the box header is "
           "mirrored, pin 1 at the top right (its pad is square; the box header's pin-1 triangle "
           "goes there), the odd pins on the right. "
           "Cut every strip between the header's two rows (a knife, between the holes) and at "
           "each red cross (a 3 mm drill, turned by hand). Each resistor sits across a cut right "
           "at its pin; parts are on the other side, drawn here where their legs come through.")
    y0 = 230
    top = y0 - 40
    strips_y = [y0 + i * H for i in range(20)]
    legend_y = strips_y[-1] + (130 if w.display_connector else 70)
    height = legend_y + 260
    d = Drawing(width, height)
    d.rect(0, 0, width, height, fill="#ffffff")
    _title(d, "The hub from the solder side" + (f": {title}" if title else ""), sub, width)
    bx0, bx1 = cx - board_w // 2, cx + board_w // 2
    d.rect(bx0 - 10, top, bx1 + 10, strips_y[-1] + 30, fill=BOARD, outline="#9c8a68", width=2, radius=6)
    # the box header's outline, on the other side
    d.rect(cx - H - 6, y0 - 20, cx + H + 6, strips_y[-1] + 20, fill=None, outline="#555555", width=2, radius=4)

    def hole_x(board: int, j: float) -> float:
        side = 1 if board % 2 else -1          # odd pins on the right, seen from below
        return cx + side * (H / 2 + j * H)

    for i, y in enumerate(strips_y):
        d.rect(bx0, y - 8, bx1, y + 8, fill=COPPER, outline=COPPER_EDGE, width=1)
        _cut(d, cx, y, 6)                        # between the header's rows
        for board in (2 * i + 1, 2 * i + 2):
            for j in range(HOLES + 1):
                d.circle(hole_x(board, j), y, 2.5, fill="#ffffff")
    rail_pts = {1: [], -1: []}
    ground_pts = {1: [], -1: []}
    for i, y in enumerate(strips_y):
        for board in (2 * i + 1, 2 * i + 2):
            side = 1 if board % 2 else -1
            x = hole_x(board, 0)
            u = uses.get(board)
            h = lines.get(board)
            clipped = board in w.clipped
            fill = ROLE_COLOURS.get(u.role, INK) if u else ("#ffffff" if not clipped else "#eeeeee")
            if board == 1:
                d.rect(x - 9, y - 9, x + 9, y + 9, fill=fill, outline=INK, width=2)
            else:
                d.circle(x, y, 9, fill=fill, outline=INK, width=2)
            d.text(x + side * 0, y - 0, str(board), 9, "#ffffff" if u else INK, "m", bold=True)
            tx = hole_x(board, HOLES) + side * 18
            anchor = "l" if side > 0 else "r"
            if clipped:
                supply = {2: "5 V, ", 4: "5 V, ", 17: "3V3, "}.get(board, "")
                d.text(tx, y, f"pin {board}: {supply}clipped off: nothing here", 12 if supply else 11,
                       CUT, anchor, bold=bool(supply))
                continue
            if u.role == "power":
                rail_pts[side].append((hole_x(board, RAIL_LINK), y))
                d.text(tx, y, f"pin {board}: 3V3 rail", 12, RAIL, anchor, bold=True)
                continue
            if u.role == "ground":
                _cut(d, hole_x(board, FAR_CUT), y)
                ground_pts[side].append((hole_x(board, GROUND_LINK), y))
                d.line([(hole_x(board, EXIT), y), (tx - side * 6, y)], INK, 2)
                d.circle(hole_x(board, EXIT), y, 4, fill=INK)     # the wire to the sockets: a joint
                d.text(tx, y, f"pin {board}: ground bus", 12, INK, anchor, bold=True)
                continue
            colour = ROLE_COLOURS[u.role] if u.role != "key" else SEAT_COLOURS[u.seat % len(SEAT_COLOURS)]
            if h is not None and h.series:
                _resistor_h(d, hole_x(board, R_LEGS[0]), hole_x(board, R_LEGS[1]), y - 0,
                            h.series.replace(" ohm", "R").replace(" kOhm", "k"))
                _cut(d, hole_x(board, R_CUT), y, 5)
            if h is not None and h.pull_up:
                _resistor_h(d, hole_x(board, PULL_LEGS[0]), hole_x(board, PULL_LEGS[1]), y,
                            PULL_UP.replace(" kOhm", "k"), RAIL)
                rail_pts[side].append((hole_x(board, RAIL_LINK), y))
            _cut(d, hole_x(board, FAR_CUT), y, 5)
            d.circle(hole_x(board, EXIT), y, 4, fill=colour)
            d.line([(hole_x(board, EXIT), y), (hole_x(board, EXIT), y + 9),
                    (tx - side * 6, y + 9), (tx - side * 6, y)], colour, 2)
            dest = h.to if h is not None else ""
            dest = dest.replace("every pad, contact", "all pads, c.").replace(", contact", " c.")
            name = f"key {u.short}" if u.role == "key" else u.short
            d.text(tx, y, f"pin {board} {name}: {dest}", 12, colour, anchor, bold=True)
    # the rail: a red insulated link on the far side's holes, both sides joined over the top
    ry = top + 14
    ends = []
    for pts in rail_pts.values():
        if not pts:
            continue
        x = pts[0][0]
        ys = [p[1] for p in pts]
        d.line([(x, ry), (x, max(ys))], RAIL, 3)
        for px, py in pts:
            d.circle(px, py, 5, fill=RAIL)
        ends.append(x)
    if len(ends) == 2:
        d.line([(ends[0], ry), (ends[1], ry)], RAIL, 3)
    if ends:
        d.text(cx, top - 34, "3V3 rail: a red insulated link over the far holes, from pin 1 only", 13,
               RAIL, "m", bold=True)
    gy = strips_y[-1] + 22
    gends = []
    for pts in ground_pts.values():
        if not pts:
            continue
        x = pts[0][0]
        ys = [p[1] for p in pts]
        d.line([(x, min(ys)), (x, gy)], INK, 3)
        for px, py in pts:
            d.circle(px, py, 5, fill=INK)
        gends.append(x)
    if len(gends) == 2:
        d.line([(gends[0], gy), (gends[1], gy)], INK, 3)
    if gends:
        d.text(min(gends) - 8, gy + 14, "ground bus (black insulated link)", 12, INK, "r", bold=True)
    # decoupling at the start of the rail
    if ends and gends:
        x = max(ends)
        d.line([(x, ry), (x, top - 2)], RAIL, 2)
        d.line([(x - 10, top - 2), (x + 10, top - 2)], INK, 3)
        d.line([(x - 10, top - 8), (x + 10, top - 8)], INK, 3)
        d.text(x + 16, top - 6, "100 nF + 10 uF from the rail to the ground bus", 11, INK, bold=True)
    # the display's keyed connector, at the board's bottom edge on the component side
    if w.display_connector:
        n = len(w.display_connector)
        jx1 = bx1 - 20
        jx0 = jx1 - 46 * n - 8
        jy = strips_y[-1] + 64
        d.rect(jx0, jy - 14, jx1, jy + 14, fill="#f7f7f7", outline=INK, width=2, radius=3)
        for i, (pin, sig, board) in enumerate(w.display_connector):
            px = jx0 + 27 + i * 46
            col = RAIL if "VCC" in sig else (INK if sig == "GND" else ROLE_COLOURS["display"])
            d.circle(px, jy, 10, fill=col)
            d.text(px, jy, str(pin), 10, "#ffffff", "m", bold=True)
            d.text(px, jy + 24, sig.replace("VCC 3V3", "VCC"), 10, col, "m", bold=True)
            d.text(px, jy + 37, f"pin {board}", 9, GREY, "m")
        d.text(jx0 - 12, jy - 6, "display connector (JST-XH, keyed) at the board's edge:", 11, INK, "r", bold=True)
        d.text(jx0 - 12, jy + 10, "each of its pins wired from the line of the header pin under it", 11, INK, "r")
    # legend
    y = legend_y
    d.circle(MARGIN + 10, y, 6, fill=INK)
    d.text(MARGIN + 24, y, "a solder joint (a part's leg, a link's end)", 13)
    _cut(d, MARGIN + 380, y)
    d.text(MARGIN + 394, y, "cut the strip here", 13, CUT, bold=True)
    d.rect(MARGIN + 560, y - 7, MARGIN + 600, y + 7, fill="#ffffff", outline=INK, width=2)
    d.text(MARGIN + 610, y, "resistor, across its cut", 13)
    y += 30
    notes = ["Every pin this config does not use is clipped off the box header before it goes in ("
             + " ".join(map(str, w.clipped)) + "): 5 V (2, 4) and the second 3V3 (17) among them, so "
             "a solder bridge to one joins nothing. The rail takes 3V3 from pin 1 only. Hub pins "
             + ", ".join(map(str, five_volt_landings())) + " are never a ground. The ground bus "
             "link is insulated wire: it crosses hole 2 of the strips, before their resistors.",
             "Every line: header pin, then its resistor (the first thing after the pin, so a bridge "
             "beyond it harms nothing), then" + (f" (keys and columns) its {PULL_UP} pull-up to the rail, then"
                                                 if any(h.pull_up for h in w.hub) else "")
             + " its wire to the DA-15 sockets (c. = contact). Beep out every neighbour before "
             "first power: pitable wiring --checklist."]
    for n in notes:
        y = _wrap(d, MARGIN, y, n, 14, width - 2 * MARGIN) + 6
    d.height = int(y + MARGIN)
    return d


# ---------------------------------------------------------------- one pad

def _da15(d: Drawing, x, y, contacts, label_of, colour_of, title, face="wiring side of the plug"):
    """The DA-15's two rows: 1-8 over 9-15 (each between two of the top row). Both views
    drawn (a plug's solder cups, a socket's mating face) have contact 1 at the top right."""
    pitch = 44
    w = 8 * pitch + 40
    d.polygon([(x, y), (x + w, y), (x + w - 24, y + 120), (x + 24, y + 120)], fill="#e6e6e6", outline=INK)
    d.text(x + w / 2, y - 16, f"{title} ({face})", 13, INK, "m", bold=True)
    pos = {}
    for c, sig in contacts:
        if c <= 8:
            cx, cy = x + w - 20 - (c - 1) * pitch - pitch / 2, y + 34
        else:
            cx, cy = x + w - 20 - (c - 9) * pitch - pitch, y + 84
        pos[c] = (cx, cy)
        col = colour_of(c, sig)
        d.circle(cx, cy, 13, fill=col, outline=INK, width=2)
        d.text(cx, cy, str(c), 11, "#ffffff" if col not in ("#ffffff", "#eeeeee") else INK, "m", bold=True)
        d.text(cx, cy + (22 if c <= 8 else 24), label_of(c, sig), 10, INK, "m", bold=True)
    return pos, w


def _contact_colour(sig: str) -> str:
    if sig == "GND":
        return ROLE_COLOURS["ground"]
    if sig == "row":
        return ROLE_COLOURS["row"]
    if sig == "LED":
        return ROLE_COLOURS["led"]
    if sig.startswith("column"):
        return ROLE_COLOURS["column"]
    if sig.startswith("key"):
        return ROLE_COLOURS["key"]
    return "#eeeeee"


def pad_layout(w: Wiring, title: str = "") -> Drawing:
    width = 1100
    matrix = w.kind == "matrix"
    sub = ("One pad: every pad is built the same; seat 1's header pins are shown. The keys sit "
           f"in a row in the order 1 2 3 4 5 6 A X, seen from above, {KEY_PITCH_HOLES} holes "
           f"({KEY_PITCH_MM:.2f} mm) apart on a {PAD_BOARD_MM[0]} x {PAD_BOARD_MM[1]} mm stripboard; "
           "the cable's DA-15 plug is drawn from its wiring side (the solder cups). Every key line "
           "has a ground beside it on the plug.")
    d = Drawing(width, 900)
    d.rect(0, 0, width, 900, fill="#ffffff")
    y = _title(d, "One pad" + (f": {title}" if title else ""), sub, width)
    contacts = w.pad_contacts(0)
    has_led = any(sig == "LED" and use is not None for _, sig, use in contacts)
    # the keys
    ky = y + 40
    kx0 = MARGIN + 40
    pitch = 110
    bus_y = ky + 200
    d.rect(MARGIN, ky - 30, width - MARGIN, bus_y + 86, fill=None, outline=SEAT_COLOURS[0], width=3, radius=12)
    for k, name in enumerate(KEY_NAMES):
        x = kx0 + k * pitch
        sig_c = k + 1
        d.rect(x, ky, x + 50, ky + 50, fill="#ffffff", outline=INK, width=2, radius=6)
        d.text(x + 25, ky + 25, name, 22, INK, "m", bold=True)
        d.text(x + 25, ky - 14, f"contact {sig_c}", 11, ROLE_COLOURS["column" if matrix else "key"], "m", bold=True)
        # the switch's four legs: two diagonally opposite ones are wired (filled), the other
        # two are joined to them inside (hollow); the top-left leg to its contact's wire,
        # the bottom-right one down to the row or ground
        for lx, ly, used in ((x + 5, ky + 5, True), (x + 45, ky + 5, False),
                             (x + 5, ky + 45, False), (x + 45, ky + 45, True)):
            d.circle(lx, ly, 4, fill=INK if used else "#ffffff", outline=INK, width=1)
        d.line([(x + 5, ky + 1), (x + 5, ky - 4)], ROLE_COLOURS["column" if matrix else "key"], 2)
        d.line([(x + 45, ky + 49), (x + 45, ky + 56), (x + 25, ky + 56), (x + 25, ky + 80)], INK, 2)
        if matrix:
            _diode(d, x + 25, ky + 90, ky + 120, INK)
            d.text(x + 40, ky + 105, "BAT43", 10, GREY, bold=True)
            d.line([(x + 25, ky + 80), (x + 25, ky + 90)], INK, 2)
            d.line([(x + 25, ky + 120), (x + 25, bus_y)], INK, 2)
            d.circle(x + 25, bus_y, 4, fill=ROLE_COLOURS["row"])
        else:
            d.line([(x + 25, ky + 80), (x + 25, bus_y)], INK, 2)
            d.circle(x + 25, bus_y, 4, fill=INK)
            # the ESD capacitor from the key's line to ground, beside the key
            cx = x + 70
            d.line([(x + 25, ky + 65), (cx, ky + 65), (cx, ky + 100)], ROLE_COLOURS["key"], 2)
            d.line([(cx - 9, ky + 100), (cx + 9, ky + 100)], INK, 3)
            d.line([(cx - 9, ky + 106), (cx + 9, ky + 106)], INK, 3)
            d.line([(cx, ky + 106), (cx, bus_y)], INK, 2)
            d.circle(cx, bus_y, 4, fill=INK)
            d.text(cx + 4, ky + 124, CAP["key"], 10, GREY, bold=True)
    x_end = kx0 + 8 * pitch - 60
    d.line([(kx0 + 25, bus_y), (x_end + 40, bus_y)], ROLE_COLOURS["row"] if matrix else INK, 4)
    if matrix:
        d.text(x_end + 46, bus_y, "row: contact 10", 13, ROLE_COLOURS["row"], bold=True)
        d.text(kx0, bus_y + 24, "each key: its column's contact -> the key -> a BAT43 Schottky, its band "
               "(cathode) towards the row -> the row", 13, INK, bold=True)
    else:
        _ground(d, x_end + 40, bus_y, "contacts 9 11 13 15")
        d.text(kx0, bus_y + 24, f"each key: its contact -> the key -> ground; {CAP['key']} from its "
               "contact to ground beside it (a spark from a finger)", 13, INK, bold=True)
    d.text(kx0, bus_y + 46, "each switch: wire two diagonally opposite legs (filled dots); the other two "
           "are joined to them inside", 13, INK, bold=True)
    if has_led:
        d.text(kx0, bus_y + 68, "LED: contact 12 -> long leg (anode); short leg -> ground "
               "(its 330 ohm is on the hub)", 13, ROLE_COLOURS["led"], bold=True)
    # the plug
    py = bus_y + 146

    def label(c, sig):
        return sig.replace("column ", "col ").replace("spare", "-")

    pos, pw = _da15(d, MARGIN + 40, py, w.contacts, label, lambda c, sig: _contact_colour(sig),
                    "the pad's DA-15 plug")
    tx = MARGIN + 40 + pw + 30
    ty = py
    d.text(tx, ty, "Seat 1's plug, contact: signal, header pin", 13, INK, bold=True)
    ty += 22
    for c, sig, use in contacts:
        where = f"pin {use.board}" if use is not None else ("ground bus" if sig == "GND" else "free")
        if sig == "GND" and use is not None:
            where = f"ground bus (pin {use.board})"
        d.text(tx, ty, f"{c:>2}: {sig}, {where}", 12, INK)
        ty += 17
    y = max(ty, py + 150) + 16
    notes = ["Contact numbers are moulded beside the solder cups: go by them. "
             "Contacts 9, 11, 13 and 15 are all ground: bridge them in the plug, and the cable's "
             "spare cores to them too. The cable's hood clamps the cable "
             "(strain relief); a cable tie holds it where it enters the pad's box."]
    for n in notes:
        y = _wrap(d, MARGIN, y, n, 14, width - 2 * MARGIN) + 6
    y = _pad_stack(d, y + 10, width)
    d.height = int(y + MARGIN)
    return d


def _pad_stack(d: Drawing, y: float, width: int) -> float:
    """The pad's box from the side: the board hangs under the lid on standoffs, so that
    only the caps come through; every height the builder needs, worked out."""
    mm = 9                                    # picture units per millimetre
    d.text(MARGIN, y, f"The pad from the side (box about {PAD_BOX_MM[0]} x {PAD_BOX_MM[1]} x "
           f"{PAD_BOX_MM[2]} mm): the board hangs under the lid", 17, INK, bold=True)
    x0 = MARGIN + 60
    lid_top = y + 60
    standoff = pad_standoff_mm()
    lid_bot = lid_top + LID_MM * mm
    board_top = lid_bot + standoff * mm
    board_bot = board_top + 1.6 * mm
    # the lid, with a hole for each of two caps
    kx = [x0 + 120, x0 + 120 + KEY_PITCH_MM * mm]
    hole = LID_HOLE_MM * mm / 2
    edges = [x0 - 40] + [e for k in kx for e in (k - hole, k + hole)] + [kx[-1] + 200]
    for a, b in zip(edges[::2], edges[1::2]):
        d.rect(a, lid_top, b, lid_bot, fill="#c9c9c9", outline=INK, width=1)
    d.rect(x0 - 40, board_top, kx[-1] + 200, board_bot, fill=BOARD, outline="#9c8a68", width=1)
    for k in kx:
        body = 12 * mm / 2
        d.rect(k - body, board_top - 3.5 * mm, k + body, board_top, fill="#555555")   # the switch
        d.rect(k - 1.8 * mm, board_top - SWITCH_MM * mm, k + 1.8 * mm, board_top - 3.5 * mm, fill="#888888")
        cap_top = board_top - (SWITCH_MM + CAP_MM) * mm
        d.rect(k - 6 * mm, cap_top, k + 6 * mm, cap_top + 7 * mm, fill="#2a6fb0", outline=INK, width=1,
               radius=8)
    for sx in (x0 - 10, kx[-1] + 170):       # standoffs from the lid
        d.rect(sx - 2.5 * mm, lid_bot, sx + 2.5 * mm, board_top, fill="#d8d8d8", outline=INK, width=1)
    # the dimensions, on the right
    dx = kx[-1] + 230
    cap_top = board_top - (SWITCH_MM + CAP_MM) * mm

    def dim(y0, y1, label, colour=INK):
        d.line([(dx, y0), (dx, y1)], colour, 2)
        for yy in (y0, y1):
            d.line([(dx - 6, yy), (dx + 6, yy)], colour, 2)
        d.text(dx + 14, (y0 + y1) / 2, label, 12, colour, bold=True)

    dim(cap_top, lid_top, f"{PROUD_MM:g} mm proud")
    dim(lid_top, lid_bot, f"lid {LID_MM:g} mm")
    dim(lid_bot, board_top, f"standoffs {standoff:.1f} mm (M3, 8 mm)", CUT)
    d.text(kx[0], board_bot + 18, f"{KEY_PITCH_MM:.2f} mm ({KEY_PITCH_HOLES} holes) key to key",
           12, INK, bold=True)
    d.line([(kx[0], board_bot + 6), (kx[1], board_bot + 6)], INK, 1)
    y = board_bot + 44
    text = (f"Standoff length = switch {SWITCH_MM:g} mm (board to plunger top) + cap {CAP_MM:g} mm "
            f"(plunger top to cap top) - lid {LID_MM:g} mm - {PROUD_MM:g} mm proud = {standoff:.1f} mm. "
            "Measure your caps and your lid and work it out the same way; "
            f"drill the lid's {LID_HOLE_MM:g} mm holes {KEY_PITCH_MM:.2f} mm apart with the board as the "
            "template. No bare solder under a finger: only the caps come through.")
    return _wrap(d, MARGIN, y, text, 14, width - 2 * MARGIN) + 6


# ---------------------------------------------------------------- the cables

def cable_layout(w: Wiring, title: str = "") -> Drawing:
    width = 1100
    sub = ("The cables and where pin 1 goes: the 40-way ribbon from the Pi to the hub, the "
           "display's keyed lead, and one pad's cable with its DA-15 contacts.")
    d = Drawing(width, 1000)
    d.rect(0, 0, width, 1000, fill="#ffffff")
    y = _title(d, "The cables" + (f": {title}" if title else ""), sub, width) + 20
    # the ribbon
    d.text(MARGIN, y, "1. The ribbon: red stripe = pin 1, at both ends", 17, INK, bold=True)
    y += 30
    pi_x, hub_x = MARGIN + 20, width - MARGIN - 300
    d.rect(pi_x, y, pi_x + 300, y + 150, fill="#e3f0df", outline="#2f6b2f", width=2, radius=8)
    d.text(pi_x + 150, y + 16, "Raspberry Pi, from above", 13, "#2f6b2f", "m", bold=True)
    d.rect(pi_x - 4, y + 100, pi_x + 36, y + 140, fill="#bbbbbb", outline=INK, width=1)
    d.text(pi_x + 16, y + 120, "SD", 11, INK, "m", bold=True)
    d.text(pi_x + 44, y + 120, "microSD end", 11, INK, bold=True)
    # header along the top edge: pin 1 at the microSD end
    hx, hy = pi_x + 40, y + 36
    for i in range(20):
        for r in range(2):
            board = 2 * i + 1 + (1 - r)
            cx, cy = hx + i * 12, hy + r * 12
            if board == 1:
                d.rect(cx - 4, cy - 4, cx + 4, cy + 4, fill=CUT)
            else:
                d.circle(cx, cy, 3.5, fill="#333333")
    d.text(hx - 8, hy + 26, "pin 1", 12, CUT, bold=True)
    # the Pi adapter over the header: held by the four mounting holes, a keyed box header on top
    ax0, ax1 = pi_x + 12, pi_x + 290
    d.rect(ax0, hy - 14, ax1, hy + 52, fill=None, outline="#1f77b4", width=3, radius=4)
    for sx in (ax0 + 8, ax1 - 8):
        for sy in (hy - 6, hy + 44):
            d.circle(sx, sy, 5, fill="#ffffff", outline="#1f77b4", width=2)
    d.rect(hx + 50, hy + 22, hx + 230, hy + 38, fill="#333333", radius=2)
    d.rect(hx + 120, hy + 36, hx + 160, hy + 40, fill="#ffffff")
    d.text(pi_x + 215, y + 110, "Pi adapter:", 11, "#1f77b4", "m", bold=True)
    d.text(pi_x + 215, y + 126, "4 screws, keyed box header", 11, "#1f77b4", "m", bold=True)
    # the ribbon itself
    ry = y + 80
    d.rect(pi_x + 300, ry - 10, hub_x, ry + 30, fill="#cfcfcf", outline="#888888")
    d.line([(pi_x + 300, ry - 6), (hub_x, ry - 6)], CUT, 4)
    d.text((pi_x + 300 + hub_x) / 2, ry + 10, "40-way ribbon, 15-20 cm", 13, INK, "m", bold=True)
    d.text((pi_x + 300 + hub_x) / 2, ry - 20, "red stripe = pin 1", 12, CUT, "m", bold=True)
    d.rect(hub_x, y, hub_x + 300, y + 150, fill=BOARD, outline="#9c8a68", width=2, radius=8)
    d.text(hub_x + 150, y + 16, "the hub, from above", 13, INK, "m", bold=True)
    d.rect(hub_x + 40, y + 50, hub_x + 270, y + 90, fill="#333333", radius=3)
    d.rect(hub_x + 130, y + 86, hub_x + 180, y + 94, fill="#ffffff")
    d.text(hub_x + 155, y + 104, "key notch", 11, INK, "m", bold=True)
    d.polygon([(hub_x + 44, y + 94), (hub_x + 56, y + 94), (hub_x + 50, y + 104)], fill=CUT)
    d.text(hub_x + 40, y + 118, "pin 1 (triangle)", 11, CUT, bold=True)
    d.text(hub_x + 150, y + 138, "box header, unused pins clipped", 11, INK, "m")
    y += 170
    y = _wrap(d, MARGIN, y, "At the Pi the header has no shroud, so the ribbon goes on the Pi adapter: "
              "a HAT-size proto board whose 2x20 female header (underneath) plugs onto the Pi's header "
              "(pin 1 at the end nearest the microSD slot), screwed to the Pi's four mounting holes on "
              "11 mm standoffs, with a keyed box header on top. Held by the screws it cannot go on turned "
              "round or a pin over; its box header takes the ribbon one way only. Without it a misplug "
              "puts the hub's ground bus on GPIO outputs: check the voltages before the hub goes on, "
              "every time (pitable wiring --checklist, B).",
              14, width - 2 * MARGIN) + 16
    # the display lead
    if w.display_connector:
        twisted = "SDA" if w.display_kind == "i2c" else "SCLK (D0)"
        d.text(MARGIN, y, f"2. The display's lead: keyed JST-XH on the hub, at most 30 cm, {twisted} "
               "twisted with GND", 17, INK, bold=True)
        y += 34
        x = MARGIN + 20
        n = len(w.display_connector)
        d.rect(x, y, x + 40 * n + 20, y + 50, fill="#f7f7f7", outline=INK, width=2, radius=4)
        d.rect(x + 20 * n - 10, y - 8, x + 20 * n + 30, y, fill=INK)   # the latch: one way in
        for i, (pin, sig, board) in enumerate(w.display_connector):
            cx = x + 30 + i * 40
            col = RAIL if "VCC" in sig else (INK if sig == "GND" else ROLE_COLOURS["display"])
            d.circle(cx, y + 25, 11, fill=col)
            d.text(cx, y + 25, str(pin), 11, "#ffffff", "m", bold=True)
            d.text(cx, y + 66, sig.replace("VCC 3V3", "VCC"), 11, col, "m", bold=True)
            d.text(cx, y + 82, f"pin {board}", 10, GREY, "m")
        tx = x + 40 * n + 60
        d.text(tx, y + 10, "VCC to 3V3 only (the hub's rail, header pin 1), never to 5 V.", 14, RAIL, bold=True)
        d.text(tx, y + 32, "Wire the module end by the labels printed on it, then beep", 13, INK)
        d.text(tx, y + 50, "module GND to hub ground before the first plug-in.", 13, INK)
        y += 110
    # one pad's cable
    d.text(MARGIN, y, f"{3 if w.display_connector else 2}. One pad's cable: a DA-15 socket on the hub, "
           "a plug with a metal hood on the cable", 17, INK, bold=True)
    y += 40
    contacts = w.pad_contacts(0)
    by = {c: use for c, _, use in contacts}

    def label(c, sig):
        use = by.get(c)
        if sig == "GND":
            return "GND"
        if use is None:
            return "-"
        return f"{sig.split()[-1]} [{use.board}]" if sig.startswith(("key", "column")) else f"{sig} [{use.board}]"

    pos, pw = _da15(d, MARGIN + 20, y + 20, w.contacts, label, lambda c, sig: _contact_colour(sig),
                    "seat 1's socket on the hub", face="mating face, as you plug in")
    tx = MARGIN + 20 + pw + 40
    ty = y + 20
    n_cores = next((p.name for p in w.parts if p.name.startswith("multicore")), "")
    for line in (f"{n_cores}: every used contact has its core;",
                 "the spare cores go to ground (contacts 9 11 13 15).",
                 "[n] = header pin. Columns go to the same contact of every pad's",
                 "socket; a pad's row, LED and keys to its own socket only.",
                 "Every socket's ground contacts and its shell go to the hub's",
                 "ground bus: a spark meets the shell before a line."):
        d.text(tx, ty, line, 13, INK)
        ty += 20
    y = max(ty, y + 170) + 10
    d.height = int(y + MARGIN)
    return d


# the build pictures made next to each config's header picture: suffix -> layout
BUILD_PICTURES = {"hub": hub_layout, "pad": pad_layout, "cable": cable_layout}


def save_picture(wiring: Wiring, path: str | Path, title: str = "") -> list[Path]:
    """The header picture at ``path``; for a wired build also its hub, pad and cable
    drawings beside it (``NAME-hub.png`` ...). Returns the files written."""
    path = Path(path)
    drawings = [(path, layout(wiring, title))]
    if wiring.kind in ("direct", "matrix") and wiring.build == "hub":   # jumpers: no hub, pad or cable to build
        drawings += [(path.with_name(f"{path.stem}-{suffix}{path.suffix}"), make(wiring, title))
                     for suffix, make in BUILD_PICTURES.items()]
    for out, d in drawings:
        if out.suffix.lower() == ".svg":
            out.write_text(to_svg(d), encoding="utf-8")
        else:
            image = to_png(d, scale=1.5)
            # printed, it fills an A4 page in landscape (27 x 19 cm inside the margins)
            dpi = math.ceil(max(image.width / (27 / 2.54), image.height / (19 / 2.54)))
            image.save(out, dpi=(dpi, dpi))
    return [out for out, _ in drawings]
