"""The ``classic`` computer player: the Palm OS Big Two opponents, as documented.

It follows ``shared/PALM_BOTS.md`` rule by rule: a coin flip per deal between guarding every
five-card hand and guarding only straights ("pair-minded"); guarded hands set aside before
the cheapest play is taken from the rest; straights that break two pairs or a four of a kind
refused; the lead order (five-card, triple, pair, single, or single before pair while a human
is down to two cards); aces and twos kept out of full houses and fours until someone is near
the end; the single-card rules (take the trick on two cards with the top card, block a player
on one card); and no fighting between Palm players over a single K, A or 2.

Knowing the table: the originals peeked at every hand. ``classic`` does too (``peeks`` is
True, and whoever runs the table hands it the deal through :meth:`ClassicBot.peek` before each
decision); without a peek, or as ``classic-fair`` (``peeks`` False), it judges from its own
view only: the highest unseen card stands for an opponent's top card, and a human on one card
is assumed to get through. Which seats are humans: ``humans`` (a set of seats). The Palm game
sat the human at seat 0 with three computer players, so that is the default; a table or arena
that seats other players sets ``humans`` to every seat not held by a Palm player (the arena
does, see :func:`bigtwo.arena.lineup_bots`). "They do not fight each other" means they let a
single K, A or 2 of a seat outside ``humans`` stand.

Readings where the notes are silent, chosen here: "pair-minded" straights may not take a card
from a pair of 9s or higher; "near the end" and "close to finishing" mean some player holds
fewer than 3 cards; a human "down to two cards" holds exactly two.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..engine.cards import Mask, card_indices
from ..engine.plays import Catalog, Kind, Play, catalog_for
from . import register_bot
from .base import RANK_2, RANK_9, RANK_A, RANK_K, Bot

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..engine.views import SeatView

GUARD_ALL = "all"
GUARD_STRAIGHTS = "straights"
_STRAIGHTS = (Kind.STRAIGHT, Kind.STRAIGHT_FLUSH)
# the order in which the notes say they answer a straight
_AGAINST_STRAIGHT = (
    Kind.STRAIGHT,
    Kind.STRAIGHT_FLUSH,
    Kind.FOUR_OF_A_KIND,
    Kind.FULL_HOUSE,
    Kind.FLUSH,
)


def _rank_counts(hand: Mask) -> list[int]:
    counts = [0] * 13
    for c in card_indices(hand):
        counts[c >> 2] += 1
    return counts


def _ranks(play: Play) -> set[int]:
    return {c >> 2 for c in card_indices(play.mask)}


def classic_cost(play: Play, catalog: Catalog) -> tuple[int, int, int, int]:
    """Cheapest first as the Palm players saw it: the engine's order, except that a straight
    holding a 2 (A2345, 23456) is dearer than every other straight of its kind."""
    with_two = play.kind in _STRAIGHTS and RANK_2 in _ranks(play)
    return (play.size, catalog.kind_rank[play.kind], int(with_two), play.order)


class ClassicBot(Bot):
    """The Palm computer player (see the module docstring for every rule and option).

    ``humans``: the seats it fights (default ``{0}``). ``guard``: ``"all"`` or
    ``"straights"`` to fix the per-deal coin flip, None to flip it (with the decision rng).
    """

    name = "classic"
    peeks = True

    def __init__(self, humans: Iterable[int] | None = None, guard: str | None = None) -> None:
        if guard not in (None, GUARD_ALL, GUARD_STRAIGHTS):
            raise ValueError(f"guard must be '{GUARD_ALL}', '{GUARD_STRAIGHTS}' or None")
        self.humans: frozenset[int] = frozenset({0} if humans is None else humans)
        self.guard_fixed = guard
        self._guard: str | None = None
        self._seen: list[Mask] | None = None
        self._actions_seen = 0

    # -- the table's doors ---------------------------------------------------------------------
    def tell_humans(self, seats: frozenset[int]) -> None:
        self.humans = frozenset(seats)

    def new_deal(self, seat: int) -> None:
        self._guard = None
        self._seen = None
        self._actions_seen = 0

    def peek(self, deal: Deal) -> None:
        """Look at every hand (the originals did); used for the next decision only."""
        self._seen = list(deal.hands) if self.peeks else None

    # -- deciding --------------------------------------------------------------------------------
    def choose(self, view: SeatView, rng: random.Random) -> Play | None:
        seen, self._seen = self._seen, None
        if seen is not None and (len(seen) != view.players or seen[view.seat or 0] != view.hand):
            seen = None  # a stale peek from another position is worse than none
        if len(view.actions) < self._actions_seen:
            self._guard = None  # a new deal that nobody announced
        self._actions_seen = len(view.actions)
        if self._guard is None:
            self._guard = self.guard_fixed or (GUARD_ALL if rng.random() < 0.5 else GUARD_STRAIGHTS)
        if not view.legal:
            return None
        return _Turn(self, view, seen, self._guard).choose()


class ClassicFairBot(ClassicBot):
    """``classic`` with peeking turned off: it sees only its own view."""

    name = "classic-fair"
    peeks = False


class _Turn:
    """One decision of a classic player: the facts it needs, then the documented rules."""

    def __init__(self, bot: ClassicBot, view: SeatView, seen: list[Mask] | None, guard: str):
        assert view.seat is not None
        self.view = view
        self.seat = view.seat
        self.hand = view.hand
        self.seen = seen
        self.guard = guard
        self.catalog = catalog_for(view.rules)
        self.n = view.players
        self.counts = view.counts
        self.others = [s for s in range(self.n) if s != self.seat]
        self.humans = [s for s in self.others if s in bot.humans]
        self.rank_counts = _rank_counts(self.hand)
        self.near_end = min(self.counts) < 3
        self.legal = sorted(view.legal, key=self.cost)
        self.guarded = self._guarded_cards()
        self.rest = self.hand & ~self.guarded

    def cost(self, play: Play) -> tuple[int, int, int, int]:
        return classic_cost(play, self.catalog)

    # -- facts ---------------------------------------------------------------------------------
    def top_power(self, seat: int) -> int:
        """The power of ``seat``'s highest card: known when peeking, else the highest
        unseen card stands in for it."""
        power = self.catalog.card_power
        cards = self.seen[seat] if self.seen is not None else self.view.unseen
        return max((power[c] for c in card_indices(cards)), default=-1)

    def human_gets_through(self, answer: Play) -> bool:
        """A human on one card would beat ``answer`` (unknown without peeking: assume so)."""
        for s in self.humans:
            if self.counts[s] == 1 and (self.seen is None or self.top_power(s) > answer.power):
                return True
        return False

    def five_allowed(self, play: Play) -> bool:
        """The limits the notes put on five-card hands."""
        ranks = _ranks(play)
        aces_twos = ranks & {RANK_A, RANK_2}
        if play.kind in (Kind.FULL_HOUSE, Kind.FOUR_OF_A_KIND) and aces_twos and not self.near_end:
            return False
        if play.kind in _STRAIGHTS:
            broken = [r for r in ranks if self.rank_counts[r] >= 2]
            if len(broken) >= 2 or any(self.rank_counts[r] == 4 for r in broken):
                return False
            if self.guard == GUARD_STRAIGHTS and any(r >= RANK_9 for r in broken):
                return False
        return True

    def guarded_kind(self, play: Play) -> bool:
        return play.size == 5 and (self.guard == GUARD_ALL or play.kind in _STRAIGHTS)

    def _guarded_cards(self) -> int:
        """The cards of the five-card hands it keeps, picked cheapest first, disjoint."""
        fives = [
            p
            for p in self.catalog.plays_in(self.hand)
            if self.guarded_kind(p) and self.five_allowed(p)
        ]
        fives.sort(key=lambda p: (p.kind not in _STRAIGHTS, self.cost(p)))
        kept = 0
        for p in fives:
            if not p.mask & kept:
                kept |= p.mask
        return kept

    def from_rest(self, plays: Iterable[Play]) -> list[Play]:
        return [p for p in plays if not p.mask & ~self.rest]

    def singles_to_play(self, plays: Iterable[Play]) -> list[Play]:
        """Singles from the rest; while every human holds more than 3 cards, none taken
        from a pair or larger group below K."""
        singles = self.from_rest(p for p in plays if p.size == 1)
        if all(self.counts[s] > 3 for s in self.humans):
            singles = [
                p
                for p in singles
                if self.rank_counts[p.mask.bit_length() - 1 >> 2] < 2
                or (p.mask.bit_length() - 1 >> 2) >= RANK_K
            ]
        return singles

    def takes_trick_with_top(self) -> bool:
        """On two cards or fewer, its top card beats every other player's top card."""
        if self.counts[self.seat] > 2:
            return False
        mine = self.top_power(self.seat) if self.seen is not None else self._own_top()
        return all(mine > self.top_power(s) for s in self.others)

    def _own_top(self) -> int:
        power = self.catalog.card_power
        return max(power[c] for c in card_indices(self.hand))

    def someone_on_one(self) -> bool:
        return any(self.counts[s] == 1 for s in self.others)

    # -- choosing --------------------------------------------------------------------------------
    def choose(self) -> Play | None:
        if self.view.to_beat is None:
            return self.lead()
        return self.answer(self.view.to_beat)

    def lead(self) -> Play:
        legal = self.legal
        fives = [p for p in legal if self.guarded_kind(p) and self.five_allowed(p)]
        if fives:
            return fives[0]
        triples = self.from_rest(p for p in legal if p.kind is Kind.TRIPLE)
        if self.counts[self.seat] > 4:
            triples = [p for p in triples if RANK_2 not in _ranks(p)]
        pairs = self.from_rest(p for p in legal if p.kind is Kind.PAIR)
        if not self.near_end:
            pairs = [p for p in pairs if RANK_2 not in _ranks(p)]
        single = self.single_lead()
        order: list[list[Play]]
        if any(self.counts[s] == 2 for s in self.humans):
            order = [triples, [single] if single else [], pairs]
        else:
            order = [triples, pairs, [single] if single else []]
        for plays in order:
            if plays:
                return plays[0]
        return legal[0]

    def single_lead(self) -> Play | None:
        singles = [p for p in self.legal if p.size == 1]
        if not singles:
            return None
        highest = max(singles, key=lambda p: p.power)
        if self.takes_trick_with_top():
            return highest
        if self.someone_on_one():
            return highest  # a low lead would let the player on one card out
        return (self.singles_to_play(singles) or self.from_rest(singles) or singles)[0]

    def answer(self, to_beat: Play) -> Play | None:
        legal = [p for p in self.legal if p.size == to_beat.size]
        if not legal:
            return None
        if to_beat.size == 1:
            return self.answer_single(to_beat, legal)
        if to_beat.kind is Kind.PAIR:
            pairs = self.from_rest(legal)
            if self.near_end:
                return max(legal, key=lambda p: p.power)  # their biggest pair, or none
            pairs = [p for p in pairs if RANK_2 not in _ranks(p)]
            return pairs[0] if pairs else None
        if to_beat.kind is Kind.TRIPLE:
            triples = self.from_rest(legal)
            if self.counts[self.seat] > 4:
                triples = [p for p in triples if RANK_2 not in _ranks(p)]
            return triples[0] if triples else None
        if to_beat.size == 5:
            return self.answer_five(to_beat, legal)
        plays = self.from_rest(legal)
        return plays[0] if plays else None

    def answer_single(self, to_beat: Play, legal: list[Play]) -> Play | None:
        if (
            self.view.to_beat_seat not in self.humans
            and self.view.to_beat_seat != self.seat
            and to_beat.mask.bit_length() - 1 >> 2 >= RANK_K
        ):
            return None  # a fellow Palm player's K, A or 2 stands
        highest = max(legal, key=lambda p: p.power)
        if self.takes_trick_with_top():
            return highest
        candidates = self.singles_to_play(legal)
        if self.someone_on_one():
            next_seat = (self.seat + 1) % self.n
            smallest = candidates[0] if candidates else legal[0]
            if self.counts[next_seat] == 1 or self.human_gets_through(smallest):
                return highest
        return candidates[0] if candidates else None

    def answer_five(self, to_beat: Play, legal: list[Play]) -> Play | None:
        allowed = [p for p in legal if self.five_allowed(p)]
        if not allowed:
            return None
        if to_beat.kind is Kind.STRAIGHT:
            rank = {k: i for i, k in enumerate(_AGAINST_STRAIGHT)}
            return min(allowed, key=lambda p: (rank.get(p.kind, 9), self.cost(p)))
        if to_beat.kind is Kind.STRAIGHT_FLUSH:
            sfs = [p for p in allowed if p.kind is Kind.STRAIGHT_FLUSH]
            return sfs[0] if sfs else None
        # escalate, keeping the straights it holds where it can
        straights = 0
        for p in self.catalog.plays_in(self.hand):
            if p.kind is Kind.STRAIGHT and self.five_allowed(p):
                straights |= p.mask
        return min(allowed, key=lambda p: (bool(p.mask & straights), self.cost(p)))


register_bot("classic", ClassicBot)
register_bot("classic-fair", ClassicFairBot)
