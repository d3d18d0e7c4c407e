"""The display on a real kernel I2C bus: our module (scripts/realstack/i2c-ssd1306-sim.c)
is bus 1 with an SSD1306 at 0x3C that keeps its display RAM. luma's own smbus2 path
(I2C_RDWR through i2c-dev and the kernel's I2C core) and pitable's page-diff driver
must leave in it, byte for byte, the frame the wiring test drew."""

import subprocess
import time
from pathlib import Path

import pytest

from pitable.config import load_config
from pitable.hardware.keys import KeyEvent
from pitable.hardware.pagediff import page_bytes
from pitable.screens.render import render
from pitable.pads_test import PadsTest

from .proc import FIRST_FRAME, pitable

ROOT = Path(__file__).resolve().parents[2]
ADAPTER = Path("/sys/bus/i2c/devices/i2c-1")


@pytest.fixture
def oled():
    subprocess.run(["modprobe", "i2c-dev"], check=True)
    subprocess.run(["modprobe", "i2c-ssd1306-sim"], check=True)
    try:
        yield ADAPTER
    finally:
        # the other tests run the shipped configs without a display
        subprocess.run(["modprobe", "-r", "i2c-ssd1306-sim"], check=True)


def gddram(adapter) -> list[bytes]:
    raw = (adapter / "gddram").read_bytes()
    return [raw[p * 132:p * 132 + 128] for p in range(8)]   # an SSD1306's 128 columns


def wait_for_ram(adapter, want, timeout=120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if gddram(adapter) == want:
            return
        time.sleep(0.2)
    got = gddram(adapter)
    bad = [p for p in range(8) if got[p] != want[p]]
    raise AssertionError(f"display RAM differs from the frame drawn in pages {bad}")


def test_the_wiring_test_draws_on_the_oled_byte_for_byte(sim, oled, tmp_path):
    path = ROOT / "config" / "direct-3-seats.yaml"
    config = load_config(path)
    expected = PadsTest(config, out=lambda line: None)
    first = page_bytes(render(expected.view(), config.language), 8)
    p = pitable("pads", "--config", str(path), env={"GPIOZERO_PIN_FACTORY": "lgpio"}, cwd=tmp_path)
    try:
        wait_for_ram(oled, first, timeout=FIRST_FRAME)
        gpio = config.pads.direct[1].keys[6]          # seat 2 key A
        sim.wait_claimed([gpio])
        commands, data = map(int, (oled / "counts").read_text().split())
        sim.press(gpio)
        time.sleep(0.4)
        sim.release(gpio)
        p.wait_for(f"Seat 2 key A: GPIO {gpio}", timeout=90)
        expected.on_key(KeyEvent(1, 6, "press"))
        wait_for_ram(oled, page_bytes(render(expected.view(), config.language), 8))
        commands2, data2 = map(int, (oled / "counts").read_text().split())
    finally:
        rc = p.stop()
    assert rc == 0, p.errors
    assert "display is missing" not in p.errors
    # the page-diff driver sent only what changed, not a whole 1 KiB frame
    assert 0 < data2 - data < 1024
