"""The services the tests use besides the code itself: PostgreSQL (a table store's back end;
each test gets a schema of its own, dropped after it) and Redis (for the cluster). Their
probes, the schemas' lifecycle and checks that both fixtures hand out what they say.

``python tests/test_services.py`` (``make test`` runs it first) says whether both are there
and, if not, how to start them; with ``CI`` set it fails, as the tests then would.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import socket
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import pytest

POSTGRES_URL = os.environ.get(
    "BIGTWO_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/postgres"
)
REDIS_URL = os.environ.get("BIGTWO_TEST_REDIS", "redis://127.0.0.1:6379/0")
START_POSTGRES = (
    "start it with `apt-get install postgresql && service postgresql start` (the tests connect "
    "to 127.0.0.1:5432 as user postgres with trust authentication), or name another server "
    "with BIGTWO_TEST_POSTGRES=postgresql://user@host:port/dbname"
)
START_REDIS = (
    "start it with `apt-get install redis-server && service redis-server start`, or name "
    "another with BIGTWO_TEST_REDIS=redis://host:port/db"
)
SCHEMA_PREFIX = "bigtwo_test_"
# This machine, in the schemas' names: a sweep drops only what its own dead processes left.
HOST = hashlib.sha1(socket.gethostname().encode()).hexdigest()[:8]
# The table store's back ends, by the name a test's id carries (conftest's store_db and server).
STORE_BACKENDS = ("sqlite", "postgresql")


def with_search_path(url: str, schema: str) -> str:
    """``url`` with its connections working in ``schema`` (libpq's ``options``)."""
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


class PostgresSchemas:
    """Makes and drops schemas on the test PostgreSQL server, one per test or module, so that
    tests in several processes (pytest-xdist) never see each other's tables."""

    def __init__(self, url: str) -> None:
        self.url = url

    @contextmanager
    def schema(self) -> Iterator[str]:
        """A fresh schema's URL for as long as the block lasts; then it is dropped with all it
        holds."""
        import psycopg
        from psycopg import sql

        name = f"{SCHEMA_PREFIX}{HOST}_{os.getpid()}_{secrets.token_hex(6)}"
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(name)))
        try:
            yield with_search_path(self.url, name)
        finally:
            with psycopg.connect(self.url, autocommit=True) as admin:
                admin.execute("SET lock_timeout = '20s'")
                admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(name)))

    def sweep(self) -> list[str]:
        """Drop the schemas that test processes of this machine which are gone left behind
        (killed before they could drop them); returns their names."""
        import psycopg
        from psycopg import sql

        dropped = []
        with psycopg.connect(self.url, autocommit=True) as admin:
            names = [r[0] for r in admin.execute(
                "SELECT nspname FROM pg_namespace WHERE starts_with(nspname, %s)",
                (f"{SCHEMA_PREFIX}{HOST}_",),
            )]  # fmt: skip
            for name in names:
                pid = name.split("_")[-2]
                if pid.isdigit() and not Path(f"/proc/{pid}").exists():
                    try:
                        admin.execute(
                            sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(sql.Identifier(name))
                        )
                    except psycopg.Error:  # another test process is sweeping it too
                        continue
                    dropped.append(name)
        return dropped

    def exists(self, url: str) -> bool:
        """Whether the schema that ``url`` works in is there."""
        import psycopg

        schema = dict(parse_qsl(urlsplit(url).query))["options"].split("=", 1)[1]
        with psycopg.connect(self.url, autocommit=True) as admin:
            row = admin.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", (schema,)
            ).fetchone()
        return row is not None


def postgres_schemas() -> tuple[PostgresSchemas | None, str]:
    """The test PostgreSQL server, or None and what is wrong in words."""
    try:
        import psycopg
    except ImportError:
        return None, "psycopg is not installed (make venv installs it)"
    try:
        with psycopg.connect(POSTGRES_URL, connect_timeout=3, autocommit=True) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as exc:
        reason = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        return None, f"PostgreSQL is not reachable at {POSTGRES_URL} ({reason}); {START_POSTGRES}"
    return PostgresSchemas(POSTGRES_URL), ""


def redis_reachable() -> tuple[str | None, str]:
    """The test Redis's URL, or None and what is wrong in words."""
    try:
        import redis
    except ImportError:
        return None, "redis (redis-py) is not installed (make venv installs it)"
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3, socket_timeout=3)
    try:
        client.ping()
    except redis.RedisError as exc:
        return None, f"Redis is not reachable at {REDIS_URL} ({exc}); {START_REDIS}"
    finally:
        client.close()
    return REDIS_URL, ""


# -- the fixtures do what they say ----------------------------------------------------------------


def test_a_schema_is_the_tests_own_and_is_dropped_afterwards(postgres: PostgresSchemas) -> None:
    import psycopg

    with postgres.schema() as first, postgres.schema() as second:
        assert first != second and postgres.exists(first) and postgres.exists(second)
        with psycopg.connect(first, autocommit=True) as conn:
            conn.execute("CREATE TABLE mine (x INTEGER)")
            conn.execute("INSERT INTO mine VALUES (1)")
        with (
            psycopg.connect(second, autocommit=True) as conn,
            pytest.raises(psycopg.errors.UndefinedTable),
        ):
            conn.execute("SELECT x FROM mine")
    assert not postgres.exists(first) and not postgres.exists(second)


def test_a_sweep_drops_only_what_dead_test_processes_left(postgres: PostgresSchemas) -> None:
    import psycopg
    from psycopg import sql

    orphan = f"{SCHEMA_PREFIX}{HOST}_{2**22 + 12345}_{secrets.token_hex(6)}"  # no such pid
    with psycopg.connect(postgres.url, autocommit=True) as admin:
        admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(orphan)))
    with postgres.schema() as mine:
        assert orphan in postgres.sweep()
        assert postgres.exists(mine)
    with psycopg.connect(postgres.url, autocommit=True) as admin:
        gone = admin.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s", (orphan,))
        assert gone.fetchone() is None


def test_redis_answers(redis_url: str) -> None:
    import redis

    client = redis.Redis.from_url(redis_url)
    key = f"{SCHEMA_PREFIX}{secrets.token_hex(6)}"
    try:
        assert client.set(key, "seen", ex=30)
        assert client.get(key) == b"seen"
    finally:
        client.delete(key)
        client.close()


def test_the_search_path_replaces_any_earlier_one() -> None:
    url = with_search_path("postgresql://u@h:5/db?options=-csearch_path%3Dold&sslmode=off", "new")
    assert dict(parse_qsl(urlsplit(url).query)) == {
        "sslmode": "off",
        "options": "-csearch_path=new",
    }


def main() -> int:
    """Say whether the services are there; in CI, fail when one is not."""
    ci = os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")
    missing = [problem for ok, problem in (postgres_schemas(), redis_reachable()) if ok is None]
    for problem in missing:
        print(f"make test: {problem}", file=sys.stderr)
    if missing and ci:
        print("make test: CI runs every test, so the services must be running", file=sys.stderr)
        return 1
    if missing:
        print("make test: the tests that need them will be skipped", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
