import errno
import io
import subprocess
import sys

import pytest
from PIL import Image, ImageDraw

import pitable.hardware
from pitable.errors import HardwareError
from pitable.hardware.busmeter import CountingSerial
from pitable.hardware.display import TerminalDisplay, braille_lines, open_display
from pitable.hardware.pagediff import PagedSH1106, PagedSSD1306, PagedSSD1309


def frame(size=(128, 64), pixels=()):
    img = Image.new("1", size)
    for xy in pixels:
        img.putpixel(xy, 255)
    return img


# --- dummy / hardware with an injected bus ------------------------------------------

def test_dummy_keeps_the_frame():
    dev = open_display({"display": "dummy"})
    assert dev.mode == "1" and dev.size == (128, 64)
    img = frame(pixels=[(3, 4)])
    dev.display(img)
    assert dev.image.getpixel((3, 4)) and dev.image.tobytes() == img.tobytes()


def test_dummy_upside_down():
    dev = open_display({"display": "dummy", "rotate": 2})
    assert dev.size == (128, 64)
    dev.display(frame(pixels=[(0, 0)]))
    assert dev.image.getpixel((127, 63)) and not dev.image.getpixel((0, 0))  # turned round


@pytest.mark.parametrize("rotate", [1, 3])
def test_on_its_side_is_refused_before_anything_is_opened(rotate):
    with pytest.raises(HardwareError, match=f"display.rotate: {rotate} turns the panel on its side"):
        open_display({"display": "ssd1306", "rotate": rotate})  # no bus here: refused first


@pytest.mark.parametrize("kind,cls", [("ssd1306", PagedSSD1306), ("sh1106", PagedSH1106),
                                      ("ssd1309", PagedSSD1309)])
def test_hardware_uses_paged_driver_and_sets_contrast(kind, cls):
    bus = CountingSerial()
    dev = open_display({"display": kind, "contrast": 200}, serial=bus)
    assert type(dev) is cls
    assert bus.log[-1] == ("command", bytes([0x81, 200]))


def test_no_contrast_option_leaves_luma_default():
    bus = CountingSerial()
    open_display({"display": "ssd1306"}, serial=bus)
    assert ("command", bytes([0x81, 0xCF])) in bus.log
    assert ("command", bytes([0x81, 255])) not in bus.log


def test_bad_contrast():
    with pytest.raises(HardwareError, match="contrast 300"):
        open_display({"display": "ssd1306", "contrast": 300}, serial=CountingSerial())


def test_unsupported_size():
    with pytest.raises(HardwareError, match="display.width: .* 128x64 panel, not 100x64"):
        open_display({"display": "ssd1306", "width": 100}, serial=CountingSerial())


def test_unknown_display():
    with pytest.raises(HardwareError, match="unknown display 'lcd'"):
        open_display({"display": "lcd"})


# --- I2C / SPI errors ---------------------------------------------------------------

def test_missing_i2c_bus_says_enable_i2c():
    with pytest.raises(HardwareError, match=r"no I2C bus /dev/i2c-97: enable I2C"):
        open_display({"display": "ssd1306", "interface": "i2c", "i2c_port": 97})


class FakeSMBus:
    opened = []

    def __init__(self, port):
        self.port, self.closed = port, False
        FakeSMBus.opened.append(self)

    def write_i2c_block_data(self, addr, mode, data):
        raise OSError(errno.EREMOTEIO, "Remote I/O error")

    def close(self):
        self.closed = True


def test_nothing_at_address_closes_bus(monkeypatch):
    import smbus2
    FakeSMBus.opened = []
    monkeypatch.setattr(smbus2, "SMBus", FakeSMBus)
    with pytest.raises(HardwareError, match=r"nothing answers at 0x3D on I2C bus 1") as info:
        open_display({"display": "sh1106", "i2c_address": 0x3D})
    assert "i2cdetect -y 1" in str(info.value)
    assert FakeSMBus.opened and FakeSMBus.opened[0].closed


def test_i2c_permission(monkeypatch):
    import smbus2

    def denied(port):
        raise PermissionError(errno.EACCES, "Permission denied", f"/dev/i2c-{port}")

    monkeypatch.setattr(smbus2, "SMBus", denied)
    with pytest.raises(HardwareError, match="add the user to the i2c group"):
        open_display({"display": "ssd1306"})


def test_i2c_address_as_text():
    with pytest.raises(HardwareError, match="not a number"):
        open_display({"display": "ssd1306", "i2c_address": "oops"}, serial=None)


def test_spi_without_gpio_module(monkeypatch):
    monkeypatch.setitem(sys.modules, "RPi", None)
    with pytest.raises(HardwareError, match="SPI needs the Python module"):
        open_display({"display": "ssd1309", "interface": "spi"})


def test_spi_bad_speed():
    with pytest.raises(HardwareError, match="display.spi_bus_speed: 12345 is not a speed"):
        open_display({"display": "ssd1309", "interface": "spi", "spi_bus_speed": 12345})


def test_unknown_interface():
    with pytest.raises(HardwareError, match="unknown interface 'usb'"):
        open_display({"display": "ssd1306", "interface": "usb"})


# --- terminal -----------------------------------------------------------------------

def test_braille_dots():
    lines = braille_lines(frame(pixels=[(0, 0), (1, 3), (127, 63)]))
    assert len(lines) == 16 and all(len(line) == 64 for line in lines)
    assert lines[0][0] == chr(0x2800 + 0x01 + 0x80)
    assert lines[15][63] == chr(0x2800 + 0x80)
    assert lines[5][5] == "\u2800"


def test_terminal_redraws_in_place_only_on_change():
    out = io.StringIO()
    dev = open_display({"display": "terminal"}, stream=out)
    assert isinstance(dev, TerminalDisplay) and dev.size == (128, 64)
    dev.display(frame(pixels=[(0, 0)]))
    first = out.getvalue()
    assert first.startswith("\x1b[2J\x1b[H") and chr(0x2801) in first
    dev.display(frame(pixels=[(0, 0)]))
    assert out.getvalue() == first and dev.writes == 1
    dev.display(frame(pixels=[(2, 0)]))
    assert dev.writes == 2
    assert out.getvalue()[len(first):].startswith("\x1b[H")


def test_terminal_caption_and_hide():
    out = io.StringIO()
    dev = TerminalDisplay(stream=out)
    dev.caption = "keys: 1-8"  # nothing drawn yet: no frame
    assert out.getvalue() == ""
    img = Image.new("1", (128, 64))
    ImageDraw.Draw(img).rectangle((0, 0, 127, 63), fill=255)
    dev.display(img)
    lines = dev.text().split("\n")
    assert len(lines) == 17 and lines[-1] == "keys: 1-8"
    assert lines[0] == chr(0x28FF) * 64
    dev.hide()
    assert set(dev.text().split("\n")[0]) == {"\u2800"}
    dev.show()
    assert dev.text().split("\n")[0] == chr(0x28FF) * 64
    dev.caption = "other"
    assert dev.text().endswith("other") and dev.writes == 4


def test_terminal_ascii_fallback():
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    dev = TerminalDisplay(stream=out)
    dev.display(frame(pixels=[(0, 0)]))
    assert dev.text().split("\n")[0].startswith("# ")


# --- emulators ----------------------------------------------------------------------

@pytest.fixture
def sdl_dummy(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
    import pygame
    pygame.display.quit()


def test_pygame_emulator_never_exits_on_its_own(sdl_dummy):
    from pitable.hardware.emulated import PygameDisplay
    import pygame
    dev = open_display({"display": "pygame", "scale": 2, "transform": "none"})
    assert isinstance(dev, PygameDisplay) and dev.mode == "1"
    pygame.event.post(pygame.event.Event(pygame.QUIT))
    dev.display(frame(pixels=[(1, 1)]))  # luma's own driver would sys.exit() here
    assert pygame.event.peek(pygame.QUIT)  # left for PygameKeys to report


def test_capture_writes_png_at_absolute_path(sdl_dummy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    dev = open_display({"display": "capture", "scale": 1, "transform": "none"})
    monkeypatch.chdir("/")
    dev.display(frame())
    assert (tmp_path / "luma_000001.png").exists()


def test_bad_transform(sdl_dummy):
    with pytest.raises(HardwareError, match="unknown transform 'blur'"):
        open_display({"display": "capture", "transform": "blur"})


def test_emulator_missing_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "luma.emulator", None)
    monkeypatch.delitem(sys.modules, "pitable.hardware.emulated", raising=False)
    monkeypatch.delattr(pitable.hardware, "emulated", raising=False)
    with pytest.raises(HardwareError, match=r"pip install 'pitable\[desktop\]'"):
        open_display({"display": "pygame"})


def test_imports_stay_lazy():
    code = ("import sys, pitable.hardware.display, pitable.hardware.keyboard; "
            "print(sorted(m for m in ('luma.oled', 'luma.emulator', 'pygame') "
            "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"


def test_halfblock_lines_two_pixel_rows_per_character():
    from PIL import Image

    from pitable.hardware.display import halfblock_lines

    image = Image.new("1", (4, 4))
    image.putpixel((0, 0), 1)  # top half
    image.putpixel((1, 1), 1)  # bottom half
    image.putpixel((2, 0), 1)
    image.putpixel((2, 1), 1)  # both
    assert halfblock_lines(image) == ["\u2580\u2584\u2588 ", "    "]


def test_terminal_uses_half_blocks_only_when_wide_enough(monkeypatch):
    import io

    from PIL import Image

    from pitable.hardware import display

    out = io.StringIO()
    term = display.TerminalDisplay(stream=out)
    frame = Image.new("1", (128, 64), 1)
    monkeypatch.setattr(display, "_wide_enough", lambda stream, width: True)
    term.display(frame)
    assert term.text().splitlines()[0] == "\u2588" * 128 and len(term.text().splitlines()) == 32
    monkeypatch.setattr(display, "_wide_enough", lambda stream, width: False)
    term.display(Image.new("1", (128, 64)))
    term.display(frame)
    assert term.text().splitlines()[0] == "\u28ff" * 64 and len(term.text().splitlines()) == 16


def test_pygame_window_title_shows_the_key_help(sdl_dummy):
    import pygame

    dev = open_display({"display": "pygame", "scale": 1, "transform": "none"})
    dev.caption = "Pads 1:12345678 2:qwertyui\nShift+key = long press"
    assert pygame.display.get_caption()[0] == "pitable   Pads 1:12345678 2:qwertyui   Shift+key = long press"


@pytest.mark.parametrize("fault", [OSError(errno.EIO, "I/O error"), RuntimeError("smbus"),
                                   ValueError("bad"), AttributeError("half-open"), TypeError("x")],
                         ids=lambda e: type(e).__name__)
def test_any_failure_to_open_a_panel_is_a_hardware_error(monkeypatch, fault):
    # the daemon waits for a missing display (HardwareError); anything else ended it
    import smbus2

    def broken(port):
        raise fault

    monkeypatch.setattr(smbus2, "SMBus", broken)
    with pytest.raises(HardwareError, match="display"):
        open_display({"display": "ssd1306"})


def test_a_panel_that_fails_at_the_contrast_is_a_hardware_error_and_its_bus_is_closed(monkeypatch):
    import luma.core.error as lerr
    import smbus2

    opened = []

    class Bus:
        def __init__(self, port):
            self.closed = False
            opened.append(self)

        def write_i2c_block_data(self, addr, mode, data):
            if data[:2] == [0x81, 100]:  # init went through; the cable came loose at our contrast
                raise OSError(errno.EREMOTEIO, "Remote I/O error")

        def i2c_rdwr(self, *msgs):
            pass

        def close(self):
            self.closed = True

    monkeypatch.setattr(smbus2, "SMBus", Bus)
    with pytest.raises(HardwareError, match="contrast failed") as info:
        open_display({"display": "ssd1306", "contrast": 100})
    assert isinstance(info.value.__cause__, (OSError, lerr.Error))
    assert opened and opened[-1].closed
