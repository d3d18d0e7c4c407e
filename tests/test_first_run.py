"""The first ./run.sh and ./test.sh (scripts/venv.sh): each set-up step says what it does and
about how long it takes, and pip's own progress shows (a silent five minutes looks hung)."""

import os
import shutil
import stat
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# A stand-in for python3 and for the venv's python: it records what it was asked to do, so the
# set-up's words and pip's flags are seen without downloading anything.
FAKE_PYTHON = """#!/bin/sh
echo "$0 $*" >> "$CALLS"
case "$*" in
  "-m venv"*) dir=$(eval echo \\${$#}); mkdir -p "$dir/bin"; cp "$0" "$dir/bin/python" ;;
  "-m pip install"*) echo "Collecting gpiozero (pip's own lines)" ;;
esac
exit 0
"""


def setup_repo(tmp_path):
    repo = tmp_path / "clone"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(ROOT / "scripts/venv.sh", repo / "scripts/venv.sh")
    shutil.copy(ROOT / "pyproject.toml", repo / "pyproject.toml")
    shutil.copy(ROOT / "constraints.txt", repo / "constraints.txt")
    fake = tmp_path / "python3"
    fake.write_text(FAKE_PYTHON)
    fake.chmod(fake.stat().st_mode | stat.S_IEXEC)
    return repo, fake


def ensure(repo, fake, spec, calls):
    env = {**os.environ, "PYTHON": str(fake), "CALLS": str(calls)}
    return subprocess.run(["sh", "-c", f'. ./scripts/venv.sh && ensure_venv "{spec}"'], cwd=repo, env=env,
                          capture_output=True, text=True, timeout=60)


def test_the_first_run_says_each_step_and_how_long_and_shows_pips_progress(tmp_path):
    repo, fake = setup_repo(tmp_path)
    calls = tmp_path / "calls"
    out = ensure(repo, fake, ".[test,desktop]", calls)
    assert out.returncode == 0, out.stderr
    steps = [line for line in out.stderr.splitlines() if line.startswith("pitable set-up: ")]
    assert len(steps) == 3, out.stderr
    assert "making .venv" in steps[0] and "seconds" in steps[0]
    assert "installing pitable" in steps[1] and "minutes" in steps[1] and "MB" in steps[1]
    assert steps[2].startswith("pitable set-up: done in ")
    assert "Collecting gpiozero" in out.stdout   # pip talks: not --quiet
    pip = [line for line in calls.read_text().splitlines() if "-m pip install" in line]
    assert len(pip) == 1 and "--quiet" not in pip[0] and "-q" not in pip[0].split()
    assert "--progress-bar on" in pip[0]


def test_a_later_run_says_nothing_and_installs_nothing(tmp_path):
    repo, fake = setup_repo(tmp_path)
    calls = tmp_path / "calls"
    ensure(repo, fake, ".[desktop]", calls)
    calls.write_text("")
    again = ensure(repo, fake, ".[desktop]", calls)
    assert again.returncode == 0 and again.stderr == "" and again.stdout == ""
    assert "pip" not in calls.read_text()


def test_a_changed_pyproject_says_it_updates(tmp_path):
    repo, fake = setup_repo(tmp_path)
    calls = tmp_path / "calls"
    ensure(repo, fake, ".[desktop]", calls)
    with open(repo / "pyproject.toml", "a") as f:
        f.write("\n# changed\n")
    out = ensure(repo, fake, ".[desktop]", calls)
    assert "pyproject.toml or constraints.txt changed: updating pitable" in out.stderr


def test_every_install_is_held_to_the_constraints_and_a_changed_one_reinstalls(tmp_path):
    repo, fake = setup_repo(tmp_path)
    calls = tmp_path / "calls"
    ensure(repo, fake, ".[desktop]", calls)
    pip = [line for line in calls.read_text().splitlines() if "-m pip install" in line]
    assert len(pip) == 1 and "-c constraints.txt" in pip[0]
    with open(repo / "constraints.txt", "a") as f:
        f.write("\nPillow<13\n")
    out = ensure(repo, fake, ".[desktop]", calls)
    assert "constraints.txt changed: updating pitable" in out.stderr


def test_the_tests_after_the_assistant_say_they_add_the_test_tools(tmp_path):
    """./run.sh first, then ./test.sh: the venv is there, the test tools are not yet."""
    repo, fake = setup_repo(tmp_path)
    calls = tmp_path / "calls"
    ensure(repo, fake, ".[desktop]", calls)
    out = ensure(repo, fake, ".[test,desktop]", calls)
    steps = [line for line in out.stderr.splitlines() if line.startswith("pitable set-up: ")]
    assert "installing pitable, its tests' tools" in steps[0] and "changed" not in steps[0]
    assert steps[-1].startswith("pitable set-up: done in ")
