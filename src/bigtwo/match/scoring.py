"""Scoring one finished deal under a rule set's :class:`~bigtwo.match.settings.Scoring`.

Per-rank penalties with doubling (``palm``), a count per card with ×2 / ×3 bands
(``deduction``, ``hongkong``, ``taiwan``), a plain count (``charlesworth2018``) or a report of
cards left only (``textbook``) are all the same three numbers: what a card costs, which
multiplier band a loser reaches, and whether the winner collects. The systems are data, read
from the presets; every charge is :meth:`Scoring.charge`. This module only computes and
stores nothing.

>>> from bigtwo.engine import parse_cards
>>> left = [0, parse_cards("3d 4d 5d 6d 7d 8d 9d Td Jd").mask, parse_cards("Qd").mask, 1 << 51]
>>> score_deal(RuleSet.preset("palm"), left, winner=0).points
(68, -45, -10, -13)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..engine.cards import Mask, card_indices
from ..engine.errors import RulesError
from .settings import RuleSet, Scoring

# The scoring systems by name: each is the [scoring] table of the preset of that name.
SYSTEMS = ("palm", "deduction", "textbook", "charlesworth2018", "hongkong", "taiwan")


class DealScore(NamedTuple):
    points: tuple[int, ...]  # each seat's score for the deal
    multipliers: tuple[int, ...]  # the band each loser reached (1 = none, 2 = DOUBLE!)

    @property
    def zero_sum(self) -> bool:
        return sum(self.points) == 0


def scoring_system(name: str) -> Scoring:
    """A scoring system by name (see :data:`SYSTEMS`), as the preset of that name has it.

    >>> scoring_system("deduction").multipliers
    ((10, 2), (13, 3))
    """
    if name not in SYSTEMS:
        raise RulesError(f"Unknown scoring system '{name}' (known: {', '.join(SYSTEMS)})")
    return RuleSet.preset(name).scoring


def penalty(rules: RuleSet | Scoring, cards_left: Mask) -> tuple[int, int]:
    """What a player left with ``cards_left`` (a mask) pays, and the multiplier applied (a
    Revolution card, above the 52 normal ones, is charged as the normal card it copies)."""
    scoring = rules.scoring if isinstance(rules, RuleSet) else rules
    ranks = ((c % 52) >> 2 for c in card_indices(cards_left))
    return scoring.charge(cards_left.bit_count(), ranks)


def score_deal(rules: RuleSet | Scoring, cards_left: Sequence[Mask], winner: int) -> DealScore:
    """Points for every seat once ``winner`` is out; zero-sum when the winner collects."""
    scoring = rules.scoring if isinstance(rules, RuleSet) else rules
    return _charged(scoring, cards_left, winner, free={winner})


def _charged(scoring: Scoring, counted: Sequence[int], winner: int, free: set[int]) -> DealScore:
    """Every seat not ``free`` pays for the cards ``counted`` against it; a collecting
    ``winner`` takes what the others pay."""
    points = [0] * len(counted)
    multipliers = [1] * len(counted)
    for seat, left in enumerate(counted):
        if seat not in free:
            pay, multipliers[seat] = penalty(scoring, Mask(left))
            points[seat] = -pay
    if scoring.winner_collects:
        points[winner] -= sum(points)
    return DealScore(tuple(points), tuple(multipliers))


def score_revolution_hand(
    rules: RuleSet, cards_left: Sequence[int], winner: int, exhausted: bool
) -> DealScore:
    """Points for a hand of Big 2 RevolutioN (``cards_left`` 104-bit masks). Normal cards
    left cost as the scoring says; Revolution cards cost the same only with
    ``revolution_cards_count``. A hand ended by exhaustion (``exhausted``) lets every player
    with the fewest normal cards off (``exhaustion = "fewest_free"``) or makes everyone pay
    (``"all_pay"``); a collecting winner takes what the others pay either way.

    >>> from bigtwo.engine.revolution_cards import parse
    >>> rules = RuleSet.preset("revolution")
    >>> left = [parse("9h Jc Qs*"), parse("4d 8c"), parse("5d"), parse("6d Tc Ts")]
    >>> score_revolution_hand(rules, left, winner=2, exhausted=True).points
    (-2, -2, 0, -3)
    """
    options = rules.rules.revolution
    if options is None:
        raise RulesError(f"{rules.name} does not play the revolution expansion")
    normal = (1 << 52) - 1
    counted = [left if options.revolution_cards_count else left & normal for left in cards_left]
    free = {winner}
    if exhausted:
        fewest = min((left & normal).bit_count() for left in cards_left)
        if options.exhaustion == "fewest_free":
            free = {s for s, left in enumerate(cards_left) if (left & normal).bit_count() == fewest}
        else:
            free = set()
    return _charged(rules.scoring, counted, winner, free)
