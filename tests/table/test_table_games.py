"""The table side of every registered game (pitable/table/games.py): what the table, the CLI
and the web pages look up there is there, for each game the rules register."""

import importlib
import random

import pytest

from pitable.errors import PitableError
from pitable.rules.games import GAMES, NAMES
from pitable.rules.log import by_seat, check_header, encode, replay
from pitable.table.games import TABLE_GAMES, table_game
from pitable.web import payload


def test_every_game_of_the_rules_has_its_table_side_and_no_other():
    assert list(TABLE_GAMES) == list(NAMES)
    assert all(table_game(name).spec is GAMES[name] and table_game(name).name == name for name in NAMES)


def test_an_unknown_game_is_a_clear_error_at_the_table_too():
    with pytest.raises(PitableError, match=r"unknown game 'poker' \(games: grasshopper, cockroach\)"):
        table_game("poker")


def choice_for(spec, seats):
    return {"game": spec.name, "seats": seats, "deck": "physical", "options": {}, "first": seats[-1],
            "mode": (spec.modes or (None,))[0], "assistant": {"seats": 0, "level": "strong"}}


@pytest.mark.parametrize("name", NAMES)
def test_a_game_starts_from_the_set_ups_choice_with_a_header_the_log_takes(name):
    played = table_game(name)
    seats = tuple(range(2, 2 + played.spec.min_players))  # pads 2.., not 1..: the header keeps them
    header = played.new_header(choice_for(played.spec, seats), seats, {"pads": list(seats), "deck": "physical"},
                               rng=random.Random(1), assistant={})
    assert header["game"] == name and header["pads"] == list(seats)
    state = check_header(header)  # the one check replay and resume make
    assert state == played.spec.rules.state_from_header(header)
    assert replay(encode(header))[0] == state


@pytest.mark.parametrize("name", NAMES)
def test_replay_describes_each_game_and_simulate_and_the_web_know_it(name):
    played = table_game(name)
    state = played.spec.rules.state_from_header(played.spec.new_header(played.spec.min_players, {}))
    text = played.describe(by_seat(state.to_json(), range(1, state.players + 1)))
    assert text.startswith(f"{played.spec.title}, {state.players} players")
    sim = importlib.import_module(played.simulation)
    assert callable(sim.simulate) and callable(sim.format_stats) and "random" in sim.BOT_NAMES
    assert played.board in payload.BOARDS and played.board in payload.SCORES
