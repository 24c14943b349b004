"""Floods by reconnecting, and a store that stays small: limits follow the seat or the address
(not the connection), spectators chat only where the host allows it, a repeated "ready" is
not stored and "ready" changes are limited, chat and the log are kept bounded by snapshots,
finished tables leave the hot log, the WAL is truncated, and a table restored from a snapshot
and the commands after it is the table that was stored."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import time
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from bigtwo.client import Lobby
from bigtwo.server import runner as runner_module
from bigtwo.server.connection import Connection
from bigtwo.server.hub import Hub, Settings
from bigtwo.server.limits import KeyedLimiter
from bigtwo.service.commands import Command, Op
from bigtwo.service.request import table_config
from bigtwo.service.table import (
    CHAT_KEPT,
    SNAPSHOT_EVENTS,
    Refused,
    SnapshotError,
    TableService,
    hash_token,
)
from bigtwo.store.sql import connect as connect_db
from bigtwo.store.sql import is_postgres_url
from bigtwo.store.tables import MemoryStore, SQLiteStore, open_store
from test_server_support import Server

TWO_HUMANS = {"seats": ["human", "human", "computer:random", "computer:random"], "deals": 1}


class FakeSocket:
    def __init__(self) -> None:
        self.frames: list[str] = []

    async def send_text(self, text: str) -> None:
        self.frames.append(text)

    async def close(self, code: int, reason: str) -> None:
        pass

    def messages(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        for frame in self.frames:
            data = json.loads(frame)
            out.extend(data if isinstance(data, list) else [data])
        return out


async def _reconnect_and_send(runner: Any, seat: int | None, frames: list[dict[str, Any]]) -> None:
    """One connection for ``seat`` (None: a spectator) that sends ``frames`` and goes away."""
    conn = Connection(FakeSocket(), runner.hub.settings.limits)
    writer = asyncio.create_task(conn.writer())
    runner.attach(conn, seat, 0)
    for frame in frames:
        runner.on_frame(conn, json.dumps(frame))
    runner.detach(conn)
    conn.close(1000, "")
    await writer


def _stored(store: MemoryStore, code: str, op: str) -> list[dict[str, Any]]:
    return [c for c in store.rooms[code].commands if c["op"] == op]


# -- limits follow the actor ------------------------------------------------------------------
async def test_a_seated_player_reconnecting_in_a_loop_cannot_exceed_the_chat_limit() -> None:
    store = MemoryStore()
    hub = Hub(store)
    runner = hub.create(table_config(TWO_HUMANS))
    seat, _token = hub.join(runner, "Ann", None)
    burst = hub.settings.limits.chat_burst
    started = time.monotonic()
    for i in range(40):  # each new connection used to bring a fresh chat allowance
        await _reconnect_and_send(
            runner, seat, [{"type": "chat", "text": f"spam {i}.{j}"} for j in range(10)]
        )
    elapsed = time.monotonic() - started
    allowed = burst + elapsed * hub.settings.limits.chat_rate + 1
    assert 1 <= len(_stored(store, runner.code, "chat")) <= allowed


async def test_chat_from_one_address_is_limited_over_all_its_seats() -> None:
    store = MemoryStore()
    hub = Hub(store)
    limits = hub.settings.limits
    lines = 0
    for _ in range(10):  # ten seats at ten tables, one address
        runner = hub.create(table_config(TWO_HUMANS))
        seat, _token = hub.join(runner, "Ann", None)
        conn = Connection(FakeSocket(), limits, "10.1.2.3")
        runner.attach(conn, seat, 0)
        for j in range(10):
            runner.on_frame(conn, json.dumps({"type": "chat", "text": f"line {j}"}))
        lines += len(_stored(store, runner.code, "chat"))
    assert lines <= limits.address_chat_burst + 2


async def test_connecting_in_a_loop_is_limited_per_seat_and_per_address() -> None:
    hub = Hub(MemoryStore())
    runner = hub.create(table_config(TWO_HUMANS))
    seat, _token = hub.join(runner, "Ann", None)
    burst = int(hub.settings.limits.connects_burst)
    conn = Connection(FakeSocket(), hub.settings.limits, "10.0.0.7")
    for _ in range(burst):
        hub.admit(runner, conn, seat)
    with pytest.raises(Refused) as refused:
        hub.admit(runner, conn, seat)
    assert refused.value.code == "rate_limited"
    # Another seat, and spectators from another address, are not held up by it.
    hub.admit(runner, conn, 1)
    other = Connection(FakeSocket(), hub.settings.limits, "10.0.0.8")
    hub.admit(runner, other, None)


async def test_reconnecting_with_a_seat_token_in_a_loop_is_refused_over_the_network(
    server: Server,
) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(**TWO_HUMANS)
        seat = await lobby.join(room["code"], "Ann")
    hello = {"type": "hello", "protocol": 1, "token": seat["token"]}
    refused = None
    for attempt in range(40):
        ws = await connect(seat["ws"], compression=None, proxy=None, close_timeout=1)
        await ws.send(json.dumps(hello))
        first = json.loads(await asyncio.wait_for(ws.recv(), 5))
        if first["type"] == "error":
            refused = (attempt, first["code"])
            with pytest.raises(ConnectionClosed):
                await asyncio.wait_for(ws.recv(), 5)
            assert ws.close_code == 1013
            break
        assert first["type"] == "welcome"
        await ws.close()
    assert refused is not None and refused[1] == "rate_limited"
    assert refused[0] >= 15  # the burst a real client's reconnects never come near


def test_the_keyed_limiter_forgets_the_longest_quiet_key_not_everyone() -> None:
    limiter = KeyedLimiter(rate=0.001, burst=1, max_keys=3)
    for key in ("a", "b", "c"):
        assert limiter.allow(key, now=0.0)
    assert not limiter.allow("a", now=0.0)  # "a" is now the freshest
    assert limiter.allow("d", now=0.0)  # "b", quiet longest, is forgotten
    assert len(limiter) == 3 and "b" not in limiter
    assert not limiter.allow("a", now=0.0) and not limiter.allow("c", now=0.0)
    with pytest.raises(ValueError):
        KeyedLimiter(rate=0, burst=1)


# -- spectators' chat ---------------------------------------------------------------------------
async def _watch_and_chat(server: Server, **options: Any) -> dict[str, Any]:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(**options)
    async with connect(room["ws"], compression=None, proxy=None, close_timeout=1) as ws:
        await ws.send(json.dumps({"type": "hello", "protocol": 1, "watch": True}))
        await ws.send(json.dumps({"type": "chat", "id": "c1", "text": "hello all"}))
        while True:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 5))
            if msg["type"] in ("error", "chat"):
                return dict(msg)


async def test_a_spectator_without_a_token_cannot_chat_by_default(server: Server) -> None:
    got = await _watch_and_chat(server)
    assert got["type"] == "error" and got["code"] == "not_seated" and got["id"] == "c1"
    assert "host" in got["message"]


async def test_a_spectator_may_chat_where_the_host_allows_it(server: Server) -> None:
    got = await _watch_and_chat(server, spectator_chat=True)
    assert got["type"] == "chat" and got["seat"] is None and got["text"] == "hello all"
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(spectator_chat=True)
        assert room["room"]["options"]["spectator_chat"] is True
        room = await lobby.create_room()
        assert room["room"]["options"]["spectator_chat"] is False


# -- ready ---------------------------------------------------------------------------------------
async def test_saying_ready_again_is_not_stored_and_toggling_is_limited() -> None:
    store = MemoryStore()
    hub = Hub(store)
    runner = hub.create(table_config(TWO_HUMANS))
    seat, _token = hub.join(runner, "Ann", None)
    for _ in range(10):  # the same "ready" over and over, through new connections
        await _reconnect_and_send(runner, seat, [{"type": "ready", "ready": True}] * 5)
    assert len(_stored(store, runner.code, "ready")) == 1
    v = runner.service.v
    for _ in range(20):  # ready, not ready, ready, ... through new connections
        await _reconnect_and_send(
            runner, seat, [{"type": "ready", "ready": flag} for flag in (False, True) * 5]
        )
    changes = len(_stored(store, runner.code, "ready")) - 1
    assert changes <= hub.settings.limits.ready_burst + 2
    assert runner.service.v - v == changes  # each stored change is one event, and no more


# -- a store that stays small ------------------------------------------------------------------
def _chatty_table(hub: Hub, lines: int) -> Any:
    """A table whose player said ``lines`` chat lines (as if from many actors: no limit)."""
    runner = hub.create(table_config(TWO_HUMANS))
    seat, _token = hub.join(runner, "Ann", None)
    text = "x" * 280
    for i in range(lines):
        assert runner.run(Command(Op.CHAT, seat=seat, text=f"{i} {text}"))
    return runner


def _stored_bytes(target: str) -> int:
    """What the table database takes: the SQLite file's pages (it reuses a freed page at
    once), or PostgreSQL's tables with their indexes in the test's schema, compacted (it
    reuses freed space only once vacuumed)."""
    if not is_postgres_url(target):
        with sqlite3.connect(target) as db:
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return int(
                db.execute("PRAGMA page_count").fetchone()[0]
                * db.execute("PRAGMA page_size").fetchone()[0]
            )
    with closing(connect_db(target)) as pg:
        pg.execute("VACUUM FULL rooms, log, snapshots, archive")  # this schema's only
        row = pg.execute(
            "SELECT SUM(pg_total_relation_size(format('%I.%I', schemaname, tablename)))"
            " FROM pg_tables WHERE schemaname = current_schema()"
        ).fetchone()
    return int(row[0])


async def test_stored_chat_stays_bounded_and_a_restart_replays_a_bounded_tail(
    store_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Snapshots every `snapshot_every` commands, however slow this machine makes them (else
    # the interval grows with what a snapshot costs here).
    monkeypatch.setattr(runner_module, "SNAPSHOT_SHARE", 1.0)
    store = open_store(store_db, checkpoint=False)
    hub = Hub(store, Settings(think="inline"))
    every = hub.settings.snapshot_every
    runner = _chatty_table(hub, 5000)
    live = runner.service
    assert store.hot_log(runner.code) < every
    assert len(live.chat) == CHAT_KEPT
    store.close()
    assert (
        _stored_bytes(store_db) < 1 << 20
    )  # 5000 lines of 280 characters were 1.5 MB in the log alone

    again = open_store(store_db, checkpoint=False)
    try:
        room = again.load(runner.code)
        assert room is not None and room.snapshot is not None and len(room.commands) < every
        restarted = Hub(again, Settings(think="inline"))
        assert restarted.load_all() == 1  # replaying the snapshot and the short tail above
        table = restarted.tables[runner.code].service
        assert table.v == live.v and table.snapshot(0) == live.snapshot(0)
    finally:
        again.close()


async def test_a_finished_table_leaves_the_hot_log_and_comes_back_whole(store_db: str) -> None:
    store = open_store(store_db, checkpoint=False)
    hub = Hub(store, Settings(think="inline"))
    config = table_config(
        {"seats": ["human", "computer:random", "computer:random", "computer:random"], "deals": 1}
    )
    runner = hub.create(config)
    seat, _token = hub.join(runner, "Ann", None)
    conn = Connection(FakeSocket(), hub.settings.limits)
    runner.attach(conn, seat, 0)
    runner.run(Command(Op.READY, seat=seat))
    rng = random.Random(5)
    while runner.service.status == "playing":
        match = runner.service.game
        assert match is not None
        view = match.deal.view(seat)
        if match.deal.turn == seat:
            play = (
                None
                if view.can_pass and (not view.legal or rng.random() < 0.3)
                else rng.choice(view.legal).mask
            )
            runner.run(Command(Op.ACT, seat=seat, cards=play))
        else:
            runner.pump()
    assert runner.service.status == "finished"
    assert store.hot_log(runner.code) == 0  # archived in the same transaction as its status
    runner.run(Command(Op.CHAT, seat=seat, text="good game"))  # tables take chat after the end
    runner.detach(conn)
    hub.unload(runner.code)
    back = hub.get(runner.code)
    assert back is not None and back is not runner
    assert back.service.info() == runner.service.info()
    assert back.service.events_since(0, seat) is not None
    assert [e.json() for e in back.service.events_since(0, seat) or []] == [
        e.json() for e in runner.service.events_since(0, seat) or []
    ]
    store.close()


def test_the_wal_shrinks_back_after_a_burst(tmp_path: Path, monkeypatch: Any) -> None:
    monkeypatch.setattr(SQLiteStore, "CHECKPOINT_SECONDS", 0.05)
    monkeypatch.setattr(SQLiteStore, "WAL_LIMIT", 256 << 10)
    monkeypatch.setattr(SQLiteStore, "WAL_HARD_LIMIT", 1 << 20)
    # A WAL left between the two limits when the burst stops is truncated once this long has
    # passed since the last truncation (30 s in service: as long as the wait below).
    monkeypatch.setattr(SQLiteStore, "TRUNCATE_SECONDS", 0.5)
    store = SQLiteStore(tmp_path / "tables.sqlite3")
    try:
        store.create_room("BURSTY", {})
        line = {"op": "chat", "seat": 0, "text": "y" * 400}
        for _ in range(5000):  # 5000 commits of half a kilobyte: megabytes of WAL
            store.append("BURSTY", [line])
        # The checkpointer shrinks it soon after; generous time for a loaded machine.
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and store.wal_bytes() > SQLiteStore.WAL_LIMIT:
            time.sleep(0.05)
        assert store.wal_bytes() <= SQLiteStore.WAL_LIMIT
        room = store.load("BURSTY")
        assert room is not None and len(room.commands) == 5000  # nothing lost
    finally:
        store.close()


# -- a restored table is the stored one --------------------------------------------------------
def _commands(rng: random.Random, table: TableService, count: int) -> list[Command]:
    """Apply up to ``count`` random commands a lobby, players and the timer would send, and
    return those the table took, in order (the log)."""
    applied: list[Command] = []
    now = 0.0
    for _ in range(count):
        now += 0.5
        if table.status == "finished":
            break
        choice = rng.random()
        seat = rng.randrange(2)
        match = table.game
        if choice < 0.2:
            cmd = Command(Op.CHAT, seat=seat, text=f"line {len(applied)}")
        elif choice < 0.25:
            cmd = Command(Op.CHAT, seat=None, name="Sam", text="from the stands")
        elif match is None:
            cmd = Command(Op.READY, seat=seat, ready=rng.random() < 0.8)
        elif table.between is not None:
            cmd = Command(Op.NEXT, seat=seat)
        elif match.deal.turn in (0, 1):
            turn = match.deal.turn
            view = match.deal.view(turn)
            play = (
                None
                if view.can_pass and (not view.legal or rng.random() < 0.3)
                else rng.choice(view.legal).mask
            )
            cmd = Command(Op.ACT, seat=turn, cards=play, id=f"a{len(applied)}")
        else:
            cmd = None
        try:
            done, _events = table.submit(cmd, now)
        except Refused:
            continue
        applied += done
    return applied


def _same(a: TableService, b: TableService) -> None:
    now = 1e6
    assert a.v == b.v and a.state_v == b.state_v and a.status == b.status
    assert a.info() == b.info()
    for seat in (0, 1, 2, 3, None):
        assert a.snapshot(seat, now) == b.snapshot(seat, now)
        since = max(0, a.v - 40)
        assert [e.json() for e in a.events_since(since, seat) or []] == [
            e.json() for e in b.events_since(since, seat) or []
        ]
    assert [dict(s.applied) for s in a.seats] == [dict(s.applied) for s in b.seats]
    assert a.due(now) == b.due(now) and a.deadline() == b.deadline()


@pytest.mark.parametrize("seed", range(4))
def test_a_table_restored_from_snapshots_equals_the_one_before(seed: int) -> None:
    rng = random.Random(seed)
    config = table_config(
        {
            "seats": ["human", "human", "computer:random", "computer:random"],
            "deals": 3,
            "turn_seconds": 30,
            "spectator_chat": True,
        },
        rng=random.Random(seed),
    )
    live = TableService(config, "SNAPPY")
    log = [
        Command(Op.JOIN, seat=s, name=f"P{s}", token=hash_token(f"t{s}"), avatar=s) for s in (0, 1)
    ]
    # The host (the first seated) changes the timers: the table's config is no longer the
    # room's, and a snapshot of it must still be known for the room's.
    log.append(Command(Op.SETTINGS, seat=0, value={"turn_seconds": 20, "away_seconds": 30}))
    for cmd in log:
        live.apply(cmd, 0.0)
    assert live.config.turn_seconds == 20
    log += _commands(rng, live, 600)
    assert len(log) > 100
    for cut in sorted(rng.sample(range(1, len(log)), 6)):
        # The table as of command ``cut``, frozen, then the commands after it.
        head = TableService.restore(config, "SNAPPY", log[:cut], now=0.0, seat_grace=60.0)
        frozen = head.freeze()
        thawed = TableService.restore(
            config, "SNAPPY", log[cut:], now=0.0, snapshot=frozen, seat_grace=60.0
        )
        replayed = TableService.restore(config, "SNAPPY", log, now=0.0, seat_grace=60.0)
        _same(thawed, replayed)
        assert len(thawed._texts) <= SNAPSHOT_EVENTS + len(log) - cut + 100
        if thawed.game is not None:  # the rules' catalog of plays is shared, not copied
            assert thawed.game.deal.catalog is replayed.game.deal.catalog
        # And they go on alike.
        more_a = _commands(random.Random(cut), thawed, 40)
        more_b = _commands(random.Random(cut), replayed, 40)
        assert more_a == more_b
        _same(thawed, replayed)


async def test_a_slow_snapshot_makes_the_next_one_wait_for_more_commands(
    monkeypatch: Any,
) -> None:
    store = MemoryStore()
    hub = Hub(store, Settings(snapshot_every=10))
    runner = hub.create(table_config(TWO_HUMANS))
    seat, _token = hub.join(runner, "Ann", None)
    made: list[int] = []
    freeze = TableService.freeze

    def slow_freeze(table: TableService) -> bytes:
        made.append(table.v)
        time.sleep(0.005)  # as long as 100 commands may take: the next waits for 100
        return freeze(table)

    monkeypatch.setattr(TableService, "freeze", slow_freeze)
    for i in range(600):
        runner.run(Command(Op.CHAT, seat=seat, text=f"line {i}"))
    gaps = [b - a for a, b in zip(made, made[1:], strict=False)]
    assert 2 <= len(made) <= 6 and min(gaps) >= 100  # not every 10 commands
    assert store.rooms[runner.code].snapshot is not None


def test_a_snapshot_of_another_table_is_refused() -> None:
    config = table_config(TWO_HUMANS)
    frozen = TableService(config, "ONE111").freeze()
    with pytest.raises(SnapshotError):
        TableService.thaw(frozen, config, "TWO222")
    with pytest.raises(SnapshotError):
        TableService.thaw(b"not a snapshot", config, "ONE111")


def test_the_lobby_limiter_forgets_the_quietest_address_never_everyone() -> None:
    """Lobby writes are limited per address in bounded memory: a flood of new addresses (past
    the 10,000 the lobby once remembered before forgetting everyone) leaves a busy address's
    spent limit in place."""
    from bigtwo.server.app import create_app

    limiter = create_app().state.limiter
    now = 1000.0
    while limiter.allow("127.0.0.9", now):
        pass
    for n in range(12_000):
        limiter.allow(f"10.{n >> 16}.{n >> 8 & 255}.{n & 255}", now)
        if n % 1000 == 0:
            assert not limiter.allow("127.0.0.9", now)  # still spent, and so kept in use
    assert not limiter.allow("127.0.0.9", now)
    assert len(limiter) <= 10_000
