"""The JSON Lines game log: reading, torn last lines, errors that name the line."""

import pytest

from pitable.errors import LogError
from pitable.rules.grasshopper import Options, header
from pitable.rules.log import encode, read_log, replay

HEAD = encode(header(2, Options()))
START = HEAD + '{"reveal": "corn"}\n{"reveal": "corn"}\n{"reveal": "strawberry"}\n'


def test_header_then_one_input_per_line():
    state, log = replay(START + '{"bids": ["6", "X"]}\n')
    assert log.header == {"game": "grasshopper", "players": 2,
                          "options": {"beginner": False, "x_takes_cancelled_ace": False,
                                      "end_on_empty_pile": False}}
    assert state.to_json()["seats"][0]["garden"] == {"corn": 2, "strawberry": 1}  # G6 lone chooser


def test_extra_header_keys_are_allowed():
    text = encode({"game": "grasshopper", "players": 2, "options": {}, "deck": "virtual", "seed": 4,
                   "started": "2026-11-29T20:00:00"})
    state, log = replay(text)
    assert log.header["seed"] == 4 and state.phase == "reveal"


def test_torn_last_line_is_ignored_with_a_warning():
    state, log = replay(START + '{"bids": ["6", ')
    assert log.warnings == ["line 5: ignored a last line cut short (no final newline)"]
    assert state.phase == "bidding"


def test_undo_line_takes_back_the_last_input():
    state, _ = replay(START + '{"undo": true}\n')
    assert state.phase == "reveal" and state.to_reveal == 1


@pytest.mark.parametrize("text,message", [
    ("", "line 1: the log is empty"),
    ('{"players": 2}\n', 'line 1: the first line must be a header with a "game" key'),
    ('{"game": "chess", "players": 2}\n', "unknown game 'chess'"),
    ('{"game": "grasshopper", "players": 7}\n', "line 1: Grasshopper Poker is for 2 to 4 players"),
    ('{"game": "grasshopper", "players": 2, "options": {"fast": true}}\n', "line 1: unknown option 'fast'"),
    (HEAD + "not json\n", "line 2: not valid JSON"),
    (HEAD + "[1, 2]\n", "line 2: expected a JSON object, got list"),
    (HEAD + '{"bids": ["1", "2"]}\n', "line 2: bids are not expected now"),
    (START + '{"bids": ["6", "6", "6"]}\n', "line 5: expected 2 bids"),
    (START + '{"reveal": "corn"}\n', "line 5: no card is to be revealed now"),
    (START + '{"bid": ["6", "1"]}\n', "line 5: unknown input 'bid'"),
    (START + '{"bids": ["6", "1"], "choose": "corn"}\n', "line 5: expected an object with one key"),
    (HEAD + '{"undo": true}\n', "line 2: nothing to undo"),
])
def test_bad_logs_name_the_line_and_the_problem(text, message):
    with pytest.raises(LogError) as err:
        replay(text)
    assert message in str(err.value)
    assert "\n" not in str(err.value)


def test_blank_lines_are_skipped():
    log = read_log(HEAD + "\n" + '{"reveal": "corn"}\n')
    assert log.entries == [(3, {"reveal": "corn"})]


@pytest.mark.parametrize("text,message", [
    (HEAD + '{"reveal": ["corn"]}\n', "line 2: unknown kind ['corn']"),
    (HEAD + '{"reveal": null}\n', "line 2: unknown kind None"),
    (START + '{"bids": [["1"], "2"]}\n', "line 5: seat 1: unknown card ['1']"),
])
def test_values_of_the_wrong_type_are_refused_with_the_line(text, message):
    """Not a crash: JSON can hold lists where a name belongs."""
    with pytest.raises(LogError) as err:
        replay(text)
    assert message in str(err.value)


ASSIST = {"seats": [3], "level": "strong", "budget": 200, "seed": 5}


@pytest.mark.parametrize("extra,message", [
    ({"pads": ["a", "b"]}, "line 1: header: pads must list distinct pad numbers"),
    ({"pads": 3}, "line 1: header: pads must list"),
    ({"pads": [1, 1]}, "line 1: header: pads must list distinct"),
    ({"pads": [0, 1]}, "line 1: header: pads must list"),
    ({"pads": [1, 2, 3]}, "line 1: header: pads names 3 pads for 2 players"),
    ({"deck": "virtual"}, "line 1: header: a virtual deck needs a whole-number seed"),
    ({"deck": "virtual", "seed": [1]}, "line 1: header: a virtual deck needs a whole-number seed"),
    ({"deck": "virtual", "seed": True}, "line 1: header: a virtual deck needs"),
    ({"deck": "paper"}, "line 1: header: deck must be physical or virtual"),
    ({"started": 5}, "line 1: header: started must be a time"),
    ({"players": 3, "assistant": 1}, "line 1: header: assistant must be an object"),
    ({"players": 3, "assistant": {**ASSIST, "seats": [4]}}, "assistant seats must list some of the players 1 to 3"),
    ({"players": 3, "assistant": {**ASSIST, "seats": [1, 2, 3]}}, "assistant seats must list"),
    ({"players": 3, "assistant": {**ASSIST, "level": "god"}}, "assistant level must be easy or strong"),
    ({"players": 3, "assistant": {**ASSIST, "budget": 10 ** 9}}, "assistant budget must be a whole number"),
    ({"players": 3, "assistant": {**ASSIST, "seed": None}}, "assistant seed must be a whole number"),
    ({"players": 3, "pads": [1, 2, 4], "assistant": ASSIST}, "pads names 3 pads for 2 players at pads"),
])
def test_the_header_is_checked_in_one_place(extra, message):
    """What the table adds to the header (pads, deck, seed, the assistant) is
    checked by replay as by resume: a header that would crash or hang the table is a bad log."""
    with pytest.raises(LogError) as err:
        replay(encode({**header(2, Options()), **extra}))
    assert message in str(err.value)


def test_a_header_with_the_assistant_and_its_pads_replays():
    state, log = replay(encode({**header(3, Options()), "pads": [2, 4], "assistant": ASSIST}))
    assert state.players == 3


def test_every_assistant_level_a_log_may_name_is_one_the_search_plays():
    from pitable.rules.grasshopper import BIDDING, new_game
    from pitable.rules.log import ASSISTANT_LEVELS
    from pitable.sim.search import decide

    state = new_game(3)
    while state.phase is not BIDDING:
        state.push(state.legal_moves()[0])
    for level in ASSISTANT_LEVELS:
        assert decide(state.copy(), 0, level, 1, 20, ()) in range(8)


def test_a_rules_regression_is_raised_not_taken_for_a_damaged_log(monkeypatch):
    """Only what a bad line can cause is a LogError; a bug in the rules' push fails loudly,
    so that a resume does not set a good log's tail aside as damaged."""
    from pitable.rules import grasshopper
    from pitable.rules.log import replay_good_part

    text = HEAD + '{"reveal": "rose"}\n'

    def broken_push(self, move):
        raise TypeError("a bug in push")

    monkeypatch.setattr(grasshopper.State, "push", broken_push)
    with pytest.raises(TypeError, match="a bug in push"):
        replay(text)
    with pytest.raises(TypeError, match="a bug in push"):
        replay_good_part(text)
