"""``bigtwo bench learn`` (the self-play runner's decisions per second) and ``bigtwo train``
(self-play training of the learned player, with the ``train`` extra)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from . import bench_parser, print_figures, usage_error


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
    register_train(sub)


def _bench_learn(args: argparse.Namespace) -> int:
    from ..learn.vector import bench_learn

    if args.deals < 1 or args.batch < 1:
        return usage_error("bench learn", "--deals and --batch must be at least 1", sys.stdout)
    result = bench_learn(
        args.rules, deals=args.deals, batch=args.batch, seed=args.seed, policy=args.policy
    )
    one = bench_learn(
        args.rules, deals=min(args.deals, 100), batch=1, seed=args.seed, policy=args.policy
    )
    result["decisions_per_second_one_deal_at_a_time"] = one["decisions_per_second"]
    result["decisions_per_cpu_second_one_deal_at_a_time"] = one["decisions_per_cpu_second"]
    print_figures(result, args.json, width=40)
    return 0


# -- bigtwo train ----------------------------------------------------------------------------


def register_train(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    train = sub.add_parser(
        "train",
        help="train the learned player's network in self-play (needs bigtwo[train])",
        description=(
            "Self-play PPO for the learned player. A run lives in a folder (checkpoint.pt, "
            "curves.csv, curves.png, learned.npz); --resume continues the folder's run from "
            "its last checkpoint with the settings it started with."
        ),
    )
    train.add_argument("folder", help="the run's folder")
    train.add_argument("--resume", action="store_true", help="continue the run in the folder")
    train.add_argument(
        "--export", metavar="PATH", help="only write the folder's last checkpoint's weights to PATH"
    )
    train.add_argument(
        "--average",
        nargs="+",
        metavar="NPZ",
        help="with --export: write the mean of these networks' weights and the checkpoint's "
        "(earlier snapshots of the same run)",
    )
    train.add_argument(
        "--iterations", type=int, default=1000, help="iterations in all, resumed ones counted"
    )
    train.add_argument("--minutes", type=float, help="stop after this many minutes of this call")
    train.add_argument(
        "--rules",
        default="palm,charlesworth2018",
        help="presets, by commas (the first is evaluated)",
    )
    train.add_argument("--deals", type=int, default=256, help="self-play deals an iteration")
    train.add_argument("--batch", type=int, default=64, help="deals in play at once")
    train.add_argument("--epochs", type=int, default=4, help="PPO passes over an iteration's data")
    train.add_argument("--minibatch", type=int, default=1024, help="decisions a gradient step")
    train.add_argument("--lr", type=float, default=3e-4, help="Adam's learning rate")
    train.add_argument("--entropy", type=float, default=0.01, help="entropy bonus")
    train.add_argument(
        "--schedule-deals",
        type=int,
        default=0,
        help="anneal the learning rate to zero over this many deals (default 0: constant)",
    )
    train.add_argument(
        "--entropy-end",
        type=float,
        help="the entropy bonus at --schedule-deals deals, reached linearly from --entropy",
    )
    train.add_argument(
        "--normalise",
        choices=("minibatch", "rules"),
        default="minibatch",
        help="advantages normalised over each minibatch, or within each rule set's rows",
    )
    train.add_argument(
        "--critic",
        choices=("own", "full"),
        help="the advantages' values: the seat's own view (own, the default) or a critic that "
        "also sees the other hands in training (full); with --resume, full turns it on",
    )
    train.add_argument(
        "--structure",
        action=argparse.BooleanOptionalAction,
        help="the network also reads which of its cards make pairs, triples, fours, straights "
        "and flushes (260 floats); with --resume, turns them on (never off)",
    )
    train.add_argument("--seed", type=int, default=0)
    train.add_argument("--eval-every", type=int, default=10, help="iterations between evaluations")
    train.add_argument("--eval-deals", type=int, default=200, help="arena deals an evaluation")
    train.add_argument("--eval-opponent", default="greedy", help="the three arena opponents")
    train.add_argument(
        "--opponent",
        default="",
        help="a computer player that takes the other seats of --opponent-deals deals an iteration",
    )
    train.add_argument(
        "--opponent-deals", type=int, default=0, help="deals against --opponent an iteration"
    )
    train.add_argument(
        "--league",
        type=int,
        help="deals an iteration against three drawn from a league of past selves and "
        "--league-bots (default 0: none); with --resume, the league options take a league up "
        "(never change it)",
    )
    train.add_argument(
        "--league-bots", help="computer players in the league, by commas (default strong,greedy)"
    )
    train.add_argument(
        "--league-every", type=int, help="iterations between two snapshots joining (default 200)"
    )
    train.add_argument("--league-size", type=int, help="newest snapshots kept (default 4)")
    train.add_argument(
        "--init", default="", metavar="PATH", help="start from this checkpoint's or .npz's network"
    )
    train.add_argument(
        "--joint",
        type=int,
        default=0,
        help="score moves by a joint layer this wide over state, move and the hand it leaves",
    )
    train.add_argument(
        "--shards", type=int, default=1, help="parts each rule set's deals are played in"
    )
    train.add_argument(
        "--actors",
        type=int,
        default=0,
        help="processes that play the deals (default 0: this one; the run is the same either way)",
    )
    train.add_argument("--threads", type=int, default=1, help="torch's CPU threads (default 1)")
    train.add_argument("--device", help="cpu or cuda (default: cuda when torch sees one)")
    train.set_defaults(run=_train)


def _league(args: argparse.Namespace) -> dict[str, Any]:
    """The league's settings given on the command line (the others keep their defaults)."""
    given = {
        "league": args.league,
        "league_bots": None
        if args.league_bots is None
        else tuple(name.strip() for name in args.league_bots.split(",") if name.strip()),
        "league_every": args.league_every,
        "league_size": args.league_size,
    }
    return {key: value for key, value in given.items() if value is not None}


def _train(args: argparse.Namespace) -> int:
    try:
        import torch
    except ImportError:
        print("bigtwo train needs PyTorch: pip install 'bigtwo[train]'", file=sys.stderr)
        return 2
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from ..learn.train import TrainConfig, Trainer, train
    from ..policy.network import LearnedNetwork

    if args.threads < 1 or args.iterations < 0 or args.actors < 0:
        return usage_error(
            "train", "--threads must be at least 1, --iterations and --actors at least 0"
        )
    torch.set_num_threads(args.threads)
    if args.average and not args.export:
        return usage_error("train", "--average goes with --export")
    if args.export:
        snapshots = [LearnedNetwork.load(path) for path in args.average or ()]  # refused first
        trainer = Trainer.resume(args.folder, device="cpu")
        network = trainer.export(args.export)
        if snapshots:
            LearnedNetwork.averaged([*snapshots, network]).save(args.export)
        print(
            f"wrote {args.export}: iteration {trainer.iteration}, {trainer.total_deals} deals, "
            f"{trainer.seconds / 60:.1f} minutes of training "
            f"({trainer.cpu_seconds / 60:.1f} CPU minutes)"
            + (f", the mean of {len(args.average) + 1} networks" if args.average else "")
        )
        return 0
    if args.resume:
        trainer = Trainer.resume(args.folder, device=args.device, actors=args.actors)
        if args.critic is not None and trainer.switch_critic(args.critic):
            print(
                f"critic full: from iteration {trainer.iteration + 1} on, a critic that sees "
                "every hand (started as the network's value head) gives the advantages"
            )
        if args.structure is not None and trainer.switch_structure(args.structure):
            print(
                f"structure: from iteration {trainer.iteration + 1} on, the network reads the "
                "hand-structure features (their weights start at zero, so it plays as before)"
            )
        league = _league(args)
        if league and trainer.switch_league(**league):
            print(
                f"league: from iteration {trainer.iteration + 1} on, {trainer.config.league} "
                "deals an iteration against players drawn from a league"
            )
    else:
        config = TrainConfig(
            rules=tuple(r.strip() for r in args.rules.split(",") if r.strip()),
            deals=args.deals,
            batch=args.batch,
            epochs=args.epochs,
            minibatch=args.minibatch,
            lr=args.lr,
            entropy=args.entropy,
            schedule_deals=args.schedule_deals,
            entropy_end=args.entropy_end,
            normalise=args.normalise,
            critic=args.critic or "own",
            structure=bool(args.structure),
            seed=args.seed,
            eval_every=args.eval_every,
            eval_deals=args.eval_deals,
            eval_opponent=args.eval_opponent,
            opponent=args.opponent,
            opponent_deals=args.opponent_deals,
            init=args.init,
            shards=args.shards,
            joint=args.joint,
            **_league(args),
        )
        trainer = Trainer.create(args.folder, config, device=args.device, actors=args.actors)
    console = Console(stderr=True)
    console.print(
        f"training in {args.folder} on {trainer.device} ({', '.join(trainer.config.rules)}), "
        f"from iteration {trainer.iteration}"
        + (f", the deals played by {args.actors} actor processes" if args.actors else "")
    )
    with Progress(
        TextColumn("[bold]iteration"),
        MofNCompleteColumn(),
        BarColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.fields[figures]}"),
        console=console,
    ) as bar:
        task = bar.add_task("train", total=args.iterations, completed=trainer.iteration, figures="")
        last_eval = ""

        def show(p: Any) -> None:
            nonlocal last_eval
            if p.eval_points is not None:
                last_eval = f" arena {p.eval_points:+.2f} [{p.eval_low:+.2f}, {p.eval_high:+.2f}]"
                console.print(
                    f"iteration {p.iteration}: {p.deals} deals, vs {trainer.config.eval_opponent}"
                    f"{last_eval}"
                )
            bar.update(
                task,
                completed=p.iteration,
                figures=f"{p.deals} deals  entropy {p.entropy:.2f}  kl {p.approx_kl:.4f}{last_eval}",
            )

        train(trainer, iterations=args.iterations, minutes=args.minutes, on_iteration=show)
    console.print(
        f"stopped at iteration {trainer.iteration} ({trainer.total_deals} deals); "
        f"weights in {trainer.folder / 'learned.npz'}, curves in {trainer.folder / 'curves.csv'}"
    )
    return 0
