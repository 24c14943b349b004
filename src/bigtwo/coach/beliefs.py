"""What a seat may believe of each opponent's hand, from the cards played alone.

For every opponent: the chance it holds a 2, an ace, any card that beats the single on the
table, a pair, a triple, and a five-card play, each of the last three one that beats the play
on the table when that is a play of its kind (a pair that beats the pair on the table, …).
The model is the public one: the cards a seat has not seen are
spread uniformly over the hands whose sizes everyone knows. Where nothing more is known the
chances are counted exactly (hypergeometric: a hand of ``k`` of the ``u`` unseen cards holds
none of ``m`` given cards with chance ``C(u - m, k) / C(u, k)``; pairs and triples by counting
the hands with at most one, or two, cards of each rank, or, against a pair or triple on the
table, with no cards of one rank that beat it: a pair or triple lies within one rank, so the
ranks are counted one by one). Once a pass has proved something
(:func:`~bigtwo.bots.inference.proven_misses`: an automatic pass held nothing that beat the
play; :func:`~bigtwo.bots.inference.proven_replies`: a chosen pass while autopass was on held a
reply), or for the five-card plays, which counting does not reach, the chances are estimated
from worlds sampled by the expert's :func:`~bigtwo.bots.expert.sample_hands` under those
proofs, with their standard errors, and say so (``exact`` False). Nothing here reads a hidden
card: only a seat's view.
"""

from __future__ import annotations

import random
from itertools import combinations as _combinations
from math import comb

from ..bots.expert import sample_hands
from ..bots.inference import proven_misses, proven_replies
from ..engine.cards import Mask
from ..engine.movegen import HandPlays
from ..engine.plays import Catalog, Play, catalog_for
from ..engine.revolution_types import RevolutionView
from ..engine.rules import Rules
from ..match.views import TableView
from .chances import Beliefs, Chance, SeatBeliefs
from .revolution_beliefs import revolution_beliefs

WORLDS = 400  # worlds sampled for the estimates (the ``worlds`` default)
_RANK_TWO, _RANK_ACE = 12, 11  # ranks are 3 … A 2 as 0 … 12
_TWOS = Mask(0xF << (4 * _RANK_TWO))
_ACES = Mask(0xF << (4 * _RANK_ACE))


# -- counting ----------------------------------------------------------------------------------


def holds_any(unseen: int, cards: int, among: int) -> float:
    """The chance a hand of ``cards`` of the ``unseen`` cards holds one of ``among`` of them.

    >>> round(holds_any(39, 13, 4), 4)  # a 2 in a hand of 13, no 2 seen
    0.8182
    """
    if cards > unseen:
        raise ValueError("a hand cannot hold more cards than are unseen")
    return 1.0 - comb(unseen - among, cards) / comb(unseen, cards)


def _hands_within(rank_counts: list[int], cards: int, most: int) -> int:
    """How many hands of ``cards`` of the unseen cards (``rank_counts`` of each rank) hold at
    most ``most`` cards of every rank."""
    ways = [1] + [0] * cards  # ways[j]: hands of j cards of the ranks so far
    for r in rank_counts:
        nxt = [0] * (cards + 1)
        for j, w in enumerate(ways):
            if w:
                for take in range(min(r, most, cards - j) + 1):
                    nxt[j + take] += w * comb(r, take)
        ways = nxt
    return ways[cards]


def holds_beating(unseen: Mask, cards: int, size: int, catalog: Catalog, to_beat: Play) -> float:
    """The chance a hand of ``cards`` drawn uniformly from ``unseen`` holds ``size`` cards of
    one rank that beat ``to_beat`` (a pair or a triple on the table) under ``catalog``'s rules.

    Counted rank by rank: for each, the ways to hold ``j`` of its unseen cards with no play
    among them that beats ``to_beat``; a hand holds none when no rank does."""
    ways = [1] + [0] * cards  # ways[j]: hands of j cards of the ranks so far, none beating
    for r in range(13):
        suits = [c for c in range(4 * r, 4 * r + 4) if unseen >> c & 1]
        fine = [0] * (len(suits) + 1)  # fine[t]: t cards of this rank that beat nothing
        for t in range(len(suits) + 1):
            for chosen in _combinations(suits, t):
                held = Mask(sum(1 << c for c in chosen))
                fine[t] += not _beats_with(catalog, held, to_beat, size)
        nxt = [0] * (cards + 1)
        for j, w in enumerate(ways):
            if w:
                for t in range(min(len(suits), cards - j) + 1):
                    nxt[j + t] += w * fine[t]
        ways = nxt
    return 1.0 - ways[cards] / comb(unseen.bit_count(), cards)


def _beats_with(catalog: Catalog, hand: Mask, to_beat: Play, size: int) -> bool:
    """Whether ``hand`` holds a play of ``size`` cards that beats ``to_beat``."""
    return any(p.size == size for p in HandPlays(catalog, hand).replies(to_beat))


def holds_group(unseen: Mask, cards: int, size: int) -> float:
    """The chance a hand of ``cards`` drawn uniformly from ``unseen`` holds ``size`` cards of
    one rank (2: a pair, 3: a triple).

    >>> holds_group(Mask(0b111), 2, 2)  # two of three 3s
    1.0
    """
    counts = [(unseen >> (4 * r) & 0xF).bit_count() for r in range(13)]
    total = comb(sum(counts), cards)
    return 1.0 - _hands_within(counts, cards, size - 1) / total


# -- sampling ------------------------------------------------------------------------------------


def _above(catalog: Catalog, single: Play) -> Mask:
    power = catalog.card_power
    return Mask(sum(1 << c for c in range(52) if power[c] > single.power))


def _has_play(plays: HandPlays, size: int, to_beat: Play | None) -> bool:
    """Whether the hand holds a play of ``size`` cards, one beating ``to_beat`` when that is
    of the same size."""
    if to_beat is not None and to_beat.size == size:
        return any(p.size == size for p in plays.replies(to_beat))
    return any(p.size == size for p in plays.plays)


def beliefs_of(
    view: TableView | RevolutionView, rng: random.Random, worlds: int = WORLDS
) -> Beliefs:
    """What ``view``'s seat may believe of each opponent's hand (see the module docstring);
    ``worlds`` worlds are sampled with ``rng`` for what counting does not reach. A view of
    Big 2 RevolutioN is answered by :func:`.revolution_beliefs.revolution_beliefs`."""
    if isinstance(view, RevolutionView):
        return revolution_beliefs(view, rng, worlds)
    me = view.seat
    if me is None:
        raise ValueError("beliefs are a seat's: a spectator's view has no hand")
    if worlds < 1:
        raise ValueError("at least one world must be sampled")
    rules: Rules = view.rules
    catalog = catalog_for(rules)
    misses = proven_misses(view)
    replies = proven_replies(view)
    proofs = len(misses) + len(replies)
    to_beat = view.to_beat
    single = to_beat if to_beat is not None and to_beat.size == 1 else None
    above = _above(catalog, single) if single is not None else Mask(0)
    others = [s for s in range(view.players) if s != me]
    hits = {s: dict.fromkeys(("two", "ace", "single", "pair", "triple", "five"), 0) for s in others}
    for _ in range(worlds):
        hands = sample_hands(view, rng, misses, replies=replies)
        for s in others:
            hand, count = hands[s], hits[s]
            plays = HandPlays(catalog, hand)
            count["five"] += _has_play(plays, 5, to_beat)
            if proofs:
                count["two"] += bool(hand & _TWOS)
                count["ace"] += bool(hand & _ACES)
                count["single"] += bool(hand & above)
                count["pair"] += _has_play(plays, 2, to_beat)
                count["triple"] += _has_play(plays, 3, to_beat)
    unseen = view.unseen
    u = unseen.bit_count()
    out: list[SeatBeliefs] = []
    for s in others:
        k = view.counts[s]
        count = hits[s]
        if proofs:
            two, ace, pair, triple = (
                Chance.sampled(count[name], worlds) for name in ("two", "ace", "pair", "triple")
            )
            beats = Chance.sampled(count["single"], worlds) if single is not None else None
        else:
            two = Chance(holds_any(u, k, (unseen & _TWOS).bit_count()))
            ace = Chance(holds_any(u, k, (unseen & _ACES).bit_count()))
            pair, triple = (
                Chance(holds_beating(unseen, k, size, catalog, to_beat))
                if to_beat is not None and to_beat.size == size
                else Chance(holds_group(unseen, k, size))
                for size in (2, 3)
            )
            beats = Chance(holds_any(u, k, (unseen & above).bit_count())) if single else None
        five = Chance.sampled(count["five"], worlds)
        out.append(SeatBeliefs(s, k, two, ace, beats, pair, triple, five))
    return Beliefs(me, proofs, worlds, tuple(out), 0 if to_beat is None else to_beat.size)
