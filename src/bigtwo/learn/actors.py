"""Self-play on several processes: the trainer's actors.

An iteration's deals are cut into *shards*, each one runner's deals (its rule set, its
opponents) given by their seeds, with a seed of its own for the random numbers that sample the
network's moves. A shard is played by the numpy network (:mod:`bigtwo.policy.network`), so an actor never
imports torch, and what a shard plays depends on the shard and the network alone: a run gives
the same weights whether its shards are played in the trainer's process (``processes=0``) or
spread over any number of actor processes.

>>> from bigtwo.policy.network import LearnedNetwork
>>> runner = SelfPlayRunner("palm", batch=4)
>>> with Actors(0) as actors:
...     [rollout] = actors.play(LearnedNetwork.initial(seed=1), [Shard(runner, (1, 2), 7)])
>>> len(rollout.points), float(rollout.extras["logp"].max()) <= 0.0
(2, True)
"""

from __future__ import annotations

import concurrent.futures
import multiprocessing
from collections.abc import Sequence
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import numpy as np
import numpy.typing as npt

from ..policy.encoding import LearningError, ObsArray
from ..policy.network import LearnedNetwork
from .league import Member, table_bots
from .vector import BatchPolicy, Rollout, SelfPlayRunner, Sparse


@dataclass(frozen=True, slots=True)
class Shard:
    """Deals for one actor: a runner (its rule set, batch and opponents), the seeds of its
    deals, and the seed of the move sampler; for league deals, the league's members and each
    deal's table (who plays each seat after the network's: :mod:`.league`)."""

    runner: SelfPlayRunner
    seeds: tuple[int, ...]
    sampler_seed: int
    league: tuple[Member, ...] = ()
    tables: tuple[tuple[int, ...], ...] = ()


def sampling_policy(network: LearnedNetwork, rng: np.random.Generator) -> BatchPolicy:
    """The runner's policy in training: each row's move sampled from the network's softmax over
    its legal moves (Gumbel-max), with the move's log-probability and the row's value kept."""

    def policy(
        obs: ObsArray, rows: npt.NDArray[np.int64], cols: npt.NDArray[np.int64]
    ) -> tuple[npt.NDArray[np.int64], dict[str, Any]]:
        logits, values = network.batch_scores(obs, rows, cols)
        starts = np.searchsorted(rows, np.arange(obs.shape[0]))  # each row's first legal move
        shifted = logits.astype(np.float64)
        shifted -= np.maximum.reduceat(shifted, starts)[rows]
        logp = shifted - np.log(np.add.reduceat(np.exp(shifted), starts))[rows]
        noisy = logp - np.log(-np.log(rng.random(logp.shape[0]) + 1e-300))
        best = np.maximum.reduceat(noisy, starts)
        hits = np.flatnonzero(noisy == best[rows])
        _, first = np.unique(rows[hits], return_index=True)
        picked = hits[first]
        return cols[picked].astype(np.int64), {
            "logp": logp[picked].astype(np.float32),
            "value": values.astype(np.float32),
        }

    return Sparse(policy)


def play(network: LearnedNetwork, shard: Shard) -> Rollout:
    """Play one shard's deals with the network in every seat the runner (or the deal's table)
    leaves to it."""
    policy = sampling_policy(network, np.random.default_rng(shard.sampler_seed))
    players = shard.runner.players
    bots = [table_bots(shard.league, table, players) for table in shard.tables] or None
    return shard.runner.collect(policy, seeds=shard.seeds, bots=bots)


class Actors:
    """Plays shards, in this process (``processes=0``) or on that many spawned processes
    (started at the first shards, kept until :meth:`close`); the rollouts come back in the
    order of the shards either way."""

    def __init__(self, processes: int = 0) -> None:
        if processes < 0:
            raise LearningError("the number of actor processes cannot be negative")
        self.processes = processes
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None

    def play(self, network: LearnedNetwork, shards: Sequence[Shard]) -> list[Rollout]:
        if not self.processes:
            return [play(network, shard) for shard in shards]
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                self.processes, mp_context=multiprocessing.get_context("spawn")
            )
        futures = [self._pool.submit(play, network, shard) for shard in shards]
        return [future.result() for future in futures]

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Actors:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def split(total: int, parts: int) -> list[int]:
    """``total`` in ``parts`` near-equal whole numbers, the larger first."""
    return [total // parts + (1 if i < total % parts else 0) for i in range(parts)]


def cut(seeds: Sequence[int], parts: int) -> list[tuple[int, ...]]:
    """``seeds`` in at most ``parts`` runs of near-equal length, in order, none empty."""
    out = []
    begin = 0
    for size in split(len(seeds), max(1, min(parts, len(seeds)))):
        out.append(tuple(seeds[begin : begin + size]))
        begin += size
    return out
