"""The ``bigtwo`` command: one subcommand per job, each defined in ``bigtwo.commands.*``.

This module only wires subcommands together and turns every :class:`BigTwoError` (and any
other failure a user could cause) into a message in words and an exit status: no user ever
sees a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

from . import __version__
from .engine.errors import BigTwoError

# Each module has ``register(subparsers)`` adding its subcommands with ``set_defaults(run=...)``.
COMMAND_MODULES = (
    "engine",
    "play",
    "match",
    "bots",
    "server",
    "learn",
    "review",
    "login",
    "ratings",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="bigtwo",
        description="Big Two (Choi Dai Di, Pusoy Dos): play, simulate, serve and measure.",
    )
    parser.add_argument("--version", action="version", version=f"bigtwo {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(f"bigtwo.commands.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"bigtwo.commands.{name}":
                continue  # that part of bigtwo is not installed in this build
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    run = getattr(args, "run", None)
    if run is None:
        parser.print_help()
        return 0
    try:
        return int(run(args) or 0)
    except BigTwoError as exc:
        print(f"bigtwo: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("bigtwo: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:
        print(f"bigtwo: {exc.strerror or exc}: {exc.filename or ''}".rstrip(": "), file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
