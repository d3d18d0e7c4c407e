"""Which header pin does what, for one config: the model behind ``pitable wiring``.

:func:`wiring_of` turns a :class:`~pitable.config.Config` into a :class:`Wiring`: every
header pin in use (GPIO, power and ground), what it is for, the config key it comes
from, and the parts to buy. The text, Markdown and pictures
(:mod:`pitable.hardware.wiring_text`, :mod:`pitable.hardware.wiring_picture`) all draw
from this one model, so they cannot disagree. Pure: no gpiozero, no files.
"""

from __future__ import annotations

from dataclasses import dataclass

from pitable.hardware.header import (
    BCM_TO_BOARD, GROUND_PINS, Bite, bite_of, i2c_pins, spi_pins,
)

__all__ = ["KEY_NAMES", "PinUse", "Part", "Wiring", "wiring_of", "pin_warnings", "PinWarning"]

KEY_NAMES = ("1", "2", "3", "4", "5", "6", "A", "X")
RESISTOR = "330 ohm"

# roles, in the order of the legend
ROLES = {
    "key": "pad key (direct)", "row": "matrix row (a seat)", "column": "matrix column (a key)",
    "led": "LED", "buzzer": "buzzer", "display": "display bus and control", "power": "3V3 power",
    "ground": "ground",
}


@dataclass(frozen=True)
class PinUse:
    """One header pin in use."""

    board: int              # physical pin, 1..40
    bcm: int | None         # GPIO number; None for power and ground
    role: str               # a key of ROLES
    what: str               # for people: "seat 3 key A", "display SDA"
    short: str              # a tag of a few characters for pictures: "A" (a key), "SDA", "row 1"
    path: str = ""          # the config key it comes from ("" for power and ground)
    seat: int | None = None  # 0-based
    key: int | None = None   # 0-based

    @property
    def name(self) -> str:
        """"GPIO 14 (pin 8)", or "pin 6" for power and ground."""
        return f"GPIO {self.bcm} (pin {self.board})" if self.bcm is not None else f"pin {self.board}"


@dataclass(frozen=True)
class Part:
    count: int
    name: str
    note: str = ""


@dataclass(frozen=True)
class Wiring:
    kind: str                      # direct | matrix | keyboard
    seats: int
    display: str                   # "ssd1306 on i2c-1 at 0x3C", "pygame"
    display_kind: str              # "i2c" | "spi" | "" (no hardware display)
    uses: tuple[PinUse, ...]       # sorted by physical pin
    parts: tuple[Part, ...]
    notes: tuple[str, ...]
    reserved: tuple[tuple[int, str], ...] = ()   # (GPIO, why) bus pins not wired but not free

    def of_role(self, *roles: str) -> list[PinUse]:
        return [u for u in self.uses if u.role in roles]

    def seat_pins(self, seat: int) -> list[PinUse]:
        return [u for u in self.uses if u.seat == seat]

    def key_pins(self, seat: int, key: int) -> list[PinUse]:
        """The pins a key comes in on: its own GPIO, or its row and its column."""
        if self.kind == "direct":
            return [u for u in self.uses if u.role == "key" and (u.seat, u.key) == (seat, key)]
        if self.kind == "matrix":
            return ([u for u in self.uses if u.role == "row" and u.seat == seat]
                    + [u for u in self.uses if u.role == "column" and u.key == key])
        return []

    def where(self, seat: int, key: int) -> str:
        """Where a key press came in, for the wiring test: "GPIO 14 (pin 8)",
        "row GPIO 5 (pin 29), column GPIO 23 (pin 16)"."""
        pins = self.key_pins(seat, key)
        if self.kind == "matrix":
            return ", ".join(f"{u.role} {u.name}" for u in pins)
        return ", ".join(u.name for u in pins)


def _gpio(bcm: int, role: str, what: str, short: str, path: str, seat=None, key=None) -> PinUse:
    return PinUse(BCM_TO_BOARD[bcm], bcm, role, what, short, path, seat, key)


def _fixed(board: int, role: str, what: str, short: str, seat=None) -> PinUse:
    return PinUse(board, None, role, what, short, "", seat)


def _display(config) -> tuple[list[PinUse], list[tuple[int, str]], list[Part], int]:
    """The display's pins, the bus pins it leaves reserved, its part, and its ground pin."""
    d = config.display
    if not d.is_hardware:
        return [], [], [], 0
    name = d.display.upper()
    if d.interface == "i2c":
        lines = i2c_pins(d.i2c_port)
        uses = [_gpio(bcm, "display", f"display {line}", line, "display.i2c_port")
                for bcm, line in lines.items()]
        ground = 6
        uses += [_fixed(1, "power", "display VCC (3V3)", "3V3"),
                 _fixed(ground, "ground", "display GND", "GND")]
        part = Part(1, f"{name} 128x64 OLED, I2C", "4 pins: GND VCC SCL SDA; 3.3 V")
        return uses, [], [part], ground
    lines = spi_pins(d.spi_port)
    cs = {0: "CE0", 1: "CE1", 2: "CE2"}[d.spi_device]
    wired = {"SCLK": "D0/SCK", "MOSI": "D1/SDA", cs: "CS"}
    uses, reserved = [], []
    for bcm, line in lines.items():
        if line in wired:
            uses.append(_gpio(bcm, "display", f"display {wired[line]} (SPI{d.spi_port} {line})",
                              line, "display.spi_port"))
        else:
            reserved.append((bcm, f"SPI{d.spi_port} {line}: not wired, but the SPI driver holds it"))
    uses.append(_gpio(d.gpio_data_command, "display", "display DC (data/command)", "DC",
                      "display.gpio_data_command"))
    if d.gpio_reset is not None:
        uses.append(_gpio(d.gpio_reset, "display", "display RES (reset)", "RST", "display.gpio_reset"))
    ground = 20
    uses += [_fixed(17, "power", "display VCC (3V3)", "3V3"),
             _fixed(ground, "ground", "display GND", "GND")]
    part = Part(1, f"{name} 128x64 OLED, SPI", "7 pins: GND VCC D0 D1 RES DC CS; 3.3 V")
    return uses, reserved, [part], ground


def wiring_of(config) -> Wiring:
    """Every pin in use for this config, and the parts to buy."""
    pads = config.pads
    uses, reserved, parts, display_ground = _display(config)
    notes: list[str] = []
    d = config.display
    if d.is_hardware and d.interface == "i2c" and not i2c_pins(d.i2c_port):
        notes.append(f"I2C bus {d.i2c_port} is made by an overlay (dtoverlay=i2c-gpio or i2c{d.i2c_port}): "
                     "wire SDA and SCL to the pins it names.")
    seats = config.seats
    leds = buzzers = 0
    needs_ground: list[int] = []   # seats whose pad needs a ground wire
    if pads.wiring == "direct":
        for s, seat in enumerate(pads.direct):
            at = f"pads.direct[{s}]"
            for k, bcm in enumerate(seat.keys):
                uses.append(_gpio(bcm, "key", f"seat {s + 1} key {KEY_NAMES[k]}",
                                  KEY_NAMES[k], f"{at}.keys[{k}]", s, k))
            if seat.led is not None:
                leds += 1
                uses.append(_gpio(seat.led, "led", f"LED of seat {s + 1}", f"LED {s + 1}", f"{at}.led", s))
            if seat.buzzer is not None:
                buzzers += 1
                uses.append(_gpio(seat.buzzer, "buzzer", f"buzzer of seat {s + 1}", f"bzr {s + 1}",
                                  f"{at}.buzzer", s))
            needs_ground.append(s)
        notes.append("Each key joins its GPIO to its pad's ground wire when pressed "
                     "(gpiozero's internal pull-ups: no resistors).")
        parts.insert(0, Part(8 * len(pads.direct), "push buttons", "8 per pad: 1 2 3 4 5 6 A X"))
    elif pads.wiring == "matrix":
        m = pads.matrix
        for s, bcm in enumerate(m.rows):
            uses.append(_gpio(bcm, "row", f"row of seat {s + 1}", f"row {s + 1}",
                              f"pads.matrix.rows[{s}]", s))
        for k, bcm in enumerate(m.columns):
            uses.append(_gpio(bcm, "column", f"column of key {KEY_NAMES[k]} (all seats)",
                              f"col {KEY_NAMES[k]}", f"pads.matrix.columns[{k}]", None, k))
        for s, bcm in enumerate(m.leds):
            if bcm is not None:
                leds += 1
                uses.append(_gpio(bcm, "led", f"LED of seat {s + 1}", f"LED {s + 1}",
                                  f"pads.matrix.leds[{s}]", s))
                needs_ground.append(s)
        n = len(m.rows)
        notes.append("Matrix: each seat's pad is a row, each key a column shared by every pad "
                     "(column wires run from pad to pad).")
        notes.append("Diodes: one on every key, from the column to the row: the band (cathode) "
                     "towards the row, so keys held together on two pads do not ghost.")
        parts.insert(0, Part(8 * n, "push buttons", "8 per pad: 1 2 3 4 5 6 A X"))
        parts.insert(1, Part(8 * n, "diodes 1N4148", "one per key, band towards the row"))
    else:
        notes.append("Keyboard pads: rows of the computer's keyboard; nothing to wire.")
    if leds:
        notes.append(f"LED: GPIO -> {RESISTOR} resistor -> LED long leg; short leg -> the pad's ground.")
        parts.append(Part(leds, "LEDs (3 mm or 5 mm)", "one per seat"))
        parts.append(Part(leds, f"{RESISTOR} resistors", "one per LED"))
    if buzzers:
        parts.append(Part(buzzers, "active buzzers, 3.3 V", "under 15 mA, or driven by a transistor"))
    free_grounds = [p for p in GROUND_PINS if p != display_ground]
    for i, s in enumerate(needs_ground):
        board = free_grounds[i % len(free_grounds)]
        uses.append(_fixed(board, "ground", f"ground of seat {s + 1}'s pad", "GND", seat=s))
    cables = _cables(uses, pads.wiring, seats)
    if cables:
        notes.append(cables)
    uses = _merge_grounds(uses)
    if uses:
        parts.append(Part(len(uses), "jumper wires, female at the Pi",
                          "one per header pin used; or a 40-way ribbon cable"))
    display = config.display.describe()
    kind = config.display.interface if config.display.is_hardware else ""
    return Wiring(pads.wiring, seats, display, kind, tuple(sorted(uses, key=lambda u: u.board)),
                  tuple(parts), tuple(notes), tuple(sorted(reserved)))


def _cables(uses: list[PinUse], kind: str, seats: int) -> str:
    """What each pad's cable carries, so the maker buys (or cuts) the right ribbon."""
    if kind not in ("direct", "matrix"):
        return ""
    counts = []
    for s in range(seats):
        mine = [u for u in uses if u.seat == s and u.role != "display"]
        keys = 8 if kind == "matrix" else len([u for u in mine if u.role == "key"])
        parts = [f"{keys} keys" if kind == "direct" else "8 columns"]
        parts += [name for role, name in (("row", "its row"), ("led", "LED"), ("buzzer", "buzzer"),
                                          ("ground", "ground")) if any(u.role == role for u in mine)]
        n = keys + sum(1 for u in mine if u.role in ("row", "led", "buzzer", "ground"))
        counts.append((n, ", ".join(parts)))
    if len(set(counts)) == 1:
        n, what = counts[0]
        return f"Cable to each pad: {n} wires ({what})."
    return "Cables to the pads: " + "; ".join(f"seat {s + 1}: {n} wires ({what})"
                                             for s, (n, what) in enumerate(counts)) + "."


def _merge_grounds(uses: list[PinUse]) -> list[PinUse]:
    """More grounds than ground pins (not with today's limits): one pin, several wires."""
    out: dict[int, PinUse] = {}
    rest = []
    for u in uses:
        if u.bcm is None and u.board in out:
            first = out[u.board]
            out[u.board] = PinUse(u.board, None, first.role, f"{first.what}; {u.what}", first.short)
        elif u.bcm is None:
            out[u.board] = u
        else:
            rest.append(u)
    return rest + list(out.values())


# ---------------------------------------------------------------- pins that bite

@dataclass(frozen=True)
class PinWarning:
    use: PinUse
    bite: Bite

    @property
    def path(self) -> str:
        return self.use.path

    def message(self) -> str:
        u, b = self.use, self.bite
        pin = f"GPIO {u.bcm} (pin {u.board}, {u.what})"
        return f"warning: {pin} is {b.job}: {b.when}, {b.happens}. Do: {b.todo}."


def pin_warnings(wiring: Wiring) -> list[PinWarning]:
    """The pads' pins that have another job at boot or on common set-ups.

    The display's own bus pins are not warned about (they are that job)."""
    out = []
    for use in wiring.uses:
        if use.bcm is None or use.role == "display":
            continue
        bite = bite_of(use.bcm)
        if bite is not None:
            out.append(PinWarning(use, bite))
    return out
