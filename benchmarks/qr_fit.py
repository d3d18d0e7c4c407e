"""QR codes for joining a seat from a phone: which library, and what fits the glass.

Prints, for segno and qrcode (whichever import here): import CPU time in a
fresh interpreter (fastest and median of 7), whether the installed package is pure Python,
and its size on disk. Then, for the addresses a join screen could carry, the QR version
each library picks (error correction L and M), the symbol's size in modules, and whether
it fits 64 rows at 2 px per module with a quiet zone of 4, 3, 2 or 1 modules. Finally it
draws the chosen form on a 128x64 one-bit frame with pitable's pixel font, saves it 4x
as docs/phones-qr-example.png and decodes it with zbarimg (apt: zbar-tools) when that is
installed: at 4x, at 2x and inside a dark bezel, as the OLED's glass around the frame is.

Nothing is installed by this script and pitable does not depend on these libraries; to
rerun it: python3 -m venv /tmp/webvenv && /tmp/webvenv/bin/pip install segno qrcode Pillow
&& /tmp/webvenv/bin/python benchmarks/qr_fit.py
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

CROCKFORD = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # base32 without I L O U: easy to type, QR alphanumeric
HOST = "192.168.178.23:8080"
WORST_HOST = "192.168.100.200:65535"


def ticket(bits: int = 40) -> str:
    n = secrets.randbits(bits)
    return "".join(CROCKFORD[(n >> (5 * i)) & 31] for i in reversed(range(bits // 5)))


def b32(raw: bytes) -> str:
    import base64
    return base64.b32encode(raw).decode().rstrip("=")


def b64url(raw: bytes) -> str:
    import base64
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def import_time(module: str):
    """(fastest, median) of 7 fresh interpreters, or None if it does not import."""
    code = f"import time\nt = time.process_time()\nimport {module}\nprint(time.process_time() - t)"
    times = []
    for _ in range(7):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if out.returncode:
            return None
        times.append(float(out.stdout))
    return min(times), statistics.median(times)


def package_facts(module: str):
    mod = importlib.import_module(module)
    folder = os.path.dirname(mod.__file__)
    size, compiled = 0, []
    for dirpath, _, files in os.walk(folder):
        if "__pycache__" in dirpath:
            continue
        for f in files:
            size += os.path.getsize(os.path.join(dirpath, f))
            if f.endswith((".so", ".pyd")):
                compiled.append(f)
    from importlib.metadata import version
    return version(module), size, compiled


def version_segno(data: str, error: str):
    import segno
    qr = segno.make(data, error=error, micro=False, boost_error=False)
    return qr.version, qr.mode, qr.symbol_size(border=0)[0]


def version_qrcode(data: str, error: str):
    import qrcode
    level = {"l": qrcode.constants.ERROR_CORRECT_L, "m": qrcode.constants.ERROR_CORRECT_M}[error]
    qr = qrcode.QRCode(error_correction=level, border=0)
    qr.add_data(data)
    qr.make(fit=True)
    return qr.version, "auto", qr.modules_count


def fits(modules: int, px: int = 2, rows: int = 64) -> str:
    ok = [q for q in (4, 3, 2, 1) if (modules + 2 * q) * px <= rows]
    if not ok:
        return f"does not fit: {modules * px} px + quiet zone > {rows}"
    return f"{(modules + 2 * ok[0]) * px} px with a {ok[0]}-module quiet zone" + \
        (" (too thin: phone scanners want >= 2, the standard 4)" if ok[0] < 2 else "")


def draw_join_screen(data: str, seat: int, host: str, code: str):
    """The join screen as the table could draw it: QR left (lit quiet zone), address right.

    Version 2 is asked for and error correction boosted as far as the address allows (M for
    a home network's address, L for the longest IPv4 and port)."""
    import segno
    from PIL import Image

    from pitable.screens import font

    qr = segno.make(data, version=2, error="l", micro=False, boost_error=True)
    frame = Image.new("1", (128, 64), 0)
    px, quiet = 2, 3
    size = (qr.symbol_size(border=0)[0] + 2 * quiet) * px
    top = (64 - size) // 2
    frame.paste(1, (0, top, size, top + size))           # quiet zone: lit, as paper is white
    for y, row in enumerate(qr.matrix):
        for x, dark in enumerate(row):
            if dark:
                x0, y0 = (quiet + x) * px, top + (quiet + y) * px
                frame.paste(0, (x0, y0, x0 + px, y0 + px))
    # the address for typing, broken where a person would read it
    a, b = host.split(":")
    dot = a.index(".", a.index(".") + 1) + 1  # after the second dot
    lines = [(f"Seat {seat}", 2), ("or open", 1), (a[:dot], 1), (a[dot:] + ":" + b, 1), (f"/{code}", 1)]
    x, y = size + 2, 0
    for text, scale in lines:
        im = font.text_image(text, scale)
        if x + im.width > 128:
            raise SystemExit(f"join screen: {text!r} is {im.width} px wide, leaves the frame")
        frame.paste(1, (x, y), im)
        y += font.HEIGHT * scale + (2 if scale > 1 else 1)
    if y > 64 + 2:
        raise SystemExit("join screen: lines leave the frame")
    return frame, qr


def zbar(path: str) -> str:
    exe = shutil.which("zbarimg")
    if not exe:
        return "zbarimg not installed (apt-get install zbar-tools)"
    out = subprocess.run([exe, "--quiet", "--raw", path], capture_output=True, text=True)
    return out.stdout.strip() or f"no decode (exit {out.returncode})"


def main() -> int:
    print(f"Python {sys.version.split()[0]}")
    libs = []
    for module in ("segno", "qrcode"):
        t = import_time(module)
        if t is None:
            print(f"{module:7} not installed here: skipped")
            continue
        libs.append(module)
        version, size, compiled = package_facts(module)
        print(f"{module:7} {version:8} import {t[0] * 1000:5.1f} ms (median {t[1] * 1000:5.1f}), "
              f"package {size / 1024:5.0f} KiB on disk, "
              + ("pure Python" if not compiled else f"compiled parts: {compiled}"))

    key = secrets.token_bytes(16)  # a 128-bit seat code
    t = ticket()
    t_shown = t[:4] + "-" + t[4:]
    example = f"HTTP://{HOST}/K7QM-2XP4"  # a fixed ticket, so the committed picture is stable
    payloads = [
        ("128-bit code, base64url, byte mode", f"http://{HOST}/s/{b64url(key)}"),
        ("128-bit code, base32, byte mode", f"http://{HOST}/s/{b32(key).lower()}"),
        ("128-bit code, base32, upper case (alphanumeric)", f"HTTP://{HOST}/S/{b32(key)}"),
        ("40-bit join ticket at the root, lower case (byte mode)", f"http://{HOST}/{t.lower()}"),
        ("40-bit join ticket at the root, upper case (alphanumeric)", f"HTTP://{HOST}/{t_shown}"),
        ("40-bit join ticket, longest IPv4 and port", f"HTTP://{WORST_HOST}/{t_shown}"),
    ]
    print("\nAt 2 px per module on 64 rows (a quiet zone of 4 modules is the standard's):")
    for label, data in payloads:
        print(f"- {label}: {len(data)} chars  {data}")
        for lib in libs:
            pick = version_segno if lib == "segno" else version_qrcode
            for error in ("l", "m"):
                v, mode, n = pick(data, error)
                print(f"    {lib:6} ECC {error.upper()}: version {v} ({mode}), {n}x{n} modules: {fits(n)}")

    if "segno" not in libs:
        return 0
    if importlib.util.find_spec("PIL") is None:
        print("Pillow missing: no example drawn")
        return 0
    data = example
    frame, qr = draw_join_screen(data, 3, HOST, data.rsplit("/", 1)[1])
    from PIL import Image
    big = frame.convert("L").resize((512, 256), Image.NEAREST)
    out = os.path.join(ROOT, "docs", "phones-qr-example.png")
    big.save(out)
    print(f"\nexample: {data} -> version {qr.version}-{qr.error}, saved 4x to {os.path.relpath(out, ROOT)}")
    print(f"  zbarimg on the 4x frame: {zbar(out)}")
    with tempfile.TemporaryDirectory() as tmp:
        bezel = Image.new("L", (512 + 80, 256 + 80), 0)  # the dark glass around the frame
        bezel.paste(big, (40, 40))
        p = os.path.join(tmp, "bezel.png")
        bezel.save(p)
        print(f"  zbarimg inside a dark bezel: {zbar(p)}")
        small = frame.convert("L")  # 1x: one image pixel per OLED pixel
        p1 = os.path.join(tmp, "one.png")
        small.resize((256, 128), Image.NEAREST).save(p1)
        print(f"  zbarimg at 2x: {zbar(p1)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
