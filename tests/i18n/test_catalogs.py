"""The catalogs: every id the code can say has words in every language, none falls back
to English, translations keep their values, and the loader reads gettext .po files."""

from __future__ import annotations

import ast
import re
import string
from pathlib import Path

import pytest

from pitable import i18n
from pitable.i18n import LANGUAGES, Msg, catalog, msg, parse_po, words
from pitable.rules import cockroach as cr
from pitable.rules import grasshopper as gh

PKG = Path(i18n.__file__).resolve().parents[1]
ID = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+)+$|^seat$|^pile$")


def ids_in_code() -> set:
    """Message ids written literally in the package, and the ones made from rule names."""
    found = set()
    for path in PKG.rglob("*.py"):
        if "i18n" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            name = getattr(node.func, "id", getattr(node.func, "attr", "")) if isinstance(node, ast.Call) else None
            if name in ("msg", "_say"):
                arg = node.args[0] if node.args else None
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    found.add(arg.value)
    kinds = gh.KINDS + cr.KINDS
    found |= {f"kind.{k}" for k in kinds} | {f"n.{k}" for k in kinds}
    found |= {f"game.{g}" for g in ("grasshopper", "cockroach")}
    found |= {f"opt.{o}" for o in ("beginner", "x_takes_cancelled_ace", "end_on_empty_pile")}
    found |= {"value.physical", "value.virtual", "value.off", "toast.hold_help_scores", "toast.hold_help_rows",
              "toast.seat_to_offer", "toast.seat_to_pass", "pads.key_press", "pads.key_hold"}
    found |= {f"reason.{r}" for r in ("start", "refill", "stalemate", "renew", "round")}
    found |= {f"cr.reason.{r}" for r in ("four_of_a_kind", "five_of_a_kind", "empty_hand")}
    found |= {f"cr.line.loses.{r}" for r in ("four_of_a_kind", "five_of_a_kind", "empty_hand")}
    found |= {"cr.called_false", "cr.line.wrong", "undo.call_false", "why.x_beats_ace", "over.shared",
              "toast.call_2p", "list.sep"}
    return found


def fields(text: str) -> set:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_every_id_the_code_says_is_in_the_english_catalog():
    missing = sorted(i for i in ids_in_code() if i not in catalog("en"))
    assert missing == []


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_translations_are_complete_and_keep_their_values(lang):
    """No message falls back to English; every {value} of the English is used, no other."""
    source = i18n._entries("en")
    entries = i18n._entries(lang)
    assert set(entries) == set(source), "ids differ from en.po"
    text = (i18n.HERE / f"{lang}.po").read_text(encoding="utf-8")
    empty = re.findall(r'msgstr(?:\[\d\])? ""\n(?!")', text.split("\n\n", 1)[1])
    assert empty == [], "untranslated entries"
    for id, entry in source.items():
        want = fields(" ".join(entry.forms)) - {"n"}
        for form in entries[id].forms:
            assert fields(form) - {"n"} <= want | {"n"}, (id, form)
            assert want <= fields(form), (lang, id, form)


def test_plural_forms_follow_the_language():
    assert words(msg("n.strawberry", n=1)) == "1 strawberry"
    assert words(msg("n.strawberry", n=2)) == "2 strawberries"
    assert words(msg("n.strawberry", n=2), "de") == "2 Erdbeeren"
    assert words(msg("n.strawberry", n=1), "de") == "1 Erdbeere"
    assert words(msg("n.strawberry", n=1), "vi") == words(msg("n.strawberry", n=5), "vi").replace("5", "1")


def test_values_are_words_too_lists_of_seats_and_nested_messages():
    line = msg("line.takes", seat=2, cards=(msg("n.corn", n=2), msg("n.grasshopper", n=1)))
    assert words(line) == "S2 takes 2 corn, 1 grasshopper"
    assert words(msg("line.majority", seats=(1, 3))) == "Most plants, +1 chip: S1, S3"
    assert words(line, "de") != words(line)


def test_the_loader_reads_gettext_po_syntax():
    entries = parse_po('# comment\nmsgid ""\nmsgstr ""\n"Language: xx\\n"\n\nmsgctxt "a.b"\nmsgid "One "\n"two"\n'
                       'msgstr "Eins"\n\nmsgctxt "c"\nmsgid "{n} cat"\nmsgid_plural "{n} cats"\n'
                       'msgstr[0] "{n} Katze"\nmsgstr[1] "{n} Katzen"\n')
    assert entries["a.b"].forms == ("Eins",) and entries["c"].forms == ("{n} Katze", "{n} Katzen")
    with pytest.raises(ValueError):
        parse_po('msgctxt "a"\nmsgfoo "b"\n')


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError):
        catalog("fr")


def test_words_are_made_once_per_message():
    cat = catalog("en")
    m = Msg("seat", (("seat", 4),))
    assert cat.words(m) is cat.words(m)
