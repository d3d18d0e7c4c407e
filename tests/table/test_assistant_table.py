"""The assistant at the Grasshopper Poker table: it takes seats from the join screen or
the config, bids into the secret bids like a pad (never seeing them), chooses by itself,
and its decisions are in the log, made again on resume, and checkable from the header."""

import json
import random

import pytest

from pitable.i18n import msg, words
from pitable.rules.grasshopper import BIDDING, CARD_INDEX, CHOOSING, REVEAL, Bids, Choose
from pitable.rules.log import replay
from pitable.screens import views as v
from pitable.table.app import Table
from pitable.table.assistant import Assistant

from .conftest import play_on, press

PI = 101


def start(table, pads=(1, 2), pi_presses=1, virtual=False):
    press(table, pads[0], 0)  # Grasshopper Poker
    for pad in pads:
        press(table, pad, 0)
    for _ in range(pi_presses):
        press(table, pads[0], 5)  # key 6: the Pi takes a seat (then: strong, easy, 2 seats...)
    press(table, pads[0], 6)  # A: go on
    if virtual:
        press(table, pads[0], 3)
    press(table, pads[0], 6)  # A: start
    return table.current


@pytest.fixture
def pi_table(tmp_path, clock):
    def make(log_dir="logs", **kw):
        kw.setdefault("assistant", {"seats": 0, "level": "strong", "budget": 12})
        return Table(seats=4, log_dir=tmp_path / log_dir, clock=clock, rng=random.Random(7),
                     assistant_worker="inline", **kw)
    return make


def header_of(table):
    return json.loads(table.current.journal.path.read_text().splitlines()[0])


def test_key_6_at_the_join_screen_seats_the_pi_and_the_header_says_so(pi_table):
    table = pi_table()
    press(table, 1, 0)
    press(table, 1, 0)  # one person
    press(table, 1, 6)
    assert words(table.view().toast) == "Need 2 players"
    press(table, 1, 5)
    view = table.view()
    assert view.assistant == (PI,) and view.assistant_level == "strong" and view.can_start
    press(table, 1, 5)
    assert table.view().assistant_level == "easy"
    press(table, 1, 5)
    assert table.view().assistant == (PI, PI + 1)
    press(table, 1, 6)
    press(table, 1, 6)
    game = table.current
    head = header_of(table)
    assert head["players"] == 3 and head["pads"] == [1]
    assert head["assistant"]["seats"] == [2, 3] and head["assistant"]["level"] == "strong"
    assert isinstance(head["assistant"]["seed"], int) and head["assistant"]["budget"] == 12
    assert game.seats == (1, PI, PI + 1)
    # the table reads first who the Pi is and where its garden goes
    text = " ".join(words(line) for n in game.notices if isinstance(n, v.Instructions) for line in n.lines)
    assert "virtual" in text and "beside" in text


def test_the_config_seats_the_pi_and_cockroach_poker_never_does(pi_table):
    table = pi_table(assistant={"seats": 1, "level": "easy", "budget": None})
    press(table, 1, 0)
    press(table, 1, 0)
    assert table.view().assistant == (PI,) and table.view().assistant_level == "easy"
    other = pi_table(log_dir="l2", assistant={"seats": 1, "level": "easy", "budget": None})
    press(other, 1, 1)  # Cockroach Poker: its cards pass between real hands
    press(other, 1, 0)
    assert other.view().assistant == () and not other.view().can_start
    press(other, 1, 5)
    assert other.view().assistant == ()


def test_the_pi_locks_in_like_a_pad_and_its_bid_is_revealed_with_the_others(pi_table):
    table = pi_table()
    game = start(table, pads=(1, 2))
    while game.notices:
        press(table, 1, 5)
    for k in (1, 2, 3):
        press(table, 1, k)  # corn, strawberry, broccoli
    view = table.view()
    assert isinstance(view, v.Bidding) and view.locked == (PI,)  # its box is lit, nothing more
    assert not any("bids" in line for line in game.journal.path.read_text().splitlines())
    press(table, 1, 0)
    press(table, 2, 1)
    bids = [json.loads(line) for line in game.journal.path.read_text().splitlines() if '"bids"' in line]
    assert len(bids) == 1 and bids[0]["bids"][:2] == ["1", "2"]
    assert bids[0]["bids"][2] in ("1", "2", "3", "4", "5", "6", "A", "X")
    revealed = [n for n in game.notices if isinstance(n, v.BidsRevealed)]
    assert revealed and revealed[0].seats == (1, 2, PI)


def test_its_bid_does_not_depend_on_the_pending_bids_or_the_pile_order(pi_table, monkeypatch):
    """The Pi thinks after the people locked in (its answer is held back): the same bid
    whatever they pressed, and what it is given holds no pending bid and no deck."""
    import pitable.sim.search as search

    seen = []
    real = search.decide

    def spy(state, seat, level, seed, budget, past=()):
        seen.append((state, past))
        return real(state, seat, level, seed, budget, past)

    monkeypatch.setattr(search, "decide", spy)
    cards = set()
    revealed = set()  # every table's bids once they were shown
    for n, keys in enumerate([(0, 1), (6, 7), (5, 5), (3, 0)]):
        held = []
        table = pi_table(log_dir=f"l{n}")
        table.post = held.append  # a loop that has not run the answer yet
        game = start(table, pads=(1, 2), virtual=True)
        while game.notices:
            press(table, 1, 5)
        assert game.state.phase is BIDDING and held  # its answer waits on the queue
        press(table, 1, keys[0])
        press(table, 2, keys[1])
        assert 0 in game.pending and 1 in game.pending
        for item in held:
            item()
        bid = next(m for m in game.state.moves if isinstance(m, Bids)).cards[2]
        cards.add(bid)
        revealed.update(tuple(CARD_INDEX[c] for c in m.cards) for m in game.state.moves if isinstance(m, Bids))
        table.close()
    assert len(cards) == 1  # same seed (rng 7), same public position: the same bid
    for state, past in seen:
        assert not hasattr(state, "pending") and not hasattr(state, "deck") and state.history == []
        assert all(bids in revealed for _, bids in past)  # it reads bids only once they are shown
    assert any(past for _, past in seen)  # and it did read them, after the first reveal


def test_the_pi_chooses_by_itself_and_the_whole_game_replays(pi_table):
    table = pi_table()
    game = start(table, pads=(1, 2, 3))
    play_on(table, random.Random(3))
    assert game.state.is_over()
    log = game.journal.path.read_text()
    state, _ = replay(log)
    assert state == game.state or state.to_json() == game.state.to_json()
    pi_choices = 0
    check = Assistant.from_header(header_of(table)["assistant"])
    rules = __import__("pitable.rules.grasshopper", fromlist=["state_from_header"])
    replayed = rules.state_from_header(header_of(table))
    for move in state.moves:
        if isinstance(move, Bids):  # its logged bid is what its seed makes of the position
            assert CARD_INDEX[move.cards[3]] == check.bid_now(replayed, 3)
        if isinstance(move, Choose) and replayed.chooser == 3:
            pi_choices += 1
            assert replayed.display_kinds().index(move.kind) >= 0
        replayed.push(move)
    assert pi_choices > 0


def test_resume_makes_the_same_decision_again(pi_table, tmp_path):
    table = pi_table()
    game = start(table, pads=(1, 2), virtual=True)
    play_on(table, random.Random(5), until=lambda g: g.state.round == 2 and g.state.phase is BIDDING
                and not g.notices)
    assert 2 in game.pending and len(game.pending) < 3  # the Pi has decided, the people not all
    game.journal.close()
    again = pi_table()  # the power came back: same log dir
    resumed = again.current
    # the people's bids were only in memory (they bid again); the Pi's comes back the same
    assert resumed.seats == (1, 2, PI) and resumed.pending == {2: game.pending[2]}
    assert resumed.state == game.state


@pytest.mark.parametrize("entry", [None, [], {"seats": [3]},
                                   {"seats": [1, 2], "level": "strong", "budget": 5, "seed": 1},
                                   {"seats": [2], "level": "hard", "budget": 5, "seed": 1},
                                   {"seats": [2], "level": "easy", "budget": "5", "seed": 1},
                                   {"seats": [9], "level": "easy", "budget": 5, "seed": 1}])
def test_a_damaged_assistant_header_is_not_resumed_and_nothing_crashes(pi_table, entry):
    table = pi_table()
    start(table, pads=(1, 2))
    path = table.current.journal.path
    table.close()
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["assistant"] = entry
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    again = pi_table()
    view = again.view()
    if isinstance(view, v.Message):  # the table says the last game was not resumed
        assert view.title == msg("log.not_resumed.title")
        press(again, 1, 7)
    assert isinstance(again.view(), v.Setup)  # a new game instead of a crash loop


def test_an_answer_for_a_position_undone_meanwhile_is_dropped_and_it_thinks_again(pi_table):
    held = []
    table = pi_table()
    table.post = held.append  # the loop has not run its answer yet
    game = start(table, pads=(1, 2))
    while game.notices:
        press(table, 1, 5)
    for k in (1, 2, 3):
        press(table, 1, k)
    assert game.state.phase is BIDDING and len(held) == 1
    press(table, 1, 7, "hold")  # hold X: undo the last reveal
    press(table, 1, 6)          # A: confirm
    assert game.state.phase is REVEAL
    held.pop(0)()               # the stale answer arrives: nothing locks in
    assert game.pending == {} and game.state.phase is REVEAL
    press(table, 1, 4)          # blackberry instead
    assert game.state.phase is BIDDING and len(held) == 1
    held.pop(0)()
    assert set(game.pending) == {2} and isinstance(table.view(), v.Bidding) and table.view().locked == (PI,)


def test_pitable_replay_checks_the_assistants_decisions(pi_table, capsys):
    from pitable.cli import main

    table = pi_table()
    game = start(table, pads=(1, 2, 3))
    play_on(table, random.Random(8))
    path = game.journal.path
    assert main(["replay", str(path), "--json", "--check-assistant"]) == 0
    err = capsys.readouterr().err
    assert "made again from its seed: all the same" in err and " 0 bids" not in err
    # a log whose header names another seed: the decisions differ, and the first is named
    lines = path.read_text().splitlines()
    head = json.loads(lines[0])
    head["assistant"]["seed"] += 1
    path.write_text("\n".join([json.dumps(head)] + lines[1:]) + "\n")
    assert main(["replay", str(path), "--check-assistant"]) == 1
    err = capsys.readouterr().err
    assert "assistant: input " in err and "its seed makes" in err


def test_key_6_never_seats_more_than_four_players_and_a_fourth_person_is_refused(pi_table):
    table = pi_table()
    press(table, 1, 0)
    for pad in (1, 2, 3):
        press(table, pad, 0)
    seen = set()
    for _ in range(8):
        press(table, 2, 5)
        seen.add((len(table.view().assistant), table.view().assistant_level))
    assert seen == {(0, None), (1, "strong"), (1, "easy")}  # 3 people: room for one Pi
    while table.view().assistant != (PI,):
        press(table, 2, 5)
    press(table, 4, 0)  # a fourth person would make five
    assert words(table.view().toast) == "At most 4 players" and 4 not in table.view().joined


def test_the_pi_searches_its_choice_off_the_loop_and_the_screen_says_it_is_thinking(pi_table):
    """The strong level's choice is a search too: asked off the loop like its bids. Until it
    answers, the choosing screen names the Pi and says it is thinking; a person's key does not
    choose for it (the toast says who chooses); its answer is committed as a choice."""
    table = pi_table()
    game = start(table, pads=(1, 2))
    held = []

    def post(item):  # the loop's queue, holding back only the Pi's choice
        st = game.state
        if st.phase is CHOOSING and st.chooser in game.assistant.players:
            held.append(item)
        else:
            item()

    table.post = post
    play_on(table, random.Random(5), until=lambda g: bool(held))
    assert held, "the Pi never had to choose in this game"
    while game.notices or game.overlay:
        press(table, 1, 5)
    view = table.view()
    assert isinstance(view, v.Choosing) and view.seat == PI and words(view.toast) == "Pi is thinking"
    moves = len(game.state.moves)
    press(table, 1, 0)
    assert len(game.state.moves) == moves and "chooses now" in words(table.view().toast)
    for item in held:
        item()
    assert isinstance(game.state.moves[moves], Choose)  # its answer, committed as its choice


def test_the_table_numbers_the_pis_seats_as_replay_does_whatever_the_headers_order(tmp_path):
    """A hand-edited header may list the Pi's seats out of order: the screens must still
    call the same player "Pi" as `pitable replay` and /api/state (rules.log.seats_of)."""
    from pitable.rules import grasshopper as gh
    from pitable.rules.log import seats_of
    from pitable.table.app import Table
    from pitable.table.journal import NoJournal

    header = gh.header(4, gh.Options(), pads=[1, 2], deck="physical",
                       assistant={"seats": [4, 3], "level": "easy", "budget": 10, "seed": 1})
    table = Table(seats=2, log_dir=tmp_path)
    controller = table._controller(gh.state_from_header(header), header, NoJournal(OSError(28, "a test: no log")),
                                   resumed=False)
    assert controller.seats == tuple(seats_of(header, 4)) == (1, 2, 101, 102)
