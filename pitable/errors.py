"""The project's errors.

Each subclasses both :class:`PitableError` and the builtin it behaves like, so callers
can catch either (the gpiozero convention).
"""


class PitableError(Exception):
    """Base of every error pitable raises on purpose."""


class IllegalMove(PitableError, ValueError):
    """An input the rules refuse; the message says why. The state is unchanged."""


class OptionError(PitableError, ValueError):
    """A rule option that does not exist, or a value it cannot take (not a move: nothing was
    played); the message names the option and the ones there are."""


class LogError(PitableError, ValueError):
    """A game log that cannot be read or replayed; the message names the line."""


class ConfigError(PitableError, ValueError):
    """A configuration file that is wrong; the message names the file, the key and the problem."""


class HardwareError(PitableError, RuntimeError):
    """A device that cannot be opened or driven."""


class DisplayError(HardwareError):
    """The display failed to take a frame (loose cable, bus error)."""
