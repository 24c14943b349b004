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
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import signal
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..bots.base import Bot
from ..engine.cards import Mask
from ..service.table import ThinkRequest

log = logging.getLogger(__name__)

INLINE_LEVELS = frozenset({"random", "greedy"})  # microseconds: not worth a trip to a worker
MODES = ("process", "thread", "inline")
STUCK_TIMEOUTS = 3  # this many decisions in a row out of time: the workers are replaced


def _decide(bot: Bot, view: Any, rng: Any, peek: Any) -> tuple[Mask | None, Bot]:
    """In a worker: one decision. Returns the cards chosen (a mask; None: pass) and the bot."""
    if peek is not None:
        bot.peek(peek)
    play = bot.choose(view, rng)
    return (None if play is None else play.mask), bot


def _warm() -> int:
    """In a worker: load every computer level once, so the first real decision is quick."""
    from ..bots import bot_names

    return len(bot_names())


def _worker_init(parent: int) -> None:
    # Ctrl-C reaches the whole process group; the server shuts its workers down itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _register_reducers()
    _die_with(parent)


def _die_with(parent: int) -> None:
    """End this worker when the server process ends, even killed with SIGKILL (which runs
    no clean-up): Linux signals the worker at once; elsewhere a thread notices within a
    second."""
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


def _register_reducers() -> None:
    """How decisions travel between processes: the 2018 network's bot without its 3.6 MB of
    weights (each process loads them once, see :func:`_network`, instead of having them
    pickled with every decision). The engine's values pickle by themselves."""
    from multiprocessing.reduction import ForkingPickler

    try:
        from ..bots.ppo2018_net import Network
    except ImportError:  # pragma: no cover - numpy or the level is not installed
        return
    ForkingPickler.register(Network, lambda _net: (_network, ()))


_register_reducers()


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
        self.moves = 0
        self.fallbacks = 0
        self.in_flight = 0
        self.worst = 0.0
        self.total = 0.0

    def offloads(self, level: str) -> bool:
        """Whether a computer of ``level`` thinks in the pool (else on the caller's loop)."""
        return self.mode != "inline" and level not in INLINE_LEVELS

    # -- the pool ------------------------------------------------------------------------------
    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            if self.mode == "process":
                self._pool = concurrent.futures.ProcessPoolExecutor(
                    self.workers,
                    # Not fork: the server has threads (the store's checkpointer), and a
                    # forked child could inherit a lock some thread held.
                    mp_context=multiprocessing.get_context("spawn"),
                    initializer=_worker_init,
                    initargs=(os.getpid(),),
                )
            else:
                self._pool = concurrent.futures.ThreadPoolExecutor(
                    self.workers, thread_name_prefix="bigtwo-think"
                )
        return self._pool

    def start(self) -> None:
        """Start the workers now (they take a moment to load), without waiting for them."""
        if self.mode != "inline":
            for _ in range(self.workers):
                self._executor().submit(_warm)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is None:
            return
        processes = dict(getattr(pool, "_processes", None) or {})
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes.values():  # a decision in progress is not waited for
            if process.is_alive():
                process.terminate()

    # -- deciding --------------------------------------------------------------------------------
    async def think(self, request: ThinkRequest) -> tuple[Mask | None, Bot] | None:
        """The cards the computer chose and its bot afterwards, or None when it ran out of
        time or failed (the table then plays the cheapest move)."""
        loop = asyncio.get_running_loop()
        bot = request.bot
        if getattr(bot, "time_limit", 0) is None:  # a bot that can stop early is told when
            bot.time_limit = self.budget / 2  # type: ignore[attr-defined]
        started = time.perf_counter()
        self.in_flight += 1
        try:
            future = loop.run_in_executor(
                self._executor(), _decide, bot, request.view, request.rng, request.peek
            )
            result = await asyncio.wait_for(future, self.budget)
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
                self.close()
                self._late = 0
            return None
        except BrokenProcessPool:
            self.fallbacks += 1
            log.error("a computer player's worker process died: starting new ones")
            self.close()
            return None
        except Exception:
            self.fallbacks += 1
            log.exception("a %s computer failed to choose", request.level)
            return None
        finally:
            self.in_flight -= 1
        self._late = 0
        elapsed = time.perf_counter() - started
        self.moves += 1
        self.total += elapsed
        self.worst = max(self.worst, elapsed)
        return result

    def stats(self) -> dict[str, Any]:
        worst, self.worst = self.worst, 0.0
        return {
            "mode": self.mode,
            "workers": self.workers if self.mode != "inline" else 0,
            "moves": self.moves,
            "fallbacks": self.fallbacks,
            "in_flight": self.in_flight,
            "ms_mean": round(1000 * self.total / self.moves, 1) if self.moves else 0.0,
            "ms_max": round(worst * 1000, 1),
        }
