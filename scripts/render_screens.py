#!/usr/bin/env python3
"""Draw the screens of real games to docs/screens/<lang>/*.png, for people.

Every screen comes from a game reached by keys through the real controllers (the
setup, the Grasshopper and Cockroach tables, resume from the log): a preview cannot
show what the table never would. The same games are played in every language, so
docs/screens/en, de and vi hold the same screen names.

Each frame is scaled up 4x (nearest neighbour) and tinted like an OLED (white, or
blue with ``--blue``) on black, with a thin border; ``all.png`` is a contact sheet.

    PYTHONPATH=. python scripts/render_screens.py [--out docs/screens] [--blue] [--lang de]
"""

from __future__ import annotations

import argparse
import pathlib
import random
import sys
import tempfile
import time

from PIL import Image

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from pitable.hardware.keys import KeyEvent  # noqa: E402
from pitable.i18n import LANGUAGES  # noqa: E402
from pitable.rules.grasshopper import BIDDING, CHOOSING, KINDS, REVEAL  # noqa: E402
from pitable.screens import views as v  # noqa: E402
from pitable.screens.font import text_image  # noqa: E402
from pitable.screens.render import render  # noqa: E402
from pitable.table.app import Table  # noqa: E402
from pitable.table.base import TOAST_SECONDS  # noqa: E402
from pitable.web.access import Phones  # noqa: E402

K = {k: i for i, k in enumerate(KINDS)}
A, X = 6, 7


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self):
        return self.t


class Play:
    """A table driven by keys; ``shot(name)`` keeps the frame it shows now."""

    def __init__(self, lang: str, log_dir: pathlib.Path, seats: int = 4, shots: dict | None = None, **kw):
        self.lang, self.log_dir, self.seats_wired = lang, log_dir, seats
        self.clock = Clock()
        self.table = Table(seats=seats, log_dir=log_dir, clock=self.clock, rng=random.Random(7),
                           language=lang, **kw)
        self.shots = shots if shots is not None else {}

    def press(self, pad: int, key: int, action: str = "press") -> None:
        if isinstance(self.table.view(), v.BidsRevealed):
            self.wait(getattr(self.game, "reveal_seconds", 0))  # the bids are read first (they hold)
        self.table.on_key(KeyEvent(pad - 1, key, action))
        self.table.durable()

    def hold(self, pad: int, key: int) -> None:
        self.press(pad, key, "hold")

    def shot(self, name: str) -> None:
        if not name.startswith("toast"):
            self.wait(TOAST_SECONDS + 0.1)  # a refusal's toast has gone by the time people look
        view = self.table.view()
        self.shots[name] = render(view, self.lang)

    def wait(self, seconds: float) -> None:
        """Time passes (a toast goes, an informing screen moves on)."""
        self.clock.t += seconds
        self.table.tick(self.clock.t)

    @property
    def game(self):
        return self.table.current

    def reveal(self, *kinds: str) -> None:
        for kind in kinds:
            self.press(1, K[kind])

    def bid(self, *pairs) -> None:
        for pad, key in pairs:
            self.press(pad, key)

    def read(self) -> None:
        """Every notice read: the first player's X names no kind and chooses nothing (before
        a bid it is that seat's bid, which its next press replaces)."""
        while self.game.notices:
            self.press(self.game.seats[0], X)


def grasshopper_setup(p: Play, pads=(1, 2, 3, 4), deck_toggle=False, toggles=()) -> None:
    p.press(pads[0], 0)
    for pad in pads:
        p.press(pad, 0)
    p.press(pads[0], A)
    for key in toggles:
        p.press(pads[0], key)
    if deck_toggle:
        p.press(pads[0], 3)
    p.press(pads[0], A)


def play_grasshopper(p: Play) -> None:
    """Setup screens, then a 4-player game with real garden cards: the common screens."""
    p.shot("setup_game")
    p.press(1, 0)
    p.shot("setup_join_empty")
    p.press(3, 0)
    p.shot("toast_setup")          # A with one player: "Need 2 players"
    p.press(3, A)
    p.shot("toast_setup")
    p.press(1, 0)
    p.wait(3)
    p.shot("setup_join")
    for pad in (2, 4):
        p.press(pad, 0)
    p.press(1, A)
    p.press(1, 0)                  # beginners' X on
    p.press(1, 1)                  # X beats 2 Aces on: the beginners' rule rules
    p.shot("setup_options")
    p.press(1, 0)
    p.press(1, 1)                  # both off again
    p.press(1, A)
    p.shot("reveal_start")
    p.reveal("grasshopper", "corn")
    p.shot("reveal_start_2")       # "Card 3 of 3", the kinds so far, the seat that names them
    p.reveal("strawberry")
    p.shot("bidding_none")
    p.bid((2, 4), (4, 1))
    p.shot("bidding_some")
    p.bid((1, 4), (3, 5))          # 5, 5 cancel; S3's 6 and S4's 2 choose
    p.shot("bids_order")
    p.hold(2, 2)                   # a hold that does nothing: its toast takes the footer's place
    p.shot("toast_bids_reveal")
    p.wait(3)
    p.press(1, X)                  # not the chooser: only leaves the reveal
    p.shot("choosing")
    p.press(2, 0)
    p.shot("toast_choosing")
    p.wait(3)
    p.press(3, 1)                  # S3 takes the corn; S4 chooses from two, told what S3 takes
    p.shot("choosing_told")
    p.press(4, 0)                  # S4 takes the grasshopper: the card entry says so on top
    p.shot("reveal_told")
    p.reveal("corn")
    p.shot("reveal_refill")
    p.reveal("corn")
    p.bid((1, 6), (2, 7), (3, 0))
    p.press(4, 4)                  # S1's Ace, S2's X: the X beats the Ace
    p.shot("bids_x")
    p.press(1, X)
    p.shot("reveal_takes_all")
    p.read()
    p.reveal("broccoli", "broccoli", "blackberry")
    p.bid((1, 2), (2, 3), (3, 6), (4, 5))  # S3's Ace takes all
    p.shot("bids_ace")
    p.read()
    p.reveal("corn", "strawberry", "blackberry")
    p.bid((1, 1))
    p.press(2, 7)                  # S2's X is spent: refused, said without the card
    p.shot("toast_bidding")
    p.bid((1, 7), (3, 7), (2, 2), (4, 2))  # X and X, 3 and 3: all cancelled, a stalemate
    p.shot("bids_stalemate")
    p.wait(3.1)                    # the bids go on by themselves to the card entry
    p.shot("reveal_stalemate")     # the bid cards are spent, said in the title's place
    p.read()
    p.reveal("grasshopper")
    p.hold(2, A)
    p.shot("scores")
    p.press(2, 0)
    p.hold(3, X)
    p.shot("confirm_undo")
    p.press(3, X)
    p.hold(2, 5)                   # hold 6: drop the game?
    p.shot("confirm_drop")
    p.press(2, 0)                  # no: the game goes on
    p.bid((1, 0), (2, 1), (3, 1), (4, 3))  # 2 and 2 cancel: S4's 4, then S1's 1
    p.shot("bids_order_2")
    p.wait(3.1)
    p.press(1, 5)                  # go on
    p.hold(2, 0)                   # hold 1: the last bids again
    p.shot("bids_again")
    p.press(2, 0)
    p.read()
    while p.game.state.phase is CHOOSING:
        p.press(p.game.seats[p.game.state.chooser], next(k for k, n in enumerate(p.game.state.display) if n))
    p.read()


def play_nothing_and_plague(p: Play) -> None:
    """3 players: one kind on display, so the later choosers get nothing; then a plague."""
    grasshopper_setup(p, pads=(1, 2, 3))
    p.reveal("corn", "corn", "corn")
    p.bid((1, 5), (2, 4), (3, 3))  # 6, 5, 4: S1 takes the corn (and harvests), the others get nothing
    p.press(2, X)
    p.shot("reveal_nothing")
    p.read()                       # where the lines did not fit the card entry: its pages
    p.reveal("grasshopper", "grasshopper", "grasshopper")
    p.bid((1, 6), (2, 0), (3, 1))  # S1's Ace: three grasshoppers, a plague
    p.press(2, X)
    p.shot("reveal_plague")
    p.read()


def play_assistant(p: Play) -> None:
    """Two pads join and key 6 seats the assistant (it plays Grasshopper Poker with them)."""
    p.press(1, 0)
    p.press(1, 0)
    p.press(3, 0)
    p.press(1, 5)
    p.shot("setup_join_pi")


def play_with_phones_and_the_pi(p: Play) -> None:
    """Phones on (config web:): who plays with the Pi's level and the phone key; a phone's QR."""
    p.press(1, 0)
    for pad in (1, 2):
        p.press(pad, 0)
    p.press(1, 4)                  # key 5: a phone's QR for the next free seat
    p.shot("setup_phone_qr")
    p.press(1, X)                  # back to who plays
    p.press(3, 0)
    p.press(1, 5)                  # key 6: the Pi plays, strong
    p.press(1, 5)                  # again: easy
    p.shot("setup_join_phones")


def play_with_the_pi(p: Play, rng: random.Random) -> None:
    """Three pads and the Pi: a turn's lines on the bidding screen once the Pi has locked in."""
    grasshopper_setup(p, pads=(1, 2, 3), toggles=())
    game = p.game
    for _ in range(3000):
        st = game.state
        view = p.table.view()
        if isinstance(view, v.Bidding) and view.told and view.locked:
            p.shot("bidding_told_pi")
            return
        if game.notices:
            p.press(1, X)
        elif st.phase is REVEAL:
            p.press(1, rng.choice([k for k in range(5) if st.unseen[k]]))
        elif st.phase is BIDDING:
            free = [i for i, pad in enumerate(game.seats) if pad <= 6 and i not in game.pending]
            i = rng.choice(free)
            p.press(game.seats[i], rng.choice([c for c in range(8) if not st.spent[i] >> c & 1]))
        elif st.phase is CHOOSING:
            if game.seats[st.chooser] > 6:
                p.wait(0.5)
            else:
                p.press(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))
        if st.is_over():
            break
    raise RuntimeError("no bidding screen with a turn's lines after the Pi's lock-in")


def play_two(p: Play) -> None:
    grasshopper_setup(p, pads=(1, 3))
    p.reveal("corn", "strawberry", "broccoli")
    p.bid((1, 4), (3, 7))           # S1's 5 alone: takes the whole display (G6)
    p.shot("bids_2p_alone")


def play_resume(p: Play, lang: str, shots: dict) -> None:
    grasshopper_setup(p, pads=(1, 2, 3))
    p.reveal("corn", "strawberry", "broccoli")
    p.bid((1, 4), (2, 5), (3, 0))
    p.read()
    while p.game.state.phase is CHOOSING:
        p.press(p.game.seats[p.game.state.chooser], next(k for k, n in enumerate(p.game.state.display) if n))
    p.read()
    p.reveal("corn", "broccoli")
    p.table.close()
    again = Play(lang, p.log_dir, seats=4, shots=shots)
    again.shot("resumed")
    again.read()
    again.bid((1, 3))               # a bid in progress: lost when the power goes
    again.table.close()
    third = Play(lang, p.log_dir, seats=4, shots=shots)
    third.shot("resumed_rebid")
    third.table.close()


def play_to_the_end(p: Play, rng: random.Random, shots_round: bool = False, virtual: bool = True, pads=(1, 2, 3)):
    """A whole game with random legal keys (the assistant deals)."""
    grasshopper_setup(p, pads=pads, deck_toggle=virtual)
    game = p.game
    shot_round = False
    for _ in range(20000):
        st = game.state
        if st.is_over() and not game.notices:
            return game
        view = p.table.view()
        if shots_round and not shot_round and (isinstance(view, v.Bidding) and any(
                m.id == "title.round_over" for m in view.told) or isinstance(view, v.Instructions)
                and view.title.id == "title.round_over"):
            # the round's end: on the next bidding screen, or its page where it does not fit
            p.shot("bidding_round")
            shot_round = True
        if game.notices:
            if len(game.notices) == 1 and st.is_over():
                p.shot("instructions_game_over")
            p.press(game.seats[0], X)
        elif st.phase is REVEAL:
            p.press(1, rng.choice([k for k in range(5) if st.unseen[k]]))
        elif st.phase is BIDDING:
            for i, pad in enumerate(game.seats):
                p.press(pad, rng.choice([c for c in range(8) if not st.spent[i] >> c & 1]))
                view = p.table.view()
                if shots_round and not shot_round and isinstance(view, v.Bidding) \
                        and any(m.id == "title.round_over" for m in view.told):
                    p.shot("bidding_round")    # the round's end, after the turn's lines: one lock-in each
                    shot_round = True
        elif st.phase is CHOOSING:
            p.press(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]))
    raise RuntimeError("the game did not end")


def play_game_over(lang: str, tmp: pathlib.Path, shots: dict) -> None:
    p = Play(lang, tmp / "over", shots=shots)
    play_to_the_end(p, random.Random(5), shots_round=True)
    p.shot("game_over")
    for seed in range(400):
        p = Play(lang, tmp / f"tie{seed}", shots={})
        game = play_to_the_end(p, random.Random(seed), pads=(1, 2))
        out = game.state.outcome
        if out.chips[0] == out.chips[1] and out.grasshoppers[0] != out.grasshoppers[1]:
            shots["game_over_tie"] = render(p.table.view(), lang)
            return
    raise RuntimeError("no seed gave a tie broken by grasshoppers")


def cockroach_setup(p: Play, pads, start: bool = True, full: bool = True) -> None:
    p.press(pads[0], 1)
    for pad in pads:
        p.press(pad, 0)
    if start:
        p.press(pads[0], A)            # on to the options
        if full:
            p.press(pads[0], 1)        # key 2: mode full (every offer, pass and call)
        p.press(pads[0], A)            # start
        p.read()                       # the deal (C1, C6), told at every start


def play_cockroach(p: Play) -> None:
    cockroach_setup(p, (1, 2, 3, 5, 6), start=False)
    p.shot("setup_join_cockroach")
    p.press(1, A)
    p.press(1, 0)                    # the first player: S2
    p.shot("setup_options_cockroach")
    p.press(1, 1)                    # mode: full (quick is the default)
    p.press(1, A)
    p.read()                         # the deal (docs/screens/party shows its pages)
    p.shot("cr_offer_target")
    p.press(2, 4)                    # to S5
    p.shot("cr_offer_claim")
    p.press(2, 5)                    # "stink bug"
    p.shot("cr_answer")
    p.press(5, 0)                    # S5 looks and passes to S1
    p.shot("cr_answer_pass")
    p.press(5, 1)                    # "cockroach"
    p.press(1, 2)                    # S1 passes to S3
    p.press(1, 1)
    p.press(3, 5)                    # S3 passes to S6
    p.press(3, 1)
    p.shot("cr_answer_seen")         # everyone has seen it: S6 must call
    p.press(6, X)                    # "false"
    p.shot("cr_flip")
    p.press(1, 1)                    # it is a cockroach: the call was wrong
    p.shot("cr_instructions")
    p.read()
    p.hold(3, A)
    p.shot("cr_rows")
    p.press(3, 0)
    p.table.close()


def play_cockroach_six(p: Play) -> None:
    """Six players: the first pass of a round may go to four seats, all named."""
    cockroach_setup(p, (1, 2, 3, 4, 5, 6))
    first = p.game.seats[p.game.state.active]
    to = next(s for s in (1, 2, 3, 4, 5, 6) if s != first)
    p.press(first, to - 1)
    p.press(first, 3)                # "fly"
    p.shot("cr_answer_six")


def play_cockroach_loss(p: Play, lang: str, shots: dict) -> None:
    """Two players: S2 is given toads until five are face up (C6)."""
    cockroach_setup(p, (1, 2))
    game = p.game
    toad = 7
    while not game.state.is_over():
        active = game.seats[game.state.active]
        # two players: the offer goes to the other seat by itself (C4), so the first key is the claim
        if active == 2:               # S2 starts: offers to S1, who calls right (S2 takes it back)
            p.press(2, toad)
            p.press(1, A)
            p.press(1, toad)
        else:
            p.press(1, toad)
            p.press(2, X)              # "false", but it is a toad: S2 takes it
            p.press(2, toad)
        if game.notices and game.state.rows[1][toad] == 4 and "cr_rows_2p" not in shots:
            p.read()
            p.hold(1, A)
            p.shot("cr_rows_2p")
            p.press(1, 0)
        p.read()
    p.shot("cr_over")
    p.table.close()


def play_cockroach_quick(p: Play) -> None:
    """Quick mode, five players: whoever lays the round's card face up presses its critter."""
    cockroach_setup(p, (1, 2, 3, 4, 5), full=False)
    p.shot("cr_quick_start")
    for seat, kind in ((3, 3), (3, 0), (1, 3), (3, 3), (4, 5), (2, 7), (3, 3)):
        p.press(seat, kind)          # S3 takes a fly, a rat, ...: its third fly is one short
    p.shot("toast_cr_quick")         # the press confirmed: "S3: 3 flies: one more loses"
    p.shot("cr_quick")
    p.press(3, 3)                    # the fourth fly: S3 loses
    p.shot("cr_quick_over")
    p.table.close()


def play_cockroach_resume(p: Play, lang: str, shots: dict) -> None:
    cockroach_setup(p, (1, 2, 3))
    p.press(1, 1)
    p.press(1, 2)
    p.table.close()
    again = Play(lang, p.log_dir, seats=4, shots=shots)
    again.shot("resumed_cockroach")
    again.table.close()


def screens(lang: str) -> dict:
    """name -> frame, every one from a real game played by keys."""
    shots: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        play_grasshopper(Play(lang, tmp / "g4", shots=shots))
        play_nothing_and_plague(Play(lang, tmp / "g3", shots=shots))
        play_two(Play(lang, tmp / "g2", shots=shots))
        play_assistant(Play(lang, tmp / "pi", shots=shots))
        play_with_phones_and_the_pi(Play(lang, tmp / "phones", seats=4, shots=shots, phones=Phones(
            token_bytes=random.Random(3).randbytes), web_address="HTTP://192.168.178.23:8080/"))
        play_with_the_pi(Play(lang, tmp / "pig", seats=4, shots=shots, assistant_worker="inline",
                              assistant={"seats": 1, "level": "easy", "budget": 8}), random.Random(11))
        play_resume(Play(lang, tmp / "resume", shots=shots), lang, shots)
        play_game_over(lang, tmp, shots)
        play_cockroach(Play(lang, tmp / "c5", seats=6, shots=shots))
        play_cockroach_six(Play(lang, tmp / "c6", seats=6, shots=shots))
        play_cockroach_quick(Play(lang, tmp / "cq", seats=6, shots=shots))
        play_cockroach_loss(Play(lang, tmp / "c2", seats=4, shots=shots), lang, shots)
        play_cockroach_resume(Play(lang, tmp / "cr", seats=4, shots=shots), lang, shots)
    return shots


INK = {"white": (235, 240, 255), "blue": (90, 170, 255)}


def oled(frame: Image.Image, scale: int = 4, ink: str = "white") -> Image.Image:
    """The frame as a person would see it: big, lit pixels on black, a bezel around."""
    big = frame.resize((frame.width * scale, frame.height * scale), Image.NEAREST)
    out = Image.new("RGB", (big.width + 16, big.height + 16), (24, 24, 28))
    panel = Image.new("RGB", big.size, (0, 0, 0))
    panel.paste(INK[ink], (0, 0), big)
    out.paste(panel, (8, 8))
    return out


def contact_sheet(named: list, cols: int = 4, ink: str = "white") -> Image.Image:
    tiles = [(name, oled(frame, 2, ink)) for name, frame in named]
    tw, th = tiles[0][1].size
    label_h = 14
    rows = (len(tiles) + cols - 1) // cols
    sheet = Image.new("RGB", (cols * (tw + 8) + 8, rows * (th + label_h + 8) + 8), (48, 48, 56))
    for i, (name, tile) in enumerate(tiles):
        x = 8 + (i % cols) * (tw + 8)
        y = 8 + (i // cols) * (th + label_h + 8)
        sheet.paste(tile, (x, y + label_h))
        sheet.paste((220, 220, 220), (x, y + 2), text_image(name))
    return sheet


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(pathlib.Path(__file__).resolve().parents[1] / "docs" / "screens"))
    ap.add_argument("--blue", action="store_true", help="blue OLED look instead of white")
    ap.add_argument("--lang", choices=LANGUAGES, action="append", help="only these languages (default: all)")
    args = ap.parse_args(argv)
    ink = "blue" if args.blue else "white"
    names = None
    for lang in args.lang or LANGUAGES:
        t0 = time.perf_counter()
        shots = screens(lang)
        if names is not None and set(shots) != names:
            raise SystemExit(f"{lang}: other screens than the first language: {sorted(set(shots) ^ names)}")
        names = set(shots)
        out = pathlib.Path(args.out) / lang
        out.mkdir(parents=True, exist_ok=True)
        for old in out.glob("*.png"):
            old.unlink()
        named = sorted(shots.items())
        for name, frame in named:
            oled(frame, 4, ink).save(out / f"{name}.png")
        contact_sheet(named, ink=ink).save(out / "all.png")
        print(f"{lang}: {len(named)} screens in {out} ({time.perf_counter() - t0:.1f} s, games played by keys)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
