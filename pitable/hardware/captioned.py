"""The caption beside a desktop display's frame, shared by the terminal display
(:mod:`pitable.hardware.display`) and the pygame window (:mod:`pitable.hardware.emulated`),
which opens only when asked: apart so that neither imports the other."""

from __future__ import annotations


class Captioned:
    """A display that can show a line of text beside the frame (the keyboard's key help)."""

    _caption = ""

    @property
    def caption(self) -> str:
        return self._caption

    @caption.setter
    def caption(self, text: str) -> None:
        self._caption = text
        self._show_caption(text)

    def _show_caption(self, text: str) -> None:
        raise NotImplementedError
