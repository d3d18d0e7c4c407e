"""`pitable pads`: each key says the header pin(s) it came in on, on stdout and on screen."""

from pathlib import Path

from pitable.config import load_config
from pitable.hardware.keys import KeyEvent
from pitable.i18n import msg, words
from pitable.screens import views as v
from pitable.screens.render import render
from pitable.pads_test import PadsTest

ROOT = Path(__file__).resolve().parents[2]


def test_direct_key_names_its_own_pin():
    printed = []
    app = PadsTest(load_config(ROOT / "config" / "direct-3-seats.yaml"), out=printed.append)
    app.on_key(KeyEvent(2, 6, "press"))        # seat 3 key A: GPIO 0, header pin 27
    app.on_key(KeyEvent(0, 0, "hold"))
    assert printed == ["Seat 3 key A: GPIO 0 (pin 27)", "Seat 1 key 1 (held): GPIO 4 (pin 7)"]
    assert app.view()[:2] == v.Message(msg("pads.title"), (msg("pads.key_pin", seat=1, key="1", pin=7),
                                                           msg("pads.key_pin", seat=3, key="A", pin=27),
                                                           msg("pads.press")))[:2]
    assert words(app.view().lines[0], "en") == "Seat 1 1: pin 7"
    assert words(app.view().lines[1], "de") == "Platz 3 A: Pin 27"


def test_matrix_key_names_its_row_and_column():
    printed = []
    app = PadsTest(load_config(ROOT / "config" / "matrix-6-seats.yaml"), out=printed.append)
    app.on_key(KeyEvent(5, 7, "press"))        # seat 6 (row GPIO 20) key X (column GPIO 16)
    assert printed == ["Seat 6 key X: row GPIO 20 (pin 38), column GPIO 16 (pin 36)"]
    assert app.view().lines[0] == msg("pads.key_row_col", seat=6, key="X", row=38, col=36)
    assert words(app.view().lines[0], "en") == "Seat 6 X: row 38 col 36"
    assert words(app.view().lines[0], "vi") == "Ghế 6 X: hàng 38 cột 36"


def test_keyboard_pads_have_no_pins_to_name():
    from pitable.config import parse_config

    printed = []
    app = PadsTest(parse_config({"display": {"display": "dummy"}, "pads": {"wiring": "keyboard"}}, "k"),
                   out=printed.append)
    app.on_key(KeyEvent(1, 2, "press"))
    assert printed == ["Seat 2 key 3"]
    assert app.view().lines[0] == msg("pads.key_press", seat=2, key="3")


def test_the_screen_keeps_the_last_three_and_draws(tmp_path):
    app = PadsTest(load_config(ROOT / "config" / "matrix-6-seats.yaml"), out=lambda line: None)
    for key in range(6):
        app.on_key(KeyEvent(5, key, "press"))
    assert len(app.view().lines) == 3
    assert app.view().lines[0] == msg("pads.key_row_col", seat=6, key="6", row=38, col=22)
    for lang in ("en", "de", "vi"):
        image = render(app.view(), lang)
        assert image.size == (128, 64) and image.getbbox() is not None
        image.resize((512, 256)).save(tmp_path / f"pads-{lang}.png")


def test_pads_without_the_display_falls_back_to_the_terminal_and_says_so(tmp_path):
    """The wiring test is run before the OLED is wired: the shipped config's SSD1306 is
    missing, and the keys must show in the terminal anyway (it exited 1 before a key)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    if Path("/dev/i2c-1").exists():
        import pytest
        pytest.skip("this machine has an I2C bus 1: the display may answer")
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock", "PYTHONUNBUFFERED": "1", "TERM": "dumb"}
    proc = subprocess.Popen([sys.executable, "-m", "pitable", "pads", "--config",
                             str(ROOT / "config" / "direct-3-seats.yaml")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL,
                            env=env, cwd=tmp_path)
    out = b""
    deadline = time.monotonic() + 60
    try:
        while b"press keys" not in out and time.monotonic() < deadline and proc.poll() is None:
            out += os.read(proc.stdout.fileno(), 4096) or b""
        assert b"press keys" in out, out.decode(errors="replace")
        proc.send_signal(signal.SIGTERM)
        rest, err = proc.communicate(timeout=30)
    finally:
        proc.kill()
    err = err.decode()
    assert proc.returncode == 0, err
    assert "the display is missing" in err and "/dev/i2c-1" in err and "in this terminal instead" in err
    assert "Traceback" not in err


class _Glass:
    """A display that keeps what it was shown."""
    width, height, mode = 128, 64, "1"

    def __init__(self):
        self.frames = []

    def display(self, image):
        self.frames.append(image)

    def show(self):
        pass

    def hide(self):
        pass

    def contrast(self, level):
        pass


def test_a_key_the_moment_the_first_screen_is_up_is_shown():
    """A builder presses as soon as the wiring test's screen lights (in the real-GPIO guest,
    0.1 s after it): the key says which it is. In a game the same key would be judged by a
    screen nobody had seen yet, and refused."""
    from pitable.hardware.keys import KeyEdge
    from pitable.pads_test import wiring_loop
    from pitable.table.screen import Screen

    config = load_config(ROOT / "config" / "direct-3-seats.yaml")
    printed, now = [], [100.0]
    app = PadsTest(config, out=printed.append)
    loop = wiring_loop(app, Screen(_Glass(), lambda: now[0], blank_after=0), lambda view: render(view, "en"),
                       config, clock=lambda: now[0])
    loop.refresh()
    loop.post(KeyEdge(0, 0, True, 100.05))
    now[0] = 100.15
    loop.post(KeyEdge(0, 0, False, 100.15))
    loop.step(0)
    assert printed == ["Seat 1 key 1: GPIO 4 (pin 7)"]
