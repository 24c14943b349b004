"""What a seat may believe of each opponent's hand in Big 2 RevolutioN, as :mod:`.beliefs`
says it for the 52-card game (the same :class:`~.beliefs.Beliefs`, the same chances).

The expansion's hands are two draws. Every opponent's normal cards are drawn from the normal
cards this seat has not seen, and its Revolution cards from the Revolution cards it has not
seen (the ones in other hands and those still in the deck, face down), each uniformly to the
counts everyone knows, one draw independent of the other. What the view proves comes first:
the Revolution cards a seat took from the Gathering, and the normal card this seat's exchange
gave, are in that seat's hand while they are not played or given away
(:func:`~bigtwo.bots.revolution_expert.known_cards`); with fewer than four players, the first
play tells which normal card opened the hand, so every normal card lower than it (and a named
lead card not in that play) was never dealt. A Revolution card stands for its normal twin, so
a 2 is a normal 2 or a starred one, and twins make pairs (``7♠ 7♠*``). One thing the model
leaves out, as the expert's sampler does: a card this seat gave to an opponent who has since
made an exchange of its own is with that opponent or the one it gave to, and is counted as
any unseen card.

Counted exactly: a 2, an ace, a card that beats the single on the table (the chance a hand
holds none is the product of the two draws' ``C(u - m, k) / C(u, k)``), and a pair or a
triple, or one that beats the pair or triple on the table, rank by rank over both draws at
once (a group lies within one rank; whether it beats the table is the engine's
:meth:`~bigtwo.engine.plays.Catalog.beats`, after a revolution too). The five-card plays are
estimated from worlds dealt by the same two draws, with their standard errors. Passes prove
nothing in the expansion (a player may pass to draw, and an automatic pass is a timer's or a
computer's), so they refine nothing. Until the first play, the leader is known to hold the
lowest normal card dealt, which counting does not reach: every chance is then estimated from
worlds dealt the same way and kept only where the leader holds it. Nothing here reads a
hidden card: only the seat's view.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from ..bots.revolution_expert import known_cards
from ..engine.deal import opening_of
from ..engine.plays import Catalog, Play, catalog_for
from ..engine.revolution_cards import NORMAL_CARDS, REVOLUTION_CARDS, ids
from ..engine.revolution_types import RevolutionView
from ..engine.views import Move
from .chances import Beliefs, Chance, SeatBeliefs

_RANK_TWO, _RANK_ACE = 12, 11
_ATTEMPTS = 200  # dealings tried for each world kept, before the first play


def _rank_of(mask: int, rank: int) -> int:
    """The cards of ``rank`` (normal and Revolution) in a 104-bit mask."""
    return mask & (0xF << (4 * rank) | 0xF << (52 + 4 * rank))


_TWOS, _ACES = _rank_of(-1, _RANK_TWO), _rank_of(-1, _RANK_ACE)


def undealt_cards(view: RevolutionView) -> int:
    """The normal cards the first play proves were never dealt: those lower than the card
    that opened the hand, and a named lead card not in it (nothing while it is to come)."""
    first = next((a for a in view.actions if a.move is Move.PLAY), None)
    if first is None:
        return 0
    catalog = catalog_for(view.rules)
    power = catalog.card_power
    normal = ids(first.cards & NORMAL_CARDS)
    lead = view.rules.lead_card_index()
    if lead is not None and lead in normal:
        return 0
    if not normal:
        return 0
    low = min(power[c] for c in normal)
    out = sum(1 << c for c in range(52) if power[c] < low)
    if lead is not None:
        out |= 1 << lead
    return out & ~(view.hand | view.played)


def holds_any_of_two(
    pools: tuple[int, int], draws: tuple[int, int], among: tuple[int, int]
) -> float:
    """The chance that two independent draws, ``draws[i]`` of ``pools[i]`` cards, take one
    of ``among[i]`` given cards from either.

    >>> round(holds_any_of_two((39, 0), (13, 0), (4, 0)), 4)  # the 52-card game's 2
    0.8182
    """
    none = 1.0
    for u, k, m in zip(pools, draws, among, strict=True):
        if k > u:
            raise ValueError("a hand cannot hold more cards than are unseen")
        none *= comb(u - m, k) / comb(u, k)
    return 1.0 - none


def _beating_groups(
    catalog: Catalog, cards: int, size: int, to_beat: Play | None, rev: bool
) -> list[int]:
    """The groups of ``size`` cards among ``cards`` (of one rank) that are a play, one beating
    ``to_beat`` when it is given."""
    out: list[int] = []
    for group in combinations(ids(cards), size):
        mask = sum(1 << c for c in group)
        play = catalog.classify(mask)
        if play is None:
            continue
        if to_beat is None or catalog.beats(play, to_beat, reversed=rev):
            out.append(mask)
    return out


def holds_group_of_two(
    normal: int,
    star: int,
    draws: tuple[int, int],
    known: int,
    size: int,
    catalog: Catalog,
    to_beat: Play | None = None,
    rev: bool = False,
) -> float:
    """The chance a hand of ``known`` cards, ``draws[0]`` of the ``normal`` cards and
    ``draws[1]`` of the ``star`` cards (two uniform draws) holds ``size`` cards of one rank
    that are a play (one that beats ``to_beat``, when given, under ``catalog`` and a
    revolution ``rev``).

    Counted rank by rank: for each, the ways to take ``a`` normal and ``b`` Revolution cards
    of it with no such group among them and the known ones; a hand holds none when no rank
    does.
    """
    kn, ks = draws
    ways = [[0] * (ks + 1) for _ in range(kn + 1)]  # ways[a][b]: none so far
    ways[0][0] = 1
    for r in range(13):
        mine_n, mine_s, held = ids(_rank_of(normal, r)), ids(_rank_of(star, r)), _rank_of(known, r)
        groups = _beating_groups(catalog, held | _rank_of(normal | star, r), size, to_beat, rev)
        fine = [[0] * (len(mine_s) + 1) for _ in range(len(mine_n) + 1)]
        for a in range(len(mine_n) + 1):
            for taken_n in combinations(mine_n, a):
                got_n = held | sum(1 << c for c in taken_n)
                for b in range(len(mine_s) + 1):
                    for taken_s in combinations(mine_s, b):
                        got = got_n | sum(1 << c for c in taken_s)
                        fine[a][b] += not any(g & got == g for g in groups)
        nxt = [[0] * (ks + 1) for _ in range(kn + 1)]
        for a0 in range(kn + 1):
            for b0 in range(ks + 1):
                w = ways[a0][b0]
                if not w:
                    continue
                for a in range(min(len(mine_n), kn - a0) + 1):
                    for b in range(min(len(mine_s), ks - b0) + 1):
                        if fine[a][b]:
                            nxt[a0 + a][b0 + b] += w * fine[a][b]
        ways = nxt
    total = comb(normal.bit_count(), kn) * comb(star.bit_count(), ks)
    return 1.0 - ways[kn][ks] / total


def _first_play_pending(view: RevolutionView) -> bool:
    return view.rules.first_play != "any" and not any(a.move is Move.PLAY for a in view.actions)


class _Dealer:
    """Deals the unseen cards to the opponents' counts, as the model says."""

    def __init__(self, view: RevolutionView, known: list[int], normal: int, star: int) -> None:
        self.view, self.known = view, known
        self.normal, self.star = ids(normal), ids(star)
        self.pending = _first_play_pending(view)

    def deal(self, rng: random.Random) -> list[int]:
        for _ in range(_ATTEMPTS):
            hands = self._once(rng)
            if not self.pending:
                return hands
            normal_hands = [h & NORMAL_CARDS for h in hands]
            holder, _card = opening_of(self.view.rules, normal_hands)  # type: ignore[arg-type]
            if holder == self.view.leader:
                return hands
        raise RuntimeError("no dealing agrees with the leader of the first play")

    def _once(self, rng: random.Random) -> list[int]:
        view = self.view
        normal, star = self.normal[:], self.star[:]
        rng.shuffle(normal)
        rng.shuffle(star)
        hands = []
        for seat in range(view.players):
            if seat == view.seat:
                hands.append(int(view.hand))
                continue
            hand = self.known[seat]
            for _ in range(view.counts[seat] - (hand & NORMAL_CARDS).bit_count()):
                hand |= 1 << normal.pop()
            for _ in range(view.revolution_counts[seat] - (hand & REVOLUTION_CARDS).bit_count()):
                hand |= 1 << star.pop()
            hands.append(hand)
        return hands


def _has_kind(catalog: Catalog, hand: int, size: int, to_beat: Play | None, rev: bool) -> bool:
    plays = [p for p in catalog.plays_in(hand) if p.size == size]
    if to_beat is not None and to_beat.size == size:
        return any(catalog.beats(p, to_beat, reversed=rev) for p in plays)
    return bool(plays)


def revolution_beliefs(view: RevolutionView, rng: random.Random, worlds: int) -> Beliefs:
    """What ``view``'s seat may believe of each opponent's hand (see the module's text);
    ``worlds`` worlds are dealt with ``rng`` for what counting does not reach."""
    me = view.seat
    if me is None:
        raise ValueError("beliefs are a seat's: a spectator's view has no hand")
    if worlds < 1:
        raise ValueError("at least one world must be sampled")
    catalog = catalog_for(view.rules)
    rev = view.reversed
    known = known_cards(view)
    gathering = sum(1 << c for c in view.gathering)
    seen = view.hand | view.played | view.discards | gathering
    for k in known:
        seen |= k
    normal = NORMAL_CARDS & ~seen & ~undealt_cards(view)
    star = REVOLUTION_CARDS & ~seen
    to_beat = view.to_beat
    single = to_beat if to_beat is not None and to_beat.size == 1 else None
    above = 0
    if single is not None:
        for c in range(104):
            play = catalog.classify(1 << c)
            if play is not None and catalog.beats(play, single, reversed=rev):
                above |= 1 << c
    others = [s for s in range(view.players) if s != me]
    pending = _first_play_pending(view)
    names = ("two", "ace", "single", "pair", "triple", "five")
    hits = {s: dict.fromkeys(names, 0) for s in others}
    dealer = _Dealer(view, known, normal, star)
    for _ in range(worlds):
        hands = dealer.deal(rng)
        for s in others:
            hand, count = hands[s], hits[s]
            count["five"] += _has_kind(catalog, hand, 5, to_beat, rev)
            if pending:
                count["two"] += bool(hand & _TWOS)
                count["ace"] += bool(hand & _ACES)
                count["single"] += bool(hand & above)
                count["pair"] += _has_kind(catalog, hand, 2, to_beat, rev)
                count["triple"] += _has_kind(catalog, hand, 3, to_beat, rev)
    pools = (normal.bit_count(), star.bit_count())
    out: list[SeatBeliefs] = []
    for s in others:
        count, held = hits[s], known[s]
        draws = (
            view.counts[s] - (held & NORMAL_CARDS).bit_count(),
            view.revolution_counts[s] - (held & REVOLUTION_CARDS).bit_count(),
        )
        if pending:
            two, ace, pair, triple = (
                Chance.sampled(count[n], worlds) for n in ("two", "ace", "pair", "triple")
            )
            beats = Chance.sampled(count["single"], worlds) if single is not None else None
        else:

            def any_of(cards: int, held: int = held, draws: tuple[int, int] = draws) -> Chance:
                if held & cards:
                    return Chance(1.0)
                among = ((normal & cards).bit_count(), (star & cards).bit_count())
                return Chance(holds_any_of_two(pools, draws, among))

            two, ace = any_of(_TWOS), any_of(_ACES)
            beats = any_of(above) if single is not None else None
            pair, triple = (
                Chance(
                    holds_group_of_two(
                        normal,
                        star,
                        draws,
                        held,
                        size,
                        catalog,
                        to_beat if to_beat is not None and to_beat.size == size else None,
                        rev,
                    )
                )
                for size in (2, 3)
            )
        five = Chance.sampled(count["five"], worlds)
        starred = view.revolution_counts[s]
        out.append(SeatBeliefs(s, view.counts[s], two, ace, beats, pair, triple, five, starred))
    return Beliefs(me, 0, worlds, tuple(out), 0 if to_beat is None else to_beat.size)
