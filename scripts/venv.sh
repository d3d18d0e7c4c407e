# Sourced by run.sh and test.sh: make .venv once, reinstall only when what to install changed.
# Each step says what it does and about how long it takes; pip shows its own progress.
PYTHON="${PYTHON:-python3}"

is_pi() {
    grep -qs "Raspberry Pi" /proc/device-tree/model
}

step() {
    echo "pitable set-up: $*" >&2
}

ensure_venv() {
    spec="$1"
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "pitable needs Python 3.11 or newer as '$PYTHON' (set PYTHON=... to pick another)" >&2
        exit 2
    fi
    started=$(date +%s)
    fresh=""
    if [ ! -x .venv/bin/python ]; then
        fresh=1
        step "first run: making .venv, a Python environment for pitable alone (a few seconds)"
        if is_pi; then
            # apt's python3-lgpio (gpiozero's pin factory on current Pi OS) is seen from the venv
            "$PYTHON" -m venv --system-site-packages .venv
        else
            "$PYTHON" -m venv .venv
        fi
    fi
    stamp=".venv/.installed-$(echo "$spec" | cksum | cut -d' ' -f1)"
    want="$(cat pyproject.toml constraints.txt | cksum)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        case "$spec" in
            *test*) what="pitable, its tests' tools and the desktop window (pytest, hypothesis, selenium, pygame)" ;;
            *desktop*) what="pitable and the desktop window (gpiozero, luma, Pillow, PyYAML, pygame)" ;;
            *) what="pitable (gpiozero, luma, Pillow, PyYAML)" ;;
        esac
        if [ -f "$stamp" ]; then
            step "pyproject.toml or constraints.txt changed: updating $what in .venv (usually under a minute)"
        elif [ -n "$fresh" ]; then
            step "installing $what into .venv: downloads 10-40 MB, about 1-3 minutes on a laptop, up to 10 on a Pi Zero"
        else
            step "installing $what into .venv (what is there already is kept: about a minute)"
        fi
        .venv/bin/python -m pip install --disable-pip-version-check --progress-bar on -c constraints.txt -e "$spec"
        echo "$want" > "$stamp"
        step "done in $(( $(date +%s) - started )) s; later runs start at once"
    fi
}
