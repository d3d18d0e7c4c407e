"""``pitable doctor``: check what usually goes wrong on a Pi, and say how to fix it.

Each check prints one line: ``ok``, ``warn`` or ``FAIL`` with what it found. The exit
status is 1 when any check failed. Every check takes its paths from arguments so the
tests can point it at a fake /dev, /boot and /proc.
"""

from __future__ import annotations

import grp
import os
import pwd
from pathlib import Path
from typing import NamedTuple


class Finding(NamedTuple):
    level: str   # "ok" | "warn" | "FAIL"
    what: str
    detail: str


def check_config(path):
    from pitable.errors import ConfigError
    from pitable.host import choose_config

    try:
        config, source = choose_config(path)
    except ConfigError as e:
        return None, Finding("FAIL", "config", str(e))
    return config, Finding("ok", "config", f"{source}: {config.seats} seats, display "
                                           f"{run_display(config)[0]}, {config.pads.wiring} wiring")


def run_display(config):
    """The display ``pitable run`` would use with this config, and why it is not the one
    the config names (None if it is): the same choice as run's."""
    from pitable.host import choose_display

    options, note = choose_display(dict(config.display.luma_options()))
    return options["display"], note


def check_model(root: Path) -> Finding:
    model = root / "proc/device-tree/model"
    try:
        text = model.read_text(errors="replace").strip("\0\n ")
    except OSError:
        return Finding("warn", "board", "not a Raspberry Pi (no /proc/device-tree/model): mock or desktop only")
    return Finding("ok", "board", text)


def check_arch(machine: str | None = None) -> Finding:
    """64-bit and 32-bit Raspberry Pi OS both install without a compiler: what PyPI has no
    32-bit ARM wheel of (Pillow, PyYAML, PyNaCl, cffi, cbor2) install.sh takes from Debian,
    and the pin library is lgpio's wheel there (gpiod has none). ARMv6 (a Pi 1 or Zero, not
    a Zero 2) is too slow for the web page and the assistant."""
    import platform

    machine = machine if machine is not None else platform.machine()
    if machine in ("aarch64", "arm64"):
        return Finding("ok", "os", f"64-bit ({machine})")
    if machine.startswith("armv6"):
        return Finding("warn", "os", f"{machine}: a Pi 1 or Zero (not a Zero 2): the table runs, the "
                                     "web page and the assistant are slow; a Zero 2 W, 3, 4 or 5 is better")
    if machine.startswith("arm"):
        return Finding("ok", "os", f"32-bit ({machine}): Pillow, PyYAML, PyNaCl, cffi and cbor2 come from "
                                   "Debian's packages (systemd/install.sh), the pin library is lgpio")
    return Finding("ok", "os", f"{machine or 'unknown'} (not a Pi's: desktop or test machine)")


def check_bus(config, root: Path) -> list:
    d = config.display
    if not d.is_hardware:
        shown, note = run_display(config)
        if note:
            return [Finding("warn", "display", f"{d.display} asked for, but {note}")]
        return [Finding("ok", "display", f"{shown} (no bus needed)")]
    out = []
    if d.interface == "i2c":
        dev = root / f"dev/i2c-{d.i2c_port}"
        if not dev.exists():
            return [Finding("FAIL", "i2c bus", f"{dev} missing: enable I2C "
                                                f"(sudo raspi-config nonint do_i2c 0) and reboot")]
        out.append(Finding("ok", "i2c bus", str(dev)))
        out.append(_access("i2c bus access", dev))
        out.append(check_i2c_speed(root))
        out.append(check_core_freq(root))
        if root == Path("/"):
            out.append(probe_i2c(d.i2c_port, d.i2c_address))
    else:
        dev = root / f"dev/spidev{d.spi_port}.{d.spi_device}"
        if not dev.exists():
            return [Finding("FAIL", "spi bus", f"{dev} missing: enable SPI "
                                                f"(sudo raspi-config nonint do_spi 0) and reboot")]
        out.append(Finding("ok", "spi bus", str(dev)))
        out.append(_access("spi bus access", dev))
    return out


def _board_config(root: Path):
    """(config.txt, the board's firmware name, every setting as the firmware reads it)."""
    from pitable.service.firmware import board_of, read_config

    path = _first(root, "boot/firmware/config.txt", "boot/config.txt")
    try:
        model = (root / "proc/device-tree/model").read_text(errors="replace")
    except OSError:
        model = ""
    board = board_of(model)
    return path, board, (read_config(path, board) if path else [])


def check_i2c_speed(root: Path) -> Finding:
    """400 kHz makes a full frame ~23 ms instead of ~90 ms at the default 100 kHz. Read as
    the firmware reads config.txt: the last line in force for this board wins, and a line
    in a section for another board (after [pi4], say) does nothing here."""
    from pitable.service.firmware import in_force

    path, board, settings = _board_config(root)
    if path is None:
        return Finding("warn", "i2c speed", "no config.txt found")
    line = in_force(settings, "dtparam:i2c_arm_baudrate")
    others = [s for s in settings if s.key == "dtparam:i2c_arm_baudrate" and s is not line]
    if line is None:
        if others:
            o = others[-1]
            return Finding("warn", "i2c speed", f"100 kHz (default): the i2c_arm_baudrate line at "
                                                f"{o.path}:{o.line} is in a section for other boards; "
                                                f"put dtparam=i2c_arm_baudrate=400000 under [all] in {path}")
        return Finding("warn", "i2c speed", f"100 kHz (default): add dtparam=i2c_arm_baudrate=400000 "
                                            f"under [all] to {path}")
    where = f"{line.path}:{line.line}" + (f" (the last of {len(others) + 1} such lines)" if others else "")
    if line.value == "400000":
        return Finding("ok", "i2c speed", f"400 kHz ({where})")
    return Finding("warn", "i2c speed", f"{line.value} Hz ({where}): set dtparam=i2c_arm_baudrate=400000 "
                                        f"under [all] in {path}")


def check_core_freq(root: Path) -> Finding:
    """On a Pi 3 or Zero 2 W the I2C clock is divided from the core clock, which the
    firmware changes with the load: core_freq=250 holds it (and the bus speed) steady."""
    from pitable.service.firmware import in_force

    path, board, settings = _board_config(root)
    if board in ("pi4", "pi400", "cm4"):   # all read [pi4]
        # the BCM2711's VPU clock scales with the load below its 500 MHz too
        low = in_force(settings, "core_freq_min")
        if low is None or low.value != "500":
            now = f"core_freq_min={low.value} at {low.path}:{low.line}" if low else "no core_freq_min in force"
            return Finding("warn", "core clock", f"{now}: the core clock may drop when idle, and the I2C "
                                                 f"clock with it; add core_freq_min=500 under [pi4] in {path} "
                                                 "(systemd/install.sh does)")
        return Finding("ok", "core clock", f"core_freq_min=500 ({low.path}:{low.line})")
    if board not in ("pi3", "pi3+", "pi02"):
        return Finding("ok", "core clock", f"{board or 'this board'}: the I2C clock does not follow it")
    line = in_force(settings, "core_freq")
    section = "[pi02]" if board == "pi02" else "[pi3]"
    if line is None or line.value != "250":
        now = f"core_freq={line.value} at {line.path}:{line.line}" if line else "no core_freq in force"
        return Finding("warn", "core clock", f"{now}: the I2C bus speed then varies with the load; add "
                                             f"core_freq=250 under {section} in {path} (systemd/install.sh does)")
    return Finding("ok", "core clock", f"core_freq=250 ({line.path}:{line.line})")


def probe_i2c(port: int, address: int) -> Finding:
    try:
        from smbus2 import SMBus
    except ImportError:
        return Finding("warn", "display", "smbus2 missing: cannot probe the bus")
    try:
        with SMBus(port) as bus:
            bus.read_byte(address)
    except OSError as e:
        return Finding("FAIL", "display", f"nothing answers at 0x{address:02X} on I2C bus {port} ({e.strerror}): "
                                          "check wiring (SDA GPIO2, SCL GPIO3, 3V3, GND) and i2cdetect -y 1")
    return Finding("ok", "display", f"answers at 0x{address:02X} on I2C bus {port}")


def check_gpio(root: Path) -> list:
    chips = sorted((root / "dev").glob("gpiochip*"))
    if not chips:
        return [Finding("warn", "gpio", "no /dev/gpiochip*: not a Pi, or the kernel lacks GPIO")]
    return [_access("gpio access", chips[0])]


def check_groups(user: str | None = None) -> Finding:
    user = user or pwd.getpwuid(os.getuid()).pw_name
    if user == "root":
        return Finding("ok", "groups", "running as root")
    wanted = ("gpio", "i2c", "spi")
    missing = []
    for name in wanted:
        try:
            members = grp.getgrnam(name)
        except KeyError:
            continue  # the group does not exist here (not Pi OS)
        primary = pwd.getpwnam(user).pw_gid == members.gr_gid
        if user not in members.gr_mem and not primary:
            missing.append(name)
    if missing:
        return Finding("FAIL", "groups", f"user {user} is not in {', '.join(missing)}: "
                                         f"sudo usermod -aG {','.join(missing)} {user} (then log in again)")
    return Finding("ok", "groups", f"user {user} is in gpio, i2c, spi (where they exist)")


def check_pin_factory(config) -> Finding:
    from pitable.errors import HardwareError
    from pitable.host import pin_factory

    if config.pads.wiring == "keyboard":
        return Finding("ok", "pin factory", "none (keyboard pads)")
    try:
        factory = pin_factory(config.pads.pin_factory)
    except (HardwareError, Exception) as e:  # noqa: BLE001 - gpiozero raises many kinds off a Pi
        return Finding("FAIL", "pin factory", f"{config.pads.pin_factory}: {e}")
    name = type(factory).__name__
    if name in SYSFS_EDGES and sysfs_renumbered():
        return Finding("FAIL", "pin factory", f"{name} watches key edges through sysfs, which this kernel "
                                              f"({os.uname().release}) renumbered: opening the pads fails with "
                                              "'Failed to add edge detection'. "
                                              "Use pads.pin_factory: lgpio (or default)")
    level = "warn" if name == "MockFactory" else "ok"
    return Finding(level, "pin factory", name + IDLE_COST.get(name, ""))


# RPi.GPIO and gpiozero's native factory export BCM numbers to /sys/class/gpio for edges.
SYSFS_EDGES = ("RPiGPIOFactory", "NativeFactory")


def sysfs_renumbered(release: str | None = None) -> bool:
    """Kernel 6.6 and later number the Pi's GPIOs from 512 in sysfs (raspberrypi/linux#6037)."""
    import re

    m = re.match(r"(\d+)\.(\d+)", release or os.uname().release)
    return bool(m) and (int(m.group(1)), int(m.group(2))) >= (6, 6)


# What each pin library costs while nobody presses (read from their code; docs/performance.md).
IDLE_COST = {
    "GPIODFactory": " (idle: libgpiod's edge thread sleeps until an edge: no wake-ups)",
    "LGPIOFactory": " (idle: lg's alert thread wakes ~2,000 times a second while keys are watched)",
    "RPiGPIOFactory": " (idle: no wake-ups; edge detection needs a kernel before 6.6)",
    "PiGPIOFactory": " (idle: pigpiod samples every GPIO each 5 us, 6-10 % of a core)",
    "NativeFactory": " (idle: ~110 Python wake-ups a second; experimental)",
}


def check_log_dir(config) -> Finding:
    path = Path(config.log_path)
    probe = path / ".doctor-probe"
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe.write_text("ok")
        probe.unlink()
    except OSError as e:
        return Finding("FAIL", "log dir", f"{path}: cannot write ({e.strerror})")
    return Finding("ok", "log dir", f"{path} is writable")


# -- pins that bite: is the job on, live, while the pads use its pins? ----------------------

AUDIO_OVERLAYS = ("hifiberry", "iqaudio", "justboom", "allo-", "i2s", "googlevoicehat", "max98357",
                  "adau", "pcm5102", "audioinjector", "rpi-dac", "rpi-digiamp", "dionaudio", "wm8960",
                  "seeed-voicecard", "pisound", "akkordion", "fe-pi")


def _first(root: Path, *names: str) -> Path | None:
    for name in names:
        if (root / name).is_file():
            return root / name
    return None


class BootConfig(NamedTuple):
    """What /boot's config.txt and cmdline.txt turn on (section filters like [pi4] are
    read as if they all applied: a pin that bites on one model is worth a word)."""

    config_path: Path | None
    cmdline_path: Path | None
    params: dict           # dtparam and plain settings: name -> last value ("spi" -> "on")
    overlays: list         # (name, {param: value})
    consoles: list         # console=... devices from cmdline.txt

    @classmethod
    def read(cls, root: Path) -> BootConfig:
        config = _first(root, "boot/firmware/config.txt", "boot/config.txt")
        cmdline = _first(root, "boot/firmware/cmdline.txt", "boot/cmdline.txt")
        params, overlays = {}, []
        text = config.read_text(errors="replace") if config else ""
        current = None   # dtparam lines after a dtoverlay line set that overlay's parameters
        for line in text.splitlines():
            line = line.split("#", 1)[0].strip()
            if "=" not in line or line.startswith("["):
                continue
            key, value = (part.strip() for part in line.split("=", 1))
            if key == "dtparam":
                target = current if current is not None else params
                for item in value.split(","):
                    name, _, setting = item.partition("=")
                    target[name.strip()] = setting.strip() or "on"
            elif key == "dtoverlay" and value:
                name, *rest = value.split(",")
                current = {item.partition("=")[0].strip(): item.partition("=")[2].strip() or "on"
                           for item in rest}
                overlays.append((name.strip(), current))
            elif key == "dtoverlay":
                current = None   # an empty dtoverlay= goes back to the base parameters
            else:
                params[key] = value
        words = cmdline.read_text(errors="replace").split() if cmdline else []
        consoles = [w.split("=", 1)[1].split(",")[0] for w in words if w.startswith("console=")]
        return cls(config, cmdline, params, overlays, consoles)

    def on(self, name: str) -> bool:
        return self.params.get(name, "off").lower() in ("on", "1", "true", "yes")


def _jobs(boot: BootConfig, root: Path) -> dict:
    """check name -> (GPIOs taken now, why[, level of a clash: FAIL unless "warn"]);
    an empty set and what was seen when the job is off."""
    jobs = {}
    serial = [c for c in boot.consoles if c in ("serial0", "ttyAMA0", "ttyS0", "serial1")]
    where = boot.cmdline_path or "cmdline.txt"
    if serial and boot.params.get("enable_uart") == "1":
        jobs["uart"] = ({14, 15}, f"the serial console is on (console={serial[0]} in {where}, "
                                  "enable_uart=1)")
    elif serial:
        # Raspberry Pi OS ships console=serial0 in cmdline.txt with the UART off (Pi 3, 4,
        # Zero 2; a Pi 5's serial0 is its debug connector): only a Pi 1 or 2 has it on
        # unasked. Not a failure, but worth a word.
        jobs["uart"] = ({14, 15}, f"console={serial[0]} in {where}: the serial console is on "
                                  "whenever the UART is (enable_uart=1, and on a Pi 1 or 2 always)", "warn")
    else:
        jobs["uart"] = (set(), "no serial console in cmdline.txt")
    jobs["spi"] = (({7, 8, 9, 10, 11}, f"SPI is on (dtparam=spi=on in {boot.config_path})")
                   if boot.on("spi") else (set(), "SPI is off"))
    w1 = [params for name, params in boot.overlays if name == "w1-gpio" or name == "w1-gpio-pullup"]
    if w1:
        pin = w1[-1].get("gpiopin", "4")
        jobs["w1"] = ({int(pin)} if pin.isdigit() else set(),
                      f"1-wire is on GPIO {pin} (dtoverlay=w1-gpio in {boot.config_path})")
    else:
        jobs["w1"] = (set(), "1-wire is off")
    audio = [name for name, _ in boot.overlays if name.startswith(AUDIO_OVERLAYS)]
    remap = [params for name, params in boot.overlays if name == "audremap"]
    if boot.on("i2s") or audio:
        what = f"dtoverlay={audio[0]}" if audio else "dtparam=i2s=on"
        jobs["i2s"] = ({18, 19, 20, 21}, f"I2S audio is set up ({what} in {boot.config_path})")
    elif remap:
        # analogue audio moved onto the header: GPIO 12/13 unless a pins_18_19 (etc.) says so
        chosen = [k for k in remap[-1] if k.startswith("pins_")]
        pins = {int(n) for n in chosen[-1].split("_")[1:]} if chosen else {12, 13}
        jobs["i2s"] = (pins, f"PWM audio is on GPIO {' and '.join(map(str, sorted(pins)))} "
                             f"(dtoverlay=audremap in {boot.config_path})")
    else:
        jobs["i2s"] = (set(), "no I2S audio set up")
    jobs["i2c"] = (({2, 3}, f"I2C1 is on (dtparam=i2c_arm=on in {boot.config_path})")
                   if boot.on("i2c_arm") else (set(), "I2C1 is off"))
    hat = root / "proc/device-tree/hat"
    if hat.is_dir():
        product = _read(hat / "product") or "a HAT"
        jobs["hat"] = ({0, 1}, f"{product} is fitted (its ID EEPROM is on GPIO 0 and 1)")
    else:
        jobs["hat"] = (set(), "no HAT fitted")
    return jobs


def _read(path: Path) -> str:
    try:
        return path.read_text(errors="replace").strip("\0\n ")
    except OSError:
        return ""


def check_pins(config, root: Path) -> list:
    """For each pin that bites and that the pads use: is its job on, on this Pi, now?"""
    from pitable.hardware.header import BITES
    from pitable.hardware.wiring import pin_warnings, wiring_of

    warned = pin_warnings(wiring_of(config))
    if not warned:
        return []
    boot = BootConfig.read(root)
    if boot.config_path is None and boot.cmdline_path is None:
        return [Finding("warn", "pins", f"{len(warned)} pad pin(s) have another job on some set-ups, "
                                        "and no /boot config.txt was found to check them")]
    jobs = _jobs(boot, root)
    pads = [u for u in wiring_of(config).uses if u.bcm is not None and u.role != "display"]
    out = []
    for bite in BITES:
        taken, seen, *level = jobs[bite.check]
        mine = [w.use for w in warned if w.bite is bite]
        clash = [u for u in pads if u.bcm in taken]   # 1-wire may be moved onto any pin
        mine += [u for u in clash if u not in mine]
        if not mine:
            continue
        mine.sort(key=lambda u: u.bcm)
        pins = ", ".join(f"GPIO {u.bcm} ({u.what})" for u in mine)
        if bite.check == "i2c" and clash and all(u.role in ("key", "column") for u in clash):
            clash = []   # a key to ground reads fine on I2C's pull-up
        if bite.check == "spi" and clash and not {7, 8} & {u.bcm for u in clash}:
            level = ["warn"]   # only CE0/CE1 are claimed; a pad takes 9 to 11 over from SPI
        if clash:
            out.append(Finding(level[0] if level else "FAIL", "pins",
                               f"{pins}: {seen}; {bite.happens}. Do: {bite.todo}"))
        elif bite.check == "i2c":
            out.append(Finding("warn", "pins", f"{pins}: {bite.job}: {bite.happens}"))
        elif bite.check == "hat":
            out.append(Finding("ok", "pins", f"{pins}: {seen} (don't hold these keys while the Pi boots)"))
        else:
            out.append(Finding("ok", "pins", f"{pins}: {seen}"))
    return out


def _access(what: str, path: Path) -> Finding:
    if os.access(path, os.R_OK | os.W_OK):
        return Finding("ok", what, f"{path} readable and writable")
    return Finding("FAIL", what, f"{path} is not readable and writable by this user: check the groups")


def findings(config_path, root: Path = Path("/")) -> list:
    config, first = check_config(config_path)
    out = [first, check_model(root), check_arch()]
    if config is None:
        return out
    out += check_bus(config, root)
    if config.pads.wiring != "keyboard":
        out += check_gpio(root)
        out.append(check_groups())
        out += check_pins(config, root)
    out.append(check_pin_factory(config))
    out.append(check_log_dir(config))
    out.append(check_web(config))
    return out


def check_web(config) -> Finding:
    """Phones and the table page: the address to open, and whether the port is free."""
    if config.web is None:
        return Finding("ok", "web", "phones and the table page are off (no web: section in the config)")
    import socket

    from pitable.web.server import default_address

    web = config.web
    host = web.host or ("127.0.0.1" if web.bind.startswith("127.") else default_address())
    where = f"open http://{host}:{web.port}/ on a TV or phone (phones join from the setup screen: key 5)"
    s = socket.socket(socket.AF_INET6 if ":" in web.bind else socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind((web.bind, web.port))
    except OSError as e:
        # the daemon itself may hold it: then the address is right and the port is taken by us
        return Finding("warn", "web", f"{where}; port {web.port} on {web.bind} is in use now "
                                      f"({e.strerror}): fine if pitable is running, else web.port is taken")
    finally:
        s.close()
    return Finding("ok", "web", where)


def doctor(config_path=None, root: Path = Path("/")) -> int:
    results = findings(config_path, root)
    width = max(len(f.what) for f in results)
    for f in results:
        print(f"{f.level:<4}  {f.what:<{width}}  {f.detail}")
    failed = [f for f in results if f.level == "FAIL"]
    print(f"{len(failed)} problem(s) found" if failed else "all checks passed")
    return 1 if failed else 0
