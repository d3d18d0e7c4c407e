#!/usr/bin/env python3
"""Make the README's wiring section and docs/wiring/*.svg from config/*.yaml.

    PYTHONPATH=. python scripts/wiring_docs.py          # write them
    PYTHONPATH=. python scripts/wiring_docs.py --png    # also docs/wiring/*.png, to look at

tests/hardware/test_wiring.py fails when the README or a picture disagrees with the
configs; run this after changing a config under config/.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pitable.config import load_config  # noqa: E402
from pitable.hardware.wiring import wiring_of  # noqa: E402
from pitable.hardware.wiring_picture import layout, to_png, to_svg  # noqa: E402
from pitable.hardware.wiring_text import README_BEGIN, README_END, readme_order, readme_section  # noqa: E402

PICTURES = "docs/wiring"


def made(root: pathlib.Path = ROOT):
    """(README text with its wiring section made anew, {picture path: SVG text}, drawings)."""
    names = readme_order([p.name for p in (root / "config").glob("*.yaml")])
    entries, svgs, drawings = [], {}, {}
    for name in names:
        source = f"config/{name}"
        wiring = wiring_of(load_config(root / source))
        picture = f"{PICTURES}/{name.removesuffix('.yaml')}.svg"
        drawing = layout(wiring, source)
        svgs[picture] = to_svg(drawing)
        drawings[picture] = drawing
        entries.append((source, wiring, picture))
    readme = (root / "README.md").read_text(encoding="utf-8")
    if README_BEGIN not in readme:   # the section moved to docs/wiring.md (issue 20; i21's branch)
        return readme, svgs, drawings
    start, end = readme.index(README_BEGIN), readme.index(README_END) + len(README_END) + 1
    return readme[:start] + readme_section(entries) + readme[end:], svgs, drawings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", action="store_true", help="also write PNGs next to the SVGs")
    args = parser.parse_args()
    readme, svgs, drawings = made()
    (ROOT / PICTURES).mkdir(parents=True, exist_ok=True)
    for old in (ROOT / PICTURES).glob("*.svg"):
        if f"{PICTURES}/{old.name}" not in svgs:
            old.unlink()
    for path, text in svgs.items():
        (ROOT / path).write_text(text, encoding="utf-8")
        if args.png:
            to_png(drawings[path], 1.5).save(ROOT / path.replace(".svg", ".png"))
        print(path)
    (ROOT / "README.md").write_text(readme, encoding="utf-8")
    print("README.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
