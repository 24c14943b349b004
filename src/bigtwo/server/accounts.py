"""Players' accounts on the server: registering, signing in and out, the password, deleting an
account; the seats a signed-in player holds (which follow them to another browser); rated
rooms, their games' ratings (:mod:`.ratings`), the leaderboard and the players' profiles.

Accounts are optional: anyone plays as a guest. A password is kept only as its argon2 hash
(argon2-cffi), hashed and checked on a worker thread. A session is a random id in an
``HttpOnly``, ``SameSite=Lax`` cookie (``Secure`` over https or behind ``--trusted-proxy``),
kept on the server as its SHA-256; signing in starts a new one (the browser's old one ends),
signing out ends it on the server, and one unused for ``Settings.session_idle`` ends: each use
pushes that end back (sliding expiry), its time of use written at most once every
:func:`touch_every` seconds so that not every request writes, and none lives past
:data:`LONGEST` from its sign-in (the cookie's own lifetime). A wrong
password and an unknown name get the same answer after the same work (an unknown name is
checked against a hash of nothing); failed sign-ins are limited per address and per name,
and the refusal says how long to wait. Names are NFKC-normalised letters, digits, spaces and
``_ - . '``, of one script, unique as :func:`bigtwo.store.accounts.name_key` compares them.

A rated game is settled once, in one transaction, when its table finishes (the table store's
``set_status``, watched here) or when anyone asks for the room's rating afterwards (a server
that stopped between the two). Every route answers JSON; bodies are read by :mod:`.http_io`.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
import secrets
import time
import unicodedata
from collections.abc import Sequence
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..match.settings import RuleSet
from ..protocol import MIN_PASSWORD, PasswordRequest, SeatToken, SignInRequest
from ..service.config import MAX_NAME
from ..service.table import Refused, TableStatus
from ..store.accounts import (
    Account,
    AccountStore,
    NameTaken,
    Rating,
    RatingChange,
    name_key,
    open_accounts,
)
from ..store.tables import StoredRoom, TableStore
from .http_io import _error, _lookup, _no_room, _read_request, refusals_answered, seat_of
from .hub import Hub
from .limits import KeyedLimiter
from .ratings import (
    FAMILIES,
    MIN_GAMES,
    MU,
    SIGMA,
    computer_rating,
    family_of,
    places,
    rate,
    shown,
)

log = logging.getLogger(__name__)

COOKIE = "bigtwo_session"
LONGEST = 90 * 24 * 3600.0  # a session's longest life, however active (and its cookie's)
FORMER = "a former player"  # a deleted account's games keep this name
RECENT = 20  # recent games a profile lists
NAME_PUNCTUATION = frozenset(" _-.'")
# Scripts a name may mix: Japanese writes Han with the kana, Korean Han with Hangul.
_SCRIPT_GROUPS = {"HIRAGANA": "CJK", "KATAKANA": "CJK", "HANGUL": "CJK", "CJK": "CJK"}


def player_name(typed: str) -> str:
    """A name fit for an account: NFKC-normalised, spaces collapsed, of letters (one script),
    digits and ``_ - . '``, 2 to MAX_NAME characters; else :class:`Refused` (``bad_name``).

    >>> player_name("  Ａnn   Lee ")
    'Ann Lee'
    """
    name = " ".join(unicodedata.normalize("NFKC", typed).split())
    if not 2 <= len(name) <= MAX_NAME:
        raise Refused("bad_name", f"A name has 2 to {MAX_NAME} characters")
    scripts = set()
    for c in name:
        kind = unicodedata.category(c)
        if c in NAME_PUNCTUATION or kind[0] == "N":
            continue
        if kind[0] not in "LM":
            raise Refused("bad_name", "A name may hold letters, digits, spaces and _ - . ' only")
        script = unicodedata.name(c, "?").split(" ")[0]
        scripts.add(_SCRIPT_GROUPS.get(script, script))
    if not scripts:
        raise Refused("bad_name", "A name needs at least one letter")
    if len(scripts) > 1:
        raise Refused(
            "bad_name", "A name's letters are of one alphabet (letters that look alike are not)"
        )
    return name


def check_password(password: str, name: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise Refused("bad_password", f"A password has at least {MIN_PASSWORD} characters")
    if password.casefold() == name.casefold():
        raise Refused("bad_password", "A password is not the name")


def _digest(session: str) -> str:
    return hashlib.sha256(session.encode("utf-8", "replace")).hexdigest()


def touch_every(idle: float) -> float:
    """How often a session's time of use is written: a twentieth of the idle time, at most
    five minutes (so a session ends between 95% and 100% of the idle time after its last use).

    >>> touch_every(14 * 24 * 3600.0), touch_every(60.0)
    (300.0, 3.0)
    """
    return min(300.0, idle / 20.0)


def _wait_words(seconds: float) -> str:
    """A wait in words: "40 seconds", "3 minutes"."""
    if seconds < 60:
        whole = max(1, math.ceil(seconds))
        return f"{whole} second{'s' if whole != 1 else ''}"
    minutes = math.ceil(seconds / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


class SettleOnFinish:
    """The table store, watched: when a table is stored as finished, its rated game (if it is
    one) is settled, once the table has done what it was doing."""

    def __init__(self, store: TableStore, accounts: Accounts) -> None:
        self.inner, self.accounts = store, accounts

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)  # the table store's own, but for what is watched

    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None:
        self.inner.append(code, commands)
        if code in self.accounts.starting:  # a rated room not yet started: has it now?
            self.accounts.began(code)

    def load(self, code: str) -> StoredRoom | None:
        room = self.inner.load(code)
        if room is not None:  # (a node taking up a table made on another one since it began)
            self.accounts.loaded(code)
        return room

    def set_status(self, code: str, status: TableStatus) -> None:
        self.inner.set_status(code, status)
        if status == TableStatus.FINISHED:
            try:
                asyncio.get_running_loop().call_soon(self.accounts.settle_quietly, code)
            except RuntimeError:  # no loop (a tool, a test): now
                self.accounts.settle_quietly(code)

    def close(self) -> None:
        self.inner.close()
        self.accounts.store.close()


class Accounts:
    """The accounts of one server: its store, password hasher, sign-in limits and routes."""

    def __init__(self, store: AccountStore, hub: Hub) -> None:
        self.store, self.hub = store, hub
        settings = hub.settings
        self.hasher = PasswordHasher()
        # An unknown name is checked against this, so it costs what a wrong password does
        # (made at the first sign-in: a hash costs as much as a check).
        self._nobody = ""
        self.idle = settings.session_idle
        self.longest = max(LONGEST, self.idle)
        self.clock = time.time  # the wall clock (a test's own)
        self.secure = bool(settings.trusted_proxies)
        self.by_address = KeyedLimiter(
            settings.sign_ins_per_minute / 60.0, max(1, settings.sign_ins_burst)
        )
        self.by_name = KeyedLimiter(
            settings.name_sign_ins_per_minute / 60.0, max(1, settings.name_sign_ins_burst)
        )
        # Accounts made from one address: 5 at once, then one every 10 minutes.
        self.registrations = KeyedLimiter(1 / 600.0, 5)
        # Rated rooms whose match has not started: its start is written when it does.
        self.starting = set(store.not_begun())

    # -- sessions ------------------------------------------------------------------------------
    def signed_in(self, request: Request) -> Account | None:
        session = request.cookies.get(COOKIE, "")
        if not session or len(session) > 100:
            return None
        return self.store.session(
            _digest(session), self.clock(), self.idle, touch_every(self.idle), self.longest
        )

    def _start_session(self, request: Request, account: Account, answer: Response) -> None:
        """A new session for ``account`` in a new cookie; the browser's old one ends."""
        old = request.cookies.get(COOKIE, "")
        if old:
            self.store.end_session(_digest(old))
        session = secrets.token_urlsafe(32)
        self.store.start_session(_digest(session), account.id, self.clock())
        answer.set_cookie(
            COOKIE,
            session,
            max_age=math.ceil(self.longest),  # the server ends it sooner when unused
            path="/",
            httponly=True,
            samesite="lax",
            secure=self.secure or request.url.scheme == "https",
        )

    def _end_cookie(self, answer: Response) -> None:
        answer.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax")

    async def _verify(self, password_hash: str, password: str) -> bool:
        def check() -> bool:
            try:
                return bool(self.hasher.verify(password_hash, password))
            except (VerificationError, InvalidHashError):
                return False

        return await run_in_threadpool(check)

    def _check_sign_ins(self, address: str, key: str) -> None:
        """Refuse (``rate_limited``) a sign-in from ``address`` or for ``key`` after too many
        failed ones."""
        wait = max(self.by_address.ready(address), self.by_name.ready(key))
        if wait <= 0:
            return
        seconds = max(1, math.ceil(wait))
        raise Refused(
            "rate_limited",
            f"Too many failed sign-ins from your address or for that name: try again in "
            f"{_wait_words(wait)}",
            {"seconds": seconds, "minutes": math.ceil(seconds / 60), "reason": "sign_in"},
        )

    def _failed(self, address: str, key: str) -> None:
        self.by_address.wait(address)
        self.by_name.wait(key)

    def you(self, account: Account) -> dict[str, Any]:
        return {
            "signed_in": True,
            "name": account.name,
            "ratings": {f: self._rating_json(self.store.rating(account.id, f)) for f in FAMILIES},
        }

    @staticmethod
    def _rating_json(rating: Rating | None) -> dict[str, Any]:
        if rating is None:
            return {"rating": shown(MU, SIGMA), "games": 0, "wins": 0}
        return {
            "rating": shown(rating.mu, rating.sigma),
            "games": rating.games,
            "wins": rating.wins,
        }

    # -- the account's routes ------------------------------------------------------------------
    async def register(self, request: Request) -> Response:
        address = request.app.state.addresses.of(request)
        asked: SignInRequest = await _read_request(request, SignInRequest)
        name = player_name(asked.name)
        check_password(asked.password, name)
        wait = self.registrations.wait(address)
        if wait > 0:
            return _error(
                "rate_limited",
                f"Too many accounts made from your address: try again in {_wait_words(wait)}",
                params={"seconds": math.ceil(wait), "reason": "register"},
            )
        password_hash = await run_in_threadpool(self.hasher.hash, asked.password)
        try:
            account = self.store.create(name, password_hash, self.clock())
        except NameTaken:
            return _error("name_taken", f"The name {name} is taken", 409, {"name": name})
        answer = JSONResponse(self.you(account), status_code=201)
        self._start_session(request, account, answer)
        return answer

    async def sign_in(self, request: Request) -> Response:
        address = request.app.state.addresses.of(request)
        asked: SignInRequest = await _read_request(request, SignInRequest)
        key = name_key(asked.name)
        self._check_sign_ins(address, key)
        account = self.store.find(asked.name)
        if not self._nobody:
            self._nobody = await run_in_threadpool(self.hasher.hash, secrets.token_urlsafe(16))
        ok = await self._verify(account.password if account else self._nobody, asked.password)
        if account is None or not ok:
            self._failed(address, key)
            return _error("bad_sign_in", "That name and password do not match an account", 401)
        if self.hasher.check_needs_rehash(account.password):
            self.store.set_password(account.id, self.hasher.hash(asked.password))
        answer = JSONResponse(self.you(account))
        self._start_session(request, account, answer)
        return answer

    async def sign_out(self, request: Request) -> Response:
        session = request.cookies.get(COOKIE, "")
        if session:
            self.store.end_session(_digest(session))
        answer = JSONResponse({"signed_in": False})
        self._end_cookie(answer)
        return answer

    def _account(self, request: Request) -> Account:
        """The signed-in account, else :class:`Refused` (``signed_out``)."""
        account = self.signed_in(request)
        if account is None:
            raise Refused("signed_out", "Sign in first")
        return account

    async def account(self, request: Request) -> Response:
        """Who is signed in: the account, or ``{"signed_in": false}`` for a guest."""
        account = self.signed_in(request)
        return JSONResponse(self.you(account) if account else {"signed_in": False})

    async def _with_password(self, request: Request) -> tuple[Account, PasswordRequest]:
        """The signed-in account and its request, once its password is checked (limited as
        signing in is), else :class:`Refused`."""
        account = self._account(request)
        asked: PasswordRequest = await _read_request(request, PasswordRequest)
        address = request.app.state.addresses.of(request)
        self._check_sign_ins(address, account.id)
        if not await self._verify(account.password, asked.password):
            self._failed(address, account.id)
            raise Refused("bad_sign_in", "That is not the account's password")
        return account, asked

    async def change_password(self, request: Request) -> Response:
        account, asked = await self._with_password(request)
        check_password(asked.new, account.name)
        self.store.set_password(account.id, await run_in_threadpool(self.hasher.hash, asked.new))
        self.store.end_sessions(account.id)  # every browser signs in again, this one now
        answer = JSONResponse(self.you(account))
        self._start_session(request, account, answer)
        return answer

    async def delete(self, request: Request) -> Response:
        account, _ = await self._with_password(request)
        self.store.delete(account.id)
        answer = JSONResponse({"deleted": True})
        self._end_cookie(answer)
        return answer

    # -- seats -----------------------------------------------------------------------------
    async def keep_seat(self, request: Request) -> Response:
        """Keep a seat (its token) with the signed-in account."""
        account = self._account(request)
        asked: SeatToken = await _read_request(request, SeatToken)
        runner = self.hub.get(asked.code) if asked.code else None
        if runner is None:
            return _error("no_room", _no_room(asked.code), 404)
        seat = seat_of(runner, asked.token)
        self.store.bind_seat(account.id, runner.code, seat, asked.token, self.clock())
        return JSONResponse({"code": runner.code, "seat": seat})

    async def seats(self, request: Request) -> Response:
        """The signed-in account's seats at tables not yet over, with their tokens: another
        browser takes the seat back with one."""
        account = self._account(request)
        out = []
        for code, seat, token in self.store.seats(account.id):
            runner = self.hub.get(code)
            if runner is None or runner.service.seat_of_token(token) != seat:
                self.store.unbind_seat(account.id, code)  # gone, or given away
                continue
            if runner.service.status == TableStatus.FINISHED:
                continue
            out.append({"code": code, "seat": seat, "token": token})
        return JSONResponse({"seats": out})

    # -- rated rooms -----------------------------------------------------------------------
    async def make_rated(self, request: Request) -> Response:
        """The host makes a room rated: a whole game under a standard preset, not started."""
        runner = _lookup(request)
        asked: SeatToken = await _read_request(request, SeatToken)
        svc = runner.service
        seat = svc.seat_of_token(asked.token)
        if seat is None or seat != svc.host:
            return _error("unauthorized", "Only the host may make the room rated")
        cfg = svc.room_config
        why = (
            "started"
            if svc.status != TableStatus.WAITING
            else "rules"
            if cfg.rules or cfg.deals not in (None, RuleSet.preset(cfg.preset).match.deals_per_game)
            else "seeded"
            if cfg.seeded
            else ""
        )
        if why:
            return _error(
                "not_ratable",
                "A rated room is a whole game under a standard preset, made rated before it "
                f"starts (this one: {why})",
                409,
                {"reason": why},
            )
        self.store.mark_rated(
            runner.code, family_of(svc.ruleset), cfg.public, self.clock(), cfg.seed
        )
        self.starting.add(runner.code)
        return JSONResponse(self._rated_json(runner.code))

    async def rated(self, request: Request) -> Response:
        runner = _lookup(request)
        self.settle_quietly(runner.code)
        return JSONResponse(self._rated_json(runner.code))

    def _rated_json(self, code: str) -> dict[str, Any]:
        room = self.store.rated_room(code)
        if room is None:
            return {"code": code, "rated": False}
        names = self._names({c.account for c in self.store.game(code)})
        return {
            "code": code,
            "rated": True,
            "family": room.family,
            "settled": room.settled is not None,
            "outcome": room.outcome,
            "seats": [self._change_json(c, names) for c in self.store.game(code)],
        }

    def _names(self, accounts: set[str | None]) -> dict[str | None, str]:
        out: dict[str | None, str] = {}
        for account in accounts:
            found = self.store.get(account) if account else None
            out[account] = found.name if found else FORMER
        return out

    @staticmethod
    def _change_json(c: RatingChange, names: dict[str | None, str]) -> dict[str, Any]:
        return {
            "seat": c.seat,
            "name": FORMER if c.who == "former" else names.get(c.account) if c.account else None,
            "who": c.who,
            "place": c.place,
            "points": c.points,
            "before": round(c.before),
            "after": round(c.after),
        }

    def began(self, code: str) -> None:
        """Write when a rated room's match started, once it has."""
        runner = self.hub.tables.get(code)
        if runner is None or runner.service.status == TableStatus.WAITING:
            return
        self.starting.discard(code)
        if runner.service.status == TableStatus.PLAYING:
            self.store.begin(code, self.clock())

    def loaded(self, code: str) -> None:
        """A table this node loads: if it is a rated room whose match has not started, its
        start is watched for (the set made at start-up lacks rooms rated since on another
        node, and a game whose start went unwritten would count no seconds)."""
        room = self.store.rated_room(code)
        if room is not None and room.settled is None and room.began is None:
            self.starting.add(code)

    def settle_quietly(self, code: str) -> None:
        try:
            self.settle(code)
        except Exception:
            log.exception("settling the rated game of table %s failed", code)

    def settle(self, code: str) -> bool:
        """Rate table ``code``'s game once it is over (an early end: settled unrated).
        True when this call settled it."""
        room = self.store.rated_room(code)
        if room is None or room.settled is not None:
            return False
        runner = self.hub.get(code)
        if runner is None or runner.service.status != TableStatus.FINISHED:
            return False
        self.starting.discard(code)  # over, started or not
        svc, now = runner.service, self.clock()
        if svc.game is None or svc.closed_reason != "match over":
            return self.store.settle(code, "ended early", now)
        totals = [int(t) for t in svc.game.totals]
        results = svc.game.results
        finish = places(
            totals,
            [svc.game.deals_won(i) for i in range(len(totals))],
            [sum(int(r.cards_left[i]).bit_count() for r in results) for i in range(len(totals))],
        )
        rounds = len(results)
        seconds = max(0.0, now - (room.began if room.began is not None else now))
        seated = self.store.seated(code)
        before: list[tuple[float, float]] = []
        accounts: list[str | None] = []
        games: list[Rating | None] = []
        for seat in svc.seats:
            held = seated.get(seat.number)
            account = held[0] if held and svc.seat_of_token(held[1]) == seat.number else None
            rating = self.store.rating(account, room.family) if account else None
            accounts.append(account)
            games.append(rating)
            if not seat.human:
                before.append(computer_rating(seat.config.level, room.family))
            else:
                before.append((rating.mu, rating.sigma) if rating else (MU, SIGMA))
        after = rate(before, finish)
        changes, ratings = [], []
        for i, account in enumerate(accounts):
            new = after[i] if account else before[i]
            who = "account" if account else "guest" if svc.seats[i].human else "computer"
            changes.append(
                RatingChange(code, i, account, room.family, finish[i], totals[i],
                             shown(*before[i]), shown(*new), now, who, rounds, seconds,
                             svc.game.best_deal(i))
            )  # fmt: skip
            if account:
                old = games[i]
                played, won = (old.games, old.wins) if old else (0, 0)
                rating = Rating(new[0], new[1], played + 1, won + (finish[i] == 1))
                ratings.append((account, room.family, rating))
        return self.store.settle(code, "rated", now, changes, ratings)

    # -- the leaderboard and profiles ------------------------------------------------------
    async def leaderboard(self, request: Request) -> Response:
        family = request.query_params.get("family", "bigtwo")
        if family not in FAMILIES:
            return _error("bad_request", f"family is one of {', '.join(FAMILIES)}")
        ranked = sorted(
            self.store.ranked(family, MIN_GAMES),
            key=lambda r: (-shown(r[2].mu, r[2].sigma), r[1].casefold()),
        )
        me = self.signed_in(request)
        players, mine = [], None
        for place, (account, name, rating) in enumerate(ranked, 1):
            row = {"rank": place, "name": name, **self._rating_json(rating)}
            if me is not None and account == me.id:
                mine = row
            if place <= 100:
                players.append(row)
        you = None
        if me is not None:
            you = mine or {"rank": None, "name": me.name, **self._rating_json(
                self.store.rating(me.id, family))}  # fmt: skip
        return JSONResponse(
            {
                "family": family,
                "min_games": MIN_GAMES,
                "players": players,
                "you": you,
            }
        )

    async def profile(self, request: Request) -> Response:
        """A player's profile: ratings and their history, games played and won, the Palm
        figures over every rated game, and the recent games with the coach's reviews kept of
        the player's seat; a private room's game only to its players."""
        account = self.store.find(str(request.path_params["name"])[:200])
        if account is None:
            return _error("no_player", "There is no player of that name", 404)
        me = self.signed_in(request)
        mine = self.store.played_in(me.id) if me is not None else set()
        families: dict[str, Any] = {}
        for family in FAMILIES:
            rating = self.store.rating(account.id, family)
            families[family] = {**self._rating_json(rating), "history": []}
        coach = getattr(request.app.state, "coach", None)
        games: list[dict[str, Any]] = []
        for change, room in self.store.changes(account.id):
            rated = {"before": round(change.before), "after": round(change.after)}
            families[change.family]["history"].append({**rated, "settled": change.settled})
            if len(games) == RECENT or not (room.public or change.code in mine):
                continue
            reviews = (
                coach.store.deals(change.code, room.seed, change.seat, coach.rollouts)
                if coach is not None and coach.store is not None
                else []
            )
            games.append(
                {"code": change.code, "family": change.family, "seat": change.seat,
                 "place": change.place, "points": change.points, **rated,
                 "settled": change.settled, "rounds": change.rounds,
                 "seconds": round(change.seconds), "best": change.best, "reviews": reviews}
            )  # fmt: skip
        palm = self.store.palm(account.id)
        return JSONResponse(
            {
                "name": account.name,
                "ratings": families,
                "games": games,
                "total_rounds": palm.rounds,
                "total_seconds": round(palm.seconds),
                "max_score": palm.best,
                "score_balance": palm.balance,
                "points_per_deal": round(palm.balance / palm.rounds, 2) if palm.rounds else None,
            }
        )

    def routes(self) -> list[Route]:
        routes = (
            ("/api/account", self.account, "GET"),
            ("/api/account/register", self.register, "POST"),
            ("/api/account/sign-in", self.sign_in, "POST"),
            ("/api/account/sign-out", self.sign_out, "POST"),
            ("/api/account/password", self.change_password, "POST"),
            ("/api/account/delete", self.delete, "POST"),
            ("/api/account/seats", self.seats, "GET"),
            ("/api/account/seats", self.keep_seat, "POST"),
            ("/api/rooms/{code}/rated", self.rated, "GET"),
            ("/api/rooms/{code}/rated", self.make_rated, "POST"),
            ("/api/leaderboard", self.leaderboard, "GET"),
            ("/api/players/{name}", self.profile, "GET"),
        )
        return [Route(path, refusals_answered(route), methods=[how]) for path, route, how in routes]


def install_accounts(app: Starlette, hub: Hub) -> Accounts:
    """Give the server players' accounts: their store beside the tables, their routes (ahead
    of the catch-all ones), and the watch on finished tables that settles rated games."""
    accounts = Accounts(open_accounts(hub.store), hub)
    hub.store = SettleOnFinish(hub.store, accounts)
    app.router.routes[0:0] = accounts.routes()
    app.state.accounts = accounts
    return accounts
