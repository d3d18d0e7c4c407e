"""The .po reader's fast path for plain strings reads every catalog exactly as Python's
own string literal rules (ast.literal_eval) do, escapes and inner quotes included."""

import ast

import pytest

from pitable.i18n import LANGUAGES, HERE, parse_po


def literal_eval_parse(text: str) -> dict:
    """The reference: the same reader with ast.literal_eval on every string."""
    import pitable.i18n as i18n

    real = i18n._po_string
    i18n._po_string = ast.literal_eval
    try:
        return parse_po(text)
    finally:
        i18n._po_string = real


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_shipped_catalog_reads_as_literal_eval_reads_it(lang):
    text = (HERE / f"{lang}.po").read_text(encoding="utf-8")
    fast = parse_po(text)
    assert fast == literal_eval_parse(text)
    assert len(fast) > 100


def test_escapes_inner_quotes_and_continued_strings_keep_their_meaning():
    text = '\n'.join([
        'msgctxt "a"',
        'msgid "Say \\"hi\\""',
        'msgstr ""',
        '"line one\\n"',
        '"tab\\there, back\\\\slash, "',
        '"Vi\u1ec7t {seat}"',
        '',
        'msgctxt "b"',
        'msgid ""',
        'msgstr ""',
    ])
    entries = parse_po(text)
    assert entries["a"].forms == ('line one\ntab\there, back\\slash, Vi\u1ec7t {seat}',)
    assert entries["b"].forms == ("",)
    assert entries == literal_eval_parse(text)


@pytest.mark.parametrize("bad", ['msgstr "unclosed', 'msgstr "two" "x', 'msgstr unquoted'])
def test_a_malformed_string_is_still_refused(bad):
    with pytest.raises((ValueError, SyntaxError)):
        parse_po('msgctxt "a"\nmsgid "x"\n' + bad + "\n")
