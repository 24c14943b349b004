"""Several servers as one (``bigtwo serve --cluster``): a game played through two nodes, a
node killed mid-deal and its table finished on another, and a node that shuts down handing
its tables over at once. Real ``bigtwo serve`` processes on a PostgreSQL schema of the test's
own and the test Redis."""

from __future__ import annotations

import asyncio
import collections
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from bigtwo.client import BotClient
from bigtwo.server.cluster import cluster_prefix, decode_asgi, encode_asgi
from test_server_support import STATS_TOKEN, Server, launch, stored_commands


@pytest.fixture
def nodes(
    tmp_path: Path, request: pytest.FixtureRequest, redis_url: str
) -> Iterator[tuple[Server, Server]]:
    """Two nodes of one cluster over a fresh PostgreSQL schema."""
    schemas = request.getfixturevalue("postgres")
    with schemas.schema() as db:
        first = launch(tmp_path, ["--cluster", redis_url], db=db)
        try:
            second = launch(tmp_path, ["--cluster", redis_url], db=db)
        except Exception:
            first.stop()
            raise
        try:
            yield first, second
        finally:
            second.stop()
            first.stop()


def _tables(node: Server) -> int:
    answer = httpx.get(
        node.url + "/api/stats", headers={"Authorization": f"Bearer {STATS_TOKEN}"}, timeout=10
    )
    return int(answer.json()["tables"])


async def _room(owner: Server, seats: list[str], deals: int) -> str:
    async with httpx.AsyncClient(timeout=10) as http:
        made = await http.post(owner.url + "/api/rooms", json={"seats": seats, "deals": deals})
        assert made.status_code == 201, made.text
        return str(made.json()["code"])


async def _join(node: Server, code: str, name: str) -> dict[str, Any]:
    async with httpx.AsyncClient(timeout=10) as http:
        joined = await http.post(f"{node.url}/api/rooms/{code}/join", json={"name": name})
        assert joined.status_code == 200, joined.text
        return dict(joined.json())


async def _four_players_through(
    node: Server, owner: Server, deals: int, **options: Any
) -> tuple[str, list[BotClient]]:
    """A table made on ``owner`` whose four players join and play through ``node``;
    ``options``: more of :class:`BotClient`'s."""
    code = await _room(owner, ["human"] * 4, deals=deals)
    seated = [await _join(node, code, f"P{i}") for i in range(4)]
    bots = [BotClient(s["ws"], s["token"], level="greedy", think=0.02, **options) for s in seated]
    for bot in bots:
        await bot.connect()
    return code, bots


async def _seen(bots: list[BotClient], events: int, seconds: float = 60) -> None:
    """Wait until a player has seen ``events`` events of the table."""

    async def enough() -> None:
        while max(b.seen for b in bots) < events:
            await asyncio.sleep(0.02)

    await asyncio.wait_for(enough(), seconds)


async def _play(bots: list[BotClient], seconds: float = 90) -> None:
    await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), seconds)


def _applied_once(bots: list[BotClient], db: str, code: str) -> None:
    """Every action the server acknowledged is in the stored log, exactly once."""
    logged = collections.Counter(c.get("id") for c in stored_commands(db, code) if c.get("id"))
    acked = [i for b in bots for i in b.acked if i in b.action_ids]
    assert acked
    assert [i for i in acked if logged[i] != 1] == []


def test_asgi_messages_cross_the_cluster_unchanged() -> None:
    message = {
        "type": "http.request",
        "body": b"\x00\xff{}",
        "more_body": False,
        "headers": [(b"host", b"x")],
    }
    assert decode_asgi(json.loads(json.dumps(encode_asgi(message)))) == message
    assert cluster_prefix("postgresql://a/b") != cluster_prefix("postgresql://a/c")


async def test_a_game_played_through_two_nodes(nodes: tuple[Server, Server]) -> None:
    owner, other = nodes
    code = await _room(owner, ["human", "human", "computer", "computer"], deals=2)
    for _ in range(100):  # the other node's lobby lists it within a second or so
        listed = httpx.get(other.url + "/api/rooms", timeout=10).json()["rooms"]
        if [room["code"] for room in listed] == [code]:
            break
        await asyncio.sleep(0.1)
    assert [room["code"] for room in listed] == [code]
    seated = [await _join(owner, code, "Ann"), await _join(other, code, "Bob")]
    assert seated[1]["ws"].startswith(other.ws_base)  # Bob plays through the other node
    bots = [BotClient(s["ws"], s["token"], level="greedy") for s in seated]
    for bot in bots:
        await bot.connect()
    try:
        await _play(bots)
    finally:
        for bot in bots:
            await bot.close()
    assert [b.state.status for b in bots] == ["finished", "finished"]
    assert bots[0].seen == bots[1].seen  # the same numbered events reached both
    assert (_tables(owner), _tables(other)) == (1, 0)  # one node ran it, the other forwarded
    records = [
        httpx.get(f"{node.url}/api/rooms/{code}/record", timeout=10).json()
        for node in (owner, other)
    ]
    assert records[0] == records[1] and records[0]["deals"]
    _applied_once(bots, str(owner.db), code)


async def test_a_node_killed_mid_deal_and_its_game_finished_on_another(
    nodes: tuple[Server, Server],
) -> None:
    owner, other = nodes
    code, bots = await _four_players_through(other, owner, deals=2)
    try:
        await _seen(bots, 30)  # the first deal is under way
        assert not any(b.finished.is_set() for b in bots)
        owner.process.kill()  # SIGKILL: no goodbye, its leases lapse
        killed = time.monotonic()
        owner.process.wait()
        await _play(bots)
        took = time.monotonic() - killed
    finally:
        for bot in bots:
            await bot.close()
    assert all(b.reconnects >= 1 for b in bots)
    assert sum(len(b.refusals) for b in bots) == 0
    print(f"killed the owner; the match finished on the other node {took:.1f} s later")
    assert _tables(other) == 1
    _applied_once(bots, str(owner.db), code)


async def test_a_node_shutting_down_hands_its_tables_over_at_once(
    nodes: tuple[Server, Server], redis_url: str
) -> None:
    import redis

    owner, other = nodes
    code, bots = await _four_players_through(other, owner, deals=1)
    lease = f"{cluster_prefix(str(owner.db))}lease:{code}"
    client = redis.Redis.from_url(redis_url)
    try:
        held_by = client.get(lease)
        assert held_by is not None
        await _seen(bots, 20)
        owner.process.terminate()  # SIGTERM: the node gives its leases back as it goes
        owner.process.wait()
        assert client.get(lease) != held_by  # given back, not left to lapse
        await _play(bots)
    finally:
        client.close()
        for bot in bots:
            await bot.close()
    assert sum(len(b.refusals) for b in bots) == 0
    _applied_once(bots, str(owner.db), code)


@pytest.mark.slow
def test_the_cluster_bench_kills_a_node_and_loses_no_acknowledged_action(
    postgres: Any, redis_url: str, capfd: pytest.CaptureFixture[str]
) -> None:
    from bigtwo.server.bench_cluster import run_cluster_bench

    figures = run_cluster_bench(
        2, 6, 12.0, kill_one=True, think=0.2, admin_db=postgres.url, redis_url=redis_url
    )
    assert figures["killed_node_tables"] == 3
    assert figures["takeover_seconds"] is not None  # every table of the killed node played on
    assert figures["acknowledged_actions"] > 50
    assert (figures["lost_acknowledged_actions"], figures["duplicated_actions"]) == (0, 0)
    assert figures["errors"] == 0
    # The killed node's pool is cleaned up without a warning of "leaked semaphore objects".
    assert "resource_tracker" not in capfd.readouterr().err


def test_a_cluster_needs_a_shared_database_and_says_so(tmp_path: Path, redis_url: str) -> None:
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-m", "bigtwo.cli", "serve", "--db", str(tmp_path / "t.sqlite3"),
         "--cluster", redis_url],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--cluster needs the nodes' shared database" in done.stderr
    assert "Traceback" not in done.stderr
    done = subprocess.run(
        [sys.executable, "-m", "bigtwo.cli", "serve", "--db", "postgresql://x@127.0.0.1:1/y",
         "--cluster", "redis://127.0.0.1:1/0"],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 2
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in done.stderr
    assert "Traceback" not in done.stderr
