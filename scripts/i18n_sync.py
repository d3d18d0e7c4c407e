#!/usr/bin/env python3
"""Write a translation catalog (pitable/i18n/locale/<lang>.po) in the order and with the
English of en.po, from a table of translations (id -> words, or (one, other) forms).

    python scripts/i18n_sync.py de     # reads scripts/i18n/de.py: WORDS = {...}

Translators may also edit the .po files directly with any gettext tool: msgctxt is the
id the code uses, msgid the English source, msgstr the translation.
"""

from __future__ import annotations

import importlib.util
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pitable.i18n import HERE, parse_po  # noqa: E402

HEADERS = {"de": ("German", "nplurals=2; plural=(n != 1);"), "vi": ("Vietnamese", "nplurals=1; plural=0;")}


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def main(lang: str) -> int:
    spec = importlib.util.spec_from_file_location("words", ROOT / "scripts" / "i18n" / f"{lang}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    words = mod.WORDS
    source = (HERE / "en.po").read_text(encoding="utf-8")
    entries = parse_po(source)
    # what the catalog already translates (someone edited the .po directly) is kept
    target = HERE / f"{lang}.po"
    if target.exists():
        for id, entry in parse_po(target.read_text(encoding="utf-8")).items():
            if id not in words and id in entries and all(entry.forms) and entry.forms != entries[id].forms:
                words[id] = entry.forms if entry.plural else entry.forms[0]
    name, plural = HEADERS[lang]
    out = [f"# {name} words of the table (pitable). Terms follow the rulebooks: see docs/languages.md.",
           'msgid ""', 'msgstr ""', '"Content-Type: text/plain; charset=UTF-8\\n"', f'"Language: {lang}\\n"',
           f'"Plural-Forms: {plural}\\n"', ""]
    missing = []
    for id, entry in entries.items():
        said = words.get(id)
        if said is None:
            missing.append(id)
            said = ""
        out.append(f"msgctxt {q(id)}")
        out.append(f"msgid {q(entry.forms[0])}")
        if entry.plural:
            out.append(f"msgid_plural {q(entry.forms[1])}")
            forms = said if isinstance(said, tuple) else (said,)
            n = 1 if lang == "vi" else 2
            for i in range(n):
                out.append(f"msgstr[{i}] {q(forms[min(i, len(forms) - 1)])}")
        else:
            out.append(f"msgstr {q(said)}")
        out.append("")
    (HERE / f"{lang}.po").write_text("\n".join(out), encoding="utf-8")
    extra = sorted(set(words) - set(entries))
    print(f"{lang}.po: {len(entries)} messages, {len(missing)} untranslated {missing}, {len(extra)} unknown {extra}")
    return 1 if missing or extra else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
