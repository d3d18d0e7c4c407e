from gpiozero import DigitalInputDevice, DigitalOutputDevice

from pitable.hardware.mockmatrix import MockDirectKeys, MockMatrix

ROWS = [5, 6]
COLS = [4, 17, 27, 22, 23, 24, 25, 12]


def open_devices(factory):
    rows = [DigitalOutputDevice(p, active_high=False, initial_value=False,
                                pin_factory=factory) for p in ROWS]
    cols = [DigitalInputDevice(p, pull_up=True, pin_factory=factory) for p in COLS]
    return rows, cols


def test_column_low_only_through_a_row_driven_low(factory):
    sim = MockMatrix(factory, ROWS, COLS)
    rows, cols = open_devices(factory)
    sim.press(1, 2)
    assert not cols[2].is_active          # row 1 is high: the diode blocks
    rows[0].on()
    assert not cols[2].is_active          # row 0 is low but holds nothing on key 2
    rows[1].on()
    assert cols[2].is_active              # row 1 low and key held: column pulled low
    assert [c.is_active for c in cols] == [False, False, True] + [False] * 5
    rows[1].off()
    assert not cols[2].is_active          # follows the row as it is driven
    rows[1].on()
    sim.release(1, 2)
    assert not cols[2].is_active
    for d in rows + cols:
        d.close()


def test_key_held_before_pull_up_is_configured(factory):
    sim = MockMatrix(factory, ROWS, COLS)
    sim.press(0, 7)
    rows, cols = open_devices(factory)
    rows[0].on()
    assert cols[7].is_active
    for d in rows + cols:
        d.close()
    # a closed row (input, not driving) no longer pulls the column down
    assert not any(p.driving_low() for p in sim.rows)


def test_direct_keys_drive_pins(factory):
    keys = MockDirectKeys(factory, [COLS])
    dev = DigitalInputDevice(COLS[3], pull_up=True, pin_factory=factory)
    keys.press(0, 3)
    assert dev.is_active
    keys.chatter(0, 3, [False, True, False])
    assert not dev.is_active
    dev.close()
