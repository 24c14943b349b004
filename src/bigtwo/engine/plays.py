"""Plays: what a set of cards is under a rule set, and which play beats which.

:func:`classify` names the kind of a set of cards (or returns None when it is no play) and
gives it a ``power`` and a comparison ``group``: two plays meet only within one group, where
the higher power wins; a bomb beats any play outside the bombs' group. Everything rule-specific
is read once per rule set into a :class:`Catalog`; the answers are cached per card mask, so
each distinct play object is built once. This module does not know whose turn it is.

Big 2 RevolutioN's plays are plays of the same kind, over 104-bit masks: a Revolution card
(ids 52..103, see :mod:`bigtwo.engine.revolution_cards`) stands for its normal twin, so a play
is classified and ranked from its cards' twins, duplicates kept (``7s 7s*`` is a pair with the
strength of 7♠; five cards of one rank are no play), and after a revolution
(:meth:`Catalog.beats` with ``reversed``) the power is reversed within each kind.

>>> from bigtwo.engine.rules import Rules
>>> from bigtwo.engine.cards import Card, parse_cards
>>> palm = Rules.preset("palm")
>>> play = classify(parse_cards("3d 4c 5h 6s 7d"), palm)
>>> play.kind.value, str(play)
('straight', '3d 4c 5h 6s 7d')
>>> classify(parse_cards("Jd Qc Kh As 2d"), palm) is None
True

Cards may be named in any way :func:`~bigtwo.engine.cards.to_mask` reads; a
:class:`~bigtwo.engine.cards.Card` is that one card:

>>> str(classify(Card.parse("4d"), palm)), str(classify(0b11, palm))
('4d', '3d 3c')
"""

from __future__ import annotations

from collections import OrderedDict
from enum import Enum
from itertools import combinations, product
from typing import Final

from .cards import (
    RANKS,
    CardIndex,
    Cards,
    CardSet,
    Mask,
    card_indices,
    card_symbols,
    card_text,
    to_mask,
)
from .revolution_cards import twin
from .rules import KIND_NAMES, Rules


class Kind(Enum):
    """The kinds of play, named as the game names them."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    TWO_PAIR = "two_pair"
    BARE_FOUR = "bare_four"
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full_house"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"

    @property
    def label(self) -> str:
        return self.value.replace("_", " ")


KIND_OF_NAME: Final = {k.value: k for k in Kind}
BOMB_GROUP: Final = "bomb"
_FIVE_SPAN = 1 << 24
_MASK_BITS = 104  # a play's mask within its order: 52 cards, and the expansion's 52 twins
_NORMAL_CARDS = (1 << 52) - 1


class Play:
    """A legal play: its cards (a mask, of 104 bits under the expansion), kind, power and
    comparison group. Immutable.

    ``order`` sorts plays cheapest first: by number of cards, then kind, then power.
    """

    __slots__ = ("mask", "kind", "size", "group", "power", "order", "_text")

    mask: Mask
    kind: Kind
    size: int
    group: object
    power: int
    order: int
    _text: str | None

    def __init__(self, mask: int, kind: Kind, group: object, power: int, kind_rank: int) -> None:
        size = mask.bit_count()
        for name, value in (
            ("mask", mask),
            ("kind", kind),
            ("size", size),
            ("group", group),
            ("power", power),
            ("order", ((size << 4 | kind_rank) << 30 | power) << _MASK_BITS | mask),
            ("_text", None),  # its notation, written once it is asked for (see ``text``)
        ):
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Play is immutable")

    def __reduce__(self) -> tuple[type[Play], tuple[Mask, Kind, object, int, int]]:
        # pickle would restore the slots by assignment, which an immutable value refuses;
        # the kind's rank is not kept apart but sits in ``order`` above the power
        rank = self.order >> (30 + _MASK_BITS) & 15
        return Play, (self.mask, self.kind, self.group, self.power, rank)

    @property
    def cards(self) -> CardSet:
        return CardSet(self.mask)

    @property
    def text(self) -> str:
        """Its cards in notation (``3d 3c``), written once: a catalogue makes each play once,
        and a table writes the same plays in every turn it tells and every action."""
        text = self._text
        if text is None:
            text = card_text(self.mask)
            object.__setattr__(self, "_text", text)
        return text

    def symbols(self) -> str:
        return card_symbols(self.mask)

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"<Play {self.kind.value} {self}>"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Play):
            return self.mask == other.mask and self.kind is other.kind
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)


class Catalog:
    """The catalogue of every play under one rule set: the rules read once into lists and
    dicts indexed by card, and each play classified once and cached by its card mask."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.suit_rank = [rules.suit_order.index(s) for s in "dchs"]
        self.card_power = [(c >> 2) * 4 + self.suit_rank[c & 3] for c in range(52)]
        # A straight is named by the set of its ranks (a 13-bit mask).
        self.sequence_index: dict[int, int] = {}
        self.sequence_top: dict[int, int] = {}
        self.sequences: list[list[int]] = []
        for i, seq in enumerate(rules.straights):
            ranks = [RANKS.index(c) for c in seq]
            rank_mask = sum(1 << r for r in ranks)
            self.sequence_index[rank_mask] = i
            self.sequence_top[rank_mask] = ranks[-1]
            self.sequences.append(ranks)
        self.five_kinds = [KIND_OF_NAME[k] for k in rules.five_kinds]
        self.four_kinds = [KIND_OF_NAME[k] for k in rules.four_card_kinds]
        self.bombs = [KIND_OF_NAME[k] for k in rules.bombs]
        self.kind_rank = {k: KIND_NAMES.index(k.value) for k in Kind}
        for i, k in enumerate(self.four_kinds):
            self.kind_rank[k] = 3 + i
        for i, k in enumerate(self.five_kinds):
            self.kind_rank[k] = 5 + i
        self.sf_unbeatable = not rules.straight_flush_beatable
        # A suited sequence is a straight flush or a straight when the rules have either,
        # else it is a flush.
        self.suited_sequences = (
            self.sequence_index
            if {Kind.STRAIGHT, Kind.STRAIGHT_FLUSH} & set(self.five_kinds)
            else {}
        )
        self.cache: dict[int, Play] = {}

    # -- building plays of a known kind ----------------------------------------------------
    def make(self, mask: int, kind: Kind) -> Play:
        """The play of ``mask``, already known to be of ``kind`` (cached)."""
        play = self.cache.get(mask)
        if play is None:
            play = self._build(mask, kind)  # type: ignore[arg-type]  # no NewType call per play
            self.cache[mask] = play
        return play

    def _build(self, mask: Mask, kind: Kind) -> Play:
        cards = card_indices(mask) if mask <= _NORMAL_CARDS else _twins(mask)
        cp = self.card_power
        if kind is Kind.SINGLE or kind is Kind.PAIR:
            group: object = len(cards)
            power = max(cp[c] for c in cards)
        elif kind is Kind.TRIPLE:
            group, power = 3, cards[0] >> 2
        elif kind is Kind.TWO_PAIR or kind is Kind.BARE_FOUR:
            key = max(cp[c] for c in cards) if kind is Kind.TWO_PAIR else cards[0] >> 2
            group, power = 4, self.four_kinds.index(kind) << 8 | key
        else:
            key = self._five_key(cards, kind)
            position = self.five_kinds.index(kind)
            if self.rules.kinds_beat_lower:
                group, power = 5, position * _FIVE_SPAN + key
            else:
                group, power = kind, key
        if kind in self.bombs:
            group = BOMB_GROUP
            power = self.bombs.index(kind) * _FIVE_SPAN + (power % _FIVE_SPAN)
        return Play(mask, kind, group, power, self.kind_rank[kind])

    def _five_key(self, cards: list[CardIndex], kind: Kind) -> int:
        cp = self.card_power
        if kind is Kind.STRAIGHT or kind is Kind.STRAIGHT_FLUSH:
            rank_mask = 0
            for c in cards:
                rank_mask |= 1 << (c >> 2)
            index = self.sequence_index[rank_mask]
            if self.rules.straight_tiebreak == "top_of_sequence":
                top_rank = self.sequence_top[rank_mask]
                tiebreak = next(cp[c] for c in cards if c >> 2 == top_rank)
            else:
                tiebreak = max(cp[c] for c in cards)
            return index * 64 + tiebreak
        if kind is Kind.FLUSH:
            ranks = sorted((c >> 2 for c in cards), reverse=True)
            digits = 0
            for r in ranks[1:]:
                digits = digits * 13 + r
            if self.rules.flush_order == "suit_first":
                return (self.suit_rank[cards[0] & 3] * 13 + ranks[0]) * 28561 + digits
            return max(cp[c] for c in cards) * 28561 + digits
        # full house and four of a kind: by the rank of the triple or the four
        counts: dict[int, int] = {}
        for c in cards:
            counts[c >> 2] = counts.get(c >> 2, 0) + 1
        return max(counts, key=lambda r: counts[r])

    # -- classification -----------------------------------------------------------------
    def classify(self, mask: int) -> Play | None:
        """The play of the cards of ``mask`` (of the expansion's 104 too), or None."""
        play = self.cache.get(mask)
        if play is not None:
            return play
        if mask.bit_count() > 5:
            return None
        cards = card_indices(mask) if mask <= _NORMAL_CARDS else _twins(mask)  # type: ignore[arg-type]
        kind = self._kind_of(cards)
        if kind is None:
            return None  # not cached: brute-force callers ask about many non-plays
        play = self.cache[mask] = self._build(mask, kind)  # type: ignore[arg-type]
        return play

    def _kind_of(self, cards: list[CardIndex]) -> Kind | None:
        # ``cards`` may repeat a card (the expansion's twins): two of one rank and suit.
        n = len(cards)
        ranks = [c >> 2 for c in cards]
        distinct = len(set(ranks))
        if n == 1:
            return Kind.SINGLE
        if n == 2:
            return Kind.PAIR if distinct == 1 else None
        if n == 3:
            return Kind.TRIPLE if distinct == 1 and self.rules.triples else None
        if n == 4:
            if distinct == 1:
                return Kind.BARE_FOUR if Kind.BARE_FOUR in self.four_kinds else None
            if distinct == 2 and ranks.count(ranks[0]) == 2:
                return Kind.TWO_PAIR if Kind.TWO_PAIR in self.four_kinds else None
            return None
        if n != 5:
            return None
        kinds = self.five_kinds
        flush = len({c & 3 for c in cards}) == 1
        if distinct == 1:
            return None  # five of one rank (twins)
        if distinct == 2:
            shape = sorted(ranks.count(r) for r in set(ranks))
            if shape == [1, 4]:
                return Kind.FOUR_OF_A_KIND if Kind.FOUR_OF_A_KIND in kinds else None
            return Kind.FULL_HOUSE if Kind.FULL_HOUSE in kinds else None
        if distinct != 5:  # only twins of one suit repeat a rank within one suit
            return Kind.FLUSH if flush and Kind.FLUSH in kinds else None
        rank_mask = sum(1 << r for r in ranks)
        straight = rank_mask in self.sequence_index
        if straight and flush and Kind.STRAIGHT_FLUSH in kinds:
            return Kind.STRAIGHT_FLUSH
        if straight and Kind.STRAIGHT in kinds:
            return Kind.STRAIGHT
        if flush and Kind.FLUSH in kinds:
            return Kind.FLUSH
        return None

    def beats(self, play: Play, to_beat: Play, *, reversed: bool = False) -> bool:
        """Whether ``play`` may go on ``to_beat``. After the expansion's revolution
        (``reversed``) the power is reversed within each kind; kinds keep their order.
        Twins are equal: neither beats the other."""
        if self.sf_unbeatable and to_beat.kind is Kind.STRAIGHT_FLUSH:
            return False
        if play.group == to_beat.group:
            if reversed and play.kind is to_beat.kind:
                return play.power < to_beat.power
            return play.power > to_beat.power
        return play.group == BOMB_GROUP

    # -- enumeration of every play in a hand --------------------------------------------
    def plays_in(self, hand: int) -> list[Play]:
        """Every play that can be made from ``hand``, cheapest first."""
        if hand > _NORMAL_CARDS:
            return self._plays_with_twins(hand)
        return self._plays_of(Mask(hand))

    def _plays_of(self, hand: Mask) -> list[Play]:
        by_rank: list[list[int]] = [[] for _ in range(13)]
        for c in card_indices(hand):
            by_rank[c >> 2].append(1 << c)
        make = self.make
        out: list[Play] = [make(b, Kind.SINGLE) for group in by_rank for b in group]
        pairs_by_rank: list[list[int]] = [[] for _ in range(13)]
        for r, group in enumerate(by_rank):
            if len(group) >= 2:
                pairs_by_rank[r] = [a | b for a, b in combinations(group, 2)]
                out.extend(make(m, Kind.PAIR) for m in pairs_by_rank[r])
        triples_by_rank: list[list[int]] = [[] for _ in range(13)]
        if self.rules.triples or Kind.FULL_HOUSE in self.five_kinds:
            for r, group in enumerate(by_rank):
                if len(group) >= 3:
                    triples_by_rank[r] = [a | b | c for a, b, c in combinations(group, 3)]
            if self.rules.triples:
                out.extend(make(m, Kind.TRIPLE) for ms in triples_by_rank for m in ms)
        quads = [sum(group) for group in by_rank if len(group) == 4]
        if Kind.TWO_PAIR in self.four_kinds:
            paired = [ps for ps in pairs_by_rank if ps]
            for i, low in enumerate(paired):
                for high in paired[i + 1 :]:
                    out.extend(make(a | b, Kind.TWO_PAIR) for a in low for b in high)
        if Kind.BARE_FOUR in self.four_kinds:
            out.extend(make(q, Kind.BARE_FOUR) for q in quads)
        kinds = self.five_kinds
        if hand.bit_count() >= 5:
            if Kind.STRAIGHT in kinds or Kind.STRAIGHT_FLUSH in kinds:
                self._straights(by_rank, out)
            if Kind.FLUSH in kinds:
                self._flushes(hand, out)
            if Kind.FULL_HOUSE in kinds:
                for r3, triples in enumerate(triples_by_rank):
                    for r2, pairs in enumerate(pairs_by_rank):
                        if triples and pairs and r2 != r3:
                            out.extend(make(t | p, Kind.FULL_HOUSE) for t in triples for p in pairs)
            if Kind.FOUR_OF_A_KIND in kinds:
                for q in quads:
                    rest = hand & ~q
                    while rest:
                        kicker = rest & -rest
                        out.append(make(q | kicker, Kind.FOUR_OF_A_KIND))
                        rest ^= kicker
        out.sort(key=_order)
        return out

    def _straights(self, by_rank: list[list[int]], out: list[Play]) -> None:
        # One suit in sequence is a straight flush, else a plain straight where the rules
        # have no straight flush, else (rules with flushes only) a flush, made by _flushes.
        with_plain = Kind.STRAIGHT in self.five_kinds
        with_flush = Kind.STRAIGHT_FLUSH in self.five_kinds
        make = self.make
        for seq in self.sequences:
            a, b, c, d, e = (by_rank[r] for r in seq)
            if not (a and b and c and d and e):
                continue
            for ma in a:
                for mb in b:
                    for mc in c:
                        for md in d:
                            for me in e:
                                m = ma | mb | mc | md | me
                                suits = _suit_bits(m)
                                if suits.bit_count() == 1:
                                    if with_flush:
                                        out.append(make(m, Kind.STRAIGHT_FLUSH))
                                    elif with_plain:
                                        out.append(make(m, Kind.STRAIGHT))
                                elif with_plain:
                                    out.append(make(m, Kind.STRAIGHT))

    def _flushes(self, hand: Mask, out: list[Play]) -> None:
        make = self.make
        sequences = self.suited_sequences
        for suit in range(4):
            suited = hand & (_SUIT_MASK << suit)
            if suited.bit_count() < 5:
                continue
            bits = [1 << c for c in card_indices(Mask(suited))]
            for combo in combinations(bits, 5):
                m = combo[0] | combo[1] | combo[2] | combo[3] | combo[4]
                if sequences and _rank_mask_of_suited(m, suit) in sequences:
                    continue  # made by _straights
                out.append(make(m, Kind.FLUSH))

    def _plays_with_twins(self, hand: int) -> list[Play]:
        """:meth:`plays_in` for a hand of the expansion (normal and Revolution cards): every
        set of cards that may be a play, by the ranks of the cards' twins, classified."""
        by_rank: list[list[int]] = [[] for _ in range(13)]
        for c in card_indices(Mask(hand)):
            by_rank[twin(c) >> 2].append(1 << c)
        masks: list[int] = [b for group in by_rank for b in group]
        pairs = [[a | b for a, b in combinations(g, 2)] for g in by_rank]
        triples = [[a | b | c for a, b, c in combinations(g, 3)] for g in by_rank]
        masks += [m for ps in pairs for m in ps]
        masks += [m for ts in triples for m in ts]
        if self.four_kinds:
            masks += [sum(q) for g in by_rank for q in combinations(g, 4)]
            for i, low in enumerate(pairs):
                for high in pairs[i + 1 :]:
                    masks += [a | b for a in low for b in high]
        if hand.bit_count() >= 5:
            for seq in self.sequences:
                columns = [by_rank[r] for r in seq]
                if all(columns):
                    masks += [sum(cs) for cs in product(*columns)]
            for suit in range(4):
                suited = [1 << c for c in card_indices(Mask(hand)) if twin(c) & 3 == suit]
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
        out: list[Play] = []
        seen: set[int] = set()
        classify = self.classify
        for m in masks:
            if m in seen:
                continue
            seen.add(m)
            play = classify(Mask(m))
            if play is not None:
                out.append(play)
        out.sort(key=_order)
        return out


def _twins(mask: int) -> list[CardIndex]:
    """The normal twins of a 104-bit mask's cards, duplicates kept."""
    return [CardIndex(twin(c)) for c in card_indices(Mask(mask))]


def _order(play: Play) -> int:
    return play.order


_SUIT_MASK: Final = sum(1 << (4 * r) for r in range(13))  # every card of suit 0


def _suit_bits(mask: int) -> int:
    """Which suits appear in ``mask``, as 4 bits."""
    out = 0
    for s in range(4):
        if mask & (_SUIT_MASK << s):
            out |= 1 << s
    return out


def _rank_mask_of_suited(mask: int, suit: int) -> int:
    out = 0
    m = mask >> suit
    r = 0
    while m:
        if m & 1:
            out |= 1 << r
        m >>= 4
        r += 1
    return out


# The catalogues of the rule sets used lately, the least recently used let go beyond
# MAX_CATALOGS: a server's rooms may each bring rule options of their own, and a catalogue
# holds up to some 20,000 plays (a few megabytes). One let go is built again when asked for.
MAX_CATALOGS: Final = 32
_CATALOGS: OrderedDict[Rules, Catalog] = OrderedDict()
# The rule set asked for last, by identity, with its catalogue: callers ask again and again for
# the same Rules object, and hashing a Rules (every field) costs more than the lookup saves.
_last: tuple[Rules, Catalog] | None = None


def catalog_for(rules: Rules) -> Catalog:
    """The catalogue of a rule set, built once (while it stays among the recently used)."""
    global _last
    last = _last
    if last is not None and last[0] is rules:
        return last[1]
    catalog = _CATALOGS.get(rules)
    if catalog is None:
        catalog = _CATALOGS[rules] = Catalog(rules)
        if len(_CATALOGS) > MAX_CATALOGS:
            _CATALOGS.popitem(last=False)
    else:
        _CATALOGS.move_to_end(rules)
    _last = (rules, catalog)
    return catalog


def classify(cards: Cards | Play, rules: Rules) -> Play | None:
    """The play these cards make under ``rules``, or None when they are not a play."""
    mask = cards.mask if isinstance(cards, Play) else to_mask(cards)
    if mask == 0:
        return None
    return catalog_for(rules).classify(mask)


def beats(a: Cards | Play, b: Cards | Play, rules: Rules) -> bool:
    """Whether ``a`` may be played on ``b``: False when either is no play, or they do not meet.

    >>> from bigtwo.engine.cards import parse_cards
    >>> palm = Rules.preset("palm")
    >>> beats(parse_cards("3d 4c 5h 6s 7s"), parse_cards("3s 4s 5s 6d 7h"), palm)
    True
    """
    pa, pb = classify(a, rules), classify(b, rules)
    if pa is None or pb is None:
        return False
    return catalog_for(rules).beats(pa, pb)
