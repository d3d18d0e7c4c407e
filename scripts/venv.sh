# Sourced by run.sh and test.sh: make .venv once, reinstall only when what to install changed.
PYTHON="${PYTHON:-python3}"

is_pi() {
    grep -qs "Raspberry Pi" /proc/device-tree/model
}

ensure_venv() {
    spec="$1"
    if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
        echo "pitable needs Python 3.11 or newer as '$PYTHON' (set PYTHON=... to pick another)" >&2
        exit 2
    fi
    if [ ! -x .venv/bin/python ]; then
        echo "Setting up .venv (first run only)..." >&2
        if is_pi; then
            # apt's python3-lgpio (gpiozero's pin factory on current Pi OS) is seen from the venv
            "$PYTHON" -m venv --system-site-packages .venv
        else
            "$PYTHON" -m venv .venv
        fi
    fi
    stamp=".venv/.installed-$(echo "$spec" | cksum | cut -d' ' -f1)"
    want="$(cksum < pyproject.toml)"
    if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
        .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
        echo "$want" > "$stamp"
    fi
}
