"""The Raspberry Pi's 40-pin header: which pin is which, and the pins that bite.

Pure data (no gpiozero): the config's checks, ``pitable wiring`` and ``doctor`` read
it, so all three agree on what each pin is. Physical pins are numbered 1..40 (odd: the
inner row, even: the row at the board's edge); GPIO numbers are BCM.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = [
    "HEADER", "BOARD_TO_BCM", "BCM_TO_BOARD", "BOARD_POWER", "GROUND_PINS",
    "Bite", "BITES", "bite_of", "bus_pins", "i2c_pins", "spi_pins", "board_pin",
]

# physical pin -> (GPIO number or None, name on the header)
HEADER: dict[int, tuple[int | None, str]] = {
    1: (None, "3V3"), 2: (None, "5V"), 3: (2, "SDA1"), 4: (None, "5V"),
    5: (3, "SCL1"), 6: (None, "GND"), 7: (4, "GPCLK0"), 8: (14, "TXD"),
    9: (None, "GND"), 10: (15, "RXD"), 11: (17, ""), 12: (18, "PCM_CLK"),
    13: (27, ""), 14: (None, "GND"), 15: (22, ""), 16: (23, ""),
    17: (None, "3V3"), 18: (24, ""), 19: (10, "MOSI"), 20: (None, "GND"),
    21: (9, "MISO"), 22: (25, ""), 23: (11, "SCLK"), 24: (8, "CE0"),
    25: (None, "GND"), 26: (7, "CE1"), 27: (0, "ID_SD"), 28: (1, "ID_SC"),
    29: (5, ""), 30: (None, "GND"), 31: (6, ""), 32: (12, "PWM0"),
    33: (13, "PWM1"), 34: (None, "GND"), 35: (19, "PCM_FS"), 36: (16, ""),
    37: (26, ""), 38: (20, "PCM_DIN"), 39: (None, "GND"), 40: (21, "PCM_DOUT"),
}

BOARD_TO_BCM = {pin: bcm for pin, (bcm, _) in HEADER.items() if bcm is not None}
BCM_TO_BOARD = {bcm: pin for pin, bcm in BOARD_TO_BCM.items()}
BOARD_POWER = {pin: ("ground pin" if name == "GND" else f"power pin ({name})")
               for pin, (bcm, name) in HEADER.items() if bcm is None}
GROUND_PINS = tuple(pin for pin, (_, name) in HEADER.items() if name == "GND")


def board_pin(bcm: int) -> int:
    """The physical header pin of a GPIO."""
    return BCM_TO_BOARD[bcm]


def i2c_pins(port: int) -> dict[int, str]:
    """GPIO -> line of an I2C bus on the header (bus 0 is the HAT EEPROM's)."""
    return {0: {0: "SDA", 1: "SCL"}, 1: {2: "SDA", 3: "SCL"}}.get(port, {})


def spi_pins(port: int) -> dict[int, str]:
    """GPIO -> line of an SPI bus (SPI1 is an overlay; luma calls it spi_port 1)."""
    return {0: {7: "CE1", 8: "CE0", 9: "MISO", 10: "MOSI", 11: "SCLK"},
            1: {16: "CE2", 17: "CE1", 18: "CE0", 19: "MISO", 20: "MOSI", 21: "SCLK"}}[port]


def bus_pins(interface: str, port: int) -> dict[int, str]:
    return i2c_pins(port) if interface == "i2c" else spi_pins(port)


@dataclass(frozen=True)
class Bite:
    """Header pins with a job at boot or on common set-ups.

    ``when`` says when the job is on, ``happens`` what a pad wired there suffers then,
    ``todo`` what the maker does about it. ``check`` names doctor's live check.
    ``driven`` are the pins the job drives as outputs: a key there (a switch to ground)
    shorts a driven output, which can damage the pin; the job's other pins are open
    drain or inputs, where a key harms nothing. ``name`` is how a config's comment
    names the job (tests check that each shipped config explains its warnings).
    ``quiet`` says why a builder need do nothing where the job is off on a stock Raspberry
    Pi OS, or systemd/install.sh keeps it off: then ``check-config`` says it in a note, not a
    warning, and ``doctor`` checks it on the Pi. Empty: the builder must act.
    """

    gpios: tuple[int, ...]
    job: str
    when: str
    happens: str
    todo: str
    check: str
    driven: tuple[int, ...] = ()
    name: str = ""
    quiet: str = ""


BITES = (
    Bite((0, 1), "the HAT ID EEPROM pins (ID_SD/ID_SC)", "at every boot",
         "the firmware looks for a HAT's EEPROM on them (open drain: nothing drives them "
         "high): a key held then hides a HAT, and a HAT fitted later needs the pins",
         "fine on a Pi with no HAT (don't hold keys while it boots); else move them", "hat",
         name="HAT EEPROM", quiet="nothing to do with no HAT on the Pi"),
    Bite((2, 3), "I2C1 (SDA/SCL) with a fixed 1.8 kOhm pull-up to 3V3", "always",
         "a key reads fine, but an LED glows while the pin is not driven, a pull-down "
         "loses, and no I2C display can share the pin",
         "use it only for a key, or move it", "i2c", name="I2C"),
    Bite((14, 15), "the serial port (TXD/RXD)", "when the serial console is on",
         "the UART drives GPIO 14 (TXD) and reads GPIO 15 (RXD): the console takes the "
         "pins from the pads, and a key on GPIO 15 types into the console",
         "turn the console off (sudo raspi-config nonint do_serial_cons 1, reboot), or "
         "move it", "uart", driven=(14,), name="serial"),
    Bite((7, 8, 9, 10, 11), "SPI0 (GPIO 7 to 11)", "when SPI is on (dtparam=spi=on)",
         "the SPI driver claims GPIO 7 and 8 (chip selects: opening them fails, GPIO "
         "busy) and drives 7, 8, 10 and 11; GPIO 9 (MISO) is an input, not driven",
         "with an I2C display keep SPI off (sudo raspi-config nonint do_spi 1; "
         "systemd/install.sh does it for such a config), or move it", "spi",
         driven=(7, 8, 10, 11), name="SPI0", quiet="systemd/install.sh keeps SPI off for this config"),
    Bite((4,), "the 1-wire bus's default pin", "when 1-wire is on (dtoverlay=w1-gpio)",
         "the 1-wire driver owns GPIO 4 (open drain) and the pad reads nothing",
         "leave 1-wire off or give it another pin (dtoverlay=w1-gpio,gpiopin=N), or "
         "move it", "w1", name="1-wire", quiet="1-wire is off on a stock Pi OS"),
    Bite((18, 19, 20, 21), "I2S/PCM audio (GPIO 18 to 21)",
         "when a sound HAT or I2S is set up (dtparam=i2s=on, an audio overlay)",
         "the audio driver drives GPIO 18, 19 and 21 and reads 20, which a sound HAT "
         "drives: the pads lose the pins",
         "no sound HAT with this wiring, or move it", "i2s", driven=(18, 19, 20, 21),
         name="I2S", quiet="I2S is off on a stock Pi OS (no sound HAT)"),
)


def bite_of(bcm: int) -> Bite | None:
    for bite in BITES:
        if bcm in bite.gpios:
            return bite
    return None
