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

__all__ = ["KEY_NAMES", "PinUse", "Part", "Wiring", "wiring_of", "pin_warnings", "PinWarning",
           "bite_warnings", "BiteWarning"]

from pitable.keys import NAMES as KEY_NAMES  # noqa: E402
RESISTOR = "330 ohm"
PULL_UP = "10 kOhm"
CABLE_M = 1.5            # metres of cable per pad, as planned for a party table
CONNECTOR_PINS = 15      # a D-sub 15 (DA-15) per pad
OLED_ORDER = ("The display: wire it by the labels printed on its module, not by position: "
              "many 1.3\" SH1106 boards and some 0.96\" ones are VCC GND SCL SDA, not "
              "GND VCC SCL SDA, and swapped the module is powered backwards.")

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
        part = Part(1, f"{name} 128x64 OLED, I2C",
                    "4 pins, often GND VCC SCL SDA but on many 1.3\" boards VCC GND SCL SDA: "
                    "wire by the labels; 3.3 V")
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
    part = Part(1, f"{name} 128x64 OLED, SPI",
                "7 pins, often GND VCC D0 D1 RES DC CS; the order varies: wire by the labels; 3.3 V")
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
    needs_ground: list[int] = []   # seats whose pad cable carries a ground wire: all of them
    if d.is_hardware:
        notes.append(OLED_ORDER)
    if pads.wiring in ("direct", "matrix"):
        notes.append("Cable plan, a star: a 40-way ribbon cable from the Pi's header to a hub "
                     "board (perfboard with a 2x20 box header) that carries the resistors and "
                     "one connector per pad; each pad has its own multicore cable to the hub, "
                     "with a ground wire in it.")
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
        notes.append("Direct: each key joins its GPIO to its pad's ground wire when pressed "
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
        needs_ground += range(len(m.rows))
        taken = {u.board for u in uses if u.role == "power"}
        pull = next(b for b in (17, 1) if b not in taken)
        uses.append(_fixed(pull, "power", f"column pull-ups ({PULL_UP} to 3V3, on the hub)", "3V3"))
        n = len(m.rows)
        notes.append("Matrix: each pad is a row, each key a column; a key joins its column to "
                     "its pad's row, not to ground. The columns split at the hub: each column "
                     "runs from its header pin to the same contact of every pad's connector, so "
                     "every pad's cable carries all 8 columns, its own row and a ground.")
        notes.append("Diodes are mandatory: one on every key, from the column to the row, the "
                     "band (cathode) towards the row; without them, keys held together on two "
                     "pads read as a third key. pitable never drives a row high, so even a "
                     "missing diode shorts no pin.")
        notes.append(f"Pull-ups: {PULL_UP} from each column to 3V3, on the hub. A released "
                     "column then rises in ~10 us instead of ~60 us through six pads' cable, "
                     "and picks up less noise; pitable waits 100 us after each row change.")
        parts.insert(0, Part(8 * n, "push buttons", "8 per pad: 1 2 3 4 5 6 A X"))
        parts.insert(1, Part(8 * n, "diodes 1N4148", "one per key, band towards the row; mandatory"))
        parts.append(Part(8, f"{PULL_UP} resistors", "column pull-ups to 3V3, on the hub"))
    else:
        notes.append("Keyboard pads: rows of the computer's keyboard; nothing to wire.")
    if leds:
        notes.append(f"LED: GPIO -> {RESISTOR} resistor on the hub (at the Pi: a crushed pad cable "
                     "then cannot short the pin) -> the pad's cable -> LED long leg; short leg -> "
                     "the pad's ground wire. Red or yellow LEDs light at ~4 mA through "
                     f"{RESISTOR} from 3.3 V; blue and white need ~3 V and get under 1 mA.")
        parts.append(Part(leds, "LEDs, red or yellow, 3 mm or 5 mm", "one per seat; not blue or white"))
        parts.append(Part(leds, f"{RESISTOR} resistors", "one per LED, on the hub"))
    if buzzers:
        parts.append(Part(buzzers, "active buzzers, 3.3 V", "under 15 mA, or driven by a transistor"))
    free_grounds = [p for p in GROUND_PINS if p != display_ground]
    for i, s in enumerate(needs_ground):
        board = free_grounds[i % len(free_grounds)]
        uses.append(_fixed(board, "ground", f"ground of seat {s + 1}'s pad", "GND", seat=s))
    cables = _cables(uses, pads.wiring, seats)
    if cables:
        notes.append(cables[0])
        wires = cables[1]
        cores = next((c for c in (10, 12, 14, 16, 20) if c > wires), wires + 1)   # a spare core
        parts.append(Part(seats, f"multicore cables, {cores} cores, {CABLE_M} m",
                          f"one per pad, {wires} cores used; e.g. LiYY {cores} x 0.14 mm2"))
        parts.append(Part(seats, "D-sub 15 (DA-15) connector pairs",
                          "one per pad: a plug with hood on its cable, a socket on the hub"))
        parts.append(Part(1, "40-way GPIO ribbon cable, 2x20 female ends", "the Pi's header to the hub"))
        parts.append(Part(1, "2x20 box header, 2.54 mm", "on the hub, for the ribbon"))
        parts.append(Part(1 + seats, "perfboards (stripboard)", "one for the hub (~10 x 8 cm), one per pad"))
    uses = _merge_grounds(uses)
    display_pins = [u for u in uses if u.role in ("display",)
                    or (u.role in ("power", "ground") and u.what.startswith("display"))]
    if display_pins:
        parts.append(Part(len(display_pins), "jumper wires, female-female",
                          "the hub (or the Pi) to the display's pins"))
    display = config.display.describe()
    kind = config.display.interface if config.display.is_hardware else ""
    return Wiring(pads.wiring, seats, display, kind, tuple(sorted(uses, key=lambda u: u.board)),
                  tuple(parts), tuple(notes), tuple(sorted(reserved)))


def _cables(uses: list[PinUse], kind: str, seats: int) -> tuple[str, int] | None:
    """What each pad's cable carries, and the most wires any of them needs."""
    if kind not in ("direct", "matrix"):
        return None
    counts = []
    for s in range(seats):
        mine = [u for u in uses if u.seat == s and u.role != "display"]
        keys = 8 if kind == "matrix" else len([u for u in mine if u.role == "key"])
        parts = [f"{keys} keys" if kind == "direct" else "8 columns"]
        parts += [name for role, name in (("row", "its row"), ("led", "LED"), ("buzzer", "buzzer"),
                                          ("ground", "ground")) if any(u.role == role for u in mine)]
        n = keys + sum(1 for u in mine if u.role in ("row", "led", "buzzer", "ground"))
        counts.append((n, ", ".join(parts)))
    most = max(n for n, _ in counts)
    if len(set(counts)) == 1:
        n, what = counts[0]
        return f"Cable to each pad: {n} wires ({what}).", most
    return "Cables to the pads: " + "; ".join(f"seat {s + 1}: {n} wires ({what})"
                                             for s, (n, what) in enumerate(counts)) + ".", most


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
    """One pad pin on a pin with another job (doctor checks them one by one)."""

    use: PinUse
    bite: Bite

    @property
    def path(self) -> str:
        return self.use.path

    def message(self) -> str:
        return BiteWarning(self.bite, (self.use,)).message()


# a key (or a matrix column) is a switch to ground: on a driven output it is a short
_SWITCHES = ("key", "column")


@dataclass(frozen=True)
class BiteWarning:
    """All the pad pins on one job's pins: said once, in one line."""

    bite: Bite
    uses: tuple[PinUse, ...]

    @property
    def path(self) -> str:
        return ", ".join(u.path for u in self.uses)

    def message(self) -> str:
        b = self.bite
        pins = ", ".join(f"GPIO {u.bcm} (pin {u.board}, {u.what})" for u in self.uses)
        verb = "is" if len(self.uses) == 1 else "are"
        text = f"warning: {pins} {verb} {b.job}: {b.when}, {b.happens}."
        shorted = [u for u in self.uses if u.bcm in b.driven and u.role in _SWITCHES]
        if shorted:
            gp = ", ".join(str(u.bcm) for u in shorted)
            text += (f" A key pressed on GPIO {gp} then shorts an output the driver drives "
                     "to ground: that can damage the pin.")
        return text + f" Do: {b.todo}."


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


def bite_warnings(wiring: Wiring) -> list[BiteWarning]:
    """:func:`pin_warnings` grouped by job: one warning per job, naming all its pins."""
    warned = pin_warnings(wiring)
    out = []
    for bite in dict.fromkeys(w.bite for w in warned):
        uses = sorted((w.use for w in warned if w.bite is bite), key=lambda u: u.bcm)
        out.append(BiteWarning(bite, tuple(uses)))
    return out
