"""The daemon on the real stack: `pitable run --display terminal` with the shipped
direct config, gpiozero's LGPIOFactory, a Grasshopper turn played by key edges."""

import json
import time
from pathlib import Path

import yaml

from pitable.config import load_config

from .proc import FIRST_FRAME, FRAME_END, pitable

ROOT = Path(__file__).resolve().parents[2]
TAP = 0.4


def test_a_grasshopper_turn_played_by_edges(sim, tmp_path):
    shipped = ROOT / "config" / "direct-3-seats.yaml"
    raw = yaml.safe_load(shipped.read_text())
    raw["log_dir"] = str(tmp_path / "logs")
    config = tmp_path / "table.yaml"
    config.write_text(yaml.safe_dump(raw))
    loaded = load_config(config)
    seats = [s.keys for s in loaded.pads.direct]
    # a key counts for the screen that had been up a reaction time when it went down
    # (README "At the table"): a finger that pressed sooner would be judged by the screen
    # before, so this one waits as a person does
    read = loaded.reaction_seconds + 0.15
    p = pitable("run", "--new", "--display", "terminal", "--config", str(config),
                env={"GPIOZERO_PIN_FACTORY": "lgpio"}, cwd=tmp_path)

    def tap(seat, key):
        time.sleep(read)
        frames = p.count(FRAME_END)
        gpio = seats[seat - 1][key]
        sim.press(gpio)
        time.sleep(TAP)
        sim.release(gpio)
        # the next key only once this one's frame is on the screen: a key is judged by
        # the screen in front of its presser
        try:
            p.wait_for(FRAME_END, times=frames + 1, timeout=60)
        except AssertionError:
            pass   # a key that changes nothing on the screen (the journal is checked below)

    try:
        p.wait_for(FRAME_END, timeout=FIRST_FRAME)
        sim.wait_claimed([g for keys in seats for g in keys])
        tap(1, 0)                              # game 1: Grasshopper Poker
        for seat in (1, 2, 3):
            tap(seat, 0)                       # each seat joins with its key 1
        tap(1, 6); tap(1, 6)                   # A: go on, A: start
        for kind in (1, 2, 3):                 # the cards turned up: corn, strawberry, broccoli
            tap(1, kind)
        tap(1, 5); tap(2, 4); tap(3, 0)        # the bids: 6, 5 and 1
        time.sleep(loaded.reveal_seconds)      # all bids stay up that long whatever is pressed
        tap(1, 1)                              # seat 1, the highest bid, takes the corn: its key 2
        logs = list((tmp_path / "logs").glob("grasshopper-*.jsonl"))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (logs and '"choose"' in logs[0].read_text()):
            time.sleep(0.5)
            logs = list((tmp_path / "logs").glob("grasshopper-*.jsonl"))
    finally:
        rc = p.stop()
    assert rc == 0, p.errors
    assert "Traceback" not in p.errors
    lines = [json.loads(line) for line in logs[0].read_text().splitlines()]
    assert lines[0]["game"] == "grasshopper" and lines[0]["pads"] == [1, 2, 3]
    assert lines[1:] == [{"reveal": "corn"}, {"reveal": "strawberry"}, {"reveal": "broccoli"},
                         {"bids": ["6", "5", "1"]}, {"choose": "corn"}]
