"""The screen wrapper: unchanged frames not sent, display faults survived, blanking, pixel shift."""

from PIL import Image, ImageDraw

from pitable.table.screen import Screen


class FakeDevice:
    def __init__(self):
        self.frames = []
        self.failing = False
        self.hidden = False

    def display(self, image):
        if self.failing:
            raise OSError(121, "Remote I/O error")
        self.frames.append(image.copy())

    def hide(self):
        self.hidden = True

    def show(self):
        self.hidden = False


def frame(text):
    image = Image.new("1", (128, 64))
    ImageDraw.Draw(image).text((10, 10), text, fill=1)
    return image


class Clock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


def test_unchanged_frame_is_not_sent_again():
    device, clock = FakeDevice(), Clock()
    screen = Screen(device, clock)
    screen.show(frame("a"))
    screen.show(frame("a"))
    screen.show(frame("b"))
    assert len(device.frames) == 2


def test_display_fault_never_raises_and_redraws_when_back(caplog):
    device, clock = FakeDevice(), Clock()
    screen = Screen(device, clock, blank_after=0, shift_after=0)
    device.failing = True
    screen.show(frame("a"))
    screen.show(frame("b"))  # still failing: not even tried until the retry is due
    assert device.frames == []
    assert sum("display failed" in r.message for r in caplog.records) == 1  # logged once
    clock.t = 1.0
    screen.tick(clock.t)  # retry fails: backoff doubles
    assert screen.retry_in == 2.0
    device.failing = False
    clock.t = 3.0
    assert screen.next_deadline() == 3.0
    screen.tick(clock.t)
    assert len(device.frames) == 1 and device.frames[0].tobytes() == frame("b").tobytes()
    assert screen.failed_at is None


def test_blank_after_idle_and_first_key_only_wakes():
    device, clock = FakeDevice(), Clock()
    screen = Screen(device, clock, blank_after=300, shift_after=0)
    screen.show(frame("a"))
    clock.t = 299
    screen.tick(clock.t)
    assert not device.hidden
    clock.t = 300
    screen.tick(clock.t)
    assert device.hidden and screen.next_deadline() is None  # nothing due while blank
    assert screen.key() is True and not device.hidden
    assert screen.key() is False


def test_static_frame_shifts_a_pixel_now_and_then():
    device, clock = FakeDevice(), Clock()
    screen = Screen(device, clock, blank_after=0, shift_after=120)
    screen.show(frame("a"))
    clock.t = 120
    screen.tick(clock.t)
    assert len(device.frames) == 2
    first, shifted = device.frames
    assert shifted.tobytes() != first.tobytes()
    assert shifted.getbbox()[0] == first.getbbox()[0] + 1  # moved one pixel right
