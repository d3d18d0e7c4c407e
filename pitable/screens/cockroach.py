"""Cockroach Poker screens: one function per view type, each drawing on a ``Canvas``.

Keys (see ``pitable.table.cockroach``): where a seat is asked for, keys 1-6 are seats;
where a critter is asked for, the 8 keys 1 2 3 4 5 6 A X are the 8 critters in
order, so every critter is drawn under the label of its key.
"""

from __future__ import annotations

from pitable.i18n import msg
from pitable.screens import font, icons
from pitable.screens.views import label as key_label  # what a key does, as the screen's key table says
from pitable.screens.widgets import (H, W, Canvas, bottom, columns, fit_scale, hints, key, key_width, open_key,
                                     layout_paragraph, overhang, seat_boxes, top_row)

ARROW = font.ARROW
from pitable.keys import NAMES as KEY_LABELS  # noqa: E402


def critter_keys(c: Canvas, y: int, name_dy: int = 1, lit: str | None = None, keys: tuple = ()) -> int:
    """The eight critters named, two columns of four, each after the key that names it
    (so a new player finds "stink bug"). ``name_dy``: the names' capitals below the caps'
    tops (0 when the keys end on the frame's last row: "fly" keeps its tail). Returns the
    height used (descenders included)."""
    pitch = 9
    # as the key table says
    names = [c.say(key_label(keys, i, msg(f"kind.{kind}"))) for i, kind in enumerate(icons.CRITTERS)]
    for i, (label, kind) in enumerate(zip(KEY_LABELS, icons.CRITTERS)):
        row = y + (i % 4) * pitch
        name = names[i]
        # 2 px between a cap and its name where the row has room ("Stinkwanze" and
        # "Kakerlake" share a row in German: 1 px there, the two names stay apart)
        pair = (i % 4, i % 4 + 4)
        roomy = sum(key_width(KEY_LABELS[j]) + 2 + font.text_width(names[j]) for j in pair) + 4 <= W
        gap = 2 if roomy else 1
        # the critter claimed so far: its key cap drawn open (a frame, its label lit)
        # rather than its name cut out of a lit bar: a 9 px row has no room for a bar
        # that keeps the dot under "bọ" and the foot of the g of "gián" (nor the row above's)
        claimed = kind == lit
        if i < 4:  # keys 1-4 down the left edge, names after them
            kw = open_key(c, 0, row, label) if claimed else key(c, 0, row, label)
            c.text(kw + gap, row + name_dy, name)
        else:      # keys 5, 6, A, X down the right edge, names before them
            kw = key_width(label)
            (open_key if claimed else key)(c, W - kw, row, label)
            c.text(W - kw - 1 - gap, row + name_dy, name, align="right")
    return 4 * pitch + 1


def claim_line(c: Canvas, y: int, kind: str, small: bool = False) -> None:
    """The critter's picture and name as big as fits, centred: 24 px tall, or 12 (``small``)."""
    name = c.say(msg(f"kind.{kind}"))
    im = icons.icon(kind, 1 if small else 2)
    room = W - im.width - 3
    scale = fit_scale(name, room, (2, 1)) or 1
    total = im.width + 3 + font.text_width(name, scale)
    x = max(0, (W - total) // 2)
    c.paste(im, x, y, what=f"icon {kind}")
    tall = 12 if small else 24
    c.text(x + im.width + 3, y + max(overhang(name, scale), (tall - font.ASCENT * scale) // 2), name, scale)


def _claim_step(c: Canvas, sender: int, target: int, note=None, back: bool = True, said: str | None = None,
                keys: tuple = ()) -> None:
    """Passing on or offering, second step: which critter it is said to be. ``note``: a
    row above the footer (the claim received when passing on; the only receiver with two
    players); ``back``: hold X goes back to the seat (not when the seat chose itself);
    ``said``: the critter claimed so far, its name lit in the list of keys."""
    head = c.say(msg("cr.to_claim", sender=sender, target=target))
    c.text(0, overhang(head), head)
    # one row higher than the answer's list when a note needs the row above the footer
    critter_keys(c, 10 if note is None else 9, lit=said, keys=keys)
    if note is not None:
        text = c.say(note)
        c.text_fit(0, 46 + overhang(text), W, text, scales=(1,))
    if back:
        text = c.say(msg("cr.hold_x_back"))
        c.text(W - 1, H - 9 + overhang(text), text, align="right")


def draw_offer(c: Canvas, v) -> None:
    if v.step == "target":
        head = c.say(msg("cr.offers", seat=v.seat))
        c.text_fit(0, overhang(head, 2), W, head, scales=(2, 1))
        seat_boxes(c, 18, 39, v.seats, ())
        _own_seat_dimmed(c, v.seats, v.seat, 18, 39)
        _hand_counts(c, 42, v.seats, v.hands)
        others = tuple(s for s in v.seats if s != v.seat)
        c.text(0, 55, c.say(msg("cr.press_seat", seats=others)))
    else:
        only = getattr(v, "only", False)
        _claim_step(c, v.seat, v.target, msg("cr.only_target", target=v.target) if only else None, back=not only)


def _own_seat_dimmed(c: Canvas, seats, seat, y0, y1) -> None:
    """Cross out the box of the seat that cannot be picked (one does not offer to oneself)."""
    seats = tuple(seats)
    if seat not in seats:
        return
    gap = 3 if len(seats) <= 4 else 2
    a, b = columns(len(seats), 0, W - 1, gap)[seats.index(seat)]
    c.line(a + 2, y1 - 2, b - 2, y0 + 2)


def _hand_counts(c: Canvas, y: int, seats, hands) -> None:
    gap = 3 if len(seats) <= 4 else 2
    mark = icons.mark("hand")
    inked = mark.getbbox()[2]  # type: ignore[index]  # (never blank) the count right after its mark (a digit leads with its own blank column): it reads with its own mark, not the next
    for n, (a, b) in zip(hands, columns(len(seats), 0, W - 1, gap)):
        label = str(n)
        w = inked + font.text_width(label)
        x = (a + b + 1 - w) // 2
        if w > b - a + 1:
            x, mark_shown = (a + b + 1 - font.text_width(label)) // 2, False
        else:
            mark_shown = True
        if mark_shown:
            c.paste(mark, x, y, what="hand")
            x += inked
        c.text(x, y, label)


def draw_answer(c: Canvas, v) -> None:
    if v.step == "claim":  # passing on: the claim received stays in sight
        _claim_step(c, v.seat, v.target, msg("cr.said", sender=v.sender, kind=msg(f"kind.{v.claim}")),
                    said=v.claim, keys=v.keys)
        return
    head = c.say(msg("cr.it_is_a", sender=v.sender, seat=v.seat))
    c.text(0, overhang(head), head)
    # who may still get it (C4), or, when nobody may, who has seen it
    rows: tuple[str, ...]
    if v.can_pass:
        rows = (c.say(msg("cr.may_pass", seats=tuple(v.pass_to))),)
    elif v.forced == "all_seen":
        rows = (c.say(msg("cr.all_seen")),)
    elif v.forced == "two_players":
        rows = (c.say(msg("cr.two_call")),)
    elif len(v.seen) > 1:
        rows = (c.say(msg("cr.seen", seats=tuple(v.seen))),)
    else:
        rows = ()
    block = layout_paragraph(rows, W, H - 10 - 35, scales=(1,))
    if not block.cut:
        claim_line(c, 10, v.claim)
        c.block(0, 35, W, block)
    else:  # a long list of seats (six players): the claim smaller, every seat in sight
        claim_line(c, 10, v.claim, small=True)
        block = layout_paragraph(rows, W, H - 10 - 24, scales=(1,))
        c.block(0, 24, W, block)
    hints(c, H - 10, [("A", c.say(key_label(v.keys, 6, msg("key.true")))),
                      ("X", c.say(key_label(v.keys, 7, msg("key.false"))))], x0=0, x1=W - 1)


def draw_flip(c: Canvas, v) -> None:
    """The card is turned face up: who called what on which critter, then the 8 keys."""
    said = c.say(msg("cr.called_true" if v.call else "cr.called_false", seat=v.seat, kind=msg(f"kind.{v.claim}")))
    anyone = c.say(msg("cr.flip_anyone"))  # who presses: any seat may report the face-up card
    block = layout_paragraph((said, anyone), W, 27, scales=(1,))
    c.block(0, 0, W, block)
    critter_keys(c, H - 36, name_dy=0, keys=v.keys)


def draw_rows(c: Canvas, v) -> None:
    """Face-up rows: one line per seat (its label, its hand count), one column per
    critter; a count one short of losing (C6: 4, or 5 with two players) is lit."""
    n = len(v.seats)
    # how the overlay closes (it also goes by itself); seats one short of losing (their
    # cells are lit) are named there rather than how to go back: "S4: one more loses"
    short = tuple(seat for seat, row in zip(v.seats, v.rows) if any(n == v.lose_at - 1 for n in row.values()))
    foot = c.say(msg("cr.rows.one_more", seats=short) if short else msg("foot.back"))
    if short and font.text_width(foot) > W:
        foot = c.say(msg("foot.back"))  # too many to name: the lit cells say it
    rows_end = H - 9 - overhang(foot) - 1  # the last row (a lit cell included) ends above the footer's marks
    if 14 + (n - 1) * 8 + 7 > rows_end:
        # six rows under the pictures leave no room for the footer: each count is drawn
        # after its critter's small picture instead (no header), and the footer stays
        _rows_marked(c, v, foot)
        return
    left = 30
    cols = [(left + i * 12, left + i * 12 + 11) for i in range(8)]
    for kind, (a, _) in zip(icons.CRITTERS, cols):
        c.paste(icons.icon(kind), a, 0, what=f"icon {kind}")
    c.paste(icons.mark("hand"), 18, 3, what="hand")
    pitch = min(10, (rows_end - 14 - 7) // max(1, n - 1))
    c.text(W - 1, H - 9, foot, align="right")
    for i, (seat, hand, row) in enumerate(zip(v.seats, v.hands, v.rows)):
        y = 14 + i * pitch
        c.text(0, y, c.say(msg("seat", seat=seat)))
        c.text(27, y, str(hand), align="right")
        for kind, (a, b) in zip(icons.CRITTERS, cols):
            count = row.get(kind, 0)
            if not count:
                continue
            mid = (a + b + 1) // 2
            if count >= v.lose_at - 1:
                c.rect(a, y - 1, b, y + 7, fill=1, radius=1)
            c.text(mid, y, str(count), fill=0 if count >= v.lose_at - 1 else 1, align="center")


def _rows_marked(c: Canvas, v, foot: str) -> None:
    """The rows for six seats: 9 px apart (a lit cell, y-1..y+7, clears the next row's
    digits), no header. Per seat its label, its hand count, then a column per critter
    face up anywhere (in the critters' order, so a critter reads down one column), each
    cell the critter's 6-px picture and its count, the whole cell lit when the count is
    one short of losing."""
    kinds = [kind for kind in icons.CRITTERS if any(row.get(kind) for row in v.rows)]
    x0 = 29  # the hand count ends at x 25: 4 px from "S4", 2 from a lit cell
    gap = 1 if len(kinds) < 8 else 0  # all eight: the count right after its picture
    width = 6 + gap + 5
    pitch = min(16, (W - 1 - x0 - width) // max(1, len(kinds) - 1))
    for i, (seat, hand, row) in enumerate(zip(v.seats, v.hands, v.rows)):
        y = 1 + i * 9
        c.text(0, y, c.say(msg("seat", seat=seat)))
        c.text(25, y, str(hand), align="right")
        for j, kind in enumerate(kinds):
            count = row.get(kind, 0)
            if not count:
                continue
            a = x0 + j * pitch
            lit = count >= v.lose_at - 1
            if lit:
                c.rect(a - 1, y - 1, a + width, y + 7, fill=1, radius=1)
            c.paste(icons.critter_mark(kind), a, y, fill=0 if lit else 1, what=f"mark {kind}")
            c.text(a + 6 + gap, y, str(count), fill=0 if lit else 1)
    c.text(W - 1, H - bottom(foot, 1), foot, align="right")


def draw_over(c: Canvas, v) -> None:
    losers = tuple(v.losers)
    if len(losers) == 1:
        head = c.say(msg("cr.loses", seat=losers[0]))
    elif losers:
        head = c.say(msg("cr.lose", seats=losers))
    else:
        head = c.say(msg("title.game_over"))
    c.text_fit(W // 2, overhang(head, 2), W, head, scales=(2, 1), align="center")
    if v.kind and v.reason in ("four_of_a_kind", "five_of_a_kind"):
        n = 5 if v.reason == "five_of_a_kind" else 4
        c.text(W // 2, 17, c.say(msg(f"n.{v.kind}", n=n)), align="center")
        im = icons.icon(v.kind, 2)
        step = min(im.width + 2, W // n)
        x = (W - (step * (n - 1) + im.width)) // 2
        for i in range(n):
            c.paste(im, x + i * step, 27, what=f"icon {v.kind}")
    else:
        c.text_fit(W // 2, 24, W, c.say(msg(f"cr.reason.{v.reason}")), scales=(2, 1), align="center")
    hints(c, H - 10, [("1", c.say(msg("key.again"))), ("A", c.say(msg("key.new_game")))])


def draw_sitting(c: Canvas, v) -> None:
    """The evening's score as a table: a column per seat (its name over its Grasshopper
    Poker wins and its Cockroach Poker losses), the games' pictures at the left of their
    rows and named once in a legend. Seven seats (six pads and the Pi) fit with two-digit
    counts; the footer stays below the last row."""
    head = c.say(msg("sit.title", n=v.games) if v.games else msg("sit.none"))
    c.text(0, overhang(head), head)
    gh, cr_ = icons.mini("grasshopper"), icons.mini("cockroach")
    # the legend: [grasshopper] wins  [cockroach] losses
    x = 0
    for im, word in ((gh, c.say(msg("sit.legend"))), (cr_, c.say(msg("sit.legend_cr")))):
        c.paste(im, x, 11, what="legend icon")
        x += im.width + 2
        x += c.text(x, 11, word) + 6
    if v.seats:
        left = gh.width + 2      # the rows' pictures, then the seats' columns
        span = min(W - left, len(v.seats) * 24)
        cols = columns(len(v.seats), left, left + span - 1, gap=2)
        c.paste(gh, 0, 32, what="icon wins")
        c.paste(cr_, 0, 42, what="icon losses")
        for seat, wins, losses, (a, b) in zip(v.seats, v.wins, v.losses, cols):
            mid = (a + b + 1) // 2
            c.text(mid, 22, c.say(msg("seat", seat=seat)), align="center")
            c.text(mid, 32, str(wins), align="center")
            c.text(mid, 42, str(losses), align="center")
    text = c.say(msg("sit.afresh"))
    c.text(W - 1, H - bottom(text, 1), text, align="right")  # marks above it end above the rows' end


def draw_quick(c: Canvas, v) -> None:
    """Quick mode, one screen a round: who starts (the last taker), each seat's hand count
    and face-up row (a count one short of losing lit, C6), and the 8 critter keys along
    the bottom (whoever lays the card face up presses its critter). Six seats leave no
    row for the title: the starter's label is lit in every layout, and says it."""
    n = len(v.seats)
    legend_y = H - 9                      # the key caps' row, the frame's last 9 rows
    titled = 10 + n * 9 <= legend_y       # the title's row, then a row per seat, 9 px apart
    y0 = 10 if titled else 1
    if titled:
        top_row(c, c.say(msg("cr.quick.starts", seat=v.starter)), c.say(msg("resumed.round", round=v.round)))
    kinds = [kind for kind in icons.CRITTERS if any(row.get(kind) for row in v.rows)]
    hand = icons.mark("hand")
    label_w = max(font.text_width(c.say(msg("seat", seat=s))) for s in v.seats)
    hand_x = label_w + 4                  # the lit starter's label keeps 1 px of air before it
    count_right = hand_x + hand.width + 1 + font.text_width("22") - 1
    x0 = count_right + 4
    width = 6 + 5                         # a critter's mark and its one-digit count
    pitch = min(16, (W - 1 - x0 - width) // max(1, len(kinds) - 1)) if kinds else 0
    for i, (seat, cards, row) in enumerate(zip(v.seats, v.hands, v.rows)):
        y = y0 + i * 9
        label = c.say(msg("seat", seat=seat))
        if seat == v.starter:             # who starts this round: the last taker (C5)
            c.rect(0, y - 1, label_w + 2, y + 7, fill=1, radius=1)
            c.text(1, y, label, fill=0)
        else:
            c.text(1, y, label)
        c.paste(hand, hand_x, y, what="hand")
        c.text(count_right, y, str(cards), align="right")
        for j, kind in enumerate(kinds):
            count = row.get(kind, 0)
            if not count:
                continue
            a = x0 + j * pitch
            lit = count >= v.lose_at - 1
            if lit:
                c.rect(a - 1, y - 1, a + width, y + 7, fill=1, radius=1)
            c.paste(icons.critter_mark(kind), a, y, fill=0 if lit else 1, what=f"mark {kind}")
            c.text(a + 6, y, str(count), fill=0 if lit else 1)
    _critter_legend(c, legend_y, v.keys)


def _critter_legend(c: Canvas, y: int, keys) -> None:
    """The screen's keys in a row (its key table: each key's critter), each cap followed by
    the small picture of its critter: caps of 1 px padding (7 wide), so 2 px part a
    picture from the next cap."""
    for k in keys:
        label, kind, x = KEY_LABELS[k.key], k.does[1], k.key * 16
        kw = font.text_width(label) + 2
        c.rect(x, y, x + kw - 1, y + 8, fill=1, radius=1)
        c.text(x + 1, y + 1, label, fill=0)
        c.paste(icons.critter_mark(kind), x + kw + 1, y + 1, what=f"mark {kind}")
