"""Taking up the hand-structure features in a run that began without them (``bigtwo train
--resume --structure``, or ``--init`` from a network without them).

The features (:mod:`bigtwo.policy.structure`) are 260 floats after the observation's 599. A
network that starts reading them gains 260 input columns in its first layer, each of zeros:
its outputs are the same numbers as before for every observation, so it plays the same moves
with the same probabilities until learning moves the new weights. Its optimiser's moments for
the new columns start at zero (Adam's step count is the layer's, shared by its old columns);
nothing random is drawn, so a run that switches in one go and one that stops and resumes in
between are the same run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import torch
from torch import nn

from ..policy.encoding import OBS_SIZE, LearningError
from ..policy.structure import STRUCTURE_SIZE


def with_structure_columns(weight: torch.Tensor) -> torch.Tensor:
    """A first layer's weight ``(outputs, inputs)`` with zero columns for the hand-structure
    block put in after the observation's :data:`OBS_SIZE` columns (the inputs after those, a
    critic's other hands, move along)."""
    if weight.shape[1] < OBS_SIZE:
        raise LearningError(f"A first layer of {weight.shape[1]} inputs reads no observation")
    zeros = torch.zeros(weight.shape[0], STRUCTURE_SIZE, dtype=weight.dtype, device=weight.device)
    return torch.cat([weight[:, :OBS_SIZE], zeros, weight[:, OBS_SIZE:]], dim=1)


def take_up_structure(layer: nn.Linear, optimiser: torch.optim.Optimizer) -> None:
    """Widen ``layer`` (a network's first, reading the observation) in place by the
    hand-structure block's zero columns, and its weight's moments in ``optimiser`` alike. The
    weight stays the same parameter, so the optimiser's other state is left as it was."""
    weight = layer.weight
    with torch.no_grad():
        weight.data = with_structure_columns(weight.data)
    weight.grad = None
    layer.in_features = weight.shape[1]
    state = optimiser.state.get(weight)
    if state:
        for key in ("exp_avg", "exp_avg_sq", "max_exp_avg_sq"):
            if key in state:
                state[key] = with_structure_columns(state[key])


def starting_structure(state: dict[str, Any], inputs: int, structure: bool, path: Path) -> None:
    """Fit the weights a new run starts from (``state``, its first layer reading ``inputs``
    floats, from ``path``) to a run with the hand-structure features or without: columns of
    zeros where the run has them and the network not; refused in words the other way round."""
    if inputs == OBS_SIZE and structure:
        state["layers.state1.weight"] = with_structure_columns(state["layers.state1.weight"])
    elif inputs > OBS_SIZE and not structure:
        raise LearningError(
            f"{path} cannot start this run: its network reads the hand-structure features "
            "(start the run with --structure)"
        )


__all__ = ["starting_structure", "take_up_structure", "with_structure_columns"]
