"""One charge for cards left: every scorer (the deal's score, the factor reported with it, the
computer players' estimate) asks :meth:`Scoring.charge`, so the multiplier applied and the one
reported cannot disagree, whatever order a rules file lists its bands in."""

from __future__ import annotations

import random

import pytest

from bigtwo.bots import strong
from bigtwo.engine import RulesError, parse_cards
from bigtwo.engine.cards import card_indices
from bigtwo.engine.rules import preset_names
from bigtwo.match import Match, RuleSet, Scoring
from bigtwo.match.record import to_data
from bigtwo.match.scoring import penalty, score_deal

THIRTEEN = parse_cards("3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad 2d").mask
TEN = parse_cards("3c 4c 5c 6c 7c 8c 9c Tc Jc Qc").mask


def test_bands_listed_from_the_top_score_and_report_the_same_factor() -> None:
    hk = RuleSet.preset("hongkong").replace(scoring={"multipliers": [[13, 3], [10, 2]]})
    assert hk.scoring.multipliers == ((10, 2), (13, 3))  # kept in order of their thresholds
    score = score_deal(hk, [0, THIRTEEN, TEN, 1], winner=0)
    assert score.points == (39 + 20 + 1, -39, -20, -1)
    assert score.multipliers == (1, 3, 2, 1)
    assert penalty(hk, THIRTEEN) == (39, 3)


def test_a_match_reports_the_factor_it_charged() -> None:
    hk = RuleSet.preset("hongkong").replace(scoring={"multipliers": [[13, 3], [10, 2]]})
    loser = "3h 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As 2s"
    match = Match(hk, hands=["3d", loser, "5h", "6h"])
    match.play(0, "3d")
    result = match.results[-1]
    assert result.score.multipliers[1] == 3 and result.points[1] == -39
    # the record sends the factor with every finished deal
    assert to_data(match)["deals"][0]["multipliers"] == [1, 3, 1, 1]


@pytest.mark.parametrize(
    "bands", [[[10, 2], [10, 3]], [[13, 3], [10, 2], [13, 4]]], ids=["twice", "unsorted twice"]
)
def test_a_threshold_given_two_factors_is_refused_in_words(bands: list[list[int]]) -> None:
    with pytest.raises(RulesError, match="two factors: each threshold may appear once"):
        RuleSet.preset("palm").replace(scoring={"multipliers": bands})
    with pytest.raises(RulesError, match="each threshold may appear once"):
        Scoring(multipliers=tuple((a, b) for a, b in bands))


def test_charge_is_the_cost_and_the_band() -> None:
    palm = RuleSet.preset("palm").scoring
    assert palm.charge(9, range(9)) == (45, 1)
    assert palm.charge(10, range(10)) == (110, 2)
    assert palm.charge(0, []) == (0, 1)
    textbook = RuleSet.preset("textbook").scoring
    assert textbook.charge(13, [12] * 13) == (0, 1)  # scores nothing: no band either


def test_the_strong_players_estimate_is_the_charge(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[int] = []
    charge = Scoring.charge

    def spy(self: Scoring, cards_left: int, ranks: object) -> tuple[int, int]:
        asked.append(cards_left)
        return charge(self, cards_left, ranks)  # type: ignore[arg-type]

    monkeypatch.setattr(Scoring, "charge", spy)
    deduction = RuleSet.preset("deduction").scoring
    assert strong.penalty_points(deduction, THIRTEEN) == 39
    assert asked == [13]


@pytest.mark.parametrize("preset", preset_names())
def test_the_strong_players_estimate_equals_the_deals_charge(preset: str) -> None:
    scoring = RuleSet.preset(preset).scoring
    rng = random.Random(preset)
    for _ in range(200):
        hand = sum(1 << c for c in rng.sample(range(52), rng.randrange(1, 14)))
        points, _factor = scoring.charge(hand.bit_count(), [c >> 2 for c in card_indices(hand)])
        expected = hand.bit_count() if scoring.per_card == "none" else points
        assert strong.penalty_points(scoring, hand) == expected
