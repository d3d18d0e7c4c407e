#!/usr/bin/env python3
"""Make docs/wiring.md's per-config section and docs/wiring/*.svg from config/*.yaml
(each config's header picture, and its hub, pad and cable build drawings).

    PYTHONPATH=. python scripts/wiring_docs.py          # write them
    PYTHONPATH=. python scripts/wiring_docs.py --png    # also docs/wiring/*.png, to look at

tests/hardware/test_wiring.py fails when docs/wiring.md or a picture disagrees with the
configs; run this after changing a config under config/ or the wiring model.
"""

from __future__ import annotations

import argparse
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pitable.config import load_config  # noqa: E402
from pitable.hardware.wiring import checklist, wiring_of  # noqa: E402
from pitable.hardware.wiring_build import BUILD_PICTURES  # noqa: E402
from pitable.hardware.wiring_picture import layout, to_png, to_svg  # noqa: E402
from pitable.hardware.wiring_text import DOC_BEGIN, DOC_END, doc_order, doc_section  # noqa: E402

PICTURES = "docs/wiring"
CHECK_BEGIN = "<!-- checklist: made by scripts/wiring_docs.py from config/pitable.yaml -->"
CHECK_END = "<!-- end of checklist -->"
DOC = "docs/wiring.md"


def made(root: pathlib.Path = ROOT):
    """(docs/wiring.md with its per-config section made anew, {picture path: SVG text}, drawings)."""
    names = doc_order([p.name for p in (root / "config").glob("*.yaml")])
    entries, svgs, drawings = [], {}, {}
    for name in names:
        source = f"config/{name}"
        wiring = wiring_of(load_config(root / source))
        picture = f"{PICTURES}/{name.removesuffix('.yaml')}.svg"
        drawing = layout(wiring, source)
        svgs[picture] = to_svg(drawing)
        drawings[picture] = drawing
        if wiring.kind in ("direct", "matrix") and wiring.build == "hub":   # the build drawings: hub, pad, cables
            for suffix, make in BUILD_PICTURES.items():
                path = picture.replace(".svg", f"-{suffix}.svg")
                drawings[path] = make(wiring, source)
                svgs[path] = to_svg(drawings[path])
        entries.append((source, wiring, picture.removeprefix("docs/")))
    doc = (root / DOC).read_text(encoding="utf-8")
    start, end = doc.index(DOC_BEGIN), doc.index(DOC_END) + len(DOC_END) + 1
    doc = doc[:start] + doc_section(entries) + doc[end:]
    default = wiring_of(load_config(root / "config" / "pitable.yaml"))
    start, end = doc.index(CHECK_BEGIN), doc.index(CHECK_END)
    steps = "\n".join(f"- {step}" for step in checklist(default))
    doc = doc[:start] + CHECK_BEGIN + "\n\n" + steps + "\n\n" + doc[end:]
    return doc, svgs, drawings


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--png", action="store_true", help="also write PNGs next to the SVGs")
    args = parser.parse_args()
    doc, svgs, drawings = made()
    (ROOT / PICTURES).mkdir(parents=True, exist_ok=True)
    for old in (ROOT / PICTURES).glob("*.svg"):
        if f"{PICTURES}/{old.name}" not in svgs:
            old.unlink()
    for path, text in svgs.items():
        (ROOT / path).write_text(text, encoding="utf-8")
        if args.png:
            to_png(drawings[path], 1.5).save(ROOT / path.replace(".svg", ".png"))
        print(path)
    (ROOT / DOC).write_text(doc, encoding="utf-8")
    print(DOC)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
