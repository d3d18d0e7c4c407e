"""Told in time: every line the real cards need (a take, a harvest, a plague and its discard,
a stalemate's card, a round's end) is on the glass, readable for a reading time, before the
next card is keyed and before the next lock-in, in the same words as the TV story.

Seeded whole real-card games on simulated pads (pins, debounce, loop, controllers, journal;
a hand-moved clock), in English, German and Vietnamese, with 2-4 pads, with and without the
Pi at both levels, with undos and a power cut mid-game. People read each new screen for a
reading time before they press; what replaces a screen by itself (the Pi's own move, the
bids reveal going on) must not take a line away sooner. The frames are the ones the display
received, and the lines are found in them by their words."""

from __future__ import annotations

import random

import pytest

from pitable.harness import ManualClock, SimTable
from pitable.i18n import ASSISTANT_SEAT, Msg, catalog
from pitable.narrator import NOW
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL, Reveal
from pitable.screens import views as v

READ = 1.0          # a reading time: a few short lines, from across the table
PERSON = 1.2        # a person reads a new screen this long before pressing


def shown_lines(view) -> tuple:
    """The lines a frame shows for the real cards (a key screen's, or a page's)."""
    if isinstance(view, v.Instructions):
        return tuple(view.lines) + (view.title,)
    if isinstance(view, v.RevealPrompt) and view.named:
        return ()
    return tuple(getattr(view, "told", ()) or ())


class Game:
    def __init__(self, tmp_path, lang, pads, pi, seed):
        self.tmp_path, self.lang, self.pads, self.pi, self.seed = tmp_path, lang, pads, pi, seed
        self.rng = random.Random(f"{lang}{pads}{pi}{seed}")
        self.frames: list = []      # (time, view, moves made, people locked in)
        self.checked = 0
        self.clock = ManualClock()
        self._open()

    def _open(self):
        assistant = {"seats": 0, "level": self.pi or "easy", "budget": 30}
        self.sim = SimTable(self.tmp_path / "logs", seats=max(self.pads, 2), clock=self.clock, language=self.lang,
                            assistant=assistant, assistant_worker="inline",
                            wiring="direct" if self.pads <= 3 else "matrix", rng=random.Random(self.seed),
                            on_frame=self._framed)

    def _framed(self, view):
        game = self.sim.table.current if hasattr(self, "sim") else None
        st = getattr(game, "state", None)
        moves = len(st.moves) if st is not None else 0
        people = sum(1 for p, by in getattr(game, "made_by", {}).items() if by != "pi")
        self.frames.append((self.clock(), view, moves, people, id(game)))

    def start(self):
        sim = self.sim
        sim.tap(1, 0)
        for pad in range(1, self.pads + 1):
            sim.tap(pad, 0)
        if self.pi:
            sim.tap(1, 5)                               # 6: the Pi plays (strong)
            if self.pi == "easy":
                sim.tap(1, 5)                           # 6 again: easy
        sim.tap(1, 6)
        sim.tap(1, 6)
        assert sim.game.deck is None                    # real garden cards

    def read(self):
        left = self.sim.changed_at + PERSON - self.clock()
        self.sim._wait(max(left, 0.05))

    def step(self):
        sim, game, rng = self.sim, self.sim.game, self.rng
        st = game.state
        self.read()
        if game.overlay or game.notices:
            if isinstance(sim.view(), v.BidsRevealed):
                sim._wait(3.2)                          # the bids hold, then go on by themselves
                if not game.notices or not isinstance(sim.view(), v.BidsRevealed):
                    return
            sim.tap(game.seats[0], 5)
        elif st.phase is REVEAL:
            by = game._reveal_by if game._named() else None
            sim.tap(by or game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]]))
        elif st.phase is BIDDING:
            waiting = [(p, pad) for p, pad in enumerate(game.seats) if pad <= ASSISTANT_SEAT and p not in game.pending]
            if not waiting:
                sim._wait(0.5)                          # the Pi thinks
                return
            p, pad = rng.choice(waiting)
            sim.tap(pad, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1]))
        elif st.phase is CHOOSING:
            if game.seats[st.chooser] > ASSISTANT_SEAT:
                sim._wait(0.5)                          # the Pi chooses (once the lines above it were read)
                return
            sim.tap(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))

    def undo(self):
        sim, game = self.sim, self.sim.game
        sim.long_press(game.seats[0], 7)                # hold X: undo?
        self.read()
        sim.tap(game.seats[0], 6)                       # A: yes

    def power_cut(self):
        # what this run of the daemon told, but the last move's lines: the power may go before
        # anyone read them, and the resumed table tells them again (checked with its frames)
        moves = len(self.sim.game.state.moves)
        self.check(upto=moves - 1)
        self.sim.close()
        self.frames = []
        self._open()
        self.since = max(moves - 1, 0)

    since = 0   # the first move whose lines this run of the daemon tells

    def check(self, upto=None):
        """Every line said now of every move made in this run: up a reading time before the
        next card keyed and the next lock-in of a person, in the story's words."""
        game = self.sim.game
        words = catalog(self.lang).words
        story = {words(line) for item in game.story() for line in item.lines if isinstance(line, Msg)}
        moves = game.state.moves
        frames = [f for f in self.frames if f[4] == id(game)]
        for i in range(self.since, len(moves) if upto is None else upto):
            told = game._tells[i]
            due = self._due(frames, moves, i)
            for line in told.lines:
                if line.when != NOW:
                    continue
                said = words(line.text)
                assert said in story, (said, "not in the TV story")
                up = self._up(frames, i + 1 if i >= self.since + 1 or not self.since else i, due, said, words)
                assert up >= READ, (self.lang, said, f"up {up:.2f} s before the next card or lock-in", i)
                self.checked += 1

    @staticmethod
    def _due(frames, moves, i):
        """When the table next acted on the cards after move ``i``: a card keyed (a later
        Reveal) or a person's lock-in."""
        later_reveal = next((j for j in range(i + 1, len(moves)) if isinstance(moves[j], Reveal)), None)
        for t, _view, made, people, _ in frames:
            if made > i + 1 and later_reveal is not None and made > later_reveal:
                return t
            if made == i + 1 and people:
                return t
        return float("inf")

    def _up(self, frames, made, due, said, words):
        """How long ``said`` was on the glass before ``due``, from the frame after move ``made``."""
        total = 0.0
        for k, (t, view, n, _, _) in enumerate(frames):
            if n < made or t >= due:
                continue
            end = min(frames[k + 1][0] if k + 1 < len(frames) else self.clock(), due)
            if said in {words(m) for m in shown_lines(view) if isinstance(m, Msg)}:
                total += end - t
        return total


CASES = [("en", 3, None, 1), ("de", 2, "easy", 2), ("vi", 4, None, 3), ("en", 2, "strong", 4),
         ("de", 3, "strong", 5), ("vi", 3, "easy", 6)]


@pytest.mark.parametrize("lang, pads, pi, seed", CASES)
def test_every_real_card_line_is_told_in_time_in_the_storys_words(tmp_path, lang, pads, pi, seed):
    g = Game(tmp_path, lang, pads, pi, seed)
    try:
        g.start()
        undo_at, cut_at = 25 + seed, 60 + 3 * seed
        for n in range(3000):
            if g.sim.game.state.is_over():
                break
            if n == undo_at and g.sim.game.state.moves and not g.sim.game.notices:
                g.undo()
            if n == cut_at:
                g.power_cut()
            g.step()
        else:
            raise AssertionError("the game did not end")
        while g.sim.game.notices:                       # the end's pages, read
            g.read()
            g.sim.tap(g.sim.game.seats[0], 5)
        g.read()
        g.check()
        assert g.checked > 20   # a whole game's takes, harvests and round ends
    finally:
        g.sim.close()
