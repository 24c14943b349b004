"""A Card given where the engine takes cards is that one card, never a mask.

``Card`` is an ``int`` (its index), and every parameter that takes cards reads a plain ``int``
as a mask of cards; without a check at each public entry, ``classify(Card.parse("4d"))`` read
card 4 as the mask 0b100 and answered 3♥. Here every public function that takes cards is given
a Card and, side by side, a one-card CardSet of the same card, under every preset: the two
must behave exactly alike (the same answer, or the same error in the same words).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import (
    Card,
    CardSet,
    Deal,
    HandPlays,
    Rules,
    beats,
    card_symbols,
    card_text,
    catalog_for,
    classify,
    legal_plays,
    opening_of,
    preset_names,
    to_mask,
)
from bigtwo.engine.deal import deal_hands
from random_play import advance

PRESETS = preset_names()
card_numbers = st.integers(0, 51)
hands = st.sets(card_numbers, min_size=1, max_size=13).map(lambda cs: CardSet(list(cs)))


def outcome(call: Callable[[], Any]) -> tuple[str, Any]:
    """What a call does: its answer, or the kind and words of the error it raises."""
    try:
        return "answer", call()
    except Exception as error:  # noqa: BLE001 - the error itself is what is compared
        return type(error).__name__, str(error)


def as_card_and_set(number: int) -> tuple[Card, CardSet]:
    card = Card(number)
    alone = CardSet([number])
    assert len(alone) == 1 and card in alone
    return card, alone


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS), card_numbers)
def test_naming_and_classifying_one_card(name: str, number: int) -> None:
    rules = Rules.preset(name)
    card, alone = as_card_and_set(number)
    assert to_mask(card) == to_mask(alone) == 1 << number
    assert CardSet(card) == CardSet(alone) == alone
    assert card_text(card) == card_text(alone.mask) == str(alone)
    assert card_symbols(card) == card_symbols(alone.mask) == alone.symbols()
    assert Card(alone) == card
    play = classify(card, rules)
    assert play is not None and play == classify(alone, rules)
    assert play.mask == 1 << number and play.size == 1


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS), card_numbers, card_numbers)
def test_beats_one_card(name: str, first: int, second: int) -> None:
    rules = Rules.preset(name)
    card_a, set_a = as_card_and_set(first)
    card_b, set_b = as_card_and_set(second)
    expected = beats(set_a, set_b, rules)
    assert beats(card_a, card_b, rules) == expected
    assert beats(card_a, set_b, rules) == expected
    assert beats(set_a, card_b, rules) == expected


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS), hands, card_numbers)
def test_legal_plays_with_one_card(name: str, hand: CardSet, number: int) -> None:
    rules = Rules.preset(name)
    card, alone = as_card_and_set(number)
    # the hand itself one card
    assert outcome(lambda: legal_plays(card, rules)) == outcome(lambda: legal_plays(alone, rules))
    # a single to beat
    assert outcome(lambda: legal_plays(hand, rules, to_beat=card)) == outcome(
        lambda: legal_plays(hand, rules, to_beat=alone)
    )
    # the card a lead must include
    with_card = outcome(lambda: legal_plays(hand, rules, must_include=card))
    assert with_card == outcome(lambda: legal_plays(hand, rules, must_include=alone))
    assert with_card == outcome(lambda: legal_plays(hand, rules, must_include=str(card)))
    assert with_card[0] == "answer"
    assert all(p.mask >> number & 1 for p in with_card[1])
    assert bool(with_card[1]) == (card in hand)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PRESETS), hands, card_numbers)
def test_hand_plays_with_one_card(name: str, hand: CardSet, number: int) -> None:
    catalog = catalog_for(Rules.preset(name))
    card, alone = as_card_and_set(number)
    assert HandPlays(catalog, card).plays == HandPlays(catalog, alone).plays
    assert HandPlays(catalog, card).hand == alone.mask
    whole = HandPlays(catalog, hand)
    assert whole.without(card).plays == whole.without(alone).plays
    assert whole.without(card).hand == (hand - alone).mask
    assert whole.leads(card) == whole.leads(alone)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 1 << 30), st.integers(0, 40), card_numbers)
def test_deal_plays_one_card(name: str, seed: int, steps: int, number: int) -> None:
    rules = Rules.preset(name)
    deal = Deal.from_seed(rules, seed)
    rng = random.Random(seed)
    advance(deal, rng, steps)  # a random point of a random deal
    card, alone = as_card_and_set(number)
    seat = deal.turn
    checked = outcome(lambda: deal.verify_play(seat, card))
    assert checked == outcome(lambda: deal.verify_play(seat, alone))
    played = outcome(lambda: deal.play(seat, card))
    assert played[0] == checked[0]
    if played[0] == "answer":
        hands_after = list(deal.hands)
        deal.undo()
        assert outcome(lambda: deal.play(seat, alone)) == played
        assert deal.hands == hands_after
    else:
        assert outcome(lambda: deal.play(seat, alone)) == played


@settings(max_examples=100, deadline=None)
@given(st.sampled_from(PRESETS), st.integers(0, 1 << 30))
def test_dealing_one_card_hands(name: str, seed: int) -> None:
    rules = Rules.preset(name)
    players = max(rules.players)
    dealt = deal_hands(rules, players, random.Random(seed))
    # each seat keeps only its lowest card, named once as a Card and once as a CardSet
    lowest = [(h & -h).bit_length() - 1 for h in dealt]
    as_cards = [Card(n) for n in lowest]
    as_sets = [CardSet([n]) for n in lowest]
    assert opening_of(rules, as_cards) == opening_of(rules, as_sets)
    a, b = outcome(lambda: Deal(rules, as_cards)), outcome(lambda: Deal(rules, as_sets))
    assert a[0] == b[0]
    if a[0] == "answer":
        assert list(a[1].dealt) == list(b[1].dealt) == [1 << n for n in lowest]
        assert a[1].hands == b[1].hands
        assert a[1].turn == b[1].turn and a[1].actions == b[1].actions
    else:
        assert a == b
