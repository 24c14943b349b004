"""Subcommands of the ``bigtwo`` command line, one module per part of bigtwo."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, TextIO

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from ..engine.rules import preset_names
from ..match.settings import RuleSet


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


def usage_error(command: str, words: str, out: TextIO | None = None) -> int:
    """Say why ``bigtwo COMMAND`` will not run, on standard error (or ``out``); the exit
    status that goes with it."""
    print(f"bigtwo {command}: {words}", file=out or sys.stderr)
    return 2


def print_figures(result: dict[str, Any], as_json: bool, width: int | None = None) -> None:
    """A bench's figures: one JSON line, or a name and a value a line (the names right-aligned
    to ``width``, by default the longest name's)."""
    if as_json:
        print(json.dumps(result))
        return
    width = max(map(len, result), default=0) if width is None else width
    for key, value in result.items():
        print(f"{key:>{width}}: {value}")


def rules_of(text: str) -> RuleSet:
    """The rules a ``--rules`` option names: a preset, else a TOML rules file."""
    if text in preset_names():
        return RuleSet.preset(text)
    if text.endswith(".toml") or os.sep in text or Path(text).exists():
        return RuleSet.from_file(text)
    return RuleSet.preset(text)  # raises, listing the presets


def progress_bar(what: str, unit: str, *, disable: bool, remaining: bool = False) -> Progress:
    """A bar of ``what`` done, counted in ``unit``, with the time taken (``remaining``: and the
    time left), on standard error so that ``--json`` output on standard output stays clean;
    it is gone once done."""
    columns: list[ProgressColumn] = [
        TextColumn(f"[bold]{what}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(unit),
        TimeElapsedColumn(),
    ]
    if remaining:
        columns += [TextColumn("left"), TimeRemainingColumn()]
    return Progress(*columns, console=Console(stderr=True), transient=True, disable=disable)
