"""The server's table store on both back ends, SQLite and PostgreSQL (each test in a database
of its own): what is stored comes back in order after reopening, snapshots and the archive,
the same seeded game giving the same record on both, the versioned schema (a new database,
step by step, an old SQLite file, a newer database, a failing step, two servers at once), and
PostgreSQL's connection healing after it broke."""

from __future__ import annotations

import random
import socket
import sqlite3
import threading
import time
from collections.abc import Iterator
from contextlib import closing
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bigtwo.cli import main
from bigtwo.match.errors import StoreError
from bigtwo.match.record import to_data
from bigtwo.server.connection import Connection
from bigtwo.server.hub import Hub, Settings
from bigtwo.service.commands import Command, Op
from bigtwo.service.request import table_config
from bigtwo.store import migrations, sql
from bigtwo.store.migrations import TABLE_MIGRATIONS, TABLE_SCHEMA_VERSION, Migration, migrate
from bigtwo.store.sql import connect, redact
from bigtwo.store.tables import MemoryStore, PostgresStore, SQLStore, open_store
from test_services import PostgresSchemas


@pytest.fixture
def store(store_db: str) -> Iterator[SQLStore]:
    opened = open_store(store_db, checkpoint=False)
    yield opened
    opened.close()


def _versions(target: str) -> list[tuple[int, str]]:
    with closing(connect(target)) as db:
        return [(int(v), s) for v, s in db.execute(
            "SELECT version, summary FROM store_schema ORDER BY version"
        )]  # fmt: skip


def _ops(room: Any) -> list[str]:
    return [c["op"] for c in room.commands]


# -- what is stored comes back ------------------------------------------------------------------


def test_commands_come_back_in_order_with_their_status(store_db: str) -> None:
    store = open_store(store_db)
    store.create_room("AAAAAA", {"preset": "palm"})
    store.append("AAAAAA", [{"op": "join", "seat": 0}, {"op": "ready", "seat": 0}])
    store.append("AAAAAA", [{"op": "chat", "seat": 0, "text": "100% sure? ?"}])
    store.create_room("BBBBBB", {})
    store.set_status("BBBBBB", "finished")
    store.close()
    again = open_store(store_db)
    try:
        [room] = list(again.open_rooms())
        assert room.code == "AAAAAA" and room.config == {"preset": "palm"}
        assert _ops(room) == ["join", "ready", "chat"] and room.status == "waiting"
        assert room.commands[2]["text"] == "100% sure? ?"  # placeholders are not parameters
        again.append("AAAAAA", [{"op": "quit", "seat": 0}])  # numbering goes on after reopening
        loaded = again.load("AAAAAA")
        assert loaded is not None and _ops(loaded)[-1] == "quit"
        assert again.load("ZZZZZZ") is None
        finished = again.load("BBBBBB")
        assert finished is not None and finished.status == "finished"
    finally:
        again.close()
    with pytest.raises(ValueError):
        open_store(store_db, sync="sometimes")


@pytest.mark.parametrize("count", [3, SQLStore.ONE_STATEMENT + 36], ids=["few", "many"])
def test_an_append_is_stored_whole_or_not_at_all(store_db: str, count: int) -> None:
    """In one statement (a few commands) or one transaction (many): a row that cannot be
    stored (its number is taken) leaves none of the others stored."""
    store = open_store(store_db, checkpoint=False)
    try:
        store.create_room("WHOLE1", {})
        store.append("WHOLE1", [{"op": "join", "seat": 0}])
        with closing(connect(store_db)) as db:  # another writer took a number ahead
            db.execute("""INSERT INTO log VALUES ('WHOLE1', 3, '{"op":"stray"}')""")
        with pytest.raises(Exception, match="(?i)unique|duplicate"):
            store.append("WHOLE1", [{"op": "chat", "n": i} for i in range(count)])
        assert store.hot_log("WHOLE1") == 2  # the first command and the stray one
        room = store.load("WHOLE1")  # numbering goes on after what is stored
        assert room is not None and _ops(room) == ["join", "stray"]
        store.append("WHOLE1", [{"op": "chat", "n": i} for i in range(count)])
        room = store.load("WHOLE1")
        assert room is not None and [c.get("n") for c in room.commands[2:]] == list(range(count))
    finally:
        store.close()


def test_a_snapshot_takes_the_place_of_the_commands_it_holds(store: SQLStore) -> None:
    store.create_room("SNAPSH", {})
    store.append("SNAPSH", [{"op": "join", "seat": s} for s in range(3)])
    assert store.since_snapshot("SNAPSH") == 3 and store.hot_log("SNAPSH") == 3
    store.snapshot("SNAPSH", b"\x00state\xff")
    assert store.since_snapshot("SNAPSH") == 0 and store.hot_log("SNAPSH") == 0
    store.append("SNAPSH", [{"op": "ready", "seat": 0}])
    room = store.load("SNAPSH")
    assert room is not None and room.snapshot == b"\x00state\xff" and _ops(room) == ["ready"]
    with pytest.raises(KeyError):
        store.snapshot("NOSUCH", b"")


def test_a_finished_table_is_archived_and_comes_back_whole(store: SQLStore) -> None:
    store.create_room("ARCHIV", {})
    store.append("ARCHIV", [{"op": "join", "seat": 0}])
    store.snapshot("ARCHIV", b"one")
    store.append("ARCHIV", [{"op": "ready", "seat": 0}, {"op": "act", "seat": 0}])
    store.set_status("ARCHIV", "finished")
    assert store.hot_log("ARCHIV") == 0 and list(store.open_rooms()) == []
    store.append("ARCHIV", [{"op": "chat", "seat": 0, "text": "gg"}])  # chat after the end
    room = store.load("ARCHIV")
    assert room is not None and room.status == "finished" and room.snapshot == b"one"
    assert _ops(room) == ["ready", "act", "chat"]


def test_a_server_behind_never_puts_back_an_older_snapshot(store: SQLStore, store_db: str) -> None:
    """Two servers that both believe they run a table (a cluster's lease moving on): the one
    that fell behind cannot replace the newer snapshot with its older one."""
    store.create_room("FENCED", {})
    store.append("FENCED", [{"op": "join", "seat": 0}, {"op": "ready", "seat": 0}])
    with closing(open_store(store_db, checkpoint=False)) as behind:
        assert behind.load("FENCED") is not None  # it knows the table as of two commands
        store.append("FENCED", [{"op": "act", "seat": 0}] * 3)
        store.snapshot("FENCED", b"five")
        behind.snapshot("FENCED", b"two")
    room = store.load("FENCED")
    assert room is not None and (room.snapshot, room.commands) == (b"five", [])


@pytest.mark.parametrize("commands", [1, 70])  # one statement, and a transaction of rows
def test_a_server_behind_cannot_store_below_a_newer_snapshot(
    store: SQLStore, store_db: str, commands: int
) -> None:
    """Where a newer snapshot removed the log rows, the key (code, seq) has nothing to clash
    with: the append itself refuses, and stores nothing."""
    store.create_room("BEHIND", {})
    store.append("BEHIND", [{"op": "join", "seat": 0}])
    with closing(open_store(store_db, checkpoint=False)) as behind:
        assert behind.load("BEHIND") is not None  # it knows the table as of one command
        store.append("BEHIND", [{"op": "act", "seat": 0}] * 3)
        store.snapshot("BEHIND", b"four")
        with pytest.raises(StoreError, match="moved on past this copy"):
            behind.append("BEHIND", [{"op": "chat", "seat": 0}] * commands)
    store.append("BEHIND", [{"op": "pass", "seat": 0}])  # the table's own server goes on
    room = store.load("BEHIND")
    assert room is not None and room.snapshot == b"four"
    assert [c["op"] for c in room.commands] == ["pass"]


def test_a_watchers_token_names_its_latest_room(store: SQLStore) -> None:
    store.add_watcher("digest", "ROOM01")
    store.add_watcher("digest", "ROOM02")
    assert store.watcher_room("digest") == "ROOM02" and store.watcher_room("other") is None


OPERATION = st.one_of(
    st.tuples(st.just("append"), st.integers(1, 4)),
    st.tuples(st.just("snapshot"), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("status"), st.sampled_from(["waiting", "playing", "idle", "finished"])),
)
_codes = count()


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(operations=st.lists(OPERATION, max_size=12))
def test_any_history_loads_as_the_memory_store_keeps_it(
    store_db: str, operations: list[tuple[str, Any]]
) -> None:
    """Whatever a table went through, the stored table (and the same after reopening) is what
    the memory store, which keeps everything as given, holds."""
    code = f"P{next(_codes):05d}"
    model = MemoryStore()
    store = open_store(store_db, checkpoint=False)
    try:
        for each in (model, store):
            each.create_room(code, {"n": 1})
        serial = 0
        for op, arg in operations:
            for each in (model, store):
                if op == "append":
                    each.append(code, [{"op": "chat", "n": serial + i} for i in range(arg)])
                elif op == "snapshot":
                    each.snapshot(code, arg)
                else:
                    each.set_status(code, arg)
            serial += arg if op == "append" else 0
        expected = model.load(code)
        assert expected is not None
        with closing(open_store(store_db, checkpoint=False)) as reopened:
            rooms = [store.load(code), reopened.load(code)]
        for room in rooms:
            assert room is not None
            assert (room.commands, room.snapshot, room.status) == (
                expected.commands, expected.snapshot, expected.status,
            )  # fmt: skip
        assert store.since_snapshot(code) == store.hot_log(code)
    finally:
        store.close()


class _Socket:
    """A socket that takes whatever the table sends (the test reads the table, not this)."""

    async def send_text(self, text: str) -> None:
        pass

    async def close(self, code: int, reason: str) -> None:
        pass


async def _seeded_match(store: SQLStore) -> tuple[dict[str, Any], list[str]]:
    """A seeded two-deal match of one player and three computers through the hub, played to
    its end; then the table unloaded and rebuilt from the store. Returns the rebuilt table's
    record and the events it rebuilds for the player."""
    hub = Hub(store, Settings(think="inline"))
    config = table_config(
        {"seats": ["human"] + ["computer:greedy"] * 3, "deals": 2, "seed": 2024},
        allow_seed=True,
    )
    runner = hub.create(config)
    seat, _token = hub.join(runner, "Ann", None)
    conn = Connection(_Socket(), hub.settings.limits)
    runner.attach(conn, seat, 0)
    runner.run(Command(Op.READY, seat=seat))
    rng = random.Random(7)
    while runner.service.status == "playing":
        match = runner.service.game
        assert match is not None
        if match.deal.over:  # the score sheet read: on to the next deal
            runner.run(Command(Op.NEXT, seat=seat))
            runner.pump()
        elif match.deal.turn == seat:
            view = match.deal.view(seat)
            passes = view.can_pass and (not view.legal or rng.random() < 0.3)
            runner.run(
                Command(Op.ACT, seat=seat, cards=None if passes else rng.choice(view.legal).mask)
            )
        else:
            runner.pump()
    assert runner.service.game is not None
    played = to_data(runner.service.game)
    runner.detach(conn)
    hub.unload(runner.code)
    back = hub.get(runner.code)
    assert back is not None and back.service.game is not None
    assert to_data(back.service.game) == played  # what the store holds is the game played
    events = [e.json() for e in back.service.events_since(0, seat) or []]
    return played, events


async def test_the_same_game_gives_the_same_record_on_both_back_ends(
    tmp_path: Path, postgres: PostgresSchemas
) -> None:
    outcomes = []
    with postgres.schema() as url:
        for target in (str(tmp_path / "tables.sqlite3"), url):
            with closing(open_store(target, checkpoint=False)) as store:
                outcomes.append(await _seeded_match(store))
    (sqlite_record, sqlite_events), (pg_record, pg_events) = outcomes
    assert sqlite_record["deals"] and len(sqlite_record["deals"]) == 2
    assert pg_record == sqlite_record
    assert pg_events == sqlite_events and sqlite_events[-1].startswith('{"type":"match_end"')


# -- the versioned schema ----------------------------------------------------------------------


def test_a_new_database_has_every_version_recorded(store: SQLStore, store_db: str) -> None:
    assert store.schema_version == TABLE_SCHEMA_VERSION == len(TABLE_MIGRATIONS)
    assert _versions(store_db) == [(m.version, m.summary) for m in TABLE_MIGRATIONS]


def test_a_database_migrated_step_by_step_keeps_what_it_held(store_db: str) -> None:
    with closing(connect(store_db)) as db:
        assert migrate(db, 1) == 0
        db.execute("INSERT INTO rooms VALUES ('OLDONE', '{}', 'playing', 1.5, 2.5)")
        db.execute("""INSERT INTO log VALUES ('OLDONE', 1, '{"op":"join","seat":0}')""")
        assert migrate(db, 2) == 1
        db.execute("INSERT INTO snapshots VALUES ('OLDONE', 1, ?)", (b"state",))
        db.execute("""INSERT INTO log VALUES ('OLDONE', 2, '{"op":"ready","seat":0}')""")
    store = open_store(store_db)
    try:
        assert store.schema_version == TABLE_SCHEMA_VERSION
        [room] = list(store.open_rooms())
        assert room.snapshot == b"state" and _ops(room) == ["ready"]
        store.append("OLDONE", [{"op": "chat"}])
        loaded = store.load("OLDONE")
        assert loaded is not None and _ops(loaded) == ["ready", "chat"]
    finally:
        store.close()
    assert [v for v, _ in _versions(store_db)] == list(range(1, TABLE_SCHEMA_VERSION + 1))


# What servers before the schema table wrote: version 2's tables, all at once, with the
# version in ``meta``; version 1 had no snapshots or archive.
VERSION_2_FILE = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (code TEXT PRIMARY KEY, config TEXT NOT NULL, status TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE log (code TEXT NOT NULL, seq INTEGER NOT NULL, command TEXT NOT NULL,
    PRIMARY KEY (code, seq)) WITHOUT ROWID;
CREATE TABLE watchers (token TEXT PRIMARY KEY, code TEXT NOT NULL);
CREATE TABLE snapshots (code TEXT PRIMARY KEY, seq INTEGER NOT NULL, state BLOB NOT NULL);
CREATE TABLE archive (code TEXT PRIMARY KEY, seq INTEGER NOT NULL, state BLOB,
    commands BLOB NOT NULL);
INSERT INTO meta VALUES ('schema', '2');
INSERT INTO rooms VALUES ('KEPTUP', '{"deals": 3}', 'playing', 1.0, 2.0);
INSERT INTO snapshots VALUES ('KEPTUP', 2, X'0102');
INSERT INTO log VALUES ('KEPTUP', 3, '{"op":"ready","seat":1}');
INSERT INTO watchers VALUES ('digest', 'KEPTUP');
"""
VERSION_1_FILE = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE rooms (code TEXT PRIMARY KEY, config TEXT NOT NULL, status TEXT NOT NULL,
    created REAL NOT NULL, updated REAL NOT NULL);
CREATE TABLE log (code TEXT NOT NULL, seq INTEGER NOT NULL, command TEXT NOT NULL,
    PRIMARY KEY (code, seq)) WITHOUT ROWID;
CREATE TABLE watchers (token TEXT PRIMARY KEY, code TEXT NOT NULL);
INSERT INTO meta VALUES ('schema', '1');
INSERT INTO rooms VALUES ('KEPTUP', '{"deals": 3}', 'playing', 1.0, 2.0);
INSERT INTO log VALUES ('KEPTUP', 1, '{"op":"join","seat":1}');
INSERT INTO log VALUES ('KEPTUP', 2, '{"op":"ready","seat":1}');
INSERT INTO watchers VALUES ('digest', 'KEPTUP');
"""


@pytest.mark.parametrize(
    ("script", "last", "ops", "snapshot"),
    [(VERSION_1_FILE, 2, ["join", "ready"], None), (VERSION_2_FILE, 3, ["ready"], b"\x01\x02")],
    ids=["version-1", "version-2"],
)
def test_an_older_sqlite_file_is_brought_forward(
    tmp_path: Path, script: str, last: int, ops: list[str], snapshot: bytes | None
) -> None:
    """``last``: the last command the file held (snapshot or log)."""
    path = tmp_path / "old.sqlite3"
    with closing(sqlite3.connect(path)) as old:
        old.executescript(script)
    store = open_store(path)
    try:
        assert store.schema_version == TABLE_SCHEMA_VERSION
        [room] = list(store.open_rooms())
        assert (room.code, room.config, _ops(room), room.snapshot) == (
            "KEPTUP", {"deals": 3}, ops, snapshot,
        )  # fmt: skip
        assert store.watcher_room("digest") == "KEPTUP"
        store.append("KEPTUP", [{"op": "chat"}])  # numbered after what the file held
        store.snapshot("KEPTUP", b"new")
        store.set_status("KEPTUP", "finished")
    finally:
        store.close()
    with closing(sqlite3.connect(path)) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchall() == []
        assert db.execute("SELECT seq FROM archive").fetchall() == [(last + 1,)]
        indexes = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert "rooms_by_status" in indexes
    versions = _versions(str(path))
    assert [v for v, _ in versions] == list(range(1, TABLE_SCHEMA_VERSION + 1))


def test_a_newer_database_is_refused_and_left_untouched(store_db: str) -> None:
    open_store(store_db).close()
    with closing(connect(store_db)) as db:
        db.execute("INSERT INTO store_schema VALUES (99, 'from the future', 0)")
    with pytest.raises(
        StoreError, match=rf"schema version 99.*knows up to {TABLE_SCHEMA_VERSION}.*Update bigtwo"
    ):
        open_store(store_db)
    assert _versions(store_db)[-1] == (99, "from the future")


def test_a_failing_step_leaves_the_database_as_it_was(
    store_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    open_store(store_db).close()
    broken = Migration(
        TABLE_SCHEMA_VERSION + 1,
        "a step that fails half-way",
        ("CREATE TABLE half_made (x INTEGER)", "ALTER TABLE no_such_table ADD COLUMN y INTEGER"),
    )
    monkeypatch.setattr(migrations, "TABLE_MIGRATIONS", (*TABLE_MIGRATIONS, broken))
    monkeypatch.setattr(migrations, "TABLE_SCHEMA_VERSION", TABLE_SCHEMA_VERSION + 1)
    with pytest.raises(Exception, match="no_such_table"):
        open_store(store_db)
    monkeypatch.undo()
    assert [v for v, _ in _versions(store_db)] == list(range(1, TABLE_SCHEMA_VERSION + 1))
    with closing(connect(store_db)) as db:
        assert not db.table_exists("half_made")


def test_two_servers_opening_a_new_database_migrate_it_once(store_db: str) -> None:
    opened: list[SQLStore] = []
    failures: list[BaseException] = []
    start = threading.Barrier(3)

    def open_one() -> None:
        start.wait()
        try:
            opened.append(open_store(store_db, checkpoint=False))
        except BaseException as exc:  # reported below
            failures.append(exc)

    threads = [threading.Thread(target=open_one) for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for store in opened:
        store.close()
    assert failures == [] and len(opened) == 3
    assert [v for v, _ in _versions(store_db)] == list(range(1, TABLE_SCHEMA_VERSION + 1))


# -- PostgreSQL's own -------------------------------------------------------------------------


def test_postgres_heals_after_its_connection_is_cut(postgres: PostgresSchemas) -> None:
    import psycopg

    with postgres.schema() as url:
        store = PostgresStore(url)
        try:
            store.create_room("HEALME", {})
            store.append("HEALME", [{"op": "join", "seat": 0}])
            pid = store._db.raw.info.backend_pid  # type: ignore[attr-defined]
            with psycopg.connect(postgres.url, autocommit=True) as admin:
                admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
            with pytest.raises(psycopg.OperationalError):
                store.append("HEALME", [{"op": "ready", "seat": 0}])
            # The hub rebuilds the table from its log, and the store carries on.
            room = store.load("HEALME")
            assert room is not None and _ops(room) == ["join"]
            store.append("HEALME", [{"op": "ready", "seat": 0}])
            room = store.load("HEALME")
            assert room is not None and _ops(room) == ["join", "ready"]
        finally:
            store.close()


@pytest.mark.parametrize(("sync", "setting"), [("normal", "off"), ("full", "on")])
def test_postgres_commits_as_the_sync_level_asks(
    postgres: PostgresSchemas, sync: str, setting: str
) -> None:
    """normal: committed in the database (which outlives this server) before an append
    returns; full: also on the database's disk."""
    with postgres.schema() as url:
        store = PostgresStore(url, sync=sync)
        try:
            assert store._db.execute("SHOW synchronous_commit").fetchone() == (setting,)
        finally:
            store.close()


def test_a_postgres_that_never_answers_is_given_up_in_seconds(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The server would wait for it on its event loop: it waits CONNECT_TIMEOUT, not for ever."""
    monkeypatch.setattr(sql, "CONNECT_TIMEOUT", 2)  # libpq's least
    with socket.create_server(("127.0.0.1", 0)) as mute:  # takes connections, never speaks
        port = mute.getsockname()[1]
        started = time.monotonic()
        with pytest.raises(StoreError, match="Cannot reach the PostgreSQL database"):
            PostgresStore(f"postgresql://postgres@127.0.0.1:{port}/tables")
        assert time.monotonic() - started < 10


def test_serve_says_in_words_when_postgres_cannot_be_reached(
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql://bigtwo:secret@127.0.0.1:1/tables"
    assert main(["serve", "--db", url, "--log-level", "warning"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("bigtwo serve: Cannot reach the PostgreSQL database ")
    assert "postgresql://bigtwo:***@127.0.0.1:1/tables" in err and "secret" not in err
    assert "Traceback" not in err


def test_serve_says_in_words_when_the_file_cannot_be_opened(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--db", str(tmp_path), "--log-level", "warning"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"bigtwo serve: Cannot open the table database {tmp_path}: ")


def test_passwords_never_reach_messages() -> None:
    assert redact("postgresql://u:pw@h:5432/db?x=1") == "postgresql://u:***@h:5432/db?x=1"
    assert redact("postgresql://u@h/db") == "postgresql://u@h/db"
