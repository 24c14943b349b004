"""A search that cannot make the network much worse: after Lerer et al., SPARTA (AAAI 2020).

:class:`SafeSearch` plays bigtwo's own network (:mod:`.learned`) and searches only to find where
it is clearly wrong. From its seat's view it takes a few candidates: the network's own move
(its highest logit), the network's next ``others`` moves by logit, a pass when one is legal
and a play that goes out when there is one. It samples up to ``worlds`` deals of the unseen
cards that fit the view and what the passes prove (:func:`~.expert.sample_hands`), each with the deal's history
replayed so the network reads the cards played as it does at the table, and finishes every
candidate in every world with the network in every seat. The rollouts of all candidates and all
worlds go forward in step, each step one batched forward pass of the network.

Every candidate meets the same worlds, so its gain over the network's move is measured as the
mean of the per-world differences. It leaves the network's move only for a candidate whose mean
gain clears both ``margin`` points and ``z`` standard errors of that mean; otherwise it plays
the network's move. With ``z = inf`` it is the network; with ``z = 0`` and ``margin = 0`` it is
the flat search (the best sampled mean, the network's move on a tie). The gains are measured
with the network in the other seats, so against other players the guarantee holds only as far
as the network models them: the bar keeps the noise of the sampling out, not that bias.

Three refinements can be switched on, each measured against the plain search on the same boards
(``docs/learning.md``): worlds weighted by how likely the network finds the other seats' actual
moves in each (``beliefs``, :func:`likelihoods`), rollouts finished by exact play once few
cards are left (``endgame``, :mod:`.endgame`), and a second look on fresh worlds at a close
call, a candidate whose gain clears the margin but not its noise (``more``).

It never sees another seat's cards: the worlds are built from the view alone, and a seeded rng
gives the same move every time.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..engine.cards import Mask
from ..engine.deal import Deal
from ..policy.encoding import index_of
from .base import Bot
from .endgame import small_enough, solve
from .expert import deal_points, sample_hands, world_of
from .inference import proven_misses, proven_replies
from .learned import encoder_for, shipped_network
from .strong import StrongBot

if TYPE_CHECKING:
    from ..engine.plays import Play
    from ..match.settings import Scoring
    from ..match.views import TableView
    from ..policy.network import LearnedNetwork


def world_with_history(
    view: TableView,
    hands: Sequence[Mask],
    observe: Callable[[Deal, Play | None], None] | None = None,
    since: int = 0,
) -> Deal:
    """The sampled world as a whole deal: each seat dealt its sampled cards and those it has
    played, and the view's actions replayed, so the seats of a rollout read the cards played
    as they would at the table. Falls back to :func:`~.expert.world_of` (no history) if the
    replay does not reach the view's position. ``observe(deal, play)`` is told of every other
    seat's action from the view's ``since``-th on, just before it is replayed, but for the
    deal's opening (a deal rebuilt from its leader does not know which card the opening had to
    hold) and the actions the deal made by itself."""
    played = [0] * view.players
    for action in view.actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    dealt = [Mask(h | p) for h, p in zip(hands, played, strict=True)]
    try:
        deal = Deal(view.rules, dealt, leader=view.leader)
        apply = deal.apply_unchecked
        for i in range(len(deal.actions), len(view.actions)):
            action = view.actions[i]
            if (
                observe is not None
                and i >= max(since, 1)
                and action.seat != view.seat
                and not action.auto
            ):
                observe(deal, action.play)
            apply(action.play)
    except Exception:  # noqa: BLE001 - any failure of the replay: the world without history
        return world_of(view, hands)
    if (
        deal.turn != view.turn
        or deal.to_beat != view.to_beat
        or deal.passes != view.passes
        or deal.locked != view.locked
        or deal.winner is not None
    ):
        return world_of(view, hands)
    return deal


def deal_options(deal: Deal) -> list[Play | None]:
    """What the seat to act may do, read from the deal: a pass when there is a play to beat
    (None, first), then its legal plays."""
    options: list[Play | None] = [] if deal.to_beat is None else [None]
    options.extend(deal.legal_plays())
    return options


def network_rollouts(
    deals: Sequence[Deal],
    seat: int,
    scoring: Scoring,
    network: LearnedNetwork,
    limit: int = 400,
    endgame: int = 0,
) -> list[int]:
    """Finish every deal with the network's favourite move in every seat (as
    :func:`~.learned.rollout_policy` plays it), all deals in step, one batched forward pass a
    step; ``seat``'s points in each under ``scoring``. With ``endgame``, a deal with at most
    that many cards left in all hands is finished by exact play instead
    (:func:`~.endgame.solve`, every seat playing for its own points with every hand in view),
    unless its search grows past the solver's bound. The deals are left finished, or where the
    solver took them over."""
    encoder = None
    solved: dict[int, int] = {}
    active = [i for i, d in enumerate(deals) if d.winner is None]
    steps = 0
    while active and steps < limit:
        obs: list[np.ndarray] = []
        rows: list[int] = []
        cols: list[int] = []
        asked: list[tuple[Deal, list[Play | None]]] = []
        for i in active:
            deal = deals[i]
            if endgame and small_enough(deal, endgame) and i not in solved:
                points = solve(deal, scoring)
                if points is not None:
                    solved[i] = points[seat]
                    continue
            # what the seat's view would offer (its legal plays, a pass when there is a play
            # to beat), read from the deal: a forced move needs no view
            options = deal_options(deal)
            if len(options) == 1:
                deal.apply_unchecked(options[0])
                continue
            if encoder is None:
                encoder = encoder_for(deal.rules, scoring, network.shape.structure)
            rows.extend([len(obs)] * len(options))
            cols.extend(index_of(p) for p in options)
            obs.append(encoder.encode(deal.view(deal.turn)))
            asked.append((deal, options))
        if asked:
            logits, _ = network.batch_scores(
                np.stack(obs), np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
            )
            start = 0
            for deal, options in asked:
                end = start + len(options)
                deal.apply_unchecked(options[int(np.argmax(logits[start:end]))])
                start = end
        active = [i for i in active if deals[i].winner is None and i not in solved]
        steps += 1
    out = []
    for i, deal in enumerate(deals):
        if i in solved:
            out.append(solved[i])
        elif deal.winner is None:  # cannot happen in a legal deal: a loss of every card held
            out.append(deal_points(scoring, deal.hands, -1, seat))
        else:
            out.append(deal_points(scoring, deal.hands, deal.winner, seat))
    return out


def likelihoods(
    view: TableView, pool: Sequence[Sequence[Mask]], network: LearnedNetwork, recent: int
) -> np.ndarray:
    """For each sampled world of ``pool``, the log-likelihood under ``network`` of the other
    seats' last ``recent`` actions (those where the seat had a choice): each action's
    probability by the softmax of the network's logits over that seat's options, in that seat's
    view of the world as it stood. A world whose history cannot be replayed counts as 0 (no
    evidence); one where a seat could not have made its move, as minus infinity."""
    others = [i for i, a in enumerate(view.actions) if a.seat != view.seat]
    since = others[-recent] if 0 < recent <= len(others) else 0
    encoder = encoder_for(view.rules, view.scoring, network.shape.structure)
    obs: list[np.ndarray] = []
    rows: list[int] = []
    cols: list[int] = []
    asked: list[tuple[int, int, int, int]] = []  # world, first column, columns, chosen column
    out = np.zeros(len(pool), dtype=np.float64)
    found: list[tuple[np.ndarray, list[int], int]] = []  # the world's actions with a choice

    def observe(deal: Deal, play: Play | None) -> None:
        options = deal_options(deal)
        if len(options) > 1:
            ids = [index_of(p) for p in options]
            found.append((encoder.encode(deal.view(deal.turn)), ids, index_of(play)))

    for w, hands in enumerate(pool):
        found.clear()
        deal = world_with_history(view, hands, observe, since)
        if len(deal.actions) != len(view.actions):
            continue
        for ob, ids, target in found:
            if target not in ids:
                out[w] = -math.inf
                break
            asked.append((w, len(cols), len(ids), len(cols) + ids.index(target)))
            rows.extend([len(obs)] * len(ids))
            cols.extend(ids)
            obs.append(ob)
    if obs:
        logits, _ = network.batch_scores(
            np.stack(obs), np.asarray(rows, dtype=np.int64), np.asarray(cols, dtype=np.int64)
        )
        for w, start, size, chosen in asked:
            segment = logits[start : start + size]
            top = float(segment.max())
            out[w] += float(logits[chosen]) - top - math.log(float(np.exp(segment - top).sum()))
    return out


def resample(weights: np.ndarray, count: int, rng: random.Random) -> list[int]:
    """``count`` indices drawn in proportion to ``exp(weights)`` (log-weights), by systematic
    resampling: one uniform draw, ``count`` evenly spaced points on the cumulative weights."""
    top = float(weights.max())
    if not math.isfinite(top):  # no world fits: every one alike
        return [i % len(weights) for i in range(count)]
    cumulative = np.cumsum(np.exp(weights - top))
    cumulative /= cumulative[-1]
    start = rng.random() / count
    points = start + np.arange(count) / count
    picked = np.searchsorted(cumulative, points, side="right")
    return [min(int(i), len(weights) - 1) for i in picked]


def tempered(weights: np.ndarray, power: float, effective: float) -> np.ndarray:
    """The log-weights ``weights`` raised to the largest power up to ``power`` that keeps at
    least ``effective`` worlds' worth of them (Kish's ``(Σw)² / Σw²``), found by bisection: a
    pool of sampled worlds rarely holds one that fits every move seen, and weights sharper than
    the pool allows would leave the search a world or two. Impossible worlds stay impossible."""
    possible = np.isfinite(weights)
    if not possible.any():
        return np.zeros_like(weights)
    span = np.where(possible, weights - weights[possible].max(), 0.0)

    def kept(t: float) -> float:
        w = np.where(possible, np.exp(t * span), 0.0)
        return float(w.sum() ** 2 / (w * w).sum())

    if kept(power) >= effective:
        low = power
    else:
        low, high = 0.0, power
        for _ in range(30):
            middle = (low + high) / 2
            low, high = (middle, high) if kept(middle) >= effective else (low, middle)
    return np.where(possible, low * span, -math.inf)


@dataclass(frozen=True, slots=True)
class Verdict:
    """One decision: the candidates (the network's move first), each one's points in each
    world (``points[c][w]``), the mean gain over the network's move and its standard error,
    the index of the move chosen, and how many times each world was drawn (empty: once each)."""

    candidates: list[Play | None]
    points: list[list[int]]
    gains: list[float]
    errors: list[float]
    chosen: int
    counts: list[int] = field(default_factory=list)

    @property
    def move(self) -> Play | None:
        return self.candidates[self.chosen]


class SafeSearch(Bot):
    """The network, overruled only where search on common worlds clearly beats it (see the
    module docstring). ``worlds``: sampled deals per decision, at most; ``budget``: at most
    about this many cards finished a decision (candidates × worlds × the cards in hands, a
    deterministic bound on the rollouts' moves that keeps the early decisions, where every
    rollout is long, inside a second), but never fewer than ``least`` worlds; ``others``: how
    many of the network's next moves are searched beside its own; ``z`` and ``margin``: the bar a
    candidate's mean gain must clear (``z`` standard errors and ``margin`` points);
    ``network``: the network played and rolled out (the shipped one by default). With
    ``beliefs`` above zero the worlds are weighted by what the other seats did: ``pool`` times as
    many are sampled, each weighed by the network's likelihood of the other seats' last
    ``recent`` actions raised to the power ``beliefs``, or less where the pool holds too few
    worlds that fit (:func:`likelihoods`, :func:`tempered`), and the worlds searched drawn from
    them in proportion (:func:`resample`). With ``endgame`` (a number of cards), every rollout
    is finished by exact play once at most that many cards are left in all hands
    (:func:`~.endgame.solve`). With ``strong`` (the default), ``strong``'s move is a candidate
    too. With ``more`` (a number of worlds), a candidate whose gain clears ``margin`` but not the
    bar of its standard error, and beats the move chosen, is looked at again on that many fresh
    worlds beside the network's move, and the rule applied to all their worlds: the close calls
    get more worlds, the rest none."""

    name = "expert-safe"

    def __init__(
        self,
        worlds: int = 32,
        budget: int = 6000,
        least: int = 8,
        others: int = 3,
        z: float = 2.0,
        margin: float = 0.25,
        network: LearnedNetwork | None = None,
        beliefs: float = 0.0,
        pool: int = 3,
        recent: int = 12,
        endgame: int = 0,
        strong: bool = True,
        more: int = 0,
    ) -> None:
        if worlds < 2:
            raise ValueError("a safe search needs at least two worlds for a standard error")
        self.worlds = worlds
        self.budget = budget
        self.least = least
        self.others = others
        self.z = z
        self.margin = margin
        self.network = network if network is not None else shipped_network()
        self.beliefs = beliefs
        self.pool = pool
        self.recent = recent
        self.endgame = endgame
        self.strong = strong
        self.more = more
        self._strong = StrongBot()

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        if not view.legal:
            return None
        return self.decide(view, rng).move

    def candidates(self, view: TableView) -> list[Play | None]:
        """The network's move, its next ``others`` by logit, a pass when legal, a play that
        goes out when there is one and, with ``strong``, ``strong``'s move (no duplicates)."""
        options: list[Play | None] = [None] if view.can_pass else []
        options.extend(view.legal)
        if len(options) == 1:
            return options
        encoder = encoder_for(view.rules, view.scoring, self.network.shape.structure)
        logits, _ = self.network.scores(encoder.encode(view), [index_of(p) for p in options])
        ranked = sorted(range(len(options)), key=lambda i: (-float(logits[i]), i))
        own = int(np.argmax(logits))  # the learned player's move, ties as it breaks them
        order = [own] + [i for i in ranked if i != own][: self.others]
        if view.can_pass and 0 not in order:
            order.append(0)
        out = [options[i] for i in order]
        for p in view.legal:
            if p.mask == view.hand and all(m is None or m.mask != p.mask for m in out):
                out.append(p)
        if self.strong:
            move = self._strong.decide(view)[0]
            if move is None and None not in out and view.can_pass:
                out.append(None)
            elif move is not None and all(m is None or m.mask != move.mask for m in out):
                out.append(move)
        return out

    def evaluate(
        self,
        view: TableView,
        rng: random.Random,
        candidates: Sequence[Play | None],
        worlds: int | None = None,
    ) -> tuple[list[list[int]], list[int]]:
        """Each candidate's points in each sampled world (the same worlds for every candidate),
        finished by the network in every seat, and how many times each world was drawn (once
        each unless the worlds are weighted, when a likely world may be drawn again). The
        number of worlds is :meth:`worlds_for`'s unless ``worlds`` is given."""
        seat = view.seat
        assert seat is not None
        misses = proven_misses(view)
        replies = proven_replies(view)
        deals: list[Deal] = []
        if worlds is None:
            worlds = self.worlds_for(view, len(candidates))
        if self.beliefs > 0:
            pool = [
                sample_hands(view, rng, misses, replies=replies) for _ in range(worlds * self.pool)
            ]
            weights = likelihoods(view, pool, self.network, self.recent)
            drawn = Counter(resample(tempered(weights, self.beliefs, worlds), worlds, rng))
            sampled = [pool[i] for i in sorted(drawn)]
            counts = [drawn[i] for i in sorted(drawn)]
        else:
            sampled = [sample_hands(view, rng, misses, replies=replies) for _ in range(worlds)]
            counts = [1] * worlds
        for hands in sampled:
            for move in candidates:
                deal = world_with_history(view, hands)
                deal.apply_unchecked(move)
                deals.append(deal)
        flat = network_rollouts(deals, seat, view.scoring, self.network, endgame=self.endgame)
        c = len(candidates)
        return [[flat[w * c + i] for w in range(len(sampled))] for i in range(c)], counts

    def worlds_for(self, view: TableView, candidates: int) -> int:
        """How many worlds a decision among ``candidates`` moves samples (see the class)."""
        affordable = self.budget // max(1, candidates * sum(view.counts))
        return max(min(self.worlds, self.least), min(self.worlds, affordable))

    def decide(self, view: TableView, rng: random.Random) -> Verdict:
        """The move, with the figures it was chosen on."""
        candidates = self.candidates(view)
        if len(candidates) == 1:
            return Verdict(candidates, [[]], [0.0], [0.0], 0)
        points, counts = self.evaluate(view, rng, candidates)
        verdict = self.judge(candidates, points, counts)
        if not self.more:
            return verdict
        # a second look: the candidates whose gain cleared the margin but not the noise bar
        # meet ``more`` fresh worlds beside the network's move (and the move chosen so far),
        # and the rule is applied again to all their worlds
        undecided = [
            i
            for i in range(1, len(candidates))
            if i != verdict.chosen
            and verdict.gains[i] > self.margin
            and verdict.gains[i] > verdict.gains[verdict.chosen]
        ]
        if not undecided:
            return verdict
        looked = [0] + sorted({*undecided, verdict.chosen} - {0})
        again = [candidates[i] for i in looked]
        extra, extra_counts = self.evaluate(view, rng, again, self.more)
        merged = [points[i] + extra[k] for k, i in enumerate(looked)]
        return self.judge(again, merged, list(counts) + list(extra_counts))

    def judge(
        self,
        candidates: list[Play | None],
        points: list[list[int]],
        counts: Sequence[int] | None = None,
    ) -> Verdict:
        """The rule: the candidate with the largest mean gain over the network's move (the
        first candidate) among those whose gain clears the bar; the network's move if none.
        ``counts``: how many times each world was drawn (once each if not given); the mean is
        weighted by them and the standard error taken over the effective number of worlds."""
        base = np.asarray(points[0], dtype=np.float64)
        gains = [0.0]
        errors = [0.0]
        chosen = 0
        for i in range(1, len(candidates)):
            diff = np.asarray(points[i], dtype=np.float64) - base
            gain, error = paired_gain(diff, counts)
            gains.append(gain)
            errors.append(error)
            if error > 0:
                bar = max(self.margin, self.z * error)
            else:  # every world agrees: the gain is certain, unless no gain may count
                bar = self.margin if math.isfinite(self.z) else math.inf
            if gain > bar and gain > gains[chosen]:
                chosen = i
        return Verdict(candidates, points, gains, errors, chosen, list(counts or []))


def paired_gain(diff: np.ndarray, counts: Sequence[int] | None = None) -> tuple[float, float]:
    """The mean of the per-world differences and its standard error; with ``counts``, each
    world counted as often as it was drawn and the error over the effective number of worlds
    ``(Σm)² / Σm²`` (Kish), so a world drawn twice does not pass for two."""
    if counts is None or all(m == 1 for m in counts):
        gain = float(diff.mean())
        error = float(diff.std(ddof=1) / math.sqrt(len(diff))) if len(diff) > 1 else math.inf
        return gain, error
    m = np.asarray(counts, dtype=np.float64)
    total = float(m.sum())
    gain = float((m * diff).sum() / total)
    effective = total * total / float((m * m).sum())
    if effective <= 1:
        return gain, math.inf
    variance = float((m * (diff - gain) ** 2).sum() / total) * effective / (effective - 1)
    return gain, math.sqrt(variance / effective)
