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

__all__ = ["KEY_NAMES", "PinUse", "Part", "HubLine", "Wiring", "wiring_of", "pin_warnings",
           "PinWarning", "bite_warnings", "BiteWarning", "contact_map", "five_volt_landings",
           "SAFE_GROUNDS", "checklist", "low_level"]

from pitable.keys import NAMES as KEY_NAMES  # noqa: E402
RESISTOR = "330 ohm"
PULL_UP = "10 kOhm"
CABLE_M = 1.5            # metres of cable per pad, as planned for a party table
CONNECTOR_PINS = 15      # a D-sub 15 (DA-15) per pad
VCC_RULE_JUMPERS = ("Display VCC to header pin 1 (3V3) only, never to 5 V (pins 2 and 4): many "
                    "modules say \"3-5 V\" and tie their SDA/SCL pull-ups to VCC, which on 5 V lifts "
                    "the Pi's pins over their limit.")
PI_END = ("The ribbon is keyed at both ends: red stripe = pin 1. At the hub a shrouded box "
          "header takes the socket one way only. At the Pi, whose header has no shroud, the "
          "ribbon goes on the Pi adapter: a HAT-size proto board (65 x 56 mm) with a 2x20 female "
          "header underneath that plugs onto the Pi's header, screwed to the Pi's four mounting "
          "holes on 11 mm M2.5 standoffs, and a shrouded 2x20 box header on top, each pin the "
          "config uses linked to the same pin of the female header (the other pins clipped off "
          "the box header). Held by four screws, it cannot go on turned round or a pin over. "
          "Without it, a ribbon turned round or one pin pair over is NOT harmless: the Pi's 5 V "
          "meets the hub's series resistors (hub pins {landings} are never a ground), but the hub's "
          "ground bus and one row over its 3V3 rail land on GPIO outputs with no resistor, which "
          "can damage those pins. So: keep the adapter on the Pi, and check step B1 every time the "
          "ribbon goes on a Pi without it.")
JUMPERS = ("No soldering: each pad is a ready-made 8-key module (8 keys to GND on a 9-pin "
           "header), joined to the Pi's header by female-female jumper leads, one per pin, as the "
           "table says; the Pi's own pull-ups hold each key line high. Power off while plugging. "
           "Nothing on 5 V (pins 2 and 4) and nothing on a module's VCC pin. With no series "
           "resistors, a key on a pin another job drives would short it: this pinout keeps keys "
           "off the serial port, and SPI and I2S must stay off, as they are on a stock Pi OS "
           "(systemd/install.sh keeps SPI off; add no sound HAT). Leads are for the table, not for "
           "the floor: under 30 cm, and the Pi in a case. For a table that travels, build the hub.")
OLED_ORDER = ("The display: wire it by the labels printed on its module, not by position: "
              "many 1.3\" SH1106 boards and some 0.96\" ones are VCC GND SCL SDA, not "
              "GND VCC SCL SDA, and swapped the module is powered backwards.")
SPI_ORDER = ("The display: an SPI module has 7 pins (GND VCC D0 D1 RES DC CS on most, but the "
             "order varies): wire it by the labels printed on it, not by position.")
VCC_RULE = ("Display VCC to 3V3 only (the hub's 3V3 rail, from header pin 1), never to 5 V (pins 2 and 4): "
            "many modules say \"3-5 V\" and tie their SDA/SCL pull-ups to VCC, which on 5 V lifts "
            "the Pi's pins over their limit. Its keyed JST-XH connector on the hub goes in "
            "one way only.")

# The hub. Its 3V3 rail comes from header pin 1 only: pin 1's neighbours are pin 3 (SDA or a
# key: open drain or an input, harmless if bridged) and pin 2 (5 V). Every pin a config does
# not use is clipped off the box header before it is soldered (Wiring.clipped): a bridge to a
# pin that is not there joins nothing. Among them always the supplies the hub never takes:
# 5 V (2, 4) and the second 3V3 (17, beside pin 19 and facing pin 18, driven outputs in most
# configs: soldered, a bridge there shorts 3V3 onto a driven pin before its resistor).
RAIL_PIN = 1
CLIPPED = (2, 4, 17)

# What sits in series on each line that leaves the hub, soldered right at its header pin
# (the first thing after the pin): it limits a misplugged 5 V, an SPI/I2S driver switched on
# later, or a spark from a player's finger, and keeps a bridge after it harmless.
SERIES_OHMS = {"key": 1000, "column": 220, "row": 100, "led": 330, "buzzer": 100,
               # the display's lines leave the box on a jumper lead to a module on the table:
               # 100 ohm limits a slipped lead or a spark, and on SPI it is the source
               # termination (a push-pull pin of ~40 ohm into a lead of ~100-150 ohm); on I2C
               # the module's low level rises ~0.2 V (1.8 mA through it), under V_IL
               "display": 100}
CAP = {"key": "10 nF"}   # on a direct pad, from each key's contact to its ground, beside the key
DIODE = "BAT43 Schottky"                   # BAT85 is the same; see the low-level budget
V_IL = 0.8               # the Pi's input reads low below this
V_SUPPLY = 3.3
R_INTERNAL = 50_000      # the Pi's own pull-up, at its lowest
V_F = {"BAT43 Schottky": 0.30, "1N4148": 0.62}   # forward drop at ~0.3 mA, 25 C, at its highest
V_OL_8MA = 0.4           # a pin's low output at its 8 mA drive

# The pad's mechanics: eight 12 x 12 mm tactile switches in one row on stripboard, 8 holes
# (20.32 mm) apart: 7.8 mm between 12.5 mm lid holes, which a hand drill leaves whole. The
# board hangs under the lid on standoffs, so the caps' tops stand PROUD mm over the lid.
KEY_PITCH_HOLES = 8
KEY_PITCH_MM = KEY_PITCH_HOLES * 2.54
PAD_BOARD_MM = (160, 60)            # stripboard, cut from a 160 x 100 Eurocard
PAD_BOX_MM = (190, 80, 40)          # outside; inside at least 170 x 65 x 30
LID_HOLE_MM = 12.5                  # for a 12 mm round cap
SWITCH_MM = 7.3                     # board to the top of the plunger
CAP_MM = 5.0                        # the cap's top over the plunger's top (a typical round cap)
LID_MM = 2.5                        # an ABS box's lid
PROUD_MM = 2.0


def pad_standoff_mm(switch=SWITCH_MM, cap=CAP_MM, lid=LID_MM, proud=PROUD_MM) -> float:
    """How long the standoffs between the pad's board and the underside of its lid are:
    the cap's top stands ``proud`` over the lid."""
    return switch + cap - lid - proud


BUTTONS = ("8 per pad: 1 2 3 4 5 6 A X; 12 x 12 x 7.3 mm THT tactile switch, 4 pins, with a 12 mm "
           "round cap; wired by two diagonally opposite legs (the legs join in pairs inside: "
           "across a joined pair a key reads pressed for ever)")


def _ohms(r: float) -> str:
    return f"{r / 1000:g} kOhm" if r >= 1000 else f"{r:g} ohm"


def five_volt_landings() -> tuple[int, ...]:
    """Hub pins that get the Pi's 5 V when the ribbon sits on the Pi turned round or one
    pin pair over (or both): the hub takes no ground or supply from these."""
    out = set()
    for n in range(1, 41):
        for m in (n - 2, n + 2, 41 - n, 41 - n - 2, 41 - n + 2):
            if m in (2, 4):
                out.add(n)
    return tuple(sorted(out))


SAFE_GROUNDS = tuple(p for p in GROUND_PINS if p not in five_volt_landings())


def contact_map(kind: str) -> tuple[tuple[int, str], ...]:
    """The DA-15 contacts of every pad, the same on each: (contact, signal).

    Contacts 1-8 are the top row, 9-15 the bottom row, each between two of the top
    row's: 9 sits between 1 and 2, 10 between 2 and 3, and so on. Grounds on 9, 11, 13
    and 15 put a ground next to every key line."""
    first = "key" if kind == "direct" else "column"
    keys = tuple((k + 1, f"{first} {KEY_NAMES[k]}") for k in range(8))
    return keys + ((9, "GND"), (10, "row" if kind == "matrix" else "spare"), (11, "GND"),
                   (12, "LED"), (13, "GND"), (14, "buzzer" if kind == "direct" else "spare"),
                   (15, "GND"))


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
    spare: int = 0          # extra to order: the ones that get lost, bent or burnt


@dataclass(frozen=True)
class HubLine:
    """One header pin's way across the hub: what sits on it, in order, and where it goes."""

    board: int
    bcm: int | None
    what: str
    series: str = ""        # the resistor at the header pin, "" for none
    pull_up: str = ""       # "10 kOhm" from the line (after its resistor) to the 3V3 rail
    cap: str = ""           # to ground, after the resistor
    to: str = ""            # "every pad, contact 3", "pad 2, contact 10", "display connector, pin 4"


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
    hub: tuple[HubLine, ...] = ()  # the hub's lines, by header pin
    contacts: tuple[tuple[int, str], ...] = ()   # every pad's DA-15: (contact, signal)
    diode: str = ""                # the matrix's diode
    budget: tuple[str, ...] = ()   # the low-level budget, line by line
    display_connector: tuple[tuple[int, str, int], ...] = ()   # (pin, signal, header pin)
    build: str = "hub"             # hub (soldered, a resistor on every line) | jumpers (no soldering)

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

    def pad_contacts(self, seat: int) -> list[tuple[int, str, PinUse | None]]:
        """Seat ``seat``'s DA-15: (contact, signal, the header pin behind it or None)."""
        out = []
        for contact, signal in self.contacts:
            use = None
            if signal.startswith(("key ", "column ")):
                k = KEY_NAMES.index(signal.split()[1])
                pins = self.key_pins(seat, k)
                use = pins[-1] if pins else None
            elif signal in ("row", "LED", "buzzer"):
                role = {"row": "row", "LED": "led", "buzzer": "buzzer"}[signal]
                use = next((u for u in self.seat_pins(seat) if u.role == role), None)
            elif signal == "GND":
                use = next((u for u in self.seat_pins(seat) if u.role == "ground"), None)
            out.append((contact, signal, use))
        return out

    @property
    def clipped(self) -> tuple[int, ...]:
        """The box header's pins this config does not use: clipped off before the header
        is soldered (2, 4 and 17 among them, always), so a solder bridge to one joins
        nothing. None for pads that need no hub."""
        if self.kind not in ("direct", "matrix") or self.build != "hub":
            return ()
        used = {u.board for u in self.uses}
        return tuple(b for b in range(1, 41) if b not in used)

    def line_of(self, board: int) -> HubLine | None:
        return next((h for h in self.hub if h.board == board), None)

    def neighbours(self) -> list[tuple[PinUse, PinUse]]:
        """Pairs of used header pins side by side or facing on the box header: where a
        solder bridge would join two lines (the continuity check looks at each)."""
        by = {u.board: u for u in self.uses}
        pairs = []
        for b, u in sorted(by.items()):
            for other in (b + 2, b + 1 if b % 2 else None):
                v = by.get(other) if other else None
                if v is not None and not (u.role == v.role == "ground"):
                    pairs.append((u, v))
        return pairs


def _gpio(bcm: int, role: str, what: str, short: str, path: str, seat=None, key=None) -> PinUse:
    return PinUse(BCM_TO_BOARD[bcm], bcm, role, what, short, path, seat, key)


def _fixed(board: int, role: str, what: str, short: str, seat=None) -> PinUse:
    return PinUse(board, None, role, what, short, "", seat)


def _display(config) -> tuple[list[PinUse], list[tuple[int, str]], list[Part]]:
    """The display's signal pins, the bus pins it leaves reserved, and its part (its VCC
    comes from the hub's 3V3 rail and its GND from the ground bus: see wiring_of)."""
    d = config.display
    if not d.is_hardware:
        return [], [], []
    name = d.display.upper()
    if d.interface == "i2c":
        lines = i2c_pins(d.i2c_port)
        uses = [_gpio(bcm, "display", f"display {line}", line, "display.i2c_port")
                for bcm, line in lines.items()]
        part = Part(1, f"{name} 128x64 OLED, I2C",
                    "4 pins, often GND VCC SCL SDA but on many 1.3\" boards VCC GND SCL SDA: "
                    "wire by the labels; VCC to 3.3 V only")
        return uses, [], [part]
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
    part = Part(1, f"{name} 128x64 OLED, SPI",
                "7 pins, often GND VCC D0 D1 RES DC CS; the order varies: wire by the labels; "
                "VCC to 3.3 V only")
    return uses, reserved, [part]


def _spare(n: int) -> int:
    """What to order on top: a tenth more, at least two (small parts get lost)."""
    return max(2, -(-n // 10))


def wiring_of(config) -> Wiring:
    """Every pin in use for this config, the hub, the pads' connectors and the parts to buy."""
    pads = config.pads
    uses, reserved, parts = _display(config)
    notes: list[str] = []
    d = config.display
    if d.is_hardware and d.interface == "i2c" and not i2c_pins(d.i2c_port):
        notes.append(f"I2C bus {d.i2c_port} is made by an overlay (dtoverlay=i2c-gpio or i2c{d.i2c_port}): "
                     "wire SDA and SCL to the pins it names.")
    seats = config.seats
    leds = buzzers = 0
    needs_ground: list[int] = []   # seats whose pad cable carries a ground wire: all of them
    if d.is_hardware:
        notes.append(OLED_ORDER if d.interface == "i2c" else SPI_ORDER)
        notes.append(VCC_RULE if pads.build == "hub" else VCC_RULE_JUMPERS)
    wired = pads.wiring in ("direct", "matrix")
    hubbed = wired and pads.build == "hub"
    if wired and not hubbed:
        notes.append(JUMPERS)
    if hubbed:
        notes.append("Cable plan, a star: a 40-way ribbon cable from the Pi's header to a hub "
                     "board (stripboard with a 2x20 box header) that carries the resistors and "
                     "one connector per pad; each pad has its own multicore cable to the hub, "
                     "with a ground wire in it.")
        notes.append(PI_END.format(landings=", ".join(map(str, five_volt_landings()))))
        notes.append("The hub: stripboard with the strips across the box header, each strip cut "
                     "between the header's two rows, so each pin has its own strip; every resistor "
                     "sits right at its header pin, across a second cut. Before soldering the box "
                     "header, clip off every pin this config does not use (the checklist's A1 lists "
                     "them; 5 V on 2 and 4 and the second 3V3 on 17 among them): a solder bridge to "
                     "a pin that is not there joins nothing. Its 3V3 rail comes "
                     f"from pin {RAIL_PIN} only and runs along the far edge, away from the row and "
                     "LED lines, with 100 nF and 10 uF to ground at its start.")
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
        n_keys = 8 * len(pads.direct)
    if pads.wiring == "direct" and not hubbed:
        parts.insert(0, Part(len(pads.direct), "8-key push button modules",
                             "ready-made: 8 independent keys to GND on a 9-pin 2.54 mm header "
                             "(GND K1..K8; a VCC pin, where there is one, stays free), one per seat", 1))
        parts.append(Part(9 * len(pads.direct), "jumper leads, female-female, 30 cm",
                          "8 keys and GND per module, module pin to header pin; a ribbon of 10 "
                          "peeled apart keeps each module's leads together", 10))
        parts.append(Part(len(pads.direct), "labels or coloured tape", "seat numbers on each module and "
                          "its bundle of leads"))
    if pads.wiring == "direct" and hubbed:
        notes.append("Direct: each key joins its GPIO to its pad's ground wire when pressed. On "
                     f"the hub each key line has {_ohms(SERIES_OHMS['key'])} in series right at its "
                     f"header pin, then {PULL_UP} to the 3V3 rail (a stiffer line than the Pi's own "
                     "50-65 kOhm on 1.5 m of cable: fewer spurious edges); on the pad, "
                     f"{CAP['key']} from each key's contact to ground beside the key (a spark from a "
                     "finger). The resistor limits a driver switched on later, or a misplugged 5 V, "
                     "to about a milliampere.")
        parts.insert(0, Part(n_keys, "push buttons",
                             BUTTONS, _spare(n_keys)))
        parts.append(Part(n_keys, f"{PULL_UP} resistors", "key pull-ups to the 3V3 rail, on the hub; "
                          "1/4 W metal film", _spare(n_keys)))
        parts.append(Part(n_keys, f"{_ohms(SERIES_OHMS['key'])} resistors",
                          "one in series per key line, at its header pin; 1/4 W metal film", _spare(n_keys)))
        parts.append(Part(n_keys, f"{CAP['key']} ceramic capacitors", "one per key, on the pad: from the "
                          "key's contact to ground, beside the key; 50 V, 5 mm pitch", _spare(n_keys)))
    if pads.wiring == "matrix":
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
        n = len(m.rows)
        notes.append("Matrix: each pad is a row, each key a column; a key joins its column to "
                     "its pad's row, not to ground. The columns split at the hub: each column "
                     "runs from its header pin to the same contact of every pad's connector, so "
                     "every pad's cable carries all 8 columns, its own row and a ground.")
        notes.append(f"Diodes are mandatory: one {DIODE} on every key, from the column to the row, "
                     "the band (cathode) towards the row; without them, keys held together on two "
                     "pads read as a third key. pitable never drives a row high, so even a "
                     "missing diode shorts no pin.")
        notes.append(f"Pull-ups: {PULL_UP} from each column to 3V3, on the hub. A released "
                     f"column then rises in ~10 us instead of ~60 us through {n} pads' cable, "
                     "and picks up less noise; pitable waits 100 us after each row change. Each "
                     f"column has {_ohms(SERIES_OHMS['column'])} in series right at its header pin "
                     f"(its pull-up after it), each row {_ohms(SERIES_OHMS['row'])}: that is why the "
                     "diodes are Schottky (the low-level budget). No capacitors on a matrix: they "
                     "would slow the columns past the 100 us settle.")
        parts.insert(0, Part(8 * n, "push buttons",
                             BUTTONS, _spare(8 * n)))
        parts.insert(1, Part(8 * n, f"diodes {DIODE}",
                             "one per key, band towards the row; mandatory; DO-35 (BAT85 is the same; "
                             "not 1N4148: see the low-level budget)", _spare(8 * n)))
        parts.append(Part(8, f"{PULL_UP} resistors", "column pull-ups to 3V3, on the hub; 1/4 W metal film",
                          _spare(8)))
        parts.append(Part(8, f"{_ohms(SERIES_OHMS['column'])} resistors",
                          "one in series per column, at its header pin; 1/4 W metal film", _spare(8)))
        parts.append(Part(n, f"{_ohms(SERIES_OHMS['row'])} resistors",
                          "one in series per row, at its header pin; 1/4 W metal film", _spare(n)))
    elif pads.wiring == "keyboard":
        notes.append("Keyboard pads: rows of the computer's keyboard; nothing to wire.")
    if leds:
        notes.append(f"LED: GPIO -> {RESISTOR} resistor on the hub (at the Pi: a crushed pad cable "
                     "then cannot short the pin; solder it right at its header pin) -> the pad's "
                     "cable -> LED long leg; short leg -> the pad's ground wire. Red or yellow LEDs "
                     f"light at ~4 mA through {RESISTOR} from 3.3 V; blue and white need ~3 V and "
                     "get under 1 mA.")
        parts.append(Part(leds, "LEDs, red or yellow, 3 mm or 5 mm", "one per seat; not blue or white",
                          _spare(leds)))
        parts.append(Part(leds, f"{RESISTOR} resistors", "one per LED, on the hub", _spare(leds)))
    if buzzers:
        parts.append(Part(buzzers, "active buzzers, 3.3 V", "under 15 mA, or driven by a transistor"))
        parts.append(Part(buzzers, f"{_ohms(SERIES_OHMS['buzzer'])} resistors",
                          "one in series per buzzer line, at its header pin", _spare(buzzers)))
    # grounds: only header pins that never meet 5 V when the ribbon is misplugged; the
    # display takes a free one, else shares seat 1's (the hub has one ground bus)
    for i, s in enumerate(needs_ground):
        board = SAFE_GROUNDS[i % len(SAFE_GROUNDS)]
        uses.append(_fixed(board, "ground", f"ground of seat {s + 1}'s pad", "GND", seat=s))
    display_uses = [u for u in uses if u.role == "display"]
    if d.is_hardware:
        taken = [u.board for u in uses if u.role == "ground"]
        ground = next((b for b in SAFE_GROUNDS if b not in taken), SAFE_GROUNDS[0])
        uses.append(_fixed(ground, "ground", "display GND", "GND"))
    rail_for = []
    if d.is_hardware:
        rail_for.append("display VCC")
    if pads.wiring == "matrix":
        rail_for.append("column pull-ups")
    elif pads.wiring == "direct":
        rail_for.append("key pull-ups")
    if rail_for:
        what = ("display VCC (3V3)" if d.is_hardware else "3V3") + (
            f"; {PULL_UP} {rail_for[-1].split()[0]} pull-ups (the hub's 3V3 rail)" if hubbed else "")
        uses.append(_fixed(RAIL_PIN, "power", what, "3V3"))
    cables = _cables(uses, pads.wiring, seats) if hubbed else None
    if cables:
        notes.append(cables[0])
        wires = cables[1]
        cores = next((c for c in (10, 12, 14, 16, 20) if c > wires), wires + 1)   # a spare core
        parts.append(Part(seats, f"multicore cables, {cores} cores, {CABLE_M} m",
                          f"one per pad, {wires} cores used, spare cores to ground; e.g. LiYY {cores} x "
                          "0.14 mm2 (LiYCY, shielded, with the shield on the plug's hood, where sparks "
                          "are common)"))
        parts.append(Part(seats, "D-sub 15 (DA-15) connector pairs",
                          "one per pad: a male solder-cup plug with a metal hood (its clamp is the "
                          "strain relief) on the cable, a female solder-cup socket on the hub box's "
                          "panel, wired to the board with flying leads (PCB D-subs have a 2.77 mm "
                          "pitch: they do not fit 2.54 mm board)", 1))
        parts.append(Part(1, "40-way GPIO ribbon cable, 2x20 female ends",
                          "15-20 cm, keyed sockets; red stripe = pin 1; the Pi's header to the hub"))
        parts.append(Part(2, "2x20 box headers, 2.54 mm", "shrouded, keyed: one on the hub, one on "
                          "the Pi adapter; clip off every pin the config does not use before soldering "
                          "(checklist A1)", 1))
        parts.append(Part(1, "Pi adapter: HAT-size proto board, 65 x 56 mm",
                          "with the HAT's 2x20 footprint and its four 2.7 mm holes 58 x 49 mm apart; "
                          "the ribbon's keyed end at the Pi"))
        parts.append(Part(1, "2x20 female header, 2.54 mm, 8.5 mm tall",
                          "under the Pi adapter, onto the Pi's header"))
        parts.append(Part(4, "M2.5 standoffs, 11 mm, female-female, with 8 M2.5 x 6 mm screws",
                          "hold the Pi adapter on the Pi's four mounting holes: it cannot go on turned "
                          "round or a pin over", 1))
        parts.append(Part(1 + seats, "perfboards (stripboard)",
                          f"2.54 mm: one for the hub (160 x 100 mm, strips cut as drawn), one per pad "
                          f"({PAD_BOARD_MM[0]} x {PAD_BOARD_MM[1]} mm: 8 keys in a row, "
                          f"{KEY_PITCH_HOLES} holes = {KEY_PITCH_MM:.2f} mm apart)", 1))
        parts.append(Part(1, "100 nF ceramic + 10 uF 16 V electrolytic capacitor",
                          "decoupling at the start of the hub's 3V3 rail"))
        parts.append(Part(1, "hub box, ABS, about 180 x 120 x 50 mm",
                          f"room for {seats} DA-15 cut-outs (31 x 13 mm each, 2 x M3) and the ribbon's slot"))
        parts.append(Part(seats, f"pad boxes, ABS, about {PAD_BOX_MM[0]} x {PAD_BOX_MM[1]} x {PAD_BOX_MM[2]} mm",
                          f"inside at least 170 x 65 x 30 mm; {LID_HOLE_MM:g} mm holes in the lid "
                          f"{KEY_PITCH_MM:.2f} mm apart; the board hangs under the lid, only the caps "
                          "through it: no bare solder under a finger"))
        parts.append(Part(4 * seats, f"M3 standoffs, {pad_standoff_mm():.0f} mm, with 2 M3 x 6 mm screws each",
                          f"the pad's board under its lid: switch {SWITCH_MM:g} mm + cap {CAP_MM:g} mm "
                          f"- lid {LID_MM:g} mm - {PROUD_MM:g} mm proud = {pad_standoff_mm():.1f} mm; "
                          "measure your caps and lid and work it out the same way",
                          _spare(4 * seats)))
        parts.append(Part(2 * seats, "M3 x 10 mm screws and nuts",
                          "the hub box's DA-15 sockets, through their flanges and the panel", 2))
        parts.append(Part(1, "M3 solder lug, ring type",
                          "under one socket's screw: the sockets' shells to the hub's ground bus"))
        parts.append(Part(1, "Raspberry Pi case open over the header (one that takes a HAT), "
                             "and its official power supply",
                          "5.1 V: 3 A USB-C for a Pi 4 / 5, 2.5 A micro-USB for a Pi 3 / Zero 2 W"))
        parts.append(Part(1, "hook-up wire, solid core 0.5 mm (AWG 24), 3 colours x 5 m",
                          "links on the hub and the pads; red for 3V3, black for ground"))
        parts.append(Part(1, "heat-shrink tubing, 1.5-6 mm assortment", "on every solder cup of the D-subs"))
        parts.append(Part(2 * seats, "cable ties, 100 mm", "strain relief where each cable enters a pad box",
                          _spare(2 * seats)))
        parts.append(Part(4, "M3 standoffs with screws, 10 mm", "the hub board in its box", 1))
    uses = _merge_grounds(uses)
    display_pins = [u for u in uses if u.role in ("display",)
                    or (u.role in ("power", "ground") and "display" in u.what)]
    connector = ()
    if display_pins and not hubbed:
        parts.append(Part(len(display_pins), "jumper leads, female-female, 20 cm",
                          "the display module's pins to the Pi's header, by the labels on the module", 2))
        parts.append(Part(1, "display bezel or case for the module",
                          "printed or bought for a 0.96\" / 1.3\" 128x64 module: no bare pins on the table"))
    elif display_pins:
        if d.interface == "i2c":
            sig = {u.short: u for u in display_uses}
            gnd = next(u for u in uses if u.role == "ground" and "display GND" in u.what)
            connector = ((1, "GND", gnd.board), (2, "VCC 3V3", RAIL_PIN))
            connector += tuple((i, name, sig[name].board) for i, name in ((3, "SCL"), (4, "SDA"))
                               if name in sig)
            parts.append(Part(1, "JST-XH 4-pin header, 2.5 mm, straight",
                              "the display's keyed connector on the hub: 1 GND, 2 VCC (3V3), 3 SCL, 4 SDA"))
        else:
            sig = {u.short: u for u in display_uses}
            gnd = next(u for u in uses if u.role == "ground" and "display GND" in u.what)
            cs = next((c for c in ("CE0", "CE1", "CE2") if c in sig), "CE0")
            order = ((3, "D0", "SCLK"), (4, "D1", "MOSI"), (5, "RES", "RST"), (6, "DC", "DC"),
                     (7, "CS", cs))
            connector = ((1, "GND", gnd.board), (2, "VCC 3V3", RAIL_PIN))
            connector += tuple((i, name, sig[key].board) for i, name, key in order if key in sig)
            parts.append(Part(1, f"JST-XH {len(connector)}-pin header, 2.5 mm, straight",
                              "the display's keyed connector on the hub: "
                              + ", ".join(f"{i} {name}" for i, name, _ in connector)))
        signals = [u for u in display_uses]
        parts.append(Part(1, f"JST-XH {len(connector)}-pin cable, 30 cm, single-ended",
                          "one pre-crimped housing at the hub end; the free ends soldered to the "
                          "module's pins in the order printed on it (or crimped into a Dupont housing), "
                          "each joint in heat-shrink"))
        parts.append(Part(len(signals), f"{_ohms(SERIES_OHMS['display'])} resistors",
                          "one in series per display signal line, at its header pin on the hub; "
                          "1/4 W metal film", _spare(len(signals))))
        parts.append(Part(1, "display bezel or case for the module",
                          "printed or bought for a 0.96\" / 1.3\" 128x64 module, with M2 screws: no "
                          "bare pins on the table for a finger or a spilled drink"))
        twisted = "SDA" if d.interface == "i2c" else "SCLK (D0)"
        notes.append(f"The display's cable: at most 30 cm, {twisted} twisted with a ground wire; "
                     f"every signal line has {_ohms(SERIES_OHMS['display'])} in series at its header pin "
                     "on the hub (a slipped lead or a spark meets it, not the Pi's pin"
                     + ("; on SPI it also damps ringing on the clock, at the 4 MHz the shipped "
                        "config runs" if d.interface == "spi" else "") + "). For a "
                     "display farther away use an SPI module on shielded cable, or I2C at 100 kHz "
                     "(dtparam=i2c_arm_baudrate=100000), or a bus extender (P82B715, PCA9615).")
    display = config.display.describe()
    kind = config.display.interface if config.display.is_hardware else ""
    uses_t = tuple(sorted(uses, key=lambda u: u.board))
    hub = _hub_lines(uses_t, pads.wiring, seats) if hubbed else ()
    budget = _budget(pads.wiring) if hubbed else ()
    return Wiring(pads.wiring, seats, display, kind, uses_t,
                  _merge_parts(parts), tuple(notes), tuple(sorted(reserved)), hub,
                  contact_map(pads.wiring) if hubbed else (),
                  DIODE if pads.wiring == "matrix" else "", budget, connector,
                  pads.build if wired else "hub")


def _hub_lines(uses, kind: str, seats: int) -> tuple[HubLine, ...]:
    contacts = {sig: c for c, sig in contact_map(kind)}
    out = []
    for u in uses:
        if u.role == "ground":
            to = "the ground bus" + (", and every pad's contacts 9 11 13 15" if u.seat is not None else "")
            out.append(HubLine(u.board, None, u.what, to=to))
        elif u.role == "power":
            out.append(HubLine(u.board, None, u.what, to="the 3V3 rail (100 nF + 10 uF to ground)"))
        elif u.role == "display":
            out.append(HubLine(u.board, u.bcm, u.what, _ohms(SERIES_OHMS["display"]),
                               to="the display connector"))
        elif u.role == "key":
            # on GPIO 2 and 3 the Pi's fixed 1.8 kOhm pull-ups would hold 1 kOhm's low level
            # at 1.2 V, over V_IL: 100 ohm there (0.17 V)
            ohms = 100 if u.bcm in (2, 3) else SERIES_OHMS["key"]
            out.append(HubLine(u.board, u.bcm, u.what, _ohms(ohms), PULL_UP, "",
                               f"pad {u.seat + 1}, contact {contacts['key ' + KEY_NAMES[u.key]]}"))
        elif u.role == "column":
            out.append(HubLine(u.board, u.bcm, u.what, _ohms(SERIES_OHMS["column"]), PULL_UP, "",
                               f"every pad, contact {contacts['column ' + KEY_NAMES[u.key]]}"))
        elif u.role in ("row", "led", "buzzer"):
            sig = {"row": "row", "led": "LED", "buzzer": "buzzer"}[u.role]
            out.append(HubLine(u.board, u.bcm, u.what, _ohms(SERIES_OHMS[u.role]),
                               to=f"pad {u.seat + 1}, contact {contacts[sig]}"))
    return tuple(out)


def low_level(kind: str, diode: str = DIODE) -> float:
    """The highest voltage a pressed key's line shows at its Pi pin (worst case).

    The hub's pull-up sits after the series resistor (on the pads' side), so the only
    current in that resistor is the Pi's own pull-up's (50 kOhm at its lowest)."""
    if kind == "direct":
        return V_SUPPLY * SERIES_OHMS["key"] / (SERIES_OHMS["key"] + R_INTERNAL)
    node = _matrix_node(diode)
    return node + (V_SUPPLY - node) / R_INTERNAL * SERIES_OHMS["column"]


def _matrix_node(diode: str = DIODE) -> float:
    # all 8 keys of one pad held: the row sinks 8 columns' pull-up currents
    i_col = (V_SUPPLY - 0.6) / 10_000
    i_row = 8 * i_col
    return V_OL_8MA * i_row / 0.008 + i_row * SERIES_OHMS["row"] + V_F[diode]


def _budget(kind: str) -> tuple[str, ...]:
    if kind == "direct":
        v = low_level("direct")
        return (f"A pressed key holds its contact at 0 V; the Pi's pin sees it through its "
                f"{_ohms(SERIES_OHMS['key'])}, against the Pi's own 50 kOhm pull-up: 3.3 V x "
                f"{_ohms(SERIES_OHMS['key'])} / 51 kOhm = {v:.2f} V, under V_IL {V_IL} V "
                f"({V_IL - v:.2f} V to spare).",)
    i_col = (V_SUPPLY - 0.6) / 10_000
    i_row = 8 * i_col
    v = low_level("matrix")
    v_si = low_level("matrix", "1N4148")
    return (
        f"A pressed key on a matrix, worst case (all 8 keys of a pad held): each column's {PULL_UP} "
        f"pull-up sends {i_col * 1000:.2f} mA through its key, and the row sinks {i_row * 1000:.1f} mA.",
        f"The row pin's low output: {V_OL_8MA * i_row / 0.008:.2f} V; the row's "
        f"{_ohms(SERIES_OHMS['row'])}: {i_row * SERIES_OHMS['row']:.2f} V; the diode: "
        f"{V_F[DIODE]:.2f} V ({DIODE}); the column's {_ohms(SERIES_OHMS['column'])} carries only the "
        f"Pi's own pull-up current: {v - _matrix_node():.2f} V.",
        f"Sum: {v:.2f} V at the column's pin, under V_IL {V_IL} V ({V_IL - v:.2f} V to spare; one key "
        "held leaves about 0.35 V).",
        f"With 1N4148s ({V_F['1N4148']:.2f} V) the same is {v_si:.2f} V: over V_IL, so the series "
        "resistors need Schottky diodes.",
    )


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


def _merge_parts(parts: list[Part]) -> tuple[Part, ...]:
    """One line per part a shop sells: the same resistor for rows and the display is one
    line, its uses joined."""
    out: dict[str, Part] = {}
    for p in parts:
        if p.name in out:
            q = out[p.name]
            count = q.count + p.count
            out[p.name] = Part(count, p.name, f"{q.note}; {p.note}", _spare(count) if q.spare or p.spare else 0)
        else:
            out[p.name] = p
    return tuple(out.values())


def _merge_grounds(uses: list[PinUse]) -> list[PinUse]:
    """More grounds than ground pins (not with today's limits): one pin, several wires."""
    out: dict[int, PinUse] = {}
    rest = []
    for u in uses:
        if u.bcm is None and u.board in out:
            first = out[u.board]
            out[u.board] = PinUse(u.board, None, first.role, f"{first.what}; {u.what}", first.short,
                                  seat=first.seat if first.seat is not None else u.seat)
        elif u.bcm is None:
            out[u.board] = u
        else:
            rest.append(u)
    return rest + list(out.values())


def checklist(wiring: Wiring) -> list[str]:
    """The checks before first power, in order: with the Pi off (continuity), with the
    hub unplugged (voltages), then ``pitable pads``. Each line is one thing to do."""
    if wiring.kind not in ("direct", "matrix"):
        return ["Keyboard pads: nothing to wire, nothing to check."]
    if wiring.build == "jumpers":
        return _jumper_checklist(wiring)
    out = ["A. Before you plug anything in: a meter with a beeper, the Pi off and its power "
           "supply unplugged; the ribbon, the pads and the display all unplugged from the hub."]
    clipped = wiring.clipped
    out.append(f"A1. Clipped off both box headers (the hub's and the Pi adapter's), every pin this "
               f"config does not use: {' '.join(map(str, clipped))} ({len(clipped)} pins; 5 V on 2 "
               "and 4 and 3V3 on 17 among them). Look at each place: no pin stub, and no beep from "
               "its strip to anything.")
    out.append(f"A2. 3V3 rail (hub pin {RAIL_PIN}) to the ground bus: no beep (a short beep as the "
               "10 uF charges is fine; a steady one is a short).")
    lines = [h for h in wiring.hub if h.bcm is not None]
    pulled = {}
    for h in lines:
        if h.pull_up:
            ohms = _value(h.series) + _value(h.pull_up)
            pulled.setdefault(_ohms(ohms), []).append(str(h.board))
    grounds = " ".join(str(u.board) for u in wiring.uses if u.role == "ground")
    a3 = (f"A3. Every signal pin (every used hub pin but pin {RAIL_PIN}, the rail, and the ground "
          f"pins {grounds}) to the ground bus and to the 3V3 rail: no beep.")
    if pulled:
        a3 += " On ohms, to the rail: " + "; ".join(
            f"pins {' '.join(b)} read {r} (series resistor + pull-up)" for r, b in pulled.items()) + "."
    out.append(a3)
    pairs = wiring.neighbours()
    if pairs:
        out.append("A4. Neighbours on the box header (a solder bridge joins them): no beep between "
                   + ", ".join(f"{u.board}-{v.board}" for u, v in pairs) + ".")
    out.append("A5. Each line from its header pin to its DA-15 contact (a display line: to its "
               "connector pin) reads its resistor: "
               + "; ".join(sorted({f"{h.series} ({_kind_of(h)})" for h in lines if h.series})) + ".")
    if wiring.kind == "direct":
        out.append("A6. Each pad, on its own plug: contacts 9, 11, 13 and 15 beep to each other "
                   "(ground); key contact 1-8 to ground: open (a blip as its 10 nF charges), and a "
                   "steady beep while that key is held (a steady beep without it: the switch is "
                   "wired across two legs joined inside; use diagonally opposite legs).")
    else:
        out.append("A6. Each pad, on its own plug, meter on diode test: red probe on a key's "
                   "contact (1-8), black on contact 10 (the row): about 0.2-0.35 V while that key "
                   "is held (its Schottky), open when not; probes the other way round: always open. "
                   "Contacts 9, 11, 13 and 15 beep to each other (ground) and never to 10.")
    if wiring.of_role("led"):
        out.append("A6b. Each pad's LED, meter on diode test: red probe on contact 12, black on "
                   "contact 9: about 1.6-2 V and the LED glows faintly; the other way round: open.")
    if wiring.display_kind:
        out.append("A7. The display's lead: module GND to connector pin 1 and VCC to pin 2, "
                   "checked against the labels printed on the module, not the picture.")
    out.append("A8. The Pi adapter, off the Pi: each pin the config uses beeps from its box "
               "header pin to the same pin of the female header underneath, and to no neighbour.")
    out.append("B. Voltages, with the hub unplugged: the adapter screwed onto the Pi, the ribbon "
               "on the adapter only. Power the Pi; black probe on a ground you know (the metal shell "
               "of the Pi's USB-A or HDMI socket), red probe a male jumper pin pushed into each hole "
               "of the ribbon's free socket.")
    out.append(f"B1. Hole {RAIL_PIN}: 3.3 V. Holes {grounds} (ground): 0 V. No hole above 3.4 V "
               "(holes 2 and 4 read nothing: clipped off the adapter). Anything else: the ribbon or "
               "the adapter is on wrong: power off and fix it. Without the adapter, do B1 every time "
               "the ribbon goes on the Pi.")
    out.append("B2. Power off, plug the hub in (pads and display still out), power on: the 3V3 rail "
               "3.3 V to the ground bus; every DA-15 socket's contacts 9, 11, 13, 15: 0 V; no "
               "contact of any socket above 3.4 V.")
    c = ("C. Power off, plug in the display and the pads, power on, and run `pitable pads`: ")
    if wiring.of_role("led"):
        c += ("at its start each seat's LED blinks in turn, seat 1 first (the terminal names the "
              "seat and pin): a dark or wrong LED is a wire to find. Then ")
    c += ("press each pad's keys in order 1 2 3 4 5 6 A X; each shows its seat, key and the "
          "header pin(s) it came in on. A wrong or silent key is a wire to find, not a fault "
          "to live with.")
    out.append(c)
    return out


def _jumper_checklist(wiring: Wiring) -> list[str]:
    """No soldering, no hub: each lead goes where the table says, and nothing anywhere else."""
    out = ["A. With the Pi off and its power supply unplugged, every lead plugged as below, counting "
           "the Pi's header from pin 1 (the end nearest the microSD slot; from below its solder pad is "
           "the square one; odd pins the inner row)."]
    for s in range(wiring.seats):
        pins = wiring.seat_pins(s)
        keys = sorted((u for u in pins if u.role == "key"), key=lambda u: u.key)
        ground = next(u for u in pins if u.role == "ground")
        out.append(f"A{s + 1}. Seat {s + 1}'s module: "
                   + ", ".join(f"K{u.key + 1} (key {u.short}) to pin {u.board}" for u in keys)
                   + f", GND to pin {ground.board}; its VCC pin, if it has one, to nothing.")
    n = wiring.seats
    if wiring.display_kind:
        shown = [u for u in wiring.uses if u.role == "display"
                 or (u.role in ("power", "ground") and "display" in u.what)]
        out.append(f"A{n + 1}. The display, by the labels printed on the module: "
                   + ", ".join(f"{u.short if u.role != 'power' else 'VCC'} to pin {u.board}" for u in shown)
                   + ". VCC to pin 1 (3V3) only, never 2 or 4 (5 V).")
    free = [b for b in range(1, 41) if b not in {u.board for u in wiring.uses}]
    out.append(f"A{n + 2}. Nothing on pins {' '.join(map(str, free))} (pins 2 and 4 are 5 V, 17 is "
               "3V3); one lead per pin; no lead on any module's VCC.")
    out.append("A check with a meter, if you have one: each module's GND pin to K1..K8: open, and a "
               "steady beep only while that key is held.")
    out.append("C. Power on and run `pitable pads`: press each pad's keys in order 1 2 3 4 5 6 A X; "
               "each shows its seat, key and the header pin it came in on. A wrong or silent key is a "
               "lead to move.")
    return out


def _value(text: str) -> float:
    number, unit = text.split()
    return float(number) * (1000 if unit == "kOhm" else 1)


def _kind_of(h: HubLine) -> str:
    if h.what.startswith("display"):
        return "display lines"
    for word in ("column", "row", "key", "LED", "buzzer"):
        if word in h.what:
            return {"key": "keys", "row": "rows", "column": "columns", "LED": "LEDs",
                    "buzzer": "buzzers"}[word]
    return h.what


# ---------------------------------------------------------------- pins that bite

@dataclass(frozen=True)
class PinWarning:
    """One pad pin on a pin with another job (doctor checks them one by one)."""

    use: PinUse
    bite: Bite
    series: str = ""        # the resistor at its header pin on the hub, "" for none

    @property
    def path(self) -> str:
        return self.use.path

    def message(self) -> str:
        return BiteWarning(self.bite, (self.use,), self.series).message()


# a key (or a matrix column) is a switch to ground: on a driven output it is a short
_SWITCHES = ("key", "column")


@dataclass(frozen=True)
class BiteWarning:
    """All the pad pins on one job's pins: said once, in one line."""

    bite: Bite
    uses: tuple[PinUse, ...]
    series: str = ""        # the smallest resistor at their header pins on the hub, "" for none

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
            if self.series:
                ma = V_SUPPLY / _value(self.series) * 1000
                text += (f" A key pressed on GPIO {gp} then pulls an output the driver drives to "
                         f"ground through its {self.series} on the hub: {ma:.0f} mA, no harm, but "
                         "the key reads nothing.")
            else:
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
            line = wiring.line_of(use.board)
            out.append(PinWarning(use, bite, line.series if line is not None else ""))
    return out


def bite_warnings(wiring: Wiring) -> list[BiteWarning]:
    """:func:`pin_warnings` grouped by job: one warning per job, naming all its pins."""
    warned = pin_warnings(wiring)
    out = []
    for bite in dict.fromkeys(w.bite for w in warned):
        mine = [w for w in warned if w.bite is bite]
        uses = sorted((w.use for w in mine), key=lambda u: u.bcm)
        series = [w.series for w in mine if w.use.role in _SWITCHES]
        # the weakest protection speaks for all: any switch line without a resistor, or the smallest
        least = "" if not series or "" in series else min(series, key=_value)
        out.append(BiteWarning(bite, tuple(uses), least))
    return out
