"""Plural forms come from each catalog's own Plural-Forms header, read by a small parser
of its C expression (never eval'd): a language with three forms needs a .po file, no code."""

from __future__ import annotations

import pytest

from pitable.i18n import Catalog, Entry, catalog, msg, parse_po, plural_forms, plural_rule

POLISH = "n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2"


@pytest.mark.parametrize("n, form", [(1, 0), (2, 1), (4, 1), (5, 2), (12, 2), (14, 2), (22, 1), (25, 2), (101, 2)])
def test_a_three_form_rule_picks_the_polish_forms(n, form):
    assert plural_rule(POLISH)(n) == form


@pytest.mark.parametrize("text", ['__import__("os").system("true")', "n; 1", "n ? 1", "(n", "m == 1", "n = 1"])
def test_anything_but_the_rules_grammar_is_refused(text):
    with pytest.raises(ValueError, match="plural rule"):
        plural_rule(text)


def test_each_catalog_counts_by_its_own_header():
    assert [catalog("en").plural(n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [catalog("de").plural(n) for n in (0, 1, 2)] == [1, 0, 1]
    assert [catalog("vi").plural(n) for n in (0, 1, 2)] == [0, 0, 0]


def test_a_catalog_with_three_forms_says_each_by_its_header():
    po = ('msgid ""\nmsgstr ""\n"Plural-Forms: nplurals=3; plural=' + POLISH + ';\\n"\n\n'
          'msgctxt "chips"\nmsgid "{n} chip"\nmsgid_plural "{n} chips"\n'
          'msgstr[0] "{n} żeton"\nmsgstr[1] "{n} żetony"\nmsgstr[2] "{n} żetonów"\n')
    count, rule = plural_forms(po)
    assert count == 3
    pl = Catalog("pl", parse_po(po), {"chips": Entry(("{n} chip", "{n} chips"), True)}, rule)
    assert [pl.words(msg("chips", n=n)) for n in (1, 3, 5, 22)] == ["1 żeton", "3 żetony", "5 żetonów", "22 żetony"]


def test_a_catalog_without_the_header_is_an_error():
    with pytest.raises(ValueError, match="no Plural-Forms header"):
        plural_forms('msgid ""\nmsgstr ""\n"Language: xx\\n"\n')
