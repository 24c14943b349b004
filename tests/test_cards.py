"""Cards and notation: parsing every accepted spelling, printing, errors that name the bad
token, CardSet behaviour, and round trips of notation (ASCII and symbols)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import (
    CARDS,
    BigTwoError,
    Card,
    CardSet,
    NotationError,
    card_symbols,
    card_text,
    parse_cards,
    to_mask,
)
from bigtwo.engine.cards import FULL_DECK, RANK_NAMES, RANKS, SUIT_SYMBOLS, SUITS, card_indices

masks = st.integers(min_value=0, max_value=FULL_DECK)
card_ints = st.integers(min_value=0, max_value=51)


# -- one card ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "index"),
    [
        ("3d", 0),
        ("3D", 0),
        ("3♦", 0),
        ("♦3", 0),
        ("3c", 1),
        ("3♣", 1),
        ("Th", 7 * 4 + 2),
        ("TH", 7 * 4 + 2),
        ("th", 7 * 4 + 2),
        ("10h", 7 * 4 + 2),
        ("10H", 7 * 4 + 2),
        ("10♥", 7 * 4 + 2),
        ("♥10", 7 * 4 + 2),
        ("♥T", 7 * 4 + 2),
        ("Jc", 8 * 4 + 1),
        ("Qh", 9 * 4 + 2),
        ("Kd", 10 * 4),
        ("As", 11 * 4 + 3),
        ("2s", 51),
        ("2♠", 51),
        ("♠2", 51),
        ("2♤", 51),
        (" 2s ", 51),
    ],
)
def test_card_parses_every_spelling(text: str, index: int) -> None:
    assert Card.parse(text) == index


def test_card_prints_ascii_and_symbols() -> None:
    ten = Card.parse("10h")
    assert str(ten) == "Th"
    assert ten.symbol() == "10♥"
    assert (ten.rank, ten.suit, ten.rank_char, ten.suit_char) == (7, 2, "T", "h")
    assert ten.mask == 1 << ten
    assert repr(ten) == "Card.parse('Th')"
    assert str(Card(0)) == "3d" and Card(0).symbol() == "3♦"
    assert str(Card(51)) == "2s" and Card(51).symbol() == "2♠"


def test_card_repr_is_valid_code() -> None:
    for card in CARDS:
        assert eval(repr(card)) == card  # noqa: S307 - the repr is meant to be code


def test_deck_is_ranked_rank_then_suit() -> None:
    assert [str(c) for c in CARDS[:5]] == ["3d", "3c", "3h", "3s", "4d"]
    assert len(CARDS) == 52 and len(set(CARDS)) == 52
    assert all(CARDS[i] == i for i in range(52))


@pytest.mark.parametrize("bad", ["1x", "3x", "11h", "Xd", "d", "3", "", "3dd", "♦", "1♦", "ZZ"])
def test_bad_card_names_the_token(bad: str) -> None:
    with pytest.raises(NotationError) as err:
        Card.parse(bad)
    assert f"'{bad}'" in str(err.value)
    assert err.value.token == bad
    assert isinstance(err.value, BigTwoError) and isinstance(err.value, ValueError)


@pytest.mark.parametrize("number", [-1, 52, 100])
def test_card_number_out_of_range(number: int) -> None:
    with pytest.raises(NotationError, match=str(number)):
        Card(number)


# -- sets of cards -------------------------------------------------------------------------
def test_parse_cards_separators_and_run_together() -> None:
    expected = CardSet([0, 5, 10, 15])
    for text in ("3d 4c 5h 6s", "3d,4c,5h,6s", "3d, 4C; 5♥ ♠6", "3d4c5h6s", " 3d  4c\t5h\n6s "):
        assert parse_cards(text) == expected
    assert parse_cards("") == CardSet()
    assert CardSet.parse("3d 4c") == parse_cards("3d 4c")


def test_parse_cards_bad_token_is_named() -> None:
    with pytest.raises(NotationError) as err:
        parse_cards("3d 4c 1x 5h")
    assert "'1x'" in str(err.value) and err.value.token == "1x"
    with pytest.raises(NotationError, match="'3d9z'"):
        parse_cards("3d9z")


def test_parse_cards_duplicate_is_named() -> None:
    with pytest.raises(NotationError, match="3d is named twice") as err:
        parse_cards("3d 4c 3D")
    assert err.value.token == "3d"


def test_parse_cards_refuses_non_text() -> None:
    with pytest.raises(NotationError, match="text"):
        parse_cards(123)  # type: ignore[arg-type]


def test_cardset_behaves_like_an_ordered_set() -> None:
    hand = parse_cards("Kd 3d 2s 10h")
    assert len(hand) == 4 and bool(hand) and not CardSet()
    assert [str(c) for c in hand] == ["3d", "Th", "Kd", "2s"]
    assert str(hand[0]) == "3d" and [str(c) for c in hand[1:3]] == ["Th", "Kd"]
    assert Card.parse("Kd") in hand and Card.parse("Ks") not in hand and "Kd" not in hand
    assert str(hand - parse_cards("Kd 3c")) == "3d Th 2s"
    assert str(hand & parse_cards("Kd Ks")) == "Kd"
    assert str(hand | parse_cards("Ks")) == "3d Th Kd Ks 2s"
    assert int(hand) == hand.mask == to_mask("3d Th Kd 2s")
    assert hash(hand) == hash(parse_cards("2s Kd Th 3d"))
    assert hand.symbols() == "3♦ 10♥ K♦ 2♠"
    assert repr(hand) == "CardSet('3d Th Kd 2s')"
    assert (hand == "3d Th Kd 2s") is False


def test_cardset_is_immutable() -> None:
    hand = parse_cards("3d")
    with pytest.raises(AttributeError):
        hand.mask = 5


def test_cardset_refuses_bad_masks_and_cards() -> None:
    with pytest.raises(NotationError):
        CardSet(-1)
    with pytest.raises(NotationError):
        CardSet(1 << 52)
    with pytest.raises(NotationError):
        CardSet([0, 52])


def test_to_mask_accepts_every_way_of_naming_cards() -> None:
    mask = 1 | 1 << 51
    assert to_mask(mask) == mask
    assert to_mask("3d 2s") == mask
    assert to_mask(CardSet(mask)) == mask
    assert to_mask([0, 51]) == mask
    assert to_mask([Card(0), Card(51)]) == mask


def test_a_card_is_one_card_not_a_mask() -> None:
    """Card 4 (4d) is an int 4, which as a mask would be 3h: wherever cards are taken, a
    Card is that one card, and a plain int stays a mask."""
    four = Card.parse("4d")
    assert to_mask(four) == four.mask == 1 << 4
    assert to_mask(4) == 1 << 2
    assert CardSet(four) == parse_cards("4d") and CardSet(4) == parse_cards("3h")
    assert card_text(four) == "4d" and card_symbols(four) == "4♦"


def test_a_card_from_a_card_set_is_its_one_card() -> None:
    # a CardSet's int is its mask (1 for 3d), which must not be read as card number 1
    assert Card(parse_cards("3d")) == Card.parse("3d")
    with pytest.raises(NotationError, match="'3d 4c' is not one card"):
        Card(parse_cards("3d 4c"))
    with pytest.raises(NotationError, match="is not one card"):
        Card(CardSet())


def test_card_text_and_symbols_of_masks() -> None:
    assert card_text(to_mask("Th 3d")) == "3d Th"
    assert card_symbols(to_mask("Th 3d")) == "3♦ 10♥"
    assert card_text(0) == "" and card_symbols(0) == ""


# -- properties ----------------------------------------------------------------------------
def test_every_card_round_trips_every_spelling() -> None:
    for card in CARDS:
        rank, suit = RANKS[card.rank], SUITS[card.suit]
        name, symbol = RANK_NAMES[card.rank], SUIT_SYMBOLS[card.suit]
        spellings = {
            str(card),
            card.symbol(),
            rank + suit.upper(),
            rank.lower() + suit,
            name + suit,
            symbol + name,
            symbol + rank,
            rank + symbol,
        }
        for text in spellings:
            assert Card.parse(text) == card, text
        assert Card.parse(card.symbol()).symbol() == card.symbol()


@settings(max_examples=300, deadline=None)
@given(masks)
def test_cardset_round_trips_ascii_and_symbols(mask: int) -> None:
    cs = CardSet(mask)
    assert parse_cards(str(cs)) == cs
    assert parse_cards(cs.symbols()) == cs
    assert eval(repr(cs)) == cs  # noqa: S307 - the repr is meant to be code
    assert CardSet(list(cs)) == cs
    assert len(cs) == bin(mask).count("1")
    assert [int(c) for c in cs] == card_indices(mask)


@settings(max_examples=200, deadline=None)
@given(masks)
def test_card_indices_match_bit_tests(mask: int) -> None:
    assert card_indices(mask) == [i for i in range(52) if mask >> i & 1]


@settings(max_examples=200, deadline=None)
@given(st.lists(card_ints, unique=True, max_size=13), st.randoms(use_true_random=False))
def test_notation_in_any_order_and_case(indices: list[int], rng: object) -> None:
    import random

    assert isinstance(rng, random.Random)
    words = [rng.choice([str(CARDS[i]), CARDS[i].symbol(), str(CARDS[i]).upper()]) for i in indices]
    rng.shuffle(words)
    assert parse_cards(" ".join(words)).mask == sum(1 << i for i in indices)
