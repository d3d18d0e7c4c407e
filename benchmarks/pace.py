"""How many presses a game takes, and how many of them only turn a page.

Cockroach Poker tables (2-6 seats) too, in quick mode (the taker presses the critter it
lays face up: one press a round) and in full mode (offer, claim, passes, call, the card),
per round: the same games, dealt from one seeded deck and played by the simulation's bots.

Plays seeded whole Grasshopper Poker games through the real controllers on simulated pads
(``pitable.harness.SimTable``: pins, debounce, key tracker, loop, controllers, journal;
a hand-moved clock; the config's defaults) and
counts, per bidding turn and per game, the presses the rules need (a bid a person makes, a
choice, one key per real garden card turned up) apart from the presses that only turn a page
("Any key: next", the bids reveal, the resumed notice). Each kind of table is one line:

    python benchmarks/pace.py [--games N] [--json]

A person is modelled as reading each new screen for a reaction time before pressing; no
press is wasted (every needed key is the one the screen asks for).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pitable.i18n import ASSISTANT_SEAT  # noqa: E402
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL, Bids  # noqa: E402
from pitable.harness import ManualClock, SimTable  # noqa: E402

TABLES = [(players, deck, pi) for players in (2, 3, 4) for deck in ("physical", "virtual")
          for pi in (False, True) if not (pi and players < 2)]


def start(sim, humans: int, deck: str, pi: bool) -> None:
    sim.tap(1, 0)                       # 1: Grasshopper Poker
    for pad in range(1, humans + 1):
        sim.tap(pad, 0)                 # join
    if pi:
        sim.tap(1, 5)                   # 6: the Pi plays a seat
    sim.tap(1, 6)                       # A: options
    if deck == "virtual":
        sim.tap(1, 3)                   # 4: Cards: virtual
    sim.tap(1, 6)                       # A: start


def p(values, q):
    values = sorted(values)
    if not values:
        return 0
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def play(players: int, deck: str, pi: bool, seed: int, root: Path) -> dict:
    humans = players - (1 if pi else 0)
    rng = random.Random(seed)
    seats = max(humans, 2)
    sim = SimTable(root / f"{players}{deck}{pi}{seed}", seats=seats, clock=ManualClock(),
                   wiring="direct" if seats <= 3 else "matrix",
                   deck="physical", rng=random.Random(seed),
                   assistant={"seats": 0, "level": "easy"}, assistant_worker="inline")
    try:
        start(sim, humans, deck, pi)
        game = sim.game
        turns = []                      # per bidding turn: [needed, pages]
        pre = [0, 0]                    # before the first bids (setup's pages, the first display)
        current = pre
        for _ in range(5000):
            st = game.state
            if st.is_over():
                break
            bids = sum(1 for m in st.moves if isinstance(m, Bids))
            if bids > len(turns):
                turns.append([0, 0])
            current = turns[-1] if turns else pre
            if game.overlay or game.notices:
                if type(sim.view()).__name__ == "BidsRevealed":
                    # people read the bids: the table holds them reveal_seconds, and goes on
                    # by itself after notice_seconds (or reveal_seconds, where it does)
                    since = sim.changed_at
                    sim._wait(getattr(game, "reveal_seconds", 0) + 0.05)
                    if type(sim.view()).__name__ != "BidsRevealed" or sim.changed_at != since:
                        continue                    # gone on by itself: no press
                sim.tap(1, 5)
                current[1] += 1
            elif st.phase is REVEAL:
                by = game._reveal_by if game._named() else None
                sim.tap(by or game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]]))
                current[0] += 1
            elif st.phase is BIDDING:
                for player, pad in enumerate(game.seats):
                    if pad <= ASSISTANT_SEAT and player not in game.pending:
                        sim.tap(pad, rng.choice([c for c in range(8) if not st.spent[player] >> c & 1]))
                        current[0] += 1
                        break
                else:
                    sim._wait(0.2)      # the Pi thinks
            elif st.phase is CHOOSING:
                if game.seats[st.chooser] > ASSISTANT_SEAT:
                    sim._wait(0.2)
                    continue
                kinds = [k for k in range(5) if st.display[k]]
                kind = rng.choice(kinds)
                moves = len(st.moves)
                sim.tap(game.seats[st.chooser], kind)       # a kind's one key (as in card entry)
                if len(st.moves) == moves:                  # a table that numbers kinds by position
                    sim.tap(game.seats[st.chooser], kinds.index(kind))
                current[0] += 1
        else:
            raise RuntimeError("the game did not end")
        return {"turns": turns, "pre": pre}
    finally:
        sim.close()


def play_cockroach(players: int, mode: str, seed: int, root: Path) -> dict:
    """One seeded Cockroach Poker game through the real table on simulated pads. The
    round's talk is played by the simulation's bots on the full rules with a shuffled
    deck; in quick mode the taker presses the critter it lays face up (the screen's key
    table), in full mode every offer, claim, pass and call is entered, and the card."""
    from pitable.rules import cockroach as cr
    from pitable.sim.cockroach import Game, make_bot

    first = seed % players
    # half the seats careful (they pass when unsure), half playing by whim
    talk = Game(players, first, random.Random(seed),
                [make_bot("heuristic" if (s + seed) % 2 else "random") for s in range(players)])
    sim = SimTable(root / f"cr{players}{mode}{seed}", seats=players, clock=ManualClock(),
                   wiring="direct" if players <= 3 else "matrix", rng=random.Random(seed))
    try:
        sim.tap(1, 1)                   # 2: Cockroach Poker
        for pad in range(1, players + 1):
            sim.tap(pad, 0)
        sim.tap(1, 6)                   # A: options
        for _ in range(first):
            sim.tap(1, 0)               # 1: the first player
        if mode == cr.FULL:
            sim.tap(1, 1)               # 2: mode full (quick is the default)
        sim.tap(1, 6)                   # A: start
        game = sim.game
        pre = [0, 0]
        rounds = []
        while game.notices:             # the deal: read while the cards are dealt
            sim.tap(1, 7)
            pre[1] += 1

        def pages(current):
            while game.notices or game.overlay:
                sim.tap(game.seats[0], 7)
                current[1] += 1

        while not talk.state.is_over():
            current = [0, 0]
            rounds.append(current)
            while True:
                st = talk.state
                phase, active, to = st.phase, st.active, st.to
                move = talk.step()
                if mode == cr.QUICK:
                    took = [e for e in talk.state.last if isinstance(e, cr.Took)]
                    if took:
                        sim.tap(game.seats[took[0].seat], cr.KINDS.index(took[0].kind))
                        current[0] += 1
                        break
                    continue
                if isinstance(move, cr.Pass):
                    seat = active if phase == cr.OFFER else to
                    if not (players == 2 and phase == cr.OFFER):
                        sim.tap(game.seats[seat], game.seats[move.to] - 1)   # the seat
                        current[0] += 1
                    sim.tap(game.seats[seat], cr.KINDS.index(move.claim))     # the claim
                    current[0] += 1
                elif isinstance(move, cr.Call):
                    sim.tap(game.seats[to], 6 if move.true else 7)
                    current[0] += 1
                else:
                    sim.tap(game.seats[to], cr.KINDS.index(move.kind))
                    current[0] += 1
                    pages(current)      # the card's result pages
                    break
            if mode == cr.QUICK:
                pages(current)
            if game.state.to_json()["seats"] != talk.state.to_json()["seats"]:
                raise RuntimeError("the table and the talk disagree")
        if not game.state.is_over() or game.state.outcome != talk.state.outcome:
            raise RuntimeError("the game did not end as its rules say")
        return {"turns": rounds, "pre": pre, "reason": talk.state.outcome.reason}
    finally:
        sim.close()


def measure_cockroach(games: int) -> list:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for players in range(2, 7):
            for mode in ("quick", "full"):
                needed, pages, game_needed, game_pages = [], [], [], []
                for seed in range(games):
                    got = play_cockroach(players, mode, seed, Path(tmp))
                    needed += [t[0] for t in got["turns"]]
                    pages += [t[1] for t in got["turns"]]
                    game_needed.append(sum(t[0] for t in got["turns"]) + got["pre"][0])
                    game_pages.append(sum(t[1] for t in got["turns"]) + got["pre"][1])
                out.append({"game": "cockroach", "players": players, "mode": mode, "games": games,
                            "rounds": len(needed),
                            "needed_round": {"median": statistics.median(needed), "p90": p(needed, 0.9),
                                             "max": max(needed)},
                            "pages_round": {"median": statistics.median(pages), "p90": p(pages, 0.9),
                                            "max": max(pages)},
                            "needed_game": statistics.median(game_needed),
                            "pages_game": statistics.median(game_pages)})
    return out


def measure(games: int) -> list:
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        for players, deck, pi in TABLES:
            per_turn_needed, per_turn_pages, per_game_needed, per_game_pages = [], [], [], []
            for seed in range(games):
                got = play(players, deck, pi, seed, root)
                per_turn_needed += [t[0] for t in got["turns"]]
                per_turn_pages += [t[1] for t in got["turns"]]
                per_game_needed.append(sum(t[0] for t in got["turns"]) + got["pre"][0])
                per_game_pages.append(sum(t[1] for t in got["turns"]) + got["pre"][1])
            with_page = sum(1 for n in per_turn_pages if n)
            out.append({
                "players": players, "deck": deck, "pi": pi, "games": games, "turns": len(per_turn_pages),
                "needed_turn": {"median": statistics.median(per_turn_needed), "p90": p(per_turn_needed, 0.9),
                                "max": max(per_turn_needed)},
                "pages_turn": {"median": statistics.median(per_turn_pages), "p90": p(per_turn_pages, 0.9),
                               "max": max(per_turn_pages)},
                "turns_with_page_press": round(with_page / len(per_turn_pages), 3),
                "needed_game": statistics.median(per_game_needed),
                "pages_game": statistics.median(per_game_pages),
            })
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="seeded games per kind of table (default 2)")
    ap.add_argument("--json", action="store_true", help="print JSON instead of lines")
    ap.add_argument("--game", choices=("grasshopper", "cockroach", "both"), default="both",
                    help="which game's tables (default both)")
    args = ap.parse_args(argv)
    rows = measure(args.games) if args.game != "cockroach" else []
    crows = measure_cockroach(args.games) if args.game != "grasshopper" else []
    if args.json:
        print(json.dumps(rows + crows, indent=1))
        return 0
    for r in crows:
        n, g = r["needed_round"], r["pages_round"]
        print(f"Cockroach {r['players']}p {r['mode']:5}: {r['rounds']} rounds; presses/round median {n['median']:g} "
              f"p90 {n['p90']} max {n['max']}; page-only presses/round median {g['median']:g} p90 {g['p90']} "
              f"max {g['max']}; per game {r['needed_game']:g}, page-only {r['pages_game']:g} "
              f"(the deal's pages included)")
    for r in rows:
        n, g = r["needed_turn"], r["pages_turn"]
        print(f"{r['players']}p {'real' if r['deck'] == 'physical' else 'virtual'} cards"
              f"{' +Pi' if r['pi'] else '    '}: {r['turns']} turns; needed presses/turn median {n['median']:g} "
              f"p90 {n['p90']} max {n['max']}; page-only presses/turn median {g['median']:g} p90 {g['p90']} "
              f"max {g['max']}, in {r['turns_with_page_press']:.0%} of turns; per game needed "
              f"{r['needed_game']:g}, page-only {r['pages_game']:g}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
