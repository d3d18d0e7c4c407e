"""Cockroach Poker simulations: bots playing with a virtual deck.

The rules core (:mod:`pitable.rules.cockroach`) never knows a hand; here the
simulation deals a seeded shuffle of the 64 cards and keeps each seat's real
cards, so bots can choose a card to offer and see the card they peek at. The core
still gets only what the table would enter: passes (with claims), calls and flips.

Seeded runs repeat exactly: all chance comes from one ``random.Random(seed)``.

``pitable simulate --game cockroach`` calls :func:`simulate` and prints
:func:`format_stats`.
"""

from __future__ import annotations

import random

from pitable.errors import PitableError
from pitable.rules import cockroach as rules
from pitable.rules.cockroach import KINDS, PER_KIND, Call, Flip, Pass

BOTS = ("random", "heuristic")
BOT_NAMES = BOTS  # what `pitable simulate --bots` takes
_K8 = tuple(range(len(KINDS)))


class SimulationError(PitableError, ValueError):
    """Bad simulation arguments (unknown bot, wrong number of bots, ...)."""


class View:
    """What one seat knows when it has to decide: the public state, its own real
    hand (count per kind) and the shared random source."""

    __slots__ = ("state", "seat", "hand", "rng")

    def __init__(self, state: rules.State, seat: int, hand: list, rng: random.Random):
        self.state, self.seat, self.hand, self.rng = state, seat, hand, rng

    def random_card(self) -> int:
        """A card drawn uniformly from the hand (a kind index)."""
        i = self.rng.randrange(sum(self.hand))
        for k in _K8:
            i -= self.hand[k]
            if i < 0:
                return k
        raise AssertionError("empty hand")


# -- bots ---------------------------------------------------------------------------
# A bot answers three questions:
#   offer(view) -> (card kind from its hand, target seat, claimed kind)
#   answer(view) -> True / False (a call), or None to peek and pass (asked only when passing is allowed)
#   pass_on(view, kind) -> (target seat, claimed kind), having peeked at the card's real kind


class RandomBot:
    """Random legal actions; claims the truth or a random kind at random."""

    name = "random"

    def _claim(self, view: View, kind: int) -> int:
        return kind if view.rng.random() < 0.5 else view.rng.randrange(len(KINDS))

    def offer(self, view: View) -> tuple:
        rng, state = view.rng, view.state
        kind = view.random_card()
        to = rng.choice([s for s in range(state.players) if s != view.seat])
        return kind, to, self._claim(view, kind)

    def answer(self, view: View):
        if view.state.can_pass() and view.rng.random() < 0.5:
            return None
        return view.rng.random() < 0.5

    def pass_on(self, view: View, kind: int) -> tuple:
        return view.rng.choice(view.state.unseen_seats()), self._claim(view, kind)


class HeuristicBot:
    """Something sensible, using only what a real player knows.

    Offering and passing: push a kind on the seat that has most of it face up
    (a wrong call makes it take the card), preferring kinds the bot itself has few
    of face up (a right call sends the card back); claim the truth now and then,
    bluff otherwise. Answering: estimate the chance that the claim is true from the
    cards not accounted for (64 minus the face-up ones and its own hand) and a
    guess of how often players tell the truth; when unsure, or when a wrong call
    could lose the game, peek and pass if allowed, else call the likelier side.
    """

    name = "heuristic"
    TRUTH = 0.35   # how often it claims the truth, and how often it thinks others do
    SURE = 0.72    # calls (rather than passes) when at least this sure

    def _claim(self, view: View, kind: int, target: int) -> int:
        rng = view.rng
        if rng.random() < self.TRUTH:
            return kind
        others = [k for k in _K8 if k != kind]
        # A bluff naming a kind the target fears (it has many face up) tempts a "false".
        row = view.state.rows[target]
        best = max(row[k] for k in others)
        return rng.choice([k for k in others if row[k] == best]) if best and rng.random() < 0.5 \
            else rng.choice(others)

    def _target(self, view: View, seats: list, kind: int) -> int:
        rows = view.state.rows
        best = max(rows[s][kind] for s in seats)
        return view.rng.choice([s for s in seats if rows[s][kind] == best])

    def offer(self, view: View) -> tuple:
        state, me = view.state, view.seat
        rows = state.rows
        others = [s for s in range(state.players) if s != me]
        best, picks = None, []
        for k in _K8:
            if not view.hand[k]:
                continue
            for s in others:
                score = 2 * rows[s][k] - rows[me][k]
                if best is None or score > best:
                    best, picks = score, [(k, s)]
                elif score == best:
                    picks.append((k, s))
        kind, to = view.rng.choice(picks)
        return kind, to, self._claim(view, kind, to)

    def p_true(self, view: View) -> float:
        """The bot's guess that the card in flight is what is claimed."""
        state = view.state
        k = state.claim
        up = state.face_up()
        unknown = PER_KIND - up[k] - view.hand[k]
        if unknown <= 0:
            return 0.0
        total = rules.DECK_SIZE - sum(up) - sum(view.hand)
        base = unknown / total
        return self.TRUTH + (1 - self.TRUTH) * base

    def answer(self, view: View):
        state, me = view.state, view.seat
        p = self.p_true(view)
        call = p >= 0.5
        if not state.can_pass() or p == 0.0:
            return call
        lose = state.losing_count - 1
        # A "false" that is wrong leaves the claimed kind in my row.
        risky = state.rows[me][state.claim] >= lose
        if risky or max(p, 1 - p) < self.SURE:
            return None
        return call

    def pass_on(self, view: View, kind: int) -> tuple:
        to = self._target(view, view.state.unseen_seats(), kind)
        return to, self._claim(view, kind, to)


def make_bot(name: str):
    if name == "random":
        return RandomBot()
    if name == "heuristic":
        return HeuristicBot()
    raise SimulationError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")


# -- one game ---------------------------------------------------------------------------

class Game:
    """One game with a virtual deck: the core state plus every seat's real hand."""

    def __init__(self, players: int, first: int, rng: random.Random, bots: list):
        self.rng = rng
        self.state = rules.State(players, first)
        deck = [k for k in _K8 for _ in range(PER_KIND)]
        rng.shuffle(deck)
        self.aside = deck[:self.state.aside]  # C1: never played
        self.hands = [[0] * len(KINDS) for _ in range(players)]
        for i, k in enumerate(deck[self.state.aside:]):  # one at a time from the first player
            self.hands[(first + i) % players][k] += 1
        self.bots = bots
        self.card: int | None = None  # the real kind of the card in flight
        self.offers = self.passes = self.right_calls = self.calls = 0

    def view(self, seat: int) -> View:
        return View(self.state, seat, self.hands[seat], self.rng)

    def step(self) -> rules.Move:
        """Decide and push the next input; returns it."""
        state = self.state
        phase = state.phase
        if phase == rules.OFFER:
            seat = state.active
            kind, to, claim = self.bots[seat].offer(self.view(seat))
            self.hands[seat][kind] -= 1
            self.card = kind
            move = Pass(to, KINDS[claim])
            self.offers += 1
        elif phase == rules.ANSWER:
            seat = state.to
            bot = self.bots[seat]
            call = bot.answer(self.view(seat)) if state.can_pass() else _forced(bot, self.view(seat))
            if call is None:
                to, claim = bot.pass_on(self.view(seat), self.card)
                move = Pass(to, KINDS[claim])
                self.passes += 1
            else:
                move = Call(bool(call))
                self.calls += 1
                self.right_calls += bool(call) == (self.card == state.claim)
        elif phase == rules.FLIP:
            move = Flip(KINDS[self.card])
            self.card = None
        else:
            raise AssertionError("the game is over")
        state.push(move)
        return move

    def play(self) -> rules.Outcome:
        while not self.state.is_over():
            self.step()
        assert [sum(h) for h in self.hands] == self.state.hands, "real hands and counts disagree"
        return self.state.outcome


def _forced(bot, view: View) -> bool:
    """The bot's call when passing is not allowed (it must accept)."""
    call = bot.answer(view)
    return bool(call) if call is not None else view.rng.random() < 0.5


# -- many games -----------------------------------------------------------------------

def simulate(games: int, players: int, seed: int, bots: list) -> dict:
    """Play ``games`` games and return statistics (plain values, JSON-ready).

    ``bots``: one name per seat, seat 1 first (or a single name for every seat).
    The first player rotates: game ``g`` starts with seat ``g % players``.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise SimulationError(f"games must be a whole number 0 or more, not {games!r}")
    if isinstance(players, bool) or not isinstance(players, int) \
            or not rules.MIN_PLAYERS <= players <= rules.MAX_PLAYERS:
        raise SimulationError(f"Cockroach Poker is for {rules.MIN_PLAYERS} to {rules.MAX_PLAYERS} "
                              f"players, not {players!r}")
    bots = list(bots)
    if len(bots) == 1:
        bots = bots * players
    if len(bots) != players:
        raise SimulationError(f"expected {players} bots (one per seat) or one for all, got {len(bots)}")
    for name in bots:
        make_bot(name)  # raises on an unknown name
    rng = random.Random(seed)
    seat_losses = [0] * players
    reasons: dict = {}
    offers = passes = calls = right = 0
    for g in range(games):
        game = Game(players, g % players, rng, [make_bot(b) for b in bots])
        outcome = game.play()
        for s in outcome.losers:
            seat_losses[s] += 1
        reasons[outcome.reason] = reasons.get(outcome.reason, 0) + 1
        offers += game.offers
        passes += game.passes
        calls += game.calls
        right += game.right_calls
    n = max(games, 1)
    bot_seats: dict = {}
    for s, b in enumerate(bots):
        bot_seats.setdefault(b, []).append(s)
    return {
        "game": rules.GAME,
        "games": games,
        "players": players,
        "seed": seed,
        "bots": bots,
        "avg_offers": offers / n,
        "avg_passes": passes / n,
        "right_call_rate": right / calls if calls else 0.0,
        "loss_rate_seat": [seat_losses[s] / n for s in range(players)],
        "loss_rate_bot": {b: sum(seat_losses[s] for s in seats) / (n * len(seats))
                          for b, seats in bot_seats.items()},
        "reasons": dict(sorted(reasons.items())),
    }


def format_stats(stats: dict) -> str:
    """The statistics as a few lines for people."""
    lines = [
        f"Cockroach Poker: {stats['games']} games, {stats['players']} players, seed {stats['seed']}",
        f"bots (seat 1 first): {', '.join(stats['bots'])}",
        f"per game: {stats['avg_offers']:.1f} offers (rounds), {stats['avg_passes']:.1f} passes",
        f"right calls: {stats['right_call_rate']:.1%}",
        "loss rate per seat: " + "  ".join(f"{s + 1}: {r:.1%}" for s, r in enumerate(stats["loss_rate_seat"])),
        "loss rate per bot:  " + "  ".join(f"{b}: {r:.1%}" for b, r in stats["loss_rate_bot"].items()),
        f"(a fair share is {1 / stats['players']:.1%})",
    ]
    total = sum(stats["reasons"].values())
    if total:
        lines.append("losses: " + ", ".join(f"{reason.replace('_', ' ')} {n} ({n / total:.0%})"
                                             for reason, n in stats["reasons"].items()))
    return "\n".join(lines)
