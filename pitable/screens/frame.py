"""The frame every screen is laid out for, and which panel sizes can show it.

Part of the one rule for what a display can be (:mod:`pitable.hardware.panel`), which
both ``pitable check-config`` and ``open_display`` apply: a panel that passes is drawn,
one that does not is refused with the same words in both places. No imports.
"""

from __future__ import annotations

WIDTH, HEIGHT = 128, 64


def unsupported(width: int, height: int, rotate: int = 0) -> tuple[str, str] | None:
    """``(key, why)`` if screens cannot be drawn on a ``width`` x ``height`` panel turned
    by ``rotate`` quarter turns (luma's option names), else None."""
    if rotate not in (0, 1, 2, 3):
        return "rotate", f"must be 0 or 2 (quarter turns), got {rotate!r}"
    if rotate in (1, 3):
        return "rotate", (f"{rotate} turns the panel on its side ({height}x{width}); the screens are "
                          f"laid out {WIDTH}x{HEIGHT}: use rotate 0, or 2 for upside down")
    if (width, height) != (WIDTH, HEIGHT):
        key = "height" if width == WIDTH else "width"
        return key, (f"the screens are laid out for a {WIDTH}x{HEIGHT} panel, not {width}x{height} "
                     f"(set width {WIDTH} and height {HEIGHT})")
    return None
