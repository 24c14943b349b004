"""``bigtwo play``: the terminal game (a Textual app); options pick the rules, seed and data.

Only parses options and starts :mod:`bigtwo.tui`; Textual is imported when the command runs,
not when the CLI is built, so other subcommands start fast.
"""

from __future__ import annotations

import argparse
import os
import sys

from . import bench_parser, print_figures, usage_error


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    play = sub.add_parser(
        "play",
        help="play Big Two in the terminal",
        description="Play Big Two in the terminal against computer players or friends (hot-seat).",
    )
    play.add_argument(
        "--rules", metavar="R", help="rule preset for new games (default: preferences)"
    )
    play.add_argument(
        "--seed", metavar="S", type=int, help="shuffle seed, to replay the same deals"
    )
    play.add_argument(
        "--db", metavar="PATH", help="data file (default: $BIGTWO_DB or the user data folder)"
    )
    play.add_argument(
        "--ascii", action="store_true", help="plain ASCII: suit letters, no box drawing"
    )
    play.add_argument(
        "--deals", metavar="N", type=int, help="deals per game (default: the rule set's)"
    )
    play.add_argument(
        "--server",
        metavar="URL",
        help="play at a game server (http://host:port): its lobby of open rooms opens",
    )
    play.add_argument(
        "--room", metavar="CODE", help="with --server: enter this room (a code or share link)"
    )
    play.add_argument("--watch", action="store_true", help="with --room: watch instead of playing")
    play.add_argument("--name", default="", help="your name at network tables")
    play.add_argument(
        "--export-dir",
        metavar="DIR",
        help="where the game history is exported (default: bigtwo in your documents folder, "
        "or $BIGTWO_EXPORT_DIR)",
    )
    play.set_defaults(run=_play)
    startup = bench_parser(sub).add_parser(
        "startup", help="the terminal game: wall time from start to a table that takes a key"
    )
    startup.add_argument("--runs", type=int, default=5, help="fresh starts to time (default 5)")
    startup.add_argument("--json", action="store_true")
    startup.set_defaults(run=_bench_startup)


def _bench_startup(args: argparse.Namespace) -> int:
    from ..tui.startup import bench_startup

    if args.runs < 1:
        return usage_error("bench startup", "--runs must be at least 1", sys.stdout)
    try:
        result = bench_startup(args.runs)
    except RuntimeError as exc:
        print(f"bigtwo bench startup: {exc}")
        return 1
    print_figures(result, args.json, width=22)
    return 0


def not_a_terminal() -> str | None:
    """Which of the game's standard streams is not a terminal ("standard output"), or None.

    The game reads keys from standard input and draws on standard output and standard error.
    Started without a terminal (``bigtwo play | tail``, from a script, with input from
    ``/dev/null``) it could never be played nor quit, and its input reader would spin on the
    endless end of input at full speed.
    """
    for name, stream in (
        ("standard input", sys.__stdin__),
        ("standard output", sys.__stdout__),
        ("standard error", sys.__stderr__),
    ):
        try:
            if stream is None or not os.isatty(stream.fileno()):
                return name
        except (OSError, ValueError):  # closed, or no file behind it
            return name
    return None


def _play(args: argparse.Namespace) -> int:
    from ..engine.rules import Rules

    server = args.server
    if args.room and server is None:
        if "://" not in args.room:
            return usage_error(
                "play", "--room needs --server URL, or a share link as the room", sys.stdout
            )
        from ..tui.netgame import room_of

        server = room_of(args.room)[0]
    if server is not None and not server.startswith(("http://", "https://")):
        return usage_error(
            "play", f"--server must be an http:// or https:// address, not {server!r}", sys.stdout
        )
    missing = not_a_terminal()
    if missing is not None:
        return usage_error(
            "play",
            f"the game needs a terminal to show the table and read your keys, and its {missing} "
            "is not one (a pipe, a file or /dev/null). Run it in a terminal window, without | or "
            "< or >.",
        )
    from ..tui import run

    if args.rules is not None:
        Rules.preset(args.rules)  # unknown presets are refused in words before the screen opens
    if args.deals is not None and args.deals < 1:
        return usage_error("play", "--deals must be at least 1", sys.stdout)
    return run(
        db_path=args.db,
        rules=args.rules,
        seed=args.seed,
        ascii_only=args.ascii,
        deals=args.deals,
        server=server,
        room=args.room,
        watch=args.watch,
        name=args.name,
        export_dir=args.export_dir,
    )
