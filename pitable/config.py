"""YAML -> validated, frozen configuration values (the schema is docs/config.md).

Every problem is a :class:`~pitable.errors.ConfigError` with one line,
``FILE: key.path: what is wrong``.

How it works: each key has a *check*, a function ``check(value, at) -> value`` that
returns the clean value or calls ``at.fail(message)``; ``at`` is the key path being read.
:func:`_mapping` and :func:`_list` combine checks into the shape of the file. Defaults go
through the same checks as written values, and every pin read is noted on the way, so
the last step (:func:`_check_pins`) sees all the pins in use, written or defaulted.
"""

from __future__ import annotations

import dataclasses
import difflib
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from collections.abc import Callable

import yaml

from pitable.errors import ConfigError
from pitable.hardware.header import BOARD_POWER, BOARD_TO_BCM, bus_pins
from pitable.hardware.panel import HARDWARE as HARDWARE_DISPLAYS  # the OLED controllers
from pitable.i18n import LANGUAGES  # the locale files' languages (no words are loaded)
from pitable.keys import COUNT as KEYS_PER_PAD
from pitable.rules.games import ASSISTANT_LEVELS
from pitable.screens.views import NOTICE_SECONDS, REVEAL_SECONDS  # the screens' times
from pitable.rules.games import GAMES as REGISTRY  # the games and their seat limits

__all__ = [
    "Config", "DisplayConfig", "PadsConfig", "SeatWiring", "MatrixWiring",
    "load_config", "parse_config", "check_config_main", "default_log_dir",
    "parse_pin", "BOARD_TO_BCM", "pin_warnings",
]

GAMES = {name: (spec.title, spec.min_players, spec.max_players) for name, spec in REGISTRY.items()}
# The word for the garden cards in the config is the screen's ("Cards: real | virtual");
# "physical", the word before it (and the game's own name in logs and code), is still read.
DECK_WORDS = {"real": "physical", "virtual": "virtual", "physical": "physical"}
DISPLAYS = HARDWARE_DISPLAYS + ("pygame", "capture", "gifanim", "terminal", "dummy")
TRANSFORMS = ("none", "identity", "scale2x", "smoothscale", "led_matrix", "seven_segment")
PIN_FACTORIES = ("default", "gpiod", "lgpio", "rpigpio", "pigpio", "native", "mock")
WIRINGS = ("direct", "matrix", "keyboard")

# The 40-pin header (physical pin -> BCM GPIO, power and ground): one map, in
# pitable.hardware.header, for these checks, `pitable wiring` and `doctor`.

# The pinout used when `wiring: direct` has no `direct:` list (config/pitable.yaml shows
# it): seat 1 on the odd header column, seat 2 on the even one, one LED each.
DEFAULT_DIRECT = [   # config/pitable.yaml's, which explains the pins (docs/wiring.md)
    {"keys": [4, 17, 27, 22, 9, 0, 5, 6], "led": 10},
    {"keys": [23, 24, 25, 1, 12, 16, 13, 26], "led": 11},
]
# Seats 5 and 6 are the first two rows with Alt (pitable.hardware.keyboard explains why).
DEFAULT_KEYBOARD = ("12345678", "qwertyui", "asdfghjk", "zxcvbnm,", "alt+12345678", "alt+qwertyui")
ALT = "alt+"


# ---------------------------------------------------------------- the values

@dataclass(frozen=True)
class DisplayConfig:
    """The display section; the names are luma.core's command-line options."""

    display: str = "ssd1306"
    interface: str = "i2c"
    i2c_port: int = 1
    i2c_address: int = 0x3C
    spi_port: int = 0
    spi_device: int = 0
    spi_bus_speed: int = 4_000_000   # a 30 cm jumper lead; 8 MHz and more ring on it (docs/wiring.md)
    gpio_data_command: int = 24
    gpio_reset: int | None = 25
    width: int = 128
    height: int = 64
    rotate: int = 0
    contrast: int = 255
    blank_after: float = 300
    scale: int = 4
    transform: str = "identity"   # crisp square pixels at any scale

    @property
    def is_hardware(self) -> bool:
        return self.display in HARDWARE_DISPLAYS

    def luma_options(self) -> dict[str, Any]:
        """The options for ``pitable.hardware.display.open_display``: every key of the section."""
        return dataclasses.asdict(self)

    def describe(self) -> str:
        if not self.is_hardware:
            return self.display
        if self.interface == "i2c":
            return f"{self.display} on i2c-{self.i2c_port} at 0x{self.i2c_address:02X}"
        return f"{self.display} on spi{self.spi_port}.{self.spi_device}"


@dataclass(frozen=True)
class SeatWiring:
    """One directly wired pad: 8 key pins (BCM) and optional LED and buzzer pins."""

    keys: tuple[int, ...]
    led: int | None = None
    buzzer: int | None = None


@dataclass(frozen=True)
class MatrixWiring:
    """Seats are rows, keys are the 8 shared columns; ``leds`` has one entry per row (None: no LED)."""

    rows: tuple[int, ...]
    columns: tuple[int, ...]
    leds: tuple[int | None, ...]


@dataclass(frozen=True)
class PadsConfig:
    pin_factory: str = "default"
    wiring: str = "direct"
    build: str = "hub"       # hub: soldered, a resistor on every line | jumpers: ready-made key modules on leads
    bounce: float = 0.02
    hold: float = 1.0
    direct: tuple[SeatWiring, ...] = tuple(
        SeatWiring(tuple(seat["keys"]), seat["led"]) for seat in DEFAULT_DIRECT)
    matrix: MatrixWiring | None = None
    keyboard: tuple[str, ...] = DEFAULT_KEYBOARD


@dataclass(frozen=True)
class AssistantConfig:
    """The assistant as a Grasshopper Poker player: the join screen's default (key 6 changes it)."""

    seats: int = 0                       # seats it plays (0: none; 1..3, at least one seat stays human)
    level: str = "strong"                # easy (the heuristic) or strong (the search)
    budget: int | None = None            # playouts per bid (None: pitable.sim.search.DEFAULT_BUDGET)

    def to_dict(self) -> dict:
        return {"seats": self.seats, "level": self.level, "budget": self.budget}


@dataclass(frozen=True)
class WebConfig:
    """Phones as seats and a table page (docs/phones.md): on only when the config has ``web:``."""

    port: int = 8080
    bind: str = "0.0.0.0"                # the address to listen on (0.0.0.0: every interface)
    host: str | None = None              # the address phones are told (None: the default route's)


@dataclass(frozen=True)
class Config:
    game: str = "grasshopper"
    deck: str = "physical"
    language: str = "en"                 # the table's words: en, de or vi (logs stay English)
    notice_seconds: float = NOTICE_SECONDS  # a screen that only informs moves on after this (0: on a key)
    reaction_seconds: float = 0.3        # a key is judged by the screen up this long when it went down
    reveal_seconds: float = REVEAL_SECONDS  # the bids stay on the glass at least this long, whatever is pressed
    log_dir: Path | None = None          # None: default_log_dir()
    seats: int = len(DEFAULT_DIRECT)     # how many pads are wired
    display: DisplayConfig = DisplayConfig()
    pads: PadsConfig = PadsConfig()
    assistant: AssistantConfig = AssistantConfig()
    web: WebConfig | None = None         # None: no web server (no thread, nothing imported)

    @property
    def log_path(self) -> Path:
        """Where game logs go: ``log_dir``, or :func:`default_log_dir` when unset."""
        return self.log_dir if self.log_dir is not None else default_log_dir()


SERVICE_STATE = Path("/var/lib/pitable")


def default_log_dir() -> Path:
    """$STATE_DIRECTORY (set by systemd's StateDirectory=); else the service's directory
    when this user can write it (so `pitable doctor` and `replay` look where the daemon
    writes); else ~/.local/share/pitable."""
    state = os.environ.get("STATE_DIRECTORY", "")
    first = state.split(":")[0]
    if first:
        return Path(first)
    if SERVICE_STATE.is_dir() and os.access(SERVICE_STATE, os.W_OK):
        return SERVICE_STATE
    return Path.home() / ".local" / "share" / "pitable"


# ---------------------------------------------------------------- reading helpers

class _Bad(Exception):
    def __init__(self, path: str, message: str):
        super().__init__(path, message)
        self.path, self.message = path, message


class _At:
    """A key path (``pads.direct[0].keys``) plus the list of pins read so far."""

    def __init__(self, text: str = "", pins: list | None = None, errors: list | None = None):
        self.text = text
        self.pins = pins if pins is not None else []   # (path, bcm, label)
        self.errors = errors if errors is not None else []   # every _Bad of the file's keys

    def __truediv__(self, key: object) -> _At:
        return _At(f"{self.text}.{key}" if self.text else str(key), self.pins, self.errors)

    def __getitem__(self, index: int) -> _At:
        return _At(f"{self.text}[{index}]", self.pins, self.errors)

    def fail(self, message: str):
        raise _Bad(self.text, message)

    def collect(self, check: Check, value: Any, fallback: Any = None) -> Any:
        """``check(value, self)``; a wrong value is noted and ``fallback`` stands in for
        it, so that the keys after it are checked too (check-config names every error)."""
        try:
            return check(value, self)
        except _Bad as bad:
            self.errors.append(bad)
            return fallback


Check = Callable[[Any, _At], Any]
_REQUIRED = object()


def _show(value: Any) -> str:
    """A value as a message shows it, on one short line."""
    if value is None:
        return "nothing (null)"
    if isinstance(value, bool):
        return f"{value} (YAML reads yes/no/on/off/true/false as a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _choice(*names: str) -> Check:
    listed = ", ".join(names[:-1]) + " or " + names[-1]

    def check(value, at):
        if not isinstance(value, str) or value not in names:
            at.fail(f"unknown value {_show(value)} (choose {listed})")
        return value
    return check


def _deck(value, at):
    if not isinstance(value, str) or value not in DECK_WORDS:
        at.fail(f"unknown value {_show(value)} (choose real or virtual)")
    return DECK_WORDS[value]


def _range_text(lo, hi, unit=""):
    if hi is None:
        return f"at least {lo}{unit}"
    return f"between {lo} and {hi}{unit}"


def _integer(lo: int | None, hi: int | None = None, multiple: int = 1) -> Check:
    def check(value, at):
        if not _is_int(value):
            at.fail(f"expected an integer, got {_show(value)}")
        if lo is None:
            return value
        if value < lo or (hi is not None and value > hi):
            at.fail(f"must be {_range_text(lo, hi)}, got {value}")
        if value % multiple:
            at.fail(f"must be a multiple of {multiple}, got {value}")
        return value
    return check


def _number(lo: float, hi: float | None = None, unit: str = " seconds") -> Check:
    def check(value, at):
        if not _is_number(value):
            at.fail(f"expected a number{unit}, got {_show(value)}")
        if value != value or value < lo or (hi is not None and value > hi):
            at.fail(f"must be {_range_text(lo, hi, unit)}, got {value}")
        return value
    return check


def _i2c_address(value, at):
    if isinstance(value, str):
        try:
            value = int(value.strip(), 0)
        except ValueError:
            pass
    if not _is_int(value):
        at.fail(f"expected an integer like 0x3C, got {_show(value)}")
    if not 0x03 <= value <= 0x77:
        at.fail(f"0x{value:X} is not a 7-bit I2C address (0x03..0x77)")
    return value


def _log_dir(value, at):
    if not isinstance(value, str) or not value.strip():
        at.fail(f"expected a directory path, got {_show(value)}")
    if "\0" in value:
        at.fail("a path cannot hold a NUL character")
    try:
        return Path(value).expanduser()
    except (RuntimeError, KeyError):  # ~someone who is not a user here, or no home at all
        user = value.split("/", 1)[0]
        at.fail(f"cannot expand {user}: no such user or no home directory")


def _optional(check: Check) -> Check:
    def optional(value, at):
        return None if value is None else check(value, at)
    return optional


def _list(item: Check, what: str, count: int | None = None,
          lo: int = 0, hi: int | None = None) -> Check:
    def check(value, at):
        if not isinstance(value, list):
            at.fail(f"expected a list of {what}, got {_show(value)}")
        n = len(value)
        if count is not None and n != count:
            at.fail(f"expected {count} {what}, got {n}")
        if n < lo or (hi is not None and n > hi):
            at.fail(f"expected {_range_text(lo, hi)} {what}, got {n}")
        return tuple(at[i].collect(item, v) for i, v in enumerate(value))
    return check


def _mapping(fields: dict[str, tuple[Any, Check]], make: Callable = dict,
             neighbours: dict[str, str] | None = None) -> Check:
    """A mapping with exactly these keys; each is ``name: (default, check)``.

    Missing keys take their default, which goes through the check too (so default pins
    are seen). ``neighbours`` maps keys of other sections to where they belong, to
    suggest when one is misplaced.
    """
    def check(value, at):
        if value is None:
            value = {}
        if not isinstance(value, dict):
            at.fail(f"expected a mapping of keys, got {_show(value)}")
        for key in value:
            if key not in fields:
                (at / key).collect(_unknown_key, (key, fields, neighbours))
        out = {}
        for name, (default, field_check) in fields.items():
            if name not in value and default is _REQUIRED:
                (at / name).collect(_missing, None)
                out[name] = None
                continue
            # a wrong value: its default stands in (itself checked: default pins are seen)
            out[name] = (at / name).collect(field_check, value.get(name, default),
                                            None if default is _REQUIRED else default)
        return make(**out)
    return check


def _unknown_key(found, at):
    key, fields, neighbours = found
    close = difflib.get_close_matches(str(key), list(fields), n=1)
    if close:
        at.fail(f"unknown key (did you mean {close[0]}?)")
    if neighbours and key in neighbours:
        at.fail(f"unknown key (did you mean {neighbours[key]}?)")
    at.fail(f"unknown key (known: {', '.join(fields)})")


def _missing(value, at):
    at.fail("required key is missing")


def _dataclass_fields(cls, checks: dict[str, Check], unset: tuple = ()) -> dict[str, tuple[Any, Check]]:
    """Schema fields for a dataclass: its defaults (the one place they are written), with one
    check per field; the fields in ``unset`` read None when absent (``_build`` works them out)."""
    defaults = {f.name: None if f.name in unset else f.default for f in dataclasses.fields(cls)}
    assert set(defaults) == set(checks), cls
    return {name: (defaults[name], checks[name]) for name in defaults}


# ---------------------------------------------------------------- pins

_PIN_NAME = re.compile(r"(GPIO|BCM|BOARD|J8:)?\s*(\d+)")


def parse_pin(value: Any) -> tuple[int, str]:
    """A pin as written (17, "GPIO17", "BCM17", "BOARD11", "J8:11") -> (BCM number, label).

    The label names the pin in messages ("GPIO 17", "BOARD11 (GPIO 17)").
    Raises ValueError with the reason.
    """
    if _is_int(value):
        name, number = None, value
    else:
        match = _PIN_NAME.fullmatch(value.strip().upper()) if isinstance(value, str) else None
        if not match:
            raise ValueError('expected a GPIO number like 17 or a name like "GPIO17" or '
                             f'"BOARD11", got {_show(value)}')
        name, number = match.group(1), int(match.group(2))
    if name in ("BOARD", "J8:"):
        written = f"{name}{number}"
        if number in BOARD_POWER:
            raise ValueError(f"{written} is a {BOARD_POWER[number]}, not a GPIO")
        if number not in BOARD_TO_BCM:
            raise ValueError(f"{written} is not a pin of the 40-pin header (1..40)")
        bcm = BOARD_TO_BCM[number]
        return bcm, f"{written} (GPIO {bcm})"
    if not 0 <= number <= 27:
        raise ValueError(f"GPIO {number} is out of range (BCM 0..27 on the 40-pin header)")
    return number, f"GPIO {number}"


def _pin(value, at):
    try:
        bcm, label = parse_pin(value)
    except ValueError as e:
        at.fail(str(e))
    at.pins.append((at.text, bcm, label))
    return bcm


def _bus_pins(display: DisplayConfig) -> dict[int, str]:
    """Pins taken by the display's bus, each with the reason."""
    if not display.is_hardware:
        return {}
    pins = sorted(bus_pins(display.interface, display.i2c_port if display.interface == "i2c"
                           else display.spi_port))
    if display.interface == "i2c":
        why = f"the I2C display bus (SDA/SCL are GPIO {' and '.join(map(str, pins))})"
    else:
        why = f"the SPI display bus (SPI{display.spi_port} uses GPIO {pins[0]} to {pins[-1]})"
    return {pin: why for pin in pins}


def _check_pins(pins: list, display: DisplayConfig, wiring: str) -> None:
    """Every pin in use appears once and is not on the display's bus."""
    in_use = [] if wiring == "keyboard" else [f"pads.{wiring}"]
    if display.is_hardware and display.interface == "spi":
        in_use += ["display.gpio_data_command", "display.gpio_reset"]
    bus = _bus_pins(display)
    owners: dict[int, str] = {}
    for path, bcm, label in pins:
        if not any(path == p or path.startswith((p + ".", p + "[")) for p in in_use):
            continue
        if bcm in bus:
            raise _Bad(path, f"{label} is used by {bus[bcm]}")
        if bcm in owners:
            raise _Bad(path, f"{label} is already used by {owners[bcm]}")
        owners[bcm] = path


# ---------------------------------------------------------------- the schema

def _seats(n: int) -> str:
    return f"{n} seat" if n == 1 else f"{n} seats"


def _key_row(value, at):
    if _is_int(value):
        at.fail(f'expected a string of {KEYS_PER_PAD} characters, got {value} (quote it: "{value}")')
    if not isinstance(value, str):
        at.fail(f"expected a string of {KEYS_PER_PAD} characters, got {_show(value)}")
    keys = value[len(ALT):] if value.lower().startswith(ALT) else value
    if len(keys) != KEYS_PER_PAD:
        at.fail(f"expected {KEYS_PER_PAD} characters, got {len(keys)} in {_show(value)}")
    if not value.isprintable():
        at.fail(f"only printable characters can be keys, got {_show(value)}")
    return value


_DISPLAY = _mapping(_dataclass_fields(DisplayConfig, {
    "display": _choice(*DISPLAYS),
    "interface": _choice("i2c", "spi"),
    "i2c_port": _integer(0),
    "i2c_address": _i2c_address,
    "spi_port": _integer(0, 1),
    "spi_device": _integer(0, 2),
    "spi_bus_speed": _integer(1),
    "gpio_data_command": _pin,
    "gpio_reset": _optional(_pin),
    "width": _integer(1),
    "height": _integer(8, multiple=8),
    "rotate": _integer(0, 3),
    "contrast": _integer(0, 255),
    "blank_after": _number(0),
    "scale": _integer(1),
    "transform": _choice(*TRANSFORMS),
}), make=DisplayConfig)

_SEAT = _mapping({
    "keys": (_REQUIRED, _list(_pin, "keys", count=KEYS_PER_PAD)),
    "led": (None, _optional(_pin)),
    "buzzer": (None, _optional(_pin)),
}, make=SeatWiring)

_DIRECT = _list(_SEAT, "seats (one entry per seat)", lo=1)

_MATRIX = _mapping({
    "rows": (_REQUIRED, _list(_pin, "rows (one per seat)", lo=1)),
    "columns": (_REQUIRED, _list(_pin, "columns (one per key)", count=KEYS_PER_PAD)),
    "leds": (None, _optional(_list(_optional(_pin), "LED pins (one per row, null for none)"))),
})

_KEYBOARD = _mapping({
    "rows": (list(DEFAULT_KEYBOARD), _list(_key_row, "rows", lo=2, hi=6)),
})

_PADS = _mapping(_dataclass_fields(PadsConfig, {
    "pin_factory": _choice(*PIN_FACTORIES),
    "wiring": _choice(*WIRINGS),
    "build": _choice("hub", "jumpers"),
    "bounce": _number(0, 0.5),
    "hold": _number(0.2, 10),
    "direct": _optional(_DIRECT),
    "matrix": _optional(_MATRIX),
    "keyboard": _KEYBOARD,
}, unset=("direct", "matrix", "keyboard")))

_SECTION_OF = {**{k: f"display.{k}" for k in (f.name for f in dataclasses.fields(DisplayConfig))},
               **{k: f"pads.{k}" for k in (f.name for f in dataclasses.fields(PadsConfig))}}

_TOP = _mapping(_dataclass_fields(Config, {
    "game": _choice(*GAMES),
    "deck": _deck,
    "language": _choice(*LANGUAGES),
    "notice_seconds": _number(0, 120),
    "reaction_seconds": _number(0, 2),
    "reveal_seconds": _number(0, 30),
    "log_dir": _optional(_log_dir),
    "seats": _optional(_integer(None)),   # range: see _build
    "display": _DISPLAY,
    "pads": _PADS,
    "assistant": _mapping(_dataclass_fields(AssistantConfig, {
        "seats": _integer(0, 3),
        "level": _choice(*ASSISTANT_LEVELS),
        "budget": _optional(_integer(1, 5000)),  # 5000: ~25 s a bid on a Pi Zero 2 W
    }), make=AssistantConfig),
    "web": lambda value, at: value,       # checked in _build: present (even empty) turns it on
}, unset=("seats", "display", "pads", "assistant")), neighbours=_SECTION_OF)


def _bind_address(value, at):
    import ipaddress

    if not isinstance(value, str):
        at.fail(f"expected an IP address like 0.0.0.0 or 127.0.0.1, got {_show(value)}")
    try:
        ipaddress.ip_address(value)
    except ValueError:
        at.fail(f"expected an IP address like 0.0.0.0 (every interface) or 127.0.0.1, got {_show(value)}")
    return value


def _host_name(value, at):
    if not isinstance(value, str) or not re.fullmatch(r"[A-Za-z0-9.-]{1,63}", value):
        at.fail(f"expected a host name or IPv4 address the phones can reach, like 192.168.1.20, got {_show(value)}")
    return value


_WEB = _mapping(_dataclass_fields(WebConfig, {
    "port": _integer(1, 65535),
    "bind": _bind_address,
    "host": _optional(_host_name),
}), make=WebConfig)


def _matrix(matrix: dict | None, at: _At) -> MatrixWiring | None:
    if matrix is None:
        return None
    rows, leds = matrix["rows"], matrix["leds"]
    if leds is None:
        leds = (None,) * len(rows)
    # the LED count is checked after the seat count (_check_matrix_leds): with a row
    # missing, the row is the cause and the LEDs only look wrong because of it
    return MatrixWiring(rows, matrix["columns"], leds)


def _check_matrix_leds(matrix: MatrixWiring | None, at: _At) -> None:
    if matrix is not None and len(matrix.leds) != len(matrix.rows):
        (at / "leds").fail(f"{len(matrix.leds)} LED pins for {len(matrix.rows)} rows (one per row, null for none)")


def _check_keyboard(rows: tuple[str, ...], at: _At) -> None:
    """No character is a key twice (in one row or across rows)."""
    from pitable.hardware.keyboard import KeyboardLayoutError, KeyMap

    seen: dict[tuple, int] = {}
    for i, row in enumerate(rows):
        alt = row.lower().startswith(ALT)
        for char in row[len(ALT):] if alt else row:
            if (char, alt) in seen:
                where = ("twice in this row" if seen[(char, alt)] == i
                         else f"also in pads.keyboard.rows[{seen[(char, alt)]}]")
                at[i].fail(f"key {('Alt+' if alt else '') + char!r} is {where}")
            seen[(char, alt)] = i
    try:
        KeyMap(rows)  # what the terminal can tell apart (shifted keys are long presses)
    except KeyboardLayoutError as e:
        at.fail(str(e))


def _seat_count(top: dict, pads: PadsConfig, at: _At) -> int:
    """`seats`, checked against the game and the wiring; unset, it is what is wired."""
    game, lowest, highest = GAMES[top["game"]]
    wiring, at_pads = pads.wiring, at / "pads"
    count, at_wired = {
        "direct": (len(pads.direct), at_pads / "direct"),
        "matrix": (len(pads.matrix.rows) if pads.matrix else 0, at_pads / "matrix" / "rows"),
        "keyboard": (None, at_pads / "keyboard" / "rows"),   # any number of rows up to all
    }[wiring]
    seats = top["seats"]
    if seats is None:
        seats = count if count is not None else min(len(DEFAULT_KEYBOARD), highest)
        if not lowest <= seats <= highest:
            at_wired.fail(f"{_seats(seats)} wired but {game} takes {lowest} to {highest}")
    elif not lowest <= seats <= highest:
        (at / "seats").fail(f"{game} takes {lowest} to {highest} seats, got {seats}")
    elif count is not None and count != seats:
        at_wired.fail(f"{_seats(count)} wired but seats is {seats}")
    if wiring == "keyboard" and len(pads.keyboard) < seats:
        at_wired.fail(f"{len(pads.keyboard)} rows but seats is {seats} (one row per seat)")
    return seats


def _build(data: Any) -> Config:
    """The checks of each key, then the checks across keys."""
    at = _At()
    if not isinstance(data, dict):
        at.fail(f"the top level must be a mapping of keys like 'seats: 4', got {_show(data)}")
    top = _TOP(data, at)
    web = _WEB(top["web"], at / "web") if "web" in data else None
    if at.errors:   # each key's own check first, all of them; the checks across keys need good keys
        raise _Bads(at.errors)
    raw, at_pads = top["pads"], at / "pads"
    display = top["display"]
    from pitable.hardware.panel import problem as panel_problem  # open_display's rule too

    problem = panel_problem(**dataclasses.asdict(display))
    if problem is not None:
        (at / "display" / problem[0]).fail(problem[1])
    # luma.emulator's own limits: scale2x doubles exactly, none does not scale at all.
    needs = {"scale2x": 2, "none": 1}.get(display.transform)
    if needs is not None and display.scale != needs:
        (at / "display" / "transform").fail(
            f"{display.transform} works only with scale {needs} (scale is {display.scale}); "
            "use identity to scale by any whole number")
    if raw["hold"] <= raw["bounce"]:
        (at_pads / "hold").fail(f"must be longer than pads.bounce ({raw['hold']} <= {raw['bounce']})")
    default_pinout = raw["wiring"] == "direct" and raw["direct"] is None
    if default_pinout:
        raw["direct"] = _DIRECT(DEFAULT_DIRECT, at_pads / "direct")
    if raw["wiring"] == "matrix" and raw["matrix"] is None:
        (at_pads / "matrix").fail("required when wiring is matrix (give rows and columns)")
    if raw["build"] == "jumpers" and raw["wiring"] != "direct":
        (at_pads / "build").fail("jumpers needs wiring: direct (a matrix needs a diode soldered on every key)")
    pads_given = data.get("pads")
    if raw["wiring"] == "keyboard" or (isinstance(pads_given, dict) and "keyboard" in pads_given):
        _check_keyboard(raw["keyboard"]["rows"], at_pads / "keyboard" / "rows")
    pads = PadsConfig(
        pin_factory=raw["pin_factory"], wiring=raw["wiring"], build=raw["build"], bounce=raw["bounce"],
        hold=raw["hold"], direct=raw["direct"] or (),
        matrix=_matrix(raw["matrix"], at_pads / "matrix"), keyboard=raw["keyboard"]["rows"])
    seats = _seat_count(top, pads, at)
    _check_matrix_leds(pads.matrix, at_pads / "matrix")
    try:
        _check_pins(at.pins, top["display"], pads.wiring)
    except _Bad as bad:
        if default_pinout and bad.path.startswith("pads.direct"):
            bad.message += " (pads.direct is not set: this is the default pinout)"
        raise
    return Config(game=top["game"], deck=top["deck"], language=top["language"],
                  notice_seconds=float(top["notice_seconds"]), reaction_seconds=float(top["reaction_seconds"]),
                  reveal_seconds=float(top["reveal_seconds"]), log_dir=top["log_dir"], seats=seats,
                  display=top["display"], pads=pads, assistant=top["assistant"], web=web)


# ---------------------------------------------------------------- entry points

def parse_config(data: Any, source: str) -> Config:
    """Validate already-loaded YAML data (None: an empty file). ``source`` names it in messages."""
    try:
        return _build({} if data is None else data)
    except _Bad as bad:
        raise _config_error(source, [bad]) from None
    except _Bads as bads:
        raise _config_error(source, bads.errors) from None


class _Bads(Exception):
    def __init__(self, errors: list):
        super().__init__(errors)
        self.errors = errors


def _config_error(source: str, errors: list) -> ConfigError:
    """One line per error: ``FILE: key.path: what is wrong``."""
    lines = [_one_line(f"{source}: {bad.path + ': ' if bad.path else ''}{bad.message}") for bad in errors]
    error = ConfigError("\n".join(lines))
    error.lines = lines
    return error


class _DuplicateKey(Exception):
    pass


class _BadValue(Exception):
    """A scalar PyYAML's constructors cannot make (2026-13-45, a 5000-digit integer), with its line."""


class _Loader(yaml.SafeLoader):
    """SafeLoader that refuses a key written twice in one mapping (PyYAML keeps the last)."""

    def construct_object(self, node, deep=False):
        try:
            return super().construct_object(node, deep)
        except (ValueError, TypeError, OverflowError) as e:
            raise _BadValue(f"line {node.start_mark.line + 1}: a value YAML cannot read: {e}") from None

    def construct_mapping(self, node, deep=False):
        seen: dict[Any, int] = {}
        for key_node, _ in node.value:
            if not isinstance(key_node, yaml.ScalarNode) or key_node.tag.endswith(":merge"):
                continue
            key = self.construct_object(key_node)
            line = key_node.start_mark.line + 1
            if key in seen:
                raise _DuplicateKey(f"line {line}: duplicate key {key!r} (first on line {seen[key]})")
            seen[key] = line
        return super().construct_mapping(node, deep)


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _yaml_message(error: yaml.YAMLError) -> str:
    if not isinstance(error, yaml.MarkedYAMLError):
        return f"YAML syntax error: {error}"
    mark, context_mark = error.problem_mark or error.context_mark, error.context_mark
    text = error.problem or ""
    if error.context:
        if context_mark and mark and context_mark.line != mark.line:
            text = f"{error.context} (line {context_mark.line + 1}), {text}"
        else:
            text = f"{error.context}, {text}"
    if "'\\t'" in text:
        text += " (YAML indents with spaces, not tabs)"
    line = f"line {mark.line + 1}: " if mark else ""
    return f"{line}YAML syntax error: {text.strip(', ') or 'not valid YAML'}"


def load_config(path: str | os.PathLike) -> Config:
    """Read and validate one YAML file; an empty file gives all the defaults."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"{source}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ConfigError(f"{source}: cannot read: not UTF-8 text") from None
    try:
        data = yaml.load(text, Loader=_Loader)
    except _DuplicateKey as e:
        raise ConfigError(_one_line(f"{source}: {e}")) from None
    except yaml.YAMLError as e:
        raise ConfigError(_one_line(f"{source}: {_yaml_message(e)}")) from None
    except _BadValue as e:  # PyYAML's own constructors: a date like 2026-13-45, !!float x
        raise ConfigError(_clip(f"{source}: {e}")) from None
    except RecursionError:
        raise ConfigError(f"{source}: YAML nested too deeply") from None
    except (ValueError, TypeError, OverflowError) as e:
        raise ConfigError(_clip(f"{source}: a YAML value that cannot be read: {e}")) from None
    try:
        return parse_config(data, source)
    except RecursionError:
        raise ConfigError(f"{source}: YAML nested too deeply") from None


def _clip(text: str, limit: int = 200) -> str:
    text = _one_line(text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def check_config_main(path: str | os.PathLike) -> int:
    """`pitable check-config FILE`: print a summary and return 0, or the error and return 2."""
    try:
        config = load_config(path)
    except ConfigError as e:
        print(e, file=sys.stderr)
        return 2
    print(f"{path}: ok ({config.seats} seats, display {config.display.describe()}, "
          f"wiring {config.pads.wiring})")
    if _is_empty(path):
        # say what an empty file falls back to: the Pi's defaults, not the desktop's
        print(f"{path}: sets nothing, so all of that is the default (game {config.game}, language "
              f"{getattr(config, 'language', 'en')}, "
              f"the default pinout, logs in {config.log_path}); see config/pitable.yaml")
    for line in pin_warnings(config, path):
        print(line, file=sys.stderr)
    note = pin_note(config, path)
    if note:
        print(note)
    return 0


def _is_empty(path) -> bool:
    """A file with no settings at all (empty, or only comments)."""
    try:
        return yaml.safe_load(Path(path).read_text(encoding="utf-8")) is None
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return False


def pin_warnings(config: Config, source: str | os.PathLike) -> list[str]:
    """``FILE: key.path: warning: ...`` for each pad pin that has another job at boot or on
    common set-ups (pitable.hardware.header.BITES): a working config, so not an error."""
    from pitable.hardware.wiring import bite_warnings, wiring_of

    # one line per job (SPI0, I2S...), naming all its pins: each is said once; a job that is
    # off on a stock Pi OS, or that install.sh keeps off, asks nothing of the builder: pin_note
    return [f"{source}: {w.path}: {w.message()}" for w in bite_warnings(wiring_of(config))
            if not w.bite.quiet]


def pin_note(config: Config, source: str | os.PathLike) -> str:
    """One line for the pad pins whose other job is off (nothing to do; doctor checks it on
    the Pi), or "" when there are none."""
    from pitable.hardware.wiring import bite_warnings, wiring_of

    quiet = [w for w in bite_warnings(wiring_of(config)) if w.bite.quiet]
    if not quiet:
        return ""
    # a key on a pin the job drives, with no resistor between (no hub): that job must stay off
    bare = [w.bite.name for w in quiet if not w.series
            and any(u.bcm in w.bite.driven and u.role in ("key", "column") for u in w.uses)]
    keep_off = (f" With no series resistors, keep {' and '.join(bare)} off: a key would short a pin "
                "it drives." if bare else "")
    return (f"{source}: note: pins shared with jobs that are off, nothing to do: "
            + "; ".join(f"{w.bite.name} (GPIO {', '.join(str(u.bcm) for u in w.uses)}): {w.bite.quiet}"
                        for w in quiet)
            + "." + keep_off + " `pitable doctor` checks them on the Pi; `pitable wiring` says more.")
