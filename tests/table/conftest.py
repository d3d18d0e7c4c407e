import errno
import os
import random
import subprocess
import uuid

import pytest

from pitable.hardware.keys import KeyEvent
from pitable.i18n import ASSISTANT_SEAT
from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL
from pitable.table.app import Table


class Clock:
    """A clock the test moves by hand."""

    def __init__(self, t=1000.0):
        self.t = t

    def __call__(self):
        return self.t

    def advance(self, dt):
        self.t += dt


@pytest.fixture
def clock():
    return Clock()


def press(table, seat, key, action="press"):
    """Seat and key as printed on the pad: seat 1.., key index 0..7. Then, as the loop
    does before it shows a frame, wait for the key's log lines to be on disk."""
    if type(table.view()).__name__ == "BidsRevealed" and hasattr(table.clock, "advance"):
        table.clock.advance(getattr(table.current, "reveal_seconds", 0))  # the bids are read first: they hold
        if not table.view().keys:
            # they go on by themselves (they name no key): the time passing, as the loop
            # ticks, is what turns them; a press meant to turn them is not needed
            table.tick(table.clock())
            table.durable()
            if action == "press":
                return
    table.on_key(KeyEvent(seat - 1, key, action))
    table.durable()
    settle(table)


def settle(table):
    """Time passes as at a table: the Pi's move, held until the lines above its screen were
    up long enough to read, comes (the clock moves only as far as it must)."""
    for _ in range(4):
        game = table.current
        if getattr(game, "_waiting", None) is None or not hasattr(table.clock, "advance"):
            return
        due = game.next_deadline()
        if due is not None and due > table.clock():
            table.clock.advance(due - table.clock())
        table.tick(table.clock())
        table.durable()


def start_grasshopper(table, pads=(1, 2, 3), toggles=(), deck_toggle=False):
    press(table, pads[0], 0)  # game 1: Grasshopper Poker
    for pad in pads:
        press(table, pad, 0)  # join
    press(table, pads[0], 6)  # A: go on
    for key in toggles:
        press(table, pads[0], key)
    if deck_toggle:
        press(table, pads[0], 3)
    press(table, pads[0], 6)  # A: start
    return table.current


def play_on(table, rng, steps=5000, until=None):
    """Drive the current Grasshopper game with random legal keys until it ends (or until
    ``until(game)``). Keys go to the people's seats only: the Pi's seats play themselves."""
    game = table.current
    for _ in range(steps):
        st = game.state
        if st.is_over() or (until and until(game)):
            return game
        if game.overlay or game.notices:
            press(table, game.seats[0], 5)
        elif st.phase is REVEAL:
            press(table, game.seats[0], rng.choice([k for k in range(5) if st.unseen[k]]))
        elif st.phase is BIDDING:
            for p, pad in enumerate(game.seats):
                if pad <= ASSISTANT_SEAT and p not in getattr(game, "pending", {}):
                    press(table, pad, rng.choice([c for c in range(8) if not st.spent[p] >> c & 1]))
        elif st.phase is CHOOSING:
            assert game.seats[st.chooser] <= ASSISTANT_SEAT, "the Pi chooses by itself"
            press(table, game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))
    raise AssertionError("game did not end")


@pytest.fixture
def new_table(tmp_path, clock):
    def make(seats=4, log_dir="logs", **kw):
        return Table(seats=seats, log_dir=tmp_path / log_dir, clock=clock, rng=random.Random(7), **kw)
    return make


class Faults:
    """Simulated disk errors on the journal's system calls: ``fail["pwrite"] = ENOSPC``."""

    def __init__(self, monkeypatch):
        self.fail: dict = {}
        self.short = False  # pwrite writes half, then the next call fails
        for name in ("pwrite", "fsync", "ftruncate"):
            real = getattr(os, name)
            monkeypatch.setattr(os, name, self._wrap(name, real))

    def _wrap(self, name, real):
        def call(fd, *args):
            if name == "pwrite" and self.short and len(args[0]) > 1:
                self.short = False
                return real(fd, args[0][: len(args[0]) // 2], *args[1:])
            code = self.fail.get(name)
            if code:
                raise OSError(code, os.strerror(code))
            return real(fd, *args)
        return call


@pytest.fixture
def faults(monkeypatch):
    return Faults(monkeypatch)


@pytest.fixture
def small_disk(tmp_path):
    """A real 64 KiB tmpfs (root only); skipped where mounting is not allowed."""
    where = tmp_path / f"disk-{uuid.uuid4().hex[:6]}"
    where.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(where)],
                          capture_output=True)
    if done.returncode != 0:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], capture_output=True)


def fill(where):
    """Take every free byte of the filesystem; returns the filler to delete later."""
    filler = where / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"x" * 512)
        except OSError as e:
            assert e.errno == errno.ENOSPC
    return filler
