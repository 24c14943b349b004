"""The learned player's network in numpy: its shape, its weights file, and its forward pass.

One network scores every legal move of a seat. The observation (:mod:`.encoding`, 599 floats,
or 859 with the hand-structure features of :mod:`.structure` when ``Shape.structure`` says so)
goes through two layers to a *state* vector ``h``; each legal action's features (its 52 cards
and its block of the action space, :func:`action_features`) go through two layers to an
*action* vector ``e``; the move's logit is ``h · e``, and a value head reads the seat's
expected points (scaled) from ``h``. Scoring moves from their cards, as DouZero does, keeps the
weights small (about 1 MB) and lets what is learnt of one five-card play carry to the next.

A *joint* network (``Shape.joint`` > 0) scores a move as DouZero's does instead: ``h``, the
move's features and the hand the move leaves (its 52 cards and their number ÷ 13) go together
through a layer of ``joint`` units to the logit, so the score can weigh the move against what
stays in the hand rather than through one product.

This module is the single definition of the forward pass: the trainer (:mod:`bigtwo.learn.train`, in
PyTorch) builds the same layers and exports its weights to the ``.npz`` this module reads, and
the ``learned`` computer player runs it with numpy alone. It never imports torch. A forward
pass runs on one BLAS thread: a computer player's decision is sized for one core, and a
second BLAS thread only waits on whatever else that core runs (the guided expert's median
decision: 190 ms on one thread, 212 ms on OpenBLAS's default two while an arena held the
other core). It also gives the same numbers on every machine: a batch split across threads
sums in another order, and differs in the last bits.

>>> net = LearnedNetwork.initial(seed=1)
>>> import numpy as np
>>> obs = np.zeros((1, net.shape.observation), dtype=np.float32)
>>> logits, value = net.scores(obs[0], [0, 1, 2])
>>> logits.shape, isinstance(value, float)
((3,), True)
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threadpoolctl import ThreadpoolController

from .encoding import (
    ACTION_SPACE_SIZE,
    BLOCKS,
    LearningError,
    action_card_matrix,
    observation_size,
)

Floats = npt.NDArray[np.float32]

ACTION_FEATURES = 52 + len(BLOCKS)
"""Features of one action: its 52 cards, then its block (pass, single, pair, …) one-hot."""

LEFT_FEATURES = 53
"""What a joint network reads of the hand a move leaves: its 52 cards and their number ÷ 13."""


@cache
def action_features() -> Floats:
    """The ``(ACTION_SPACE_SIZE, ACTION_FEATURES)`` float32 features of every action."""
    out = np.zeros((ACTION_SPACE_SIZE, ACTION_FEATURES), dtype=np.float32)
    out[:, :52] = action_card_matrix()
    for b, block in enumerate(BLOCKS):
        out[block.start : block.start + block.size, 52 + b] = 1.0
    out.setflags(write=False)
    return out


@dataclass(frozen=True, slots=True)
class Shape:
    """The network's widths: ``hidden`` for the state layers, ``action_hidden`` for the
    first action layer, ``embed`` for the state and action vectors; ``joint`` > 0 makes a
    joint network (see the module) with a joint layer that wide, and no action layers;
    ``structure`` makes the observation end with the hand-structure block (859 floats, not 599)."""

    hidden: int = 256
    action_hidden: int = 128
    embed: int = 128
    joint: int = 0
    structure: bool = False

    @property
    def observation(self) -> int:
        """The length of the observation the network reads."""
        return observation_size(self.structure)

    def layers(self) -> dict[str, tuple[int, int]]:
        """Each layer's (inputs, outputs), in the order the trainer's optimiser keeps them: the
        first reads the observation (599 floats, or 859 with the hand-structure block)."""
        state = {"state1": (self.observation, self.hidden), "state2": (self.hidden, self.embed)}
        if self.joint:
            width = self.embed + ACTION_FEATURES + LEFT_FEATURES
            moves = {"joint1": (width, self.joint), "joint2": (self.joint, 1)}
        else:
            moves = {
                "action1": (ACTION_FEATURES, self.action_hidden),
                "action2": (self.action_hidden, self.embed),
            }
        return {**state, **moves, "value": (self.embed, 1)}


@cache
def _blas() -> ThreadpoolController:
    return ThreadpoolController()


_FORWARD = threading.Lock()


@contextmanager
def _one_thread() -> Iterator[None]:
    """The BLAS libraries held to one thread while the block runs (see the module). One
    forward pass at a time: the limit is the process's, and two threads setting it and putting
    it back in turn could leave the other's pass on the default threads."""
    with _FORWARD, _blas().limit(limits=1, user_api="blas"):
        yield


class LearnedNetwork:
    """The weights of every layer (``{name}.w`` of shape (inputs, outputs), ``{name}.b``) and a
    card: what the weights file says of how they were made."""

    def __init__(self, shape: Shape, weights: dict[str, Floats], card: dict[str, Any]):
        for name, (n_in, n_out) in shape.layers().items():
            w, b = weights.get(f"{name}.w"), weights.get(f"{name}.b")
            if w is None or b is None or w.shape != (n_in, n_out) or b.shape != (n_out,):
                raise LearningError(f"The network's weights lack layer '{name}' of its shape")
        self.shape = shape
        self.weights = {k: np.ascontiguousarray(v, dtype=np.float32) for k, v in weights.items()}
        self.card = card

    @classmethod
    def initial(cls, shape: Shape | None = None, *, seed: int = 0) -> LearnedNetwork:
        """Random weights (for tests and measurements), scaled as the trainer starts them."""
        shape = shape or Shape()
        rng = np.random.default_rng(seed)
        weights: dict[str, Floats] = {}
        for name, (n_in, n_out) in shape.layers().items():
            weights[f"{name}.w"] = (
                rng.standard_normal((n_in, n_out), dtype=np.float32) / np.sqrt(n_in)
            ).astype(np.float32)
            weights[f"{name}.b"] = np.zeros(n_out, dtype=np.float32)
        return cls(shape, weights, {})

    @classmethod
    def averaged(cls, networks: Sequence[LearnedNetwork]) -> LearnedNetwork:
        """The mean of ``networks``' weights, layer by layer: weight averaging of one run's
        snapshots (after SWA, Izmailov et al. 2018), whose mean often plays better than any
        one of them. The card is the last network's, with the iterations averaged over."""
        if not networks:
            raise LearningError("Averaging needs at least one network")
        last = networks[-1]
        if any(n.shape != last.shape for n in networks):
            raise LearningError("Only networks of one shape can be averaged")
        weights = {
            name: np.mean([n.weights[name] for n in networks], axis=0).astype(np.float32)
            for name in last.weights
        }
        averaged = [n.card.get("iterations") for n in networks]
        return cls(last.shape, weights, {**last.card, "averaged": averaged})

    # -- the forward pass ---------------------------------------------------------------------

    def _layer(self, name: str, x: Floats, relu: bool) -> Floats:
        y: Floats = x @ self.weights[f"{name}.w"] + self.weights[f"{name}.b"]
        return np.maximum(y, 0.0) if relu else y

    def state(self, obs: Floats) -> Floats:
        """The state vectors ``(B, embed)`` of observations ``(B, shape.observation)``."""
        if obs.shape[-1] != self.shape.observation:
            raise LearningError(
                f"This network reads observations of {self.shape.observation} floats, "
                f"not {obs.shape[-1]}"
            )
        return self._layer("state2", self._layer("state1", obs, True), True)

    def actions(self, indices: npt.ArrayLike) -> Floats:
        """The action vectors ``(L, embed)`` of action indices (not in a joint network)."""
        feats = action_features()[np.asarray(indices, dtype=np.int64)]
        return self._layer("action2", self._layer("action1", feats, True), False)

    def _joint(
        self, obs: Floats, h: Floats, rows: npt.NDArray[np.int64], legal: npt.NDArray[np.int64]
    ) -> Floats:
        feats = action_features()[legal]
        left = obs[rows, :52] - feats[:, :52]
        count = left.sum(axis=1, keepdims=True) / 13.0
        x = np.concatenate([h[rows], feats, left, count], axis=1)
        out: Floats = self._layer("joint2", self._layer("joint1", x, True), False)[:, 0]
        return out

    def scores(self, obs: Floats, legal: npt.ArrayLike) -> tuple[Floats, float]:
        """One observation's logits over its ``legal`` actions, and its value."""
        with _one_thread():
            h = self.state(obs[None, :])
            if self.shape.joint:
                indices = np.asarray(legal, dtype=np.int64)
                rows = np.zeros(indices.shape[0], dtype=np.int64)
                logits: Floats = self._joint(obs[None, :], h, rows, indices)
            else:
                logits = self.actions(legal) @ h[0]
            value = float(self._layer("value", h, False)[0, 0])
        return logits, value

    def batch_scores(
        self, obs: Floats, rows: npt.NDArray[np.int64], legal: npt.NDArray[np.int64]
    ) -> tuple[Floats, Floats]:
        """Many observations at once: the logit of every legal action, flat (``legal[i]`` of
        observation ``rows[i]``), each action's vector computed once however many rows hold
        it; and every observation's value."""
        with _one_thread():
            h = self.state(obs)
            if self.shape.joint:
                logits: Floats = self._joint(obs, h, rows, legal)
            else:
                unique, inverse = np.unique(legal, return_inverse=True)
                e = self.actions(unique)
                logits = np.einsum("ij,ij->i", h[rows], e[inverse])
            values: Floats = self._layer("value", h, False)[:, 0]
        return logits, values

    def values(self, obs: Floats) -> Floats:
        """The value head's estimates ``(B,)`` of observations ``(B, shape.observation)``: a seat's
        points to come, ÷ the rules' bound × :attr:`reward_scale`."""
        with _one_thread():
            out: Floats = self._layer("value", self.state(obs), False)[:, 0]
        return out

    @property
    def reward_scale(self) -> float:
        """What the trainer multiplied normalised points by for the value head's targets."""
        return float(self.card.get("config", {}).get("reward_scale", 10.0))

    # -- the weights file ---------------------------------------------------------------------

    def save(self, path: str | Path) -> None:
        """Write the weights and the card as one ``.npz`` (float32); the shape's ``structure``
        is written only when it is on (a file without it reads as off)."""
        shape = self.shape
        widths: list[int | bool] = [shape.hidden, shape.action_hidden, shape.embed, shape.joint]
        if shape.structure:
            widths.append(True)
        meta = {"shape": widths}
        arrays: dict[str, Any] = {"__meta__": np.array(json.dumps({**meta, "card": self.card}))}
        arrays.update(self.weights)
        np.savez_compressed(Path(path), **arrays)

    @classmethod
    def load(cls, path: str | Path) -> LearnedNetwork:
        """Read a weights file written by :meth:`save`; a missing or foreign file is refused
        in words."""
        path = Path(path)
        try:
            with np.load(path, allow_pickle=False) as data:
                meta = json.loads(str(data["__meta__"]))
                weights = {k: data[k] for k in data.files if k != "__meta__"}
        except FileNotFoundError:
            raise LearningError(f"No network weights at {path}") from None
        except (KeyError, ValueError, OSError) as exc:
            raise LearningError(f"{path} is not a bigtwo network weights file ({exc})") from None
        try:
            shape = Shape(*meta["shape"])
        except (KeyError, TypeError):
            raise LearningError(f"{path} has a network shape this bigtwo cannot read") from None
        return cls(shape, weights, dict(meta.get("card", {})))
