"""``bigtwo serve --workers N``: N processes on one port, each a node of the cluster, so that a
node uses more than one core of its machine. A game whose four players connect through the one
port, reaching whichever process the system hands each connection to, is played to its end with
every acknowledged action applied once, on uvicorn's workers and on Granian's; on uvicorn's,
every WebSocket reaches the process that runs its table (handed over by the process that
accepted it, none forwarded through Redis); without a cluster the option is refused in
words."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from test_cluster import _applied_once, _four_players_through, _play
from test_server_support import STATS_TOKEN, Server, launch


def _workers(pid: int) -> list[int]:
    """The server's worker processes: its children but multiprocessing's resource tracker
    (uvicorn spawns its workers, Granian forks them)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    tracker = b"resource_tracker"
    return [int(c) for c in children if tracker not in Path(f"/proc/{c}/cmdline").read_bytes()]


def _stats_of_each_worker(server: Server, workers: int) -> list[dict[str, Any]]:
    """``/api/stats`` of every worker: asked on a new connection each time, which reaches
    whichever worker the system hands it to, until each has answered."""
    seen: dict[str, dict[str, Any]] = {}
    auth = {"Authorization": f"Bearer {STATS_TOKEN}"}
    for _ in range(60):
        stats = httpx.get(f"{server.url}/api/stats", headers=auth, timeout=10).json()
        seen[stats["node"]] = stats
        if len(seen) == workers:
            break
    assert len(seen) == workers
    return list(seen.values())


@pytest.mark.parametrize("asgi_server", ["uvicorn", "granian"])
async def test_a_game_is_played_through_two_worker_processes_on_one_port(
    asgi_server: str, tmp_path: Path, postgres: Any, redis_url: str
) -> None:
    if asgi_server == "granian":
        pytest.importorskip("granian")
    options = ["--cluster", redis_url, "--workers", "2", "--server", asgi_server]
    with postgres.schema() as db:
        server = launch(tmp_path, options, db=db)
        try:
            assert len(_workers(server.process.pid)) == 2
            code, bots = await _four_players_through(server, server, deals=1)
            try:
                await _play(bots)
            finally:
                for bot in bots:
                    await asyncio.shield(bot.close())
            assert [b.state.status for b in bots] == ["finished"] * 4
            assert len({b.seen for b in bots}) == 1  # the same numbered events reached all
            record = httpx.get(f"{server.url}/api/rooms/{code}/record", timeout=10).json()
            assert len(record["deals"]) == 1
            _applied_once(bots, str(db), code)
            workers = _stats_of_each_worker(server, 2)
            handed = sum(w["ws_handed_off"] for w in workers)
            assert handed == sum(w["ws_adopted"] for w in workers)
            if asgi_server == "uvicorn":  # no WebSocket went the long way, through Redis
                assert sum(w["ws_forwarded"] for w in workers) == 0
            else:  # Granian has no direct path to hand a socket over
                assert handed == 0
        finally:
            server.stop()
        assert server.process.returncode == 0


def test_workers_without_a_cluster_are_refused_in_words(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bigtwo", "serve", "--workers", "2", "--db", str(tmp_path / "t")],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "bigtwo serve: --workers 2 runs 2 nodes of a cluster on this port: it needs "
        "--cluster redis://host:port/db and --db postgresql://..."
    )
