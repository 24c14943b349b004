"""``bigtwo rules`` (list and show rule sets), ``bigtwo bench engine`` and ``bigtwo bench
revolution`` (the expansion's fuzz run)."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from rich.console import Console
from rich.table import Table

from ..engine.rules import Rules, expansion_preset_names, preset_names
from ..match.settings import RuleSet
from . import bench_parser, print_figures, usage_error


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    rules = sub.add_parser("rules", help="list the rule presets, or show one's options")
    rules_sub = rules.add_subparsers(dest="rules_command", metavar="show")
    show = rules_sub.add_parser("show", help="print every option of a preset or a rules file")
    show.add_argument("name", nargs="?", help="preset name")
    show.add_argument("--file", help="a TOML house-rules file")
    show.set_defaults(run=_rules_show)
    rules.set_defaults(run=_rules_list)

    bench_sub = bench_parser(sub)
    engine = bench_sub.add_parser("engine", help="random games and legal-play enumeration")
    engine.add_argument("--games", type=int, default=3000)
    engine.add_argument("--rules", default="palm")
    engine.add_argument("--seed", type=int, default=1)
    engine.add_argument("--json", action="store_true")
    engine.set_defaults(run=_bench_engine)

    revolution = bench_sub.add_parser(
        "revolution", help="fuzz Big 2 RevolutioN: random hands, invariants checked throughout"
    )
    revolution.add_argument("--deals", type=int, default=1000)
    revolution.add_argument("--players", type=int, default=4, choices=(2, 3, 4))
    revolution.add_argument("--seed", type=int, default=1)
    revolution.add_argument(
        "--workers", type=int, default=1, help="processes for the random hands (default 1)"
    )
    revolution.add_argument(
        "--bots",
        metavar="LEVELS",
        help="computer players, one a seat (e.g. greedy,greedy,random,random), instead of "
        "random actions",
    )
    revolution.add_argument("--json", action="store_true")
    revolution.set_defaults(run=_bench_revolution)


def _rules_list(args: argparse.Namespace) -> int:
    table = Table(title="Rule presets")
    table.add_column("name")
    table.add_column("players")
    table.add_column("source")
    for name in preset_names() + expansion_preset_names():
        r = Rules.preset(name)
        table.add_row(name, ", ".join(str(p) for p in r.players), r.source)
    Console().print(table)
    return 0


def _rules_show(args: argparse.Namespace) -> int:
    # Every option a rules file holds: the rules of play and the match's settings.
    if args.file:
        rules = RuleSet.from_file(args.file)
    elif args.name:
        rules = RuleSet.preset(args.name)
    else:
        return usage_error("rules show", "name a preset or give --file FILE", sys.stdout)
    print(rules.to_toml(), end="")
    return 0


def _bench_revolution(args: argparse.Namespace) -> int:
    from ..bench import bench_revolution

    if args.deals < 1:
        return usage_error("bench revolution", "--deals must be at least 1", sys.stdout)
    if args.bots:
        from ..bench import bench_revolution_bots

        levels = [name.strip() for name in args.bots.split(",") if name.strip()]
        if len(levels) not in (2, 3, 4):
            return usage_error(
                "bench revolution", "--bots names 2 to 4 levels, one a seat", sys.stdout
            )
        result = bench_revolution_bots(levels, args.deals, seed=args.seed)
    else:
        if args.workers < 1:
            return usage_error("bench revolution", "--workers must be at least 1", sys.stdout)
        result = bench_revolution(
            args.deals, seed=args.seed, players=args.players, workers=args.workers
        )
    if args.json:
        print(json.dumps(result))
    elif args.bots:
        _print_revolution_bots(result)
    else:
        _print_revolution_fuzz(result)
    return 1 if result["violations"] else 0


def _print_revolution_fuzz(result: dict[str, Any]) -> None:
    """The fuzz run as tables: its figures, then how often each move and function came up,
    then the first violations (if any)."""
    deals = result["deals"]
    figures = Table(
        title=f"{deals:,} random hands, {result['players']} players, {result['seconds']} s"
        + (f", {result['workers']} processes" if result["workers"] > 1 else "")
    )
    figures.add_column("figure")
    figures.add_column("value", justify="right")
    violations = result["violations"]
    figures.add_row("invariant violations", f"[{'red' if violations else 'green'}]{violations}")
    figures.add_row("hands per second", f"{result['deals_per_second']:,}")
    figures.add_row("actions per second", f"{result['actions_per_second']:,}")
    figures.add_row("functions per hand", f"{result['functions_per_deal']}")
    figures.add_row("ended by exhaustion", f"{result['ended_by_exhaustion']:.1%}")
    counts = Table(title="Moves")
    counts.add_column("move")
    counts.add_column("times", justify="right")
    counts.add_column("per hand", justify="right")
    for move, times in result["moves"].items():
        counts.add_row(move, f"{times:,}", f"{times / deals:.2f}")
        if move == "activate":
            for function, used in sorted(result["functions"].items()):
                counts.add_row(f"  {function}", f"{used:,}", f"{used / deals:.2f}")
    console = Console()
    console.print(figures)
    console.print(counts)
    for line in result["first_violations"]:
        console.print(line, style="red", markup=False, highlight=False)


def _print_revolution_bots(result: dict[str, Any]) -> None:
    """The computer players' hands as tables: each level's points and wins, then what the
    hands held."""
    levels = result["levels"]
    seats = Table(title=f"{result['deals']:,} hands, seats rotating, {result['seconds']} s")
    seats.add_column("level")
    seats.add_column("seats", justify="right")
    seats.add_column("points a seat a hand", justify="right")
    seats.add_column("hands won a seat", justify="right")
    for level, points in result["mean_points_per_seat"].items():
        won = result["win_share_per_seat"][level]
        seats.add_row(level, str(levels.count(level)), f"{points:+.2f}", f"{won:.1%}")
    figures = Table(title="What the hands held")
    figures.add_column("figure")
    figures.add_column("per hand", justify="right")
    figures.add_row("functions", f"{result['functions_per_deal']:.2f}")
    for function, per_hand in result["by_function_per_deal"].items():
        figures.add_row(f"  {function}", f"{per_hand:.2f}")
    figures.add_row("counters", f"{result['counters_per_deal']:.2f}")
    figures.add_row("draws", f"{result['draws_per_deal']:.2f}")
    figures.add_row("ended by exhaustion", f"{result['ended_by_exhaustion']:.1%}")
    violations = result["violations"]
    figures.add_row("hands with a violation", f"[{'red' if violations else 'green'}]{violations}")
    console = Console()
    console.print(seats)
    console.print(figures)


def _bench_engine(args: argparse.Namespace) -> int:
    from ..bench import bench_engine

    if args.games < 1:
        return usage_error("bench engine", "--games must be at least 1", sys.stdout)
    result = bench_engine(args.games, seed=args.seed, rules_name=args.rules)
    print_figures(result, args.json, width=24)
    return 0
