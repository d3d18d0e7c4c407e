"""One rule for keys and screens (docs/architecture.md, "Keys and screens"): a screen that
says "any key" takes no key as a move, whatever key of whatever seat; a screen on which a
key acts says which keys do what. The walk plays real games in every language and kind
of table (real and virtual garden cards, the Pi seated, Cockroach Poker) and presses
every key of every seat on the screens that say "any key"; the phone's buttons are read
off the same screens."""

from __future__ import annotations

import itertools
import random
import types

import pytest

from pitable.i18n import LANGUAGES, Msg, catalog, msg
from pitable.rules import cockroach as cr
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL
from pitable.screens import views as v
from pitable.table.app import Table
from pitable.table.cockroach import CockroachTable
from pitable.web.payload import seat_keys

from .conftest import press, start_grasshopper

KINDS = ["grasshopper", "corn", "strawberry", "broccoli", "blackberry"]
FIXED_FOOT = {v.Resumed: "foot.go_on", v.Scores: "foot.back", v.CockroachRows: "foot.back"}


def msgs_of(value):
    """Every Msg a view carries (nested in tuples too)."""
    if isinstance(value, Msg):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from msgs_of(item)


def says_any_key(view) -> bool:
    """What the screen says, in English: does it tell people to press any key?"""
    said = [catalog("en").words(m) for m in msgs_of(tuple(view))]
    if type(view) in FIXED_FOOT:
        said.append(catalog("en").words(msg(FIXED_FOOT[type(view)])))
    return any(s.startswith("Any key") for s in said)


def game_now(game) -> tuple:
    """Everything a key could change in the game: the moves, the secret bids, a half-made offer."""
    return (tuple(game.state.moves), dict(getattr(game, "pending", {})), getattr(game, "target", None))


def phone_labels(table, seat):
    """A phone's buttons as pitable.web.payload makes them from the screen's key table."""
    snap = types.SimpleNamespace(language=table.language, private={}, keys=table.view().keys)
    return seat_keys(snap, seat)


def new(tmp_path, lang, **kw):
    clock = lambda: 1000.0  # noqa: E731 - informing screens wait for a key here
    # reveal_seconds 0: the bids' least time on the glass is tests/table/test_reveal_event.py's
    return Table(seats=4, log_dir=tmp_path / f"logs-{lang}", clock=clock, rng=random.Random(3),
                 language=lang, assistant_worker="inline", reveal_seconds=0, **kw)


def legal_move(table, rng) -> None:
    game = table.current
    st = game.state
    if isinstance(game, CockroachTable):
        if st.phase == cr.OFFER:
            p = st.active
            if game.target is None:
                others = [q for q in range(st.players) if q != p]
                press(table, game.seats[p], game.seats[rng.choice(others)] - 1)
            else:
                press(table, game.seats[p], rng.randrange(8))
        elif st.phase == cr.ANSWER:
            p = st.to
            if game.target is None and st.can_pass() and rng.random() < 0.3:
                press(table, game.seats[p], game.seats[rng.choice(sorted(st.unseen_seats()))] - 1)
            elif game.target is not None:
                press(table, game.seats[p], rng.randrange(8))
            else:
                press(table, game.seats[p], rng.choice([6, 7]))
        elif st.phase == cr.LAY:   # quick mode: whoever takes the round's card presses its critter
            press(table, game.seats[rng.randrange(st.players)], rng.randrange(8))
        else:
            press(table, game.seats[0], rng.randrange(8))
        return
    if st.phase is REVEAL:
        press(table, game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]]))
    elif st.phase is BIDDING:
        for p, pad in enumerate(game.seats):
            if pad <= 6 and p not in game.pending and st.phase is BIDDING and not game.notices:
                free = [c for c in range(8) if not st.spent[p] >> c & 1]
                assert free, (st.to_json(), p, game.pending, table.view())
                press(table, pad, rng.choice(free))
    elif st.phase is CHOOSING:
        press(table, game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))


TABLES = {
    "real_cards": dict(pads=(1, 2, 3), start=lambda t: start_grasshopper(t, pads=(1, 2, 3))),
    "virtual_cards": dict(pads=(1, 2, 3, 4), start=lambda t: start_grasshopper(t, pads=(1, 2, 3, 4), deck_toggle=True)),
    "pi_seated": dict(pads=(1, 2), start=None),
    "cockroach": dict(pads=(1, 2, 3, 4), start=None),
    "cockroach_quick": dict(pads=(1, 2, 3, 4), start=None),
}


def start(table, kind):
    if kind == "pi_seated":
        press(table, 1, 0)
        for pad in (1, 2):
            press(table, pad, 0)
        press(table, 1, 5)  # the Pi takes a seat
        press(table, 1, 6)
        press(table, 1, 6)
    elif kind in ("cockroach", "cockroach_quick"):
        press(table, 1, 1)
        for pad in (1, 2, 3, 4):
            press(table, pad, 0)
        press(table, 1, 6)
        if kind == "cockroach":
            press(table, 1, 1)  # key 2: mode full
        press(table, 1, 6)
    else:
        TABLES[kind]["start"](table)
    return table.current


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("kind", list(TABLES))
def test_no_key_of_any_seat_on_a_screen_that_says_any_key_is_a_move(tmp_path, lang, kind):
    """Every key (1-6, A, X) of every seat (and a seat not in the game) on every screen that
    says "any key", through a whole game: the game is the same after it, the screen moves
    on; the phone's buttons on it all say the same thing (none is a bid or a kind)."""
    table = new(tmp_path, lang, assistant={"seats": 0, "level": "easy", "budget": 4})
    game = start(table, kind)
    if kind != "cockroach":
        game.fits = lambda view: False  # every turn's lines on pages (the fallback): the most "any key" screens
    rng = random.Random(f"{lang}-{kind}")
    presses = itertools.cycle([(s, k) for k in range(8) for s in (1, 2, 3, 4)])
    seen = 0
    for _ in range(3000):
        if game.state.is_over():
            break
        view = table.view()
        if says_any_key(view):
            labels = {b["label"] for b in phone_labels(table, game.seats[0])}
            assert len(labels) == 1, (view, labels)
            before = game_now(game)
            seat, key = next(presses)
            press(table, seat, key)
            assert game_now(game) == before, (lang, kind, view, seat, key)
            assert table.view() != view
            seen += 1
        else:
            legal_move(table, rng)
    # quick mode: the deal's pages are its only ones (a round's press goes on by itself)
    assert game.state.is_over() and seen > {"cockroach": 5, "cockroach_quick": 0}.get(kind, 20)


def finish_bids(table, bids):
    for seat, key in bids:
        press(table, seat, key)


@pytest.mark.parametrize("seat,key", [(s, k) for s in (1, 2, 3) for k in range(8)])
def test_the_key_that_closes_the_last_instruction_page_is_no_bid(new_table, seat, key):
    """The issue's case: "Display / New: ... / Any key" then everyone bids: X on seat 1 (or
    any key of any seat) only closes the page; the bidding screen asks for the bids."""
    table = new_table()
    game = start_grasshopper(table)
    game.fits = lambda view: False  # the turn's lines on pages, as when they do not fit the card entry
    for k in (1, 1, 3):  # corn, corn, broccoli
        press(table, 1, k)
    finish_bids(table, ((1, 5), (2, 4), (3, 3)))   # 6 > 5 > 4: S1, S2, S3 choose
    press(table, 1, 0)  # closes the bids reveal
    press(table, 1, 1)  # S1 chooses the corn (its key, 2); S2 gets the broccoli (forced), S3 nothing
    while len(game.notices) > 1:
        press(table, 1, 7)
    assert isinstance(table.view(), v.Instructions) and game.state.phase is REVEAL
    moves = len(game.state.moves)
    press(table, seat, key)
    assert len(game.state.moves) == moves and not game.notices
    assert isinstance(table.view(), v.RevealPrompt)


@pytest.mark.parametrize("key", range(8))
def test_the_key_that_closes_the_bids_reveal_is_no_choice(new_table, key):
    table = new_table()
    game = start_grasshopper(table)
    for k in (1, 1, 3):
        press(table, 1, k)
    finish_bids(table, ((1, 5), (2, 4), (3, 7)))
    assert isinstance(table.view(), v.BidsRevealed)
    press(table, 1, key)  # the chooser's own key, a kind's key included
    assert game.state.phase is CHOOSING and len(game.state.moves) == 4
    assert isinstance(table.view(), v.Choosing)


@pytest.mark.parametrize("key", range(8))
def test_the_resumed_screen_takes_no_key_as_a_card(new_table, key):
    """Resumed in the reveal step with real garden cards: "Any key: go on" records nothing."""
    table = new_table()
    game = start_grasshopper(table)
    press(table, 1, 1)  # one card of three named
    table.close()
    again = new_table()
    assert isinstance(again.view(), v.Resumed)
    press(again, 2, key)
    assert again.current.state.moves == game.state.moves
    assert isinstance(again.view(), v.RevealPrompt)


@pytest.mark.parametrize("key", range(8))
def test_the_resumed_screen_takes_no_key_as_a_bid(new_table, key):
    table = new_table()
    start_grasshopper(table)
    for k in (1, 2, 3):
        press(table, 1, k)
    press(table, 1, 3)  # a pending bid: never on disk
    table.close()
    again = new_table()
    view = again.view()
    assert isinstance(view, v.Resumed) and view.rebid
    press(again, 1, key)
    assert again.current.pending == {}
    assert isinstance(again.view(), v.Bidding) and again.view().locked == ()


def start_cockroach3(table):
    press(table, 1, 1)
    for pad in (1, 2, 3):
        press(table, pad, 0)
    press(table, 1, 6)
    press(table, 1, 1)  # key 2: mode full
    press(table, 1, 6)
    return table.current


@pytest.mark.parametrize("key", range(8))
def test_the_key_that_closes_the_card_notice_is_no_offer(new_table, key):
    table = new_table()
    game = start_cockroach3(table)
    press(table, 1, 1)
    press(table, 1, 2)  # S1 -> S2 "bat"
    press(table, 2, 7)  # "false"
    press(table, 3, 2)  # it is a bat: S2 takes it and starts
    while len(game.notices) > 1:
        press(table, 3, 6)
    press(table, 2, key)
    view = table.view()
    assert isinstance(view, v.CockroachOffer) and view.step == "target" and game.target is None


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_last_page_says_any_key_and_what_comes_after(new_table, lang):
    """The footer of the last page before a step says the key only goes on ("Any key, then
    ..."), not "Next: everyone bids" (read as: the key bids)."""
    table = new_table(language=lang)
    start_grasshopper(table)
    for k in (1, 1, 3):
        press(table, 1, k)
    finish_bids(table, ((1, 5), (2, 4), (3, 7)))
    anykey = catalog(lang).words(msg("foot.next")).split(":")[0]
    for m in (msg("foot.bid"), msg("foot.reveal"), msg("foot.choose", seat=3, last=2),
              msg("foot.offers", seat=2), msg("foot.results")):
        assert catalog(lang).words(m).startswith(anykey), (lang, m)
    # the bids reveal goes on by itself: it names no key, and what comes after it
    view = table.view()
    assert not says_any_key(view) and view.keys == ()
    assert catalog(lang).words(view.foot) == catalog(lang).words(msg("then.choose", seat=1, last=2))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_phone_button_says_what_its_key_does_now(new_table, lang):
    """Each button is labelled with what that key does on the screen shown now: on a page
    all eight go on (none is "1", a bid); on the reveal prompt, once a seat names the
    cards, the others' buttons are off; on the bids reveal, which goes on by itself, all
    are off; on a notice about the log, go on."""
    say = catalog(lang).words
    table = new_table(language=lang)
    start_grasshopper(table)
    assert [b["label"] for b in phone_labels(table, 2)][:5] == [say(msg(f"kind.{k}")) for k in KINDS]
    press(table, 1, 1)
    assert not any(b["on"] for b in phone_labels(table, 2))
    assert [b["on"] for b in phone_labels(table, 1)] == [True] * 5 + [False] * 3
    press(table, 1, 1)
    press(table, 1, 3)
    finish_bids(table, ((1, 5), (2, 4), (3, 7)))
    assert not any(b["on"] for b in phone_labels(table, 1))
    from pitable.table import notices
    table._notice(notices.not_saving(28))
    assert {b["label"] for b in phone_labels(table, 3)} == {say(msg("key.go_on"))}
