"""`pitable pads` on the real stack: the shipped configs (their OLED is missing in the
guest, so the wiring test falls back to the terminal), gpiozero's LGPIOFactory chosen
as on a Pi, keys made by gpio-sim's pulls (direct) and the patched module's wires
(matrix)."""

import re
import time
from pathlib import Path

import pytest

from pitable.config import load_config

from .proc import FIRST_FRAME, FRAME_END, pitable

ROOT = Path(__file__).resolve().parents[2]
NAMES = ("1", "2", "3", "4", "5", "6", "A", "X")
TAP = 0.4    # s: long enough for the 20 ms debounce under TCG, well short of a 1 s hold


def pads(config, factory="lgpio", cwd=None):
    return pitable("pads", "--config", str(config), env={"GPIOZERO_PIN_FACTORY": factory}, cwd=cwd)


def keyed(text: str) -> list[str]:
    """The lines `pitable pads` printed for keys (a frame's last line runs into them)."""
    return re.findall(r"Seat \d key \S+(?: \(held\))?: [^\n\x1b]*", text)


def line_of(text: str, seat: int, key: int) -> str:
    return next(line for line in keyed(text) if line.startswith(f"Seat {seat} key {NAMES[key]}"))


@pytest.mark.parametrize("factory", ["lgpio", "gpiod"])
def test_direct_every_key_two_seats_at_once_a_hold_and_sigterm(sim, tmp_path, factory):
    config = ROOT / "config" / "direct-3-seats.yaml"
    seats = [s.keys for s in load_config(config).pads.direct]
    p = pads(config, factory, cwd=tmp_path)
    try:
        p.wait_for(FRAME_END, timeout=FIRST_FRAME)
        sim.wait_claimed([g for keys in seats for g in keys])
        n = 0
        for s, keys in enumerate(seats):
            for k, gpio in enumerate(keys):
                sim.press(gpio)
                time.sleep(TAP)
                sim.release(gpio)
                n += 1
                p.wait_for(f"Seat {s + 1} key {NAMES[k]}: GPIO {gpio} (pin ", timeout=90)
        assert p.count("(held)") == 0
        # two seats at once: both come out, each on its own seat
        sim.press(seats[0][3]); sim.press(seats[2][3])
        time.sleep(TAP)
        sim.release(seats[0][3]); sim.release(seats[2][3])
        p.wait_for(f"Seat 1 key 4: GPIO {seats[0][3]}", times=2)
        p.wait_for(f"Seat 3 key 4: GPIO {seats[2][3]}", times=2)
        # a hold
        sim.press(seats[1][7])
        p.wait_for(f"Seat 2 key X (held): GPIO {seats[1][7]}", timeout=90)
        sim.release(seats[1][7])
    finally:
        rc = p.stop()
    assert rc == 0, p.errors
    assert "the display is missing" in p.errors and "Traceback" not in p.errors
    lines = keyed(p.text)
    assert len(lines) == n + 2 + 1, lines   # every tap once, nothing else
    # released lines float back to their pull after pitable let them go
    assert all(sim.value(g) == 1 for keys in seats for g in keys)


def slow_matrix_config(tmp_path) -> Path:
    """The shipped matrix config with a 4 s hold. A matrix key is read by a scan, which
    must come while the key is still down; under emulation on a loaded host the
    callback thread can be a second late, so taps are 1.2 s, and a hold longer."""
    import yaml

    raw = yaml.safe_load((ROOT / "config" / "matrix-4-seats.yaml").read_text())
    raw["pads"]["hold"] = 4.0
    path = tmp_path / "matrix.yaml"
    path.write_text(yaml.safe_dump(raw))
    return path


MATRIX_TAP = 1.2


@pytest.mark.parametrize("factory", ["lgpio", "gpiod"])
def test_matrix_every_key_shared_columns_holds_and_sigterm(sim, tmp_path, factory):
    config = slow_matrix_config(tmp_path)
    m = load_config(config).pads.matrix
    rows, cols = m.rows, m.columns
    p = pads(config, factory, cwd=tmp_path)
    try:
        p.wait_for(FRAME_END, timeout=FIRST_FRAME)
        sim.wait_claimed(list(rows) + list(cols))
        assert all(sim.value(r) == 0 for r in rows), "idle rows are driven low"

        def tap(*keys):
            for s, k in keys:
                sim.wire(rows[s], cols[k], True)
            time.sleep(MATRIX_TAP)
            for s, k in keys:
                sim.wire(rows[s], cols[k], False)

        def said(s, k, times=1):
            p.wait_for(f"Seat {s + 1} key {NAMES[k]}: row GPIO {rows[s]} (pin ", times=times, timeout=90)
            assert f"column GPIO {cols[k]} (pin " in line_of(p.text, s + 1, k)

        for s in range(len(rows)):
            for k in range(len(cols)):
                tap((s, k))
                said(s, k)
        assert len(keyed(p.text)) == len(rows) * len(cols), keyed(p.text)
        tap((0, 1), (2, 5))          # two seats, two keys
        said(0, 1, 2); said(2, 5, 2)
        tap((1, 4), (3, 4))          # two seats, the same key: one shared column
        said(1, 4, 2); said(3, 4, 2)
        # seat 2 holds key 3 while seat 4 taps key 3: no column edge, found by re-scans
        sim.wire(rows[1], cols[2], True)
        p.wait_for("Seat 2 key 3 (held)", timeout=90)
        tap((3, 2))
        said(3, 2, 2)
        sim.wire(rows[1], cols[2], False)
        tap((0, 0))
        said(0, 0, 2)
    finally:
        rc = p.stop()
    assert rc == 0, p.errors
    assert "Traceback" not in p.errors and "Exception" not in p.errors
    assert all(sim.value(r) == 1 for r in rows), "let go at exit: the rows float back up"
