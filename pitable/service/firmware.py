"""config.txt read the way the Raspberry Pi firmware reads it, for one board.

The firmware reads the file top to bottom: ``[pi3]``, ``[pi02]``, ``[pi4]``... start a
section that applies only to those boards, ``[all]`` ends every filter, ``[none]``
applies to no board, and ``include FILE`` reads another file (beside config.txt) at
that place. For one setting the last line in force wins. Other filters (``[EDID=...]``,
``[gpio4=1]``, ``[0x...]``, ``[HDMI:1]``) depend on things not known here: their
sections are taken as not in force, so a value only they set is not counted on.

Pure (paths in, values out): ``pitable doctor`` uses it, and the tests point it at
files of their own.
"""

from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

__all__ = ["board_of", "Setting", "read_config", "in_force"]

# model filter -> the boards (board_of's names) it applies to
_FILTERS = {
    "pi1": {"pi1"}, "pi2": {"pi2"}, "pi3": {"pi3", "pi3+"}, "pi3+": {"pi3+"},
    "pi4": {"pi4", "pi400", "cm4"}, "pi400": {"pi400"}, "cm4": {"cm4"}, "cm4s": {"cm4s"},
    "pi5": {"pi5", "pi500", "cm5"}, "pi500": {"pi500"}, "cm5": {"cm5"},
    "pi0": {"pi0", "pi0w", "pi02"}, "pi0w": {"pi0w"}, "pi02": {"pi02"},
}


def board_of(model: str) -> str:
    """The firmware's name for the board from /proc/device-tree/model, or ""."""
    m = model.strip("\0\n ").lower()
    table = (("zero 2", "pi02"), ("zero w", "pi0w"), ("zero", "pi0"), ("compute module 4s", "cm4s"),
             ("compute module 4", "cm4"), ("compute module 5", "cm5"), ("pi 400", "pi400"),
             ("pi 500", "pi500"), ("pi 5", "pi5"), ("pi 4", "pi4"), ("3 model b plus", "pi3+"),
             ("3 model a plus", "pi3+"), ("pi 3", "pi3"), ("pi 2", "pi2"), ("raspberry pi", "pi1"))
    return next((name for words, name in table if words in m), "")


class Setting(NamedTuple):
    key: str        # "core_freq", "dtparam:i2c_arm_baudrate"
    value: str
    path: Path
    line: int       # 1-based
    applies: bool   # in force for the board (its section applies)


def read_config(path: Path, board: str, _depth: int = 0) -> list[Setting]:
    """Every setting of ``path`` (and the files it includes), in the firmware's order,
    each marked whether its section applies to ``board``."""
    out: list[Setting] = []
    try:
        text = path.read_text(errors="replace")
    except OSError:
        return out
    model_ok = True      # the current model filter matches (True after [all] or at the top)
    other_ok = True      # no other filter in force
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            name = line[1:-1].strip().lower()
            if name == "all":
                model_ok = other_ok = True
            elif name == "none":
                model_ok = False
            elif name in _FILTERS:
                model_ok = board in _FILTERS[name]
            else:
                other_ok = False   # a filter on something not known here
            continue
        applies = model_ok and other_ok
        if line.startswith("include ") and _depth < 8:
            sub = read_config(path.parent / line.split(None, 1)[1].strip(), board, _depth + 1)
            out += [s._replace(applies=s.applies and applies) for s in sub]
            continue
        if "=" not in line:
            continue
        key, value = (part.strip() for part in line.split("=", 1))
        if key == "dtparam":
            for item in value.split(","):
                name, _, setting = item.partition("=")
                out.append(Setting(f"dtparam:{name.strip()}", setting.strip() or "on", path, n, applies))
        else:
            out.append(Setting(key, value, path, n, applies))
    return out


def in_force(settings: list[Setting], key: str) -> Setting | None:
    """The line the firmware applies for ``key``: the last one in force."""
    live = [s for s in settings if s.key == key and s.applies]
    return live[-1] if live else None
