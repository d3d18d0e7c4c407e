"""Idle means idle on the real stack: with pitable's default pin factory (libgpiod's,
where gpiod is installed) the daemon's threads do not wake while nobody presses a key.
benchmarks/idle.py --factories lgpio,gpiod prints the figures side by side."""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def idle_module():
    spec = importlib.util.spec_from_file_location("idle_bench", ROOT / "benchmarks" / "idle.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_the_default_factory_is_gpiod_and_the_idle_daemon_never_wakes(sim):
    from pitable.hardware.gpiodpins import GPIODFactory
    from pitable.host import _preferred_factory

    factory = _preferred_factory()
    assert isinstance(factory, GPIODFactory)
    factory.close()
    per_thread, elapsed = idle_module().real_daemon_wakeups(None, 20.0)
    assert sum(per_thread.values()) == 0, per_thread


def test_lgpio_wakes_the_idle_daemon_about_2000_times_a_second(sim):
    """What the default avoids, measured the same way (and proof the count works)."""
    per_thread, elapsed = idle_module().real_daemon_wakeups("lgpio", 10.0)
    assert sum(per_thread.values()) / elapsed > 100, per_thread
