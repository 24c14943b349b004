"""Random play for tests: a deal moved to a random point by legal actions only, and what says
where a deal stands (to check that something left it as it was)."""

from __future__ import annotations

import random

from bigtwo.engine import Deal


def advance(deal: Deal, rng: random.Random, steps: int) -> Deal:
    """Take up to ``steps`` random legal actions (a pass about a third of the time it is
    allowed, always when nothing can be played); stop early when the deal is over."""
    for _ in range(steps):
        if deal.over:
            break
        plays = deal.legal_plays()
        if deal.can_pass() and (not plays or rng.random() < 0.3):
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, rng.choice(plays))
    return deal


def snapshot(deal: Deal) -> tuple[object, ...]:
    """Everything that says where a deal stands."""
    return (
        tuple(deal.hands),
        deal.turn,
        deal.to_beat,
        deal.to_beat_seat,
        deal.passes,
        deal.locked,
        deal.opening,
        deal.winner,
        tuple((p.mask, p.kind) for p in deal.legal_plays()),
        deal.can_pass(),
        len(deal.actions),
    )
