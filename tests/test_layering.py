"""The layering docs/architecture.md promises, checked by import-linter's contracts in
pyproject.toml (``[tool.importlinter]``): the layers in their order, no two modules or
packages importing each other, the hardware knowing nothing of the rules and the screens
nothing of the hardware, pure rules, a web edge that runs no rules ``State``, and only the
CLI reaching the repository-only league. Module-level and function-level imports alike."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINT = [sys.executable, "-c",
        "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"]


def lint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([*LINT, "--no-cache", *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def test_every_import_keeps_the_contracts():
    out = lint()
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 broken" in out.stdout


def test_a_hardware_module_importing_the_rules_breaks_a_contract(tmp_path):
    """The contracts can fail: the same tree with one upward import does."""
    tree = tmp_path / "tree"
    (tree / "pitable").mkdir(parents=True)
    for path in (ROOT / "pitable").rglob("*.py"):
        target = tree / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    (tree / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    keys = tree / "pitable/hardware/keys.py"
    keys.write_text(keys.read_text(encoding="utf-8") + "\nfrom pitable.sim import runs  # noqa\n", encoding="utf-8")
    out = subprocess.run([*LINT, "--no-cache"], cwd=tree, capture_output=True, text=True, timeout=120,
                         env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"})
    assert out.returncode != 0
    assert "pitable.hardware.keys -> pitable.sim.runs" in out.stdout
    assert "The hardware knows nothing of the rules BROKEN" in out.stdout


def test_the_loop_loads_no_gpiozero():
    """The loop reads the release time from the pure keys module; gpiozero is the pads'."""
    code = ("import sys, pitable.table.loop; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('gpiozero', 'luma', 'yaml')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_the_game_controllers_load_no_config_file_reader():
    """The screens' times (notice, reveal) are the screens' facts, read by the config and
    the table alike: the controllers import no YAML reader and no config."""
    code = ("import sys, pitable.table.base; "
            "print(sorted(m for m in sys.modules if m == 'pitable.config' or m.split('.')[0] == 'yaml'))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"
