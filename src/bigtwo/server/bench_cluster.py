"""``bigtwo bench cluster``: tables of network computer players against several nodes.

It makes a fresh PostgreSQL database, starts ``nodes`` processes of ``bigtwo serve --cluster``
on free loopback ports over it and the given Redis, creates ``tables`` rooms spread over the
nodes (each node runs the tables made on it), and seats a
:class:`~bigtwo.client.BotClient` in every seat, each joining and connecting through a
node drawn at random, so that most players reach their table through another node. Then it
measures for ``seconds`` as ``bigtwo bench server`` does (each bot thinks ``think`` seconds,
±50 %, and times the acknowledgement of each action). With ``kill_one`` it kills one node
(SIGKILL) halfway through, and reports how long until every table that node ran played again
elsewhere, the latency outside that takeover window, and, from the stored logs, how many
acknowledged actions are missing (lost) or stored more than once (duplicated).
"""

from __future__ import annotations

import asyncio
import collections
import os
import random
import secrets
import signal
import subprocess
import tempfile
import time
from typing import Any

import httpx

from ..client import BotClient, Lobby
from ..service.commands import Command
from ..service.config import TableConfig
from ..service.table import TableService
from ..store.tables import open_store
from .bench import (
    _cpu_seconds,
    _percentile,
    _raise_file_limit,
    _run,
    free_port,
    start_server,
    wait_ready,
)
from .collector import collection_paused

ADMIN_DB = "postgresql://postgres@127.0.0.1:5432/postgres"
REDIS = "redis://127.0.0.1:6379/0"


def run_cluster_bench(
    nodes: int = 3,
    tables: int = 60,
    seconds: float = 20.0,
    *,
    kill_one: bool = False,
    think: float = 0.5,
    level: str = "greedy",
    admin_db: str = ADMIN_DB,
    redis_url: str = REDIS,
) -> dict[str, Any]:
    """Run the benchmark and return its figures (see the module docstring). ``admin_db``: a
    PostgreSQL database whose user may create databases (the bench makes its own and drops
    it afterwards)."""
    import psycopg
    from psycopg import sql

    if kill_one and nodes < 2:
        raise ValueError("--kill-one needs at least two nodes")
    _raise_file_limit()
    name = f"bigtwo_bench_{secrets.token_hex(4)}"
    with psycopg.connect(admin_db, autocommit=True, connect_timeout=5) as admin:
        admin.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    db_url = admin_db.rsplit("/", 1)[0] + "/" + name
    processes: list[subprocess.Popen[bytes]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="bigtwo-cluster-"):
            token = secrets.token_urlsafe(16)
            limits = [
                "--rooms-per-address", "0", "--rooms-per-minute", "0", "--seats-per-address", "0",
                "--cluster", redis_url,
            ]  # fmt: skip
            urls = []
            victim = nodes - 1 if kill_one else None  # the node killed halfway
            for node in range(nodes):
                port = free_port()
                # The node killed leaves its computers' pool behind: the pool's resource
                # tracker frees its semaphores and need not warn of them.
                killed = node == victim
                env = {"PYTHONWARNINGS": "ignore:resource_tracker:UserWarning"} if killed else {}
                processes.append(
                    start_server(port, db_url, extra=limits, stats_token=token, env=env)
                )
                urls.append(f"http://127.0.0.1:{port}")
            for url, process in zip(urls, processes, strict=True):
                wait_ready(url, process=process)
            result = _run(
                _bench(
                    urls,
                    processes,
                    tables,
                    seconds,
                    think,
                    level,
                    victim,
                    token,
                    db_url,
                    redis_url,
                )  # fmt: skip
            )
    finally:
        for process in processes:
            if process.poll() is None:
                process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        with psycopg.connect(admin_db, autocommit=True) as admin:
            admin.execute(
                sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)").format(sql.Identifier(name))
            )
    return result


def _resources(
    processes: list[subprocess.Popen[bytes]], db_url: str, redis_url: str
) -> dict[str, Any]:
    """What the cluster has used so far: each node's CPU seconds (by process id; None once
    it is gone), the database's committed transactions and rows written, and the commands
    Redis served."""
    import psycopg
    import redis

    cpu = {p.pid: _cpu_seconds(p.pid) if p.poll() is None else None for p in processes}
    with psycopg.connect(db_url, autocommit=True) as db:
        row = db.execute(
            "SELECT xact_commit, tup_inserted + tup_updated + tup_deleted "
            "FROM pg_stat_database WHERE datname = current_database()"
        ).fetchone()
    client = redis.Redis.from_url(redis_url)
    try:
        served = client.info("stats")["total_commands_processed"]
    finally:
        client.close()
    commits, rows = row if row is not None else (0, 0)
    return {
        "node_cpu_s": cpu,
        "postgres_commits": float(commits),
        "postgres_rows_written": float(rows),
        "redis_commands": float(served),
    }


async def _bench(
    urls: list[str],
    processes: list[subprocess.Popen[bytes]],
    tables: int,
    seconds: float,
    think: float,
    level: str,
    victim: int | None,
    token: str,
    db_url: str,
    redis_url: str,
) -> dict[str, Any]:
    rng = random.Random(1)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=30, limits=limits, trust_env=False) as http:
        lobbies = [Lobby(url, client=http) for url in urls]
        gate = asyncio.Semaphore(32)

        async def make_table(i: int) -> tuple[str, list[dict[str, Any]]]:
            async with gate:
                owner = lobbies[i % len(lobbies)]
                room = await owner.create_room(seats=["human"] * 4, deals=1000, away_seconds=None)
                code = room["code"]
                seats = [await rng.choice(lobbies).join(code, f"bot{i}-{s}") for s in range(4)]
                return code, seats

        setup_start = time.perf_counter()
        made = await asyncio.gather(*(make_table(i) for i in range(tables)))
        owner_of = {code: i % len(urls) for i, (code, _) in enumerate(made)}
        bots: list[BotClient] = []
        table_of: dict[int, str] = {}
        for code, seats in made:
            for s in seats:
                ws = s["ws"]
                elsewhere = [u.replace("http://", "ws://") + f"/ws/{code}" for u in urls]
                bot = BotClient(
                    ws,
                    s["token"],
                    level=level,
                    think=think * rng.uniform(0.5, 1.5),
                    also=[u for u in elsewhere if u != ws],
                )
                table_of[id(bot)] = code
                bots.append(bot)

        async def open_one(bot: BotClient) -> None:
            async with gate:
                await bot.connect(timeout=30)

        await asyncio.gather(*(open_one(b) for b in bots))
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not all(b.state.status == "playing" for b in bots):
            await asyncio.sleep(0.05)
        setup_seconds = time.perf_counter() - setup_start
        with collection_paused():  # the bots measure: no pauses of their own (bench.py)
            await asyncio.sleep(min(2.0, max(0.5, think * 2)))
            stats = [await lobby.stats(token) for lobby in lobbies]
            before = _resources(processes, db_url, redis_url)
            t0 = time.perf_counter()
            killed_at = None
            if victim is not None:
                await asyncio.sleep(seconds / 2)
                killed_at = time.perf_counter()
                processes[victim].send_signal(signal.SIGKILL)
                await asyncio.sleep(seconds / 2)
            else:
                await asyncio.sleep(seconds)
            t1 = time.perf_counter()
            after = _resources(processes, db_url, redis_url)
        actions = [(sent, lat, table_of[id(b)]) for b in bots for sent, lat in b.latencies]
        acked: dict[tuple[str, int], list[tuple[str, int]]] = collections.defaultdict(list)
        for bot in bots:
            seat = bot.state.seat
            for action in bot.action_ids:
                if action in bot.acked and seat is not None:
                    acked[table_of[id(bot)], seat].append((action, bot.acked[action]))
        dropped = sum(1 for b in bots if b.closed.is_set())
        refusals = sum(len(b.refusals) for b in bots)
        failures = sum(b.failures for b in bots)
        stray = sum(len(b.errors) for b in bots)
        reconnects = sum(b.reconnects for b in bots)
        await asyncio.gather(*(b.close() for b in bots), return_exceptions=True)

    window = [(sent, lat, code) for sent, lat, code in actions if t0 <= sent < t1]
    takeover = None
    resumed: list[float] = []
    quiet = window
    if killed_at is not None and victim is not None:
        theirs = {code for code, node in owner_of.items() if node == victim}
        first_after: dict[str, float] = {}
        for sent, lat, code in window:
            if code in theirs and sent >= killed_at:
                done = sent + lat
                first_after[code] = min(first_after.get(code, done), done)
        resumed = sorted(t - killed_at for t in first_after.values())
        if len(first_after) == len(theirs):
            takeover = resumed[-1]
        end = killed_at + (takeover if takeover is not None else t1 - killed_at)
        quiet = [(s, lat, c) for s, lat, c in window if not killed_at - 1.0 <= s < end]
    lost, duplicated = _check_logs(db_url, acked)
    used = {k: after[k] - before[k] for k in before if k != "node_cpu_s"}
    # The nodes alive to the end (a killed node's share is not known).
    used["node_cpu_s"] = sum(
        cpu - before["node_cpu_s"][pid]
        for pid, cpu in after["node_cpu_s"].items()
        if cpu is not None and before["node_cpu_s"][pid] is not None
    )
    per_action = {k: round(v / max(1, len(window)), 3) for k, v in used.items()}
    per_action["node_cpu_ms"] = round(1000 * used["node_cpu_s"] / max(1, len(window)), 3)
    del per_action["node_cpu_s"]
    latencies = sorted(lat for _, lat, _ in quiet)
    span = t1 - t0
    return {
        "nodes": len(urls),
        "tables": tables,
        "connections": len(bots),
        "seconds": round(span, 2),
        "think_ms": round(think * 1000),
        "actions": len(window),
        "actions_per_second": round(len(window) / span, 1),
        "latency_ms_p50": round(_percentile(latencies, 0.50) * 1000, 2),
        "latency_ms_p99": round(_percentile(latencies, 0.99) * 1000, 2),
        "latency_ms_max": round((latencies[-1] if latencies else 0.0) * 1000, 2),
        "latency_outside_takeover": killed_at is not None,
        "errors": refusals + failures + stray,
        "error_detail": {"refused": refusals, "timeouts": failures, "unexpected": stray},
        "dropped_connections": dropped,
        "reconnects": reconnects,
        "acknowledged_actions": sum(len(v) for v in acked.values()),
        "lost_acknowledged_actions": lost,
        "duplicated_actions": duplicated,
        "killed_node_tables": sum(1 for n in owner_of.values() if n == victim),
        "takeover_seconds": None if takeover is None else round(takeover, 2),
        "takeover_seconds_median": round(_percentile(resumed, 0.5), 2) if resumed else None,
        "killed_node_tables_resumed": len(resumed),
        "setup_seconds": round(setup_seconds, 1),
        "node_rss_mb": [s.get("rss_mb") for s in stats],
        "node_cpu_percent": round(100 * used["node_cpu_s"] / span, 1),
        "per_action": per_action,
        "cpus": os.cpu_count(),
    }


def _check_logs(
    db_url: str, acked: dict[tuple[str, int], list[tuple[str, int]]]
) -> tuple[int, int]:
    """Acknowledged actions the stored tables do not hold as acknowledged, and actions stored
    twice. Each table is rebuilt from its snapshot and log, as a node taking it over would:
    each seat remembers the ids of its last 512 actions with the event each became, so every
    action of the bench can be checked (a seat makes a few dozen a minute)."""
    store = open_store(db_url)
    lost = duplicated = 0
    try:
        for code in {code for code, _ in acked}:
            room = store.load(code)
            if room is None:
                lost += sum(len(v) for (c, _), v in acked.items() if c == code)
                continue
            table = TableService.restore(
                TableConfig.from_json(room.config),
                code,
                [Command.from_log(c) for c in room.commands],
                0.0,
                snapshot=room.snapshot,
                resync_gap=10**9,
            )
            for (c, seat), actions in acked.items():
                if c == code:
                    held = table.seats[seat].applied
                    lost += sum(1 for a, v in actions if a not in held or held[a][0] != v)
            stored = collections.Counter(c.get("id") for c in room.commands if c.get("id"))
            duplicated += sum(n - 1 for n in stored.values() if n > 1)
    finally:
        store.close()
    return lost, duplicated
