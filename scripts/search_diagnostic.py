"""The search diagnostic: the expert's search with bigtwo's own network as every seat's
rollout policy (``ExpertBot(policy="learned")``), against three ``learned`` players under
``charlesworth2018``, in the duplicate arena.

Its opponents play exactly as its rollouts assume, so a sound search must score clearly above
zero against them: a flat search over rollouts of a policy is one step of policy improvement
over it. A figure of +0.3 points a deal or less would mean the search's machinery (its
candidates, its noise, its beliefs about the hidden hands) is broken. The run keeps its boards
in a checkpoint after each one, so it can be stopped and carried on (``--resume``):

    python scripts/search_diagnostic.py --deals 1000 --checkpoint docs/runs/search-diagnostic.json
    python scripts/search_diagnostic.py --deals 1000 --checkpoint docs/runs/search-diagnostic.json --resume

The level is registered when this script is loaded, so the arena's worker processes (which load
it again) have it too (``--workers N`` plays boards side by side, to the same figures): it is no
computer level a player can choose.
"""

from __future__ import annotations

import argparse
import sys

from bigtwo.bots import register_bot
from bigtwo.bots.expert import ExpertBot
from bigtwo.cli import main

LEVEL = "expert-learned"


class LearnedRolloutExpert(ExpertBot):
    name = LEVEL

    def __init__(self) -> None:
        super().__init__(policy="learned")


register_bot(LEVEL, LearnedRolloutExpert)


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--seed", default="4242")
    parser.add_argument("--checkpoint", default="")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--workers", type=int, default=1)
    # The same search against three of another level (the diagnostic is against ``learned``).
    parser.add_argument("--opponent", default="learned")
    args = parser.parse_args(argv)
    arena = [
        "arena",
        "--rules",
        "charlesworth2018",
        "--seats",
        ",".join([LEVEL] + [args.opponent] * 3),
    ]
    arena += [
        "--deals",
        str(args.deals),
        "--duplicate",
        "--seed",
        args.seed,
        "--workers",
        str(args.workers),
    ]
    if args.checkpoint:
        arena += ["--checkpoint", args.checkpoint]
    if args.resume:
        arena.append("--resume")
    if args.json:
        arena.append("--json")
    return main(arena)


if __name__ == "__main__":
    sys.exit(run())
