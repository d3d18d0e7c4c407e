import os
import queue
import termios
import time

import pytest
from PIL import Image

from pitable.errors import PitableError
from pitable.hardware.keyboard import (
    DEFAULT_ROWS, KeyboardLayoutError, KeyboardPads, KeyMap, PygameKeyboard, PygameKeys,
    keyboard_event_for, open_keyboard)
from pitable.hardware.keys import KeyEvent


def P(s, k):
    return KeyEvent(s, k, "press")


def H(s, k):
    return KeyEvent(s, k, "hold")


# --- mapping -------------------------------------------------------------------------

@pytest.mark.parametrize("args,event", [
    (("1",), P(0, 0)), (("8",), P(0, 7)), (("q",), P(1, 0)), (("k",), P(2, 7)),
    ((",",), P(3, 7)),
    (("Q",), H(1, 0)), (("q", True), H(1, 0)), (("!",), H(0, 0)), (("*",), H(0, 7)),
    (("<",), H(3, 7)), (("M",), H(3, 6)),
    (("9",), None), (("p",), None), (("?",), None), ((" ",), None), (("qq",), None),
])
def test_default_mapping(args, event):
    assert keyboard_event_for(*args) == event


def test_alt_rows_are_seats_5_and_6():
    assert keyboard_event_for("1", alt=True) == P(4, 0)
    assert keyboard_event_for("*", alt=True) == H(4, 7)
    assert keyboard_event_for("i", True, alt=True) == H(5, 7)
    assert keyboard_event_for("a", alt=True) is None
    assert len(DEFAULT_ROWS) == 6


def test_decode_terminal_input():
    km = KeyMap()
    text = "q\x1b1\x1bQ!\x1b[A\x1bOP\x1b[15;2~z\x1b"
    assert km.decode(text) == [P(1, 0), P(4, 0), H(5, 0), H(0, 0), P(3, 0)]


def test_custom_rows_and_labels():
    km = KeyMap(["abcdefgh", "alt+abcdefgh"])
    assert km.seats == 2
    assert km.event_for("b") == P(0, 1)
    assert km.event_for("b", alt=True) == P(1, 1)
    assert km.labels(1)[0] == "Alt+a"


@pytest.mark.parametrize("rows,msg", [
    (["1234567"], "7 keys, need 8"),
    (["12345678", "q2wertyu"], "'2' is already seat 1 key 2"),
    (["1234567A"], "'A' cannot be a key"),
    (["1234567!"], "'!' cannot be a key"),
    (["1234567 "], "' ' cannot be a key"),
    (["alt+1234567o"], "Alt\\+o cannot be told"),
])
def test_bad_rows(rows, msg):
    with pytest.raises(KeyboardLayoutError, match=msg) as info:
        KeyMap(rows)
    assert isinstance(info.value, PitableError) and isinstance(info.value, ValueError)


# --- terminal thread -----------------------------------------------------------------

def drain(q, n, timeout=2.0):
    return [q.get(timeout=timeout) for _ in range(n)]


def test_terminal_cbreak_events_and_restore():
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        q = queue.Queue()
        with KeyboardPads(DEFAULT_ROWS, q.put, fd=slave) as pads:
            lflag = termios.tcgetattr(slave)[3]
            assert not lflag & termios.ICANON and not lflag & termios.ECHO
            assert lflag & termios.ISIG  # Ctrl-C still interrupts
            os.write(master, b"qW")
            assert drain(q, 2) == [P(1, 0), H(1, 1)]
            # ^C is taken by the line discipline (SIGINT; it also flushes pending input)
            os.write(master, b"\x03")
            os.write(master, b"\x1b2z")
            assert drain(q, 2) == [P(4, 1), P(3, 0)]
            assert pads.next_deadline() is None
        assert q.empty()  # ^C went to the line discipline, not to us
        assert termios.tcgetattr(slave) == before
        assert not pads._thread.is_alive()
    finally:
        os.close(master)
        os.close(slave)


def test_terminal_restored_when_body_raises():
    master, slave = os.openpty()
    try:
        before = termios.tcgetattr(slave)
        with pytest.raises(RuntimeError):
            with KeyboardPads(DEFAULT_ROWS, None, fd=slave):
                raise RuntimeError("boom")
        assert termios.tcgetattr(slave) == before
    finally:
        os.close(master)
        os.close(slave)


def test_pipe_input_and_end_of_input():
    r, w = os.pipe()
    q = queue.Queue()
    pads = KeyboardPads(["asdfghjk"], q.put, fd=r)
    os.write(w, "a\u00e9S".encode())  # a non-ASCII char in between is ignored
    os.close(w)
    assert drain(q, 2) == [P(0, 0), H(0, 1)]
    pads._thread.join(2)
    assert not pads._thread.is_alive()  # EOF ends the reader
    pads.close()
    pads.close()
    os.close(r)


# --- pygame window -------------------------------------------------------------------

@pytest.fixture
def pygame_window(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    import pygame
    pygame.display.init()
    pygame.display.set_mode((8, 8))
    pygame.event.clear()
    yield pygame
    pygame.display.quit()


def test_pygame_keys(pygame_window):
    pg = pygame_window
    keys = PygameKeys()
    def post(key, mod=0):
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=key, mod=mod))

    post(pg.K_q)
    post(pg.K_q, pg.KMOD_LSHIFT)
    post(pg.K_COMMA)
    post(pg.K_3, pg.KMOD_LALT)
    post(pg.K_q, pg.KMOD_LALT | pg.KMOD_RSHIFT)
    post(pg.K_w, pg.KMOD_LCTRL)  # not a pad key (Ctrl-C and Ctrl-Q end: below)
    post(pg.K_F1)
    pg.event.post(pg.event.Event(pg.MOUSEMOTION, pos=(1, 1), rel=(1, 1), buttons=(0, 0, 0)))
    assert keys.poll() == [P(1, 0), H(1, 0), P(3, 7), P(4, 2), H(5, 0)]
    assert not keys.closed
    pg.event.post(pg.event.Event(pg.QUIT))
    assert keys.poll() == [] and keys.closed
    assert pg.event.get() == []  # the queue was drained


@pytest.mark.parametrize("key, mod", [("K_ESCAPE", 0), ("K_c", "KMOD_LCTRL"), ("K_q", "KMOD_RCTRL"),
                                      ("K_ESCAPE", "KMOD_LSHIFT")])
def test_esc_ctrl_c_or_ctrl_q_in_the_window_end_it(pygame_window, key, mod):
    pg = pygame_window
    keys = PygameKeys()
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_1, mod=0))
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=getattr(pg, key), mod=getattr(pg, mod) if mod else 0))
    assert keys.poll() == [P(0, 0)] and keys.closed


def test_a_plain_q_in_the_window_is_a_key_not_the_end(pygame_window):
    pg = pygame_window
    keys = PygameKeys()
    pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_q, mod=0))
    assert keys.poll() == [P(1, 0)] and not keys.closed


def test_the_window_title_and_the_terminal_say_how_to_end(pygame_window):
    q = queue.Queue()
    window = PygameKeyboard(DEFAULT_ROWS, q.put, interval=5)
    try:
        assert window.help_text().split("\n")[1] == "Shift+key = long press, Esc ends"
    finally:
        window.close()
    r, w = os.pipe()
    with KeyboardPads(DEFAULT_ROWS, q.put, fd=r) as terminal:
        assert terminal.help_text().split("\n")[1] == "Shift+key = long press, Ctrl-C ends"
    os.close(w)
    os.close(r)


ESC_RUN = """
import sys, threading
import pygame as pg
from pitable import daemon
from pitable.cli import main
daemon.choose_display = lambda options: (options, None)   # the window, though no X here
threading.Timer(1.5, lambda: pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_ESCAPE, mod=0))).start()
sys.exit(main(["run", "--config", sys.argv[1]]))
"""


@pytest.mark.system  # a whole pitable run in a subprocess
def test_esc_in_the_window_ends_pitable_run(tmp_path):
    """The whole path, in its own process: `pitable run` with the window, Esc typed into it."""
    import subprocess
    import sys

    pytest.importorskip("pygame")
    cfg = tmp_path / "desk.yaml"
    cfg.write_text(f"log_dir: {tmp_path / 'logs'}\ndisplay:\n  display: pygame\n  scale: 1\n"
                   "  transform: none\npads:\n  wiring: keyboard\n")
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"}
    out = subprocess.run([sys.executable, "-c", ESC_RUN, str(cfg)], capture_output=True, text=True,
                         timeout=60, env=env, stdin=subprocess.DEVNULL)
    assert out.returncode == 130, out.stderr   # ended as Ctrl-C ends it, by Esc alone
    assert "Esc ends" in out.stdout             # the window's title, also said in the terminal
    assert "Traceback" not in out.stderr


# --- open_keyboard -------------------------------------------------------------------

def test_help_text():
    text = KeyMap().help_text()
    assert text.split("\n") == [
        "Pads 1:12345678 2:qwertyui 3:asdfghjk 4:zxcvbnm, 5:Alt+12345678 6:Alt+qwertyui",
        "Shift+key = long press"]


def test_open_keyboard_terminal_for_other_displays():
    r, w = os.pipe()
    q = queue.Queue()
    with open_keyboard(["asdfghjk"], q.put, object(), fd=r) as keys:
        assert isinstance(keys, KeyboardPads) and keys.seats == 1
        os.write(w, b"d")
        assert drain(q, 1) == [P(0, 2)]
    os.close(w)
    os.close(r)


def run_posted(q, timeout=2.0):
    """Play the loop: take items off the queue, run callables, return the rest."""
    item = q.get(timeout=timeout)
    while callable(item):
        item()
        item = q.get(timeout=timeout)
    return item


def test_open_keyboard_pygame_window(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    from pitable.hardware.display import open_display
    import pygame as pg
    device = open_display({"display": "pygame", "scale": 1, "transform": "none"})
    device.display(Image.new("1", (128, 64)))
    q = queue.Queue()
    closed = []
    keys = open_keyboard(DEFAULT_ROWS, q.put, device, on_close=lambda: closed.append(1))
    try:
        assert isinstance(keys, PygameKeyboard)
        pg.event.post(pg.event.Event(pg.KEYDOWN, key=pg.K_x, mod=pg.KMOD_SHIFT))
        assert run_posted(q) == H(3, 1)
        pg.event.post(pg.event.Event(pg.QUIT))
        deadline = time.monotonic() + 2
        while not closed and time.monotonic() < deadline:
            item = q.get(timeout=2)
            if callable(item):
                item()
        assert closed == [1]
    finally:
        keys.close()
        pg.display.quit()


def test_pygame_window_close_defaults_to_keyboard_interrupt(pygame_window):
    q = queue.Queue()
    keys = PygameKeyboard(DEFAULT_ROWS, q.put, interval=0.005)
    try:
        pygame_window.event.post(pygame_window.event.Event(pygame_window.QUIT))
        with pytest.raises(KeyboardInterrupt):
            run_posted(q)
    finally:
        keys.close()
