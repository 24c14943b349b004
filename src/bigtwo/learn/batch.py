"""One iteration's decisions as PPO's batch: generalised advantage estimates over each seat's
decisions (:func:`advantages`), the rollouts merged into one :class:`Batch` (:func:`merge`), a
minibatch's legal moves flattened (:func:`ragged`) and their softmax within each row
(:func:`segment_log_softmax`), and the advantages normalised (:func:`normalised`). The trainer
(:mod:`.train`) learns from it; this module needs PyTorch for the last two.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
import torch

from ..policy.encoding import ObsArray
from .vector import Rollout


def segment_log_softmax(
    logits: torch.Tensor, row_of: torch.Tensor, rows: int
) -> tuple[torch.Tensor, torch.Tensor]:
    """Log-probabilities of flat logits within each row, and each row's entropy."""
    top = torch.full((rows,), -math.inf, dtype=logits.dtype, device=logits.device)
    top = top.scatter_reduce(0, row_of, logits.detach(), reduce="amax")
    shifted = logits - top[row_of]
    sums = torch.zeros(rows, dtype=logits.dtype, device=logits.device)
    sums = sums.index_add(0, row_of, shifted.exp())
    logp = shifted - sums.log()[row_of]
    entropy = torch.zeros(rows, dtype=logits.dtype, device=logits.device)
    entropy = entropy.index_add(0, row_of, -(logp.exp() * logp))
    return logp, entropy


def ragged(
    legal: npt.NDArray[np.int32], start: npt.NDArray[np.int64], rows: npt.NDArray[np.int64]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """The legal actions of ``rows`` flattened, and the minibatch row of each."""
    lengths = start[rows + 1] - start[rows]
    row_of = np.repeat(np.arange(len(rows)), lengths)
    offsets = np.arange(int(lengths.sum())) - np.repeat(np.cumsum(lengths) - lengths, lengths)
    return legal[np.repeat(start[rows], lengths) + offsets].astype(np.int64), row_of


@dataclass(slots=True)
class Batch:
    """One iteration's decisions, ready for PPO: advantages and value targets included."""

    observations: ObsArray
    legal: npt.NDArray[np.int32]
    legal_start: npt.NDArray[np.int64]
    actions: npt.NDArray[np.int64]
    logp: npt.NDArray[np.float32]
    advantages: npt.NDArray[np.float32]
    targets: npt.NDArray[np.float32]
    groups: npt.NDArray[np.int64]  # each row's rule set, as its index in the run's rules
    others: npt.NDArray[np.uint64]  # the other seats' hands at each row (Rollout.others)

    def __len__(self) -> int:
        return int(self.actions.shape[0])


def advantages(
    rollout: Rollout, scale: float, lam: float, values: npt.NDArray[np.float32] | None = None
) -> tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]:
    """GAE(λ) advantages (no discounting: a deal is short and only its end pays) over each
    seat's own decisions in a deal, and the value targets (advantage + value), from the rows'
    ``values`` (by default the actors', ``extras["value"]``)."""
    values = (rollout.extras["value"] if values is None else values).astype(np.float64)
    rewards = rollout.rewards.astype(np.float64) * scale
    order = np.lexsort((np.arange(len(rollout)), rollout.seats, rollout.deals))
    adv = np.zeros(len(rollout), dtype=np.float64)
    running = 0.0
    next_value = 0.0
    for row in order[::-1].tolist():
        if rollout.dones[row]:
            running, next_value = 0.0, 0.0
        delta = rewards[row] + next_value - values[row]
        running = delta + lam * running
        adv[row] = running
        next_value = values[row]
    return adv.astype(np.float32), (adv + values).astype(np.float32)


def merge(
    rollouts: Sequence[Rollout],
    scale: float,
    lam: float,
    groups: Sequence[int] | None = None,
    values: Sequence[npt.NDArray[np.float32]] | None = None,
) -> Batch:
    """One iteration's rollouts as one batch; ``groups`` gives each rollout's rule set (its
    index in the run's rules; all 0 when not given), ``values`` each rollout's values for the
    advantages (the actors' when not given)."""
    given = [None] * len(rollouts) if values is None else list(values)
    parts = [advantages(r, scale, lam, v) for r, v in zip(rollouts, given, strict=True)]
    groups = [0] * len(rollouts) if groups is None else list(groups)
    starts = []
    offset = 0
    for r in rollouts:
        starts.append(r.legal_start[:-1] + offset)
        offset += int(r.legal_start[-1])
    return Batch(
        observations=np.concatenate([r.observations for r in rollouts]),
        legal=np.concatenate([r.legal for r in rollouts]),
        legal_start=np.concatenate([*starts, np.array([offset], dtype=np.int64)]),
        actions=np.concatenate([r.actions for r in rollouts]),
        logp=np.concatenate([r.extras["logp"] for r in rollouts]).astype(np.float32),
        advantages=np.concatenate([a for a, _ in parts]),
        targets=np.concatenate([t for _, t in parts]),
        groups=np.concatenate(
            [np.full(len(r), g, dtype=np.int64) for r, g in zip(rollouts, groups, strict=True)]
        ),
        others=np.concatenate([r.others for r in rollouts]),
    )


def normalised(adv: torch.Tensor, groups: torch.Tensor | None) -> torch.Tensor:
    """Advantages to mean 0 and standard deviation 1: over all rows, or within each group
    of rows (``groups``: a rule set a row) separately. A group of one row is left as it is."""
    if groups is None:
        return (adv - adv.mean()) / (adv.std() + 1e-8) if len(adv) > 1 else adv
    out = adv.clone()
    for g in torch.unique(groups):
        rows = groups == g
        if int(rows.sum()) > 1:
            part = adv[rows]
            out[rows] = (part - part.mean()) / (part.std() + 1e-8)
    return out
