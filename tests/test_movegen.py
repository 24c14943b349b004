"""Legal moves: golden lists for known hands, and for every preset (and random house rules)
the same plays in the same order as a brute-force enumeration of every subset of the hand."""

from __future__ import annotations

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import (
    HandPlays,
    NotACombination,
    NotationError,
    Play,
    Rules,
    beats,
    catalog_for,
    classify,
    legal_plays,
    parse_cards,
    preset_names,
)
from bigtwo.engine.cards import FULL_DECK, card_indices
from bigtwo.engine.rules import FIVE_CARD_KINDS, FOUR_CARD_KINDS
from depths import depths

PRESETS = preset_names()
PALM, TEXTBOOK = Rules.preset("palm"), Rules.preset("textbook")


def names(plays: list[Play]) -> list[str]:
    return [str(p) for p in plays]


def brute_force(
    hand: int, rules: Rules, to_beat: Play | None = None, must_include: int | None = None
) -> list[Play]:
    """Every subset of 1 to 5 cards that is a play, filtered, cheapest first."""
    out: list[Play] = []
    cards = card_indices(hand)
    for size in range(1, 6):
        for combo in combinations(cards, size):
            mask = 0
            for c in combo:
                mask |= 1 << c
            play = classify(mask, rules)
            if play is None:
                continue
            if to_beat is not None:
                if not beats(play, to_beat, rules):
                    continue
            elif must_include is not None and not mask >> must_include & 1:
                continue
            out.append(play)
    out.sort(key=lambda p: p.order)
    return out


def same(got: list[Play], expected: list[Play]) -> None:
    assert [(p.mask, p.kind) for p in got] == [(p.mask, p.kind) for p in expected]


# -- golden lists ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rules", "hand", "to_beat", "must_include", "expected"),
    [
        (
            PALM,
            "Ac 2d 3h 4s 5d 6c 6h",
            None,
            None,
            ["3h", "4s", "5d", "6c", "6h", "Ac", "2d", "6c 6h", "3h 4s 5d Ac 2d",
             "3h 4s 5d 6c 2d", "3h 4s 5d 6h 2d"],
        ),
        (
            TEXTBOOK,
            "Ac 2d 3h 4s 5d 6c 6h",
            None,
            None,
            ["3h", "4s", "5d", "6c", "6h", "Ac", "2d", "6c 6h"],
        ),
        (
            PALM,
            "3d 4c 5h 6s 7d 7s 9h",
            None,
            "3d",
            ["3d", "3d 4c 5h 6s 7d", "3d 4c 5h 6s 7s"],
        ),
        (
            PALM,
            "4d 4c 4h 7s 7h Kd 2c",
            None,
            None,
            ["4d", "4c", "4h", "7h", "7s", "Kd", "2c", "4d 4c", "4d 4h", "4c 4h", "7h 7s",
             "4d 4c 4h", "4d 4c 4h 7h 7s"],
        ),
        (PALM, "4d 4c 4h 7s 7h Kd 2c", "3d 3c 3s 5d 5c", None, ["4d 4c 4h 7h 7s"]),
        (PALM, "4d 4c 4h 7s 7h Kd 2c", "6s 6h", None, ["7h 7s"]),
        (PALM, "4d 4c 4h 7s 7h Kd 2c", "3s 3h", None, ["4d 4c", "4d 4h", "4c 4h", "7h 7s"]),
        (PALM, "4d 4c 4h 7s 7h Kd 2c", "Ts Th", None, []),
        (PALM, "4d 4c 4h 7s 7h Kd 2c", "Qs", None, ["Kd", "2c"]),
        (PALM, "6s 8s Ts Js Qs 9h Jh", "3d 5d 7d 9d Ad", None, []),
        (TEXTBOOK, "6s 8s Ts Js Qs 9h Jh", "3d 5d 7d 9d Ad", None, ["6s 8s Ts Js Qs"]),
        (PALM, "Jd Qc Kh As 2d 2s Kd", "9d Tc Jh Qs Ks", None, []),
        (
            TEXTBOOK,
            "Jd Qc Kh As 2d 2s Kd",
            "9d Tc Jh Qs Ks",
            None,
            ["Jd Qc Kd As 2d", "Jd Qc Kh As 2d", "Jd Qc Kd As 2s", "Jd Qc Kh As 2s"],
        ),
        (
            PALM,
            "5d 6d 7d 8d 9d 9s 9c 5s Th",
            "3c 4d 5h 6s 7s",
            None,
            ["5s 6d 7d 8d 9d", "5d 6d 7d 8d 9c", "5s 6d 7d 8d 9c", "5d 6d 7d 8d 9s",
             "5s 6d 7d 8d 9s", "6d 7d 8d 9d Th", "6d 7d 8d 9c Th", "6d 7d 8d 9s Th",
             "5d 5s 9d 9c 9s", "5d 6d 7d 8d 9d"],
        ),
    ],
)  # fmt: skip
def test_golden_legal_plays(
    rules: Rules, hand: str, to_beat: str | None, must_include: str | None, expected: list[str]
) -> None:
    include = None if must_include is None else parse_cards(must_include)[0]
    got = legal_plays(parse_cards(hand), rules, to_beat=to_beat, must_include=include)
    assert names(got) == expected


def test_legal_plays_accepts_a_play_as_the_play_to_beat() -> None:
    to_beat = classify("Qs", PALM)
    assert to_beat is not None
    assert names(legal_plays("Kd 2c 3d", PALM, to_beat=to_beat)) == ["Kd", "2c"]


def test_legal_plays_refuses_cards_to_beat_that_are_no_play() -> None:
    with pytest.raises(NotACombination, match="The cards to beat 3d 4c are not a play"):
        legal_plays("Kd 2c", PALM, to_beat="3d 4c")


def test_must_include_takes_a_card_in_any_notation() -> None:
    hand = parse_cards("3d 3c 5h")
    by_card = names(legal_plays(hand, PALM, must_include=hand[0]))
    assert by_card == ["3d", "3d 3c"]
    assert names(legal_plays(hand, PALM, must_include=0)) == by_card  # a bare int: an index
    assert names(legal_plays(hand, PALM, must_include="3d")) == by_card
    assert names(legal_plays(hand, PALM, must_include=parse_cards("3d"))) == by_card
    assert names(legal_plays(hand, PALM, must_include="3d 3c")) == ["3d 3c"]


@pytest.mark.parametrize("number", [-1, 52])
def test_must_include_refuses_a_card_number_out_of_range(number: int) -> None:
    with pytest.raises(NotationError, match=f"There is no card number {number}"):
        legal_plays("3d 3c", PALM, must_include=number)


def test_full_hand_counts() -> None:
    """A whole suit of 13 cards: 13 singles, the straight flushes and flushes of palm."""
    diamonds = sum(1 << (4 * r) for r in range(13))
    plays = legal_plays(diamonds, PALM)
    kinds = [p.kind.value for p in plays]
    assert kinds.count("single") == 13
    assert kinds.count("straight_flush") == 10
    assert kinds.count("flush") == 1287 - 10
    assert len(plays) == 13 + 1287


# -- the brute-force property -------------------------------------------------------------------
@st.composite
def structured_hands(draw: st.DrawFn) -> int:
    """Hands from a few ranks and suits, rich in straights, flushes, quads and straight
    flushes, which uniform random hands seldom hold."""
    start, length = draw(st.integers(0, 12)), draw(st.integers(5, 8))
    ranks = [(start + i) % 13 for i in range(length)]  # runs, wrapping past 2 to 3
    suits = draw(st.lists(st.integers(0, 3), unique=True, min_size=1, max_size=4))
    pool = [r * 4 + s for r in ranks for s in suits]
    cards = draw(st.lists(st.sampled_from(pool), unique=True, min_size=5, max_size=13))
    return sum(1 << c for c in cards)


hands = st.one_of(
    st.lists(st.integers(0, 51), unique=True, min_size=5, max_size=13).map(
        lambda cs: sum(1 << c for c in cs)
    ),
    structured_hands(),
)


def real_to_beat(rules: Rules, hand: int, rng: random.Random) -> Play | None:
    """A play made from cards outside the hand, of a random size, as met in real games."""
    others = [c for c in range(52) if not hand >> c & 1]
    opponent = sum(1 << c for c in rng.sample(others, min(13, len(others))))
    plays = catalog_for(rules).plays_in(opponent)
    sizes = sorted({p.size for p in plays})
    size = rng.choice(sizes)
    return rng.choice([p for p in plays if p.size == size])


def check_against_brute_force(rules: Rules, hand: int, seed: int) -> None:
    rng = random.Random(seed)
    same(legal_plays(hand, rules), brute_force(hand, rules))
    card = rng.choice(card_indices(hand))
    same(legal_plays(hand, rules, must_include=card), brute_force(hand, rules, must_include=card))
    for _ in range(3):
        to_beat = real_to_beat(rules, hand, rng)
        same(legal_plays(hand, rules, to_beat=to_beat), brute_force(hand, rules, to_beat=to_beat))


# The brute force is slow: a few dozen hands of each preset in make test (see depths).
@pytest.mark.parametrize("examples", depths(40))
@pytest.mark.parametrize("preset", PRESETS)
def test_legal_plays_equal_brute_force(preset: str, examples: int) -> None:
    rules = Rules.preset(preset)

    @settings(max_examples=examples, deadline=None)
    @given(hand=hands, seed=st.integers(0, 2**32))
    def check(hand: int, seed: int) -> None:
        check_against_brute_force(rules, hand, seed)

    check()


@st.composite
def house_rules(draw: st.DrawFn) -> Rules:
    """Random but consistent rule sets built from every option that changes the plays."""
    base = Rules.preset(draw(st.sampled_from(PRESETS)))
    five = draw(st.lists(st.sampled_from(FIVE_CARD_KINDS), unique=True))
    if "straight" in five and "flush" in five and "straight_flush" not in five:
        five.append("straight_flush")
    four = draw(st.lists(st.sampled_from(FOUR_CARD_KINDS), unique=True))
    if "four_of_a_kind" in five and "bare_four" in four:
        four.remove("bare_four")
    all_sequences = ["A2345", "23456", "34567", "45678", "56789", "6789T", "789TJ", "89TJQ",
                     "9TJQK", "TJQKA", "JQKA2", "QKA23", "KA234"]  # fmt: skip
    straights = draw(st.lists(st.sampled_from(all_sequences), unique=True, min_size=1))
    kinds = five + four
    bombs = draw(st.lists(st.sampled_from(kinds), unique=True, max_size=2)) if kinds else []
    return base.replace(
        name="house",
        suit_order="".join(draw(st.permutations("dchs"))),
        five_kinds=five,
        four_card_kinds=four,
        straights=straights,
        bombs=bombs,
        triples=draw(st.booleans()),
        kinds_beat_lower=draw(st.booleans()),
        straight_flush_beatable=draw(st.booleans()),
        flush_order=draw(st.sampled_from(["top_card", "suit_first"])),
        straight_tiebreak=draw(st.sampled_from(["top_of_sequence", "highest_card"])),
    )


@pytest.mark.parametrize("examples", depths(60))
def test_legal_plays_equal_brute_force_under_house_rules(examples: int) -> None:
    @settings(max_examples=examples, deadline=None)
    @given(rules=house_rules(), hand=hands, seed=st.integers(0, 2**32))
    def check(rules: Rules, hand: int, seed: int) -> None:
        check_against_brute_force(rules, hand, seed)

    check()


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=100, deadline=None)
@given(hand=st.integers(0, FULL_DECK), gone=st.integers(0, FULL_DECK), seed=st.integers(0, 2**32))
def test_plays_left_after_cards_leave_equal_a_fresh_enumeration(
    preset: str, hand: int, gone: int, seed: int
) -> None:
    rng = random.Random(seed)
    hand = sum(
        1 << c for c in rng.sample(card_indices(hand) or [0], min(13, hand.bit_count() or 1))
    )
    catalog = catalog_for(Rules.preset(preset))
    before = HandPlays(catalog, hand)
    after = before.without(gone & hand)
    fresh = HandPlays(catalog, hand & ~gone)
    same(after.plays, fresh.plays)
    assert after.hand == fresh.hand
    for _ in range(2):
        target = real_to_beat(catalog.rules, hand, rng)
        if target is not None:
            same(after.replies(target), fresh.replies(target))


# -- the worked examples of ENCODING.md section 5 (charlesworth2018) --------------------------
CHARLESWORTH = Rules.preset("charlesworth2018")


@pytest.mark.parametrize(
    ("hand", "to_beat", "actions", "top"),
    [
        (
            "3S 4D 5D 6H 7S 8S 9C 9H TD QS AH AS 2C",
            "3D",
            14,
            ["3S", "TD", "4D"],
        ),
        (
            "3S 4D 4H 4S 6H 7C 7H 8C 8H TC JC KD AC",
            "3D",
            14,
            ["6H", "3S", "TC"],
        ),
        (
            "3C 3H 5S 7D 7S 8D 8S 9H TD JS AS 2C",
            None,
            23,
            ["3C 3H 7D 7S", "3C 3H", "7D 8D 9H TD JS"],
        ),
        (
            "3S 5H 5S 6S 7S JD JC JS QC QH QS KD",
            "3C 4C 5C 6D 7C",
            15,
            ["3S 5S 6S 7S JS", "5H 5S JD JC JS", "JD JC JS QC QS"],
        ),
        (
            "4S 6H 7D 9D TS JH QD KH AC AS 2D 2C",
            "8C 8H",
            3,
            ["AC AS", "2D 2C"],
        ),
    ],
)
def test_charlesworth_worked_examples(
    hand: str, to_beat: str | None, actions: int, top: list[str]
) -> None:
    """The number of legal actions (a pass counts as one when not in control) and the
    network's favourite plays of each worked example are legal here too."""
    plays = legal_plays(hand, CHARLESWORTH, to_beat=to_beat)
    assert len(plays) + (to_beat is not None) == actions
    masks = {p.mask for p in plays}
    for cards in top:
        assert parse_cards(cards).mask in masks, cards
