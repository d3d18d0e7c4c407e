"""A phone's sealed channel: libsodium's secretbox (XSalsa20-Poly1305) through PyNaCl,
the same construction as tweetnacl's ``nacl.secretbox`` in the page (docs/phones.md,
"Sealed phone traffic"). Nothing here is a cipher of ours: keys from a secret, a random
24-byte nonce per message (the library's), and counters so that a message seen once is
refused when it comes again, from any address.

Two secrets key a phone. The QR's (128 random bits in its fragment) keys the join only:
the phone sends an X25519 public key of its own (``nacl.box.keyPair``), sealed; the Pi
answers with one of its own, sealed, and both take libsodium's ``crypto_box_beforenm``
of the pair (``nacl.box.before`` in the page, ``Box.shared_key`` here) as the session's
secret. The QR's secret is spent by that join, and the session's secret cannot be worked
out from it (nor from anything recorded on the Wi-Fi): both private keys are gone with
the join.

Each secret gives one key per direction (SHA-512 of a direction's label and the secret,
first half: the page has ``nacl.hash``, SHA-512, and no other hash). A box carries its
route ("r") inside: a box is taken only on its own route, and its counter only after the
whole message was found valid for that route.
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading

SECRET_CHARS = 26                     # 128 bits in base32
# the labels of the two directions (each ends in a NUL: neither is a prefix of the other)
PI_TO_PHONE = b"pitable pi->phone 2\x00"
PHONE_TO_PI = b"pitable phone->pi 2\x00"
PAD = 64                              # plaintexts are padded to a multiple of this: lengths say little
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
MAX_BOX = 4096                        # characters of base64: a longer text is not a box of ours
# routes: a phone's join, key and stream opening; the Pi's answer to a join and its stream
JOIN, KEY, EVENTS = "join", "key", "events"
JOINED, STREAM = "joined", "stream"


class Refused(Exception):
    """A box that does not open with this key, is for another route, or was seen before."""


def new_secret(token_bytes) -> str:
    raw = int.from_bytes(token_bytes(16), "big") << 2   # 128 bits -> 130 = 26 x 5
    return "".join(ALPHABET[(raw >> (5 * i)) & 31] for i in reversed(range(SECRET_CHARS)))


def key_of(secret: bytes, label: bytes) -> bytes:
    """One direction's key from a uniformly random secret (no slow KDF needed)."""
    return hashlib.sha512(label + secret).digest()[:32]


def _bytes(secret) -> bytes:
    return secret.encode("ascii") if isinstance(secret, str) else bytes(secret)


def _pad(obj: dict) -> bytes:
    text = json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    return text + b" " * (-len(text) % PAD)


class Channel:
    """One secret's two keys and counters, seen from one side (``side``: "pi", or "phone"
    for the tests' and benchmarks' phones). Opening runs on the web thread (a lock: a
    stream and a key may be handled in turn); the loop thread only makes and drops
    channels."""

    def __init__(self, secret, side: str = "pi"):
        from nacl.secret import SecretBox

        if side not in ("pi", "phone"):
            raise ValueError(f"side: pi or phone, not {side!r}")
        secret = _bytes(secret)
        inward, outward = (PHONE_TO_PI, PI_TO_PHONE) if side == "pi" else (PI_TO_PHONE, PHONE_TO_PI)
        self._in = SecretBox(key_of(secret, inward))
        self._out = SecretBox(key_of(secret, outward))
        self.received = 0     # the highest counter a taken message carried
        self.sent = 0         # the counter of the last message sealed
        self._lock = threading.Lock()

    @classmethod
    def of_keys(cls, inward: bytes, outward: bytes, sent: int = 0) -> Channel:
        """A channel from ``keys()`` of another (a benchmark hands a phone to a process)."""
        from nacl.secret import SecretBox

        channel = cls.__new__(cls)
        channel._in, channel._out = SecretBox(inward), SecretBox(outward)
        channel.received, channel.sent = 0, sent
        channel._lock = threading.Lock()
        return channel

    def keys(self) -> tuple:
        """The two keys (for tests that look for them where they must not be)."""
        return bytes(self._in._key), bytes(self._out._key)

    def peek(self, text, route: str) -> dict:
        """The message if the box opens with the key of the way in and is for ``route``;
        no counter is looked at or moved."""
        from nacl.exceptions import CryptoError

        try:
            raw = base64.b64decode(text, validate=True) if isinstance(text, str) and len(text) < MAX_BOX else None
            if raw is None or len(raw) < 40:
                raise Refused("not a box")
            obj = json.loads(self._in.decrypt(raw).decode("utf-8"))
        except (CryptoError, ValueError, UnicodeDecodeError):
            raise Refused("does not open") from None
        if not isinstance(obj, dict) or type(obj.get("n")) is not int or obj["n"] < 1:
            raise Refused("no counter")
        if obj.get("r") != route:
            raise Refused("another route")
        return obj

    def take(self, obj: dict) -> None:
        """Count a valid message: one whose counter is not above the last one is a replay."""
        with self._lock:
            if obj["n"] <= self.received:
                raise Refused("replayed")
            self.received = obj["n"]

    def open(self, text, route: str, check=None) -> dict:
        """The phone's message on ``route``, once. ``check(obj)`` raises if the message is
        not valid for the route: then (as for a box that does not open) nothing moves."""
        obj = self.peek(text, route)
        if check is not None:
            check(obj)
        self.take(obj)
        return obj

    def seal(self, obj: dict, route: str) -> bytes:
        """A message on the way out, numbered (the other side refuses a number it has seen)."""
        with self._lock:
            self.sent += 1
            n = self.sent
        return self.seal_as(obj, n, route)

    def seal_as(self, obj: dict, n: int, route: str) -> bytes:
        return base64.b64encode(bytes(self._out.encrypt(_pad({**obj, "n": n, "r": route}))))


def public_key(text) -> bytes | None:
    """A 32-byte X25519 public key from its base64, or None."""
    try:
        raw = base64.b64decode(text, validate=True) if isinstance(text, str) and len(text) == 44 else b""
    except ValueError:
        return None
    return raw if len(raw) == 32 else None


class Join:
    """The QR's secret on the Pi's side: it opens a phone's join and seals the answer."""

    def __init__(self, secret: str):
        self.channel = Channel(secret)

    def opens(self, box) -> dict | None:
        """The phone's join message (with a valid public key), or None; nothing moves."""
        try:
            obj = self.channel.peek(box, JOIN)
        except Refused:
            return None
        return obj if public_key(obj.get("pk")) is not None else None

    def accept(self, box, seat: int, sid: str):
        """(the session's Channel, the sealed answer) for a join that opens, or None. The
        Pi's private key lives only in this call."""
        from nacl.exceptions import CryptoError
        from nacl.public import Box, PrivateKey, PublicKey

        obj = self.opens(box)
        if obj is None:
            return None
        mine = PrivateKey.generate()
        pk = public_key(obj["pk"])
        assert pk is not None  # opens() checked it
        try:
            shared = Box(mine, PublicKey(pk)).shared_key()
        except CryptoError:     # a public key of low order (libsodium refuses an all-zero secret)
            return None
        answer = self.channel.seal({"seat": seat, "sid": sid, "pk": base64.b64encode(bytes(mine.public_key)).decode(),
                                    "to": obj["pk"]}, JOINED)
        return Channel(shared), answer


class PhoneJoin:
    """The phone's side of a join, in Python (the tests' and benchmarks' phones; the page
    does the same with tweetnacl): its key pair and the QR's secret."""

    def __init__(self, secret: str):
        from nacl.public import PrivateKey

        self.channel = Channel(secret, side="phone")
        self._mine = PrivateKey.generate()
        self.pk = base64.b64encode(bytes(self._mine.public_key)).decode()

    def box(self, n: int = 1) -> str:
        return self.channel.seal_as({"pk": self.pk}, n, JOIN).decode()

    def finish(self, answer: str):
        """(seat, session id, the session's Channel) from the Pi's answer."""
        from nacl.public import Box, PublicKey

        obj = self.channel.peek(answer, JOINED)
        if obj.get("to") != self.pk:
            raise Refused("an answer to another join")
        pk = public_key(obj["pk"])
        if pk is None:
            raise Refused("an answer without a public key")
        shared = Box(self._mine, PublicKey(pk)).shared_key()
        return obj["seat"], obj["sid"], Channel(shared, side="phone")
