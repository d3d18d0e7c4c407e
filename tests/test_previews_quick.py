"""The TV pictures of a quick-mode Cockroach Poker game (docs/screens/web/tv-cockroach-quick-*)
say what the page says now: the same game, by keys (scripts/tv_screens.py), without a browser."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pitable.i18n import LANGUAGES, catalog, msg
from tests.test_previews import SCREENS, _norm, _said, script


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_quick_tv_pictures_say_what_the_page_says_now(lang):
    from tests.web.conftest import WebTable

    words = SCREENS / "web" / f"tv-cockroach-quick-{lang}.txt"
    assert words.exists(), f"no {words.name}: run scripts/tv_screens.py cockroach-quick"
    shown = _norm(words.read_text(encoding="utf-8"))
    t = WebTable(Path(tempfile.mkdtemp()), pads=6, language=lang, deck="virtual", seed=11)
    try:
        script("tv_screens").play_cockroach_quick(t)
        stream = t.stream("/events")
        t.sync()
        page = stream.events("table")[-1][1]
        stream.close()
    finally:
        t.close()
    assert page["where"] == catalog(lang).words(msg("web.quick_where", round=6))
    missing = [s for s in _said(page) if _norm(s) not in shown and not s.isdigit()]
    assert not missing, f"{words.name} is older than the page: {missing[:8]}"
