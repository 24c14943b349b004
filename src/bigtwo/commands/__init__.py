"""Subcommands of the ``bigtwo`` command line, one module per part of bigtwo."""

from __future__ import annotations

import argparse


def bench_parser(
    sub: argparse._SubParsersAction[argparse.ArgumentParser],
) -> argparse._SubParsersAction[argparse.ArgumentParser]:
    """The subcommands of ``bench`` (``bigtwo bench WHAT``), which several command modules add
    to: made by whichever module registers first."""
    parser = sub.choices.get("bench")
    if parser is None:
        parser = sub.add_parser("bench", help="measure speed (engine, bots, server)")
        return parser.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action
    return parser.add_subparsers(dest="bench_command", metavar="WHAT", required=True)
