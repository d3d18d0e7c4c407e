"""Words for the table: message values in, sentences out, from one catalog per language.

Controllers never write sentences. They put a ``Msg`` (an id and its values: who,
what, how many) in a view; an output (the OLED renderer, a future phone or TV page)
turns it into words with ``catalog(lang).words(msg)``. The catalogs are gettext
``.po`` files in ``locale/``: ``en.po`` is the source (``msgctxt`` is the message id,
``msgid`` the English words), ``de.po`` and ``vi.po`` translate it. A small reader of
our own loads each file once (no gettext machine objects, no per-frame file I/O).

Values in a message:
- ``int`` and ``str``: written as they are (``str`` only for what is the same in
  every language: a card's printed value "5", "A", "X");
- ``Msg``: its own words, in the same language;
- ``tuple``: a list, joined by the catalog's ``list.sep``; an ``int`` in it is a seat
  number (written with the ``seat`` message), a ``Msg`` its words.
A message with a plural form (``msgid_plural``) picks it by its value ``n``.

A value's kind is said by its name, never guessed from its size: ``SEATS`` names the
values that are seats (an ``int``, or a ``tuple`` of them), ``NUMBERS`` those that are
counts and other numbers (a line number of 150 is "150", not a seat), ``WORDS`` those
that are words (a ``Msg`` or a printed value). ``tests/i18n`` refuses a template with a
value of no declared kind. ``{seats:#}`` writes seats as the pads' key numbers
("1, 3, 5") instead of their labels ("G1, G3, G5").

The assistant's seats (when it plays) are seat numbers from ``ASSISTANT_SEAT`` + 1 on.
Wherever a seat is written (the ``seat`` message, or a template that writes a seat
value after the seat prefix, "S{seat}" / "P{seat}" / "G{seat}"), such a number is
written as the assistant's name instead ("Pi", "Pi2"): one rule here, no template
needs a second form.

Logs and ``pitable replay`` stay English: logs are data, not words for the table.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

# seat numbers above it are the assistant's: 101 is "Pi", 102 "Pi2" (the log's numbering)
from pitable.rules.log import ASSISTANT_SEAT

HERE = Path(__file__).resolve().parent / "locale"
# The languages are the catalogs there (a file listing: nothing is parsed), English first.
LANGUAGES = ("en", *sorted(p.stem for p in HERE.glob("*.po") if p.stem != "en"))
NAMES = {"en": "English", "de": "Deutsch", "vi": "Tiếng Việt"}  # each language's own name, for the chooser
SEATS = frozenset({"seat", "sender", "target", "to", "seats"})
NUMBERS = frozenset({"n", "round", "turn", "line", "pin", "row", "col", "pads", "i", "last", "seconds"})
WORDS = frozenset({"kind", "kinds", "cards", "key", "reason", "level", "action"})


class Msg(NamedTuple):
    """A message for people: its catalog id and its values, as ((name, value), ...)."""

    id: str
    args: tuple = ()

    def get(self, name, default=None):
        for k, value in self.args:
            if k == name:
                return value
        return default


def msg(id: str, **args) -> Msg:
    """``Msg(id, values)``; values sorted by name so equal messages compare equal."""
    return Msg(id, tuple(sorted(args.items())))


class Entry(NamedTuple):
    forms: tuple      # (singular,) or (one, other) / per the language's plural rule
    plural: bool


# -- plural forms: the rule in each catalog's own header -----------------------------------

_TOKEN = re.compile(r"\s*(?:(\d+)|(n)|(&&|\|\||==|!=|<=|>=|[-+*/%<>!?:()]))")


def plural_rule(expression: str) -> Callable[[int], int]:
    """The index of the plural form for ``n``, from a ``Plural-Forms`` header's C expression
    (``n != 1``; ``n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2``).
    A small parser of that grammar only, compiled to closures: the text is never eval'd,
    and anything else in it is a ValueError."""
    tokens: list[str] = []
    pos = 0
    expression = expression.strip()
    while pos < len(expression):
        m = _TOKEN.match(expression, pos)
        if m is None or m.end() == pos:
            raise ValueError(f"plural rule {expression!r}: unexpected {expression[pos:].strip()[:10]!r}")
        tokens.append(m.group(m.lastindex or 0))
        pos = m.end()
        while pos < len(expression) and expression[pos].isspace():
            pos += 1
    at = 0

    def peek() -> str | None:
        return tokens[at] if at < len(tokens) else None

    def take(*wanted: str) -> str | None:
        nonlocal at
        if peek() in wanted:
            at += 1
            return tokens[at - 1]
        return None

    binary: dict[str, Callable[[int, int], int]] = {
        "||": lambda a, b: int(bool(a) or bool(b)), "&&": lambda a, b: int(bool(a) and bool(b)),
        "==": lambda a, b: int(a == b), "!=": lambda a, b: int(a != b), "<": lambda a, b: int(a < b),
        ">": lambda a, b: int(a > b), "<=": lambda a, b: int(a <= b), ">=": lambda a, b: int(a >= b),
        "+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
        "/": lambda a, b: a // b if b else 0, "%": lambda a, b: a % b if b else 0,
    }
    levels = (("||",), ("&&",), ("==", "!="), ("<", ">", "<=", ">="), ("+", "-"), ("*", "/", "%"))

    def apply(f: Callable[[int, int], int], a: Callable[[int], int],
              b: Callable[[int], int]) -> Callable[[int], int]:
        return lambda n: f(a(n), b(n))

    def level(i: int) -> Callable[[int], int]:
        if i == len(levels):
            return unary()
        left = level(i + 1)
        while (op := take(*levels[i])) is not None:
            left = apply(binary[op], left, level(i + 1))
        return left

    def unary() -> Callable[[int], int]:
        if take("!"):
            inner = unary()
            return lambda n: int(not inner(n))
        if take("-"):
            inner = unary()
            return lambda n: -inner(n)
        token = take("(")
        if token:
            inner = ternary()
            if not take(")"):
                raise ValueError(f"plural rule {expression!r}: a ( without its )")
            return inner
        token = peek()
        if token == "n":
            take("n")
            return lambda n: n
        if token is not None and token.isdigit():
            take(token)
            value = int(token)
            return lambda n: value
        raise ValueError(f"plural rule {expression!r}: expected n, a number or (, not {token!r}")

    def ternary() -> Callable[[int], int]:
        test = level(0)
        if not take("?"):
            return test
        yes = ternary()
        if not take(":"):
            raise ValueError(f"plural rule {expression!r}: a ? without its :")
        no = ternary()
        return lambda n: yes(n) if test(n) else no(n)

    rule = ternary()
    if at != len(tokens):
        raise ValueError(f"plural rule {expression!r}: unexpected {tokens[at]!r}")
    return rule


_ONE_OTHER = plural_rule("n != 1")
_PLURAL_FORMS = re.compile(r'"Plural-Forms:\s*nplurals\s*=\s*(\d+)\s*;\s*plural\s*=\s*([^;]*?)\s*;?\s*\\n"')


def plural_forms(text: str, where: str = "catalog") -> tuple[int, Callable[[int], int]]:
    """(nplurals, rule) from a .po file's header; a catalog without one is an error."""
    m = _PLURAL_FORMS.search(text)
    if m is None:
        raise ValueError(f"{where}: no Plural-Forms header")
    return int(m.group(1)), plural_rule(m.group(2))


NBSP = "\u00a0"
GLUED = ("n.", "kind.")   # messages a screen never breaks across rows (``Catalog.glued``)
# A key named in words ("A:", "X", "1, 2:", "1-4", "A =") and the word after it: a row
# never ends between them ("A: wahr X:" / "falsch" read as two keys and a lost meaning).
KEY_GLUE = re.compile(r"(?<![^\s(])([1-6AX](?:(?:-|, ?)[1-6AX])*:?(?: =)?) (?=\S)")
# A count and the word it counts ("+1 chip", "8 Pokerkarten", "8 lá"), and a colon and the
# seat after it ("chip: S2"): a row never ends between them (a lone "P2" read as a label).
COUNT_GLUE = re.compile(r"(?<!\S)(\+?\d+) (?=\S)")
SEAT_GLUE = re.compile(r"(?<=\S): (?=(?:[A-Z]\d|Pi\d*)(?:\b|,))")


class Catalog:
    """One language's words. ``words(msg)`` is memoised: a frame asks for the same
    few messages again and again, and a key press must stay well under a millisecond."""

    def __init__(self, lang: str, entries: dict, source: dict | None = None,
                 plural: Callable[[int], int] | None = None):
        self.lang = lang
        self.plural = plural or _ONE_OTHER   # n -> the index of its plural form (the file's header)
        self.entries = entries
        self.source = source or entries      # English, for ids a translation lacks (tests refuse that)
        self.words = functools.lru_cache(maxsize=4096)(self._words)
        self.glued = functools.lru_cache(maxsize=4096)(self._glued)

    def __contains__(self, id: str) -> bool:
        return id in self.entries

    def _glued(self, m) -> str:
        """``words`` for a screen that wraps: a count and its noun ("2 corn") and a kind's
        name of several words ("châu chấu") are held together by no-break spaces, so a
        row never ends inside them (the words are the same; only where a row may end)."""
        return self._words(m, glue=True)

    def _words(self, m, glue: bool = False) -> str:
        if m is None:
            return ""
        if isinstance(m, str):
            return m
        if glue:
            out = self._words(m) if not m.args else self._format(m, self.glued)
            if m.id.startswith(GLUED):
                return out.replace(" ", NBSP)
            out = KEY_GLUE.sub(lambda k: k.group(1).replace(" ", NBSP) + NBSP, out)
            return SEAT_GLUE.sub(":" + NBSP, COUNT_GLUE.sub(lambda k: k.group(1) + NBSP, out))
        return self._format(m, self.words)

    def _format(self, m, words) -> str:
        e = self.entries.get(m.id) or self.source.get(m.id)
        if e is None:
            raise KeyError(f"no message {m.id!r} in the {self.lang} catalog")
        if m.id == "seat":
            return self._seat(m.get("seat"))
        values = {k: self._value(val, words) for k, val in m.args}
        if e.plural:
            n = m.get("n", 1)
            text = e.forms[min(self.plural(n), len(e.forms) - 1)]
        else:
            text = e.forms[0]
        for k, val in m.args:
            if k not in SEATS:
                continue
            if type(val) is int and val > ASSISTANT_SEAT:
                # "S{seat}" -> "Pi": the prefix goes with the number it belongs to
                text = text.replace(self._seat_prefix() + "{" + k + "}", "{" + k + "}")
                values[k] = self._seat(val)
            if "{" + k + ":#}" in text:
                # seats as the keys that pick them: the pad's number, the assistant's name
                keys = val if isinstance(val, tuple) else (val,)
                sep = self.entries["list.sep"].forms[0]
                text = text.replace("{" + k + ":#}", sep.join(
                    str(x) if x <= ASSISTANT_SEAT else self._seat(x) for x in keys))
        return text.format(**values) if values else text

    def _seat_prefix(self) -> str:
        e = self.entries.get("seat") or self.source["seat"]
        return e.forms[0].replace("{seat}", "")

    def _seat(self, seat) -> str:
        """A seat number in words: "S3", or the assistant's name for its seats."""
        if type(seat) is int and seat > ASSISTANT_SEAT:
            n = seat - ASSISTANT_SEAT
            return self.words(Msg("seat.assistant", ()) if n == 1 else Msg("seat.assistant_n", (("n", n),)))
        e = self.entries.get("seat") or self.source["seat"]
        return e.forms[0].format(seat=seat)

    def _value(self, val, words=None) -> str:
        words = words or self.words
        if isinstance(val, Msg):
            return words(val)
        if isinstance(val, tuple):
            sep = self.entries["list.sep"].forms[0]
            return sep.join(self._seat(x) if type(x) is int else self._value(x, words) for x in val)
        return str(val)


def _po_string(literal: str) -> str:
    """A quoted .po string's text. Most have no escape and no inner quote: their text is
    what lies between the quotes (the catalogs are parsed at start-up, before the first
    frame, and ast.literal_eval on every line was a third of the first frame's work;
    benchmarks/counts.py). Anything else goes to ast.literal_eval, as before."""
    if len(literal) >= 2 and literal[0] == '"' and literal[-1] == '"':
        inner = literal[1:-1]
        if "\\" not in inner and '"' not in inner:
            return inner
    return ast.literal_eval(literal)


def parse_po(text: str, where: str = "catalog") -> dict:
    """The entries of a .po file: {msgctxt: Entry}. Only what our catalogs use:
    msgctxt, msgid, msgid_plural, msgstr, msgstr[n], comments, continued strings."""
    entries: dict = {}
    cur: dict = {}
    field = None

    def flush():
        if "msgctxt" in cur:
            if "msgid_plural" in cur:
                forms = tuple(cur[k] for k in sorted(k for k in cur if k.startswith("msgstr[")))
                if not any(forms):
                    forms = (cur["msgid"], cur["msgid_plural"])
                entries[cur["msgctxt"]] = Entry(forms, True)
            else:
                entries[cur["msgctxt"]] = Entry((cur.get("msgstr") or cur["msgid"],), False)
        cur.clear()

    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith('"'):
            if field is None:
                raise ValueError(f"{where} line {no}: a string outside a field")
            cur[field] += _po_string(line)
            continue
        key, _, rest = line.partition(" ")
        if key == "msgctxt":
            flush()
        if key not in ("msgctxt", "msgid", "msgid_plural", "msgstr") and not key.startswith("msgstr["):
            raise ValueError(f"{where} line {no}: unknown field {key!r}")
        field = key
        cur[field] = _po_string(rest.strip())
    flush()
    return entries


@functools.cache
def _text(lang: str) -> str:
    return (HERE / f"{lang}.po").read_text(encoding="utf-8")


@functools.cache
def _entries(lang: str) -> dict:
    return parse_po(_text(lang), str(HERE / f"{lang}.po"))


@functools.cache
def catalog(lang: str = "en") -> Catalog:
    """The catalog of ``lang`` (loaded once)."""
    if lang not in LANGUAGES:
        raise ValueError(f"no catalog for language {lang!r}; have {', '.join(LANGUAGES)}")
    return Catalog(lang, _entries(lang), _entries("en"), plural_forms(_text(lang), str(HERE / f"{lang}.po"))[1])


def words(m, lang: str = "en") -> str:
    """``m`` in words of ``lang`` (tests and terminals; drawings use their canvas's catalog)."""
    return catalog(lang).words(m)
