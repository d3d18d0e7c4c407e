#!/bin/sh
# Install pitable as a service on Raspberry Pi OS (64-bit or 32-bit; trixie or bookworm), or
# plain Debian (arm64, armhf, amd64). Run from the repo:
#   sudo ./systemd/install.sh [CONFIG]      (CONFIG defaults to config/pitable.yaml)
# Safe to run again: it updates the code and the unit and keeps /etc/pitable/pitable.yaml.
# No compiler: what PyPI has no wheel for on a Pi's architecture comes from Debian (apt), and
# pip takes wheels only. The Python side is installed and checked first: if it cannot be,
# the script stops before it touches the boot config (I2C, config.txt, SPI) or the service.
set -eu
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "run with sudo" >&2; exit 1; }
CONFIG="${1:-config/pitable.yaml}"
PREFIX="${PITABLE_PREFIX:-/opt/pitable}"   # the unit runs /opt/pitable: another prefix is for tests
PY="$PREFIX/.venv/bin/python"
# --only-binary=:all: no sdist is ever built here (a missing wheel is a clear error at once,
# not a compiler missing ten minutes in); pitable's own tree is still made into its wheel
PIP="$PREFIX/.venv/bin/pip install --disable-pip-version-check --only-binary=:all: --prefer-binary"

stop() {    # stop WHAT: the Python side cannot install; nothing else was changed
    echo "install.sh: STOPPED: $1" >&2
    echo "install.sh: nothing in the boot config (I2C, config.txt, SPI), no user and no service was changed." >&2
    exit 1
}

has_apt() { apt-cache show "$1" >/dev/null 2>&1; }
apt_version() { apt-cache policy "$1" 2>/dev/null | sed -n 's/^ *Candidate: //p'; }

# Debian builds these for every architecture; PyPI has no armv7l (32-bit Pi OS) wheel of
# Pillow, PyYAML, PyNaCl or cffi, and the cbor2 pip would pick needs Rust. The venv sees
# them (--system-site-packages) and pip keeps them: they meet pyproject's floors.
APT_PY="python3-venv python3-pil python3-yaml python3-nacl python3-cffi python3-cbor2"
echo "== packages from apt: $APT_PY, i2c-tools (i2cdetect)"
# shellcheck disable=SC2086
apt-get install -y $APT_PY i2c-tools \
    || stop "apt-get could not install $APT_PY (run apt-get update, then this again)"

# The pin library (what gpiozero drives the pins with): Raspberry Pi OS has python3-lgpio
# (every Pi, every architecture); Debian trixie has libgpiod v2's python3-libgpiod
# (bookworm's is v1, which pitable cannot use); else a wheel from PyPI, below.
if has_apt python3-lgpio; then
    echo "== pin library: python3-lgpio from apt (Raspberry Pi OS)"
    apt-get install -y python3-lgpio || stop "apt-get could not install python3-lgpio"
fi
GPIOD_APT=$(apt_version python3-libgpiod)
if [ -n "$GPIOD_APT" ] && [ "$GPIOD_APT" != "(none)" ] && dpkg --compare-versions "$GPIOD_APT" ge 2.1; then
    echo "== pin library: python3-libgpiod $GPIOD_APT from apt (libgpiod v2)"
    apt-get install -y python3-libgpiod || echo "== python3-libgpiod did not install: gpiod from PyPI instead"
fi

echo "== code in $PREFIX, a venv that sees apt's packages (pip: about a minute, 5-10 on a Pi Zero the first time)"
mkdir -p "$PREFIX"
cp -r pitable pyproject.toml README.md "$PREFIX"/
[ -x "$PY" ] || python3 -m venv --system-site-packages "$PREFIX/.venv" || stop "python3 -m venv failed"
# constraints.txt caps the majors (luma: the tested minor): --upgrade never takes a luma that
# renamed what the drivers use; --upgrade upgrades pitable itself, and a dependency only if what
# is there is too old. requirements.lock (the versions the suite passed with) is not forced
# here: where PyPI has no wheel for the Pi's CPU, Debian's own build serves instead
# shellcheck disable=SC2086
$PIP --upgrade -c constraints.txt "$PREFIX" \
    || stop "pip could not install pitable's Python packages (its message is above). On this
    Python and architecture a package it needs has no wheel; install Debian's build of it
    (apt-get install python3-NAME) and run install.sh again."

# gpiod (libgpiod v2: pitable's own pin factory, idle without a key) where it has a wheel;
# else lgpio (gpiozero's), which PyPI has as wheels for Python 3.9-3.12 on arm64, armhf, amd64
gpiod_ok() { "$PY" -c "import gpiod; gpiod.request_lines" 2>/dev/null; }
lgpio_ok() { "$PY" -c "import lgpio" 2>/dev/null; }
if gpiod_ok; then
    echo "== pin library: gpiod (libgpiod v2) is there"
elif $PIP -c constraints.txt "gpiod>=2.1"; then
    echo "== pin library: gpiod (libgpiod v2) from PyPI (a wheel) into $PREFIX/.venv"
else
    echo "== pin library: PyPI has no gpiod wheel for this Python and architecture"
fi
if ! gpiod_ok && ! lgpio_ok; then
    if $PIP "lgpio>=0.2.2"; then
        echo "== pin library: lgpio from PyPI (a wheel) into $PREFIX/.venv"
    else
        stop "no pin library: neither gpiod (libgpiod v2) nor lgpio has a wheel for this Python
    and architecture, and apt has neither python3-lgpio (Raspberry Pi OS) nor a libgpiod v2
    python3-libgpiod (Debian trixie). On Raspberry Pi OS: apt-get update, then this again."
    fi
fi

echo "== config /etc/pitable/pitable.yaml"
mkdir -p /etc/pitable
[ -f /etc/pitable/pitable.yaml ] || cp "$CONFIG" /etc/pitable/pitable.yaml
"$PREFIX/.venv/bin/pitable" check-config /etc/pitable/pitable.yaml \
    || stop "the config /etc/pitable/pitable.yaml has a problem (above): fix it and run install.sh again"

# SPI0 holds GPIO 7 to 11 (7 and 8 so that pads cannot open them): on only for an SPI
# display, and off when the pads use those pins.
SPI=$("$PY" - <<'EOF'
from pitable.config import load_config
from pitable.hardware.wiring import wiring_of
config = load_config("/etc/pitable/pitable.yaml")
if config.display.is_hardware and config.display.interface == "spi":
    print("on")
elif any(use.bcm in (7, 8, 9, 10, 11) for use in wiring_of(config).uses):
    print("off")
EOF
)
if [ "$SPI" = on ]; then
    echo "== what luma needs for an SPI display: spidev, and RPi.GPIO for DC/RST"
    # luma.core leaves both optional (its extras): on Bookworm rpi-lgpio is the RPi.GPIO
    # that works on every Pi (a Pi 5 too); before Bookworm, RPi.GPIO itself.
    # Where apt has neither (plain Debian off the Pi's architectures), rpi-lgpio from PyPI.
    apt-get install -y python3-spidev python3-rpi-lgpio \
      || apt-get install -y python3-spidev python3-rpi.gpio \
      || { apt-get install -y python3-spidev \
           && $PIP rpi-lgpio \
           && echo "== RPi.GPIO: rpi-lgpio from PyPI into $PREFIX/.venv"; } \
      || stop "spidev and an RPi.GPIO for the SPI display did not install (above)"
fi

# From here on the Python side works: the boot config, the user and the service.
echo "== I2C on, at 400 kHz (a full frame: ~23 ms instead of ~90 ms), on a steady core clock"
raspi-config nonint do_i2c 0
BOOT=/boot/firmware/config.txt; [ -f "$BOOT" ] || BOOT=/boot/config.txt
. systemd/boot-lines.sh   # core_freq under [pi3]/[pi02], the baud rate under [all]
boot_lines "$BOOT"

case "$SPI" in
  on) echo "== SPI on (the display)"; raspi-config nonint do_spi 0 ;;
  off) echo "== SPI off (the pads use GPIO 7 to 11)"; raspi-config nonint do_spi 1 ;;
esac

echo "== user pitable in gpio, i2c, spi"
id pitable >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin pitable
usermod -aG gpio,i2c,spi pitable

echo "== service"
cp systemd/pitable.service /etc/systemd/system/pitable.service
# `systemctl enable` only makes links, so it works in an image being built (a chroot, no
# systemd running); daemon-reload and restart need a running systemd.
systemctl enable pitable
if [ -d /run/systemd/system ]; then
    systemctl daemon-reload
    # a running service keeps the old code until restarted
    if systemctl is-active --quiet pitable; then systemctl restart pitable; fi
    echo "Done. Reboot once (I2C speed), then: systemctl status pitable; journalctl -u pitable -f"
else
    echo "Done (systemd is not running here: the service starts at the system's next boot)."
fi
echo "Check the wiring any time with: sudo -u pitable $PREFIX/.venv/bin/pitable doctor --config /etc/pitable/pitable.yaml"
