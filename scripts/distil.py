"""The safe search's moves taught to its network (expert iteration, one step).

``collect`` plays deals with the safe search in every seat over a network and adds each, with
the search's move and the network's at every decision, as a line of a labels file
(:mod:`bigtwo.learn.labels`); it carries on where the file stops, so it can be stopped and run
again. ``fit`` teaches the network the search's moves (:mod:`bigtwo.learn.distill`, needs the
``train`` extra) and writes the result as an export the ``learned`` player and the search read:

    python scripts/distil.py collect --network out/base.npz --labels training/distil/labels.jsonl \
        --deals 2000 --workers 2 --minutes 60
    python scripts/distil.py fit --network out/base.npz --labels training/distil/labels.jsonl \
        --out out/distilled.npz

Then play both networks alone on the same boards and pair them board by board
(``scripts/search_diagnostic.py --level network``, ``scripts/compare_arenas.py``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

from bigtwo.bots.sparta import SafeSearch
from bigtwo.learn.labels import LABEL_SEEDS, LabelledDeal, append_labels, play_labelled, read_labels
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import LearningError
from bigtwo.policy.network import LearnedNetwork

_search: SafeSearch | None = None
_ruleset: RuleSet | None = None


def _start(network: str, rules: str, worlds: int, budget: int) -> None:
    global _search, _ruleset
    _search = SafeSearch(worlds=worlds, budget=budget, network=LearnedNetwork.load(network))
    _ruleset = RuleSet.preset(rules)


def _play(seed: int) -> LabelledDeal:
    assert _search is not None and _ruleset is not None
    return play_labelled(seed, _ruleset, _search)


def collect(args: argparse.Namespace) -> int:
    done = {d.seed for d in read_labels(args.labels)}
    seeds = [LABEL_SEEDS + k for k in range(args.deals) if LABEL_SEEDS + k not in done]
    Path(args.labels).parent.mkdir(parents=True, exist_ok=True)
    stop = time.monotonic() + args.minutes * 60 if args.minutes else float("inf")
    played = overruled = decisions = 0
    with multiprocessing.Pool(
        args.workers, _start, (args.network, args.rules, args.worlds, args.budget)
    ) as pool:
        for labelled in pool.imap_unordered(_play, seeds):
            append_labels(args.labels, labelled)
            played += 1
            decisions += len(labelled.moves)
            overruled += labelled.overruled
            if time.monotonic() > stop:
                pool.terminate()
                break
    total = len(done) + played
    print(
        f"{played} deal{'' if played == 1 else 's'} labelled ({decisions} decisions, "
        f"{overruled} overruled), "
        f"{total} in {args.labels}"
    )
    return 0


def fit(args: argparse.Namespace) -> int:
    from bigtwo.learn.distill import DistilConfig, distil

    deals = sorted(read_labels(args.labels), key=lambda d: d.seed)
    config = DistilConfig(
        epochs=args.epochs, lr=args.lr, minibatch=args.minibatch, kl=args.kl, holdout=args.holdout
    )
    network, figures = distil(args.network, deals, RuleSet.preset(args.rules), config)
    network.save(args.out)
    print(json.dumps(figures, indent=2))
    return 0


def run(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("collect", "fit"):
        p = sub.add_parser(name)
        p.add_argument("--network", required=True, help="the network's .npz")
        p.add_argument("--labels", required=True, help="the labels file (JSON lines)")
        p.add_argument("--rules", default="charlesworth2018")
    c = sub.choices["collect"]
    c.add_argument("--deals", type=int, default=1000, help="deals in the file when done")
    c.add_argument("--workers", type=int, default=1)
    c.add_argument("--minutes", type=float, default=0, help="stop after this long (0: no bound)")
    c.add_argument("--worlds", type=int, default=32, help="the search's worlds (its default)")
    c.add_argument("--budget", type=int, default=6000, help="the search's budget (its default)")
    f = sub.choices["fit"]
    f.add_argument("--out", required=True, help="where to write the taught network (.npz)")
    f.add_argument("--epochs", type=int, default=4)
    f.add_argument("--lr", type=float, default=1e-4)
    f.add_argument("--minibatch", type=int, default=256)
    f.add_argument("--kl", type=float, default=1.0)
    f.add_argument("--holdout", type=float, default=0.1)
    args = parser.parse_args(argv)
    try:
        LearnedNetwork.load(args.network)
        return collect(args) if args.command == "collect" else fit(args)
    except LearningError as error:
        print(f"distil: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(run())
