"""The ``system`` marker: the tests that drive real parts from outside (a real browser,
callgrind, SIGKILLed daemons, whole-table runs in subprocesses) and take most of the suite's
time. ``./test.sh -m "not system"`` runs the rest, the fast part, in under a minute;
``./test.sh`` (the README's command, and CI) runs everything.

Marked here, by what a test uses, rather than in each file, so that a new browser test is
marked without anyone remembering to.

The fast part also draws fewer hypothesis examples (``examples`` below: a fifth, at least 5);
a whole run draws all of them. Both run on every core (test.sh's ``-n auto``, pytest-xdist);
``-n 0`` runs them in one process."""

from __future__ import annotations

import inspect

import pytest

# Whole files: what they drive, and why they are slow.
SYSTEM_FILES = {
    "tests/test_benchmark_counts.py": "runs the benchmarks under callgrind",
    "tests/table/test_crash.py": "SIGKILLs real daemons at random points",
}
# Single tests that start whole daemons in subprocesses, play whole games through the real
# pads on mock pins, or check thousands of generated configs.
SYSTEM_TESTS = {
    "tests/table/test_game_on_pins.py::test_whole_grasshopper_game_on_direct_wired_pins",
    "tests/table/test_game_on_pins.py::test_whole_grasshopper_game_on_a_four_seat_matrix",
    "tests/table/test_game_on_pins.py::test_whole_cockroach_game_on_a_six_seat_matrix",
    "tests/table/test_game_on_pins.py::test_keys_pressed_in_every_phase_never_break_the_game",
    "tests/test_config.py::test_any_data_gives_a_config_or_one_line_per_error",
    "tests/test_malformed_input.py::test_the_table_resumes_or_says_why_from_any_log",
    "tests/hardware/test_keyboard.py::test_esc_in_the_window_ends_pitable_run",
    # each case a pitable command in its own subprocess (a fresh interpreter importing
    # pitable: ~0.2 s each, 25 cases); the fast part runs the commands in-process
    # (tests/test_cli.py's other tests call pitable.cli.main)
    "tests/test_cli.py::test_a_closed_pipe_ends_any_command_without_a_traceback",
    "tests/test_readme.py::test_each_pitable_command_of_the_readme_works_as_written",
}


# How many examples the hypothesis tests draw: all of them in a whole run (./test.sh, CI);
# a fifth (at least 5) in the fast part (-m "not system", the same properties on fewer
# draws). Set in pytest_configure, before any test module is imported (the decorators read it).
FULL_RUN = True


def examples(n: int) -> int:
    """``n`` in a whole run, ``max(5, n // 5)`` in the fast part."""
    return n if FULL_RUN else max(5, n // 5)


def pytest_configure(config):
    global FULL_RUN
    FULL_RUN = "not system" not in (config.getoption("markexpr", "") or "")
    config.addinivalue_line("markers", "system: drives real parts from outside (browser, callgrind, "
                                       "daemons in subprocesses); deselect with -m 'not system'")


def _uses_a_browser(item, path: str) -> bool:
    if any("browser" in name for name in getattr(item, "fixturenames", ())):
        return True
    if not path.startswith("tests/web/"):  # the browser helpers are the web tests' (tests/web/browser.py)
        return False
    function = getattr(item, "function", None)
    try:
        return function is not None and "open_browser(" in inspect.getsource(function)
    except (OSError, TypeError):
        return False


def pytest_collection_modifyitems(config, items):
    root = config.rootpath
    names = {f"{item.path.relative_to(root).as_posix()}::{getattr(item, 'originalname', item.name)}"
             for item in items}
    if len(names) > 100:  # a whole run: a renamed test must not fall out of the marker unseen
        missing = {name for name in SYSTEM_TESTS if name.split("::")[0] in
                   {n.split("::")[0] for n in names}} - names
        assert not missing, f"tests/conftest.py marks tests that are not there: {missing}"
    for item in items:
        path = item.path.relative_to(root).as_posix()
        name = f"{path}::{getattr(item, 'originalname', item.name)}"
        if path in SYSTEM_FILES or name in SYSTEM_TESTS or _uses_a_browser(item, path):
            item.add_marker(pytest.mark.system)
