"""The phone page and the table page in a real headless browser: whole games with seats on
(simulated) pads and seats on phones, and the screenshots in docs/screens/web/."""

from __future__ import annotations

import json

import pytest

from tests.web.browser import need_browser, open_browser, wait_for

pytestmark = pytest.mark.system  # a real browser


@pytest.fixture
def browsers():
    need_browser()
    opened = []

    def make(**kw):
        b = open_browser(**kw)
        opened.append(b)
        return b

    yield make
    for b in opened:
        b.quit()


class Phone:
    """A phone's browser that scanned the QR: it opens the join address and joins."""

    def __init__(self, t, driver, pad=1):
        from selenium.webdriver.common.by import By

        self.t, self.d, self.By = t, driver, By
        t.press(pad, 4)                              # a joined pad: key 5, the QR
        self.seat = t.view().phone[0]
        url = t.view().phone_qr                      # what the camera reads: the key in the fragment
        self.secret = secret = url.split("#", 1)[1]
        driver.get(url.replace("HTTP://", "http://"))
        wait_for(lambda: secret not in driver.current_url, what="the key out of the address bar")
        driver.find_element(By.ID, "join").click()
        wait_for(lambda: driver.current_url.endswith("/phone"), what="the phone page")
        wait_for(lambda: driver.find_element(By.ID, "me").text, what="the seat's name")
        # nothing of the key or the session in the address or the history
        assert secret not in driver.current_url and t.phones.sealed[self.seat][0] not in driver.current_url
        assert driver.execute_script("return history.length") <= 2
        t.sync()

    def buttons(self):
        return self.d.find_elements(self.By.CSS_SELECTOR, "#keys button")

    def labels(self):
        return [b.text.replace("\n", " ") for b in self.buttons()]

    def press(self, key):
        before = self.t.posted
        wait_for(lambda: self.buttons()[key].is_enabled(), what=f"key {key} enabled")
        self.buttons()[key].click()
        wait_for(lambda: self.t.posted > before, what="the key reaching the loop")
        self.t.sync()

    def hold(self, key):
        before = self.t.posted
        self.d.find_element(self.By.ID, "hold-a" if key == 6 else "hold-x").click()
        wait_for(lambda: self.t.posted > before, what="the hold reaching the loop")
        self.t.sync()


def test_a_whole_game_of_cockroach_poker_with_pads_and_phones(web_table, browsers):
    t = web_table()
    t.press(1, 1)                                    # Cockroach Poker
    t.press(1, 0)
    t.press(2, 0)                                    # pads 1, 2
    p4 = Phone(t, browsers(width=400, height=800))
    p5 = Phone(t, browsers(width=400, height=800))
    assert (p4.seat, p5.seat) == (4, 5)
    tv = browsers()
    tv.get(f"http://127.0.0.1:{t.port}/")
    phones = {4: p4, 5: p5}
    t.press(1, 6)
    t.press(1, 1)                                    # mode full: every offer, pass and call
    t.press(1, 6)                                    # S1 starts

    def act(seat, key):
        (phones[seat].press if seat in phones else lambda k: t.press(seat, k))(key)

    # every card is a rat and ends in S5's row: S5 calls "false" on a rat (wrong: S5 takes
    # it), and when S5 offers, the receiver calls "true" (right: S5 takes it back). Four
    # rats: S5 loses (C6)
    for _ in range(80):
        view = t.view()
        name = type(view).__name__
        if name == "CockroachOver":
            break
        if name == "CockroachOffer":
            if view.step == "target":
                act(view.seat, 4 if view.seat != 5 else 0)     # to S5 (or from S5 to S1)
            else:
                act(view.seat, 0)                               # "it is a rat"
        elif name == "CockroachAnswer":
            act(view.seat, 6 if view.sender == 5 else 7)
        elif name == "CockroachFlip":
            act(view.seat, 0)                                   # it was a rat
        else:
            act(1, 7)                                           # read the notices
    assert type(t.view()).__name__ == "CockroachOver" and t.view().losers == (5,)
    got = t.get("/api/state")
    assert got[0] == 200, got[0]
    state = json.loads(got[2])
    assert state["losers"] == [5] and state["pads"][3] == 5 and state["seats"][3]["row"] == {"rat": 4}
    # the phones and the TV show it
    wait_for(lambda: "4" in p5.d.find_element(p5.By.ID, "seats").text, what="the rows on the phone")
    history = wait_for(lambda: tv.find_element(p5.By.ID, "history").text, what="the TV's history")
    assert "S5 lays it face up" in history
    assert p4.labels()[6].endswith("new game") and p4.labels()[0].endswith("again")


def test_grasshopper_on_phones_keys_labels_and_the_own_bid(web_table, browsers):
    t = web_table(deck="virtual")
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    p4 = Phone(t, browsers(width=400, height=800))
    t.press(1, 6)
    t.press(1, 6)                                    # start (the deck: virtual, from the config)
    wait_for(lambda: p4.labels()[0].startswith("1"), what="the bid keys")
    for _ in range(10):
        if type(t.view()).__name__ == "Bidding":
            break
        t.press(1, 7)
    p4.press(5)                                      # S4 bids 6
    assert wait_for(lambda: "6" in p4.d.find_element(p4.By.ID, "mybid").text, what="the own bid")
    assert "mine" in p4.buttons()[5].get_attribute("class")
    t.press(1, 0)
    t.press(2, 1)                                    # the reveal
    wait_for(lambda: p4.d.find_element(p4.By.ID, "mybid").text == "", what="the bid gone after the reveal")
    for _ in range(30):                              # play on until the next bidding
        view = t.view()
        name = type(view).__name__
        if name == "Bidding":
            break
        if name == "Choosing":
            kind = next(k for k, n in enumerate(t.table.current.state.display) if n)  # its own key
            (p4.press if view.seat == 4 else lambda k: t.press(view.seat, k))(kind)  # noqa: B023 - called at once
        else:
            t.press(1, 7)
    wait_for(lambda: not p4.buttons()[5].is_enabled(), what="the spent 6 off")
    assert all(b.is_enabled() for i, b in enumerate(p4.buttons()) if i != 5)
    p4.hold(6)                                       # A held: the scores on the glass
    assert type(t.view()).__name__ == "Scores"


def test_a_second_phone_on_a_used_qr_is_told_what_to_do(web_table, browsers):
    from selenium.webdriver.common.by import By

    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(1, 4)                                    # the QR for seat 4
    url = t.view().phone_qr.replace("HTTP://", "http://")
    first, second = browsers(width=400, height=800), browsers(width=400, height=800)
    for d in (first, second):
        d.get(url)                                   # both scan it
    wait_for(lambda: first.find_element(By.ID, "join").text != "\u25b6", what="the join button's word")
    first.find_element(By.ID, "join").click()
    wait_for(lambda: first.current_url.endswith("/phone"), what="the first phone seated")
    wait_for(lambda: second.find_element(By.ID, "join").text != "\u25b6", what="the join button's word")
    second.find_element(By.ID, "join").click()
    said = wait_for(lambda: second.find_element(By.ID, "join-error").text, what="what to do instead")
    assert said.startswith("This code is used or has run out") and "key 5" in said
    assert t.phones.seats() == (4,)


def test_nothing_the_browser_keeps_after_a_join_can_act_for_the_seat(web_table, tmp_path):
    """A guest who later reads every file of the phone's browser profile (its History keeps
    the QR's address, the fragment too) can neither join with it again nor seal a key,
    open the seat's stream or read a box the Pi sent the seat: the QR's secret was good
    for one join, and the session's keys were never written down."""
    import base64
    import re

    from pitable.web.seal import Channel, Refused
    from tests.web.conftest import SealedPhone

    need_browser()
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    profile = tmp_path / "profile"
    d = open_browser(width=400, height=800, profile=profile)
    try:
        phone = Phone(t, d)
        phone.press(7)                                   # it plays: a key (leaves) ...
        phone.press(7)                                   # ... and another (back)
    finally:
        d.quit()                                         # the browser closes: its files are all written
    seat, (sid, channel) = phone.seat, t.phones.sealed[phone.seat]
    kept = b"".join(p.read_bytes() for p in profile.rglob("*") if p.is_file())
    found = set(re.findall(rb"(?<![0-9A-Z])[0-9A-HJKMNP-TV-Z]{26}(?![0-9A-Z])", kept))
    assert len(found) < 200, len(found)
    assert any(f.decode() == phone.secret for f in found)   # the browser does keep the QR's secret
    for f in sorted(found)[:50]:
        url = f"HTTP://127.0.0.1:{t.port}/J#{f.decode()}"
        again = SealedPhone(t, url, source="127.0.0.70")
        assert again.join() == 404                       # spent: one join
        again.sid, again.sent = sid, 10 ** 6
        assert again.key(7) in (404, 429)                # no key for the seat, however numbered ...
        opened = again.stream(source="127.0.0.71")
        assert opened.closed.wait(5) and opened.status() in (404, 429)   # ... and no stream
        opened.close()
        box = channel.seal({"seat": {"probe": 1}}, "stream").decode()
        for side in ("pi", "phone"):
            probe = Channel(f, side=side)
            for route in ("stream", "joined"):
                with pytest.raises(Refused):
                    probe.peek(box, route)               # nor can it read what the Pi sends the seat
    # the session's keys are in no file, in any spelling the page could have used
    for key in channel.keys():
        for spelling in (key, base64.b64encode(key), key.hex().encode(), ",".join(map(str, key)).encode()):
            assert spelling not in kept
    assert t.phones.sealed[seat][0] == sid               # the seat is still the phone's


def test_a_qr_phone_page_reloaded_holds_no_seat_and_says_what_to_do(web_table, browsers):
    """The cost of keeping a sealed session in the page's memory only: a reload finds
    nothing to act for the seat with, and says so in the table's words (a pad takes the
    seat back and shows a new QR)."""
    t = web_table()
    t.press(1, 0)
    t.press(1, 0)
    t.press(2, 0)
    phone = Phone(t, browsers(width=400, height=800))
    phone.press(7)
    phone.d.refresh()
    said = wait_for(lambda: phone.d.find_element(phone.By.ID, "gone").text.startswith("This phone is no longer"),
                    what="the page saying its seat is gone")
    assert said and not phone.buttons()
    assert phone.d.execute_script("return sessionStorage.length") == 0
    assert phone.seat in t.phones.sealed                 # the seat's session is the Pi's to end
