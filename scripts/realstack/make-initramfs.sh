#!/bin/sh
# make-initramfs.sh MODULES_DIR OUT.gz: a busybox initramfs that loads virtio-pci and
# 9p (Debian builds them as modules), mounts the guest's root shared by the host over
# virtio-9p, and hands over to the program named by guestinit= on the kernel command line.
set -eu
MODS="$1"; OUT="$2"
W="$(mktemp -d)"
trap 'rm -rf "$W"' EXIT
mkdir -p "$W/bin" "$W/lib" "$W/proc" "$W/sys" "$W/dev" "$W/newroot"
cp /bin/busybox "$W/bin/busybox"
# the modules and their dependencies, in load order (from each module's depends=)
python3 - "$MODS" "$W/lib" > "$W/modules.order" <<'PY'
import lzma, os, re, shutil, sys
mods, out = sys.argv[1:]
files = {}
for d, _, names in os.walk(os.path.join(mods, "kernel")):
    for n in names:
        m = re.match(r"(.+)\.ko(\.xz)?$", n)
        if m:
            files[m.group(1).replace("-", "_")] = os.path.join(d, n)
order = []
def data(name):
    path = files[name]
    raw = open(path, "rb").read()
    return lzma.decompress(raw) if path.endswith(".xz") else raw
def need(name):
    name = name.replace("-", "_")
    if name in order or name not in files:   # not a file: built into the kernel
        return
    m = re.search(rb"depends=([^\0]*)\0", data(name))
    for dep in (m.group(1).decode().split(",") if m and m.group(1) else []):
        need(dep)
    order.append(name)
for want in ("virtio_pci", "9pnet_virtio", "9p"):
    need(want)
for name in order:
    open(os.path.join(out, name + ".ko"), "wb").write(data(name))
    print(name)
PY
cat > "$W/init" <<'INIT'
#!/bin/busybox sh
B=/bin/busybox
$B mount -t proc proc /proc
$B mount -t sysfs sys /sys
$B mount -t devtmpfs dev /dev
for m in $($B cat /modules.order); do
    $B insmod "/lib/$m.ko" || echo "initramfs: insmod $m failed"
done
if ! $B mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,msize=262144 root /newroot; then
    echo "initramfs: the 9p root did not mount"; $B poweroff -f
fi
gi=/sbin/init
for a in $($B cat /proc/cmdline); do
    case "$a" in guestinit=*) gi="${a#guestinit=}";; esac
done
$B mount --move /dev /newroot/dev
$B umount /sys /proc
exec $B switch_root /newroot "$gi"
INIT
chmod +x "$W/init"
(cd "$W" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) | gzip -1 > "$OUT"
