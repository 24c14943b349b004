"""``bigtwo bench learn``: the self-play runner's decisions per second."""

from __future__ import annotations

import argparse
import json

from . import bench_parser


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    learn = bench_parser(sub).add_parser(
        "learn", help="the self-play runner for learning: decisions per second"
    )
    learn.add_argument("--rules", default="palm", help="preset (default palm)")
    learn.add_argument("--deals", type=int, default=500, help="deals to play (default 500)")
    learn.add_argument("--batch", type=int, default=64, help="deals in play at once (64)")
    learn.add_argument(
        "--policy",
        default="uniform",
        choices=["uniform", "mlp"],
        help="uniform over legal moves, or a random-weight numpy network (default uniform)",
    )
    learn.add_argument("--seed", type=int, default=1)
    learn.add_argument("--json", action="store_true")
    learn.set_defaults(run=_bench_learn)


def _bench_learn(args: argparse.Namespace) -> int:
    from ..learn.vector import bench_learn

    if args.deals < 1 or args.batch < 1:
        print("bigtwo bench learn: --deals and --batch must be at least 1")
        return 2
    result = bench_learn(
        args.rules, deals=args.deals, batch=args.batch, seed=args.seed, policy=args.policy
    )
    one = bench_learn(
        args.rules, deals=min(args.deals, 100), batch=1, seed=args.seed, policy=args.policy
    )
    result["decisions_per_second_one_deal_at_a_time"] = one["decisions_per_second"]
    result["decisions_per_cpu_second_one_deal_at_a_time"] = one["decisions_per_cpu_second"]
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key:>40}: {value}")
    return 0
