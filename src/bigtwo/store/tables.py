"""Storage of tables: each table's configuration and its command log, in SQLite (WAL, the
default) or PostgreSQL (``--db postgresql://…``), through one store over either database.

The server appends a table's accepted commands here, in one transaction, *before* it sends
the events they caused; a restarted server rebuilds every open table by replaying its log
(see :meth:`bigtwo.service.table.TableService.restore`). The log stays short: every so often
the server stores a *snapshot* of a table (:meth:`~bigtwo.service.table.TableService.freeze`)
in the same transaction that drops the commands it holds, so a table is its latest snapshot
and the commands after it, and a restart replays a bounded tail, whatever the table's history.
A finished table leaves the hot log for the ``archive`` (its snapshot, if any, and the
commands after it, in one row). The schema is versioned (:mod:`.migrations`); the two
databases differ only behind :mod:`.sql`.

SQLite runs in WAL mode with ``synchronous=NORMAL`` by default: a committed transaction
survives the server process being killed at any moment; ``synchronous=FULL`` (``--sync full``)
also survives the machine losing power, at the cost of one fsync per commit. A thread of its
own checkpoints the WAL, never inside a commit and without making the writer wait, and
truncates it after a burst that outran it and every so often, so the WAL file never outgrows a
few megabytes. PostgreSQL matches those two levels with ``synchronous_commit`` (``off`` by
default: a commit is in the database, which survives this server being killed, before it
returns; ``on`` with ``--sync full``: also on the database's disk). :class:`MemoryStore` has
the same interface and keeps nothing, for tests and local play. Nothing here knows the rules
of the game.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sqlite3
import threading
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

import orjson

from ..match.errors import StoreError
from ..service.table import TableStatus
from .migrations import MigratedStore, schema_version
from .sql import DatabaseConnection, PostgresConnection, SQLiteConnection, is_postgres_url

# Tables not reloaded at start-up: over, or unloaded for lack of players.
_CLOSED = (TableStatus.FINISHED, TableStatus.IDLE)
SYNC_LEVELS = ("normal", "full")


class StoredRoom:
    """One stored table: its code, configuration (JSON object), status, latest snapshot (None:
    none yet) and the commands after it."""

    __slots__ = ("code", "config", "status", "commands", "snapshot")

    def __init__(
        self,
        code: str,
        config: dict[str, Any],
        status: TableStatus,
        commands: list[dict[str, Any]],
        snapshot: bytes | None = None,
    ) -> None:
        self.code = code
        self.config = config
        self.status = status
        self.commands = commands
        self.snapshot = snapshot


class TableStore(Protocol):
    """What the server needs from storage (boardgame.io-style: small, swappable)."""

    def create_room(self, code: str, config: dict[str, Any]) -> None: ...
    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None: ...
    def since_snapshot(self, code: str) -> int: ...
    def snapshot(self, code: str, state: bytes) -> None: ...
    def set_status(self, code: str, status: TableStatus) -> None: ...
    def open_rooms(self) -> Iterator[StoredRoom]: ...
    def load(self, code: str) -> StoredRoom | None: ...
    def add_watcher(self, token_digest: str, code: str) -> None: ...
    def watcher_room(self, token_digest: str) -> str | None: ...
    def close(self) -> None: ...


# Commands go into the log only after the table's latest snapshot and archive. The key
# (code, seq) already refuses a command where another server stored one; this refuses one
# below a newer snapshot, where that server's rows are gone: two servers that both believe
# they run a table (a cluster's lease moving on), the one behind can store nothing.
_AFTER_SNAPSHOTS = (
    " WHERE NOT EXISTS (SELECT 1 FROM snapshots WHERE code = ? AND seq >= ?)"
    " AND NOT EXISTS (SELECT 1 FROM archive WHERE code = ? AND seq >= ?)"
)


def _log_text(command: dict[str, Any]) -> str:
    """A stored command's text: compact JSON (orjson: appending is on every action's path)."""
    try:
        return orjson.dumps(command, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer past 64 bits: the expansion's 104-bit masks
        return json.dumps(command, separators=(",", ":"), ensure_ascii=False)


def _moved_on(code: str) -> StoreError:
    return StoreError(
        f"Table {code} has moved on past this copy of it (a newer snapshot is stored): "
        "nothing was stored"
    )


@functools.cache
def _insert_log(rows: int) -> str:
    values = ", ".join(["(?, CAST(? AS INTEGER), ?)"] * rows)
    return f"INSERT INTO log (code, seq, command) SELECT * FROM (VALUES {values}) AS v" + (
        _AFTER_SNAPSHOTS
    )


class SQLStore(MigratedStore):
    """Tables in a SQL database (see :mod:`.sql`): the logic both back ends share. Used from
    the server's event loop thread only; the lock guards the rare use from another thread
    (tests, tools)."""

    ONE_STATEMENT = 64  # commands an append stores in one statement (more: a transaction)

    def __init__(self, db: DatabaseConnection) -> None:
        super().__init__(db)
        self.where = db.where
        # Next sequence number per table, so an append needs no query first, and the number
        # of commands stored since the table's latest snapshot.
        self._next: dict[str, int] = {}
        self._since: dict[str, int] = {}
        for code, seq in db.execute(
            "SELECT code, MAX(seq) FROM (SELECT code, seq FROM log UNION ALL "
            "SELECT code, seq FROM snapshots UNION ALL SELECT code, seq FROM archive) AS held "
            "GROUP BY code"
        ):
            self._next[code] = seq + 1
        for code, count in db.execute("SELECT code, COUNT(*) FROM log GROUP BY code"):
            self._since[code] = count

    @property
    def schema_version(self) -> int:
        """The database's schema version (see :mod:`.migrations`)."""
        with self._lock:
            return schema_version(self._db)

    def create_room(self, code: str, config: dict[str, Any]) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO rooms (code, config, status, created, updated) VALUES (?, ?, ?, ?, ?)",
                (code, json.dumps(config), TableStatus.WAITING.value, now, now),
            )
        self._next[code] = 1
        self._since[code] = 0

    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None:
        """Store commands in order, all or none, before anyone hears of them."""
        if not commands:
            return
        seq = self._next.get(code, 1)
        rows = [(code, seq + i, _log_text(c)) for i, c in enumerate(commands)]
        fence = (code, seq, code, seq)
        with self._lock:
            if len(rows) <= self.ONE_STATEMENT:
                # One statement is one transaction of its own: all rows or none, in a single
                # round trip (BEGIN, the rows and COMMIT were three or more: on PostgreSQL
                # 0.53 ms an append against 0.26 ms, median of five runs on a busy 2-core
                # machine; on SQLite 82 against 74 µs).
                stored = self._db.execute(
                    _insert_log(len(rows)), [v for row in rows for v in row] + list(fence)
                ).rowcount
                if stored != len(rows):
                    raise _moved_on(code)
            else:
                with self._db.transaction():
                    for row in rows:
                        if self._db.execute(_insert_log(1), [*row, *fence]).rowcount != 1:
                            raise _moved_on(code)  # (rolls the others back)
        self._next[code] = seq + len(rows)
        self._since[code] = self._since.get(code, 0) + len(rows)
        self._committed()

    def _committed(self) -> None:
        """After each append's commit (the SQLite store watches its WAL here)."""

    def since_snapshot(self, code: str) -> int:
        """Commands stored for the table since its latest snapshot (or since it was made)."""
        return self._since.get(code, 0)

    def hot_log(self, code: str) -> int:
        """The table's commands in the hot log, as the database has them now."""
        with self._lock:
            row = self._db.execute("SELECT COUNT(*) FROM log WHERE code = ?", (code,)).fetchone()
        return int(row[0])

    def snapshot(self, code: str, state: bytes) -> None:
        """Store ``state`` as the table after every command stored so far, and drop those
        commands, in one transaction: the table is then its snapshot and what comes next."""
        if code not in self._next:
            raise KeyError(f"table {code} was not stored through this store")
        seq = self._next[code] - 1
        with self._lock, self._db.transaction():
            self._db.execute(
                # Never back to an older one: of two servers that both believed they ran
                # the table (a cluster's lease moving on), the one behind must not win here.
                "INSERT INTO snapshots (code, seq, state) VALUES (?, ?, ?) ON CONFLICT (code) "
                "DO UPDATE SET seq = excluded.seq, state = excluded.state "
                "WHERE excluded.seq >= snapshots.seq",
                (code, seq, state),
            )
            self._db.execute("DELETE FROM log WHERE code = ? AND seq <= ?", (code, seq))
            self._db.execute("DELETE FROM archive WHERE code = ?", (code,))
        self._since[code] = 0

    def set_status(self, code: str, status: TableStatus) -> None:
        """Set the table's status; a finished table moves out of the hot log to the archive."""
        status = TableStatus(status)
        with self._lock, self._db.transaction():
            self._db.execute(
                "UPDATE rooms SET status = ?, updated = ? WHERE code = ?",
                (status.value, time.time(), code),
            )
            if status == TableStatus.FINISHED:
                self._archive(code)

    def _archive(self, code: str) -> None:
        """Inside a transaction: the table's snapshot and log become one archive row (with
        any earlier archive row's commands)."""
        base = self._base(code)
        if base is None:
            return
        seq, state, earlier = base
        tail = [json.loads(text) for _seq, text in self._tail(code, seq)]
        commands = zlib.compress(
            json.dumps(earlier + tail, separators=(",", ":")).encode("utf-8"), 6
        )
        self._db.execute(
            "INSERT INTO archive (code, seq, state, commands) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (code) DO UPDATE SET seq = excluded.seq, state = excluded.state, "
            "commands = excluded.commands",
            (code, self._next.get(code, 1) - 1, state, commands),
        )
        self._db.execute("DELETE FROM snapshots WHERE code = ?", (code,))
        self._db.execute("DELETE FROM log WHERE code = ?", (code,))
        # The archived commands count as held by a snapshot: none are in the hot log now.
        self._since[code] = 0

    def _base(self, code: str) -> tuple[int, bytes | None, list[dict[str, Any]]] | None:
        """What the table's log goes on from: the last command held, the snapshot (None: the
        empty table) and the archived commands after it; None for no such room."""
        if self._db.execute("SELECT 1 FROM rooms WHERE code = ?", (code,)).fetchone() is None:
            return None
        snap = self._db.execute(
            "SELECT seq, state FROM snapshots WHERE code = ?", (code,)
        ).fetchone()
        arch = self._db.execute(
            "SELECT seq, state, commands FROM archive WHERE code = ?", (code,)
        ).fetchone()
        if arch is not None and (snap is None or arch[0] > snap[0]):
            earlier = json.loads(zlib.decompress(arch[2]).decode("utf-8"))
            return int(arch[0]), _bytes(arch[1]), earlier
        if snap is not None:
            return int(snap[0]), _bytes(snap[1]), []
        return 0, None, []

    def _tail(self, code: str, after: int) -> list[tuple[int, str]]:
        return [
            (int(seq), text)
            for seq, text in self._db.execute(
                "SELECT seq, command FROM log WHERE code = ? AND seq > ? ORDER BY seq",
                (code, after),
            )
        ]

    def open_rooms(self) -> Iterator[StoredRoom]:
        with self._lock:
            codes = [r[0] for r in self._db.execute(
                "SELECT code FROM rooms WHERE status NOT IN (?, ?) ORDER BY created",
                [status.value for status in _CLOSED],
            )]  # fmt: skip
        for code in codes:
            room = self.load(code)
            if room is not None:
                yield room

    def load(self, code: str) -> StoredRoom | None:
        with self._lock, self._db.transaction():
            row = self._db.execute(
                "SELECT config, status FROM rooms WHERE code = ?", (code,)
            ).fetchone()
            base = self._base(code)
            if row is None or base is None:
                return None
            seq, state, earlier = base
            tail = self._tail(code, seq)
        # What is stored is the truth, also after a commit whose answer was lost (a broken
        # connection): numbering goes on from it.
        self._next[code] = (tail[-1][0] if tail else seq) + 1
        self._since[code] = len(tail)
        commands = earlier + [json.loads(text) for _seq, text in tail]
        return StoredRoom(code, json.loads(row[0]), TableStatus(row[1]), commands, state)

    def add_watcher(self, token_digest: str, code: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO watchers (token, code) VALUES (?, ?) "
                "ON CONFLICT (token) DO UPDATE SET code = excluded.code",
                (token_digest, code),
            )

    def watcher_room(self, token_digest: str) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT code FROM watchers WHERE token = ?", (token_digest,)
            ).fetchone()
        return None if row is None else str(row[0])


def _bytes(value: Any) -> bytes | None:
    return None if value is None else bytes(value)


OPEN_LOCKED_SECONDS = 10.0  # how long open_store tries a SQLite file another server is opening


class SQLiteStore(SQLStore):
    """Tables in one SQLite file."""

    CHECKPOINT_SECONDS = 1.0  # a passive checkpoint this often
    TRUNCATE_SECONDS = 30.0  # the WAL truncated this often, if it holds anything
    WAL_LIMIT = 4 << 20  # bytes: the WAL shrinks back to this whenever it starts afresh
    WAL_HARD_LIMIT = 16 << 20  # bytes: a WAL past this is truncated at once, writer or not
    BURST_COMMITS = 200  # commits between two looks at the WAL's size from the writer

    def __init__(self, path: str | Path, *, sync: str = "normal", checkpoint: bool = True) -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError("sync must be 'normal' or 'full'")
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        db = SQLiteConnection(self.path)
        raw = db.raw
        raw.execute("PRAGMA busy_timeout=5000")  # first: another server may be opening it too
        raw.execute("PRAGMA journal_mode=WAL")
        raw.execute(f"PRAGMA synchronous={sync.upper()}")
        # A WAL file is reused from its start after a checkpoint, not shrunk: this shrinks
        # it back whenever it is reset.
        raw.execute(f"PRAGMA journal_size_limit={self.WAL_LIMIT}")
        # SQLite checkpoints the WAL inside whichever commit crosses 1000 pages, with an fsync,
        # and that commit runs on the server's event loop: measured 20-100 ms stalls (more on
        # a busy disk) for every table. So commits never checkpoint; a thread of our own does,
        # on its own connection, without blocking writers (PASSIVE) except when the WAL has
        # grown past WAL_LIMIT or is due to be truncated (TRUNCATE: a few milliseconds).
        self._stop = threading.Event()
        self._wake = threading.Event()  # a burst of commits: checkpoint now
        self._commits = 0
        self._checkpointer: threading.Thread | None = None
        self.truncations = 0  # WAL truncations done (for tests and stats)
        if checkpoint and self.path != ":memory:":
            raw.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="bigtwo-checkpoint", daemon=True
            )
        super().__init__(db)
        if self._checkpointer is not None:
            self._checkpointer.start()

    def _committed(self) -> None:
        self._commits += 1
        if self._commits % self.BURST_COMMITS == 0 and self.wal_bytes() > self.WAL_LIMIT:
            self._wake.set()

    def wal_bytes(self) -> int:
        """The size of the WAL file now (0 when there is none)."""
        try:
            return os.path.getsize(self.path + "-wal")
        except OSError:
            return 0

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        last_truncate = time.monotonic()
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while True:
                self._wake.wait(self.CHECKPOINT_SECONDS)
                self._wake.clear()
                if self._stop.is_set():
                    return
                try:
                    self._checkpoint(db)
                    size = self.wal_bytes()
                    now = time.monotonic()
                    if size > self.WAL_HARD_LIMIT or (
                        size > self.WAL_LIMIT and now - last_truncate >= self.TRUNCATE_SECONDS
                    ):
                        # Wait for the writer's transaction, copy the little written since,
                        # and empty the WAL: the writer waits meanwhile (milliseconds, more on
                        # a busy disk), so this is the last resort, not the routine.
                        busy = db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
                        if busy is not None and busy[0] == 0:
                            self.truncations += 1
                            last_truncate = now
                except sqlite3.Error:
                    continue  # busy now; the next round catches up
        finally:
            db.close()

    @staticmethod
    def _checkpoint(db: sqlite3.Connection) -> None:
        """Copy the WAL into the database without ever blocking the writer (PASSIVE), again
        while the writer added to it meanwhile, a few times: once every frame is copied, the
        writer's next commit starts the WAL afresh and shrinks the file to WAL_LIMIT
        (``journal_size_limit``), so under a steady stream of commits the WAL stays small
        with no waiting at all."""
        for _ in range(4):
            row = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if row is None or row[1] <= 0 or row[1] == row[2]:
                return  # nothing left to copy (or no WAL)

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        with self._lock:
            if self._checkpointer is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()


class PostgresStore(SQLStore):
    """Tables in a PostgreSQL database (``postgresql://user@host:port/dbname``; the schema
    is the connection's ``search_path``, e.g. ``?options=-csearch_path%3Dbigtwo``)."""

    def __init__(self, url: str, *, sync: str = "normal") -> None:
        if sync not in SYNC_LEVELS:
            raise ValueError("sync must be 'normal' or 'full'")
        self.url = url
        super().__init__(PostgresConnection(url, synchronous=sync == "full"))


def open_store(
    db: str | Path, *, sync: str = "normal", checkpoint: bool = True
) -> SQLiteStore | PostgresStore:
    """The store ``bigtwo serve --db`` names: a ``postgresql://`` URL, else a SQLite file
    (``checkpoint``: with its WAL checkpointer; tools that only read need none)."""
    if is_postgres_url(str(db)):
        return PostgresStore(str(db), sync=sync)
    # Servers opening one new file at once: the one turning it to WAL may be refused at once
    # ("database is locked", past the busy timeout's waiting); it tries again for a while.
    give_up = time.monotonic() + OPEN_LOCKED_SECONDS
    while True:
        try:
            return SQLiteStore(db, sync=sync, checkpoint=checkpoint)
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() >= give_up:
                raise StoreError(f"Cannot open the table database {db}: {exc}") from None
            time.sleep(0.05)
        except (sqlite3.Error, OSError) as exc:
            raise StoreError(f"Cannot open the table database {db}: {exc}") from None


class MemoryStore:
    """The same interface, keeping everything in memory (nothing survives a restart)."""

    def __init__(self) -> None:
        self.rooms: dict[str, StoredRoom] = {}
        self.watchers: dict[str, str] = {}

    def create_room(self, code: str, config: dict[str, Any]) -> None:
        self.rooms[code] = StoredRoom(code, config, TableStatus.WAITING, [])

    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None:
        self.rooms[code].commands.extend(commands)

    def since_snapshot(self, code: str) -> int:
        room = self.rooms.get(code)
        return 0 if room is None else len(room.commands)

    def snapshot(self, code: str, state: bytes) -> None:
        room = self.rooms[code]
        room.snapshot, room.commands = state, []

    def set_status(self, code: str, status: TableStatus) -> None:
        self.rooms[code].status = TableStatus(status)

    def open_rooms(self) -> Iterator[StoredRoom]:
        return iter([r for r in self.rooms.values() if r.status not in _CLOSED])

    def load(self, code: str) -> StoredRoom | None:
        return self.rooms.get(code)

    def add_watcher(self, token_digest: str, code: str) -> None:
        self.watchers[token_digest] = code

    def watcher_room(self, token_digest: str) -> str | None:
        return self.watchers.get(token_digest)

    def close(self) -> None:
        pass


def connection_beside(tables: object) -> DatabaseConnection:
    """A connection of its own to a table store's database (a SQLite file or PostgreSQL), for
    what is kept beside the tables (players' accounts, the coach's reviews); for a store that
    keeps nothing (in memory), an in-memory database."""
    if isinstance(tables, PostgresStore):
        return PostgresConnection(tables.url)
    if not isinstance(tables, SQLiteStore) or tables.path == ":memory:":
        return SQLiteConnection(":memory:")
    db = SQLiteConnection(tables.path)
    db.raw.execute("PRAGMA busy_timeout=5000")  # the table store writes to the same file
    return db
