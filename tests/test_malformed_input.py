"""Malformed input to replay, resume and check-config: one line and the right exit
code, never a traceback, never a stopped daemon.

The named cases from the issue, then fuzzing: random bytes and random JSON shapes
through replay and through the table's resume, random YAML shapes through check-config.
"""

import json
import random
import subprocess
import sys

import pytest
import yaml

from pitable.cli import main
from pitable.config import check_config_main
from pitable.errors import LogError
from pitable.hardware.keys import KeyEvent
from pitable.rules.grasshopper import Options, header
from pitable.rules.log import encode, replay
from pitable.screens.render import render
from pitable.table.app import Table

HEAD = encode(header(2, Options()))
DEEP = "[" * 100000 + "]" * 100000
HUGE = "9" * 5000


def run(*args):
    return subprocess.run([sys.executable, "-m", "pitable", *args], capture_output=True, text=True, timeout=60)


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    return lines[0]


@pytest.mark.parametrize("text,message", [
    (DEEP + "\n", "line 1: not valid JSON (nested too deeply)"),
    (HEAD + DEEP + "\n", "line 2: not valid JSON (nested too deeply)"),
    (HEAD + '{"reveal": ' + HUGE + "}\n", "line 2: not valid JSON (a number with too many digits)"),
    ('{"game": "grasshopper", "players": ' + HUGE + "}\n", "line 1: not valid JSON"),
    ('{"game": "chess", "players": 2}\n', "line 1: unknown game 'chess'"),
    ('{"game": ["grasshopper"], "players": 2}\n', "line 1: unknown game ['grasshopper']"),
    (HEAD + '{"reveal": "' + "x" * 5000 + '"}\n', "line 2: unknown kind"),
    (encode({**header(2, Options()), "pads": ["a", "b"]}), "line 1: header: pads must list"),
    (encode({**header(2, Options()), "deck": "virtual"}), "line 1: header: a virtual deck needs a whole-number seed"),
])
def test_pitable_replay_of_malformed_logs_says_one_line_and_exits_1(tmp_path, text, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text)
    out = run("replay", str(path))
    assert out.returncode == 1
    line = one_line(out.stderr)
    assert message in line and len(line) < 250


@pytest.mark.parametrize("text,message", [
    ("[" * 20000 + "]" * 20000, "YAML nested too deeply"),
    ("a:\n" + "".join(" " * (i + 1) + "- \n" for i in range(3000)), "YAML nested too deeply"),
    ('log_dir: "~nosuchuser/x"\n', "log_dir: cannot expand ~nosuchuser"),
    ('log_dir: "a\\0b"\n', "log_dir: a path cannot hold a NUL character"),
    ("seats: 2026-13-45\n", "line 1: a value YAML cannot read"),
    ("seats: " + HUGE + "\n", "line 1: a value YAML cannot read"),
    ("seats: !!float x\n", "line 1: a value YAML cannot read"),
])
def test_pitable_check_config_of_malformed_yaml_says_one_line_and_exits_2(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    out = run("check-config", str(path))
    assert out.returncode == 2
    line = one_line(out.stderr)
    assert message in line and str(path) in line


# -- fuzzing -------------------------------------------------------------------------------------

WORDS = ["game", "players", "options", "pads", "deck", "seed", "started", "reveal", "bids", "choose",
         "undo", "pass", "call", "flip", "to", "claim", "first", "beginner", "grasshopper", "cockroach",
         "corn", "strawberry", "virtual", "physical", "A", "X", "6", "rat", "toad"]


def value(rng, depth=0):
    r = rng.random()
    if depth > 3 or r < 0.45:
        return rng.choice([0, 1, 2, 3, -1, 7, 10 ** rng.randint(1, 4000), 1.5, float("nan"), True, False, None,
                           rng.choice(WORDS), "", "x" * rng.randint(0, 300), [1, 1], [0, 1], ["a", "b"]])
    if r < 0.7:
        return [value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {rng.choice(WORDS): value(rng, depth + 1) for _ in range(rng.randint(0, 4))}


def random_header(rng):
    game = rng.choice(["grasshopper", "cockroach"])
    head = {"game": game, "players": rng.choice([2, 3, 4]), "options": {} if game == "grasshopper" else {"first": 1}}
    for _ in range(rng.randint(0, 3)):
        head[rng.choice(WORDS[:7])] = value(rng)
    return head


_GAMES: list = []


def real_games():
    """A few real games (header, inputs) of both games, played by random bots once."""
    if not _GAMES:
        from pitable.rules import cockroach as cr
        from pitable.sim import cockroach as crsim
        from pitable.sim.grasshopper import RandomBot, play

        for seed in range(3):
            rng = random.Random(seed)
            head = header(3, Options(), pads=[1, 2, 3], deck="physical", started="2026-11-29T20:00:00")
            moves = play(3, [RandomBot(rng)] * 3, rng, seed=seed).moves
            _GAMES.append((head, [json.dumps(m.to_json()) for m in moves]))
            game = crsim.Game(3, 0, rng, [crsim.RandomBot()] * 3)
            game.play()
            head = cr.header(3, 0, pads=[1, 2, 3], deck="physical", started="2026-11-29T20:00:00")
            _GAMES.append((head, [json.dumps(m.to_json()) for m in game.state.moves]))
    return _GAMES


def random_log(rng):
    """A real game cut short, its header and lines mutated at random; or random bytes."""
    kind = rng.random()
    if kind < 0.1:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 200))).decode("utf-8", errors="replace")
    head, moves = rng.choice(real_games())
    lines = [json.dumps(head)] + moves[: rng.randint(0, len(moves))]
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        at = rng.randrange(len(lines))
        r = rng.random()
        if r < 0.2:
            lines[0] = json.dumps(random_header(rng))
        elif r < 0.5:
            lines[at] = json.dumps(value(rng))
        elif r < 0.6:
            lines.insert(at, json.dumps({"undo": True}))
        elif r < 0.8:
            lines.insert(at, rng.choice(["{", "", "  ", "[" * 3000, "nan", '{"bids": ["1", "2"]}', DEEP, HUGE,
                                         '{"pass": {"to": 9, "claim": "rat"}}', '{"flip": "toad"}']))
        else:
            lines[at] = lines[at][: rng.randrange(len(lines[at]) + 1)]
    text = "\n".join(lines) + "\n"
    if rng.random() < 0.15:
        text = text[: rng.randrange(len(text) + 1)]
    return text


def test_replay_of_any_text_returns_or_says_which_line(tmp_path):
    rng = random.Random(10)
    good = 0
    for _ in range(600):
        text = random_log(rng)
        try:
            replay(text)
            good += 1
        except LogError as e:
            message = str(e)
            assert message.startswith("line ") and "\n" not in message and len(message) < 250, message
    assert 30 <= good <= 570  # both kinds of log were tried


@pytest.mark.system  # every cut of real logs, resumed by whole tables
def test_the_table_resumes_or_says_why_from_any_log(tmp_path):
    """Whatever the newest log holds, the table starts, shows a screen, and destroys nothing."""
    from collections import Counter

    rng = random.Random(20)
    outcomes = Counter()
    for i in range(200):
        logs = tmp_path / f"logs{i}"
        logs.mkdir()
        path = logs / "grasshopper-20261129-200000.jsonl"
        path.write_text(random_log(rng), errors="surrogateescape")
        before = path.read_bytes()
        table = Table(seats=4, log_dir=logs, rng=random.Random(i))
        render(table.view())
        outcomes[type(table.view()).__name__] += 1
        kept = path.read_bytes() + b"".join(p.read_bytes() for p in logs.glob("*.bad"))
        assert kept == before
        for _ in range(20):  # and it takes keys
            table.on_key(KeyEvent(rng.randrange(4), rng.randrange(8), rng.choice(["press", "press", "hold"])))
            table.durable()
            render(table.view())
        if getattr(table.current, "journal", None) is not None and table.current.journal.saving:
            assert replay(table.current.journal.path.read_text())[0] == table.current.state
        table.close()
    assert outcomes["Resumed"] >= 10 and outcomes["Message"] >= 10, outcomes


def yaml_shape(rng, depth=0):
    if depth > 3 or rng.random() < 0.4:
        return rng.choice([0, 1, 4, 7, -3, 0x3C, 2.5, True, None, "", "x", "~nosuchuser/y", "i2c", "ssd1306",
                           "direct", "matrix", "keyboard", "mock", [1, 2], "2026-13-45"])
    if rng.random() < 0.4:
        return [yaml_shape(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["game", "deck", "log_dir", "seats", "display", "pads", "wiring", "direct", "matrix", "rows",
            "columns", "keys", "led", "buzzer", "keyboard", "hold", "bounce", "rotate", "height", "address",
            "interface", "port", "driver", "blank_after", "pin_factory", "leds", "width"]
    return {rng.choice(keys): yaml_shape(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def test_check_config_of_any_yaml_is_ok_or_one_line_per_error_exit_2(tmp_path, capsys):
    rng = random.Random(30)
    path = tmp_path / "fuzz.yaml"
    for i in range(400):
        text = yaml.safe_dump(yaml_shape(rng))
        if i % 4 == 0:  # and broken YAML
            cut = list(text)
            for _ in range(rng.randint(1, 4)):
                cut.insert(rng.randrange(len(cut) + 1), rng.choice(":-[]{}&*!|>'\"#%@`\t\n ?,0"))
            text = "".join(cut)
        path.write_text(text)
        code = check_config_main(path)
        out = capsys.readouterr()
        assert code in (0, 2), text
        if code == 2:
            lines = out.err.strip().splitlines()
            assert lines and all(line.startswith(f"{path}: ") for line in lines), (text, out.err)


def test_main_replay_exit_code_for_a_bad_log(tmp_path, capsys):
    path = tmp_path / "x.jsonl"
    path.write_text(HEAD + DEEP + "\n")
    assert main(["replay", str(path)]) == 1
    assert one_line(capsys.readouterr().err).startswith("pitable: line 2:")


@pytest.mark.parametrize("assistant", [None, {}, False])
def test_replay_check_assistant_without_an_assistant_says_so(tmp_path, capsys, assistant):
    path = tmp_path / "x.jsonl"
    path.write_text(encode({**header(2, Options()), "assistant": assistant}))
    assert main(["replay", str(path), "--check-assistant"]) == 1
    assert "the assistant did not play" in one_line(capsys.readouterr().err)


def test_replay_check_assistant_of_any_game_says_one_line(tmp_path, capsys):
    """The assistant's check replays whatever game its header comes with: 0, or 1 with one line."""
    rng = random.Random(40)
    path = tmp_path / "a.jsonl"
    codes = set()
    for _ in range(30):
        head, moves = real_games()[0]
        level = rng.choice(["easy", "strong"])
        head = {**head, "pads": [1, 2], "assistant": {"seats": [rng.choice([1, 2, 3])], "level": level,
                                                       "budget": 3, "seed": rng.randrange(100)}}
        lines = [json.dumps(head)] + moves[: rng.randint(0, 30)]
        path.write_text("\n".join(lines) + "\n")
        code = main(["replay", str(path), "--check-assistant"])
        err = capsys.readouterr().err
        codes.add(code)
        assert code in (0, 1)
        if code == 1:
            one_line(err)
    assert 1 in codes  # random bots' moves are not the assistant's


def test_the_assistant_check_reads_the_logs_one_header_check():
    """check_log uses rules.log.check_header: a budget the log format refuses (above a
    million playouts) is refused there too, not taken for a valid header and replayed."""
    from pitable.table.assistant import check_log

    head = header(3, Options(), assistant={"seats": [3], "level": "strong", "budget": 2_000_000, "seed": 1})
    bids, choices, problem = check_log(head, [])
    assert (bids, choices) == (0, 0)
    assert problem is not None and "assistant budget must be a whole number from 1 to 1000000" in problem
