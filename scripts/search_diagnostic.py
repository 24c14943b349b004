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

``--level safe`` plays the safe search instead (:class:`~bigtwo.bots.sparta.SafeSearch`, level
``expert-safe``): the network's own move unless a candidate beats it on common worlds by about
two standard errors. ``--network FILE`` plays and rolls out another network than the shipped
one (a trainer's export) in the safe search, and ``--level network`` plays that network alone
(level ``network-alone``), the figure the safe search must not fall below on the same boards
(the ``expert-learned`` level and ``learned`` opponents keep the shipped network):

    python scripts/search_diagnostic.py --level safe --opponent ppo2018 --deals 4000 --workers 15 \
        --network training/second-route/learned-it3120.npz --checkpoint FILE

The levels are registered when this script is loaded, so the arena's worker processes (which load
it again) have them too (``--workers N`` plays boards side by side, to the same figures; the
network's path travels to them in the environment): they are no computer levels a player can
choose.
"""

from __future__ import annotations

import argparse
import inspect
import os
import sys
from functools import cache
from typing import Any

from bigtwo.bots import register_bot
from bigtwo.bots.expert import ExpertBot
from bigtwo.bots.learned import LearnedBot, shipped_network
from bigtwo.bots.sparta import SafeSearch
from bigtwo.cli import main
from bigtwo.policy.encoding import LearningError
from bigtwo.policy.network import LearnedNetwork

LEVEL = "expert-learned"
SAFE = "expert-safe"
NETWORK = "network-alone"
LEVELS = {"learned": LEVEL, "safe": SAFE, "network": NETWORK}
NETWORK_ENV = "BIGTWO_SEARCH_NETWORK"
"""The environment variable naming the network of the searches (the shipped one if unset)."""
OPPONENT_ENV = "BIGTWO_OPPONENT_NETWORK"
"""The environment variable naming the network of the ``past-network`` level."""
PAST = "past-network"
OPTIONS_ENV = "BIGTWO_SEARCH_OPTIONS"
"""The environment variable holding the safe search's settings (``name=value,...``)."""


def safe_options() -> dict[str, float]:
    """The safe search's settings from the environment (``--option``): numbers by name."""
    text = os.environ.get(OPTIONS_ENV, "")
    return {k: float(v) for k, v in (item.split("=", 1) for item in text.split(",") if item)}


@cache
def named_network(variable: str) -> LearnedNetwork:
    """The network the environment ``variable`` names (the shipped one if unset)."""
    path = os.environ.get(variable)
    return LearnedNetwork.load(path) if path else shipped_network()


def network() -> LearnedNetwork:
    return named_network(NETWORK_ENV)


class LearnedRolloutExpert(ExpertBot):
    name = LEVEL

    def __init__(self) -> None:
        super().__init__(policy="learned")


class SafeExpert(SafeSearch):
    name = SAFE

    def __init__(self) -> None:
        options: dict[str, Any] = {
            k: int(v) if k in INTEGER_OPTIONS else v for k, v in safe_options().items()
        }
        super().__init__(network=network(), **options)


# the settings whose defaults are whole numbers (``strong`` a flag): read as integers
INTEGER_OPTIONS = {
    name
    for name, parameter in inspect.signature(SafeSearch.__init__).parameters.items()
    if isinstance(parameter.default, int)
}


class PastNetwork(LearnedBot):
    """Another network alone (``--opponent-network``), to play a network against its past."""

    name = PAST

    def __init__(self) -> None:
        super().__init__(named_network(OPPONENT_ENV))


class NetworkAlone(LearnedBot):
    name = NETWORK

    def __init__(self) -> None:
        super().__init__(network())


register_bot(LEVEL, LearnedRolloutExpert)
register_bot(SAFE, SafeExpert)
register_bot(NETWORK, NetworkAlone)
register_bot(PAST, PastNetwork)


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
    parser.add_argument(
        "--opponent-network",
        default="",
        help=f"a network's .npz for the {PAST} level (--opponent {PAST}): a network against its past",
    )
    parser.add_argument("--rules", default="charlesworth2018", help="the rule set (a preset)")
    parser.add_argument("--level", choices=sorted(LEVELS), default="learned")
    parser.add_argument("--network", default="", help="a network's .npz (the shipped one if not)")
    parser.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting of the safe search (SafeSearch's arguments: worlds, budget, beliefs, ...)",
    )
    args = parser.parse_args(argv)
    if args.option:
        os.environ[OPTIONS_ENV] = ",".join(args.option)
        try:
            SafeExpert()
        except (TypeError, ValueError) as error:
            parser.error(f"a safe search option is wrong: {error}")
    try:  # a missing or foreign file is refused before any deal
        for variable, path in ((NETWORK_ENV, args.network), (OPPONENT_ENV, args.opponent_network)):
            if path:
                os.environ[variable] = os.path.abspath(path)
                named_network.cache_clear()
                named_network(variable)
    except LearningError as error:
        parser.error(str(error))
    arena = [
        "arena",
        "--rules",
        args.rules,
        "--seats",
        ",".join([LEVELS[args.level]] + [args.opponent] * 3),
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
