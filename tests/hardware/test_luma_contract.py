"""luma's private attributes that pitable's drivers use are there in the luma installed.

The page-diff drivers (pitable/hardware/pagediff.py) subclass luma's ssd1306 and sh1106 and
read their private attributes; the display's close and the screen's reopen use
``_serial_interface``. A luma that renamed one would leave the Pi's screen blank behind a
"display failed" retried for ever, so an upgrade must fail here, in CI, first
(constraints.txt caps luma's majors for the same reason)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from luma.oled.device import sh1106, ssd1306, ssd1309

import pitable.hardware.pagediff as pagediff
from pitable.hardware.busmeter import CountingSerial

pytestmark = pytest.mark.filterwarnings("ignore:Image.Image.getdata:DeprecationWarning")

PITABLE = Path(pagediff.__file__).resolve().parent.parent


def _private_reads(path: Path, owner: str) -> set[str]:
    """Every ``<owner>._name`` and ``<owner>._const.NAME`` read in a module's source."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and node.value.id == owner and node.attr.startswith("_"):
            names.add(node.attr)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "_const":
            names.add("_const." + node.attr)
    return names


def _ours() -> set[str]:
    """The private names pitable's own driver classes define (not luma's)."""
    tree = ast.parse(Path(pagediff.__file__).read_text(encoding="utf-8"))
    return {f.name for c in tree.body if isinstance(c, ast.ClassDef)
            for f in c.body if isinstance(f, ast.FunctionDef)} | {"_last_pages"}


def used_luma_attributes() -> set[str]:
    used = _private_reads(Path(pagediff.__file__), "self") - _ours()
    return used | (_private_reads(PITABLE / "hardware" / "display.py", "dev") & {"_serial_interface"})


def missing(device, names) -> list[str]:
    out = []
    for name in sorted(names):
        obj = device
        for part in name.split("."):
            if not hasattr(obj, part):
                out.append(name)
                break
            obj = getattr(obj, part)
    return out


def test_the_drivers_private_luma_reads_are_found_in_their_source():
    # the scan is what keeps the list below honest: it must see the reads the drivers make
    assert {"_const.COLUMNADDR", "_const.PAGEADDR", "_colstart", "_colend", "_pages",
            "_page_address_offset", "_serial_interface"} <= used_luma_attributes()


@pytest.mark.parametrize("cls", [pagediff.PagedSSD1306, pagediff.PagedSSD1309, pagediff.PagedSH1106,
                                 ssd1306, ssd1309, sh1106])
def test_every_luma_attribute_the_drivers_use_is_there(cls):
    device = cls(CountingSerial())
    used = used_luma_attributes()
    if cls in (ssd1306, ssd1309, pagediff.PagedSSD1306, pagediff.PagedSSD1309):
        used -= {"_page_address_offset"}  # only the sh1106 path reads it
    else:
        used -= {"_colstart", "_colend", "_const.COLUMNADDR", "_const.PAGEADDR"}
    assert missing(device, used) == []


def test_a_renamed_luma_attribute_is_caught():
    device = pagediff.PagedSSD1306(CountingSerial())
    del device._colstart  # what a luma that renamed it would give
    assert missing(device, used_luma_attributes() - {"_page_address_offset"}) == ["_colstart"]
