"""The ``learned`` computer player: bigtwo's own network, trained in self-play, alone.

It encodes its seat's view (:mod:`bigtwo.policy.encoding`, with the hand-structure block when
the network reads it), scores every legal move with the
network (:mod:`bigtwo.policy.network`, numpy only: no torch at play time) and makes the move
with the highest score. It searches nothing and sees nothing but its seat's view. The weights
ship beside this module (``learned.npz``, with the card ``learned.md`` saying how they were
trained); a trainer's own export can be played instead by passing its
:class:`~bigtwo.policy.network.LearnedNetwork`. Every rule set bigtwo accepts can be encoded (its
straights are five ranks in a row), so it plays under any of them.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..match.settings import MatchRules, RuleSet
from ..policy.encoding import ObservationEncoder, index_of
from ..policy.network import LearnedNetwork
from . import register_bot
from .base import Bot

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..engine.deal import Deal
    from ..engine.plays import Play
    from ..engine.rules import Rules
    from ..match.settings import Scoring
    from ..match.views import TableView

    Policy = Callable[[Deal], Play | None]

WEIGHTS = Path(__file__).with_name("learned.npz")
"""The shipped weights."""


@cache
def shipped_network() -> LearnedNetwork:
    """The weights shipped in the package, read once per process."""
    return LearnedNetwork.load(WEIGHTS)


@cache
def encoder_for(rules: Rules, scoring: Scoring, structure: bool = False) -> ObservationEncoder:
    """The observation encoder of a table's rules and scoring (one per pair, kept), with the
    hand-structure block when ``structure`` (a network whose ``shape.structure`` is on)."""
    ruleset = RuleSet(rules=rules, match=MatchRules(scoring=scoring))
    return ObservationEncoder(ruleset, structure=structure)


class LearnedBot(Bot):
    """The network's favourite legal move (see the module docstring)."""

    name = "learned"

    def __init__(self, network: LearnedNetwork | None = None) -> None:
        self._shipped = network is None
        self.network = network if network is not None else shipped_network()

    def __reduce__(self) -> tuple[type[LearnedBot], tuple[LearnedNetwork, ...]]:
        # The server's thinking workers receive a bot with each decision: the shipped
        # network travels as its name (each process reads the file once), not its weights.
        return (LearnedBot, ()) if self._shipped else (LearnedBot, (self.network,))

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        if not view.legal:
            return None
        encoder = encoder_for(view.rules, view.scoring, self.network.shape.structure)
        options: list[Play | None] = [None] if view.can_pass else []
        options.extend(view.legal)
        if len(options) == 1:
            return options[0]
        logits, _ = self.network.scores(encoder.encode(view), [index_of(play) for play in options])
        return options[int(np.argmax(logits))]


def rollout_policy(scoring: Scoring, network: LearnedNetwork | None = None) -> Policy:
    """The network's favourite move for whoever is to act in a simulated deal, from that
    seat's view of it alone (the search's rollouts with the network in every seat; the table's
    ``scoring`` is part of what the network reads)."""
    net = network if network is not None else shipped_network()

    def move(deal: Deal) -> Play | None:
        view = deal.view(deal.turn)
        options: list[Play | None] = [None] if view.can_pass else []
        options.extend(view.legal)
        if len(options) == 1:
            return options[0]
        encoder = encoder_for(view.rules, scoring, net.shape.structure)
        logits, _ = net.scores(encoder.encode(view), [index_of(play) for play in options])
        return options[int(np.argmax(logits))]

    return move


register_bot("learned", LearnedBot)
