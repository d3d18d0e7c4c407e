"""Opening the display named in the config's ``display:`` section (luma's option names).

``open_display(options)`` returns a luma device (``display(image)``, ``hide()``,
``show()``, ``contrast()``, ``size``, ``mode``); every failure to open one is a
:class:`~pitable.errors.HardwareError` whose message says what to do.

* ``ssd1306`` / ``sh1106`` / ``ssd1309`` over ``i2c`` or ``spi``: the page-diff drivers
  of :mod:`pitable.hardware.pagediff` (only changed pages cross the bus).
* ``pygame`` / ``capture`` / ``gifanim``: luma.emulator, imported only when asked for.
* ``terminal``: :class:`TerminalDisplay`, the frame in Unicode braille in this terminal.
* ``dummy``: luma's in-memory device (``device.image`` is the last frame), for tests.

luma.oled and luma.emulator are imported inside the branches that need them.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

from luma.core.device import device as _luma_device
from luma.core.interface.serial import noop
from PIL import Image

from ..errors import HardwareError
from .captioned import Captioned
from .panel import problem as panel_problem

__all__ = ["open_display", "TerminalDisplay", "braille_lines", "HARDWARE", "DISPLAYS", "window_problem"]

from .panel import HARDWARE  # noqa: E402 - the OLED controllers, named once
DISPLAYS = HARDWARE + ("pygame", "capture", "gifanim", "terminal", "dummy")

DEFAULTS: dict[str, Any] = {
    "display": "ssd1306", "interface": "i2c", "i2c_port": 1, "i2c_address": 0x3C,
    "spi_port": 0, "spi_device": 0, "spi_bus_speed": 4_000_000,
    "gpio_data_command": 24, "gpio_reset": 25,
    "width": 128, "height": 64, "rotate": 0, "contrast": None,
    "scale": 4, "transform": "identity",
}


def open_display(options: dict, *, serial=None, stream: TextIO | None = None):
    """Open the display; ``serial`` replaces the I2C/SPI interface (tests, bus meters),
    ``stream`` is where ``terminal`` draws (default stdout)."""
    o = {**DEFAULTS, **{k: v for k, v in options.items() if v is not None or k == "gpio_reset"}}
    kind = o["display"]
    size = dict(width=int(o["width"]), height=int(o["height"]), rotate=int(o["rotate"]))
    problem = panel_problem(**{**o, **size, "spi_bus_speed": int(o["spi_bus_speed"])})  # the config check's rule
    if problem is not None:
        raise HardwareError(f"display.{problem[0]}: {problem[1]}")
    if kind in HARDWARE:
        try:
            dev = _open_oled(kind, o, size, serial)
        except HardwareError:
            raise
        except Exception as e:  # noqa: BLE001 - smbus2/spidev/luma fail in many ways; all mean "not there"
            raise HardwareError(f"display: the {kind} on {_where(o)} did not start "
                                f"({type(e).__name__}: {e})") from e
    elif kind in ("pygame", "capture", "gifanim"):
        try:
            from . import emulated
        except ImportError as e:
            raise HardwareError(
                f"display: {kind} needs luma.emulator and pygame "
                f"(pip install 'pitable[desktop]'): {e}") from e
        dev = emulated.open_emulator(kind, scale=int(o["scale"]),
                                     transform=o["transform"], **size)
    elif kind == "terminal":
        dev = TerminalDisplay(stream=stream, **size)
    elif kind == "dummy":
        from luma.core.device import dummy
        dev = dummy(mode="1", **size)
    else:
        raise HardwareError(f"display: unknown display {kind!r} "
                            f"(one of {', '.join(DISPLAYS)})")
    if o["contrast"] is not None:
        try:
            dev.contrast(int(o["contrast"]))
        except Exception as e:  # noqa: BLE001 - the panel went away between init and contrast, or a bad level
            if kind in HARDWARE and serial is None:
                _close_bus(dev)  # ours: the daemon retries, and each try would leak one
            if isinstance(e, AssertionError):
                raise HardwareError(f"display: contrast {o['contrast']} is not 0..255") from e
            raise HardwareError(f"display: setting the contrast failed: {type(e).__name__}: {e}") from e
    return dev


def _close_bus(dev) -> None:
    try:
        dev._serial_interface.cleanup()
    except Exception:  # noqa: BLE001 - a dead bus may fail to close too
        pass


# SDL's drivers that open "windows" nobody sees: chosen silently when DISPLAY names no server.
_HEADLESS_DRIVERS = ("offscreen", "dummy")


def window_problem() -> str | None:
    """Why a pygame window would not be seen here, or None if it would.

    Probes for real: with ``DISPLAY`` set but no X server behind it, SDL falls back to
    its offscreen driver and pygame "opens" a window that nobody sees (nor types into).
    A driver chosen by the user (``SDL_VIDEODRIVER``) is trusted."""
    env = os.environ
    if sys.platform not in ("darwin", "win32") and not (env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")):
        return "no graphical session (DISPLAY is not set)"
    try:
        import luma.emulator  # noqa: F401
        import pygame
    except ImportError as e:
        return f"the window needs luma.emulator and pygame ({e.name} is missing: pip install 'pitable[desktop]')"
    if env.get("SDL_VIDEODRIVER"):
        return None
    try:
        with _quiet_stderr():  # SDL prints its failed tries ("XDG_RUNTIME_DIR is invalid")
            pygame.display.init()
            driver = pygame.display.get_driver()
    except Exception as e:  # noqa: BLE001 - pygame.error, or SDL failing in its own way
        return f"no window can open ({e})"
    finally:
        pygame.display.quit()
    if driver in _HEADLESS_DRIVERS:
        where = env.get("DISPLAY") or env.get("WAYLAND_DISPLAY")
        return f"no window system answers at {where!r}"
    return None


class _quiet_stderr:
    """Silence file descriptor 2 (C libraries write there directly) for a moment."""

    def __enter__(self):
        self.saved = None
        try:
            sys.stderr.flush()
            self.saved = os.dup(2)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, 2)
            os.close(null)
        except (OSError, ValueError, AttributeError):
            pass  # no fd 2 to silence

    def __exit__(self, *exc):
        if self.saved is not None:
            os.dup2(self.saved, 2)
            os.close(self.saved)


def _open_oled(kind: str, o: dict, size: dict, serial):
    import luma.core.error as lerr

    from .pagediff import PagedSH1106, PagedSSD1306, PagedSSD1309

    cls = {"ssd1306": PagedSSD1306, "sh1106": PagedSH1106, "ssd1309": PagedSSD1309}[kind]
    where = _where(o)
    own_serial = serial is None
    if own_serial:
        serial = _open_serial(o)
    try:
        return cls(serial, **size)
    except BaseException as e:
        if own_serial:  # close the bus we opened: the panel did not come up
            try:
                serial.cleanup()
            except Exception:  # noqa: BLE001 - the panel's own error is the one to report
                pass
        if isinstance(e, lerr.DeviceDisplayModeError):
            raise HardwareError(
                f"display: {kind} cannot be {size['width']}x{size['height']}: {e}") from e
        if isinstance(e, (lerr.DeviceNotFoundError, OSError)):
            if o["interface"] == "i2c":
                port = o["i2c_port"]
                msg = (f"nothing answers at 0x{_address(o):02X} on I2C bus {port}: check "
                       f"the wiring and display.i2c_address (i2cdetect -y {port})")
            else:
                msg = f"the {kind} on {where} does not take commands: check the wiring"
            raise HardwareError(f"display: {msg} ({e})") from e
        raise


def _address(o: dict) -> int:
    a = o["i2c_address"]
    try:
        return a if isinstance(a, int) else int(str(a), 0)
    except ValueError:
        raise HardwareError(f"display: i2c_address {a!r} is not a number like 0x3C") from None


def _where(o: dict) -> str:
    if o["interface"] == "i2c":
        return f"I2C bus {o['i2c_port']}"
    return f"SPI {o['spi_port']}.{o['spi_device']}"


def _open_serial(o: dict):
    import luma.core.error as lerr

    if o["interface"] == "i2c":
        from luma.core.interface.serial import i2c

        port, address = int(o["i2c_port"]), _address(o)
        bus = f"/dev/i2c-{port}"
        try:
            return i2c(port=port, address=address)
        except lerr.DeviceNotFoundError as e:
            raise HardwareError(f"display: no I2C bus {bus}: enable I2C with raspi-config "
                                "(Interface Options) or fix display.i2c_port") from e
        except lerr.DevicePermissionError as e:
            raise HardwareError(f"display: no permission to open {bus}: add the user to "
                                "the i2c group (sudo adduser $USER i2c)") from e
        except lerr.DeviceAddressError as e:
            raise HardwareError(f"display: {e}") from e
    if o["interface"] == "spi":
        from luma.core.interface.serial import spi

        dev = f"/dev/spidev{o['spi_port']}.{o['spi_device']}"
        try:
            return spi(port=int(o["spi_port"]), device=int(o["spi_device"]),
                       bus_speed_hz=int(o["spi_bus_speed"]),
                       gpio_DC=o["gpio_data_command"], gpio_RST=o["gpio_reset"])
        except AssertionError as e:  # luma asserts the speed is one spidev accepts
            raise HardwareError(
                f"display: spi_bus_speed {o['spi_bus_speed']} is not a standard SPI "
                "speed (e.g. 8000000, 16000000, 32000000)") from e
        except lerr.DeviceNotFoundError as e:
            raise HardwareError(f"display: no SPI device {dev}: enable SPI with "
                                "raspi-config (Interface Options)") from e
        except lerr.UnsupportedPlatform as e:
            raise HardwareError("display: no GPIO access for the SPI DC/RST pins "
                                f"(not a Raspberry Pi?): {e}") from e
        except ImportError as e:
            raise HardwareError(
                f"display: SPI needs the Python module {e.name!r} "
                "(spidev, and RPi.GPIO -- rpi-lgpio on a Pi 5)") from e
        except OSError as e:
            raise HardwareError(f"display: cannot open {dev}: {e}") from e
    raise HardwareError(f"display: unknown interface {o['interface']!r} (i2c or spi)")


# --- terminal ----------------------------------------------------------------------

# braille dot bits for the 2x4 pixels of one character cell, as (dx, dy, bit)
_DOTS = ((0, 0, 0x01), (0, 1, 0x02), (0, 2, 0x04), (1, 0, 0x08),
         (1, 1, 0x10), (1, 2, 0x20), (0, 3, 0x40), (1, 3, 0x80))


def braille_lines(image: Image.Image, ascii_only: bool = False) -> list[str]:
    """A mode "1" image as text, 2x4 pixels per character (128x64 -> 16 lines of 64).

    ``ascii_only`` (terminals that cannot show braille): "#" for any lit cell.
    """
    img = image if image.mode == "1" else image.convert("1")
    w, h = img.size
    px = img.load()
    lines = []
    for cy in range(0, h, 4):
        chars = []
        for cx in range(0, w, 2):
            bits = 0
            for dx, dy, bit in _DOTS:
                x, y = cx + dx, cy + dy
                if x < w and y < h and px[x, y]:
                    bits |= bit
            chars.append(("#" if bits else " ") if ascii_only else chr(0x2800 + bits))
        lines.append("".join(chars))
    return lines


_HALVES = {(0, 0): " ", (1, 0): "\u2580", (0, 1): "\u2584", (1, 1): "\u2588"}


def halfblock_lines(image: Image.Image) -> list[str]:
    """A mode "1" image as text, 1x2 pixels per character (128x64 -> 32 lines of 128):
    square-ish pixels, far easier to read than braille where the terminal is wide enough."""
    img = image if image.mode == "1" else image.convert("1")
    w, h = img.size
    px = img.load()
    return ["".join(_HALVES[(1 if px[x, y] else 0, 1 if y + 1 < h and px[x, y + 1] else 0)]
                    for x in range(w)) for y in range(0, h, 2)]


def _wide_enough(stream, width: int) -> bool:
    """Half blocks need one column per pixel: only on a terminal that has them."""
    try:
        return os.get_terminal_size(stream.fileno()).columns >= width
    except (AttributeError, OSError, ValueError):
        return False


class TerminalDisplay(Captioned, _luma_device):
    """A luma device drawing into a text stream, redrawn in place (ANSI cursor home).

    Writes only when the text changed. ``caption`` is a line (or lines) shown under the
    frame, e.g. the key help. ``hide()`` blanks it like the OLED's sleep.
    """

    def __init__(self, width: int = 128, height: int = 64, rotate: int = 0,
                 stream: TextIO | None = None, caption: str = "") -> None:
        super().__init__(serial_interface=noop())
        self.capabilities(width, height, rotate, mode="1")
        self.stream = stream if stream is not None else sys.stdout
        self._caption = caption
        self._image: Image.Image | None = None
        self._hidden = False
        self._shown: str | None = None
        self._closed = False
        self.writes = 0
        enc = getattr(self.stream, "encoding", None) or "utf-8"
        try:
            "\u2800".encode(enc)
            self._ascii = False
        except (UnicodeEncodeError, LookupError):
            self._ascii = True

    def _show_caption(self, text: str) -> None:
        self._draw()  # under the frame

    def display(self, image: Image.Image) -> None:
        assert image.size == self.size
        self._image = self.preprocess(image)
        self._draw()

    def hide(self) -> None:
        self._hidden = True
        self._draw()

    def show(self) -> None:
        self._hidden = False
        self._draw()

    def contrast(self, level: int) -> None:
        assert 0 <= level <= 255  # a terminal has no brightness to set

    def cleanup(self) -> None:
        # Leave the last frame on screen at exit (luma's default would blank it), and
        # the shell's prompt on a line of its own below it (after Ctrl-C too).
        if self._shown is not None and not self._closed:
            self._closed = True
            try:
                self.stream.write("\n")
                self.stream.flush()
            except (OSError, ValueError):
                pass  # the terminal is gone

    def text(self) -> str:
        """What the terminal shows now (without escape codes)."""
        return self._shown or ""

    def _draw(self) -> None:
        if self._image is None:
            return
        if self._hidden:
            blank = ("\u2800" if not self._ascii else " ") * ((self._w + 1) // 2)
            lines = [blank] * ((self._h + 3) // 4)
        elif not self._ascii and _wide_enough(self.stream, self._w):
            lines = halfblock_lines(self._image)
        else:
            lines = braille_lines(self._image, self._ascii)
        if self._caption:
            lines += self._caption.split("\n")
        text = "\n".join(lines)
        if text == self._shown:
            return
        # first frame clears the screen; later ones overwrite in place
        prefix = "\x1b[H" if self._shown is not None else "\x1b[2J\x1b[H"
        self.stream.write(prefix + "\x1b[K\n".join(lines) + "\x1b[K\x1b[J")
        self.stream.flush()
        self._shown = text
        self.writes += 1
