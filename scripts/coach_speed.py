"""Time the coach's review of one seat of a deal, at the default budget, one process on one
core, and print the median and range over a few deals: of the 52-card game, or of Big 2
RevolutioN (``--rules revolution``).

``python scripts/coach_speed.py [--deals 5] [--rollouts N] [--rules palm] [--seed 1]``: the
deals are dealt from the seed and played by ``strong`` in every seat (the review's cost is
the positions', not the players'); each deal's seat 0 is reviewed, timed on the process's
CPU clock and on the wall clock (the CPU clock does not count time lost to other processes
on a busy machine). ``--rollouts`` defaults to the coach's own budget for the game. Also
printed: the CPU seconds a rated decision and a rollout cost, which do not depend on the
day's load. It measures; it writes nothing.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable
from functools import partial

from bigtwo.bots.revolution import StrongRevolutionBot
from bigtwo.bots.strong import StrongBot
from bigtwo.coach.review import ROLLOUTS, DealReview, review_deal
from bigtwo.coach.revolution import REVOLUTION_ROLLOUTS, review_revolution_hand
from bigtwo.match.match import Match
from bigtwo.match.revolution import RevolutionMatch
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


def played_revolution(rules: str, deals: int, seed: int) -> RevolutionMatch:
    match = RevolutionMatch(RuleSet.preset(rules), seed=seed, deals=deals)
    bot, rng = StrongRevolutionBot(), random.Random(seed)
    while True:
        while not match.deal.over:
            seat = match.deal.to_act
            match.take(bot.choose(match.deal.view(seat), rng))
        if match.over:
            return match
        match.next_deal()


def reviews(rules: str, deals: int, seed: int, rollouts: int) -> list[Callable[[], DealReview]]:
    """Each deal's review of seat 0, to be timed."""
    ruleset = RuleSet.preset(rules)
    if ruleset.rules.revolution is not None:
        match = played_revolution(rules, deals, seed)
        return [
            partial(review_revolution_hand, h, ruleset.rules, 0, seed=seed, rollouts=rollouts)
            for h in match.played_hands()
        ]
    game = played_game(rules, deals, seed)
    return [partial(review_deal, r, 0, seed=seed, rollouts=rollouts) for r in game.deal_records()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=5)
    parser.add_argument("--rollouts", type=int, default=0, help="default: the coach's own")
    parser.add_argument("--rules", default="palm")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    revolution = RuleSet.preset(args.rules).rules.revolution is not None
    rollouts = args.rollouts or (REVOLUTION_ROLLOUTS if revolution else ROLLOUTS)
    cpu: list[float] = []
    wall: list[float] = []
    rated: list[int] = []
    worlds: list[int] = []
    for review_of in reviews(args.rules, args.deals, args.seed, rollouts):
        c, w = time.process_time(), time.perf_counter()
        review = review_of()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
        rated.append(sum(d.rated for d in review.decisions))
        worlds.append(sum(d.worlds for d in review.decisions))
    print(
        json.dumps(
            {
                "rules": args.rules,
                "rollouts": rollouts,
                "deals": args.deals,
                "rated_decisions": rated,
                "cpu_seconds": [round(s, 2) for s in cpu],
                "median_cpu_seconds": round(statistics.median(cpu), 2),
                "median_wall_seconds": round(statistics.median(wall), 2),
                "cpu_ms_per_rated_decision": round(1000 * sum(cpu) / max(1, sum(rated)), 1),
                "cpu_ms_per_world": round(1000 * sum(cpu) / max(1, sum(worlds)), 3),
            }
        )
    )


if __name__ == "__main__":
    main()
