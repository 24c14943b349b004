"""Scoring one finished deal under a rule set's :class:`~bigtwo.engine.rules.Scoring`.

Per-rank penalties with doubling (``palm``), a count per card with ×2 / ×3 bands
(``deduction``, ``hongkong``), a plain count (``charlesworth2018``) or a report of cards left
only (``textbook``) are all the same three numbers: what a card costs, which multiplier band a
loser reaches, and whether the winner collects. This module only computes; it stores nothing.

>>> from bigtwo.engine import Rules, parse_cards
>>> left = [0, parse_cards("3d 4d 5d 6d 7d 8d 9d Td Jd").mask, parse_cards("Qd").mask, 1 << 51]
>>> score_deal(Rules.preset("palm"), left, winner=0).points
(68, -45, -10, -13)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine.cards import card_indices
from ..engine.rules import Rules


class DealScore(NamedTuple):
    points: tuple[int, ...]  # each seat's score for the deal
    multipliers: tuple[int, ...]  # the band each loser reached (1 = none, 2 = DOUBLE!)


def penalty(rules: Rules, cards_left: int) -> tuple[int, int]:
    """What a player left with ``cards_left`` (a mask) pays, and the multiplier applied."""
    count = cards_left.bit_count()
    scoring = rules.scoring
    if count == 0 or scoring.per_card == "none":
        return 0, 1
    factor = 1
    for threshold, multiple in scoring.multipliers:
        if count >= threshold:
            factor = multiple
    ranks = [c >> 2 for c in card_indices(cards_left)]
    return scoring.penalty(count, ranks), factor


def score_deal(rules: Rules, cards_left: Sequence[int], winner: int) -> DealScore:
    """Points for every seat once ``winner`` is out; zero-sum when the winner collects."""
    points = [0] * len(cards_left)
    multipliers = [1] * len(cards_left)
    for seat, left in enumerate(cards_left):
        if seat == winner:
            continue
        pay, factor = penalty(rules, left)
        points[seat] = -pay
        multipliers[seat] = factor
    if rules.scoring.winner_collects:
        points[winner] = -sum(points)
    return DealScore(tuple(points), tuple(multipliers))
