"""The review of a seat's play: each decision it chose, judged from its own view by search.

For every action a seat chose in a recorded deal, the coach asks the expert's flat search,
from that seat's view alone at that moment, what the move played was worth against the best
alternative. The candidates are the expert's (:meth:`~bigtwo.bots.expert.ExpertBot.candidates`:
the ``strong`` player's choice, a pass, the cheapest play, the plays of its plan), plus the
move played and any play that goes out (and another legal move, where these are one). The
worlds are sampled with the expert's own functions (:func:`~bigtwo.bots.expert.sample_hands`
under what the passes proved, :func:`~bigtwo.bots.expert.world_of`) and every candidate is
finished in the same worlds by the same rollout players (:func:`~bigtwo.bots.expert.rollout` with
:func:`~bigtwo.bots.expert.strong_move`), so the luck of a world cancels between candidates
and their differences are sharper than their values.

The search runs in two halves. The first half tries every candidate in every world and
names the best alternative to the move played; the second half meets only those two, in
fresh worlds, and the points lost (alternative minus move played, world by world) and their
standard error come from the second half alone, so that choosing the best of several noisy
candidates does not inflate the loss. The budget (``rollouts``, :data:`ROLLOUTS` by default)
counts the simulated deals of both halves together: at the default a seat's 52-card deal is
reviewed in a median 4.2 s of one core (``scripts/coach_speed.py``).

Marks are relative to the rule set's scale (the expert's ``_scale``: what six middling cards
cost under the deal's scoring, 6 points under most presets, 38 under palm's multipliers) and
are given only to a loss at least twice its standard error (:func:`mark_for`):

========== ============================
fine        a loss under 10 % of the scale, or one the search cannot tell from noise
inaccuracy  10 % of the scale or more
mistake     25 % or more
blunder     50 % or more
========== ============================

A decision with one legal choice (a pass with nothing that beats the table, the opening card
alone) is forced and not rated; a move that goes out is fine without a search (nothing beats
winning the deal). The accuracy of a deal or a game is the share of its rated decisions marked
fine. Each decision draws its worlds from a generator seeded by the review's seed, the deal
and the decision's place in it, so the same seed gives the same review, whether one deal is
reviewed or the whole game.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import partial

from ..bots.expert import (
    ExpertBot,
    _scale,
    rollout,
    sample_hands,
    strong_move,
    world_of,
)
from ..bots.inference import proven_misses, proven_replies
from ..engine.errors import IllegalAction
from ..engine.plays import Play
from ..engine.revolution_cards import symbols
from ..engine.revolution_types import RevolutionChoice
from ..engine.views import Move
from ..match.match import DealRecord, Match
from ..match.views import TableView
from .replay import seat_turns

ROLLOUTS = 1000  # rollouts a decision, both halves together (the ``--rollouts`` default)
# The marks' thresholds, as shares of the rule set's scale (see the module docstring).
INACCURACY = 0.10
MISTAKE = 0.25
BLUNDER = 0.50
SIGNIFICANCE = 2.0  # a loss must be this many standard errors above nothing to be marked

ReviewProgress = Callable[[int, int], None]  # (decisions reviewed, decisions in all)
# A move of either game: a play or a pass (None) of the 52-card game, or a choice of Big 2
# RevolutioN (a play, a pass, a function, a counter, a draw).
Chosen = Play | RevolutionChoice | None


class Mark(StrEnum):
    """What a decision cost, in words."""

    FORCED = "forced"
    FINE = "fine"
    INACCURACY = "inaccuracy"
    MISTAKE = "mistake"
    BLUNDER = "blunder"


def mark_for(loss: float, se: float, scale: float) -> Mark:
    """The mark of a decision that lost ``loss`` points (± ``se``) under a scoring whose
    scale is ``scale``.

    >>> mark_for(3.5, 0.5, 6.0), mark_for(3.5, 2.0, 6.0), mark_for(0.7, 0.1, 6.0)
    (<Mark.BLUNDER: 'blunder'>, <Mark.FINE: 'fine'>, <Mark.INACCURACY: 'inaccuracy'>)
    """
    if loss < SIGNIFICANCE * se:
        return Mark.FINE
    for mark, share in ((Mark.BLUNDER, BLUNDER), (Mark.MISTAKE, MISTAKE)):
        if loss >= share * scale - 1e-9:
            return mark
    return Mark.INACCURACY if loss >= INACCURACY * scale - 1e-9 else Mark.FINE


def move_words(move: Chosen) -> str:
    """A move as the review writes it: its cards, or ``pass`` (a choice of Big 2 RevolutioN
    in a few words)."""
    if move is None:
        return "pass"
    if isinstance(move, Play):
        return move.symbols()
    what = move.move
    if what is Move.PLAY:
        return symbols(move.cards)
    if what is Move.ACTIVATE:
        on = f" on seat {move.target}" if move.target >= 0 else ""
        gives = f" giving {symbols(1 << move.give)}" if move.give >= 0 else ""
        return f"activate {symbols(move.cards)}{on}{gives}"
    if what is Move.COUNTER:
        return f"counter with {symbols(move.cards)}"
    if what is Move.DRAW:
        return f"draw {symbols(move.cards)}" if move.cards else "draw from the deck"
    return {Move.PASS: "pass", Move.DECLINE: "no counter", Move.STOP: "draw no more"}.get(
        what, what.value
    )


@dataclass(frozen=True, slots=True)
class MoveReview:
    """One action a seat chose, judged.

    ``step``: the actions of the deal before it; ``move``: what was played; ``better``: the
    best alternative the search found (None for a pass, and for a forced move); ``loss``: the
    points on average the move played gave up against ``better`` (negative: the move played
    was the better one), ``se`` its standard error; ``worlds``: the worlds of the second half;
    ``values``: each candidate's mean points in the first half.
    """

    deal: int
    step: int
    move: Chosen
    mark: Mark
    better: Chosen = None
    loss: float = 0.0
    se: float = 0.0
    worlds: int = 0
    values: tuple[tuple[Chosen, float], ...] = ()

    @property
    def rated(self) -> bool:
        return self.mark is not Mark.FORCED

    @property
    def lost(self) -> float:
        """The points lost, never below nothing (what the tables show)."""
        return max(0.0, self.loss) if self.rated else 0.0


def _accuracy(decisions: Sequence[MoveReview]) -> float | None:
    rated = [d for d in decisions if d.rated]
    if not rated:
        return None
    return sum(d.mark is Mark.FINE for d in rated) / len(rated)


def _costliest(decisions: Sequence[MoveReview], count: int = 3) -> list[MoveReview]:
    marked = [d for d in decisions if d.rated and d.mark is not Mark.FINE]
    return sorted(marked, key=lambda d: (-d.loss, d.deal, d.step))[:count]


@dataclass(frozen=True, slots=True)
class DealReview:
    """A seat's decisions in one deal, in the order they were made."""

    deal: int
    seat: int
    scale: float
    decisions: tuple[MoveReview, ...]

    @property
    def accuracy(self) -> float | None:
        """The share of rated decisions marked fine (None: nothing to rate)."""
        return _accuracy(self.decisions)

    def costliest(self, count: int = 3) -> list[MoveReview]:
        """The ``count`` marked decisions that lost the most points, costliest first."""
        return _costliest(self.decisions, count)


@dataclass(frozen=True, slots=True)
class GameReview:
    """A seat's decisions in the deals reviewed of a game."""

    seat: int
    deals: tuple[DealReview, ...]

    @property
    def decisions(self) -> list[MoveReview]:
        return [d for deal in self.deals for d in deal.decisions]

    @property
    def accuracy(self) -> float | None:
        return _accuracy(self.decisions)

    def costliest(self, count: int = 3) -> list[MoveReview]:
        return _costliest(self.decisions, count)


# -- one decision -----------------------------------------------------------------------------


def _key(move: Play | None) -> int:
    return 0 if move is None else move.mask


def candidates_with(view: TableView, move: Play | None) -> list[Play | None]:
    """The moves the review weighs: the expert's candidates, the move played and any play
    that goes out (and another legal move where these are one)."""
    out = ExpertBot().candidates(view)
    for extra in [move, *(p for p in view.legal if p.mask == view.hand)]:
        if all(_key(m) != _key(extra) for m in out):
            out.append(extra)
    others: list[Play | None] = [*view.legal, None] if view.can_pass else list(view.legal)
    for extra in others:  # at least one alternative, where the expert names none
        if len(out) < 2 and all(_key(m) != _key(extra) for m in out):
            out.append(extra)
    return out


def rate_move(
    view: TableView,
    move: Play | None,
    rng: random.Random,
    *,
    rollouts: int = ROLLOUTS,
    deal: int = 0,
    step: int = 0,
) -> MoveReview:
    """Judge ``move``, made from ``view``, against the best alternative (see the module
    docstring). Reads the view alone: its seat's cards, the counts and the public history."""
    seat = view.seat
    if seat is None or not view.my_turn:
        raise IllegalAction("a decision is judged from the view of the seat to act")
    if len(view.legal) + view.can_pass <= 1:
        return MoveReview(deal, step, move, Mark.FORCED)
    if move is not None and move.mask == view.hand:
        return MoveReview(deal, step, move, Mark.FINE)
    scoring = view.scoring
    policy = partial(strong_move, scoring=scoring)
    misses = proven_misses(view)
    replies = proven_replies(view)
    candidates = candidates_with(view, move)
    played = next(i for i, m in enumerate(candidates) if _key(m) == _key(move))

    def worlds(moves: Sequence[int], count: int) -> list[list[int]]:
        """Points for ``seat`` of each move of ``moves`` in ``count`` fresh worlds."""
        out: list[list[int]] = []
        for _ in range(count):
            world = world_of(view, sample_hands(view, rng, misses, replies=replies))
            row: list[int] = []
            for i in moves:
                world.apply_unchecked(candidates[i])
                row.append(rollout(world, seat, scoring, policy))
                while world.actions:
                    world.undo()
            out.append(row)
        return out

    return judge(candidates, played, worlds, rollouts, _scale(scoring), deal, step)


Worlds = Callable[[Sequence[int], int], Sequence[Sequence[float]]]


def judge(
    candidates: Sequence[Chosen],
    played: int,
    worlds: Worlds,
    rollouts: int,
    scale: float,
    deal: int = 0,
    step: int = 0,
) -> MoveReview:
    """The two halves of the search (see the module docstring), for either game:
    ``worlds(moves, count)`` gives the seat's points for each candidate of ``moves`` (their
    indices) in each of ``count`` fresh worlds; ``candidates[played]`` is the move played."""
    half = max(2, rollouts // 2)
    first = worlds(range(len(candidates)), max(2, half // len(candidates)))
    means = [sum(row[i] for row in first) / len(first) for i in range(len(candidates))]
    better = max((i for i in range(len(candidates)) if i != played), key=lambda i: (means[i], -i))
    second = worlds((better, played), max(2, half // 2))
    diffs = [row[0] - row[1] for row in second]
    n = len(diffs)
    loss = sum(diffs) / n
    var = sum((d - loss) ** 2 for d in diffs) / (n - 1)
    se = math.sqrt(var / n)
    return MoveReview(
        deal,
        step,
        candidates[played],
        mark_for(loss, se, scale),
        better=candidates[better],
        loss=loss,
        se=se,
        worlds=n,
        values=tuple(zip(candidates, means, strict=True)),
    )


# -- deals and games ---------------------------------------------------------------------------


def _rng(seed: int | str, deal: int, step: int) -> random.Random:
    return random.Random(f"coach:{seed}:{deal}:{step}")


def review_deal(
    record: DealRecord,
    seat: int,
    *,
    seed: int | str = 0,
    rollouts: int = ROLLOUTS,
    progress: Callable[[], None] | None = None,
) -> DealReview:
    """Every decision ``seat`` chose in a recorded deal, judged; ``progress`` is called after
    each one."""
    decisions: list[MoveReview] = []
    for turn in seat_turns(record, seat):
        rng = _rng(seed, record.number, turn.step)
        decisions.append(
            rate_move(
                turn.view,
                turn.action.play,
                rng,
                rollouts=rollouts,
                deal=record.number,
                step=turn.step,
            )
        )
        if progress is not None:
            progress()
    return DealReview(record.number, seat, _scale(record.rules.match.scoring), tuple(decisions))


def chosen_actions(record: DealRecord, seat: int) -> int:
    """How many actions ``seat`` chose in a deal (what a review of it judges)."""
    return sum(1 for a in record.actions if a.seat == seat and not a.auto)


def check_choice(players: int, played: int, seat: int, deals: Sequence[int] | None) -> None:
    """Refuse, in words, a seat beyond a game's ``players`` or a deal beyond the ``played``
    deals of its record."""
    if not 0 <= seat < players:
        raise IllegalAction(f"There is no seat {seat}: the game has seats 0 to {players - 1}")
    for number in deals or ():
        if not 1 <= number <= played:
            raise IllegalAction(f"There is no deal {number}: the record has deals 1 to {played}")


def chosen_deals(match: Match, seat: int, deals: Sequence[int] | None = None) -> list[DealRecord]:
    """The records of the deals ``deals`` (by number; default every deal played) once
    ``seat`` and every deal are found in the match; else an error in words."""
    records = match.deal_records()
    check_choice(match.players, len(records), seat, deals)
    return [r for r in records if deals is None or r.number in deals]


def progress_step(progress: ReviewProgress | None, total: int) -> Callable[[], None]:
    """What to call after each decision judged: it tells ``progress`` how many of ``total``
    are done."""
    done = 0

    def step() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    return step


def review_game(
    match: Match,
    seat: int,
    *,
    deals: Sequence[int] | None = None,
    seed: int | str = 0,
    rollouts: int = ROLLOUTS,
    progress: ReviewProgress | None = None,
) -> GameReview:
    """``seat``'s decisions in the deals ``deals`` (by number; default every deal played) of
    a match; ``progress(done, total)`` is called as the decisions are judged."""
    chosen = chosen_deals(match, seat, deals)
    total = sum(chosen_actions(r, seat) for r in chosen)
    step = progress_step(progress, total)
    if progress is not None:
        progress(0, total)
    reviews = [review_deal(r, seat, seed=seed, rollouts=rollouts, progress=step) for r in chosen]
    return GameReview(seat, tuple(reviews))


# -- as data ------------------------------------------------------------------------------------


def decision_data(decision: MoveReview) -> dict[str, object]:
    """A decision as JSON data."""
    data: dict[str, object] = {
        "deal": decision.deal,
        "step": decision.step,
        "move": move_words(decision.move),
        "mark": decision.mark.value,
    }
    if decision.rated and decision.worlds:
        data |= {
            "better": move_words(decision.better),
            "loss": round(decision.loss, 3),
            "se": round(decision.se, 3),
            "worlds": decision.worlds,
            "values": {move_words(m): round(v, 3) for m, v in decision.values},
        }
    return data


def review_data(review: GameReview) -> dict[str, object]:
    """A game's review as JSON data: every deal's decisions and accuracy, the game's
    accuracy and its three costliest decisions."""
    return {
        "seat": review.seat,
        "accuracy": review.accuracy,
        "deals": [
            {
                "deal": deal.deal,
                "scale": deal.scale,
                "accuracy": deal.accuracy,
                "decisions": [decision_data(d) for d in deal.decisions],
            }
            for deal in review.deals
        ],
        "costliest": [decision_data(d) for d in review.costliest()],
    }
