"""Legal plays: every play a hand may make against the play to beat, cheapest first.

:class:`HandPlays` holds every play of one hand, grouped for fast answers; when cards leave
the hand its plays are filtered, not enumerated again, which is what makes random games and
search fast. This module knows nothing of turns or seats: see :mod:`bigtwo.engine.deal`.

>>> from bigtwo.engine.rules import Rules
>>> from bigtwo.engine.cards import parse_cards
>>> palm = Rules.preset("palm")
>>> [str(p) for p in legal_plays(parse_cards("3d 3c 5h 9s 2s"), palm, to_beat=parse_cards("4d"))]
['5h', '9s', '2s']
>>> [str(p) for p in legal_plays(parse_cards("3d 3c 5h"), palm, must_include=parse_cards("3d")[0])]
['3d', '3d 3c']
>>> [str(p) for p in legal_plays("3d 3c 5h", palm, must_include="3d")]
['3d', '3d 3c']
"""

from __future__ import annotations

from bisect import bisect_right

from .cards import Card, CardIndex, Cards, CardSet, Mask, to_mask
from .errors import NotACombination, NotationError
from .plays import BOMB_GROUP, Catalog, Kind, Play, catalog_for
from .rules import Rules


class HandPlays:
    """Every play of one hand under one rule set, cheapest first, with fast replies."""

    __slots__ = ("catalog", "hand", "plays", "_groups")

    hand: Mask

    def __init__(self, catalog: Catalog, hand: Cards, plays: list[Play] | None = None) -> None:
        self.catalog = catalog
        # a Card is one card, not a mask; one type test keeps the hot paths' bare masks fast
        self.hand = hand if type(hand) is int else to_mask(hand)
        self.plays = catalog.plays_in(self.hand) if plays is None else plays
        self._groups: dict[object, tuple[list[int], list[Play]]] | None = None

    def without(self, cards: Cards) -> HandPlays:
        """The plays left once ``cards`` have left the hand."""
        gone = cards if type(cards) is int else to_mask(cards)
        return HandPlays(
            self.catalog,
            self.hand & ~gone,  # type: ignore[arg-type]  # a bare mask: no NewType call
            [p for p in self.plays if not p.mask & gone],
        )

    def _grouped(self) -> dict[object, tuple[list[int], list[Play]]]:
        groups = self._groups
        if groups is None:
            lists: dict[object, list[Play]] = {}
            for p in self.plays:
                lists.setdefault(p.group, []).append(p)
            groups = {}
            for g, ps in lists.items():
                ps.sort(key=_by_power)
                groups[g] = ([p.power for p in ps], ps)
            self._groups = groups
        return groups

    def replies(self, to_beat: Play) -> list[Play]:
        """The plays that beat ``to_beat``, cheapest first."""
        catalog = self.catalog
        if catalog.sf_unbeatable and to_beat.kind is Kind.STRAIGHT_FLUSH:
            return []
        groups = self._grouped()
        entry = groups.get(to_beat.group)
        out = [] if entry is None else entry[1][bisect_right(entry[0], to_beat.power) :]
        if to_beat.group != BOMB_GROUP and catalog.bombs:
            bombs = groups.get(BOMB_GROUP)
            if bombs:
                out = sorted(out + bombs[1], key=_by_order)
        elif to_beat.group == BOMB_GROUP or to_beat.group == 4:
            out = sorted(out, key=_by_order)  # groups mixing kinds: cheapest first
        return out

    def leads(self, must_include: Card | CardIndex | str | CardSet | None = None) -> list[Play]:
        """The plays that may lead; with ``must_include`` only those with that card (an
        ``int`` here is one card's index) or, given several, with all of them."""
        if must_include is None:
            return self.plays
        required = required_cards(must_include)
        if required and not required & (required - 1):  # one card, as at every opening lead
            return [p for p in self.plays if p.mask & required]
        return [p for p in self.plays if p.mask & required == required]


def required_cards(must_include: Card | CardIndex | str | CardSet) -> Mask:
    """The mask of the cards a lead must include: a Card or a bare index is one card.

    >>> from bigtwo.engine.cards import parse_cards
    >>> required_cards(0), required_cards(parse_cards("3d")), required_cards("3d 3c")
    (1, 1, 3)
    """
    if isinstance(must_include, int):  # a Card too: both name one card by its index
        if not 0 <= must_include < 52:
            raise NotationError(
                f"There is no card number {must_include}: cards are 0 to 51", str(must_include)
            )
        return Mask(1 << must_include)
    return to_mask(must_include)


def _by_power(play: Play) -> tuple[int, int]:
    return play.power, play.order


def _by_order(play: Play) -> int:
    return play.order


def legal_plays(
    hand: Cards,
    rules: Rules,
    to_beat: Cards | Play | None = None,
    must_include: Card | CardIndex | str | CardSet | None = None,
) -> list[Play]:
    """Every legal play of ``hand``: a lead when ``to_beat`` is None, else the replies to it.

    ``must_include`` (a card: a Card, its index, notation or a one-card CardSet) restricts
    a lead to plays with that card: the opening lead. Plays come cheapest first: fewer cards
    first, then by kind and strength.
    """
    catalog = catalog_for(rules)
    hp = HandPlays(catalog, to_mask(hand))
    if to_beat is None:
        return list(hp.leads(must_include))
    if isinstance(to_beat, Play):
        return hp.replies(to_beat)
    to_beat_mask = to_mask(to_beat)
    target = catalog.classify(to_beat_mask)
    if target is None:
        cards = CardSet(to_beat_mask)
        raise NotACombination(f"The cards to beat {cards} are not a play", cards=cards.symbols())
    return hp.replies(target)
