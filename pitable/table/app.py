"""The table across games: setup, then a game, then setup again (``pitable run`` wires it to
the hardware in ``pitable.daemon``)."""

from __future__ import annotations

import json
import logging
import os
import random
import time
from pathlib import Path
from typing import Any

from pitable.rules.games import GAMES
from pitable.table.base import NOTICE_SECONDS
from pitable.table import notices
from pitable.table.base import Controller, page_keys
from pitable.table.games import table_game
from pitable.table.loop import App
from pitable.table.setup import Setup

# The rules and the journal load when a game starts or resumes, not before the first
# frame: start-up is what people wait for when they plug the Pi in.

log = logging.getLogger(__name__)



class Table(App):
    """Keys in, views out, across games. Resumes an unfinished game from the log.

    What the loop drives is ``pitable.table.loop.App``; what the table drives in its
    current screen (the setup, a game) is ``pitable.table.base.Controller``."""

    def __init__(self, *, seats: int, log_dir: Path, game: str = "grasshopper", deck: str = "physical",
                 clock=time.monotonic, signal=None, resume: bool = True, rng=None, language: str = "en",
                 notice_seconds: float | None = None, assistant: dict | None = None,
                 assistant_worker: str = "process", phones=None, web_address: str = "", wall=time.time,
                 reveal_seconds: float | None = None, post=None):
        from pitable.table.sitting import Sitting

        self.seats = seats
        # Phones as seats (config web:): pitable.web.access.Phones, owned by the loop's
        # thread like everything here; None when off.
        self.phones = phones
        self.web_address = web_address
        # The assistant as a player: the config's defaults {seats, level, budget}; at the
        # table the join screen changes seats and level. Its decisions come back through
        # ``post`` (the loop's queue: pitable.daemon.assemble), or at once without a loop.
        self.assistant = dict(assistant or {})
        self.assistant_worker = assistant_worker
        self.post = post
        self.log_dir = Path(log_dir)
        self.config_language = language
        self.language = self._remembered_language(language)
        self.notice_seconds = notice_seconds
        self.reveal_seconds = reveal_seconds   # the bids' least time on the glass (None: 3 s)
        # the evening's score (log_dir/sitting.json): a game is counted when its result shows
        self.sitting = Sitting(self.log_dir, now=wall)
        self.default_game = game
        self.default_deck = deck
        self.clock = clock
        self.signal = signal
        self.rng = rng or random.Random()
        self.notices: list = []     # what the table must read about its log first (any key: next)
        self._stuck_notices: list = []   # (notice, (seat, key)) of stuck keys, to take off when let go
        self._offer_unsaved = False  # the disk refused a new game: A again plays it unsaved
        # None only while __init__ makes the first one (the loop never sees that)
        self.current: Controller = None  # type: ignore[assignment]
        # (the game, its id in the evening's score) once it is counted
        self._counted: tuple[Controller, str] | None = None
        if resume:
            try:
                self.current = self._resume()
            except Exception:  # noqa: BLE001 - no file in the log directory may stop the daemon
                log.exception("cannot resume from %s; starting a new game", self.log_dir)
                self._notice(notices.not_resumed())
        if self.current is None:
            self.current = self._setup()
            self._check_log_dir()
        self._count_result()  # a resumed game the assistant ended as it was made

    def _check_log_dir(self) -> None:
        """Say at start, in the journal and on screen, when games cannot be saved."""
        from pitable.table.journal import cannot_write

        why = cannot_write(self.log_dir)
        if why is not None:
            log.error("cannot write game logs in %s: %s; games will not be saved", self.log_dir, why.strerror)
            self._notice(notices.not_saving(why.errno))
            self._offer_unsaved = True  # told already: a game starts unsaved if the log cannot be made

    def view(self):
        """What the glass shows now: drawing it changes nothing (the score is kept by the
        steps that change a game: keys, ticks, the disk's answer, the assistant's moves)."""
        if self.notices:
            return self.notices[0]
        return self.current.view()

    def _count_result(self) -> None:
        """A game that just ended goes into the evening's score (once: by its id); one
        whose end was taken back (an undo, a refused write) comes out again."""
        cur = self.current
        if cur is None:
            return  # still being made
        result = cur.result()
        counted = self._counted[1] if self._counted is not None and self._counted[0] is cur else None
        if counted is not None and result is None:  # the last move was undone: not over after all
            self.sitting.forget(counted)
            self._counted = None
        elif counted is None and result is not None:
            self._counted = (cur, result[0])
            self.sitting.record(*result)

    def next_deadline(self):
        return self.current.next_deadline()

    def tick(self, now: float) -> bool:
        changed = self.current.tick(now)
        self._count_result()
        return changed

    def durable(self) -> bool:
        done = self.current.durable()
        self._count_result()  # a refused write took the last move back: perhaps the end
        return done

    def next_views(self) -> list:
        if self.notices:
            return []
        return self.current.next_views()

    # Keyboard rows on a laptop (config pads.wiring: keyboard): a seat's row is off while
    # a phone holds that seat, so typing never replaces the phone player's bid (real pads
    # keep their keys: a pad takes its own phone back)
    rows_yield_to_phones = False

    def _notice(self, view):
        """A notice of the table's own (about its log, a stuck key), first in line: any key
        of any seat turns it, and only it (its serial number is in its key table)."""
        view = view._replace(keys=page_keys())
        self.notices.append(view)
        return view

    def stale_key(self, event, meant=None) -> None:
        """A key aimed at a screen that has gone: it did nothing, and the table says so
        (silently over a page of its own: a toast would show on the game under it)."""
        if not self.notices:
            self.current.stale_key(event, meant)

    def key_stuck(self, item) -> None:
        """The pads say a key is stuck (a :class:`~pitable.hardware.keys.KeyStuck`): shown
        on top until any key, and taken off once that key is let go."""
        mine = [n for n, sk in self._stuck_notices if sk == (item.seat, item.key)]
        if item.stuck and not mine:
            note = self._notice(notices.key_stuck(item.seat, item.key, self.clock() - item.since))
            self._stuck_notices.append((note, (item.seat, item.key)))
        elif not item.stuck:
            self.notices = [n for n in self.notices if not any(n is m for m in mine)]
            self._stuck_notices = [(n, sk) for n, sk in self._stuck_notices if sk != (item.seat, item.key)]

    def on_key(self, event) -> None:
        if self.notices:
            self.notices.pop(0)  # read: any key goes on
            return
        if (self.rows_yield_to_phones and event.by is None and self.phones is not None
                and event.seat + 1 in self.phones.codes):
            self.current.say("toast.row_is_phone", seat=event.seat + 1)
            return
        self.current.on_key(event)
        self._count_result()  # the key that ends a game (or undoes its end) counts it
        if isinstance(self.current, Setup):
            if self.current.language != self.language:
                self.language = self.current.language
                self._remember_language()
            if self.current.choice is not None:
                self.current = self._start(self.current.choice) or self.current
        elif self.current.finished:
            done = self.current
            done.close()
            self._offer_unsaved = False
            # a new game keeps the last one's cards (real or virtual), as "again" does
            self.current = self._setup(done.game, done.header.get("deck"))
            if done.again:
                self.current = self._start(self._same_players(done)) or self.current
        self._count_result()  # a game the assistant moved in as it was made

    def _same_players(self, done) -> dict:
        """The next game as the last one was set up: same game, pads, options, deck and
        the assistant's seats. Cockroach Poker: the loser starts (the rulebook: who takes
        the card starts the next round, and the loser took the last one or had to start).
        Grasshopper Poker has no first player: everyone bids at once, every turn."""
        header = done.header
        pads = tuple(header.get("pads") or range(1, done.state.players + 1))
        choice = {"game": done.game, "seats": pads, "deck": header.get("deck", "physical"),
                  "options": {}, "first": None, "assistant": {"seats": 0, "level": "strong"}}
        if GAMES[done.game].first_chosen:  # Cockroach Poker: the loser starts the next (C2)
            losers = done.state.outcome.losers
            choice["first"] = done.seats[losers[0]] if losers else pads[0]
            choice["mode"] = (header.get("options") or {}).get("mode", "full")  # quick stays quick
        else:
            choice["options"] = dict(header.get("options") or {})
            pi = header.get("assistant") or {}
            if pi.get("seats"):
                choice["assistant"] = {"seats": len(pi["seats"]), "level": pi.get("level", "strong")}
        return choice

    def _signal(self, pad_index: int) -> None:
        # Late-bound: the pads (and their LEDs) are opened after the table.
        if self.signal is not None:
            self.signal(pad_index)

    def close(self) -> None:
        self.current.close()

    def _post(self, item) -> None:
        def answered():
            item()
            self._count_result()  # the assistant's move may end the game

        if self.post is None:
            answered()  # no loop (tests driving the table by hand): at once, on this thread
        else:
            self.post(answered)

    # -- the table's language: the config's, or the one last chosen at the table ------------

    SETTINGS = "table.json"

    def _remembered_language(self, configured: str) -> str:
        """The language last chosen at the table, unless the config changed since then
        (a maker who edits the config sees the edit)."""
        from pitable.i18n import LANGUAGES

        path = self.log_dir / self.SETTINGS
        try:
            if not path.is_file():  # not there, or a directory, a FIFO: nothing remembered
                return configured
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError, RecursionError):  # no file in the log directory stops the daemon
            return configured
        if not isinstance(saved, dict) or saved.get("config") != configured:
            return configured
        chosen = saved.get("language")
        return chosen if chosen in LANGUAGES else configured

    def _remember_language(self) -> None:
        path = self.log_dir / self.SETTINGS
        try:
            self.log_dir.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(".tmp")
            tmp.write_text(json.dumps({"language": self.language, "config": self.config_language}),
                           encoding="utf-8")
            os.replace(tmp, path)
        except OSError as e:  # the choice still holds until the Pi restarts
            log.warning("cannot remember the language in %s: %s", path, e)

    # -- games -------------------------------------------------------------------------------

    def _setup(self, game: str | None = None, deck: str | None = None) -> Setup:
        return Setup(self.seats, game or self.default_game, deck or self.default_deck, clock=self.clock,
                     sitting=self.sitting,
                     notice_seconds=NOTICE_SECONDS if self.notice_seconds is None else self.notice_seconds,
                     assistant_seats=self.assistant.get("seats", 0),
                     assistant_level=self.assistant.get("level", "strong"),
                     language=self.language, phones=self.phones, address=self.web_address)

    def phone_join(self, ticket: str):
        """A phone shows a join ticket (the web thread asks through the loop's queue):
        (seat, code) if it is the ticket of the QR on screen now, else None."""
        return self._join_by_qr(lambda phones: phones.join(ticket))

    def phone_join_sealed(self, box: str):
        """A phone that scanned the QR (loop thread): (seat, session id, the sealed answer that
        gives the phone its session key) if the box opens with the key of the QR on screen now
        (the QR's secret is then spent), else None."""
        return self._join_by_qr(lambda phones: phones.join_sealed(box))

    def _join_by_qr(self, join):
        """A join counts only while a phone's QR is on the glass; the seat is the first value."""
        cur = self.current
        if self.phones is None or not cur.showing_qr():
            return None
        found = join(self.phones)
        if found is not None:
            cur.phone_joined(found[0])
        return found

    def _start(self, choice: dict):
        from pitable.table.journal import Journal, NoJournal

        seats = tuple(choice["seats"])
        extra = {"pads": list(seats), "deck": choice["deck"],
                 "started": time.strftime("%Y-%m-%dT%H:%M:%S")}
        if choice["deck"] == "virtual":
            extra["seed"] = self.rng.getrandbits(32)
        played = table_game(choice["game"])
        header = played.new_header(choice, seats, extra, rng=self.rng, assistant=self.assistant)
        state = played.spec.rules.state_from_header(header)
        journal: Journal | NoJournal
        try:
            journal = Journal.create(self.log_dir, header)
        except OSError as e:
            # Refused like a move: the setup stays, the table is told; if it asks again,
            # the game is played without a log (and says so) rather than not at all.
            log.error("cannot create a game log in %s: %s", self.log_dir, e)
            if not self._offer_unsaved:
                self._offer_unsaved = True
                assert isinstance(self.current, Setup)  # a game starts from the setup
                self.current.start_refused(notices.GAME_NOT_STARTED)
                return None
            journal = NoJournal(e)
            log.warning("new %s game, seats %s, NOT SAVED (%s)", choice["game"], seats, journal.reason)
        else:
            log.info("new %s game, seats %s, log %s", choice["game"], seats, journal.path)
        self._offer_unsaved = False
        if self.phones is not None:  # fresh codes for this game; a phone's page follows its seat
            self.phones.new_game(seats)
        if not journal.saving:
            self._notice(notices.not_saving(journal.errno))
        return self._controller(state, header, journal, resumed=False)

    def _timing(self) -> dict:
        """What every game controller gets from the table: the informing screens' time, and
        how the display pages instructions in the table's language."""
        out: dict[str, Any] = {"pages": self._pages, "fits": self._fits}
        if self.notice_seconds is not None:
            out["notice_seconds"] = self.notice_seconds
        if self.reveal_seconds is not None:
            out["reveal_seconds"] = self.reveal_seconds
        return out

    def _pages(self, title, lines) -> list:
        from pitable.screens.grasshopper import instruction_pages

        return instruction_pages(title, lines, self.language)

    def _fits(self, view) -> bool:
        """Whether ``view`` reads whole on the display in the table's language (a turn's
        lines go on the next key screen only then; else on pages). Each answer draws the
        frame once (some 0.3 ms on a laptop, ten times that on a Pi Zero 2 W, a few a
        move): remembered by the view's value, as the same screens come back all evening."""
        from pitable.screens.render import layout_problems

        key = (self.language, repr(view))
        known = self._fitted.get(key)
        if known is None:
            known = self._fitted[key] = not layout_problems(view, self.language)
            if len(self._fitted) > 512:
                self._fitted.pop(next(iter(self._fitted)))  # the oldest answer goes
        return known

    _fitted: dict = {}  # (language, the view's repr) -> fits: the same for every table (pure layout)

    def _resume(self):
        """The newest unfinished game, up to its last good line; None (and a notice) when
        there is none or it cannot go on at this table."""
        from pitable.rules.log import pads_of
        from pitable.table.journal import Journal, NoJournal, find_unfinished, set_aside

        found = find_unfinished(self.log_dir)
        if found is None:
            return None
        path, state = found.path, found.state
        if state is None:
            log.error("cannot resume %s: %s (the file is left as it is)", path, found.problem)
            self._notice(notices.not_resumed())
            return None
        header = found.log.header
        pads = pads_of(header, state.players)  # the header is checked: pads and the assistant's seats add up
        # with phones (web:), seats after the pads' numbers are phones': they join again (hold 5)
        room = max(self.seats, 6) if self.phones is not None else self.seats
        if max(pads, default=0) > room:
            log.error("not resuming %s: it needs pad %d, this table has %d (the file is left as it is)",
                      path, max(pads), self.seats)
            self._notice(notices.not_resumed(max(pads)))
            return None
        aside = None
        journal: Journal | NoJournal
        try:
            if found.good_size is not None:
                aside = set_aside(path, found.good_size)
                if found.bad_line is None:
                    log.warning("%s: a last line cut short (power lost while writing) is kept in %s",
                                path, aside)
            journal = Journal.reopen(path)
        except OSError as e:
            journal = NoJournal(e)
            log.error("cannot write %s: %s; this game goes on NOT SAVED", path, e)
        if found.bad_line is not None:
            log.error("%s: %s; resumed up to line %d, the rest is kept %s", path, found.problem,
                      found.bad_line - 1, f"in {aside}" if aside else "in the file as it is")
            self._notice(notices.log_repaired(found.bad_line))
        log.info("resuming %s: %d inputs, round %d, %s", path, len(state.moves), state.round, state.phase)
        if not journal.saving:
            self._notice(notices.not_saving(journal.errno))
        return self._controller(state, header, journal, resumed=True)

    def _controller(self, state, header: dict, journal, resumed: bool):
        # the header: the web pages replay its history (public moves only); the phones:
        # hold 5 shows a phone's QR (again) for a seat of this game
        given = dict(clock=self.clock, signal=self._signal, resumed=resumed, header=header, phones=self.phones,
                     web_address=self.web_address, pads=self.seats, **self._timing())
        return table_game(header["game"]).controller(state, journal, post=self._post,
                                                     worker=self.assistant_worker, **given)
