"""The 104 cards of Big 2 RevolutioN and their plays.

A card here is an ``int`` 0..103: 0..51 are the normal deck's cards (as in
:mod:`bigtwo.engine.cards`), 52..103 the Revolution deck's, and ``id - 52`` is a Revolution
card's normal twin. A set of cards is a 104-bit ``int``. Notation adds a trailing ``*`` to a
Revolution card (``Qs*``, shown ``Q♠*``). Twins compare equal, so a play's kind and strength
are worked out from the normal twins of its cards, duplicates kept: ``7s 7s*`` is a pair with
the strength of 7♠, and five cards of one rank are no play. :func:`beats` compares two plays
in the normal order or, after a revolution, with the power reversed within each kind. The
52-card engine never sees these ids: this module reads the rule set's
:class:`~bigtwo.engine.plays.Catalog` and leaves it as it is.

>>> from bigtwo.engine.rules import Rules
>>> rules = Rules.preset("revolution")
>>> cards = RevolutionCatalog.of(rules)
>>> pair = cards.classify(parse("7s 7s*"))
>>> pair.kind.value, str(pair), pair.symbols()
('pair', '7s 7s*', '7♠ 7♠*')
>>> cards.classify(parse("7d 7c 7h 7s 7s*")) is None
True
>>> cards.beats(cards.classify(parse("7s*")), cards.classify(parse("7s")), reversed=False)
False
"""

from __future__ import annotations

import re
from itertools import combinations, product
from typing import Final

from .cards import _CARD_RE, CARDS, RANKS, Card
from .errors import NotationError
from .plays import _FIVE_SPAN, BOMB_GROUP, Catalog, Kind, catalog_for
from .rules import Rules

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
    return " ".join(starred_text(c) for c in ids(mask))


def symbols(mask: int) -> str:
    return " ".join(card_symbol(c) for c in ids(mask))


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


class RevolutionPlay:
    """A play of normal and Revolution cards: its 104-bit ``mask``, kind and strength.
    ``group`` and ``power`` mean what they mean for a 52-card play: two plays meet only
    within one group, where (in the normal order) the higher power wins."""

    __slots__ = ("mask", "kind", "size", "group", "power")

    mask: int
    kind: Kind
    size: int
    group: object
    power: int

    def __init__(self, mask: int, kind: Kind, group: object, power: int) -> None:
        for name, value in (
            ("mask", mask),
            ("kind", kind),
            ("size", mask.bit_count()),
            ("group", group),
            ("power", power),
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("RevolutionPlay is immutable")

    def __reduce__(self) -> tuple[type[RevolutionPlay], tuple[int, Kind, object, int]]:
        return RevolutionPlay, (self.mask, self.kind, self.group, self.power)

    def symbols(self) -> str:
        return symbols(self.mask)

    def __str__(self) -> str:
        return text(self.mask)

    def __repr__(self) -> str:
        return f"<RevolutionPlay {self.kind.value} {self}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, RevolutionPlay):
            return self.mask == other.mask and self.kind is other.kind
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)


class RevolutionCatalog:
    """Every play of 104-card hands under one rule set, classified from the normal twins of
    its cards with the 52-card catalogue's own tables (card power, sequences, kinds)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.rules = catalog.rules
        self.cache: dict[int, RevolutionPlay | None] = {}

    @staticmethod
    def of(rules: Rules) -> RevolutionCatalog:
        """The catalogue of a rule set, kept with its 52-card catalogue (and let go with it)."""
        catalog = catalog_for(rules)
        found = catalog.expansions.get("revolution")
        if not isinstance(found, RevolutionCatalog):
            found = catalog.expansions["revolution"] = RevolutionCatalog(catalog)
        return found

    def classify(self, mask: int) -> RevolutionPlay | None:
        """The play of these cards, or None when they are no play."""
        if mask in self.cache:
            return self.cache[mask]
        play = None
        if 0 < mask.bit_count() <= 5:
            normals = [twin(c) for c in ids(mask)]
            kind = self._kind_of(normals)
            if kind is not None:
                group, power = self._strength(normals, kind)
                play = RevolutionPlay(mask, kind, group, power)
        self.cache[mask] = play
        return play

    def _kind_of(self, normals: list[int]) -> Kind | None:
        # As the 52-card catalogue names kinds, with twins kept as two cards of one rank.
        catalog = self.catalog
        n = len(normals)
        ranks = [c >> 2 for c in normals]
        distinct = len(set(ranks))
        if n == 1:
            return Kind.SINGLE
        if n == 2:
            return Kind.PAIR if distinct == 1 else None
        if n == 3:
            return Kind.TRIPLE if distinct == 1 and self.rules.triples else None
        if n == 4:
            if distinct == 1:
                return Kind.BARE_FOUR if Kind.BARE_FOUR in catalog.four_kinds else None
            if distinct == 2 and ranks.count(ranks[0]) == 2:
                return Kind.TWO_PAIR if Kind.TWO_PAIR in catalog.four_kinds else None
            return None
        kinds = catalog.five_kinds
        flush = len({c & 3 for c in normals}) == 1
        if distinct == 1:
            return None  # five of one rank
        if distinct == 2:
            shape = sorted(ranks.count(r) for r in set(ranks))
            if shape == [1, 4]:
                return Kind.FOUR_OF_A_KIND if Kind.FOUR_OF_A_KIND in kinds else None
            return Kind.FULL_HOUSE if Kind.FULL_HOUSE in kinds else None
        if distinct < 5:  # only twins of one suit repeat a rank in one suit
            return Kind.FLUSH if flush and Kind.FLUSH in kinds else None
        rank_mask = sum(1 << r for r in ranks)
        straight = rank_mask in catalog.sequence_index
        if straight and flush and Kind.STRAIGHT_FLUSH in kinds:
            return Kind.STRAIGHT_FLUSH
        if straight and Kind.STRAIGHT in kinds:
            return Kind.STRAIGHT
        if flush and Kind.FLUSH in kinds:
            return Kind.FLUSH
        return None

    def _strength(self, normals: list[int], kind: Kind) -> tuple[object, int]:
        # As the 52-card catalogue builds a play's group and power (tests hold the two equal
        # on every play without twins).
        catalog = self.catalog
        cp = catalog.card_power
        group: object
        if kind is Kind.SINGLE or kind is Kind.PAIR:
            group, power = len(normals), max(cp[c] for c in normals)
        elif kind is Kind.TRIPLE:
            group, power = 3, normals[0] >> 2
        elif kind is Kind.TWO_PAIR or kind is Kind.BARE_FOUR:
            key = max(cp[c] for c in normals) if kind is Kind.TWO_PAIR else normals[0] >> 2
            group, power = 4, catalog.four_kinds.index(kind) << 8 | key
        else:
            key = catalog._five_key(sorted(normals), kind)  # type: ignore[arg-type]
            position = catalog.five_kinds.index(kind)
            if self.rules.kinds_beat_lower:
                group, power = 5, position * _FIVE_SPAN + key
            else:
                group, power = kind, key
        if kind in catalog.bombs:
            group = BOMB_GROUP
            power = catalog.bombs.index(kind) * _FIVE_SPAN + (power % _FIVE_SPAN)
        return group, power

    def beats(self, play: RevolutionPlay, to_beat: RevolutionPlay, *, reversed: bool) -> bool:
        """Whether ``play`` may go on ``to_beat``. After a revolution (``reversed``) the power
        is reversed within each kind; kinds keep their order. Twins are equal: never beats.

        >>> cards = RevolutionCatalog.of(Rules.preset("revolution"))
        >>> low, high = cards.classify(parse("3d")), cards.classify(parse("2s*"))
        >>> cards.beats(high, low, reversed=False), cards.beats(low, high, reversed=True)
        (True, True)
        """
        if self.catalog.sf_unbeatable and to_beat.kind is Kind.STRAIGHT_FLUSH:
            return False
        if play.group == to_beat.group:
            if reversed and play.kind is to_beat.kind:
                return play.power < to_beat.power
            return play.power > to_beat.power
        return play.group == BOMB_GROUP

    def plays_in(self, hand: int) -> list[RevolutionPlay]:
        """Every play that can be made from ``hand`` (a 104-bit mask): fewest cards first,
        then by kind and strength."""
        by_rank: list[list[int]] = [[] for _ in range(13)]
        for c in ids(hand):
            by_rank[twin_rank(c)].append(1 << c)
        masks: list[int] = [b for group in by_rank for b in group]
        pairs = [[a | b for a, b in combinations(g, 2)] for g in by_rank]
        triples = [[a | b | c for a, b, c in combinations(g, 3)] for g in by_rank]
        masks += [m for ps in pairs for m in ps]
        masks += [m for ts in triples for m in ts]
        if self.catalog.four_kinds:
            masks += [sum(q) for g in by_rank for q in combinations(g, 4)]
            for i, low in enumerate(pairs):
                for high in pairs[i + 1 :]:
                    masks += [a | b for a in low for b in high]
        if hand.bit_count() >= 5:
            for seq in self.catalog.sequences:
                columns = [by_rank[r] for r in seq]
                if all(columns):
                    masks += [sum(cs) for cs in product(*columns)]
            for suit in range(4):
                suited = [1 << c for c in ids(hand) if twin(c) & 3 == suit]
                masks += [sum(cs) for cs in combinations(suited, 5)]
            for r3, ts in enumerate(triples):
                if ts:
                    for r2, ps in enumerate(pairs):
                        if ps and r2 != r3:
                            masks += [t | p for t in ts for p in ps]
            for r, g in enumerate(by_rank):
                if len(g) >= 4:
                    kickers = [b for other, og in enumerate(by_rank) if other != r for b in og]
                    masks += [sum(q) | k for q in combinations(g, 4) for k in kickers]
        out: list[RevolutionPlay] = []
        seen: set[int] = set()
        classify = self.classify
        for m in masks:
            if m in seen:
                continue
            seen.add(m)
            play = classify(m)
            if play is not None:
                out.append(play)
        kind_rank = self.catalog.kind_rank
        out.sort(key=lambda p: (p.size, kind_rank[p.kind], p.power, p.mask))
        return out


__all__ = [
    "ALL_CARDS",
    "NORMAL_CARDS",
    "RANKS",
    "REVOLUTION_BASE",
    "REVOLUTION_CARDS",
    "RevolutionCatalog",
    "RevolutionPlay",
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
