"""Plays: classification and comparison under each preset, with every example of RULES.md
and of the seeds' rules text, the conflicts between presets, four-card kinds and bombs, and
properties of ``beats`` (a strict order within each class of comparable plays)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import Kind, Play, Rules, beats, catalog_for, classify, parse_cards, preset_names
from bigtwo.engine.cards import FULL_DECK

PRESETS = preset_names()
SUITS = "dchs"


def kind(text: str, preset: str) -> str | None:
    play = classify(text, Rules.preset(preset))
    return None if play is None else play.kind.value


def higher(a: str, b: str, preset: str) -> bool:
    """``a`` beats ``b`` and not the other way round."""
    rules = Rules.preset(preset)
    return beats(a, b, rules) and not beats(b, a, rules)


def meet(a: str, b: str, preset: str) -> bool:
    """Either of the two plays can be played on the other."""
    rules = Rules.preset(preset)
    return beats(a, b, rules) or beats(b, a, rules)


def suited(ranks: str, suit: str) -> str:
    return " ".join(r + suit for r in ranks)


PALM_LIKE = ("palm", "palm-hk", "deduction", "hongkong")


# -- the Palm rules (seeds 000, 001, 003) -------------------------------------------------
@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_singles_rank_then_suit(preset: str) -> None:
    order = ["3d", "3c", "3h", "3s", "4d", "Ts", "Ad", "2d", "2c", "2h", "2s"]
    for low, high in zip(order, order[1:], strict=False):
        assert higher(high, low, preset), (high, low)
    # 2 of spades is the highest card and 3 of diamonds the lowest
    rules = Rules.preset(preset)
    powers = sorted(range(52), key=lambda c: catalog_for(rules).card_power[c])
    assert (powers[0], powers[-1]) == (0, 51)


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_pairs(preset: str) -> None:
    assert higher("Ks Kd", "Kh Kc", preset)
    assert higher("Ts Td", "Th Tc", preset)  # "10 spade, 10 diamond pair is higher"
    assert higher("2d 2c", "Ah As", preset) and higher("Ad Ac", "Kh Ks", preset)
    assert kind("Ks Kd", preset) == "pair"
    assert kind("Ks Qs", preset) is None  # two cards must be of one rank


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_triples(preset: str) -> None:
    assert higher("2d 2c 2h", "Ad Ac As", preset)
    assert higher("Ad Ac Ah", "Kd Kh Ks", preset)
    assert kind("5d 5c 5s", preset) == "triple" and kind("5d 5c 6s", preset) is None


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_play_sizes(preset: str) -> None:
    """Each player can play either 1, 2, 3 or 5 cards, and only meets the same number."""
    assert kind("5d 5c 5h 5s", preset) is None
    assert kind("5d 5c 6h 6s", preset) is None
    assert kind("3d 4d 5d 6d 7d 8d", preset) is None
    assert classify("", Rules.preset(preset)) is None
    assert not meet("2s", "3d 3c", preset)
    assert not meet("3d 3c 3h", "4d 4c", preset)
    assert not meet("3d 4c 5h 6s 7d", "2s 2h 2c", preset)


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_five_card_kinds_order(preset: str) -> None:
    straight = "Td Jc Qh Ks As"
    flush = "3c 5c 8c 9c Jc"  # 3589J of clubs
    full_house = "3d 3c 8d 8c 8h"  # 33888
    four = "4d 4c 4h 4s 3c"  # 44443
    straight_flush = "3h 4h 5h 6h 7h"  # 34567 of hearts
    chain = [straight, flush, full_house, four, straight_flush]
    names = ["straight", "flush", "full_house", "four_of_a_kind", "straight_flush"]
    assert [kind(p, preset) for p in chain] == names
    for i, low in enumerate(chain):
        for high in chain[i + 1 :]:
            assert higher(high, low, preset), (high, low)
    assert kind("4h 7h 9h Th Kh", preset) == "flush"  # 479TK of hearts
    assert kind("9d 9c Kd Kc Kh", preset) == "full_house"  # 99KKK
    assert kind("7d 7c 7h 7s Kd", preset) == "four_of_a_kind"  # 7777K
    assert kind(suited("TJQKA", "s"), preset) == "straight_flush"  # TJQKA of spades


@pytest.mark.parametrize("preset", ["palm", "deduction", "hongkong"])
def test_palm_straights_are_exactly_ten(preset: str) -> None:
    sequences = ["A2345", "23456", "34567", "45678", "56789"]
    sequences += ["6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA"]
    mixed = [" ".join(r + "dchsd"[i] for i, r in enumerate(seq)) for seq in sequences]
    assert all(kind(cards, preset) == "straight" for cards in mixed)
    for low, high in zip(mixed, mixed[1:], strict=False):
        assert higher(high, low, preset), (high, low)
    for not_straight in ("Jd Qc Kh As 2d", "Qd Kc Ah 2s 3d", "Kd Ac 2h 3s 4d"):
        assert kind(not_straight, preset) is None, not_straight
    assert kind("3d 4c 5h 6s 7d", preset) == "straight"  # 34567
    assert kind("9d Tc Jh Qs Kd", preset) == "straight"  # 9TJQK


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_straight_tiebreak(preset: str) -> None:
    assert higher("4d 5c 6h 7s 8d", "3s 4s 5s 6d 7h", preset)  # 45678 beats 34567
    assert higher("3d 4c 5h 6d 7s", "3c 4d 5s 6h 7h", preset)  # 3456(7s) beats 3456(7h)
    # the suit of the sequence's highest card decides: the 5 of A2345, the A of TJQKA
    assert higher("As 2s 3s 4d 5h", "Ad 2d 3d 4s 5c", preset)
    assert higher("Tc Jc Qc Kc As", "Ts Js Qs Ks Ah", preset)


@pytest.mark.parametrize("preset", ["palm", "deduction", "hongkong"])
def test_palm_a2345_and_23456_tiebreak(preset: str) -> None:
    # A2345 < 23456; among them the 5 (or 6), not the 2, decides
    assert higher("2d 3c 4h 5s 6d", "As 2s 3s 4s 5h", preset)
    assert higher("Ad 2d 3d 4d 5h", "As 2s 3s 4h 5c", preset)
    assert higher("2d 3d 4d 5d 6h", "2s 3s 4s 5h 6c", preset)


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_flushes_by_highest_card(preset: str) -> None:
    assert higher("6d 8d 9d Td Kd", "7s 9s Ts Js Qs", preset)  # 689TK d beats 79TJQ s
    assert higher("3s 5s 7s 9s Ks", "4h 6h 8h Th Kh", preset)  # same top rank: by its suit
    assert higher("3d 5d 7d 9d 2d", "4s 6s 8s Ts As", preset)  # the flush's suit aside


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_full_house_and_four_of_a_kind(preset: str) -> None:
    assert higher("3d 3c 8d 8c 8h", "9d 9c 7d 7c 7h", preset)  # 33888 beats 99777
    assert higher("3d Kd Kc Kh Ks", "As 3d 3c 3h 3s", preset)  # 3KKKK beats A3333


@pytest.mark.parametrize("preset", PALM_LIKE)
def test_palm_straight_flushes(preset: str) -> None:
    assert higher(suited("45678", "d"), suited("34567", "s"), preset)
    assert higher(suited("TJQKA", "s"), suited("TJQKA", "h"), preset)
    assert higher(suited("34567", "d"), "4d 4c 4h 4s 2s", preset)


# -- palm-hk -------------------------------------------------------------------------------
def test_palm_hk_23456_is_the_top_straight() -> None:
    top = "2d 3c 4h 5s 6d"
    assert kind(top, "palm-hk") == "straight"
    assert higher(top, "Td Jc Qh Ks As", "palm-hk")
    assert higher("3d 4c 5h 6s 7d", "Ad 2c 3h 4s 5s", "palm-hk")  # A2345 stays lowest
    assert higher(suited("23456", "d"), suited("TJQKA", "s"), "palm-hk")  # and straight flushes


# -- textbook (seed 002) -------------------------------------------------------------------
def test_textbook_straights_have_no_wrap() -> None:
    assert kind("Jd Qc Kh As 2d", "textbook") == "straight"
    assert kind("Ad 2c 3h 4s 5d", "textbook") is None
    assert kind("2d 3c 4h 5s 6d", "textbook") is None
    assert higher("Jd Qc Kh As 2d", "Td Jc Qh Ks As", "textbook")
    assert higher("4d 5c 6h 7s 8d", "3d 4c 5h 6s 7s", "textbook")
    # same top rank: the suit of the top card
    assert higher("3d 4d 5d 6d 7s", "3c 4c 5c 6c 7h", "textbook")


def test_textbook_flushes_by_suit_first() -> None:
    assert higher("6s 8s Ts Js Qs", "3d 5d 7d 9d Ad", "textbook")
    assert higher("3d 5d 7d 9d Ad", "4d 6d 8d Td Qd", "textbook")
    assert higher("3h 5h 7h 9h Jh", "4c 6c 8c Tc 2c", "textbook")
    assert higher("3s 5s 7s 9s Js", "4h 6h 8h Th 2h", "textbook")


def test_textbook_kinds_and_combinations() -> None:
    assert higher("2s", "2h", "textbook") and higher("4d", "3s", "textbook")
    assert higher("Ts Td", "Th Tc", "textbook") and higher("3d 3c", "2s 2h", "textbook") is False
    assert higher("4d 4c 4h", "3d 3c 3s", "textbook")
    straight, flush = "3d 4c 5h 6s 7d", "3c 5c 8c 9c Jc"
    full_house, quad = "3h 3s 8d 8c 8h", "4d 4c 4h 4s 9s"
    straight_flush = suited("9TJQK", "d")
    chain = [straight, flush, full_house, quad, straight_flush]
    for i, low in enumerate(chain):
        for high in chain[i + 1 :]:
            assert higher(high, low, "textbook"), (high, low)
    assert higher("3d 3c 9d 9c 9h", "Kd Kc 8d 8c 8h", "textbook")
    assert higher("3d 9d 9c 9h 9s", "Kd 8d 8c 8h 8s", "textbook")
    assert higher(suited("9TJQK", "c"), suited("89TJQ", "s"), "textbook")
    assert higher(suited("9TJQK", "s"), suited("9TJQK", "h"), "textbook")
    assert not meet("2s", "3d 3c", "textbook")


# -- the conflicts between palm, palm-hk and textbook -----------------------------------------
@pytest.mark.parametrize(
    ("cards", "palm", "palm_hk", "textbook"),
    [
        ("Ad 2c 3h 4s 5d", "straight", "straight", None),
        ("2d 3c 4h 5s 6d", "straight", "straight", None),
        ("Jd Qc Kh As 2d", None, None, "straight"),
        ("Qd Kc Ah 2s 3d", None, None, None),
        (suited("A2345", "h"), "straight_flush", "straight_flush", "flush"),
        (suited("JQKA2", "h"), "flush", "flush", "straight_flush"),
    ],
)
def test_same_five_cards_differ_between_presets(
    cards: str, palm: str | None, palm_hk: str | None, textbook: str | None
) -> None:
    assert (kind(cards, "palm"), kind(cards, "palm-hk"), kind(cards, "textbook")) == (
        palm,
        palm_hk,
        textbook,
    )


def test_23456_low_in_palm_and_top_in_palm_hk() -> None:
    assert higher("3d 4c 5h 6s 7d", "2d 3c 4h 5s 6d", "palm")
    assert higher("2d 3c 4h 5s 6d", "3d 4c 5h 6s 7d", "palm-hk")


def test_flush_order_is_opposite_in_palm_and_textbook() -> None:
    spades, diamonds = "6s 8s Ts Js Qs", "3d 5d 7d 9d Ad"
    assert higher(diamonds, spades, "palm")
    assert higher(spades, diamonds, "textbook")


# -- deduction (seed 004) ------------------------------------------------------------------
def test_deduction_four_of_a_kind_needs_a_fifth_card() -> None:
    assert kind("7d 7c 7h 7s", "deduction") is None
    assert kind("7d 7c 7h 7s 3d", "deduction") == "four_of_a_kind"
    assert higher("3d 4c 5h 6s 7s", "3s 4s 5s 6d 7h", "deduction")


# -- charlesworth2018 (ENCODING.md sections 3.1 and 4) ---------------------------------------
def test_charlesworth_four_card_plays() -> None:
    cw = "charlesworth2018"
    assert kind("3c 3h 7d 7s", cw) == "two_pair"
    assert kind("7d 7c 7h 7s", cw) == "bare_four"
    assert kind("7d 7c 7h 7s 3d", cw) is None  # no five-card four of a kind
    assert kind("3d 3c 3h 7s", cw) is None
    # four of a kind beats any two pair; two pair by its highest card only
    assert higher("3d 3c 3h 3s", "2s 2h Ad Ac", cw)
    assert higher("4d 4c 4h 4s", "3d 3c 3h 3s", cw)
    assert higher("3d 3c 9d 9s", "8d 8s 9c 9h", cw)
    assert higher("3d 3s 9c 9h", "4d 4c 5d 5c", cw)
    assert not meet("3d 3c 3h 3s", "3d 4c 5h 6s 7d", cw)
    assert not meet("3d 3c 9d 9s", "2s 2h", cw)


def test_charlesworth_five_card_plays() -> None:
    cw = "charlesworth2018"
    assert kind("Jd Qc Kh As 2d", cw) == "straight"
    assert kind("Ad 2c 3h 4s 5d", cw) is None and kind("2d 3c 4h 5s 6d", cw) is None
    assert higher("Jd Qc Kh As 2d", "Td Jc Qh Ks As", cw)
    assert higher("3d 4d 5d 6d 7s", "3c 4c 5c 6c 7h", cw)  # by the highest card
    assert higher("3c 5c 8c 9c Jc", "Jd Qh Kh As 2s", cw)  # any flush beats any straight
    assert higher("3d 3c 8d 8c 8h", "3s 5s 8s 9s 2s", cw)  # any full house beats any flush
    assert higher("6d 8d 9d Td Kd", "7s 9s Ts Js Qs", cw)  # flushes by the highest card
    sf = suited("34567", "d")
    assert higher(sf, "Ad Ac 2d 2c 2h", cw)  # a straight flush beats a full house
    # a straight flush cannot be beaten, not even by a higher one
    assert not meet(suited("9TJQK", "s"), sf, cw)
    assert not beats(suited("TJQKA", "s"), suited("9TJQK", "s"), Rules.preset(cw))


# -- taiwan ------------------------------------------------------------------------------------
def test_taiwan_suit_order_and_bombs() -> None:
    tw = "taiwan"
    assert higher("3d", "3c", tw) and higher("3h", "3d", tw) and higher("3s", "3h", tw)
    four, straight_flush = "4d 4c 4h 4s 3d", suited("34567", "h")
    assert kind(four, tw) == "four_of_a_kind" and kind(straight_flush, tw) == "straight_flush"
    for target in ("2s", "2s 2h", "Ad Ac As", "9d Tc Jh Qs Kd", "3c 5c 8c 9c Jc", "3s 3h 8d 8c 8h"):
        assert higher(four, target, tw), target
        assert higher(straight_flush, target, tw), target
    assert higher(straight_flush, four, tw)
    assert higher("5d 5c 5h 5s 3s", four, tw)
    assert higher(suited("45678", "d"), straight_flush, tw)
    # other kinds meet only the same kind
    assert not meet("9d Tc Jh Qs Kd", "3c 5c 8c 9c Jc", tw)
    assert not meet("3c 5c 8c 9c Jc", "3s 3h 8d 8c 8h", tw)
    assert higher("4d 5c 6h 7s 8d", "3d 4c 5h 6s 7d", tw)
    assert higher("2d 3c 4h 5s 6d", "Td Jc Qh Ks As", tw)  # 23456 is the top straight


# -- pusoy-dos -----------------------------------------------------------------------------------
def test_pusoy_dos_suits_and_flushes() -> None:
    pd = "pusoy-dos"
    assert higher("3s", "3c", pd) and higher("3h", "3s", pd) and higher("3d", "3h", pd)
    assert higher("2d", "2h", pd) and higher("2d 2c", "2h 2s", pd)
    assert higher("3d 5d 7d 9d Jd", "4h 6h 8h Th 2h", pd)  # flushes by suit first
    assert higher("3d 5d 7d 9d Kd", "4d 6d 8d Td Qd", pd)  # same suit: by top card
    assert kind("Jd Qc Kh As 2d", pd) == "straight" and kind("Ad 2c 3h 4s 5d", pd) is None


# -- rule options that change what a play is --------------------------------------------------
def test_triples_option() -> None:
    rules = Rules.preset("palm").replace(triples=False)
    assert classify("5d 5c 5s", rules) is None
    assert classify("5d 5c 5s 6d 6c", rules) is not None  # full houses still exist


def test_kinds_beat_lower_option() -> None:
    rules = Rules.preset("palm").replace(kinds_beat_lower=False)
    assert not beats("3c 5c 8c 9c Jc", "3d 4c 5h 6s 7d", rules)
    assert beats("4d 5c 6h 7s 8d", "3d 4c 5h 6s 7d", rules)


def test_five_kinds_order_option() -> None:
    rules = Rules.preset("palm").replace(
        five_kinds=["flush", "straight", "full_house", "four_of_a_kind", "straight_flush"]
    )
    assert beats("3d 4c 5h 6s 7d", "3c 5c 8c 9c Jc", rules)
    assert not beats("3c 5c 8c 9c Jc", "3d 4c 5h 6s 7d", rules)


def test_straight_tiebreak_option() -> None:
    top_of_sequence = Rules.preset("palm")
    highest_card = top_of_sequence.replace(straight_tiebreak="highest_card")
    a, b = "Ad 2s 3c 4c 5c", "As 2d 3d 4d 5s"  # the 2s against the 5s
    assert beats(b, a, top_of_sequence) and not beats(a, b, top_of_sequence)
    assert beats(a, b, highest_card) and not beats(b, a, highest_card)


def test_flush_order_option() -> None:
    suit_first = Rules.preset("palm").replace(flush_order="suit_first")
    assert beats("6s 8s Ts Js Qs", "3d 5d 7d 9d Ad", suit_first)


def test_bombs_option_with_kinds_beat_lower() -> None:
    rules = Rules.preset("palm").replace(bombs=["straight_flush"])
    sf = suited("34567", "c")
    assert beats(sf, "2s", rules) and beats(sf, "2s 2h", rules) and beats(sf, "2s 2h 2d", rules)
    assert beats(sf, "4d 4c 4h 4s 2s", rules)
    assert not beats("2s", sf, rules)
    assert not beats("2s", "2h 2d", rules)  # bombs aside, sizes still must match


def test_four_card_bombs() -> None:
    rules = Rules.preset("charlesworth2018").replace(bombs=["bare_four"])
    assert beats("3d 3c 3h 3s", "2s", rules) and beats("3d 3c 3h 3s", suited("3579J", "h"), rules)
    assert not beats("3d 3c 3h 3s", suited("34567", "h"), rules)  # still unbeatable
    assert beats("4d 4c 4h 4s", "3d 3c 3h 3s", rules)
    assert not beats("2s 2h 2d", "3d 3c 3h 3s", rules)


def test_straight_flush_beatable_option() -> None:
    rules = Rules.preset("palm").replace(straight_flush_beatable=False)
    assert not beats(suited("9TJQK", "s"), suited("34567", "s"), rules)
    assert beats(suited("34567", "s"), "4d 4c 4h 4s 2s", rules)


def test_house_rules_without_straight_flushes_keep_a_straight_a_straight() -> None:
    rules = Rules.preset("palm").replace(five_kinds=["straight", "full_house"])
    assert kind_of(suited("34567", "h"), rules) == "straight"
    rules = Rules.preset("palm").replace(five_kinds=["flush", "full_house"])
    assert kind_of(suited("34567", "h"), rules) == "flush"


def kind_of(text: str, rules: Rules) -> str | None:
    play = classify(text, rules)
    return None if play is None else play.kind.value


# -- the Play value ------------------------------------------------------------------------
def test_play_value() -> None:
    palm = Rules.preset("palm")
    play = classify("7d 8c 9d Ts Jd", palm)
    assert play is not None
    assert str(play) == "7d 8c 9d Ts Jd" and play.symbols() == "7♦ 8♣ 9♦ 10♠ J♦"
    assert repr(play) == "<Play straight 7d 8c 9d Ts Jd>"
    assert play.cards == parse_cards("7d 8c 9d Ts Jd") and play.size == 5
    assert play.kind.label == "straight" and Kind.FULL_HOUSE.label == "full house"
    assert classify(play, palm) is play and classify(play.mask, palm) is play
    assert classify(parse_cards("Jd Ts 9d 8c 7d"), palm) == play
    assert hash(play) == hash(classify("7d 8c 9d Ts Jd", Rules.preset("textbook")))
    with pytest.raises(AttributeError):
        play.power = 0


def test_beats_with_a_non_play_is_false() -> None:
    palm = Rules.preset("palm")
    assert not beats("2s 3d", "3c", palm) and not beats("3c", "2s 3d", palm)


def test_play_order_is_size_kind_power_mask() -> None:
    palm = Rules.preset("palm")
    names = ["2s", "3d 3c", "3d 3h", "4d 4c", "3d 3c 3h", "3d 4c 5h 6s 7d", "3c 5c 8c 9c Jc"]
    plays = [classify(n, palm) for n in names]
    assert all(p is not None for p in plays)
    orders = [p.order for p in plays if p is not None]
    assert orders == sorted(orders)


# -- properties ------------------------------------------------------------------------------
def random_plays(rules: Rules, rng: random.Random, count: int) -> list[Play]:
    """Plays drawn from random 13-card hands (so any kind, at its natural frequency)."""
    catalog = catalog_for(rules)
    out: list[Play] = []
    while len(out) < count:
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        out.append(rng.choice(catalog.plays_in(hand)))
    return out


def random_plays_of_one_group(rules: Rules, rng: random.Random, count: int) -> list[Play]:
    catalog = catalog_for(rules)
    hand = sum(1 << c for c in rng.sample(range(52), 13))
    first = rng.choice(catalog.plays_in(hand))
    out = [first]
    while len(out) < count:
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        same = [p for p in catalog.plays_in(hand) if p.group == first.group]
        if same:
            out.append(rng.choice(same))
    return out


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_beats_is_a_strict_order(preset: str, seed: int) -> None:
    rules = Rules.preset(preset)
    catalog = catalog_for(rules)
    rng = random.Random(seed)
    for a, b, c in (random_plays(rules, rng, 3), random_plays_of_one_group(rules, rng, 3)):
        for x in (a, b, c):
            assert not catalog.beats(x, x)  # irreflexive
        for x, y in ((a, b), (b, c), (a, c)):
            assert not (catalog.beats(x, y) and catalog.beats(y, x))  # asymmetric
        for x, y, z in ((a, b, c), (a, c, b), (b, a, c), (b, c, a), (c, a, b), (c, b, a)):
            if catalog.beats(x, y) and catalog.beats(y, z):
                assert catalog.beats(x, z), (x, y, z)  # transitive
        for x, y in ((a, b), (b, c), (a, c)):
            # two plays with no card in common in one group: exactly one beats the other
            unbeatable = rules.straight_flush_beatable is False and Kind.STRAIGHT_FLUSH in (
                x.kind,
                y.kind,
            )
            if x.group == y.group and not x.mask & y.mask and not unbeatable:
                assert catalog.beats(x, y) != catalog.beats(y, x), (x, y)
            if x.kind is y.kind and catalog.beats(x, y):
                assert x.order > y.order  # cheapest first means weakest first
            if x.size != y.size and catalog.beats(x, y):
                assert x.group == "bomb"


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=100, deadline=None)
@given(mask=st.integers(0, FULL_DECK), size=st.integers(1, 6))
def test_classify_agrees_with_a_naive_reading(preset: str, mask: int, size: int) -> None:
    """Classify random small sets the slow way and compare the kinds."""
    rules = Rules.preset(preset)
    cards = [c for c in range(52) if mask >> c & 1][:size]
    play = classify(sum(1 << c for c in cards), rules) if cards else None
    assert (None if play is None else play.kind.value) == naive_kind(cards, rules)


def naive_kind(cards: list[int], rules: Rules) -> str | None:
    ranks = sorted(c // 4 for c in cards)
    counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
    n = len(cards)
    if n == 0 or n > 5:
        return None
    if n == 1:
        return "single"
    if n == 2:
        return "pair" if counts == [2] else None
    if n == 3:
        return "triple" if counts == [3] and rules.triples else None
    if n == 4:
        if counts == [4]:
            return "bare_four" if "bare_four" in rules.four_card_kinds else None
        if counts == [2, 2]:
            return "two_pair" if "two_pair" in rules.four_card_kinds else None
        return None
    five = rules.five_kinds
    if counts == [4, 1]:
        return "four_of_a_kind" if "four_of_a_kind" in five else None
    if counts == [3, 2]:
        return "full_house" if "full_house" in five else None
    letters = {"3456789TJQKA2"[r] for r in ranks}
    straight = any(set(seq) == letters for seq in rules.straights) and counts == [1] * 5
    flush = len({c % 4 for c in cards}) == 1
    if straight and flush and "straight_flush" in five:
        return "straight_flush"
    if straight and "straight" in five:
        return "straight"
    if flush and "flush" in five:
        return "flush"
    return None


def test_only_the_recently_used_catalogues_are_kept() -> None:
    """Each rule set gets a catalogue; a server's rooms may each bring their own options, so
    only the last MAX_CATALOGS are kept, and one let go is built again, with equal plays."""
    from bigtwo.engine import plays as plays_module

    palm = Rules.preset("palm")
    first = plays_module.catalog_for(palm)
    pair = parse_cards("3d 3c")
    before = classify(pair, palm)
    # Rule sets that differ only in their name: each is a rule set of its own.
    others = [palm.replace(name=f"room {i}") for i in range(plays_module.MAX_CATALOGS + 5)]
    for rules in others:
        assert classify(pair, rules) == before
    assert len(plays_module._CATALOGS) == plays_module.MAX_CATALOGS
    assert palm not in plays_module._CATALOGS
    again = plays_module.catalog_for(palm)
    assert again is not first
    assert classify(pair, palm) == before
    # The rule set used last stays, the oldest goes.
    assert others[-1] in plays_module._CATALOGS
    assert others[0] not in plays_module._CATALOGS
