"""A search that cannot make the network much worse: after Lerer et al., SPARTA (AAAI 2020).

:class:`SafeSearch` plays bigtwo's own network (:mod:`.learned`) and searches only to find where
it is clearly wrong. From its seat's view it takes a few candidates: the network's own move
(its highest logit), the network's next ``others`` moves by logit, a pass when one is legal
and a play that goes out when there is one. It samples up to ``worlds`` deals of the unseen
cards that fit the view and what the passes prove (:func:`~.expert.sample_hands`), each with the deal's history
replayed so the network reads the cards played as it does at the table, and finishes every
candidate in every world with the network in every seat. The rollouts of all candidates and all
worlds go forward in step, each step one batched forward pass of the network.

Every candidate meets the same worlds, so its gain over the network's move is measured as the
mean of the per-world differences. It leaves the network's move only for a candidate whose mean
gain clears both ``margin`` points and ``z`` standard errors of that mean; otherwise it plays
the network's move. With ``z = inf`` it is the network; with ``z = 0`` and ``margin = 0`` it is
the flat search (the best sampled mean, the network's move on a tie). The gains are measured
with the network in the other seats, so against other players the guarantee holds only as far
as the network models them: the bar keeps the noise of the sampling out, not that bias.

It never sees another seat's cards: the worlds are built from the view alone, and a seeded rng
gives the same move every time.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..engine.cards import Mask
from ..engine.deal import Deal
from ..policy.encoding import index_of
from .base import Bot
from .expert import deal_points, sample_hands, world_of
from .inference import proven_misses, proven_replies
from .learned import encoder_for, shipped_network

if TYPE_CHECKING:
    from ..engine.plays import Play
    from ..match.settings import Scoring
    from ..match.views import TableView
    from ..policy.network import LearnedNetwork


def world_with_history(view: TableView, hands: Sequence[Mask]) -> Deal:
    """The sampled world as a whole deal: each seat dealt its sampled cards and those it has
    played, and the view's actions replayed, so the seats of a rollout read the cards played
    as they would at the table. Falls back to :func:`~.expert.world_of` (no history) if the
    replay does not reach the view's position."""
    played = [0] * view.players
    for action in view.actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    dealt = [Mask(h | p) for h, p in zip(hands, played, strict=True)]
    try:
        deal = Deal(view.rules, dealt, leader=view.leader)
        apply = deal.apply_unchecked
        for action in view.actions[len(deal.actions) :]:
            apply(action.play)
    except Exception:  # noqa: BLE001 - any failure of the replay: the world without history
        return world_of(view, hands)
    if (
        deal.turn != view.turn
        or deal.to_beat != view.to_beat
        or deal.passes != view.passes
        or deal.locked != view.locked
        or deal.winner is not None
    ):
        return world_of(view, hands)
    return deal


def network_rollouts(
    deals: Sequence[Deal],
    seat: int,
    scoring: Scoring,
    network: LearnedNetwork,
    limit: int = 400,
) -> list[int]:
    """Finish every deal with the network's favourite move in every seat (as
    :func:`~.learned.rollout_policy` plays it), all deals in step, one batched forward pass a
    step; ``seat``'s points in each under ``scoring``. The deals are left finished."""
    encoder = None
    active = [i for i, d in enumerate(deals) if d.winner is None]
    steps = 0
    while active and steps < limit:
        obs: list[np.ndarray] = []
        rows: list[int] = []
        cols: list[int] = []
        asked: list[tuple[Deal, list[Play | None]]] = []
        for i in active:
            deal = deals[i]
            # what the seat's view would offer (its legal plays, a pass when there is a play
            # to beat), read from the deal: a forced move needs no view
            options: list[Play | None] = [] if deal.to_beat is None else [None]
            options.extend(deal.legal_plays())
            if len(options) == 1:
                deal.apply_unchecked(options[0])
                continue
            if encoder is None:
                encoder = encoder_for(deal.rules, scoring, network.shape.structure)
            rows.extend([len(obs)] * len(options))
            cols.extend(index_of(p) for p in options)
            obs.append(encoder.encode(deal.view(deal.turn)))
            asked.append((deal, options))
        if asked:
            logits, _ = network.batch_scores(
                np.stack(obs), np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
            )
            start = 0
            for deal, options in asked:
                end = start + len(options)
                deal.apply_unchecked(options[int(np.argmax(logits[start:end]))])
                start = end
        active = [i for i in active if deals[i].winner is None]
        steps += 1
    out = []
    for deal in deals:
        if deal.winner is None:  # cannot happen in a legal deal: a loss of every card held
            out.append(deal_points(scoring, deal.hands, -1, seat))
        else:
            out.append(deal_points(scoring, deal.hands, deal.winner, seat))
    return out


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision: the candidates (the network's move first), each one's points in each
    world (``points[c][w]``), the mean gain over the network's move and its standard error,
    and the index of the move chosen."""

    candidates: list[Play | None]
    points: list[list[int]]
    gains: list[float]
    errors: list[float]
    chosen: int

    @property
    def move(self) -> Play | None:
        return self.candidates[self.chosen]


class SafeSearch(Bot):
    """The network, overruled only where search on common worlds clearly beats it (see the
    module docstring). ``worlds``: sampled deals per decision, at most; ``budget``: at most
    about this many cards finished a decision (candidates × worlds × the cards in hands, a
    deterministic bound on the rollouts' moves that keeps the early decisions, where every
    rollout is long, inside a second), but never fewer than ``least`` worlds; ``others``: how
    many of the network's next moves are searched beside its own; ``z`` and ``margin``: the bar a
    candidate's mean gain must clear (``z`` standard errors and ``margin`` points);
    ``network``: the network played and rolled out (the shipped one by default)."""

    name = "expert-safe"

    def __init__(
        self,
        worlds: int = 32,
        budget: int = 6000,
        least: int = 8,
        others: int = 3,
        z: float = 2.0,
        margin: float = 0.25,
        network: LearnedNetwork | None = None,
    ) -> None:
        if worlds < 2:
            raise ValueError("a safe search needs at least two worlds for a standard error")
        self.worlds = worlds
        self.budget = budget
        self.least = least
        self.others = others
        self.z = z
        self.margin = margin
        self.network = network if network is not None else shipped_network()

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        if not view.legal:
            return None
        return self.decide(view, rng).move

    def candidates(self, view: TableView) -> list[Play | None]:
        """The network's move, its next ``others`` by logit, a pass when legal and a play
        that goes out when there is one (no duplicates)."""
        options: list[Play | None] = [None] if view.can_pass else []
        options.extend(view.legal)
        if len(options) == 1:
            return options
        encoder = encoder_for(view.rules, view.scoring, self.network.shape.structure)
        logits, _ = self.network.scores(encoder.encode(view), [index_of(p) for p in options])
        ranked = sorted(range(len(options)), key=lambda i: (-float(logits[i]), i))
        own = int(np.argmax(logits))  # the learned player's move, ties as it breaks them
        order = [own] + [i for i in ranked if i != own][: self.others]
        if view.can_pass and 0 not in order:
            order.append(0)
        out = [options[i] for i in order]
        for p in view.legal:
            if p.mask == view.hand and all(m is None or m.mask != p.mask for m in out):
                out.append(p)
        return out

    def evaluate(
        self, view: TableView, rng: random.Random, candidates: Sequence[Play | None]
    ) -> list[list[int]]:
        """Each candidate's points in each of ``worlds`` sampled worlds (the same worlds for
        every candidate), finished by the network in every seat."""
        seat = view.seat
        assert seat is not None
        misses = proven_misses(view)
        replies = proven_replies(view)
        deals: list[Deal] = []
        worlds = self.worlds_for(view, len(candidates))
        for _ in range(worlds):
            hands = sample_hands(view, rng, misses, replies=replies)
            for move in candidates:
                deal = world_with_history(view, hands)
                deal.apply_unchecked(move)
                deals.append(deal)
        flat = network_rollouts(deals, seat, view.scoring, self.network)
        c = len(candidates)
        return [[flat[w * c + i] for w in range(worlds)] for i in range(c)]

    def worlds_for(self, view: TableView, candidates: int) -> int:
        """How many worlds a decision among ``candidates`` moves samples (see the class)."""
        affordable = self.budget // max(1, candidates * sum(view.counts))
        return max(min(self.worlds, self.least), min(self.worlds, affordable))

    def decide(self, view: TableView, rng: random.Random) -> Verdict:
        """The move, with the figures it was chosen on."""
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return Verdict(candidates, [[]], [0.0], [0.0], 0)
        points = self.evaluate(view, rng, candidates)
        return self.judge(candidates, points)

    def judge(self, candidates: list[Play | None], points: list[list[int]]) -> Verdict:
        """The rule: the candidate with the largest mean gain over the network's move (the
        first candidate) among those whose gain clears the bar; the network's move if none."""
        base = np.asarray(points[0], dtype=np.float64)
        gains = [0.0]
        errors = [0.0]
        chosen = 0
        for i in range(1, len(candidates)):
            diff = np.asarray(points[i], dtype=np.float64) - base
            gain = float(diff.mean())
            error = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
            gains.append(gain)
            errors.append(error)
            if error > 0:
                bar = max(self.margin, self.z * error)
            else:  # every world agrees: the gain is certain, unless no gain may count
                bar = self.margin if math.isfinite(self.z) else math.inf
            if gain > bar and gain > gains[chosen]:
                chosen = i
        return Verdict(candidates, points, gains, errors, chosen)
