"""Hand-structure features: which of a seat's own cards could join a pair, a triple, a four, a
straight or a flush, as flags a network may read beside the observation.

For each of the 52 cards five flags, each 0 unless the card is in the seat's own hand:

- ``pair``: two or more cards of its rank are in the hand;
- ``triple``: three or more;
- ``four``: all four;
- ``straight``: its rank is in a straight the hand can make: a sequence of five ranks that
  is a straight (or a straight flush) under the rule set, as the engine's catalogue lists them,
  every rank of it in the hand (palm's A2345 counts, charlesworth2018's does not);
- ``flush``: five or more cards of its suit are in the hand, under rules with flushes.

They are :data:`STRUCTURE_SIZE` floats, flag by flag: ``pair`` for cards 0 … 51, then
``triple`` for cards 0 … 51, and so on (card ``rank * 4 + suit``, as everywhere). They read the
hand and the rule set alone: nothing hidden can reach them, and the same hand under the same
rules always gives the same flags. ``ObservationEncoder(ruleset, structure=True)`` appends
them after the observation's 599 floats, as its block ``structure``.

>>> from bigtwo.engine import Rules
>>> from bigtwo.engine.cards import parse_cards, to_mask
>>> hand = HandStructure(Rules.preset("palm"))
>>> flags = hand.features(to_mask(parse_cards("3d 3c 4d 5d 6d 7h 9d")))
>>> [int(flags.reshape(5, 52)[k].sum()) for k in range(5)]  # pair, triple, four, straight, flush
[2, 0, 0, 6, 5]
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from ..engine.plays import Kind, catalog_for
from ..engine.rules import Rules

STRUCTURE_FLAGS = ("pair", "triple", "four", "straight", "flush")
"""The five flags of a card, in the order their blocks of 52 lie."""
STRUCTURE_SIZE = len(STRUCTURE_FLAGS) * 52

_RANK_CARDS = tuple(0xF << (4 * r) for r in range(13))
_SUIT_CARDS = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))


class HandStructure:
    """The flags of hands under one rule set (its straights read once)."""

    def __init__(self, rules: Rules) -> None:
        catalog = catalog_for(rules)
        # the rank masks (13 bits) of the straights, and the cards of each (52 bits)
        windows = sorted(catalog.suited_sequences)
        self._windows = tuple(
            (w, sum(_RANK_CARDS[r] for r in range(13) if w >> r & 1)) for w in windows
        )
        self._flushes = Kind.FLUSH in catalog.five_kinds

    def masks(self, hand: int) -> tuple[int, int, int, int, int]:
        """The cards (52-bit masks) of ``hand`` each flag marks, in :data:`STRUCTURE_FLAGS` order."""
        pair = triple = four = 0
        ranks = 0
        for r in range(13):
            cards = hand & _RANK_CARDS[r]
            if cards:
                ranks |= 1 << r
                count = cards.bit_count()
                if count >= 2:
                    pair |= cards
                    if count >= 3:
                        triple |= cards
                        if count == 4:
                            four |= cards
        runs = 0
        for window, cards in self._windows:
            if ranks & window == window:
                runs |= cards
        flush = 0
        if self._flushes:
            for suit in _SUIT_CARDS:
                cards = hand & suit
                if cards.bit_count() >= 5:
                    flush |= cards
        return pair, triple, four, hand & runs, flush

    def features(self, hand: int) -> npt.NDArray[np.float32]:
        """The :data:`STRUCTURE_SIZE` flags of ``hand`` as floats (0 or 1)."""
        raw = b"".join(m.to_bytes(7, "little") for m in self.masks(hand))
        rows = np.unpackbits(
            np.frombuffer(raw, dtype=np.uint8).reshape(5, 7), axis=1, bitorder="little"
        )
        return rows[:, :52].ravel().astype(np.float32)


__all__ = ["STRUCTURE_FLAGS", "STRUCTURE_SIZE", "HandStructure"]
