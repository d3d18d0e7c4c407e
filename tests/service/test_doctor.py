"""pitable doctor, against a fake root file system."""

from pathlib import Path

from pitable.service.doctor import check_bus, check_i2c_speed, check_model, doctor, findings


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
