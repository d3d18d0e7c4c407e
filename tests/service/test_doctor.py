"""pitable doctor, against a fake root file system."""

from pathlib import Path

import pytest

from pitable.service.doctor import check_arch, check_bus, check_i2c_speed, check_model, doctor, findings


def fake_pi(root: Path, baud=None, i2c=True):
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_text("Raspberry Pi Zero 2 W Rev 1.0\0")
    (root / "dev").mkdir()
    if i2c:
        (root / "dev/i2c-1").write_text("")
    (root / "dev/gpiochip0").write_text("")
    (root / "boot/firmware").mkdir(parents=True)
    lines = ["dtparam=i2c_arm=on"] + ([f"dtparam=i2c_arm_baudrate={baud}"] if baud else [])
    (root / "boot/firmware/config.txt").write_text("\n".join(lines) + "\n")
    return root


def test_board_model_is_read(tmp_path):
    assert check_model(fake_pi(tmp_path)).detail == "Raspberry Pi Zero 2 W Rev 1.0"
    assert check_model(tmp_path / "nothing").level == "warn"


def test_a_32_bit_arm_system_is_ok_its_python_packages_come_from_debian():
    found = check_arch("armv7l")
    assert found.level == "ok" and "armv7l" in found.detail
    assert "Debian's packages" in found.detail and "must build" not in found.detail


def test_an_armv6_pi_is_a_warning_about_speed_only():
    found = check_arch("armv6l")
    assert found.level == "warn" and "armv6l" in found.detail and "slow" in found.detail


def test_a_64_bit_arm_system_is_ok_and_doctor_prints_the_check(monkeypatch, tmp_path, capsys):
    assert check_arch("aarch64") == ("ok", "os", "64-bit (aarch64)")
    assert check_arch("x86_64").level == "ok"
    monkeypatch.setattr("platform.machine", lambda: "armv6l")
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    doctor(None, root=tmp_path)
    assert "warn  os" in capsys.readouterr().out


def test_i2c_speed_default_is_a_warning_with_the_fix(tmp_path):
    found = check_i2c_speed(fake_pi(tmp_path))
    assert found.level == "warn" and "i2c_arm_baudrate=400000" in found.detail


def test_i2c_speed_400k_is_ok(tmp_path):
    assert check_i2c_speed(fake_pi(tmp_path, baud=400000)).level == "ok"


def test_missing_i2c_bus_fails_with_the_fix(tmp_path):
    from pitable.config import load_config

    config = load_config(Path(__file__).resolve().parents[2] / "config" / "pitable.yaml")
    found = check_bus(config, fake_pi(tmp_path, i2c=False))
    assert found[0].level == "FAIL" and "raspi-config" in found[0].detail


def test_bad_config_is_reported_and_fails(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("display:\n  display: ssd1307\n")
    assert doctor(str(bad), root=tmp_path) == 1
    out = capsys.readouterr().out
    assert "FAIL  config" in out and "bad.yaml: display.display" in out


def test_desktop_config_passes_on_a_laptop(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    results = findings(None, root=tmp_path)
    assert [f.what for f in results][:2] == ["config", "board"]
    assert all(f.level != "FAIL" for f in results)


# -- pins that bite, against the live boot files ---------------------------------------------

ROOT = Path(__file__).resolve().parents[2]


def _uart_config(tmp_path):
    path = tmp_path / "uart.yaml"
    path.write_text("pads:\n  direct:\n"
                    "    - keys: [4, 17, 27, 22, 5, 6, 14, 15]\n"
                    "    - keys: [18, 23, 24, 25, 12, 13, 16, 19]\n")
    from pitable.config import load_config

    return load_config(path)


def _boot(root, config_txt="", cmdline="console=tty1 root=PARTUUID=x rootwait", old_paths=False):
    boot = root / ("boot" if old_paths else "boot/firmware")
    boot.mkdir(parents=True, exist_ok=True)
    (boot / "config.txt").write_text(config_txt)
    (boot / "cmdline.txt").write_text(cmdline + "\n")
    return root


def _pins(config, root, what):
    from pitable.service.doctor import check_pins

    found = [f for f in check_pins(config, root) if what in f.detail]
    assert len(found) == 1, check_pins(config, root)
    return found[0]


def test_serial_console_on_while_keys_use_14_and_15_fails_with_the_fix(tmp_path):
    root = _boot(tmp_path, "enable_uart=1\n", "console=serial0,115200 console=tty1 root=x")
    found = _pins(_uart_config(tmp_path), root, "GPIO 14")
    assert found.level == "FAIL"
    assert "GPIO 15 (seat 1 key X)" in found.detail and "do_serial_cons 1" in found.detail


def test_serial_console_in_old_boot_path_is_read_too(tmp_path):
    root = _boot(tmp_path, "enable_uart=1\n", "console=ttyAMA0,115200 root=x", old_paths=True)
    assert _pins(_uart_config(tmp_path), root, "GPIO 14").level == "FAIL"


def test_serial_console_off_is_ok(tmp_path):
    root = _boot(tmp_path, "enable_uart=0\n")
    found = _pins(_uart_config(tmp_path), root, "GPIO 14")
    assert found.level == "ok" and "no serial console" in found.detail


def test_spi_on_while_pads_use_gpio_7_and_8_fails(tmp_path):
    from pitable.config import load_config

    config = load_config(ROOT / "config" / "matrix-4-seats.yaml")   # LEDs of seats 3 and 4 on GPIO 8 and 7
    found = _pins(config, _boot(tmp_path, "dtparam=i2c_arm=on,spi=on\n"), "GPIO 8")
    assert found.level == "FAIL" and "GPIO busy" in found.detail and "do_spi 1" in found.detail
    assert _pins(config, _boot(tmp_path / "off", "dtparam=i2c_arm=on\n#dtparam=spi=on\n"),
                 "GPIO 8").level == "ok"


def test_one_wire_moved_onto_a_key_pin_fails(tmp_path):
    config = _uart_config(tmp_path)
    found = _pins(config, _boot(tmp_path, "dtoverlay=w1-gpio,gpiopin=17\n"), "1-wire")
    assert found.level == "FAIL" and "GPIO 17 (seat 1 key 2)" in found.detail


def test_sound_hat_on_i2s_pins_fails(tmp_path):
    from pitable.config import load_config

    config = load_config(ROOT / "config" / "matrix-6-seats.yaml")   # LEDs on GPIO 18, 19, row 6 on 20
    found = _pins(config, _boot(tmp_path, "dtoverlay=hifiberry-dac\n"), "GPIO 19")
    assert found.level == "FAIL" and "hifiberry-dac" in found.detail


def test_a_fitted_hat_with_keys_on_its_eeprom_pins_fails(tmp_path):
    from pitable.config import load_config

    config = load_config(ROOT / "config" / "direct-3-seats.yaml")   # seat 3's A and X on GPIO 0, 1
    root = _boot(tmp_path)
    assert _pins(config, root, "GPIO 0").level == "ok"
    (root / "proc/device-tree/hat").mkdir(parents=True)
    (root / "proc/device-tree/hat/product").write_text("Sense HAT\0")
    found = _pins(config, root, "GPIO 0")
    assert found.level == "FAIL" and "Sense HAT is fitted" in found.detail


def test_doctor_prints_the_pin_findings(tmp_path, monkeypatch, capsys):
    from pitable.service import doctor as d

    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path / "state"))
    # gpiozero's own choice of pin factory is global state: not this test's business
    monkeypatch.setattr(d, "check_pin_factory", lambda config: d.Finding("ok", "pin factory", "mock"))
    path = tmp_path / "uart.yaml"
    _uart_config(tmp_path)
    root = fake_pi(tmp_path / "root")
    (root / "boot/firmware/cmdline.txt").write_text("console=serial0,115200 root=x\n")
    (root / "boot/firmware/config.txt").write_text("enable_uart=1\n")
    assert doctor(str(path), root=root) == 1
    out = capsys.readouterr().out
    assert "FAIL  pins" in out and "GPIO 14 (seat 1 key A)" in out


def test_no_boot_files_is_a_warning_that_counts_the_pins(tmp_path):
    from pitable.config import load_config
    from pitable.service.doctor import check_pins

    found = check_pins(load_config(ROOT / "config" / "pitable.yaml"), tmp_path)
    assert [f.level for f in found] == ["warn"]
    assert "6 pad pin(s)" in found[0].detail and "config.txt" in found[0].detail


def test_keyboard_pads_have_no_pins_to_check(tmp_path):
    from pitable.config import parse_config
    from pitable.service.doctor import check_pins

    config = parse_config({"display": {"display": "dummy"}, "pads": {"wiring": "keyboard"}}, "k")
    assert check_pins(config, _boot(tmp_path, "dtparam=spi=on\n")) == []


def test_dtparam_after_an_overlay_is_that_overlays(tmp_path):
    """config.txt: dtparam lines after a dtoverlay line set the overlay's parameters."""
    config = _uart_config(tmp_path)
    root = _boot(tmp_path, "dtoverlay=w1-gpio\ndtparam=gpiopin=17\n")
    found = _pins(config, root, "1-wire")
    assert found.level == "FAIL" and "GPIO 17 (seat 1 key 2)" in found.detail
    from pitable.service.doctor import BootConfig

    assert not BootConfig.read(_boot(tmp_path / "b", "dtoverlay=w1-gpio\ndtparam=spi=on\n")).on("spi")
    assert BootConfig.read(_boot(tmp_path / "c", "dtoverlay=w1-gpio\ndtoverlay=\ndtparam=spi=on\n")).on("spi")


def test_pwm_audio_moved_onto_the_header_fails_for_those_pins(tmp_path):
    config = _uart_config(tmp_path)     # seat 2 keys 5 and 6 on GPIO 12 and 13
    found = _pins(config, _boot(tmp_path, "dtoverlay=audremap\n"), "audremap")
    assert found.level == "FAIL" and "GPIO 12 (seat 2 key 5)" in found.detail
    found = _pins(config, _boot(tmp_path / "b", "dtoverlay=audremap,pins_18_19\n"), "audremap")
    assert "GPIO 18 (seat 2 key 1)" in found.detail and "GPIO 12" not in found.detail


@pytest.mark.parametrize("name,spi", [("spi-ssd1309.yaml", "on"), ("pitable.yaml", "off"),
                                      ("direct-3-seats.yaml", "off"), ("matrix-4-seats.yaml", "off")])
def test_install_script_turns_spi_on_only_for_an_spi_display(name, spi, capsys):
    """systemd/install.sh asks the config whether SPI goes on (an SPI display), off (the
    pads use SPI0's pins) or stays as it is; its Python, run here on each example."""
    script = (ROOT / "systemd" / "install.sh").read_text()
    code = script.split("<<'EOF'\n", 1)[1].split("\nEOF\n", 1)[0]
    exec(code.replace("/etc/pitable/pitable.yaml", str(ROOT / "config" / name)), {})
    assert capsys.readouterr().out.strip() == spi


def test_console_in_cmdline_with_the_uart_off_is_a_warning(tmp_path):
    """Raspberry Pi OS's own cmdline.txt names serial0, with the UART off on a Pi 3, 4 or
    Zero 2: worth a word, not a failure."""
    root = _boot(tmp_path, "dtparam=i2c_arm=on\n", "console=serial0,115200 console=tty1 root=x")
    found = _pins(_uart_config(tmp_path), root, "GPIO 14")
    assert found.level == "warn" and "enable_uart=1" in found.detail and "do_serial_cons 1" in found.detail


def test_spi_on_with_pads_only_on_9_to_11_is_a_warning(tmp_path):
    path = tmp_path / "miso.yaml"
    path.write_text("pads:\n  direct:\n"
                    "    - keys: [4, 17, 27, 22, 5, 6, 9, 10]\n"
                    "    - keys: [18, 23, 24, 25, 12, 13, 16, 11]\n")
    from pitable.config import load_config

    found = _pins(load_config(path), _boot(tmp_path, "dtparam=spi=on\n"), "GPIO 9")
    assert found.level == "warn" and "GPIO 11 (seat 2 key X)" in found.detail


def test_sysfs_pin_factories_are_refused_on_kernels_that_renumbered_sysfs(monkeypatch):
    from types import SimpleNamespace

    import pitable.host as host
    import pitable.service.doctor as d

    assert d.sysfs_renumbered("6.6.20+rpt-rpi-v8") and d.sysfs_renumbered("6.12.1")
    assert not d.sysfs_renumbered("6.1.21-v8+") and not d.sysfs_renumbered("5.15.84")
    RPiGPIOFactory = type("RPiGPIOFactory", (), {})
    monkeypatch.setattr(host, "pin_factory", lambda name: RPiGPIOFactory())
    config = SimpleNamespace(pads=SimpleNamespace(wiring="direct", pin_factory="rpigpio"))
    monkeypatch.setattr(d, "sysfs_renumbered", lambda release=None: True)
    found = d.check_pin_factory(config)
    assert found.level == "FAIL" and "pin_factory: lgpio" in found.detail
    monkeypatch.setattr(d, "sysfs_renumbered", lambda release=None: False)
    found = d.check_pin_factory(config)
    assert found.level == "ok" and "no wake-ups" in found.detail
