"""Players' accounts in the table store's database: accounts (a name and the argon2 hash of a
password, never the password), their sessions (by the SHA-256 of the id a browser's cookie
holds), the seats they took (the seat token, so the seat follows its player to another
browser), their ratings per family of rules, the rooms their hosts made rated, and each rated
game's changes of rating.

The tables are the table store's schema's version 4 (:mod:`.migrations`); this module opens
its own connection to the same database (SQLite or PostgreSQL, :mod:`.sql`), or an in-memory
SQLite database for a server that keeps nothing. It stores and finds; who may do what, the
hashing and the ratings' arithmetic are the server's (:mod:`bigtwo.server.accounts`).
"""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..match.errors import StoreError
from .migrations import MigratedStore
from .tables import connection_beside

# Letters that look like Latin ones in other scripts, folded so two names that look the same
# compare equal (a small part of Unicode's confusables: the ones a name is likely to use).
_LOOK_ALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p",
        "с": "c", "т": "t", "у": "y", "х": "x", "і": "i", "ј": "j", "ѕ": "s", "ԁ": "d",
        "ɡ": "g", "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v",
        "ο": "o", "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "0": "o", "1": "l", "|": "l",
    }
)  # fmt: skip


def name_key(name: str) -> str:
    """How names are compared: NFKC-normalised, case-folded, look-alike letters folded and
    spaces dropped; two names with one key are one name.

    >>> name_key("Ann Lee") == name_key("ANNLEE") == name_key("аnn lee")  # Cyrillic а
    True
    """
    folded = unicodedata.normalize("NFKC", name).casefold().translate(_LOOK_ALIKES)
    return "".join(c for c in folded if not c.isspace())


@dataclass(frozen=True, slots=True)
class Account:
    id: str
    name: str
    password: str  # the argon2 hash


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class RatedRoom:
    code: str
    family: str
    public: bool
    settled: float | None
    outcome: str
    seed: int = 0  # the room's (the coach's reviews are kept by it)
    began: float | None = None  # when its match started (None: not yet, or not known)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One seat's part in a settled rated game."""

    code: str
    seat: int
    account: str | None
    family: str
    place: int
    points: int
    before: float
    after: float
    settled: float
    who: str = "account"  # account, guest, computer, or former (a deleted account)
    # The Palm figures: the game's deals, its seconds of play, the seat's best deal's points.
    rounds: int = 0
    seconds: float = 0.0
    best: int = 0


@dataclass(frozen=True, slots=True)
class Palm:
    """A player's figures over their rated games, as the Palm high-score table has them: the
    deals played (rounds), the seconds of play, the most points in one deal (None: no game
    yet) and the score balance (the games' points summed)."""

    games: int
    rounds: int
    seconds: float
    best: int | None
    balance: int


# A RatingChange's columns, in its fields' order.
_CHANGE = (
    "c.code, c.seat, c.account, c.family, c.place, c.points, c.rating_before, c.rating_after, "
    "c.settled, c.who, c.rounds, c.seconds, c.best"
)


def _rated_room(row: Sequence[Any]) -> RatedRoom:
    code, family, public, settled, outcome, seed, began = row
    return RatedRoom(str(code), str(family), bool(public), settled, str(outcome), int(seed), began)


class NameTaken(StoreError):
    """Another account has that name (as :func:`name_key` compares names)."""


class AccountStore(MigratedStore):
    """The accounts' tables over one connection (see :class:`MigratedStore`)."""

    # -- accounts ------------------------------------------------------------------------------
    def create(self, name: str, password_hash: str, now: float) -> Account:
        """A new account; raises :class:`NameTaken` when the name's key is held."""
        key = name_key(name)
        account = Account(secrets.token_hex(12), name, password_hash)
        with self._transaction():
            if self._db.execute("SELECT 1 FROM accounts WHERE name_key = ?", (key,)).fetchone():
                raise NameTaken(f"The name {name!r} is taken")
            self._db.execute(
                "INSERT INTO accounts (id, name, name_key, password, created) "
                "VALUES (?, ?, ?, ?, ?)",
                (account.id, name, key, password_hash, now),
            )
        return account

    def find(self, name: str) -> Account | None:
        """The account of ``name`` (compared by :func:`name_key`)."""
        rows = self._rows(
            "SELECT id, name, password FROM accounts WHERE name_key = ?", (name_key(name),)
        )
        return Account(*rows[0]) if rows else None

    def get(self, account: str) -> Account | None:
        rows = self._rows("SELECT id, name, password FROM accounts WHERE id = ?", (account,))
        return Account(*rows[0]) if rows else None

    def set_password(self, account: str, password_hash: str) -> None:
        with self._lock:
            self._db.execute(
                "UPDATE accounts SET password = ? WHERE id = ?", (password_hash, account)
            )

    def delete(self, account: str) -> None:
        """The account and everything of it gone, but its games: their rows stay, with no
        account ("a former player")."""
        with self._transaction():
            for table in ("sessions", "account_seats", "ratings", "accounts"):
                column = "id" if table == "accounts" else "account"
                self._db.execute(f"DELETE FROM {table} WHERE {column} = ?", (account,))
            self._db.execute(
                "UPDATE rating_changes SET account = NULL, who = 'former' WHERE account = ?",
                (account,),
            )

    # -- sessions ------------------------------------------------------------------------------
    def start_session(self, digest: str, account: str, now: float) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO sessions (digest, account, created, seen) VALUES (?, ?, ?, ?)",
                (digest, account, now, now),
            )

    def session(
        self, digest: str, now: float, idle: float, touch_every: float = 0.0, longest: float = 0.0
    ) -> Account | None:
        """The account a session is of; None for an unknown session, one unused for ``idle``
        seconds or (``longest`` > 0) started longer ago than that, which is ended. Using it
        pushes its end back: its last use is written now, unless it was written less than
        ``touch_every`` seconds ago (so not every request writes)."""
        with self._transaction():
            row = self._db.execute(
                "SELECT account, created, seen FROM sessions WHERE digest = ?", (digest,)
            ).fetchone()
            if row is None:
                return None
            seen = float(row[2])
            if now - seen > idle or (longest > 0 and now - float(row[1]) > longest):
                self._db.execute("DELETE FROM sessions WHERE digest = ?", (digest,))
                return None
            if now - seen >= touch_every:
                self._db.execute("UPDATE sessions SET seen = ? WHERE digest = ?", (now, digest))
            return self.get(str(row[0]))

    def end_session(self, digest: str) -> None:
        with self._lock:
            self._db.execute("DELETE FROM sessions WHERE digest = ?", (digest,))

    def end_sessions(self, account: str, keep: str = "") -> None:
        """End every session of the account but ``keep``."""
        with self._lock:
            self._db.execute(
                "DELETE FROM sessions WHERE account = ? AND digest <> ?", (account, keep)
            )

    def sessions(self, account: str) -> int:
        return int(self._rows("SELECT COUNT(*) FROM sessions WHERE account = ?", (account,))[0][0])

    # -- seats ---------------------------------------------------------------------------------
    def bind_seat(self, account: str, code: str, seat: int, token: str, now: float) -> None:
        """The account holds ``seat`` at table ``code`` (its token given back to the account's
        other browsers); one seat per table, the latest."""
        with self._transaction():
            self._db.execute(
                "DELETE FROM account_seats WHERE (account = ? AND code = ?) "
                "OR (code = ? AND seat = ?)",
                (account, code, code, seat),
            )
            self._db.execute(
                "INSERT INTO account_seats (account, code, seat, token, bound) "
                "VALUES (?, ?, ?, ?, ?)",
                (account, code, seat, token, now),
            )

    def seats(self, account: str) -> list[tuple[str, int, str]]:
        """The account's seats, newest first: (table code, seat, token)."""
        rows = self._rows(
            "SELECT code, seat, token FROM account_seats WHERE account = ? ORDER BY bound DESC",
            (account,),
        )
        return [(str(c), int(s), str(t)) for c, s, t in rows]

    def seated(self, code: str) -> dict[int, tuple[str, str]]:
        """The accounts seated at table ``code``: seat -> (account, seat token)."""
        rows = self._rows("SELECT seat, account, token FROM account_seats WHERE code = ?", (code,))
        return {int(s): (str(a), str(t)) for s, a, t in rows}

    def unbind_seat(self, account: str, code: str) -> None:
        with self._lock:
            self._db.execute(
                "DELETE FROM account_seats WHERE account = ? AND code = ?", (account, code)
            )

    # -- ratings -------------------------------------------------------------------------------
    def mark_rated(self, code: str, family: str, public: bool, now: float, seed: int = 0) -> None:
        with self._transaction():
            if self.rated_room(code) is None:
                self._db.execute(
                    "INSERT INTO rated_rooms (code, family, public, marked, settled, outcome, "
                    "seed) VALUES (?, ?, ?, ?, NULL, '', ?)",
                    (code, family, int(public), now, seed),
                )

    def rated_room(self, code: str) -> RatedRoom | None:
        rows = self._rows(
            "SELECT code, family, public, settled, outcome, seed, began FROM rated_rooms "
            "WHERE code = ?",
            (code,),
        )
        return _rated_room(rows[0]) if rows else None

    def not_begun(self) -> list[str]:
        """The rated rooms whose match has not started (as far as is known)."""
        rows = self._rows("SELECT code FROM rated_rooms WHERE settled IS NULL AND began IS NULL")
        return [str(r[0]) for r in rows]

    def begin(self, code: str, now: float) -> None:
        """A rated room's match started now (its seconds of play are counted from then)."""
        with self._lock:
            self._db.execute(
                "UPDATE rated_rooms SET began = ? WHERE code = ? AND began IS NULL", (now, code)
            )

    def rating(self, account: str, family: str) -> Rating | None:
        rows = self._rows(
            "SELECT mu, sigma, games, wins FROM ratings WHERE account = ? AND family = ?",
            (account, family),
        )
        return (
            Rating(float(rows[0][0]), float(rows[0][1]), int(rows[0][2]), int(rows[0][3]))
            if rows
            else None
        )

    def settle(
        self,
        code: str,
        outcome: str,
        now: float,
        changes: Sequence[RatingChange] = (),
        ratings: Sequence[tuple[str, str, Rating]] = (),
    ) -> bool:
        """A rated room's game settled, all of it in one transaction: its outcome, each
        seat's change and the accounts' new ratings. False (and nothing stored) when it was
        settled already, here or by another server."""
        with self._transaction():
            done = self._db.execute(
                "UPDATE rated_rooms SET settled = ?, outcome = ? WHERE code = ? "
                "AND settled IS NULL",
                (now, outcome, code),
            )
            if done.rowcount != 1:
                return False
            for c in changes:
                self._db.execute(
                    "INSERT INTO rating_changes (code, seat, account, family, place, points, "
                    "rating_before, rating_after, settled, who, rounds, seconds, best) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (c.code, c.seat, c.account, c.family, c.place, c.points, c.before, c.after,
                     c.settled, c.who, c.rounds, c.seconds, c.best),
                )  # fmt: skip
            for account, family, r in ratings:
                self._db.execute(
                    "DELETE FROM ratings WHERE account = ? AND family = ?", (account, family)
                )
                self._db.execute(
                    "INSERT INTO ratings (account, family, mu, sigma, games, wins) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (account, family, r.mu, r.sigma, r.games, r.wins),
                )
        return True

    def ranked(self, family: str, min_games: int) -> list[tuple[str, str, Rating]]:
        """Every account with a rating in ``family`` from at least ``min_games`` games:
        (account, name, rating), in no order (the caller ranks by the number it shows)."""
        rows = self._rows(
            "SELECT r.account, a.name, r.mu, r.sigma, r.games, r.wins FROM ratings r "
            "JOIN accounts a ON a.id = r.account WHERE r.family = ? AND r.games >= ?",
            (family, min_games),
        )
        return [
            (str(a), str(n), Rating(float(m), float(s), int(g), int(w)))
            for a, n, m, s, g, w in rows
        ]

    def changes(self, account: str, limit: int = 50) -> list[tuple[RatingChange, RatedRoom]]:
        """The account's rated games, newest first, each with its room."""
        rows = self._rows(
            f"SELECT {_CHANGE}, r.family, r.public, r.settled, r.outcome, r.seed, r.began "
            "FROM rating_changes c JOIN rated_rooms r ON r.code = c.code WHERE c.account = ? "
            "ORDER BY c.settled DESC LIMIT ?",
            (account, limit),
        )
        return [(RatingChange(*row[:13]), _rated_room(row[:1] + row[13:])) for row in rows]

    def palm(self, account: str) -> Palm:
        """The account's Palm figures over every rated game it played."""
        row = self._rows(
            "SELECT COUNT(*), COALESCE(SUM(rounds), 0), COALESCE(SUM(seconds), 0), MAX(best), "
            "COALESCE(SUM(points), 0) FROM rating_changes WHERE account = ?",
            (account,),
        )[0]
        best = None if row[3] is None else int(row[3])
        return Palm(int(row[0]), int(row[1]), float(row[2]), best, int(row[4]))

    def played_in(self, account: str) -> set[str]:
        """The codes of every rated game the account played."""
        rows = self._rows("SELECT code FROM rating_changes WHERE account = ?", (account,))
        return {str(r[0]) for r in rows}

    def game(self, code: str) -> list[RatingChange]:
        """Every seat's part in a settled rated game, by seat."""
        rows = self._rows(
            f"SELECT {_CHANGE} FROM rating_changes c WHERE c.code = ? ORDER BY c.seat", (code,)
        )
        return [RatingChange(*row) for row in rows]


def open_accounts(tables: object) -> AccountStore:
    """The accounts beside a table store: in its database (a SQLite file or PostgreSQL), or,
    for a store that keeps nothing (in memory), in an in-memory database of their own."""
    return AccountStore(connection_beside(tables))
