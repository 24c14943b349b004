"""``bigtwo arena`` (computer players against each other, in numbers) and ``bigtwo bots``.

``register(subparsers)`` adds the subcommands; the work is done by :mod:`bigtwo.arena`. The
progress bar goes to stderr so that ``--json`` output on stdout stays clean.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from rich.console import Console
from rich.table import Table

from ..engine.errors import BigTwoError
from . import progress_bar, rules_of

if TYPE_CHECKING:
    from ..arena import ArenaResult


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    arena = sub.add_parser(
        "arena",
        help="play computer players against each other and report the results",
        description=(
            "Play many deals between computer players. Each lineup entry keeps its seat; in "
            "duplicate mode every deal is replayed with the hands rotated through the seats, "
            "so --deals N plays N / players boards (rounded up to whole boards)."
        ),
    )
    arena.add_argument("--rules", default="palm", help="a preset name or a TOML rules file")
    arena.add_argument(
        "--seats",
        required=True,
        help="one computer player per seat, comma-separated (e.g. expert,ppo2018,ppo2018,ppo2018)",
    )
    arena.add_argument("--deals", type=int, default=100, help="deals to play (default 100)")
    arena.add_argument(
        "--duplicate", action="store_true", help="replay each deal with hands rotated"
    )
    arena.add_argument("--workers", type=int, default=1, help="processes (default 1)")
    arena.add_argument("--seed", type=int, default=1)
    arena.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="run workers as local processes (default) or on Ray (optional extra)",
    )
    arena.add_argument("--json", action="store_true", help="print the results as JSON")
    arena.add_argument(
        "--checkpoint",
        metavar="FILE",
        help="write the figures and the records of the boards played so far to FILE (JSON) "
        "after each board",
    )
    arena.add_argument(
        "--resume",
        action="store_true",
        help="go on with the run whose --checkpoint FILE holds its boards so far (the same "
        "rules, seats, seed and duplicate mode; --deals may grow)",
    )
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run=_arena)

    bots = sub.add_parser("bots", help="list the computer players")
    bots.set_defaults(run=_bots)


def _arena(args: argparse.Namespace) -> int:
    from ..arena import read_checkpoint, run_arena

    rules = rules_of(args.rules)
    lineup = [name.strip() for name in args.seats.split(",") if name.strip()]
    if args.workers < 1:
        raise BigTwoError("--workers must be at least 1")
    resume = None
    if args.resume:
        if not args.checkpoint:
            raise BigTwoError("--resume needs --checkpoint FILE, the file that holds the run")
        resume = read_checkpoint(Path(args.checkpoint), rules, lineup, args.seed, args.duplicate)
    players = max(1, len(lineup))
    total = -(-args.deals // players) * players if args.duplicate else args.deals
    progress = progress_bar("arena", "deals", disable=args.quiet, remaining=True)
    with progress:
        task = progress.add_task("deals", total=total)
        result = run_arena(
            rules,
            lineup,
            deals=args.deals,
            duplicate=args.duplicate,
            workers=args.workers,
            seed=args.seed,
            backend=args.backend,
            on_board=lambda done: progress.update(task, completed=done),
            on_result=_checkpoint(args.checkpoint) if args.checkpoint else None,
            resume=resume,
        )
    data = result.to_json()
    if args.json:
        print(json.dumps(data))
        return 0
    table = Table(
        title=(
            f"{data['deals']} deals of {data['rules']}"
            f"{' (duplicate)' if data['duplicate'] else ''} in {data['seconds']} s"
        )
    )
    for column in (
        "seat",
        "bot",
        "points/deal",
        "95% CI",
        "margin (95% CI)",
        "wins",
        "cards left",
        "ms median",
        "ms p99",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for seat, bot in enumerate(data["bots"]):
        low, high = bot["ci95"]
        table.add_row(
            str(seat),
            bot["name"],
            f"{bot['mean_points']:+.2f}",
            f"[{low:+.2f}, {high:+.2f}]",
            f"{bot['margin']:+.2f} [{bot['margin_ci95'][0]:+.2f}, {bot['margin_ci95'][1]:+.2f}]",
            f"{bot['win_rate']:.1%}",
            f"{bot['mean_cards_left']:.2f}",
            f"{bot['decision_ms_median']:.2f}",
            f"{bot['decision_ms_p99']:.2f}",
        )
    console = Console()
    console.print(table)
    if "functions_per_deal" in data:
        console.print(
            f"Functions used: {data['functions_per_deal']:.2f} a deal; "
            f"ended by exhaustion: {data['ended_by_exhaustion']:.1%} of the deals"
        )
    return 0


def _checkpoint(path: str) -> Callable[[ArenaResult], None]:
    """Write a run's figures and records so far to ``path`` after each board, replacing the
    file whole (``--resume`` reads it back)."""
    from ..arena import checkpoint_json

    target = Path(path)

    def write(result: ArenaResult) -> None:
        partial = target.with_name(target.name + ".part")
        partial.write_text(json.dumps(checkpoint_json(result)) + "\n", encoding="utf-8")
        partial.replace(target)

    return write


def _bots(args: argparse.Namespace) -> int:
    from ..bots import bot_names, make_bot
    from ..bots.levels import LEVELS, level_says

    print(f"{'Level':16} {'Name':16} What it does")
    for code in bot_names():
        level = LEVELS.get(code)
        name = level.name if level is not None else ""
        try:
            make_bot(code)
        except BigTwoError as exc:
            print(f"{code:16} {name:16} (not available here: {exc})")
            continue
        says = level_says(code) or "A computer player."
        print(f"{code:16} {name:16} {says}")
    return 0
