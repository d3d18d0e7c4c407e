"""sd_notify without libsystemd, and the unit file's promises."""

import configparser
import os
import socket
from pathlib import Path

from pitable.service.systemd import notify, watchdog

UNIT = Path(__file__).resolve().parents[2] / "systemd" / "pitable.service"


def test_notify_sends_one_datagram_to_the_socket(tmp_path):
    path = str(tmp_path / "notify.sock")
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        assert notify("READY=1", {"NOTIFY_SOCKET": path})
        assert server.recv(100) == b"READY=1"


def test_notify_outside_systemd_does_nothing():
    assert notify("READY=1", {}) is False
    assert notify("READY=1", {"NOTIFY_SOCKET": "/nonexistent/sock"}) is False


def test_watchdog_pings_at_half_the_interval(tmp_path):
    path = str(tmp_path / "wd.sock")
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000", "WATCHDOG_PID": str(os.getpid())}
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as server:
        server.bind(path)
        interval, ping = watchdog(env)
        assert interval == 15.0
        ping()
        assert server.recv(100) == b"WATCHDOG=1"


def test_watchdog_for_another_pid_or_unset_is_none():
    assert watchdog({}) is None
    assert watchdog({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}) is None


def unit():
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str
    parser.read(UNIT)
    return parser


def test_unit_is_notify_with_watchdog_and_restarts_on_failure():
    service = unit()["Service"]
    assert service["Type"] == "notify" and int(service["WatchdogSec"]) > 0
    assert service["Restart"] == "on-failure"
    assert "pitable run" in service["ExecStart"]


def test_a_config_error_stops_the_unit_instead_of_restarting_forever():
    """Exit 2 is what pitable gives for a config error (the journal names the key); a restart
    every RestartSec cannot mend the file. scripts/boot_test.sh checks it in a real systemd."""
    from pitable.cli import main

    assert unit()["Service"]["RestartPreventExitStatus"].split() == ["2"]
    assert main(["run", "--config", "/nonexistent/pitable.yaml"]) == 2


def test_unit_runs_as_unprivileged_user_with_device_groups_and_state_dir():
    service = unit()["Service"]
    assert service["User"] == "pitable"
    assert set(service["SupplementaryGroups"].split()) == {"gpio", "i2c", "spi"}
    assert service["StateDirectory"] == "pitable"
    assert service["WorkingDirectory"] == "/var/lib/pitable"  # lgpio writes its notify pipe here


def test_unit_hardening_leaves_gpio_i2c_spi_reachable():
    text = UNIT.read_text()
    settings = [line.split("=", 1)[0] for line in text.splitlines() if line and not line.startswith("#")]
    assert "PrivateDevices" not in settings and "DevicePolicy" not in settings
    service = unit()["Service"]
    assert service["ProtectSystem"] == "strict" and service["NoNewPrivileges"] == "yes"
