"""The phone page never breaks a word: on a 390-px-wide phone, every word of every key
label (the longest kinds of each language) sits on one line inside its button."""

from __future__ import annotations

import pytest

from tests.web.browser import need_browser, open_browser, wait_for
from tests.web.test_browser import Phone

# For each button: words split over two lines (a word whose range has more than one line box),
# and text wider than the button.
CHECK = """
const out = [];
for (const b of document.querySelectorAll('#keys button, #holds button')) {
  const walker = document.createTreeWalker(b, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const re = /\\S+/g; let m;
    while ((m = re.exec(n.data)) !== null) {
      const r = document.createRange(); r.setStart(n, m.index); r.setEnd(n, m.index + m[0].length);
      const tops = new Set(Array.from(r.getClientRects()).filter((x) => x.width > 0).map((x) => Math.round(x.top)));
      if (tops.size > 1) out.push('broken: ' + m[0]);
    }
  }
  if (b.scrollWidth > b.clientWidth + 1) out.push('too wide: ' + b.textContent);
}
return out;
"""


def narrow(driver):
    """A 390-px-wide phone (headless windows are at least 500 px wide: emulate the phone)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})


@pytest.mark.system
@pytest.mark.parametrize("lang", ["en", "de", "vi"])
def test_the_phone_page_never_breaks_a_word_at_390_px(web_table, lang, tmp_path):
    need_browser()
    t = web_table(language=lang)
    driver = open_browser(width=390, height=844, lang=lang)
    try:
        narrow(driver)
        t.press(1, 0)                                # Grasshopper Poker
        t.press(1, 0)
        t.press(2, 0)
        phone = Phone(t, driver)
        t.press(1, 6)
        t.press(1, 6)
        assert driver.execute_script("return window.innerWidth") == 390

        def check(what):
            wait_for(lambda: any(b.text and b.is_enabled() for b in phone.buttons()), what=what)
            t.sync()
            labels = phone.labels()
            assert driver.execute_script(CHECK) == [], (lang, what, labels)
            return labels

        kinds = check("the reveal prompt: the kinds' names")
        assert len(set(kinds)) == 8
        for key in (1, 1, 2):                        # corn, corn, strawberry turned up
            t.press(1, key)
        t.press(1, 0)
        t.press(2, 1)
        phone.press(5)                               # bids 1, 2, 6: the phone chooses first
        for _ in range(10):
            if type(t.view()).__name__ == "Choosing":
                break
            t.press(1, 0)                            # read the notices
        assert t.view().seat == phone.seat
        wait_for(lambda: not phone.buttons()[7].is_enabled(), what="the chooser's keys")
        counted = check("the chooser: counts and kinds")
        driver.save_screenshot(f"/tmp/phone17-{lang}.png")
        # a kind's own key, as in card entry: corn on 2, strawberry on 3; the rest off and bare
        assert counted[0] == "1" and counted[1] != "2" and counted[2] != "3" and counted[3] == "4"
    finally:
        driver.quit()
