"""The safe search's moves as labels for its network: deals the search plays in every seat.

A flat search over a policy's rollouts is one step of policy improvement over that policy, so
its moves say where the policy should move (expert iteration). :func:`play_labelled` plays one
deal shuffled from a seed with the safe search (:class:`~bigtwo.bots.sparta.SafeSearch`) in
every seat, each seat deciding from its own view alone, and keeps, for every decision, the
action the search took and the network's own favourite. The deal itself is the data: a
:class:`LabelledDeal` is its seed and those two actions per decision, and :func:`decisions`
replays it to the observations the network reads, so a file of thousands of deals stays small
enough to keep beside the run. Each deal is one line of JSON (:func:`append_labels`,
:func:`read_labels`); a line that is no labelled deal is refused in words with its number.

The seeds are integers from :data:`LABEL_SEEDS` on: no evaluation board is among them (those
are shuffled from text), and a training runner's deal (its seeds drawn from 0 to 2**62) falls
among the first few thousand of them with a chance of a few in a billion.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..bots.sparta import SafeSearch
from ..match.settings import RuleSet
from ..policy.encoding import LearningError, ObsArray, ObservationEncoder, index_of, legal_indices
from .deal import LearningDeal

LABEL_SEEDS = 900_000_000
"""The first seed of the labelled deals (the ``k``-th deal is shuffled from this plus ``k``)."""


@dataclass(frozen=True, slots=True)
class LabelledDeal:
    """One deal the search played in every seat: its ``seed``, and at each decision in turn the
    action the search took (``moves``) and the network's own favourite (``network``)."""

    seed: int
    moves: tuple[int, ...]
    network: tuple[int, ...]

    @property
    def overruled(self) -> int:
        """How many of its decisions the search took another move than the network's."""
        return sum(m != n for m, n in zip(self.moves, self.network, strict=True))

    def line(self) -> str:
        return json.dumps({"seed": self.seed, "moves": self.moves, "network": self.network})


def play_labelled(seed: int, ruleset: RuleSet, search: SafeSearch) -> LabelledDeal:
    """The deal shuffled from ``seed`` played through with ``search`` in every seat (its
    generator seeded by the deal and the seat, so the same seed gives the same deal)."""
    deal = LearningDeal.dealt(ruleset, ruleset.rules.default_players, seed, {})
    rngs = [random.Random(f"labels:{seed}:{seat}") for seat in range(deal.players)]
    moves: list[int] = []
    network: list[int] = []
    while not deal.over:
        seat = deal.turn
        verdict = search.decide(deal.match.view(seat), rngs[seat])
        network.append(index_of(verdict.candidates[0]))
        moves.append(index_of(verdict.move))
        deal.act(moves[-1])
    return LabelledDeal(seed, tuple(moves), tuple(network))


def decisions(
    labelled: LabelledDeal, ruleset: RuleSet, encoder: ObservationEncoder
) -> Iterator[tuple[ObsArray, list[int], int, int]]:
    """Each decision of a labelled deal, replayed: the acting seat's observation, its legal
    actions, the search's action and the network's. A deal that does not replay (a move the
    deal refuses: the file is not of these rules) raises a :class:`LearningError`."""
    deal = LearningDeal.dealt(ruleset, ruleset.rules.default_players, labelled.seed, {})
    for move, own in zip(labelled.moves, labelled.network, strict=True):
        if deal.over:
            raise LearningError(f"deal {labelled.seed} is over before its last labelled move")
        view = deal.view(deal.turn)
        legal = legal_indices(view)
        if move not in legal or own not in legal:
            raise LearningError(f"deal {labelled.seed}: a labelled move is not legal there")
        yield encoder.encode(view), legal, move, own
        deal.act(move)
    if not deal.over:
        raise LearningError(f"deal {labelled.seed} is not over after its labelled moves")


def labelled_arrays(
    deals: list[LabelledDeal], ruleset: RuleSet, structure: bool = False
) -> dict[str, np.ndarray]:
    """Every decision of ``deals`` with a choice as arrays: ``observations``, the legal actions
    flattened (``legal``, row ``i``'s from ``legal_start[i]`` to ``legal_start[i + 1]``), the
    search's action (``moves``), the network's (``network``) and each row's deal (``deal``)."""
    encoder = ObservationEncoder(ruleset, structure=structure)
    obs: list[ObsArray] = []
    legal: list[int] = []
    start = [0]
    moves: list[int] = []
    network: list[int] = []
    deal_of: list[int] = []
    for k, labelled in enumerate(deals):
        for o, options, move, own in decisions(labelled, ruleset, encoder):
            if len(options) < 2:
                continue
            obs.append(o)
            legal.extend(options)
            start.append(len(legal))
            moves.append(move)
            network.append(own)
            deal_of.append(k)
    return {
        "observations": np.stack(obs) if obs else np.zeros((0, encoder.size), np.float32),
        "legal": np.asarray(legal, dtype=np.int64),
        "legal_start": np.asarray(start, dtype=np.int64),
        "moves": np.asarray(moves, dtype=np.int64),
        "network": np.asarray(network, dtype=np.int64),
        "deal": np.asarray(deal_of, dtype=np.int64),
    }


def append_labels(path: str | Path, labelled: LabelledDeal) -> None:
    """Add one labelled deal to the file (a line of JSON)."""
    with Path(path).open("a", encoding="utf-8") as out:
        out.write(labelled.line() + "\n")


def read_labels(path: str | Path) -> list[LabelledDeal]:
    """The labelled deals of a file (none when it does not exist); a line that is not one is
    refused with its number."""
    path = Path(path)
    if not path.exists():
        return []
    out: list[LabelledDeal] = []
    for number, text in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not text.strip():
            continue
        try:
            row = json.loads(text)
            labelled = LabelledDeal(
                int(row["seed"]),
                tuple(int(m) for m in row["moves"]),
                tuple(int(m) for m in row["network"]),
            )
        except (ValueError, KeyError, TypeError) as exc:
            raise LearningError(f"{path}, line {number}: not a labelled deal ({exc})") from None
        if len(labelled.moves) != len(labelled.network):
            raise LearningError(
                f"{path}, line {number}: its moves and the network's differ in number"
            )
        out.append(labelled)
    return out
