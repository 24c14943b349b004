"""A critic that sees every hand: value estimates for training alone (``TrainConfig.critic``).

A seat's own view leaves much of its deal's value unknown: who holds the twos, whether the
next seat can follow a pair. A *privileged* critic, as PerfectDou's and Suphx's training used,
reads the acting seat's observation together with the hands the other seats hold at that
moment (:attr:`~.vector.Rollout.others`), so its estimates vary less, and PPO's advantages
and value targets are taken from them instead of from the values the actors' network computed.

Only training uses it. The policy, its export and the actors read the seat's own observation
alone; the critic's values reach the policy only through the advantages, as the value head's
did. The policy keeps its own value head, trained on the same targets, so an export still
carries one.

The critic has the shape of the policy's value path (the observation through ``hidden`` and
``embed`` units to one value) with the 156 inputs of the other hands beside the observation,
and starts as a copy of it, the hands' weights zero: its first values are the value head's,
and it learns from there to read the hands. (On the long run's checkpoint a critic started
from random weights was still far worse than the value head after 40 iterations: its mean
squared error against the returns 3.7, the head's 2.9. Started as the head's copy it stayed
within 2% of the head's.)

It reads the observation the policy reads: with the hand-structure features (``--structure``)
the 859 floats, not 599. A run that takes the features up when it resumes gives the critic
the same 260 columns of zeros as the policy's first layer (:mod:`.widen`), so the critic stays
a copy of what it was, as the policy does; keeping it on the 599 instead would make a critic
started later, from a policy that has learnt weights on the features, no copy of its value path.

The critic learns with its own Adam (at the policy's learning rate, its gradients clipped
apart from the policy's): the policy's optimiser and its clipping are those of a run without
a critic, and a run that turns the critic on midway starts it fresh beside the policy's
moments, which a shared optimiser could not hold without changing shape.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
import torch
from torch import nn

from ..policy.encoding import ObsArray
from .widen import take_up_structure

CRITICS = ("own", "full")
"""``own``: the actors' values, from the seat's own view; ``full``: this module's critic."""
HANDS = 3 * 52


def hand_bits(others: npt.NDArray[np.uint64]) -> ObsArray:
    """The other seats' hands of each row (``(T, 3)`` 52-bit masks) as ``(T, 156)`` zeros and
    ones: card ``i`` of the ``k``-th hand at ``52 * k + i``."""
    rows = others.shape[0]
    raw = np.ascontiguousarray(others, dtype="<u8").view(np.uint8).reshape(rows, 3, 8)
    bits = np.unpackbits(raw, axis=2, bitorder="little")[:, :, :52]
    return bits.reshape(rows, HANDS).astype(np.float32)


class CriticNet(nn.Module):
    """(observation, the other hands) → ``hidden`` → ``embed`` → a value, with ReLUs between;
    the observation is ``observation`` floats (the policy's)."""

    def __init__(self, observation: int, hidden: int, embed: int) -> None:
        super().__init__()
        self.layers = nn.Sequential(
            nn.Linear(observation + HANDS, hidden),
            nn.ReLU(),
            nn.Linear(hidden, embed),
            nn.ReLU(),
            nn.Linear(embed, 1),
        )

    def forward(self, obs: torch.Tensor, hands: torch.Tensor) -> torch.Tensor:
        out: torch.Tensor = self.layers(torch.cat([obs, hands], dim=-1))
        return out.squeeze(-1)


class Critic:
    """The critic network and its optimiser, the network started as a copy of the policy's value
    path (its ``layers`` ``state1``, ``state2`` and ``value``), the other hands' weights zero. No
    random number is drawn: a run's policy starts and plays the same with a critic or without."""

    def __init__(self, layers: nn.ModuleDict) -> None:
        state1, state2, value = (layers[name] for name in ("state1", "state2", "value"))
        assert isinstance(state1, nn.Linear) and isinstance(state2, nn.Linear)
        assert isinstance(value, nn.Linear)
        self.device = state1.weight.device
        observation = state1.in_features
        self.net = CriticNet(observation, state1.out_features, state2.out_features).to(self.device)
        first, second, last = (self.net.layers[i] for i in (0, 2, 4))
        assert isinstance(first, nn.Linear) and isinstance(second, nn.Linear)
        assert isinstance(last, nn.Linear)
        with torch.no_grad():
            first.weight.zero_()
            first.weight[:, :observation] = state1.weight
            first.bias.copy_(state1.bias)
            for mine, theirs in ((second, state2), (last, value)):
                mine.weight.copy_(theirs.weight)
                mine.bias.copy_(theirs.bias)
        self.optimiser = torch.optim.Adam(self.net.parameters())

    def values(self, observations: ObsArray, others: npt.NDArray[np.uint64]) -> ObsArray:
        """The critic's value of each row (no gradient)."""
        with torch.no_grad():
            obs = torch.from_numpy(observations).to(self.device)
            hands = torch.from_numpy(hand_bits(others)).to(self.device)
            out: ObsArray = self.net(obs, hands).cpu().numpy().astype(np.float32)
        return out

    def learn(
        self,
        obs: torch.Tensor,
        hands: torch.Tensor,
        target: torch.Tensor,
        *,
        lr: float,
        coef: float,
        max_grad_norm: float,
    ) -> float:
        """One step on a minibatch's rows towards their value targets: the squared error × ``coef``,
        its gradients clipped to ``max_grad_norm``; returns the mean squared error."""
        for group in self.optimiser.param_groups:
            group["lr"] = lr
        self.net.train()
        loss = (self.net(obs, hands) - target).pow(2).mean()
        self.optimiser.zero_grad()
        torch.autograd.backward(coef * loss)
        nn.utils.clip_grad_norm_(self.net.parameters(), max_grad_norm)
        self.optimiser.step()
        return float(loss.detach())

    def take_up_structure(self) -> None:
        """Read the hand-structure block from now on: its columns of zeros put in after the
        observation's 599, before the other hands' (:mod:`.widen`)."""
        first = self.net.layers[0]
        assert isinstance(first, nn.Linear)
        take_up_structure(first, self.optimiser)

    def state_dict(self) -> dict[str, Any]:
        return {"net": self.net.state_dict(), "optimiser": self.optimiser.state_dict()}

    def load_state_dict(self, state: dict[str, Any]) -> None:
        self.net.load_state_dict(state["net"])
        self.optimiser.load_state_dict(state["optimiser"])


__all__ = ["CRITICS", "Critic", "CriticNet", "hand_bits"]
