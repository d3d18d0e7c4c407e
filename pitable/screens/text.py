"""Plain-text views of a game, for people reading a terminal (``pitable replay``)."""

from __future__ import annotations


def counts(d: dict) -> str:
    return ", ".join(f"{n} {kind}" for kind, n in d.items()) or "nothing"


def describe(state) -> str:
    """What a person wants to read about a game's state."""
    data = state.to_json()
    if data.get("game") == "grasshopper":
        return describe_grasshopper(data)
    return describe_cockroach(data)


def describe_grasshopper(data: dict) -> str:
    phase = data["phase"]
    lines = [f"Grasshopper Poker, {data['players']} players, round {data['round']}"
             + ("" if phase == "over" else f", turn {data['turn']}")]
    if phase == "reveal":
        lines.append(f"Waiting for {data['to_reveal']} garden card(s) to be revealed.")
    elif phase == "bidding":
        lines.append("Waiting for everyone's bids.")
    elif phase == "choosing":
        lines.append(f"Waiting for seat {data['chooser']} to choose a kind.")
    else:
        winners = data.get("winners", [])
        lines.append("Game over. " + ("Winner: seat " if len(winners) == 1 else "Shared win: seats ")
                     + ", ".join(str(w) for w in winners))
    lines.append(f"Display: {counts(data['display'])}. Draw pile: {data['pile']}. Discard pile: {data['discard']}.")
    for i, seat in enumerate(data["seats"], 1):
        spent = " ".join(seat["spent"]) or "-"
        lines.append(f"Seat {i}: {seat['chips']} chip(s); garden: {counts(seat['garden'])}; spent: {spent}")
    return "\n".join(lines)


def describe_cockroach(data: dict) -> str:
    phase = data["phase"]
    lines = [f"Cockroach Poker, {data['players']} players, {phase}"]
    if phase == "over":
        lines.append("Lost: seat " + ", ".join(str(s) for s in data.get("losers", [])))
    elif data.get("active"):
        lines.append(f"Seat {data['active']} to act.")
    if data.get("chain"):
        lines.append("Card in play, seen by seats " + ", ".join(str(s) for s in data["chain"])
                     + (f", claimed {data['claim']}" if data.get("claim") else ""))
    for i, seat in enumerate(data["seats"], 1):
        lines.append(f"Seat {i}: {seat['hand']} in hand; face up: {counts(seat['row'])}")
    return "\n".join(lines)
