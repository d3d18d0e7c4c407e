"""The real GPIO stack: these tests run only in the QEMU guest that
scripts/realstack/run.sh boots (gpio-sim shaped like a Pi, lgpio, gpiozero's real pin
factories); anywhere else they are skipped. docs/real-gpio.md says what they prove."""

import os
from pathlib import Path

import pytest

from .sim import SimChip

HERE = Path(__file__).resolve().parent
IN_GUEST = os.environ.get("PITABLE_REALSTACK") == "1"


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "realstack: needs the real-stack guest (scripts/realstack/run.sh): "
                   "gpio-sim, the GPIO character device, lgpio/libgpiod and gpiozero's real factories")


def pytest_collection_modifyitems(config, items):
    skip = pytest.mark.skip(reason="the real GPIO stack runs in its guest: scripts/realstack/run.sh")
    for item in items:
        if HERE in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.realstack)
            if not IN_GUEST:
                item.add_marker(skip)


@pytest.fixture(scope="session")
def chip():
    """The Pi-shaped chip: one bank of 28 lines named GPIO0..GPIO27 (gpiochip0)."""
    c = SimChip.create()
    yield c
    c.remove()


@pytest.fixture
def sim(chip):
    """The chip with every key let go and every wire open, before and after a test."""
    chip.reset()
    yield chip
    chip.reset()
