"""The network taught the safe search's moves: one step of expert iteration.

:func:`distil` starts from a network (an export, ``.npz``) and learns, by gradient steps on the
cross-entropy, to take the action the search took at each decision of labelled deals
(:mod:`.labels`), held near the network it started from by a Kullback–Leibler term (``kl``
times KL(start ‖ new) over the legal actions), so that the decisions where the search agreed
with the network keep their spread. The deals are cut into a learning part and a held-out
part (``holdout``, the last deals of the file) before anything is learnt, and the figures say
on both how often the network's favourite is the search's move, overall and where the search
overruled the network it started from. This module needs PyTorch (the ``train`` extra).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..match.settings import RuleSet
from ..policy.encoding import LearningError
from ..policy.network import LearnedNetwork
from .batch import ragged, segment_log_softmax
from .labels import LabelledDeal, labelled_arrays
from .train import PolicyValue, start_from


@dataclass(frozen=True, slots=True)
class DistilConfig:
    epochs: int = 4
    lr: float = 1e-4
    minibatch: int = 256
    kl: float = 1.0
    holdout: float = 0.1
    seed: int = 0


def _agreement(
    model: PolicyValue, data: dict[str, np.ndarray], rows: np.ndarray
) -> dict[str, float]:
    """How often the model's favourite is the search's move on ``rows``: over all of them and
    over those where the search overruled the starting network."""
    if len(rows) == 0:
        return {"agree": float("nan"), "agree_overruled": float("nan"), "rows": 0, "overruled": 0}
    with torch.no_grad():
        best = _favourites(model, data, rows)
    moves = data["moves"][rows]
    overruled = moves != data["network"][rows]
    hits = best == moves
    return {
        "agree": float(hits.mean()),
        "agree_overruled": float(hits[overruled].mean()) if overruled.any() else float("nan"),
        "rows": int(len(rows)),
        "overruled": int(overruled.sum()),
    }


def _favourites(model: PolicyValue, data: dict[str, np.ndarray], rows: np.ndarray) -> np.ndarray:
    legal_np, row_np = ragged(data["legal"], data["legal_start"], rows)
    obs = torch.from_numpy(data["observations"][rows])
    logits = model.logits(
        obs, model.state(obs), torch.from_numpy(legal_np), torch.from_numpy(row_np)
    )
    out = np.empty(len(rows), dtype=np.int64)
    values = logits.numpy()
    for i in range(len(rows)):
        picks = row_np == i
        out[i] = legal_np[picks][int(np.argmax(values[picks]))]
    return out


def distil(
    start: str | Path,
    deals: list[LabelledDeal],
    ruleset: RuleSet,
    config: DistilConfig | None = None,
) -> tuple[LearnedNetwork, dict[str, Any]]:
    """The network of ``start`` taught the search's moves of ``deals`` (see the module), and
    the figures before and after on the learning and held-out decisions."""
    cfg = config or DistilConfig()
    if not 0 <= cfg.holdout < 1:
        raise LearningError("holdout is a fraction of the deals, from 0 up to 1")
    if len(deals) < 2:
        raise LearningError("distilling needs at least two labelled deals")
    base = LearnedNetwork.load(start)
    data = labelled_arrays(deals, ruleset, base.shape.structure)
    cut_at = len(deals) - int(round(len(deals) * cfg.holdout))
    learn_rows = np.flatnonzero(data["deal"] < cut_at)
    held_rows = np.flatnonzero(data["deal"] >= cut_at)
    torch.manual_seed(cfg.seed)
    model = PolicyValue(base.shape)
    start_from(start, model)
    model.eval()
    before = {
        "learn": _agreement(model, data, learn_rows),
        "held": _agreement(model, data, held_rows),
    }
    with torch.no_grad():  # the starting network's log-probabilities, for the KL term
        legal_all, row_all = ragged(
            data["legal"], data["legal_start"], np.arange(len(data["moves"]))
        )
        obs_all = torch.from_numpy(data["observations"])
        start_logits = model.logits(
            obs_all, model.state(obs_all), torch.from_numpy(legal_all), torch.from_numpy(row_all)
        )
        start_logp, _ = segment_log_softmax(
            start_logits, torch.from_numpy(row_all), len(data["moves"])
        )
    optimiser = torch.optim.Adam(model.parameters(), lr=cfg.lr)
    generator = torch.Generator().manual_seed(cfg.seed)
    model.train()
    losses: list[float] = []
    starts = data["legal_start"]
    for _ in range(cfg.epochs):
        order = learn_rows[torch.randperm(len(learn_rows), generator=generator).numpy()]
        for begin in range(0, len(order), cfg.minibatch):
            rows = order[begin : begin + cfg.minibatch]
            legal_np, row_np = ragged(data["legal"], starts, rows)
            legal = torch.from_numpy(legal_np)
            row_of = torch.from_numpy(row_np)
            obs = torch.from_numpy(data["observations"][rows])
            logits = model.logits(obs, model.state(obs), legal, row_of)
            logp, _ = segment_log_softmax(logits, row_of, len(rows))
            chosen = legal == torch.from_numpy(data["moves"][rows])[row_of]
            cross = -logp[chosen].sum() / len(rows)
            flat = torch.from_numpy(
                np.concatenate([np.arange(starts[r], starts[r + 1]) for r in rows])
            )
            old = start_logp[flat]
            kl = (old.exp() * (old - logp)).sum() / len(rows)
            loss = cross + cfg.kl * kl
            optimiser.zero_grad()
            torch.autograd.backward(loss)
            optimiser.step()
            losses.append(float(loss.detach()))
    model.eval()
    after = {
        "learn": _agreement(model, data, learn_rows),
        "held": _agreement(model, data, held_rows),
    }
    card = dict(base.card)
    card["distilled"] = {
        "from": str(start),
        "deals": len(deals),
        "decisions": int(len(data["moves"])),
        "config": {name: getattr(cfg, name) for name in cfg.__dataclass_fields__},
    }
    card["method"] = str(base.card.get("method", "")) + ", then taught the safe search's moves"
    figures = {
        "before": before,
        "after": after,
        "loss_first": losses[0] if losses else None,
        "loss_last": losses[-1] if losses else None,
    }
    return model.export(card), figures
