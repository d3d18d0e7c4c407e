"""Cockroach Poker: API fuzzing over random games, and the simulation (pitable.sim.cockroach)."""

import json
import random

import pytest

from pitable.errors import IllegalMove, PitableError
from pitable.rules import cockroach as c
from pitable.rules.cockroach import Call, Flip, Pass, State
from pitable.rules.log import encode, replay
from pitable.sim import cockroach as sim


def _universe(players: int) -> list:
    """Every move worth trying: legal or not."""
    kinds = list(c.KINDS) + ["beetle"]
    return ([Pass(s, k) for s in range(-1, players + 1) for k in kinds]
            + [Call(True), Call(False)] + [Flip(k) for k in kinds])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_fuzz_legal_moves_push_pop_to_json(players):
    universe = _universe(players)
    for seed in range(12):
        rng = random.Random(seed * 10 + players)
        s = State(players, first=seed % players)
        pushes = 0
        while not s.is_over():
            legal = s.legal_moves()
            assert legal, s.waiting_for()
            assert len(set(legal)) == len(legal)
            for m in rng.sample(universe, 12):  # check() agrees with legal_moves()
                assert s.is_legal(m) == (m in legal), (m, s.phase)
            j = s.to_json()
            json.dumps(j)
            assert j["phase"] == s.phase and len(j["seats"]) == players
            assert j["active"] == s.active + 1
            if s.phase == c.OFFER:
                assert "claim" not in j and j["chain"] == []
            else:
                assert j["to"] == j["active"] and j["chain"][-1] == j["from"]
                assert ("call" in j) == (s.phase == c.FLIP)
            if s.can_pop() and rng.random() < 0.15:
                before = s.to_json()
                move = s.pop()
                s.push(move)  # redo gives the same state again
                assert s.to_json() == before
                s.pop()
            else:
                s.push(rng.choice(legal))
                pushes += 1
            assert s.accounted() == 64 and max(s.face_up()) <= 8
        assert s.legal_moves() == []
        j = s.to_json()
        assert j["phase"] == "over" and len(j["losers"]) == 1
        assert sorted(j["losers"] + j["winners"]) == list(range(1, players + 1))
        loser = s.outcome.losers[0]
        if s.outcome.reason == "empty_hand":
            assert s.hands[loser] == 0
        else:
            assert max(s.rows[loser]) == c.loss_count(players)
        assert all(max(r) < c.loss_count(players) for i, r in enumerate(s.rows) if i != loser)


# -- the simulation -------------------------------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_sim_game_keeps_real_cards_and_its_log_replays(players):
    for seed in range(4):
        rng = random.Random(seed)
        bots = [sim.make_bot(rng.choice(sim.BOTS)) for _ in range(players)]
        game = sim.Game(players, seed % players, rng, bots)
        assert len(game.aside) == game.state.aside
        assert [sum(h) for h in game.hands] == game.state.hands
        outcome = game.play()
        assert outcome is game.state.outcome and outcome.losers
        text = encode(c.header(players, seed % players)) + "".join(encode(m.to_json()) for m in game.state.moves)
        replayed, _ = replay(text)
        assert replayed.to_json() == game.state.to_json()
        # Every face-up card came out of a real hand: kinds add up with hands and the set-aside cards.
        for k in range(8):
            assert game.state.face_up()[k] + sum(h[k] for h in game.hands) + game.aside.count(k) == 8
        if players == 2:
            assert game.passes == 0


def test_sim_seeded_runs_repeat_exactly():
    a = sim.simulate(40, 4, 11, ["random", "heuristic", "random", "heuristic"])
    b = sim.simulate(40, 4, 11, ["random", "heuristic", "random", "heuristic"])
    assert a == b
    assert sim.simulate(40, 4, 12, ["random", "heuristic", "random", "heuristic"]) != a
    assert sim.format_stats(a) == sim.format_stats(b)


def test_sim_stats_add_up():
    stats = sim.simulate(60, 3, 2, ["heuristic"])
    assert stats["games"] == 60 and stats["players"] == 3 and stats["bots"] == ["heuristic"] * 3
    assert sum(stats["reasons"].values()) == 60
    assert set(stats["reasons"]) <= {"four_of_a_kind", "empty_hand"}
    assert sum(stats["loss_rate_seat"]) == pytest.approx(1.0)
    assert stats["loss_rate_bot"]["heuristic"] == pytest.approx(1 / 3)
    assert stats["avg_offers"] > 0 and stats["avg_passes"] > 0
    assert 0 <= stats["right_call_rate"] <= 1
    json.dumps(stats)
    two = sim.simulate(30, 2, 2, ["random", "random"])
    assert two["avg_passes"] == 0 and set(two["reasons"]) <= {"five_of_a_kind", "empty_hand"}


def test_sim_heuristic_beats_random():
    stats = sim.simulate(300, 4, 1, ["heuristic", "random", "random", "random"])
    assert stats["loss_rate_bot"]["heuristic"] < 0.25 < stats["loss_rate_bot"]["random"]


def test_sim_format_stats_is_readable():
    text = sim.format_stats(sim.simulate(20, 5, 3, ["random", "heuristic"] * 2 + ["random"]))
    assert text.startswith("Cockroach Poker: 20 games, 5 players, seed 3")
    assert "loss rate per seat: 1:" in text and "heuristic:" in text and "losses:" in text
    assert "Cockroach Poker: 0 games" in sim.format_stats(sim.simulate(0, 3, 0, ["random"]))


@pytest.mark.parametrize("args, words", [
    ((10, 7, 0, ["random"]), "2 to 6 players"),
    ((10, 3, 0, ["random", "random"]), "expected 3 bots"),
    ((10, 3, 0, ["random", "clever", "random"]), "unknown bot 'clever'"),
    ((-1, 3, 0, ["random"]), "games must be"),
])
def test_sim_bad_arguments_refused(args, words):
    with pytest.raises(sim.SimulationError, match=words) as info:
        sim.simulate(*args)
    assert isinstance(info.value, PitableError) and isinstance(info.value, ValueError)
    assert not isinstance(info.value, IllegalMove)
