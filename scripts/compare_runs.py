"""Two training runs side by side, evaluation by evaluation: a run and a branch of it (an A/B).

A branch starts from the run's checkpoint with one setting changed (``bigtwo train FOLDER
--resume --critic full`` in a copy of the run's folder) and keeps the run's seeds and its
evaluation boards, so the iterations where both evaluated are paired: the same boards, the
same number of deals trained. This prints, over the iterations both evaluated from ``--from``
on, each run's mean evaluation, the mean of the paired differences (B − A) and its 95%
interval (1.96 standard errors of the differences; successive evaluations of one run are not
independent, so read it as a guide), and the same per stretch of ``--stretch`` iterations.

``python scripts/compare_runs.py A/curves.csv B/curves.csv [--from 11288] [--stretch 400]``
"""

from __future__ import annotations

import argparse
import csv
import math
import statistics
import sys
from pathlib import Path


def evaluations(path: Path) -> dict[int, float]:
    """The run's evaluations: iteration → mean points a deal."""
    with path.open(newline="") as f:
        return {
            int(row["iteration"]): float(row["eval_points"])
            for row in csv.DictReader(f)
            if row.get("eval_points")
        }


def paired(a: dict[int, float], b: dict[int, float], start: int) -> list[tuple[int, float, float]]:
    return [(i, a[i], b[i]) for i in sorted(a.keys() & b.keys()) if i >= start]


def summary(rows: list[tuple[int, float, float]]) -> str:
    diffs = [y - x for _, x, y in rows]
    mean_a = statistics.fmean(x for _, x, _ in rows)
    mean_b = statistics.fmean(y for _, _, y in rows)
    mean_d = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs)) if len(diffs) > 1 else math.nan
    return (
        f"{rows[0][0]}–{rows[-1][0]}: {len(rows)} evaluations, A {mean_a:+.2f}, B {mean_b:+.2f}, "
        f"B − A {mean_d:+.2f} ({mean_d - half:+.2f} … {mean_d + half:+.2f})"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="the run's curves.csv")
    parser.add_argument("b", type=Path, help="the branch's curves.csv")
    parser.add_argument("--from", dest="start", type=int, default=0, help="first iteration")
    parser.add_argument("--stretch", type=int, default=0, help="iterations a stretch (0: none)")
    args = parser.parse_args(argv)
    try:
        rows = paired(evaluations(args.a), evaluations(args.b), args.start)
    except (OSError, KeyError, ValueError) as exc:
        print(f"compare_runs: cannot read the curves: {exc}", file=sys.stderr)
        return 2
    if not rows:
        print("compare_runs: the two runs share no evaluated iteration", file=sys.stderr)
        return 2
    print(summary(rows))
    if args.stretch:
        first = rows[0][0]
        groups: dict[int, list[tuple[int, float, float]]] = {}
        for row in rows:
            groups.setdefault((row[0] - first) // args.stretch, []).append(row)
        for group in groups.values():
            print("  " + summary(group))
    return 0


if __name__ == "__main__":
    sys.exit(main())
