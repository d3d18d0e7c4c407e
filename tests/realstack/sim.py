"""gpio-sim from the test's side: make the chip (configfs), press keys (a line's
simulated pull, or a matrix key's wire), read what a client drives (sysfs)."""

from __future__ import annotations

import os
import time
from pathlib import Path

CONFIGFS = Path("/sys/kernel/config/gpio-sim")
LINES = 28


class SimChip:
    def __init__(self, config: Path, sysfs: Path, chip: str) -> None:
        self.config = config
        self.sysfs = sysfs       # /sys/devices/platform/gpio-sim.N/gpiochipM
        self.chip = chip         # gpiochipM
        self.dev = f"/dev/{chip}"

    @classmethod
    def create(cls, name: str = "pi", lines: int = LINES) -> SimChip:
        cfg = CONFIGFS / name
        if cfg.exists():
            (cfg / "live").write_text("0")
            for d in sorted((cfg / "bank0").glob("line*")):
                d.rmdir()
            (cfg / "bank0").rmdir()
            cfg.rmdir()
        bank = cfg / "bank0"
        bank.mkdir(parents=True)
        (bank / "num_lines").write_text(str(lines))
        (bank / "label").write_text("pi-sim")
        for i in range(lines):
            (bank / f"line{i}").mkdir()
            (bank / f"line{i}" / "name").write_text(f"GPIO{i}")
        (cfg / "live").write_text("1")
        dev_name = (cfg / "dev_name").read_text().strip()
        chip = (bank / "chip_name").read_text().strip()
        return cls(cfg, Path("/sys/devices/platform") / dev_name / chip, chip)

    def remove(self) -> None:
        (self.config / "live").write_text("0")
        for d in sorted((self.config / "bank0").glob("line*")):
            d.rmdir()
        (self.config / "bank0").rmdir()
        self.config.rmdir()

    # -- the outside world -------------------------------------------------------
    def pull(self, line: int, up: bool) -> None:
        (self.sysfs / f"sim_gpio{line}" / "pull").write_text("pull-up" if up else "pull-down")

    def press(self, line: int) -> None:
        """A direct key: its switch joins the line to ground."""
        self.pull(line, False)

    def release(self, line: int) -> None:
        self.pull(line, True)

    def value(self, line: int) -> int:
        return int((self.sysfs / f"sim_gpio{line}" / "value").read_text())

    def wire(self, row: int, col: int, closed: bool = True) -> None:
        """A matrix key (the patched module): closed, its diode lets the row pull the
        column low whenever the row is driven low."""
        (self.sysfs / "sim_wires").write_text(f"{row} {col} {int(closed)}")

    def wires(self) -> list[tuple[int, int]]:
        text = (self.sysfs / "sim_wires").read_text()
        return [tuple(int(x) for x in line.split()) for line in text.splitlines()]

    def reset(self) -> None:
        (self.sysfs / "sim_wires").write_text("clear")
        for i in range(LINES):
            self.pull(i, True)

    # -- what clients did --------------------------------------------------------
    def consumers(self) -> dict[int, str]:
        """Line -> consumer label of every line some client has claimed."""
        import lgpio

        h = lgpio.gpiochip_open(int(self.chip.removeprefix("gpiochip")))
        try:
            out = {}
            for i in range(LINES):
                info = lgpio.gpio_get_line_info(h, i)
                if info[4]:
                    out[i] = info[4]
            return out
        finally:
            lgpio.gpiochip_close(h)

    def wait_claimed(self, lines, timeout: float = 60.0) -> None:
        """Press only after pitable has claimed its lines: a client's bias request sets
        gpio-sim's pull, so a key pressed before would be undone."""
        lines = set(lines)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if lines <= set(self.consumers()):
                return
            time.sleep(0.1)
        raise AssertionError(f"lines {sorted(lines - set(self.consumers()))} never claimed")

    def base(self) -> int:
        """The chip's global GPIO number base (as the kernel's tracepoints count)."""
        for d in Path("/sys/class/gpio").glob("gpiochip*"):
            if (d / "label").read_text().strip() == "pi-sim":
                return int((d / "base").read_text())
        raise LookupError("no pi-sim chip in /sys/class/gpio")


def cpu_hogs(n: int):
    """n busy processes (the load under which lgpio's close said 'GPIO busy')."""
    pids = []
    for _ in range(n):
        pid = os.fork()
        if pid == 0:
            try:
                while True:
                    pass
            finally:
                os._exit(0)
        pids.append(pid)
    return pids
