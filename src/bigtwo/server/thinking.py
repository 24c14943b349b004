"""Computer players thinking away from the event loop, within a bounded time.

Every table of a server shares one event loop, so a computer player that thinks for a few
hundred milliseconds on it (``expert`` searches simulated deals) would hold up every table
and every ping for that long. A :class:`Thinker` runs such decisions in a pool of worker
processes instead: a :class:`~bigtwo.service.table.ThinkRequest` (the bot, its view, its random
generator, the deal for a bot that peeks) is pickled to a worker, which answers with the cards
chosen and the bot as it stands after choosing (bots may keep a plan for the deal). Processes
rather than threads because a thread that computes holds the interpreter lock: measured on a
two-core machine with an ``expert`` computer thinking without pause, a thread pool put the
loop's echo round trip at 5.3 ms median and 90 ms p99 (200 ms max), a process pool at 0.15 ms
median and 5 ms p99, about what it is with nothing thinking at all.

Each decision has a budget (``budget`` seconds, from the request to the answer, queueing
included): past it the table gets None and plays the cheapest legal move instead, so no table
waits on a computer for longer than that, however busy the pool. A bot that offers a time
limit of its own (``time_limit``, as ``expert`` does) is given half the budget, so it answers
with its best move so far rather than being overruled. The cheapest levels (``random``,
``greedy``) think on the loop, where they take microseconds and a trip to a worker would cost
more than the decision. This module decides nothing about the game: the table checks every
choice it gets back.

The pool is shared fairly. Each table has at most one decision waiting or running; decisions
wait in the order their tables asked, so tables are served in turn (round robin), and no more
are handed to the workers than there are workers, so this queue is the only one. A level that
thinks long (``expert``) thinks at full strength only while the pool is not contended:
when decisions are waiting, when it would take the last free worker, or (with a single
worker) when another table asked a moment ago, it steps down for that decision
(``STEP_DOWN``: ``expert`` plays as ``strong``), and the table says so to its players (see
:class:`Thought`). So a quick level is never stuck behind a queue of slow ones. Measured
on a two-core machine with one worker, six tables of three ``expert`` computers made a
separate table's ``strong`` computers wait 2.4 s (median) for the shared queue; served in
turn with the step-down, see ``tests/test_server_thinking.py`` for the figure now.

The coach's reviews (:mod:`bigtwo.server.coach`) run on one worker of their own, made the same
way (:meth:`Thinker.compute`): a review's decision may take longer than a computer's budget,
and in the computers' pool it would make them play their cheapest moves.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import signal
import sys
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

from ..bots.base import Bot
from ..bots.revolution import RevolutionBot
from ..bots.seat import ComputerSeat, Decision
from ..service.table import ThinkRequest

log = logging.getLogger(__name__)
_T = TypeVar("_T")

INLINE_LEVELS = frozenset({"random", "greedy"})  # microseconds: not worth a trip to a worker
MODES = ("process", "thread", "inline")
STUCK_TIMEOUTS = 3  # this many decisions in a row out of time: the workers are replaced
# A level that thinks long, and the quicker one it plays as while decisions are waiting.
STEP_DOWN = {"expert": "strong"}
# With a single worker, another table that asked for a decision this recently (seconds)
# makes the pool contended: a slow level steps down rather than hold the only worker.
CONTENDED_SECONDS = 2.0
# With a single worker shared by several tables (another asked within ACTIVE_SECONDS), a slow
# level at full strength stops after this long (seconds), so a table that comes along
# meanwhile waits no longer than that. The expert's own budget is sized for a median under
# 200 ms, so this rarely cuts a search short; a table alone on the server is not cut at all.
SOLE_WORKER_TIME_LIMIT = 0.4
ACTIVE_SECONDS = 60.0


class Thought(NamedTuple):
    """A computer's decision: its answer (the cards of a play as a mask, None: a pass; under
    the expansion one of the view's choices), its bot afterwards, and the level that decided
    (another than the seat's when the server was busy: see STEP_DOWN)."""

    answer: Decision
    bot: Bot | RevolutionBot
    level: str


def _decide(
    computer: ComputerSeat, view: Any, rng: Any, peek: Any
) -> tuple[Decision, Bot | RevolutionBot]:
    """In a worker: one decision by the seat's computer (strict here: a failure is the
    thinker's to count, and the table then plays the fallback move), in either game.
    Returns its answer and the bot as it stands after choosing."""
    strict = ComputerSeat(
        computer.level, computer.seat, strict=True, bot=computer.bot, game=computer.game
    )
    return strict.decide(view, rng=rng, deal=peek), strict.bot


def _decide_as(level: str, game: str, seat: int, view: Any, rng: Any) -> Decision:
    """In a worker: one decision by a fresh computer of ``level`` (a step down for a busy
    server; the seat's own bot is neither sent nor changed)."""
    return ComputerSeat(level, seat, strict=True, game=game).decide(view, rng=rng)


@dataclass(eq=False)
class _Job:
    """One table's decision waiting for a worker (or on one)."""

    request: ThinkRequest
    table: str
    queued: float
    done: asyncio.Future[Thought | None] = field(default_factory=lambda: _future())


def _future() -> asyncio.Future[Thought | None]:
    return asyncio.get_running_loop().create_future()


def _warm() -> int:
    """In a worker: load every computer level once, so the first real decision is quick."""
    from ..bots import bot_names

    return len(bot_names())


def _worker_init(parent: int) -> None:
    # Ctrl-C reaches the whole process group; the server shuts its workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _register_reducers()
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process when ``parent`` ends, even killed with SIGKILL (which runs no
    clean-up): Linux sends it SIGTERM at once; elsewhere a thread notices within a second.
    A computer players' worker ends with its server, and a server's worker process with the
    supervisor of ``bigtwo serve --workers N`` or ``--server granian``."""
    import threading

    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass
    if os.getppid() != parent:  # the server was gone before we could ask
        os._exit(0)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="bigtwo-parent-watch", daemon=True).start()


def _network() -> Any:
    """The 2018 network as a worker loads it: once per process, from its files."""
    from ..bots.ppo2018 import network

    return network()


_NETWORK_MODULE = __package__.rpartition(".")[0] + ".bots.ppo2018_net"


def _register_reducers(*, load: bool = True) -> None:
    """How decisions travel between processes: the 2018 network's bot without its 3.6 MB of
    weights (each process loads them once, see :func:`_network`, instead of having them
    pickled with every decision). The engine's values pickle by themselves. ``load=False``:
    only once the network's module is loaded (no decision can hold a network before), so
    that the server starts without numpy and the network's code (a tenth of a second)."""
    from multiprocessing.reduction import ForkingPickler

    if not load and _NETWORK_MODULE not in sys.modules:
        return
    try:
        from ..bots.ppo2018_net import Network
    except ImportError:  # pragma: no cover - numpy or the level is not installed
        return
    ForkingPickler.register(Network, lambda _net: (_network, ()))  # (again: the same)


def _shut(pool: concurrent.futures.Executor) -> None:
    """Stop a pool now: a decision in progress is not waited for."""
    processes = dict(getattr(pool, "_processes", None) or {})
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes.values():
        if process.is_alive():
            process.terminate()
    for process in processes.values():
        process.join(timeout=2)
    # With its workers gone the pool's manager thread ends at once; waiting for it lets the
    # pool release its queues' semaphores before the interpreter exits (else the resource
    # tracker finds them "leaked" at shutdown).
    pool.shutdown(wait=True)


class Thinker:
    """Runs computer decisions for every table of a server (see the module docstring).

    ``mode``: ``process`` (a pool of ``workers`` processes, default one fewer than the CPUs),
    ``thread`` (a thread pool: the loop still waits on the interpreter lock) or ``inline``
    (every level thinks on the loop, as a table without a runner does).
    """

    def __init__(self, mode: str = "process", workers: int | None = None, budget: float = 4.0):
        if mode not in MODES:
            raise ValueError(f"mode must be one of {', '.join(MODES)}")
        self.mode = mode
        self.workers = workers or max(1, (os.cpu_count() or 2) - 1)
        self.budget = budget
        self._pool: concurrent.futures.Executor | None = None
        self._late = 0  # decisions in a row that ran out of time
        # Decisions waiting for a worker, one per table, in the order their tables asked.
        self._waiting: OrderedDict[str, _Job] = OrderedDict()
        self._running: set[_Job] = set()  # decisions on a worker now
        self._asked: OrderedDict[str, float] = OrderedDict()  # table -> when it last asked
        self.moves = 0
        self.fallbacks = 0
        self.stepped_down = 0
        self.in_flight = 0
        self.worst = 0.0
        self.total = 0.0
        self.worst_wait = 0.0
        self.coaching = 0  # the coach's jobs on its worker now (see :meth:`compute`)
        self._coach: concurrent.futures.Executor | None = None

    def offloads(self, level: str) -> bool:
        """Whether a computer of ``level`` thinks in the pool (else on the caller's loop)."""
        return self.mode != "inline" and level not in INLINE_LEVELS

    # -- the pool ------------------------------------------------------------------------------
    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = self._new_pool(self.workers, "bigtwo-think")
        return self._pool

    def _new_pool(self, workers: int, name: str) -> concurrent.futures.Executor:
        if self.mode == "process":
            return concurrent.futures.ProcessPoolExecutor(
                workers,
                # Not fork: the server has threads (the store's checkpointer), and a
                # forked child could inherit a lock some thread held.
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_worker_init,
                initargs=(os.getpid(),),
            )
        return concurrent.futures.ThreadPoolExecutor(workers, thread_name_prefix=name)

    def start(self) -> None:
        """Start the workers now (they take a moment to load), without waiting for them."""
        if self.mode != "inline":
            for _ in range(self.workers):
                self._executor().submit(_warm)

    def _restart(self) -> None:
        """The computers' workers replaced (the next decision starts new ones); the coach's
        worker goes on."""
        pool, self._pool = self._pool, None
        if pool is not None:
            _shut(pool)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        coach, self._coach = self._coach, None
        for one in (pool, coach):
            if one is not None:
                _shut(one)

    # -- deciding --------------------------------------------------------------------------------
    async def think(self, request: ThinkRequest, table: str = "") -> Thought | None:
        """The cards the computer chose and its bot afterwards, or None when it ran out of
        time or failed (the table then plays the cheapest move). ``table`` names the table
        asking: a table has one decision at a time here (a newer one replaces a waiting one,
        which gets None), and tables are served in turn."""
        key = table or f"#{id(request)}"
        started = time.perf_counter()
        job = _Job(request, key, started)
        old = self._waiting.pop(key, None)
        if old is not None and not old.done.done():
            old.done.set_result(None)
        self._waiting[key] = job
        self._asked.pop(key, None)
        self._asked[key] = started
        since = started - ACTIVE_SECONDS
        while next(iter(self._asked.values())) < since:  # forget tables that stopped asking
            self._asked.popitem(last=False)
        self.in_flight += 1
        try:
            self._dispatch()
            result = await asyncio.wait_for(asyncio.shield(job.done), self.budget)
        except TimeoutError:
            self._late += 1
            self.fallbacks += 1
            log.warning(
                "a %s computer had no move after %.1f s: it plays the cheapest",
                request.level,
                self.budget,
            )
            if self._late >= STUCK_TIMEOUTS:
                log.error("computer players keep running out of time: restarting the workers")
                self._restart()
                self._late = 0
            return None
        finally:
            self.in_flight -= 1
            if self._waiting.get(key) is job:
                del self._waiting[key]
        if result is None:
            self.fallbacks += 1
            return None
        self._late = 0
        elapsed = time.perf_counter() - started
        self.moves += 1
        self.total += elapsed
        self.worst = max(self.worst, elapsed)
        return result

    async def compute(self, job: Callable[..., _T], *args: Any) -> _T:
        """``job(*args)`` for the coach (:mod:`bigtwo.server.coach`), never on the event loop:
        on the coach's own worker, made as the computers' are (a process, or a thread in
        thread mode; a thread when the computers think inline). Its own, so that a review's
        decision, which may take longer than a computer's budget, never holds up a computer
        (which would then play its cheapest move, and the pool be restarted); while it runs,
        the computers' pool counts as contended, so a slow level steps down rather than share
        the processor with it. A worker that died is replaced and the job tried once more."""
        self.coaching += 1
        try:
            if self.mode == "inline":
                return await asyncio.to_thread(job, *args)
            loop = asyncio.get_running_loop()
            _register_reducers(load=False)
            for tries in (1, 2):
                if self._coach is None:
                    self._coach = self._new_pool(1, "bigtwo-coach")
                try:
                    return await loop.run_in_executor(self._coach, job, *args)
                except BrokenProcessPool:
                    log.error("the coach's worker process died: starting a new one")
                    coach, self._coach = self._coach, None
                    if coach is not None:
                        _shut(coach)
                    if tries == 2:
                        raise
            raise AssertionError("unreachable")
        finally:
            self.coaching -= 1

    def _dispatch(self) -> None:
        """Hand waiting decisions to free workers, tables in the order they asked."""
        while self._waiting and len(self._running) < self.workers:
            _key, job = self._waiting.popitem(last=False)
            level = job.request.level
            if level in STEP_DOWN and self._contended():
                level = STEP_DOWN[level]
            self._running.add(job)
            asyncio.get_running_loop().create_task(self._run(job, level))

    def _contended(self) -> bool:
        """Whether a slow decision starting now would keep another table waiting: one is
        waiting already, or it would take the last free worker (with several), or (with a
        single worker) another table asked for one a moment ago."""
        if self._waiting or self.coaching:
            return True
        if self.workers > 1:
            return len(self._running) + 1 >= self.workers
        return self._tables_asking(CONTENDED_SECONDS) > 1

    def _tables_asking(self, seconds: float, most: int = 2) -> int:
        """How many tables asked for a decision in the last ``seconds`` (counted up to
        ``most``)."""
        since = time.perf_counter() - seconds
        count = 0
        for at in reversed(self._asked.values()):  # newest first
            if at < since or count >= most:
                break
            count += 1
        return count

    async def _run(self, job: _Job, level: str) -> None:
        """One decision on a worker, by ``level`` (the seat's own, or the one it steps down
        to). The worker stays counted as busy until it really is free (a decision past its
        budget still holds it), so nothing else queues in the pool."""
        loop = asyncio.get_running_loop()
        request = job.request
        self.worst_wait = max(self.worst_wait, time.perf_counter() - job.queued)
        _register_reducers(load=False)
        thought: Thought | None = None
        try:
            if level != request.level:
                self.stepped_down += 1
                answer = await loop.run_in_executor(
                    self._executor(),
                    _decide_as,
                    level,
                    request.computer.game,
                    request.seat,
                    request.view,
                    request.rng,
                )
                thought = Thought(answer, request.bot, level)
            else:
                bot = request.bot
                if hasattr(bot, "time_limit"):  # a bot that can stop early is told when
                    bot.time_limit = self._time_limit()
                answer, after = await loop.run_in_executor(
                    self._executor(),
                    _decide,
                    request.computer,
                    request.view,
                    request.rng,
                    request.peek,
                )
                thought = Thought(answer, after, level)
        except BrokenProcessPool:
            log.error("a computer player's worker process died: starting new ones")
            self._restart()
        except Exception:
            log.exception("a %s computer failed to choose", request.level)
        finally:
            self._running.discard(job)
            if not job.done.done():
                job.done.set_result(thought)
            self._dispatch()

    def _time_limit(self) -> float:
        """Seconds a bot that can stop early may think: half the budget, so it answers with
        its best move so far rather than be overruled; less when it holds the only worker
        (it keeps nobody waiting long)."""
        half = self.budget / 2
        if self.workers == 1 and self._tables_asking(ACTIVE_SECONDS) > 1:
            return min(half, SOLE_WORKER_TIME_LIMIT)
        return half

    def stats(self) -> dict[str, Any]:
        worst, self.worst = self.worst, 0.0
        worst_wait, self.worst_wait = self.worst_wait, 0.0
        return {
            "mode": self.mode,
            "workers": self.workers if self.mode != "inline" else 0,
            "moves": self.moves,
            "fallbacks": self.fallbacks,
            "stepped_down": self.stepped_down,
            "in_flight": self.in_flight,
            "waiting": len(self._waiting),
            "ms_mean": round(1000 * self.total / self.moves, 1) if self.moves else 0.0,
            "ms_max": round(worst * 1000, 1),
            "wait_ms_max": round(worst_wait * 1000, 1),
        }
