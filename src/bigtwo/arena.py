"""The arena: computer players play many deals against each other, and the results in numbers.

A lineup names one bot per seat (``expert,ppo2018,ppo2018,ppo2018``). Each *board* is one
shuffle, dealt from the seed and the board number. In duplicate mode a board is played once
per seat rotation, the hands moving round the table, so every lineup entry plays every hand
from every seat and the luck of the deal cancels out. Deals are played through
:class:`~bigtwo.match.Match` (autopass and scoring as the rules say). Every random choice is
seeded from ``seed:board:rotation`` and the position (see
:class:`~bigtwo.bots.seat.ComputerSeat`), so results do not depend on the number of workers
or their scheduling. For each lineup entry the arena reports mean points per deal with a 95%
confidence interval (over boards in duplicate mode, whose rotations are not independent),
win rate, mean cards left and decision times, and its *margin*: its points less the mean of
the other seats' points in the same deal, with its interval, which says who is better also
where every seat loses points (deduction scoring, where nobody collects). It plays and measures; it never changes a
rule or a bot. A run's checkpoint (:func:`checkpoint_json`) keeps every board's records, so a
long run stopped part way goes on from it (:func:`read_checkpoint`) to the same figures.

Under a rule set of Big 2 RevolutioN (``revolution``) a board is a shuffle of both decks: the
normal cards dealt, then the Revolution deck's order, from the same generator. Every rotation
plays the same Revolution deck with the normal hands rotated, so duplicate play cancels the
luck of both. Each hand is a :class:`~bigtwo.engine.revolution.RevolutionDeal` played by the
revolution players (:func:`~bigtwo.bots.make_bot` of the ``revolution`` game); the arena also reports
the functions used per deal and the share of hands ended by exhaustion.
"""

from __future__ import annotations

import json
import math
import multiprocessing
import random
import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .bots import Bot, make_bot
from .bots.revolution import RevolutionBot
from .bots.seat import ComputerSeat
from .engine.cards import Mask
from .engine.deal import deal_hands
from .engine.errors import BigTwoError
from .engine.revolution import End, Move, RevolutionDeal, shuffled_deck
from .engine.revolution_cards import NORMAL_CARDS
from .engine.rules import BIGTWO, REVOLUTION
from .match import Match
from .match.scoring import score_revolution_hand
from .match.settings import RuleSet


@dataclass(frozen=True, slots=True)
class BoardDeal:
    """One deal of a board: each seat's points, cards left, and decision times (ms)."""

    points: tuple[int, ...]
    cards_left: tuple[int, ...]
    winner: int
    decision_ms: tuple[tuple[float, ...], ...]
    functions: int = 0  # Character functions activated (revolution), all seats together
    exhausted: bool = False  # the hand ended when the Revolution deck ran out

    def to_json(self) -> list[Any]:
        """The deal as a JSON list (kept in a run's checkpoint)."""
        times = [[round(t, 3) for t in seat] for seat in self.decision_ms]
        return [list(self.points), list(self.cards_left), self.winner, times,
                self.functions, self.exhausted]  # fmt: skip

    @classmethod
    def from_json(cls, data: Any) -> BoardDeal:
        """A deal read back from :meth:`to_json`'s list; ``ValueError`` if it is not one."""
        try:
            points, cards_left, winner, times, functions, exhausted = data
            return cls(
                points=tuple(int(p) for p in points),
                cards_left=tuple(int(c) for c in cards_left),
                winner=int(winner),
                decision_ms=tuple(tuple(float(t) for t in seat) for seat in times),
                functions=int(functions),
                exhausted=bool(exhausted),
            )
        except (TypeError, ValueError) as exc:
            raise ValueError(f"not a deal's record: {exc}") from None


@dataclass(frozen=True, slots=True)
class BoardTask:
    rules: RuleSet
    lineup: tuple[str, ...]
    board: int
    seed: int
    duplicate: bool


# The players of each lineup a process has played, by game: made once, reused every board.
_PLAYERS: dict[tuple[str, tuple[str, ...]], list[Any]] = {}


def lineup_bots(lineup: Sequence[str]) -> list[Bot]:
    """Fresh bots for a lineup, told who else sits at the table where that matters: a
    ``classic`` player treats the seats without a Palm computer player as the humans."""
    from .bots.classic import ClassicBot

    bots = [make_bot(name) for name in lineup]
    palm = {seat for seat, bot in enumerate(bots) if isinstance(bot, ClassicBot)}
    humans = frozenset(range(len(bots))) - palm
    for bot in bots:
        bot.tell_humans(humans)
    return bots


def play_deal(
    rules: RuleSet,
    bots: Sequence[Bot],
    hands: Sequence[Mask],
    rng_key: str,
) -> BoardDeal:
    """Play one deal from ``hands`` with ``bots[seat]`` in each seat. Each seat is a strict
    :class:`~bigtwo.bots.seat.ComputerSeat`: a bot that fails or plays illegally stops the
    arena with the reason, and its randomness comes from ``rng_key`` and the position."""
    n = len(bots)
    match = Match(rules, players=n, hands=list(hands), deals=1, seed=0)
    deal = match.deal
    seats = [ComputerSeat.of(bot, seat, strict=True) for seat, bot in enumerate(bots)]
    for computer in seats:
        computer.new_deal()
    times: list[list[float]] = [[] for _ in range(n)]
    while not deal.over:
        seat = deal.turn
        view = match.view(seat)
        if not view.legal:  # no reply: a pass, not a decision
            match.pass_(seat)
            continue
        computer = seats[seat]
        play = computer.choose(view, key=rng_key, deal_number=1, deal=deal)
        times[seat].append(computer.last_ms)
        match.act(seat, play)
    result = match.results[-1]
    return BoardDeal(
        points=tuple(result.points),
        cards_left=tuple(h.bit_count() for h in result.cards_left),
        winner=result.winner,
        decision_ms=tuple(tuple(t) for t in times),
    )


def play_revolution_deal(
    rules: RuleSet,
    bots: Sequence[RevolutionBot],
    hands: Sequence[int],
    deck: Sequence[int],
    rng_key: str,
) -> BoardDeal:
    """Play one hand of Big 2 RevolutioN from ``hands`` and the Revolution ``deck`` (top card
    first) with ``bots[seat]`` in each seat, each a strict
    :class:`~bigtwo.bots.seat.ComputerSeat` as in :func:`play_deal`. A seat with one thing to
    do (a decline without a Q) does it without a decision."""
    n = len(bots)
    deal = RevolutionDeal(rules.rules, list(hands), deck=deck)
    seats = [ComputerSeat.of(bot, seat, strict=True) for seat, bot in enumerate(bots)]
    times: list[list[float]] = [[] for _ in range(n)]
    while not deal.over:
        seat = deal.to_act
        view = deal.view(seat)
        if len(view.choices) == 1:
            deal.take(view.choices[0])
            continue
        computer = seats[seat]
        deal.take(computer.choose(view, key=rng_key, deal_number=1))
        times[seat].append(computer.last_ms)
    assert deal.winner is not None and deal.end is not None
    exhausted = deal.end is End.EXHAUSTION
    score = score_revolution_hand(rules, deal.hands, deal.winner, exhausted)
    return BoardDeal(
        points=score.points,
        cards_left=tuple((h & NORMAL_CARDS).bit_count() for h in deal.hands),
        winner=deal.winner,
        decision_ms=tuple(tuple(t) for t in times),
        functions=sum(1 for a in deal.actions if a.move is Move.ACTIVATE),
        exhausted=exhausted,
    )


def board_cards(task: BoardTask) -> tuple[list[Mask], tuple[int, ...] | None]:
    """A board's shuffle, from the seed and the board number: the normal hands, and under
    revolution rules the Revolution deck's order (None otherwise), shuffled after them."""
    rng = random.Random(f"{task.seed}:{task.board}")
    hands = deal_hands(task.rules.rules, len(task.lineup), rng)
    return hands, _GAMES[task.rules.rules.game].deck(rng)


def run_board(task: BoardTask) -> list[BoardDeal]:
    """Every deal of one board, results indexed by lineup entry (= seat)."""
    n = len(task.lineup)
    hands, deck = board_cards(task)
    game = _GAMES[task.rules.rules.game]
    players = _PLAYERS.get((task.rules.rules.game, task.lineup))
    if players is None:
        players = _PLAYERS[task.rules.rules.game, task.lineup] = game.players(task.lineup)
    rotations = range(n) if task.duplicate else range(1)
    out = []
    for r in rotations:
        rotated = [hands[(seat + r) % n] for seat in range(n)]
        out.append(game.play(task.rules, players, rotated, deck, f"{task.seed}:{task.board}:{r}"))
    return out


@dataclass(frozen=True, slots=True)
class _ArenaGame:
    """What the arena does its own way for each game, chosen once by ``rules.game``: the
    ``players`` of a lineup, the ``deck`` shuffled after the normal hands (the Revolution
    deck's order, or None), one deal played (rules, players, hands, deck, key), and the
    ``figures`` a run's results add."""

    players: Callable[[Sequence[str]], list[Any]]
    deck: Callable[[random.Random], tuple[int, ...] | None]
    play: Callable[[RuleSet, Any, list[Mask], Any, str], BoardDeal]
    figures: Callable[[ArenaResult], dict[str, Any]]


def _revolution_figures(result: ArenaResult) -> dict[str, Any]:
    deals = max(1, result.deals)
    return {
        "functions_per_deal": round(result.functions / deals, 3),
        "ended_by_exhaustion": round(result.exhausted / deals, 4),
    }


# Each game's way, by the name ``rules.game`` gives (the plays are looked up when called).
_GAMES = {
    BIGTWO: _ArenaGame(
        players=lineup_bots,
        deck=lambda _rng: None,
        play=lambda rules, bots, hands, _deck, key: play_deal(rules, bots, hands, key),
        figures=lambda _result: {},
    ),
    REVOLUTION: _ArenaGame(
        players=lambda lineup: [make_bot(name, REVOLUTION) for name in lineup],
        deck=shuffled_deck,
        play=lambda *deal: play_revolution_deal(*deal),
        figures=_revolution_figures,
    ),
}


# -- statistics -------------------------------------------------------------------------------


@dataclass(slots=True)
class BotStats:
    """The running record of one lineup entry."""

    name: str
    board_means: list[float] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    # per board, the mean of (this seat's points - the other seats' mean) over its deals
    board_margins: list[float] = field(default_factory=list)
    wins: int = 0
    cards_left: list[int] = field(default_factory=list)
    decision_ms: list[float] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        _, half = _mean_ci(self.board_means)
        mean = statistics.fmean(self.points) if self.points else 0.0
        margin, margin_half = _mean_ci(self.board_margins)
        deals = len(self.points)
        return {
            "name": self.name,
            "mean_points": round(mean, 3),
            "ci95": [round(mean - half, 3), round(mean + half, 3)],
            "margin": round(margin, 3),
            "margin_ci95": [round(margin - margin_half, 3), round(margin + margin_half, 3)],
            "win_rate": round(self.wins / deals, 4) if deals else 0.0,
            "mean_cards_left": round(statistics.fmean(self.cards_left), 3) if deals else 0.0,
            "decisions": len(self.decision_ms),
            "decision_ms_median": round(_quantile(self.decision_ms, 0.5), 3),
            "decision_ms_p99": round(_quantile(self.decision_ms, 0.99), 3),
        }


def _mean_ci(samples: list[float]) -> tuple[float, float]:
    """The mean of the per-board samples (boards hold equally many deals, so it is the mean
    per deal) and the half-width of its 95% confidence interval."""
    if not samples:
        return 0.0, 0.0
    half = 0.0
    if len(samples) > 1:
        half = 1.96 * statistics.stdev(samples) / math.sqrt(len(samples))
    return statistics.fmean(samples), half


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


@dataclass(slots=True)
class ArenaResult:
    rules: str
    lineup: tuple[str, ...]
    boards: int
    duplicate: bool
    seed: int
    seconds: float
    stats: list[BotStats]
    game: str = BIGTWO
    functions: int = 0  # functions activated over every deal (revolution)
    exhausted: int = 0  # deals ended by exhaustion (revolution)
    played: dict[int, list[BoardDeal]] = field(default_factory=dict)  # by board number

    @property
    def deals(self) -> int:
        return len(self.stats[0].points) if self.stats else 0

    def to_json(self) -> dict[str, Any]:
        """``deals`` counts every deal played (boards × seats in duplicate mode); under
        revolution rules ``functions_per_deal`` (all seats together) and
        ``ended_by_exhaustion`` (a share of the deals) come too."""
        return {
            "rules": self.rules,
            "deals": self.deals,
            "boards": self.boards,
            "duplicate": self.duplicate,
            "seed": self.seed,
            "seconds": round(self.seconds, 2),
            "bots": [s.summary() for s in self.stats],
            **_GAMES[self.game].figures(self),
        }


def _add_board(stats: list[BotStats], records: list[BoardDeal]) -> None:
    n = len(stats)
    for seat, s in enumerate(stats):
        pts = [r.points[seat] for r in records]
        s.points.extend(pts)
        s.board_means.append(statistics.fmean(pts))
        if n > 1:
            s.board_margins.append(
                statistics.fmean(
                    r.points[seat] - (sum(r.points) - r.points[seat]) / (n - 1) for r in records
                )
            )
        s.wins += sum(1 for r in records if r.winner == seat)
        s.cards_left.extend(r.cards_left[seat] for r in records)
        for r in records:
            s.decision_ms.extend(r.decision_ms[seat])


# -- running ------------------------------------------------------------------------------------


Played = tuple[int, list[BoardDeal]]
"""A board's number and its deals' records, as the backends yield them (in any order)."""


def play_board(task: BoardTask) -> Played:
    """:func:`run_board`, with the board's number beside its records."""
    return task.board, run_board(task)


def _serial(tasks: list[BoardTask]) -> Iterator[Played]:
    for task in tasks:
        yield play_board(task)


def _processes(tasks: list[BoardTask], workers: int) -> Iterator[Played]:
    # spawn, not fork: the progress bar runs a thread, and forking a threaded process is unsafe
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(workers) as pool:
        yield from pool.imap_unordered(play_board, tasks, chunksize=1)


def _ray(tasks: list[BoardTask], workers: int) -> Iterator[Played]:
    """Play the boards as Ray tasks and yield each board's records as it finishes.

    Without the ``RAY_ADDRESS`` environment variable this starts a private local Ray instance
    with ``workers`` CPUs (no dashboard, worker output not forwarded) and shuts it down
    afterwards, also when a board fails or the run is interrupted (Ctrl-C), so no Ray
    processes are left running. With ``RAY_ADDRESS`` set (``auto``, ``host:6379`` or
    ``ray://host:10001``) the arena connects to that running cluster instead, spreads the
    boards over the cluster's CPUs (``workers`` is then not used) and leaves the cluster
    running; every node needs the same version of bigtwo installed. ``RAY_ADDRESS=local``
    means a local instance, as when it is unset. If Ray is already initialised in this
    process, that instance is used and left running.

    Every board is seeded from the task alone, so the figures equal the process backend's.
    """
    import contextlib
    import importlib
    import itertools
    import logging
    import os
    import socket

    try:
        # Typed as Any: Ray is an optional extra, with or without its stubs installed.
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise BigTwoError(
            "The ray backend needs Ray, an optional extra: pip install 'bigtwo[ray]'"
        ) from None

    address = os.environ.get("RAY_ADDRESS", "").strip() or "local"
    started = False
    if not ray.is_initialized():
        try:
            if address == "local":
                ray.init(
                    address="local",  # a private instance, never a `ray start` one nearby
                    num_cpus=workers,
                    include_dashboard=False,
                    log_to_driver=False,
                    logging_level=logging.WARNING,
                    # the results are a few kilobytes a board: a small object store will do
                    object_store_memory=128 * 1024 * 1024,
                )
            else:
                # Ray retries an address where nothing listens for minutes: knock first
                host, _, port = address.split("://", 1)[-1].rpartition(":")
                if host and port.isdigit():
                    socket.create_connection((host.strip("[]"), int(port)), timeout=10).close()
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        except BaseException as exc:
            with contextlib.suppress(Exception):
                ray.shutdown()  # whatever was half started goes too
            if not isinstance(exc, Exception):  # Ctrl-C while starting
                raise
            if address == "local":
                where = "start a local Ray instance"
            else:
                where = f"connect to the Ray cluster at RAY_ADDRESS={address}"
            detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            raise BigTwoError(f"The ray backend could not {where}: {detail}") from None
        started = True
    pending: list[Any] = []
    try:
        cpus = int(ray.cluster_resources().get("CPU", workers))
        window = max(1, 4 * cpus)  # boards in flight: enough to keep every CPU busy
        remote = ray.remote(play_board)
        queue = iter(tasks)
        pending = [remote.remote(task) for task in itertools.islice(queue, window)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending.extend(remote.remote(task) for task in itertools.islice(queue, 1))
            try:
                played = ray.get(done[0])
            except ray.exceptions.RayTaskError as exc:
                if isinstance(exc.cause, BigTwoError):
                    raise exc.cause from None  # as the process backend reports it
                raise
            yield played
    finally:
        if not (started and address == "local"):  # a cluster, or an instance that stays up:
            for ref in pending:  # stop the boards left over (a failure, or Ctrl-C)
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
        if started:
            ray.shutdown()  # a local instance stops, workers and all; a cluster is left


def run_arena(
    rules: RuleSet,
    lineup: Sequence[str],
    *,
    deals: int,
    duplicate: bool = False,
    workers: int = 1,
    seed: int = 1,
    backend: str = "process",
    on_board: Callable[[int], None] | None = None,
    on_result: Callable[[ArenaResult], None] | None = None,
    resume: Resumed | None = None,
) -> ArenaResult:
    """Play ``deals`` deals and gather results. In duplicate mode they are played as boards of
    one deal per seat rotation: ``deals`` is rounded up to whole boards (4,000 deals for four
    players are 1,000 boards).

    ``on_board(deals_done)`` is called after each board, for progress displays, and
    ``on_result(result)`` with the figures of the boards played so far (a long run keeps
    them: an interrupted run still has its figures). ``resume``: the boards an earlier call
    of the same run played (:func:`read_checkpoint`), counted as played and not played again;
    as every board is seeded from the run alone, the figures are those of one whole call.
    """
    lineup = tuple(lineup)
    if len(lineup) not in rules.rules.players:
        allowed = ", ".join(str(p) for p in rules.rules.players)
        raise BigTwoError(f"{rules.name} is played by {allowed} players, not {len(lineup)}")
    for name in lineup:  # an unknown name fails here, with the list of known ones
        make_bot(name, rules.rules.game)
    if deals < 1:
        raise BigTwoError("An arena needs at least one deal")
    boards = -(-deals // len(lineup)) if duplicate else deals
    earlier = {b: r for b, r in (resume.played if resume else {}).items() if b < boards}
    tasks = [
        BoardTask(rules, lineup, b, seed, duplicate) for b in range(boards) if b not in earlier
    ]
    stats = [BotStats(name) for name in lineup]
    played: dict[int, list[BoardDeal]] = {}
    start = time.perf_counter() - (resume.seconds if resume else 0.0)
    if backend == "ray":
        results = _ray(tasks, workers)
    elif backend != "process":
        raise BigTwoError(f"Unknown arena backend '{backend}' (process or ray)")
    elif workers <= 1:
        results = _serial(tasks)
    else:
        results = _processes(tasks, workers)
    done = functions = exhausted = 0

    def result() -> ArenaResult:
        return ArenaResult(
            rules=rules.name,
            lineup=lineup,
            boards=len(played),
            duplicate=duplicate,
            seed=seed,
            seconds=time.perf_counter() - start,
            stats=stats,
            game=rules.rules.game,
            functions=functions,
            exhausted=exhausted,
            played=played,
        )

    def add(board: int, records: list[BoardDeal]) -> None:
        nonlocal done, functions, exhausted
        played[board] = records
        _add_board(stats, records)
        done += len(records)
        functions += sum(r.functions for r in records)
        exhausted += sum(r.exhausted for r in records)

    for board in sorted(earlier):
        add(board, earlier[board])
    if earlier and on_board is not None:
        on_board(done)
    for board, records in results:
        add(board, records)
        if on_board is not None:
            on_board(done)
        if on_result is not None:
            on_result(result())
    return result()


# -- checkpoints ----------------------------------------------------------------------------------


def _run_words(run: tuple[Any, ...]) -> str:
    rules, lineup, seed, duplicate = run
    names = ",".join(map(str, lineup)) if isinstance(lineup, list) else "?"
    return f"{rules}, {names}, seed {seed}, {'duplicate' if duplicate else 'not duplicate'}"


@dataclass(frozen=True, slots=True)
class Resumed:
    """What a checkpoint keeps of a run for :func:`run_arena` to go on with."""

    played: dict[int, list[BoardDeal]]
    seconds: float


def checkpoint_json(result: ArenaResult) -> dict[str, Any]:
    """A run's checkpoint: its figures (:meth:`ArenaResult.to_json`), its lineup and every
    board's records, from which :func:`read_checkpoint` resumes it."""
    return {
        **result.to_json(),
        "lineup": list(result.lineup),
        "played": {str(b): [d.to_json() for d in result.played[b]] for b in sorted(result.played)},
    }


def read_checkpoint(
    path: Path, rules: RuleSet, lineup: Sequence[str], seed: int, duplicate: bool
) -> Resumed:
    """The boards a checkpoint at ``path`` holds, if it is a checkpoint of this very run
    (rules, lineup, seed and duplicate mode); nothing played if there is no file yet. Any
    other file is refused in words (:class:`BigTwoError`), and the file is left alone."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return Resumed({}, 0.0)
    except OSError as exc:
        raise BigTwoError(f"Cannot read the checkpoint {path}: {exc.strerror or exc}") from None
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or not isinstance(data.get("played"), dict):
            raise ValueError("it holds no boards")
        run = (data.get("rules"), data.get("lineup"), data.get("seed"), data.get("duplicate"))
        mine = (rules.name, list(lineup), seed, duplicate)
        played = {
            int(b): [BoardDeal.from_json(d) for d in deals] for b, deals in data["played"].items()
        }
        seconds = float(data.get("seconds", 0.0))
    except (ValueError, TypeError, AttributeError) as exc:
        raise BigTwoError(f"The checkpoint {path} cannot be resumed: {exc}") from None
    if run != mine:
        raise BigTwoError(
            f"The checkpoint {path} is of another run ({_run_words(run)}), "
            f"not this one ({_run_words(mine)})"
        )
    players = len(lineup)
    for board, deals in played.items():
        rotations = players if duplicate else 1
        if board < 0 or len(deals) != rotations or any(len(d.points) != players for d in deals):
            raise BigTwoError(
                f"The checkpoint {path} cannot be resumed: board {board} is malformed"
            )
    return Resumed(played, seconds)
