"""The declared contracts (docs/architecture.md, the loop and the table): what the loop
drives (``loop.App``) and what the table drives in its current screen
(``base.Controller``). Every app and controller has every method, so the callers call
them and never look for them."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from pitable.hardware.keys import KeyEvent
from pitable.pads_test import PadsTest
from pitable.table import app, base, loop
from pitable.table.app import Table
from pitable.table.base import Controller, GameTable
from pitable.table.cockroach import CockroachTable
from pitable.table.grasshopper import GrasshopperTable
from pitable.table.loop import App, Loop
from pitable.table.setup import Setup


def test_the_loops_apps_and_the_tables_controllers_declare_their_contract():
    assert issubclass(Table, App) and issubclass(PadsTest, App)
    for cls in (Setup, GameTable, CockroachTable, GrasshopperTable):
        assert issubclass(cls, Controller), cls
    for name in ("on_key", "view", "next_deadline", "tick", "durable", "stale_key",
                 "key_stuck", "next_views"):
        assert callable(getattr(App, name)), name
    for name in ("on_key", "view", "next_deadline", "tick", "durable", "stale_key",
                 "next_views", "say", "showing_qr", "phone_joined", "result", "close"):
        assert callable(getattr(Controller, name)), name


def test_the_loop_and_the_table_call_what_is_declared_and_probe_nothing():
    for module in (loop, app):
        source = Path(inspect.getsourcefile(module)).read_text(encoding="utf-8")
        assert not re.search(r"\b(getattr|hasattr)\(", source), module.__name__
    source = Path(inspect.getsourcefile(base)).read_text(encoding="utf-8")
    assert "getattr(self" not in source and "getattr(event" not in source


def test_the_web_edge_reads_what_every_controller_declares():
    """The phone and TV pages read a controller's state, header, pending bids and where
    the glass is as declared (``base.Controller``: the setup has none), never by probing."""
    from pitable.table import public
    from pitable.table.setup import Setup
    from pitable.web import publish

    for module in (publish, public):
        source = Path(inspect.getsourcefile(module)).read_text(encoding="utf-8")
        assert not re.search(r"\b(getattr|hasattr)\((current|table),", source), module.__name__
    setup = Setup.__new__(Setup)
    assert setup.state is None and dict(setup.pending) == {} and setup.where() is None
    assert public.where(setup) is None and public.set_up(setup) is None and public.one_short(setup) == ()


class Screen:
    def __init__(self):
        self.shown = []

    def key(self):
        return False

    def show(self, frame):
        self.shown.append(frame)

    def tick(self, now):
        pass

    def next_deadline(self):
        return None


def test_an_app_with_only_keys_and_a_view_runs_on_the_defaults():
    from pitable.i18n import msg
    from pitable.screens import views as v

    class Counter(App):
        def __init__(self):
            self.n = 0

        def on_key(self, event):
            self.n += 1

        def view(self):  # every view carries its key table: here no key means anything
            return v.Message(msg("pads.title"), (str(self.n),))

    counter, screen = Counter(), Screen()
    runner = Loop(counter, screen, lambda view: view, clock=lambda: 100.0)
    runner.post(KeyEvent(0, 1, "press"))
    runner.drain()
    assert counter.n == 1 and screen.shown[-1].lines == ("1",)


def test_a_controller_built_by_the_table_has_its_header_and_phones_from_the_start(new_table):
    from pitable.web.access import Phones

    from .conftest import start_grasshopper

    phones = Phones()
    table = new_table(phones=phones, web_address="HTTP://10.0.0.2:8080/")
    game = start_grasshopper(table)
    assert game.phones is phones and game.web_address == "HTTP://10.0.0.2:8080/" and game.pads == 4
    assert game.header["game"] == "grasshopper" and game.header is not None


def test_a_game_controller_takes_its_header_and_phones_when_made():
    from pitable.rules import cockroach as cr
    from pitable.table.journal import NoJournal
    from pitable.web.access import Phones

    header = cr.header(3, 0, pads=[1, 2, 3], deck="physical", started="2026-12-02T20:00:00")
    phones = Phones()
    game = CockroachTable(cr.state_from_header(header), (1, 2, 3), NoJournal(OSError(28, "a test")),
                          header=header, phones=phones, web_address="HTTP://10.0.0.2:8080/", pads=3)
    assert game.header is header and game.phones is phones and game.pads == 3
    assert game.result() is None and not game.showing_qr()


def test_every_kind_of_pads_is_an_input_source_for_the_loop():
    from pitable.hardware.keyboard import KeyboardPads
    from pitable.hardware.pads import DirectPads, MatrixPads
    from pitable.table.loop import InputSource

    for cls in (DirectPads, MatrixPads, KeyboardPads):
        for name in ("next_deadline", "settle", "close"):
            assert callable(getattr(cls, name)), (cls, name)
    assert not isinstance(object(), InputSource)
