"""What this machine is and offers, asked in one place (gpiozero's single injection point for
the platform, ``Device.pin_factory``): is it a Raspberry Pi, which config file applies,
which display can open here, which GPIO pin factory works. ``pitable run``, ``pitable pads``
and ``pitable doctor`` all ask here, so the daemon and its diagnosis decide alike."""

from __future__ import annotations

import logging
import os
from pathlib import Path

from pitable.errors import HardwareError

log = logging.getLogger(__name__)

PI_CONFIG = Path("/etc/pitable/pitable.yaml")


def is_raspberry_pi() -> bool:
    try:
        return "Raspberry Pi" in Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False


def choose_config(path: str | None):
    """The config file to use: the one given, /etc/pitable on a Pi, else the desktop one."""
    from importlib import resources

    from pitable.config import load_config

    if path:
        return load_config(path), path
    if is_raspberry_pi() and PI_CONFIG.exists():
        return load_config(PI_CONFIG), str(PI_CONFIG)
    desktop = resources.files("pitable") / "data" / "desktop.yaml"
    with resources.as_file(desktop) as p:
        return load_config(p), "desktop.yaml (packaged)"


def choose_display(options: dict) -> tuple[dict, str | None]:
    """The display options ``run`` (and ``pads``, and ``doctor``'s report) will use, and
    why the asked-for window was replaced by this terminal (None if it was not)."""
    if options.get("display") != "pygame":
        return options, None
    from pitable.hardware.display import window_problem

    problem = window_problem()
    if problem is None:
        return options, None
    return {**options, "display": "terminal"}, f"{problem}: using this terminal instead (--display terminal)"


def in_this_terminal(device, stream) -> bool:
    """Whether ``device`` draws its frame (and its caption) on the terminal ``stream`` is:
    a line said on both would be seen twice there (the fallback's note)."""
    from pitable.hardware.display import TerminalDisplay

    if not isinstance(device, TerminalDisplay):
        return False
    try:
        a, b = device.stream.fileno(), stream.fileno()
        if not (os.isatty(a) and os.isatty(b)):
            return False  # a pipe or a file (a log, the journal): the note goes there too
        sa, sb = os.fstat(a), os.fstat(b)
    except (AttributeError, OSError, ValueError):  # a stream with no descriptor (a test's capture)
        return False
    return (sa.st_dev, sa.st_ino, sa.st_rdev) == (sb.st_dev, sb.st_ino, sb.st_rdev)


def pin_factory(name: str):
    """The gpiozero pin factory the config asks for; "default" is gpiozero's own choice
    (lgpio, rpigpio, pigpio, native: the first that works), made here so that its tries
    end in one clear error instead of a warning per library."""
    if name in (None, "default"):
        import warnings

        from gpiozero import Device
        from gpiozero.exc import PinFactoryFallback

        if Device.pin_factory is None and "GPIOZERO_PIN_FACTORY" not in os.environ:
            preferred = _preferred_factory()
            if preferred is not None:
                Device.pin_factory = preferred
                return preferred

        with warnings.catch_warnings(record=True) as tries:
            warnings.simplefilter("always", PinFactoryFallback)
            try:
                Device.ensure_pin_factory()
            except Exception as e:  # noqa: BLE001 - BadPinFactory, or a library failing its own way
                why = "; ".join(str(w.message).removeprefix("Falling back from ") for w in tries
                                if issubclass(w.category, PinFactoryFallback)) or str(e)
                raise HardwareError(f"no GPIO pin library works here ({why}); not on a Raspberry Pi? "
                                    "use pads.wiring: keyboard") from None
        for w in tries:  # the tries that failed before one worked; and e.g. "native is experimental"
            (log.info if issubclass(w.category, PinFactoryFallback) else log.warning)("gpiozero: %s", w.message)
        return Device.pin_factory
    if name == "mock":
        from gpiozero.pins.mock import MockFactory

        return MockFactory()
    modules = {"gpiod": ("pitable.hardware.gpiodpins", "GPIODFactory"),
               "lgpio": ("gpiozero.pins.lgpio", "LGPIOFactory"),
               "rpigpio": ("gpiozero.pins.rpigpio", "RPiGPIOFactory"),
               "pigpio": ("gpiozero.pins.pigpio", "PiGPIOFactory"),
               "native": ("gpiozero.pins.native", "NativeFactory")}
    module, cls = modules[name]
    import importlib

    try:
        return getattr(importlib.import_module(module), cls)()
    except Exception as e:  # noqa: BLE001 - each factory fails in its own way off a Pi
        raise HardwareError(f"pin factory {name!r} cannot start: {e}") from None


def _preferred_factory():
    """libgpiod's factory where ``gpiod`` is installed and the GPIO chip opens: its
    edge thread sleeps until an edge (lgpio's wakes ~2,000 times a second), and it
    dates edges by the kernel's clock. None: gpiozero's own order (lgpio first)."""
    try:
        from pitable.hardware.gpiodpins import GPIODFactory
    except ImportError:
        return None
    try:
        return GPIODFactory()
    except Exception as e:  # noqa: BLE001 - not a Pi, no chip, no access: gpiozero's choice then
        log.info("gpiozero: gpiod pin factory not used (%s: %s)", type(e).__name__, e)
        return None
