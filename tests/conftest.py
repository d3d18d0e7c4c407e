"""The ``system`` marker and the hypothesis profiles.

``system`` marks the tests that drive real parts from outside (a real browser, callgrind,
SIGKILLed daemons, whole-table runs in subprocesses) and take most of the suite's time.
``./test.sh -m "not system"`` runs the rest, the fast part; ``./test.sh`` (the README's
command, and CI) runs everything. Each test file marks its own (``pytestmark`` for a whole
file, ``@pytest.mark.system`` for one test), as gpiozero keeps its real-pin tests apart.

How many examples a hypothesis test draws is the profile's (``HYPOTHESIS_PROFILE``):
``dev`` (the default, 20 a property) on a developer's machine, ``ci`` (100, hypothesis'
own default, and a failing example printed to replay) in ``.ci/run``. A test that needs a
number of its own says so in its ``@settings``.

Every test runs with a home of its own (``own_home``): ``HOME`` and ``STATE_DIRECTORY`` in
a fresh temporary directory, the XDG directories unset. A ``pitable`` it starts in a
subprocess inherits them, so no test reads or writes the developer's
``~/.local/share/pitable`` (nor resumes a game another run left there), and parallel
workers share nothing."""

from __future__ import annotations

import os

import pytest

try:  # the real-GPIO guest (docs/real-gpio.md) runs its own tests only, without hypothesis
    from hypothesis import HealthCheck, settings
except ImportError:  # pragma: no cover - the QEMU guest
    settings = None
else:
    settings.register_profile("ci", max_examples=100, deadline=None, print_blob=True,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.register_profile("dev", max_examples=20, deadline=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))


def examples(n: int) -> int:
    """``n`` scaled to the loaded profile (``n`` under ``ci``, a fifth under ``dev``, at
    least 5): for ``@settings`` where a test's own count matters; the others use the
    profile's count."""
    return max(5, n * settings().max_examples // 100)


@pytest.fixture(autouse=True)
def own_home(tmp_path_factory, monkeypatch):
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("STATE_DIRECTORY", str(home / "state"))  # where a pitable run's logs go
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "PITABLE_LOG_LEVEL"):
        monkeypatch.delenv(name, raising=False)
    return home


def pytest_configure(config):
    config.addinivalue_line("markers", "system: drives real parts from outside (browser, callgrind, "
                                       "daemons in subprocesses); deselect with -m 'not system'")
