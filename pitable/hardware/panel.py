"""What a display section can be: the one rule that ``pitable check-config`` and
``open_display`` both apply, so a config that passes the check is a display the daemon
can open and draw on, and one that fails is refused with the same words in both.

No imports beyond the layout's size: the config check loads this without luma.
"""

from __future__ import annotations

from pitable.screens.frame import unsupported

HARDWARE = ("ssd1306", "sh1106", "ssd1309")

# luma.core.interface.serial.spi asserts the bus speed is one of these (Hz)
SPI_SPEEDS = tuple(int(mhz * 1_000_000) for mhz in
                   (0.5, 1, 2, 4, 8, 16, 20, 24, 28, 32, 36, 40, 44, 48, 50, 52))


def problem(*, display: str = "ssd1306", interface: str = "i2c", width: int = 128, height: int = 64,
            rotate: int = 0, spi_bus_speed: int = 4_000_000, **_) -> tuple[str, str] | None:
    """``(key, why)`` for a display section (luma's option names) the daemon could not
    draw on, else None."""
    found = unsupported(width, height, rotate)
    if found is not None:
        return found
    if display in HARDWARE and interface == "spi" and spi_bus_speed not in SPI_SPEEDS:
        return "spi_bus_speed", (f"{spi_bus_speed} is not a speed the SPI driver takes "
                                 f"(e.g. 8000000, 16000000, 32000000)")
    return None
