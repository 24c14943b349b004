"""Two arena runs on the same boards, compared board by board.

Two checkpoints of ``bigtwo arena … --duplicate --seed S --checkpoint FILE`` with the same
seed and rules dealt the same boards, so each board's result of one lineup can be paired with
the other's. This prints, over the boards both have played, each run's mean points a deal of
the lineup's first player (``--player`` another), and the mean of the differences (B − A) a
deal with its 95% interval: the unit of the interval is the board (its deals are played from
the same hands, so they are not independent of each other):

    python scripts/compare_arenas.py docs/runs/network-it10840-ppo2018.json \\
        docs/runs/safe-it10840-ppo2018.json
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from pathlib import Path

from bigtwo.arena import BoardDeal


def board_means(path: Path, player: int) -> tuple[dict[int, float], str, object]:
    """Each played board's mean points a deal of the lineup's ``player``, the player's name and
    the run's seed; ``ValueError`` in words if the file is no arena checkpoint."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        lineup = data["lineup"]
        played = {
            int(board): [BoardDeal.from_json(d) for d in deals]
            for board, deals in data["played"].items()
        }
        means = {
            board: statistics.fmean(deal.points[player] for deal in deals)
            for board, deals in played.items()
            if deals
        }
        return means, str(lineup[player]), data.get("seed")
    except (KeyError, TypeError, IndexError, AttributeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is not an arena checkpoint ({error})") from None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("a", type=Path, help="the first run's checkpoint")
    parser.add_argument("b", type=Path, help="the second run's checkpoint")
    parser.add_argument("--player", type=int, default=0, help="which of the lineup (0: first)")
    args = parser.parse_args(argv)
    try:
        a, a_name, a_seed = board_means(args.a, args.player)
        b, b_name, b_seed = board_means(args.b, args.player)
    except (OSError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if a_seed != b_seed:
        print(
            f"error: the runs dealt different boards (seeds {a_seed} and {b_seed})", file=sys.stderr
        )
        return 2
    boards = sorted(set(a) & set(b))
    if len(boards) < 2:
        print("error: fewer than two boards played by both runs", file=sys.stderr)
        return 2
    diffs = [b[k] - a[k] for k in boards]
    mean = statistics.fmean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    print(f"{len(boards)} boards played by both (seed {a_seed})")
    print(f"A {a_name} ({args.a.name}): {statistics.fmean(a[k] for k in boards):+.2f} a deal")
    print(f"B {b_name} ({args.b.name}): {statistics.fmean(b[k] for k in boards):+.2f} a deal")
    print(f"B − A: {mean:+.2f} ({mean - half:+.2f} … {mean + half:+.2f}) a deal, 95%")
    return 0


if __name__ == "__main__":
    sys.exit(main())
