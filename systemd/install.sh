#!/bin/sh
# Install pitable as a service on Raspberry Pi OS (64-bit; trixie or bookworm), or plain Debian. Run from the repo:
#   sudo ./systemd/install.sh [CONFIG]      (CONFIG defaults to config/pitable.yaml)
# Safe to run again: it updates the code and the unit and keeps /etc/pitable/pitable.yaml.
set -eu
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "run with sudo" >&2; exit 1; }
CONFIG="${1:-config/pitable.yaml}"
PREFIX=/opt/pitable

# gpiozero's pin factory on a Pi is lgpio: Raspberry Pi OS has it as python3-lgpio; plain
# Debian (bookworm, trixie) has not, so there it comes from PyPI into the venv (below).
if apt-cache show python3-lgpio >/dev/null 2>&1; then LGPIO=apt; else LGPIO=pypi; fi
if [ "$LGPIO" = apt ]; then
    echo "== packages (venv, lgpio for gpiozero, i2c-tools for i2cdetect)"
    apt-get install -y python3-venv python3-lgpio i2c-tools
else
    echo "== packages (venv, i2c-tools for i2cdetect); this system's apt has no python3-lgpio (not Raspberry Pi OS): lgpio comes from PyPI"
    apt-get install -y python3-venv i2c-tools
fi

echo "== I2C on, at 400 kHz (a full frame: ~23 ms instead of ~90 ms), on a steady core clock"
raspi-config nonint do_i2c 0
BOOT=/boot/firmware/config.txt; [ -f "$BOOT" ] || BOOT=/boot/config.txt
. systemd/boot-lines.sh   # core_freq under [pi3]/[pi02], the baud rate under [all]
boot_lines "$BOOT"

echo "== code in $PREFIX, a venv that sees apt's packages (pip: about a minute, 5-10 on a Pi Zero the first time)"
mkdir -p "$PREFIX"
cp -r pitable pyproject.toml README.md "$PREFIX"/
[ -x "$PREFIX/.venv/bin/python" ] || python3 -m venv --system-site-packages "$PREFIX/.venv"
# constraints.txt caps the majors (luma: the tested minor); requirements.lock pins the versions
# the suite passed with: --upgrade takes a new version only when the lock says so
"$PREFIX/.venv/bin/pip" install --disable-pip-version-check --upgrade -c constraints.txt -c requirements.lock "$PREFIX"
if [ "$LGPIO" = pypi ] && ! "$PREFIX/.venv/bin/python" -c "import lgpio" 2>/dev/null; then
    # lgpio 0.2.2.0 has wheels for Python 3.9-3.12 (x86_64, aarch64, armv7l); for a newer
    # Python it is built from its source (static, with its C library: PYPI=1), about a minute
    if "$PREFIX/.venv/bin/pip" install --disable-pip-version-check --only-binary=lgpio "lgpio>=0.2.2"; then
        echo "== lgpio: installed from PyPI (a wheel) into $PREFIX/.venv"
    else
        echo "== lgpio: PyPI has no wheel for this Python: building it from source (apt: swig, gcc, python3-dev)"
        apt-get install -y --no-install-recommends swig gcc libc6-dev python3-dev
        PYPI=1 "$PREFIX/.venv/bin/pip" install --disable-pip-version-check --no-binary=lgpio "lgpio>=0.2.2"
        echo "== lgpio: built from PyPI's source and installed into $PREFIX/.venv"
    fi
fi

echo "== user pitable in gpio, i2c, spi"
id pitable >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin pitable
usermod -aG gpio,i2c,spi pitable

echo "== config /etc/pitable/pitable.yaml"
mkdir -p /etc/pitable
[ -f /etc/pitable/pitable.yaml ] || cp "$CONFIG" /etc/pitable/pitable.yaml
"$PREFIX/.venv/bin/pitable" check-config /etc/pitable/pitable.yaml

# SPI0 holds GPIO 7 to 11 (7 and 8 so that pads cannot open them): on only for an SPI
# display, and off when the pads use those pins.
SPI=$("$PREFIX/.venv/bin/python" - <<'EOF'
from pitable.config import load_config
from pitable.hardware.wiring import wiring_of
config = load_config("/etc/pitable/pitable.yaml")
if config.display.is_hardware and config.display.interface == "spi":
    print("on")
elif any(use.bcm in (7, 8, 9, 10, 11) for use in wiring_of(config).uses):
    print("off")
EOF
)
case "$SPI" in
  on) echo "== SPI on (the display), and what luma needs for it: spidev, and RPi.GPIO for DC/RST"
      # luma.core leaves both optional (its extras): on Bookworm rpi-lgpio is the RPi.GPIO
      # that works on every Pi (a Pi 5 too); before Bookworm, RPi.GPIO itself.
      # Where apt has neither (plain Debian off the Pi's architectures), rpi-lgpio from PyPI.
      apt-get install -y python3-spidev python3-rpi-lgpio \
        || apt-get install -y python3-spidev python3-rpi.gpio \
        || { apt-get install -y python3-spidev \
             && "$PREFIX/.venv/bin/pip" install --disable-pip-version-check rpi-lgpio \
             && echo "== RPi.GPIO: rpi-lgpio from PyPI into $PREFIX/.venv"; }
      raspi-config nonint do_spi 0 ;;
  off) echo "== SPI off (the pads use GPIO 7 to 11)"; raspi-config nonint do_spi 1 ;;
esac

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
