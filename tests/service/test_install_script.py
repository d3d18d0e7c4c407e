"""systemd/install.sh stops, with a clear message, before it touches the boot config (I2C,
config.txt, SPI), the user or the service, when the Python side cannot install: on a Pi
whose Python has no wheel of a package, nothing is half-changed. Run with stand-ins for
apt, pip, raspi-config and systemctl on PATH (they record what they were asked)."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

STUB = "#!/bin/sh\necho \"$(basename \"$0\") $*\" >> \"{log}\"\n{body}\n"


def _stubs(tmp: Path, pip_body: str, python_body: str) -> tuple[dict, Path, Path]:
    bin_ = tmp / "bin"
    bin_.mkdir()
    log = tmp / "calls.log"
    bodies = {
        "id": 'if [ "$1" = -u ]; then echo 0; else exit 1; fi',
        "apt-get": "exit 0",
        "apt-cache": "exit 100",          # no python3-lgpio, no python3-libgpiod: plain Debian
        "dpkg": "exit 1",
        "raspi-config": "exit 0",
        "useradd": "exit 0", "usermod": "exit 0", "systemctl": "exit 0",
    }
    for name, body in bodies.items():
        (bin_ / name).write_text(STUB.format(log=log, body=body))
        (bin_ / name).chmod(0o755)
    prefix = tmp / "opt"
    venv = prefix / ".venv" / "bin"
    venv.mkdir(parents=True)
    for name, body in (("pip", pip_body), ("python", python_body), ("pitable", "exit 0")):
        (venv / name).write_text(STUB.format(log=log, body=body))
        (venv / name).chmod(0o755)
    env = {**os.environ, "PATH": f"{bin_}:{os.environ['PATH']}", "PITABLE_PREFIX": str(prefix)}
    return env, log, prefix


def _run(env) -> subprocess.CompletedProcess:
    return subprocess.run(["sh", str(ROOT / "systemd" / "install.sh")], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=60)


def test_install_stops_before_the_boot_config_when_pip_cannot_install(tmp_path):
    env, log, _ = _stubs(tmp_path, 'echo "ERROR: No matching distribution found for Pillow" >&2; exit 1',
                         "exit 1")
    out = _run(env)
    calls = log.read_text()
    assert out.returncode == 1
    assert "install.sh: STOPPED: pip could not install pitable's Python packages" in out.stderr
    assert "nothing in the boot config (I2C, config.txt, SPI), no user and no service was changed" in out.stderr
    assert "apt-get install -y python3-venv python3-pil python3-yaml python3-nacl python3-cffi python3-cbor2" in calls
    assert "--only-binary=:all:" in calls          # pip is never asked to build a package
    for touched in ("raspi-config", "useradd", "usermod", "systemctl"):
        assert touched not in calls, calls


def test_install_stops_before_the_boot_config_when_no_pin_library_has_a_wheel(tmp_path):
    # pitable's packages install, but neither gpiod nor lgpio has a wheel, and apt has neither
    pip = 'case "$*" in *gpiod*|*lgpio*) echo "ERROR: no wheel" >&2; exit 1 ;; esac; exit 0'
    env, log, _ = _stubs(tmp_path, pip, "exit 1")
    out = _run(env)
    calls = log.read_text()
    assert out.returncode == 1
    assert "install.sh: STOPPED: no pin library" in out.stderr
    assert "raspi-config" not in calls and "systemctl" not in calls
