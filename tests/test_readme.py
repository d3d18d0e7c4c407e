"""The README a newcomer reads: short, and every command it shows works as written after the
two set-up commands (./run.sh, ./test.sh make .venv; `pitable` alone is not on the PATH)."""

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def code_spans(text):
    blocks = re.findall(r"```sh\n(.*?)```", text, re.S)
    lines = [line.split("  #")[0].strip() for block in blocks for line in block.splitlines()]
    inline = re.findall(r"`([^`\n]+)`", re.sub(r"```.*?```", "", text, flags=re.S))
    return [line for line in lines if line], inline


def test_the_readme_reads_in_five_minutes():
    assert len(README.splitlines()) <= 160
    first_screen = "\n".join(README.splitlines()[:20])
    assert "./run.sh" in first_screen and "Esc" in first_screen and "Play" in first_screen


def test_no_command_in_the_readme_is_a_bare_pitable_that_the_shell_cannot_find():
    lines, inline = code_spans(README)
    bare = [c for c in lines + inline if re.match(r"(sudo )?pitable\s", c)]
    assert bare == [], "write .venv/bin/pitable (or /opt/pitable/.venv/bin/pitable on the Pi)"


def test_every_link_of_the_readme_leads_somewhere():
    for target in re.findall(r"\]\(([^)#\s]+)", README):
        if target.startswith("http"):
            continue
        assert (ROOT / target).exists(), target


def pitable_commands():
    lines, _ = code_spans(README)
    return [line for line in lines if line.startswith(".venv/bin/pitable ")]


def test_the_readme_shows_the_commands():
    names = {shlex.split(c)[1] for c in pitable_commands()}
    assert {"check-config", "wiring", "doctor", "simulate"} <= names


@pytest.mark.system  # each command in a fresh interpreter
@pytest.mark.parametrize("command", pitable_commands())
def test_each_pitable_command_of_the_readme_works_as_written(command, tmp_path):
    args = shlex.split(command)
    venv = ROOT / ".venv/bin/pitable"
    # after ./test.sh the README's own .venv/bin/pitable; in a development venv, the same code
    exe = [str(venv)] if venv.exists() else [sys.executable, "-m", "pitable"]
    args = [str(tmp_path / a) if a.endswith((".png", ".svg")) else a for a in args[1:]]  # no litter
    env = dict(os.environ)  # with a HOME and STATE_DIRECTORY of its own (tests/conftest.py)
    out = subprocess.run(exe + args, cwd=ROOT, capture_output=True, text=True, timeout=180, env=env)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr and out.stdout.strip()


def test_the_logs_path_the_readme_gives_is_where_games_go(tmp_path, monkeypatch):
    from pitable.config import load_config

    monkeypatch.delenv("STATE_DIRECTORY")  # as on a laptop (the tests' own_home sets one)
    config = load_config(ROOT / "pitable/data/desktop.yaml")
    assert "~/.local/share/pitable/" in README
    home = Path.home()
    data = Path(os.environ.get("XDG_DATA_HOME", home / ".local/share"))
    assert config.log_path in (home / ".local/share/pitable", data / "pitable")


def test_the_readmes_league_figures_are_those_of_the_kept_league_record():
    """The Pi-player paragraph quotes the league run kept in league/records/ (the one
    docs/assistant-player.md says is the latest): each figure is strong's share of wins there."""
    from league.run import read_record

    record = ROOT / "league" / "records" / "seed20-cut2.jsonl"
    wins: dict = {}
    for _, _, seats, winners, *_ in read_record(str(record)):
        seats = list(seats)
        if "strong" not in seats or len(set(seats)) != 2:
            continue
        key = (len(seats), next(n for n in seats if n != "strong"))
        w = wins.setdefault(key, [0.0, 0])
        w[0] += 1 / len(winners) if seats.index("strong") in winners else 0.0
        w[1] += 1
    share = {k: round(100 * w / n) for k, (w, n) in wins.items()}
    paragraph = README[README.index("**The Pi as a player.**"):]
    paragraph = " ".join(paragraph[:paragraph.index("\n\n")].split())
    quoted = {
        (2, "heuristic"): "{}% against the heuristic", (2, "sensible"): "{}% against a rule-based",
        (2, "easy"): "{}% against `easy`", (2, "regret"): "{}% against regret matching",
        (2, "ismcts"): "{}% against ISMCTS", (3, "ismcts"): "{}% against two ISMCTS",
        (4, "regret"): "{}% against three regret", (4, "ismcts"): "{}% against three ISMCTS",
    }
    for key, phrase in quoted.items():
        assert phrase.format(share[key]) in paragraph, (key, share[key])
    exploit = round(100 - 100 * wins[(2, "exploit")][0] / wins[(2, "exploit")][1])
    assert f"response that knows its code wins {exploit}%" in paragraph
