"""The Pi install's lock (requirements.lock) pins every run-time dependency of pitable,
each within constraints.txt's caps: a cap raised or a dependency added without a new lock
fails here, not on a Pi."""

from __future__ import annotations

import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent


def requirements(path: Path) -> list[Requirement]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#")[0].strip()
        if line:
            out.append(Requirement(line))
    return out


def test_the_lock_pins_every_dependency_within_the_constraints():
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    pinned = {canonicalize_name(r.name): r for r in requirements(ROOT / "requirements.lock")}
    for r in pinned.values():
        assert len(r.specifier) == 1 and next(iter(r.specifier)).operator == "==", f"not one exact version: {r}"
    missing = {canonicalize_name(Requirement(d).name) for d in deps} - set(pinned)
    assert not missing, f"requirements.lock does not pin {missing}"
    for c in requirements(ROOT / "constraints.txt"):
        lock = pinned.get(canonicalize_name(c.name))
        if lock is not None:
            version = next(iter(lock.specifier)).version
            assert c.specifier.contains(version, prereleases=True), \
                f"{c.name}: lock {version}, constraints {c.specifier}"


def test_luma_is_held_to_one_minor():
    """The page-diff drivers read luma's private attributes: no minor CI has not run."""
    for c in requirements(ROOT / "constraints.txt"):
        if c.name.startswith("luma.") and c.name != "luma.emulator":
            upper = [s for s in c.specifier if s.operator == "<"]
            lower = [s for s in c.specifier if s.operator == ">="]
            assert upper and lower, c
            lo, hi = lower[0].version.split("."), upper[0].version.split(".")
            assert lo[0] == hi[0] and int(hi[1]) == int(lo[1]) + 1, f"{c}: more than one minor"
