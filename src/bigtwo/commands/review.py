"""``bigtwo review RECORD``: the coach's review of one seat's play in a recorded game.

A thin shell over :mod:`bigtwo.coach.review`: it reads the record, reviews the chosen seat's
decisions in one deal or every deal (a progress bar on stderr for whole games, so ``--json``
on stdout stays clean), and prints a table of the decisions with their marks, the move
played, the better move and the points lost, then the accuracy and the three costliest
decisions. Bad input (a missing or corrupt file, a seat or deal the game does not have)
raises a BigTwoError, which the ``bigtwo`` command prints in words.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.console import Console
from rich.table import Table

from ..coach.review import (
    ROLLOUTS,
    GameReview,
    Mark,
    MoveReview,
    check_choice,
    move_words,
    review_data,
    review_game,
)
from ..coach.revolution import REVOLUTION_ROLLOUTS, review_revolution_game
from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, REVOLUTION
from ..match.record_formats import Game, read_game_file
from . import progress_bar

_STYLES = {
    Mark.FINE: "green",
    Mark.INACCURACY: "yellow",
    Mark.MISTAKE: "dark_orange",
    Mark.BLUNDER: "bold red",
    Mark.FORCED: "dim",
}


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    review = sub.add_parser(
        "review", help="the coach: how much each decision of a seat cost, by search"
    )
    review.add_argument("record", metavar="RECORD", help="a game record (bigtwo simulate --out)")
    review.add_argument(
        "--seat", type=int, help="the seat reviewed (default: the first person's seat, else 0)"
    )
    review.add_argument("--deal", type=int, help="review this deal only (default: every deal)")
    review.add_argument("--json", action="store_true", help="print the review as JSON")
    review.add_argument("--seed", default="0", help="the seed of the sampled worlds")
    review.add_argument(
        "--rollouts",
        type=int,
        help=f"simulated deals per decision (default {ROLLOUTS}, {REVOLUTION_ROLLOUTS} in Big 2 "
        "RevolutioN; more: slower, sharper)",
    )
    review.set_defaults(run=_review)


@dataclass(frozen=True, slots=True)
class _Reviewer:
    """How a game is reviewed: its default budget, how many of its deals a record holds, and
    the review itself."""

    rollouts: int
    deals: Callable[[Any], int]
    review: Callable[..., GameReview]


_REVIEWERS = {
    BIGTWO: _Reviewer(ROLLOUTS, lambda match: match.deal_number, review_game),
    REVOLUTION: _Reviewer(
        REVOLUTION_ROLLOUTS, lambda match: len(match.played_hands()), review_revolution_game
    ),
}


def _seat(game: Game, seat: int | None) -> int:
    if seat is not None:
        return seat
    return next((s for s, kind in enumerate(game.kinds) if kind == "human"), 0)


def _review(args: argparse.Namespace) -> int:
    game = read_game_file(args.record)
    reviewer = _REVIEWERS[game.rules.game]
    rollouts = reviewer.rollouts if args.rollouts is None else args.rollouts
    if rollouts < 8:
        raise BigTwoError("--rollouts must be at least 8")
    seat = _seat(game, args.seat)
    deals = None if args.deal is None else [args.deal]
    check_choice(game.players, reviewer.deals(game), seat, deals)  # refused before any work
    progress = progress_bar("review", "decisions", disable=deals is not None)
    with progress:
        task = progress.add_task("decisions", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        review = reviewer.review(
            game, seat, deals=deals, seed=args.seed, rollouts=rollouts, progress=advance
        )
    if args.json:
        print(json.dumps(review_data(review)))
        return 0
    _print(Console(), game.names, review)
    return 0


def _lost(decision: MoveReview) -> str:
    if not decision.rated:
        return ""
    if not decision.worlds:
        return "goes out"
    return f"{decision.lost:.1f} ± {decision.se:.1f}"


def _better(decision: MoveReview) -> str:
    if decision.mark in (Mark.FINE, Mark.FORCED):
        return ""
    return move_words(decision.better)


def _percent(accuracy: float | None) -> str:
    return "nothing to rate" if accuracy is None else f"{accuracy:.0%}"


def _print(console: Console, names: list[str], review: GameReview) -> None:
    name = names[review.seat]
    for deal in review.deals:
        table = Table(title=f"Deal {deal.deal}: {name} (seat {review.seat})")
        table.add_column("play", justify="right")
        table.add_column("mark")
        table.add_column("move played")
        table.add_column("better move")
        table.add_column("points lost", justify="right")
        for d in deal.decisions:
            style = _STYLES[d.mark]
            table.add_row(
                str(d.step + 1),
                f"[{style}]{d.mark.value}",
                move_words(d.move),
                _better(d),
                _lost(d),
            )
        console.print(table)
        console.print(f"Accuracy in deal {deal.deal}: {_percent(deal.accuracy)}")
    if len(review.deals) > 1:
        console.print(f"Accuracy in the game: {_percent(review.accuracy)}")
    costliest = review.costliest()
    if not costliest:
        console.print("No decision cost points the search could tell apart from its noise.")
        return
    console.print("The costliest decisions:")
    for d in costliest:
        console.print(
            f"  deal {d.deal}, play {d.step + 1}: {d.mark.value}, {move_words(d.move)}"
            f" where {move_words(d.better)} was better by {_lost(d)} points",
            markup=False,
            highlight=False,
        )
