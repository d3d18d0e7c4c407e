"""Words by design, not by review: a value's kind is said by its name (a line number is
never a seat), a result never reuses the words of the keys that made it, each concept
has one word per language (the glossary in docs/languages.md), and a key named in words
never ends a row apart from its meaning."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from pitable import i18n
from pitable.i18n import ASSISTANT_SEAT, LANGUAGES, catalog, msg
from pitable.screens.widgets import wrap

DOCS = Path(__file__).resolve().parents[2] / "docs" / "languages.md"


def texts(lang):
    """(id, template) of every form of every message of ``lang``."""
    return [(id, form) for id, e in catalog(lang).entries.items() for form in e.forms]


# -- typed values -----------------------------------------------------------------------

@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_line_number_over_100_is_a_number_not_the_pis_seat(lang):
    said = catalog(lang).words(msg("log.damaged.line", line=150))
    assert "150" in said and "Pi" not in said, said
    assert "Pi" in catalog(lang).words(msg("toast.chooses_now", seat=ASSISTANT_SEAT + 1))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_value_in_a_template_has_a_declared_kind(lang):
    """A new value must say what it is (seat, number, words), so no rule guesses it."""
    SEATS, NUMBERS, WORDS = (getattr(i18n, k, frozenset()) for k in ("SEATS", "NUMBERS", "WORDS"))
    kinds = SEATS | NUMBERS | WORDS
    bad = []
    for id, text in texts(lang):
        for _, name, spec, _ in string.Formatter().parse(text):
            if name is not None and name not in kinds:
                bad.append((id, name))
            if spec and (spec != "#" or name not in SEATS):
                bad.append((id, f"{name}:{spec}"))
    assert not bad, bad
    assert not SEATS & NUMBERS and not SEATS & WORDS and not NUMBERS & WORDS


def test_seats_as_keys_are_the_pads_numbers():
    for lang in LANGUAGES:
        said = catalog(lang).words(msg("cr.press_seat", seats=(1, 3, 6)))
        assert said.endswith("1, 3, 6"), said


# -- result words are not key words ----------------------------------------------------

def _words(s):
    return set(re.findall(r"\w+", s.lower()))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_calls_result_does_not_reuse_the_call_keys_words(lang):
    c = catalog(lang)
    keys = _words(c.words(msg("key.true"))) | _words(c.words(msg("key.false")))
    for id in ("cr.line.right", "cr.line.wrong"):
        result = _words(c.words(msg(id, kind=msg("kind.fly"))))
        assert not keys & result, (lang, id, keys & result)
    right = _words(c.words(msg("cr.line.right", kind=msg("kind.fly"))))
    wrong = _words(c.words(msg("cr.line.wrong", kind=msg("kind.fly"))))
    assert right != wrong


# -- the glossary -----------------------------------------------------------------------

def glossary():
    """{lang: [(concept, word, [never, ...])]} from the table in docs/languages.md."""
    text = DOCS.read_text(encoding="utf-8")
    part = text.split("## Glossary", 1)[1].split("\n## ", 1)[0]
    rows = [r for r in part.splitlines() if r.startswith("| ") and not r.startswith("| concept") and "---" not in r]
    out = {"de": [], "vi": []}
    for r in rows:
        cells = [x.strip() for x in r.strip("|").split("|")]
        concept, de, de_not, vi, vi_not = cells
        out["de"].append((concept, de, re.findall(r"`([^`]+)`", de_not)))
        out["vi"].append((concept, vi, re.findall(r"`([^`]+)`", vi_not)))
    return out


def test_the_glossary_is_there():
    g = glossary()
    assert len(g["de"]) >= 15 and len(g["vi"]) >= 15


@pytest.mark.parametrize("lang", ["de", "vi"])
def test_the_catalog_uses_only_the_glossarys_word_for_each_concept(lang):
    bad = []
    for concept, _word, never in glossary()[lang]:
        for term in never:
            pattern = re.compile(r"(?<!\w)" + re.escape(term) + (r"(?!\w)" if term[-1].isalnum() else ""),
                                 re.IGNORECASE if term[0].isalpha() else 0)
            for id, text in texts(lang):
                if id.startswith("pads.") and concept.startswith("a seat"):
                    continue  # the key test names the pads it reads ("Platz 3 Taste A"), not players
                if pattern.search(text):
                    bad.append((concept, term, id, text))
    assert not bad, bad


# -- a key and its meaning stay on one row ----------------------------------------------

KEY_AT_END = re.compile(r"(?:^|\s)[1-6AX](?:(?:-|, ?)[1-6AX])*:?(?: =)?$")


def _values():
    return dict(seat=6, sender=5, target=6, to=6, seats=(1, 2, 3), n=2, last=4, round=12, turn=8,
                kind=msg("kind.strawberry"), cards=(msg("n.corn", n=2),), kinds=(msg("kind.corn"),),
                i=1, line=150, pin=40, row=40, col=38, pads=6, key="X", reason=msg("log.reason.full"),
                seconds=30, level=msg("value.strong"), action=msg("setup.no_pi"))


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_row_ends_with_a_key_apart_from_its_meaning(lang):
    c = catalog(lang)
    bad = []
    for id in c.entries:
        said = c.glued(msg(id, **_values()))
        for scale in (1, 2):
            for width in range(40, 129, 4):
                rows = [r for _, r in wrap(said, width, scale)]
                for row in rows[:-1]:
                    if KEY_AT_END.search(row.rstrip()):
                        bad.append((id, width, scale, row))
    assert not bad, sorted({(i, r) for i, _, _, r in bad})[:20]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_flip_says_turn_it_up_before_who_called_what(lang):
    """Nobody is told to turn the card face up if the flip only says who called what."""
    c = catalog(lang)
    for id in ("cr.called_true", "cr.called_false"):
        said = c.words(msg(id, seat=6, kind=msg("kind.toad")))
        head, bang, rest = said.partition("!")
        assert bang and head.strip() and c.words(msg("seat", seat=6)) in rest, (lang, said)
