"""luma.emulator displays (desktop only). Imported lazily: needs luma.emulator + pygame."""

from __future__ import annotations

import os

from luma.emulator import device as emu

from ..errors import HardwareError
from .captioned import Captioned

__all__ = ["PygameDisplay", "open_emulator", "EMULATORS"]

EMULATORS = ("pygame", "capture", "gifanim")


class PygameDisplay(Captioned, emu.pygame):
    """luma.emulator's pygame window without its own exit.

    luma's ``display()`` calls ``sys.exit()`` when Escape is held or the window is
    closed, from inside whatever drew the frame. pitable's loop decides when to stop:
    :class:`pitable.hardware.keyboard.PygameKeys` reports the window being closed.
    """

    def _abort(self):
        return False

    def _show_caption(self, text: str) -> None:
        # In the title bar: the window is all a newcomer looks at.
        self._pygame.display.set_caption("pitable   " + "   ".join(text.splitlines()))


def open_emulator(kind: str, *, width: int, height: int, rotate: int,
                  scale: int, transform: str):
    kw = dict(width=width, height=height, rotate=rotate, mode="1",
              scale=scale, transform=transform)
    try:
        if kind == "pygame":
            dev = PygameDisplay(**kw)
        elif kind == "capture":
            # absolute now: the process may chdir later
            dev = emu.capture(file_template=os.path.abspath("luma_{0:06}.png"), **kw)
        elif kind == "gifanim":
            dev = emu.gifanim(filename=os.path.abspath("luma_anim.gif"), **kw)
        else:
            raise HardwareError(f"display: unknown emulator {kind!r}")
    except AttributeError as e:  # luma looks the transform up by name
        raise HardwareError(f"display: unknown transform {transform!r} ({e})") from e
    except HardwareError:
        raise
    except Exception as e:  # pygame.error (no window system), RuntimeError (no pygame)
        raise HardwareError(f"display: {kind} emulator cannot start: {e}; "
                            "try display: terminal") from e
    return dev
