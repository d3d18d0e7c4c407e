"""benchmarks/counts.py drives real games through public entry points; these run its
scenarios natively (without valgrind: seconds, not minutes) so that a change to the
screens, the keys or the players that breaks its drivers fails here, not on the day
someone wants the numbers. With valgrind installed, one scenario is counted for real."""

import json
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
COUNTS = ROOT / "benchmarks" / "counts.py"

pytestmark = pytest.mark.system  # runs the benchmarks' scenarios in subprocesses, under callgrind


def run_child(name, tmp_path):
    labels = tmp_path / f"{name}.json"
    subprocess.run([sys.executable, str(COUNTS), "--child", name, "--labels", str(labels), "--quick"],
                   cwd=ROOT, check=True, timeout=120, env={"PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "0",
                                                           "PATH": "/usr/bin:/bin"})
    return json.loads(labels.read_text())


@pytest.mark.parametrize("name, kinds", [
    ("gh-physical", {"lock-in", "last lock-in", "physical reveal", "next screen"}),
    ("gh-virtual", {"lock-in", "last lock-in + virtual reveal"}),
    ("cockroach", {"offer: the seat", "offer: the claim", "answer: true or false", "flip"}),
])
def test_counts_drivers_reach_every_kind_of_key_they_report(tmp_path, name, kinds):
    data = run_child(name, tmp_path)
    seen = Counter(data["extra"]["kinds"].values())
    assert kinds <= set(seen), seen
    # every key was measured from its release to a frame (or to nothing, said so)
    parts = Counter(label[1] for label in data["labels"] if isinstance(label, list) and len(label) == 2)
    assert parts["gap"] == parts["press"] == parts["frame"] + parts["nothing"]
    assert parts["frame"] > 0.9 * parts["press"]
    # the bus carried bytes for the frames, and logged inputs wrote to the journal
    extra = data["extra"]["extra"].values()
    assert any(nbytes > 0 for nbytes, _, _ in extra) and any(logged for _, _, logged in extra)


def test_counts_bid_scenario_finds_positions_of_every_table_size(tmp_path):
    data = run_child("bid", tmp_path)
    assert data["extra"]["positions"] == 3
    assert sorted(label[1] for label in data["labels"] if label[:1] == ["bid"]) == [2, 3, 4]
    # its searched choices, at the positions with the most kinds on the display
    assert len([label for label in data["labels"] if label[:1] == ["choice"]]) == 3
    # and the first bid after a restart, its model made again from a full window of bids
    assert [label for label in data["labels"] if label[:1] == ["cold"]] == [["cold", 4]]
    assert data["extra"]["window"] == 16


@pytest.mark.skipif(shutil.which("valgrind") is None, reason="valgrind not installed")
def test_counts_under_callgrind_are_the_same_twice(tmp_path):
    """The bare imports, counted twice: the same instructions within 1%."""
    out = []
    for _ in range(2):
        done = subprocess.run([sys.executable, str(COUNTS), "--only", "bare"], cwd=ROOT, check=True,
                              capture_output=True, text=True, timeout=600)
        out.append(json.loads(done.stdout.strip().splitlines()[-1])["bare"])
    (a_start, a_imports), (b_start, b_imports) = out
    assert a_imports > 10_000_000
    assert abs(a_imports - b_imports) <= 0.01 * a_imports
