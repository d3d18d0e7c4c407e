import pytest
from gpiozero.pins.mock import MockFactory


class FakeClock:
    """A clock the test moves by hand: ``clock.t = 1.5`` or ``clock.advance(0.1)``."""

    def __init__(self, t: float = 100.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t

    def advance(self, dt: float) -> float:
        self.t += dt
        return self.t


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def factory():
    f = MockFactory()
    yield f
    f.reset()
