"""The two SQL databases the table store runs on, behind one small connection: SQLite (the
embedded default, one file) and PostgreSQL (psycopg 3, for servers that share their tables).

Statements are written once, with ``?`` for each parameter and the column types both databases
share; :meth:`DatabaseConnection.ddl` fills in the few words of a schema that differ (a binary column,
a double, SQLite's ``WITHOUT ROWID``). A connection runs in autocommit mode and groups
statements with :meth:`DatabaseConnection.transaction`: all of them are committed, or none. This
module knows nothing of tables, rooms or the game; it only speaks to the database.
"""

from __future__ import annotations

import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol
from urllib.parse import urlsplit, urlunsplit

from ..match.errors import StoreError

POSTGRES_SCHEMES = ("postgresql", "postgres")
CONNECT_TIMEOUT = 5  # seconds to reach PostgreSQL before giving up


def is_postgres_url(target: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database (``postgresql://…``) rather than a file."""
    return isinstance(target, str) and urlsplit(target).scheme in POSTGRES_SCHEMES


def redact(url: str) -> str:
    """The URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    user = f"{parts.username}:***@" if parts.username else ":***@"
    return urlunsplit(parts._replace(netloc=user + host))


class Rows(Protocol):
    """What a statement gives back: its rows, one at a time or all at once."""

    @property
    def rowcount(self) -> int:
        """The rows a data statement changed."""

    def fetchone(self) -> Any: ...
    def fetchall(self) -> list[Any]: ...
    def __iter__(self) -> Iterator[Any]: ...


class DatabaseConnection(ABC):
    """One connection to the database, in autocommit mode; :meth:`transaction` groups."""

    dialect: str
    where: str  # the file, or the URL without its password: for messages
    # The words of a schema that differ between the databases (see :meth:`ddl`).
    words: dict[str, str]

    @abstractmethod
    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows: ...

    @abstractmethod
    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None: ...

    @abstractmethod
    @contextmanager
    def transaction(self, *, exclusive: bool = False) -> Iterator[None]:
        """Everything inside is committed at the end, or rolled back if it raises.
        ``exclusive``: take the write lock at once (schema changes)."""
        yield  # pragma: no cover

    @abstractmethod
    def table_exists(self, name: str) -> bool: ...

    @abstractmethod
    def lock_schema(self) -> None:
        """Inside an exclusive transaction: wait until no other process is changing the
        schema."""

    def ddl(self, statement: str) -> str:
        """A schema statement with this database's words: ``{blob}``, ``{double}``,
        ``{without_rowid}``."""
        return statement.format(**self.words)

    @abstractmethod
    def close(self) -> None: ...


class SQLiteConnection(DatabaseConnection):
    """A SQLite file (or ``:memory:``), usable from several threads one at a time."""

    dialect = "sqlite"
    words = {"blob": "BLOB", "double": "REAL", "without_rowid": " WITHOUT ROWID"}

    def __init__(self, path: str) -> None:
        self.where = path
        self.raw = sqlite3.connect(path, isolation_level=None, check_same_thread=False)

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        return self.raw.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        self.raw.executemany(sql, rows)

    @contextmanager
    def transaction(self, *, exclusive: bool = False) -> Iterator[None]:
        self.raw.execute("BEGIN IMMEDIATE" if exclusive else "BEGIN")
        try:
            yield
            self.raw.execute("COMMIT")
        except BaseException:
            if self.raw.in_transaction:
                self.raw.execute("ROLLBACK")
            raise

    def table_exists(self, name: str) -> bool:
        row = self.raw.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (name,)
        ).fetchone()
        return row is not None

    def lock_schema(self) -> None:
        """BEGIN IMMEDIATE already holds the file's write lock: nobody else migrates."""

    def close(self) -> None:
        self.raw.close()


class PostgresConnection(DatabaseConnection):
    """A PostgreSQL database through psycopg 3. A connection that broke (the database
    restarted, the network dropped) is opened again by the next statement outside a
    transaction, so the store heals once the database is back."""

    dialect = "postgresql"
    words = {"blob": "BYTEA", "double": "DOUBLE PRECISION", "without_rowid": ""}

    def __init__(self, url: str, *, synchronous: bool = True) -> None:
        try:
            import psycopg
        except ImportError:
            raise StoreError(
                "Tables on PostgreSQL need psycopg 3: pip install 'bigtwo[postgres]'"
            ) from None
        self._psycopg = psycopg
        self.url = url
        self.where = redact(url)
        self.synchronous = synchronous
        self._sql: dict[str, str] = {}
        self._lock = threading.RLock()
        self._depth = 0  # transactions open (psycopg nests them as savepoints)
        self.raw = self._connect()

    def _connect(self) -> Any:
        psycopg = self._psycopg
        # The server's event loop waits for this: never for ever, unless the URL says so.
        options: dict[str, Any] = {"application_name": "bigtwo"}
        try:
            if "connect_timeout" not in psycopg.conninfo.conninfo_to_dict(self.url):
                options["connect_timeout"] = CONNECT_TIMEOUT
            conn = psycopg.connect(self.url, autocommit=True, **options)
        except psycopg.Error as exc:
            reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
            raise StoreError(
                f"Cannot reach the PostgreSQL database {self.where}: {reason}"
            ) from None
        if not self.synchronous:
            # A commit returns once the database has it in memory, not on disk: it survives
            # this server being killed (as SQLite's synchronous=NORMAL does), not the
            # database's machine losing power.
            conn.execute("SET synchronous_commit = off")
        return conn

    def _live(self) -> Any:
        if self._depth == 0 and (self.raw.closed or self.raw.broken):
            self.raw = self._connect()
        return self.raw

    def _text(self, sql: str) -> str:
        text = self._sql.get(sql)
        if text is None:
            # The statements are the store's own and hold no literal '?' or '%'.
            text = self._sql[sql] = sql.replace("%", "%%").replace("?", "%s")
        return text

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Rows:
        with self._lock:
            cursor: Rows = self._live().execute(self._text(sql), params)
            return cursor

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        with self._lock, self._live().cursor() as cursor:
            cursor.executemany(self._text(sql), rows)

    @contextmanager
    def transaction(self, *, exclusive: bool = False) -> Iterator[None]:
        with self._lock:
            conn = self._live()
            self._depth += 1
            try:
                with conn.transaction():
                    yield
            finally:
                self._depth -= 1

    def table_exists(self, name: str) -> bool:
        # A query of the catalog, not to_regclass(): that reads a cache which waiting for an
        # advisory lock does not refresh, so a server that waited for another's migration
        # would not see the tables it made.
        row = self.execute(
            "SELECT 1 FROM pg_catalog.pg_tables WHERE schemaname = current_schema() "
            "AND tablename = ?",
            (name,),
        ).fetchone()
        return row is not None

    def lock_schema(self) -> None:
        # One server migrates a schema at a time; the others wait, then find it done.
        self.execute("SELECT pg_advisory_xact_lock(hashtext('bigtwo:' || current_schema()))")

    def close(self) -> None:
        with self._lock:
            self.raw.close()


def connect(target: str | Path, *, synchronous: bool = True) -> DatabaseConnection:
    """A connection to ``target``: a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres_url(str(target)):
        return PostgresConnection(str(target), synchronous=synchronous)
    return SQLiteConnection(str(target))
