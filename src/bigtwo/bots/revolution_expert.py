"""The ``expert`` player of Big 2 RevolutioN: flat determinized Monte Carlo from one seat's view.

As the 52-card :class:`~bigtwo.bots.expert.ExpertBot`, it decides by sampling *worlds* that
agree with everything its seat knows and finishing the hand in each one, every candidate
meeting the same worlds so the luck of the sampling cancels between them. What it knows is
:class:`~bigtwo.engine.revolution.RevolutionView` alone:

* its own cards, every seat's count of normal and of Revolution cards, the cards played and
  discarded, the Gathering and how many cards the deck still holds;
* the Revolution cards another seat took from the Gathering (public), which that seat still
  holds until it plays or discards them, and the normal card its own exchange gave, which the
  receiver holds until it plays it or makes an exchange of its own (whose card is hidden);
* that the seat which leads the hand holds the card the first play must include, while it
  has not been played.

The unseen normal cards are dealt at random to the other seats to their counts, and the
unseen Revolution cards to their Revolution counts and to the deck, shuffled: a world never
reads a hidden card. Every decision of the expansion is searched: plays and passes with the
functions it could activate first (jump, command, exchange, revolution), a counter or a
decline, and each draw or stop; a decision with one choice, or a play that goes out, is made
at once. The hand is finished in each world by a quick policy for every seat (the ``greedy``
player's rules for functions, counters and draws, written on the deal's state rather than on
views, with plays that keep pairs and lead low cards in long plays) on the engine's own
:class:`~bigtwo.engine.revolution.RevolutionDeal`, through its unchecked fast path
(:meth:`~bigtwo.engine.revolution.RevolutionDeal.apply_unchecked`; the world is restored for
each candidate), and each candidate's value is its seat's points less the other seats' mean,
as the rule set scores the hand. The
``strong`` player's choice is the first candidate, and another is taken only when it leads
by more than ``threshold`` points: a few dozen worlds are noisy, and a change of mind must
pay for the noise.

The budget is a number of rollouts (and of simulated actions), so a seeded ``random.Random``
gives the same choice every time.
"""

from __future__ import annotations

import random
from itertools import combinations

from ..engine.cards import Mask
from ..engine.deal import opening_of
from ..engine.errors import BigTwoError
from ..engine.plays import catalog_for
from ..engine.revolution import (
    End,
    Move,
    Phase,
    RevolutionChoice,
    RevolutionDeal,
    RevolutionView,
)
from ..engine.revolution_cards import (
    NORMAL_CARDS,
    REVOLUTION_BASE,
    REVOLUTION_CARDS,
    ids,
)
from ..engine.rules import REVOLUTION, Rules
from ..match.scoring import score_revolution_hand
from ..match.settings import RuleSet
from . import register_bot
from .revolution import RevolutionBot, StrongRevolutionBot, mostly_low

_RULESETS: dict[str, RuleSet] = {}


def scoring_rules_of(rules: Rules) -> RuleSet:
    """The rule set (with its scoring) of a view's rules: the preset of that name, else the
    ``revolution`` preset's scoring."""
    found = _RULESETS.get(rules.name)
    if found is None:
        try:
            found = RuleSet.preset(rules.name)
        except BigTwoError:  # a house-rules file's own name
            found = RuleSet.preset("revolution")
        if found.rules.revolution is None:
            found = RuleSet.preset("revolution")
        _RULESETS[rules.name] = found
    return found


# -- what the view tells --------------------------------------------------------------------------


def known_cards(view: RevolutionView) -> list[int]:
    """For each seat, the cards the view proves it holds: the Revolution cards it took from
    the Gathering, and the normal card this seat's exchange gave it, while still unplayed."""
    me = view.seat
    n = view.players
    known = [0] * n
    gone = view.played | view.discards
    for action in view.actions:
        if action.move is Move.DRAW and action.source == "gathering" and action.seat != me:
            known[action.seat] |= action.cards
        elif action.move is Move.EFFECT and action.function == "exchange":
            if action.seat == me and action.cards:
                known[action.target] |= action.cards  # the card this seat gave
            elif action.seat != me:
                known[action.seat] = known[action.seat] & REVOLUTION_CARDS  # it gave a card away
    for seat in range(n):
        known[seat] &= ~gone
    if me is not None:
        known[me] = 0
    return known


def _first_play_pending(view: RevolutionView) -> bool:
    """Whether the hand's first play, which must include the opening card, is still to come."""
    if view.rules.first_play == "any":
        return False
    return not any(a.move is Move.PLAY for a in view.actions)


def sample_world(view: RevolutionView, rng: random.Random) -> RevolutionDeal:
    """A hand in the view's position whose hidden cards are drawn at random (see the module's
    text): the other seats' cards, the deck's order and an exchange's card in the counter
    window."""
    me = view.seat
    assert me is not None
    n = view.players
    known = known_cards(view)
    held_known = 0
    for k in known:
        held_known |= k
    gathering = 0
    for c in view.gathering:
        gathering |= 1 << c
    seen = view.hand | view.played | view.discards | gathering | held_known
    normal_pool = ids(NORMAL_CARDS & ~seen)
    star_pool = ids(REVOLUTION_CARDS & ~seen)
    rng.shuffle(normal_pool)
    rng.shuffle(star_pool)
    hands = [0] * n
    hands[me] = view.hand
    for seat in range(n):
        if seat == me:
            continue
        hand = known[seat]
        need_normal = view.counts[seat] - (hand & NORMAL_CARDS).bit_count()
        need_star = view.revolution_counts[seat] - (hand & REVOLUTION_CARDS).bit_count()
        for _ in range(max(0, need_normal)):
            hand |= 1 << normal_pool.pop()
        for _ in range(max(0, need_star)):
            hand |= 1 << star_pool.pop()
        hands[seat] = hand
    rules = view.rules
    opening: int | None = None
    if _first_play_pending(view):
        if view.opening is not None:
            opening = view.opening
        else:
            holder, card = opening_of(rules, [Mask(h & NORMAL_CARDS) for h in hands])
            leader = view.leader
            if holder != leader and leader != me:
                # the leader holds the opening card: swap it in for one of its unknown cards
                mine = [c for c in ids(hands[leader] & NORMAL_CARDS & ~known[leader])]
                if mine:
                    other = rng.choice(mine)
                    hands[holder] ^= 1 << card | 1 << other
                    hands[leader] ^= 1 << card | 1 << other
            opening = int(card) if (hands[leader] >> card & 1) else None
    deck = list(star_pool)  # what is left: the deck's cards, in a random order
    if len(deck) != view.deck_left:
        raise AssertionError("the view's counts do not add up")  # cannot happen
    give = -1
    if view.phase is Phase.COUNTER and view.pending is not None:
        by, function, _, _ = view.pending
        if function == "exchange":
            give = _exchange_card(view, hands, opening, by, rng)
    return RevolutionDeal.in_position(view, hands, deck, opening=opening, give=give)


def _exchange_card(
    view: RevolutionView, hands: list[int], opening: int | None, by: int, rng: random.Random
) -> int:
    """The card of the exchange in the counter window: this seat's own (its activation shows
    it), else one of the giver's normal cards in this world."""
    if by == view.seat:
        for action in reversed(view.actions):
            if action.move is Move.ACTIVATE and action.given:
                return action.given.bit_length() - 1
    cards = [c for c in ids(hands[by] & NORMAL_CARDS) if c != opening]
    return rng.choice(cards)


# -- the quick policy of the simulated hands -------------------------------------------------------


def _functions(rules: Rules) -> list[str]:
    options = rules.revolution
    assert options is not None
    return [options.card_function(c) for c in range(REVOLUTION_BASE, REVOLUTION_BASE + 52)]


class _Masks:
    """The Revolution cards of each function under one rule set, as masks, and each card's
    place in a rank's cards (normal first, then Civilians, Characters last; weakest first)."""

    __slots__ = (
        "jump",
        "command",
        "exchange",
        "revolution",
        "counter",
        "character",
        "order",
        "functions",
    )

    def __init__(self, rules: Rules) -> None:
        by: dict[str, int] = {}
        self.functions = _functions(rules)
        for card, function in enumerate(self.functions, REVOLUTION_BASE):
            by[function] = by.get(function, 0) | 1 << card
        self.jump = by.get("jump", 0)
        self.command = by.get("command", 0)
        self.exchange = by.get("exchange", 0)
        self.revolution = by.get("revolution", 0)
        self.counter = by.get("counter", 0)
        self.character = sum(1 << c for c in range(REVOLUTION_BASE + 32, REVOLUTION_BASE + 52))
        power = catalog_for(rules).card_power
        self.order = [
            (self.character >> c & 1) << 12 | (c >= REVOLUTION_BASE) << 11 | power[c % 52]
            for c in range(104)
        ]


_MASKS: dict[Rules, _Masks] = {}


def _masks(rules: Rules) -> _Masks:
    found = _MASKS.get(rules)
    if found is None:
        found = _MASKS[rules] = _Masks(rules)
    return found


def _normal_count(hand: int) -> int:
    return (hand & NORMAL_CARDS).bit_count()


def quick_choice(deal: RevolutionDeal, masks: _Masks) -> RevolutionChoice:
    """A sensible choice for whoever is to act in a simulated hand, read from the deal itself
    (each seat deciding from its own cards and the public counts); ``masks``: its rules'."""
    hands = deal.hands
    n = deal.players
    if deal.phase is Phase.COUNTER:
        seat = deal.responder
        pending = deal.pending
        q = hands[seat] & masks.counter
        if q and pending is not None:
            by, function = pending.seat, pending.function
            close = _normal_count(hands[by]) <= 3
            hurts = (
                (function == "jump" and (by + 1) % n == seat)
                or (function == "exchange" and (pending.target == seat or close))
                or (function == "command" and close)
                or (function == "revolution" and mostly_low(hands[seat]) == deal.reversed)
            )
            if hurts:
                return RevolutionChoice(seat, Move.COUNTER, q & -q)
        return RevolutionChoice(seat, Move.DECLINE)
    seat = deal.turn
    hand = hands[seat]
    if deal.phase is Phase.DRAW:
        if deal.drawn == 0:
            for card in deal.gathering:
                if masks.character >> card & 1:
                    return RevolutionChoice(seat, Move.DRAW, 1 << card)
        if deal.top < len(deal.deck):
            mine = _normal_count(hand)
            if all(mine <= _normal_count(h) for h in hands):
                return RevolutionChoice(seat, Move.DRAW, 0)
        return RevolutionChoice(seat, Move.STOP)
    limit = deal.options.functions_per_turn
    may_activate = not limit or deal.used < limit
    counts = [_normal_count(h) for h in hands]
    play = _quick_play(deal, seat, counts, masks)
    if may_activate and hand & REVOLUTION_CARDS:
        if hand & masks.exchange and counts[seat] >= 2:
            cards = [c for c in ids(hand & NORMAL_CARDS) if c != deal.opening]
            if cards:
                power = deal.cards.card_power
                worst = (max if deal.reversed else min)(cards, key=lambda c: power[c])
                target = min((s for s in range(n) if s != seat), key=lambda s: (counts[s], s))
                card = hand & masks.exchange
                return RevolutionChoice(
                    seat, Move.ACTIVATE, card & -card, target=target, give=worst
                )
        if hand & masks.jump and counts[(seat + 1) % n] <= 2:
            card = hand & masks.jump
            return RevolutionChoice(seat, Move.ACTIVATE, card & -card)
        if hand & masks.command and deal.to_beat is not None and play is None:
            card = hand & masks.command
            return RevolutionChoice(seat, Move.ACTIVATE, card & -card)
        if hand & masks.revolution and mostly_low(hand) != deal.reversed:
            card = hand & masks.revolution
            return RevolutionChoice(seat, Move.ACTIVATE, card & -card)
    if play is None:
        return RevolutionChoice(seat, Move.PASS)
    return RevolutionChoice(seat, Move.PLAY, play)


def _quick_play(deal: RevolutionDeal, seat: int, counts: list[int], masks: _Masks) -> int | None:
    """The cards of a quick play, found without listing every play of the hand. Leading: the
    cards of its lowest normal rank (a pair or triple when it has one; the highest single, or
    a pair, when the next seat is on one card); following a single, pair or triple: the
    cheapest that beats it, Characters last, the strongest when someone could go out;
    following a longer play: the cheapest of the listed replies that sheds a normal card."""
    cards = deal.cards
    classify = cards.classify
    hand = deal.hands[seat]
    sign = -1 if deal.reversed else 1
    n = deal.players
    to_beat = deal.to_beat
    if to_beat is not None and to_beat.size > 3:
        reversed_ = deal.reversed
        plays = [
            p
            for p in cards.plays_in(hand)
            if p.mask & NORMAL_CARDS and cards.beats(p, to_beat, reversed=reversed_)
        ]
        if not plays:
            return None
        plain = [p for p in plays if not p.mask & masks.character] or plays
        return min(plain, key=lambda p: sign * p.power).mask
    character = masks.character
    normal = hand & NORMAL_CARDS
    reversed_ = deal.reversed
    # ranks from the weakest in the order now in force
    ranks = _DOWN if reversed_ else _UP
    order = masks.order
    if to_beat is None:
        if not normal:
            return None
        opening = deal.opening
        if opening is not None:
            low = opening
        else:
            low = normal.bit_length() - 1 if reversed_ else (normal & -normal).bit_length() - 1
        if counts[(seat + 1) % n] == 1:
            for r in ranks:  # a pair or more keeps a player on one card from going out
                held = hand & _RANK[r] & ~character
                if held.bit_count() >= 2 and held & NORMAL_CARDS:
                    pair = sorted(ids(held), key=order.__getitem__)[:2]
                    mask = 1 << pair[0] | 1 << pair[1]
                    if (opening is None or mask >> opening & 1) and classify(mask):
                        return mask
            if opening is None:
                top = (normal & -normal).bit_length() - 1 if reversed_ else normal.bit_length() - 1
                return 1 << top
        rest = sorted(ids(hand & _RANK[low >> 2] & ~character & ~(1 << low)), key=order.__getitem__)
        lowest = [low, *rest]
        for size in (3, 2):
            if len(lowest) >= size:
                mask = 0
                for c in lowest[:size]:
                    mask |= 1 << c
                if classify(mask) is not None:
                    return mask
        return 1 << low
    size = to_beat.size
    beats = cards.beats
    near = min(counts[s] for s in range(n) if s != seat)
    racing = near <= size
    best_mask, best_key = None, None
    for r in reversed(ranks) if racing else ranks:
        group_mask = hand & _RANK[r]
        count = group_mask.bit_count()
        if count < size or not group_mask & NORMAL_CARDS:
            continue
        # breaking up a bigger set of one rank costs it, unless someone could go out
        splits = 0 if racing else int(count > size)
        group = sorted(ids(group_mask), key=order.__getitem__)
        for option in combinations(group, size):
            mask = 0
            for c in option:
                mask |= 1 << c
            if not mask & NORMAL_CARDS:
                continue
            play = classify(mask)
            if play is None or not beats(play, to_beat, reversed=reversed_):
                continue
            key = ((mask & character).bit_count(), splits)
            if best_key is None or key < best_key:
                best_mask, best_key = mask, key
            break  # the weakest (or strongest) beating option of this rank
        if best_key == (0, 0):
            break  # nothing is better than the first clean reply found in order
    return best_mask


_RANK = [0xF << 4 * r | 0xF << (REVOLUTION_BASE + 4 * r) for r in range(13)]
_UP = tuple(range(13))
_DOWN = tuple(reversed(_UP))


def margin_points(ruleset: RuleSet, deal: RevolutionDeal, seat: int) -> float:
    """``seat``'s points less the other seats' mean, for a finished hand (one not finished
    within the step limit is scored as if the deck had run out now)."""
    winner = deal.winner
    exhausted = deal.end is End.EXHAUSTION
    if winner is None:
        counts = deal.normal_counts()
        winner, exhausted = counts.index(min(counts)), True
    points = score_revolution_hand(ruleset, deal.hands, winner, exhausted).points
    n = len(points)
    return points[seat] - (sum(points) - points[seat]) / (n - 1)


def rollout_hand(
    deal: RevolutionDeal, ruleset: RuleSet, seat: int, limit: int
) -> tuple[float, int]:
    """Finish the hand with :func:`quick_choice` for every seat, on the deal's unchecked fast
    path: ``seat``'s margin and the actions taken. The deal is left where it stopped."""
    steps = 0
    masks = _masks(deal.rules)
    take = deal.apply_unchecked
    while deal.end is None and steps < limit:
        take(quick_choice(deal, masks))
        steps += 1
    return margin_points(ruleset, deal, seat), steps


# -- the player ----------------------------------------------------------------------------------


class ExpertRevolutionBot(RevolutionBot):
    """Flat determinized search over every decision (see the module's text).

    ``rollouts``: simulated hands per decision, shared among the candidates; ``max_steps``:
    at most this many simulated actions per decision; ``candidates``: at most this many
    choices searched; ``threshold``: how far (in points) another candidate must lead the
    ``strong`` player's choice to be taken instead."""

    name = "expert"

    def __init__(
        self,
        rollouts: int = 64,
        max_steps: int = 4800,
        candidates: int = 6,
        threshold: float = 0.25,
    ) -> None:
        self.rollouts = rollouts
        self.max_steps = max_steps
        self.max_candidates = candidates
        self.threshold = threshold
        self._strong = StrongRevolutionBot()

    def choose(self, view: RevolutionView, rng: random.Random) -> RevolutionChoice:
        choices = view.choices
        if len(choices) == 1:
            return choices[0]
        seat = view.seat
        assert seat is not None
        normal = view.hand & NORMAL_CARDS
        for choice in choices:
            if choice.move is Move.PLAY and not normal & ~choice.cards:
                return choice  # it goes out
        candidates = self.candidates(view, rng)
        if len(candidates) == 1:
            return candidates[0]
        means = self.search(view, rng, candidates)
        best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        if means[best] - means[0] <= self.threshold:
            return candidates[0]
        return candidates[best]

    def candidates(self, view: RevolutionView, rng: random.Random) -> list[RevolutionChoice]:
        """The choices worth searching, the ``strong`` player's first."""
        out: list[RevolutionChoice] = []

        def add(choice: RevolutionChoice) -> None:
            if choice not in out:
                out.append(choice)

        add(self._strong.choose(view, random.Random(0)))
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in view.choices:
            by_move.setdefault(choice.move, []).append(choice)
        if view.phase is not Phase.ACT:
            for choice in view.choices:  # counter or decline; each draw and the stop
                add(choice)
            return out[: self.max_candidates]
        plays = by_move.get(Move.PLAY, [])
        for choice in by_move.get(Move.PASS, []):
            add(choice)
        activations = by_move.get(Move.ACTIVATE, [])
        by_function: dict[str, list[RevolutionChoice]] = {}
        for choice in activations:
            card = choice.cards.bit_length() - 1
            by_function.setdefault(view.function_of(card), []).append(choice)
        for function in ("command", "jump", "revolution"):
            if function in by_function:
                # the weakest card of the function: the strong ones are better kept for plays
                add(min(by_function[function], key=lambda c: c.cards))
        if "exchange" in by_function:
            add(_exchange(view, by_function["exchange"]))
        if plays:
            shedding = [c for c in plays if c.cards & NORMAL_CARDS] or plays
            add(shedding[0])
            if view.to_beat is not None:
                add(shedding[-1])
        return out[: self.max_candidates]

    def search(
        self, view: RevolutionView, rng: random.Random, candidates: list[RevolutionChoice]
    ) -> list[float]:
        """Each candidate's mean margin over the same sampled worlds."""
        seat = view.seat
        assert seat is not None
        ruleset = scoring_rules_of(view.rules)
        totals = [0.0] * len(candidates)
        worlds = steps = 0
        per_world = len(candidates)
        while worlds < 2 or ((worlds + 1) * per_world <= self.rollouts and steps < self.max_steps):
            world = sample_world(view, rng)
            start = world.saved_state()
            for i, choice in enumerate(candidates):
                world.apply_unchecked(choice)
                value, taken = rollout_hand(world, ruleset, seat, 400)
                world.restore(start)
                totals[i] += value
                steps += taken + 1
            worlds += 1
        return [t / worlds for t in totals]


def _exchange(view: RevolutionView, choices: list[RevolutionChoice]) -> RevolutionChoice:
    """The exchange worth trying: the seat's weakest normal card to the seat with fewest."""
    me = view.seat
    counts = view.counts
    power = catalog_for(view.rules).card_power
    target = min((s for s in range(view.players) if s != me), key=lambda s: (counts[s], s))
    aimed = [c for c in choices if c.target == target] or choices
    pick = (max if view.reversed else min)(aimed, key=lambda c: (power[c.give], c.cards))
    return pick


register_bot("expert", ExpertRevolutionBot, game=REVOLUTION)
