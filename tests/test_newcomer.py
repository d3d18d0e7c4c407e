"""A newcomer's first minutes: what they see must be true and quiet."""

import io
import os
import signal
import subprocess
import sys
import threading
import time
import warnings

import pytest
from PIL import Image

import pitable.host as host
import pitable.daemon as daemon
from pitable.errors import HardwareError
from pitable.hardware.display import TerminalDisplay
from pitable.service.doctor import findings


def pitable(*args, env=None, **kw):
    return subprocess.run([sys.executable, "-m", "pitable", *args], capture_output=True, text=True,
                          timeout=60, env=env, **kw)


def no_x_env():
    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "WAYLAND"))}
    env["DISPLAY"] = ":97"  # set, but no X server answers there
    return env


def test_display_set_without_an_x_server_falls_back_to_the_terminal_and_says_so():
    pytest.importorskip("pygame")
    out = pitable("run", "--exit-after-first-frame", env=no_x_env())
    assert out.returncode == 0, out.stderr
    assert "using this terminal instead (--display terminal)" in out.stderr
    assert "\u2800" in out.stdout or "\u2588" in out.stdout  # the frame, drawn in the terminal
    assert "using this terminal instead" in out.stdout  # said under the frame too (it clears the screen)
    assert "Hello from the pygame community" not in out.stdout + out.stderr
    assert "XDG_RUNTIME_DIR" not in out.stderr


def test_doctor_names_the_display_run_would_use(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    monkeypatch.setattr("pitable.hardware.display.window_problem", lambda: "no window system answers at ':97'")
    results = {f.what: f for f in findings(None, root=tmp_path)}
    assert "display terminal" in results["config"].detail
    assert results["display"].level == "warn" and "':97'" in results["display"].detail
    assert "terminal" in results["display"].detail


def test_choose_display_keeps_a_window_that_opens(monkeypatch):
    monkeypatch.setattr("pitable.hardware.display.window_problem", lambda: None)
    assert host.choose_display({"display": "pygame"}) == ({"display": "pygame"}, None)
    assert host.choose_display({"display": "ssd1306"}) == ({"display": "ssd1306"}, None)


def test_help_has_no_markup():
    out = pitable("--help")
    assert out.returncode == 0 and "``" not in out.stdout and "pitable command" in out.stdout


def test_default_pin_factory_fails_in_one_line_without_warnings():
    from gpiozero import Device

    saved = Device.pin_factory
    Device.pin_factory = None
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                factory = host.pin_factory("default")
            except HardwareError as e:  # off a Pi: every library named, once
                assert "no GPIO pin library works here" in str(e) and "lgpio" in str(e)
            else:
                assert factory is Device.pin_factory is not None
        assert [w for w in caught if "Falling back" in str(w.message)] == []
    finally:
        if Device.pin_factory is not None and Device.pin_factory is not saved:
            Device.pin_factory.close()
        Device.pin_factory = saved


def test_doctor_prints_no_raw_warnings():
    out = pitable("doctor", "--config", "config/pitable.yaml")
    assert "PinFactoryFallback" not in out.stderr and "warnings.warn" not in out.stderr


def test_terminal_display_leaves_the_prompt_on_its_own_line():
    out = io.StringIO()
    dev = TerminalDisplay(stream=out)
    dev.cleanup()
    assert out.getvalue() == ""  # nothing drawn, nothing to end
    dev.display(Image.new("1", (128, 64)))
    dev.cleanup()
    dev.cleanup()
    assert out.getvalue().endswith("\x1b[J\n") and not out.getvalue().endswith("\n\n")


def test_ctrl_c_in_the_terminal_ends_on_a_fresh_line():
    proc = subprocess.Popen([sys.executable, "-m", "pitable", "run", "--display", "terminal"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**no_x_env(), "PYTHONUNBUFFERED": "1"})
    # stderr is read all along: a child whose log fills an unread pipe blocks in its
    # write and never gets to end on the signal (seen in whole runs)
    errors: list = []
    reader = threading.Thread(target=lambda: errors.append(proc.stderr.read()), daemon=True)
    reader.start()
    try:
        os.set_blocking(proc.stdout.fileno(), False)
        seen = b""
        deadline = time.monotonic() + 30
        while b"long press" not in seen and time.monotonic() < deadline:
            seen += proc.stdout.read() or b""
            time.sleep(0.05)
        assert b"long press" in seen
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            pass  # said below, with what it wrote to stderr
        os.set_blocking(proc.stdout.fileno(), True)
        if proc.poll() is not None:
            seen += proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(5)
        reader.join(5)
    stderr = b"".join(errors)
    assert proc.returncode == 130, stderr[-2000:]
    assert seen.endswith(b"\n")
    assert b"Traceback" not in stderr


def test_a_window_that_fails_to_open_falls_back_to_the_terminal(monkeypatch, tmp_path, capsys):
    import argparse

    from pitable.hardware import display

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setattr(display, "window_problem", lambda: None)  # the probe says yes...
    real = display.open_display

    def no_window(options, **kw):
        if options.get("display") == "pygame":
            raise HardwareError("display: pygame emulator cannot start: no video mode")  # ...then no
        return real(options, **kw)

    monkeypatch.setattr(display, "open_display", no_window)

    class Keys:  # not this test's subject: pytest's stdin is no terminal
        def help_text(self):
            return "Pads 1:12345678"

        def close(self):
            pass

    monkeypatch.setattr("pitable.hardware.keyboard.open_keyboard", lambda *a, **k: Keys())
    args = argparse.Namespace(config=None, display=None, new=True, exit_after_first_frame=True)
    assert daemon.run(args) == 0
    out, err = capsys.readouterr()
    assert "the window did not open" in err and "using this terminal instead" in out


def test_no_graphical_session_is_said_once_in_the_terminal():
    """``./run.sh`` with no DISPLAY in a terminal: the frame and its stderr share that
    terminal, so the fallback's line is said once (under the frame, which stays), not
    also above it."""
    import pty

    env = {k: v for k, v in os.environ.items() if not k.startswith(("SDL_", "WAYLAND", "DISPLAY"))}
    leader, follower = pty.openpty()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "pitable", "run", "--exit-after-first-frame"],
                                stdin=subprocess.DEVNULL, stdout=follower, stderr=follower, env=env)
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
        assert proc.wait(60) == 0, seen.decode(errors="replace")[-2000:]
    finally:
        os.close(leader)
    text = seen.decode(errors="replace")
    assert "\u2800" in text or "\u2588" in text  # the frame, drawn in this terminal
    assert text.count("no graphical session") == 1, text[-2000:]
    assert text.count("using this terminal instead") == 1
