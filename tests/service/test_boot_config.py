"""config.txt: install.sh's lines (core_freq=250 under [pi3] and [pi02], the baud rate
under [all], the same after a second run) and doctor reading it as the firmware does
(sections for one board, [all], include, the last line in force)."""

import subprocess
from pathlib import Path

import pytest

from pitable.service.doctor import check_core_freq, check_i2c_speed
from pitable.service.firmware import board_of, in_force, read_config

ROOT = Path(__file__).resolve().parents[2]


def fake_root(root: Path, config: str, model="Raspberry Pi Zero 2 W Rev 1.0", **others) -> Path:
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_text(model + "\0")
    (root / "boot/firmware").mkdir(parents=True)
    (root / "boot/firmware/config.txt").write_text(config)
    for name, text in others.items():
        (root / "boot/firmware" / name).write_text(text)
    return root


def boot_lines(path: Path) -> str:
    subprocess.run(["sh", "-c", f'. "{ROOT}/systemd/boot-lines.sh"; boot_lines "{path}"'], check=True)
    return path.read_text()


STOCK = "# stock Raspberry Pi OS\ndtparam=audio=on\n[cm4]\notg_mode=1\n[pi4]\narm_boost=1\n"


def test_install_writes_core_freq_for_the_pi3_and_zero2_and_the_baud_rate_under_all(tmp_path):
    path = tmp_path / "config.txt"
    path.write_text(STOCK + "dtparam=i2c_arm_baudrate=400000\n")   # an older install's bare line, in [pi4]
    once = boot_lines(path)
    assert boot_lines(path) == once                       # idempotent
    assert once.startswith(STOCK) and once.count("i2c_arm_baudrate") == 1
    tail = once[len(STOCK):].splitlines()
    assert tail[1:-1] == ["[pi3]", "core_freq=250", "[pi02]", "core_freq=250", "[pi4]", "core_freq_min=500",
                          "[all]", "dtparam=i2c_arm_baudrate=400000"]
    for model, board in (("Raspberry Pi Zero 2 W Rev 1.0", "pi02"), ("Raspberry Pi 3 Model B Rev 1.2", "pi3"),
                         ("Raspberry Pi 4 Model B Rev 1.5", "pi4")):
        settings = read_config(path, board_of(model))
        assert in_force(settings, "dtparam:i2c_arm_baudrate").value == "400000"
        assert (in_force(settings, "core_freq") is not None) == (board != "pi4")
        assert (in_force(settings, "core_freq_min") is not None) == (board == "pi4")


def test_a_pi4_without_core_freq_min_500_is_a_warning_and_with_it_ok(tmp_path):
    model = "Raspberry Pi 4 Model B Rev 1.5"
    bare = fake_root(tmp_path / "a", "dtparam=i2c_arm=on\n", model=model)
    found = check_core_freq(bare)
    assert found.level == "warn" and "core_freq_min=500 under [pi4]" in found.detail
    path = tmp_path / "b" / "config.txt"
    path.parent.mkdir()
    path.write_text(STOCK)
    fixed = fake_root(tmp_path / "c", boot_lines(path), model=model)
    found = check_core_freq(fixed)
    assert found.level == "ok" and found.detail.startswith("core_freq_min=500 (")


def test_install_keeps_a_baud_rate_of_the_users_own(tmp_path):
    path = tmp_path / "config.txt"
    path.write_text("dtparam=i2c_arm=on,i2c_arm_baudrate=100000")      # no newline at the end
    text = boot_lines(path)
    assert text.splitlines()[0] == "dtparam=i2c_arm=on,i2c_arm_baudrate=100000"
    assert "dtparam=i2c_arm_baudrate=100000" in text and "400000" not in text.replace("400 kHz", "")


def test_doctor_reads_the_baud_rate_the_firmware_applies(tmp_path):
    # only in a [pi4] section: a Zero 2 W runs at 100 kHz
    root = fake_root(tmp_path / "a", "dtparam=i2c_arm=on\n[pi4]\ndtparam=i2c_arm_baudrate=400000\n")
    found = check_i2c_speed(root)
    assert found.level == "warn" and "100 kHz" in found.detail and "[all]" in found.detail
    # two lines: the last one in force wins
    root = fake_root(tmp_path / "b", "dtparam=i2c_arm_baudrate=400000\n[all]\ndtparam=i2c_arm_baudrate=100000\n")
    found = check_i2c_speed(root)
    assert found.level == "warn" and found.detail.startswith("100000 Hz") and "last of 2" in found.detail
    # from an included file, under [pi02]
    root = fake_root(tmp_path / "c", "[pi02]\ninclude extra.txt\n",
                     **{"extra.txt": "dtparam=i2c_arm_baudrate=400000\n"})
    assert check_i2c_speed(root).level == "ok"
    # [none] and filters not known here do not count
    root = fake_root(tmp_path / "d", "[none]\ndtparam=i2c_arm_baudrate=400000\n[EDID=XYZ]\ncore_freq=250\n")
    assert check_i2c_speed(root).level == "warn" and check_core_freq(root).level == "warn"


@pytest.mark.parametrize("model, config, level", [
    ("Raspberry Pi Zero 2 W Rev 1.0", "", "warn"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "[pi02]\ncore_freq=250\n", "ok"),
    ("Raspberry Pi Zero 2 W Rev 1.0", "[pi3]\ncore_freq=250\n", "warn"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "[pi3]\ncore_freq=250\n[all]\n", "ok"),
    ("Raspberry Pi 3 Model B Plus Rev 1.3", "core_freq=250\n[pi3]\ncore_freq=400\n", "warn"),
    ("Raspberry Pi 5 Model B Rev 1.0", "", "ok"),
])
def test_doctor_wants_core_freq_250_on_a_pi3_or_zero2(tmp_path, model, config, level):
    found = check_core_freq(fake_root(tmp_path, config, model))
    assert found.level == level, found
    if level == "warn":
        assert "core_freq=250" in found.detail


def test_doctor_on_what_install_wrote_finds_both_in_order(tmp_path):
    root = fake_root(tmp_path, STOCK)
    boot_lines(root / "boot/firmware/config.txt")
    assert check_i2c_speed(root).level == "ok" and check_core_freq(root).level == "ok"
