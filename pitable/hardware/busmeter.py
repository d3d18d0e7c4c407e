"""A serial interface that counts (and optionally records) what a luma driver sends.

luma drivers talk to ``serial_interface.command(*bytes)`` and ``.data(bytes)``; this
stands in for (or wraps) luma's ``i2c``/``spi`` so tests and benchmarks can check what
would go over the bus.
"""

from __future__ import annotations

__all__ = ["CountingSerial"]


class CountingSerial:
    """Counts command/data calls and bytes; ``inner`` (optional) still gets everything.

    ``log`` (when ``record=True``) holds ``("command", bytes)`` / ``("data", bytes)``
    in order, for byte-for-byte comparisons.
    """

    def __init__(self, inner=None, *, record: bool = True) -> None:
        self.inner = inner
        self.record = record
        self.reset()

    def reset(self) -> None:
        self.command_calls = 0
        self.data_calls = 0
        self.command_bytes = 0
        self.data_bytes = 0
        self.log: list[tuple[str, bytes]] = []

    @property
    def bytes(self) -> int:
        """Every byte sent, commands and data."""
        return self.command_bytes + self.data_bytes

    @property
    def commands(self) -> int:
        """How many command() calls (each is one bus transaction on I2C)."""
        return self.command_calls

    @property
    def transactions(self) -> int:
        return self.command_calls + self.data_calls

    def command(self, *cmd: int) -> None:
        self.command_calls += 1
        self.command_bytes += len(cmd)
        if self.record:
            self.log.append(("command", bytes(cmd)))
        if self.inner is not None:
            self.inner.command(*cmd)

    def data(self, data) -> None:
        self.data_calls += 1
        self.data_bytes += len(data)
        if self.record:
            self.log.append(("data", bytes(data)))
        if self.inner is not None:
            self.inner.data(data)

    def cleanup(self) -> None:
        if self.inner is not None:
            self.inner.cleanup()
