#!/bin/sh
# The boot test: systemd/install.sh and the pitable unit in a real systemd
# (a debootstrap Debian root booted with systemd-nspawn). See docs/boot-test.md.
#   sudo scripts/boot_test.sh          (about 3-6 minutes; the Debian root is cached in
#                                       /var/cache/pitable-boot-test, PITABLE_BOOT_FRESH=1 remakes it)
#   sudo PITABLE_BOOT_SUITE=trixie scripts/boot_test.sh    (or --suite trixie; bookworm is the default)
#   sudo PITABLE_BOOT_SUITE=trixie scripts/boot_test.sh --pytest   (the test suite on trixie's Python 3.13)
#   sudo scripts/boot_test.sh --arch arm64    (or armhf: the same on a Pi's instruction set, under
#                                              qemu-user; the root is cached: 10-20 minutes the first time)
# Needs root, systemd-nspawn (apt: systemd-container), debootstrap, nsenter, and the network
# (Debian's mirror, the Python package index). Without them it skips and says why; under
# CI=true it fails instead.
set -e
cd "$(dirname "$0")/.."

skip() {
    if [ "${CI:-}" = true ]; then
        echo "boot test: FAILED: $1" >&2
        exit 1
    fi
    echo "boot test: skipped: $1" >&2
    exit 0
}

if [ "$(id -u)" != 0 ]; then
    if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        exec sudo -E "$0" "$@"
    fi
    skip "it needs root (sudo scripts/boot_test.sh)"
fi
if [ "${CI:-}" = true ] && { ! command -v systemd-nspawn >/dev/null || ! command -v debootstrap >/dev/null; }; then
    echo "boot test: installing systemd-container and debootstrap" >&2
    apt-get install -y --no-install-recommends systemd-container debootstrap >/dev/null
fi
for tool in systemd-nspawn debootstrap nsenter chroot dpkg-deb git python3; do
    command -v "$tool" >/dev/null 2>&1 || skip "$tool is missing (apt: systemd-container debootstrap util-linux)"
done
# --arch arm64|armhf: the root runs under qemu-user; binfmt_misc must hand ARM binaries to
# qemu with the F flag (qemu-user-static's entries have it), so they run inside the root
if [ "${1:-}" = --arch ]; then
    case "${2:-}" in arm64) q=aarch64 ;; armhf) q=arm ;; *) skip "--arch ${2:-}: arm64 or armhf" ;; esac
    if [ "${CI:-}" = true ] && ! command -v "qemu-$q-static" >/dev/null; then
        echo "boot test: installing qemu-user-static, binfmt-support, mmdebstrap" >&2
        apt-get install -y --no-install-recommends qemu-user-static binfmt-support mmdebstrap arch-test >/dev/null
    fi
    command -v "qemu-$q-static" >/dev/null 2>&1 || skip "qemu-$q-static is missing (apt: qemu-user-static binfmt-support)"
    [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc 2>/dev/null || true
    [ -e "/proc/sys/fs/binfmt_misc/qemu-$q" ] || update-binfmts --enable "qemu-$q" 2>/dev/null || true
    grep -q "^flags:.*F" "/proc/sys/fs/binfmt_misc/qemu-$q" 2>/dev/null \
        || skip "binfmt_misc has no qemu-$q entry with the F flag (update-binfmts --enable qemu-$q)"
fi
exec python3 scripts/boot_test.py "$@"
