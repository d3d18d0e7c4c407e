"""A QR code for the 128x64 glass: a join address as a version-2 code, 2 px a module.

segno is imported only here, and only when a QR is drawn (phones are configured).
The address is upper case (alphanumeric mode) so that version 2 (25 modules) with a
3-module quiet zone fits 62 rows (docs/phones.md, benchmarks/qr_fit.py)."""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pitable.screens.widgets import Canvas

QUIET = 3
PX = 2


@functools.lru_cache(maxsize=8)
def matrix(text: str) -> tuple[tuple[bool, ...], ...] | None:
    """Rows of booleans (True: dark), or None when the address needs more than version 3.

    An address with a key in its fragment (``.../J#<26 base32>``) is three segments,
    alphanumeric, byte (the ``#``, which alphanumeric mode lacks), alphanumeric: version 3
    (29 modules), ECC M for a home network's address, L for the longest IPv4 and port."""
    import segno
    from segno import consts

    head, sharp, tail = text.partition("#")
    content = [(head, consts.MODE_ALPHANUMERIC, None), ("#", consts.MODE_BYTE, None),
               (tail, consts.MODE_ALPHANUMERIC, None)] if sharp else text
    for version in (2, 3):
        try:
            code = segno.make_qr(content, version=version, boost_error=True)  # type: ignore[arg-type]  # segments too
        except Exception:  # noqa: BLE001 - segno.DataOverflowError: too long for this version
            continue
        return tuple(tuple(bool(m) for m in row) for row in code.matrix)
    return None


def quiet(m: tuple[tuple[bool, ...], ...]) -> int:
    """Modules of quiet zone: 3 around version 2; 1 around version 3, all that 64 rows leave
    (zbarimg reads it at 2x and 4x: tests/web/test_sealed.py)."""
    return QUIET if len(m) <= 25 else 1


def size(text: str) -> int:
    m = matrix(text)
    return 0 if m is None else (len(m) + 2 * quiet(m)) * PX


def draw(c: Canvas, x: int, y: int, text: str) -> int:
    """Lit square (the quiet zone), dark modules; returns the width drawn (0: did not fit)."""
    m = matrix(text)
    if m is None:
        return 0
    q = quiet(m)
    n = (len(m) + 2 * q) * PX
    c.rect(x, y, x + n - 1, y + n - 1, fill=1)
    for r, row in enumerate(m):
        for col, dark in enumerate(row):
            if dark:
                px, py = x + (q + col) * PX, y + (q + r) * PX
                c.rect(px, py, px + PX - 1, py + PX - 1, fill=0)
    return n
