"""The 104 cards of Big 2 RevolutioN and their notation.

A card here is an ``int`` 0..103: 0..51 are the normal deck's cards (as in
:mod:`bigtwo.engine.cards`), 52..103 the Revolution deck's, and ``id - 52`` is a Revolution
card's normal twin. A set of cards is a 104-bit ``int``. Notation adds a trailing ``*`` to a
Revolution card (``Qs*``, shown ``Q♠*``). Twins compare equal: the one catalogue of plays
(:class:`~bigtwo.engine.plays.Catalog`) classifies a 104-bit mask from its cards' twins,
duplicates kept, so ``7s 7s*`` is a pair with the strength of 7♠ and five cards of one rank
are no play; after a revolution its ``beats`` reverses the power within each kind.

>>> from bigtwo.engine.plays import catalog_for
>>> from bigtwo.engine.rules import Rules
>>> cards = catalog_for(Rules.preset("revolution"))
>>> pair = cards.classify(parse("7s 7s*"))
>>> pair.kind.value, str(pair), pair.symbols()
('pair', '7s 7s*', '7♠ 7♠*')
>>> cards.classify(parse("7d 7c 7h 7s 7s*")) is None
True
>>> cards.beats(cards.classify(parse("7s*")), cards.classify(parse("7s")), reversed=False)
False
>>> low, high = cards.classify(parse("3d")), cards.classify(parse("2s*"))
>>> cards.beats(high, low), cards.beats(low, high, reversed=True)
(True, True)
"""

from __future__ import annotations

import re
from typing import Final

from .cards import _CARD_RE, CARDS, RANKS, Card, Mask, card_symbols, card_text
from .errors import NotationError

REVOLUTION_BASE: Final = 52
"""The id of the first Revolution card (3♦*); ``id - 52`` is its normal twin."""
ALL_CARDS: Final = (1 << 104) - 1
NORMAL_CARDS: Final = (1 << 52) - 1
REVOLUTION_CARDS: Final = ALL_CARDS & ~NORMAL_CARDS
_SEPARATORS = re.compile(r"[\s,;]+")


def twin(card: int) -> int:
    """The normal card a card stands for (itself for a normal card)."""
    return card - REVOLUTION_BASE if card >= REVOLUTION_BASE else card


def is_revolution(card: int) -> bool:
    return card >= REVOLUTION_BASE


def twin_rank(card: int) -> int:
    """0 for a 3 … 12 for a 2, for normal and Revolution cards alike."""
    return twin(card) >> 2


def ids(mask: int) -> list[int]:
    """The card ids in a 104-bit mask, ascending."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def starred_text(card: int) -> str:
    """``Qs`` or ``Qs*``."""
    if not 0 <= card < 104:
        raise NotationError(f"There is no card number {card}: cards are 0 to 103", str(card))
    return str(CARDS[twin(card)]) + ("*" if card >= REVOLUTION_BASE else "")


def card_symbol(card: int) -> str:
    """``Q♠`` or ``Q♠*``, for people."""
    if not 0 <= card < 104:
        raise NotationError(f"There is no card number {card}: cards are 0 to 103", str(card))
    return CARDS[twin(card)].symbol() + ("*" if card >= REVOLUTION_BASE else "")


def text(mask: int) -> str:
    """Cards in ASCII notation by id: the normal cards, then the Revolution cards."""
    return card_text(Mask(mask))


def symbols(mask: int) -> str:
    return card_symbols(Mask(mask))


def parse_card(token: str) -> int:
    """One card: ``Qs``, ``Qs*``, ``Q♠*``, ``10h*``…

    >>> parse_card("Qs*") - parse_card("Qs")
    52
    """
    raw = token.strip()
    star = raw.endswith("*")
    try:
        card = int(Card.parse(raw[:-1] if star else raw))
    except NotationError:
        raise NotationError(
            f"'{token}' is not a card (write it like 3d, Th or Qs*, a * for a Revolution card)",
            token,
        ) from None
    return card + REVOLUTION_BASE if star else card


def parse(text: str) -> int:
    """A 104-bit mask from notation: cards apart or run together, ``*`` after a Revolution card.

    >>> text(parse("Qs* 3d, 7h7h*"))
    '3d 7h 7h* Qs*'
    """
    if not isinstance(text, str):
        raise NotationError(f"Cards must be written as text, not {type(text).__name__}")
    mask = 0
    for token in _SEPARATORS.split(text.strip()):
        position = 0
        while position < len(token):
            match = _CARD_RE.match(token, position)
            if match is None:
                raise NotationError(
                    f"'{token}' is not a card (write it like 3d, Th or Qs*, a * for a "
                    "Revolution card)",
                    token,
                )
            end = match.end()
            if end < len(token) and token[end] == "*":
                end += 1
            card = parse_card(token[position:end])
            if mask >> card & 1:
                raise NotationError(f"{starred_text(card)} is named twice", starred_text(card))
            mask |= 1 << card
            position = end
    return mask


__all__ = [
    "ALL_CARDS",
    "NORMAL_CARDS",
    "RANKS",
    "REVOLUTION_BASE",
    "REVOLUTION_CARDS",
    "card_symbol",
    "starred_text",
    "ids",
    "is_revolution",
    "parse",
    "parse_card",
    "twin_rank",
    "symbols",
    "text",
    "twin",
]
