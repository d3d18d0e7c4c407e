"""The declared contracts (docs/architecture.md, the loop and the table) at work: what the
loop drives (``loop.App``), what the table drives in its current screen
(``base.Controller``) and the pads in the loop's sources (``hardware.keys.InputSource``)
are ``typing.Protocol``s that every implementation declares, so mypy checks their
methods; these tests check what they do."""

from __future__ import annotations

from pitable.hardware.keys import KeyEvent
from pitable.table.cockroach import CockroachTable
from pitable.table.loop import App, Loop
from pitable.table.setup import Setup


def test_the_setup_gives_the_web_edge_no_game():
    """The phone and TV pages read a controller's state, header, pending bids and where
    the glass is (``base.Controller``): the setup's defaults say no game, nothing pending."""
    from pitable.table import public

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
