"""Who may press for which seat from a phone: join tickets, seat codes, rate limits.

``Phones`` is owned by the loop's thread (the table makes tickets when it shows a QR
and codes when a phone joins or a game starts); the web thread only ever sees the
frozen copy ``Phones.public()`` that goes out with each snapshot, and checks a code
against it in constant time. The random source and the clock are injected so that
tests (and the secrecy proof) can make the same codes in two runs.
"""

from __future__ import annotations

import base64
import collections
import hashlib
import hmac
import secrets
import time

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"   # Crockford base32: no I L O U
TICKET_CHARS = 8                                 # 40 bits: fits a version-2 QR (docs/phones.md)
TICKET_SECONDS = 600.0
CODE_BYTES = 16                                  # 128 bits


def normal_ticket(text: object) -> str | None:
    """A typed or scanned ticket -> its canonical 8 characters, or None if it is not one."""
    if not isinstance(text, str) or len(text) > 16:
        return None
    t = text.upper().replace("-", "").translate(str.maketrans("ILO", "110"))
    if len(t) != TICKET_CHARS or any(ch not in ALPHABET for ch in t):
        return None
    return t


def digest(code: str) -> bytes:
    return hashlib.sha256(code.encode("ascii", "replace")).digest()


class Phones:
    """Loop thread only. Seat numbers are the pad numbers (1-based)."""

    def __init__(self, token_bytes=secrets.token_bytes, clock=time.monotonic):
        self.token_bytes = token_bytes
        self.clock = clock
        self.codes: dict = {}       # seat -> code (base64url, 22 chars)
        self.tickets: dict = {}     # ticket -> (seat, until)
        self.moved: dict = {}       # old code -> new code (a new game: the phone keeps its seat)
        # seat -> the phone session holding it: one number per join, kept across games
        # (the phone keeps its seat), gone with a take-back. A bid carries the session of
        # the phone that made it (KeyEvent.by): another phone at the seat later, or the
        # same seat's pad, is another maker.
        self.sessions: dict = {}
        self._session = 0
        # Sealed sessions (a phone that scanned the QR, whose fragment holds a key):
        # seat -> (public session id, seal.Channel). Their codes never leave the Pi, and
        # the code routes do not take them: only sealed requests for the id do.
        self.secrets: dict = {}     # ticket -> the QR's secret (what keys its join)
        self._joins: dict = {}      # ticket -> seal.Join of its secret
        self.sealed: dict = {}
        self.version = 0

    def ticket(self, seat: int) -> str:
        """A fresh one-use ticket for this seat; the seat's earlier tickets stop working."""
        from pitable.web.seal import Join, new_secret

        self.tickets = {t: s for t, s in self.tickets.items() if s[0] != seat}
        raw = int.from_bytes(self.token_bytes(5), "big")
        t = "".join(ALPHABET[(raw >> (5 * i)) & 31] for i in reversed(range(TICKET_CHARS)))
        self.tickets[t] = (seat, self.clock() + TICKET_SECONDS)
        self.secrets = {k: v for k, v in self.secrets.items() if k in self.tickets}
        self._joins = {k: v for k, v in self._joins.items() if k in self.tickets}
        secret = new_secret(self.token_bytes)
        try:
            self._joins[t] = Join(secret)
            self.secrets[t] = secret
        except ImportError:     # no PyNaCl: the QR carries the typed address (unsealed)
            pass
        self.version += 1
        return t

    def link(self, ticket: str) -> str:
        """What the QR carries after the address: the join page, and in the fragment
        (never sent by the browser) the secret that keys the phone's join."""
        secret = self.secrets.get(ticket)
        return f"J#{secret}" if secret else f"{ticket[:4]}-{ticket[4:]}"   # (a ticket already gone)

    def join_sealed(self, box: str):
        """A phone that scanned the QR sends its public key sealed with the fragment's
        secret: the ticket whose secret opens it seats the phone with a sealed session of
        a fresh key (seal.Join). The QR's secret is spent: it opens nothing after this.
        (seat, session id, the sealed answer) or None."""
        for ticket, (seat, until) in list(self.tickets.items()):
            join = self._joins.get(ticket)
            if join is None or self.clock() >= until or join.opens(box) is None:
                continue
            sid = base64.urlsafe_b64encode(self.token_bytes(12)).decode()
            made = join.accept(box, seat, sid)      # first: a key it refuses seats nobody
            if made is None or self.join(ticket) is None:
                return None
            channel, answer = made
            self.sealed[seat] = (sid, channel)
            self.version += 1
            return seat, sid, answer.decode()
        return None

    def drop_tickets(self) -> None:
        if self.tickets:
            self.tickets = {}
            self.secrets = {}
            self._joins = {}
            self.version += 1

    def join(self, ticket: str) -> tuple | None:
        """A phone shows a ticket: (seat, code), or None. The ticket is used up."""
        t = normal_ticket(ticket)
        found = None
        for known, (seat, until) in list(self.tickets.items()):
            if t is not None and hmac.compare_digest(known, t) and self.clock() < until:
                found = seat
        if found is None:
            return None
        del self.tickets[t]
        self.tickets = {}           # a ticket seats exactly one phone: the QR goes, its siblings too
        self.secrets = {}
        self._joins = {}
        self.sealed.pop(found, None)    # a phone that joins by the typed address is not sealed
        old = self.codes.get(found)
        self.codes[found] = self._code()
        self._session += 1
        self.sessions[found] = self._session
        # the seat's earlier code stops at once, and so does any old code still leading to it
        self.moved = {o: n for o, n in self.moved.items() if n != old}
        self.version += 1
        return found, self.codes[found]

    def take_back(self, seat: int) -> bool:
        had = self.codes.pop(seat, None) is not None
        self.sessions.pop(seat, None)
        self.sealed.pop(seat, None)
        self.tickets = {t: s for t, s in self.tickets.items() if s[0] != seat}
        self.secrets = {t: x for t, x in self.secrets.items() if t in self.tickets}
        self._joins = {t: j for t, j in self._joins.items() if t in self.tickets}
        # an old code leading to the seat's code stops with it
        self.moved = {old: new for old, new in self.moved.items() if new in self.codes.values()}
        self.version += 1
        return had

    def new_game(self, seats) -> None:
        """Fresh codes for the phone seats that play on; the others are taken back. The
        old code of a seat that plays on tells its phone the new one once (the web thread
        spends it), and only until the next game or a take-back: codes of earlier games
        are forgotten here."""
        old = self.codes
        self.codes = {}
        self.moved = {}
        for seat, code in old.items():
            if seat in seats:
                self.codes[seat] = self._code()
                self.moved[code] = self.codes[seat]
        self.sessions = {s: n for s, n in self.sessions.items() if s in self.codes}
        self.sealed = {s: x for s, x in self.sealed.items() if s in self.codes}
        self.tickets = {}
        self.secrets = {}
        self._joins = {}
        self.version += 1

    def by(self, seat: int):
        """Who a phone key of this seat is from (KeyEvent.by), or None without a phone."""
        n = self.sessions.get(seat)
        return None if n is None else ("phone", n)

    def seats(self) -> tuple:
        return tuple(sorted(self.codes))

    def _code(self) -> str:
        return base64.urlsafe_b64encode(self.token_bytes(CODE_BYTES)).rstrip(b"=").decode()

    def public(self) -> Access:
        sealed_codes = {self.codes.get(s) for s in self.sealed}
        return Access({digest(c): (s, c, self.by(s)) for s, c in self.codes.items() if s not in self.sealed},
                      {digest(o): n for o, n in self.moved.items() if n not in sealed_codes},
                      {sid: (s, channel, self.by(s)) for s, (sid, channel) in self.sealed.items()},
                      tuple(j for t, j in self._joins.items()
                            if t in self.tickets and self.clock() < self.tickets[t][1]))


class Access:
    """The frozen table of codes the web thread checks against (one per snapshot)."""

    def __init__(self, codes: dict, moved: dict, sealed: dict | None = None, joins: tuple = ()):
        self._codes = codes
        self._moved = moved
        self._sealed = sealed or {}
        self._joins = joins         # seal.Join of each QR on the glass now

    def opens_join(self, box) -> bool:
        """Whether a QR's secret on the glass opens this join box (the loop checks again:
        a box that opens nothing never reaches it)."""
        return any(j.opens(box) is not None for j in self._joins)

    def sealed(self, sid: str):
        """(seat, channel, by) of a sealed session id, or None. The id is not a secret:
        nothing it is sent with opens without the channel's key."""
        return self._sealed.get(sid) if isinstance(sid, str) else None

    def seat(self, code: str):
        """The seat this code is for now, or None (constant-time compare of the code)."""
        if not isinstance(code, str) or len(code) > 64:
            return None
        found = self._codes.get(digest(code))
        if found is None or not hmac.compare_digest(found[1].encode(), code.encode("ascii", "replace")):
            return None
        return found[0]

    def by(self, code: str):
        """The phone session a valid code belongs to (what its keys carry), or None."""
        if self.seat(code) is None:
            return None
        return self._codes[digest(code)][2]

    def moved_to(self, code: str):
        """The new code of a seat whose old code this is (a new game), or None."""
        if not isinstance(code, str) or len(code) > 64:
            return None
        return self._moved.get(digest(code))


class RateLimit:
    """Wrong tickets and codes, counted per client address: past ``per_client`` failures
    a minute, that client gets 429. One client's failures never slow another (a shared
    bucket let six addresses lock every phone out), up to ``total`` failures a minute
    from everyone: past that, every ticket is refused unchecked until the minute has
    room again, so guessing is bounded however many addresses a guest has (IPv6).
    An address is never forgotten while it is blocked: only failures older than a
    minute are, and no failure is recorded past ``total``, so at most ``total``
    addresses are remembered. Web thread only.

    How the server uses it: a join ticket (40 bits) is refused without being checked
    once its client (or everyone) is blocked (docs/phones.md); a seat code (128 bits)
    is checked first, and a valid one always goes through. Sealed boxes (a QR's join, a
    sealed session's keys and streams) never come here: nothing in them is guessed."""

    def __init__(self, per_client: int = 5, clock=time.monotonic, total: int = 600):
        self.per_client = per_client
        self.clock = clock
        self.total = total
        self._client: dict = {}         # address -> its failures' times (the newest few)
        self._all: collections.deque = collections.deque()   # every failure's time, oldest first

    def _expire(self, now: float) -> None:
        while self._all and now - self._all[0] >= 60.0:
            self._all.popleft()
        # the dict is oldest-first by last failure: addresses quiet for a minute go
        while self._client:
            first = next(iter(self._client))
            if now - self._client[first][-1] < 60.0:
                break
            del self._client[first]

    def full(self) -> bool:
        """Everyone's failures this minute reached ``total``: no ticket is checked."""
        self._expire(self.clock())
        return len(self._all) >= self.total

    def blocked(self, client: str) -> bool:
        now = self.clock()
        self._expire(now)
        if len(self._all) >= self.total:
            return True
        mine = [t for t in self._client.get(client, ()) if now - t < 60.0]
        return len(mine) >= self.per_client

    def failed(self, client: str) -> None:
        now = self.clock()
        self._expire(now)
        stamps = self._client.pop(client, [])  # re-inserted last: the dict is oldest-first
        if len([t for t in stamps if now - t < 60.0]) < self.per_client:
            if len(self._all) >= self.total:
                if stamps:
                    self._client[client] = stamps
                return  # refused unchecked anyway: nothing to remember, nothing grows
            self._all.append(now)   # a guess that was checked (a blocked client's are not)
        stamps.append(now)
        # the newest few are all that matter: a client that goes on failing stays blocked
        self._client[client] = stamps[-self.per_client:]


class KeyLimit:
    """Keys from one phone seat: at most ``per_second`` reach the loop's queue."""

    def __init__(self, per_second: int = 20, clock=time.monotonic):
        self.per_second = per_second
        self.clock = clock
        self._seen: dict = {}

    def allow(self, seat: int) -> bool:
        now = self.clock()
        stamps = [t for t in self._seen.get(seat, []) if now - t < 1.0]
        if len(stamps) >= self.per_second:
            self._seen[seat] = stamps
            return False
        stamps.append(now)
        self._seen[seat] = stamps
        return True
