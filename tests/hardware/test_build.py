"""The whole build in the wiring model: the hub (clipped 5 V pins, one 3V3 rail, grounds a
misplugged ribbon cannot reach, a resistor at every line), the pads' DA-15 contacts, the
low-level budget, the checklist before first power and the build drawings."""

import pathlib

import pytest

from pitable.cli import main
from pitable.config import load_config
from pitable.hardware.header import HEADER
from pitable.hardware.wiring import (
    CLIPPED, CONNECTOR_PINS, RAIL_PIN, V_IL, checklist, contact_map, five_volt_landings,
    low_level, wiring_of,
)
from pitable.hardware.wiring_build import cable_layout, hub_layout, pad_layout

ROOT = pathlib.Path(__file__).resolve().parents[2]
CONFIGS = sorted((ROOT / "config").glob("*.yaml"))
# the soldered builds (a hub with a resistor at every pin); the no-solder table has its own tests
HUB_CONFIGS = [p for p in CONFIGS if load_config(p).pads.build == "hub"]


def _five_volt_on_a_misplug(n: int) -> bool:
    """Whether hub pin n meets the Pi's 5 V with the ribbon turned round, one pair over, or both."""
    return any(m in (2, 4) for m in (n - 2, n + 2, 41 - n, 39 - n, 43 - n))


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_hub_takes_no_ground_or_supply_where_a_misplugged_ribbon_puts_5v(path):
    wiring = wiring_of(load_config(path))
    used = {u.board: u for u in wiring.uses}
    assert not set(CLIPPED) & set(used), "pins 2 and 4 are clipped off the hub"
    supplies = [u.board for u in wiring.uses if u.bcm is None]
    assert supplies and not [b for b in supplies if _five_volt_on_a_misplug(b)]
    assert set(five_volt_landings()) == {n for n in range(1, 41) if _five_volt_on_a_misplug(n)}
    assert [u.board for u in wiring.uses if u.role == "power"] == [RAIL_PIN]
    assert HEADER[RAIL_PIN][1] == "3V3" and 17 not in used


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_every_line_that_leaves_the_hub_has_its_resistor_and_keys_their_pull_ups(path):
    wiring = wiring_of(load_config(path))
    lines = {h.board: h for h in wiring.hub}
    for u in wiring.uses:
        if u.role in ("key", "column", "row", "led", "buzzer"):
            assert lines[u.board].series, u
            assert bool(lines[u.board].pull_up) == (u.role in ("key", "column")), u
            assert "contact" in lines[u.board].to
    for u in wiring.of_role("display"):
        assert lines[u.board].to == "the display connector"


@pytest.mark.parametrize("kind", ["direct", "matrix"])
def test_every_pads_da15_has_a_ground_beside_every_key_line(kind):
    contacts = dict(contact_map(kind))
    assert sorted(contacts) == list(range(1, CONNECTOR_PINS + 1))
    grounds = {c for c, sig in contacts.items() if sig == "GND"}
    assert len(grounds) >= 4
    for c in range(1, 9):            # the top row; contact 8 + c sits between c and c + 1
        beside = {8 + c, 7 + c} & set(range(9, 16))
        assert beside & grounds, c
    if kind == "matrix":
        assert contacts[10] == "row"


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_low_level_budget_holds_and_asks_for_schottky_diodes_on_a_matrix(path):
    wiring = wiring_of(load_config(path))
    assert low_level(wiring.kind) < V_IL
    text = " ".join(wiring.budget)
    assert f"V_IL {V_IL} V" in text
    if wiring.kind == "matrix":
        assert low_level("matrix", "1N4148") > V_IL and "Schottky" in wiring.diode
        assert any(p.name == "diodes BAT43 Schottky" for p in wiring.parts)


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_display_takes_3v3_through_a_keyed_connector(path):
    wiring = wiring_of(load_config(path))
    connector = {sig: board for _, sig, board in wiring.display_connector}
    assert connector["VCC 3V3"] == RAIL_PIN and connector["VCC 3V3"] not in (2, 4)
    assert HEADER[connector["GND"]][1] == "GND" and not _five_volt_on_a_misplug(connector["GND"])
    assert any("VCC to 3V3 only" in n or "Display VCC to 3V3 only" in n for n in wiring.notes)
    assert any(p.name.startswith("JST-XH") for p in wiring.parts)


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_bom_can_be_ordered(path):
    wiring = wiring_of(load_config(path))
    names = " ".join(p.name for p in wiring.parts)
    notes = " ".join(p.note for p in wiring.parts)
    for thing in ("push buttons", "hub box", "pad boxes", "hook-up wire", "heat-shrink", "cable ties",
                  "power supply", "100 nF", "standoffs"):
        assert thing in names, thing
    assert "12 x 12 x 7.3 mm" in notes and "solder-cup" in notes and "15-20 cm" in notes
    buttons = next(p for p in wiring.parts if p.name == "push buttons")
    assert buttons.spare >= buttons.count // 10


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_checklist_goes_meter_then_voltages_then_pitable_pads(path, capsys):
    wiring = wiring_of(load_config(path))
    steps = checklist(wiring)
    order = [next(i for i, s in enumerate(steps) if s.startswith(p)) for p in ("A.", "B.", "C.")]
    assert order == sorted(order)
    assert "Pi off" in steps[order[0]] and "hub unplugged" in steps[order[1]]
    assert "pitable pads" in steps[order[2]]
    pairs = next(s for s in steps if s.startswith("A4."))
    for u, v in wiring.neighbours():
        assert f"{u.board}-{v.board}" in pairs
    assert main(["wiring", "--checklist", "--config", str(path)]) == 0
    out = capsys.readouterr().out
    assert all(s in out for s in steps)


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_hub_is_drawn_mirrored_with_its_cuts_and_pull_ups(path):
    wiring = wiring_of(load_config(path))
    d = hub_layout(wiring)
    texts = [s for s in d.shapes if s[0] == "text"]
    pin = {t[2]: t[1] for t in texts if t[2] in ("1", "2") and t[3] == 9}
    assert pin["1"][0] > pin["2"][0]      # from the solder side pin 1 is on the right
    words = " ".join(t[2] for t in texts)
    assert "clipped off" in words and "3V3 rail" in words and "ground bus" in words
    assert sum(1 for t in texts if t[2] == "10k") == len([h for h in wiring.hub if h.pull_up])
    cuts = [s for s in d.shapes if s[0] == "line" and s[2] == "#d62728" and s[3] == 3]
    assert len(cuts) >= 2 * 20            # at least one cross on every strip
    for layout in (pad_layout, cable_layout):
        words = " ".join(s[2] for s in layout(wiring).shapes if s[0] == "text")
        assert "GND" in words and "contact" in words.lower() or "pin 1" in words


def test_the_docs_hold_the_build_drawings_of_every_config():
    doc = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    for path in CONFIGS:
        stem = path.stem
        hub = wiring_of(load_config(path)).build == "hub"
        for suffix in ("", "-hub", "-pad", "-cable") if hub else ("",):
            assert (ROOT / "docs" / "wiring" / f"{stem}{suffix}.svg").exists()
            assert f"wiring/{stem}{suffix}.svg" in doc


def test_notes_say_the_real_seat_count_and_an_spi_display_gets_its_own_note():
    four = wiring_of(load_config(ROOT / "config" / "matrix-4-seats.yaml"))
    assert any("through 4 pads' cable" in n for n in four.notes)
    assert not any("six pads" in n for n in four.notes)
    spi = wiring_of(load_config(ROOT / "config" / "spi-ssd1309.yaml"))
    assert any("SPI module has 7 pins" in n for n in spi.notes)
    assert not any("VCC GND SCL SDA" in n for n in spi.notes)


def test_the_doc_answers_every_finding_of_the_electrical_review():
    doc = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    table = doc[doc.index("## What the electrical review found"):doc.index("## Each shipped config")]
    ids = [f"D{i}" for i in range(1, 6)] + ["M1", "M2"] + [f"G{i}" for i in range(1, 8)] + \
          [f"N{i}" for i in range(1, 7)]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    assert [r.split()[1] for r in rows[1:]] == ids
    assert all(len([c for c in r.split(" | ") if c.strip()]) == 3 for r in rows[1:])


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_every_pin_the_config_does_not_use_is_clipped_and_the_checklist_covers_every_pin(path):
    wiring = wiring_of(load_config(path))
    used = {u.board for u in wiring.uses}
    assert set(wiring.clipped) == set(range(1, 41)) - used
    assert set(CLIPPED) <= set(wiring.clipped) and 17 in wiring.clipped
    steps = checklist(wiring)
    a1 = next(s for s in steps if s.startswith("A1."))
    assert [int(n) for n in a1.split(": ", 1)[1].split(" (")[0].split()] == list(wiring.clipped)
    a3 = next(s for s in steps if s.startswith("A3."))
    grounds = {u.board for u in wiring.uses if u.role == "ground"}
    for b in grounds:              # the ground pins are the bus: named as such, not beeped to it
        assert f" {b}" in a3.split(")")[0]
    covered = set(wiring.clipped) | grounds | {RAIL_PIN} | {h.board for h in wiring.hub if h.bcm is not None}
    assert covered == set(range(1, 41))
    # drawn: every clipped pin says so on the hub drawing, pin 17 as the second 3V3
    words = [s[2] for s in hub_layout(wiring).shapes if s[0] == "text"]
    for b in wiring.clipped:
        assert any(w.startswith(f"pin {b}: ") and "clipped off" in w for w in words), b
    assert "pin 17: 3V3, clipped off: nothing here" in words


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_the_pi_end_is_keyed_by_an_adapter_and_no_misplug_is_called_harmless(path):
    wiring = wiring_of(load_config(path))
    parts = {p.name: p for p in wiring.parts}
    notes = " ".join(wiring.notes)
    assert parts["Pi adapter: HAT-size proto board, 65 x 56 mm"].count == 1
    assert parts["2x20 box headers, 2.54 mm"].count == 2
    assert parts["M2.5 standoffs, 11 mm, female-female, with 8 M2.5 x 6 mm screws"].count == 4
    assert "every line has its series resistor" not in notes
    assert "NOT harmless" in notes and "ground bus" in notes and "B1 every time" in notes
    steps = checklist(wiring)
    b = next(s for s in steps if s.startswith("B."))
    assert "hole 9" not in b and "USB-A or HDMI socket" in b and "male jumper pin" in b
    assert any(s.startswith("A8.") and "adapter" in s for s in steps)
    words = " ".join(s[2] for s in cable_layout(wiring).shapes if s[0] == "text")
    assert "Pi adapter" in words and "4 screws" in words


def test_a_pad_can_be_built_from_its_parts_list():
    from pitable.hardware import wiring as w

    # 8 keys in a row: the caps fit the board with room at the ends, the lid keeps webs
    span = 7 * w.KEY_PITCH_MM + 12
    assert span + 4 <= w.PAD_BOARD_MM[0]
    assert w.KEY_PITCH_MM - w.LID_HOLE_MM >= 5          # drillable by hand in ABS
    assert w.LID_HOLE_MM > 12                            # a 12 mm cap goes through
    # the board under the lid: the caps come through by PROUD_MM
    standoff = w.pad_standoff_mm()
    assert standoff + w.LID_MM + w.PROUD_MM == pytest.approx(w.SWITCH_MM + w.CAP_MM)
    assert standoff > 3.5                                # the switch's body stays under the lid
    inside = (w.PAD_BOX_MM[0] - 20, w.PAD_BOX_MM[1] - 15)
    assert inside[0] >= w.PAD_BOARD_MM[0] + 10 and inside[1] >= w.PAD_BOARD_MM[1] + 5
    wiring = wiring_of(load_config(ROOT / "config" / "pitable.yaml"))
    parts = {p.name: p for p in wiring.parts}
    assert "diagonally opposite legs" in parts["push buttons"].note
    assert any(n.startswith("M3 standoffs, 8 mm") for n in parts)
    words = " ".join(s[2] for s in pad_layout(wiring).shapes if s[0] == "text")
    assert "diagonally opposite legs" in words and "standoffs 7.8 mm" in words
    assert "20.32 mm" in words


@pytest.mark.parametrize("path", HUB_CONFIGS, ids=lambda p: p.name)
def test_every_display_line_has_100_ohm_at_its_pin_and_the_module_a_bezel(path):
    config = load_config(path)
    wiring = wiring_of(config)
    lines = {h.board: h for h in wiring.hub}
    display = wiring.of_role("display")
    if not display:
        return
    for u in display:
        assert lines[u.board].series == "100 ohm", u
    parts = {p.name: p for p in wiring.parts}
    assert parts["100 ohm resistors"].count >= len(display)
    assert any(n.startswith("display bezel") for n in parts)
    assert any(n.startswith("JST-XH") and "cable" in n for n in parts)
    if config.display.interface == "spi":
        assert config.display.spi_bus_speed == 4_000_000
        assert any("SCLK (D0) twisted" in n for n in wiring.notes)


def test_spi_runs_at_4_mhz_unless_the_config_says_otherwise():
    from pitable.config import Config

    assert Config().display.spi_bus_speed == 4_000_000


def test_the_doc_answers_every_finding_of_the_second_electrical_review():
    doc = (ROOT / "docs" / "wiring.md").read_text(encoding="utf-8")
    table = doc[doc.index("## The second electrical review"):doc.index("## What the electrical review found")]
    rows = [line for line in table.splitlines() if line.startswith("| ") and not line.startswith("| ---")]
    assert [r.split()[1] for r in rows[1:]] == [f"E{i}" for i in range(1, 11)]
    assert all(len([c for c in r.split(" | ") if c.strip()]) == 3 for r in rows[1:])
    build = doc[:doc.index("## The matrix")]
    assert "every line has its series resistor" not in build
    assert "misplug is not harmless" in build and "Pi adapter" in build


def test_a_first_table_needs_no_soldering():
    """Three pads from ready-made 8-key modules on jumper leads: its own config, a picture
    of every lead, a parts list with nothing to solder, and a checklist of where each lead
    goes that covers every header pin."""
    path = ROOT / "config" / "no-solder-3-seats.yaml"
    config = load_config(path)
    wiring = wiring_of(config)
    assert (config.seats, config.pads.wiring, config.pads.build) == (3, "direct", "jumpers")
    assert wiring.hub == () and wiring.contacts == () and wiring.clipped == ()
    parts = {p.name: p for p in wiring.parts}
    assert parts["8-key push button modules"].count == 3
    assert parts["jumper leads, female-female, 30 cm"].count == 27
    soldered = ("resistor", "diode", "stripboard", "perfboard", "D-sub", "ribbon", "box header", "capacitor")
    assert not [n for n in parts if any(w in n for w in soldered)], list(parts)
    # no key on the serial port; every key on a pin whose job is off on a stock Pi OS
    keys = {u.bcm for u in wiring.of_role("key")}
    assert len(keys) == 24 and not keys & {14, 15}
    steps = checklist(wiring)
    for u in wiring.of_role("key"):
        assert f"to pin {u.board}" in next(s for s in steps if s.startswith(f"A{u.seat + 1}. "))
    said = " ".join(steps)
    free = [b for b in range(1, 41) if b not in {u.board for u in wiring.uses}]
    assert f"Nothing on pins {' '.join(map(str, free))}" in said and 2 in free and 4 in free
    assert "pitable pads" in steps[-1]
    # the check-config note says what must stay off, since no resistor is in the way
    from pitable.config import pin_note

    note = pin_note(config, "x.yaml")
    assert "With no series resistors, keep I2S and SPI0 off" in note


def test_a_jumper_build_must_be_direct():
    from pitable.config import ConfigError, parse_config

    with pytest.raises(ConfigError, match=r"pads\.build: jumpers needs wiring: direct"):
        parse_config({"pads": {"wiring": "matrix", "build": "jumpers",
                               "matrix": {"rows": [5, 6], "columns": [12, 13, 16, 17, 22, 23, 24, 25]}}},
                     "t.yaml")


def test_the_no_solder_picture_draws_every_lead_and_no_hub():
    from pitable.hardware.wiring_build import save_picture

    wiring = wiring_of(load_config(ROOT / "config" / "no-solder-3-seats.yaml"))
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        written = save_picture(wiring, pathlib.Path(tmp) / "w.svg")
        assert [p.name for p in written] == ["w.svg"]
        svg = written[0].read_text()
    for u in wiring.of_role("key"):
        assert f"pin {u.board}" in svg
    assert "No soldering" in svg
