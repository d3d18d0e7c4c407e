"""One seat numbering: a phone at seat 4 is seat 4 on the glass, in /api/state, in
`pitable replay` (text and --json) and in the log's header; never "player 3"."""

from __future__ import annotations

import json

from pitable.cli import main
from pitable.rules.log import by_seat, seats_of
from pitable.table.journal import SUFFIX
from tests.web.test_server import reveal_start, start_game


def test_a_phone_at_seat_4_is_seat_4_in_the_log_replay_state_and_screens(web_table, tmp_path, capsys):
    t = web_table()
    code = start_game(t)                          # pads 1, 2 and the phone at seat 4
    reveal_start(t)
    t.press(1, 0)
    t.press(2, 1)
    t.key(code, 5)                                # bids 1, 2, 6: seat 4 chooses
    while type(t.view()).__name__ != "Choosing":
        t.press(1, 0)                             # read the notices
    assert t.view().seat == 4                     # the glass
    state = json.loads(t.get("/api/state")[2])
    assert state["chooser"] == 4 and [s["seat"] for s in state["seats"]] == [1, 2, 4]
    path = next((tmp_path / "logs0").glob(f"*{SUFFIX}"))
    assert json.loads(path.read_text().split("\n")[0])["pads"] == [1, 2, 4]   # the log names seats in its header
    assert main(["replay", str(path), "--json"]) == 0
    replayed = json.loads(capsys.readouterr().out)
    assert replayed["chooser"] == 4 and [s["seat"] for s in replayed["seats"]] == [1, 2, 4]
    assert {k: v for k, v in state.items() if k not in ("locked", "pads")} == replayed
    assert main(["replay", str(path)]) == 0
    text = capsys.readouterr().out
    assert "Waiting for seat 4 to choose" in text and "Seat 4: 0 chip(s)" in text and "Seat 3" not in text


def test_the_assistants_seats_are_named_as_on_the_glass():
    header = {"game": "grasshopper", "players": 4, "pads": [2, 5],
              "assistant": {"seats": [3, 4], "level": "strong", "budget": 10, "seed": 1}}
    assert seats_of(header, 4) == [2, 5, 101, 102]
    data = {"winners": [3], "seats": [{}, {}, {}, {}], "chooser": 2}
    assert by_seat(data, seats_of(header, 4)) == {"winners": [101], "chooser": 5,
                                                  "seats": [{"seat": 2}, {"seat": 5}, {"seat": 101}, {"seat": 102}]}
