"""Durability: the server is killed with SIGKILL in the middle of a match, restarted on the same
database, and the clients reconnect and finish the match. Every action any client had an
acknowledgement for is in the stored log, and every numbered event a client got, before or
after the crash, is exactly the event the log rebuilds under that number. On each store back
end: SQLite, and PostgreSQL (whose server outlives ours)."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bigtwo.client import BotClient, Lobby
from test_server_support import Server, launch, restored_table, stored_commands


# A match of real processes is long: SQLite and PostgreSQL both in the slow run (make test-slow,
# CI); test_server_atomic.py checks the same promise inside one process in make test.
@pytest.mark.slow
@pytest.mark.parametrize("store_db", ["sqlite", "postgresql"], indirect=True)
async def test_sigkill_mid_match_loses_nothing_acknowledged(tmp_path: Path, store_db: str) -> None:
    server: Server = launch(tmp_path, db=store_db)
    try:
        await asyncio.wait_for(_scenario(server), 60)
    finally:
        server.stop()


async def _scenario(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(preset="textbook", deals=2, seed=99, away_seconds=None)
        code = room["code"]
        bots = []
        for i in range(4):
            seat = await lobby.join(code, f"P{i}")
            bots.append(
                BotClient(
                    seat["ws"], seat["token"], seed=i, think=0.01, keep=True, reconnect_for=30
                )
            )
    for bot in bots:
        await bot.connect()

    # Let the match get going, then kill the server without warning, twice.
    for threshold in (40, 140):
        while max(b.seen for b in bots) < threshold:
            await asyncio.sleep(0.005)
        os.kill(server.process.pid, signal.SIGKILL)
        server.process.wait()
        acked_before = sum(len(b.acked) for b in bots)
        await asyncio.sleep(0.3)  # clients notice and start retrying
        server.start()
        # Clients come back by themselves and carry on.
        await asyncio.wait_for(_progress(bots, acked_before), 20)

    await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 30)
    assert all(b.reconnects == 2 for b in bots)
    for bot in bots:
        await bot.close()

    # Every acknowledged play or pass is in the stored log.
    logged = {c["id"] for c in stored_commands(server.db, code) if c["op"] == "act" and "id" in c}
    for bot in bots:
        acked = [i for i in bot.action_ids if i in bot.acked]
        assert acked and set(acked) <= logged, f"seat {bot.state.seat} lost {set(acked) - logged}"

    # Every numbered event any client got is the event the log rebuilds under that number.
    table = restored_table(server.db, code)
    assert table.status == "finished"
    for seat, bot in enumerate(bots):
        rebuilt = {e.v: e.message() for e in table.events_since(0, seat) or []}
        numbered = [m for m in bot.messages if "v" in m and m["type"] != "sync"]
        assert numbered[-1]["type"] == "match_end"
        for msg in numbered:
            assert rebuilt[msg["v"]] == msg


async def _progress(bots: list[BotClient], acked_before: int) -> None:
    while sum(len(b.acked) for b in bots) <= acked_before + 4:
        await asyncio.sleep(0.01)
