"""The match store's file: where it is, its tables in numbered versions, and the rows it
gives back.

:mod:`.matches` keeps matches, preferences, high scores and lifetime statistics in one
SQLite file; this module says what that file holds: the schema version and the mark that
makes a file bigtwo's, the migrations from each version to the next (never edited once
released, only added), the rows a reader gets (:class:`MatchInfo`, :class:`HighScore`,
:class:`PlayerStats`) and where the file is by default. It must not open the file or run
a statement: the store does.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

SCHEMA_VERSION = 2
APPLICATION_ID = 0x42324442  # "B2DB": marks a file as a bigtwo database
HIGH_SCORE_ROWS = 10


class MatchStatus(StrEnum):
    """Where a stored match stands: still offered for continuing, over, or set aside."""

    OPEN = "open"
    FINISHED = "finished"
    ABANDONED = "abandoned"


# Each entry migrates the schema from version i to i + 1; entries are never edited once
# released, only added, so every older file can be brought forward.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: matches as record lines, preferences, high scores
        """CREATE TABLE matches (
            id INTEGER PRIMARY KEY,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'finished', 'abandoned')),
            finished TEXT,
            rules TEXT NOT NULL,
            names TEXT NOT NULL,
            header TEXT NOT NULL,
            deals INTEGER NOT NULL,
            deal_number INTEGER NOT NULL DEFAULT 1,
            totals TEXT NOT NULL DEFAULT '[]',
            line_count INTEGER NOT NULL DEFAULT 0,
            open_deal INTEGER NOT NULL DEFAULT 1,
            open_seq INTEGER NOT NULL DEFAULT 0,
            open_seconds REAL NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE match_lines (
            match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            line TEXT NOT NULL,
            PRIMARY KEY (match_id, seq)
        ) WITHOUT ROWID""",
        "CREATE TABLE prefs (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE high_scores (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL,
            score INTEGER NOT NULL,
            date TEXT NOT NULL,
            rules TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            seconds REAL NOT NULL,
            max_score INTEGER NOT NULL,
            balance INTEGER NOT NULL,
            match_id INTEGER
        )""",
    ),
    (  # 2: lifetime statistics: a row per seat of each finished game, and per high score
        # entered under a name that had not played that game (seat NULL)
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            match_id INTEGER,
            seat INTEGER,
            name TEXT NOT NULL,
            date TEXT NOT NULL,
            rules TEXT NOT NULL,
            score INTEGER NOT NULL,
            won INTEGER NOT NULL,
            rounds INTEGER NOT NULL,
            deals_won INTEGER NOT NULL,
            seconds REAL NOT NULL,
            max_score INTEGER NOT NULL,
            UNIQUE (match_id, seat)
        )""",
        "CREATE INDEX games_by_name ON games (name)",
    ),
)
assert len(MIGRATIONS) == SCHEMA_VERSION


@dataclass(frozen=True, slots=True)
class MatchInfo:
    """A stored match, without replaying it: enough to offer "continue?"."""

    id: int
    created: str
    updated: str
    status: MatchStatus
    rules: str
    names: tuple[str, ...]
    deal_number: int
    deals: int
    totals: tuple[int, ...]

    @property
    def finished(self) -> bool:
        return self.status == MatchStatus.FINISHED


@dataclass(frozen=True, slots=True)
class HighScore:
    """One line of the high-score list, as the Palm high-score dialog has it."""

    id: int
    name: str
    score: int
    date: str
    rules: str
    rounds: int  # deals in that game
    seconds: float  # time played in that game
    max_score: int  # the most points in one deal of that game
    balance: int  # the running sum of every recorded game's result for that name
    match_id: int | None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """Lifetime statistics of one name over every finished game it played."""

    name: str
    games: int = 0
    games_won: int = 0
    deals: int = 0
    deals_won: int = 0
    balance: int = 0
    best_game: int = 0
    best_deal: int = 0
    seconds: float = 0.0


def default_path() -> Path:
    """``BIGTWO_DB``, else the user's data folder (platformdirs) / ``bigtwo.db``."""
    env = os.environ.get("BIGTWO_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir("bigtwo", appauthor=False)) / "bigtwo.db"
