"""Grasshopper Poker bots and simulations on a virtual deck.

Bots see only what a player at the table sees: the public state (display, gardens,
chips, spent cards) and their own hand. :func:`play` goes through the rules core's
``push`` (a loggable game); :func:`simulate` plays the same games on the rules core's
fast path (the same transitions without validation, undo or results), because its
inputs come from the legal sets already.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from pitable.rules.grasshopper import (ACE, BIDDING, CARDS, CHOOSING, DECK, GRASSHOPPER, HANDS,
                                       KINDS, PLANTS, REVEAL, X, Bids, Choose, Options, State,
                                       VirtualDeck, hand_orders, resolve)


class RandomBot:
    """Any card still in hand, any kind on the display."""

    name = "random"

    def __init__(self, rng: random.Random):
        self.rng = rng
        self.random = rng.random
        self._plan: list = []  # bid_cards: the bids left this round, last turn first
        self._plan_state: State | None = None
        self._plan_seats: tuple[int, ...] | None = None

    # The fast path (simulate, search) works on ints: cards 0..7, kinds 0..4.
    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        return hand[int(self.random() * len(hand))]

    def bid_cards(self, state: State, seats: tuple) -> list:
        """Bids of several seats this bot plays, in ``seats`` order (the fast path)."""
        spent, rand = state.spent, self.random
        plan = self._plan
        if not plan or state is not self._plan_state or seats is not self._plan_seats \
                or len(plan) != len(HANDS[spent[seats[0]]]):
            # Uniform bids turn by turn are a uniform order of each hand: one draw per
            # seat and round instead of one per turn (as State.playout does).
            perms = hand_orders()
            n = len(perms)
            orders = [[c for c in perms[int(rand() * n)] if not spent[s] >> c & 1] for s in seats]
            plan = self._plan = list(zip(*orders))
            plan.reverse()
            self._plan_state, self._plan_seats = state, seats
        return plan.pop()

    def choose_kind(self, state: State, seat: int) -> int:
        present = state.choice_kinds
        return present[int(self.random() * len(present))]

    # The table and push-based games work on names.
    def bid(self, state: State, seat: int) -> str:
        return CARDS[self.bid_card(state, seat)]

    def choose(self, state: State, seat: int) -> str:
        return KINDS[self.choose_kind(state, seat)]


class HeuristicBot(RandomBot):
    """Bids by how much the display is worth to it; takes what completes threes.

    Worth: plants that bring a harvest count most, grasshoppers that would cause
    a plague count heavily against. A rich display draws a high card (the Ace
    when it is very rich), a poor or dangerous one a low card or the X.
    """

    name = "heuristic"

    def kind_value(self, state: State, seat: int, k: int, n: int) -> float:
        return kind_value(state.gardens[seat], k, n)

    def display_value(self, state: State, seat: int) -> float:
        return sum(self.kind_value(state, seat, k, n) for k, n in enumerate(state.display) if n)

    def bid_card(self, state: State, seat: int) -> int:
        hand = HANDS[state.spent[seat]]
        garden = state.gardens[seat]
        values = [kind_value(garden, k, n) for k, n in enumerate(state.display) if n]
        whole = sum(values)
        best = max(values, default=0.0)
        numbers = [c for c in hand if c < ACE]  # ascending
        rng = self.rng
        if ACE in hand and whole >= 5 and whole > best + 1.5:
            return ACE
        if X in hand and (best <= 0 or (ACE not in hand and whole >= 6 and rng.random() < 0.3)):
            return X  # nothing worth having, or a hope to catch someone's Ace
        if not numbers:
            return rng.choice(hand)
        pick = _number_for(numbers, best)
        # A little noise so that bots do not cancel each other in lockstep.
        if rng.random() < 0.25:
            pick = rng.choice(numbers)
        return pick

    def bid_cards(self, state: State, seats: tuple) -> list:
        return [self.bid_card(state, s) for s in seats]

    @staticmethod
    def probabilities(state: State, seat: int) -> dict:
        """How likely :meth:`bid_card` bids each card here: {card: probability}, the same
        branches worked out exactly (the strong player weighs how well this explains a seat's
        bids)."""
        hand = HANDS[state.spent[seat]]
        if len(hand) == 1:
            return {hand[0]: 1.0}
        garden = state.gardens[seat]
        values = [kind_value(garden, k, n) for k, n in enumerate(state.display) if n]
        whole = sum(values)
        best = max(values, default=0.0)
        numbers = [c for c in hand if c < ACE]
        if ACE in hand and whole >= 5 and whole > best + 1.5:
            return {ACE: 1.0}
        out: dict = {}
        mass = 1.0
        if X in hand:
            if best <= 0:
                return {X: 1.0}
            if ACE not in hand and whole >= 6:
                out[X] = 0.3  # the bid_card's 30% try to catch an Ace
                mass = 0.7
        if not numbers:
            for c in hand:
                out[c] = out.get(c, 0.0) + mass / len(hand)
            return out
        pick = _number_for(numbers, best)
        out[pick] = out.get(pick, 0.0) + 0.75 * mass
        for c in numbers:
            out[c] = out.get(c, 0.0) + 0.25 * mass / len(numbers)
        return out

    def choose_kind(self, state: State, seat: int) -> int:
        garden = state.gardens[seat]
        # Ties go to the kind whose name sorts last, as when this bot worked on names.
        return max((kind_value(garden, k, n), KINDS[k], k) for k, n in enumerate(state.display) if n)[2]


def _number_for(numbers: list, best: float) -> int:
    """The heuristic's number for a display whose best kind is worth ``best``: the highest
    for a rich one, the middle one, or the lowest."""
    if best >= 3:
        return numbers[-1]
    if best >= 1.5:
        return numbers[len(numbers) // 2]
    return numbers[0]


def kind_value(garden, k: int, n: int) -> float:
    """What taking ``n`` cards of kind ``k`` is worth to a garden (the heuristic's measure)."""
    if k == GRASSHOPPER:
        return -6.0 * garden_plants(garden) if garden[GRASSHOPPER] + n >= 3 else -0.5 * n
    have = garden[k] + n
    return n + 2.0 * (have // 3) + (0.5 if have % 3 == 2 else 0.0)


def garden_plants(garden) -> int:
    return sum(garden[k] for k in PLANTS)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot}

def play(players: int, bots: list, rng: random.Random, options: Options = Options(),
         seed: int | None = None, on_result=None) -> State:
    """One whole game through ``push``; returns the final state (its ``moves`` are the log).

    ``on_result`` is called with every result value the rules report (Took, Plagued, ...).
    """
    state = State(players, options)
    deck = VirtualDeck(rng.getrandbits(32) if seed is None else seed)
    while True:
        phase = state.phase
        if phase is REVEAL:
            fx = state.push(deck.next_reveal(state))
        elif phase is BIDDING:
            fx = state.push(Bids(tuple(bots[s].bid(state, s) for s in range(players))))
        elif phase is CHOOSING:
            seat = state.chooser
            fx = state.push(Choose(bots[seat].choose(state, seat)))  # type: ignore[index]  # choosing has a chooser
        else:
            return state
        if on_result is not None:
            for result in fx:
                on_result(result)


def play_fast(players: int, bots: list, rng: random.Random, options: Options = Options(),
              seed: int | None = None) -> tuple:
    """One whole game on the fast path (:meth:`State.play_bids` and friends).

    The same game as :func:`play` with the same bots, rng and seed, without the undo
    stack, the move list or result values. Returns (state, turns, stalemates, plagues):
    the counts come from the rules' own :func:`resolve` and from the discard pile
    (grasshoppers reach it only by a plague, at most one per input since one seat
    takes the whole grasshopper stack, or by a second stalemate's discarded display).
    """
    state = State(players, options)
    order: Sequence[int]
    if seed is None:
        # A uniform order of the garden cards: sorted by random keys, one C-level sort
        # (a seeded VirtualDeck shuffles in Python, card by card).
        rand = rng.random
        order = sorted(_FULL_PILE, key=lambda _: rand())
    else:
        order = VirtualDeck(seed).order
    table = _resolutions.setdefault(options, {})
    # Seats played by one bot object bid in one call.
    groups: dict = {}
    for s in range(players):
        groups.setdefault(id(bots[s]), (bots[s], []))[1].append(s)
    bidders = [(bot.bid_cards, tuple(seats)) for bot, seats in groups.values()]
    alone = bidders[0][0] if len(bidders) == 1 else None
    slots = [0] * players
    choosers = [bot.choose_kind for bot in bots]
    pos = turns = stalemates = plagues = 0
    discard = state.discard
    while True:
        phase = state.phase
        if phase is REVEAL:
            n = state.to_reveal
            state.play_reveals(order[pos:pos + n])
            pos += n
            continue
        if phase is BIDDING:
            if alone is not None:
                bids = tuple(alone(state, bidders[0][1]))
            else:
                for bid, seats in bidders:
                    for s, c in zip(seats, bid(state, seats)):
                        slots[s] = c
                bids = tuple(slots)
            turns += 1
            res = table.get(bids)
            if res is None:
                res = table[bids] = resolve(bids, options)
            if res.stalemate:
                stalemates += 1
                state.play_bids(bids)
                discard = state.discard
                continue
            hoppers = discard[0]
            state.play_bids(bids)
        elif phase is CHOOSING:
            seat = state.choosers[0]
            hoppers = discard[0]
            state.play_choice(choosers[seat](state, seat))
        else:
            return state, turns, stalemates, plagues
        discard = state.discard
        if discard[0] != hoppers:
            plagues += 1


_resolutions: dict = {}  # Options -> {bids: Resolution}
_FULL_PILE = tuple(k for k, n in enumerate(DECK) for _ in range(n))


def format_stats(stats: dict) -> str:
    lines = [
        f"Grasshopper Poker: {stats['games']} games, {stats['players']} players, seed {stats['seed']}",
        f"  bots: {', '.join(f'seat {i + 1} {b}' for i, b in enumerate(stats['bots']))}"
        + (f" (strong: {stats['budget']} playouts per bid)" if "budget" in stats else ""),
        f"  per game: {stats['turns_per_game']:.1f} turns, {stats['rounds_per_game']:.2f} rounds, "
        f"{stats['stalemates_per_game']:.2f} stalemates, {stats['plagues_per_game']:.2f} plagues",
        "  seat   chips  wins",
    ]
    for s in range(stats["players"]):
        lines.append(f"  {s + 1:>4}  {stats['chips_per_seat'][s]:6.2f}  {100 * stats['win_rate_per_seat'][s]:5.1f}%")
    lines.append("  bot        chips  wins (per seat it played)")
    for name, rate in stats["win_rate_per_bot"].items():
        lines.append(f"  {name:<9} {stats['chips_per_bot'][name]:6.2f}  {100 * rate:5.1f}%")
    return "\n".join(lines)
