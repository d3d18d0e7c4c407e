#!/bin/sh
# Runs the tests. First use: makes .venv and installs pitable with its test tools
# (and the desktop preview, whose emulator paths are tested too).
# Arguments go to pytest (e.g. ./test.sh tests/rules -x). The tests run on every core
# (pytest-xdist's -n auto); ./test.sh -n 0 runs them in one process.
set -e
cd "$(dirname "$0")"
. ./scripts/venv.sh
ensure_venv ".[test,desktop]"
exec .venv/bin/python -m pytest -n auto --dist worksteal "$@"
