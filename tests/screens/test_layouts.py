"""Every message of every catalog, in every layout that shows it, in every language, with
the longest values real games reach: nothing leaves its box, overlaps other text or
pictures, or is cut (no ellipsis, no word broken across rows).

Longest real values: seat 6 (pads are numbered 1-6 whatever the game), a Grasshopper
display holds at most 4 cards (3, and 1 more after a first stalemate: G7, G10), a garden
at most 2 of a plant or grasshopper after cultivation, so a harvest is at most 6 plants
(2 chips, G8); a draw pile of 66, 24+ chips, rounds into two digits; Cockroach hands of 27
(C1, two players), rows of 4 (5 with two players). Kinds and critters: every one of them.
"""

from __future__ import annotations

import itertools

import pytest
from PIL import Image

from pitable.i18n import ASSISTANT_SEAT, LANGUAGES, catalog, msg
from pitable.screens import font, icons
from pitable.screens import views as v
from pitable.screens.render import draw, layout_problems
from pitable.screens.widgets import Canvas
from pitable.screens.grasshopper import instruction_pages

KINDS = icons.KINDS
CRITTERS = icons.CRITTERS
SEAT = 6
PI2 = ASSISTANT_SEAT + 2       # the assistant's second seat: "Pi2", longer than any pad's "S6"
SEATS4 = (3, 4, 5, 6)          # a 4-player Grasshopper game on the highest pads
SEATS_PI = (5, 6, ASSISTANT_SEAT + 1, PI2)  # two pads and the assistant in two seats
SEATS6 = (1, 2, 3, 4, 5, 6)


def cards4():
    """Takes of a display of at most 4 cards: the longest lists of counted kinds."""
    out = []
    for combo in itertools.combinations(KINDS, 4):
        out.append(tuple(msg(f"n.{k}", n=1) for k in combo))
    for k in KINDS:
        out.append((msg(f"n.{k}", n=4),))
        out.append((msg(f"n.{k}", n=2), msg(f"n.{KINDS[-1] if k != KINDS[-1] else KINDS[0]}", n=2)))
    return out


def line_messages():
    """Every instruction line the controllers can make, with its longest values (a pad's
    seat and the assistant's)."""
    return _lines(SEAT) + _lines(PI2) + [msg("line.assistant_plays"), msg("line.assistant_garden"),
                                         msg("line.assistant_moves")]


def _lines(seat):
    lines = []
    for cards in cards4():
        lines.append(msg("line.takes_all", seat=seat, cards=cards))
        if len(cards) <= 3:  # a refill or a renewed display: at most 3 new cards
            lines.append(msg("line.new_cards", cards=cards))
    for combo in itertools.combinations(KINDS, 3):
        lines.append(msg("line.new_cards", cards=tuple(msg(f"n.{k}", n=1) for k in combo)))
    for k in KINDS:
        for n in (1, 4):  # a choice takes one kind: all its cards on display
            lines.append(msg("line.takes", seat=seat, cards=(msg(f"n.{k}", n=n),)))
    for k in KINDS[1:]:
        for n in (1, 2):
            lines.append(msg("line.harvest", seat=seat, cards=msg(f"n.{k}", n=3 * n), n=n))
    lines += [msg("line.plague", seat=seat), msg("line.plague_discard", seat=seat),
              msg("line.gets_nothing", seat=seat), msg("line.get_nothing", seats=SEATS4),
              msg("line.get_nothing", seats=SEATS_PI), msg("line.bids_spent"),
              msg("line.no_card_left"), msg("line.display_discarded"),
              msg("line.majority", seats=SEATS4), msg("line.majority", seats=SEATS_PI),
              msg("line.no_majority"), msg("line.cards_back")]
    for n in (1, 3):
        lines += [msg("line.turn_up_then_bid", n=n), msg("line.card_added", n=n), msg("line.turn_up", n=n)]
    for k in CRITTERS:
        lines += [msg("cr.line.right", kind=msg(f"kind.{k}")), msg("cr.line.wrong", kind=msg(f"kind.{k}"))]
    lines += [msg("cr.line.face_up", seat=seat), msg("cr.line.starts", seat=seat)]
    lines += [msg(f"cr.line.loses.{r}", seat=seat) for r in ("four_of_a_kind", "five_of_a_kind", "empty_hand")]
    # the assistant's seats: its name instead of a seat number, and what the table does for it
    pi = 103  # "Pi3": the longest of its names
    for cards in cards4():
        lines.append(msg("line.takes_all", seat=pi, cards=cards))
    for k in KINDS[1:]:
        lines.append(msg("line.harvest", seat=pi, cards=msg(f"n.{k}", n=6), n=2))
    lines += [msg("line.pi_lay"), msg("line.pi_chips")]
    lines += [msg("line.plague_discard", seat=pi), msg("line.majority", seats=(6, 101, 102, pi)),
              msg("line.assistant_plays"), msg("line.assistant_garden"), msg("line.assistant_moves")]
    return lines


TITLES = [msg("title.turn", turn=8), msg("title.stalemate"), msg("title.game_over"),
          msg("title.round_over", round=12), msg("title.display"), msg("cr.title.card"), msg("title.assistant")]
FOOTS = [msg("foot.next"), msg("foot.bid"), msg("foot.reveal"), msg("foot.choose", seat=SEAT, last=4),
         msg("foot.offers", seat=SEAT),
         msg("foot.results")]


def widest(lang, messages, k=1):
    say = catalog(lang).words
    return sorted(messages, key=lambda m: -font.text_width(say(m)))[:k]


def instruction_views(lang):
    """Each line alone with the longest title and footer; each title and footer; and the
    pages the display makes of all the lines (longest first), as the controllers ask it."""
    lines = line_messages()
    title = widest(lang, TITLES)[0]
    foot = widest(lang, FOOTS)[0]
    out = [v.Instructions(title, (line,), 1, 2, foot=foot) for line in lines]
    out += [v.Instructions(t, (lines[0],), 1, 2, foot=f) for t in TITLES for f in FOOTS]
    # a turn's worth of lines at a time (a real notice has a few pages: "2/3", not "100/103")
    ordered = widest(lang, lines, len(lines))
    shared = 0
    for start in range(0, len(ordered), 6):
        group = tuple(ordered[start:start + 6])
        pages = instruction_pages(title, group, lang)
        assert sum(map(len, pages)) == len(group)
        shared += sum(1 for page in pages if len(page) > 1)
        out += [v.Instructions(title, page, i, len(pages), foot=foot) for i, page in enumerate(pages, 1)]
    assert shared, "no page holds two lines: the pager is not tested"
    return out


def screen_views(lang):
    """Every other screen, with every message it can show and the longest values."""
    out = []
    gh_opts = []
    for beginner, x, end, deck in itertools.product((False, True), (False, True), (False, True),
                                                    ("physical", "virtual")):
        value_x = msg("value.beginner_rules") if beginner and x else msg("value.on" if x else "value.off")
        gh_opts.append(((msg("opt.beginner"), msg("value.on" if beginner else "value.off")),
                        (msg("opt.x_takes_cancelled_ace"), value_x),
                        (msg("opt.end_on_empty_pile"), msg("value.on" if end else "value.off")),
                        (msg("opt.deck"), msg(f"value.{deck}"))))
    out.append(v.Setup("game", "grasshopper", (), 6, (), False, language=lang))  # named in itself
    out += [v.Setup("join", g, SEATS6[:n], 6, (), True) for g in ("grasshopper", "cockroach") for n in (0, 4, 6)]
    pi = (ASSISTANT_SEAT + 1, PI2)
    out += [v.Setup("join", "grasshopper", (1, 2), 6, (), True, assistant=pi[:n], assistant_level=level)
            for n in (1, 2) for level in ("easy", "strong")]
    out.append(v.Setup("join", "grasshopper", (1,), 6, (), False))
    # the join screen with the Pi seated (key 6: its level in the hint)
    out += [v.Setup("join", "grasshopper", (1,), 4, (), True, assistant=(101, 102, 103)[:n], assistant_level=lvl)
            for n in (1, 3) for lvl in ("easy", "strong")]
    out += [v.Setup("options", "grasshopper", SEATS4, 6, o, True) for o in gh_opts]
    out.append(v.Setup("options", "cockroach", SEATS6, 6, ((msg("opt.first"), msg("seat", seat=6)),), True))
    for game in ("grasshopper", "cockroach"):
        out += [v.Resumed(game, 12, 8, rebid) for rebid in (False, True)] + [v.Resumed(game, 12, 0, False)]
    display4 = {k: 1 for k in KINDS[1:]}
    for reason in ("start", "refill", "stalemate", "renew", "round"):
        for n in (1, 3):
            out.append(v.RevealPrompt(n, reason, display4, 66))
    out.append(v.Bidding(12, 8, display4, SEATS4, (3, 5), 66))
    out.append(v.Bidding(12, 8, display4, SEATS_PI, (5, PI2), 66))
    out.append(v.Scores(12, SEATS_PI, (24, 19, 10, 9), tuple({k: 2 for k in KINDS} for _ in SEATS_PI), 66))
    out.append(v.GameOver(SEATS_PI, (9, 9, 24, 24), (2, 2, 1, 2), (ASSISTANT_SEAT + 1,), tiebreak=True))
    out.append(v.Choosing(PI2, tuple((k, 1) for k in KINDS[1:]), (ASSISTANT_SEAT + 1, 6, 5)))
    whys = [None, msg("why.x_beats_ace"), msg("why.x_beats_cancelled_ace"), msg("why.ace_takes_all"),
            msg("why.alone"), msg("why.stalemate")]
    results = [dict(takes_all=None, how=None, order=(), stalemate=True),
               dict(takes_all=6, how="ace", order=(), stalemate=False),
               dict(takes_all=None, how=None, order=(6, 5, 4, 3), stalemate=False),
               dict(takes_all=None, how=None, order=(), stalemate=False)]
    # the bids reveal is followed by instructions (any key: next) or by a choice (who chooses);
    # going on by itself it names no key ("→ S6 chooses")
    feet = (msg("foot.next"), msg("foot.choose", seat=6, last=4), msg("then.next"), msg("then.choose", seat=6, last=4),
            msg("then.bid"), msg("then.reveal"))
    for r, why, foot in itertools.product(results, whys, feet):
        out.append(v.BidsRevealed(SEATS4, ("6", "A", "X", "5"), toast=None, foot=foot, why=why,
                                  cancelled=(3,), **r))
    out.append(v.Choosing(6, tuple((k, 1) for k in KINDS[1:]), (5, 4, 3)))
    out.append(v.Choosing(6, (("grasshopper", 2), ("corn", 2)), (5, 4, 3)))
    out.append(v.Scores(12, SEATS4, (24, 19, 10, 9), tuple({k: 2 for k in KINDS} for _ in SEATS4), 66))
    undos = [msg("undo.reveal", kind=msg(f"kind.{k}")) for k in KINDS] + \
        [msg("undo.choice", kind=msg(f"kind.{k}")) for k in KINDS] + \
        [msg("undo.pass", seat=SEAT, kind=msg(f"kind.{k}")) for k in CRITTERS] + \
        [msg("undo.flip", kind=msg(f"kind.{k}")) for k in CRITTERS] + \
        [msg("undo.bids", cards="6 A X 5"), msg("undo.call_true"), msg("undo.call_false"), msg("undo.nothing")]
    out += [v.ConfirmUndo(SEAT, u) for u in undos]
    for winners, chips, tiebreak in (((6,), (24, 19, 10, 9), False), ((6,), (24, 24, 10, 9), True),
                                     ((5, 6), (3, 3, 24, 24), False), ((), (0, 0, 0, 0), False)):
        out.append(v.GameOver(SEATS4, chips, (2, 2, 2, 1), winners, tiebreak=tiebreak))
    out.append(v.Message(msg("pads.title"), (msg("pads.key_press", seat=6, key="X"),
                                             msg("pads.key_hold", seat=6, key="X"), msg("pads.press"))))
    out.append(v.Message(msg("pads.title"), (msg("pads.key_row_col", seat=6, key="X", row=40, col=38),
                                             msg("pads.key_pin", seat=6, key="X", pin=40))))
    # the wiring test names the header pins a key came in on: the widest are two-digit pins
    out.append(v.Message(msg("pads.title"), (msg("pads.key_row_col", seat=6, key="X", row=40, col=38),
                                             msg("pads.key_pin", seat=6, key="X", pin=40),
                                             msg("pads.press"))))
    out.append(v.Message(msg("pads.title"), (msg("pads.key_row_col", seat=6, key="X", row=40, col=38),
                                             msg("pads.key_pin", seat=6, key="X", pin=40),
                                             msg("pads.key_row_col", seat=6, key="A", row=38, col=40))))
    import errno

    from pitable.table import notices  # the game log's notices, longest values
    out += [notices.not_saving(code) for code in (errno.ENOSPC, errno.EROFS, errno.ENOTDIR, errno.EACCES, errno.EIO)]
    out += [notices.log_repaired(123456), notices.not_resumed(), notices.not_resumed(6)]
    out.append(v.CockroachOffer(6, "target", None, SEATS6, (10, 11, 11, 11, 11, 11)))
    out.append(v.CockroachOffer(2, "target", None, (1, 2), (27, 27)))
    out.append(v.CockroachOffer(6, "claim", 5, SEATS6, (10,) * 6))
    for k in CRITTERS:
        out.append(v.CockroachAnswer(6, 5, k, (4, 5), True, "decide", None, pass_to=(1, 2, 3)))
        out.append(v.CockroachAnswer(6, 5, k, (1, 2, 3, 4, 5), False, "decide", None))
        out.append(v.CockroachFlip(6, k, True))
        out.append(v.CockroachFlip(6, k, False))
        out.append(v.CockroachOver(SEATS6, (6,), "four_of_a_kind", k))
        out.append(v.CockroachOver((5, 6), (6,), "five_of_a_kind", k))
    out.append(v.CockroachAnswer(6, 5, "rat", (4, 5), True, "claim", 3, pass_to=(1, 2, 3)))
    out.append(v.CockroachOver(SEATS6, (6,), "empty_hand", None))
    out.append(v.CockroachRows(SEATS6, (27, 10, 10, 10, 10, 10), tuple({k: 3 for k in CRITTERS} for _ in SEATS6)))
    out.append(v.CockroachRows((5, 6), (27, 27), ({k: 4 for k in CRITTERS}, {"rat": 3})))
    out += sitting_views()
    return out


SEATS7 = SEATS6 + (ASSISTANT_SEAT + 1,)  # the evening's score: six pads and the Pi


def sitting_views():
    """The evening's score (hold A at the setup) for 1..7 seats, two-digit wins and
    losses, none counted yet and two-digit games."""
    out = []
    for n in range(1, len(SEATS7) + 1):
        for seats in {SEATS7[:n], SEATS7[-n:]}:
            for wins, losses in ((12, 10), (0, 0), (1, 19)):
                out.append(v.Sitting(12, seats, (wins,) * n, (losses,) * n))
    out.append(v.Sitting(0, (), (), ()))
    out.append(v.Sitting(1, (3, 4), (1, 0), (0, 0)))
    return out


TOASTS = sorted(i for i in catalog("en").entries if i.startswith("toast."))


def toast_views():
    values = dict(seat=PI2, n=6, last=5, kind=msg("kind.strawberry"), seats=(1, 2, 3, 4, 5))
    out = []
    for id in TOASTS:
        for k in (KINDS + CRITTERS if id == "toast.none_left" else (None,)):
            vals = {**values, **({"kind": msg(f"kind.{k}")} if k else {})}
            out.append(v.Bidding(12, 8, {"corn": 1}, SEATS4, (), 66, toast=msg(id, **vals)))
    return out


def problems(view, lang) -> list:
    found = layout_problems(view, lang)
    image = Image.new("1", (128 + 80, 64 + 80))
    c = Canvas(image, origin=(40, 40), size=(128, 64), lang=lang)
    draw(c, view)
    return found + [f"broken: {a!r} / {b!r}" for a, b in broken_names(c, lang)]


def _names(lang) -> list:
    say = catalog(lang).words
    return [say(msg(f"kind.{k}")) for k in KINDS + CRITTERS]


def broken_names(c, lang) -> list:
    """Rows (in drawing order) that end inside a count and its kind ("takes 1" / "corn")
    or inside a kind's name of several words ("châu" / "chấu", "stink" / "bug")."""
    pairs = [(a.replace("\u00a0", " "), b.replace("\u00a0", " ")) for rows in c.blocks for a, b in zip(rows, rows[1:])]
    out = []
    for a, b in pairs:
        a, b = a.rstrip(" ,"), b.lstrip()
        for name in _names(lang):
            words = name.split(" ")
            if b.startswith(name) and a.split(" ")[-1].isdigit():
                out.append((a, b))
            for i in range(1, len(words)):
                if a.endswith(" ".join(words[:i])) and b.startswith(" ".join(words[i:])):
                    out.append((a, b))
    return out


CASES = [(lang, view) for lang in LANGUAGES
         for view in instruction_views(lang) + screen_views(lang) + toast_views()]


def test_every_language_is_checked_on_every_screen():
    """The fit checks below cover every language on the same screens (a language's count
    differs only by the pages its words wrap to): one that lost a screen's cases would
    otherwise pass by being checked less."""
    per = {lang: sum(1 for case_lang, _ in CASES if case_lang == lang) for lang in LANGUAGES}
    assert max(per.values()) - min(per.values()) < 0.1 * max(per.values()) and min(per.values()) > 600, per


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_fits_its_layouts(lang):
    bad = []
    for case_lang, view in CASES:
        if case_lang != lang:
            continue
        for p in problems(view, lang):
            bad.append(f"{type(view).__name__}: {p}")
    assert not bad, f"{len(bad)} problems, first: " + "\n".join(sorted(set(bad))[:40])


def test_the_checker_sees_a_cut_an_overlap_and_ink_off_the_frame():
    """The test above is only as good as its checks."""
    too_long = v.Message(msg("pads.title"), ("x" * 400,))
    assert any(p.startswith("cut") for p in problems(too_long, "en"))
    assert any(p.startswith("overlap") for p in problems(
        v.Message("", ()), "en") + _overlapping())


def _overlapping():
    image = Image.new("1", (128, 64))
    c = Canvas(image, size=(128, 64))
    c.text(0, 0, "one")
    c.text(2, 2, "two")
    return [f"overlap: {a} {b}" for a, b in itertools.combinations(c.drawn, 2)
            if a[1][0] <= b[1][2] and b[1][0] <= a[1][2] and a[1][1] <= b[1][3] and b[1][1] <= a[1][3]]
