"""The pitable command: run, replay, simulate, check-config, doctor, wiring, pads.

Errors people can make (a bad log, a bad config) end with one clear line and a
non-zero status, never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from pitable import __version__
from pitable.errors import ConfigError, LogError, PitableError


def main(argv: list[str] | None = None) -> int:
    try:
        try:
            return _main(argv)
        finally:
            # here, not at exit: a closed pipe is seen while we can still say nothing; in a
            # finally, because argparse's --help and --version leave by SystemExit with their
            # text still in stdout's buffer (a pipe's stdout is block-buffered)
            sys.stdout.flush()
    except BrokenPipeError:
        return _closed_pipe()


def _closed_pipe() -> int:
    """The reader went away (`pitable replay --json FILE | head`): stop quietly, as a
    program killed by SIGPIPE would. Python's exit would flush stdout again and print an
    "Exception ignored" traceback, so stdout now points at /dev/null."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
    return 128 + 13  # the shell's status for SIGPIPE


def _main(argv: list[str] | None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["league"]:  # its options are the league's own (league/run.py)
        args = argparse.Namespace(command="league", func=cmd_league, rest=argv[1:])
    else:
        args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 2
    try:
        return args.func(args)
    except BrokenPipeError:
        raise
    except ConfigError as e:
        for line in str(e).splitlines():   # one line per error of the file
            print(f"pitable: {line}", file=sys.stderr)
        return 2
    except LogError as e:
        print(f"pitable: {e}", file=sys.stderr)
        return 1
    except PitableError as e:
        print(f"pitable: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130


def build_parser() -> argparse.ArgumentParser:
    from pitable.rules.games import NAMES

    parser = argparse.ArgumentParser(prog="pitable", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"pitable {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("run", help="run the table assistant (on a laptop: a window or the terminal, keyboard as pads)")
    p.add_argument("--config", "-c", metavar="FILE", help="YAML config (default: /etc/pitable/pitable.yaml on a Pi, "
                                                           "the packaged desktop config elsewhere)")
    p.add_argument("--display", metavar="NAME", help="override display.display (e.g. terminal, pygame, capture)")
    p.add_argument("--new", action="store_true", help="start a new game even if an unfinished one can be resumed")
    p.add_argument("--log-level", metavar="LEVEL",
                   help="debug, info (the default), warning or error; else PITABLE_LOG_LEVEL")
    # For benchmarks/startup.py: the whole start-up path, then exit once the first frame is out.
    p.add_argument("--exit-after-first-frame", action="store_true", help=argparse.SUPPRESS)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("replay", help="apply a game log and print the state")
    p.add_argument("file", metavar="FILE", help="a game log (JSON Lines); - for standard input")
    p.add_argument("--json", action="store_true", help="print the public state as one JSON object")
    p.add_argument("--check-assistant", action="store_true",
                   help="make the assistant's logged bids and choices again from its seed and compare")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("simulate", help="play many games with bots and print statistics")
    p.add_argument("--game", choices=NAMES, default=NAMES[0])
    p.add_argument("--games", type=int, default=1000, metavar="N")
    p.add_argument("--players", type=int, default=4, metavar="P")
    p.add_argument("--seed", type=int, default=1, metavar="S")
    p.add_argument("--bots", default="heuristic", metavar="B[,B...]",
                   help="bot per seat, comma-separated (random, heuristic; Grasshopper Poker also strong, "
                        "the assistant's search player); one name is used for every seat")
    p.add_argument("--budget", type=int, metavar="N",
                   help="the strong player's playouts per bid (default: the table's default)")
    p.add_argument("--jobs", type=int, default=1, metavar="J",
                   help="processes to play the games on (the statistics do not depend on it)")
    p.add_argument("--option", action="append", default=[], metavar="NAME",
                   help="turn a rule option on (beginner, x_takes_cancelled_ace, end_on_empty_pile)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("check-config", help="check a YAML config and say what is wrong")
    p.add_argument("file", metavar="FILE")
    p.set_defaults(func=cmd_check_config)

    p = sub.add_parser("doctor", help="check what usually goes wrong on a Pi")
    p.add_argument("--config", "-c", metavar="FILE")
    p.set_defaults(func=cmd_doctor)

    p = sub.add_parser("wiring", help="which header pin does what, the parts to buy, and a picture")
    p.add_argument("--config", "-c", metavar="FILE", help="YAML config (default: as for run)")
    p.add_argument("--picture", metavar="OUT",
                   help="also draw the header, the wires and the pads to OUT (.png or .svg)")
    p.add_argument("--markdown", action="store_true", help="print the pads' tables as Markdown (for the README)")
    p.add_argument("--checklist", action="store_true",
                   help="print the checks before first power: continuity, voltages, then pitable pads")
    p.set_defaults(func=cmd_wiring)

    p = sub.add_parser("pads", help="wiring test: show which seat and key is pressed")
    p.add_argument("--config", "-c", metavar="FILE")
    p.set_defaults(func=cmd_pads)

    p = sub.add_parser("league", add_help=False,
                       help="a seeded round-robin of Grasshopper Poker bots with ratings "
                            "(the repository's league/; --help for options)")
    p.add_argument("rest", nargs=argparse.REMAINDER)
    p.set_defaults(func=cmd_league)
    return parser


def cmd_league(args) -> int:
    """The league is a benchmark kept beside the package (league/), never installed on a Pi."""
    import importlib.util
    from pathlib import Path

    folder = Path(__file__).resolve().parent.parent / "league"
    if (folder / "run.py").is_file() and "league" not in sys.modules:
        # the clone's league/ by its path: the clone's other folders (tests, benchmarks)
        # do not become importable, as a sys.path entry for its root would make them
        spec = importlib.util.spec_from_file_location("league", folder / "__init__.py",
                                                      submodule_search_locations=[str(folder)])
        if spec is not None and spec.loader is not None:
            sys.modules["league"] = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(sys.modules["league"])
    try:
        import openskill  # noqa: F401 - the league's rating package (the test extra)
        from league.run import main as league_main
    except ImportError as e:
        raise PitableError(f"the league needs the repository's league/ folder and the test extra "
                           f"(pip install -e '.[test]'): {e}") from None
    return league_main(args.rest)


# -- replay -----------------------------------------------------------------------------

def cmd_replay(args) -> int:
    from pitable.rules.log import replay

    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise LogError(f"{args.file}: cannot read: {e.strerror}") from None
    except UnicodeDecodeError:
        raise LogError(f"{args.file}: not a text file") from None
    state, log = replay(text)
    for warning in log.warnings:
        print(f"pitable: warning: {args.file}: {warning}", file=sys.stderr)
    from pitable.rules.log import by_seat, seats_of

    seats = seats_of(log.header, state.players)  # a phone at seat 5 is seat 5 here too
    if args.json:
        print(json.dumps(by_seat(state.to_json(), seats)))
    else:
        from pitable.table.games import table_game

        print(table_game(log.header["game"]).describe(by_seat(state.to_json(), seats)))
    if args.check_assistant:
        if not log.header.get("assistant"):  # absent, or empty: the header check lets both through
            raise LogError(f"{args.file}: the assistant did not play in this game")
        from pitable.table.assistant import check_log

        bids, choices, difference = check_log(log.header, state.moves)
        if difference:
            print(f"pitable: {args.file}: assistant: {difference}", file=sys.stderr)
            return 1
        print(f"assistant: {bids} bids and {choices} choices made again from its seed: all the same",
              file=sys.stderr)
    return 0


# -- simulate ---------------------------------------------------------------------------

def cmd_simulate(args) -> int:
    if args.games < 1:
        raise PitableError("--games must be at least 1")
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) == 1:
        bots = bots * args.players
    if len(bots) != args.players:
        raise PitableError(f"--bots names {len(bots)} bots for {args.players} players")
    from pitable.rules.games import game

    spec = game(args.game)
    if not spec.seats_ok(args.players):
        raise PitableError(f"{spec.title} is for {spec.min_players} to {spec.max_players} players")
    if args.option and not spec.options:
        raise PitableError(f"{spec.title} has no rule options")
    import importlib

    from pitable.table.games import table_game

    sim = importlib.import_module(table_game(spec.name).simulation)  # simulate, format_stats, BOT_NAMES
    known = sim.BOT_NAMES
    kwargs = {}
    if spec.options:  # the rule options, the strong player's budget and the processes
        try:
            options = spec.rules.Options.from_dict({name: True for name in args.option})
        except PitableError as e:
            raise PitableError(f"--option: {e}") from None
        kwargs = {"options": options, "budget": args.budget, "jobs": args.jobs}
    unknown = [b for b in bots if b not in known]
    if unknown:
        raise PitableError(f"unknown bot {unknown[0]!r} (bots: {', '.join(known)})")
    if args.budget is not None and args.budget < 1:
        raise PitableError("--budget must be at least 1 playout")
    if args.jobs < 1:
        raise PitableError("--jobs must be at least 1")
    stats = sim.simulate(args.games, args.players, args.seed, bots, **kwargs)
    print(json.dumps(stats, indent=2) if args.json else sim.format_stats(stats))
    return 0


# -- configuration and hardware ------------------------------------------------------------

def cmd_check_config(args) -> int:
    from pitable.config import check_config_main

    return check_config_main(args.file)


def cmd_run(args) -> int:
    from pitable.daemon import run

    return run(args)


def cmd_doctor(args) -> int:
    from pitable.service.doctor import doctor

    return doctor(args.config)


def cmd_wiring(args) -> int:
    from pitable.config import pin_warnings
    from pitable.hardware.wiring import wiring_of
    from pitable.hardware.wiring_text import as_markdown, as_text
    from pitable.host import choose_config

    if args.picture and not args.picture.lower().endswith((".png", ".svg")):
        raise PitableError(f"--picture {args.picture}: the name must end in .png or .svg")
    config, source = choose_config(args.config)
    wiring = wiring_of(config)
    if getattr(args, "checklist", False):
        from pitable.hardware.wiring_text import as_checklist

        print(as_checklist(wiring, source), end="")
        return 0
    print(as_markdown(wiring, source) if args.markdown else as_text(wiring, source), end="")
    for line in pin_warnings(config, source):
        print(line, file=sys.stderr)
    if args.picture:
        from pitable.hardware.wiring_build import save_picture

        try:
            written = save_picture(wiring, args.picture, title=source)
        except OSError as e:
            raise PitableError(f"--picture {args.picture}: cannot write: {e.strerror or e}") from None
        print(f"picture: {args.picture}", file=sys.stderr if args.markdown else sys.stdout)
        for extra in written[1:]:
            print(f"picture: {extra}", file=sys.stderr if args.markdown else sys.stdout)
    return 0


def cmd_pads(args) -> int:
    from pitable.pads_test import pads_test

    return pads_test(args)


if __name__ == "__main__":
    raise SystemExit(main())
