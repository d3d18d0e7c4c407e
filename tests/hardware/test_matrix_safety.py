"""The matrix never shorts two pins, and reads a column only once it has settled.

The mock matrix checks, at every change of a row pin and every key pressed, that no
output driven high shares a net with an output driven low, as if every diode were
missing, reversed or bridged (the worst a maker's soldering can do): then current would
run from one pin into the other through the keys. It also records every row change,
every wait and every column read, in order.
"""

import random

import pytest

from pitable.hardware.mockmatrix import MockMatrix
from pitable.hardware.pads import SETTLE, MatrixPads

ROWS = [5, 6, 13, 19, 26, 12]
COLS = [4, 17, 27, 22, 23, 24, 25, 16]


def run_loop(pads, clock, until):
    while True:
        dl = pads.next_deadline()
        if dl is None or dl > until:
            clock.t = until
            return
        clock.t = dl
        pads.settle()


def key_sets(n=40, seed=7):
    """Sets of held keys: every key of a column on every seat, whole pads, random ones."""
    rng = random.Random(seed)
    every = [(s, k) for s in range(len(ROWS)) for k in range(8)]
    out = [[(s, 3) for s in range(len(ROWS))], [(0, k) for k in range(8)] + [(1, 0)], every]
    out += [rng.sample(every, rng.randint(2, 12)) for _ in range(n)]
    return out


@pytest.mark.parametrize("held", key_sets(), ids=lambda h: f"{len(h)}keys")
def test_no_output_drives_against_another_in_any_scan_with_any_keys_held(factory, clock, held):
    sim = MockMatrix(factory, ROWS, COLS)
    edges = []
    with MatrixPads(ROWS, COLS, edges.append, pin_factory=factory, clock=clock) as pads:
        for sk in held:                     # each press scans; held keys re-scan
            sim.press(*sk)
            clock.advance(0.003)
            pads.settle()
        run_loop(pads, clock, clock.t + 0.2)
        for sk in held[::2]:
            sim.release(*sk)
            run_loop(pads, clock, clock.t + 0.05)
        scans = pads.scan_count
    assert scans > len(held) // 2
    assert sim.faults == [], sim.faults[:3]


def test_the_short_check_is_not_vacuous(factory):
    """Two rows driven apart with one column's key held on both: a short."""
    sim = MockMatrix(factory, ROWS[:2], COLS)
    sim.press(0, 3)
    sim.press(1, 3)
    sim.rows[0].output_with_state(False)
    assert sim.faults == []
    sim.rows[1].output_with_state(True)
    assert sim.shorts() == [("GPIO6", "GPIO5")] and sim.faults


def test_rows_are_driven_low_or_let_go_never_high(factory, clock):
    sim = MockMatrix(factory, ROWS, COLS)
    sim.trace = []
    with MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, clock=clock) as pads:
        sim.press(2, 6)
        run_loop(pads, clock, clock.t + 0.1)
        assert all(r.driving_low() for r in sim.rows)       # idle: every row low
    changes = [c for kind, c in sim.trace if kind == "row"]
    assert any(c.endswith(" input") for c in changes)         # let go while scanning
    assert all(not r.driving_high() for r in sim.rows)


@pytest.mark.parametrize("held", [[], [(0, 0)], [(1, 2), (4, 2), (5, 7)]], ids=len)
def test_a_settle_wait_comes_before_every_column_read(factory, clock, held):
    sim = MockMatrix(factory, ROWS, COLS)
    sim.trace = []
    pads = MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, clock=clock,
                      sleep=lambda dt: sim.trace.append(("settle", dt)))
    with pads:
        for sk in held:
            sim.press(*sk)
            clock.advance(0.002)
        run_loop(pads, clock, clock.t + 0.2)
        for sk in held:
            sim.release(*sk)
        run_loop(pads, clock, clock.t + 0.2)
    reads = 0
    settled = False
    for kind, what in sim.trace:
        if kind == "row":
            settled = False
        elif kind == "settle":
            settled = settled or what >= SETTLE
        elif kind == "read":
            reads += 1
            assert settled, "a column read right after a row change"
    assert reads >= 8 * len(ROWS) and SETTLE >= 50e-6


def test_the_settle_check_is_not_vacuous(factory, clock):
    """Without the waits, the same trace shows reads straight after row changes."""
    sim = MockMatrix(factory, ROWS, COLS)
    sim.trace = []
    with MatrixPads(ROWS, COLS, lambda e: None, pin_factory=factory, clock=clock, sleep=lambda dt: None):
        pass
    kinds = [kind for kind, _ in sim.trace]
    assert "settle" not in kinds
    assert any(a == "row" and b == "read" for a, b in zip(kinds, kinds[1:]))
