"""A QR code for the 128x64 glass: a join address as a version-2 code, 2 px a module.

segno is imported only here, and only when a QR is drawn (phones are configured).
The address is upper case (alphanumeric mode) so that version 2 (25 modules) with a
3-module quiet zone fits 62 rows (docs/phones.md, benchmarks/qr_fit.py)."""

from __future__ import annotations

import functools

QUIET = 3
PX = 2


@functools.lru_cache(maxsize=8)
def matrix(text: str):
    """Rows of booleans (True: dark), or None when the address needs more than version 2."""
    import segno

    try:
        code = segno.make_qr(text, version=2, boost_error=True)
    except Exception:  # noqa: BLE001 - segno.DataOverflowError: too long for version 2
        return None
    return tuple(tuple(bool(m) for m in row) for row in code.matrix)


def size(text: str) -> int:
    m = matrix(text)
    return 0 if m is None else (len(m) + 2 * QUIET) * PX


def draw(c, x: int, y: int, text: str) -> int:
    """Lit square (the quiet zone), dark modules; returns the width drawn (0: did not fit)."""
    m = matrix(text)
    if m is None:
        return 0
    n = (len(m) + 2 * QUIET) * PX
    c.rect(x, y, x + n - 1, y + n - 1, fill=1)
    for r, row in enumerate(m):
        for col, dark in enumerate(row):
            if dark:
                px, py = x + (QUIET + col) * PX, y + (QUIET + r) * PX
                c.rect(px, py, px + PX - 1, py + PX - 1, fill=0)
    return n
