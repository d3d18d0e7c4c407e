"""One rule for what a display can be (pitable/hardware/panel.py): check-config accepts a display
section exactly when the daemon can open that display and draw every screen on it."""

import itertools

import pytest

from pitable.config import parse_config
from pitable.errors import ConfigError, HardwareError
from pitable.hardware.busmeter import CountingSerial
from pitable.hardware.display import open_display
from pitable.screens import views as v
from pitable.screens.render import render

SIZES = [(128, 64), (128, 32), (64, 48), (96, 16), (128, 128), (64, 128), (132, 64), (256, 64)]


def _draws(options):
    try:
        kind = options["display"]
        serial = CountingSerial() if kind in ("ssd1306", "sh1106", "ssd1309") else None
        device = open_display(options, serial=serial)
    except HardwareError:
        return False
    # a real screen, as the loop draws it (setup is what every start shows first)
    device.display(render(v.Setup("game", "grasshopper", (), 4, (), False)))
    return True


@pytest.mark.parametrize("kind,size,rotate", list(itertools.product(
    ["ssd1306", "sh1106", "dummy"], SIZES, [0, 1, 2, 3])))
def test_check_config_accepts_exactly_what_the_daemon_draws(kind, size, rotate):
    section = {"display": kind, "width": size[0], "height": size[1], "rotate": rotate}
    try:
        config = parse_config({"display": section, "pads": {"wiring": "keyboard"}}, "t.yaml")
        accepted, message = True, None
    except ConfigError as e:
        accepted, message = False, str(e)
    if accepted:
        assert _draws(config.display.luma_options())
    else:
        assert message.startswith("t.yaml: display.") and "128x64" in message
        assert not _draws({**section})


@pytest.mark.parametrize("speed", [500_000, 1_000_000, 3_000_000, 8_000_000, 12345, 32_000_000, 52_000_000,
                                   60_000_000])
def test_check_config_takes_exactly_the_spi_speeds_luma_takes(speed):
    from luma.core.interface.serial import spi

    class Anything:  # luma's own check comes before it touches the bus or the pins
        def __getattr__(self, name):
            return lambda *a, **k: None

    try:
        spi(spi=Anything(), gpio=Anything(), bus_speed_hz=speed)
        luma_takes = True
    except AssertionError:
        luma_takes = False
    section = {"display": "ssd1306", "interface": "spi", "spi_bus_speed": speed}
    try:
        parse_config({"display": section, "pads": {"wiring": "keyboard"}}, "t.yaml")
        accepted = True
    except ConfigError as e:
        accepted = False
        assert "display.spi_bus_speed" in str(e)
    assert accepted == luma_takes
