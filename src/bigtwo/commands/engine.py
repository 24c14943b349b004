"""``bigtwo rules`` (list and show rule sets), ``bigtwo bench engine`` and ``bigtwo bench
revolution`` (the expansion's fuzz run)."""

from __future__ import annotations

import argparse
import json

from rich.console import Console
from rich.table import Table

from ..engine.rules import Rules, expansion_preset_names, preset_names
from ..match.settings import RuleSet
from . import bench_parser


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
        print("bigtwo rules show: name a preset or give --file FILE")
        return 2
    print(rules.describe())
    return 0


def _bench_revolution(args: argparse.Namespace) -> int:
    from ..bench import bench_revolution

    if args.deals < 1:
        print("bigtwo bench revolution: --deals must be at least 1")
        return 2
    if args.bots:
        from ..bench import bench_revolution_bots

        levels = [name.strip() for name in args.bots.split(",") if name.strip()]
        if len(levels) not in (2, 3, 4):
            print("bigtwo bench revolution: --bots names 2 to 4 levels, one a seat")
            return 2
        result = bench_revolution_bots(levels, args.deals, seed=args.seed)
    else:
        result = bench_revolution(args.deals, seed=args.seed, players=args.players)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
    return 1 if result["violations"] else 0


def _bench_engine(args: argparse.Namespace) -> int:
    from ..bench import bench_engine

    if args.games < 1:
        print("bigtwo bench engine: --games must be at least 1")
        return 2
    result = bench_engine(args.games, seed=args.seed, rules_name=args.rules)
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>24}: {value}")
    return 0
