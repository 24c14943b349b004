"""The review of a seat's play in Big 2 RevolutioN, as :mod:`.review` does for the 52-card game.

Each choice the seat made in a recorded hand (a play or a pass, a function activated, a
counter or not, each draw and the stop) is judged from its own
:class:`~bigtwo.engine.revolution.RevolutionView` by the expansion's expert search: its
candidates (:meth:`~bigtwo.bots.revolution_expert.ExpertRevolutionBot.candidates`) plus the
choice made and any play that goes out, in worlds drawn by its
:func:`~bigtwo.bots.revolution_expert.sample_world` and finished by its
:func:`~bigtwo.bots.revolution_expert.rollout_hand`, in the same two halves
(:func:`~.review.judge`). A world's value is the expert's own: the seat's points less the
other seats' mean (:func:`~bigtwo.bots.revolution_expert.margin_points`), so the points lost
are points of that margin. The marks, the accuracy and the three costliest are the 52-card
review's, on the scale of the expansion's scoring.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from typing import NamedTuple

from ..bots.expert import _scale
from ..bots.revolution_expert import (
    ExpertRevolutionBot,
    rollout_hand,
    sample_world,
    scoring_rules_of,
)
from ..engine.errors import IllegalAction
from ..engine.revolution import RevolutionDeal
from ..engine.revolution_cards import NORMAL_CARDS
from ..engine.revolution_types import RevolutionChoice, RevolutionView
from ..engine.rules import Rules
from ..engine.views import Action, Move
from ..match.revolution import PlayedHand, RevolutionMatch
from .review import (
    DealReview,
    GameReview,
    Mark,
    MoveReview,
    ReviewProgress,
    check_choice,
    judge,
    progress_step,
)

STEP_LIMIT = 400  # simulated actions at most to finish a hand in a world (the expert's)
# Rollouts a choice (the ``--rollouts`` default): a world of the expansion costs several of
# the 52-card game's.
REVOLUTION_ROLLOUTS = 600


class RevolutionTurn(NamedTuple):
    """One choice a seat made in a hand: ``step`` actions came before it, the seat's view
    just before it, and the choice."""

    step: int
    view: RevolutionView
    choice: RevolutionChoice


def choice_of(action: Action) -> RevolutionChoice:
    """The choice a recorded action of a player made (what :meth:`RevolutionDeal.take`
    takes): a draw from the deck names no card, an exchange the card it gave."""
    seat, move = action.seat, action.kind
    if move is Move.PASS or move is Move.DECLINE or move is Move.STOP:
        return RevolutionChoice(seat, move)
    if move is Move.DRAW:
        return RevolutionChoice(seat, move, 0 if action.source == "deck" else action.cards)
    give = action.given.bit_length() - 1 if action.given else -1
    return RevolutionChoice(seat, move, action.cards, action.target, give)


def revolution_turns(hand: PlayedHand, rules: Rules, seat: int) -> Iterator[RevolutionTurn]:
    """Every choice ``seat`` made in a recorded hand, with its view just before it (the
    hand replayed from its cards and deck, every action checked again)."""
    deal = RevolutionDeal(rules, hand.dealt, deck=hand.deck)
    if not 0 <= seat < deal.players:
        raise IllegalAction(f"There is no seat {seat}")
    for step, action in enumerate(hand.actions):
        if action.follows:
            continue
        if action.seat == seat and not action.auto:
            view = deal.view(seat)
            choice = choice_of(action)
            if choice not in view.choices:
                raise IllegalAction(f"action {step + 1} of hand {hand.number} does not replay")
            yield RevolutionTurn(step, view, choice)
        deal.redo(action)


def _goes_out(view: RevolutionView, choice: RevolutionChoice) -> bool:
    return choice.move is Move.PLAY and not view.hand & NORMAL_CARDS & ~choice.cards


def rate_choice(
    view: RevolutionView,
    choice: RevolutionChoice,
    rng: random.Random,
    *,
    rollouts: int = REVOLUTION_ROLLOUTS,
    deal: int = 0,
    step: int = 0,
) -> MoveReview:
    """Judge ``choice``, made from ``view``, against the best alternative. Reads the view
    alone."""
    seat = view.seat
    if seat is None or choice not in view.choices:
        raise IllegalAction("a choice is judged from the view of the seat to choose it")
    if len(view.choices) == 1:
        return MoveReview(deal, step, choice, Mark.FORCED)
    if _goes_out(view, choice):
        return MoveReview(deal, step, choice, Mark.FINE)
    candidates = ExpertRevolutionBot().candidates(view, random.Random(0))
    for extra in [choice, *(c for c in view.choices if _goes_out(view, c)), *view.choices]:
        if extra not in candidates and (
            len(candidates) < 2 or extra is choice or _goes_out(view, extra)
        ):
            candidates.append(extra)
    ruleset = scoring_rules_of(view.rules)

    def worlds(moves: Sequence[int], count: int) -> list[list[float]]:
        out: list[list[float]] = []
        for _ in range(count):
            world = sample_world(view, rng)
            start = world.saved_state()
            row: list[float] = []
            for i in moves:
                world.apply_unchecked(candidates[i])
                row.append(rollout_hand(world, ruleset, seat, STEP_LIMIT)[0])
                world.restore(start)
            out.append(row)
        return out

    played = candidates.index(choice)
    scale = _scale(ruleset.match.scoring)
    return judge(candidates, played, worlds, rollouts, scale, deal, step)


def review_revolution_hand(
    hand: PlayedHand,
    rules: Rules,
    seat: int,
    *,
    seed: int | str = 0,
    rollouts: int = REVOLUTION_ROLLOUTS,
    progress: Callable[[], None] | None = None,
) -> DealReview:
    """Every choice ``seat`` made in a recorded hand, judged; ``progress`` after each."""
    out: list[MoveReview] = []
    for turn in revolution_turns(hand, rules, seat):
        rng = random.Random(f"coach:{seed}:{hand.number}:{turn.step}")
        out.append(
            rate_choice(
                turn.view, turn.choice, rng, rollouts=rollouts, deal=hand.number, step=turn.step
            )
        )
        if progress is not None:
            progress()
    scale = _scale(scoring_rules_of(rules).match.scoring)
    return DealReview(hand.number, seat, scale, tuple(out))


def review_revolution_game(
    match: RevolutionMatch,
    seat: int,
    *,
    deals: Sequence[int] | None = None,
    seed: int | str = 0,
    rollouts: int = REVOLUTION_ROLLOUTS,
    progress: ReviewProgress | None = None,
) -> GameReview:
    """``seat``'s choices in the hands ``deals`` (by number; default every hand played) of a
    match of Big 2 RevolutioN; ``progress(done, total)`` as they are judged."""
    hands = match.played_hands()
    check_choice(match.players, len(hands), seat, deals)
    chosen = [h for h in hands if deals is None or h.number in deals]
    total = sum(
        1 for h in chosen for a in h.actions if a.seat == seat and not (a.follows or a.auto)
    )
    step = progress_step(progress, total)
    rules = match.ruleset.rules
    reviews = [
        review_revolution_hand(h, rules, seat, seed=seed, rollouts=rollouts, progress=step)
        for h in chosen
    ]
    return GameReview(seat, tuple(reviews))
