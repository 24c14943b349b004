"""Time the table store's hot path, an append of one or two commands, on SQLite and on
PostgreSQL, in interleaved rounds (so a busy machine weighs on both alike), and print the
median and range per back end.

``python scripts/bench_store.py [--appends 2000] [--rounds 5] [--postgres URL]``: SQLite in a
temporary file; PostgreSQL (default ``postgresql://postgres@127.0.0.1:5432/postgres``) in a
schema of its own, dropped afterwards. It measures; it changes nothing stored elsewhere.
"""

from __future__ import annotations

import argparse
import json
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from bigtwo.store.tables import open_store

COMMANDS = [{"op": "act", "seat": 1, "cards": "3d 3c", "id": "a1"}, {"op": "pass", "seat": 2}]
TABLES = 20


def appends(target: str, count: int) -> float:
    """Microseconds per append, over ``count`` appends spread over a few tables."""
    store = open_store(target, checkpoint=False)
    try:
        for t in range(TABLES):
            store.create_room(f"T{t:05d}", {})
        started = time.perf_counter()
        for i in range(count):
            store.append(f"T{i % TABLES:05d}", COMMANDS[: 1 + i % 2])
        return (time.perf_counter() - started) / count * 1e6
    finally:
        store.close()


def in_schema(url: str, schema: str) -> str:
    parts = urlsplit(url)
    query = [(k, v) for k, v in parse_qsl(parts.query) if k != "options"]
    query.append(("options", f"-csearch_path={schema}"))
    return urlunsplit(parts._replace(query=urlencode(query)))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--postgres", default="postgresql://postgres@127.0.0.1:5432/postgres")
    args = parser.parse_args()
    import psycopg
    from psycopg import sql

    times: dict[str, list[float]] = {"sqlite": [], "postgresql": []}
    for _ in range(args.rounds):
        with tempfile.TemporaryDirectory() as tmp:
            times["sqlite"].append(appends(str(Path(tmp) / "tables.sqlite3"), args.appends))
        schema = f"bigtwo_bench_{secrets.token_hex(6)}"
        try:
            with psycopg.connect(args.postgres, autocommit=True) as admin:
                admin.execute(sql.SQL("CREATE SCHEMA {}").format(sql.Identifier(schema)))
        except psycopg.Error as exc:
            print(f"bench_store: PostgreSQL at {args.postgres}: {exc}", file=sys.stderr)
            return 2
        try:
            times["postgresql"].append(appends(in_schema(args.postgres, schema), args.appends))
        finally:
            with psycopg.connect(args.postgres, autocommit=True) as admin:
                admin.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(sql.Identifier(schema)))
    result = {
        name: {
            "append_us_median": round(statistics.median(values), 1),
            "append_us_min": round(min(values), 1),
            "append_us_max": round(max(values), 1),
        }
        for name, values in times.items()
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
