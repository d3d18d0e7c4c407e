"""What every screen controller at the table shares: toasts, the contract the table
drives (``Controller``), and for games the key routing, the durable commit and the
instruction pages.

A controller takes keys (``on_key``) and gives a view (``view``); the loop asks it
when it next needs waking (``next_deadline``) and lets time pass (``tick``).
"""

from __future__ import annotations

import copy
import itertools
import logging
import time
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

from pitable.errors import IllegalMove
from pitable.i18n import Msg, msg
from pitable.hardware.keys import HOLD, KeyEvent
from pitable.keys import COUNT
from pitable.screens import views as v
from pitable.screens.views import Key, meaning, page_serial
from pitable.table import notices

if TYPE_CHECKING:
    from pitable.table.assistant import Assistant

log = logging.getLogger(__name__)

from pitable.keys import KEY_A, KEY_PHONE, KEY_SAME, KEY_X  # noqa: E402, F401 - the controllers' keys
TOAST_SECONDS = 2.5
from pitable.screens.views import NOTICE_SECONDS, REVEAL_SECONDS  # noqa: E402, F401 - the screens' times
# Lines said now (a take, a harvest) stay on the glass this long before the Pi's own move may
# replace them: reading a few short lines, from across the table
READ_SECONDS = 3.0
from pitable.keys import KEY_BIDS, KEY_DROP  # noqa: E402, F401 - hold 1: the last bids; hold 6: drop the game
from pitable.screens.grasshopper import MAX_LINES as LINES_PER_PAGE  # noqa: E402 - lines a page at most
# An overlay (scores, an undo question, a phone's QR) belongs to the seat that opened it:
# its keys close it, another seat's key is refused with a toast naming it, and it closes
# by itself. Kept waiting, another seat waits at most WAITED_SECONDS; the seat that kept
# it waiting opens no overlay for OVERLAY_GAP seconds after (a flood of holds from a
# phone cannot keep the pads' keys out).
OVERLAY_SECONDS = {"scores": 30.0, "undo": 20.0, "phone": 120.0}
WAITED_SECONDS = 5.0
OVERLAY_GAP = 30.0

# Every notice (a page that waits for a key) gets a serial number: its keys turn that page
# and no other, so a key aimed at page 1 never turns page 2 (an id() is reused once freed).
_SERIALS = itertools.count(1)


def page_keys(seats: tuple | None = None, label=None) -> tuple:
    """The key table of a new notice: every key (of ``seats``; None: every seat) turns this
    page, named by a fresh serial number."""
    serial = next(_SERIALS)
    label = label if label is not None else msg("key.go_on")
    return tuple(Key(k, ("page", serial), label, seats) for k in range(COUNT))


def every_key(does: tuple, label, seats: tuple | None = None) -> tuple:
    """A key table in which every key does the same (go back, close, go on)."""
    return tuple(Key(k, does, label, seats) for k in range(COUNT))


def then(foot):
    """A footer that names no key: "Any key → S3 chooses" as "→ S3 chooses" (a screen that
    goes on by itself)."""
    if foot is None or not foot.id.startswith("foot."):
        return foot
    return msg("then." + foot.id[len("foot."):], **dict(foot.args))


def is_page(does) -> bool:
    """A key that turns a page (``("page", serial)``): aimed at a page gone, it said nothing."""
    return does is not None and does[0] == "page"


class Toasts:
    """A short message over the screen that goes away by itself, and with its screen:
    a toast belongs to the screen it was said on (bound once the key that said it is
    handled), so it never carries over onto the next one (the bids reveal, the options)."""

    clock = staticmethod(time.monotonic)
    toast: tuple[Msg, float, Any] | None = None  # (text, until, the screen it belongs to: None until bound)

    def _say(self, id_or_msg, **values) -> None:
        """Show a toast: a message id and its values (words are made by the output)."""
        m = id_or_msg if isinstance(id_or_msg, Msg) else msg(id_or_msg, **values)
        self.toast = (m, self.clock() + TOAST_SECONDS, None)

    def say(self, id_or_msg, **values) -> None:
        """A toast from outside a key's handling (the table's own word): it belongs to the
        screen up now."""
        self._say(id_or_msg, **values)
        self._bind_toast()

    def _screen_id(self):
        """What tells one screen from the next (a toast lives only on its own)."""
        return None

    def stale_key(self, event, meant=None) -> None:
        """A key its presser aimed at a screen that has gone since (``meant``: what it did
        there): nothing happened. An "any key" page it meant to turn is gone already
        (silence); a key screen's key is said not taken, never what it would have meant."""
        if not is_page(meant):
            self._say("toast.key_too_soon", seat=event.seat + 1)
            self._bind_toast()

    def _bind_toast(self) -> None:
        if self.toast is not None and self.toast[2] is None:
            self.toast = (self.toast[0], self.toast[1], self._screen_id())

    def _toast_live(self, now: float) -> bool:
        if self.toast is None:
            return False
        self._bind_toast()
        return now < self.toast[1] and self.toast[2] == self._screen_id()

    def _toast_text(self):
        if self._toast_live(self.clock()) and self.toast is not None:
            return self.toast[0]
        return None

    def next_deadline(self):
        return self.toast[1] if self.toast else None

    def tick(self, now: float) -> bool:
        """Expire the toast (its time is up, or its screen is gone); True when the view changed."""
        if self.toast and not self._toast_live(now):
            self.toast = None
            return True
        return False


class Controller(Protocol):
    """What ``pitable.table.app.Table`` drives in its current screen: the setup
    (``pitable.table.setup.Setup``) or a game (``GameTable``). A ``typing.Protocol``: each
    declares it (with ``Toasts`` for the toasts' part), so the type checker holds every
    controller to it; the table calls these, never looks for them. The loop's part (``on_key``,
    ``view``, ``next_deadline``, ``tick``, ``durable``, ``stale_key``, ``next_views``) the
    table passes on; the rest is the table's own. Every view it gives carries its key
    table (``keys``), built here in one place, and ``on_key`` acts on what that table
    says the key does (a key it gives no meaning is refused with a toast saying why)."""

    game: str = ""           # the game's name (the setup: the one chosen)
    finished: bool = False   # a game: the table asked for a new one after the end
    again: bool = False      # ... with the same players (key 1 on the result)
    # What the web edge reads of every controller (pitable.web.publish, pitable.table.public):
    # a game's rules state, log header and secret bids; the setup has none of them.
    state: object = None                    # the rules state; None: the setup, no game yet
    header: Mapping = MappingProxyType({})  # the log's header (a game sets its own)
    pending: Mapping = MappingProxyType({})  # player -> pending bid (Grasshopper Poker's, secret)
    made_by: Mapping = MappingProxyType({})  # player -> who made that bid

    def where(self) -> tuple | None:
        """(round, turn) the glass shows; None where no game is (the setup)."""
        return None

    def story(self) -> tuple:
        """The game's story so far (``pitable.narrator.StoryItem``s, oldest first): the
        narrator's lines, the same the glass said; () where no game is."""
        return ()

    def on_key(self, event: KeyEvent) -> None:
        raise NotImplementedError

    def view(self) -> Any:
        """What the screen shows now; drawing it changes nothing."""
        raise NotImplementedError

    # the toasts' part (``Toasts``)
    def say(self, id_or_msg: str | Msg, **values: Any) -> None: ...

    def stale_key(self, event: KeyEvent, meant: tuple | None = None) -> None: ...

    def next_deadline(self) -> float | None: ...

    def tick(self, now: float) -> bool: ...

    def durable(self) -> bool:
        """True once the last key's lines are on disk (False: refused and taken back)."""
        return True

    def next_views(self) -> list:
        """Views the next key is likely to show (the loop draws them ahead of time)."""
        return []

    def showing_qr(self) -> bool:
        """True while a phone's join QR is on the glass (only then does a join count)."""
        return False

    def phone_joined(self, seat: int) -> None:
        """A phone used the ticket of the QR on the glass for ``seat`` (the table checked it)."""
        return None  # a body: a default, not a method each controller must write

    def result(self) -> tuple | None:
        """The evening's score entry of a game that is over, as
        ``(id, game, seats, winners, losers)`` for ``Sitting.record``; None while it is not
        (or for the setup)."""
        return None

    def close(self) -> None:
        """The table is done with this screen: its log and threads are let go."""
        return None


class GameTable(Toasts, Controller):
    """One game driven by the pads. Subclasses say what the phase keys and holds do.

    ``seats`` are the pad numbers (1-based) of the players in player order: the rules'
    seat 0 sits at pad ``seats[0]``. Every input is written to ``journal`` (flushed
    and synced) before the state takes it, so the screen never confirms a move that
    a power cut could lose.
    """

    game = ""
    state: Any          # each game's rules State (its subclass names it)

    def __init__(self, state, seats: tuple, journal, clock=None, signal=None,
                 notice_seconds: float = NOTICE_SECONDS, pages=None, reveal_seconds: float = REVEAL_SECONDS,
                 fits=None, header: dict | None = None, phones=None, web_address: str = "", pads: int = 0,
                 read_seconds: float = READ_SECONDS):
        self.state = state
        self.read_seconds = read_seconds
        self._tells: list = []      # what each move told (the narrator's Told), beside state.moves
        # Whether a view reads whole on the table's display (``pitable.screens.render.
        # layout_problems``): a turn's lines go on the next key screen when they fit there,
        # on pages when not. Without one (a controller alone in a test), always on pages.
        self.fits = fits
        self.header = header if header is not None else {}  # the log's header (the web pages replay its public moves)
        # Phones (config web:): pitable.web.access.Phones, or None: off; hold 5 shows a QR
        # for a seat of this game, at ``web_address``; seats above ``pads`` are phones'.
        self.phones = phones
        self.web_address = web_address
        self.pads = pads
        self.reveal_seconds = reveal_seconds
        self._front: tuple[Any, float] | None = None  # (the bids reveal up front, since when it is shown)
        # How the table's display splits instruction lines into pages: it knows the words
        # and the room (``pitable.screens.grasshopper.instruction_pages``); without one, a
        # fixed number of lines a page.
        self.pages = pages
        self.notice_seconds = notice_seconds
        self._informing: tuple[Any, float] | None = None  # (the screen that only informs, when it moves on by itself)
        self.seats = tuple(seats)
        self.player_of = {pad - 1: i for i, pad in enumerate(self.seats)}  # pad index -> player
        self.journal = journal
        if clock is not None:
            self.clock = clock
        self.signal = signal or (lambda pad_index: None)
        self.notices: list = []     # views the table reads before the game goes on
        self._page_where: dict = {}       # a notice's serial -> (round, turn) it tells: where()
        self.overlay: tuple[str, Any] | None = None  # (kind, pad number): scores/rows, or an undo to confirm
        self.opener: int | None = None  # the seat whose overlay it is (its keys answer it)
        self.overlay_until: float | None = None  # when it closes by itself
        self._waited = False        # another seat's key was refused by it
        self._barred: dict = {}     # seat -> until when it opens no overlay (it kept others waiting)
        self.finished = False       # the table asked for a new game after the end
        self.again = False          # ... with the same players (key 1 on the result)

    target: int | None = None       # Cockroach Poker: the player chosen in the first step of an offer or pass
    assistant: Assistant | None = None    # Grasshopper Poker: the assistant's seats (pitable.table.assistant), or None

    # -- what the table asks --------------------------------------------------------------

    def result(self):
        if not self.state.is_over():
            return None
        game_id = f"{self.header.get('started')}|{self.journal.path or id(self)}"
        out = self.state.outcome
        winners = tuple(self.seats[p] for p in out.winners)
        losers = tuple(self.seats[p] for p in getattr(out, "losers", ())) or \
            tuple(s for s in self.seats if s not in winners)
        return game_id, self.header.get("game", self.game), self.seats, winners, losers

    def showing_qr(self) -> bool:
        return self.overlay is not None and self.overlay[0] == "phone"

    def close(self) -> None:
        self.journal.close()
        if self.assistant is not None:
            self.assistant.close()

    # -- keys ---------------------------------------------------------------------------------

    by = None   # who pressed the key being handled (KeyEvent.by: None for a pad, a phone's session)

    def on_key(self, event) -> None:
        if self._syncing is not None and not self.durable():
            return  # the last key never reached the disk and was taken back: this one was meant after it
        pad, key = event.seat, event.key
        self.by = event.by
        player = self.player_of.get(pad)
        if self._revealing(self.clock()):
            return  # the bids stay on the glass for reveal_seconds, whatever is pressed
        if player is None:
            self._say("toast.not_in_game", seat=pad + 1)
        elif self.overlay is not None and self.opener is not None and self.opener != pad + 1:
            # another seat's screen: only that seat answers it (or it closes by itself)
            self._say("toast.overlay_of", seat=self.opener)
            self._waited = True
            self.overlay_until = min(self.overlay_until or 1e18, self.clock() + WAITED_SECONDS)
        elif event.action == HOLD and self.overlay is not None and self._waited:
            self._close_overlay()   # its opener's hold, after others waited: it only closes
        elif event.action == HOLD:
            self._hold(pad, key)
        else:
            does = meaning(self.view().keys, pad + 1, key)  # what the screen up says this key does
            if does is None:
                self._refuse(pad, player, key)
            else:
                self._do(pad, player, key, does)
        self._bind_toast()  # a toast said by this key belongs to the screen the key leaves up
        self._informing_until()  # an informing screen's time starts when it is first shown

    def _do(self, pad: int, player: int, key: int, does: tuple) -> None:
        """What a key does, as the key table of the screen up says (``does``)."""
        what = does[0]
        if self.overlay is not None:
            kind, _ = self.overlay
            self._close_overlay()
            if kind == "phone":
                self._phone_key(key)
            elif what == "undo":
                self.undo()
            elif what == "drop":
                self._drop()
            elif does == ("keep", "undo"):
                self._say("toast.not_undone")
            elif does == ("keep", "drop"):
                self._say("toast.game_kept")
        elif what == "page":
            # "Any key: next": the key only turns the page, on every notice, the last one
            # too; never a move of the step after it (docs/architecture.md, keys and screens)
            if self.notices and page_serial(self.notices[0]) == does[1]:
                self.notices.pop(0)
        elif what == "new_game":
            self.finished = True     # a new game: which game, who plays
        elif what == "again":
            self.finished = self.again = True  # the next game with the same players
        else:
            self._phase_do(pad, player, does)

    def _refuse(self, pad: int, player: int, key: int) -> None:
        """A key the screen up gives no meaning: a toast says why."""
        if self.state.is_over():
            self._say("toast.over_keys")
        elif not self.notices and self.overlay is None:
            self._phase_refuse(pad, player, key)

    def _phase_do(self, pad: int, player: int, does: tuple) -> None:
        raise NotImplementedError

    def _phase_refuse(self, pad: int, player: int, key: int) -> None:
        raise NotImplementedError

    # -- the key tables: what each key does on the screen up (one place) ---------------------

    def _key_table(self, shown) -> tuple:
        """The key table of ``shown``, the screen up now (docs/architecture.md, "Keys and
        screens"): an overlay's keys are its opener's; a notice's turn that page (none
        while the bids reveal goes on by itself); the end's start a game; else the phase's."""
        if self.overlay is not None:
            kind, _ = self.overlay
            assert self.opener is not None  # set with the overlay
            mine = (self.opener,)
            if kind == "undo" or kind == "drop":
                return tuple(Key(k, (kind,) if k == KEY_A else ("keep", kind),
                                 msg("key.yes") if k == KEY_A else msg("key.no"), mine) for k in range(COUNT))
            if kind == "phone":
                return self._phone_keys(mine)
            return every_key(("close", kind), msg("web.back"), mine)
        if self.notices:
            if self._moves_on_by_itself():
                return ()   # it names no key: it goes on by itself
            return self.notices[0].keys
        if self.state.is_over():
            seats = tuple(self.seats)
            return (Key(KEY_SAME, ("again",), msg("key.again"), seats),
                    Key(KEY_A, ("new_game",), msg("key.new_game"), seats))
        return self._phase_keys(shown)

    def _phase_keys(self, shown) -> tuple:
        """The phase's key table for its screen ``shown`` (each game says)."""
        raise NotImplementedError

    def _page_keys(self) -> tuple:
        """The key table of a new notice of this game: any key of a seat in it turns it."""
        return page_keys(tuple(self.seats))

    def stale_key(self, event, meant=None) -> None:
        # on the bids reveal and the other pages a stray key says nothing: the page
        # is for reading, and no toast takes its footer's place
        if self.notices or (self.overlay is not None and self.overlay[0] == "scores"):
            return
        super().stale_key(event, meant)

    def _screen_id(self):
        return (len(self.state.moves), page_serial(self.notices[0]) if self.notices else None, self.overlay,
                self.target, self.finished)

    def _next_step(self):
        """Who presses what once the notices are read (a Msg for the footer), or None."""
        return None

    # -- screens that only inform move on by themselves -----------------------------------

    # -- the bids reveal: an event nobody misses -----------------------------------------

    def _reveal_since(self):
        """When the bids reveal up front was first shown (its time starts with the first
        frame the loop draws of it), or None when it is not up front."""
        shown = self.notices[0] if self.notices else None
        if not isinstance(shown, v.BidsRevealed):
            self._front = None
            return None
        if self.overlay is not None:
            return None  # covered (its time goes on: the overlay was asked for after it was seen)
        if self._front is None or self._front[0] is not shown:
            self._front = (shown, self.clock())
        return self._front[1]

    def _revealing(self, now: float) -> bool:
        since = self._reveal_since()
        return since is not None and now < since + self.reveal_seconds

    def _informs(self):
        """The screen shown now if it only informs (it then moves on after a time):
        the scores or rows overlay, the last bids again, the bids reveal. Nothing under a
        key prompt moves on by itself: the resumed notice and every page wait for a key."""
        if self.overlay is not None:
            return self.overlay if self.overlay[0] in ("scores", "bids") else None
        if self.notices and isinstance(self.notices[0], v.BidsRevealed) and self.reveal_seconds:
            return self.notices[0]
        return None

    def _moves_on_by_itself(self) -> bool:
        """The bids reveal up front goes on by itself after reveal_seconds: it names no key
        (its key table is empty). With notice_seconds 0 it waits for a key once its time is
        up, and then says so; with reveal_seconds 0 it is a page like the others."""
        if self.overlay is not None or not self.notices or not isinstance(self.notices[0], v.BidsRevealed):
            return False
        if not self.reveal_seconds:
            return False
        return bool(self.notice_seconds) or self._revealing(self.clock())

    def _informing_until(self):
        shown = self._informs()
        if shown is None or not self.notice_seconds:
            self._informing = None
            return None
        if self._informing is None or self._informing[0] is not shown:
            seconds = self.notice_seconds
            if isinstance(shown, v.BidsRevealed) and self.reveal_seconds:
                # the bids hold reveal_seconds whatever is pressed, then go on by themselves to
                # the step they set off (no press only turns them; hold 1 shows them again)
                seconds = self.reveal_seconds
            self._informing = (shown, self.clock() + seconds)
        return self._informing[1]

    def next_deadline(self):
        times = [t for t in (super().next_deadline(), self._informing_until(),
                             self.overlay_until if self.overlay is not None else None) if t is not None]
        return min(times) if times else None

    # -- overlays: whose they are ---------------------------------------------------------

    def _open_overlay(self, kind: str, arg, seat: int) -> bool:
        """Open an overlay for ``seat`` (the opener), unless that seat kept others waiting
        on its last one within OVERLAY_GAP. True when opened."""
        now = self.clock()
        if self._barred.get(seat, 0.0) > now:
            self._say("toast.overlay_wait", seat=seat)
            return False
        if self.overlay is not None:
            self._close_overlay()
        self.overlay = (kind, arg)
        self.opener = seat
        self.overlay_until = now + OVERLAY_SECONDS.get(kind, 30.0)
        self._waited = False
        return True

    def _close_overlay(self) -> None:
        if self._waited and self.opener is not None:
            self._barred[self.opener] = self.clock() + OVERLAY_GAP
        if self.overlay is not None and self.overlay[0] == "phone" and self.phones is not None:
            self.phones.drop_tickets()
        self.overlay = None
        self.opener = None
        self.overlay_until = None
        self._waited = False

    def tick(self, now: float) -> bool:
        changed = super().tick(now)
        if self.overlay is not None and self.overlay_until is not None and now >= self.overlay_until:
            if self.overlay[0] == "undo":
                self._say("toast.not_undone")
            self._close_overlay()
            changed = True
        until = self._informing_until()
        if until is not None and now >= until:
            if self.overlay is not None:
                self._close_overlay()
            else:
                self.notices.pop(0)
            self._informing = None
            changed = True
        return changed

    # -- phones (config web:): hold 5 shows the QR for a seat of this game without a phone ---

    def _phone_overlay(self, pad: int) -> None:
        """The QR for the first seat of this game that should have a phone and has none (a
        restart, a flat battery, a phone taken back); else for the seat of the pad that
        held 5, and only that one: a seat a pad plays goes to a phone only by a key on
        that pad. The number key of a seat that has a phone takes it back."""
        mine = [s for s in self.seats if s <= 6]
        missing = [s for s in mine if s > self.pads and s not in self.phones.codes]
        if not missing:
            missing = [s for s in mine if s == pad + 1 and s not in self.phones.codes]
        if not self._open_overlay("phone", missing[0] if missing else None, pad + 1):
            return
        self._phone_ticket = self.phones.ticket(missing[0]) if missing else None
        self.toast = None

    def _phone_key(self, key: int) -> None:
        seat = key + 1
        self.phones.drop_tickets()
        if self.by is not None:     # a phone at the opener's seat: it takes no phone back
            self._say("toast.phone_by_pad", seat=self.opener or seat)
            return
        if key < KEY_A and seat in self.phones.codes and seat in self.seats:
            self.phones.take_back(seat)
            self._say("toast.phone_off", seat=seat)

    def phone_joined(self, seat: int) -> None:
        self._close_overlay()
        self.phones.drop_tickets()
        self._say("toast.phone_joined", seat=seat)

    def _phone_keys(self, mine: tuple) -> tuple:
        """The phone QR's keys (its opener's): the number of a seat of this game that has a
        phone takes that phone back; any other key goes back."""
        codes = self.phones.codes if self.phones is not None else {}
        return tuple(Key(k, ("phone_off", k + 1), msg("seat", seat=k + 1), mine)
                     if k < KEY_A and k + 1 in codes and k + 1 in self.seats
                     else Key(k, ("close", "phone"), msg("key.go_on"), mine) for k in range(COUNT))

    def _phone_view(self, toast):
        seat = self.overlay[1] if self.overlay is not None else None
        phone = None
        t = self._phone_ticket
        if seat is not None and t is not None:  # a ticket is made for a seat, none without
            phone = (seat, f"{self.web_address}{t[:4]}-{t[4:]}")
        if phone is None:
            return v.Message(msg("toast.no_free_seat"), (), toast)
        return v.Setup("join", self.game, (), 6, (), False, toast, phone=phone, phones=self.phones.seats(),
                       phone_qr=f"{self.web_address}{self.phones.link(self._phone_ticket)}")

    def _hold(self, pad: int, key: int) -> None:
        """Hold A: the scores; hold X: undo (confirmed); hold 5 (phones on): a phone's QR."""
        if key == KEY_PHONE and self.phones is not None:
            if self.by is not None:     # a phone: phones are given and taken back by a pad's key
                self._say("toast.phone_by_pad", seat=pad + 1)
            else:
                self._phone_overlay(pad)
        elif key == KEY_BIDS and self._last_bids() is not None:
            self._open_overlay("bids", pad + 1, pad + 1)
        elif key == KEY_DROP and not self.state.is_over():
            self._open_overlay("drop", pad + 1, pad + 1)
        elif key == KEY_A:
            # nothing over the scores: whose they are is said to the seat that presses
            self._open_overlay("scores", pad + 1, pad + 1)
        elif key == KEY_X:
            if not self._can_undo():
                self._say("toast.nothing_to_undo")
            else:
                self._open_overlay("undo", pad + 1, pad + 1)
        else:
            self._say("toast.hold_help_bids" if self._last_bids() is not None
                      else f"toast.hold_help_{self.scores_name}")

    scores_name = "scores"

    abandoned = False   # the table dropped this game unfinished (hold 6, then A)

    def _drop(self) -> None:
        """Drop the game unfinished: the log says so in its last line (never resumed, not in
        the evening's score), and the table goes to a new game's setup."""
        from pitable.rules.log import ABANDONED

        if not self._write_lines([ABANDONED], notices.MOVE_NOT_SAVED):
            return
        self.abandoned = self.finished = True

    def _drop_text(self):
        return msg("drop.what", round=self.state.round)

    def _last_bids(self):
        """The last bids reveal (a view) to show again on hold 1, or None (none yet; Cockroach
        Poker has no bids)."""
        return None

    def _can_undo(self) -> bool:
        return self.state.can_pop()

    def undo(self) -> bool:
        raise NotImplementedError

    # -- committing ------------------------------------------------------------------------------

    def _commit(self, move) -> bool:
        """Check, write, apply, then make it durable before anything shows it.

        What the move sets off (results, the assistant's own reveals) is written too,
        and the whole key's worth of lines is synced once. If the disk refuses, the
        state, the log and the notices go back to before the key: nothing shows a move
        that is not on disk. False (and a toast) when refused.
        """
        try:
            self.state.check(move)
        except IllegalMove as e:
            log.info("refused: %s", e)  # the reason in English for the log; the table gets a plain word
            self._say("toast.not_allowed")
            return False
        mark = self._mark()
        before = self._where_now()
        try:
            self.journal.write(move.to_json())
            fx = self.state.push(move)
            self._pushed(move, fx)
            self._tell(mark[2], before)
            self._syncing = (self.journal.sync_start(), mark)
        except OSError as e:
            self._refused(e, mark)
            return False
        return True

    _syncing: tuple[Any, Any] | None = None  # (the sync under way, where to take back to if it fails)

    def durable(self) -> bool:
        """Wait for the last key's lines to be on disk; the loop asks before it shows a
        frame. False when the disk refused them: the key was taken back (view again)."""
        if self._syncing is None:
            return True
        future, mark = self._syncing
        self._syncing = None
        try:
            future.result()
        except OSError as e:
            self._refused(e, mark)
            return False
        return True

    def _mark(self) -> tuple:
        """Where to take back to if the disk refuses: the log's end, the moves, the notices."""
        return (self.journal.tell(), len(self.state.moves), list(self.notices))

    def _write_lines(self, objs, refused_text: str) -> bool:
        """Write lines and make them durable now, before the state takes them (undo, the
        assistant's reveals on resume). The one refusal path of every write: the log
        back to where it was, a toast, False; the state is the caller's to leave alone."""
        mark = self._mark()
        try:
            for obj in objs:
                self.journal.write(obj)
            self.journal.sync()
        except OSError as e:
            self._refused(e, mark, refused_text)
            return False
        return True

    def _refused(self, error, mark, text: str = notices.MOVE_NOT_SAVED) -> None:
        log.error("cannot write the game log: %s", error)
        self._take_back(mark)
        self._say(text)

    def _pushed(self, move, fx) -> None:
        """What follows a move: notices for the table, moves of the assistant's own."""

    # -- what the moves told: the narrator's lines, kept beside the moves -------------------------

    def _narrate(self, move, fx, before: tuple, said_ids: frozenset):
        """The game's narrator on ``move`` just pushed (``before``: the round and turn it was
        made in): a ``pitable.narrator.Told``."""
        raise NotImplementedError

    def _record(self, move, fx, before: tuple):
        """What the move just pushed told, kept as the story's entry for it (entries of moves
        taken back are dropped first)."""
        from pitable.narrator import said

        del self._tells[len(self.state.moves) - 1:]
        told = self._narrate(move, fx, before, said(self._tells))
        self._tells.append(told)
        return told

    def _retell(self) -> None:
        """The story of a resumed game: its moves taken back and pushed again on the same
        state, each told as it was (no second rules state)."""
        st = self.state
        moves = list(st.moves)
        for _ in moves:
            st.pop()
        for move in moves:
            before = self._where_now()
            self._record(move, st.push(move), before)

    def story(self) -> tuple:
        from pitable.narrator import story

        return story(self._tells[:len(self.state.moves)])

    def where(self) -> tuple:
        """(round, turn) of what the glass shows: while the pages of a move are up, the
        round and turn they tell (the rules are at the next one already); else the
        state's. ``turn`` is None in a game without turns (Cockroach Poker). The phone's
        and TV's panel says this, never a turn the glass has not reached."""
        if self.notices:
            told = self._page_where.get(page_serial(self.notices[0]))
            if told is not None:
                return told
        return self._where_now()

    def _where_now(self) -> tuple:
        """The state's (round, turn); a game without turns says None (Grasshopper Poker's
        controller gives its turn)."""
        return (self.state.round, None)

    def _tell(self, before: list, where: tuple) -> None:
        """The notices a move added tell the round and turn it was made in."""
        old = {page_serial(n) for n in before}
        now = {page_serial(n) for n in self.notices}
        told = {k: t for k, t in self._page_where.items() if k in now}
        for serial in now:
            if serial not in old and serial not in told:
                told[serial] = where
        self._page_where = told

    def _take_back(self, mark) -> None:
        where, moves, notices = mark
        while len(self.state.moves) > moves:
            self.state.pop()
        self.notices = notices
        try:
            self.journal.truncate(where)
        except OSError as e:
            # The refused lines are blanked in place and the journal refuses every write
            # until the cut succeeds: nothing is written past them.
            log.error("cannot take the refused lines back: %s", e)

    def _add_lines(self, title, lines: tuple) -> None:
        """Instructions for the table (a title and line messages), as many lines a page as
        the display shows whole (nothing is cut: a line that does not fit goes on the next page)."""
        if self.pages is not None:
            pages = self.pages(title, tuple(lines))
        else:
            pages = [tuple(lines[i:i + LINES_PER_PAGE]) for i in range(0, len(lines), LINES_PER_PAGE)]
        for i, page in enumerate(pages, 1):
            self.notices.append(v.Instructions(title, page, i, len(pages), keys=self._page_keys()))

    # -- guesses for drawing ahead ---------------------------------------------------------------

    def next_views(self) -> list:
        """Views the next key is likely to show (the loop draws them ahead of time)."""
        if self.overlay is not None or self.toast is not None:
            return []
        if self.notices:
            return [self._peek(notices=self.notices[1:])]  # any key: the next screen
        return self._phase_guesses()

    def _phase_guesses(self) -> list:
        return []

    def _peek(self, **changes):
        """The view this controller would show with some attributes changed."""
        other = copy.copy(self)
        other.__dict__.update(changes)
        return other.view()

    def view(self):
        """The overlay or the first notice, if any, else the phase's screen (``_phase_view``),
        with its key table (``_key_table``: the one place that says what each key does)."""
        shown = self._view_or_overlay()
        if shown is None:
            shown = self._phase_view(self._toast_text(), self.state)
        return shown._replace(keys=self._key_table(shown))

    def _phase_view(self, toast, st):
        """The game's screen for the rules state ``st`` (the toast on it)."""
        raise NotImplementedError

    def _scores_view(self, toast):
        """The scores (Grasshopper Poker) or the rows (Cockroach Poker) overlay (each game says)."""
        raise NotImplementedError

    def _undo_text(self):
        """What undo would take back, for its question (each game says)."""
        raise NotImplementedError

    def _view_or_overlay(self):
        """The overlay or the first notice, if any (with the toast on it), else None."""
        toast = self._toast_text()
        if self.overlay is not None:
            kind, pad = self.overlay
            if kind == "scores":
                return self._scores_view(toast)
            if kind == "phone":
                return self._phone_view(toast)
            if kind == "bids":
                return self._last_bids()._replace(toast=toast, foot=msg("foot.back"))
            if kind == "drop":
                return v.ConfirmUndo(pad, self._drop_text(), toast, msg("drop.title"))
            return v.ConfirmUndo(pad, self._undo_text(), toast)
        if self.notices:
            shown = self.notices[0]
            self._reveal_since()  # the reveal's time starts with its first frame
            if isinstance(shown, (v.Instructions, v.BidsRevealed)):
                # the footer says who presses what: the next page, or the step after the notices
                last = len(self.notices) == 1
                foot = (self._next_step() if last else None) or msg("foot.next")
                if isinstance(shown, v.BidsRevealed) and shown.foot is not None:
                    foot = shown.foot  # said when the bids came: the glass holds still while they show
                if isinstance(shown, v.BidsRevealed) and self._moves_on_by_itself():
                    foot = then(foot)  # it goes on by itself: the footer names no key
                return shown._replace(toast=toast, foot=foot)
            return shown._replace(toast=toast)
        return None
