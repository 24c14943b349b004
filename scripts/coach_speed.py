"""Time the coach's review of one seat of a 52-card deal, at the default budget, one process
on one core, and print the median and range over a few deals.

``python scripts/coach_speed.py [--deals 5] [--rollouts 600] [--rules palm] [--seed 1]``: the
deals are dealt from the seed and played by ``strong`` in every seat (the review's cost is
the positions', not the players'); each deal's seat 0 is reviewed, timed on the process's
CPU clock and on the wall clock (the CPU clock does not count time lost to other processes
on a busy machine). It measures; it writes nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bigtwo.bots.strong import StrongBot
from bigtwo.coach.review import ROLLOUTS, review_deal
from bigtwo.match.match import Match
from bigtwo.match.settings import RuleSet


def played_game(rules: str, deals: int, seed: int) -> Match:
    match = Match(RuleSet.preset(rules), seed=seed, deals=deals)
    bot, rng = StrongBot(), random.Random(seed)
    while True:
        while not match.deal.over:
            seat = match.deal.turn
            match.act(seat, bot.choose(match.view(seat), rng))
        if match.over:
            return match
        match.next_deal()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=ROLLOUTS)
    parser.add_argument("--rules", default="palm")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    match = played_game(args.rules, args.deals, args.seed)
    cpu: list[float] = []
    wall: list[float] = []
    rated: list[int] = []
    for record in match.deal_records():
        c, w = time.process_time(), time.perf_counter()
        review = review_deal(record, 0, seed=args.seed, rollouts=args.rollouts)
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        rated.append(sum(d.rated for d in review.decisions))
    print(
        json.dumps(
            {
                "rules": args.rules,
                "rollouts": args.rollouts,
                "deals": args.deals,
                "rated_decisions": rated,
                "cpu_seconds": [round(s, 2) for s in cpu],
                "median_cpu_seconds": round(statistics.median(cpu), 2),
                "median_wall_seconds": round(statistics.median(wall), 2),
            }
        )
    )


if __name__ == "__main__":
    main()
