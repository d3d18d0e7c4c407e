"""The rulings the rules core cites are in the repository (docs/rulings.md), and nothing in the
code, the tests or the catalogs explains itself by a tracker number a clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULINGS = ROOT / "docs" / "rulings.md"
IDS = [f"G{i}" for i in range(1, 14)] + [f"C{i}" for i in range(1, 8)]


def _sections():
    text = RULINGS.read_text(encoding="utf-8")
    parts = re.split(r"^### ", text, flags=re.M)[1:]
    return {part.split()[0]: part for part in parts}


def test_every_ruling_has_a_heading_a_rulebook_quote_and_the_choice_made():
    sections = _sections()
    assert sorted(sections) == sorted(IDS)
    for rid, body in sections.items():
        lines = body.splitlines()[1:]
        quote = [line for line in lines if line.startswith("> ")]
        choice = [line for line in lines if line.strip() and not line.startswith(">")]
        assert quote and choice, rid


def _sources():
    for folder in ("pitable", "tests", "league", "benchmarks", "scripts"):
        for path in (ROOT / folder).rglob("*"):
            if path.suffix in (".py", ".po", ".js", ".sh") and path.is_file():
                yield path


def test_every_ruling_id_the_code_cites_is_in_the_rulings():
    known = set(_sections())
    cited = set()
    for path in _sources():
        if path.suffix == ".py":
            cited |= set(re.findall(r"\b([GC]1?[0-9])\b(?=[:.,) ]|$)", path.read_text(encoding="utf-8")))
    cited = {c for c in cited if c[0] == "G" and 1 <= int(c[1:]) <= 13 or c[0] == "C" and 1 <= int(c[1:]) <= 7}
    assert cited <= known
    assert {"G4", "G7", "C6"} <= cited  # the scan finds the ids the code is known to cite


def test_no_tracker_numbers_in_code_tests_or_catalog_sections():
    found = []
    for path in _sources():
        if path == Path(__file__).resolve():
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if re.search(r"\bissue ?#?\d+|\bitem \d+ of|#\s*---\s*issue", line, re.I):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    names = [p.name for p in (ROOT / "tests").rglob("test_*issue*")]
    assert not found and not names, found + names
