"""The trainer's league: the network's past selves and bigtwo's computer players, drawn to take
the other seats of league deals.

A run with a league (``TrainConfig.league``) plays, besides self-play, deals where its network
plays seat 0 and each other seat is drawn, independently and uniformly, from the league's
members: the computer players named, then the newest snapshots of the network (one joins
every ``league_every`` iterations from the iteration the league began, the first being the
network as it was then; only the newest ``size`` stay). A snapshot plays as the ``learned``
player does with its weights (:class:`~bigtwo.bots.learned.LearnedBot`: its favourite move,
reading the hand-structure block when its network does). The draws come from a generator of
the run's seed, which :meth:`League.state` keeps with the snapshots' weights for the
checkpoint, so a run with a league resumes bit for bit. numpy only: an actor makes each deal's
bots from the members and the deal's table (:func:`table_bots`).

>>> league = League(("strong", "greedy"), size=2, seed=0)
>>> for iteration in (0, 5, 10):
...     league.join(iteration, LearnedNetwork.initial(seed=iteration))
>>> [it for it, _ in league.selves], len(league.members())
([5, 10], 4)
>>> tables = league.draw(3, seats=3)
>>> len(tables), all(len(t) == 3 and 0 <= min(t) and max(t) < 4 for t in tables)
(3, True)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..bots import Bot
from ..bots.learned import LearnedBot
from ..policy.network import LearnedNetwork, Shape
from .deal import make_bots

Member = str | LearnedNetwork
"""A member of the league: a computer player's name, or a snapshot of the network."""

STREAM = 7
"""Mixed with the run's seed for the league's generator (no other generator of a run uses it)."""


class League:
    """The computer players ``bots`` and the newest ``size`` snapshots of the network, and the
    generator that draws who plays each other seat of a league deal."""

    def __init__(self, bots: Sequence[str], size: int, seed: int) -> None:
        self.bots = tuple(bots)
        self.size = size
        self.selves: list[tuple[int, LearnedNetwork]] = []  # (the iteration it joined, weights)
        self.rng = np.random.default_rng([seed, STREAM])

    def members(self) -> tuple[Member, ...]:
        """The bots' names, then the snapshots, oldest first: what a table's numbers index."""
        return (*self.bots, *(network for _, network in self.selves))

    def join(self, iteration: int, network: LearnedNetwork) -> None:
        """The network as it is at ``iteration`` joins (once an iteration); the oldest
        snapshot leaves when there are more than ``size``."""
        if not self.selves or self.selves[-1][0] != iteration:
            self.selves = [*self.selves, (iteration, network)][-self.size :]

    def draw(self, deals: int, seats: int) -> tuple[tuple[int, ...], ...]:
        """The tables of ``deals`` deals: for each, the member (its index in :meth:`members`)
        playing each of the ``seats`` seats after the network's."""
        picks = self.rng.integers(len(self.bots) + len(self.selves), size=(deals, seats))
        return tuple(tuple(int(p) for p in row) for row in picks)

    def state(self) -> dict[str, Any]:
        """The generator's state and the snapshots' weights (for the trainer's checkpoint)."""
        selves = [
            {"iteration": it, "shape": dataclasses.asdict(net.shape), "weights": net.weights}
            for it, net in self.selves
        ]
        return {"rng": self.rng.bit_generator.state, "selves": selves}

    def restore(self, state: dict[str, Any]) -> None:
        """Go back to a :meth:`state` (its weights as arrays, or anything numpy reads as
        them: the trainer's checkpoint keeps torch tensors): the same draws and snapshots
        follow as after it."""
        self.rng.bit_generator.state = state["rng"]
        self.selves = []
        for s in state["selves"]:
            weights = {k: np.asarray(v) for k, v in s["weights"].items()}
            self.selves.append((s["iteration"], LearnedNetwork(Shape(**s["shape"]), weights, {})))


def table_bots(members: Sequence[Member], table: Sequence[int], players: int) -> dict[int, Bot]:
    """The bots of one league deal: seat ``k + 1`` played by member ``table[k]``."""
    seats = dict(enumerate((members[pick] for pick in table), start=1))
    bots = make_bots({s: m for s, m in seats.items() if isinstance(m, str)}, players)
    for seat, member in seats.items():
        if isinstance(member, LearnedNetwork):
            bots[seat] = LearnedBot(member)
    return bots
