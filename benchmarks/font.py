"""The font's cost: import, first use of the German and Vietnamese letters, and the
cached calls that run on every draw (the key press path).

  import    the time ``import pitable.screens.font`` takes in a fresh process that has
            imported PIL already, bytecode compiled as pip installs it (median; the font
            module must stay import-light: its glyphs are built on first use)
  compose   every non-ASCII glyph below U+1F00 built once (their first use)
  per draw  font.overhang and font.text_width of a Vietnamese line once cached, and
            text_image of it uncached and cached

Run: python benchmarks/font.py [--runs 15]
"""

import argparse
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
sys.path.insert(0, ROOT)

LINE = "Ng\u01b0\u1eddi ch\u01a1i \u0110\u1ea4U GI\u00c1: b\u00f4ng c\u1ea3i xanh"


IMPORT = ("import time, PIL.Image; t = time.perf_counter(); import pitable.screens.font; "
          "print(time.perf_counter() - t)")


def import_time() -> float:
    out = subprocess.run([sys.executable, "-c", IMPORT], cwd=ROOT, check=True, capture_output=True, text=True)
    return float(out.stdout)


def per_call(f, n: int = 20000) -> float:
    start = time.perf_counter()
    for _ in range(n):
        f()
    return (time.perf_counter() - start) / n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    import compileall

    compileall.compile_dir(os.path.join(ROOT, "pitable"), quiet=1)
    times = [import_time() for _ in range(args.runs)]
    print(f"import over {args.runs} runs: pitable.screens.font {statistics.median(times) * 1000:.2f} ms (median)")

    from pitable.screens import font

    letters = [chr(c) for c in range(0x80, 0x1F00) if font.has_glyph(chr(c))]
    start = time.perf_counter()
    for ch in letters:
        font.glyph(ch)
    print(f"compose: {len(letters)} non-ASCII glyphs built in {(time.perf_counter() - start) * 1000:.1f} ms")
    font.text_image.cache_clear()
    start = time.perf_counter()
    font.text_image(LINE)
    print(f"per draw: text_image of a new {len(LINE)}-letter line {(time.perf_counter() - start) * 1e6:.0f} us")
    print(f"per draw: cached overhang {per_call(lambda: font.overhang(LINE)) * 1e9:.0f} ns, "
          f"text_width {per_call(lambda: font.text_width(LINE)) * 1e9:.0f} ns, "
          f"text_image {per_call(lambda: font.text_image(LINE)) * 1e9:.0f} ns")


if __name__ == "__main__":
    main()
