"""One key table per screen (docs/architecture.md, "Keys and screens"): every view carries
what each key of each seat does there; the controller acts on it, the phone's buttons show
it, and the loop takes a key only if the table of the screen its presser saw (up a reaction
time before the key went down) gives it the same meaning as the table of the screen now.

Whole seeded games on simulated pads with a hand-moved clock (Grasshopper Poker with real
and virtual garden cards, the Pi seated at both levels, Cockroach Poker; en, de, vi): 0.05 s
after every change of the glass a key of every seat goes down at once. None is taken unless
both tables give it the same meaning."""

from __future__ import annotations

import random
import types

import pytest

from pitable.harness import ManualClock, SimTable
from pitable.i18n import ASSISTANT_SEAT, Msg, catalog
from pitable.keys import NAMES
from pitable.rules import cockroach as cr
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL
from pitable.screens import views as v
from pitable.screens.views import meaning
from pitable.web.payload import seat_keys

REACTION = 0.3
SOON = 0.05


class Watched:
    """A SimTable whose frames (with their key tables) and passed keys are recorded."""

    def __init__(self, tmp_path, **kw):
        kw.setdefault("notice_seconds", 8.0)
        self.frames: list = []          # (when, key table) of every frame the glass got
        clock = ManualClock()
        self.sim = SimTable(tmp_path / "logs", seats=3, clock=clock,
                            on_frame=lambda view: self.frames.append((clock(), view.keys)), **kw)
        self.down: dict = {}            # (seat, key) -> when it last went down
        self.passed: list = []          # (seat, key, what it meant seen, what it means now)
        on_key = self.sim.table.on_key

        def record(event):
            if event.action == "press":
                seat, key = event.seat + 1, event.key
                seen = self.table_at(self.down.get((seat, key), self.sim.clock()) - REACTION)
                now = self.sim.view().keys
                self.passed.append((seat, key, meaning(seen, seat, key), meaning(now, seat, key)))
            on_key(event)

        self.sim.table.on_key = record

    def table_at(self, t: float) -> tuple:
        """The key table of the frame on the glass at ``t``."""
        return next((keys for when, keys in reversed(self.frames) if when <= t), self.frames[0][1])

    def tap(self, seat: int, key: int) -> None:
        self.sim.read()
        self.down[(seat, key)] = self.sim.clock()
        self.sim.keys.press(seat - 1, key)
        self.sim._wait(self.sim.bounce + 0.03)
        self.sim.keys.release(seat - 1, key)
        self.sim._wait(self.sim.bounce + 0.03)

    def strays(self, rng, after: float = SOON) -> list:
        """A key of every seat down at once ``after`` s after the glass last changed; what
        each meant on the screen before and means now, for those the loop passed on."""
        sim = self.sim
        due = sim.changed_at + after
        if sim.clock() < due:
            sim._wait(due - sim.clock())
        n = len(self.passed)
        keys = [(seat, rng.randrange(8)) for seat in (1, 2, 3)]
        for seat, key in keys:
            self.down[(seat, key)] = sim.clock()
            sim.raw_keys.press(seat - 1, key)
        sim._wait(sim.bounce + 0.04)
        for seat, key in keys:
            sim.raw_keys.release(seat - 1, key)
        sim._wait(sim.bounce + 0.03)
        return self.passed[n:]


def start(w, kind):
    sim = w.sim
    pads = (1, 2) if kind.startswith("pi") else (1, 2, 3)
    w.tap(1, 1 if kind.startswith("cockroach") else 0)  # 1: Grasshopper Poker, 2: Cockroach Poker
    for pad in pads:
        w.tap(pad, 0)                               # join
    if kind == "pi_strong":
        w.tap(1, 5)                                 # 6: the Pi takes a seat (strong)
    elif kind == "pi_easy":
        w.tap(1, 5)
        w.tap(1, 5)                                 # ... easy
    w.tap(1, 6)                                     # A: go on
    if kind == "virtual_cards":
        w.tap(1, 3)                                 # 4: Cards: virtual
    if kind == "cockroach":
        w.tap(1, 1)                                 # 2: mode full (offers, passes, calls), not quick
    w.tap(1, 6)                                     # A: start
    return sim.game


def asked(game, rng):
    """(seat, key) the game's screen asks for now, or None (the end, the Pi thinks, or the
    glass goes on by itself)."""
    st = game.state
    if st.is_over():
        return None
    if game.overlay or game.notices:
        return None if game._moves_on_by_itself() else (game.seats[0], 5)
    if game.game == cr.GAME:
        if st.phase == cr.OFFER:
            me = game.seats[st.active]
            if game.target is None and game._only_target() is None:
                return me, rng.choice([s for s in game.seats if s != me]) - 1
            return me, rng.randrange(8)
        if st.phase == cr.ANSWER:
            me = game.seats[st.to]
            if game.target is not None:
                return me, rng.randrange(8)
            if st.can_pass() and rng.random() < 0.3:
                return me, game.seats[rng.choice(sorted(st.unseen_seats()))] - 1
            return me, rng.choice([6, 7])
        return game.seats[0], rng.randrange(8)      # the flip; in quick mode, the card laid
    if st.phase is REVEAL:
        by = game._reveal_by if game._named() else None
        return by or game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]])
    if st.phase is BIDDING:
        for p, pad in enumerate(game.seats):
            if pad <= ASSISTANT_SEAT and p not in game.pending:
                return pad, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1])
        return None
    if st.phase is CHOOSING and game.seats[st.chooser] <= ASSISTANT_SEAT:
        return game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]])
    return None


KINDS = ["real_cards", "virtual_cards", "pi_easy", "pi_strong", "cockroach", "cockroach_quick"]


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
@pytest.mark.parametrize("kind", KINDS)
def test_a_key_soon_after_a_change_is_taken_only_if_both_key_tables_mean_it_alike(tmp_path, lang, kind):
    rng = random.Random(f"{lang}-{kind}")
    assistant = {"seats": 0, "level": "easy", "budget": 4}
    w = Watched(tmp_path, language=lang, assistant=assistant, assistant_worker="inline")
    sim = w.sim
    try:
        game = start(w, kind)
        w.passed.clear()
        changes = strays_taken = strays_dropped = 0
        for _ in range(3000):
            if game.state.is_over():
                break
            before = sim.changed_at
            nxt = asked(game, rng)
            if nxt is None:
                sim._wait(0.5)      # the bids go on by themselves; the Pi thinks
            else:
                w.tap(*nxt)
            if sim.changed_at == before or game.state.is_over():
                continue
            changes += 1
            n = len(w.passed)
            for seat, key, seen, now in w.strays(rng):
                assert seen == now, (lang, kind, seat, key, seen, now, sim.view())
            passed = len(w.passed) - n
            strays_taken += passed
            strays_dropped += 3 - passed
        assert game.state.is_over(), "the game did not end"
        # quick mode's one screen means the same every round (key k lays critter k): its
        # strays are taken (each lays a card: the game is short) but around the deal's pages
        least = 5 if kind == "cockroach_quick" else 20
        assert changes > least and strays_dropped > least and strays_taken > least, \
            (changes, strays_dropped, strays_taken)
        # every key the loop passed on, the legal ones too, meant the same on both screens
        assert all(seen == now for _, _, seen, now in w.passed)
    finally:
        sim.close()


def to_bids(w, cards=((1, 2), (2, 3), (3, 1))):
    """Three real cards named, then bids 3 4 2: S2 chooses first, then S1."""
    start(w, "real_cards")
    for k in (1, 2, 3):
        w.tap(1, k)
    for seat, card in cards:
        w.tap(seat, card)
    assert isinstance(w.sim.view(), v.BidsRevealed)


@pytest.mark.parametrize("key", range(8))
def test_a_key_just_after_the_bids_went_on_by_themselves_is_no_choice(tmp_path, key):
    """The bids reveal goes on by itself to "S2: choose"; the chooser's key going down
    0.05 s after that change was aimed at the bids, and chooses nothing."""
    w = Watched(tmp_path)
    sim = w.sim
    try:
        to_bids(w)
        sim._wait(3.0 + 0.01)                       # reveal_seconds: the chooser's screen comes
        assert isinstance(sim.view(), v.Choosing) and sim.view().seat == 2
        moves = len(sim.game.state.moves)
        w.down[(2, key)] = sim.clock() + SOON - (sim.clock() - sim.changed_at)
        sim._wait(SOON - (sim.clock() - sim.changed_at))
        sim.press_raw(2, key, down=0.04)
        assert len(sim.game.state.moves) == moves and isinstance(sim.view(), v.Choosing)
        assert sim.view().toast is not None        # "not taken, the screen changed"
        w.tap(2, 2)                                  # read, then chosen: taken
        assert len(sim.game.state.moves) == moves + 1
    finally:
        sim.close()


@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_the_bids_reveal_names_no_key_while_it_goes_on_by_itself(tmp_path, lang):
    w = Watched(tmp_path, language=lang)
    try:
        to_bids(w)
        view = w.sim.view()
        say = catalog(lang).words
        assert view.keys == () and not say(view.foot).startswith(say(Msg("foot.next")).split(":")[0])
        assert say(view.foot) == say(Msg("then.choose", (("seat", 2), ("last", 3))))
    finally:
        w.sim.close()


def test_the_bids_reveal_waits_for_a_key_with_notice_seconds_0_and_says_so(tmp_path):
    w = Watched(tmp_path, notice_seconds=0)
    sim = w.sim
    try:
        to_bids(w)
        assert sim.view().keys == ()
        sim._wait(3.0 + 0.01)
        sim._wait(30.0)
        view = sim.view()
        assert isinstance(view, v.BidsRevealed) and view.keys and view.foot.id == "foot.choose"
        w.tap(3, 0)                                  # any key goes on, and only goes on
        assert isinstance(sim.view(), v.Choosing) and sim.view().seat == 2
    finally:
        sim.close()


def test_the_resumed_notice_waits_for_a_key_and_takes_one(tmp_path):
    w = Watched(tmp_path)
    start(w, "real_cards")
    for k in (1, 2, 3):
        w.tap(1, k)
    w.sim.close()
    w = Watched(tmp_path)
    sim = w.sim
    try:
        assert isinstance(sim.view(), v.Resumed)
        sim._wait(60.0)                              # nothing under "Any key: go on" goes by itself
        assert isinstance(sim.view(), v.Resumed) and sim.view().keys
        w.tap(1, 0)                                  # turns the notice, bids nothing
        assert isinstance(sim.view(), v.Bidding) and sim.game.pending == {}
        w.tap(1, 0)                                  # read, then bid: taken
        assert sim.game.pending == {0: 0}
    finally:
        sim.close()


def test_the_cockroach_result_pages_wait_for_a_key(tmp_path):
    w = Watched(tmp_path)
    sim = w.sim
    try:
        game = start(w, "cockroach")
        while game.notices:                          # the deal
            w.tap(1, 6)
        first = game.seats[game.state.active]
        other = next(s for s in game.seats if s != first)
        w.tap(first, other - 1)                      # to whom
        w.tap(first, 2)                              # "bat"
        w.tap(other, 7)                              # "false"
        w.tap(1, 2)                                  # it is a bat
        page = sim.view()
        assert isinstance(page, v.Instructions) and page.keys
        sim._wait(60.0)
        assert sim.view() == page                    # still there: it waits for a key
        offers = len(game.state.moves)
        while game.notices:
            w.tap(other, 0)                          # each key turns one page, offers nothing
        assert isinstance(sim.view(), v.CockroachOffer) and len(game.state.moves) == offers
        assert game.target is None
    finally:
        sim.close()


def buttons(keys, seat):
    """What a seat's 8 buttons should be from a key table: label and whether on."""
    out = []
    for i, name in enumerate(NAMES):
        does = meaning(keys, seat, i)
        k = next((k for k in keys if k.key == i and (k.seats is None or seat in k.seats)), None)
        out.append((name, does is not None, k.label if k is not None else name))
    return out


@pytest.mark.parametrize("kind", ["real_cards", "virtual_cards", "pi_easy", "cockroach"])
def test_the_phone_buttons_are_the_screens_key_table(tmp_path, kind):
    """On every screen of a whole game, each seat's buttons on its phone are the screen's
    key table for that seat: a key it gives a meaning is on with its label, every other off."""
    rng = random.Random(kind)
    w = Watched(tmp_path, language="de", assistant={"seats": 0, "level": "easy", "budget": 4},
                assistant_worker="inline")
    sim = w.sim
    say = catalog("de").words
    try:
        game = start(w, kind)
        screens = 0
        for _ in range(3000):
            if game.state.is_over():
                break
            keys = sim.view().keys
            snap = types.SimpleNamespace(language="de", private={}, keys=keys)
            for seat in (1, 2, 3, 4, 5, 6):
                want = [{"name": n, "on": on, "label": say(label) if isinstance(label, Msg) else label,
                         "mine": False} for n, on, label in buttons(keys, seat)]
                assert seat_keys(snap, seat) == want
            screens += 1
            nxt = asked(game, rng)
            if nxt is None:
                sim._wait(0.5)
            else:
                w.tap(*nxt)
        assert game.state.is_over() and screens > 20
    finally:
        sim.close()


def test_a_key_aimed_at_a_page_never_turns_the_next_one_however_alike(tmp_path):
    """Two pages that read the same are two notices with their own serial numbers: seat 2's
    key, aimed at the page seat 1 just turned, leaves the next one up (silently)."""
    from pitable.i18n import msg

    w = Watched(tmp_path)
    sim = w.sim
    try:
        game = start(w, "real_cards")
        for _ in range(2):
            game._add_lines(msg("title.turn", turn=1), (msg("line.no_majority"),))
        sim._wait(1.0)
        first, second = game.notices
        assert first[:-1] == second[:-1] and v.page_serial(first) != v.page_serial(second)
        w.tap(1, 0)
        assert game.notices == [second]
        w.strays(random.Random(2))                  # every seat, 50 ms after the page turned
        assert game.notices == [second] and sim.view().toast is None
    finally:
        sim.close()


def test_a_hold_begun_as_the_screen_changed_opens_nothing(tmp_path):
    """A hold is judged by the whole key table: begun 50 ms after the bids page was turned
    into the chooser's screen, it opens no scores; begun once that screen was read, it does."""
    w = Watched(tmp_path, notice_seconds=0)
    sim = w.sim
    try:
        to_bids(w)
        sim._wait(3.5)                               # the bids wait for a key now
        w.tap(1, 0)
        assert isinstance(sim.view(), v.Choosing)
        sim._wait(SOON - (sim.clock() - sim.changed_at))
        sim.raw_keys.press(2, 6)                     # seat 3 holds A
        sim._wait(sim.hold_time + 0.1)
        sim.raw_keys.release(2, 6)
        sim._wait(0.1)
        assert sim.game.overlay is None and isinstance(sim.view(), v.Choosing)
        sim.long_press(3, 6)                         # read, then held: the scores
        assert sim.game.overlay is not None and sim.game.overlay[0] == "scores"
    finally:
        sim.close()


def test_a_phone_key_is_judged_by_the_key_table_of_the_version_its_page_showed(tmp_path):
    """A phone's tap names the screen version its page showed: the bids' version (no keys)
    after the chooser's screen came, chooses nothing; the chooser's own version chooses."""
    from pitable.hardware.keys import KeyEvent

    w = Watched(tmp_path)
    sim = w.sim
    try:
        to_bids(w)
        bids = sim.loop.version
        sim._wait(3.05)
        assert isinstance(sim.view(), v.Choosing) and sim.loop.version > bids
        moves = len(sim.game.state.moves)
        sim.loop.post(KeyEvent(1, 1, "press", by=("phone", "s"), screen=bids))
        sim._wait(0.05)
        assert len(sim.game.state.moves) == moves
        sim.loop.post(KeyEvent(1, 1, "press", by=("phone", "s"), screen=sim.loop.version))
        sim._wait(0.05)
        assert len(sim.game.state.moves) == moves + 1
    finally:
        sim.close()
