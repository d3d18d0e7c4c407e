"""The real-GPIO guest (docs/real-gpio.md) runs tests/realstack with pytest but without the
test extras: the root conftest, which pytest loads first, must not need hypothesis."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_root_conftest_loads_without_hypothesis():
    code = ("import sys, runpy; sys.modules['hypothesis'] = None; "  # import hypothesis -> ImportError
            f"runpy.run_path({str(ROOT / 'tests' / 'conftest.py')!r}); print('loaded')")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "loaded"
