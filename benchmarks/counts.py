"""Counted, not guessed: instructions per event under valgrind's callgrind, and what
they mean on a Pi Zero 2 W (docs/performance.md has the model and its sources).

Wall-clock timings on a shared machine are noise; instruction counts are not. Each
scenario runs in its own Python process under ``valgrind --tool=callgrind`` with
``--dump-before=getpgrp``: the scenario calls ``os.getpgrp()`` (nothing else in pitable,
gpiozero, luma or Pillow does) at the edges of what it measures, and callgrind writes the
instructions counted since the last edge, all threads together. So set-up never enters
a figure, and every event is counted alone:

  keys     real games on the harness's table (3 seats, direct wiring, gpiozero mock pins,
           debounce, the loop, the journal with its fsync worker, the renderer, the
           page-diff SSD1306 on a byte-counting bus; a manual clock): every key from its
           release edge to the frame handed to the display ("to glass"), and apart the
           frames drawn ahead after it. Grasshopper with a physical and a virtual deck,
           Cockroach Poker.
  phone    a phone's key (HTTP POST on loopback, the real web server and its pages) to
           the OLED frame; the phone is this process's parent, not counted.
  bid      the strong player's bid at the default budget, at positions of real games
           (what the worker process computes), its choice, and its first bid after a
           restart (its model of the others made again).
  start    ``pitable run`` to the first frame (the console script's path, mock pins,
           4 seats on a matrix), and apart the bare imports of gpiozero, luma and Pillow.
  idle     the daemon (``pitable run``) idle, by the difference of a long and a short
           wait: instructions of an idle minute.

An event's figure is the mean over its occurrences minus the cost of an empty
measurement (two edges in a row). Runs are deterministic (PYTHONHASHSEED fixed, seeded
games): the same figures within 1% from run to run (--check runs it all twice).

Run: python benchmarks/counts.py [--quick] [--jobs 2] [--check] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MOCK_CONFIG = HERE / "configs" / "mock-4-seats.yaml"

# --- the model: instructions on this machine -> milliseconds on a Pi Zero 2 W -----------------
# docs/performance.md says where each number comes from.
CLOCK_HZ = 1.0e9             # Cortex-A53 at 1 GHz (Pi Zero 2 W, no overclock)
IPC = (0.4, 0.8)             # instructions per cycle of CPython on an in-order dual-issue A53
ARM_RATIO = (1.0, 1.3)       # ARM instructions per x86-64 instruction for the same Python work
BUILD_RATIO = (0.9, 1.0)     # Debian's PGO/LTO CPython (Pi OS) vs the interpreter counted here
I2C_HZ = 400_000             # the display bus: 9 bit times a byte, ~20 per transaction
FSYNC_MS = (2.0, 10.0)       # one small append + fsync on an A1 SD card (ext4)
BUDGETS = {"key": 20.0, "bid": 2000.0, "cold": 10000.0, "start": 3000.0}


def zero_ms(instructions: float) -> tuple[float, float]:
    """(fast, slow) milliseconds of CPU on a Pi Zero 2 W for this many counted instructions."""
    lo = instructions * ARM_RATIO[0] * BUILD_RATIO[0] / (IPC[1] * CLOCK_HZ) * 1000
    hi = instructions * ARM_RATIO[1] * BUILD_RATIO[1] / (IPC[0] * CLOCK_HZ) * 1000
    return lo, hi


WHOLE_FRAME = 1030           # bytes of a whole 128x64 frame on the bus: 1024 data + 6 command
SPI_HZ = 8_000_000           # the SPI display's default bus speed (config: display.spi_bus_speed)


def bus_ms(nbytes: float, transactions: float) -> float:
    return (9 * nbytes + 20 * transactions) / I2C_HZ * 1000


def spi_ms(nbytes: float) -> float:
    return 8 * nbytes / SPI_HZ * 1000


# --- inside the measured process ---------------------------------------------------------------

class Marks:
    """Edges of measured segments: each ``edge(label)`` ends the segment so labelled.
    The labels go to a file the parent reads beside callgrind's dumps."""

    def __init__(self, path: str):
        self.path = path
        self.labels: list = []

    def edge(self, label) -> None:
        self.labels.append(label)
        os.getpgrp()

    def empties(self, n: int = 6) -> None:
        for _ in range(n):
            self.edge("empty")

    def save(self, extra=None) -> None:
        with open(self.path, "w") as f:
            json.dump({"labels": self.labels, "extra": extra or {}}, f)


def _setup_path():
    sys.path.insert(0, str(ROOT))


class Fingers:
    """Taps keys on a SimTable and puts edges around each: the press, the release up to
    the frame, the frames drawn ahead after it."""

    def __init__(self, marks: Marks, sim_kwargs: dict):
        from pitable.harness import SimTable

        self.marks = marks
        self.tap_id = -1
        self.part = "gap"
        self.kinds: dict = {}
        self.extra: dict = {}   # tap id -> (bus bytes, transactions, logged)
        # the bids' 3 s on the glass is no CPU: keys are counted where they act, so the
        # fingers do not tap into the reveal's hold (the reaction time they do wait)
        sim_kwargs.setdefault("reveal_seconds", 0)
        self.sim = SimTable(tempfile.mkdtemp(prefix="pitable-counts-"), seats=3, wiring="direct",
                            display="ssd1306", on_frame=self._frame, **sim_kwargs)

    def _frame(self, view) -> None:
        if self.part == "release":
            self.marks.edge([self.tap_id, "frame"])
            self.part = "after"

    def _log_size(self) -> int:
        journal = getattr(self.sim.game, "journal", None)
        try:
            return os.path.getsize(journal.path) if journal is not None else -1
        except OSError:
            return -1

    def tap(self, seat: int, key: int, kind: str | None = "start", classify=None) -> None:
        sim, marks = self.sim, self.marks
        self.tap_id += 1
        tid = self.tap_id
        bus = sim.bus
        before = (bus.bytes, bus.transactions, self._log_size())
        dt = sim.bounce + 0.03
        marks.edge([tid, "gap"])
        sim.keys.press(seat - 1, key)
        sim.clock.advance(dt)
        sim.loop.drain()
        marks.edge([tid, "press"])
        self.part = "release"
        sim.keys.release(seat - 1, key)
        sim.clock.advance(dt)
        sim.loop.drain()
        marks.edge([tid, "nothing" if self.part == "release" else "after"])
        self.part = "gap"
        logged = self._log_size() != before[2]
        self.kinds[tid] = classify() if classify else kind
        self.extra[tid] = (bus.bytes - before[0], bus.transactions - before[1], logged)


def child_grasshopper(marks: Marks, deck: str, taps: int) -> dict:
    import gc

    from pitable.i18n import ASSISTANT_SEAT
    from pitable.rules.grasshopper import BIDDING, CHOOSING, REVEAL

    rng = random.Random(11)
    f = Fingers(marks, {"deck": deck, "rng": random.Random(5)})
    sim = f.sim

    def start():
        f.tap(1, 0)                      # game 1: Grasshopper Poker
        for pad in (1, 2, 3):
            f.tap(pad, 0)                # join
        f.tap(1, 6)                      # A: on to the options
        f.tap(1, 6)                      # A: start

    start()
    gc.freeze()  # as the daemon's loop does once start-up is done
    marks.empties()
    while f.tap_id < taps:               # a whole game is ~230 keys
        game = sim.game
        st = game.state
        unseen = sum(st.unseen)

        def revealed(kind):
            # a key after which the assistant turned up cards (virtual deck) says so
            more = " + virtual reveal" if deck == "virtual" else " + reveal (passed on)"
            return lambda: kind + (more if sum(sim.game.state.unseen) < unseen else "")  # noqa: B023 - called within this turn of the loop

        if game.overlay or game.notices:
            f.tap(1, 0, classify=revealed("next screen"))
        elif st.is_over():
            break
        elif st.phase is REVEAL:
            f.tap(1, rng.choice([k for k in range(5) if st.unseen[k]]), "physical reveal")
        elif st.phase is BIDDING:
            people = [(p, pad) for p, pad in enumerate(game.seats)
                      if pad <= ASSISTANT_SEAT and p not in game.pending]
            for i, (p, pad) in enumerate(people):
                card = rng.choice([c for c in range(8) if not st.spent[p] >> c & 1])
                last = i == len(people) - 1
                f.tap(pad, card, classify=revealed("last lock-in" if last else "lock-in"))
        elif st.phase is CHOOSING:
            f.tap(game.seats[st.chooser], rng.choice([k for k in range(5) if st.display[k]]),
                  classify=revealed("choice"))
    marks.empties()
    return {"kinds": f.kinds, "extra": f.extra}


def child_cockroach(marks: Marks, events: int) -> dict:
    import gc

    from pitable.rules import cockroach as cr

    rng = random.Random(13)
    f = Fingers(marks, {"rng": random.Random(5)})
    sim = f.sim
    f.tap(1, 1)                          # game 2: Cockroach Poker
    for pad in (1, 2, 3):
        f.tap(pad, 0)
    f.tap(1, 6)
    f.tap(1, 1)                          # mode full: every offer, pass and call
    f.tap(1, 6)
    gc.freeze()
    marks.empties()
    for _ in range(events):
        game = sim.game
        st = game.state
        if game.overlay or game.notices:
            f.tap(1, 0, "next screen")
        elif st.is_over():
            break
        elif st.phase == cr.OFFER:
            pad = game.seats[st.active]
            to = rng.choice([p for p in range(st.players) if p != st.active])
            f.tap(pad, game.seats[to] - 1, "offer: the seat")
            f.tap(pad, rng.randrange(8), "offer: the claim")
        elif st.phase == cr.ANSWER:
            pad = game.seats[st.to]
            seats = [p for p in st.unseen_seats() if p != st.to] if st.can_pass() else []
            if seats and rng.random() < 0.3:
                f.tap(pad, game.seats[rng.choice(seats)] - 1, "answer: pass on, the seat")
                f.tap(pad, rng.randrange(8), "answer: pass on, the claim")
            else:
                f.tap(pad, rng.choice((6, 7)), "answer: true or false")
        else:  # FLIP: anyone reports the face-up card
            f.tap(1, rng.randrange(8), "flip")
    marks.empties()
    return {"kinds": f.kinds, "extra": f.extra}


def child_bid(marks: Marks, positions: int) -> dict:
    """Strong bids at positions of real games (played through push, so that each position
    has the game's revealed bids behind it, as at the table). ``bid``: its model warm, as in
    a running worker (the searches of the earlier positions remembered; filled here with
    stand-ins of the same shape: the fit's arithmetic is the same whatever the numbers).
    ``cold``: the first bid after a restart, which makes those searches again."""
    from pitable.rules.grasshopper import BIDDING, CHOOSING, HANDS, State
    from pitable.sim import search
    from pitable.sim.grasshopper import HeuristicBot, play
    from pitable.table.assistant import Assistant

    rng = random.Random(3)
    found, choosing = [], []
    for players in (2, 3, 4):
        final = play(players, [HeuristicBot(rng) for _ in range(players)], rng)
        replay = State(players)
        mine = []
        for move in final.moves:
            if replay.phase is BIDDING and len(HANDS[replay.spent[0]]) > 1:
                mine.append(replay.copy(history=True))
            elif replay.phase is CHOOSING and len(replay.choice_kinds) >= len(choosing[-1].choice_kinds
                                                                               if choosing else []):
                choosing.append(replay.copy(history=True))  # the richest choices: the costliest
            replay.push(move)
        # the opening (the slowest: the most cards in hand), then spread over the game
        step = max(1, len(mine) // max(1, positions // 3))
        found += mine[::step][:max(1, positions // 3)]
        last = mine[-1]
    assistant = Assistant((0,), "strong", worker="inline")
    bot = search._strong(assistant.seed, assistant.budget, ())

    def remember(state):
        for position, _ in search.public_bids(state):
            for seat in range(state.players):
                root = search.Node(position)
                root.total = [[1.0 + i for i in range(len(h))] for h in root.hands]
                search._EQUILIBRIA[bot._key(position, seat)] = root

    marks.empties()
    for state in found:
        seat = len(state.moves) % state.players
        assistant.players = (seat,)
        remember(state)
        marks.edge(["gap"])
        assistant.bid_now(state, seat)
        marks.edge(["bid", state.players])
    for state in choosing[-3:]:
        assistant.players = (state.chooser,)
        marks.edge(["gap"])
        assistant.choice_now(state, state.chooser)
        marks.edge(["choice", state.players])
    search._EQUILIBRIA.clear()
    marks.edge(["gap"])
    assistant.players = (0,)
    assistant.bid_now(last, 0)
    marks.edge(["cold", last.players])
    marks.empties()
    return {"budget": assistant.budget, "positions": len(found), "window": len(search.public_bids(last))}


def child_phone(marks: Marks, keys: int, sealed: bool = False) -> dict:
    """The server side: a real table loop on its thread with the web server, as
    benchmarks/web_common.py serves it; the parent is the phone (``sealed``: phones
    that scanned the QR, every key a sealed, numbered box)."""
    import threading

    from tests.web.conftest import SealedPhone, WebTable

    t = WebTable(Path(tempfile.mkdtemp(prefix="pitable-counts-")), pads=2)
    frame = threading.Event()
    t.loop.on_frame = lambda view: frame.set()
    t.press(1, 1)           # Cockroach Poker: the join screen, where a phone's key toggles its seat
    t.press(1, 0)
    t.press(2, 0)
    if sealed:
        phones = []
        for _ in range(3):
            t.press(1, 4)
            phones.append(SealedPhone(t, t.view().phone_qr))
            assert phones[-1].join() == 200
        # the first phone's session keys (the page keeps them in memory; here they cross to the parent)
        hello = {"port": t.port, "sid": phones[0].sid, "sent": phones[0].sent,
                 "keys": [k.hex() for k in phones[0].channel.keys()]}
    else:
        hello = {"port": t.port, "codes": [t.phone_join(1)[1] for _ in range(3)]}
    print(json.dumps(hello), flush=True)
    for line in sys.stdin:
        cmd = line.split()
        if cmd[0] == "edge":
            frame.clear()
            marks.edge(["gap"])
            print("ok", flush=True)
        elif cmd[0] == "wait":          # after the phone's POST was answered
            if cmd[1] == "frame":
                frame.wait(30)
            # then until the loop is idle (its frames drawn ahead, the pages published): a
            # callable queued behind them runs when they are done. Ending the count at the frame
            # itself would cut the loop's thread at a point that depends on thread timing.
            idle = threading.Event()
            t.loop.post(idle.set)
            idle.wait(30)
            marks.edge([cmd[2]])
            print("ok", flush=True)
        elif cmd[0] == "quit":
            break
    t.close()
    return {}


def run_child(name: str, args) -> None:
    _setup_path()
    # Threads hand over the GIL when they block, not when 5 ms of (valgrind-slowed) wall
    # clock pass: the counts must not depend on how fast the machine happened to be.
    sys.setswitchinterval(30.0)
    os.environ.setdefault("STATE_DIRECTORY", tempfile.mkdtemp(prefix="pitable-counts-"))
    marks = Marks(args.labels)
    quick = args.quick
    if name == "gh-physical":
        extra = child_grasshopper(marks, "physical", 50 if quick else 400)
    elif name == "gh-virtual":
        extra = child_grasshopper(marks, "virtual", 50 if quick else 400)
    elif name == "cockroach":
        extra = child_cockroach(marks, 25 if quick else 100)
    elif name == "bid":
        extra = child_bid(marks, 3 if quick else 9)
    elif name == "phone":
        extra = child_phone(marks, 0)
    elif name == "phone-sealed":
        extra = child_phone(marks, 0, sealed=True)
    else:
        raise SystemExit(f"unknown child {name}")
    marks.save(extra)


# Whole processes, as the console script starts them (python -c, no counts.py imports).
START = ("import os; os.getpgrp(); from pitable.cli import main; "
         "main(['run', '--config', {config!r}, '--exit-after-first-frame', '--new']); os.getpgrp()")
BARE = "import os; os.getpgrp(); import gpiozero, luma.oled.device, PIL.Image; os.getpgrp()"
IDLE = """
import logging, os, signal, threading, time
ready = threading.Event()
class Ready(logging.Handler):
    def emit(self, record):
        if record.getMessage().startswith("pitable running"):
            ready.set()
log = logging.getLogger("pitable")
log.setLevel(logging.INFO)
log.addHandler(Ready())
def idle():
    if not ready.wait(900):
        os._exit(3)
    time.sleep({settle})        # the first frame is drawn and shown meanwhile
    os.getpgrp()
    time.sleep({short})
    os.getpgrp()
    time.sleep({long})
    os.getpgrp()
    os.kill(os.getpid(), signal.SIGTERM)
threading.Thread(target=idle, daemon=True).start()
from pitable.cli import main
raise SystemExit(main(['run', '--config', {config!r}, '--new']))
"""


# --- the parent ----------------------------------------------------------------------------------

def callgrind(name: str, argv: list, workdir: Path, stdin=None, talk=None) -> list:
    """Run argv under callgrind; the instructions of each segment, in order."""
    out = workdir / f"{name}.cg"
    cmd = ["valgrind", "--tool=callgrind", "--dump-before=getpgrp", "--dump-instr=no",
           "--dump-line=no", "--compress-pos=no", f"--callgrind-out-file={out}"] + argv
    env = {**os.environ, "PYTHONHASHSEED": "0", "PYTHONPATH": str(ROOT),
           "STATE_DIRECTORY": tempfile.mkdtemp(prefix="pitable-counts-"), "PYTHONDONTWRITEBYTECODE": "1"}
    if talk is None:
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, cwd=ROOT)
        if done.returncode not in (0, -15):
            raise SystemExit(f"{name} failed under valgrind:\n{done.stderr[-3000:]}")
    else:
        proc = subprocess.Popen(cmd, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            talk(proc)
        finally:
            proc.stdin.close()
            proc.wait(300)
        if proc.returncode:
            raise SystemExit(f"{name} failed under valgrind:\n{proc.stderr.read()[-3000:]}")
    dumps = sorted(workdir.glob(f"{name}.cg.*"), key=lambda p: int(p.suffix[1:]))
    counts = []
    for path in dumps:
        counts.append(_summary(path))
        path.unlink()
    (workdir / f"{name}.cg").unlink(missing_ok=True)
    return counts


def _summary(path: Path) -> int:
    with open(path) as f:
        for line in f:
            if line.startswith("summary:") or line.startswith("totals:"):
                return int(line.split()[1])
    raise SystemExit(f"no summary in {path}")


def child_segments(name: str, workdir: Path, quick: bool, talk=None) -> tuple:
    labels = workdir / f"{name}.labels"
    argv = [sys.executable, str(Path(__file__).resolve()), "--child", name, "--labels", str(labels)]
    if quick:
        argv.append("--quick")
    counts = callgrind(name, argv, workdir, talk=talk)
    data = json.loads(labels.read_text())
    if len(counts) != len(data["labels"]):
        raise SystemExit(f"{name}: {len(counts)} dumps for {len(data['labels'])} edges: something else "
                         "calls getpgrp(); the counts cannot be trusted")
    return list(zip(data["labels"], counts)), data["extra"]


def overhead(segments) -> float:
    """The cost of an empty measurement (two edges in a row), subtracted from every figure."""
    empties = [c for label, c in segments if label == "empty"][1:]  # the first follows other work
    return statistics.median(empties)


def key_events(segments, extra) -> dict:
    """kind -> list of (to glass, drawn ahead after, press edge, bus bytes, transactions, logged)."""
    zero = overhead(segments)
    per_tap: dict = {}
    for label, count in segments:
        if isinstance(label, list) and len(label) == 2 and label[1] != "gap":
            per_tap.setdefault(str(label[0]), {})[label[1]] = count - zero
    out: dict = {}
    for tid, parts in per_tap.items():
        kind = extra["kinds"].get(tid)
        if kind in (None, "start"):
            continue
        nbytes, trans, logged = extra["extra"][tid]
        glass = parts.get("frame", parts.get("nothing", 0))
        out.setdefault(kind, []).append((glass, parts.get("after", 0), parts.get("press", 0), nbytes, trans, logged))
    return out


def phone_talk(keys: int, results: dict, sealed: bool = False):
    import socket

    def talk(proc):
        hello = json.loads(proc.stdout.readline())
        port = hello["port"]
        if sealed:
            from pitable.web.seal import Channel

            channel = Channel.of_keys(*(bytes.fromhex(k) for k in hello["keys"]), sent=hello["sent"])
            path = f"/x/{hello['sid']}/key"
        else:
            path = f"/s/{hello['codes'][0]}/key"
        s = socket.create_connection(("127.0.0.1", port))

        def say(line):
            proc.stdin.write(line + "\n")
            proc.stdin.flush()
            assert proc.stdout.readline().strip() == "ok"

        for _ in range(4):      # empty measurements: the same commands, no key
            say("edge")
            say("wait none empty")
        for i in range(keys):
            say("edge")
            key = 7 if i % 2 == 0 else 0  # leave, join again
            if sealed:
                box = channel.seal({"key": key, "action": "press"}, "key").decode()
                body = json.dumps({"box": box}).encode()
            else:
                body = b'{"key": %d, "action": "press"}' % key
            s.sendall((f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: "
                       f"application/json\r\nX-Pitable: 1\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body)
            answer = s.recv(4096)
            assert answer.startswith(b"HTTP/1.1 204"), answer[:60]
            say("wait frame key")
        s.close()
        proc.stdin.write("quit\n")
        proc.stdin.flush()
    return talk


SCENARIOS = ("idle", "gh-physical", "gh-virtual", "cockroach", "bid", "phone", "phone-sealed", "start", "bare")


def measure(args) -> dict:
    import compileall

    compileall.compile_dir(str(ROOT / "pitable"), quiet=1)  # as pip would have (start-up counts)
    workdir = Path(tempfile.mkdtemp(prefix="pitable-counts-"))
    quick = args.quick
    settle, short, long_ = (4.0, 0.5, 5.0) if quick else (6.0, 1.0, 61.0)
    jobs = {
        "idle": lambda: callgrind("idle", [sys.executable, "-c", IDLE.format(
            settle=settle, short=short, long=long_, config=str(MOCK_CONFIG))], workdir),
        "gh-physical": lambda: child_segments("gh-physical", workdir, quick),
        "gh-virtual": lambda: child_segments("gh-virtual", workdir, quick),
        "cockroach": lambda: child_segments("cockroach", workdir, quick),
        "bid": lambda: child_segments("bid", workdir, quick),
        "phone": lambda: child_segments("phone", workdir, quick, talk=phone_talk(6 if quick else 40, {})),
        "phone-sealed": lambda: child_segments("phone-sealed", workdir, quick,
                                               talk=phone_talk(6 if quick else 40, {}, sealed=True)),
        "start": lambda: callgrind("start", [sys.executable, "-c", START.format(config=str(MOCK_CONFIG))], workdir),
        "bare": lambda: callgrind("bare", [sys.executable, "-c", BARE], workdir),
    }
    if args.only:
        return {name: jobs[name]() for name in args.only.split(",")}
    t0 = time.monotonic()
    with ThreadPoolExecutor(args.jobs) as pool:
        futures = {name: pool.submit(job) for name, job in jobs.items()}
        raw = {name: f.result() for name, f in futures.items()}
    elapsed = time.monotonic() - t0
    shutil.rmtree(workdir, ignore_errors=True)

    rows = []   # (event, n, mean instr, max instr, extra ms lo, extra ms hi, budget ms or None, note)

    def key_rows(game, segs):
        segments, extra = segs
        for kind, evs in key_events(segments, extra).items():
            glass = [e[0] for e in evs]
            bus = statistics.fmean(bus_ms(e[3], e[4]) for e in evs)
            bus_max = max(bus_ms(e[3], e[4]) for e in evs)
            spi_max = max(spi_ms(e[3]) for e in evs)
            logged = sum(1 for e in evs if e[5])
            fs = FSYNC_MS if logged else (0.0, 0.0)
            if logged:
                kind += ", logged" if logged == len(evs) else f", {logged} of {len(evs)} logged"
            rows.append({"event": f"{game}: {kind}", "n": len(evs), "mean": statistics.fmean(glass),
                         "max": max(glass), "ahead": statistics.fmean(e[1] for e in evs),
                         "bus_ms": bus, "bus_max_ms": bus_max, "spi_max_ms": spi_max, "fsync": logged,
                         "plus_lo": bus + fs[0], "plus_hi": bus_max + fs[1], "budget": BUDGETS["key"]})

    key_rows("Grasshopper", raw["gh-physical"])
    vkinds = key_events(*raw["gh-virtual"])
    key_rows("Grasshopper, virtual deck", (raw["gh-virtual"][0], {
        "kinds": {k: (v if "virtual reveal" in (v or "") else None) for k, v in raw["gh-virtual"][1]["kinds"].items()},
        "extra": raw["gh-virtual"][1]["extra"]}))
    key_rows("Cockroach", raw["cockroach"])
    del vkinds

    segments, _ = raw["phone"]
    zero = statistics.median([c for label, c in segments if label == ["empty"]][1:])
    keys = [c - zero for label, c in segments if label == ["key"]]
    # the web table draws on luma's dummy display: its bus bytes are not counted, so the
    # bus time is bounded by a whole frame (what the first frame of a new screen sends)
    whole = bus_ms(WHOLE_FRAME, 9)
    rows.append({"event": "phone key via the web server (join screen; with the frames drawn ahead)", "n": len(keys),
                 "mean": statistics.fmean(keys), "max": max(keys), "ahead": None, "bus_ms": None,
                 "plus_lo": whole, "plus_hi": whole, "fsync": False, "whole_frame": True,
                 "spi_max_ms": spi_ms(WHOLE_FRAME),
                 "budget": BUDGETS["key"]})

    if "phone-sealed" in raw:   # the same key through the sealed channel (a phone that scanned the QR)
        segments, _ = raw["phone-sealed"]
        zero = statistics.median([c for label, c in segments if label == ["empty"]][1:])
        keys = [c - zero for label, c in segments if label == ["key"]]
        rows.append({"event": "phone key, sealed (secretbox open + sealed events back)", "n": len(keys),
                     "mean": statistics.fmean(keys), "max": max(keys), "ahead": None, "bus_ms": None,
                     "plus_lo": whole, "plus_hi": whole, "fsync": False, "whole_frame": True,
                     "spi_max_ms": spi_ms(WHOLE_FRAME), "budget": BUDGETS["key"]})

    segments, extra = raw["bid"]
    zero = overhead(segments)
    bids = [c - zero for label, c in segments if isinstance(label, list) and label[0] == "bid"]
    rows.append({"event": f"strong bid, budget {extra['budget']} ({extra['positions']} positions, 2-4 players)",
                 "n": len(bids), "mean": statistics.fmean(bids), "max": max(bids), "ahead": None,
                 "plus_lo": 0.0, "plus_hi": 0.0, "fsync": False, "budget": BUDGETS["bid"]})
    choices = [c - zero for label, c in segments if isinstance(label, list) and label[0] == "choice"]
    rows.append({"event": f"strong choice, budget {extra['budget']} (the {len(choices)} choices with the most kinds)",
                 "n": len(choices), "mean": statistics.fmean(choices), "max": max(choices), "ahead": None,
                 "plus_lo": 0.0, "plus_hi": 0.0, "fsync": False, "budget": BUDGETS["bid"]})
    cold = [c - zero for label, c in segments if isinstance(label, list) and label[0] == "cold"]
    rows.append({"event": f"strong bid after a restart (its model made again from {extra['window']} bids, 4 players)",
                 "n": len(cold), "mean": statistics.fmean(cold), "max": max(cold), "ahead": None,
                 "plus_lo": 0.0, "plus_hi": 0.0, "fsync": False, "budget": BUDGETS["cold"]})

    start, bare = raw["start"], raw["bare"]
    # start: [interpreter up, pitable run to first frame, exit]; bare: [interpreter, imports, exit]
    first = start[0] + start[1]
    rows.append({"event": "start-up to first frame (python -c ... pitable run)", "n": 1, "mean": first,
                 "max": first, "ahead": None, "plus_lo": bus_ms(WHOLE_FRAME, 9),
                 "plus_hi": bus_ms(WHOLE_FRAME, 9), "fsync": False, "whole_frame": True, "budget": BUDGETS["start"],
                 "parts": {"interpreter": start[0], "gpiozero+luma+Pillow imports": bare[1],
                           "pitable (config, imports, table, frame)": start[1] - bare[1]}})
    idle = raw["idle"]  # [start-up and settling, the short wait, the long wait] (shutdown not kept)
    idle_minute = (idle[2] - idle[1]) * 60.0 / (long_ - short)
    rows.append({"event": f"idle minute (daemon; {long_ - short:.0f} s minus {short:.0f} s)", "n": 1,
                 "mean": idle_minute, "max": idle_minute, "ahead": None, "plus_lo": 0.0, "plus_hi": 0.0,
                 "fsync": False, "budget": 0.0, "idle": (idle[1], idle[2])})
    return {"rows": rows, "seconds": elapsed, "python": sys.version.split()[0], "quick": quick, "jobs": args.jobs}


def fmt_count(n: float) -> str:
    if abs(n) >= 1e9:
        return f"{n / 1e9:.2f} G"
    if abs(n) >= 1e6:
        return f"{n / 1e6:.2f} M"
    if abs(n) >= 1e3:
        return f"{n / 1e3:.0f} k"
    return f"{n:.0f}"


def table(result: dict) -> str:
    lines = [f"instructions per event (callgrind, CPython {result['python']} on x86-64), and on a Pi Zero 2 W",
             f"model: CPU ms = instructions x ARM/x86 {ARM_RATIO[0]}-{ARM_RATIO[1]}"
             f" x build {BUILD_RATIO[0]}-{BUILD_RATIO[1]}"
             f" / (IPC {IPC[0]}-{IPC[1]} x 1 GHz); bus: 9 bit times a byte + 20 a transaction at 400 kHz;"
             f" SD fsync {FSYNC_MS[0]:.0f}-{FSYNC_MS[1]:.0f} ms (docs/performance.md)",
             "",
             "| event | n | instructions, mean | max | drawn ahead after | CPU ms (mean fast - max slow) "
             "| I2C ms (mean/max) "
             "| fsync ms | Pi Zero 2 W worst, ms | budget | verdict | worst on SPI, ms |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |"]
    for r in result["rows"]:
        lo, _ = zero_ms(r["mean"])
        _, hi = zero_ms(r["max"])
        cpu = f"{lo:.1f} - {hi:.1f}" if hi < 100 else f"{lo:.0f} - {hi:.0f}"
        b = r["budget"]
        bus = fs = ""
        if r.get("bus_ms") is not None:
            bus = f"{r['bus_ms']:.1f} / {r['bus_max_ms']:.1f}"
        elif r["plus_hi"]:
            bus = f"{r['plus_hi']:.1f}" + (" (a whole frame)" if r.get("whole_frame") else "")
        if r.get("fsync"):
            fs = f"{FSYNC_MS[0]:.0f}-{FSYNC_MS[1]:.0f}"
        # a logged key's fsync runs on a worker while the frame is drawn; the frame waits for both
        fs_hi = FSYNC_MS[1] if r.get("fsync") else 0.0
        bus_hi = r["bus_max_ms"] if r.get("bus_ms") is not None else r["plus_hi"]
        worst = max(hi, fs_hi) + bus_hi
        spi = f"{max(hi, fs_hi) + r['spi_max_ms']:.1f}" if r.get("spi_max_ms") is not None else ""
        if r["event"].startswith("idle"):
            # both waits cost only the edges' own ~2 k instructions: a difference under 1 k is none
            nothing = abs(r["mean"]) < 1000
            budget, verdict = "0 of our own", ("met" if nothing else "MISSED")
            cpu = "0" if nothing else f"{zero_ms(r['mean'])[1] / 600:.5f} % of a core"
            total = "0" if nothing else ""
            spi = ""
        else:
            budget = f"< {b / 1000:.0f} s" if b >= 1000 else f"< {b:.0f} ms"
            bus = r["plus_lo"] if r.get("bus_ms") is None else r["bus_ms"]
            best = max(lo, FSYNC_MS[0] if r.get("fsync") else 0.0) + bus
            verdict = "met" if worst < b else ("met on the mean, not the worst" if best < b else "MISSED")
            if worst >= b:
                verdict += f" (worst {worst / b:.1f}x)"
            total = f"{worst:.1f}" if worst < 100 else f"{worst:.0f}"
        ahead = fmt_count(r["ahead"]) if r.get("ahead") else ""
        lines.append(f"| {r['event']} | {r['n']} | {fmt_count(r['mean'])} | {fmt_count(r['max'])} | {ahead} | "
                     f"{cpu} | {bus} | {fs} | {total} | {budget} | {verdict} | {spi} |")
        for part, n in (r.get("parts") or {}).items():
            lo, hi = zero_ms(n)
            lines.append(f"|   of which {part} | | {fmt_count(n)} | | | {lo:.0f} - {hi:.0f} | | | | | | |")
    lines.append("")
    lines.append("(keys: from the release edge to the frame handed to the display driver, then its bytes on the bus; "
                 "'drawn ahead' is work after the frame, while nobody waits; a logged input's fsync runs while the "
                 "frame is drawn and the frame waits for it: max(CPU, fsync) + bus. Worst: the costliest event at "
                 f"the slow end of the model. SPI: the same at {SPI_HZ // 1_000_000} MHz)")
    lines.append(f"took {result['seconds']:.0f} s{' (--quick)' if result['quick'] else ''}"
                 f" with {result.get('jobs', 2)} processes under valgrind at once")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer events (a test's smoke run)")
    parser.add_argument("--jobs", type=int, default=2, help="processes under valgrind at once")
    parser.add_argument("--check", action="store_true", help="run twice; print the largest difference")
    parser.add_argument("--json", help="also write the figures here")
    parser.add_argument("--only", help="comma-separated scenarios (development): " + ",".join(SCENARIOS))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--labels", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        run_child(args.child, args)
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    result = measure(args)
    if args.only:  # development: each key scenario's events, by kind; then all as JSON (the last line)
        for name, raw in result.items():
            if name in ("gh-physical", "gh-virtual", "cockroach"):
                for kind, evs in key_events(*raw).items():
                    glass = [e[0] for e in evs]
                    print(f"{name}: {kind}: n {len(glass)}, mean {statistics.fmean(glass) / 1000:.0f} k, "
                          f"max {max(glass) / 1000:.0f} k instructions to glass")
        print(json.dumps(result, default=str)[:20000])
        return 0
    print(table(result), flush=True)
    if args.check:
        again = measure(args)
        diffs = [(abs(a["mean"] - b["mean"]) / max(1.0, abs(a["mean"])), a["event"])
                 for a, b in zip(result["rows"], again["rows"]) if not a["event"].startswith("idle")]
        for d, event in sorted(diffs, reverse=True)[:5]:
            print(f"  {d * 100:6.3f} %  {event}")
        worst = max(diffs)[0]
        print(f"run to run: largest difference of a mean {worst * 100:.3f} % "
              f"(idle minute {again['rows'][-1]['mean']:.0f} vs {result['rows'][-1]['mean']:.0f})")
    if args.json:
        Path(args.json).write_text(json.dumps(result, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
