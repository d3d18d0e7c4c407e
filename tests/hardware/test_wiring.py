"""pitable.hardware.header and .wiring: the header map, and `pitable wiring` for every config."""

from pathlib import Path

import pytest

from pitable.cli import main
from pitable.config import load_config, parse_config
from pitable.hardware.header import BCM_TO_BOARD, BITES, BOARD_POWER, BOARD_TO_BCM, GROUND_PINS, HEADER
from pitable.hardware.wiring import KEY_NAMES, BiteWarning, bite_warnings, pin_warnings, wiring_of
from pitable.hardware.wiring_text import as_markdown, as_text

ROOT = Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "config").glob("*.yaml"))
HUB_CONFIGS = [p for p in CONFIGS if load_config(p).pads.build == "hub"]   # soldered: a resistor at every pin


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
    if config.pads.build == "jumpers":
        assert f"{config.seats} x 8-key push button modules" in out
    else:
        assert f"{8 * config.seats} x push buttons" in out
        assert f"{config.seats} x multicore cables" in out and f"{config.seats} x D-sub 15" in out
    assert ("diodes BAT43 Schottky" in out) == (config.pads.wiring == "matrix")
    assert "1N4148" not in out.replace("not 1N4148", "").replace("With 1N4148s", "")
    grouped = bite_warnings(wiring)
    assert err.count("warning:") == len([w for w in grouped if not w.bite.quiet]) <= len(pin_warnings(wiring))
    if grouped:     # every pin with another job is said in full on stdout, acted on or not
        jobs = out[out.index("Pins with another job:"):]
        assert all(w.bite.job in jobs for w in grouped)


def test_matrix_parts_and_diode_direction():
    wiring = wiring_of(load_config(ROOT / "config" / "matrix-4-seats.yaml"))
    parts = {p.name: p.count for p in wiring.parts}
    assert parts["push buttons"] == 32 and parts["diodes BAT43 Schottky"] == 32
    assert parts["LEDs, red or yellow, 3 mm or 5 mm"] == 4 and parts["330 ohm resistors"] == 4
    assert parts["10 kOhm resistors"] == 8
    assert any("band (cathode) towards the row" in n and "mandatory" in n for n in wiring.notes)
    assert wiring.where(1, 6) == "row GPIO 6 (pin 31), column GPIO 12 (pin 32)"


def test_direct_key_comes_in_on_its_own_pin():
    wiring = wiring_of(load_config(ROOT / "config" / "direct-3-seats.yaml"))
    assert wiring.where(2, 6) == "GPIO 0 (pin 27)"
    assert wiring.where(0, 0) == "GPIO 4 (pin 7)"
    parts = {p.name: p.count for p in wiring.parts}
    assert "diodes BAT43 Schottky" not in parts and parts["push buttons"] == 24


def test_spi_display_pins_and_the_ones_left_reserved():
    wiring = wiring_of(load_config(ROOT / "config" / "spi-ssd1309.yaml"))
    display = {u.short: u.board for u in wiring.of_role("display", "power")}
    # VCC from the hub's 3V3 rail on pin 1, like the pull-ups: pin 17 sits beside MOSI
    assert display == {"SCLK": 23, "MOSI": 19, "CE0": 24, "DC": 18, "RST": 22, "3V3": 1}
    assert 17 not in {u.board for u in wiring.uses}
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


# ---------------------------------------------------------------- docs/wiring.md agrees with config/

def _wiring_docs():
    import importlib.util

    spec = importlib.util.spec_from_file_location("wiring_docs", ROOT / "scripts" / "wiring_docs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FIX = "run: PYTHONPATH=. python scripts/wiring_docs.py"
DOC = ROOT / "docs" / "wiring.md"


def test_wiring_doc_is_made_from_the_configs():
    doc, svgs, _ = _wiring_docs().made()
    assert DOC.read_text(encoding="utf-8") == doc, f"docs/wiring.md's per-config section is stale; {FIX}"
    for path, text in svgs.items():
        assert (ROOT / path).is_file(), f"{path} missing; {FIX}"
        assert (ROOT / path).read_text(encoding="utf-8") == text, f"{path} is stale; {FIX}"
    pictures = {f"docs/wiring/{p.name}" for p in (ROOT / "docs" / "wiring").glob("*.svg")}
    assert pictures == set(svgs), f"a picture of a config that is gone; {FIX}"
    for config in CONFIGS:
        assert f"### `config/{config.name}`" in doc
        assert f"](wiring/{config.stem}.svg)" in doc     # relative to docs/


def test_wiring_doc_check_sees_a_changed_config(tmp_path):
    """The check is not vacuous: move one LED of a config and the made doc differs."""
    import shutil

    (tmp_path / "config").mkdir()
    (tmp_path / "docs").mkdir()
    for config in CONFIGS:
        shutil.copy(config, tmp_path / "config" / config.name)
    shutil.copy(DOC, tmp_path / "docs" / "wiring.md")
    docs = _wiring_docs()
    same, _, _ = docs.made(tmp_path)
    assert same == DOC.read_text(encoding="utf-8")
    moved = tmp_path / "config" / "matrix-4-seats.yaml"
    moved.write_text(moved.read_text().replace("leds: [10, 11, 8, 7]", "leds: [10, 11, 8, 9]"))
    changed, svgs, _ = docs.made(tmp_path)
    assert changed != same and "| 4 | 26 [37] | 9 [21] | [25] |" in changed


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


def test_wiring_markdown_is_the_docs_table(capsys):
    path = ROOT / "config" / "matrix-4-seats.yaml"
    assert main(["wiring", "--config", str(path), "--markdown"]) == 0
    out = capsys.readouterr().out
    assert out == as_markdown(wiring_of(load_config(path)), str(path))
    assert "| column | 17 [11] | 27 [13] | 22 [15] | 23 [16] | 24 [18] | 25 [22] | 12 [32] | 16 [36] |" in out


def test_wiring_with_a_bad_config_exits_2_naming_file_and_key(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pads:\n  direct:\n    - keys: [4, 17, 27, 22, 5, 6, 13, 2]\n"
                   "    - keys: [18, 23, 24, 25, 8, 7, 12, 16]\n")
    assert main(["wiring", "--config", str(bad)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: pads.direct[0].keys[7]: GPIO 2 is used by the I2C display bus" in err


def test_each_pads_cable_is_counted():
    direct = wiring_of(load_config(ROOT / "config" / "pitable.yaml"))
    assert "Cable to each pad: 10 wires (8 keys, LED, ground)." in direct.notes
    matrix = wiring_of(load_config(ROOT / "tests" / "configs" / "good" / "spi-no-reset.yaml"))
    cables = next(n for n in matrix.notes if n.startswith("Cables to the pads"))
    assert "seat 1: 11 wires (8 columns, its row, LED, ground)" in cables
    assert "seat 4: 10 wires (8 columns, its row, ground)" in cables


# ---------------------------------------------------------------- the builder's kit, for every shipped config

def _comment(path):
    return "\n".join(line for line in path.read_text(encoding="utf-8").splitlines()
                     if line.lstrip().startswith("#") or " #" in line)


@pytest.mark.parametrize("path", CONFIGS, ids=lambda p: p.name)
def test_shipped_configs_check_clean_and_their_comment_explains_each_shared_pin(path, capsys):
    """A shipped config gives no warning: only where the builder must act does check-config
    warn, and a shipped config asks nothing. What it shares with jobs that are off is one
    note line, and the config's comment explains each of those jobs."""
    from pitable.config import check_config_main

    config = load_config(path)
    grouped = bite_warnings(wiring_of(config))
    assert check_config_main(path) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert all(w.bite.quiet for w in grouped)
    notes = [line for line in out.splitlines() if ": note: " in line]
    assert len(notes) == (1 if grouped else 0)
    comment = _comment(path)
    for w in grouped:
        assert f"{w.bite.name} (GPIO " in notes[0]
        assert w.bite.name in comment, f"{path.name}: its comment does not explain {w.bite.name}"
        for u in w.uses:
            assert str(u.bcm) in comment
    assert "can damage the pin" not in out


@pytest.mark.parametrize("path", sorted((ROOT / "config").rglob("*.yaml")), ids=lambda p: p.name)
def test_every_file_under_config_checks_without_a_warning(path, capsys):
    from pitable.config import check_config_main

    assert check_config_main(path) == 0
    assert "warning" not in capsys.readouterr().err


def test_a_key_on_txd_or_a_driven_spi_pin_is_said_to_short_it_and_miso_is_not():
    txd = parse_config({"pads": {"direct": [{"keys": [14, 17, 27, 22, 5, 6, 13, 9]},
                                            {"keys": [18, 23, 24, 25, 12, 16, 26, 10]}]}}, "x.yaml")
    grouped = {w.bite.name: w for w in bite_warnings(wiring_of(txd))}
    by_job = {name: w.message() for name, w in grouped.items()}
    # on the hub each key line has its 1 kOhm: the driven pin meets 3 mA, no short
    assert ("A key pressed on GPIO 14 then pulls an output the driver drives to ground through "
            "its 1 kOhm on the hub: 3 mA, no harm") in by_job["serial"]
    assert "can damage the pin" not in by_job["serial"]
    spi = by_job["SPI0"]
    assert "A key pressed on GPIO 10 then pulls" in spi and "GPIO 9 (MISO) is an input, not driven" in spi
    # wired with no resistor, the same key is a short that can damage the pin
    bare = BiteWarning(grouped["serial"].bite, grouped["serial"].uses)
    assert "A key pressed on GPIO 14 then shorts an output" in bare.message()
    assert "can damage the pin" in bare.message()
    led_only = parse_config({"pads": {"direct": [{"keys": [4, 17, 27, 22, 5, 6, 13, 9], "led": 14},
                                                 {"keys": [23, 24, 25, 1, 12, 16, 26, 0]}]}}, "x.yaml")
    serial = next(w for w in bite_warnings(wiring_of(led_only)) if w.bite.name == "serial")
    assert "can damage" not in serial.message()     # an LED is not a switch to ground


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_kit_answers_the_builders_questions(path):
    """Items a maker asked about, in the model and so in the text, doc and picture:
    the cable plan and its parts, a ground in every pad cable, the LED resistor at the
    Pi and the LED colours, the diodes, the OLED's pin order, the matrix's keys."""
    config = load_config(path)
    wiring = wiring_of(config)
    parts = {p.name: p for p in wiring.parts}
    notes = " ".join(wiring.notes)
    seats = config.seats
    cable = next(p for n, p in parts.items() if n.startswith("multicore cables"))
    assert cable.count == seats and parts["D-sub 15 (DA-15) connector pairs"].count == seats
    assert parts["perfboards (stripboard)"].count == seats + 1
    assert "40-way GPIO ribbon cable, 2x20 female ends" in parts and "hub" in notes
    wires = max(len([u for u in wiring.uses if u.seat == s and u.role != "display"])
                + (8 if config.pads.wiring == "matrix" else 0) for s in range(seats))
    cores = int(cable.name.split(", ")[1].split()[0])
    assert wires < cores <= 15 + 1       # fits the cable with a spare, and the D-sub 15
    for s in range(seats):               # every pad's cable has its ground wire
        assert any(u.role == "ground" for u in wiring.seat_pins(s)), s
    assert "ground)" in notes
    if any(u.role == "led" for u in wiring.uses):
        assert "resistor on the hub (at the Pi" in notes and "Red or yellow" in notes
        assert "not blue or white" in parts["LEDs, red or yellow, 3 mm or 5 mm"].note
        assert parts["330 ohm resistors"].note == "one per LED, on the hub"
    if config.pads.wiring == "matrix":
        assert "Diodes are mandatory" in notes and parts["10 kOhm resistors"].count == 8
        assert "The columns split at the hub" in notes and "not to ground" in notes
        assert "joins its GPIO" not in notes
    display = next(p for p in wiring.parts if "OLED" in p.name)
    assert "wire by the labels" in display.note and "wire it by the labels" in notes


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_picture_shows_pin_numbers_large_the_led_resistor_at_the_pi_and_the_oled_caveat(path):
    config = load_config(path)
    wiring = wiring_of(config)
    drawing = layout(wiring)
    texts = [s for s in drawing.shapes if s[0] == "text"]
    for u in wiring.uses:               # in the header box: the number large, the use small
        (x, y) = next(t[1] for t in texts if t[2] == u.short
                      and any(n[2] == str(u.board) and n[1][0] == t[1][0] for n in texts))
        number = next(n for n in texts if n[2] == str(u.board) and n[1][0] == x)
        short = next(t for t in texts if t[2] == u.short and t[1][0] == x)
        assert number[3] > short[3] and number[1][1] < short[1][1]
    # a resistor box on every line with a series resistor (keys, columns, rows, LEDs), at
    # the Pi: between the header and the devices, on its wire; a pull-up box per pulled-up line
    devices_top = min(s[1][1] for s in drawing.shapes if s[0] == "rect" and s[2] == "#f2ecfa")
    resistors = [s for s in drawing.shapes if s[0] == "rect" and s[2] == "#ffffff"
                 and s[1][2] - s[1][0] == 12 and s[1][3] - s[1][1] == 22 and s[1][1] < devices_top]
    assert len(resistors) == len([h for h in wiring.hub if h.series])
    assert len(resistors) >= len(wiring.of_role("led"))
    pull_ups = [s for s in drawing.shapes if s[0] == "rect" and s[3] == "#d62728" and s[1][2] - s[1][0] == 8
                and s[1][1] < devices_top]
    assert len(pull_ups) == len([h for h in wiring.hub if h.pull_up]) == len(
        wiring.of_role("key", "column"))
    assert not [t for t in texts if t[2] == "330R"]          # none on the pads any more
    words = [t[2] for t in texts]
    assert "wire by the labels on it" in words
    assert not any("its pad is square" in w for w in words)
