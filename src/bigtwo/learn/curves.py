"""A training run's figures: one :class:`Progress` an iteration, written as the rows of
``curves.csv`` (:func:`write_curves`) and drawn as ``curves.png`` (:func:`plot`, with
matplotlib where it is installed)."""

from __future__ import annotations

import csv
import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(slots=True)
class Progress:
    """One iteration's figures, as a row of ``curves.csv``."""

    iteration: int
    deals: int
    decisions: int
    seconds: float
    policy_loss: float
    value_loss: float
    entropy: float
    approx_kl: float
    clip_fraction: float
    eval_points: float | None = None
    eval_low: float | None = None
    eval_high: float | None = None
    eval_rules: str = ""
    cpu_seconds: float = 0.0  # CPU time, the trainer's and its actors': a shared machine's measure
    critic_loss: float | None = None  # the critic's value loss, where the run has one

    @staticmethod
    def header() -> list[str]:
        return [f.name for f in dataclasses.fields(Progress)]

    def row(self) -> list[str]:
        out = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out.append(
                "" if value is None else f"{value:.6g}" if isinstance(value, float) else str(value)
            )
        return out


def plot(curves: Sequence[Progress], path: Path) -> bool:
    """Draw the curves as a PNG with matplotlib; False (and no file) without it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    deals = [p.deals for p in curves]
    fig, axes = plt.subplots(2, 2, figsize=(10, 7))
    for ax, key, title in zip(
        axes.flat,
        ("policy_loss", "value_loss", "entropy", "eval_points"),
        ("policy loss", "value loss", "entropy", "arena points a deal (95% interval)"),
        strict=True,
    ):
        if key == "eval_points":
            pts = [
                (p.deals, p.eval_points, p.eval_low, p.eval_high)
                for p in curves
                if p.eval_points is not None
            ]
            if pts:
                x, y, lo, hi = zip(*pts, strict=True)
                ax.plot(x, y, marker="o")
                ax.fill_between(x, lo, hi, alpha=0.3)
                ax.axhline(0.0, color="grey", linewidth=0.8)
        else:
            ax.plot(deals, [getattr(p, key) for p in curves])
        if key == "value_loss" and any(p.critic_loss is not None for p in curves):
            ax.lines[0].set_label("the network's value head")
            ax.plot(deals, [p.critic_loss for p in curves], label="the critic")
            ax.legend()
        ax.set_title(title)
        ax.set_xlabel("training deals")
    fig.tight_layout()
    fig.savefig(path, dpi=80)
    plt.close(fig)
    return True


def write_curves(curves: Sequence[Progress], path: Path, written: int = 0) -> int:
    """The curves as a CSV file, one row an iteration; returns how many rows it holds.
    ``written``: how many of the curves' first rows this function has already written to the
    file, so only the rest are appended; with none, the file is written whole and then moved
    into place."""
    if 0 < written <= len(curves) and path.exists():
        with path.open("a", newline="") as out:
            csv.writer(out).writerows(p.row() for p in curves[written:])
        return len(curves)
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(Progress.header())
        for p in curves:
            writer.writerow(p.row())
    os.replace(tmp, path)
    return len(curves)


__all__ = ["Progress", "plot", "write_curves"]
