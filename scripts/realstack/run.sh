#!/bin/sh
# The real GPIO stack test (docs/real-gpio.md): a QEMU guest with a Debian kernel, the
# kernel's simulated GPIO chip (gpio-sim, built here with our matrix-wires patch) shaped
# like a Pi's (lines GPIO0..GPIO27), and pytest on tests/realstack inside it, through
# gpiozero's real pin factories. Everything comes from Debian's archive and PyPI wheels.
#
#   scripts/realstack/run.sh [PYTEST ARGS...]     e.g. -k matrix, or -x
#
# Settings (environment):
#   PITABLE_REALSTACK_CACHE  where downloads and the guest's root are kept between runs
#                            (default /var/cache/pitable-realstack as root, else ~/.cache/...)
#   PITABLE_REALSTACK_JUNIT  where the guest's JUnit file is copied (default build/realstack-junit.xml)
#   PITABLE_REALSTACK_SMP, _MEM, _TIMEOUT   the guest's CPUs (2), MiB (1024), seconds (1500)
#   CI=true                  anything missing is an error, never a skip
# Needs root (debootstrap, chroot, the 9p root's owners); asks sudo itself otherwise.
set -eu
# one compound command: the shell reads all of it before it starts, so editing this file
# during a run cannot change the run
{
HERE="$(cd "$(dirname "$0")" && pwd)"
REPO="$(cd "$HERE/../.." && pwd)"
if [ "$(id -u)" != 0 ]; then
    exec sudo --preserve-env "$0" "$@"
fi
if [ -n "${PITABLE_REALSTACK_CACHE:-}" ]; then
    CACHE="$PITABLE_REALSTACK_CACHE"
else
    CACHE=/var/cache/pitable-realstack
fi
JUNIT="${PITABLE_REALSTACK_JUNIT:-$REPO/build/realstack-junit.xml}"
SMP="${PITABLE_REALSTACK_SMP:-2}"
MEM="${PITABLE_REALSTACK_MEM:-1024}"
TIMEOUT="${PITABLE_REALSTACK_TIMEOUT:-1500}"
SUITE=bookworm
mkdir -p "$CACHE"
T0=$(date +%s)
PHASE_T=$T0
PHASE=""
phase() {   # the time of the phase that ended, then the name of the next
    now=$(date +%s)
    [ -z "$PHASE" ] || echo "realstack: $PHASE: $((now - PHASE_T)) s"
    PHASE="$1"; PHASE_T=$now
    [ -z "$1" ] || echo "realstack: == $1"
}
die() {
    echo "realstack: $*" >&2
    exit 1
}

# -- 1. host tools ---------------------------------------------------------------------
phase "host tools (apt: qemu-system-x86, busybox-static, debootstrap, gcc, make)"
need=""
command -v qemu-system-x86_64 >/dev/null 2>&1 || need="$need qemu-system-x86"
[ -x /bin/busybox ] && /bin/busybox --list | grep -qx cpio || need="$need busybox-static"
command -v debootstrap >/dev/null 2>&1 || need="$need debootstrap"
command -v gcc >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
command -v xz >/dev/null 2>&1 || need="$need xz-utils"
if [ -n "$need" ]; then
    apt-get update -q
    DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $need
fi

# -- 2. the kernel: image, headers and source of one version ---------------------------
phase "kernel packages (apt-get download, cached)"
# the choice is kept until apt's lists change (apt-cache is slow on a loaded machine)
if [ -f "$CACHE/kernel-choice" ] && [ -z "$(find /var/lib/apt/lists -maxdepth 1 -newer "$CACHE/kernel-choice" -name '*Packages*' 2>/dev/null)" ]; then
    read -r KVER KSER SRCVER < "$CACHE/kernel-choice"
else
    candidate() { apt-cache policy "$1" 2>/dev/null | sed -n 's/.*Candidate: //p'; }
    KVER="$(apt-cache depends linux-image-amd64 | sed -n 's/.*Depends: linux-image-\(.*\)$/\1/p' | head -n1)"
    [ -n "$KVER" ] || die "no linux-image-amd64 in apt's lists (apt-get update?)"
    KSER="$(echo "$KVER" | cut -d. -f1-2)"       # 6.1
    # the gpio-sim source must be the kernel's own: the image whose version is linux-source's
    SRCVER="$(candidate "linux-source-$KSER")"
    [ -n "$SRCVER" ] || die "no linux-source-$KSER in apt's lists"
    # one apt-cache call for all of them ("pkg:" then "  Candidate: version")
    KVER="$(apt-cache policy $(apt-cache pkgnames "linux-image-$KSER." | grep -E -- '-[0-9]+-amd64$') \
        | awk -v want="$SRCVER" '/^[^ ]/ { p = $1; sub(":$", "", p) } $1 == "Candidate:" && $2 == want { print p }' \
        | sort -V | tail -n1 | sed 's/^linux-image-//')"
    [ "$(candidate "linux-image-$KVER")" = "$SRCVER" ] || die "no linux-image of version $SRCVER (linux-source-$KSER's)"
    echo "$KVER $KSER $SRCVER" > "$CACHE/kernel-choice"
fi
KBASE="${KVER%-amd64}"                       # 6.1.0-57
echo "realstack: kernel $KVER ($SRCVER)"
DEBS="$CACHE/debs"
KROOT="$CACHE/kernel-$KVER"
mkdir -p "$DEBS"
if [ ! -f "$KROOT/.done" ]; then
    chmod 755 "$DEBS"   # apt's _apt user downloads into it
    (cd "$DEBS" && apt-get download -q "linux-image-$KVER" "linux-headers-$KVER" \
        "linux-headers-$KBASE-common" "linux-kbuild-$KSER" "linux-source-$KSER")
    rm -rf "$KROOT"; mkdir -p "$KROOT"
    for p in "linux-image-$KVER" "linux-headers-$KVER" "linux-headers-$KBASE-common" \
             "linux-kbuild-$KSER" "linux-source-$KSER"; do
        deb="$(ls "$DEBS/${p}_"*.deb | tail -n1)"
        dpkg-deb -x "$deb" "$KROOT"
    done
    # unpacked, not installed: the headers' Makefile names /usr/src/... absolutely
    sed -i "s|/usr/src/|$KROOT/usr/src/|g" "$KROOT/usr/src/linux-headers-$KVER/Makefile"
    touch "$KROOT/.done"
fi
VMLINUZ="$KROOT/boot/vmlinuz-$KVER"
MODS="$KROOT/lib/modules/$KVER"
[ -f "$VMLINUZ" ] || die "no kernel image in linux-image-$KVER"

# -- 3. gpio-sim, out of tree, with irq_sim bundled and our matrix wires ---------------
phase "kernel modules (gpio-sim from linux-source-$KSER with gpio-sim-wires.patch; i2c-ssd1306-sim)"
SRC="$CACHE/gpio-sim-src-$KSER"
if [ ! -f "$SRC/.done" ]; then
    rm -rf "$SRC"; mkdir -p "$SRC"
    tarball="$(ls "$KROOT/usr/src/linux-source-$KSER".tar.* | head -n1)"
    tar -xf "$tarball" -C "$SRC" --strip-components=1 --wildcards \
        '*/drivers/gpio/gpio-sim.c' '*/drivers/gpio/gpiolib.h' '*/kernel/irq/irq_sim.c'
    touch "$SRC/.done"
fi
BUILD="$CACHE/gpio-sim-build-$KVER"
sum="$(cat "$HERE/gpio-sim-wires.patch" "$HERE/Kbuild" "$HERE/i2c-ssd1306-sim.c" | sha256sum | cut -c1-16)"
if [ ! -f "$BUILD/gpio-sim.ko" ] || [ "$(cat "$BUILD/.sum" 2>/dev/null)" != "$sum" ]; then
    rm -rf "$BUILD"; mkdir -p "$BUILD"
    cp "$SRC/drivers/gpio/gpio-sim.c" "$SRC/drivers/gpio/gpiolib.h" "$SRC/kernel/irq/irq_sim.c" "$BUILD/"
    cp "$HERE/Kbuild" "$BUILD/Kbuild"
    cp "$HERE/i2c-ssd1306-sim.c" "$BUILD/"
    (cd "$BUILD" && patch -p1 -s < "$HERE/gpio-sim-wires.patch" && mv gpio-sim.c gpio-sim-core.c)
    make -s -C "$KROOT/usr/src/linux-headers-$KVER" M="$BUILD" modules >"$BUILD/build.log" 2>&1 \
        || { cat "$BUILD/build.log" >&2; die "gpio-sim did not build"; }
    echo "$sum" > "$BUILD/.sum"
fi

# -- 4. the guest's root: debootstrap, then a venv from wheels downloaded here ---------
phase "guest root (debootstrap $SUITE minbase, cached)"
ROOT="$CACHE/root-$SUITE"
if [ ! -f "$ROOT/.done" ]; then
    rm -rf "$ROOT"
    debootstrap --variant=minbase --include=python3,python3-venv,kmod "$SUITE" "$ROOT" \
        >"$CACHE/debootstrap.log" 2>&1 || { tail -n 30 "$CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
    touch "$ROOT/.done"
fi

phase "guest Python (pip download on the host, install in the root without network)"
WHEELS="$ROOT/opt/wheels"
mkdir -p "$WHEELS"
# the guest's Python is the root's python3; download for its version and platform
PYV="$(chroot "$ROOT" python3 -c 'import sys; print("%d%d" % sys.version_info[:2])')"
# pitable's own dependencies (from pyproject.toml) and the tests' tools, for the guest
(cd "$REPO" && python3 -c '
import tomllib
p = tomllib.load(open("pyproject.toml", "rb"))["project"]
print("\n".join(p["dependencies"] + ["pytest", "lgpio", "gpiod"]))') > "$WHEELS/requirements.txt"
reqsum="$(sha256sum < "$WHEELS/requirements.txt" | cut -c1-16)"
if [ "$(cat "$ROOT/opt/venv/.requirements" 2>/dev/null)" != "$reqsum" ]; then
    pip download -q --only-binary :all: --python-version "$PYV" --platform manylinux_2_34_x86_64 \
        --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 \
        --platform any -d "$WHEELS" -r "$WHEELS/requirements.txt" "setuptools>=61" wheel 2>&1 \
        | grep -v "^WARNING: Location" || true
    [ -n "$(ls "$WHEELS"/gpiozero-*.whl 2>/dev/null)" ] || die "pip download failed"
    [ -x "$ROOT/opt/venv/bin/python" ] || chroot "$ROOT" python3 -m venv /opt/venv
    chroot "$ROOT" /opt/venv/bin/pip install -q --no-index --find-links /opt/wheels -r /opt/wheels/requirements.txt
    echo "$reqsum" > "$ROOT/opt/venv/.requirements"
fi
rm -rf "$ROOT/opt/pitable"; mkdir -p "$ROOT/opt/pitable"
(cd "$REPO" && git ls-files -co --exclude-standard -z | xargs -0 tar -cf - 2>/dev/null) | tar -xf - -C "$ROOT/opt/pitable"
chroot "$ROOT" /opt/venv/bin/pip install -q --no-index --find-links /opt/wheels --no-deps --force-reinstall /opt/pitable

phase "guest modules and initramfs"
GMODS="$ROOT/lib/modules/$KVER"
rm -rf "$GMODS"; mkdir -p "$GMODS/kernel" "$GMODS/extra"
for d in fs/configfs drivers/i2c; do
    [ -d "$MODS/kernel/$d" ] && mkdir -p "$GMODS/kernel/$d" && cp -r "$MODS/kernel/$d/." "$GMODS/kernel/$d/"
done
cp "$MODS"/modules.builtin* "$MODS"/modules.order "$GMODS/" 2>/dev/null || true
cp "$BUILD/gpio-sim.ko" "$BUILD/i2c-ssd1306-sim.ko" "$GMODS/extra/"
chroot "$ROOT" depmod "$KVER"
INITRD="$CACHE/initrd-$KVER.gz"
"$HERE/make-initramfs.sh" "$MODS" "$INITRD"
mkdir -p "$ROOT/opt/realstack"
cp "$HERE/guest-init" "$HERE/guest-run.sh" "$ROOT/opt/realstack/"
rm -rf "$ROOT/opt/out"; mkdir -p "$ROOT/opt/out"
# pytest's arguments go to the guest through a file (the kernel command line is short)
printf '%s\n' "$@" > "$ROOT/opt/out/pytest-args"
# PITABLE_REALSTACK_IDLE=60: after the tests, benchmarks/idle.py compares the factories
[ -z "${PITABLE_REALSTACK_IDLE:-}" ] || echo "$PITABLE_REALSTACK_IDLE" > "$ROOT/opt/out/idle-seconds"

# -- 5. boot and test ------------------------------------------------------------------
phase "guest boot and tests (QEMU, TCG, $SMP CPUs)"
set +e
timeout --foreground "$TIMEOUT" qemu-system-x86_64 -accel tcg,thread=multi -cpu max -smp "$SMP" -m "$MEM" \
    -nodefaults -display none -serial stdio -no-reboot \
    -kernel "$VMLINUZ" -initrd "$INITRD" \
    -append "console=ttyS0 quiet loglevel=3 panic=-1 guestinit=/opt/realstack/guest-init${CI:+ CI=$CI}" \
    -fsdev local,id=root,path="$ROOT",security_model=passthrough \
    -device virtio-9p-pci,fsdev=root,mount_tag=root </dev/null
qrc=$?
set -e
phase ""
mkdir -p "$(dirname "$JUNIT")"
[ -f "$ROOT/opt/out/junit.xml" ] && cp "$ROOT/opt/out/junit.xml" "$JUNIT"
rc="$(cat "$ROOT/opt/out/rc" 2>/dev/null || echo none)"
[ ! -f "$ROOT/opt/out/idle.txt" ] || { echo "realstack: idle wake-ups in the guest:"; cat "$ROOT/opt/out/idle.txt"; }
echo "realstack: total $(( $(date +%s) - T0 )) s; QEMU exit $qrc, pytest exit $rc; JUnit: $JUNIT"
[ "$qrc" = 0 ] || die "the guest did not finish (QEMU exit $qrc; 124: timed out after $TIMEOUT s)"
[ "$rc" = 0 ] || die "the real-stack tests failed (pytest exit $rc)"
grep -q 'skipped="0"' "$JUNIT" || {
    [ "${CI:-}" = true ] && die "tests were skipped in the guest, and CI=true makes that an error"
    echo "realstack: some tests were skipped in the guest"
}
exit 0
}
