"""`pitable pads`: each key says the header pin(s) it came in on, on stdout and on screen."""

from pathlib import Path

from pitable.config import load_config
from pitable.hardware.keys import KeyEvent
from pitable.screens import views as v
from pitable.screens.render import render
from pitable.table.app import PadsTest

ROOT = Path(__file__).resolve().parents[2]


def test_direct_key_names_its_own_pin():
    printed = []
    app = PadsTest(load_config(ROOT / "config" / "direct-3-seats.yaml"), out=printed.append)
    app.on_key(KeyEvent(2, 6, "press"))        # seat 3 key A: GPIO 0, header pin 27
    app.on_key(KeyEvent(0, 0, "hold"))
    assert printed == ["Seat 3 key A: GPIO 0 (pin 27)", "Seat 1 key 1 (held): GPIO 4 (pin 7)"]
    assert app.view() == v.Message("Pads test", ("Seat 1 1: pin 7", "Seat 3 A: pin 27",
                                                 "Press keys on the pads"))


def test_matrix_key_names_its_row_and_column():
    printed = []
    app = PadsTest(load_config(ROOT / "config" / "matrix-6-seats.yaml"), out=printed.append)
    app.on_key(KeyEvent(5, 7, "press"))        # seat 6 (row GPIO 12) key X (column GPIO 18)
    assert printed == ["Seat 6 key X: row GPIO 12 (pin 32), column GPIO 18 (pin 12)"]
    assert app.view().lines[0] == "Seat 6 X: row 32 col 12"


def test_keyboard_pads_have_no_pins_to_name():
    from pitable.config import parse_config

    printed = []
    app = PadsTest(parse_config({"display": {"display": "dummy"}, "pads": {"wiring": "keyboard"}}, "k"),
                   out=printed.append)
    app.on_key(KeyEvent(1, 2, "press"))
    assert printed == ["Seat 2 key 3"]


def test_the_screen_keeps_the_last_four_and_draws(tmp_path):
    app = PadsTest(load_config(ROOT / "config" / "matrix-6-seats.yaml"), out=lambda line: None)
    for key in range(6):
        app.on_key(KeyEvent(5, key, "press"))
    assert len(app.view().lines) == 4 and app.view().lines[0] == "Seat 6 6: row 32 col 18"
    image = render(app.view())
    assert image.size == (128, 64) and image.getbbox() is not None
    # the longest line (row and column both two-digit pins) fits on one row of the screen
    from pitable.screens import font

    assert font.text_width("Seat 6 X: row 35 col 40", 1) <= 128
