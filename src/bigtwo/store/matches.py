"""Persistence in an embedded SQLite file: matches (finished or not), preferences, high scores
and lifetime statistics.

A match of either game is stored as its game record (written and read through
:mod:`bigtwo.match.record_formats`, which knows each game's record by its header): the
header once, then the record's lines appended as the game goes, each save one transaction
in WAL mode with ``synchronous=FULL``, so a process killed at any moment loses at most the
action in flight and loading replays the stored lines exactly. A game of Big 2 RevolutioN
keeps no clock, so its time played is given to the store (``seconds=``) and kept beside the
record; its games count in the high scores and the statistics as every game does. The file
comes from the ``path`` argument, else ``BIGTWO_DB``, else
``platformdirs.user_data_dir("bigtwo")/bigtwo.db``; its schema (:mod:`.match_schema`)
carries a version and migrates forward in one transaction. A damaged, foreign, newer or
locked file raises a :class:`~bigtwo.match.errors.StoreError` in words and is never
modified, let alone replaced. This module must not decide rules or read a record's lines:
it only keeps what the match and the record say.

How a front end uses it::

    store = MatchStore()                     # or MatchStore(args.db)
    for info in store.unfinished():          # on start: offer to continue
        ...
    match = store.load_match(info.id)        # continue, exactly where it stopped
    match_id = store.new_match(match)        # or begin a new one
    store.save(match_id, match)              # after every action (and every next_deal)
    store.finish(match_id, match)            # when match.over: stats for every seat
    if store.is_high_score(match.totals[0]):
        store.add_match_high_score(match, 0, name="Bill", match_id=match_id)
"""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..engine.views import Action
from ..match import record_formats
from ..match.errors import RecordError, StoreCorrupt, StoreError, StoreLocked
from ..match.match import Match
from ..match.record_common import format_seconds
from ..match.record_formats import Game as StoredGame  # a stored game of either kind
from .match_schema import (
    APPLICATION_ID,
    HIGH_SCORE_ROWS,
    MIGRATIONS,
    SCHEMA_VERSION,
    HighScore,
    MatchInfo,
    MatchStatus,
    PlayerStats,
    default_path,
)

__all__ = [
    "APPLICATION_ID",
    "HIGH_SCORE_ROWS",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "HighScore",
    "MatchInfo",
    "MatchStatus",
    "MatchStore",
    "PlayerStats",
    "StoredGame",
    "default_path",
]


def _utc_now() -> datetime:
    return datetime.now(UTC)


class MatchStore:
    """One SQLite database of bigtwo data. Safe to share between threads; use one per
    process (several processes may open the same file: WAL lets them read while one writes)."""

    def __init__(
        self,
        path: str | Path | None = None,
        *,
        timeout: float = 5.0,
        now: Callable[[], datetime] | None = None,
    ) -> None:
        self.path = Path(path).expanduser() if path is not None else default_path()
        self._now = now or _utc_now
        self._lock = threading.RLock()
        self._live: dict[int, StoredGame] = {}
        self._conn: sqlite3.Connection | None = None
        self._conn = self._open(timeout)

    # -- opening -----------------------------------------------------------------------------------
    def _open(self, timeout: float) -> sqlite3.Connection:
        memory = str(self.path) == ":memory:"
        if not memory:
            if self.path.exists() and not self.path.is_file():
                raise StoreError(f"{self.path} is not a file, so it cannot be the bigtwo database")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"Cannot create the folder for the database {self.path}: {exc.strerror or exc}"
                ) from None
        try:
            conn = sqlite3.connect(
                str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise StoreError(f"Cannot open the database {self.path}: {exc}") from None
        try:
            with self._guard("open the database"):
                self._check(conn)
                # Only once the file is known to be ours: switching the journal mode writes.
                conn.execute("PRAGMA journal_mode=WAL").fetchone()
                conn.execute("PRAGMA synchronous=FULL")
                conn.execute("PRAGMA foreign_keys=ON")
                self._migrate(conn, SCHEMA_VERSION)
        except BaseException:
            conn.close()
            raise
        return conn

    def _check(self, conn: sqlite3.Connection) -> None:
        """Refuse, without writing a byte, a file that is not a sound bigtwo database."""
        app = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
        if app not in (0, APPLICATION_ID) or (app == 0 and tables):
            raise StoreCorrupt(
                f"{self.path} is an SQLite database of some other program, not bigtwo's; "
                "it was left untouched. Give bigtwo another file (--db or BIGTWO_DB)."
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"The database {self.path} was written by a newer bigtwo (schema {version}; "
                f"this one knows up to {SCHEMA_VERSION}); it was left untouched. Update bigtwo."
            )
        problems = [row[0] for row in conn.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StoreCorrupt(
                f"The database {self.path} is damaged ({problems[0]}); it was left untouched. "
                "Move it aside (keep it for recovery) to start afresh."
            )

    def _migrate(self, conn: sqlite3.Connection, target: int) -> None:
        if conn.execute("PRAGMA user_version").fetchone()[0] >= target:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Read again inside the lock: another process may have migrated meanwhile.
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            for step in range(version, target):
                for statement in MIGRATIONS[step]:
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {max(version, target)}")
            conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
            conn.execute("COMMIT")
        except BaseException:
            conn.execute("ROLLBACK")
            raise

    @property
    def schema_version(self) -> int:
        with self._read("read the schema version") as db:
            return int(db.execute("PRAGMA user_version").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                with suppress(sqlite3.Error):
                    self._conn.close()
                self._conn = None
            self._live.clear()

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- errors and transactions -------------------------------------------------------------------
    @contextmanager
    def _guard(self, doing: str) -> Iterator[None]:
        """Turn SQLite's errors into StoreErrors that say what did not happen and why."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            text = str(exc)
            if "locked" in text or "busy" in text:
                raise StoreLocked(
                    f"The database {self.path} is locked by another program, so bigtwo could not "
                    f"{doing}; nothing stored was lost. Close the other program and try again."
                ) from None
            if "readonly" in text or "read-only" in text:
                raise StoreError(
                    f"The database {self.path} cannot be written (read-only), so bigtwo could not "
                    f"{doing}; nothing stored was lost."
                ) from None
            if "malformed" in text or "not a database" in text:
                raise self._corrupt(text) from None
            raise StoreError(f"Could not {doing} in {self.path}: {text}") from None
        except sqlite3.IntegrityError as exc:
            raise StoreError(f"Could not {doing} in {self.path}: {exc}") from None
        except sqlite3.ProgrammingError as exc:
            raise StoreError(f"Could not {doing}: the store is closed ({exc})") from None
        except sqlite3.DatabaseError as exc:
            raise self._corrupt(str(exc)) from None

    def _corrupt(self, text: str) -> StoreCorrupt:
        return StoreCorrupt(
            f"The database {self.path} is damaged or is not a database ({text}); it was left "
            "untouched. Move it aside (keep it for recovery) to start afresh."
        )

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError("The store is closed")
        return self._conn

    @contextmanager
    def _write(self, doing: str) -> Iterator[sqlite3.Connection]:
        """One durable transaction: all of it is stored, or none of it."""
        with self._lock, self._guard(doing):
            db = self._db()
            db.execute("BEGIN IMMEDIATE")
            try:
                yield db
                db.execute("COMMIT")
            except BaseException:
                with suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
                raise

    @contextmanager
    def _read(self, doing: str) -> Iterator[sqlite3.Connection]:
        """A consistent snapshot for several reads."""
        with self._lock, self._guard(doing):
            db = self._db()
            db.execute("BEGIN")
            try:
                yield db
            finally:
                db.execute("COMMIT")

    def _stamp(self) -> str:
        return self._now().isoformat(timespec="seconds")

    # -- matches -----------------------------------------------------------------------------------
    def new_match(self, match: StoredGame, *, seconds: float | None = None) -> int:
        """Store a match that has just begun (or any match) and return its id."""
        header = "\n".join(record_formats.format_for(match).header_lines(match))
        with self._write("store the new game") as db:
            now = self._stamp()
            cursor = db.execute(
                "INSERT INTO matches (created, updated, rules, names, header, deals)"
                " VALUES (?, ?, ?, ?, ?, ?)",
                (now, now, match.first_ruleset.name, json.dumps(match.names), header, match.deals),
            )
            match_id = int(cursor.lastrowid or 0)
            self._append(db, match_id, match, seconds)
        self._live[match_id] = match
        return match_id

    def save(self, match_id: int, match: StoredGame, *, seconds: float | None = None) -> int:
        """Append whatever ``match`` did since the last save, durably; returns how many
        record lines were added. Call it after every action: it costs one transaction.
        ``seconds``: a revolution game's time played so far (a 52-card match keeps its own)."""
        with self._write("save the game") as db:
            added = self._append(db, match_id, match, seconds)
        self._live[match_id] = match
        return added

    def take_back(self, match_id: int, match: Match) -> int:
        """Save ``match`` after actions of its deal in play were taken back (an undo): that
        deal's stored lines are written again from the match; earlier deals stay as stored."""
        with self._write("save the game") as db:
            row = db.execute("SELECT open_seq FROM matches WHERE id = ?", (match_id,)).fetchone()
            if row is None:
                raise StoreError(f"There is no match {match_id} in {self.path}")
            db.execute(
                "DELETE FROM match_lines WHERE match_id = ? AND seq >= ?", (match_id, row[0])
            )
            db.execute("UPDATE matches SET line_count = ? WHERE id = ?", (row[0], match_id))
            added = self._append(db, match_id, match)
        self._live[match_id] = match
        return added

    def append_actions(
        self, match_id: int, actions: Sequence[Action] = (), match: Match | None = None
    ) -> int:
        """Persist the actions just applied, such as ``match.play(...)``'s return value.

        The lines come from the match itself (``match``, or the one this store last created,
        loaded or saved under ``match_id``), so autopasses, deal ends and new deals are
        stored too and nothing can be written out of order.
        """
        target = match if match is not None else self._live.get(match_id)
        if target is None:
            raise StoreError(
                f"Match {match_id} is not open in this store: pass match=, or create or load "
                "it through this store first"
            )
        if not isinstance(target, Match):
            raise StoreError("A game of the revolution is saved whole: save the match instead")
        deal_actions = target.deal.actions
        for action in actions:
            if action not in deal_actions:
                raise StoreError("Those actions are not the match's latest: save the match instead")
        return self.save(match_id, target)

    def _append(
        self, db: sqlite3.Connection, match_id: int, match: StoredGame, seconds: float | None = None
    ) -> int:
        row = db.execute(
            "SELECT line_count, open_deal, open_seq, open_seconds FROM matches WHERE id = ?",
            (match_id,),
        ).fetchone()
        if row is None:
            raise StoreError(f"There is no match {match_id} in {self.path}")
        count, open_deal, open_seq, kept_seconds = row
        stored = [
            r[0]
            for r in db.execute(
                "SELECT line FROM match_lines WHERE match_id = ? AND seq >= ? ORDER BY seq",
                (match_id, open_seq),
            )
        ]
        body_lines = record_formats.format_for(match).body_lines
        lines = body_lines(match, open_deal) if match.deal_number >= open_deal else []
        # The stored lines of the deal in play must be where this match's lines begin:
        # otherwise this is another game, and saving it would spoil the stored one.
        if lines[: len(stored)] != stored:
            raise StoreError(
                f"Match {match_id} in {self.path} holds moves this game does not have; "
                "it was not overwritten (start a new match instead)"
            )
        new = lines[len(stored) :]
        db.executemany(
            "INSERT INTO match_lines (match_id, seq, line) VALUES (?, ?, ?)",
            [(match_id, count + i, line) for i, line in enumerate(new)],
        )
        # The next save rewrites nothing before the deal in play: it starts from there.
        start = lines.index(f"deal {match.deal_number}") if lines else 0
        db.execute(
            "UPDATE matches SET updated = ?, names = ?, header = ?, deal_number = ?, totals = ?,"
            " line_count = ?, open_deal = ?, open_seq = ?, open_seconds = ? WHERE id = ?",
            (
                self._stamp(),
                json.dumps(match.names),
                "\n".join(record_formats.format_for(match).header_lines(match)),
                match.deal_number,
                json.dumps(match.totals),
                count + len(new),
                match.deal_number,
                open_seq + start,
                _open_seconds(match, kept_seconds if seconds is None else seconds),
                match_id,
            ),
        )
        return len(new)

    def record_text(self, match_id: int) -> str:
        """The stored match as a text record, without replaying it."""
        with self._read("read the game") as db:
            row = db.execute(
                "SELECT header, open_seconds FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
            if row is None:
                raise StoreError(f"There is no match {match_id} in {self.path}")
            lines = [
                r[0]
                for r in db.execute(
                    "SELECT line FROM match_lines WHERE match_id = ? ORDER BY seq", (match_id,)
                )
            ]
        header, seconds = row
        # A revolution record has no clock: its time is kept beside it (revolution_seconds).
        if seconds and record_formats.format_of(header).keeps_time:
            lines.append(f"seconds {format_seconds(seconds)}")
        return "\n".join([header, "", *lines]) + "\n"

    def load_match(self, match_id: int) -> Match:
        """Replay a stored match, finished or not, to exactly where it was last saved."""
        game = self.load_game(match_id)
        if not isinstance(game, Match):
            raise StoreError(
                f"Match {match_id} in {self.path} is a game of Big 2 RevolutioN, "
                "not a 52-card match"
            )
        return game

    def load_game(self, match_id: int) -> StoredGame:
        """Replay a stored game of either kind (a 52-card match, or a game of Big 2
        RevolutioN), finished or not, to exactly where it was last saved."""
        text = self.record_text(match_id)
        try:
            game = record_formats.read_game(text)
        except RecordError as exc:
            raise RecordError(
                f"match {match_id} in {self.path}, {exc.where}", exc.reason, exc.line
            ) from None
        self._live[match_id] = game
        return game

    def revolution_seconds(self, match_id: int) -> float:
        """The time played so far in a stored game of the revolution (as last saved)."""
        with self._read("read the game") as db:
            row = db.execute(
                "SELECT open_seconds FROM matches WHERE id = ?", (match_id,)
            ).fetchone()
        if row is None:
            raise StoreError(f"There is no match {match_id} in {self.path}")
        return float(row[0])

    def unfinished(self) -> list[MatchInfo]:
        """Matches left in play, the most recently played first."""
        return self.matches(status=MatchStatus.OPEN)

    def matches(
        self, *, status: MatchStatus | None = None, limit: int | None = None
    ) -> list[MatchInfo]:
        """Stored matches, the most recently played first."""
        sql = (
            "SELECT id, created, updated, status, rules, names, deal_number, deals, totals"
            " FROM matches"
        )
        args: list[Any] = []
        if status is not None:
            sql += " WHERE status = ?"
            args.append(status.value)
        sql += " ORDER BY updated DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self._read("list the games") as db:
            rows = db.execute(sql, args).fetchall()
        return [
            MatchInfo(
                id=r[0],
                created=r[1],
                updated=r[2],
                status=MatchStatus(r[3]),
                rules=r[4],
                names=tuple(json.loads(r[5])),
                deal_number=r[6],
                deals=r[7],
                totals=tuple(json.loads(r[8])),
            )  # fmt: skip
            for r in rows
        ]

    def finish(
        self,
        match_id: int,
        match: StoredGame | None = None,
        *,
        stats_for: Iterable[int] | None = None,
        seconds: float | None = None,
    ) -> None:
        """Save the match a last time, mark it finished and count it in the lifetime
        statistics of each seat's name (``stats_for``: only these seats). Doing it twice
        counts it once. ``seconds``: a revolution game's time played."""
        game = match if match is not None else self._live.get(match_id) or self.load_game(match_id)
        seats = range(game.players) if stats_for is None else list(stats_for)
        best = max(game.totals)
        with self._write("finish the game") as db:
            self._append(db, match_id, game, seconds)
            played = _played_seconds(game, db, match_id, seconds)
            now = self._stamp()
            db.execute(
                "UPDATE matches SET status = ?, finished = ? WHERE id = ?",
                (MatchStatus.FINISHED.value, now, match_id),
            )
            for seat in seats:
                db.execute(
                    "INSERT OR IGNORE INTO games (match_id, seat, name, date, rules, score, won,"
                    " rounds, deals_won, seconds, max_score) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        match_id,
                        seat,
                        game.names[seat],
                        now,
                        game.first_ruleset.name,
                        game.totals[seat],
                        int(game.totals[seat] == best),
                        len(game.results),
                        game.deals_won(seat),
                        played,
                        game.best_deal(seat),
                    ),  # fmt: skip
                )
        self._live[match_id] = game

    def abandon(self, match_id: int) -> None:
        """Stop offering a match for continuing; its record stays stored."""
        with self._write("set the game aside") as db:
            db.execute(
                "UPDATE matches SET status = ?, updated = ? WHERE id = ? AND status = ?",
                (MatchStatus.ABANDONED.value, self._stamp(), match_id, MatchStatus.OPEN.value),
            )
        self._live.pop(match_id, None)

    # -- high scores and statistics ----------------------------------------------------------------
    def add_high_score(
        self,
        name: str,
        score: int,
        *,
        rules: str = "palm",
        rounds: int = 0,
        seconds: float = 0.0,
        max_score: int = 0,
        match_id: int | None = None,
        date: str | None = None,
        seat: int | None = None,
    ) -> HighScore:
        """Enter a final score under a name (the Palm asks for one after a high score).

        The balance is the running sum of every game recorded for that name: the games
        :meth:`finish` recorded under the seat's name, and the games entered here. A game
        not yet recorded for this name (a name typed at the high-score prompt, or no
        ``match_id``) is recorded now, so it counts once in the balance and in :meth:`stats`.
        With the ``seat`` that played it, the game :meth:`finish` recorded for that seat moves
        to the name entered: the person at the prompt says what they are called, and the game
        is theirs alone (not the seat's name's as well).
        """
        name = name.strip()
        if not name or name.splitlines() != [name]:
            raise StoreError("A high-score name must be one line of text")
        with self._write("enter the high score") as db:
            if match_id is not None and seat is not None:
                db.execute(
                    "UPDATE games SET name = ? WHERE match_id = ? AND seat = ?",
                    (name, match_id, seat),
                )
            balance = db.execute(
                "SELECT COALESCE(SUM(score), 0) FROM games WHERE name = ?", (name,)
            ).fetchone()[0]
            counted = (
                match_id is not None
                and db.execute(
                    "SELECT 1 FROM games WHERE match_id = ? AND name = ?", (match_id, name)
                ).fetchone()
            )
            when = date or self._stamp()
            if not counted:
                balance += score
                db.execute(
                    "INSERT INTO games (match_id, seat, name, date, rules, score, won, rounds,"
                    " deals_won, seconds, max_score) VALUES (?, NULL, ?, ?, ?, ?, 0, ?, 0, ?, ?)",
                    (match_id, name, when, rules, score, rounds, seconds, max_score),
                )
            cursor = db.execute(
                "INSERT INTO high_scores (name, score, date, rules, rounds, seconds, max_score,"
                " balance, match_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (name, score, when, rules, rounds, seconds, max_score, balance, match_id),
            )
        return HighScore(
            int(cursor.lastrowid or 0), name, score, when, rules, rounds, seconds, max_score,
            balance, match_id,
        )  # fmt: skip

    def add_match_high_score(
        self,
        match: StoredGame,
        seat: int,
        *,
        name: str | None = None,
        match_id: int | None = None,
        seconds: float | None = None,
    ) -> HighScore:
        """Enter ``seat``'s final score of ``match`` (under ``name``, else the seat's name);
        ``seconds``: a revolution game's time played (a 52-card match keeps its own)."""
        played = match.seconds if _keeps_time(match) else seconds or 0.0
        return self.add_high_score(
            name or match.names[seat],
            match.totals[seat],
            rules=match.first_ruleset.name,
            rounds=len(match.results),
            seconds=round(played, 3),
            max_score=match.best_deal(seat),
            match_id=match_id,
            seat=seat,
        )

    def high_scores(self, limit: int = HIGH_SCORE_ROWS) -> list[HighScore]:
        """The best scores, highest first (the earlier of equal scores first)."""
        with self._read("read the high scores") as db:
            rows = db.execute(
                "SELECT id, name, score, date, rules, rounds, seconds, max_score, balance,"
                " match_id FROM high_scores ORDER BY score DESC, date ASC, id ASC LIMIT ?",
                (limit,),
            ).fetchall()
        return [HighScore(*r) for r in rows]

    def is_high_score(self, score: int, limit: int = HIGH_SCORE_ROWS) -> bool:
        """Whether ``score`` would enter a list of ``limit`` high scores."""
        scores = self.high_scores(limit)
        return len(scores) < limit or score > scores[-1].score

    def stats(self, name: str) -> PlayerStats:
        """Lifetime statistics of a name (zeros for a name never seen)."""
        with self._read("read the statistics") as db:
            row = db.execute(
                "SELECT COUNT(*), COALESCE(SUM(won), 0), COALESCE(SUM(rounds), 0),"
                " COALESCE(SUM(deals_won), 0), COALESCE(SUM(score), 0), MAX(score),"
                " MAX(max_score), COALESCE(SUM(seconds), 0) FROM games WHERE name = ?",
                (name,),
            ).fetchone()
        games, won, deals, deals_won, balance, best_game, best_deal, seconds = row
        return PlayerStats(
            name, games, won, deals, deals_won, balance, best_game or 0, best_deal or 0,
            float(seconds),
        )  # fmt: skip

    def reset_stats(self) -> int:
        """Forget every name's lifetime statistics (the high-score list and the stored games
        stay); answers how many games were counted."""
        with self._write("reset the statistics") as db:
            return int(db.execute("DELETE FROM games").rowcount)

    def names(self) -> list[str]:
        """Every name with statistics, alphabetically."""
        with self._read("read the statistics") as db:
            return [r[0] for r in db.execute("SELECT DISTINCT name FROM games ORDER BY name")]

    # -- preferences -------------------------------------------------------------------------------
    def get_pref(self, key: str, default: Any = None) -> Any:
        """A stored preference, or ``default``."""
        with self._read("read the preferences") as db:
            row = db.execute("SELECT value FROM prefs WHERE key = ?", (key,)).fetchone()
        if row is None:
            return default
        try:
            return json.loads(row[0])
        except ValueError:
            return default

    def set_pref(self, key: str, value: Any) -> None:
        """Store a preference; ``value`` must be JSON data (numbers, text, lists, objects)."""
        try:
            text = json.dumps(value)
        except (TypeError, ValueError) as exc:
            raise StoreError(f"Preference '{key}' cannot be stored: {exc}") from None
        with self._write("store the preference") as db:
            db.execute(
                "INSERT INTO prefs (key, value) VALUES (?, ?)"
                " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, text),
            )

    def prefs(self) -> dict[str, Any]:
        """Every stored preference."""
        with self._read("read the preferences") as db:
            rows = db.execute("SELECT key, value FROM prefs ORDER BY key").fetchall()
        out: dict[str, Any] = {}
        for key, value in rows:
            try:
                out[key] = json.loads(value)
            except ValueError:
                continue
        return out

    def delete_pref(self, key: str) -> None:
        with self._write("remove the preference") as db:
            db.execute("DELETE FROM prefs WHERE key = ?", (key,))


# -- either kind of game -----------------------------------------------------------------------
def _keeps_time(game: StoredGame) -> bool:
    """Whether the game's record holds its time played (else the store keeps it beside)."""
    return record_formats.format_for(game).keeps_time


def _open_seconds(game: StoredGame, seconds: float) -> float:
    """What the store keeps of the time: a 52-card match's deal in play (its record has the
    rest); the whole time played of a game of the revolution, whose record has none."""
    return game.deal_seconds[-1] if _keeps_time(game) else float(seconds)


def _played_seconds(
    game: StoredGame, db: sqlite3.Connection, match_id: int, seconds: float | None
) -> float:
    if _keeps_time(game):
        return game.seconds
    if seconds is not None:
        return seconds
    row = db.execute("SELECT open_seconds FROM matches WHERE id = ?", (match_id,)).fetchone()
    return float(row[0]) if row else 0.0
