"""The ``strong`` computer player: fair, it plans its hand and plays to the plan.

It sees only its seat's view. Each decision it splits its hand into the fewest plays that
would empty it (a memoised search over the plays of the hand; a little cheaper for plays
that win tricks), then:

* leads: runs out with its *masters* (plays no unseen cards can beat) when all but one play
  are masters; otherwise leads a five-card play of the plan, else the plan's play holding its
  lowest card; with an opponent on one or two cards, a play that opponent cannot go out over;
* answers: only with a play that fits the plan (some nearly cheapest plan contains it),
  keeping control cards (2s, single aces, masters) unless the play to beat shows a K or
  higher, an opponent is down to a few cards or its own race is short;
* blocks a player who could go out over the trick with its strongest reply;
* when the deal looks lost (an opponent close to out and two or more of its plays beatable),
  unloads the reply that takes the most penalty points out of its hand.

The helpers here (the planner, the best play the unseen cards can make, penalty points, the
:class:`Situation` a decision is made from) are shared by ``expert`` and ``hint``. This module
does not search ahead and never sees another seat's cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.cards import Mask, card_indices
from ..engine.plays import BOMB_GROUP, Catalog, Kind, Play, catalog_for
from . import register_bot
from .base import RANK_2, RANK_A, RANK_K, Bot
from .inference import proven_replies

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..engine.rules import Rules
    from ..match.settings import Scoring
    from ..match.views import TableView

_NO_CARDS = Mask(0)

# -- small card helpers ---------------------------------------------------------------------


def top_rank(play: Play) -> int:
    return (play.mask.bit_length() - 1) >> 2


def top_power(card_power: Sequence[int], play: Play) -> int:
    """The power of the strongest card of ``play``."""
    return max(card_power[c] for c in card_indices(play.mask))


def penalty_points(scoring: Scoring, hand: Mask) -> int:
    """What a player left holding ``hand`` would pay under this scoring (its
    :meth:`~bigtwo.match.settings.Scoring.charge`). A scoring of nothing (``per_card =
    "none"``) still counts cards, so bots keep a reason to shed."""
    count = hand.bit_count()
    if count == 0:
        return 0
    if scoring.per_card == "none":
        return count
    # Only a scoring by rank reads the ranks: spare the list on the search's hot path.
    ranks = [c >> 2 for c in card_indices(hand)] if scoring.per_card == "rank" else ()
    return scoring.charge(count, ranks)[0]


# -- what the unseen cards could beat -------------------------------------------------------

_BEST_CACHE: dict[tuple[int, int, bool], dict[object, int]] = {}
_SUIT_MASK = sum(1 << (4 * r) for r in range(13))  # every card of suit 0


class _Layout:
    """Per rule set: each rank's cards strongest first for any subset (by its 4-bit nibble),
    the power of a subset's strongest suit, and each straight sequence's mask in each suit."""

    def __init__(self, catalog: Catalog) -> None:
        power = catalog.suit_rank
        self.strongest_first = [
            sorted((s for s in range(4) if nibble >> s & 1), key=lambda s: -power[s])
            for nibble in range(16)
        ]
        self.top_suit = [
            max((power[s] for s in order), default=-1) for order in self.strongest_first
        ]
        self.sequence_suits = [
            [sum(1 << (r * 4 + s) for r in seq) for s in range(4)] for seq in catalog.sequences
        ]
        kinds = catalog.four_kinds
        self.two_pair = kinds.index(Kind.TWO_PAIR) << 8 if Kind.TWO_PAIR in kinds else None
        self.bare_four = kinds.index(Kind.BARE_FOUR) << 8 if Kind.BARE_FOUR in kinds else None


_COUNT = [n.bit_count() for n in range(16)]


def _best_small(layout: _Layout, catalog: Catalog, cards: int) -> dict[object, int]:
    """:func:`best_by_group` of the plays of up to four cards, for a rule set without bombs,
    worked out from the ranks' nibbles as :meth:`.Catalog.make` powers them (a card's power
    is its rank * 4 + its suit's rank): the best single and pair are the top rank's
    strongest card, a triple or four is its rank, two pairs go by their higher pair's
    strongest card."""
    top_suit = layout.top_suit
    best: dict[object, int] = {}
    pairs = hi_pair = 0
    triple = catalog.rules.triples
    four = layout.bare_four
    for r in range(12, -1, -1):
        nibble = cards >> (4 * r) & 0xF
        if not nibble:
            continue
        power = r * 4 + top_suit[nibble]
        if not best:
            best[1] = power
        n = _COUNT[nibble]
        if n < 2:
            continue
        pairs += 1
        if pairs == 1:
            best[2] = power
            hi_pair = power
        elif pairs == 2 and layout.two_pair is not None:
            best[4] = max(best.get(4, -1), layout.two_pair | hi_pair)
        if n >= 3 and triple:
            triple = False
            best[3] = r
        if n == 4 and four is not None:
            best[4] = max(best.get(4, -1), four | r)
            four = None
    return best


_LAYOUTS: dict[int, _Layout] = {}


def best_by_group(catalog: Catalog, cards: Mask, fives: bool = True) -> dict[object, int]:
    """The highest power, per comparison group, of the plays that ``cards`` can make (with
    ``fives`` false, of the plays of up to four cards only).

    Used on the unseen cards: a play whose power is above the best of its group (and with no
    bomb in the unseen cards) cannot be beaten. Five-card plays are built from the strongest
    candidate of each kind rather than enumerated, so this stays fast on 39 cards.
    """
    key = (id(catalog), cards, fives)
    hit = _BEST_CACHE.get(key)
    if hit is not None:
        return hit
    if len(_BEST_CACHE) > 20_000:
        _BEST_CACHE.clear()
    layout = _LAYOUTS.get(id(catalog))
    if layout is None:
        layout = _LAYOUTS[id(catalog)] = _Layout(catalog)
    # without bombs, the plays of up to four cards are summed up from the nibbles alone
    small = None if catalog.bombs else _best_small(layout, catalog, cards)
    if small is not None and not (fives and cards.bit_count() >= 5):
        _BEST_CACHE[key] = small
        return small
    order = layout.strongest_first
    # by_rank[r]: the cards of rank r in ``cards``, strongest first
    by_rank = [[r * 4 + s for s in order[cards >> (4 * r) & 0xF]] for r in range(13)]
    found: list[Play] = []
    make = catalog.make

    def bits(cs: Sequence[int]) -> Mask:
        m = 0
        for c in cs:
            m |= 1 << c
        return Mask(m)  # one call per candidate play, not per card

    pair_ranks = [r for r in range(13) if len(by_rank[r]) >= 2]
    triple_ranks = [r for r in pair_ranks if len(by_rank[r]) >= 3]
    quad_ranks = [r for r in triple_ranks if len(by_rank[r]) == 4]
    if small is None:
        top = max((g[0] for g in by_rank if g), key=catalog.card_power.__getitem__, default=None)
        if top is not None:
            found.append(make(1 << top, Kind.SINGLE))
        if pair_ranks:
            found.append(make(bits(by_rank[pair_ranks[-1]][:2]), Kind.PAIR))
        if triple_ranks and catalog.rules.triples:
            found.append(make(bits(by_rank[triple_ranks[-1]][:3]), Kind.TRIPLE))
        if Kind.TWO_PAIR in catalog.four_kinds and len(pair_ranks) >= 2:
            hi, lo = pair_ranks[-1], pair_ranks[0]
            found.append(make(bits(by_rank[hi][:2] + by_rank[lo][:2]), Kind.TWO_PAIR))
        if Kind.BARE_FOUR in catalog.four_kinds and quad_ranks:
            found.append(make(bits(by_rank[quad_ranks[-1]]), Kind.BARE_FOUR))
    kinds = catalog.five_kinds
    strongest: list[Play] = []
    if fives and small is not None and catalog.rules.kinds_beat_lower:
        # a kind beats every lower kind: the strongest kind present decides group 5, so
        # look from the top, and the straights and flushes only when nothing above them is
        for kind in reversed(kinds):
            if kind is Kind.STRAIGHT_FLUSH:
                suited_runs = (m for suits in layout.sequence_suits for m in suits)
                strongest = [make(m, kind) for m in suited_runs if m & cards == m]
            elif kind is Kind.FOUR_OF_A_KIND:
                if quad_ranks and cards.bit_count() > 4:
                    q = bits(by_rank[quad_ranks[-1]])
                    rest = cards & ~q
                    strongest = [make(q | (rest & -rest), kind)]
            elif kind is Kind.FULL_HOUSE:
                pr = [r for r in pair_ranks if triple_ranks and r != triple_ranks[-1]]
                if pr:
                    three = by_rank[triple_ranks[-1]][:3]
                    strongest = [make(bits(three + by_rank[pr[0]][:2]), kind)]
            if strongest or kind is Kind.FLUSH or kind is Kind.STRAIGHT:
                break
        found.extend(strongest)
    if fives and cards.bit_count() >= 5 and not strongest:
        if Kind.STRAIGHT in kinds or Kind.STRAIGHT_FLUSH in kinds:
            for seq, suited in zip(catalog.sequences, layout.sequence_suits, strict=True):
                if all(by_rank[r] for r in seq):
                    # the top card of each rank gives the strongest straight of the sequence;
                    # where kinds do not meet, also the best that is not all one suit
                    tops = [by_rank[r][0] for r in seq]
                    options = [tops]
                    if not catalog.rules.kinds_beat_lower:
                        for i, r in enumerate(seq):
                            options.extend([*tops[:i], c, *tops[i + 1 :]] for c in by_rank[r][1:])
                    for option in options:
                        p = catalog.classify(bits(option))
                        if p is not None:
                            found.append(p)
                    if Kind.STRAIGHT_FLUSH in kinds:
                        found.extend(make(m, Kind.STRAIGHT_FLUSH) for m in suited if m & cards == m)
        if Kind.FLUSH in kinds:
            for s in range(4):
                in_suit = cards & (_SUIT_MASK << s)
                if in_suit.bit_count() >= 5:
                    highest: list[int] = []  # within a suit, the highest cards are the top bits
                    while in_suit and len(highest) < 6:
                        highest.append(in_suit.bit_length() - 1)
                        in_suit ^= 1 << highest[-1]
                    options = [highest[:5]]
                    if len(highest) == 6 and not catalog.rules.kinds_beat_lower:
                        # the top five may be a straight flush: also each swap for the sixth
                        options.extend([*highest[:i], *highest[i + 1 :]] for i in range(5))
                    for option in options:
                        p = catalog.classify(bits(option))
                        if p is not None:
                            found.append(p)
        if Kind.FULL_HOUSE in kinds and triple_ranks:
            t = triple_ranks[-1]
            pr = [r for r in pair_ranks if r != t]
            if pr:
                found.append(make(bits(by_rank[t][:3] + by_rank[pr[0]][:2]), Kind.FULL_HOUSE))
        if Kind.FOUR_OF_A_KIND in kinds and quad_ranks:
            q = bits(by_rank[quad_ranks[-1]])
            rest = cards & ~q
            if rest:
                found.append(make(q | (rest & -rest), Kind.FOUR_OF_A_KIND))
    best: dict[object, int] = {} if small is None else small
    for p in found:
        if p.power > best.get(p.group, -1):
            best[p.group] = p.power
    _BEST_CACHE[key] = best
    return best


class UnseenBest:
    """:func:`best_by_group` of a set of cards, worked out when first asked: the groups of
    up to four cards alone while only those are asked about (the five-card plays cost most).
    """

    __slots__ = ("catalog", "cards", "_small", "_all")

    def __init__(self, catalog: Catalog, cards: Mask) -> None:
        self.catalog = catalog
        self.cards = cards
        self._small: dict[object, int] | None = None
        self._all: dict[object, int] | None = None

    def get(self, group: object, default: int = -1) -> int:
        if self._all is None and group in (1, 2, 3, 4) and not self.catalog.bombs:
            if self._small is None:
                self._small = best_by_group(self.catalog, self.cards, fives=False)
            return self._small.get(group, default)
        return self.full().get(group, default)

    def full(self) -> dict[object, int]:
        if self._all is None:
            self._all = best_by_group(self.catalog, self.cards)
        return self._all


def beatable(
    catalog: Catalog, play: Play, best: dict[object, int] | UnseenBest, most_cards: int
) -> bool:
    """Whether some play of the unseen cards (summarised by ``best``) could beat ``play``,
    given that no opponent holds more than ``most_cards`` cards."""
    if catalog.sf_unbeatable and play.kind is Kind.STRAIGHT_FLUSH:
        return False
    if most_cards >= play.size and best.get(play.group, -1) > play.power:
        return True
    return (
        bool(catalog.bombs)
        and play.group != BOMB_GROUP
        and best.get(BOMB_GROUP, -1) >= 0
        and most_cards >= 4
    )


# -- planning --------------------------------------------------------------------------------


def _play_cost(play: Play) -> float:
    """One per play, a little less for plays that win tricks, so the fewest plays come first
    and, among equal counts, the plan that keeps high groups intact."""
    strength = 0.6 if play.size >= 4 else max(0.0, (top_rank(play) - 6) / 6)
    return 1.0 - 0.2 * strength


class Planner:
    """Splits hands into the cheapest set of plays. The best split of a set of cards does not
    depend on anything else, so results are memoised per card mask for the rule set.

    The memo keeps, per mask, only the cost and the first play's mask (plain numbers): the
    garbage collector then has nothing to trace in it, which keeps its pauses short however
    large the memo grows inside a search."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._memo: dict[int, tuple[float, Mask]] = {0: (0.0, _NO_CARDS)}

    def plan(self, hand: Mask, plays: Sequence[Play] | None = None) -> tuple[Play, ...]:
        return self.best(hand, plays)[1]

    def cost(self, hand: Mask, plays: Sequence[Play] | None = None) -> float:
        """What the plan of ``hand`` costs. ``plays``: every play of ``hand`` or of a larger
        hand, when the caller has them (filtering is cheaper than enumerating again)."""
        hit = self._memo.get(hand)
        if hit is not None:
            return hit[0]
        if len(self._memo) > 300_000:
            self._memo = {0: (0.0, _NO_CARDS)}
        by_low: dict[int, list[Play]] = {}
        for p in self.catalog.plays_in(hand) if plays is None else plays:
            if not p.mask & ~hand:
                by_low.setdefault(p.mask & -p.mask, []).append(p)
        return self._best(hand, by_low)

    def best(
        self, hand: Mask, plays: Sequence[Play] | None = None
    ) -> tuple[float, tuple[Play, ...]]:
        """The plan of ``hand`` and its cost (``plays`` as for :meth:`cost`)."""
        cost = self.cost(hand, plays)
        memo = self._memo
        out: list[Play] = []
        rest: int = hand
        while rest:
            first = memo[rest][1]
            play = self.catalog.classify(first)
            assert play is not None
            out.append(play)
            rest &= ~first
        return cost, tuple(out)

    def _best(self, mask: int, by_low: dict[int, list[Play]]) -> float:
        hit = self._memo.get(mask)
        if hit is not None:
            return hit[0]
        low = mask & -mask
        best_cost = float("inf")
        best_first = _NO_CARDS  # a constant, not a Mask() call per memo miss
        # the lowest card must go in some play, and any play of ``mask`` holding it has it as
        # its lowest card, so trying those plays covers every split exactly once
        for p in by_low[low]:
            if p.mask & ~mask:
                continue
            cost = self._best(mask & ~p.mask, by_low) + _play_cost(p)
            if cost < best_cost:
                best_cost, best_first = cost, p.mask
        self._memo[mask] = (best_cost, best_first)
        return best_cost


_PLANNERS: dict[int, Planner] = {}


def planner_for(rules: Rules) -> Planner:
    catalog = catalog_for(rules)
    planner = _PLANNERS.get(id(catalog))
    if planner is None or planner.catalog is not catalog:
        planner = _PLANNERS[id(catalog)] = Planner(catalog)
    return planner


# -- the view, summarised ---------------------------------------------------------------------


# the other seats, for each number of players and seat
_OPPONENTS = {
    n: [tuple(s for s in range(n) if s != seat) for seat in range(n)] for n in range(2, 5)
}


@dataclass(slots=True)
class Situation:
    """What the strong player decides from: its cards, the counts, the trick, its legal
    moves and the cards it has not seen, plus a few derived facts. Built from a seat's view,
    or (inside the expert's simulations) from a simulated deal, using only what that seat
    would see. Read, never changed: it is not frozen only because a frozen dataclass sets
    each field through ``object.__setattr__``, and one is built for every simulated move."""

    rules: Rules
    scoring: Scoring  # how the deal is scored: what cards left cost
    catalog: Catalog
    seat: int
    hand: Mask
    counts: Sequence[int]
    trick: Play | None  # the play to beat, None at a lead
    legal: Sequence[Play]
    can_pass: bool
    plays: Sequence[Play]  # every play of the hand, whatever the play to beat
    opponents: tuple[int, ...]
    best: UnseenBest  # the unseen cards' best play per group
    most_cards: int  # the most cards any opponent holds
    fewest_cards: int  # the fewest cards any opponent holds

    @classmethod
    def of(cls, view: TableView) -> Situation:
        assert view.seat is not None
        plays = catalog_for(view.rules).plays_in(view.hand)
        return cls.make(
            view.rules, view.seat, view.hand, view.counts, view.to_beat, view.legal,
            view.can_pass, plays, view.unseen, view.scoring,
        )  # fmt: skip

    @classmethod
    def of_deal(cls, deal: Deal, legal: Sequence[Play], scoring: Scoring) -> Situation:
        """The seat to act in a simulated deal (scored by ``scoring``); its unseen cards are
        the other hands."""
        # as make(), written out: one of these is built for every simulated move
        seat = deal.turn
        hands = deal.hands
        unseen = 0
        counts = [h.bit_count() for h in hands]
        for s, h in enumerate(hands):
            if s != seat:
                unseen |= h
        opponents = _OPPONENTS[len(hands)][seat]
        others = [counts[s] for s in opponents]
        return cls(
            rules=deal.rules,
            scoring=scoring,
            catalog=deal.catalog,
            seat=seat,
            hand=hands[seat],
            counts=counts,
            trick=deal.to_beat,
            legal=legal,
            can_pass=deal.to_beat is not None,
            plays=deal.hand_plays(seat).plays,
            opponents=opponents,
            best=UnseenBest(deal.catalog, unseen),  # type: ignore[arg-type]  # a bare mask
            most_cards=max(others),
            fewest_cards=min(others),
        )

    @classmethod
    def make(
        cls,
        rules: Rules,
        seat: int,
        hand: Mask,
        counts: Sequence[int],
        trick: Play | None,
        legal: Sequence[Play],
        can_pass: bool,
        plays: Sequence[Play],
        unseen: Mask,
        scoring: Scoring,
    ) -> Situation:
        opponents = tuple(s for s in range(len(counts)) if s != seat)
        catalog = catalog_for(rules)
        others = [counts[s] for s in opponents]
        return cls(
            rules=rules,
            scoring=scoring,
            catalog=catalog,
            seat=seat,
            hand=hand,
            counts=counts,
            trick=trick,
            legal=legal,
            can_pass=can_pass,
            plays=plays,
            opponents=opponents,
            best=UnseenBest(catalog, unseen),
            most_cards=max(others),
            fewest_cards=min(others),
        )

    def master(self, play: Play) -> bool:
        """No cards this seat has not seen could beat ``play``."""
        return not beatable(self.catalog, play, self.best, self.most_cards)

    def losers_at_least(self, plays: Sequence[Play], n: int) -> bool:
        """At least ``n`` of ``plays`` could be beaten. The plays of up to four cards are
        asked first: the unseen cards' best five-card plays cost the most to work out."""
        left = n
        for five in (False, True):
            for p in plays:
                if (p.size == 5) is five and not self.master(p):
                    left -= 1
                    if left <= 0:
                        return True
        return left <= 0

    def danger(self, size: int) -> bool:
        """Some opponent could go out with one play of ``size`` cards."""
        return any(self.counts[s] == size for s in self.opponents)


# -- what the opponents have shown -------------------------------------------------------------


def opponents_held_back(view: TableView) -> bool:
    """Whether, this deal, an opponent passed a trick it could have beaten, from the public
    history only: a chosen pass where the table's autopass would have passed a seat with no
    reply (:func:`.inference.proven_replies`), or a pass over a single followed by that seat
    playing a higher card. Players that always answer when they can (``greedy``) never show
    it."""
    if proven_replies(view):
        return True
    power = catalog_for(view.rules).card_power
    current: Play | None = None
    passed_singles: list[tuple[int, int, int]] = []  # (action index, seat, power passed)
    for i, action in enumerate(view.actions):
        if action.play is not None:
            current = action.play
        elif (
            current is not None
            and current.size == 1
            and action.seat != view.seat
            and not action.auto
        ):
            passed_singles.append((i, action.seat, current.power))
        if action.trick_over:
            current = None
    for i, seat, passed in passed_singles:
        for action in view.actions[i + 1 :]:
            play = action.play
            if action.seat == seat and play is not None and top_power(power, play) > passed:
                return True
    return False


# -- the player -----------------------------------------------------------------------------


class StrongBot(Bot):
    """Plans the fewest plays that empty its hand and plays to the plan (see the module)."""

    name = "strong"
    # Tuning, set by arena runs against greedy, classic and the 2018 network. An opponent
    # with ``lost_at`` cards or fewer makes the deal look lost (unload points); with
    # ``spend_at`` or fewer, or a play to beat whose top rank is ``spend_over_rank`` (K) or
    # more, control cards may be spent on a reply; a reply "fits" when the best plan with it
    # costs at most ``slack`` more than the best plan.
    lost_at = 4
    lost_losers = 2
    spend_at = 7
    spend_over_rank = RANK_K
    lead_fives_first = True
    slack = 0.05
    # ``counter_peeking``: lead the largest group (five, triple, pair) before singles, and,
    # once an opponent has been seen to pass a trick it could beat (players that hold back,
    # such as the peeking Palm players), give a deal up only when an opponent is on its last
    # card. Measured in arena runs under palm against classic and greedy. The expert's
    # rollout players (``RacingStrong``) turn it off: their tuning predates it.
    counter_peeking = True

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        return self.decide(view)[0]

    def decide(self, view: TableView) -> tuple[Play | None, str]:
        """The play (None: pass) and a one-line reason for people."""
        if not view.legal:
            return None, "nothing beats the table"
        held_back = self.counter_peeking and opponents_held_back(view)
        return self.decide_in(Situation.of(view), held_back=held_back)

    def decide_in(self, s: Situation, *, held_back: bool = False) -> tuple[Play | None, str]:
        """As :meth:`decide`, from a :class:`Situation` with at least one legal play.
        ``held_back``: an opponent has passed a trick it could have beaten this deal."""
        play, reason = self._choose(s, held_back)
        return play, reason.format(play="" if play is None else play.symbols())

    def move_in(self, s: Situation) -> Play | None:
        """The play of :meth:`decide_in` alone, its reason never written out: the move of
        the expert's simulated players, made hundreds of thousands of times a decision."""
        return self._choose(s, False)[0]

    def _choose(self, s: Situation, held_back: bool) -> tuple[Play | None, str]:
        """The play and its reason, a template that names the play as ``{play}``."""
        for p in s.legal:
            if p.mask == s.hand:
                return p, "{play} goes out"
        if s.trick is None:
            return self._lead(s)
        return self._answer(s, held_back)

    # -- leading ------------------------------------------------------------------------------
    def _lead(self, s: Situation) -> tuple[Play, str]:
        legal = s.legal
        planner = planner_for(s.rules)
        plan = planner.plan(s.hand, s.plays)
        legal_masks = {p.mask: p for p in legal}
        in_plan = [legal_masks[p.mask] for p in plan if p.mask in legal_masks]
        if not in_plan:
            # the opening lead must hold a given card: take the legal play that spoils the
            # plan least
            best = min(
                legal, key=lambda p: (planner.cost(Mask(s.hand & ~p.mask), s.plays), p.order)
            )
            return best, "{play} opens with the least damage to the hand"
        losers = {p.mask for p in plan if not s.master(p)}  # the plan's plays are disjoint
        masters = [p for p in in_plan if p.mask not in losers]
        if len(losers) <= 1 and masters:
            # every play but one is unbeatable: cash the masters, then go out with the last
            best = max(masters, key=lambda p: (p.size, -p.order))
            return best, "{play} cannot be beaten: keep control and run out"
        candidates = unfiltered = [p for p in in_plan if p.mask in losers] or in_plan
        if s.fewest_cards <= 2:
            safe = [p for p in candidates if not s.danger(p.size)]
            if safe:
                candidates = safe
            else:
                # only plays an opponent could go out over: lead the strongest of them
                best = max(in_plan, key=lambda p: p.power if p.size == 1 else -1)
                singles = [p for p in legal if p.size == 1]
                if best.size == 1 and singles:
                    best = max(singles, key=lambda p: p.power)
                return best, "{play}: the strongest lead while a player is nearly out"
        if self.lead_fives_first:
            fives = [p for p in candidates if p.size == 5]
            if fives:
                best = min(fives, key=lambda p: p.order)
                return best, "{play} sheds five cards"
        if self.counter_peeking:
            # the largest group before singles (five, triple, pair; the lowest of a size),
            # even one an opponent on that many cards could go out over: measured, that
            # beats leading singles into players who keep their best cards for the end
            best = min(unfiltered, key=lambda p: (-p.size, top_rank(p), p.order))
            if best.size > 1:
                return best, "{play} sheds your lowest group"
        low = s.hand & -s.hand
        # shed the lowest card with its group; otherwise the weakest play, largest first
        with_low = [p for p in candidates if p.mask & low]
        if with_low:
            best = max(with_low, key=lambda p: (p.size, -p.order))
            return best, "{play} sheds your lowest card"
        best = min(candidates, key=lambda p: (top_rank(p), -p.size, p.order))
        return best, "{play} is your weakest play"

    # -- answering ----------------------------------------------------------------------------
    def _answer(self, s: Situation, held_back: bool = False) -> tuple[Play | None, str]:
        to_beat = s.trick
        assert to_beat is not None
        legal = s.legal
        planner = planner_for(s.rules)
        hand = s.hand

        if s.danger(to_beat.size) and to_beat.size <= 3:
            # someone could go out over this trick: answer with the strongest reply
            same_size = [p for p in legal if p.size == to_beat.size] or legal
            best = max(same_size, key=lambda p: p.power)
            return best, "{play} blocks a player who is nearly out"

        if self._looks_lost(s, held_back):
            # the deal is probably lost: shed the cards that would cost the most
            shed = max(legal, key=lambda p: (self._shed(s, p), -p.order))
            return shed, "{play} unloads points before the deal is lost"

        # a reply fits when some plan nearly as good as the best one contains it
        cost = planner.cost(hand, s.plays)
        fitting = [
            p
            for p in legal
            # a bare mask: no NewType call per reply (this runs inside the expert's rollouts)
            if planner.cost(hand & ~p.mask, s.plays) + _play_cost(p) <= cost + self.slack  # type: ignore[arg-type]
        ]
        if not fitting:
            return None, "every reply would break up your hand"
        cheap = [p for p in fitting if not self._is_control(s, p)]
        if cheap:
            best = cheap[0]
            return best, "{play} fits your plan"
        # only control cards fit: spend one when the race is short
        high_to_beat = top_rank(to_beat) >= self.spend_over_rank
        if (
            high_to_beat
            or s.fewest_cards <= self.spend_at
            or len(plan := planner.plan(hand, s.plays)) <= 3
            or not s.losers_at_least(plan, 3)
        ):
            best = fitting[0]
            return best, "{play} takes control now the race is short"
        return None, "keep your control cards for later"

    def _looks_lost(self, s: Situation, held_back: bool = False) -> bool:
        """An opponent is close to out and this hand (its plan) needs more leads than it
        will get. Against opponents that hold back (``held_back``, with ``counter_peeking``),
        only one on its last card makes it so: they are slow to go out, and points unloaded
        (high cards) are the cards that could still win the deal."""
        near = 1 if held_back and self.counter_peeking else max(2, self.lost_at)
        if s.fewest_cards > near:
            return False
        plan = planner_for(s.rules).plan(s.hand, s.plays)
        if held_back and self.counter_peeking:
            return s.losers_at_least(plan, 2)
        if s.fewest_cards <= 2 and s.losers_at_least(plan, 2):
            return True
        return s.fewest_cards <= self.lost_at and s.losers_at_least(plan, self.lost_losers)

    @staticmethod
    def _shed(s: Situation, play: Play) -> int:
        """The points ``play`` takes out of the hand."""
        rest = s.hand & ~play.mask  # a bare mask: no NewType call per reply weighed
        return penalty_points(s.scoring, s.hand) - penalty_points(s.scoring, rest)  # type: ignore[arg-type]

    @staticmethod
    def _is_control(s: Situation, play: Play) -> bool:
        """A play worth keeping: a 2, an ace single, or one nobody could beat."""
        if play.size <= 3 and top_rank(play) >= RANK_2:
            return True
        if play.size == 1 and top_rank(play) >= RANK_A:
            return True
        return play.size < 5 and s.master(play)


register_bot("strong", StrongBot)
