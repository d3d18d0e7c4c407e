"""A phone's sealed channel: libsodium's secretbox (XSalsa20-Poly1305) through PyNaCl,
the same construction as tweetnacl's ``nacl.secretbox`` in the page (docs/phones.md,
"Sealed phone traffic"). Nothing here is a cipher of ours: a key from the QR's
fragment, a random 24-byte nonce per message (the library's), and counters so that
a message seen once is refused when it comes again, from any address.

The secret in the QR is 128 random bits written as 26 Crockford base32 characters
(QR alphanumeric mode). secretbox wants 32 bytes: the key is SHA-512 of a fixed label
and the secret, first half (the page does the same with ``nacl.hash``).
"""

from __future__ import annotations

import base64
import hashlib
import json
import threading

SECRET_CHARS = 26                     # 128 bits in base32
LABEL = b"pitable seat key 1\x00"
PAD = 64                              # plaintexts are padded to a multiple of this: lengths say little
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"


class Refused(Exception):
    """A box that does not open with this key, or one already seen (a replay)."""


def new_secret(token_bytes) -> str:
    raw = int.from_bytes(token_bytes(16), "big") << 2   # 128 bits -> 130 = 26 x 5
    return "".join(ALPHABET[(raw >> (5 * i)) & 31] for i in reversed(range(SECRET_CHARS)))


def key_of(secret: str) -> bytes:
    return hashlib.sha512(LABEL + secret.encode("ascii")).digest()[:32]


def _pad(obj: dict) -> bytes:
    text = json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False).encode()
    return text + b" " * (-len(text) % PAD)


class Channel:
    """One phone session's key and counters. Opening runs on the web thread (one at a
    time: a lock, since a stream and a key may be handled in turn); the loop thread only
    makes and drops channels."""

    def __init__(self, secret: str):
        from nacl.secret import SecretBox

        self._box = SecretBox(key_of(secret))
        self.received = 0     # the highest counter a phone's message carried
        self.sent = 0         # the counter of the last message to the phone
        self._lock = threading.Lock()

    def peek(self, text: str) -> dict:
        """Open without taking the counter (to find which channel a join is for)."""
        from nacl.exceptions import CryptoError

        try:
            raw = base64.b64decode(text, validate=True) if isinstance(text, str) and len(text) < 4096 else None
            if raw is None or len(raw) < 40:
                raise Refused("not a box")
            obj = json.loads(self._box.decrypt(raw).decode("utf-8"))
        except (CryptoError, ValueError, UnicodeDecodeError):
            raise Refused("does not open") from None
        if not isinstance(obj, dict) or type(obj.get("n")) is not int:
            raise Refused("no counter")
        return obj

    def open(self, text: str) -> dict:
        """The phone's message, once: a counter not above the last one is a replay."""
        obj = self.peek(text)
        with self._lock:
            if obj["n"] <= self.received:
                raise Refused("replayed")
            self.received = obj["n"]
        return obj

    def seal(self, obj: dict) -> bytes:
        """A message to the phone, numbered (the page refuses a number it has seen)."""
        with self._lock:
            self.sent += 1
            n = self.sent
        return self.seal_as(obj, n)

    def seal_as(self, obj: dict, n: int) -> bytes:
        return base64.b64encode(bytes(self._box.encrypt(_pad({**obj, "n": n}))))
