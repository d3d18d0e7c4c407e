"""Starting a game with the pads: which game, who plays, which options."""

from __future__ import annotations

from pitable.i18n import ASSISTANT_SEAT, LANGUAGES, Msg, msg
from pitable.keys import COUNT
from pitable.screens import views as v
from pitable.screens.views import Key, meaning
from pitable.hardware.keys import HOLD
from pitable.table.base import KEY_A, KEY_X, NOTICE_SECONDS, Controller, Toasts, every_key

from pitable.rules.games import ASSISTANT_LEVELS, NAMES as GAMES, game  # noqa: E402 - the games, keys 1.. in this order

LIMITS = {name: (game(name).min_players, game(name).max_players) for name in GAMES}
# every game's options; labels: msg "opt.<name>"
OPTIONS = tuple(dict.fromkeys(o for name in GAMES for o in game(name).options))
MODES = {name: game(name).modes for name in GAMES if game(name).modes}  # the first is the default
from pitable.keys import KEY_PHONE, KEY_PI  # noqa: E402 - "5": a phone joins; "6": the Pi takes a seat
MAX_SEATS = max(high for _, high in LIMITS.values())  # seat numbers a phone may take: up to the largest game
QR_SECONDS = 120.0  # a phone's QR closes by itself (its ticket with it)
# key 6's steps: no Pi, then 1 to 3 Pi seats, each at the registry's levels, strongest first
PI_STEPS = ((0, ASSISTANT_LEVELS[-1]),) + tuple((n, level) for n in (1, 2, 3) for level in reversed(ASSISTANT_LEVELS))


class Setup(Toasts, Controller):
    """Keys in, a ``Setup`` view out; ``choice`` is set when the table starts the game.

    Steps: game (1 Grasshopper, 2 Cockroach, X the table's language) -> join (any key
    joins that seat; A goes on, X leaves) -> options (number keys toggle, A starts, X
    goes back). ``language`` is the table's language; the table remembers a change.
    """

    def __init__(self, seats: int, game: str = "grasshopper", deck: str = "physical", clock=None,
                 language: str = "en", assistant_seats: int = 0, assistant_level: str = "strong",
                 phones=None, address: str = "", sitting=None, notice_seconds: float = NOTICE_SECONDS):
        # Phones (pitable.web.access.Phones, loop thread): seats after the pads' numbers
        # can join from a phone; None when the config has no web: section.
        self.phones = phones
        self.address = address      # "HTTP://192.168.1.20:8080/": the QR's start
        self.pads = seats
        self.phone: tuple[int, str] | None = None  # (seat, ticket) while the QR for that seat is shown
        self.phone_by: int | None = None  # the pad that asked for it: its keys close it
        self.phone_until: float | None = None  # ... or this time does
        seats = max(seats, MAX_SEATS) if phones is not None else seats
        self.seats = seats
        self.game = game
        self.deck = deck
        self.language = language
        self.step = "game"
        self.joined: list = []
        self.options = {name: False for name in OPTIONS}
        self.first = None           # Cockroach Poker: the first player's pad number
        self.modes = {name: modes[0] for name, modes in MODES.items()}  # Cockroach Poker: quick
        # Grasshopper Poker: seats the assistant plays (the config's default; key 6 at the
        # join screen steps through none, 1 strong, 1 easy, 2 strong, ...). Cockroach Poker
        # has none: its cards pass between real hands.
        self.pi_seats = assistant_seats
        self.pi_level = assistant_level
        self.choice: dict | None = None  # set when the game starts: dict(game, seats, options, deck, first)
        if clock is not None:
            self.clock = clock
        # the evening's score (pitable.table.sitting): hold A shows it until a key or
        # notice_seconds (it only informs); hold X on it starts it afresh
        self.sitting = sitting
        self.notice_seconds = notice_seconds
        self.showing: float | None = None  # when the evening's score goes by itself (a clock time), or None

    def next_deadline(self):
        times = [t for t in (super().next_deadline(), self.showing,
                             self.phone_until if self.phone is not None else None) if t is not None]
        return min(times) if times else None

    def tick(self, now: float) -> bool:
        changed = super().tick(now)
        if self.showing is not None and now >= self.showing:
            self.showing = None
            changed = True
        if self.phone is not None and self.phone_until is not None and now >= self.phone_until:
            self.phone = None
            self.phones.drop_tickets()
            changed = True
        return changed

    def _sitting_key(self, event) -> bool:
        """Hold A (choosing the game or who plays): the evening's score. On it, hold X
        starts it afresh; any other key goes back. True when the key was taken here."""
        if self.sitting is None:
            return False
        if self.showing is not None:
            self.showing = None
            if event.action == HOLD and event.key == KEY_X:
                self.sitting.clear()
                self._say("toast.sit_afresh")
            return True
        if event.action == HOLD and event.key == KEY_A and self.step in ("game", "join") and self.phone is None:
            self.showing = self.clock() + (self.notice_seconds or 10 ** 9)
            self.toast = None
            return True
        return False

    def on_key(self, event) -> None:
        self._on_key(event)
        self._bind_toast()  # a toast said by this key belongs to the screen the key leaves up

    def _screen_id(self):
        return (self.step, self.game, self.phone is not None)

    # -- the key table: what each key does on the screen up (one place) ---------------------

    def _key_table(self) -> tuple:
        seats = tuple(range(1, self.seats + 1))
        if self.showing is not None:
            return every_key(("close", "sitting"), msg("web.back"), seats)
        if self.step == "game":
            return (*(Key(i, ("game", name), msg(f"game.{name}"), seats) for i, name in enumerate(GAMES)),
                    Key(KEY_X, ("language",), msg("web.language"), seats))
        if self.step == "join" and self.phone is not None:
            # the QR screen is the pad's that asked for it: a seat's number takes its phone back
            mine = (self.phone_by,) if self.phone_by is not None else seats
            codes = self.phones.codes
            return tuple(Key(k, ("phone_off", k + 1), msg("seat", seat=k + 1), mine) if k < KEY_A and k + 1 in codes
                         else Key(k, ("close", "qr"), msg("key.go_on"), mine) for k in range(COUNT))
        joined = tuple(self.joined)
        if self.step == "join":
            # the joined seats' keys first: they are the ones the glass names beside their caps
            out = [Key(KEY_A, ("go_on",), msg("key.go_on"), joined), Key(KEY_X, ("leave",), msg("key.leave"), joined)]
            if game(self.game).assistant:
                out.append(Key(KEY_PI, ("pi",), self.pi_label(), joined))
            if self.phones is not None:
                out.append(Key(KEY_PHONE, ("phone",), msg("key.phone"), joined))
            return (*out, *every_key(("join",), msg("web.join"), tuple(s for s in seats if s not in joined)))
        labels = {"deck": msg("opt.deck"), "first": msg("opt.first")}
        return (*(Key(i, ("option", name), labels.get(name) or msg(f"opt.{name}"), joined)
                  for i, name in enumerate(self._option_names())),
                Key(KEY_A, ("start",), msg("key.start"), joined), Key(KEY_X, ("back",), msg("web.back"), joined))

    def _on_key(self, event) -> None:
        pad, key = event.seat + 1, event.key
        by = event.by   # None: a pad; a phone's session
        if not 0 <= key <= KEY_X:
            return  # no such key on a pad
        if not 1 <= pad <= self.seats:
            # e.g. a keyboard row beyond the configured seats: it may not join (a game
            # with that seat could never resume) nor choose for the table
            self._say("toast.not_in_game", seat=pad)
            return
        if self._sitting_key(event):
            return
        if self.step == "join" and self.phone is not None and by is not None:
            # the QR screen is the pad's that asked for it: a phone neither closes it nor
            # takes a phone back
            self._say("toast.phone_by_pad", seat=self.phone_by or pad)
            return
        if self.step == "join" and self.phone is None and key == KEY_PHONE and by is not None and pad in self.joined:
            self._say("toast.phone_by_pad", seat=pad)   # a phone asks for no phone
            return
        does = meaning(self._key_table(), pad, key)
        if does is None:
            self._refuse(pad, key)
        else:
            self._do(pad, key, does)

    def _refuse(self, pad: int, key: int) -> None:
        """A key the screen up gives no meaning: a toast says why."""
        if self.step == "game":
            self._say("toast.which_game")
        elif self.phone is not None:
            self._say("toast.overlay_of", seat=self.phone_by or pad)  # another seat's QR screen
        elif self.step == "join":
            self._say("toast.join_keys")
        elif pad not in self.joined:
            self._say("toast.not_joined", seat=pad)
        else:
            self._say("toast.option_keys", last=len(self._option_names()))

    def _do(self, pad: int, key: int, does: tuple) -> None:
        """What a key does, as the key table of the screen up says."""
        what = does[0]
        if what == "game":
            self.game = does[1]
            self.step = "join"
        elif what == "language":
            self.language = LANGUAGES[(LANGUAGES.index(self.language) + 1) % len(LANGUAGES)]
        elif what in ("phone_off", "close"):
            self._phone_key(pad, key)
        elif self.step == "join":
            self._join_key(pad, key, what)
        else:
            self._options_key(pad, what, does)

    def _pi(self) -> int:
        return self.pi_seats if game(self.game).assistant else 0

    def _join_key(self, pad: int, key: int, what: str) -> None:
        low, high = LIMITS[self.game]
        if what == "join":
            if len(self.joined) + self._pi() >= high:
                self._say("toast.at_most", n=high)
                return
            self.joined.append(pad)
            self.joined.sort()
        elif what == "leave":
            self.joined.remove(pad)
            if self.first == pad:
                self.first = None  # a seat that left is nobody's choice any more
        elif what == "go_on":
            if len(self.joined) + self._pi() < low:
                self._say("toast.need", n=low)
            else:
                self.step = "options"
        elif what == "pi":
            self._next_pi(high)
        elif what == "phone":
            self._show_phone_code(high, pad)

    # -- phones ------------------------------------------------------------------------------

    def _show_phone_code(self, high: int, pad: int) -> None:
        """The QR (and address) for the next free seat: scanning it makes a phone that seat."""
        if len(self.joined) + self._pi() >= high:
            self._say("toast.at_most", n=high)
            return
        taken = set(self.joined) | set(self.phones.codes)
        free = [s for s in (*range(self.pads + 1, self.seats + 1), *range(1, self.pads + 1)) if s not in taken]
        if not free:
            self._say("toast.no_free_seat")
            return
        self.phone = (free[0], self.phones.ticket(free[0]))
        self.phone_by = pad
        self.phone_until = self.clock() + QR_SECONDS   # it closes by itself
        self.toast = None  # nothing over the QR

    def _phone_key(self, pad: int, key: int) -> None:
        """On the QR screen: the number of a seat that has a phone takes that phone back
        (it leaves the game); any other key goes back to who plays."""
        seat = key + 1
        if key < KEY_A and seat in self.phones.codes:
            self.phones.take_back(seat)
            if seat in self.joined:
                self.joined.remove(seat)
            if self.first == seat:
                self.first = None
            self._say("toast.phone_off", seat=seat)
            if self.phone is not None:  # its ticket was dropped too: a fresh one for the QR
                self.phone = (self.phone[0], self.phones.ticket(self.phone[0]))
            return
        self.phone = None
        self.phones.drop_tickets()

    def showing_qr(self) -> bool:
        return self.phone is not None

    def start_refused(self, text) -> None:
        """The game chosen could not start (the disk refused its log): the setup stays, and says so."""
        self.choice = None
        self._say(text)

    def phone_joined(self, seat: int) -> None:
        """A phone used the ticket of ``seat`` (the table checked it): that seat joins."""
        if seat not in self.joined:
            self.joined.append(seat)
            self.joined.sort()
        self.phone = None
        self.phones.drop_tickets()
        self._say("toast.phone_joined", seat=seat)

    def _next_pi(self, high: int) -> None:
        self.pi_seats, self.pi_level = self._pi_after(high)

    def _pi_after(self, high: int) -> tuple:
        """The next of PI_STEPS that leaves room for the pads that joined (at most ``high``):
        what key 6 does now, and what its label says."""
        now = PI_STEPS.index((self.pi_seats, self.pi_level)) if (self.pi_seats, self.pi_level) in PI_STEPS else 0
        for step in PI_STEPS[now + 1:] + PI_STEPS[:1]:
            if step[0] + len(self.joined) <= high:
                return step
        return PI_STEPS[0]

    def pi_label(self):
        """Key 6's label on the join screen: it changes the Pi's level (the screen shows the
        level it plays at now, from the view's ``assistant`` and ``assistant_level``)."""
        return msg("key.change")

    def _options_key(self, pad: int, what: str, does: tuple) -> None:
        if what == "back":
            self.step = "join"
            return
        if what == "start":
            self.choice = {"game": self.game, "seats": tuple(self.joined),
                           "deck": self.deck if game(self.game).virtual_deck else "physical",
                           "options": {n: self.options[n] for n in game(self.game).options},
                           "first": self.first_pad(), "mode": self.modes.get(self.game),
                           "assistant": {"seats": self._pi(), "level": self.pi_level}}
            return
        name = does[1]
        if name == "deck":
            self.deck = "virtual" if self.deck == "physical" else "physical"
        elif name == "first":
            i = self.joined.index(self.first_pad())
            self.first = self.joined[(i + 1) % len(self.joined)]
        elif name == "mode":
            modes = MODES[self.game]
            self.modes[self.game] = modes[(modes.index(self.modes[self.game]) + 1) % len(modes)]
        else:
            self.options[name] = not self.options[name]

    def first_pad(self):
        """Cockroach Poker's first player: the one chosen if still joined, else the
        lowest joined seat. The one answer for the view and for the start."""
        if self.first in self.joined:
            return self.first
        return self.joined[0] if self.joined else None

    def _option_names(self) -> list:
        spec = game(self.game)  # Cockroach Poker: no options, always the real cards in hand
        return (list(spec.options) + ["deck"] * spec.virtual_deck + ["first"] * spec.first_chosen
                + ["mode"] * bool(spec.modes))

    def view(self) -> v.Setup | v.Sitting:
        if self.showing is not None:
            totals = self.sitting.totals()
            return v.Sitting(self.sitting.count(), tuple(totals), tuple(w for w, _ in totals.values()),
                             tuple(lo for _, lo in totals.values()), self._toast_text(), self._key_table())
        lines: list[tuple[Msg, Msg | str]] = []
        spec = game(self.game)
        if spec.options or spec.virtual_deck:
            for name in spec.options:
                on = self.options[name]
                if name == "x_takes_cancelled_ace" and on and self.options["beginner"]:
                    value = msg("value.beginner_rules")  # G13: the beginners' X never takes the Ace
                else:
                    value = msg("value.on" if on else "value.off")
                lines.append((msg(f"opt.{name}"), value))
            if spec.virtual_deck:  # one vocabulary with the config's deck: physical|virtual
                lines.append((msg("opt.deck"), msg(f"value.{self.deck}")))
        else:
            first = self.first_pad()
            lines.append((msg("opt.first"), msg("seat", seat=first) if first else "-"))
            if spec.modes:  # Cockroach Poker: one key a round (quick) or every offer, pass and call
                lines.append((msg("opt.mode"), msg(f"value.{self.modes[self.game]}")))
        low, _ = LIMITS[self.game]
        toast = self._toast_text()
        pi = tuple(ASSISTANT_SEAT + 1 + i for i in range(self._pi()))
        phone = qr = None
        if self.phone is not None:
            seat, ticket = self.phone
            phone = (seat, f"{self.address}{ticket[:4]}-{ticket[4:]}")
            qr = f"{self.address}{self.phones.link(ticket)}"
        return v.Setup(self.step, self.game, tuple(self.joined), self.seats, tuple(lines),
                       len(self.joined) + len(pi) >= low and bool(self.joined), toast, self.language,
                       pi, self.pi_level if pi else None, phone,
                       self.phones.seats() if self.phones is not None else None, qr,
                       self.pi_label() if game(self.game).assistant and self.step == "join" else None,
                       self._key_table())
