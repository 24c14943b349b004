"""The ``guided`` computer player: the expert's search, guided by bigtwo's own network.

It searches as :class:`~bigtwo.bots.expert.ExpertBot` does, from its seat's view alone:
sampled *worlds* (deals of the unseen cards that fit everything the seat knows), every
candidate move tried in the same worlds, the move with the best mean points made. The
``learned`` player's network (:mod:`bigtwo.policy.network`, numpy only) guides it three ways:

- **prior**: the network's ``prior`` favourite legal moves join the candidates, beside the
  ``strong`` player's move, a pass and the plays of its plan;
- **cut-off**: a simulated deal is not played to its end. After the candidate, the other
  seats play (the expert's rollout players) until this seat has a real choice again, and
  there the search stops;
- **value**: the network's value head estimates, from this seat's view of that position,
  the points the deal will bring it. Those estimates are computed for every world and
  candidate at once, one batched forward pass per decision. With ``mix`` above 0 each world
  is also finished by a rollout and its points weigh ``mix`` against the value's ``1 - mix``.

The default mixes them half and half. On the same 200 deals against three ``ppo2018`` under
``charlesworth2018`` (seed 77): the value alone (``mix=0``) −3.18 points a deal, the prior
with full rollouts (``mix=1``) −1.34, half and half −1.19, the unguided expert −1.49; the
network's value on its own misjudges positions against that opponent; beside the rollouts it
does no harm (the last three differ by less than 200 deals can tell apart).
``docs/learning.md`` has the figures.

The value reads the seat's own view of the simulated position, which holds its cards, the
public history and the counts: the other seats' sampled cards never reach the network, as
they never reach the real player's.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import numpy as np

from ..engine.cards import Mask
from ..engine.deal import Deal
from ..match.settings import MatchRules, RuleSet
from ..policy.encoding import index_of, max_points
from ..policy.network import LearnedNetwork
from . import register_bot
from .expert import ExpertBot, deal_points, sample_hands
from .inference import proven_misses, proven_replies
from .learned import encoder_for, shipped_network

if TYPE_CHECKING:
    from ..engine.plays import Play
    from ..match.views import TableView


def replayed_world(view: TableView, hands: list[Mask]) -> Deal:
    """The deal as it stands, with the other seats holding ``hands``: dealt from each seat's
    cards now plus those it has played, and replayed move by move, so the world keeps the
    public history (which the network's observation reads) as well as the position."""
    played = [0] * view.players
    for action in view.actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    dealt = [Mask(h | p) for h, p in zip(hands, played, strict=True)]
    deal = Deal(view.rules, dealt, leader=view.leader)
    for action in view.actions:
        deal.apply_unchecked(action.play)
    return deal


class GuidedExpertBot(ExpertBot):
    """The expert's flat search with the network as prior, cut-off and value (see the module
    docstring). ``rollouts``: simulated positions per decision, shared among the candidates;
    ``prior``: the network's favourite moves added to the candidates; ``mix``: the weight of
    a finished rollout against the network's value (0: the value alone); ``finalists``: as the
    expert's, how many leading candidates the second half of the budget goes to (0, the
    default: every candidate in every world; 2 measured no different, see docs/learning.md)."""

    name = "guided"

    def __init__(
        self,
        network: LearnedNetwork | None = None,
        rollouts: int = 480,
        candidates: int = 6,
        prior: int = 3,
        mix: float = 0.5,
        max_steps: int = 7200,
        finalists: int = 0,
    ) -> None:
        super().__init__(
            rollouts=rollouts, candidates=candidates, max_steps=max_steps, finalists=finalists
        )
        self._shipped = network is None
        self.network = network if network is not None else shipped_network()
        self.prior = prior
        self.mix = mix

    def __reduce__(self) -> tuple[type[GuidedExpertBot], tuple[object, ...]]:
        # as LearnedBot: the shipped network travels to a worker as its name, not its weights
        network = None if self._shipped else self.network
        return (
            GuidedExpertBot,
            (
                network,
                self.rollouts,
                self.max_candidates,
                self.prior,
                self.mix,
                self.max_steps,
                self.finalists,
            ),
        )

    def candidates(self, view: TableView) -> list[Play | None]:
        """The expert's candidates with the network's ``prior`` favourites second in line."""
        base = super().candidates(view)
        options: list[Play | None] = [None] if view.can_pass else []
        options.extend(view.legal)
        if self.prior <= 0 or len(options) <= 1:
            return base
        logits, _ = self.network.scores(
            encoder_for(view.rules, view.scoring, self.network.shape.structure).encode(view),
            [index_of(play) for play in options],
        )
        favourites = [options[i] for i in np.argsort(-logits, kind="stable")[: self.prior]]
        out: list[Play | None] = base[:1]
        for move in [*favourites, *base[1:]]:
            key = 0 if move is None else move.mask
            if all((0 if m is None else m.mask) != key for m in out):
                out.append(move)
        return out[: self.max_candidates + self.prior]

    def _flat(
        self, view: TableView, rng: random.Random, candidates: list[Play | None]
    ) -> tuple[list[float], int]:
        """Each candidate in the same sampled worlds, cut off at this seat's next choice and
        valued by the network (mixed with a finished rollout when ``mix`` > 0)."""
        seat = view.seat
        assert seat is not None
        scoring = view.scoring
        policy = self._policy(scoring)
        encoder = encoder_for(view.rules, scoring, self.network.shape.structure)
        ruleset = RuleSet(rules=view.rules, match=MatchRules(scoring=scoring))
        # the value head reads points / the rules' bound * the trainer's reward scale
        to_points = max_points(ruleset, view.players) / self.network.reward_scale
        misses = proven_misses(view)
        replies = proven_replies(view)
        settled = [0.0] * len(candidates)  # points of the positions that ended before a choice
        rolled = [0.0] * len(candidates)  # points of the finished rollouts (mix > 0)
        valued = [0.0] * len(candidates)  # the network's values, in points
        counts = [0] * len(candidates)
        observations: list[np.ndarray] = []
        owners: list[int] = []
        evaluations = steps = worlds = 0
        mix = self.mix

        def means() -> list[float]:
            """Each candidate's mean so far, the positions waiting for a value valued."""
            if observations:
                values = self.network.values(np.stack(observations)) * to_points
                for i, v in zip(owners, values.tolist(), strict=True):
                    valued[i] += v
                observations.clear()
                owners.clear()
            return [
                (settled[i] + ((1 - mix) * valued[i] + mix * rolled[i])) / counts[i]
                if counts[i]
                else -math.inf
                for i in range(len(candidates))
            ]

        active = list(range(len(candidates)))
        halved = self.finalists <= 0 or self.finalists >= len(candidates)
        while worlds < 2 or (evaluations < self.rollouts and steps < self.max_steps):
            if not halved and (evaluations * 2 >= self.rollouts or steps * 2 >= self.max_steps):
                # the second half of the budget goes to the finalists, as in the expert
                first_half = means()
                ranked = sorted(active, key=lambda i: (-first_half[i], i))
                active = sorted(ranked[: self.finalists])
                halved = True
            deal = replayed_world(view, sample_hands(view, rng, misses, replies=replies))
            base = len(deal.actions)
            for i in active:
                move = candidates[i]
                deal.apply_unchecked(move)
                while deal.winner is None and (deal.turn != seat or not deal.legal_plays(seat)):
                    deal.apply_unchecked(policy(deal))
                counts[i] += 1
                if deal.winner is not None:
                    settled[i] += deal_points(scoring, deal.hands, deal.winner, seat)
                else:
                    observations.append(encoder.encode(deal.view(seat)))
                    owners.append(i)
                    if mix > 0:
                        while deal.winner is None:
                            deal.apply_unchecked(policy(deal))
                        rolled[i] += deal_points(scoring, deal.hands, deal.winner, seat)
                steps += len(deal.actions) - base
                while len(deal.actions) > base:
                    deal.undo()
            evaluations += len(active)
            worlds += 1
        out = means()
        # the dropped candidates keep their first-half means, which ranked below the finalists
        floor = min(out[j] for j in active)
        for i in range(len(candidates)):
            if i not in active and out[i] > floor:
                out[i] = floor - 1e-9
        return out, worlds


register_bot("guided", GuidedExpertBot)
