#!/bin/sh
# In the guest: gpio-sim loaded, gpiozero told it is on a Pi, then pytest on tests/realstack.
set -u
echo "guest: up after $(cut -d' ' -f1 /proc/uptime) s (guest clock)"
modprobe gpio-sim || { echo "guest: gpio-sim did not load"; echo 3 > /opt/out/rc; exit 3; }
mount -t configfs none /sys/kernel/config 2>/dev/null || true
# gpiozero looks the pins up by the Pi's revision (from /proc/device-tree, else
# /proc/cpuinfo); an x86 guest has neither: a copy of cpuinfo says Zero 2 W (902120)
{ cat /proc/cpuinfo; printf 'Revision\t: 902120\nModel\t\t: Raspberry Pi Zero 2 W (real-stack guest)\n'; } > /run/cpuinfo
mount --bind /run/cpuinfo /proc/cpuinfo
export PITABLE_REALSTACK=1 LG_WD=/tmp HOME=/tmp PYTHONUNBUFFERED=1 PYTHONDONTWRITEBYTECODE=1
[ -z "${CI:-}" ] || export CI
cd /opt/pitable
# pytest's arguments, one a line (an argument may hold spaces: -k "a or b")
nl='
'
IFS="$nl"
# shellcheck disable=SC2046
set -- $(cat /opt/out/pytest-args)
unset IFS
/opt/venv/bin/python -m pytest tests/realstack -p no:cacheprovider -rA -v \
    --junitxml=/opt/out/junit.xml "$@"
echo $? > /opt/out/rc
if [ -f /opt/out/idle-seconds ]; then
    /opt/venv/bin/python -c 'from tests.realstack.sim import SimChip; SimChip.create()'
    /opt/venv/bin/python benchmarks/idle.py --factories lgpio,gpiod --seconds "$(cat /opt/out/idle-seconds)" \
        | tee /opt/out/idle.txt
fi
