"""Cards, sets of cards and their notation.

A card is an ``int`` from 0 to 51 (a :data:`CardIndex`), ``rank * 4 + suit``: ranks
3 4 5 6 7 8 9 T J Q K A 2 are 0..12 and suits ♦ ♣ ♥ ♠ are 0..3, so 3♦ is 0 and 2♠ is 51. A set
of cards is a 52-bit ``int`` (a :data:`Mask`). :class:`Card` and :class:`CardSet` are thin
value objects over those ints that parse and print notation; the hot paths of the engine use
the bare ints. Wherever the engine takes cards, a :class:`Card` is that one card (never read
as a mask) and a plain ``int`` is a mask. Which suit outranks which is a rule, not a property
of the card: see :mod:`bigtwo.engine.rules`.

>>> parse_cards("3d 10h ♠2")
CardSet('3d Th 2s')
>>> print(parse_cards("3d 10h ♠2").symbols())
3♦ 10♥ 2♠
>>> Card.parse("Th").rank_char, Card.parse("Th").suit_char
('T', 'h')
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import NewType, SupportsIndex, TypeAlias, overload

from .errors import NotationError

RANKS = "3456789TJQKA2"
SUITS = "dchs"
SUIT_SYMBOLS = "♦♣♥♠"
RANK_NAMES = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
FULL_DECK = (1 << 52) - 1

_SUIT_OF_CHAR = {
    "d": 0, "c": 1, "h": 2, "s": 3,
    "♦": 0, "♣": 1, "♥": 2, "♠": 3,
    "♢": 0, "♧": 1, "♡": 2, "♤": 3,
}  # fmt: skip
_RANK_OF_CHAR = {c: i for i, c in enumerate(RANKS)} | {"10": 7}
_RANK_PATTERN = r"10|[2-9TJQKAtjqka]"
_SUIT_PATTERN = r"[dchsDCHS♦♣♥♠♢♧♡♤]"
_CARD_RE = re.compile(
    rf"(?P<r1>{_RANK_PATTERN})(?P<s1>{_SUIT_PATTERN})|(?P<s2>{_SUIT_PATTERN})(?P<r2>{_RANK_PATTERN})"
)
_SEPARATORS = re.compile(r"[\s,;]+")

CardIndex = NewType("CardIndex", int)
"""One card as a bare ``int`` 0..51, ``rank * 4 + suit``."""
Mask = NewType("Mask", int)
"""A set of cards as a bare 52-bit ``int``: bit ``i`` holds the card whose index is ``i``."""


def card_indices(mask: Mask) -> list[CardIndex]:
    """The card indices in ``mask``, ascending.

    >>> card_indices(Mask(0b1011))
    [0, 1, 3]
    """
    out: list[int] = []
    bits: int = mask
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out  # type: ignore[return-value]  # each is a CardIndex: no NewType call per card


class Card(int):
    """One card: an ``int`` 0..51 with notation.

    >>> Card.parse("3d") == 0 and Card.parse("2s") == 51
    True
    >>> Card.parse("♥10")
    Card.parse('Th')
    >>> str(Card(51)), Card(51).symbol()
    ('2s', '2♠')
    """

    __slots__ = ()

    def __new__(cls, index: SupportsIndex) -> Card:
        if not isinstance(index, int) and isinstance(index, CardSet):
            # a CardSet's int is its mask: Card(parse_cards("3d")) must be 3d, not card 1
            if len(index) != 1:
                raise NotationError(f"'{index}' is not one card", str(index))
            return CARDS[index.mask.bit_length() - 1]
        value = int(index)
        if not 0 <= value < 52:
            raise NotationError(f"There is no card number {value}: cards are 0 to 51", str(value))
        return super().__new__(cls, value)

    @classmethod
    def parse(cls, token: str) -> Card:
        """Read one card such as ``3d``, ``3D``, ``Th``, ``10h``, ``3♦`` or ``♦3``."""
        text = token.strip()
        match = _CARD_RE.fullmatch(text)
        if match is None:
            raise NotationError(f"'{token}' is not a card (write it like 3d, Th, 10h or 3♦)", token)
        rank_text = match["r1"] or match["r2"]
        suit_text = match["s1"] or match["s2"]
        return cls(_RANK_OF_CHAR[rank_text.upper()] * 4 + _SUIT_OF_CHAR[suit_text.lower()])

    @property
    def rank(self) -> int:
        return int(self) >> 2

    @property
    def suit(self) -> int:
        return int(self) & 3

    @property
    def rank_char(self) -> str:
        return RANKS[self.rank]

    @property
    def suit_char(self) -> str:
        return SUITS[self.suit]

    @property
    def mask(self) -> Mask:
        """The set of this one card."""
        return Mask(1 << int(self))

    def symbol(self) -> str:
        """The card for people: ``10♥``."""
        return RANK_NAMES[self.rank] + SUIT_SYMBOLS[self.suit]

    def __str__(self) -> str:
        return _TEXTS[self]

    def __repr__(self) -> str:
        return f"Card.parse('{self}')"


CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
# Each card's ASCII notation by index, and the cards by that notation: the server writes and
# every client reads cards in it (thousands of times a second), so both skip the general parser.
# Ids 52..103 are Big 2 RevolutioN's Revolution cards (``bigtwo.engine.revolution_cards``): a
# normal card's twin with a star, ``Qs*`` (``Q♠*``), so the notation of a play of the expansion
# (a 104-bit mask) is written here too.
_TEXTS: tuple[str, ...] = tuple(RANKS[i >> 2] + SUITS[i & 3] for i in range(52))
_CARD_OF_TEXT: dict[str, Card] = {text: card for text, card in zip(_TEXTS, CARDS, strict=True)}
_TEXTS_104: tuple[str, ...] = _TEXTS + tuple(t + "*" for t in _TEXTS)
_SYMBOLS_104: tuple[str, ...] = tuple(c.symbol() for c in CARDS) + tuple(
    c.symbol() + "*" for c in CARDS
)


def card_text(cards: Card | Mask) -> str:
    """ASCII notation of a mask (or of one card), ascending: ``3d 4c 5h`` (a Revolution card
    of a 104-bit mask with its star, ``7s*``)."""
    if isinstance(cards, Card):
        return _TEXTS[cards]
    texts = _TEXTS_104
    return " ".join([texts[i] for i in card_indices(cards)])


def card_symbols(cards: Card | Mask) -> str:
    """Notation for people: ``3♦ 4♣ 5♥`` (a Revolution card with its star, ``7♠*``)."""
    if isinstance(cards, Card):
        return cards.symbol()
    return " ".join([_SYMBOLS_104[i] for i in card_indices(cards)])


class CardSet:
    """An immutable set of cards over a 52-bit mask, iterated in ascending order.

    >>> hand = parse_cards("Kd 3d 2s")
    >>> len(hand), hand[0], list(hand)
    (3, Card.parse('3d'), [Card.parse('3d'), Card.parse('Kd'), Card.parse('2s')])
    >>> Card.parse("Kd") in hand, str(hand - parse_cards("Kd"))
    (True, '3d 2s')
    >>> CardSet("2s 3d") == CardSet([0, 51])
    True

    A plain ``int`` is a mask, but a :class:`Card` is that one card:

    >>> CardSet(0b11), CardSet(Card.parse("Kd"))
    (CardSet('3d 3c'), CardSet('Kd'))
    """

    __slots__ = ("mask",)
    mask: Mask

    def __init__(self, cards: Cards = Mask(0)) -> None:
        if isinstance(cards, str):
            mask = parse_cards(cards).mask  # so that the repr is valid code
        elif isinstance(cards, (Card, CardSet)):  # a Card before the plain int: it is no mask
            mask = cards.mask
        elif isinstance(cards, int):
            if cards < 0 or cards > FULL_DECK:
                raise NotationError(f"{cards} is not a set of cards", str(cards))
            mask = cards
        else:
            bits = 0
            for card in cards:
                bits |= 1 << Card(card)
            mask = Mask(bits)
        object.__setattr__(self, "mask", mask)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("CardSet is immutable")

    def __reduce__(self) -> tuple[type[CardSet], tuple[Mask]]:
        # pickle would restore the slot by assignment, which an immutable value refuses
        return CardSet, (self.mask,)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return parse_cards(text)

    def __iter__(self) -> Iterator[Card]:
        return (CARDS[i] for i in card_indices(self.mask))

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    @overload
    def __getitem__(self, index: int) -> Card: ...
    @overload
    def __getitem__(self, index: slice) -> list[Card]: ...
    def __getitem__(self, index: int | slice) -> Card | list[Card]:
        cards = [CARDS[i] for i in card_indices(self.mask)]
        return cards[index]

    def __contains__(self, card: object) -> bool:
        if isinstance(card, int) and 0 <= card < 52:
            return bool(self.mask >> card & 1)
        return False

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("CardSet", self.mask))

    def __or__(self, other: CardSet) -> CardSet:
        return CardSet(Mask(self.mask | other.mask))

    def __and__(self, other: CardSet) -> CardSet:
        return CardSet(Mask(self.mask & other.mask))

    def __sub__(self, other: CardSet) -> CardSet:
        return CardSet(Mask(self.mask & ~other.mask))

    def __int__(self) -> Mask:
        return self.mask

    def __index__(self) -> Mask:
        return self.mask

    def symbols(self) -> str:
        """The cards for people, ascending: ``3♦ 10♥``."""
        return card_symbols(self.mask)

    def __str__(self) -> str:
        return card_text(self.mask)

    def __repr__(self) -> str:
        return f"CardSet('{self}')"


def parse_cards(text: str) -> CardSet:
    """Read cards separated by spaces or commas (``3d 4c``) or run together (``3d4c``).

    A bad token or a card named twice raises :class:`NotationError` naming it.

    >>> parse_cards("3d, 4C 5♥♠6")
    CardSet('3d 4c 5h 6s')
    >>> parse_cards("3d 1x")
    Traceback (most recent call last):
    ...
    bigtwo.engine.errors.NotationError: '1x' is not a card (write it like 3d, Th, 10h or 3♦)
    """
    if not isinstance(text, str):
        raise NotationError(f"Cards must be written as text, not {type(text).__name__}")
    mask = 0
    tokens = text.split() if "," not in text and ";" not in text else _SEPARATORS.split(text)
    for token in tokens:
        if not token:
            continue
        one = _CARD_OF_TEXT.get(token)  # the common case: one card in canonical notation
        for card in _split_token(token) if one is None else (one,):
            bit = 1 << card
            if mask & bit:
                raise NotationError(f"{card} is named twice", str(card))
            mask |= bit
    return CardSet(Mask(mask))


def _split_token(token: str) -> list[Card]:
    """Cards run together in one token, such as ``3d4c``; the whole token must be cards."""
    cards: list[Card] = []
    position = 0
    while position < len(token):
        match = _CARD_RE.match(token, position)
        if match is None:
            raise NotationError(f"'{token}' is not a card (write it like 3d, Th, 10h or 3♦)", token)
        cards.append(Card.parse(match.group(0)))
        position = match.end()
    return cards


Cards: TypeAlias = "Card | Mask | str | CardSet | Iterable[Card | CardIndex]"
"""Every way the engine's public functions take cards: one :class:`Card`, a :data:`Mask`,
notation, a :class:`CardSet`, or cards (Card or :data:`CardIndex`) one by one."""


def to_mask(cards: Cards) -> Mask:
    """A mask from any way of naming cards: a Card (that one card), a mask, notation, a
    CardSet or card indices. Public functions call it once; the hot paths take the mask.

    >>> to_mask(Card.parse("4d")), to_mask(0b100), to_mask("4d"), to_mask([4])
    (16, 4, 16, 16)
    """
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, Card):  # an int too, but one card, not the mask of cards 0 and 1
        return cards.mask
    if isinstance(cards, str):
        return parse_cards(cards).mask
    return CardSet(cards).mask
