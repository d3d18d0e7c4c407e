"""The assistant's seats are named through the catalogs: wherever a seat number is written
(alone, in a list, or after a language's seat prefix in a template), a number above
ASSISTANT_SEAT is written as the Pi's name, in every language."""

import string

import pytest

from pitable.i18n import ASSISTANT_SEAT, LANGUAGES, catalog, msg, words

PI, PI2 = ASSISTANT_SEAT + 1, ASSISTANT_SEAT + 2


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_message_with_a_seat_names_the_pi_and_never_prints_its_number(lang):
    cat = catalog(lang)
    prefix = cat.entries["seat"].forms[0].replace("{seat}", "")
    checked = 0
    for id, entry in cat.entries.items():
        text = " ".join(entry.forms)
        for name in ("seat", "sender"):
            if "{" + name + "}" not in text:
                continue
            fields = {f for _, f, _, _ in string.Formatter().parse(text) if f}
            values = {f: 2 for f in fields}  # any other value: a small number
            values.update({"seats": (1, PI), name: PI})
            said = words(msg(id, **{k: v for k, v in values.items() if k in fields}), lang)
            assert str(PI) not in said and prefix + "Pi" not in said, (id, said)
            assert "Pi" in said, (id, said)
            checked += 1
    assert checked > 20


def test_names_in_lists_and_alone():
    assert words(msg("line.majority", seats=(1, PI, PI2))) == "Most plants, +1 chip: S1, Pi, Pi2"
    assert words(msg("seat", seat=PI)) == "Pi" and words(msg("seat", seat=3)) == "S3"
    assert words(msg("line.takes", seat=PI, cards=(msg("n.corn", n=2),)), "de") == "Pi nimmt 2 Mais"
    assert words(msg("toast.assistant_thinking", seat=PI), "vi") == "Pi đang nghĩ"
