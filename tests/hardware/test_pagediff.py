import random

import pytest
from hypothesis import given, settings, strategies as st
from luma.oled.device import sh1106, ssd1306, ssd1309
from PIL import Image

from pitable.errors import DisplayError, HardwareError
from pitable.hardware.busmeter import CountingSerial
from pitable.hardware.pagediff import (
    PagedSH1106, PagedSSD1306, PagedSSD1309, changed_span, page_bytes)

# luma's stock drivers use Image.getdata(), deprecated in Pillow 12; not our code.
pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

PAIRS = [(ssd1306, PagedSSD1306), (ssd1309, PagedSSD1309), (sh1106, PagedSH1106)]


def random_image(rng, size=(128, 64), density=0.5):
    img = Image.new("1", size)
    img.putdata([255 if rng.random() < density else 0 for _ in range(size[0] * size[1])])
    return img


def pair(stock_cls, paged_cls, **kw):
    a, b = CountingSerial(), CountingSerial()
    return stock_cls(a, **kw), a, paged_cls(b, **kw), b


@pytest.mark.parametrize("stock_cls,paged_cls", PAIRS)
@pytest.mark.parametrize("kw", [{}, {"rotate": 2}, {"rotate": 1}, {"width": 128, "height": 32}])
def test_full_frames_byte_identical_to_luma(stock_cls, paged_cls, kw):
    rng = random.Random(1)
    stock, a, paged, b = pair(stock_cls, paged_cls, **kw)
    assert a.log == b.log  # init sequence, including luma's clear() through display()
    for _ in range(5):
        img = random_image(rng, stock.size)
        a.reset(), b.reset()
        paged.invalidate()
        stock.display(img)
        paged.display(img)
        assert a.log == b.log
        assert b.bytes > 0


@pytest.mark.parametrize("stock_cls,paged_cls", PAIRS)
def test_unchanged_frame_sends_nothing(stock_cls, paged_cls):
    stock, a, paged, b = pair(stock_cls, paged_cls)
    img = random_image(random.Random(2))
    paged.display(img)
    b.reset()
    paged.display(img.copy())
    assert b.bytes == 0 and b.transactions == 0


@pytest.mark.parametrize("stock_cls,paged_cls", PAIRS)
@pytest.mark.parametrize("xy", [(0, 0), (127, 63), (40, 17), (64, 8), (5, 7)])
def test_one_pixel_sends_one_byte_of_one_page(stock_cls, paged_cls, xy):
    stock, a, paged, b = pair(stock_cls, paged_cls)
    img = random_image(random.Random(3))
    paged.display(img)
    calls, sent = b.data_calls, b.data_bytes
    img.putpixel(xy, 255 - img.getpixel(xy))
    paged.display(img)
    assert (b.data_calls - calls, b.data_bytes - sent) == (1, 1)
    # ...and it lands where luma would have put it: replay onto a model of panel RAM
    stock.display(img)
    assert panel_ram(stock_cls, b.log) == panel_ram(stock_cls, a.log)


def panel_ram(kind, log, width=128, pages=8, ram=None):
    """A tiny model of the controller's RAM and address pointer, replaying commands."""
    ram = ram if ram is not None else {}
    col = page = 0
    c_lo, c_hi, p_lo, p_hi = 0, width - 1, 0, pages - 1
    for what, data in log:
        if what == "command":
            if kind is sh1106:
                for byte in data:
                    if 0xB0 <= byte <= 0xB7:
                        page = byte - 0xB0
                    elif byte < 0x10:
                        col = (col & 0xF0) | byte
                    elif byte < 0x20:
                        col = (col & 0x0F) | ((byte & 0x0F) << 4)
            else:
                i = 0
                while i < len(data):
                    if data[i] == 0x21:
                        c_lo, c_hi = data[i + 1], data[i + 2]
                        col, i = c_lo, i + 3
                    elif data[i] == 0x22:
                        p_lo, p_hi = data[i + 1], data[i + 2]
                        page, i = p_lo, i + 3
                    else:
                        i += 1
        else:
            for byte in data:
                ram[(page, col)] = byte
                col += 1
                if kind is not sh1106 and col > c_hi:
                    col = c_lo
                    page = p_lo if page >= p_hi else page + 1
    return ram


@pytest.mark.parametrize("stock_cls,paged_cls", PAIRS)
def test_partial_updates_keep_panel_ram_equal_to_luma(stock_cls, paged_cls):
    rng = random.Random(4)
    stock, a, paged, b = pair(stock_cls, paged_cls)
    img = random_image(rng)
    for step in range(30):
        # change a random rectangle, sometimes nothing, sometimes a lot
        img = img.copy()
        if step % 7:
            x0, y0 = rng.randrange(128), rng.randrange(64)
            w, h = rng.randrange(1, 40), rng.randrange(1, 30)
            patch = random_image(rng, (w, h))
            img.paste(patch, (x0, y0))
        stock.display(img)
        paged.display(img)
        assert panel_ram(stock_cls, b.log) == panel_ram(stock_cls, a.log)
    assert b.data_bytes < a.data_bytes / 2


def test_ssd1306_run_of_pages_is_one_window():
    s = CountingSerial()
    dev = PagedSSD1306(s)
    img = Image.new("1", (128, 64))
    dev.display(img)
    s.reset()
    img.putpixel((10, 9), 255)   # page 1
    img.putpixel((20, 17), 255)  # page 2
    img.putpixel((30, 50), 255)  # page 6
    dev.display(img)
    assert s.log == [
        ("command", bytes([0x21, 10, 20, 0x22, 1, 2])),
        ("data", bytes([0x02, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0x00, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x02])),
        ("command", bytes([0x21, 30, 30, 0x22, 6, 6])),
        ("data", bytes([0x04])),
    ]


def test_sh1106_page_column_address_includes_offset():
    s = CountingSerial()
    dev = PagedSH1106(s)
    img = Image.new("1", (128, 64))
    dev.display(img)
    s.reset()
    img.putpixel((30, 3), 255)
    dev.display(img)
    col = 2 + 30
    assert s.log == [("command", bytes([0xB0, col & 0xF, 0x10 | col >> 4])),
                     ("data", bytes([0x08]))]


class FlakySerial(CountingSerial):
    fail = False

    def data(self, data):
        if self.fail:
            raise OSError(121, "Remote I/O error")
        super().data(data)


@pytest.mark.parametrize("paged_cls", [PagedSSD1306, PagedSH1106])
def test_bus_error_raises_display_error_and_resends_whole(paged_cls):
    s = FlakySerial()
    dev = paged_cls(s)
    img = Image.new("1", (128, 64))
    dev.display(img)
    img.putpixel((1, 1), 255)
    s.fail = True
    with pytest.raises(DisplayError) as info:
        dev.display(img)
    assert isinstance(info.value, HardwareError) and isinstance(info.value, RuntimeError)
    s.fail = False
    s.reset()
    dev.display(img)  # same frame again: must not be skipped as "unchanged"
    assert s.data_bytes == 1024


def test_invalidate_sends_whole_frame():
    s = CountingSerial()
    dev = PagedSSD1306(s)
    img = Image.new("1", (128, 64))
    dev.display(img)
    s.reset()
    dev.invalidate()
    dev.display(img)
    assert s.data_bytes == 1024 and s.command_calls == 1


@settings(deadline=None)
@given(st.binary(min_size=16, max_size=16), st.binary(min_size=16, max_size=16))
def test_changed_span(a, b):
    diffs = [i for i in range(16) if a[i] != b[i]]
    assert changed_span(a, b) == ((diffs[0], diffs[-1]) if diffs else None)


def test_page_bytes_match_luma_bit_order():
    img = Image.new("1", (128, 64))
    img.putpixel((3, 0), 255)    # page 0 bit 0
    img.putpixel((3, 7), 255)    # page 0 bit 7
    img.putpixel((127, 63), 255)  # page 7 bit 7, last column
    pages = page_bytes(img, 8)
    assert pages[0][3] == 0x81
    assert pages[7][127] == 0x80
    assert sum(map(sum, pages)) == 0x81 + 0x80



@pytest.mark.parametrize("paged_cls", [PagedSSD1306, PagedSH1106])
def test_a_frame_of_the_wrong_size_or_mode_is_a_display_error_even_under_python_O(paged_cls):
    paged = paged_cls(CountingSerial())
    for image in (Image.new("1", (128, 32)), Image.new("L", (128, 64))):
        with pytest.raises(DisplayError, match="frame for a 1 128x64 display"):
            paged.display(image)
