"""The league (league/): its bots play legally from the public state, and its round-robin
is seeded, rotates every seat and rates every bot."""

import io
import os
import random

import pytest

from league import bots, run
from pitable.cli import main
from pitable.rules.grasshopper import CHOOSING, HANDS, REVEAL, Bids, State, VirtualDeck
from pitable.sim import grasshopper as sim
from tests.sim.test_grasshopper_search import position as search_position


def position(seed, players=3, bids_until=5):
    """A real position reached by heuristic games: bidding after some turns."""
    return search_position(seed, players, bids_until)[0]


LEAGUE_BOTS = [
    lambda seed: bots.ISMCTSBot(seed, budget=40),
    lambda seed: bots.RegretBot(seed, budget=40),
    lambda seed: bots.SensibleBot(seed),
    lambda seed: bots.ExploitBot(seed, budget=24, strong_budget=16),
]


@pytest.mark.parametrize("make", LEAGUE_BOTS, ids=["ismcts", "regret", "sensible", "exploit"])
def test_a_league_bot_bids_a_card_in_hand_from_the_public_state_and_repeats_with_its_seed(make):
    for seed in (1, 2, 3):
        state = position(seed, players=2 + seed % 3, bids_until=seed * 3)
        before = state.copy()
        bid = make(7).bid_card(state, 1)
        assert bid in HANDS[state.spent[1]]
        assert make(7).bid_card(state.copy(), 1) == bid
        assert state == before  # it plays on copies: the table's state is untouched


def test_a_league_bot_chooses_a_kind_on_the_display():
    for seed in range(1, 30):
        rng = random.Random(seed)
        state = State(3)
        deck = VirtualDeck(seed)
        while state.phase is not CHOOSING and not state.is_over():
            if state.phase is REVEAL:
                state.push(deck.next_reveal(state))
            else:
                state.push(Bids(tuple(sim.RandomBot(rng).bid(state, s) for s in range(3))))
        if state.phase is CHOOSING:
            seat = state.chooser
            for bot in (bots.ISMCTSBot(1, budget=20), bots.SensibleBot(1), bots.RegretBot(1, budget=20)):
                assert bot.choose_kind(state.copy(), seat) in state.choice_kinds
            return
    pytest.fail("no choice reached")


def test_the_greedy_choice_never_takes_a_plague_while_another_kind_is_there():
    state = position(4, players=2)
    state.gardens[0] = [2, 1, 0, 0, 0]
    state.display = [1, 0, 2, 0, 0]
    state.phase, state.choosers, state._present = CHOOSING, [0], [0, 2]
    assert bots.greedy_choice(state, 0) == 2


def test_the_round_robin_is_seeded_rotates_every_seat_and_rates_every_bot():
    entrants = ("heuristic", "random", "sensible")
    tables = run.schedule(entrants, ("heuristic",), {2: 4, 3: 3, 4: 4})
    assert {(p, names) for p, names, _ in tables} == {
        (2, ("heuristic", "random")), (2, ("heuristic", "sensible")), (2, ("random", "sensible")),
        (3, ("heuristic", "random", "random")), (3, ("heuristic", "sensible", "sensible")),
        (4, ("heuristic",) + ("random",) * 3), (4, ("heuristic",) + ("sensible",) * 3)}
    seats_of_heuristic = {(p, run._job((5, t, g, p, names, {}))[2].index("heuristic"))
                          for t, (p, names, n) in enumerate(tables) for g in range(n) if "heuristic" in names}
    assert seats_of_heuristic >= {(p, s) for p in (2, 3, 4) for s in range(p)}
    outs = []
    for _ in range(2):
        out = io.StringIO()
        result = run.run(5, entrants, ("heuristic",), {2: 4, 3: 3, 4: 4}, out=out)
        outs.append(out.getvalue())
    assert _same_but_cpu(outs[0], outs[1])  # CPU times differ, nothing else
    assert set(result["ratings"]) == set(entrants)
    assert result["h2h"]["2p heuristic vs random"][1] == 4


def _same_but_cpu(a, b):
    cut = "CPU per bid"
    return a.split(cut)[0] == b.split(cut)[0]


def test_the_wilson_interval_holds_the_rate_and_narrows_with_games():
    lo, hi = run.wilson(30, 50)
    assert lo < 0.6 < hi
    lo2, hi2 = run.wilson(300, 500)
    assert lo < lo2 < 0.6 < hi2 < hi


def test_pitable_league_prints_ratings_head_to_head_and_cpu(capsys):
    assert main(["league", "--bots", "heuristic,random", "--focus", "heuristic", "--games", "2,2,2",
                 "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "rating" in out and "heuristic" in out and "random" in out
    assert "2p heuristic vs random" in out and "4p heuristic vs 3 x random" in out
    assert "CPU per bid" in out


def test_the_players_that_model_others_are_handed_the_revealed_bids_and_nothing_else(monkeypatch):
    """play_game hands a bot with ``past`` the game's last revealed bids before each bid, as
    the table hands them to the Pi: the positions they met and the bids, no pending one."""
    from pitable.sim.search import PAST

    seen = []

    class Spy(sim.HeuristicBot):
        past = ()

        def bid_card(self, state, seat):
            seen.append((state.copy(), tuple(self.past)))
            return super().bid_card(state, seat)

    real_make = run.make
    monkeypatch.setattr(run, "make", lambda name, seed, budgets: Spy(random.Random(seed)) if name == "spy"
                        else real_make(name, seed, budgets))
    run.play_game(("spy", "heuristic", "heuristic"), "past/1", {})
    assert len(seen) > PAST + 2
    for n, (_state, past) in enumerate(seen):
        assert len(past) == min(n, PAST)
        if n:
            before, bids = seen[n - 1][0], past[-1][1]
            assert past[-1][0]._snapshot() == before._snapshot()  # the position they were bid at
            assert len(bids) == 3 and all(c in HANDS[before.spent[s]] for s, c in enumerate(bids))


def test_a_budget_for_one_table_size_applies_at_that_size_only(monkeypatch):
    """``--budget 4:ismcts=300``: the search bots can get, size by size, the CPU per bid strong takes."""
    got = {}
    monkeypatch.setattr(run, "run", lambda seed, bots, focus, games, budgets, *a, **k: got.update(budgets))
    assert run.main(["--budget", "ismcts=200", "--budget", "4:ismcts=300", "--budget", "strong=150"]) == 0
    assert got == {"ismcts": 200, "ismcts@4": 300, "strong": 150}
    assert run.budgets_at(got, 4) == {"ismcts": 300, "strong": 150}
    assert run.budgets_at(got, 2) == run.budgets_at(got, 3) == {"ismcts": 200, "strong": 150}
    made = []
    monkeypatch.setattr(run, "make", lambda name, seed, budgets: made.append(budgets["ismcts"]) or
                        sim.HeuristicBot(random.Random(seed)))
    run.play_game(("ismcts",) * 4, "sized/1", got)
    run.play_game(("ismcts",) * 2, "sized/1", got)
    assert made == [300] * 4 + [200] * 2


@pytest.mark.parametrize("cls", ["Cand", "Cand2", "CandK", "CandM", "CandM3", "CandB", "CandB2", "RealX", "RealC",
                                 "RealHP", "RealCut"])
def test_the_second_rounds_candidates_still_play_legal_games(cls):
    """league/candidates.py keeps the candidates of docs/assistant-player.md's table playable:
    each plays a whole 2-player game (small budgets) through league.match's loop."""
    from league import candidates, match

    spec = {"cls": cls, "budget": 24}
    if cls == "RealHP":
        spec.update(halving=True, pool=True, searcher="duct")
    elif cls == "RealCut":
        spec.update(rounds=1, min_players=2)  # cut playouts at 2 players too, to be played here
    elif cls not in ("Cand", "RealX"):
        spec["choice_budget"] = 0 if cls.startswith("CandB") or cls.startswith("CandM") or cls == "CandK" else 8
    match.SPEC, match.OPP = spec, "heuristic"
    winners, cpu, bids = match.play(("cand", "heuristic"), f"cand/{cls}", {})
    assert winners and set(winners) <= {0, 1} and min(bids) > 10
    assert hasattr(candidates, cls)


def test_foresight_scores_every_model_on_the_opponents_bids(capsys, monkeypatch):
    """league/foresight.py: every model strong weighs is scored on the same bids, and an
    opponent foreseen by itself with another seed is among them (small budgets)."""
    from league import foresight

    monkeypatch.setattr(foresight, "BUDGET", 16)
    assert foresight.main(["heuristic", "2", "2", "30"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = {line.split()[0] + ("" if line.split()[1].endswith("%") else " " + line.split()[1]): line
            for line in out[2:]}
    assert {"rm^1", "duct^12", "heuristic", "no preference", "heuristic again"} <= set(rows)
    assert all(line.split()[-1] == "30" for line in out[2:])
    assert foresight.main([]) == 2


def test_a_resumed_league_plays_only_the_games_its_record_lacks(tmp_path, monkeypatch):
    """``--resume``: a record's games count and are not played again; the rest are, and the
    summary is the one a whole run gives."""
    record = tmp_path / "league.jsonl"
    whole = run.run(4, ("heuristic", "random"), ("heuristic",), {2: 4, 3: 2, 4: 2}, out=io.StringIO(),
                    record_to=str(record))
    head, *lines = record.read_text().splitlines()
    record.write_text("\n".join([head] + lines[:5]) + "\n")  # a run cut short
    played = []
    real_job = run._job
    monkeypatch.setattr(run, "_job", lambda job: played.append(job[1:3]) or real_job(job))
    again = run.run(4, ("heuristic", "random"), ("heuristic",), {2: 4, 3: 2, 4: 2}, out=io.StringIO(),
                    record_to=str(record), resume=True)
    kept = {tuple(__import__("json").loads(line)[:2]) for line in lines[:5]}
    assert len(played) == len(lines) - 5 and not kept & set(played)
    assert {k: v for k, v in again.items() if k != "cpu_ms_per_bid"} == \
        {k: v for k, v in whole.items() if k != "cpu_ms_per_bid"}  # the same games, so the same ratings
    assert len(record.read_text().splitlines()) == len(lines) + 2  # each run names its commit first
    commits = run.record_commits(str(record))
    assert len(commits) == 2 and commits[0] == commits[1] == run.played_at()
    # a copy without git (the tests in a plain root) names no commit, and says so with None
    from pathlib import Path
    in_git = (Path(run.__file__).resolve().parents[1] / ".git").exists()
    assert (len(commits[0]["commit"]) == 40 and isinstance(commits[0]["dirty"], bool)) if in_git else \
        commits[0]["commit"] is None
    with pytest.raises(ValueError, match="another table"):
        run.run(4, ("random", "heuristic"), ("random",), {2: 4, 3: 2, 4: 2}, out=io.StringIO(),
                record_to=str(record), resume=True)


@pytest.mark.system  # a pitable command in its own subprocess
def test_pitable_league_imports_the_clones_league_and_nothing_else_of_the_clone(tmp_path):
    """From any folder, ``pitable league`` plays with the clone's league/, and the clone's root
    is not put on the import path (its tests and benchmarks stay unimportable)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    code = ("import sys; from pitable.cli import main; "
            "code = main(['league', '--bots', 'heuristic,random', '--games', '2,0,0', '--seed', '3']); "
            f"print('RESULT', code, {str(root)!r} in sys.path, 'league.run' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                         timeout=120, env={**os.environ, "PYTHONPATH": ""})
    assert out.stdout.splitlines()[-1] == "RESULT 0 False True", out.stdout + out.stderr
