"""Plain-text views of a game, for people reading a terminal (``pitable replay``): each game's
``describe_<game>`` is registered in ``pitable.table.games``."""

from __future__ import annotations

from pitable.i18n import ASSISTANT_SEAT


def counts(d: dict) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in d.items()) or "nothing"


def seat_name(n) -> str:
    """A seat as the table names it: the Pi's seats are Pi, Pi2, ... (i18n.ASSISTANT_SEAT + 1, ...)."""
    if isinstance(n, int) and n > ASSISTANT_SEAT:
        return f"Pi{'' if n == ASSISTANT_SEAT + 1 else n - ASSISTANT_SEAT}"
    return str(n)


def describe_grasshopper(data: dict) -> str:
    phase = data["phase"]
    lines = [f"Grasshopper Poker, {data['players']} players, round {data['round']}"
             + ("" if phase == "over" else f", turn {data['turn']}")]
    if phase == "reveal":
        lines.append(f"Waiting for {data['to_reveal']} garden card(s) to be revealed.")
    elif phase == "bidding":
        lines.append("Waiting for everyone's bids.")
    elif phase == "choosing":
        lines.append(f"Waiting for seat {seat_name(data['chooser'])} to choose a kind.")
    else:
        winners = data.get("winners", [])
        lines.append("Game over. " + ("Winner: seat " if len(winners) == 1 else "Shared win: seats ")
                     + ", ".join(seat_name(w) for w in winners))
    lines.append(f"Display: {counts(data['display'])}. Draw pile: {data['pile']}. Discard pile: {data['discard']}.")
    for seat in data["seats"]:
        spent = " ".join(seat["spent"]) or "-"
        lines.append(f"Seat {seat_name(seat['seat'])}: {seat['chips']} chip(s); "
                     f"garden: {counts(seat['garden'])}; spent: {spent}")
    return "\n".join(lines)


def describe_cockroach(data: dict) -> str:
    phase = data["phase"]
    lines = [f"Cockroach Poker, {data['players']} players, {phase}"]
    if phase == "over":
        lines.append("Lost: seat " + ", ".join(seat_name(s) for s in data.get("losers", [])))
    elif phase == "lay":  # quick mode: the round is played aloud; its taker lays the card
        lines.append(f"Round {data['round']}, started by seat {seat_name(data['active'])}: "
                     "its taker lays the card face up.")
    elif data.get("active"):
        lines.append(f"Seat {seat_name(data['active'])} to act.")
    if data.get("chain"):
        lines.append("Card in play, seen by seats " + ", ".join(seat_name(s) for s in data["chain"])
                     + (f", claimed {data['claim']}" if data.get("claim") else ""))
    for seat in data["seats"]:
        lines.append(f"Seat {seat_name(seat['seat'])}: {seat['hand']} in hand; face up: {counts(seat['row'])}")
    return "\n".join(lines)

