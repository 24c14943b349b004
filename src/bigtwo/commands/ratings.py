"""``bigtwo ratings calibrate``: the computer levels' fixed ratings from seeded arena games
(:mod:`bigtwo.server.calibration`), written to the data file the server reads."""

from __future__ import annotations

import argparse
import shlex
import sys
from pathlib import Path

from ..engine.errors import BigTwoError
from ..server.calibration import calibrate, write_ratings
from ..server.ratings import DATA_FILE, FAMILIES, shown


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ratings = sub.add_parser("ratings", help="the computer levels' fixed ratings")
    ratings_sub = ratings.add_subparsers(dest="ratings_command", metavar="ACTION")
    cal = ratings_sub.add_parser(
        "calibrate",
        help="rate the computer levels by seeded arena games between them",
        description="Play seeded arena games between the computer levels of each family of "
        "rules (four levels a game, one duplicate board under each 4-player preset in turn), "
        "rate them with the OpenSkill model players are rated by, and write the levels' "
        "fixed ratings to the file the server reads.",
    )
    cal.add_argument(
        "--family",
        choices=sorted(FAMILIES),
        action="append",
        help="a family of rules to calibrate (repeatable; default both)",
    )
    cal.add_argument("--games", type=int, default=40, help="games per family (default 40)")
    cal.add_argument("--seed", type=int, default=1, help="the run's seed (default 1)")
    cal.add_argument(
        "--levels", default="", help="comma-separated levels (default every level of the family)"
    )
    cal.add_argument(
        "--out", type=Path, default=DATA_FILE, help=f"the file written (default {DATA_FILE.name})"
    )
    cal.add_argument("--quiet", action="store_true", help="no progress")
    cal.set_defaults(run=_calibrate)
    ratings.set_defaults(run=lambda _args: ratings.print_help())


def _calibrate(args: argparse.Namespace) -> int:
    families = args.family or list(FAMILIES)
    levels = [level.strip() for level in args.levels.split(",") if level.strip()] or None
    done = []
    for family in families:

        def progress(game: int, family: str = family) -> None:
            if not args.quiet and sys.stdout.isatty():
                print(f"\r{FAMILIES[family]}: game {game} of {args.games}", end="", flush=True)

        done.append(calibrate(family, args.games, args.seed, levels, progress))
        if not args.quiet and sys.stdout.isatty():
            print()
    command = shlex.join(
        ["bigtwo", "ratings", "calibrate", "--games", str(args.games), "--seed", str(args.seed)]
        + [a for f in families for a in ("--family", f)]
        + (["--levels", ",".join(levels)] if levels else [])
    )
    try:
        write_ratings(done, command, args.out)
    except OSError as exc:
        raise BigTwoError(f"Cannot write {args.out}: {exc.strerror or exc}") from exc
    for c in done:
        print(f"{FAMILIES[c.family]} ({len(c.games)} games, seed {c.seed}):")
        for level, (mu, sigma) in sorted(c.ratings.items(), key=lambda r: -r[1][0]):
            print(
                f"  {level:<16} mu {mu:6.2f}  sigma {sigma:5.2f}  shown {shown(mu, sigma):5d}"
                f"  games {c.played(level)}"
            )
    print(f"Written to {args.out}")
    return 0
