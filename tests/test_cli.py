"""The pitable command: replay and simulate, run as a person would (a subprocess)."""

import json
import os
import subprocess
import sys

import pytest

from pitable.cli import main
from pitable.rules.grasshopper import Options, header
from pitable.rules.log import encode

LOG = encode(header(3, Options())) + "".join(
    encode(x) for x in ({"reveal": "corn"}, {"reveal": "strawberry"}, {"reveal": "grasshopper"},
                        {"bids": ["6", "5", "1"]}, {"choose": "strawberry"},
                        {"choose": "corn"}))


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "pitable", *args], capture_output=True, text=True,
                          input=stdin, timeout=60)


def test_replay_json_prints_the_public_state(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(LOG)
    out = run("replay", str(path), "--json")
    assert out.returncode == 0, out.stderr
    state = json.loads(out.stdout)
    assert state["phase"] == "reveal" and state["round"] == 1 and state["pile"] == 63
    assert state["display"] == {} and state["discard"] == 0
    assert [s["garden"] for s in state["seats"]] == [{"strawberry": 1}, {"corn": 1}, {"grasshopper": 1}]
    assert [s["spent"] for s in state["seats"]] == [["6"], ["5"], ["1"]]
    assert "winners" not in state


def test_replay_for_people_is_readable(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(LOG)
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Grasshopper Poker, 3 players, round 1" in text
    assert "Seat 1: 0 chip(s); garden: 1 strawberry; spent: 6" in text


def test_replay_of_a_finished_game_lists_winners(tmp_path, capsys):
    from pitable.sim.grasshopper import RandomBot, play
    import random

    rng = random.Random(2)
    state = play(2, [RandomBot(rng)] * 2, rng, seed=3)
    path = tmp_path / "done.jsonl"
    path.write_text(encode(header(2, Options())) + "".join(encode(m.to_json()) for m in state.moves))
    assert main(["replay", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["phase"] == "over" and out["winners"] == [w + 1 for w in state.outcome.winners]


def test_replay_bad_line_exits_1_with_one_clear_message(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(LOG + '{"choose": "broccoli"}\n')
    out = run("replay", str(path), "--json")
    assert out.returncode == 1
    assert out.stdout == ""
    assert out.stderr.strip() == "pitable: line 8: no choice is expected now (waiting for 3 cards to be revealed)"
    assert "Traceback" not in out.stderr


def test_replay_torn_last_line_warns_and_replays_the_rest(tmp_path):
    path = tmp_path / "torn.jsonl"
    path.write_text(LOG + '{"reveal": "co')
    out = run("replay", str(path), "--json")
    assert out.returncode == 0
    assert "line 8: ignored a last line cut short" in out.stderr
    assert json.loads(out.stdout)["pile"] == 63


def test_replay_missing_file(tmp_path):
    out = run("replay", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 1 and "cannot read" in out.stderr and "Traceback" not in out.stderr


def test_replay_from_stdin():
    out = run("replay", "-", "--json", stdin=LOG)
    assert out.returncode == 0 and json.loads(out.stdout)["turn"] == 2


def test_simulate_prints_statistics_and_repeats_with_a_seed(capsys):
    args = ["simulate", "--games", "40", "--players", "3", "--seed", "9",
            "--bots", "random,heuristic,heuristic", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["games"] == 40 and 20 < first["turns_per_game"] < 60
    assert abs(sum(first["win_rate_per_seat"]) - 1) < 1e-9
    assert set(first["win_rate_per_bot"]) == {"random", "heuristic"}
    assert main(["simulate", "--games", "40", "--players", "3", "--seed", "10", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) != first


def test_simulate_text_output(capsys):
    assert main(["simulate", "--games", "5", "--players", "2", "--option", "beginner"]) == 0
    text = capsys.readouterr().out
    assert "Grasshopper Poker: 5 games, 2 players" in text and "plagues" in text


@pytest.mark.parametrize("args,message", [
    (["--players", "5"], "2 to 4 players"),
    (["--bots", "random,genius", "--players", "2"], "unknown bot 'genius'"),
    (["--bots", "random,random,random", "--players", "2"], "names 3 bots for 2 players"),
    (["--option", "turbo"], "unknown option 'turbo'"),
])
def test_simulate_bad_arguments(args, message, capsys):
    assert main(["simulate", "--games", "3", *args]) == 1
    assert message in capsys.readouterr().err


def test_run_with_a_bad_config_exits_2_naming_file_and_key(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("pads:\n  wiring: matrx\n")
    out = run("run", "--config", str(bad))
    assert out.returncode == 2
    assert out.stderr.strip() == (f"pitable: {bad}: pads.wiring: unknown value 'matrx' "
                                  "(choose direct, matrix or keyboard)")
    assert "Traceback" not in out.stderr


def test_check_config_good_and_bad(tmp_path):
    good = run("check-config", "config/pitable.yaml")
    assert good.returncode == 0 and "ok" in good.stdout
    bad = tmp_path / "b.yaml"
    bad.write_text("display:\n  rotate: 5\n")
    out = run("check-config", str(bad))
    assert out.returncode == 2 and "display.rotate" in out.stderr and "Traceback" not in out.stderr


def test_run_starts_without_a_missing_hardware_display(tmp_path):
    """A loose display cable at boot: the daemon still starts (and retries the display)."""
    cfg = tmp_path / "pi.yaml"
    cfg.write_text(f"log_dir: {tmp_path / 'logs'}\nseats: 3\ndisplay:\n  display: ssd1306\n  i2c_port: 97\n"
                   "pads:\n  pin_factory: mock\n  wiring: matrix\n  matrix:\n    rows: [5, 6, 13]\n"
                   "    columns: [4, 17, 27, 22, 23, 24, 25, 12]\n")
    proc = subprocess.Popen([sys.executable, "-m", "pitable", "run", "--config", str(cfg)],
                            stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    lines = []
    for line in proc.stderr:
        lines.append(line)
        if "pitable running" in line:
            break
    proc.terminate()
    assert proc.wait(10) == 0
    text = "".join(lines)
    assert "display not available" in text and "pitable running" in text
    # the pins that share a job are in the journal too (GPIO 4 is 1-wire's default pin): as a
    # note, since 1-wire is off on a stock Pi OS
    assert "note: pins shared with jobs that are off" in text and "1-wire (GPIO 4)" in text
    assert "warning: GPIO 4" not in text


def test_simulate_cockroach_poker(capsys):
    args = ["simulate", "--game", "cockroach", "--games", "30", "--players", "6", "--seed", "3", "--json"]
    assert main(args) == 0
    stats = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == stats  # seeded: repeats exactly
    assert stats["games"] == 30 and sum(stats["reasons"].values()) == 30


def test_replay_cockroach_log_json(tmp_path, capsys):
    path = tmp_path / "c.jsonl"
    path.write_text('{"game": "cockroach", "players": 3, "options": {"first": 2}}\n'
                    '{"pass": {"to": 3, "claim": "bat"}}\n{"call": false}\n{"flip": "fly"}\n')
    assert main(["replay", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["phase"] == "offer" and state["active"] == 2
    assert state["seats"][1]["row"] == {"fly": 1} and state["seats"][1]["hand"] == 21


def test_simulate_strong_with_a_budget_repeats_and_jobs_change_nothing(capsys):
    args = ["simulate", "--games", "6", "--players", "2", "--seed", "4", "--bots", "strong,heuristic",
            "--budget", "6", "--json"]
    assert main(args) == 0
    first = json.loads(capsys.readouterr().out)
    assert first["budget"] == 6 and set(first["win_rate_per_bot"]) == {"strong", "heuristic"}
    assert main(args) == 0
    assert json.loads(capsys.readouterr().out) == first
    args = ["simulate", "--games", "250", "--players", "3", "--seed", "2",
            "--bots", "random,heuristic,random", "--json"]
    assert main(args) == 0
    one = json.loads(capsys.readouterr().out)
    assert main([*args, "--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out) == one


@pytest.mark.parametrize("args,message", [
    (["--budget", "0", "--bots", "strong,heuristic", "--players", "2"], "--budget must be at least 1"),
    (["--jobs", "0"], "--jobs must be at least 1"),
    (["--game", "cockroach", "--bots", "strong", "--players", "3"], "unknown bot 'strong' (bots: random, heuristic)"),
])
def test_simulate_strong_bad_arguments(args, message, capsys):
    assert main(["simulate", "--games", "3", *args]) == 1
    assert message in capsys.readouterr().err


def test_replay_check_assistant_on_a_game_without_it(tmp_path, capsys):
    path = tmp_path / "game.jsonl"
    path.write_text(LOG)
    assert main(["replay", str(path), "--check-assistant"]) == 1
    assert "the assistant did not play in this game" in capsys.readouterr().err


@pytest.mark.parametrize("command", [
    ["replay", "{log}", "--json"], ["replay", "{log}"], ["simulate", "--games", "3"],
    ["check-config", "config/matrix-4-seats.yaml"], ["wiring", "--config", "config/matrix-4-seats.yaml"],
    ["doctor", "--config", "config/pitable.yaml"], ["--help"], ["replay", "--help"], ["--version"],
    ["run", "--config", "{desktop}", "--display", "terminal", "--exit-after-first-frame"],
])
@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.system  # each case a pitable command in its own subprocess (~0.2 s each, 25 cases)
def test_a_closed_pipe_ends_any_command_without_a_traceback(tmp_path, command, unbuffered):
    """`pitable replay --json FILE | head`: the reader is gone before pitable writes. With
    stdout block-buffered (a pipe, as in a user's shell) and unbuffered (PYTHONUNBUFFERED=1)."""
    log = tmp_path / "game.jsonl"
    log.write_text(LOG)
    desktop = tmp_path / "desk.yaml"
    desktop.write_text(f"log_dir: {tmp_path / 'logs'}\npads:\n  wiring: keyboard\n")
    args = [a.format(log=log, desktop=desktop) for a in command]
    read, write = __import__("os").pipe()
    __import__("os").close(read)   # like `| head` that has already quit
    try:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
        if unbuffered:
            env["PYTHONUNBUFFERED"] = "1"
        out = subprocess.run([sys.executable, "-m", "pitable", *args], stdout=write, stderr=subprocess.PIPE,
                             stdin=subprocess.DEVNULL, text=True, timeout=120, env=env)
    finally:
        __import__("os").close(write)
    assert "Traceback" not in out.stderr, out.stderr
    assert "Exception ignored" not in out.stderr, out.stderr
    assert out.returncode in (0, 1, 2, 141), out.returncode
