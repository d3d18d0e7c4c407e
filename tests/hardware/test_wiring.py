"""pitable.hardware.header and .wiring: the header map, and `pitable wiring` for every config."""

from pathlib import Path

import pytest

from pitable.cli import main
from pitable.config import load_config, parse_config
from pitable.hardware.header import BCM_TO_BOARD, BITES, BOARD_POWER, BOARD_TO_BCM, GROUND_PINS, HEADER
from pitable.hardware.wiring import KEY_NAMES, pin_warnings, wiring_of
from pitable.hardware.wiring_text import as_markdown, as_text

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "config").glob("*.yaml"))


def _gpios_of(config):
    """Every GPIO the config's pads and display wire, read from the config itself."""
    p, d = config.pads, config.display
    pins = set()
    if p.wiring == "direct":
        for seat in p.direct:
            pins |= set(seat.keys) | {x for x in (seat.led, seat.buzzer) if x is not None}
    elif p.wiring == "matrix":
        pins |= set(p.matrix.rows) | set(p.matrix.columns) | {x for x in p.matrix.leds if x is not None}
    if d.is_hardware and d.interface == "i2c":
        pins |= {2, 3}
    if d.is_hardware and d.interface == "spi":
        pins |= {11, 10, 8 if d.spi_device == 0 else 7, d.gpio_data_command}
        pins |= {d.gpio_reset} if d.gpio_reset is not None else set()
    return pins


def test_header_has_28_gpios_and_12_power_pins():
    assert sorted(BOARD_TO_BCM.values()) == list(range(28))
    assert set(BOARD_TO_BCM) | set(BOARD_POWER) == set(range(1, 41))
    assert not set(BOARD_TO_BCM) & set(BOARD_POWER)
    assert GROUND_PINS == (6, 9, 14, 20, 25, 30, 34, 39)
    # spot checks against the printed pinout
    assert (BCM_TO_BOARD[2], BCM_TO_BOARD[14], BCM_TO_BOARD[0], BCM_TO_BOARD[21]) == (3, 8, 27, 40)
    assert HEADER[1] == (None, "3V3") and HEADER[2] == (None, "5V")


def test_bites_cover_the_pins_the_issue_names():
    bitten = {g for b in BITES for g in b.gpios}
    assert bitten == {0, 1, 2, 3, 14, 15, 7, 8, 9, 10, 11, 4, 18, 19, 20, 21}


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_every_config_wires_each_pin_once(path):
    config = load_config(path)
    wiring = wiring_of(config)
    boards = [u.board for u in wiring.uses]
    assert len(boards) == len(set(boards)), "a header pin used twice"
    assert {u.bcm for u in wiring.uses if u.bcm is not None} == _gpios_of(config)
    for u in wiring.uses:
        if u.bcm is None:
            assert u.board in BOARD_POWER
            assert ("GND" in BOARD_POWER[u.board] or "ground" in BOARD_POWER[u.board]) == (u.role == "ground")
        else:
            assert BOARD_TO_BCM[u.board] == u.bcm
    # every seat's every key comes in on a pin, and the pads that need one have a ground
    for s in range(config.seats):
        for k in range(len(KEY_NAMES)):
            assert wiring.key_pins(s, k), (s, k)
    if config.pads.wiring == "direct":
        assert all(any(u.role == "ground" for u in wiring.seat_pins(s)) for s in range(config.seats))


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_wiring_command_prints_every_pin_and_the_parts(path, capsys):
    config = load_config(path)
    assert main(["wiring", "--config", str(path)]) == 0
    out, err = capsys.readouterr()
    wiring = wiring_of(config)
    table = [line.split() for line in out.splitlines()]
    for u in wiring.uses:
        assert [str(u.board), "-" if u.bcm is None else str(u.bcm)] + u.what.split() + u.path.split() in table
    assert f"{8 * config.seats} x push buttons" in out
    assert ("diodes 1N4148" in out) == (config.pads.wiring == "matrix")
    assert f"{len(wiring.uses)} x jumper wires" in out
    assert err.count("warning:") == len(pin_warnings(wiring))


def test_matrix_parts_and_diode_direction():
    wiring = wiring_of(load_config(ROOT / "config" / "matrix-4-seats.yaml"))
    parts = {p.name: p.count for p in wiring.parts}
    assert parts["push buttons"] == 32 and parts["diodes 1N4148"] == 32
    assert parts["LEDs (3 mm or 5 mm)"] == 4 and parts["330 ohm resistors"] == 4
    assert any("band (cathode) towards the row" in n for n in wiring.notes)
    assert wiring.where(1, 6) == "row GPIO 6 (pin 31), column GPIO 25 (pin 22)"


def test_direct_key_comes_in_on_its_own_pin():
    wiring = wiring_of(load_config(ROOT / "config" / "direct-3-seats.yaml"))
    assert wiring.where(2, 6) == "GPIO 0 (pin 27)"
    assert wiring.where(0, 0) == "GPIO 4 (pin 7)"
    parts = {p.name: p.count for p in wiring.parts}
    assert "diodes 1N4148" not in parts and parts["push buttons"] == 24


def test_spi_display_pins_and_the_ones_left_reserved():
    wiring = wiring_of(load_config(ROOT / "config" / "spi-ssd1309.yaml"))
    display = {u.short: u.board for u in wiring.of_role("display", "power")}
    assert display == {"SCLK": 23, "MOSI": 19, "CE0": 24, "DC": 18, "RST": 22, "3V3": 17}
    assert [bcm for bcm, _ in wiring.reserved] == [7, 9]


def test_keyboard_config_has_nothing_to_wire():
    wiring = wiring_of(parse_config({"display": {"display": "dummy"}, "pads": {"wiring": "keyboard"}}, "k.yaml"))
    assert wiring.uses == () and wiring.parts == ()
    assert "nothing to wire" in as_text(wiring, "k.yaml")


def test_markdown_lists_every_key_pin():
    wiring = wiring_of(load_config(ROOT / "config" / "direct-3-seats.yaml"))
    md = as_markdown(wiring, "config/direct-3-seats.yaml")
    row3 = next(line for line in md.splitlines() if line.startswith("| 3 |"))
    assert row3 == "| 3 | 26 [37] | 20 [38] | 21 [40] | 9 [21] | 10 [19] | 11 [23] | 0 [27] | 1 [28] | - | [20] |"


# ---------------------------------------------------------------- pictures

import xml.etree.ElementTree as ET  # noqa: E402

from PIL import Image  # noqa: E402

from pitable.hardware.wiring_picture import layout, text_width, to_svg  # noqa: E402

SVG = "{http://www.w3.org/2000/svg}"


GOOD = sorted((ROOT / "tests" / "configs" / "good").glob("*.yaml"))


@pytest.mark.parametrize("path", CONFIGS + GOOD, ids=lambda p: p.name)
def test_picture_of_every_config_as_png_and_svg(path, tmp_path, capsys):
    config = load_config(path)
    wiring = wiring_of(config)
    png, svg = tmp_path / "w.png", tmp_path / "w.svg"
    assert main(["wiring", "--config", str(path), "--picture", str(png)]) == 0
    assert main(["wiring", "--config", str(path), "--picture", str(svg)]) == 0
    drawing = layout(wiring, str(path))
    with Image.open(png) as image:
        assert image.size == (round(drawing.width * 1.5), round(drawing.height * 1.5))
        assert len(image.getcolors(1 << 20)) > 20      # drawn, not blank
        dpi = image.info["dpi"][0]                     # printed, it fits A4 landscape
        assert image.width / dpi <= 27 / 2.54 + 0.05 and image.height / dpi <= 19 / 2.54 + 0.05
    root = ET.fromstring(svg.read_text(encoding="utf-8"))
    texts = [t.text for t in root.iter(SVG + "text")]
    # every header pin is drawn with its number; every pin in use says what it is for
    for board in range(1, 41):
        assert str(board) in texts
    for u in wiring.uses:
        assert u.short in texts
    # every pad's keys, in order; a diode (a triangle) per key for a matrix
    keys = [t for t in texts if t in KEY_NAMES]
    if config.pads.wiring != "keyboard":
        assert keys.count("A") >= config.seats and keys.count("X") >= config.seats
    triangles = [p for p in root.iter(SVG + "polygon") if len(p.get("points").split()) == 3]
    assert (len(triangles) >= 8 * config.seats) == (config.pads.wiring == "matrix")
    # nothing is drawn outside the picture, and no text is too small to print
    for shape in drawing.shapes:
        if shape[0] == "text":
            (x, y), text, size, _, anchor, bold = shape[1:]
            half = text_width(text, size, bold) / 2
            left = {"l": x, "m": x - half, "r": x - 2 * half}[anchor]
            assert 0 <= left and left + 2 * half <= drawing.width and 0 < y < drawing.height, text
            assert size >= 11


def test_matrix_diodes_point_to_the_rows():
    """Each key's diode: a triangle whose point (and the band under it) is on the side
    of the row line it joins, i.e. below its flat side."""
    drawing = layout(wiring_of(load_config(ROOT / "config" / "matrix-4-seats.yaml")))
    triangles = [s[1] for s in drawing.shapes if s[0] == "polygon" and len(s[1]) == 3]
    assert len(triangles) == 32 + 4          # 32 key diodes, 4 LEDs
    key_diodes = [t for t in triangles if t[0][1] == t[1][1]]   # flat side on top
    assert len(key_diodes) == 32
    assert all(t[2][1] > t[0][1] for t in key_diodes)           # the point is below: the row


def test_picture_name_must_say_png_or_svg(capsys):
    assert main(["wiring", "--config", str(CONFIGS[0]), "--picture", "out.jpg"]) == 1
    assert "must end in .png or .svg" in capsys.readouterr().err


def test_svg_is_the_same_every_time():
    wiring = wiring_of(load_config(ROOT / "config" / "matrix-6-seats.yaml"))
    assert to_svg(layout(wiring, "x")) == to_svg(layout(wiring, "x"))


# ---------------------------------------------------------------- the README agrees with config/

def _wiring_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("wiring_docs", ROOT / "scripts" / "wiring_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIX = "run: PYTHONPATH=. python scripts/wiring_docs.py"


def test_readme_wiring_section_is_made_from_the_configs():
    readme, svgs, _ = _wiring_docs().made()
    assert (ROOT / "README.md").read_text(encoding="utf-8") == readme, f"README's wiring section is stale; {FIX}"
    for path, text in svgs.items():
        assert (ROOT / path).is_file(), f"{path} missing; {FIX}"
        assert (ROOT / path).read_text(encoding="utf-8") == text, f"{path} is stale; {FIX}"
    pictures = {f"docs/wiring/{p.name}" for p in (ROOT / "docs" / "wiring").glob("*.svg")}
    assert pictures == set(svgs), f"a picture of a config that is gone; {FIX}"
    for config in CONFIGS:
        assert f"#### `config/{config.name}`" in readme or "<!-- wiring:" not in readme


def test_readme_check_sees_a_changed_config(tmp_path):
    """The check is not vacuous: move one key of a config and the made README differs."""
    import shutil

    (tmp_path / "config").mkdir()
    for config in CONFIGS:
        shutil.copy(config, tmp_path / "config" / config.name)
    from pitable.hardware.wiring_text import README_BEGIN, README_END

    (tmp_path / "README.md").write_text(f"{README_BEGIN}\n{README_END}\n")
    docs = _wiring_docs()
    same, _, _ = docs.made(tmp_path)
    assert f"#### `config/matrix-4-seats.yaml`" in same
    moved = tmp_path / "config" / "matrix-4-seats.yaml"
    moved.write_text(moved.read_text().replace("leds: [16, 20, 21, 26]", "leds: [16, 20, 21, 9]"))
    changed, svgs, _ = docs.made(tmp_path)
    assert changed != same and "| 4 | 19 [35] | 9 [21] | [25] |" in changed


def test_an_overlay_i2c_bus_says_where_sda_and_scl_come_from():
    wiring = wiring_of(parse_config({"display": {"i2c_port": 3}}, "x.yaml"))
    assert not [u for u in wiring.uses if u.short in ("SDA", "SCL")]
    assert any("I2C bus 3" in n and "SDA and SCL" in n for n in wiring.notes)
    layout(wiring)      # draws without them


@pytest.mark.parametrize("path", CONFIGS + GOOD, ids=lambda p: p.name)
def test_no_two_wires_run_on_top_of_each_other(path):
    """Wires may cross, but never share a stretch: then nobody could tell them apart."""
    drawing = layout(wiring_of(load_config(path)))
    wires = [s[1] for s in drawing.shapes if s[0] == "line" and s[3] == 3 and len(s[1]) >= 4]
    segments = []
    for i, points in enumerate(wires):
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            segments.append((i, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    for a in segments:
        for b in segments:
            if a[0] >= b[0]:
                continue
            if a[1] == a[3] and b[1] == b[3] and abs(a[1] - b[1]) < 6:       # both vertical, close
                assert min(a[4], b[4]) - max(a[2], b[2]) <= 0, (a, b)
            if a[2] == a[4] and b[2] == b[4] and abs(a[2] - b[2]) < 6:       # both horizontal, close
                assert min(a[3], b[3]) - max(a[1], b[1]) <= 0, (a, b)


def test_wiring_markdown_is_the_readme_table(capsys):
    path = ROOT / "config" / "matrix-4-seats.yaml"
    assert main(["wiring", "--config", str(path), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out == as_markdown(wiring_of(load_config(path)), str(path))
    assert "| column | 4 [7] | 17 [11] | 27 [13] | 22 [15] | 23 [16] | 24 [18] | 25 [22] | 12 [32] |" in out


def test_wiring_with_a_bad_config_exits_2_naming_file_and_key(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pads:\n  direct:\n    - keys: [4, 17, 27, 22, 5, 6, 13, 2]\n    - keys: [18, 23, 24, 25, 8, 7, 12, 16]\n")
    assert main(["wiring", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: pads.direct[0].keys[7]: GPIO 2 is used by the I2C display bus" in err


def test_each_pads_cable_is_counted():
    direct = wiring_of(load_config(ROOT / "config" / "pitable.yaml"))
    assert "Cable to each pad: 10 wires (8 keys, LED, ground)." in direct.notes
    matrix = wiring_of(load_config(ROOT / "tests" / "configs" / "good" / "spi-no-reset.yaml"))
    cables = next(n for n in matrix.notes if n.startswith("Cables to the pads"))
    assert "seat 1: 11 wires (8 columns, its row, LED, ground)" in cables
    assert "seat 4: 9 wires (8 columns, its row)" in cables
