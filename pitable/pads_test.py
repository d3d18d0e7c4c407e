"""``pitable pads``: the wiring test. Each key says which seat and key it is, and the header
pins it came in on, so a wrong wire is found before a game."""

from __future__ import annotations

import contextlib
import signal
import sys
import time

from pitable.daemon import open_pads
from pitable.errors import HardwareError
from pitable.host import choose_config, choose_display, in_this_terminal, pin_factory
from pitable.hardware.keys import InputSource
from pitable.table.loop import App


class PadsTest(App):
    """The wiring test's app: each key event says seat, key and the header pin(s) it came
    in on (its own pin, or row and column), on screen and on stdout, so pressing the keys
    of a pad in order finds a wrong wire. The pins come from the config's wiring model,
    not from the pads: the hardware layer only knows seat and key. The screen speaks the
    table's language; stdout stays English, like the logs."""

    from pitable.keys import NAMES

    def __init__(self, config, out=None):
        from pitable.hardware.wiring import wiring_of
        from pitable.i18n import msg

        self.wiring = wiring_of(config)
        self.out = out or (lambda line: print(line, flush=True))
        self.lines = (msg("pads.press"),)

    def on_key(self, event):
        from pitable.i18n import msg

        seat, key = event.seat + 1, self.NAMES[event.key]
        held = " (held)" if event.action == "hold" else ""
        where = self.wiring.where(event.seat, event.key)
        self.out(f"Seat {seat} key {key}{held}" + (f": {where}" if where else ""))
        pins = self.wiring.key_pins(event.seat, event.key)
        # header pin numbers (what a maker counts on the board); "held" is left out: a
        # wire is found by its pins, and the line fits the screen
        if self.wiring.kind == "matrix":
            line = msg("pads.key_row_col", seat=seat, key=key, row=pins[0].board, col=pins[1].board)
        elif pins:
            line = msg("pads.key_pin", seat=seat, key=key, pin=pins[0].board)
        else:
            line = msg(f"pads.key_{event.action}", seat=seat, key=key)
        self.lines = (line,) + self.lines[:2]   # three lines fit in every language

    def view(self):
        from pitable.i18n import msg
        from pitable.screens import views as v

        # every key of every seat does the same here (it says which it is): taken whatever the screen
        return v.Message(msg("pads.title"), self.lines,
                         keys=tuple(v.Key(k, ("show",), name) for k, name in enumerate(self.NAMES)))


def blink_leds(signals, wiring, out, pause: float = 0.6, sleep=time.sleep) -> int:
    """Each seat's LED blinks in turn, seat 1 first, and the terminal names the seat and the
    header pin: a dark LED, one that blinks for the wrong seat, or one reversed is found
    before a game refuses a key. Returns how many LEDs were blinked."""
    blinked = 0
    for use in sorted((u for u in wiring.of_role("led") if u.seat is not None), key=lambda u: u.seat):
        if not signals.fitted(use.seat):
            continue
        out(f"LED of seat {use.seat + 1}: {use.name}: blinking twice now")
        signals.refuse(use.seat)      # the two blinks a refused key gives in a game
        sleep(pause)
        blinked += 1
    return blinked


def wiring_loop(app: PadsTest, screen, render, config, clock=time.monotonic):
    """The wiring test's loop. Its keys mean the same on every screen (each says which it
    is), so none is judged by the screen its presser saw (``reaction`` 0): a game refuses
    a key that came before its first screen had been up a reaction time, but a builder's
    first press, the moment the screen is up, must show."""
    from pitable.table.loop import Loop

    return Loop(app, screen, render, hold=config.pads.hold, clock=clock, reaction=0)


def pads_test(args) -> int:
    """``pitable pads``: show which seat and key is pressed, to check the wiring."""
    config, source = choose_config(args.config)
    options, note = choose_display(dict(config.display.luma_options()))
    with contextlib.ExitStack() as stack:
        return _run(stack, config, source, options, note)


def _run(stack: contextlib.ExitStack, config, source, options: dict, note: str | None) -> int:
    """The wiring test's loop; whatever it opened is closed by ``stack`` in reverse order,
    also when opening the pads fails (the screen then still ends on a fresh line)."""
    from pitable.hardware.display import open_display
    from pitable.screens.render import render
    from pitable.table.loop import Stop
    from pitable.table.screen import Screen

    try:
        device = open_display(options)
    except HardwareError as e:
        # the wiring test is what a builder runs before the OLED is wired: its keys
        # must not wait for the display, so they show in this terminal instead
        if options.get("display") == "terminal":
            raise
        note = f"the display is missing ({e}): showing the keys in this terminal instead"
        options = {**options, "display": "terminal"}
        device = open_display(options)
    if note and not in_this_terminal(device, sys.stderr):  # said under the frame (below), once
        print(f"pitable: {note}", file=sys.stderr, flush=True)
    if note and hasattr(device, "caption"):  # under the frame: the first frame clears the terminal
        device.caption = note
    screen = Screen(device, time.monotonic, blank_after=0)
    stack.callback(screen.close)  # and the prompt on a line of its own
    app = PadsTest(config)
    loop = wiring_loop(app, screen, lambda view: render(view, config.language), config)
    signal.signal(signal.SIGTERM, lambda *_: loop.post(Stop()))
    print(f"pitable pads ({source}): press keys; Ctrl-C ends", flush=True)
    keys: InputSource
    if config.pads.wiring == "keyboard":
        from pitable.hardware.keyboard import open_keyboard

        keys = open_keyboard(config.pads.keyboard, loop.post, device)
        stack.callback(keys.close)
        signals = None
    else:
        keys, signals = open_pads(config, loop.post, pin_factory(config.pads.pin_factory))
        stack.callback(keys.close)
        if signals:
            stack.callback(signals.close)
        loop.sources.append(keys)
    if signals:
        blink_leds(signals, app.wiring, lambda line: print(line, flush=True))
    loop.run()
    return 0
