"""``bigtwo bench abuse``: every abuse pattern of a hostile client at full speed against a real
server, while a legitimate table plays on; it measures what the server let through and what
it cost.

It starts its own ``bigtwo serve`` on a free loopback port with a fresh database, seats a
legitimate table of four network bots (from 127.0.0.1), six tables of three ``expert``
computers and one of three ``strong`` computers (each with one quick network bot), and for
``seconds`` runs every pattern below from its own source addresses in 127.0.0.0/8 (client
sockets bound to 127.0.0.2, 127.0.0.3, …), each as fast as the server answers:

each pattern of :mod:`.abuse_patterns` (chat floods, ready toggling, room floods, seat
squatting, crafted rules, cross-site posts, spectator grabs, reused action ids, sign-in
floods against one address and one name).

Per pattern it counts the requests the server accepted and those it refused. Then it
reports the database's growth (the file and its write-ahead log), the legitimate table's
action latency p99, the server's 5xx answers and internal errors (``internal`` error
messages, server errors logged), the strong table's computer wait p99, and the time the
server takes to answer again after a SIGKILL and a restart on the same database; each beside
its target, met or missed. Every loop is bounded in count and in time. It measures; it
changes nothing in the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

import httpx

from ..client import BotClient
from ..service.table import TableStatus
from .abuse_patterns import PATTERNS, Abusers
from .bench import _percentile, _raise_file_limit, _run, free_port, wait_ready

# The targets of issue 17, each: (what is measured, the largest value that meets it).
TARGETS: dict[str, tuple[str, float]] = {
    "database_growth_mb": ("database growth, MB (file and WAL)", 5.0),
    "legit_latency_ms_p99": ("legitimate table's action latency p99, ms", 100.0),
    "server_5xx": ("server 5xx answers", 0),
    "internal_errors": ("internal errors", 0),
    "restart_s": ("restart after SIGKILL, s", 1.0),
    "strong_wait_ms_p99": ("strong computers' wait p99 beside six expert tables, ms", 500.0),
}


def db_size_mb(db: Path) -> float:
    """The database with its write-ahead log and shared memory file, in MB."""
    total = 0
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            total += (db.parent / (db.name + suffix)).stat().st_size
    return total / 1e6


class Abuse(Abusers):
    """One run: the server's URL, the patterns and the legitimate tables."""

    def __init__(self, url: str, seconds: float, source_addresses: int) -> None:
        super().__init__(url, source_addresses)
        self.seconds = seconds
        self.http_5xx = 0  # beside the patterns': the legitimate tables' set-up
        self.legit: list[BotClient] = []
        self.others: list[BotClient] = []
        self.strong_waits: list[float] = []
        self.strong_pending: float | None = None  # since when a strong computer has the turn
        self.internal = 0

    # -- the tables that measure ---------------------------------------------------------------
    async def tables(self) -> None:
        """The legitimate table (four bots), six expert tables and the strong one."""
        async with httpx.AsyncClient(base_url=self.url, timeout=30, trust_env=False) as http:

            async def make(seats: list[str]) -> tuple[str, list[dict[str, Any]]]:
                made = await http.post(
                    "/api/rooms", json={"seats": seats, "deals": 1000, "away_seconds": None}
                )
                if made.status_code >= 500:
                    self.http_5xx += 1
                made.raise_for_status()
                code = made.json()["code"]
                joined = []
                for _ in range(seats.count("human")):
                    seat = await http.post(f"/api/rooms/{code}/join", json={"name": "legit"})
                    seat.raise_for_status()
                    joined.append(seat.json())
                return code, joined

            # Each table's players connect before the next table is made, as people would: the
            # server frees, and limits, seats taken but never connected to.
            self.legit_code, seats = await make(["human"] * 4)
            for i, s in enumerate(seats):
                self.legit.append(
                    BotClient(
                        s["ws"], s["token"], level="greedy", seed=i, think=0.05, reconnect=False
                    )  # fmt: skip
                )
            for bot in self.legit:
                await bot.connect(timeout=30)
            for i in range(6):
                _, seats = await make(["human"] + ["computer:expert"] * 3)
                expert = BotClient(seats[0]["ws"], seats[0]["token"], seed=f"x{i}", reconnect=False)
                self.others.append(expert)
                await expert.connect(timeout=30)
            _, seats = await make(["human"] + ["computer:strong"] * 3)
            strong = BotClient(seats[0]["ws"], seats[0]["token"], seed="s", reconnect=False)
            strong.on_message = self._computer_wait(seat=seats[0]["seat"])
            self.others.append(strong)
            await strong.connect(timeout=30)

    def _computer_wait(self, seat: int) -> Callable[[dict[str, Any]], None]:
        """Times each computer's move at the strong table: from the event that gave it the
        turn to its action (the computer delay is 0: this is all queue and thinking)."""
        waiting: dict[str, Any] = {}

        def on_message(msg: dict[str, Any]) -> None:
            kind = msg.get("type")
            now = time.perf_counter()
            if kind == "action" and waiting.get("seat") == msg.get("seat"):
                if self.live():
                    self.strong_waits.append(now - waiting["since"])
                waiting.clear()
            self.strong_pending = waiting.get("since")
            if kind in ("action", "deal") and msg.get("winner") is None:
                turn = msg.get("turn")
                if isinstance(turn, int) and turn != seat:
                    waiting.update(seat=turn, since=now)
                else:
                    waiting.clear()
            elif kind == "deal_end":
                waiting.clear()

        return on_message

    # -- the run -----------------------------------------------------------------------------
    async def run(self, progress: Callable[[float, int], None] | None) -> dict[str, Any]:
        await self.tables()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
            b.state.status == TableStatus.PLAYING for b in self.legit
        ):
            await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        self.deadline = time.monotonic() + self.seconds
        work = self.jobs()
        tasks = [asyncio.create_task(job()) for job in work.values()]
        while self.live():
            await asyncio.sleep(min(0.25, max(0.0, self.deadline - time.monotonic())))
            if progress is not None:
                done = sum(p.accepted + p.refused for p in self.patterns.values())
                progress(time.perf_counter() - t0, done)
        t1 = time.perf_counter()
        if self.strong_pending is not None:  # a move still awaited counts as waited so far
            self.strong_waits.append(t1 - self.strong_pending)
        # Each loop looks at the deadline between two requests; a request under way ends by
        # its own timeout (at most 10 s).
        _, late = await asyncio.wait(tasks, timeout=15)
        for task in late:
            task.cancel()
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                name = list(work)[tasks.index(task)]
                self.patterns[name].failures += 1
        latencies = sorted(lat for b in self.legit for sent, lat in b.latencies if t0 <= sent < t1)
        legit_actions = len(latencies)
        legit_errors = sum(len(b.refusals) + b.failures + len(b.errors) for b in self.legit)
        self.internal += sum(
            1 for b in [*self.legit, *self.others] for e in b.errors if e.get("code") == "internal"
        )
        await asyncio.gather(*(b.close() for b in [*self.legit, *self.others]))
        waits = sorted(self.strong_waits)
        return {
            "seconds": round(t1 - t0, 2),
            "patterns": {name: p.summary() for name, p in self.patterns.items()},
            "source_addresses": {name: p.addresses for name, p in self.patterns.items()},
            "legit_actions": legit_actions,
            "legit_errors": legit_errors,
            "legit_latency_ms_p50": _ms(latencies, 0.50),
            "legit_latency_ms_p99": _ms(latencies, 0.99),
            "strong_moves": len(waits),
            "strong_wait_ms_p50": round(_percentile(waits, 0.50) * 1000, 1) if waits else None,
            "strong_wait_ms_p99": round(_percentile(waits, 0.99) * 1000, 1) if waits else None,
            "server_5xx": self.http_5xx + sum(p.server_errors for p in self.patterns.values()),
            "internal_errors": self.internal + sum(p.internal for p in self.patterns.values()),
        }


def _ms(sorted_seconds: list[float], fraction: float) -> float | None:
    """A percentile in milliseconds; None when nothing was measured (a target then missed)."""
    return round(_percentile(sorted_seconds, fraction) * 1000, 2) if sorted_seconds else None


def _start(port: int, db: Path, log: IO[bytes]) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "bigtwo.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", str(db), "--log-level", "warning",
    ]  # fmt: skip
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def _logged_errors(path: Path) -> list[str]:
    """The errors the server logged (``ERROR`` lines: each failure it caught)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL"))]


def _restart_seconds(port: int, db: Path, server: subprocess.Popen[bytes], log: IO[bytes]) -> Any:
    """SIGKILL the server, start it again on the same database, and time until it answers."""
    server.send_signal(signal.SIGKILL)
    server.wait()
    start = time.perf_counter()
    again = _start(port, db, log)
    try:
        wait_ready(f"http://127.0.0.1:{port}", timeout=60, process=again)
        return round(time.perf_counter() - start, 3), again
    except RuntimeError:
        return None, again


def targets(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each target beside its figure, met or missed (a figure not measured: missed)."""
    out = {}
    for key, (what, limit) in TARGETS.items():
        value = result.get(key)
        if key in ("server_5xx", "internal_errors"):
            met = value == 0
        else:
            met = value is not None and value < limit
        out[key] = {"what": what, "target": f"< {limit:g}" if limit else "0", "value": value,
                    "met": met}  # fmt: skip
    return out


def run_abuse(
    seconds: float = 30.0,
    *,
    source_addresses: int = 3,
    progress: Callable[[float, int], None] | None = None,
) -> dict[str, Any]:
    """Run every pattern against a fresh server for ``seconds``; see the module docstring."""
    if seconds <= 0 or source_addresses < 1:
        raise ValueError("--seconds and --addresses must be positive")
    if 2 + len(PATTERNS) * source_addresses > 254:
        most = 252 // len(PATTERNS)
        raise ValueError(f"at most {most} source addresses per pattern fit in 127.0.0.0/24")
    _raise_file_limit()
    with tempfile.TemporaryDirectory(prefix="bigtwo-abuse-") as tmp:
        db = Path(tmp) / "abuse.sqlite3"
        log_path = Path(tmp) / "server.log"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        load_before = os.getloadavg()[0]
        with open(log_path, "wb") as log:
            server = _start(port, db, log)
            try:
                wait_ready(base, process=server)
                before = db_size_mb(db)
                abuse = Abuse(base, seconds, source_addresses)
                result = _run(abuse.run(progress))
                result["database_mb_before"] = round(before, 2)
                result["database_mb_after"] = round(db_size_mb(db), 2)
                result["database_growth_mb"] = round(db_size_mb(db) - before, 2)
                logged = _logged_errors(log_path)
                result["server_logged_errors"] = len(logged)
                result["server_logged_error_kinds"] = sorted(set(logged))[:10]
                result["internal_errors"] += len(logged)
                result["restart_s"], server = _restart_seconds(port, db, server, log)
            finally:
                if server.poll() is None:
                    server.terminate()
                    try:
                        server.wait(10)
                    except subprocess.TimeoutExpired:
                        server.kill()
                        server.wait()
    result["cpus"] = os.cpu_count()
    result["load_avg_1m_before"] = round(load_before, 2)
    result["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    result["targets"] = targets(result)
    return result
