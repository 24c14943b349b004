"""The coach's reviews of finished deals in the table store's database, so a deal is reviewed
once: one row per room, seed, deal, seat and number of rollouts, holding the review's JSON.

The table is the table store's schema's version 5 (:mod:`.migrations`); this module opens its
own connection to the same database (SQLite or PostgreSQL, :mod:`.sql`), or an in-memory
SQLite database for a server that keeps nothing. It stores and finds; what a review holds and
who may read it are the server's (:mod:`bigtwo.server.coach`).
"""

from __future__ import annotations

import json
import time
from typing import Any

from .migrations import MigratedStore
from .tables import connection_beside

ReviewKey = tuple[str, int, int, int, int]  # room code, seed, deal, seat, rollouts


class ReviewStore(MigratedStore):
    """The reviews kept over one connection (see :class:`MigratedStore`)."""

    def get(self, key: ReviewKey) -> dict[str, Any] | None:
        """The review kept under ``key`` (None: none yet)."""
        rows = self._rows(
            "SELECT review FROM reviews WHERE code = ? AND seed = ? AND deal = ? "
            "AND seat = ? AND rollouts = ?",
            key,
        )
        return dict(json.loads(rows[0][0])) if rows else None

    def put(self, key: ReviewKey, review: dict[str, Any]) -> None:
        """Keep ``review`` under ``key`` (a second one for the same key: the later, which a
        finished deal's determinism makes the same)."""
        with self._lock:
            self._db.execute(
                "INSERT INTO reviews (code, seed, deal, seat, rollouts, review, made) "
                "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (code, seed, deal, seat, rollouts) "
                "DO UPDATE SET review = excluded.review, made = excluded.made",
                (*key, json.dumps(review, separators=(",", ":")), time.time()),
            )

    def count(self, code: str) -> int:
        """How many reviews of room ``code`` are kept."""
        return int(self._rows("SELECT COUNT(*) FROM reviews WHERE code = ?", (code,))[0][0])

    def deals(self, code: str, seed: int, seat: int, rollouts: int) -> list[int]:
        """The deals of room ``code`` (of ``seed``) whose review of ``seat``, judged with
        ``rollouts`` rollouts, is kept, in order."""
        rows = self._rows(
            "SELECT deal FROM reviews WHERE code = ? AND seed = ? AND seat = ? "
            "AND rollouts = ? ORDER BY deal",
            (code, seed, seat, rollouts),
        )
        return [int(r[0]) for r in rows]


def open_reviews(tables: object) -> ReviewStore:
    """The reviews beside a table store: in its database (a SQLite file or PostgreSQL), or,
    for a store that keeps nothing (in memory), in an in-memory database of their own."""
    return ReviewStore(connection_beside(tables))
