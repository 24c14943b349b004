"""One rating update per finished game even when a node dies in the middle of it: a rated
game played on one node of a cluster (real ``bigtwo serve`` processes over a PostgreSQL schema
of the test's own and the test Redis), its settlement caught half written (the test holds a
lock on the ratings, so the node's transaction has marked the room settled and written each
seat's change, and waits to write the new rating), the node killed there (SIGKILL, as the
cluster's tests and bench kill one), and the other node settling the game: once, with the
figures OpenSkill gives, and never again when asked once more."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import psycopg
from openskill.models import PlackettLuce

from bigtwo.client import BotClient
from bigtwo.server.ratings import computer_rating, shown
from test_cluster import nodes  # noqa: F401  (the fixture: two nodes of one cluster)
from test_server_support import Server

PASSWORD = "correct horse battery"


def _one(db: str, sql: str, params: tuple[Any, ...] = ()) -> Any:
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(sql, params).fetchone()
    assert row is not None
    return row[0]


async def _waiting_on_ratings(db: str, seconds: float = 60) -> None:
    """Until another connection waits for the lock on the ratings table."""
    deadline = time.monotonic() + seconds
    query = "SELECT COUNT(*) FROM pg_locks WHERE NOT granted AND relation = 'ratings'::regclass"
    while _one(db, query) == 0:
        assert time.monotonic() < deadline, "the game was never settled"
        await asyncio.sleep(0.05)


async def _settled(http: httpx.AsyncClient, node: Server, code: str) -> dict[str, Any]:
    """The room's rated game as ``node`` answers, once it is settled (the dead node's lease
    lapses first)."""
    deadline = time.monotonic() + 60
    while True:
        try:
            answer = await http.get(f"{node.url}/api/rooms/{code}/rated")
            if answer.status_code == 200 and answer.json()["settled"]:
                return dict(answer.json())
        except httpx.HTTPError:
            pass
        assert time.monotonic() < deadline, "the other node never settled the game"
        await asyncio.sleep(0.2)


async def test_a_node_killed_mid_settlement_leaves_one_rating_update(
    nodes: tuple[Server, Server],  # noqa: F811
) -> None:
    owner, other = nodes
    db = str(owner.db)
    async with httpx.AsyncClient(timeout=10) as http:
        made = await http.post(
            f"{owner.url}/api/account/register", json={"name": "Ann Lee", "password": PASSWORD}
        )
        assert made.status_code == 201, made.text
        seats = ["human"] + ["computer:greedy"] * 3
        room = await http.post(
            f"{owner.url}/api/rooms", json={"preset": "textbook", "seats": seats}
        )
        code = room.json()["code"]
        joined = (
            await http.post(f"{owner.url}/api/rooms/{code}/join", json={"name": "Ann"})
        ).json()
        token = joined["token"]
        kept = await http.post(
            f"{owner.url}/api/account/seats", json={"code": code, "token": token}
        )
        assert kept.status_code == 200, kept.text
        rated = await http.post(f"{owner.url}/api/rooms/{code}/rated", json={"token": token})
        assert rated.json()["rated"], rated.text

        # Writing ratings waits for the test: the node's settlement stops half way.
        with psycopg.connect(db) as lock:
            lock.execute("LOCK TABLE ratings IN SHARE MODE")
            bot = BotClient(joined["ws"], token, level="greedy", think=0.0)
            await bot.connect()
            try:
                await asyncio.wait_for(bot.finished.wait(), 60)
            finally:
                await bot.close()
            await _waiting_on_ratings(db)
            # Half written, nothing of it seen outside its transaction.
            unsettled = "SELECT COUNT(*) FROM rated_rooms WHERE code = %s AND settled IS NULL"
            assert _one(db, unsettled, (code,)) == 1
            assert _one(db, "SELECT COUNT(*) FROM rating_changes WHERE code = %s", (code,)) == 0
            owner.process.kill()  # SIGKILL, mid-update
            owner.process.wait()
            lock.rollback()

        answer = await _settled(http, other, code)
        again = await _settled(http, other, code)
        me = (await http.get(f"{other.url}/api/account")).json()

    assert answer == again and answer["outcome"] == "rated"
    assert [s["who"] for s in answer["seats"]] == ["account", "computer", "computer", "computer"]
    assert _one(db, "SELECT COUNT(*) FROM rating_changes WHERE code = %s", (code,)) == 4
    assert _one(db, "SELECT COUNT(*) FROM ratings") == 1
    # One game counted, rated as OpenSkill rates it.
    model = PlackettLuce()
    fixed = model.rating(*computer_rating("greedy", "bigtwo"))
    finish = [s["place"] for s in answer["seats"]]
    assert sorted(finish)[:2] == [1, 2]  # one winner: the one who went out
    after = model.rate([[model.rating()], [fixed], [fixed], [fixed]], ranks=finish)[0][0]
    assert me["ratings"]["bigtwo"]["games"] == 1
    assert me["ratings"]["bigtwo"]["rating"] == shown(after.mu, after.sigma)
    assert answer["seats"][0]["after"] == shown(after.mu, after.sigma)
