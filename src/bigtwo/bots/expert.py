"""The ``expert`` computer player: fair determinized search over simulated deals.

From its seat's view it (1) reads what the passes prove about the other hands
(:mod:`.inference`): an automatic pass shows that seat held nothing beating the play to beat,
a chosen one that it held a reply; (2) samples *worlds*, full deals that agree with
everything it knows: its own cards, every seat's card count, the cards played and those
proofs; (3) in each world tries each of a few candidate moves (the ``strong`` player's choice,
a pass, the cheapest play, the plays of its plan) and finishes the deal with a rollout policy
for every seat (by default the ``strong`` player's rules racing a little harder,
:class:`RacingStrong`, each simulated seat deciding from its own cards and the counts); and
(4) picks the candidate with the best mean points for its seat under the rules' scoring.
Every candidate meets the same worlds, so the luck of the sampling cancels between them; the
second half of the budget goes to the two leading candidates.

The plays can be read too: with ``recent=N`` each world is weighted by how well it explains
the other seats' last N choices (:func:`likelihood`). Against the 2018 network that made the
expert weaker (−1.26 against −0.81 points a deal over the same 600 deals under
charlesworth2018), the rollout player being a poor model of that network, so it is off by
default.

That is flat determinized Monte Carlo (``search="flat"``, the default). ``search="ismcts"``
grows a single-observer information-set tree instead (every seat choosing by UCB among the
moves its world allows); in our measurements against the 2018 network it was no better for
the same budget, so it stays an option. ``policy="fast"`` uses a cheaper rollout policy
(about eight times the rollouts for the time, but weaker play inside them), and
``policy="learned"`` bigtwo's own network in every seat of the rollouts
(:func:`~.learned.rollout_policy`), the network's own move first among the candidates: against
three ``learned`` players its opponent model is then exact, so it shows what the search itself
adds to a policy (``scripts/search_diagnostic.py``).

The budget is a number of rollouts, so a seeded rng gives the same move every time; an
optional time limit stops earlier (for hints). It never sees another seat's cards: the worlds
are built from the view alone.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING

from ..engine.cards import Mask, card_indices
from ..engine.deal import Deal
from ..engine.plays import Catalog, Play, catalog_for
from . import register_bot
from .base import Bot
from .inference import proven_misses, proven_replies
from .strong import Situation, StrongBot, UnseenBest, beatable, penalty_points, planner_for

if TYPE_CHECKING:
    from ..engine.views import SeatView
    from ..match.settings import Scoring
    from ..match.views import TableView


_NO_CARDS = Mask(0)

# -- the worlds ------------------------------------------------------------------------------------


def _cards_above(power: Sequence[int], single: Play) -> Mask:
    """The mask of every card stronger than the single ``single``."""
    return Mask(sum(1 << c for c in range(52) if power[c] > single.power))


def _beats(catalog: Catalog, cards: Mask, play: Play) -> bool:
    """Whether ``cards`` can make a play that beats ``play``."""
    return beatable(catalog, play, UnseenBest(catalog, cards), 13)


def sample_hands(
    view: SeatView,
    rng: random.Random,
    misses: Sequence[tuple[int, Play]] = (),
    tries: int = 30,
    replies: Sequence[tuple[int, Play, int]] = (),
) -> list[Mask]:
    """One deal of the unseen cards to the other seats that fits the view and the proofs.

    ``misses`` (:func:`proven_misses`): singles missed forbid every higher card outright; the
    other proofs, and every ``replies`` proof (:func:`proven_replies`), are checked on each
    seat's sampled hand as it is drawn, and that hand drawn again when one fails (the last
    seat takes the cards left, so a failure there starts the deal again). After ``tries``
    failed deals the proofs are dropped (they cannot all be wrong, but a search must not hang
    on them).
    """
    assert view.seat is not None
    catalog = catalog_for(view.rules)
    power = catalog.card_power
    n = view.players
    others = [s for s in range(n) if s != view.seat]
    forbidden = dict.fromkeys(others, 0)
    checks: dict[int, list[Play]] = {s: [] for s in others}
    for seat, play in misses:
        if play.size == 1:
            forbidden[seat] |= _cards_above(power, play)
        else:
            checks[seat].append(play)
    needs: dict[int, list[tuple[Play, int, int]]] = {s: [] for s in others}
    for seat, play, since in replies:
        needs[seat].append((play, since, _cards_above(power, play) if play.size == 1 else 0))

    def fits(seat: int, hand: Mask) -> bool:
        if any(_beats(catalog, hand, play) for play in checks[seat]):
            return False
        return all(
            (hand | since) & above if above else _beats(catalog, Mask(hand | since), play)
            for play, since, above in needs[seat]
        )

    unseen = view.unseen
    # the most constrained seats draw first; the last takes what is left
    order = sorted(
        others,
        key=lambda s: (forbidden[s] & unseen).bit_count() + 8 * (len(checks[s]) + len(needs[s])),
        reverse=True,
    )
    for attempt in range(tries + 1):
        constrained = attempt < tries  # the last attempt ignores the proofs
        hands = [_NO_CARDS] * n
        hands[view.seat] = view.hand
        left: int = unseen
        for k, s in enumerate(order):
            pool = card_indices(Mask(left & ~forbidden[s] if constrained else left))
            need = view.counts[s]
            if len(pool) < need:
                break
            for _ in range(10 if constrained and k < len(order) - 1 else 1):
                bits = 0
                for c in rng.sample(pool, need):
                    bits |= 1 << c
                hand = Mask(bits)  # once per hand drawn, not per card
                if not constrained or fits(s, hand):
                    break
            else:
                break
            hands[s] = hand
            left &= ~hand
        else:
            return hands
    raise AssertionError("unreachable: the unconstrained sample always succeeds")


def world_of(view: SeatView, hands: Sequence[Mask]) -> Deal:
    """A deal in the view's position with the given hands: the sampled world."""
    deal = Deal(view.rules, list(hands), leader=view.turn)
    # the trick in progress is public; copy it onto the fresh deal
    deal.take_up_trick(view.to_beat, view.to_beat_seat, view.passes, view.locked, view.opening)
    return deal


# -- rollouts ---------------------------------------------------------------------------------------


def rollout_move(deal: Deal) -> Play | None:
    """The cheap rollout policy (``policy="fast"``): a sensible move for whoever is to act.

    Leading: the largest play holding the lowest card (the highest single when the next seat
    is on one card). Answering: the cheapest reply that does not split a pair or triple for a
    single (unless a seat is nearly out), the strongest reply when someone could go out.
    """
    plays = deal.legal_plays()
    seat = deal.turn
    hand = deal.hands[seat]
    hands = deal.hands
    n = deal.players
    nxt = hands[(seat + 1) % n].bit_count()
    if deal.to_beat is None:
        if nxt == 1:
            multi = [p for p in plays if p.size > 1]
            return multi[0] if multi else plays[-1]  # plays[-1]: the highest single
        low = hand & -hand
        best = plays[0]
        for p in plays:
            if p.mask & low and p.size > best.size:
                best = p
        return best
    if not plays:
        return None
    size = deal.to_beat.size
    near = min(hands[s].bit_count() for s in range(n) if s != seat)
    if near <= size:
        return max((p for p in plays if p.size == size), key=_power, default=plays[-1])
    for p in plays:
        if p.size == 1:
            r = p.mask.bit_length() - 1 >> 2
            if (hand >> (r * 4) & 0xF).bit_count() >= 2 and hand.bit_count() > 3:
                continue
            if r == 12 and near > 6 and hand.bit_count() > 6:
                return None  # a 2 is wasted this early
        return p
    return None


def _power(play: Play) -> int:
    return play.power


def deal_points(scoring: Scoring, hands: Sequence[Mask], winner: int, seat: int) -> int:
    """``seat``'s points once ``winner`` is out, as ``scoring`` has it (cards counted where
    it scores nothing, so the search still has something to play for)."""
    if seat != winner:
        return -penalty_points(scoring, hands[seat])
    if not scoring.winner_collects and scoring.per_card != "none":
        return 0
    return sum(penalty_points(scoring, h) for s, h in enumerate(hands) if s != winner)


class RacingStrong(StrongBot):
    """The players of the simulated deals: ``strong``'s rules, racing harder. They answer
    whenever a reply costs at most about one more play and spend control cards freely.
    Simulations with these players chose better moves against the 2018 network than ones
    with ``strong``'s own caution (arena runs under charlesworth2018), because strong
    opponents do not wait."""

    slack = 1.05
    spend_at = 13
    counter_peeking = False


_RACER = RacingStrong()


def strong_move(deal: Deal, scoring: Scoring) -> Play | None:
    """A :class:`RacingStrong` move for the seat to act in a simulated deal scored by
    ``scoring`` (it sees that seat's cards and counts; the other hands stand for its unseen
    cards)."""
    legal = deal.legal_plays()
    if not legal:
        return None
    return _RACER.move_in(Situation.of_deal(deal, legal, scoring))


def likelihood(view: TableView, hands: Sequence[Mask], recent: int = 6, miss: float = 0.4) -> float:
    """How well a sampled world explains the other seats' latest choices, as a weight.

    The deal is replayed from the world's hands (each seat's cards now plus those it has
    played) and at each of the last ``recent`` choices the other seats made, the rollout
    player's move for that seat is asked: a choice it would not have made multiplies the
    weight by ``miss``. Played against real hands, that player agrees with about half the
    choices the 2018 network makes, with random hands about a third, so worlds that explain
    the play are worth more than the rest.
    """
    me = view.seat
    actions = view.actions
    choices = [i for i in range(1, len(actions)) if actions[i].seat != me and not actions[i].auto]
    chosen = set(choices[-recent:])
    if not chosen:
        return 1.0
    played = [0] * view.players
    for action in actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    dealt = [Mask(h | p) for h, p in zip(hands, played, strict=True)]
    deal = Deal(view.rules, dealt, leader=view.leader)
    weight = 1.0
    first = min(chosen)
    apply = deal.apply_unchecked
    for i, action in enumerate(actions):
        if i >= first and action.seat == deal.turn and i in chosen:
            legal = deal.legal_plays()
            if legal:
                move = _RACER.move_in(Situation.of_deal(deal, legal, view.scoring))
                made = action.play
                if (move is None) != (made is None) or (
                    move is not None and made is not None and move.mask != made.mask
                ):
                    weight *= miss
        apply(action.play)
    return weight


Policy = Callable[[Deal], Play | None]


def rollout(
    deal: Deal, seat: int, scoring: Scoring, policy: Policy = rollout_move, limit: int = 400
) -> int:
    """Finish ``deal`` with ``policy`` for every seat; ``seat``'s points under ``scoring``.
    The deal is left finished: the caller undoes what it needs."""
    apply = deal.apply_unchecked
    steps = 0
    while deal.winner is None and steps < limit:
        apply(policy(deal))
        steps += 1
    if deal.winner is None:  # cannot happen in a legal deal; score as a loss of all cards
        return -penalty_points(scoring, deal.hands[seat])
    return deal_points(scoring, deal.hands, deal.winner, seat)


# -- information-set search ---------------------------------------------------------------------


class _Node:
    """A node of the search tree: the moves below it by key (play mask, 0 for a pass), and
    the record of the move into it from the point of view of the seat that made it."""

    __slots__ = ("children", "visits", "available", "total")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


def tree_moves(deal: Deal, policy: Policy) -> list[Play | None]:
    """The few moves a tree node considers for the seat to act: what the rollout policy
    would do, a pass, the cheapest plays of each size and the strongest reply."""
    plays = deal.legal_plays()
    out: list[Play | None] = [policy(deal)]
    if deal.to_beat is None:
        cheapest: dict[int, Play] = {}
        for p in plays:
            cheapest.setdefault(p.size, p)
        out.extend(cheapest.values())
    else:
        out.append(None)
        out.extend(plays[:2])
        if plays:
            out.append(plays[-1])
    seen: set[int] = set()
    unique: list[Play | None] = []
    for move in out:
        key = 0 if move is None else move.mask
        if key not in seen:
            seen.add(key)
            unique.append(move)
    return unique


def _scale(scoring: Scoring) -> float:
    """A typical loss (six middling cards) to bring rewards near 1 for the UCB formula."""
    return max(1.0, float(penalty_points(scoring, Mask(0x3F << 20))))


_MIN_WORLDS = 2  # at least this many worlds, whatever the budget says


# -- the player ---------------------------------------------------------------------------------


class ExpertBot(Bot):
    """Determinized Monte Carlo search (see the module docstring).

    ``rollouts``: simulated deals per decision, shared among the candidates; ``max_steps``:
    at most this many simulated moves per decision, which caps the long searches early in a
    deal (both are deterministic budgets, sized for a median under 200 ms and a p99 well under
    a second on one core). ``time_limit``: seconds per decision,
    or None (the default) for a fixed, deterministic budget. ``candidates``: how many moves
    are searched. ``search``: ``"flat"`` or ``"ismcts"``; ``policy``: ``"strong"``,
    ``"fast"`` or ``"learned"`` rollouts; ``exploration``: the UCB constant of ``"ismcts"``; ``finalists``:
    how many leading candidates the second half of a flat search keeps (0: all of them);
    ``recent``: weigh the worlds by the other seats' last ``recent`` choices (0: off).
    """

    name = "expert"

    def __init__(
        self,
        rollouts: int = 480,
        time_limit: float | None = None,
        candidates: int = 6,
        search: str = "flat",
        exploration: float = 0.7,
        policy: str = "strong",
        max_steps: int = 7200,
        finalists: int = 2,
        recent: int = 0,
    ) -> None:
        self.recent = recent
        self.max_steps = max_steps
        self.finalists = finalists
        if search not in ("flat", "ismcts") or policy not in ("strong", "fast", "learned"):
            raise ValueError(
                "search is 'flat' or 'ismcts'; policy is 'strong', 'fast' or 'learned'"
            )
        self.policy = policy
        self.search = search
        self.exploration = exploration
        self.rollouts = rollouts
        self.time_limit = time_limit
        self.max_candidates = candidates
        self._strong = StrongBot()

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        return self.decide(view, rng)[0]

    def _policy(self, scoring: Scoring) -> Policy:
        """The rollout policy for a deal scored by ``scoring`` (the strong one sheds points
        by it when a deal looks lost)."""
        if self.policy == "learned":
            from .learned import rollout_policy

            return rollout_policy(scoring)
        return rollout_move if self.policy == "fast" else partial(strong_move, scoring=scoring)

    def decide(self, view: TableView, rng: random.Random) -> tuple[Play | None, str]:
        """The move and a one-line reason for people."""
        legal = view.legal
        if not legal:
            return None, "nothing beats the table"
        for p in legal:
            if p.mask == view.hand:
                return p, f"{p.symbols()} goes out"
        candidates = self.candidates(view)
        if len(candidates) == 1:
            only = candidates[0]
            return only, self._strong.decide(view)[1]
        if self.search == "ismcts":
            visits, means, worlds = self._ismcts(view, rng, candidates)
            best = max(range(len(candidates)), key=lambda i: (visits[i], means[i], -i))
        else:
            means, worlds = self._flat(view, rng, candidates)
            best = max(range(len(candidates)), key=lambda i: (means[i], -i))
        move = candidates[best]
        runner = max((i for i in range(len(candidates)) if i != best), key=lambda i: means[i])
        what = "pass" if move is None else move.symbols()
        other = candidates[runner]
        other_text = "passing" if other is None else other.symbols()
        reason = (
            f"{what}: {means[best]:+.1f} points on average over {worlds} simulated deals"
            f" ({other_text}: {means[runner]:+.1f})"
        )
        return move, reason

    def _out_of_time(self, start: float) -> bool:
        return self.time_limit is not None and time.perf_counter() - start > self.time_limit

    def _flat(
        self, view: TableView, rng: random.Random, candidates: list[Play | None]
    ) -> tuple[list[float], int]:
        """Candidates in sampled worlds, finished by rollouts: mean points each.

        The first half of the budget tries every candidate in every world; the second half
        goes to the ``finalists`` best so far, in fresh worlds, so the close call between
        the leaders is made on several times as many worlds.
        """
        start = time.perf_counter()
        seat = view.seat
        assert seat is not None
        scoring = view.scoring
        policy = self._policy(scoring)
        misses = proven_misses(view)
        replies = proven_replies(view)
        totals = [0.0] * len(candidates)
        counts = [0.0] * len(candidates)  # the worlds' weights, summed
        active = list(range(len(candidates)))
        rollouts = steps = worlds = 0
        halved = self.finalists <= 0 or self.finalists >= len(candidates)
        while worlds < _MIN_WORLDS or (
            rollouts < self.rollouts and steps < self.max_steps and not self._out_of_time(start)
        ):
            if (
                not halved
                and worlds
                and (rollouts * 2 >= self.rollouts or steps * 2 >= self.max_steps)
            ):
                ranked = sorted(active, key=lambda i: (-totals[i] / counts[i], i))
                active = sorted(ranked[: self.finalists])
                halved = True
            hands = sample_hands(view, rng, misses, replies=replies)
            weight = likelihood(view, hands, self.recent) if self.recent else 1.0
            deal = world_of(view, hands)
            for i in active:
                deal.apply_unchecked(candidates[i])
                totals[i] += weight * rollout(deal, seat, scoring, policy)
                counts[i] += weight
                steps += len(deal.actions)
                while deal.actions:
                    deal.undo()
            rollouts += len(active)
            worlds += 1
        means = [t / c if c else -math.inf for t, c in zip(totals, counts, strict=True)]
        # the dropped candidates keep their first-half means, which ranked below the finalists
        for i in range(len(candidates)):
            if i not in active and means[i] > min(means[j] for j in active):
                means[i] = min(means[j] for j in active) - 1e-9
        return means, worlds

    def _ismcts(
        self, view: TableView, rng: random.Random, candidates: list[Play | None]
    ) -> tuple[list[int], list[float], int]:
        """Single-observer information-set MCTS: each iteration samples a world, walks the
        tree choosing for every seat by UCB among the moves that world allows, adds one node,
        finishes with a rollout and credits each move with its mover's points."""
        start = time.perf_counter()
        seat = view.seat
        assert seat is not None
        scoring = view.scoring
        policy = self._policy(scoring)
        scale = _scale(scoring)
        misses = proven_misses(view)
        replies = proven_replies(view)
        root = _Node()
        root_keys = [0 if m is None else m.mask for m in candidates]
        for key in root_keys:
            root.children[key] = _Node()
        log = math.log
        sqrt = math.sqrt
        c = self.exploration
        iterations = 0
        while iterations < self.rollouts:
            if iterations >= 2 * len(candidates) and self._out_of_time(start):
                break
            deal = world_of(view, sample_hands(view, rng, misses, replies=replies))
            node = root
            path: list[tuple[_Node, int]] = []
            moves: list[Play | None] = candidates
            while True:
                keys = root_keys if node is root else [0 if m is None else m.mask for m in moves]
                fresh: int | None = None
                best_key = -1
                best_score = -math.inf
                for i, key in enumerate(keys):
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = _Node()
                    child.available += 1
                    if child.visits == 0:
                        if fresh is None:
                            fresh = i
                        continue
                    score = child.total / child.visits + c * sqrt(
                        log(child.available) / child.visits
                    )
                    if score > best_score:
                        best_score, best_key = score, i
                pick = fresh if fresh is not None else best_key
                mover = deal.turn
                deal.apply_unchecked(moves[pick])
                node = node.children[keys[pick]]
                path.append((node, mover))
                if fresh is not None or deal.winner is not None:
                    break
                moves = tree_moves(deal, policy)
            if deal.winner is None:
                rollout(deal, seat, scoring, policy)
            assert deal.winner is not None
            hands = deal.hands
            for child, mover in path:
                child.visits += 1
                child.total += deal_points(scoring, hands, deal.winner, mover) / scale
            while deal.actions:
                deal.undo()
            iterations += 1
        visits = [root.children[k].visits for k in root_keys]
        means = [
            root.children[k].total / root.children[k].visits * scale
            if root.children[k].visits
            else -math.inf
            for k in root_keys
        ]
        return visits, means, iterations

    def candidates(self, view: TableView) -> list[Play | None]:
        """The moves worth searching, most promising first."""
        legal = list(view.legal)
        out: list[Play | None] = []

        def add(move: Play | None) -> None:
            if move is None:
                if view.can_pass and None not in out:
                    out.append(None)
            elif all(m is None or m.mask != move.mask for m in out):
                out.append(move)

        if self.policy == "learned":
            from .learned import LearnedBot

            add(LearnedBot().choose(view, random.Random(0)))  # the rollouts' own move
        add(self._strong.decide(view)[0])
        if view.can_pass:
            add(None)
        add(legal[0])
        planner = planner_for(view.rules)
        plan_masks = {p.mask for p in planner.plan(view.hand)}
        in_plan = [p for p in legal if p.mask in plan_masks]
        if view.to_beat is None:
            for p in sorted(in_plan, key=lambda p: (-p.size, p.order)):
                add(p)
            by_size: dict[int, Play] = {}
            for p in legal:
                by_size.setdefault(p.size, p)
            for p in by_size.values():
                add(p)
        else:
            for p in in_plan:
                add(p)
            add(max(legal, key=_power))
        return out[: self.max_candidates]


register_bot("expert", ExpertBot)
