"""The terminal game's door to :class:`bigtwo.store.matches.MatchStore`: saving and resuming the game
in play, preferences, high scores and statistics.

The store keeps the match as the game record of its game (for the history, high scores and
statistics; :mod:`bigtwo.match.record_formats` reads either game's record by its header),
and beside it, in the same file, the local table's command log in the server's table store
(:class:`~bigtwo.store.tables.SQLiteStore`): a game resumes by replaying that log
(:meth:`~bigtwo.service.table.TableService.restore`). The little the screen adds (the table's
code, which game of the session this is, the seed it came from, the hand on show) rides
along as a preference keyed by the match's id. Every store failure (a locked or damaged file, a full disk) is turned into a
message through ``on_error`` instead of stopping the game: play goes on unsaved. One table at a
time plays from a data file (:class:`TableLock`). This module never draws.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any, TypeVar

from ..engine.errors import BigTwoError
from ..match.errors import StoreError
from ..service.local import LocalTable
from ..store.matches import HighScore, MatchInfo, MatchStore, PlayerStats
from ..store.tables import MemoryStore, SQLiteStore
from .controller import GameController, thinks_in_a_thread

if TYPE_CHECKING:
    from ..match.match import Match
    from ..match.revolution import RevolutionMatch

T = TypeVar("T")
SESSIONS_PREF = "network_sessions"  # a signed-in player's session at each game server
_TABLE_KEY = "tui.table.{}"
# A game of Big 2 RevolutioN left by a bigtwo whose match store kept no record of its hands:
# what resumes it (its table's code, whose log is in the same file, and a summary). Read
# only: such a game is stored in the match store like any other once it goes on.
_REVOLUTION_KEY = "tui.revolution"
_LEFT_BY_OLDER = (
    "This game was left by an older bigtwo and cannot be continued; its record stays in the history"
)


@dataclass(frozen=True, slots=True)
class Saved:
    """An unfinished game found at start-up, not yet replayed."""

    info: MatchInfo

    def summary(self) -> str:
        i = self.info
        return _summary(i.rules, i.deal_number, i.deals, i.updated, i.names, i.totals)

    def load(self, storage: TuiStorage, clock: Callable[[], float]) -> GameController:
        """Replay the game from its table's log, stored beside its record."""
        store = storage.store
        table = store.get_pref(_TABLE_KEY.format(self.info.id), {}) or {}
        code = table.get("room") if isinstance(table, dict) else None
        if not isinstance(code, str):
            raise StoreError(_LEFT_BY_OLDER)
        game = storage.replay(code, table, clock, missing=_LEFT_BY_OLDER)
        # The log holds no clock: the time played so far comes from the stored record.
        game.kind.resume_clock(game, store, self.info.id)
        game.match_id = self.info.id
        game.saved_table = table
        return game

    def set_aside(self, storage: TuiStorage) -> None:
        """No longer offered for continuing (its record stays in the store)."""
        storage.abandon(self.info.id)


@dataclass(frozen=True, slots=True)
class SavedRevolution:
    """An unfinished game of Big 2 RevolutioN found at start-up, not yet replayed."""

    table: dict[str, Any]

    def summary(self) -> str:
        t = self.table
        deal, deals = t.get("deal_number", 1), t.get("deals_in_game", "?")
        when, names, totals = str(t.get("updated", "")), t.get("names", []), t.get("totals", [])
        return _summary("revolution", deal, deals, when, names, totals)

    def load(self, storage: TuiStorage, clock: Callable[[], float]) -> GameController:
        """Replay the game from its table's log; from now on it is kept in the match store,
        as every game."""
        missing = "This game of the revolution cannot be found to continue it"
        game = storage.replay(str(self.table["room"]), self.table, clock, missing=missing)
        storage.store.delete_pref(_REVOLUTION_KEY)
        return game

    def set_aside(self, storage: TuiStorage) -> None:
        """No longer offered for continuing."""
        storage.delete_pref(_REVOLUTION_KEY)


def _summary(rules: str, deal: int, deals: object, when: str, names: Any, totals: Any) -> str:
    """An unfinished game in two lines: where it stands, then each player's total."""
    scores = "  ".join(f"{n} {t:+d}" for n, t in zip(names, totals, strict=False))
    return f"{rules}: deal {deal} of {deals}, last played {when.replace('T', ' ')[:16]}\n{scores}"


class TuiStorage:
    """What the app keeps between runs, in one :class:`~bigtwo.store.matches.MatchStore`."""

    def __init__(
        self,
        store: MatchStore,
        on_error: Callable[[str], None] | None = None,
        tables: SQLiteStore | MemoryStore | None = None,
    ) -> None:
        self.store = store
        self.on_error = on_error or (lambda message: None)
        self.tables = tables if tables is not None else _table_store(store)

    def _safe(self, default: T, call: Callable[[], T]) -> T:
        try:
            return call()
        except BigTwoError as exc:  # StoreError, RecordError: say it, keep playing
            self.on_error(str(exc))
            return default

    # -- preferences ---------------------------------------------------------------------------
    def get_pref(self, key: str, default: Any = None) -> Any:
        return self._safe(default, lambda: self.store.get_pref(key, default))

    def set_pref(self, key: str, value: Any) -> None:
        self._safe(None, lambda: self.store.set_pref(key, value))

    def delete_pref(self, key: str) -> None:
        self._safe(None, lambda: self.store.delete_pref(key))

    # -- the game in play ------------------------------------------------------------------------
    def save_game(self, game: GameController) -> None:
        """Store the game's new actions (a new game is stored whole the first time): a
        52-card match or a game of the revolution, each as its own record."""

        def save() -> None:
            played = game.played
            seconds = game.kind.kept_seconds(game)
            if game.match_id is None:
                game.match_id = self.store.new_match(played, seconds=seconds)
            elif game.taken_back:  # an undo: the deal in play is stored again
                self.store.take_back(game.match_id, game.match)
            else:
                self.store.save(game.match_id, played, seconds=seconds)
            game.taken_back = False
            key = _TABLE_KEY.format(game.match_id)
            table = game.table_data()
            if game.saved_table != table:
                self.store.set_pref(key, table)
                game.saved_table = table

        self._safe(None, save)

    def unfinished(self) -> Saved | SavedRevolution | None:
        """The most recently played unfinished game, if any."""
        revolution = self.get_pref(_REVOLUTION_KEY, None)
        if isinstance(revolution, dict) and isinstance(revolution.get("room"), str):
            return SavedRevolution(revolution)
        games: list[MatchInfo] = self._safe([], self.store.unfinished)
        return Saved(games[0]) if games else None

    def load(
        self, saved: Saved | SavedRevolution, *, clock: Callable[[], float]
    ) -> GameController | None:
        """Replay a saved game; None (and a message) when it cannot be read back."""
        return self._safe(None, lambda: saved.load(self, clock))

    def replay(
        self, code: str, table: dict[str, Any], clock: Callable[[], float], *, missing: str
    ) -> GameController:
        """The game of the local table ``code`` from its stored log (else ``missing`` is said)."""
        stored = self.tables.load(code)
        if stored is None:
            raise StoreError(missing)
        local = LocalTable.restore(
            stored, self.tables, code, clock=clock, offload=thinks_in_a_thread
        )
        return GameController.resume(local, table, clock=clock)

    def stored_match(self, match_id: int) -> Match | RevolutionMatch | None:
        """A game of either kind as its stored record has it (read afresh: the game in play
        is untouched); None (and a message) when the record cannot be read."""
        from ..match.record_formats import read_game

        return self._safe(None, lambda: read_game(self.store.record_text(match_id)))

    def abandon(self, match_id: int | None) -> None:
        """Stop offering a game for continuing (its record stays in the store)."""
        if match_id is not None:
            self._safe(None, lambda: self.store.abandon(match_id))

    def finish(self, game: GameController) -> None:
        """Mark the game finished and count it in the statistics of the people who played."""

        def finish() -> None:
            played = game.played
            seconds = game.kind.kept_seconds(game)
            if game.match_id is None:
                game.match_id = self.store.new_match(played, seconds=seconds)
            seats = game.humans or list(range(game.players))
            self.store.finish(game.match_id, played, stats_for=seats, seconds=seconds)
            self.store.delete_pref(_TABLE_KEY.format(game.match_id))

        self._safe(None, finish)

    # -- high scores and statistics --------------------------------------------------------------
    def qualifies(self, score: int) -> bool:
        return self._safe(False, lambda: self.store.is_high_score(score))

    def add_high_score(self, game: GameController, seat: int, name: str) -> None:
        def add() -> None:
            seconds = game.kind.final_seconds(game, self.store)
            self.store.add_match_high_score(
                game.played, seat, name=name, match_id=game.match_id, seconds=seconds
            )

        self._safe(None, add)

    def close(self) -> None:
        self.tables.close()
        self.store.close()

    def high_scores(self) -> list[HighScore]:
        return self._safe([], self.store.high_scores)

    def reset_stats(self) -> None:
        """Forget every player's statistics (high scores stay)."""
        self._safe(0, self.store.reset_stats)

    def stats(self) -> list[PlayerStats]:
        """Lifetime statistics of every name that finished a game here."""
        return self._safe([], lambda: [self.store.stats(n) for n in self.store.names()])


class GameOpenElsewhere(BigTwoError):
    """Another ``bigtwo play`` has the table of this data file open."""


class TableLock:
    """One ``bigtwo play`` at a time on a data file.

    Two tables on one file would both continue the same game, deal different hands, and each
    overwrite or lose the other's moves. The first to start holds an exclusive lock on a file
    beside the data file (``bigtwo.db.table-lock``, holding its process id) until it ends; the
    system lets go of it when the process ends in any way, so a lock is never left stale. A
    data file in memory needs none; where the system has no ``fcntl`` (Windows) there is none.
    """

    def __init__(self, db_path: str | Path) -> None:
        self.path = Path(f"{db_path}.table-lock")
        self._file: IO[str] | None = None

    def acquire(self) -> None:
        """Take the lock, or raise :class:`GameOpenElsewhere` saying who has it."""
        try:
            import fcntl
        except ImportError:  # pragma: no cover - not on POSIX
            return
        try:
            handle = self.path.open("a+", encoding="utf-8")
        except OSError:
            return  # a folder we cannot write to: the store says so when it saves
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.seek(0)
            holder = handle.read().strip()
            handle.close()
            who = f" (process {holder})" if holder.isdigit() else ""
            data = str(self.path)[: -len(".table-lock")]
            raise GameOpenElsewhere(
                f"The game in {data} is open in another bigtwo play{who}. Play on there, or "
                "quit it (q) and start again here: two tables on one data file would deal "
                "different hands and lose each other's moves."
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        self._file = handle

    def release(self) -> None:
        if self._file is not None:
            self._file.close()  # closing lets go of the lock
            self._file = None

    def __enter__(self) -> TableLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()


def kept_session(store: MatchStore, server: str) -> str:
    """The session kept for ``server`` by ``bigtwo login`` ("" when signed out there)."""
    sessions = store.get_pref(SESSIONS_PREF, {})
    value = sessions.get(server.rstrip("/")) if isinstance(sessions, dict) else None
    return value if isinstance(value, str) else ""


def keep_session(store: MatchStore, server: str, session: str) -> None:
    """Keep (or with "", forget) the session at ``server``, beside the network seats' tokens
    in the data file, which is then readable by its owner only (mode 0600): a session is as
    good as the password while it lasts."""
    sessions = store.get_pref(SESSIONS_PREF, {})
    sessions = dict(sessions) if isinstance(sessions, dict) else {}
    if session:
        sessions[server.rstrip("/")] = session
    else:
        sessions.pop(server.rstrip("/"), None)
    store.set_pref(SESSIONS_PREF, sessions)
    private(store.path)


def private(path: str | Path) -> None:
    """The data file (with its write-ahead log) readable and writable by its owner only."""
    if str(path) == ":memory:":
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        file = Path(f"{path}{suffix}")
        if file.exists():
            file.chmod(0o600)


def _table_store(store: MatchStore) -> SQLiteStore | MemoryStore:
    """The local tables' logs, in the match store's own file (kept in memory with it)."""
    if str(store.path) == ":memory:":
        return MemoryStore()
    return SQLiteStore(store.path, sync="full", checkpoint=False)
