"""The game screens: one function per view type, each drawing on a ``Canvas``.

Read at arm's length by 2-4 players: the one thing that matters on a screen is big
(scale 2 or 3 text, 24 px icons), the rest is small. Keys are labelled where they
do something: key caps are small lit boxes ("[A] start").
"""

from __future__ import annotations

import functools

from pitable.i18n import NAMES, msg
from pitable.rules.games import GAMES
from pitable.screens import font, icons
from pitable.screens.views import label as key_label  # what a key does, as the screen's key table says
from pitable.screens.widgets import (H, W, Canvas, bottom, clip, columns, fit_scale, hint,
                                     hint_width, hints, KEY_H, key, key_width, layout_paragraph, overhang,
                                     seat_boxes, title, top_row)


# -- display rows: kinds as icons with counts --------------------------------------------------

# How a kind and its count share a cell, best first: (icon scale, count scale).
CELL_MODES = ((2, 2), (2, 1), (1, 2), (1, 1))


def cell_width(count: int, mode: tuple) -> int:
    icon_scale, count_scale = mode
    label = str(count) if count != 1 else ""
    return 12 * icon_scale + (font.text_width(label, count_scale) + 2 if label else 0)


def kind_cell(c: Canvas, a: int, b: int, y: int, kind: str, count: int, mode: tuple,
              number: int | None = None) -> None:
    """One kind in the column a..b from ``y``: its key cap (if ``number``), its icon and,
    when more than one, its count beside the icon. The icon area is 24 px tall."""
    if number is not None:
        kw = key_width(str(number))
        key(c, (a + b + 1 - kw) // 2, y, str(number))
        y += 11
    icon_scale, count_scale = mode
    im = icons.icon(kind, icon_scale)
    y += (24 - im.height) // 2
    label = clip(str(count), max(1, b - a + 1 - im.width - 2), count_scale) if count != 1 else ""
    lw = font.text_width(label, count_scale) + 2 if label else 0
    x = max(a, (a + b + 1 - im.width - lw) // 2)
    c.paste(im, x, y, what=f"icon {kind}")
    if label:
        c.text(x + im.width + 2, y + im.height - font.ASCENT * count_scale, label, count_scale)


def kinds_row(c: Canvas, y: int, kinds, numbered: bool = False, x0: int = 0, x1: int = W - 1) -> int:
    """``kinds``: ((kind, count), ...) spread across x0..x1 from ``y``, in the biggest
    cell mode where every cell fits. Returns the height used."""
    kinds = tuple(kinds)
    if not kinds:
        c.text((x0 + x1) // 2, y + 8, c.say(msg("display.empty")), align="center")
        return 24
    cols = columns(len(kinds), x0, x1, gap=2)
    cw = cols[0][1] - cols[0][0] + 1
    mode = next((m for m in CELL_MODES if all(cell_width(n, m) <= cw for _, n in kinds)), CELL_MODES[-1])
    for i, ((kind, n), (a, b)) in enumerate(zip(kinds, cols)):
        kind_cell(c, a, b, y, kind, n, mode, i + 1 if numbered else None)
    return (11 if numbered else 0) + 24


def mini_counts_width(items) -> int:
    return sum(icons.mini(k).width + 1 + font.text_width(str(n)) for k, n in items) + 3 * (len(items) - 1)


def mini_counts(c: Canvas, x: int, y: int, items, align: str = "left") -> int:
    """Small icons with counts in one row ("[corn]2 [gh]1"), ``y`` the top of the text."""
    items = tuple(items)
    w = mini_counts_width(items)
    if align == "right":
        x -= w - 1
    for kind, n in items:
        im = icons.mini(kind)
        c.paste(im, x, y, what=f"mini {kind}")
        x += im.width + 1
        x += c.text(x, y, str(n)) + 3
    return w


# -- setup -------------------------------------------------------------------------------------

def draw_setup(c: Canvas, v) -> None:
    if v.step == "game":
        _setup_game(c, v)
    elif v.step == "join":
        _setup_join(c, v)
    else:
        _setup_options(c, v)


def _setup_game(c: Canvas, v) -> None:
    """Which game (keys 1, 2, each named in full below); X: the table's language, named in itself."""
    lang = NAMES.get(v.language, v.language)
    head = c.say(msg("setup.which_game"))
    top = max(overhang(head), overhang(lang))
    c.text(0, top + 1, head)
    hint(c, W - 1, top, "X", lang, align="right")
    for i, (game, (a, b)) in enumerate(zip(GAMES, columns(len(GAMES), gap=4)), 1):  # keys 1.. in this order
        mid = (a + b + 1) // 2
        kw = 18
        c.rect(mid - kw - 3, 15, mid - 4, 34, fill=1, radius=2)
        c.text(mid - kw // 2 - 3 - 1, 18, str(i), 2, fill=0, align="center")
        c.paste(icons.icon(game, 2), mid, 13, what=f"icon {game}")
        name = c.say(key_label(v.keys, i - 1, msg(f"game.{game}")))
        y = 39 + (i - 1) * 12
        kw = key(c, 0, y + overhang(name) - 1, str(i))
        c.text(kw + 3, y + overhang(name), name)


def _setup_phone(c: Canvas, v) -> None:
    """A phone joins: the QR for the seat left, the address to type right, broken where
    it fits; the seats whose phone a key takes back at the bottom."""
    from pitable.screens import qr

    seat, url = v.phone
    # the QR carries the join page with the sealed channel's key (v.phone_qr); the
    # address to type is the ticket's, for a phone that cannot scan (not sealed)
    x = qr.draw(c, 0, 1, v.phone_qr or url) + 4
    rest = W - x
    typed = url.split("//", 1)[-1]
    host, _, path = typed.partition("/")
    parts, row = [], ""
    for piece in host.replace(".", ". ").replace(":", " :").split(" ") + ["/" + path]:
        if row and font.text_width(row + piece) > rest:
            parts.append(row)
            row = ""
        row += piece
    parts.append(row)
    parts = parts[:4]
    # the keys that take a phone back, whole at the bottom (wrapped): the seat's name gets
    # small when they need the room
    back = None
    if v.phones:
        back = layout_paragraph((c.say(msg("web.qr_take_back", seats=",".join(str(s) for s in v.phones))),),
                                rest, 3 * 9, scales=(1,))
    foot = back.height + 2 if back else 0
    seat = c.say(msg("web.qr_seat", seat=seat))
    big = fit_scale(seat, rest, (2,)) and 17 + 9 * (1 + len(parts)) + foot <= H
    c.text_fit(x, 0, rest, seat, scales=(2, 1) if big else (1,))
    y = 17 if big else 10
    if x > 4:
        c.text(x, y, clip(c.say(msg("web.qr_or_type")), rest))
    else:
        c.text(x, y, clip(c.say(msg("web.qr_too_long")), rest))
    y += 9
    for part in parts:
        c.text(x, y, clip(part, rest))
        y += 9
    if back:
        c.block(x, H - back.height, rest, back)


def pi_state(v):
    """The Pi's part as it is now, a state ("Pi strong", "2 Pi easy", "no Pi"): key 6 changes it."""
    if not v.assistant:
        return msg("setup.no_pi")
    level = msg(f"value.{v.assistant_level or 'strong'}")
    if len(v.assistant) == 1:
        return msg("setup.pi_level", level=level)
    return msg("setup.pi_level_n", n=len(v.assistant), level=level)


def _setup_join(c: Canvas, v) -> None:
    """Who plays: the seats' boxes (lit: joined; the Pi's by name), how to join, then one
    row each for the Pi's level (a state, and key 6 that changes it) and the keys that
    leave and go on. With phones on, key 5 (a phone's QR) is said top right."""
    if v.phone is not None:
        _setup_phone(c, v)
        return
    phone = c.say(msg("setup.phone_key")) if v.phones is not None and v.joined else None
    go_on = ("A", c.say(key_label(v.keys, 6, msg("key.go_on"))))
    pi = GAMES[v.game].assistant and v.joined
    if pi:  # a small title: the Pi's row needs the room
        y = top_row(c, c.say(msg("setup.who_plays")), phone) + font.ASCENT + 3
    else:
        y = title(c, c.say(msg("setup.who_plays")), right=phone)
    boxes = 19 if pi else 20
    seat_boxes(c, y, y + boxes - 1, (*range(1, v.seats + 1), *v.assistant), set(v.joined) | set(v.assistant),
               check=True)  # lit with a tick: in (as a lock-in on the bidding screen)
    join = c.say(msg("setup.any_key_join"))
    c.text(0, y + boxes + 2 + overhang(join) if pi else 44, join)  # its descenders clear the marks below
    if pi:
        state = c.say(pi_state(v))
        c.text(0, 45, state)
        hint(c, W - 1, 44, "6", c.say(key_label(v.keys, 5, v.pi_key or msg("key.change"))), align="right")
    w = hint_width(*go_on)
    if v.joined:
        hint(c, 0, 54, "X", c.say(key_label(v.keys, 7, msg("key.leave"))))
    hint(c, W - 1, 54, *go_on, align="right")
    if not v.can_start:  # greyed out until enough players have joined
        c.dim(W - w, 54, W - 1, H - 1)


def _setup_options(c: Canvas, v) -> None:
    head = c.say(msg("setup.options"))
    start = c.say(msg("key.start"))
    scale = 2 if font.text_width(head, 2) + hint_width("A", start) + 4 <= W else 1
    c.text(0, overhang(head, scale), head, scale)
    hint(c, W - 1, 3, "A", start, align="right")
    lines = tuple(v.options)
    top = 19
    pitch = max(10, min(12, (H - top) // max(1, len(lines))))
    n = max(1, (H - top + 1) // pitch)
    for i, (label, value) in enumerate(lines[:n], 1):
        y = top + (i - 1) * pitch
        kw = key(c, 0, y, str(i))
        value = c.say(value)
        vw = font.text_width(value)
        on = value == c.say(msg("value.on"))
        if on:  # lit, like a key cap
            # one more lit row under a dot below ("bật"): its ink stays in the box
            c.rect(W - vw - 4, y, W - 1, y + 8 + font.has_descender(value), fill=1, radius=1)
            c.text(W - 3, y + 1, value, fill=0, align="right")
            room = W - vw - 4 - 3 - (kw + 2)
        else:
            c.text(W - 1, y + 1, value, align="right")
            room = W - vw - 3 - (kw + 2)
        c.text(kw + 2, y + 1, clip(c.say(key_label(v.keys, i - 1, label)), room))


# -- resumed ------------------------------------------------------------------------------------

def draw_resumed(c: Canvas, v) -> None:
    name = c.say(msg(f"game.{v.game}"))
    c.text(W // 2, overhang(name), name, align="center")
    head = c.say(msg("resumed.title"))
    # with bids to make again, the news gets the big letters and "Resumed" the small ones
    scales = (1,) if v.rebid else (2, 1)
    y = 11 + overhang(head, scales[0])
    scale = c.text_fit(W // 2, y, W, head, scales=scales, align="center")
    y += bottom(head, scale) + 2
    where = c.say(msg("resumed.round_turn", round=v.round, turn=v.turn) if v.turn
                  else msg("resumed.round", round=v.round))
    c.text(W // 2, y + overhang(where), where, align="center")
    y += overhang(where) + bottom(where, 1)
    foot = c.say(msg("foot.go_on"))  # any key only goes on: the next screen asks for the bids
    foot_y = H - 9
    if v.rebid:  # the news, in a band above the footer
        y0, y1 = y + 2, foot_y - overhang(foot) - 2
        c.rect(0, y0, W - 1, y1, fill=1, radius=3)
        again = c.say(msg("resumed.bid_again"))
        room = y1 - y0 + 1
        scale = 2 if fit_scale(again, W - 4, (2,)) and overhang(again, 2) + bottom(again, 2) <= room - 4 else 1
        inked = overhang(again, scale) + bottom(again, scale)
        c.text(W // 2, y0 + (room - inked) // 2 + overhang(again, scale), again, scale, fill=0, align="center")
    c.text(W - 1, foot_y, foot, align="right")


# -- reveal ------------------------------------------------------------------------------------

def draw_reveal(c: Canvas, v) -> None:
    """Physical deck: why and how many cards to turn up, then the five kinds as key and
    word (the table moves these cards: a picture alone is not enough), then who presses.
    Once a card is named: "Card 2 of 3" and the kinds named so far (a double press
    shows at once: one undo takes it back), and the seat that names the rest."""
    shown = tuple((k, n) for k, n in v.display.items() if n)
    named = getattr(v, "named", ())
    pictures = None
    told = getattr(v, "told", ()) if not named else ()
    if told:  # the turn's lines for the real cards in the title's place, then the prompt
        y = draw_told(c, told)
        order = c.say(msg("reveal.turn_up", n=v.to_reveal))
        y += overhang(order)
        c.text(0, y, order)
        if shown and font.text_width(order) + 4 + mini_counts_width(shown) <= W:
            mini_counts(c, W - 1, y, shown, align="right")
        foot = c.say(msg("reveal.anyone"))
        room = H - 9 - overhang(foot) - 1 - (y + 10)
        if room // 3 >= 10:  # a pitch of 9 joins the caps and puts a row's tails on the next one's marks
            kind_keys(c, y + 10, min(11, room // 3), v.keys)
        elif room >= KEY_H + 1:  # the kinds' words come back with the first card named
            kind_key_row(c, y + 11)
        else:
            # the lines need the footer's row too: the key caps say what the keys are; who
            # presses comes back with the first card named
            kind_key_row(c, y + 11)
            return
        c.text(W - 1, H - 9, foot, align="right")
        return
    if named:
        left = c.say(msg("reveal.card_of", i=len(named) + 1, n=len(named) + v.to_reveal))
        kinds = tuple(msg(f"kind.{k}") for k in named)
        order = c.say(msg("reveal.so_far", kinds=kinds))
        pictures = None
        if font.text_width(order) > W:  # every kind named so far, as pictures: a double press shows
            order = c.say(msg("reveal.so_far", kinds=())).rstrip()
            pictures = named
    else:
        left = c.say(msg(f"reason.{v.reason}"))
        order = c.say(msg("reveal.turn_up", n=v.to_reveal))
    y = top_row(c, left)
    if shown and font.text_width(left) + 4 + mini_counts_width(shown) <= W:
        mini_counts(c, W - 1, 0, shown, align="right")  # pictures only: nothing is moved by them
    y += 10 + overhang(order)
    x = c.text(0, y, order) + 3
    if named and pictures:
        for kind in pictures:
            c.paste(icons.mini(kind), x, y, what=f"mini {kind}")
            x += icons.mini(kind).width + 2
    by = getattr(v, "by", None)
    foot = c.say(msg("reveal.by", seat=by) if by else msg("reveal.anyone"))
    foot_y = H - 9  # the footer's capitals
    rows_y = y + 10
    pitch = max(KEY_H, min(11, (foot_y - overhang(foot) - 1 - rows_y) // 3))
    kind_keys(c, rows_y, pitch, v.keys)
    c.text(W - 1, foot_y, foot, align="right")


# Where the five kind keys go, best first: (keys of the left column, the row it starts at,
# the row the right column starts at). Keys read down the left column, then down the
# right; the first arrangement where every row's two words fit is used (the longest words
# differ by language: "grasshopper" and "broccoli" share a row in English, not in Vietnamese).
KIND_ARRANGEMENTS = (((0, 1, 2), 0, 0), ((0, 1, 2), 0, 1), ((0, 1), 0, 0), ((0, 1), 1, 0))


def _kind_rows(say):
    """(rows of (left kind index | None, right kind index | None), with pictures?) that fit."""
    names = [say(msg(f"kind.{k}")) for k in icons.KINDS]
    kw = key_width("5")
    for pictures in (True, False):
        extra = (icons.mini("corn").width + 2) if pictures else 0
        for left, lstart, rstart in KIND_ARRANGEMENTS:
            right = [i for i in range(len(names)) if i not in left]
            rows = max(lstart + len(left), rstart + len(right))
            pairs = [(left[r - lstart] if 0 <= r - lstart < len(left) else None,
                      right[r - rstart] if 0 <= r - rstart < len(right) else None) for r in range(rows)]
            if rows <= 3 and all(sum(kw + 1 + extra + font.text_width(names[i]) for i in pair if i is not None)
                                 + 4 <= W for pair in pairs):
                return pairs, pictures
    return [(i, None) for i in range(len(names))], False  # one column: never reached with today's words


def kind_key_row(c: Canvas, y: int) -> None:
    """The five kinds in one row, each its key cap and its picture: where a turn's lines
    take the rows the words would need."""
    for i, (kind, (a, b)) in enumerate(zip(icons.KINDS, columns(len(icons.KINDS), gap=2))):
        im = icons.mini(kind)
        label = str(i + 1)
        x = (a + b + 1 - key_width(label) - 1 - im.width) // 2
        x += key(c, x, y, label) + 1
        c.paste(im, x, y + 1, what=f"mini {kind}")


def kind_keys(c: Canvas, y: int, pitch: int, keys: tuple = ()) -> None:
    """The five kinds, each its key cap and its name (and its picture where there is room),
    named as the screen's key table says."""
    pairs, pictures = _kind_rows(c.say)
    for r, (left, right) in enumerate(pairs):
        row = y + r * pitch
        if left is not None:
            kind = icons.KINDS[left]
            x = key(c, 0, row, str(left + 1)) + 1  # 1 px from the cap, like the critters
            if pictures:
                c.paste(icons.mini(kind), x, row + 1, what=f"mini {kind}")
                x += icons.mini(kind).width + 2
            name = c.say(key_label(keys, left, msg(f"kind.{kind}")))
            c.text(x, row + 1, name)
        if right is not None:
            kind = icons.KINDS[right]
            label = str(right + 1)
            x = W - key_width(label)
            key(c, x, row, label)
            x -= 2  # the right-aligned text's last pixel: 1 px from the cap
            if pictures:
                im = icons.mini(kind)
                c.paste(im, x - im.width + 1, row + 1, what=f"mini {kind}")
                x -= im.width + 2
            c.text(x, row + 1, c.say(key_label(keys, right, msg(f"kind.{kind}"))), align="right")


# -- bidding -----------------------------------------------------------------------------------

BOXES_SMALL = 13  # the seat boxes' height under a turn's lines: a small number and its tick

def draw_bidding(c: Canvas, v) -> tuple[int, int] | None:
    """The display and who has locked in. Secrecy: nothing here depends on a bid (the
    view has none); only ``locked`` changes the seat boxes."""
    told = getattr(v, "told", ())
    if told:
        # What the turn (or round) just played asks of the table, a part of it until each
        # person's lock-in: before the first in the seat boxes' place (all empty, they tell
        # nothing yet); when it needs more rows, on top with the display small beside "Bid!"
        # (and who has locked in, small, below).
        block = layout_paragraph([c.say(m) for m in told], W, H, scales=(1,), indent=6)
        if block.height <= H - 43 and not v.locked:
            top_row(c, c.say(msg("bidding.where", round=v.round, turn=v.turn)))
            kinds_row(c, 11, tuple((k, n) for k, n in v.display.items() if n))
            for x in range(0, W, 2):
                c.line(x, 38, x, 38)
            c.block(0, 41, W, block)
            return (0, 37)
        # On top: the lines in the room the rest leaves (a rule under them), "Bid!" with the
        # display small beside it, and who has locked in, small, always (so a Pi's lock-in
        # moves nothing, and the table sees who is still to bid). Lines that need more room
        # are cut here: the checker flags that, and the table puts them on pages instead.
        where = c.say(msg("bidding.now"))
        top = H - BOXES_SMALL
        row = top - 2 - bottom(where, 1)  # the capitals of "Bid!"
        room = row - overhang(where) - 1 - 3  # a rule 2 px under the lines, 1 px of air under it
        block = layout_paragraph([c.say(m) for m in told], W, room, scales=(1,), indent=6)
        c.block(0, 0, W, block)
        for x in range(0, W, 2):  # dotted: a rule, not a lit row
            c.line(x, block.height + 2, x, block.height + 2)
        shown = tuple((k, n) for k, n in v.display.items() if n)
        head = c.say(msg("bidding.where", round=v.round, turn=v.turn))
        y = block.height + 5 + overhang(head)
        if shown and y + 10 + 24 <= top - 1 and font.text_width(head) <= W:  # room: the display big, as without lines
            c.text(0, y, head)
            kinds_row(c, y + 10, shown)
        else:
            c.text(0, row, where)
            mini_counts(c, W - 1, row, shown, align="right")
        seat_boxes(c, top, H - 1, v.seats, set(v.locked), check=True)
        return (0, top - 2)
    # the call to action, then where the game is (the pile is on the scores: hold A)
    top_row(c, c.say(msg("bidding.where", round=v.round, turn=v.turn)))
    kinds_row(c, 11, tuple((k, n) for k, n in v.display.items() if n))
    seat_boxes(c, 40, 63, v.seats, set(v.locked), check=True)
    return (0, 38)  # a toast goes over the display, never over the seats (who has locked in)


# -- the reveal of the bids ---------------------------------------------------------------------

def result_texts(c: Canvas, v) -> tuple:
    """What the bids mean, longest first: the screen takes the first that fits big."""
    if v.stalemate:
        return (c.say(msg("bids.stalemate")),)
    if v.takes_all is not None:
        return (c.say(msg("bids.takes_all", seat=v.takes_all)),)
    if v.order:
        return (c.say(msg("bids.order", seats=v.order)), font.ARROW.join(c.say(msg("seat", seat=s)) for s in v.order))
    return (c.say(msg("bids.nobody")),)


def draw_bids(c: Canvas, v) -> None:
    """Every bid at once: a card per seat under its seat number, winners lit, cancelled
    bids greyed out with their seat number struck through; then the result, why, and
    who presses what to go on."""
    n = len(v.seats)
    cols = columns(n, gap=2)
    cw = cols[0][1] - cols[0][0] + 1
    small = [c.say(m) for m in (v.why, v.foot) if m]
    below = layout_paragraph(small, W, H, scales=(1,))
    # the biggest cards that leave room for the result (one small row at least) and the rows below
    size = "small"
    for size in ("mid", "small"):
        if cw >= icons.card_size(size)[0] and font.ASCENT + 2 + icons.card_size(size)[1] + 2 + \
                layout_paragraph(result_texts(c, v)[:1], W, H, scales=(1,)).height + 1 + below.height <= H:
            break
    card_w, card_h = icons.card_size(size)
    label_scale = 1
    card_y = font.ASCENT * label_scale + 2
    winners = set(v.order) | ({v.takes_all} if v.takes_all is not None else set())
    cancelled = set(v.cancelled)
    for seat, bid, (a, b) in zip(v.seats, v.bids, cols):
        mid = (a + b + 1) // 2
        label = c.say(msg("seat", seat=seat))
        # a cancelled bid's seat is not struck through ("P3" read as "∃"): its card's
        # dotted frame says it
        c.text(mid, 0, label, label_scale, align="center")
        style = "cancelled" if seat in cancelled else ("solid" if seat in winners else "face")
        c.paste(icons.card(str(bid), size, style), mid - card_w // 2, card_y, what=f"card {bid}")
    # the result, big if one of its wordings fits, else small (wrapped); then why and the footer
    texts = result_texts(c, v)
    below = layout_paragraph(small, W, H, scales=(1,))
    y = card_y + card_h + 2
    avail = H - y - below.height - 1
    for t in texts:
        need = overhang(t, 2) + bottom(t, 2) + 1
        if fit_scale(t, W, (2,)) and need <= avail:
            c.text(W // 2, y + overhang(t, 2), t, 2, align="center")
            break
    else:
        block = layout_paragraph((texts[-1],), W, avail, scales=(1,))  # the shortest: arrows
        c.block(0, y, W, block, align="center")
    c.block(0, H - below.height, W, below, align="center")


# -- choosing ----------------------------------------------------------------------------------

def draw_choosing(c: Canvas, v) -> tuple[int, int] | None:
    """Who chooses, then the kinds on display as a list: key, picture and words ("2 corn"):
    the chooser moves those cards, so the kind is a word, the picture only beside it."""
    head = c.say(msg("choose.head", seat=v.seat))
    then = c.say(msg("choose.then", seats=v.then)) if v.then else ""
    pitch = 10
    told = getattr(v, "told", ())
    if told:  # what the choice before asks of the table on top; who chooses below, big if room
        y = draw_told(c, told)
        rows = len(v.kinds) * pitch
        if fit_scale(head, W, (2,)) and y + overhang(head, 2) + bottom(head, 2) + 2 + rows + (9 if then else 0) <= H:
            c.text(0, y + overhang(head, 2), head, 2)
            top = y + overhang(head, 2) + bottom(head, 2) + 2
            _kind_list(c, top, v.kinds, pitch, v.keys)
            if then:
                c.text(W - 1, H - 9 + overhang(then), then, align="right")
            return (top - 1, H - 11 if then else H - 1)
        y += max(overhang(head), overhang(then))
        c.text(0, y, head)
        if then:
            c.text(W - 1, y, then, align="right")
        top = y + bottom(head, 1) + 2
        _kind_list(c, top, v.kinds, pitch, v.keys)
        return (top - 1, H - 1)
    rows = len(v.kinds) * pitch
    foot = 9 if then else 0
    scale = 2 if fit_scale(head, W, (2,)) and overhang(head, 2) + bottom(head, 2) + 2 + rows + foot <= H else 1
    c.text(0, overhang(head, scale), head, scale)
    y = overhang(head, scale) + bottom(head, scale) + 2
    _kind_list(c, y, v.kinds, pitch, v.keys)
    if then:
        c.text(W - 1, H - 9 + overhang(then), then, align="right")
    # a toast goes over the kinds, never over who chooses now or the order after
    top = overhang(head, scale) + bottom(head, scale) + 1
    return (top, H - 11 if then else H - 1)


def _kind_list(c: Canvas, y: int, kinds, pitch: int, keys: tuple = ()) -> None:
    for kind, n in kinds:
        i = icons.KINDS.index(kind)
        kw = key(c, 0, y, str(i + 1))  # a kind's one key, as in card entry
        im = icons.mini(kind)
        c.paste(im, kw + 2, y + 1, what=f"mini {kind}")
        c.text(kw + 2 + im.width + 3, y + 1, c.say(key_label(keys, i, msg(f"n.{kind}", n=n))))
        y += pitch


# -- what a turn asks of the real cards, on the next screen that takes a key ----------------

def draw_told(c: Canvas, lines) -> int:
    """The lines at the top (small, wrapped, continued rows indented) and a rule under
    them, so the key screen below reads apart. Returns the y for the screen's first row."""
    block = layout_paragraph([c.say(m) for m in lines], W, H, scales=(1,), indent=6)
    c.block(0, 0, W, block)
    y = block.height + 2
    for x in range(0, W, 2):  # dotted: a rule, not a lit row
        c.line(x, y, x, y)
    return y + 3


# -- instructions --------------------------------------------------------------------------------

def _instructions_layout(say, lang: str, v):
    """Where an instructions page's parts go: (head, tscale, page label, top, block, foot
    block, ok). Pure layout, no drawing: the pager measures pages with it on the key path."""
    page = f"{v.page}/{v.pages}" if v.pages > 1 else ""
    pw = font.text_width(page) + 4 if page else 0
    head = say(v.title)
    lines = [say(m) for m in v.lines]
    foot = say(v.foot) if v.foot else ""
    foot_block = layout_paragraph((foot,), W, 20, scales=(1,)) if foot else None
    # the footer's room is the same whatever its letters (descenders or not): pages are made
    # for one footer and shown with another
    foot_h = _feet_top(lang) + len(foot_block.rows) * font.HEIGHT + 2 if foot_block else 0
    for tscale, scale in ((2, 2), (1, 2), (2, 1), (1, 1), (0, 1)):
        if tscale == 2 and not fit_scale(head, W - pw, (2,)):
            continue
        if tscale == 0:
            # the lines need the title's row too: the title and the page number go (the
            # footer says whether a page follows)
            top, head, page, pw = (overhang(lines[0]) if lines else 0), "", "", 0
            block = layout_paragraph(lines, W, H - top - foot_h, scales=(1,), indent=6)
            break
        top = overhang(head, tscale) + bottom(head, tscale) + (3 if tscale == 2 else 2)
        block = layout_paragraph(lines, W, H - top - foot_h, scales=(scale,), indent=6)
        if not block.cut:
            break
    ok = not block.cut and (tscale == 0 or fit_scale(head, W - pw, (tscale,)) is not None) and \
        (foot_block is None or not foot_block.cut)
    return head, tscale, page, pw, top, block, foot_block, ok


def draw_instructions(c: Canvas, v) -> None:
    """A title, the page number, the lines (wrapped, continued rows indented) and the
    footer saying who presses what. Space goes to the lines first: the title shrinks,
    the text gets small; nothing is cut (the display pages: see ``instruction_pages``)."""
    head, tscale, page, pw, top, block, foot_block, _ = _instructions_layout(c.say, c.lang, v)
    if tscale:
        c.text(0, overhang(head, tscale), head if fit_scale(head, W - pw, (tscale,)) else clip(head, W - pw, tscale),
               tscale)
    if page:
        c.text(W - 1, 0, page, align="right")
    c.block(0, top, W, block)
    if foot_block:
        c.block(0, H - foot_block.height, W - 1, foot_block, align="right" if len(foot_block.rows) == 1 else "left")


# Footers an instructions page may get (who presses what): pages are made to fit the widest.
PAGE_FEET = (msg("foot.next"), msg("foot.bid"), msg("foot.reveal"), msg("foot.choose", seat=6, last=5),
             msg("foot.offers", seat=6),
             msg("foot.results"))
MAX_LINES = 5  # lines of instructions a page at most (fewer when the words need the room); the controllers page by it


@functools.cache
def _feet_top(lang: str) -> int:
    """The most ink above the capitals of any footer in ``lang`` (room kept for it on every page)."""
    from pitable.i18n import catalog

    return max(overhang(catalog(lang).glued(m)) for m in PAGE_FEET)


def instruction_pages(title, lines: tuple, lang: str = "en") -> list:
    """``lines`` split into pages that the instructions screen shows whole in ``lang``:
    as many lines a page as fit (at most ``MAX_LINES``) with the widest footer. A line too
    long for a page of its own still gets one (the layout test fails on it)."""
    from pitable.i18n import catalog

    say = catalog(lang).glued  # as the canvas says it: rows never end inside "2 corn"
    foot = max(PAGE_FEET, key=lambda m: font.text_width(say(m)))

    def fits(page) -> bool:
        return _instructions_layout(say, lang, _Page(title, page, 9, 9, None, foot))[-1]

    pages: list = []
    for line in lines:
        if pages and len(pages[-1]) < MAX_LINES and fits(pages[-1] + (line,)):
            pages[-1] = pages[-1] + (line,)
        else:
            pages.append((line,))
    return pages


class _Page:
    """An instructions view for measuring (no import cycle with the views at call time)."""

    def __init__(self, title, lines, page, pages, toast, foot):
        self.title, self.lines, self.page, self.pages, self.toast, self.foot = title, lines, page, pages, toast, foot


# -- scores --------------------------------------------------------------------------------------

def draw_scores(c: Canvas, v) -> None:
    """Chips and gardens per seat; the pile; how the overlay closes (it also goes by itself).
    A seat's chip count is a lit box a clear gap beside its label ("S1 [0]", never "S10"),
    or under it when a column is too narrow for both ("Pi2" and 24 chips, four seats)."""
    top_row(c, c.say(msg("scores.head", round=v.round)), c.say(msg("pile", n=v.pile)))
    cols = columns(len(v.seats), gap=3)
    labels = [c.say(msg("seat", seat=seat)) for seat in v.seats]
    side = all(font.text_width(label) + SCORE_GAP + font.text_width(str(n)) + 4 <= b - a - 3  # room either side
               for label, n, (a, b) in zip(labels, v.chips, cols))
    garden_top = 22 if side else 29
    for label, chips, garden, (a, b) in zip(labels, v.chips, v.gardens, cols):
        mid = (a + b + 1) // 2
        lw = font.text_width(label)
        cw = font.text_width(str(chips))
        if side:
            x = mid - (lw + SCORE_GAP + cw + 4) // 2
            c.text(x, 11, label)
            bx, by = x + lw + SCORE_GAP, 10
        else:
            c.text(mid, 11, label, align="center")
            bx, by = mid - (cw + 4) // 2, 19
        c.rect(bx, by, bx + cw + 3, by + 8, fill=1, radius=1)  # the chip count, lit
        c.text(bx + 2, by + 1, str(chips), fill=0)
        items = [(k, n) for k, n in garden.items() if n]
        _garden(c, a, b, garden_top, H - 11, items)
    close = c.say(msg("foot.back"))
    foot_top = H - 9  # its capitals; marks above them reach higher
    c.text(W - 1, foot_top, close, align="right")
    # dotted separators between the columns, stopped above the footer's ink
    for (_, b), (a2, _) in zip(cols, cols[1:]):
        x = (b + a2) // 2
        for y in range(11, foot_top - overhang(close) - 1, 2):
            c.line(x, y, x, y)


SCORE_GAP = 3  # pixels between a seat's label and its chip box: "S1" and "0" never read as "S10"


def _garden(c: Canvas, a: int, b: int, y0: int, y1: int, items) -> None:
    """Small icons with counts in a grid inside a seat's column."""
    if not items:
        c.text((a + b + 1) // 2, y0, "-", align="center")  # an empty garden
        return
    cell = 7 + 1 + 5
    per_row = max(1, (b - a + 1 + 2) // (cell + 2))
    rows = max(1, (y1 - y0 + 1 + 2) // 9)
    if len(items) > per_row * rows:
        items = items[:per_row * rows - 1] + [("+", len(items) - per_row * rows + 1)]
    used = min(per_row, len(items)) * (cell + 2) - 2
    x0 = a + (b - a + 1 - used) // 2
    for i, (kind, n) in enumerate(items):
        x = x0 + (i % per_row) * (cell + 2)
        y = y0 + (i // per_row) * 9
        if kind == "+":
            c.text(x, y, f"+{n}")
            continue
        c.paste(icons.mini(kind), x, y, what=f"mini {kind}")
        c.text(x + 8, y, str(n))


# -- undo ------------------------------------------------------------------------------------------

def draw_confirm_undo(c: Canvas, v) -> None:
    y = title(c, c.say(v.title or msg("undo.title")), right=c.say(msg("undo.asked_by", seat=v.seat)))
    c.paragraph(0, y + 2, W, H - 11 - y - 4, (c.say(v.what),), scales=(2, 1))
    hints(c, H - 10, [("A", c.say(msg("key.yes"))), ("X", c.say(msg("key.no")))], x0=8, x1=W - 9)


# -- game over -------------------------------------------------------------------------------------

def draw_game_over(c: Canvas, v) -> None:
    """The winner(s) big; per seat its chips and, when chips tie, its grasshoppers (fewer
    grasshoppers break a tie)."""
    winners = tuple(v.winners)
    if len(winners) == 1:
        head = c.say(msg("over.wins", seat=winners[0]))
    elif winners:
        head = c.say(msg("over.win", seats=winners))
    else:
        head = c.say(msg("over.no_winner"))
    # the keys in the top row: 1 the next game with the same players, A a new game (the
    # winner's line below says the game is over)
    y = top_row(c, "")
    hints(c, max(0, y - 1), [("1", c.say(msg("key.again"))), ("A", c.say(msg("key.new_game")))])
    best = max(v.chips, default=0)
    tie = sum(1 for n in v.chips if n == best) > 1
    y += 11
    if tie:  # G12: say what decided, or that it is shared; the head gets small
        c.text(W // 2, y + overhang(head), head, align="center")
        y += overhang(head) + bottom(head, 1) + 2
        why = c.say(msg("over.fewer_grasshoppers" if v.tiebreak else "over.shared"))
        block = layout_paragraph((why,), W, 2 * 9, scales=(1,))
        c.block(0, y, W, block, align="center")
        top = y + block.height + 1
    else:
        scale = c.text_fit(W // 2, y + overhang(head, 2), W, head, scales=(3, 2, 1), align="center")
        top = y + overhang(head, scale) + bottom(head, scale) + 2  # the g of "thắng" clear of the boxes
    cols = columns(len(v.seats), gap=3)
    gh = icons.mini("grasshopper")
    for seat, chips, hoppers, (a, b) in zip(v.seats, v.chips, v.grasshoppers, cols):
        mid = (a + b + 1) // 2
        won = seat in winners
        if won:
            c.rect(a, top, b, H - 1, fill=1, radius=2)
        ink = 0 if won else 1
        c.text(mid, top + 2, c.say(msg("seat", seat=seat)), fill=ink, align="center")
        if tie:  # chips and grasshoppers side by side: fewer grasshoppers break the tie (G12)
            cw = font.text_width(str(chips))
            gw = cw + 3 + gh.width + 1 + font.text_width(str(hoppers))
            x = mid - gw // 2
            c.text(x, top + 11, str(chips), fill=ink)
            c.paste(gh, x + cw + 3, top + 11, fill=ink, what="mini grasshopper")
            c.text(x + cw + 3 + gh.width + 1, top + 11, str(hoppers), fill=ink)
        else:
            cs = 2 if font.text_width(str(chips), 2) <= b - a - 1 else 1
            c.text(mid, top + 11, str(chips), cs, fill=ink, align="center")
