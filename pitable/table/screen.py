"""The OLED as the loop sees it: frames in, and faults, blanking and burn-in care handled.

- A frame equal to the last one is not sent again.
- A display fault never stops the game: every call into the device (frames, sleep,
  wake, cleanup, reopening) goes through :meth:`Screen._call`, which takes any
  ``Exception``: luma's own errors (its DeviceNotFoundError is no OSError), OSError
  from the bus, RuntimeError/ValueError from smbus2 or spidev, AttributeError from a
  half-open device, a failed luma assertion. It is logged once, the screen retries
  with backoff (1 s, 2 s, ... up to 30 s) and redraws (or re-blanks) when it is back.
- After ``blank_after`` seconds without a key the panel is switched off; the next
  key wakes it (and is used only to wake it).
- A frame that stays the same for ``shift_after`` seconds is moved by one pixel,
  round a small square, so static screens do not burn in. The move never takes ink
  off the glass: toward an edge the frame's ink touches it goes the other way, or
  (ink at both edges) stays put on that axis (``shifted``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from PIL import Image

log = logging.getLogger(__name__)

SHIFTS = ((0, 0), (1, 0), (1, 1), (0, 1))


def shifted(frame: Image.Image, dx: int, dy: int) -> Image.Image:
    """``frame`` moved by (dx, dy) (each -1, 0 or 1) without losing ink: a step toward an
    edge the ink touches is taken the other way if there is room there, else not at all
    (the old wrap-around moved the last column's ink to the first: "S4" lost its edge)."""
    box = frame.getbbox()
    if box is None:
        return frame
    w, h = frame.size

    def step(d: int, low: int, high: int, size: int) -> int:
        if d > 0 and high >= size:
            return -1 if low > 0 else 0
        if d < 0 and low <= 0:
            return 1 if high < size else 0
        return d

    dx, dy = step(dx, box[0], box[2], w), step(dy, box[1], box[3], h)
    if not dx and not dy:
        return frame
    out = Image.new(frame.mode, frame.size)
    out.paste(frame, (dx, dy))
    return out


class Screen:
    def __init__(self, device: Any, clock: Callable[[], float], blank_after: float = 300.0,
                 shift_after: float = 120.0, reopen: Callable[[], Any] | None = None) -> None:
        self.device = device
        self.clock = clock
        self.blank_after = blank_after
        self.shift_after = shift_after
        self.reopen = reopen          # callable giving a fresh device after a fault, or None
        self.frame: Image.Image | None = None  # the last frame asked for (unshifted)
        self.frame_bytes: bytes | None = None
        self.sent: Image.Image | None = None   # the last image the device took
        self.sent_bytes: bytes | None = None
        self.shift = 0
        self.shown_at = clock()
        self.last_key = clock()
        self.blanked = False
        self.failed_at: float | None = None  # when the display last failed, if it is failing
        self._outage = False          # a failure is logged once an outage, until "display is back"
        self.retry_in = 1.0
        self.frames_sent = 0

    # -- the loop's calls ---------------------------------------------------------------------

    def show(self, image: Image.Image) -> None:
        """Ask for a frame. Sent now unless the panel is blank or failing."""
        data = image.tobytes()
        if data != self.frame_bytes:
            self.frame, self.frame_bytes = image, data
            self.shift = 0
            self.shown_at = self.clock()
        self._send()

    def key(self) -> bool:
        """A key was pressed. True if it only woke the screen (the key is then used up)."""
        self.last_key = self.clock()
        if self.blanked:
            self.blanked = False
            if self.failed_at is None and self._call("show"):
                self.sent = self.sent_bytes = None
                self._send()
            return True  # failing: the retry shows the frame when the display is back
        return False

    def close(self) -> None:
        """Let the device go (luma's cleanup); a failing one is only logged."""
        self._call("cleanup", optional=True, quiet=True)

    def next_deadline(self) -> float | None:
        times: list[float] = []
        if self.failed_at is not None:
            times.append(self.failed_at + self.retry_in)
        elif not self.blanked:
            if self.blank_after:
                times.append(self.last_key + self.blank_after)
            if self.shift_after and self.frame is not None:
                times.append(self.shown_at + self.shift_after)
        return min(times) if times else None

    def tick(self, now: float) -> None:
        if self.failed_at is not None:
            if now >= self.failed_at + self.retry_in:
                self._retry()
            return
        if self.blanked:
            return
        if self.blank_after and now >= self.last_key + self.blank_after:
            self.blanked = True
            self._call("hide")
            return
        if self.shift_after and self.frame is not None and now >= self.shown_at + self.shift_after:
            self.shift = (self.shift + 1) % len(SHIFTS)
            self.shown_at = now
            self._send()

    # -- internals -----------------------------------------------------------------------------

    def _image(self) -> Image.Image:
        frame = self.frame
        assert frame is not None  # drawn only once a frame was asked for
        dx, dy = SHIFTS[self.shift]
        if not dx and not dy:
            return frame
        return shifted(frame, dx, dy)

    def _send(self) -> None:
        if self.frame is None or self.blanked or self.failed_at is not None:
            return
        image = self._image()
        data = self.frame_bytes if image is self.frame else image.tobytes()
        if data == self.sent_bytes:
            return
        if self._call("display", image):
            self.sent, self.sent_bytes = image, data
            self.frames_sent += 1

    def _call(self, name: str, *args: Any, optional: bool = False, quiet: bool = False) -> bool:
        """The one way into the device: True if the call went through.

        ``optional``: a device without that method (a terminal has no invalidate) is
        fine. ``quiet``: a failure is logged but does not start the retries (cleanup)."""
        try:
            method = getattr(self.device, name)
        except AttributeError as e:
            if optional:
                return True
            return self._fault(name, e, quiet)
        except Exception as e:  # noqa: BLE001 - a device whose very attributes fail (a proxy, a half-open bus)
            return self._fault(name, e, quiet)
        try:
            method(*args)
            return True
        except Exception as e:  # noqa: BLE001 - see the module docstring: no display fault stops the game
            return self._fault(name, e, quiet)

    def _fault(self, name: str, e: Exception, quiet: bool) -> bool:
        if quiet:
            log.warning("display %s failed: %s: %s", name, type(e).__name__, e)
            return False
        if not self._outage:
            log.warning("display failed (%s: %s: %s); retrying in the background", name, type(e).__name__, e)
            self._outage = True
        self.failed_at = self.clock()
        self.sent = self.sent_bytes = None
        return False

    def _retry(self) -> None:
        if self.reopen is not None:
            try:
                device = self.reopen()
            except Exception as e:  # noqa: BLE001 - any failure to reopen means "still gone"
                self._backoff(e)
                return
            old, self.device = self.device, device
            self._release(old)
            self.failed_at = None
        else:
            self.failed_at = None
            self._call("invalidate", optional=True)
        self.sent = self.sent_bytes = None
        if self.failed_at is None:
            if self.blanked:
                self._call("hide")  # a panel that was reset wakes up lit
            elif self._call("show"):  # and one whose wake-up failed is still asleep
                self._send()
        if self.failed_at is None:
            log.warning("display is back")
            self._outage = False
            self.retry_in = 1.0
        else:
            self._backoff(None)

    @staticmethod
    def _release(old: Any) -> None:
        """Close the bus of a device given up for a reopened one (without talking to
        the panel, which just failed): luma keeps it open until exit otherwise."""
        try:
            serial = getattr(old, "_serial_interface", None)
            if serial is not None:
                serial.cleanup()
        except Exception as e:  # noqa: BLE001 - a dead bus may fail to close too
            log.debug("closing the old display's bus: %s", e)

    def _backoff(self, error: Exception | None) -> None:
        self.failed_at = self.clock()
        self.retry_in = min(self.retry_in * 2, 30.0)
