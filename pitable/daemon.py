"""The daemon's composition: ``pitable run`` wires the config to the hardware, the table, its
loop and (with ``web:``) the web server. ``assemble`` is the one wiring of a table, its screen
and its loop: the daemon, the harness on mock pins (``pitable.harness``) and the web tests'
table all build theirs with it."""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import signal
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from pitable.errors import ConfigError, HardwareError
from pitable.host import choose_config, choose_display, in_this_terminal, pin_factory
from pitable.table.app import Table
from pitable.hardware.keys import RELEASE
from pitable.table.loop import REACTION_SECONDS

if TYPE_CHECKING:
    from pitable.hardware.pads import DirectPads, MatrixPads, SeatSignals
    from pitable.table.loop import Loop
    from pitable.table.screen import Screen

log = logging.getLogger(__name__)

LOG_LEVELS = ("debug", "info", "warning", "error")


def log_level(given: str | None) -> int:
    """The level the daemon logs at: ``--log-level``, else ``PITABLE_LOG_LEVEL``, else info.
    A name it does not know is a ConfigError naming where it came from."""
    where, name = ("--log-level", given) if given else ("PITABLE_LOG_LEVEL", os.environ.get("PITABLE_LOG_LEVEL"))
    if not name:
        return logging.INFO
    if name.lower() not in LOG_LEVELS:
        raise ConfigError(f"{where}: unknown log level {name!r} (choose {', '.join(LOG_LEVELS)})")
    return int(getattr(logging, name.upper()))


def closing_quietly(stack: contextlib.ExitStack, close: Callable[[], Any]) -> None:
    """``close`` runs when ``stack`` unwinds; its own failure is logged, never raised, so
    that it cannot hide the error that is ending the run."""
    def quietly() -> None:
        try:
            close()
        except Exception:  # noqa: BLE001 - closing must not hide the real error
            log.exception("while closing")
    stack.callback(quietly)


class Assembly(NamedTuple):
    table: Table
    loop: Loop
    screen: Screen


def assemble(device, *, clock=time.monotonic, hold: float = 1.0, reaction: float = REACTION_SECONDS,
             release: float = RELEASE, watchdog=None, on_frame=None, screen: dict | None = None, web=None,
             **table_args: Any) -> Assembly:
    """The table (``table``: its keyword arguments), the screen on ``device`` (``screen``: its
    keyword arguments) and the loop joining them, drawing in the table's language of the
    moment; the table posts the assistant's answers to the loop's queue, and with ``web``
    the loop publishes to the web server, which posts keys and joins back."""
    from pitable.screens.render import render
    from pitable.table.loop import Loop
    from pitable.table.screen import Screen

    queued: queue.SimpleQueue = queue.SimpleQueue()
    table = Table(clock=clock, post=queued.put, **table_args)
    shown = Screen(device, clock, **(screen or {}))
    loop = Loop(table, shown, lambda view: render(view, table.language), hold=hold, clock=clock,
                on_frame=on_frame, watchdog=watchdog, reaction=reaction, release=release, queued=queued)
    if web is not None:
        connect_web(web, loop, table)
    return Assembly(table, loop, shown)


def open_pads(config, post, factory) -> tuple[DirectPads | MatrixPads, SeatSignals]:
    """The pads the config wires, posting to the loop; and the seat signals."""
    from pitable.hardware.pads import DirectPads, MatrixPads, SeatSignals, nothing

    pads = config.pads
    wake = lambda: post(nothing)   # noqa: E731 - a press waiting for its check asks the loop to look again
    keys: DirectPads | MatrixPads
    if pads.wiring == "direct":
        keys = DirectPads([s.keys for s in pads.direct], post, pin_factory=factory, bounce=pads.bounce,
                          wake=wake)
        signals = SeatSignals([s.led for s in pads.direct], [s.buzzer for s in pads.direct], pin_factory=factory)
    else:
        keys = MatrixPads(pads.matrix.rows, pads.matrix.columns, post, pin_factory=factory, bounce=pads.bounce,
                          wake=wake)
        signals = SeatSignals(pads.matrix.leds, (), pin_factory=factory)
    return keys, signals


class Missing:
    """Stands in for a display that did not answer at start: every call fails like a
    bus error, so the screen keeps retrying (reopening) in the background while the
    pads and the game log work as ever."""

    def __init__(self, error):
        self.error = error

    def display(self, image):
        raise OSError(f"display not there: {self.error}")

    hide = show = display


def open_display_or_wait(options: dict, is_hardware: bool):
    """Open the display; a hardware one that is missing at boot (a loose cable) must not
    keep the daemon from starting: it is retried with backoff, as a fault later would be."""
    from pitable.hardware.display import open_display

    try:
        return open_display(options)
    except HardwareError as e:
        if not is_hardware:
            raise
        log.warning("display not available (%s); running without it and retrying", e)
        return Missing(e)


def open_web(web_config, source: str):
    """Bind the web server now (a taken port is a config error naming web.port, exit 2)."""
    from pitable.web.access import Phones
    from pitable.web.server import WebServer

    web = WebServer(None, bind=web_config.bind, port=web_config.port, host=web_config.host)
    try:
        web.start()
    except OSError as e:
        raise ConfigError(f"{source}: web.port: cannot listen on {web_config.bind}:{web_config.port}: "
                          f"{e.strerror or e}") from None
    log.info("phones and the table page: %s", web.address())
    return web, Phones(), f"HTTP://{(web.host or '').upper()}:{web.port}/"  # host: set by start()


def connect_web(web, loop, table) -> None:
    """The web thread posts keys and joins to the loop; the loop publishes to it."""
    from pitable.web.publish import Publisher

    web.post = loop.post   # a phone's key carries its session (KeyEvent.by): its bids are marked by it
    loop.publish = Publisher(table, table.phones, web.publish, loop)  # loop: the screen version keys name
    web.join = table.phone_join
    web.join_sealed = table.phone_join_sealed


def run(args) -> int:
    from pitable.hardware.display import open_display
    from pitable.service import systemd
    from pitable.table.loop import Stop

    logging.basicConfig(level=log_level(getattr(args, "log_level", None)),
                        format="%(levelname)s %(name)s: %(message)s")
    config, source = choose_config(args.config)
    from pitable.config import pin_note, pin_warnings

    for line in pin_warnings(config, source):   # the journal says why a key may read nothing
        log.warning("%s", line)
    pins = pin_note(config, source)     # and which pins share a job that is off
    if pins:
        log.info("%s", pins)
    options = dict(config.display.luma_options())
    if getattr(args, "display", None):
        options["display"] = args.display
    options, note = choose_display(options)
    with contextlib.ExitStack() as stack:
        try:
            device = open_display_or_wait(options, config.display.is_hardware)
        except HardwareError as e:
            if options["display"] != "pygame":
                raise
            # the probe said a window would open, and it did not: the terminal still works
            note = f"the window did not open ({e}): using this terminal instead (--display terminal)"
            options = {**options, "display": "terminal"}
            device = open_display(options)
        if note and not in_this_terminal(device, sys.stderr):  # said under the frame (below), once
            print(f"pitable: {note}", file=sys.stderr, flush=True)
        web, phones, address = None, None, ""
        if config.web is not None:  # phones and the TV page (docs/phones.md); nothing imported otherwise
            web, phones, address = open_web(config.web, source)
            closing_quietly(stack, web.close)
        table, loop, screen = assemble(
            device, hold=config.pads.hold, watchdog=systemd.watchdog(), reaction=config.reaction_seconds,
            screen={"blank_after": options.get("blank_after", 300) or 0,
                    "reopen": (lambda: open_display(options)) if config.display.is_hardware else None},
            web=web, seats=config.seats, log_dir=config.log_path, game=config.game, deck=config.deck,
            resume=not getattr(args, "new", False), language=config.language,
            notice_seconds=config.notice_seconds, assistant=config.assistant.to_dict(),
            reveal_seconds=config.reveal_seconds, phones=phones, web_address=address)
        closing_quietly(stack, table.close)
        closing_quietly(stack, screen.close)
        if config.pads.wiring == "keyboard":
            from pitable.hardware.keyboard import open_keyboard

            table.rows_yield_to_phones = True

            keyboard = open_keyboard(config.pads.keyboard, loop.post, device)
            closing_quietly(stack, keyboard.close)
            if hasattr(device, "caption"):
                device.caption = keyboard.help_text()  # under the frame, or in the title bar
            if options["display"] != "terminal":  # and in the terminal that started the window
                print(keyboard.help_text(), flush=True)
        else:
            keys, signals = open_pads(config, loop.post, pin_factory(config.pads.pin_factory))
            closing_quietly(stack, keys.close)
            closing_quietly(stack, signals.close)
            loop.sources.append(keys)
            table.signal = signals.refuse
        if note and hasattr(device, "caption"):  # the first frame clears the terminal: say it under it
            device.caption = "\n".join(filter(None, (device.caption, note)))
        if getattr(args, "exit_after_first_frame", False):
            loop.refresh()
            return 0
        signal.signal(signal.SIGTERM, lambda *_: loop.post(Stop()))
        log.info("pitable running (config %s, display %s, %s pads)", source, options["display"], config.pads.wiring)
        systemd.notify("READY=1")
        loop.run()
        systemd.notify("STOPPING=1")
        return 0


