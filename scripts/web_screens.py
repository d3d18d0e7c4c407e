#!/usr/bin/env python3
"""Screenshots of the table page (TV) and the phone page in every language, from real game
states reached by keys (pads posted as a keyboard pad would, a phone through the browser):
docs/screens/web/{table,phone}-{en,de,vi}.png. Needs Debian's chromium and chromium-driver.

    .venv/bin/python scripts/web_screens.py
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.web.browser import open_browser, wait_for  # noqa: E402
from tests.web.conftest import WebTable  # noqa: E402
from tests.web.test_browser import Phone  # noqa: E402

OUT = ROOT / "docs" / "screens" / "web"


def shoot(lang: str) -> None:
    t = WebTable(Path(tempfile.mkdtemp()), pads=3, language=lang, deck="virtual", seed=11)
    phone_driver, tv = open_browser(width=412, height=915, lang=lang), open_browser(1600, 900, lang)
    try:
        t.press(1, 0)
        for pad in (1, 2, 3):
            t.press(pad, 0)
        phone = Phone(t, phone_driver)                 # seat 4
        t.press(1, 6)
        t.press(1, 6)
        tv.get(f"http://127.0.0.1:{t.port}/")
        turns = 0
        for _ in range(200):                           # play two turns, then stop mid-bidding
            view = t.view()
            name = type(view).__name__
            if name == "Bidding":
                if turns == 2:
                    break
                spent = t.table.current.state
                for i, pad in enumerate((1, 2, 3)):
                    key = next(k for k in (turns + i, 5, 4, 3, 2, 1, 0) if not spent.spent[i] >> k & 1)
                    t.press(pad, key)
                phone.press(next(k for k in (6, 7, 3) if not spent.spent[3] >> k & 1))
                turns += 1
            elif name == "Choosing":
                (phone.press if view.seat == 4 else (lambda k, s=view.seat: t.press(s, k)))(0)
            else:
                t.press(1, 7)
        t.press(2, 3)                                  # S2 locks in
        phone.press(2)                                 # the phone locks in: its own bid marked
        wait_for(lambda: phone.d.find_element(phone.By.ID, "mybid").text, what="the bid on the phone")
        wait_for(lambda: tv.find_element(phone.By.ID, "history").text, what="the history on the TV")
        OUT.mkdir(parents=True, exist_ok=True)
        for driver, name in ((tv, f"table-{lang}"), (phone.d, f"phone-{lang}")):
            driver.save_screenshot(str(OUT / f"{name}.png"))
            # the words shown, for tests/test_previews.py (a picture older than the catalog fails)
            (OUT / f"{name}.txt").write_text(driver.execute_script("return document.body.innerText") + "\n",
                                             encoding="utf-8")
    finally:
        phone_driver.quit()
        tv.quit()
        t.close()


def main() -> int:
    for lang in ("en", "de", "vi"):
        shoot(lang)
        print(f"docs/screens/web/table-{lang}.png, phone-{lang}.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
