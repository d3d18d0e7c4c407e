"""`pitable pads` blinks each seat's LED in turn, seat 1 first, naming its pin: the LEDs are
tested before a game, not first seen when a game refuses a key."""

import pathlib
import time

from gpiozero.pins.mock import MockFactory

from pitable.config import load_config
from pitable.hardware.pads import SeatSignals
from pitable.hardware.wiring import wiring_of
from pitable.pads_test import blink_leds

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_pads_blinks_every_seats_led_in_seat_order_and_names_its_pin():
    config = load_config(ROOT / "config" / "matrix-4-seats.yaml")
    leds = list(config.pads.matrix.leds)
    assert len(leds) == 4 and None not in leds
    factory = MockFactory()
    signals = SeatSignals(leds, pin_factory=factory, flash=0.01)
    pins = [factory.pin(led) for led in leds]
    lit = []            # at each pause: which LEDs have lit so far

    def pause(seconds):
        time.sleep(seconds)
        lit.append([any(s.state for s in pin.states) for pin in pins])

    printed = []
    try:
        assert blink_leds(signals, wiring_of(config), printed.append, pause=0.08, sleep=pause) == 4
        time.sleep(0.05)
        for pin in pins:   # on, off, on, off: two blinks each
            assert [s.state for s in pin.states][1:5] == [True, False, True, False], pin.states
    finally:
        signals.close()
    # one at a time, seat 1 first: after seat n's pause, seats 1..n have lit and no other
    assert lit == [[i <= n for i in range(4)] for n in range(4)]
    for seat, (line, led) in enumerate(zip(printed, leds)):
        assert line.startswith(f"LED of seat {seat + 1}: GPIO {led} (pin "), line


def test_pads_blinks_nothing_where_no_led_is_fitted():
    config = load_config(ROOT / "config" / "spi-ssd1309.yaml")
    signals = SeatSignals(config.pads.matrix.leds, pin_factory=MockFactory())
    printed = []
    try:
        assert blink_leds(signals, wiring_of(config), printed.append, pause=0) == 0
    finally:
        signals.close()
    assert printed == []
