#!/bin/sh
# Runs the table assistant. First use: makes .venv and installs pitable into it.
# On a laptop (not a Pi) it also installs the desktop preview and uses the keyboard as pads.
# Arguments go to `pitable run` (e.g. ./run.sh --config config/pitable.yaml).
set -e
cd "$(dirname "$0")"
. ./scripts/venv.sh
if is_pi; then ensure_venv "."; else ensure_venv ".[desktop]"; fi
exec .venv/bin/pitable run "$@"
