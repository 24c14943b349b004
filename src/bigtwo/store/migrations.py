"""The table store's schema, in numbered versions, and the step that brings a database to the
newest: the same migrations on SQLite and PostgreSQL.

A database records each version applied in the table ``store_schema`` (one row per version),
so its version is the highest row. Migrations run in one transaction, under a lock that makes
a second server opening the same database wait and then find the work done; a failing step
leaves the database as it was. Files from before ``store_schema`` (versions 1 and 2 kept their
version in ``meta``) are recognised and brought forward. A database newer than this code is
refused in words and left untouched. Migrations are never edited once released, only added.
This module knows the schema, not what the server keeps in it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from ..match.errors import StoreError
from .sql import DatabaseConnection


@dataclass(frozen=True, slots=True)
class Migration:
    """One step: from ``version - 1`` to ``version``; statements in :mod:`.sql`'s words."""

    version: int
    summary: str
    statements: tuple[str, ...]


TABLE_MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        1,
        "rooms, their command logs and their watchers",
        (
            "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """CREATE TABLE IF NOT EXISTS rooms (
                code TEXT PRIMARY KEY,
                config TEXT NOT NULL,
                status TEXT NOT NULL,
                created {double} NOT NULL,
                updated {double} NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS log (
                code TEXT NOT NULL,
                seq INTEGER NOT NULL,
                command TEXT NOT NULL,
                PRIMARY KEY (code, seq)
            ){without_rowid}""",
            """CREATE TABLE IF NOT EXISTS watchers (
                token TEXT PRIMARY KEY,
                code TEXT NOT NULL
            )""",
        ),
    ),
    Migration(
        2,
        "snapshots of tables and the archive of finished ones",
        (
            # seq: the last command a snapshot (or an archived table) holds; the log goes on
            # after it. An archived table's commands: the zlib-compressed JSON list of those
            # after its state.
            """CREATE TABLE IF NOT EXISTS snapshots (
                code TEXT PRIMARY KEY,
                seq INTEGER NOT NULL,
                state {blob} NOT NULL
            )""",
            """CREATE TABLE IF NOT EXISTS archive (
                code TEXT PRIMARY KEY,
                seq INTEGER NOT NULL,
                state {blob},
                commands {blob} NOT NULL
            )""",
        ),
    ),
    Migration(
        3,
        "the schema's versions in store_schema; open rooms found by their status",
        (
            "CREATE INDEX IF NOT EXISTS rooms_by_status ON rooms (status, created)",
            "DELETE FROM meta WHERE key = 'schema'",
        ),
    ),
    Migration(
        4,
        "players' accounts, their sessions and seats, ratings and rated rooms",
        (
            # name_key: the name as compared (see bigtwo.store.accounts.name_key), unique;
            # password: its argon2 hash, never the password.
            """CREATE TABLE IF NOT EXISTS accounts (
                id TEXT PRIMARY KEY,
                name TEXT NOT NULL,
                name_key TEXT NOT NULL UNIQUE,
                password TEXT NOT NULL,
                created {double} NOT NULL
            )""",
            # digest: the SHA-256 of the session id the browser's cookie holds.
            """CREATE TABLE IF NOT EXISTS sessions (
                digest TEXT PRIMARY KEY,
                account TEXT NOT NULL,
                created {double} NOT NULL,
                seen {double} NOT NULL
            )""",
            "CREATE INDEX IF NOT EXISTS sessions_by_account ON sessions (account)",
            """CREATE TABLE IF NOT EXISTS account_seats (
                account TEXT NOT NULL,
                code TEXT NOT NULL,
                seat INTEGER NOT NULL,
                token TEXT NOT NULL,
                bound {double} NOT NULL,
                PRIMARY KEY (account, code)
            )""",
            "CREATE INDEX IF NOT EXISTS account_seats_by_code ON account_seats (code, seat)",
            """CREATE TABLE IF NOT EXISTS ratings (
                account TEXT NOT NULL,
                family TEXT NOT NULL,
                mu {double} NOT NULL,
                sigma {double} NOT NULL,
                games INTEGER NOT NULL,
                wins INTEGER NOT NULL,
                PRIMARY KEY (account, family)
            )""",
            """CREATE TABLE IF NOT EXISTS rated_rooms (
                code TEXT PRIMARY KEY,
                family TEXT NOT NULL,
                public INTEGER NOT NULL,
                marked {double} NOT NULL,
                settled {double},
                outcome TEXT NOT NULL
            )""",
            # One row per seat of a settled rated game; who: an account's, a guest's, a
            # computer's, or a deleted account's (account NULL but for an account's).
            """CREATE TABLE IF NOT EXISTS rating_changes (
                code TEXT NOT NULL,
                seat INTEGER NOT NULL,
                account TEXT,
                who TEXT NOT NULL,
                family TEXT NOT NULL,
                place INTEGER NOT NULL,
                points INTEGER NOT NULL,
                rating_before {double} NOT NULL,
                rating_after {double} NOT NULL,
                settled {double} NOT NULL,
                PRIMARY KEY (code, seat)
            )""",
            "CREATE INDEX IF NOT EXISTS rating_changes_by_account ON rating_changes (account)",
        ),
    ),
    Migration(
        5,
        "the coach's reviews of finished deals",
        (
            # One seat's review of one finished deal of a room (its seed: a room code may
            # name another table later), judged with ``rollouts`` rollouts; review: its JSON.
            """CREATE TABLE IF NOT EXISTS reviews (
                code TEXT NOT NULL,
                seed BIGINT NOT NULL,
                deal INTEGER NOT NULL,
                seat INTEGER NOT NULL,
                rollouts INTEGER NOT NULL,
                review TEXT NOT NULL,
                made {double} NOT NULL,
                PRIMARY KEY (code, seed, deal, seat, rollouts)
            )""",
        ),
    ),
    Migration(
        6,
        "a rated game's seed and start, and each seat's Palm figures",
        (
            # seed: the room's (the coach's reviews are kept by it); began: when its match
            # started (NULL: not yet, or before this version).
            "ALTER TABLE rated_rooms ADD COLUMN seed BIGINT NOT NULL DEFAULT 0",
            "ALTER TABLE rated_rooms ADD COLUMN began {double}",
            # As the Palm high-score table has them: the game's deals (rounds), its seconds
            # of play, and the seat's most points in one deal.
            "ALTER TABLE rating_changes ADD COLUMN rounds INTEGER NOT NULL DEFAULT 0",
            "ALTER TABLE rating_changes ADD COLUMN seconds {double} NOT NULL DEFAULT 0",
            "ALTER TABLE rating_changes ADD COLUMN best INTEGER NOT NULL DEFAULT 0",
        ),
    ),
)
TABLE_SCHEMA_VERSION = TABLE_MIGRATIONS[-1].version
assert [m.version for m in TABLE_MIGRATIONS] == list(range(1, TABLE_SCHEMA_VERSION + 1))

_VERSIONS = """CREATE TABLE IF NOT EXISTS store_schema (
    version INTEGER PRIMARY KEY,
    summary TEXT NOT NULL,
    applied {double} NOT NULL
)"""


def schema_version(db: DatabaseConnection) -> int:
    """The database's version: 0 for an empty one."""
    if db.table_exists("store_schema"):
        row = db.execute("SELECT MAX(version) FROM store_schema").fetchone()
        if row is not None and row[0] is not None:
            return int(row[0])
    return _legacy_version(db)


def _legacy_version(db: DatabaseConnection) -> int:
    """A file from before ``store_schema``: its version as ``meta`` has it (0: not one)."""
    if not db.table_exists("rooms"):
        return 0
    if db.table_exists("meta"):
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if row is not None and str(row[0]).isdigit():
            return int(row[0])
    return 1


def migrate(db: DatabaseConnection, target: int | None = None) -> int:
    """Bring the database to ``target`` (the newest by default), all steps or none; returns
    the version it had. Raises :class:`StoreError` for a database newer than this code."""
    if target is None:
        target = TABLE_SCHEMA_VERSION
    if not 0 <= target <= TABLE_SCHEMA_VERSION:
        raise ValueError(
            f"no schema version {target} (this code knows 1 to {TABLE_SCHEMA_VERSION})"
        )
    found = schema_version(db)
    _refuse_newer(db, found)
    if found >= target:
        return found
    with db.transaction(exclusive=True):
        db.lock_schema()
        # Again inside the lock: another server may have migrated meanwhile.
        found = schema_version(db)
        _refuse_newer(db, found)
        db.execute(db.ddl(_VERSIONS))
        now = time.time()
        recorded = db.execute("SELECT COUNT(*) FROM store_schema").fetchone()[0]
        if found and not recorded:  # versions applied before store_schema existed
            db.executemany(
                "INSERT INTO store_schema (version, summary, applied) VALUES (?, ?, ?)",
                [(m.version, m.summary, now) for m in TABLE_MIGRATIONS[:found]],
            )
        for step in TABLE_MIGRATIONS[found:target]:
            for statement in step.statements:
                db.execute(db.ddl(statement))
            db.execute(
                "INSERT INTO store_schema (version, summary, applied) VALUES (?, ?, ?)",
                (step.version, step.summary, now),
            )
    return found


def _refuse_newer(db: DatabaseConnection, found: int) -> None:
    if found > TABLE_SCHEMA_VERSION:
        raise StoreError(
            f"The table database {db.where} has schema version {found}, and this bigtwo knows "
            f"up to {TABLE_SCHEMA_VERSION}; it was left untouched. Update bigtwo."
        )


class MigratedStore:
    """Tables over one connection to a database brought to the newest schema, used from the
    server's event loop; the lock guards use from another thread (tests, tools)."""

    def __init__(self, db: DatabaseConnection) -> None:
        self._db = db
        self._lock = threading.RLock()
        try:
            migrate(db)
        except BaseException:
            db.close()
            raise

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        with self._lock, self._db.transaction():
            yield

    def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with self._lock:
            return self._db.execute(sql, params).fetchall()

    def close(self) -> None:
        with self._lock:
            self._db.close()
