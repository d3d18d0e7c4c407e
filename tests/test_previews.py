"""The committed previews under docs/screens/ are what the scripts draw now, from the same
real games: a picture older than the catalog, the font or a screen fails here.

Kept fast by checking a deterministic part: the OLED screens of the Cockroach and
Grasshopper games that scripts/render_screens.py plays (every language, pixel for pixel),
the glyph sheet (pixel for pixel), and the TV pictures' words: scripts/tv_screens.py and
web_screens.py save beside each screenshot the words the page showed (.txt); the same
games played again (no browser) must make the page say each of its words, so a TV picture
that still says "Kakerlaken Poker" fails. The full redraw is the scripts themselves."""

from __future__ import annotations

import importlib.util
import re
import sys
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from pitable.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
SCREENS = ROOT / "docs" / "screens"


def script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, mod)
    spec.loader.exec_module(mod)
    return mod


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and a.convert("RGB").tobytes() == b.convert("RGB").tobytes()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_oled_previews_are_what_the_games_draw_now(lang, tmp_path):
    rs = script("render_screens")
    shots: dict = {}
    rs.play_cockroach(rs.Play(lang, tmp_path / "c5", seats=6, shots=shots))
    rs.play_grasshopper(rs.Play(lang, tmp_path / "g4", shots=shots))
    assert len(shots) > 20
    stale = [name for name, frame in sorted(shots.items())
             if not (SCREENS / lang / f"{name}.png").exists()
             or not same(rs.oled(frame, 4), Image.open(SCREENS / lang / f"{name}.png"))]
    assert not stale, f"{lang}: redraw with scripts/render_screens.py: {stale}"


def test_the_glyph_sheet_is_what_the_font_draws_now():
    assert same(script("render_font_sheet").sheet(), Image.open(SCREENS / "font-glyphs.png")), \
        "redraw with scripts/render_font_sheet.py"


def test_every_web_picture_has_its_words_beside_it():
    pngs = sorted((SCREENS / "web").glob("*.png"))
    assert pngs
    assert [p.name for p in pngs if not p.with_suffix(".txt").exists()] == []


def _said(payload) -> list:
    """Every text of a table payload the page shows."""
    out = []

    def walk(x, key=""):
        if isinstance(x, str):
            if key not in ("lang", "frame") and x.strip():
                out.append(x)
        elif isinstance(x, dict):
            for k, y in x.items():
                walk(y, k)
        elif isinstance(x, list):
            for y in x:
                walk(y, key)
    walk({k: v for k, v in payload.items() if k != "words"})
    return out


def _norm(s: str) -> str:
    return re.sub(r"\s+", " ", s).strip()


@pytest.mark.parametrize("game", ["cockroach", "grasshopper"])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_tv_pictures_say_what_the_page_says_now(game, lang):
    """The same game as scripts/tv_screens.py, by keys: every word the TV page would show
    now is in the picture's words."""
    from tests.web.conftest import WebTable

    words = SCREENS / "web" / f"tv-{game}-{lang}.txt"
    assert words.exists(), f"no {words.name}: run scripts/tv_screens.py"
    shown = _norm(words.read_text(encoding="utf-8"))
    tv = script("tv_screens")
    t = WebTable(Path(tempfile.mkdtemp()), pads=6 if game == "cockroach" else 4, language=lang,
                 deck="virtual", seed=11)
    try:
        (tv.play_cockroach if game == "cockroach" else tv.play_grasshopper)(t)
        stream = t.stream("/events")
        t.sync()
        page = stream.events("table")[-1][1]
        stream.close()
    finally:
        t.close()
    missing = [s for s in _said(page) if _norm(s) not in shown and not s.isdigit()]
    # the story's oldest lines may have faded out below the picture: only the top ones count
    assert not missing, f"{words.name} is older than the page: {missing[:8]}"
