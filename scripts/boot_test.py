"""The boot test: the real systemd/install.sh and the real unit in a real systemd.

Run by scripts/boot_test.sh (which checks the tools and the user first); see
docs/boot-test.md. Everything is checked from outside the container: systemctl and
journalctl through nsenter, the game through the web page's public API on loopback
(the container shares the host's network).

The Debian suite is a setting: PITABLE_BOOT_SUITE=bookworm (the default) or trixie
(today's Raspberry Pi OS base), or --suite SUITE.

Steps (each prints what it does and how long it took):
  1. a Debian root of that suite made by debootstrap (cached between local runs; CI=true
     makes it afresh, from the .debs cached on this machine), under an overlay;
  2. stand-ins for what only Raspberry Pi OS has: raspi-config, the gpio/i2c/spi groups,
     /boot/firmware/config.txt, and on bookworm python3-lgpio (on trixie there is none, as
     on plain Debian: install.sh must get lgpio from PyPI); the host's pip set-up and CAs;
  3. install.sh in that root with systemd NOT running (an image build);
  4. boot: READY without a display, the journal says what it waits for, no restart;
     the log directory is pitable's alone; a game is resumed from its log;
  5. install.sh again on the running system;
  6. kill -9, then SIGSTOP (the watchdog): restarted, the same game resumed;
  7. systemctl stop, a reboot of the container: the game resumed;
  8. a broken /etc/pitable/pitable.yaml: one journal line naming the key, no retrying.

--pytest instead runs pitable's own test suite in such a root with its Debian Python
(trixie: 3.13), in a venv with the test extras, without what needs the host's browser.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("PITABLE_BOOT_CACHE", "/var/cache/pitable-boot-test"))
MIRROR = os.environ.get("PITABLE_BOOT_MIRROR", "http://deb.debian.org/debian")
PORT = int(os.environ.get("PITABLE_BOOT_PORT", "18431"))
SUITES = ("bookworm", "trixie")
SUITE = os.environ.get("PITABLE_BOOT_SUITE", "bookworm")
# python3-lgpio: "apt" as on Raspberry Pi OS (an empty stand-in package), "none" as on plain
# Debian (install.sh takes lgpio from PyPI). Bookworm plays Pi OS, trixie plain Debian, so
# CI sees both of install.sh's ways.
LGPIO = os.environ.get("PITABLE_BOOT_LGPIO", "")
MACHINE = "pitable-boot-test"
# what a Raspberry Pi OS Lite image has that debootstrap's minbase lacks and install.sh does
# not install itself (install.sh installs python3-venv and i2c-tools; they are here to save
# the download, as on the Pi OS image)
PACKAGES = "systemd,systemd-sysv,dbus,python3,python3-venv,ca-certificates,i2c-tools"
STATE = "/var/lib/pitable"

started = time.monotonic()
failures: list[str] = []


def say(text: str) -> None:
    print(f"[boot-test {time.monotonic() - started:5.0f}s] {text}", flush=True)


def check(ok: bool, what: str, detail: str = "") -> bool:
    say(("ok   " if ok else "FAIL ") + what + (f" ({detail})" if detail and not ok else ""))
    if not ok:
        failures.append(what + (f": {detail}" if detail else ""))
    return ok


def plain(text: str) -> str:
    """Without terminal colours (pip ends its coloured lines with a reset after the newline)."""
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def sh(*cmd, check_rc=True, **kw) -> subprocess.CompletedProcess:
    out = subprocess.run(list(cmd), text=True, capture_output=True, **kw)
    if check_rc and out.returncode != 0:
        raise SystemExit(f"boot test: {' '.join(map(str, cmd))} failed ({out.returncode}):\n"
                         f"{out.stdout[-3000:]}\n{out.stderr[-3000:]}")
    return out


# ---------------------------------------------------------------- the root

def fresh_root() -> bool:
    """PITABLE_BOOT_FRESH=1 or 0 says it; otherwise a CI run makes its root afresh."""
    setting = os.environ.get("PITABLE_BOOT_FRESH", "")
    if setting:
        return setting not in ("0", "no", "false")
    return os.environ.get("CI") == "true"


def debootstrap_script(suite: str) -> None:
    """Bookworm's debootstrap (1.0.128) knows trixie: its script is sid's, which makes a
    trixie root that boots (measured); an older one may lack it."""
    scripts = Path(os.environ.get("DEBOOTSTRAP_DIR", "/usr/share/debootstrap")) / "scripts"
    if not (scripts / suite).exists():
        raise SystemExit(f"boot test: this debootstrap has no script for {suite} ({scripts / suite}); "
                         f"install a newer debootstrap (Debian's bookworm has one that knows trixie)")


def base_root(arch: str | None = None) -> Path:
    suite = SUITE
    tag = suite + ("" if arch is None else f"-{arch}")
    base = CACHE / f"base-{tag}"
    # a foreign root takes 10-20 minutes under qemu-user: kept even under CI=true, remade
    # only when PITABLE_BOOT_FRESH=1 says so
    fresh = fresh_root() if arch is None else os.environ.get("PITABLE_BOOT_FRESH", "") in ("1", "yes", "true")
    if base.exists() and not fresh and (base / "usr/lib/systemd/systemd").exists():
        say(f"using the cached Debian {suite} root {base} (PITABLE_BOOT_FRESH=1 makes it again)")
        return base
    if arch is not None and shutil.which("mmdebstrap"):
        return mmdebstrap_root(suite, arch, base)
    debootstrap_script(suite)
    CACHE.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(base, ignore_errors=True)
    tmp = CACHE / (base.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    # the .debs stay on this machine between runs, fresh roots included (debootstrap checks
    # each against the suite's signed lists; a fresh machine downloads them)
    debs = CACHE / f"debs-{tag}"
    debs.mkdir(parents=True, exist_ok=True)
    cached = len(list(debs.glob("*.deb")))
    version = sh("debootstrap", "--version", check_rc=False).stdout.strip()
    say(f"{version}: a Debian {suite} {arch or 'native'} root from {MIRROR}, {cached} .debs cached "
        f"({'about 1-5 minutes' if arch is None else 'under qemu-user: 5-25 minutes'})")
    t = time.monotonic()
    sh("debootstrap", "--variant=minbase", f"--include={PACKAGES}", *([f"--arch={arch}"] if arch else []),
       f"--cache-dir={debs}", suite, str(tmp), MIRROR)
    tmp.rename(base)
    say(f"debootstrap done in {time.monotonic() - t:.0f} s")
    return base


def mmdebstrap_root(suite: str, arch: str, base: Path) -> Path:
    """A foreign root by mmdebstrap: apt does the unpacking, qemu-user only the package
    scripts (about half of debootstrap's second stage under emulation). apt's lists are
    kept, as a Pi OS image has them (install.sh runs apt-get install without an update)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    tmp = CACHE / (base.name + ".tmp")
    for d in (base, tmp):
        shutil.rmtree(d, ignore_errors=True)
    say(f"mmdebstrap: a Debian {suite} {arch} root under qemu-user (10-20 minutes on 2 cores; cached after)")
    t = time.monotonic()
    sh("mmdebstrap", "--variant=minbase", f"--arch={arch}", f"--include={PACKAGES}",
       "--skip=cleanup/apt/lists", suite, str(tmp), MIRROR)
    tmp.rename(base)
    say(f"mmdebstrap done in {time.monotonic() - t:.0f} s")
    return base


def scratch_root(base: Path) -> Path:
    """The cached root stays as debootstrap made it: the test writes to an overlay on it
    (a copy where overlayfs cannot mount)."""
    tag = base.name.removeprefix("base")   # "-trixie", "-bookworm-arm64"
    root, upper, work = CACHE / f"root{tag}", CACHE / f"upper{tag}", CACHE / f"work{tag}"
    unmount(root)
    for d in (root, upper, work):
        shutil.rmtree(d, ignore_errors=True)
        d.mkdir()
    options = f"lowerdir={base},upperdir={upper},workdir={work}"
    if sh("mount", "-t", "overlay", "overlay", "-o", options, str(root), check_rc=False).returncode != 0:
        say("overlayfs did not mount: copying the root instead")
        root.rmdir()
        sh("cp", "-a", "--reflink=auto", str(base), str(root))
    return root


def unmount(root: Path) -> None:
    if root.is_mount():
        sh("umount", "-l", str(root), check_rc=False)


def write(path: Path, text: str, mode: int = 0o644) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    path.chmod(mode)


def lgpio_way() -> str:
    way = LGPIO or ("apt" if SUITE == "bookworm" else "none")
    if way not in ("apt", "none"):
        raise SystemExit(f"boot test: PITABLE_BOOT_LGPIO={way!r}: apt or none")
    return way


def stand_ins(root: Path, lgpio: str = "none") -> None:
    """What Raspberry Pi OS has and Debian has not, and nothing more."""
    write(root / "usr/bin/raspi-config",
          '#!/bin/sh\n# boot test stand-in: records what install.sh asked for\n'
          'echo "raspi-config $*" >> /var/log/raspi-config.log\n', 0o755)
    if lgpio == "apt":
        # python3-lgpio as an empty package, so that apt-get install finds it installed
        # (the daemon runs on gpiozero's mock pins here)
        deb = root / "tmp/lgpio"
        write(deb / "DEBIAN/control",
              "Package: python3-lgpio\nVersion: 0.2.2-0boottest\nArchitecture: all\n"
              "Maintainer: pitable boot test <nobody@example.org>\n"
              "Description: stand-in for Raspberry Pi OS's python3-lgpio (boot test)\n")
        sh("dpkg-deb", "--root-owner-group", "--build", str(deb), str(root / "tmp/python3-lgpio.deb"))
        sh("chroot", str(root), "dpkg", "-i", "/tmp/python3-lgpio.deb")
    for group in ("gpio", "i2c", "spi"):
        sh("chroot", str(root), "groupadd", "--system", "-f", group)
    write(root / "boot/firmware/config.txt", "# stand-in for the Pi's boot config\n[all]\n")
    write(root / "etc/hostname", MACHINE + "\n")
    # the host's way to the package index: pip's configuration and the CA certificates
    # (a proxy's CA is often only in the host's bundle)
    for name in ("etc/pip.conf", "etc/xdg/pip"):
        src = Path("/") / name
        if src.is_dir():
            shutil.copytree(src, root / name, dirs_exist_ok=True)
        elif src.is_file():
            shutil.copy2(src, root / name)
    bundle = Path("/etc/ssl/certs/ca-certificates.crt")
    if bundle.is_file():
        shutil.copy2(bundle, root / "etc/ssl/certs/ca-certificates.crt")
    for cert in Path("/usr/local/share/ca-certificates").glob("*.crt"):
        shutil.copy2(cert, root / "usr/local/share/ca-certificates" / cert.name)


def copy_repo(root: Path) -> Path:
    """The working tree as git sees it (tracked and new files, not what .gitignore hides)."""
    dest = root / "root/pitable"
    files = sh("git", "ls-files", "-co", "--exclude-standard", "-z", cwd=REPO).stdout.split("\0")
    for name in filter(None, files):
        src = REPO / name
        if src.is_file() and not name.endswith(".whl"):
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)
    # a shipped config with the phones' web page on loopback, so the test reads the table
    text = (REPO / "config/matrix-4-seats.yaml").read_text()
    write(dest / "boot-test.yaml", text + f"\nweb:\n  bind: 127.0.0.1\n  port: {PORT}\n")
    return dest


def pip_env(root: Path) -> list[str]:
    """The host's pip and proxy settings, less those naming a host path the root has not
    (a host's PIP_FIND_LINKS folder: pip would warn about it at every step)."""
    keep = {k: v for k, v in os.environ.items()
            if k.startswith("PIP_") or k in ("SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE",
                                            "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY",
                                            "no_proxy", "NO_PROXY")}
    keep = {k: v for k, v in keep.items() if not v.startswith("/") or (root / v.lstrip("/")).exists()}
    return [f"--setenv={k}={v}" for k, v in keep.items()]


def cache_binds(tag: str) -> list[str]:
    """apt's and pip's downloads kept on this machine between runs (a fresh one starts empty)."""
    apt, pip = CACHE / f"apt-{tag}", CACHE / "pip"
    for d in (apt / "partial", pip):
        d.mkdir(parents=True, exist_ok=True)
    return [f"--bind={apt}:/var/cache/apt/archives", f"--bind={pip}:/root/.cache/pip"]


def nspawn_args(root: Path) -> list[str]:
    # no machined or system bus on the host: --register=no --keep-unit
    return ["systemd-nspawn", "-q", "-D", str(root), f"--machine={MACHINE}", "--register=no",
            "--keep-unit", "--resolv-conf=copy-host", "--timezone=off",
            *cache_binds(root.name.removeprefix("root-"))]


# ---------------------------------------------------------------- the running container

class Container:
    def __init__(self, root: Path):
        self.root = root
        self.proc = None
        self.leader = None
        self.log = open(CACHE / "console.log", "a")

    def boot(self, timeout: float = 60) -> None:
        self.proc = subprocess.Popen(nspawn_args(self.root) + ["--boot"], stdin=subprocess.DEVNULL,
                                     stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.leader = self._leader()
            if self.leader and self.run("systemctl", "is-system-running", check_rc=False).stdout.strip() in (
                    "running", "degraded"):
                return
            if self.proc.poll() is not None:
                raise SystemExit(f"boot test: the container ended at boot ({self.proc.returncode}); "
                                 f"see {CACHE / 'console.log'}")
            time.sleep(0.5)
        raise SystemExit(f"boot test: the container did not finish booting in {timeout:.0f} s; "
                         f"see {CACHE / 'console.log'}")

    def _leader(self) -> int | None:
        """The container's PID 1 (systemd): the nspawn process's child."""
        try:
            children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()
        except OSError:
            return None
        return int(children[0]) if children else None

    def run(self, *cmd, check_rc=True) -> subprocess.CompletedProcess:
        return sh("nsenter", "-t", str(self.leader), "-m", "-u", "-i", "-n", "-p", "-r", "-w",
                  "--", *cmd, check_rc=check_rc)

    def wait_down(self, timeout=60) -> int:
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
            raise SystemExit("boot test: the container did not shut down in time") from None

    def poweroff(self, timeout: float = 60) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)   # nspawn asks the container's systemd to halt
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()

    # -- the service, as systemctl and the journal see it
    def show(self, prop: str) -> str:
        return self.run("systemctl", "show", "-p", prop, "--value", "pitable", check_rc=False).stdout.strip()

    def journal(self) -> str:
        return self.run("journalctl", "-b", "-u", "pitable", "--no-pager", "-o", "cat", check_rc=False).stdout

    def wait_active(self, timeout: float, other_than: str = "") -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            pid = self.show("MainPID")
            if self.show("ActiveState") == "active" and pid not in ("", "0", other_than):
                return True
            time.sleep(0.5)
        return False


def api_state(timeout: float = 20) -> dict | None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/api/state", timeout=2) as r:
                return json.loads(r.read())
        except (OSError, ValueError):
            time.sleep(0.5)
    return None


def game_of(state: dict | None):
    """What identifies where a game is: the round, the phase, every garden and chip."""
    if not isinstance(state, dict) or "round" not in state:
        return None
    return json.dumps({k: state.get(k) for k in ("game", "round", "turn", "phase", "seats", "pile", "display")},
                      sort_keys=True)


def seed_game(root: Path) -> int:
    """A game three turns in, written by pitable's own rules and log code, as the log
    directory holds it after a power cut: the daemon must resume it at boot. (Keys of the
    pads cannot be pressed from outside: gpiozero's mock pins live in the daemon.)"""
    sys.path.insert(0, str(REPO))
    from pitable.rules.grasshopper import Options, header
    from pitable.rules.log import encode

    head = header(4, Options())
    moves = [{"reveal": "corn"}, {"reveal": "strawberry"}, {"reveal": "grasshopper"},
             {"bids": ["6", "5", "1", "2"]}, {"choose": "strawberry"}, {"choose": "corn"}]
    text = encode(head) + "".join(encode(m) for m in moves)
    state_dir = root / STATE.lstrip("/")
    state_dir.mkdir(parents=True, exist_ok=True)
    path = state_dir / "grasshopper-20260101-200000-1.jsonl"
    path.write_text(text)
    return len(moves)


# ---------------------------------------------------------------- the test

def pin_library_said(out: str) -> list[str]:
    return [line for line in plain(out).splitlines() if line.startswith("== pin library:")]


PIN_LIBRARY = ("import importlib.util as u, sys\n"
               "g = u.find_spec('gpiod') and hasattr(__import__('gpiod'), 'request_lines')\n"
               "l = u.find_spec('lgpio') is not None\n"
               "print('gpiod' if g else 'lgpio' if l else 'none'); sys.exit(0 if g or l else 1)")


def arm(arch: str) -> int:
    """install.sh and the service on a Pi's own instruction set: a Debian root of that
    architecture (arm64: 64-bit Pi OS on a Zero 2 W, 3, 4, 5; armhf: 32-bit Pi OS, common on a
    Zero 2 W) under qemu-user, booted by its own systemd. Plain Debian's packages (no
    python3-lgpio, as on Debian): install.sh must find a pin library without a compiler.
    Checks: install.sh passes and no compiler came into the root, a pin library imports, the
    service is active after boot, resumes the game in its log and answers on its page, and
    `pitable doctor` runs there as the pitable user and reports."""
    say(f"ARM boot test: Debian {SUITE} {arch} under qemu-user + systemd/install.sh + systemd-nspawn --boot")
    base = base_root(arch)
    root = scratch_root(base)
    box = None
    try:
        stand_ins(root, "none")
        copy_repo(root)
        moves = seed_game(root)
        lists = list((root / "var/lib/apt/lists").glob("*Release"))
        if not lists or time.time() - max(f.stat().st_mtime for f in lists) > 86400:
            # the cached root's lists go stale as Debian updates: a day old, read them again
            t = time.monotonic()
            sh(*nspawn_args(root), "apt-get", "update", "-q")
            say(f"apt-get update in the {arch} root (its lists were a day old): {time.monotonic() - t:.0f} s")
        say(f"install.sh on {arch}, systemd not running (pip's downloads; emulated: minutes)")
        t = time.monotonic()
        out = sh(*nspawn_args(root), *pip_env(root), "--chdir=/root/pitable", "/bin/sh", "-c",
                 "./systemd/install.sh boot-test.yaml 2>&1", check_rc=False)
        took = time.monotonic() - t
        log = CACHE / f"install-{SUITE}-{arch}.log"
        log.write_text(out.stdout + out.stderr)
        check(out.returncode == 0, f"install.sh works on {arch} ({SUITE})", plain(out.stdout)[-2500:])
        say(f"install.sh on {arch}: exit {out.returncode} in {took:.0f} s (full log: {log})")
        for line in plain(out.stdout).splitlines():
            if any(k in line for k in ("Downloading ", "Building wheel for", "Successfully installed",
                                       "STOPPED", "== pin library")):
                print("   ", line.strip()[:160], flush=True)
        if out.returncode != 0:
            return 1
        compilers = [c for c in ("gcc", "cc", "rustc", "cargo") if (root / "usr/bin" / c).exists()]
        check(not compilers, "install.sh brought no compiler into the root", " ".join(compilers))
        check(bool(pin_library_said(out.stdout)), "install.sh names the pin library it installed",
              plain(out.stdout)[-800:])
        lib = sh("chroot", str(root), "/opt/pitable/.venv/bin/python", "-c", PIN_LIBRARY, check_rc=False)
        check(lib.returncode == 0, f"a pin library imports in pitable's venv ({lib.stdout.strip()})",
              lib.stdout + lib.stderr[-400:])
        check("raspi-config nonint do_i2c 0" in (root / "var/log/raspi-config.log").read_text(),
              "install.sh turned I2C on (raspi-config stand-in)")
        write(root / "etc/systemd/system/pitable.service.d/boot-test.conf",
              "[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n")
        sh("chroot", str(root), "chown", "-R", "pitable:pitable", STATE)

        say(f"boot on {arch} (systemd under qemu-user)")
        t = time.monotonic()
        box = Container(root)
        box.boot(timeout=300)
        active = box.wait_active(300)
        check(active, f"pitable is active at boot on {arch}", box.show("ActiveState") + " " + box.show("SubState"))
        say(f"booted and the service active in {time.monotonic() - t:.0f} s")
        journal = box.journal()
        check(f"resuming {STATE}/grasshopper-20260101-200000-1.jsonl: {moves} inputs" in journal,
              f"the game in the log directory is resumed at boot on {arch}", journal[-800:])
        state = game_of(api_state(120))
        check(state is not None and '"round": 1' in state, f"the table page answers on {arch}", str(state)[:300])

        say(f"pitable doctor on {arch}, as the pitable user")
        t = time.monotonic()
        doc = box.run("setpriv", "--reuid=pitable", "--regid=pitable", "--init-groups",
                      "/opt/pitable/.venv/bin/pitable", "doctor", "--config", "/etc/pitable/pitable.yaml",
                      check_rc=False)
        text = plain(doc.stdout + doc.stderr)
        for line in text.strip().splitlines():
            print("    doctor:", line[:150], flush=True)
        # no Pi here: no I2C device and no gpiochip, so FAIL lines (exit 1) are right; a
        # traceback or a config error (exit 2) is not
        check(doc.returncode in (0, 1) and "Traceback" not in text
              and any(w in text for w in ("ok ", "warn ", "FAIL ")),
              f"pitable doctor runs on {arch} and reports (exit {doc.returncode})", text[-800:])
        say(f"doctor took {time.monotonic() - t:.1f} s")
    finally:
        if box is not None:
            box.poweroff(timeout=15)   # a scratch root: an emulated halt is not worth a minute
        unmount(root)
    return 1 if failures else 0


SUITE_SCRIPT = r"""
set -e
# the QR tests read the glass with Debian's zbarimg, as on the host
DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends zbar-tools >/dev/null
python3 -m venv /root/venv
/root/venv/bin/pip install -q --disable-pip-version-check "/root/pitable[test,desktop]"
cd /root/pitable
echo "python: $(/root/venv/bin/python -VV)"
# (pyproject's addopts has -q already: a second -q would drop the summary line)
# tests marked as system ones (the host's browser, systemd-nspawn, QEMU) where the marker exists
MARK=""
if /root/venv/bin/python -m pytest --markers -p no:cacheprovider | grep -q "^@pytest.mark.system:"; then
    MARK="not system"
fi
echo "pytest -m '${MARK:-(all)}'"
exec /root/venv/bin/python -m pytest -rs --color=no -p no:cacheprovider ${MARK:+-m "$MARK"}
"""


def suite_tests() -> int:
    """pitable's test suite on the suite's own Python (trixie: 3.13) in a fresh root:
    installed with its test extras from the repo's files into a venv there. What needs
    the host's browser skips by its own condition (no Chromium in the root; CI is not set
    inside); the boot and real-GPIO tests are run by the host, not here."""
    say(f"the test suite on Debian {SUITE}'s Python in a {SUITE} root (pip, then pytest: about 5-8 minutes)")
    base = base_root()
    root = scratch_root(base)
    try:
        stand_ins(root)
        copy_repo(root)
        write(root / "root/suite.sh", SUITE_SCRIPT, 0o755)
        t = time.monotonic()
        # --as-pid2: the tests' process must not be PID 1 (the watchdog test sends to PID 1)
        proc = subprocess.Popen([*nspawn_args(root), "--console=pipe", "--as-pid2", *pip_env(root),
                                 "/bin/sh", "/root/suite.sh"], stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        lines = []
        for line in proc.stdout:
            print(line, end="", flush=True)
            lines.append(plain(line).strip())
        code = proc.wait()
        python = next((x.removeprefix("python: ") for x in lines if x.startswith("python: ")), "?")
        summary = next((x.strip("= ") for x in reversed(lines) if " in " in x and
                        any(w in x for w in ("passed", "failed", "error"))), "no pytest summary")
        say(f"the test suite on {' '.join(python.split()[:2])} (Debian {SUITE}): "
            f"{summary}; exit {code} in {time.monotonic() - t:.0f} s")
        return code
    finally:
        unmount(root)


def main() -> int:
    lgpio = lgpio_way()
    say(f"boot test: Debian {SUITE} + systemd/install.sh + systemd-nspawn --boot (about 3-6 minutes); "
        "python3-lgpio: "
        + ("a stand-in in apt, as on Raspberry Pi OS" if lgpio == "apt" else "none, as on plain Debian"))
    base = base_root()
    root = scratch_root(base)
    stand_ins(root, lgpio)
    copy_repo(root)
    moves = seed_game(root)

    say("install.sh in a root where systemd is not running (as an image build does; pip downloads)")
    t = time.monotonic()
    out = sh(*nspawn_args(root), *pip_env(root), "--chdir=/root/pitable", "/bin/sh", "-c",
             "./systemd/install.sh boot-test.yaml 2>&1", check_rc=False)
    check(out.returncode == 0, "install.sh works without a running systemd",
          out.stdout[-1500:] + out.stderr[-500:])
    say(f"install.sh took {time.monotonic() - t:.0f} s")
    if out.returncode != 0:
        return 1
    (CACHE / f"install-{SUITE}.log").write_text(out.stdout + out.stderr)
    said = pin_library_said(out.stdout)
    for line in said:
        say("install.sh said: " + line)
    if lgpio == "apt":
        check(any("python3-lgpio from apt" in line for line in said),
              "install.sh took lgpio from apt (python3-lgpio there)", repr(said))
    else:
        check(bool(said) and not any("python3-lgpio" in line for line in said),
              "install.sh found a pin library without python3-lgpio (plain Debian)", repr(said))
    lib = sh("chroot", str(root), "/opt/pitable/.venv/bin/python", "-c", PIN_LIBRARY, check_rc=False)
    check(lib.returncode == 0, f"a pin library imports in pitable's venv ({lib.stdout.strip()})",
          lib.stdout + lib.stderr[-500:])
    # gpiozero's mock pins, as in the first boot trial (GPIOZERO_PIN_FACTORY in a drop-in)
    write(root / "etc/systemd/system/pitable.service.d/boot-test.conf",
          "[Service]\nEnvironment=GPIOZERO_PIN_FACTORY=mock\n")
    sh("chroot", str(root), "chown", "-R", "pitable:pitable", STATE)
    check("raspi-config nonint do_i2c 0" in (root / "var/log/raspi-config.log").read_text(),
          "install.sh turned I2C on (raspi-config stand-in)")

    box = Container(root)
    try:
        say("boot 1: the service at boot, no display attached")
        box.boot()
        check(box.wait_active(60), "pitable is active (READY=1 sent) at boot without a display",
              box.show("ActiveState") + " " + box.show("SubState"))
        time.sleep(5)  # a restart loop would show by now (RestartSec=2)
        check(box.show("NRestarts") == "0" and box.show("ActiveState") == "active",
              "no restart after boot", f"NRestarts={box.show('NRestarts')}")
        journal = box.journal()
        check("display not available" in journal and "retrying" in journal,
              "the journal says it waits for the display", journal[-800:])
        check(f"resuming {STATE}/grasshopper-20260101-200000-1.jsonl: {moves} inputs" in journal,
              "the game in the log directory is resumed at boot", journal[-800:])
        before = game_of(api_state())
        check(before is not None and '"round": 1' in before, "the table page's API answers from outside",
              str(before)[:300])

        stat = box.run("stat", "-c", "%U %G %a", STATE).stdout.split()
        check(stat[:2] == ["pitable", "pitable"] and int(stat[2], 8) & 0o022 == 0,
              f"{STATE} belongs to pitable, only it writes there", " ".join(stat))
        files = box.run("find", STATE, "-mindepth", "1", "(", "-not", "-user", "pitable", "-o",
                        "-perm", "/022", ")", "-printf", "%p %u %m\n").stdout.strip()
        check(files == "", f"everything in {STATE} is pitable's and not writable by others", files)
        other = box.run("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups",
                        "touch", f"{STATE}/intruder", check_rc=False)
        check(other.returncode != 0, "another user cannot write the log directory")

        say("install.sh again, on the running system")
        again = box.run("sh", "-c", "cd /root/pitable && ./systemd/install.sh boot-test.yaml 2>&1",
                        check_rc=False)
        check(again.returncode == 0, "install.sh works on a running system", again.stdout[-1500:])
        check(box.wait_active(30), "the service is active after install.sh again")

        say("kill -9 of the daemon")
        pid = box.show("MainPID")
        box.run("sh", "-c", f"kill -9 {pid}")
        check(box.wait_active(30, other_than=pid), "systemd restarted it after kill -9",
              box.show("ActiveState") + " " + box.show("MainPID"))
        check(game_of(api_state()) == before, "the same game is on the table after kill -9")

        say("SIGSTOP: a frozen loop (the watchdog fires within WatchdogSec=30 s)")
        pid = box.show("MainPID")
        t = time.monotonic()
        box.run("sh", "-c", f"kill -STOP {pid}")
        killed = box.wait_active(60, other_than=pid)
        check(killed, "the watchdog killed the frozen daemon and systemd restarted it")
        say(f"the watchdog restart took {time.monotonic() - t:.0f} s")
        journal = box.journal()
        check("watchdog timeout" in journal.lower(), "the journal names the watchdog", journal[-600:])
        check(game_of(api_state()) == before, "the same game is on the table after the watchdog")

        say("systemctl stop, then a reboot of the container")
        box.run("systemctl", "stop", "pitable")
        check(box.show("ActiveState") == "inactive", "systemctl stop stops it")
        box.run("systemctl", "reboot", check_rc=False)
        box.wait_down()
        box.boot()
        check(box.wait_active(60), "pitable is active again after the reboot")
        check(game_of(api_state()) == before, "the same game is on the table after stop and reboot")

        say("a broken /etc/pitable/pitable.yaml")
        conf = box.run("cat", "/etc/pitable/pitable.yaml").stdout
        broken = conf.replace("  bounce: 0.02", "  bouce: 0.02")
        assert broken != conf
        (root / "etc/pitable/pitable.yaml").write_text(broken)
        box.run("systemctl", "restart", "pitable", check_rc=False)
        time.sleep(8)   # RestartSec=2: a retrying unit would have tried several times
        state, result = box.show("ActiveState"), box.show("Result")
        check(state == "failed" and box.show("NRestarts") == "0",
              "a broken config: the unit fails and stops retrying", f"{state} {result} "
              f"NRestarts={box.show('NRestarts')}")
        lines = [x for x in box.run("journalctl", "-u", "pitable", "-b", "--no-pager", "-o", "cat",
                                    "--since", "-20s", check_rc=False).stdout.splitlines()
                 if "pads.bouce" in x]
        check(len(lines) == 1 and "unknown key" in lines[0],
              "one journal line names the key (pads.bouce)", repr(lines))
    finally:
        box.poweroff()
        unmount(root)
    return 1 if failures else 0


if __name__ == "__main__":
    argv = sys.argv[1:]
    if argv[:1] == ["--suite"] and len(argv) >= 2:
        SUITE, argv = argv[1], argv[2:]
    if SUITE not in SUITES:
        raise SystemExit(f"boot test: suite {SUITE!r}: one of {', '.join(SUITES)}")
    if argv == ["--pytest"]:
        sys.exit(suite_tests())
    if argv and not (len(argv) == 2 and argv[0] == "--arch" and argv[1] in ("arm64", "armhf")):
        raise SystemExit("usage: boot_test.py [--suite bookworm|trixie] [--arch arm64|armhf | --pytest]")
    code = arm(argv[1]) if argv else main()
    took = time.monotonic() - started
    if failures:
        say(f"boot test FAILED ({len(failures)}) in {took:.0f} s:")
        for f in failures:
            print("  - " + f.replace("\n", "\n    "), file=sys.stderr)
    else:
        say(f"boot test passed in {took:.0f} s")
    sys.exit(code)
