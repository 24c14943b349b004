"""A vectorised self-play runner: many deals at once, one batched policy call per step.

:class:`SelfPlayRunner` keeps up to ``batch`` deals in play. At each step it encodes the
decision of every deal in play into one array of observations and one of action masks, calls
the policy once on the whole batch, and applies each deal's chosen action; a deal that ends
makes room for the next. Seats named in ``opponents`` are played by bigtwo bots; every other
seat by the policy (self-play). As in the environments, a seat with nothing to play but a
pass is passed for and never asked.

The policy is any callable ``policy(observations, masks)`` taking a float32 array
``(B, OBS_SIZE)`` and a bool array ``(B, ACTION_SPACE_SIZE)`` and returning ``B`` action indices
(numpy integers), or a pair ``(actions, extras)`` where ``extras`` maps names to arrays with
a first axis of ``B`` (log-probabilities, values: whatever a trainer wants kept with each
decision). A policy wrapped in :class:`Sparse` reads the legal actions as index pairs instead,
and the runner builds no mask for it. :meth:`SelfPlayRunner.collect` plays a given number of
whole deals and returns a :class:`Rollout`: every decision in order, with the deal's points as
the reward of each seat's last decision, so a trainer reads returns without any bookkeeping of
its own.

>>> runner = SelfPlayRunner("palm", batch=4, seed=1)
>>> rollout = runner.collect(uniform_policy(0), deals=4)
>>> len(rollout.points), rollout.observations.shape[1] == OBS_SIZE
(4, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from ..bots import Bot
from ..match.settings import RuleSet
from ..policy.encoding import (
    ACTION_SPACE_SIZE,
    OBS_SIZE,
    BoolArray,
    LearningError,
    ObsArray,
    ObservationEncoder,
    legal_indices,
)
from .deal import LearningDeal, make_bots, players_of, ruleset_of

IntArray = npt.NDArray[np.int64]
PolicyOutput = npt.NDArray[np.integer[Any]] | tuple[npt.NDArray[np.integer[Any]], Mapping[str, Any]]
BatchPolicy = Callable[[ObsArray, BoolArray], PolicyOutput]


@dataclass(frozen=True, slots=True)
class Sparse:
    """A policy that reads the batch's legal actions as ``(rows, actions)`` index pairs, in the
    order ``np.nonzero`` gives them for the dense mask (rows ascending, each row's actions
    ascending): ``policy(observations, rows, actions)``. The runner then never builds the mask
    (``B × 25,780`` booleans a step, and a pass over them to find the legal ones again: a fifth
    of a training iteration's processor time); called with a mask, it is an ordinary policy."""

    policy: Callable[[ObsArray, IntArray, IntArray], PolicyOutput]

    def __call__(self, obs: ObsArray, mask: BoolArray) -> PolicyOutput:
        rows, cols = np.nonzero(mask)
        return self.policy(obs, rows.astype(np.int64), cols.astype(np.int64))


@dataclass(slots=True)
class Rollout:
    """Every decision of whole deals, row by row in the order they were taken.

    ``observations`` ``(T, OBS_SIZE)`` (``(T, 859)`` with the hand-structure block);
    ``legal`` the legal action indices of row ``t`` as
    ``legal[legal_start[t]:legal_start[t + 1]]`` (:meth:`masks` makes dense masks of rows);
    ``actions``, ``seats`` and ``deals`` (a deal's number in this rollout) per row;
    ``rewards`` the deal's points (normalised if asked) on each seat's last decision of a deal,
    where ``dones`` is True, and 0 elsewhere. ``others`` ``(T, 3)`` are the hands the other
    seats held at each row's decision, as 52-bit masks counted from the acting seat as the
    observation counts seats (the next to act, the one after, the one before; 0 where the
    table has no such seat): for a critic in training, never for a policy. ``seeds`` and
    ``points`` are per deal: the seed
    its hands were shuffled from (:func:`bigtwo.engine.deal.deal_hands` with
    ``random.Random(seed)``) and every seat's points. ``extras`` are the policy's arrays.
    """

    observations: ObsArray
    legal: npt.NDArray[np.int32]
    legal_start: npt.NDArray[np.int64]
    actions: IntArray
    seats: npt.NDArray[np.int8]
    deals: IntArray
    rewards: ObsArray
    dones: BoolArray
    others: npt.NDArray[np.uint64]
    seeds: list[int]
    points: list[tuple[int, ...]]
    extras: dict[str, npt.NDArray[Any]] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # the playing process's CPU time, wherever it played

    def __len__(self) -> int:
        return int(self.actions.shape[0])

    def masks(self, rows: npt.ArrayLike | None = None) -> BoolArray:
        """Dense action masks ``(len(rows), ACTION_SPACE_SIZE)`` of the given rows (all by default)."""
        picked = np.arange(len(self)) if rows is None else np.asarray(rows, dtype=np.int64)
        out = np.zeros((picked.shape[0], ACTION_SPACE_SIZE), dtype=np.bool_)
        for i, row in enumerate(picked):
            out[i, self.legal[self.legal_start[row] : self.legal_start[row + 1]]] = True
        return out

    def returns(self) -> ObsArray:
        """Each row's return: the final reward of its seat in its deal (no discounting)."""
        out = np.zeros(len(self), dtype=np.float32)
        final: dict[tuple[int, int], float] = {}
        for row in np.flatnonzero(self.dones).tolist():
            final[int(self.deals[row]), int(self.seats[row])] = float(self.rewards[row])
        for t in range(len(self)):
            out[t] = final[int(self.deals[t]), int(self.seats[t])]
        return out


class SelfPlayRunner:
    """Plays deals of one rule set in batches for a policy (see the module docstring).

    ``batch`` deals are in play at once; ``seed`` fixes every deal's hands and the bots'
    choices, so two runners with the same arguments and policy play the same games. With
    ``structure`` the observations end with the hand-structure block
    (:mod:`bigtwo.policy.structure`).
    """

    def __init__(
        self,
        rules: str | RuleSet = "palm",
        *,
        batch: int = 64,
        players: int | None = None,
        opponents: Mapping[int, str] | None = None,
        seed: int = 0,
        normalise: bool = True,
        structure: bool = False,
    ) -> None:
        if batch < 1:
            raise LearningError("batch must be at least 1")
        self.ruleset = ruleset_of(rules)
        self.players = players_of(self.ruleset, players)
        self.opponents = dict(opponents or {})
        for seat in self.opponents:
            if not 0 <= seat < self.players:
                raise LearningError(f"There is no seat {seat} at a table of {self.players}")
        if len(self.opponents) >= self.players:
            raise LearningError("At least one seat must be left to the policy")
        make_bots(self.opponents, self.players)  # unknown names fail here
        self.batch = batch
        self.normalise = normalise
        self.encoder = ObservationEncoder(self.ruleset, structure=structure)
        self._seeds = random.Random(seed)

    @property
    def structure(self) -> bool:
        """Whether the observations end with the hand-structure block (a trainer turns it on
        when a run takes the features up)."""
        return self.encoder.structure

    @structure.setter
    def structure(self, on: bool) -> None:
        if on != self.encoder.structure:
            self.encoder = ObservationEncoder(self.ruleset, structure=on)

    def get_state(self) -> object:
        """The state of the runner's stream of deal seeds (for a trainer's checkpoint)."""
        return self._seeds.getstate()

    def set_state(self, state: object) -> None:
        """Go back to a state from :meth:`get_state`: the same deals follow as after it."""
        self._seeds.setstate(state)  # type: ignore[arg-type]

    def draw(self, deals: int) -> list[int]:
        """The seeds of the next ``deals`` deals of the runner's stream."""
        return [self._seeds.randrange(1 << 62) for _ in range(deals)]

    def collect(
        self,
        policy: BatchPolicy,
        *,
        deals: int | None = None,
        seeds: Sequence[int] | None = None,
        bots: Sequence[Mapping[int, Bot]] | None = None,
    ) -> Rollout:
        """Play ``deals`` whole deals (``batch`` at a time), the next of the runner's stream,
        or the deals shuffled from ``seeds``, and return every decision; ``bots``, one mapping
        a deal, seats each deal's bots instead of the runner's ``opponents``."""
        if (deals is None) == (seeds is None):
            raise LearningError("name the number of deals or their seeds (not both)")
        seeds = self.draw(deals) if deals is not None else list(seeds or ())
        deals = len(seeds)
        if deals < 1:
            raise LearningError("deals must be at least 1")
        if bots is not None and len(bots) != deals:
            raise LearningError(f"name the bots of each of the {deals} deals, not {len(bots)}")
        start, cpu = time.perf_counter(), time.process_time()
        in_play: list[tuple[int, LearningDeal]] = []
        next_deal = 0
        obs_rows: list[ObsArray] = []
        legal_rows: list[list[int]] = []
        actions: list[npt.NDArray[np.integer[Any]]] = []
        seats: list[int] = []
        others: list[tuple[int, int, int]] = []
        deal_of: list[int] = []
        extras: dict[str, list[npt.NDArray[Any]]] = {}
        last_row: dict[tuple[int, int], int] = {}
        points: list[tuple[int, ...] | None] = [None] * deals
        bound = 1
        while True:
            still: list[tuple[int, LearningDeal]] = []
            for number, deal in in_play:
                if deal.over:
                    points[number] = deal.points
                else:
                    still.append((number, deal))
            in_play = still
            if next_deal < deals and len(in_play) < self.batch:
                seated = (
                    make_bots(self.opponents, self.players) if bots is None else bots[next_deal]
                )
                deal = LearningDeal.dealt(self.ruleset, self.players, seeds[next_deal], seated)
                bound = deal.bound()
                in_play.append((next_deal, deal))
                next_deal += 1
                continue  # it may be over already, when bots play every choice
            if not in_play:
                break
            views = [deal.view(deal.turn) for _, deal in in_play]
            obs = np.stack([self.encoder.encode(v) for v in views])
            legal = [legal_indices(v) for v in views]
            chosen, extra = _call(policy, obs, legal)
            base = len(seats)
            for i, (number, deal) in enumerate(in_play):
                last_row[number, deal.turn] = base + i
                seats.append(deal.turn)
                others.append(deal.other_hands(deal.turn))
                deal_of.append(number)
                deal.act(int(chosen[i]))
            obs_rows.append(obs)
            legal_rows.extend(legal)
            actions.append(chosen)
            for name, values in extra.items():
                extras.setdefault(name, []).append(np.asarray(values))
        total = len(seats)
        rewards = np.zeros(total, dtype=np.float32)
        dones = np.zeros(total, dtype=np.bool_)
        for (number, seat), row in last_row.items():
            result = points[number]
            assert result is not None
            dones[row] = True
            rewards[row] = result[seat] / bound if self.normalise else result[seat]
        lengths = np.fromiter((len(x) for x in legal_rows), dtype=np.int64, count=total)
        legal_start = np.zeros(total + 1, dtype=np.int64)
        np.cumsum(lengths, out=legal_start[1:])
        flat = [i for x in legal_rows for i in x]
        return Rollout(
            observations=(
                np.concatenate(obs_rows)
                if obs_rows
                else np.zeros((0, self.encoder.size), np.float32)
            ),
            legal=np.asarray(flat, dtype=np.int32),
            legal_start=legal_start,
            actions=np.concatenate(actions).astype(np.int64) if actions else np.zeros(0, np.int64),
            seats=np.asarray(seats, dtype=np.int8),
            deals=np.asarray(deal_of, dtype=np.int64),
            rewards=rewards,
            dones=dones,
            others=np.asarray(others, dtype=np.uint64).reshape(total, 3),
            seeds=seeds,
            points=[p for p in points if p is not None],
            extras={k: np.concatenate(v) for k, v in extras.items()},
            seconds=time.perf_counter() - start,
            cpu_seconds=time.process_time() - cpu,
        )


def _call(
    policy: BatchPolicy, obs: ObsArray, legal: Sequence[Sequence[int]]
) -> tuple[npt.NDArray[np.integer[Any]], Mapping[str, Any]]:
    """The policy's actions for the batch (each row's legal actions ``legal``), checked: one
    legal integer action a row, and each extra with one entry a row."""
    count = obs.shape[0]
    if isinstance(policy, Sparse):
        each = [np.unique(np.asarray(indices, dtype=np.int64)) for indices in legal]
        rows = np.repeat(np.arange(count, dtype=np.int64), [len(x) for x in each])
        cols = np.concatenate(each)
        out = policy.policy(obs, rows, cols)
    else:
        mask = np.zeros((count, ACTION_SPACE_SIZE), dtype=np.bool_)
        for i, indices in enumerate(legal):
            mask[i, indices] = True
        out = policy(obs, mask)
    chosen, extra = out if isinstance(out, tuple) else (out, {})
    chosen = np.asarray(chosen)
    if chosen.shape != (count,) or not np.issubdtype(chosen.dtype, np.integer):
        raise LearningError(
            f"The policy must return {count} integer actions, not an array of "
            f"shape {chosen.shape} and type {chosen.dtype}"
        )
    for name, values in extra.items():
        if np.shape(values)[:1] != (count,):
            raise LearningError(f"The policy's '{name}' must have one entry per row")
    for row, (action, indices) in enumerate(zip(chosen.tolist(), legal, strict=True)):
        if action not in indices:
            raise LearningError(
                f"The policy chose action {action}, which is not legal in row {row} of the batch"
            )
    return chosen, extra


def uniform_policy(seed: int = 0) -> BatchPolicy:
    """A policy choosing uniformly among the legal actions of each row (numpy only)."""
    rng = np.random.default_rng(seed)

    def policy(obs: ObsArray, mask: BoolArray) -> npt.NDArray[np.int64]:
        rows, cols = np.nonzero(mask)
        counts = np.bincount(rows, minlength=mask.shape[0])
        starts = np.concatenate(([0], np.cumsum(counts)[:-1]))
        picks = starts + (rng.random(mask.shape[0]) * counts).astype(np.int64)
        chosen: npt.NDArray[np.int64] = cols[picks].astype(np.int64)
        return chosen

    return policy


def mlp_policy(seed: int = 0, hidden: int = 256) -> BatchPolicy:
    """A network-shaped policy for measurements: a numpy MLP with random weights (the
    observation through one hidden layer of ``hidden`` units to one logit per action),
    taking the best legal action of each row. Its weights (≈ 26 MB) are read once per call,
    however many rows the call holds: what batching saves a real network."""
    rng = np.random.default_rng(seed)
    w1 = rng.standard_normal((OBS_SIZE, hidden), dtype=np.float32) / np.sqrt(OBS_SIZE)
    w2 = rng.standard_normal((hidden, ACTION_SPACE_SIZE), dtype=np.float32) / np.sqrt(hidden)

    def policy(obs: ObsArray, mask: BoolArray) -> npt.NDArray[np.int64]:
        logits = np.maximum(obs @ w1, 0.0) @ w2
        logits[~mask] = -np.inf
        chosen: npt.NDArray[np.int64] = logits.argmax(axis=1).astype(np.int64)
        return chosen

    return policy


POLICIES: dict[str, Callable[[int], BatchPolicy]] = {"uniform": uniform_policy, "mlp": mlp_policy}
"""The policies ``bigtwo bench learn --policy`` can measure with."""


def bench_learn(
    rules: str = "palm",
    *,
    deals: int = 200,
    batch: int = 64,
    seed: int = 1,
    policy: str = "uniform",
) -> dict[str, Any]:
    """Speed of the runner with one of :data:`POLICIES`: decisions and deals per second."""
    make = POLICIES.get(policy)
    if make is None:
        raise LearningError(f"Unknown policy '{policy}' (known: {', '.join(POLICIES)})")
    runner = SelfPlayRunner(rules, batch=batch, seed=seed)
    runner.collect(make(seed), deals=min(deals, batch))  # warm the rules' tables
    cpu = time.process_time()
    rollout = runner.collect(make(seed), deals=deals)
    cpu = time.process_time() - cpu
    seconds = rollout.seconds
    return {
        "rules": rules,
        "policy": policy,
        "deals": deals,
        "batch": batch,
        "decisions": len(rollout),
        "seconds": round(seconds, 3),
        "decisions_per_second": round(len(rollout) / seconds, 1),
        "deals_per_second": round(deals / seconds, 1),
        # CPU time counts only this process's work, so it reads the same on a busy machine
        "cpu_seconds": round(cpu, 3),
        "decisions_per_cpu_second": round(len(rollout) / max(cpu, 1e-9), 1),
    }
