"""No matrix row is ever driven high, as the kernel saw it: its gpio tracepoints
(every value set and direction change a client asked for) and the patched gpio-sim's
own count of highs per line (which also sees a claim's initial value)."""

import re
import time
from pathlib import Path

from pitable.config import load_config

from .proc import FIRST_FRAME, FRAME_END, pitable
from .test_pads_cli import MATRIX_TAP, slow_matrix_config

ROOT = Path(__file__).resolve().parents[2]
TRACING = Path("/sys/kernel/tracing")


def trace(on: bool) -> None:
    for event in ("gpio_value", "gpio_direction"):
        (TRACING / "events" / "gpio" / event / "enable").write_text("1" if on else "0")


def test_matrix_rows_are_never_set_high(sim, tmp_path):
    config = slow_matrix_config(tmp_path)
    m = load_config(config).pads.matrix
    rows, cols = list(m.rows), list(m.columns)
    (sim.sysfs / "sim_driven_high").write_text("0")
    (TRACING / "trace").write_text("")
    trace(True)
    p = pitable("pads", "--config", str(config), env={"GPIOZERO_PIN_FACTORY": "lgpio"}, cwd=tmp_path)
    try:
        p.wait_for(FRAME_END, timeout=FIRST_FRAME)
        sim.wait_claimed(rows + cols)
        for s, k in ((0, 0), (1, 7), (3, 3)):
            sim.wire(rows[s], cols[k], True)
            time.sleep(MATRIX_TAP)
            sim.wire(rows[s], cols[k], False)
            p.wait_for(f"Seat {s + 1} key ", times=1, timeout=90)
        sim.wire(rows[2], cols[5], True)      # a hold: re-scans every 20 ms while held
        p.wait_for("Seat 3 key 6 (held)", timeout=90)
        sim.wire(rows[2], cols[5], False)
    finally:
        rc = p.stop()
        trace(False)
    assert rc == 0, p.errors
    base = sim.base()
    row_numbers = {base + r: r for r in rows}
    sets, outs = [], 0
    for line in (TRACING / "trace").read_text().splitlines():
        v = re.search(r"gpio_value: (\d+)\s+set (\d+)", line)
        if v and int(v.group(1)) in row_numbers:
            sets.append(int(v.group(2)))
        d = re.search(r"gpio_direction: (\d+)\s+out", line)
        if d and int(d.group(1)) in row_numbers:
            outs += 1
    assert outs > 10 and sets, "the scans were traced"   # each scan drives every row
    assert set(sets) == {0}, f"a row was set high {sets.count(1)} times"
    highs = dict(tuple(map(int, line.split())) for line in
                 (sim.sysfs / "sim_driven_high").read_text().splitlines())
    assert not any(r in highs for r in rows), f"rows driven high (line: times): {highs}"
