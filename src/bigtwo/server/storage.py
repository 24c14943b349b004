"""Storage of tables: each table's configuration and its command log, in SQLite (WAL).

The server appends a table's accepted commands here, in one transaction, *before* it sends
the events they caused; a restarted server rebuilds every open table by replaying its log
(see :meth:`bigtwo.service.table.TableService.restore`). SQLite runs in WAL mode (checkpointed by a thread of
its own, never inside a commit) with ``synchronous=NORMAL`` by default: a committed transaction survives the server process being
killed at any moment; ``synchronous=FULL`` (``--sync full``) also survives the machine losing
power, at the cost of one fsync per commit. :class:`MemoryStore` has the same interface and
keeps nothing, for tests and local play. Nothing here knows the rules of the game.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Protocol

from ..service.table import TableStatus

TABLE_SCHEMA_VERSION = 1
# Tables not reloaded at start-up: over, or unloaded for lack of players.
_CLOSED = (TableStatus.FINISHED, TableStatus.IDLE)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    code TEXT NOT NULL,
    seq INTEGER NOT NULL,
    command TEXT NOT NULL,
    PRIMARY KEY (code, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS watchers (
    token TEXT PRIMARY KEY,
    code TEXT NOT NULL
);
"""


class StoredRoom:
    """One stored table: its code, configuration (JSON object), status and commands."""

    __slots__ = ("code", "config", "status", "commands")

    def __init__(
        self, code: str, config: dict[str, Any], status: TableStatus, commands: list[dict[str, Any]]
    ) -> None:
        self.code = code
        self.config = config
        self.status = status
        self.commands = commands


class TableStore(Protocol):
    """What the server needs from storage (boardgame.io-style: small, swappable)."""

    def create_room(self, code: str, config: dict[str, Any]) -> None: ...
    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None: ...
    def set_status(self, code: str, status: TableStatus) -> None: ...
    def open_rooms(self) -> Iterator[StoredRoom]: ...
    def load(self, code: str) -> StoredRoom | None: ...
    def add_watcher(self, token_digest: str, code: str) -> None: ...
    def watcher_room(self, token_digest: str) -> str | None: ...
    def close(self) -> None: ...


class SQLiteStore:
    """Tables in one SQLite file. Used from the server's event loop thread only; the lock
    guards the rare use from another thread (tests, tools)."""

    CHECKPOINT_SECONDS = 1.0

    def __init__(self, path: str | Path, *, sync: str = "normal", checkpoint: bool = True) -> None:
        if sync not in ("normal", "full"):
            raise ValueError("sync must be 'normal' or 'full'")
        self.path = str(path)
        if self.path != ":memory:":
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self._lock = threading.Lock()
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={sync.upper()}")
        self._db.execute("PRAGMA busy_timeout=5000")
        # SQLite checkpoints the WAL inside whichever commit crosses 1000 pages, with an fsync,
        # and that commit runs on the server's event loop: measured 20-100 ms stalls (more on
        # a busy disk) for every table. So commits never checkpoint; a thread of our own does,
        # on its own connection, without blocking writers (PASSIVE).
        self._stop = threading.Event()
        self._checkpointer: threading.Thread | None = None
        if checkpoint and self.path != ":memory:":
            self._db.execute("PRAGMA wal_autocheckpoint=0")
            self._checkpointer = threading.Thread(
                target=self._checkpoint_loop, name="bigtwo-checkpoint", daemon=True
            )
            self._checkpointer.start()
        self._db.executescript(_SCHEMA)
        self._db.execute(
            "INSERT OR IGNORE INTO meta (key, value) VALUES ('schema', ?)",
            (str(TABLE_SCHEMA_VERSION),),
        )
        # Next sequence number per table, so an append needs no query first.
        self._next: dict[str, int] = {
            code: seq + 1
            for code, seq in self._db.execute("SELECT code, MAX(seq) FROM log GROUP BY code")
        }

    def create_room(self, code: str, config: dict[str, Any]) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO rooms (code, config, status, created, updated) VALUES (?, ?, ?, ?, ?)",
                (code, json.dumps(config), TableStatus.WAITING.value, now, now),
            )
        self._next[code] = 1

    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None:
        """Store commands in order, all or none, before anyone hears of them."""
        if not commands:
            return
        seq = self._next.get(code, 1)
        rows = [
            (code, seq + i, json.dumps(c, separators=(",", ":"))) for i, c in enumerate(commands)
        ]
        with self._lock:
            self._db.execute("BEGIN")
            try:
                self._db.executemany("INSERT INTO log (code, seq, command) VALUES (?, ?, ?)", rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        self._next[code] = seq + len(rows)

    def set_status(self, code: str, status: TableStatus) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE rooms SET status = ?, updated = ? WHERE code = ?",
                (TableStatus(status).value, time.time(), code),
            )

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
        with self._lock:
            row = self._db.execute(
                "SELECT config, status FROM rooms WHERE code = ?", (code,)
            ).fetchone()
            if row is None:
                return None
            commands = [
                json.loads(text)
                for (text,) in self._db.execute(
                    "SELECT command FROM log WHERE code = ? ORDER BY seq", (code,)
                )
            ]
        return StoredRoom(code, json.loads(row[0]), TableStatus(row[1]), commands)

    def add_watcher(self, token_digest: str, code: str) -> None:
        with self._lock:
            self._db.execute(
                "INSERT OR REPLACE INTO watchers (token, code) VALUES (?, ?)", (token_digest, code)
            )

    def watcher_room(self, token_digest: str) -> str | None:
        with self._lock:
            row = self._db.execute(
                "SELECT code FROM watchers WHERE token = ?", (token_digest,)
            ).fetchone()
        return None if row is None else str(row[0])

    def _checkpoint_loop(self) -> None:
        db = sqlite3.connect(self.path, isolation_level=None)
        try:
            db.execute("PRAGMA busy_timeout=5000")
            while not self._stop.wait(self.CHECKPOINT_SECONDS):
                try:
                    db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchall()
                except sqlite3.Error:
                    continue  # busy now; the next round catches up
        finally:
            db.close()

    def close(self) -> None:
        self._stop.set()
        if self._checkpointer is not None:
            self._checkpointer.join(5)
        with self._lock:
            if self._checkpointer is not None:
                with contextlib.suppress(sqlite3.Error):
                    self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            self._db.close()


class MemoryStore:
    """The same interface, keeping everything in memory (nothing survives a restart)."""

    def __init__(self) -> None:
        self.rooms: dict[str, StoredRoom] = {}
        self.watchers: dict[str, str] = {}

    def create_room(self, code: str, config: dict[str, Any]) -> None:
        self.rooms[code] = StoredRoom(code, config, TableStatus.WAITING, [])

    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None:
        self.rooms[code].commands.extend(commands)

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
