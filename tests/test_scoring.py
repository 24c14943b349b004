"""Every scoring system with exact figures: the Palm examples, deduction bands, count bands."""

from __future__ import annotations

import pytest

from bigtwo.engine import RulesError, parse_cards
from bigtwo.match.scoring import SYSTEMS, penalty, score_deal, scoring_system
from bigtwo.match.settings import RuleSet

NINE = parse_cards("3d 4d 5d 6d 7d 8d 9d Td Jd").mask  # ranks 3..J of diamonds
TEN = NINE | parse_cards("Qd").mask


def cards(n: int) -> int:
    """n cards, lowest first: 3d 3c 3h 3s 4d ..."""
    return (1 << n) - 1


def test_palm_loser_with_three_to_jack_pays_45_and_with_queen_added_pays_110() -> None:
    palm = RuleSet.preset("palm")
    assert penalty(palm, NINE) == (45, 1)
    assert penalty(palm, TEN) == (110, 2)  # (45 + 10) doubled at 10 cards
    score = score_deal(palm, [0, NINE, TEN, parse_cards("2s").mask], winner=0)
    assert score.points == (45 + 110 + 13, -45, -110, -13)
    assert score.multipliers == (1, 1, 2, 1)
    assert score.zero_sum


def test_palm_rank_values_run_from_three_to_two() -> None:
    palm = RuleSet.preset("palm")
    assert penalty(palm, parse_cards("3s").mask) == (1, 1)
    assert penalty(palm, parse_cards("4d").mask) == (2, 1)
    assert penalty(palm, parse_cards("2d").mask) == (13, 1)
    assert penalty(palm, parse_cards("2d 2c 2h 2s").mask) == (52, 1)


def test_palm_hk_scores_as_palm() -> None:
    assert score_deal(RuleSet.preset("palm-hk"), [NINE, 0, TEN, 0], winner=1).points == (
        -45,
        155,
        -110,
        0,
    )


def test_deduction_costs_one_a_card_double_from_10_triple_at_13() -> None:
    rules = RuleSet.preset("deduction")
    assert penalty(rules, cards(9)) == (9, 1)
    assert penalty(rules, cards(10)) == (20, 2)
    assert penalty(rules, cards(11)) == (22, 2)
    assert penalty(rules, cards(12)) == (24, 2)
    assert penalty(rules, cards(13)) == (39, 3)
    score = score_deal(rules, [0, cards(9), cards(11), cards(13) << 20], winner=0)
    # Deductions only: the winner receives nothing, so the deal is not zero-sum.
    assert score.points == (0, -9, -22, -39)
    assert score.multipliers == (1, 1, 2, 3)
    assert not score.zero_sum


def test_deduction_with_two_and_three_players() -> None:
    rules = RuleSet.preset("deduction")
    assert score_deal(rules, [cards(13), 0], winner=1).points == (-39, 0)
    assert score_deal(rules, [cards(1), 0, cards(10) << 20], winner=1).points == (-1, 0, -20)


def test_textbook_reports_cards_left_but_scores_nothing() -> None:
    score = score_deal(
        RuleSet.preset("textbook"), [0, cards(9), cards(11) << 12, cards(13) << 30], winner=0
    )
    assert score.points == (0, 0, 0, 0)
    assert score.multipliers == (1, 1, 1, 1)


def test_charlesworth2018_one_point_a_card_winner_collects() -> None:
    rules = RuleSet.preset("charlesworth2018")
    score = score_deal(rules, [cards(3), cards(13) << 3, 0, cards(8) << 16], winner=2)
    assert score.points == (-3, -13, 24, -8)  # no doubling at all
    assert score.zero_sum


@pytest.mark.parametrize("preset", ["hongkong", "taiwan"])
def test_count_bands_double_from_10_triple_at_13_and_winner_collects(preset: str) -> None:
    rules = RuleSet.preset(preset)
    assert penalty(rules, cards(9)) == (9, 1)
    assert penalty(rules, cards(10)) == (20, 2)
    assert penalty(rules, cards(13)) == (39, 3)
    score = score_deal(rules, [cards(9), 0, cards(10) << 9, cards(13) << 19], winner=1)
    assert score.points == (-9, 68, -20, -39)
    assert score.multipliers == (1, 1, 2, 3)
    assert score.zero_sum


def test_systems_are_data_read_from_the_presets() -> None:
    assert set(SYSTEMS) == {
        "palm",
        "deduction",
        "textbook",
        "charlesworth2018",
        "hongkong",
        "taiwan",
    }
    assert scoring_system("palm").multipliers == ((10, 2),)
    assert scoring_system("deduction").winner_collects is False
    assert scoring_system("charlesworth2018").per_card == "one"
    assert scoring_system("textbook").per_card == "none"
    with pytest.raises(RulesError, match="Unknown scoring system"):
        scoring_system("poker")


def test_a_house_scoring_system_is_just_options() -> None:
    house = RuleSet.preset("palm").replace(scoring={"per_card": "one", "multipliers": [[8, 4]]})
    assert penalty(house, cards(7)) == (7, 1)
    assert penalty(house, cards(8)) == (32, 4)
    assert score_deal(house.scoring, [cards(8), 0], winner=1).points == (-32, 32)
