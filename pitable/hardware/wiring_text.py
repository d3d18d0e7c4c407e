"""``pitable wiring`` as text (a terminal) and as Markdown (docs/wiring.md), from one model."""

from __future__ import annotations

from pitable.hardware.wiring import KEY_NAMES, Wiring, bite_warnings, checklist

__all__ = ["as_text", "as_markdown", "as_checklist"]

ORIENTATION = ("Header seen from above with the board's edge away from you: pin 1 at the bottom "
               "left (from below, its solder pad is the square one); odd pins are the inner row, "
               "even pins the row at the edge.")


def as_text(wiring: Wiring, source: str) -> str:
    lines = [f"{source}: {_summary(wiring)}", ""]
    lines.append(ORIENTATION)
    lines.append("")
    if wiring.uses:
        width = max(len(u.what) for u in wiring.uses)
        lines.append(f"{'pin':>4}  {'GPIO':>4}  {'for':<{width}}  config key")
        for u in wiring.uses:
            gpio = "-" if u.bcm is None else str(u.bcm)
            lines.append(f"{u.board:>4}  {gpio:>4}  {u.what:<{width}}  {u.path}".rstrip())
    for bcm, why in wiring.reserved:
        lines.append(f"Leave GPIO {bcm} free: {why}.")
    if wiring.kind in ("direct", "matrix"):
        lines += ["", "By pad (keys 1 2 3 4 5 6 A X):"]
        lines += [f"  {line}" for line in _pad_lines(wiring)]
    if wiring.notes:
        lines.append("")
        lines += wiring.notes
    jobs = _jobs(wiring)
    if jobs:
        lines += ["", "Pins with another job:"] + [f"  {j}" for j in jobs]
    if wiring.hub:
        lines += ["", "The hub, pin by pin (from the header pin outwards):"]
        lines += [f"  {line}" for line in _hub_lines(wiring)]
    if wiring.contacts:
        lines += ["", "Every pad's DA-15 (the same on each; 1-8 the top row, 9-15 below, between them):"]
        lines.append("  " + "  ".join(f"{c}:{sig}" for c, sig in wiring.contacts))
    if wiring.display_connector:
        lines += ["", "The display's keyed connector on the hub (pin: signal, header pin):"]
        lines.append("  " + "  ".join(f"{i}:{sig} (pin {b})" for i, sig, b in wiring.display_connector))
    if wiring.budget:
        lines += ["", "Low-level budget (what a pressed key's line shows at the Pi):"]
        lines += [f"  {b}" for b in wiring.budget]
    if wiring.parts:
        lines += ["", "Parts (with spares to order on top):"]
        for p in wiring.parts:
            note = f"  ({p.note})" if p.note else ""
            spare = f" (+{p.spare} spare)" if p.spare else ""
            lines.append(f"  {p.count:>3} x {p.name}{spare}{note}")
    if wiring.kind in ("direct", "matrix"):
        what = ("where each lead goes, then pitable pads" if wiring.build == "jumpers"
                else "continuity, then voltages, then pitable pads")
        lines += ["", f"Before first power: pitable wiring --checklist ({what})."]
    return "\n".join(lines) + "\n"


def _jobs(w: Wiring) -> list[str]:
    """Every pad pin with another job, in full; check-config warns only where the builder
    must act (a job that is off, or that install.sh keeps off, gets a one-line note)."""
    out = []
    for b in bite_warnings(w):
        text = b.message().removeprefix("warning: ")
        out.append(text + (f" Here: {b.bite.quiet}." if b.bite.quiet else " Here: you must act."))
    return out


def _hub_lines(w: Wiring) -> list[str]:
    out = []
    for h in w.hub:
        steps = []
        if h.series:
            steps.append(f"{h.series} in series")
        if h.pull_up:
            steps.append(f"{h.pull_up} to the 3V3 rail")
        if h.cap:
            steps.append(f"{h.cap} to ground")
        chain = " -> ".join(steps + [h.to]) if steps else h.to
        out.append(f"pin {h.board:>2} ({h.what}): {chain}")
    return out


def as_checklist(wiring: Wiring, source: str) -> str:
    """``pitable wiring --checklist``: the checks before first power, for this config."""
    lines = [f"{source}: before first power ({_summary(wiring)})", ""]
    lines += checklist(wiring)
    return "\n".join(lines) + "\n"


def _summary(w: Wiring) -> str:
    seats = f"{w.seats} seat" + ("s" if w.seats != 1 else "")
    return f"{seats}, {w.kind} wiring, display {w.display}"


def _pad_lines(w: Wiring) -> list[str]:
    out = []
    if w.kind == "direct":
        for s in range(w.seats):
            keys = [w.key_pins(s, k) for k in range(len(KEY_NAMES))]
            text = "  ".join(f"{KEY_NAMES[k]}:{p[0].board}" for k, p in enumerate(keys) if p)
            extra = [u for u in w.seat_pins(s) if u.role in ("led", "buzzer", "ground")]
            more = "".join(f", {u.role.upper() if u.role != 'ground' else 'GND'} pin {u.board}"
                           for u in extra)
            out.append(f"seat {s + 1}: pins {text}{more}")
    else:
        cols = {u.key: u for u in w.of_role("column")}
        out.append("columns (every pad): pins "
                   + "  ".join(f"{KEY_NAMES[k]}:{cols[k].board}" for k in sorted(cols)))
        for u in sorted(w.of_role("row"), key=lambda u: u.seat):
            extra = [x for x in w.seat_pins(u.seat) if x.role in ("led", "ground")]
            more = "".join(f", {'LED' if x.role == 'led' else 'GND'} pin {x.board}" for x in extra)
            out.append(f"seat {u.seat + 1}: row pin {u.board}{more}")
    return out


def _cell(u) -> str:
    return f"{u.bcm} [{u.board}]" if u.bcm is not None else f"[{u.board}]"


def as_markdown(wiring: Wiring, source: str, picture: str | None = None) -> str:
    """A docs/wiring.md section for one config: the pads' table, the rest, the parts."""
    out = []
    if picture:
        out += [f"![wiring of {source}]({picture})", ""]
        stem = picture.removesuffix(".svg")
        if wiring.kind in ("direct", "matrix") and wiring.build == "hub":
            out += [f"![the hub of {source}, solder side]({stem}-hub.svg)", "",
                    f"![one pad of {source}]({stem}-pad.svg)", "",
                    f"![the cables of {source}]({stem}-cable.svg)", ""]
    if wiring.kind == "direct":
        out.append("| seat | " + " | ".join(KEY_NAMES) + " | LED | ground |")
        out.append("| --- " * (len(KEY_NAMES) + 3) + "|")
        for s in range(wiring.seats):
            cells = [_cell(wiring.key_pins(s, k)[0]) for k in range(len(KEY_NAMES))]
            led = [u for u in wiring.seat_pins(s) if u.role == "led"]
            gnd = [u for u in wiring.seat_pins(s) if u.role == "ground"]
            out.append(f"| {s + 1} | " + " | ".join(cells)
                       + f" | {_cell(led[0]) if led else '-'} | {_cell(gnd[0]) if gnd else '-'} |")
    elif wiring.kind == "matrix":
        cols = {u.key: u for u in wiring.of_role("column")}
        out.append("| key | " + " | ".join(KEY_NAMES) + " |")
        out.append("| --- " * (len(KEY_NAMES) + 1) + "|")
        out.append("| column | " + " | ".join(_cell(cols[k]) for k in sorted(cols)) + " |")
        out.append("")
        out.append("| seat | row | LED | ground |")
        out.append("| --- | --- | --- | --- |")
        for u in sorted(wiring.of_role("row"), key=lambda u: u.seat):
            led = [x for x in wiring.seat_pins(u.seat) if x.role == "led"]
            gnd = [x for x in wiring.seat_pins(u.seat) if x.role == "ground"]
            out.append(f"| {u.seat + 1} | {_cell(u)} | {_cell(led[0]) if led else '-'} "
                       f"| {_cell(gnd[0]) if gnd else '-'} |")
    display = [u for u in wiring.uses if u.role in ("display", "power")
               or (u.role == "ground" and u.seat is None)]
    if display:
        out.append("")
        out.append("Display: " + ", ".join(
            f"{u.what.removeprefix('display ')} {_cell(u)}" for u in display) + ".")
    notes = list(wiring.notes) + [f"Leave GPIO {bcm} free ({why})." for bcm, why in wiring.reserved]
    notes += [f"Another job: {j}" for j in _jobs(wiring)]
    if notes:
        out.append("")
        out += [f"- {note}" for note in notes]
    if wiring.contacts:
        out += ["", "Every pad's DA-15 (the same on each pad):", "",
                "| contact | " + " | ".join(str(c) for c, _ in wiring.contacts) + " |",
                "| --- " * (len(wiring.contacts) + 1) + "|",
                "| signal | " + " | ".join(sig for _, sig in wiring.contacts) + " |"]
    if wiring.display_connector:
        out += ["", "The display's keyed connector on the hub: "
                + ", ".join(f"{i} {sig} [{b}]" for i, sig, b in wiring.display_connector) + "."]
    if wiring.hub:
        out += ["", "| hub pin | line | on the hub, from the pin outwards |", "| ---: | --- | --- |"]
        for line, h in zip(_hub_lines(wiring), wiring.hub):
            out.append(f"| {h.board} | {h.what} | {line.split(': ', 1)[1]} |")
    if wiring.budget:
        out += ["", "Low-level budget: " + " ".join(wiring.budget)]
    if wiring.parts:
        out += ["", "| parts | spare | | |", "| ---: | ---: | --- | --- |"]
        out += [f"| {p.count} | {p.spare or ''} | {p.name} | {p.note} |" for p in wiring.parts]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------- docs/wiring.md, per config

DOC_BEGIN = "<!-- wiring: made by scripts/wiring_docs.py from config/*.yaml; edit those, not this -->"
DOC_END = "<!-- end of wiring -->"
# the order in docs/wiring.md: the default first, then by how many seats
DOC_ORDER = ("pitable.yaml", "direct-3-seats.yaml", "matrix-4-seats.yaml", "matrix-6-seats.yaml",
             "spi-ssd1309.yaml", "no-solder-3-seats.yaml")


def doc_order(names):
    """Config file names in the doc's order (any new one at the end, by name)."""
    known = [n for n in DOC_ORDER if n in names]
    return known + sorted(n for n in names if n not in DOC_ORDER)


def doc_section(entries) -> str:
    """The generated part of docs/wiring.md: for each ``(source, wiring, picture)``, a
    heading, the picture, the tables, the notes and the parts."""
    out = [DOC_BEGIN]
    for source, wiring, picture in entries:
        out += ["", f"### `{source}`: {_summary(wiring)}", ""]
        out.append(as_markdown(wiring, source, picture).rstrip("\n"))
    out += ["", DOC_END]
    return "\n".join(out) + "\n"
