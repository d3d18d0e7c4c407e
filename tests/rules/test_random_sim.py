"""Random whole games of every registered game (after OpenSpiel's ``random_sim_test``): data-driven
over ``pitable.rules.games.GAMES``, so a third game gets these checks by being registered.

At every step of a game played with random legal inputs, at the fewest and the most seats,
with each rule option and each mode: legal inputs are accepted, inputs that are not legal
are refused with IllegalMove and change nothing, ``pop`` then ``push`` gives the same state,
every input survives its log line, and the text log (with the undo lines the table writes)
replays to the live state. Neither rules core keeps a secret (a pending bid lives in the
table, Cockroach Poker's hands are counts), so there is no per-player view to check here:
the table's secrecy is tested in tests/table."""

import random

import pytest

from pitable.errors import IllegalMove
from pitable.rules.games import GAMES
from pitable.rules.log import UNDO, encode, replay

SEEDS = range(3)
CHECKED = 6  # legal inputs tried (push, then pop) and illegal ones refused at each step


def variants(spec):
    """The header options of each variant worth a game: the default, each rule option on,
    each mode (the first player chosen at random where the table chooses one)."""
    out = [{}] + [{name: True} for name in spec.options] + [{"mode": m} for m in spec.modes]
    return [(spec.name, players, options) for players in (spec.min_players, spec.max_players)
            for options in out]


CASES = [case for spec in GAMES.values() for case in variants(spec)]


def start(spec, players, options, rng):
    options = dict(options)
    if spec.first_chosen:
        options["first"] = rng.randrange(players) + 1
    header = spec.new_header(players, options)
    return header, spec.rules.state_from_header(header)


def refused_unchanged(state, move):
    before, moves = state.copy(), list(state.moves)
    with pytest.raises(IllegalMove):
        state.push(move)
    assert state == before and state.moves == moves, f"{move} was refused but changed the state"


def _id(case) -> str:
    name, players, options = case
    return f"{name}-{players}-{','.join(f'{k}={v}' for k, v in options.items()) or 'default'}"


@pytest.mark.parametrize("name, players, options", CASES, ids=[_id(c) for c in CASES])
def test_random_games_accept_the_legal_refuse_the_rest_undo_and_replay(name, players, options):
    random_games(GAMES[name], players, options)


def random_games(spec, players, options):
    """Play SEEDS games of ``spec`` with random legal inputs, checking at every step."""
    for seed in SEEDS:
        rng = random.Random(f"{spec.name} {players} {options} {seed}")
        header, state = start(spec, players, options, rng)
        lines = [encode(header)]
        seen: dict = {}  # every input legal somewhere in this game (in order): the illegal ones come from here
        while True:
            legal = state.legal_moves()
            assert legal or state.is_over(), f"no legal input while waiting for {state.waiting_for()}"
            seen.update(dict.fromkeys(legal))
            allowed = set(legal)
            illegal = [m for m in seen if m not in allowed]
            for move in rng.sample(illegal, min(CHECKED, len(illegal))):
                refused_unchanged(state, move)
            if state.is_over():
                break
            before = state.copy()
            for move in rng.sample(legal, min(CHECKED, len(legal))):
                state.push(move)
                assert state.pop() == move and state == before
            move = rng.choice(legal)
            assert spec.rules.move_from_json(move.to_json()) == move  # the log line is the input
            state.push(move)
            after = state.copy()
            # undo and redo, as the table logs them
            assert state.pop() == move and state == before
            state.push(move)
            assert state == after
            lines += [encode(move.to_json()), encode(UNDO), encode(move.to_json())]
        assert state.outcome is not None
        replayed, log = replay("".join(lines))
        assert log.header == header
        assert replayed == state and replayed.to_json() == state.to_json()
        assert replayed.moves == state.moves



def test_a_game_registered_is_all_these_checks_and_the_log_read(monkeypatch):
    """A third game (tests/rules/nim_game.py) registered in GAMES gets the same random games
    and its logs replay, with no code of the checks or of the log naming it."""
    from pitable.rules import games, log
    from tests.rules import nim_game

    spec = games.GameSpec(nim_game.GAME, "Nim", nim_game, nim_game.MIN_PLAYERS, nim_game.MAX_PLAYERS,
                          options=(), assistant=False, virtual_deck=False, first_chosen=False, losers=True,
                          new_header=nim_game.header)
    monkeypatch.setitem(games.GAMES, spec.name, spec)
    monkeypatch.setattr(log, "GAMES", (*log.GAMES, spec.name))
    for _, players, options in variants(spec):
        random_games(spec, players, options)
    # and the checks see a rules module that breaks its promise: an undo that restores nothing
    monkeypatch.setattr(nim_game.State, "pop", lambda self: self.moves.pop())
    with pytest.raises(AssertionError):
        random_games(spec, 2, {})
