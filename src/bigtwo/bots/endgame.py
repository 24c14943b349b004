"""An exact endgame solver: the end of a deal whose every hand is known, played out perfectly.

Once few cards remain, a sampled world (a whole :class:`~bigtwo.engine.deal.Deal`, every
seat's cards known) can be finished by search rather than by a rollout. :func:`solve` plays it
out by perfect-information *max-n*: at every position the seat to act picks, among a pass
(when there is a play to beat) and each of ``deal.legal_plays()``, the option that maximises
its own final points, every other seat doing the same. A deal ends when a seat goes out; each
seat's points are then :func:`~.expert.deal_points` under the scoring.

Ties are broken by a fixed rule, so the answer is a function of the position alone: the first
best option in the order of the legal plays from the last to the first (``legal_plays`` gives
them cheapest first, so the largest and strongest come first here), then the pass. A play that
goes out, when there is one, is thus the first option, and the best: the others' hands only
shrink and every card left costs at least nothing, so no later line pays its seat more. (A
scoring with a negative rank value would break that; it is then searched like any other.)

Positions already solved are kept within one call (a transposition table) under a key that
holds everything the rest of the deal depends on (the trick's rules in
:class:`~bigtwo.engine.trick.Trick`): every hand, the seat to act, the play to beat, who made it
and the passes since, the seats locked out (``pass_lock``) and the card the opening play must
hold. Who made the play to beat and the passes count only while there is one (a lead resets
both; the locked seats a play keeps). Two cuts save work and change no answer: an option that
gets the seat to act what going out at once would (the most it can ever get) ends the search
of that position, and where every deal's points sum to zero (the winner collects) a position
is left as soon as its seat to act is shown to get so much that the seat before it, which has
a better option already, would not choose it (Korf's shallow pruning for max-n).

The search is bounded: past ``nodes`` positions expanded it gives up and returns None, a
deterministic bound so that a caller may fall back to its rollout. Whatever the outcome the
deal is left as it was given: every action taken is undone.

:func:`small_enough` says when to call it: at most ``cards`` cards left in all hands together.
Measured on 200 positions for each figure (random deals under charlesworth2018 and palm played
at random until so few cards were left, on a busy two-core machine, about 5 µs a position):

=====  =======================  ==========================  ==============================
cards  positions: median, p90   ms: median, p90, mean       over 2,000 positions
=====  =======================  ==========================  ==============================
8      9 / 9, 52 / 34           0.05, 0.3, 0.1              none
10     30 / 22, 394 / 274       0.2, 1.7, 0.5               none (max 985 / 1,220)
12     89 / 132, 2,063 / 3,454  0.5 / 1.0, 10 / 18, 4 / 6   10% / 19%
14     1,564 / 486              7 / 3.4 (capped at 2,000)   47% / 39%
=====  =======================  ==========================  ==============================

(charlesworth2018 / palm where they differ.) Hence :data:`ENDGAME_CARDS` of 10 and
:data:`ENDGAME_NODES` of 2,000 (about 10 ms at worst): every 10-card end is solved, in half a
millisecond on average.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .expert import deal_points

if TYPE_CHECKING:
    from ..engine.cards import Mask
    from ..engine.deal import Deal
    from ..engine.plays import Play
    from ..match.settings import Scoring

# The total cards in hands at or below which :func:`small_enough` says a deal is solved.
ENDGAME_CARDS = 10
# The positions :func:`solve` expands at most by default before it gives up (returns None).
ENDGAME_NODES = 2000

# One solved position: every seat's points, and the option the seat to act picks (a pass is
# None; a leaf where the seat goes out names its play).
_Entry = tuple[tuple[int, ...], "Play | None"]


class _Exhausted(Exception):
    """The node bound was reached."""


def small_enough(deal: Deal, cards: int = ENDGAME_CARDS) -> bool:
    """Whether the deal is small enough to solve: at most ``cards`` cards left in all hands
    together (and the deal not over)."""
    return deal.winner is None and sum(h.bit_count() for h in deal.hands) <= cards


def solve(deal: Deal, scoring: Scoring, nodes: int = ENDGAME_NODES) -> list[int] | None:
    """Every seat's points (index = seat) when ``deal`` is played out from where it stands by
    perfect-information max-n play under ``scoring`` (see the module); None when that needs
    more than ``nodes`` positions expanded. A deal already over gives its points as they are.
    The deal is left exactly as it was given."""
    found = best_option(deal, scoring, nodes)
    return None if found is None else found[1]


def best_option(
    deal: Deal, scoring: Scoring, nodes: int = ENDGAME_NODES
) -> tuple[Play | None, list[int]] | None:
    """The option the seat to act picks under :func:`solve`'s play (None: a pass) and every
    seat's points; None when that needs more than ``nodes`` positions expanded. Following it
    position by position reaches the points :func:`solve` gives. A deal already over has no
    option to pick: (None, its points)."""
    if deal.winner is not None:
        winner = deal.winner
        return None, [deal_points(scoring, deal.hands, winner, s) for s in range(deal.players)]
    entry = _Solver(deal, scoring, nodes).run()
    return None if entry is None else (entry[1], list(entry[0]))


class _Solver:
    """One call's search: the deal, the scoring, the positions solved (``memo``: exact points
    and choice), the positions cut short (``lower``: the least the seat to act was shown to
    get there) and the count of positions expanded left before the bound."""

    def __init__(self, deal: Deal, scoring: Scoring, nodes: int) -> None:
        self.deal = deal
        self.scoring = scoring
        self.left = nodes
        self.players = deal.players
        self.memo: dict[tuple[object, ...], _Entry] = {}
        self.lower: dict[tuple[object, ...], int] = {}
        self.outs: dict[tuple[int, ...], tuple[int, ...]] = {}
        self.costs: dict[int, int] = {}
        # Every card left costs at least nothing: the others' hands only shrink, so going out
        # now is the most a seat can ever get, and keeping every card the least.
        self.eager = scoring.per_card != "rank" or min(scoring.rank_values) >= 0
        # The points of every deal sum to zero: what one seat gets bounds what another can.
        self.zero_sum = self.eager and (scoring.winner_collects or scoring.per_card == "none")

    def run(self) -> _Entry | None:
        deal = self.deal
        depth = len(deal.actions)
        try:
            value = self.node(-1, None)
        except _Exhausted:
            while len(deal.actions) > depth:
                deal.undo()
            return None
        assert value is not None  # the root is never cut short
        return self.memo[self.key()]

    def key(self) -> tuple[object, ...]:
        """Everything the rest of the deal depends on (see the module)."""
        deal = self.deal
        to_beat = deal.to_beat
        if to_beat is None:  # who made the last play and the passes since no longer count
            return (*deal.hands, deal.turn, 0, -1, 0, deal.locked, deal.opening)
        return (
            *deal.hands,
            deal.turn,
            to_beat.order,
            deal.to_beat_seat,
            deal.passes,
            deal.locked,
            deal.opening,
        )

    def cap(self, hands: list[Mask], seat: int, other: int, least: int) -> int:
        """The most ``other`` can get once ``seat`` is known to get at least ``least`` (the
        points summing to zero, every third seat paying at most for the cards it holds)."""
        costs = self.costs
        most = -least
        for k, hand in enumerate(hands):
            if k != seat and k != other:
                cost = costs.get(hand)
                if cost is None:  # what a seat left holding ``hand`` pays
                    cost = costs[hand] = -deal_points(self.scoring, (hand,), -1, 0)
                most += cost
        return most

    def node(self, above: int, bar: int | None) -> tuple[int, ...] | None:
        """The points of the position the deal stands in; None when the seat ``above`` (who
        acted just before, and has an option worth ``bar`` already) is shown to get at most
        ``bar`` here, so would not choose it (``bar`` None: no such cut)."""
        deal = self.deal
        hands = deal.hands
        if deal.winner is not None:
            return self.out(hands, deal.winner)
        key = self.key()
        entry = self.memo.get(key)
        if entry is not None:
            return entry[0]
        seat = deal.turn
        cut = bar if seat != above else None  # the seat before, if another, and its best
        if cut is not None:
            least = self.lower.get(key)
            if least is not None and self.cap(hands, seat, above, least) <= cut:
                return None
        self.left -= 1
        if self.left < 0:
            raise _Exhausted
        hand = hands[seat]
        plays = deal.legal_plays()
        eager = self.eager
        # the play that goes out, if any, is the last: no other play holds as many cards
        if eager and plays and plays[-1].mask == hand:
            points = self.out(hands, seat)
            self.memo[key] = (points, plays[-1])
            return points
        apply, undo, node = deal.apply_unchecked, deal.undo, self.node
        zero_sum = self.zero_sum
        best: tuple[int, ...] | None = None
        choice: Play | None = None
        options: list[Play | None] = [*reversed(plays)]
        if deal.to_beat is not None:
            options.append(None)
        for p in options:
            apply(p)
            value = node(seat, best[seat] if zero_sum and best is not None else None)
            undo()
            if value is None or (best is not None and value[seat] <= best[seat]):
                continue
            best, choice = value, p
            mine = value[seat]
            # an option worth what going out now would be cannot be bettered
            if eager and mine >= 0 and mine >= self.out(hands, seat)[seat]:
                break
            if cut is not None and self.cap(hands, seat, above, mine) <= cut:
                self.lower[key] = max(mine, self.lower.get(key, mine))
                return None
        assert best is not None  # a lead always has a play: the seat holds cards
        self.memo[key] = (best, choice)
        return best

    def out(self, hands: list[Mask], seat: int) -> tuple[int, ...]:
        """Every seat's points if ``seat`` went out now, the others keeping ``hands``."""
        after = list(hands)
        after[seat] = 0  # type: ignore[call-overload]  # a bare mask, as the deal keeps
        key = (*after, seat)
        points = self.outs.get(key)
        if points is None:
            scoring = self.scoring
            points = tuple(deal_points(scoring, after, seat, s) for s in range(self.players))
            self.outs[key] = points
        return points


__all__ = ["ENDGAME_CARDS", "ENDGAME_NODES", "best_option", "small_enough", "solve"]
