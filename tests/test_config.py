"""pitable.config: the corpus of good and bad files, defaults, pins, and robustness."""

import dataclasses
import re
from pathlib import Path

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from pitable import config as cfg
from pitable.config import (
    BOARD_TO_BCM, Config, DisplayConfig, MatrixWiring, PadsConfig, SeatWiring,
    check_config_main, default_log_dir, load_config, parse_config, parse_pin,
)
from pitable.errors import ConfigError, PitableError

ROOT = Path(__file__).resolve().parent.parent
CORPUS = Path(__file__).resolve().parent / "configs"
BAD = sorted((CORPUS / "bad").glob("*.yaml"))
GOOD = sorted((CORPUS / "good").glob("*.yaml"))
EXAMPLES = sorted((ROOT / "config").glob("*.yaml"))
DESKTOP = ROOT / "pitable" / "data" / "desktop.yaml"


def _expectation(path):
    """The `# expect:` and `# at:` header lines of a bad file."""
    lines = path.read_text(encoding="utf-8").splitlines()
    expect = re.fullmatch(r"# expect: (.+)", lines[0])
    at = re.fullmatch(r"# at:(.*)", lines[1])
    assert expect and at, f"{path.name}: first lines must be '# expect: ...' and '# at: ...'"
    return expect.group(1), at.group(1).strip()


def test_corpus_is_big_enough():
    assert len(BAD) >= 25
    assert len(GOOD) >= 5
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.name)
def test_bad_config(path, monkeypatch, capsys):
    expect, at = _expectation(path)
    monkeypatch.chdir(path.parent)
    with pytest.raises(ConfigError) as info:
        load_config(path.name)
    message = str(info.value)
    prefix = f"{path.name}: {at}: " if at else f"{path.name}: "
    assert message.startswith(prefix), message
    assert expect in message, message
    assert "\n" not in message and len(message) < 200, message

    assert check_config_main(path.name) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == message + "\n"
    assert "Traceback" not in err


@pytest.mark.parametrize("path", GOOD + EXAMPLES + [DESKTOP], ids=lambda p: p.name)
def test_good_config(path, capsys):
    config = load_config(path)
    assert isinstance(config, Config)
    assert check_config_main(path) == 0
    out, err = capsys.readouterr()
    assert err == "".join(line + "\n" for line in cfg.pin_warnings(config, path))
    first = f"{path}: ok ({config.seats} seats, display {config.display.describe()}, wiring {config.pads.wiring})\n"
    # sets nothing: and says so, so a newcomer is not left guessing
    if path.name in ("comments-only.yaml", "empty.yaml"):
        assert out.startswith(first) and "sets nothing, so all of that is the default" in out
    else:
        note = cfg.pin_note(config, path)
        assert out == first + (note + "\n" if note else "")


def test_examples():
    pi = load_config(ROOT / "config" / "pitable.yaml")
    assert (pi.display.display, pi.display.interface, pi.pads.wiring) == ("ssd1306", "i2c", "direct")
    assert all(seat.led is not None for seat in pi.pads.direct)
    assert pi.pads.direct == PadsConfig().direct, "the default pinout is the documented one"
    used = {p for seat in pi.pads.direct for p in seat.keys + (seat.led,)}
    assert not used & {2, 3, 14, 15}

    four = load_config(ROOT / "config" / "matrix-4-seats.yaml")
    assert (four.seats, four.display.display, four.pads.wiring) == (4, "sh1106", "matrix")
    six = load_config(ROOT / "config" / "matrix-6-seats.yaml")
    assert (six.game, six.seats, six.pads.wiring) == ("cockroach", 6, "matrix")
    spi = load_config(ROOT / "config" / "spi-ssd1309.yaml")
    assert (spi.display.display, spi.display.interface) == ("ssd1309", "spi")


def test_desktop():
    desktop = load_config(DESKTOP)
    assert desktop.display.display == "pygame"
    # six seats out of the box (seats 5 and 6: Alt + the rows of seats 1 and 2), as the README's keyboard table says
    assert (desktop.pads.wiring, desktop.deck, desktop.seats) == ("keyboard", "virtual", 6)
    assert desktop.pads.keyboard[4:] == ("alt+12345678", "alt+qwertyui")
    assert desktop.log_dir is None


# ---------------------------------------------------------------- defaults

@pytest.mark.parametrize("data", [None, {}, {"display": None, "pads": None}])
def test_empty_is_all_defaults(data):
    assert parse_config(data, "x.yaml") == Config()


def test_defaults():
    config = Config()
    assert (config.game, config.deck, config.log_dir, config.seats) == ("grasshopper", "physical", None, 2)
    d = config.display
    assert (d.display, d.interface, d.i2c_port, d.i2c_address) == ("ssd1306", "i2c", 1, 0x3C)
    assert (d.spi_port, d.spi_device, d.spi_bus_speed) == (0, 0, 4_000_000)
    assert (d.gpio_data_command, d.gpio_reset) == (24, 25)
    assert (d.width, d.height, d.rotate, d.contrast) == (128, 64, 0, 255)
    assert (d.blank_after, d.scale, d.transform) == (300, 4, "identity")
    p = config.pads
    assert (p.pin_factory, p.wiring, p.bounce, p.hold, p.matrix) == ("default", "direct", 0.02, 1.0, None)
    assert p.direct[0] == SeatWiring((4, 17, 27, 22, 9, 0, 5, 6), led=10)   # config/pitable.yaml's
    assert p.keyboard == ("12345678", "qwertyui", "asdfghjk", "zxcvbnm,", "alt+12345678", "alt+qwertyui")


def test_values_are_frozen():
    config = Config()
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.seats = 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        config.display.rotate = 2
    assert isinstance(config.pads.direct, tuple) and isinstance(config.pads.direct[0].keys, tuple)


def test_luma_options_are_the_display_section():
    display = parse_config({"display": {"display": "sh1106", "rotate": 2, "gpio_reset": None}},
                           "x.yaml").display
    options = display.luma_options()
    assert set(options) == {f.name for f in dataclasses.fields(DisplayConfig)}
    assert set(options) == set(_doc_display())
    assert options["display"] == "sh1106" and options["rotate"] == 2 and options["gpio_reset"] is None
    options["rotate"] = 3                      # a fresh dict each time
    assert display.luma_options()["rotate"] == 2


def _doc_display():
    """The display section of the YAML block in docs/config.md."""
    doc = (ROOT / "docs" / "config.md").read_text(encoding="utf-8")
    block = doc.split("```yaml\n", 1)[1].split("```", 1)[0]
    return yaml.safe_load(block)["display"]


def test_doc_defaults_match():
    """The values docs/config.md shows for the display section are the defaults."""
    assert _doc_display() == DisplayConfig().luma_options()


def test_matrix_leds_default_to_none():
    config = parse_config({"pads": {"wiring": "matrix", "matrix": {
        "rows": [5, 6, 13], "columns": [4, 17, 27, 22, 23, 24, 25, 12]}}}, "x.yaml")
    assert config.seats == 3
    assert config.pads.matrix == MatrixWiring((5, 6, 13), (4, 17, 27, 22, 23, 24, 25, 12), (None,) * 3)


def test_keyboard_seats_default_to_four():
    assert parse_config({"pads": {"wiring": "keyboard"}}, "x.yaml").seats == 4


def test_default_log_dir(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", f"{tmp_path}/a:{tmp_path}/b")
    assert default_log_dir() == tmp_path / "a"
    assert Config().log_path == tmp_path / "a"
    monkeypatch.delenv("STATE_DIRECTORY")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_log_dir() == tmp_path / ".local" / "share" / "pitable"
    assert parse_config({"log_dir": "~/logs"}, "x.yaml").log_path == tmp_path / "logs"


# ---------------------------------------------------------------- pins

def test_board_map_covers_the_header():
    assert len(BOARD_TO_BCM) == 28
    assert sorted(BOARD_TO_BCM.values()) == list(range(28))
    assert set(BOARD_TO_BCM).isdisjoint(cfg.BOARD_POWER)
    assert set(BOARD_TO_BCM) | set(cfg.BOARD_POWER) == set(range(1, 41))


@pytest.mark.parametrize("written, bcm", [
    (17, 17), ("17", 17), ("GPIO17", 17), ("gpio17", 17), ("BCM17", 17), ("BOARD11", 17),
    ("J8:11", 17), ("BOARD3", 2), ("BOARD5", 3), ("BOARD27", 0), ("BOARD40", 21), (0, 0), (27, 27),
])
def test_parse_pin(written, bcm):
    assert parse_pin(written)[0] == bcm


@pytest.mark.parametrize("written, reason", [
    (True, "boolean"), (28, "out of range"), (-1, "out of range"), ("BOARD1", "power pin (3V3)"),
    ("BOARD2", "power pin (5V)"), ("BOARD39", "ground pin"), ("BOARD0", "not a pin of the 40-pin"),
    ("GPIO", "expected a GPIO"), (17.0, "expected a GPIO"), (None, "expected a GPIO"), ("WPI0", "expected"),
])
def test_parse_pin_refuses(written, reason):
    with pytest.raises(ValueError, match=re.escape(reason)):
        parse_pin(written)


def _two_seats(a, b):
    return {"pads": {"direct": [{"keys": [4, 17, 27, 22, 5, 6, 13, 19], "led": a},
                                {"keys": [18, 23, 24, 25, 8, 7, 12, 16], "led": b}]}}


@pytest.mark.parametrize("a, b", [
    (26, "GPIO26"), ("BCM26", "BOARD37"), ("BOARD37", 26), ("J8:37", "gpio26"), (9, "BOARD21"),
])
def test_duplicates_across_notations(a, b):
    with pytest.raises(ConfigError, match=r"^x\.yaml: pads\.direct\[1\]\.led: .* is already used by "
                                          r"pads\.direct\[0\]\.led$"):
        parse_config(_two_seats(a, b), "x.yaml")


@pytest.mark.parametrize("pin", ["BOARD3", "GPIO2", 3, "BCM3", "BOARD5"])
def test_i2c_pins_refused_in_any_notation(pin):
    with pytest.raises(ConfigError, match="I2C display bus"):
        parse_config(_two_seats(pin, None), "x.yaml")


def test_pins_are_stored_as_bcm():
    config = parse_config(_two_seats("BOARD37", "GPIO20"), "x.yaml")
    assert [seat.led for seat in config.pads.direct] == [26, 20]
    assert all(type(p) is int for seat in config.pads.direct for p in seat.keys)


def test_only_the_active_wiring_is_checked_for_conflicts():
    data = _two_seats(26, 20)
    data["pads"]["matrix"] = {"rows": [4, 17], "columns": [4, 17, 27, 22, 23, 24, 25, 2]}
    config = parse_config(data, "x.yaml")
    assert config.pads.matrix.rows == (4, 17)       # shape checked, pins not in use
    data["pads"]["wiring"] = "matrix"
    with pytest.raises(ConfigError, match=r"pads\.matrix\.columns\[0\]: GPIO 4 is already used by "
                                          r"pads\.matrix\.rows\[0\]"):
        parse_config(data, "x.yaml")


def test_inactive_sections_still_have_their_shape_checked():
    data = {"pads": {"wiring": "keyboard", "direct": [{"keys": [1, 2]}]}}
    with pytest.raises(ConfigError, match=r"pads\.direct\[0\]\.keys: expected 8 keys, got 2"):
        parse_config(data, "x.yaml")


def test_spi_display_pins_are_reserved_only_for_spi_hardware():
    columns = [4, 17, 27, 22, 23, 24, 25, 10]
    data = {"pads": {"wiring": "matrix", "matrix": {"rows": [5, 6], "columns": columns}}}
    parse_config(data, "x.yaml")                                  # i2c: 10, 24, 25 are free
    data["display"] = {"display": "pygame", "interface": "spi"}
    parse_config(data, "x.yaml")                                  # emulator: no bus
    data["display"] = {"display": "ssd1306", "interface": "spi"}
    with pytest.raises(ConfigError, match=r"columns\[5\]: GPIO 24 is already used by display\.gpio_data_command"):
        parse_config(data, "x.yaml")


# ---------------------------------------------------------------- messages and files

def test_missing_file(tmp_path, capsys):
    path = tmp_path / "nope.yaml"
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert str(info.value) == f"{path}: cannot read: No such file or directory"
    assert check_config_main(path) == 2
    assert capsys.readouterr().err == f"{path}: cannot read: No such file or directory\n"


def test_not_utf8(tmp_path):
    path = tmp_path / "latin1.yaml"
    path.write_bytes("game: caf\xe9\n".encode("latin-1"))
    with pytest.raises(ConfigError, match="cannot read: not UTF-8"):
        load_config(path)


def test_config_error_is_a_value_error():
    with pytest.raises(ValueError):
        parse_config({"seats": "x"}, "x.yaml")
    with pytest.raises(PitableError):
        parse_config({"seats": "x"}, "x.yaml")


def test_message_uses_the_path_as_given(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "t.yaml").write_text("seats: x\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^sub/t\.yaml: seats: "):
        load_config("sub/t.yaml")


def test_yaml_merge_keys_are_not_duplicates():
    text = "base: &b {rotate: 2}\n"
    data = yaml.load(text + "display:\n  <<: *b\n  rotate: 1\n", Loader=cfg._Loader)
    assert data["display"] == {"rotate": 1}


# ---------------------------------------------------------------- robustness

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 70), st.floats(allow_nan=True), st.text(max_size=10),
    st.sampled_from(["GPIO17", "BOARD11", "BOARD1", "i2c", "spi", "matrix", "keyboard", "direct",
                     "ssd1306", "pygame", "12345678", "qwertyui", "cockroach", "0x3C"]),
)
_keys = st.sampled_from(["game", "deck", "log_dir", "seats", "display", "pads", "wiring", "direct",
                         "matrix", "keyboard", "rows", "columns", "leds", "keys", "led", "buzzer",
                         "interface", "rotate", "i2c_address", "gpio_reset", "hold", "bounce", "adress"])
_values = st.recursive(_scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=9), st.dictionaries(_keys, inner, max_size=5)), max_leaves=40)


@pytest.mark.system  # thousands of generated configs
@settings(max_examples=400, deadline=None)
@given(st.one_of(_values, st.dictionaries(_keys, _values, max_size=6)))
def test_any_data_gives_a_config_or_one_line_per_error(data):
    try:
        config = parse_config(data, "f.yaml")
    except ConfigError as e:
        lines = str(e).split("\n")
        assert all(line.startswith("f.yaml: ") and line.strip() == line for line in lines), lines
        assert len(set(lines)) == len(lines)
    else:
        assert isinstance(config, Config)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab: -[]{}\n\t'\"#&*!|>%@`,?0x")), max_size=40))
def test_any_text_gives_a_config_or_one_line_error(tmp_path_factory, text):
    """One line an error, each naming the file (two unknown keys are two lines: every error
    of a file is said, as check-config does)."""
    path = tmp_path_factory.mktemp("t") / "f.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        load_config(path)
    except ConfigError as e:
        lines = str(e).split("\n")
        assert all(line.startswith(f"{path}: ") and line.strip() == line for line in lines), lines


@pytest.mark.parametrize("text", ["", "\n", "# only a comment\n", "---\n"])
def test_an_empty_config_says_what_it_falls_back_to(tmp_path, capsys, text):
    path = tmp_path / "empty.yaml"
    path.write_text(text)
    assert check_config_main(path) == 0
    lines = capsys.readouterr().out.splitlines()
    # and the default pinout's note on its shared pins, if it has any
    assert len(lines) in (2, 3) and lines[0].startswith(f"{path}: ok (")
    assert len(lines) == 2 or ": note: " in lines[2]
    assert "sets nothing" in lines[1] and "default pinout" in lines[1] and "logs in" in lines[1]


def test_a_matrix_row_missing_is_blamed_on_the_row_not_on_the_leds():
    # 4 seats, 4 LEDs, 3 rows: the row is what is missing
    data = {"seats": 4, "pads": {"wiring": "matrix", "matrix": {
        "rows": [5, 6, 13], "columns": [4, 17, 27, 22, 23, 24, 25, 12], "leds": [16, 20, 21, 26]}}}
    with pytest.raises(ConfigError, match=r"pads\.matrix\.rows: 3 seats wired but seats is 4"):
        parse_config(data, "t.yaml")
    del data["seats"]  # 3 seats by the rows: now the LEDs are what is wrong
    with pytest.raises(ConfigError, match=r"pads\.matrix\.leds: 4 LED pins for 3 rows"):
        parse_config(data, "t.yaml")


def test_language_is_one_of_the_catalogs_and_english_by_default(tmp_path):
    from pitable.i18n import LANGUAGES

    assert load_config(CORPUS / "good" / "language-de.yaml").language == "de"
    assert load_config(CORPUS / "good" / "empty.yaml").language == "en"
    for lang in LANGUAGES:
        path = tmp_path / f"{lang}.yaml"
        path.write_text(f"language: {lang}\n")
        assert load_config(path).language == lang


# ---------------------------------------------------------------- pins that bite

from pitable.hardware.header import BCM_TO_BOARD, BITES  # noqa: E402

BITTEN = [(gpio, bite) for bite in BITES for gpio in bite.gpios]


@pytest.mark.parametrize("gpio,bite", BITTEN, ids=lambda x: str(x) if isinstance(x, int) else "")
def test_a_pad_on_a_pin_that_bites_is_a_warning_not_an_error(gpio, bite, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bite.yaml").write_text(
        "display: {display: dummy}\n"
        "pads:\n  wiring: matrix\n  matrix:\n    rows: [5, 6]\n"
        f"    columns: [12, 13, 16, 17, 22, 23, 24, {gpio}]\n")
    assert check_config_main("bite.yaml") == 0
    out, err = capsys.readouterr()
    assert out.startswith("bite.yaml: ok")
    if bite.quiet:
        # off on a stock Pi OS, or kept off by install.sh: nothing to do, so a note, not a warning
        assert err == "" and out.splitlines()[1].startswith("bite.yaml: note: ")
        assert f"{bite.name} (GPIO {gpio}): {bite.quiet}" in out
        return
    lines = err.splitlines()
    assert len(lines) == 1, err
    line = lines[0]
    # file, key path, pin, what happens, what to do
    assert line.startswith(f"bite.yaml: pads.matrix.columns[7]: warning: GPIO {gpio} (pin {BCM_TO_BOARD[gpio]}, ")
    assert bite.job in line and bite.happens in line and f"Do: {bite.todo}." in line


def test_serial_console_warning_for_keys_on_14_and_15(tmp_path, capsys):
    path = tmp_path / "uart.yaml"
    path.write_text("pads:\n  direct:\n"
                    "    - keys: [4, 17, 27, 22, 5, 6, 14, 15]\n"
                    "    - keys: [18, 23, 24, 25, 12, 13, 16, 19]\n")
    assert check_config_main(path) == 0
    err = capsys.readouterr().err
    # one warning for the job, naming both pins: said once
    assert (f"{path}: pads.direct[0].keys[6], pads.direct[0].keys[7]: warning: GPIO 14 (pin 8, seat 1 "
            "key A), GPIO 15 (pin 10, seat 1 key X) are the serial port") in err
    assert "do_serial_cons 1" in err


def test_the_display_bus_itself_is_not_warned_about(tmp_path, capsys):
    path = tmp_path / "spi.yaml"
    path.write_text("display: {display: ssd1309, interface: spi}\n"
                    "pads:\n  wiring: matrix\n  matrix:\n    rows: [5, 6]\n"
                    "    columns: [12, 13, 16, 17, 22, 23, 26, 27]\n")
    assert check_config_main(path) == 0
    assert capsys.readouterr().err == ""


def test_pins_on_a_safe_pin_give_no_warning():
    config = parse_config({"display": {"display": "dummy"}, "pads": {"wiring": "matrix", "matrix": {
        "rows": [5, 6], "columns": [12, 13, 16, 17, 22, 23, 24, 25]}}}, "x.yaml")
    assert cfg.pin_warnings(config, "x.yaml") == []


def test_check_config_names_every_wrong_key_one_line_each_exit_2(tmp_path, capsys):
    """A wrong display and the typo bouce in one file: both named, not only the first."""
    path = tmp_path / "two.yaml"
    path.write_text("display:\n  display: ssd1305\npads:\n  bouce: 0.02\n  hold: soon\n"
                    "assistant:\n  seats: 9\nweb:\n  port: 0\n")
    assert check_config_main(path) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "display.display", "pads.bouce", "pads.hold", "assistant.seats", "web.port"]
    assert all(line.startswith(f"{path}: ") for line in lines)
    assert "did you mean bounce?" in lines[1]


def test_the_daemon_names_every_wrong_key_too(tmp_path):
    import subprocess
    import sys

    path = tmp_path / "two.yaml"
    path.write_text("display:\n  display: ssd1305\npads:\n  bouce: 0.02\n")
    out = subprocess.run([sys.executable, "-m", "pitable", "run", "--config", str(path)],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.splitlines() == [
        f"pitable: {path}: display.display: unknown value 'ssd1305' (choose ssd1306, sh1106, ssd1309, "
        "pygame, capture, gifanim, terminal or dummy)",
        f"pitable: {path}: pads.bouce: unknown key (did you mean bounce?)"]


@pytest.mark.parametrize("word, deck", [("real", "physical"), ("virtual", "virtual"), ("physical", "physical")])
def test_the_deck_is_named_as_the_options_screen_names_it_and_the_old_word_still_reads(word, deck):
    assert parse_config({"deck": word}, "x.yaml").deck == deck


def test_a_deck_that_is_neither_real_nor_virtual_is_refused_naming_both():
    with pytest.raises(ConfigError) as e:
        parse_config({"deck": "paper"}, "x.yaml")
    assert "deck" in str(e.value) and "real or virtual" in str(e.value)
