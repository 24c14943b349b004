"""The game server's Starlette application: the HTTP lobby API and one WebSocket per table.

HTTP (JSON) creates rooms, lists open ones, seats players (answering with a seat token) and
spectators, opens a rematch for the players of a finished table, and reports health and load; ``/openapi.json`` describes it. ``/ws/{code}`` carries
the table protocol of docs/protocol.md, run by :mod:`bigtwo.server.runner` for the tables of :mod:`bigtwo.server.hub`. Static files of the
browser client are served from ``bigtwo/web`` at ``/`` when that folder exists. This module
only translates between HTTP/WebSocket and the hub: it applies no rule of the game.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import ipaddress
import logging
import os
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

from pydantic import ValidationError
from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, RedirectResponse, Response
from starlette.routing import BaseRoute, Match, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import __version__
from ..engine.rules import BIGTWO, expansion_preset_names, preset_names
from ..match.settings import RuleSet
from ..protocol import (
    CLOSE_BAD_HELLO,
    CLOSE_NO_ROOM,
    CLOSE_TRY_AGAIN,
    CLOSE_UNAUTHORIZED,
    HELLO_TIMEOUT,
    PROTOCOL,
    BadMessage,
    CloseRequest,
    JoinRequest,
    MineRequest,
    RematchRequest,
    RoomsQuery,
    parse_message,
)
from ..service.config import MAX_NAME, ConfigError, clean_text
from ..service.declare import words
from ..service.request import table_config
from ..service.table import Refused, TableService, TableStatus
from ..store.reviews import open_reviews
from ..store.tables import MemoryStore, TableStore
from .accounts import install_accounts
from .cluster import ClusterRouting
from .coach import Coach, coach_routes
from .collector import collect_garbage
from .connection import Connection
from .direct import DIRECT
from .http_io import (
    _address,
    _error,
    _hub,
    _lookup,
    _no_room,
    _read_json,
    _read_request,
    refusals_answered,
    seat_of,
    slow_down,
)
from .hub import SWEEP_EVERY, Hub, is_room_code
from .limits import KeyedLimiter
from .lookups import held_seats, may_look_up
from .openapi import MAX_RECORD_BODY, RecordText, openapi_spec
from .runner import TableRunner
from .settings import Settings

log = logging.getLogger(__name__)

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
# What the browser client is made of: the web folder's other files (its README) are not served.
WEB_SUFFIXES = frozenset({".html", ".js", ".css", ".svg", ".png", ".ico", ".json", ".woff2"})


class WebFiles(StaticFiles):
    """The browser client's files: the web folder's, of the kinds a browser loads only."""

    def lookup_path(self, path: str) -> tuple[str, os.stat_result | None]:
        suffix = os.path.splitext(path)[1].lower()  # "" for a folder (its index.html)
        if suffix and suffix not in WEB_SUFFIXES:
            return "", None
        return super().lookup_path(path)


# Sent with every HTTP answer. The browser client is its own files only (no inline script,
# no other site); its one inline style attribute (a hidden SVG sprite) is let through.
SECURITY_HEADERS = (
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; "
        b"style-src-attr 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; "
        b"font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
        b"frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
)


# A browser's request carries a few kilobytes of headers: a larger one is refused (uvicorn
# bounds them only when they arrive in pieces).
MAX_HEADER_BYTES = 16 * 1024


class Hardening:
    """ASGI middleware: security headers on every HTTP answer, and requests whose headers are
    larger than :data:`MAX_HEADER_BYTES` refused (431; a WebSocket is closed before it opens).
    (That every POST body says it is JSON is :func:`_read_json`'s check, made once the route
    is known.)"""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        oversized = sum(len(k) + len(v) for k, v in scope.get("headers", [])) > MAX_HEADER_BYTES
        if scope["type"] == "websocket":
            if oversized:
                await send({"type": "websocket.close", "code": 1008})
                return
            await self.app(scope, receive, send)
            return

        async def send_hardened(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = [
                    (k, v) for k, v in message.get("headers", []) if k not in _SECURITY_NAMES
                ]
                message = {**message, "headers": [*headers, *SECURITY_HEADERS]}
            await send(message)

        if oversized:
            refusal = _error(
                "headers_too_large",
                f"The request's headers are too large (at most {MAX_HEADER_BYTES // 1024} KiB)",
                431,
            )
            await refusal(scope, receive, send_hardened)
            return
        await self.app(scope, receive, send_hardened)


_SECURITY_NAMES = frozenset(name for name, _ in SECURITY_HEADERS)


class ClientAddress:
    """Who a request comes from: the socket's peer, or, when the peer is a trusted proxy
    (``bigtwo serve --trusted-proxy``), the nearest address in ``X-Forwarded-For`` that is
    not itself a trusted proxy. A header from anyone else is not believed."""

    def __init__(self, trusted: Iterable[str] = ()) -> None:
        self.trusted = tuple(ipaddress.ip_network(t.strip(), strict=False) for t in trusted)

    def _trusted(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in self.trusted)

    def of(self, request: Request | WebSocket) -> str:
        peer = request.client.host if request.client else "?"
        if not self.trusted or not self._trusted(peer):
            return peer
        forwarded = ",".join(request.headers.getlist("x-forwarded-for"))
        hops = [hop.strip() for hop in forwarded.split(",") if hop.strip()]
        for hop in reversed(hops):  # the nearest hop first: each proxy appends its peer
            try:
                address = str(ipaddress.ip_address(hop))
            except ValueError:
                return peer  # a hop that is no address: believe only the socket
            if not self._trusted(address):
                return address
        return peer


def _urls(request: Request, code: str) -> dict[str, str]:
    base = str(request.base_url).rstrip("/")
    ws_base = "ws" + base[4:] if base.startswith("http") else base
    return {"ws": f"{ws_base}/ws/{code}", "link": f"{base}/r/{code}"}


# -- HTTP endpoints -------------------------------------------------------------------------
async def api_info(request: Request) -> Response:
    from ..bots import bot_names

    return JSONResponse(
        {
            "server": f"bigtwo/{__version__}",
            "protocol": PROTOCOL,
            "presets": list(preset_names()),
            "levels": bot_names(),
        }
    )


async def api_presets(request: Request) -> Response:
    """Every preset a room may use: the 52-card ones, then the expansions (``revolution``),
    which also say the computer levels that play them so far (``levels``)."""
    from ..bots import bot_names

    out = []
    for name in (*preset_names(), *expansion_preset_names()):
        r = RuleSet.preset(name)
        preset: dict[str, Any] = {
            "name": name,
            "players": list(r.rules.players),
            "source": r.source,
            "deals": r.match.deals_per_game,
        }
        if r.rules.game != BIGTWO:
            preset["levels"] = bot_names(r.rules.game)
        out.append(preset)
    return JSONResponse({"presets": out})


async def list_rooms(request: Request) -> Response:
    """One page of the open rooms, newest first: ``next`` is the cursor of the page after."""
    params = request.query_params
    if len(params.keys()) != len(params.multi_items()):
        return _error("bad_request", "Give each query parameter once")
    try:
        query = RoomsQuery.model_validate(dict(params))
    except ValidationError as exc:
        schema = RoomsQuery.model_json_schema()
        return _error("bad_request", words(exc, schema, "query parameter", subject="The query"))
    rooms, cursor, total = _hub(request).open_rooms(query.limit, query.cursor)
    return JSONResponse({"rooms": rooms, "next": cursor, "total": total})


@refusals_answered
async def create_room(request: Request) -> Response:
    hub = _hub(request)
    slow_down(request)
    data = await _read_json(request)
    try:
        config = table_config(data, allow_seed=hub.settings.allow_seeds)
        runner = hub.create(config, creator=_address(request))
    except ConfigError as exc:
        return _error("bad_request", str(exc), 422)
    made = {"code": runner.code, **_urls(request, runner.code), "room": runner.service.info()}
    if config.invite:  # a private room: the link that lets spectators in
        made["invite"] = config.invite
        made["watch_link"] = f"{made['link']}?invite={config.invite}"
    return JSONResponse(made, status_code=201)


@refusals_answered
async def get_room(request: Request) -> Response:
    runner = _lookup(request)
    return JSONResponse({**_urls(request, runner.code), "room": runner.service.info()})


@refusals_answered
async def join_room(request: Request) -> Response:
    hub = _hub(request)
    slow_down(request)
    runner = _lookup(request)
    join: JoinRequest = await _read_request(request, JoinRequest)
    if join.as_ == "spectator":
        token = hub.watch(runner, join.invite)
        return JSONResponse(
            {
                "code": runner.code,
                "role": "spectator",
                "seat": None,
                "token": token,
                **_urls(request, runner.code),
            }
        )
    seat, token = hub.join(
        runner, clean_text(join.name, MAX_NAME), join.seat, join.avatar, _address(request)
    )
    return JSONResponse(
        {
            "code": runner.code,
            "role": "player",
            "seat": seat,
            "token": token,
            **_urls(request, runner.code),
        }
    )


@refusals_answered
async def rematch_room(request: Request) -> Response:
    """A new game for the players of a finished table (see :meth:`Hub.rematch`): the caller
    proves its seat with its token and gets its seat and token at the new table."""
    hub = _hub(request)
    slow_down(request)
    runner = _lookup(request)
    asked: RematchRequest = await _read_request(request, RematchRequest)
    new, there, seat_token, created = hub.rematch(runner, seat_of(runner, asked.token))
    return JSONResponse(
        {
            "code": new.code,
            "role": "player",
            "seat": there,
            "token": seat_token,
            **_urls(request, new.code),
            "room": new.service.info(),
        },
        status_code=201 if created else 200,
    )


@refusals_answered
async def my_rooms(request: Request) -> Response:
    """The rooms still being played where the given seat tokens hold their seats, and the
    seats that hold nothing now (:mod:`bigtwo.server.lookups`): nobody else's rooms."""
    slow_down(request)
    misses = may_look_up(request.app.state.misses, _address(request))
    asked: MineRequest = await _read_request(request, MineRequest)
    seats = [(s.code, s.token) for s in asked.seats]
    held, gone = held_seats(_hub(request), seats, misses, _address(request))
    rooms = [{**_urls(request, r.code), "seat": seat, "room": r.service.info()} for r, seat in held]
    return JSONResponse({"rooms": rooms, "gone": gone})


@refusals_answered
async def close_room(request: Request) -> Response:
    """The host closes a room (:meth:`Hub.close`), proving the seat with its token."""
    slow_down(request)
    runner = _lookup(request)
    asked: CloseRequest = await _read_request(request, CloseRequest)
    _hub(request).close(runner, seat_of(runner, asked.token))
    return JSONResponse({**_urls(request, runner.code), "room": runner.service.info()})


def _finished_table(request: Request) -> TableService:
    """A finished table, else :class:`Refused`: a record holds every hand, so it is shown only
    once nothing is left to hide."""
    svc = _lookup(request).service
    if svc.game is None:
        raise Refused("no_room", "This table never started a match", {"reason": "never_started"})
    if svc.status != TableStatus.FINISHED:
        raise Refused("not_over", "The record is shown once the match is over: it holds every hand")
    return svc


@refusals_answered
async def room_record(request: Request) -> Response:
    """The finished match's record as JSON (bigtwo.match.record_formats.record_data): the
    52-card game's JSON form, or the expansion's text record (which `bigtwo record check`
    reads and replays) inside JSON with the names and totals."""
    from ..match.record_formats import record_data

    svc = _finished_table(request)
    assert svc.game is not None
    return JSONResponse(record_data(svc.game))


@refusals_answered
async def convert_record(request: Request) -> Response:
    """A match record sent as text, read by the one reader every record goes through and
    given back in its JSON form (as ``bigtwo record convert --format json`` writes it, and
    ``room_record`` answers): the browser's replay viewer reads the text records the terminal
    and ``bigtwo simulate`` write without a reader of its own."""
    from ..engine.errors import BigTwoError
    from ..match.errors import RecordError
    from ..match.record_formats import read_game, record_data

    slow_down(request)
    asked: RecordText = await _read_request(request, RecordText, MAX_RECORD_BODY)
    try:
        # Reading a record replays every deal: in a thread, so other tables are not held up.
        match = await run_in_threadpool(read_game, asked.record)
    except BigTwoError as exc:
        where = exc.where if isinstance(exc, RecordError) else ""
        reason = exc.reason if isinstance(exc, RecordError) else str(exc)
        return _error("bad_record", str(exc), 422, {"where": where, "reason": reason})
    return JSONResponse(record_data(match))


@refusals_answered
async def room_history(request: Request) -> Response:
    """The finished match's history as text, as the Palm game history told it (its game's
    history: see the table's ``history_text``)."""
    return PlainTextResponse(_finished_table(request).history_text())


async def share_link(request: Request) -> Response:
    """A room's share link: the browser client if there is one (which says in words when
    there is no such table), else the room as JSON."""
    code = request.path_params["code"].upper()
    if not is_room_code(code):
        if (WEB_DIR / "index.html").exists() and "text/html" in request.headers.get("accept", ""):
            # a person's browser with a bad link: the client's page says there is no table
            return RedirectResponse(f"/?room={''.join(c for c in code if c.isalnum())[:12]}")
        return _error("no_room", _no_room(code), params={"code": code[:12]})
    if (WEB_DIR / "index.html").exists():
        invite = request.query_params.get("invite", "")
        if invite and invite.replace("-", "").replace("_", "").isalnum() and len(invite) <= 100:
            return RedirectResponse(f"/?room={code}&invite={invite}")
        return RedirectResponse(f"/?room={code}")
    return await get_room(request)


async def api_not_found(request: Request) -> Response:
    """Anything under /api no route answers: 405 naming the methods a known path takes, else
    404 (both JSON, never the browser client's files)."""
    allowed: set[str] = set()
    for route in request.app.routes:
        if isinstance(route, Route) and route.endpoint is not api_not_found:
            match, _ = route.matches(request.scope)
            if match == Match.PARTIAL and route.methods:
                allowed |= route.methods
    if allowed:
        return _error(
            "not_allowed",
            f"{request.url.path[:80]} does not take {request.method[:10]}",
            405,
            headers={"Allow": ", ".join(sorted(allowed))},
        )
    return _error("not_found", f"There is no {request.method} {request.url.path[:80]}", 404)


async def stats(request: Request) -> Response:
    """The server's load, for its operator only: ``Authorization: Bearer TOKEN`` with the
    token the server was started with (``--stats-token``); without one, nobody gets them."""
    token = _hub(request).settings.stats_token
    if not token:
        return _error(
            "unauthorized",
            "Stats are off: start the server with --stats-token (or BIGTWO_STATS_TOKEN)",
        )
    scheme, _, given = request.headers.get("authorization", "").partition(" ")
    if scheme.lower() != "bearer" or not hmac.compare_digest(
        given.strip().encode("utf-8", "replace"), token.encode("utf-8")
    ):
        return _error("unauthorized", "Stats need the operator's token: Authorization: Bearer …")
    return JSONResponse(_hub(request).stats())


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def openapi(request: Request) -> Response:
    return JSONResponse(openapi_spec())


# -- the table WebSocket ----------------------------------------------------------------------
async def table_socket(websocket: WebSocket) -> None:
    hub = _hub(websocket)
    await websocket.accept()
    direct = websocket.scope.get("extensions", {}).get(DIRECT)
    conn = Connection(websocket, hub.settings.limits, _address(websocket), direct)
    writer = asyncio.create_task(conn.writer())
    runner = None
    try:
        try:
            runner = _lookup(websocket)
        except Refused as exc:
            conn.error(exc.code, str(exc), params=exc.params)
            conn.close(CLOSE_NO_ROOM if exc.code == "no_room" else CLOSE_TRY_AGAIN, str(exc)[:100])
            return
        try:
            frame = await asyncio.wait_for(_receive(websocket), HELLO_TIMEOUT)
            hello = parse_message(frame)
            if hello["type"] != "hello":
                raise BadMessage("bad_hello", "Say hello first")
            if hello["protocol"] != PROTOCOL:
                raise BadMessage(
                    "bad_hello", f"This server speaks protocol {PROTOCOL}, not {hello['protocol']}"
                )
            seat = hub.authenticate(runner, hello.get("token"), hello.get("watch", False))
        except TimeoutError:
            conn.error("bad_hello", f"Say hello within {HELLO_TIMEOUT:g} seconds")
            conn.close(CLOSE_BAD_HELLO, "no hello")
            return
        except BadMessage as exc:
            conn.error(exc.code if exc.code != "bad_message" else "bad_hello", str(exc))
            conn.close(CLOSE_BAD_HELLO, "bad hello")
            return
        except Refused as exc:
            conn.error(exc.code, str(exc), params=exc.params)
            conn.close(CLOSE_UNAUTHORIZED, "unauthorized")
            return
        try:
            hub.admit(runner, conn, seat)
        except Refused as exc:
            conn.error(exc.code, str(exc), params=exc.params)
            conn.close(CLOSE_TRY_AGAIN, "connecting too often: wait and reconnect")
            return
        if seat is None and len(runner.spectators) >= hub.settings.max_spectators:
            conn.error(
                "busy",
                "This table has as many spectators as it can hold",
                params={"reason": "spectators"},
            )
            conn.close(CLOSE_UNAUTHORIZED, "too many spectators")
            return
        cap = hub.settings.max_spectators_per_address
        if seat is None and sum(1 for c in runner.spectators if c.address == conn.address) >= cap:
            conn.error(
                "busy",
                f"At most {cap} spectators from one address may watch a table",
                params={"reason": "spectators_per_address", "spectators": cap},
            )
            conn.close(CLOSE_UNAUTHORIZED, "too many spectators from one address")
            return
        if seat is None:
            conn.name = clean_text(hello.get("name", ""), MAX_NAME)
        conn.batch = hello.get("batch", False)
        runner.attach(conn, seat, hello.get("since", 0))
        # Read by a task of their own: resuming this one for each message would pass through
        # the frame of every middleware and route above it.
        await asyncio.create_task(_read(websocket, runner, conn))
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("table socket failed")
    finally:
        if runner is not None:
            runner.detach(conn)
        conn.close(1000, "")
        with contextlib.suppress(Exception):
            await asyncio.wait_for(writer, 5)
        if not writer.done():
            writer.cancel()


async def _read(websocket: WebSocket, runner: TableRunner, conn: Connection) -> None:
    """Hand the table each frame the connection sends, until it closes: as each is parsed,
    where the server offers a direct path (:mod:`bigtwo.server.direct`), else as this task
    reads it."""
    if conn.direct is not None:

        def heard(frame: str | bytes) -> None:
            if not runner.broken:
                runner.on_frame(conn, frame)

        conn.direct.listen(heard)
    while not conn.closing:
        frame = await _receive(websocket)
        if runner.broken:
            return
        runner.on_frame(conn, frame)


async def _receive(websocket: WebSocket) -> str | bytes | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        raise WebSocketDisconnect(message.get("code", 1000))
    text = message.get("text")
    if text is not None:
        return str(text)
    data = message.get("bytes")
    return bytes(data) if data is not None else None


_EVERY_METHOD = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"]


# -- the application --------------------------------------------------------------------------
def create_app(store: TableStore | None = None, settings: Settings | None = None) -> Starlette:
    """The server application over ``store`` (default: in memory, nothing kept)."""
    hub = Hub(store or MemoryStore(), settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        loaded = hub.load_all()
        if loaded:
            log.info("reloaded %d open tables from the log", loaded)
        hub.thinker.start()  # the computer players' workers load while the server starts

        async def sweeper() -> None:
            while True:
                await asyncio.sleep(SWEEP_EVERY)
                hub.sweep()

        tasks = [asyncio.create_task(sweeper()), asyncio.create_task(hub.lag.watch())]
        if hub.settings.scheduled_gc:
            tasks.append(asyncio.create_task(collect_garbage()))
        if hub.cluster is not None:
            await hub.cluster.start(app)
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
            hub.shutdown()
            if hub.cluster is not None:  # after the tables stopped: others take them up now
                await hub.cluster.stop()
            await asyncio.sleep(0.05)  # let the close frames go out
            hub.store.close()
            app.state.coach.close()

    routes: list[BaseRoute] = [
        Route("/api", api_info),
        Route("/api/presets", api_presets),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/my-rooms", my_rooms, methods=["POST"]),
        Route("/api/rooms/{code}", get_room),
        Route("/api/rooms/{code}/join", join_room, methods=["POST"]),
        Route("/api/rooms/{code}/rematch", rematch_room, methods=["POST"]),
        Route("/api/rooms/{code}/close", close_room, methods=["POST"]),
        Route("/api/rooms/{code}/record", room_record),
        Route("/api/rooms/{code}/history", room_history),
        *coach_routes(refusals_answered, _lookup, _read_request),
        Route("/api/records/convert", convert_record, methods=["POST"]),
        Route("/api/stats", stats),
        Route("/healthz", health),
        Route("/openapi.json", openapi),
        Route("/r/{code}", share_link),
        WebSocketRoute("/ws/{code}", table_socket),
        # Anything else under /api is a JSON 404, not the browser client's static files.
        Route("/api/{rest:path}", api_not_found, methods=_EVERY_METHOD),
    ]
    if WEB_DIR.is_dir():
        routes.append(Mount("/", WebFiles(directory=WEB_DIR, html=True), name="web"))
    middleware = [Middleware(Hardening)]
    if hub.cluster is not None:  # first: a table another node runs is answered there
        middleware.insert(0, Middleware(ClusterRouting, cluster=hub.cluster))
    app = Starlette(routes=routes, lifespan=lifespan, middleware=middleware)
    app.state.hub = hub
    app.state.coach = Coach(hub.thinker, hub.settings.review_rollouts, open_reviews(hub.store))
    # Lobby writes (room creation, joining) per address, in bounded memory.
    app.state.limiter = KeyedLimiter(rate=100.0, burst=5000.0)
    app.state.addresses = ClientAddress(hub.settings.trusted_proxies)
    # Codes asked for that name no table, per address: a private room's code is guessed no
    # faster than this.
    per_minute = hub.settings.unknown_codes_per_minute
    app.state.misses = (
        KeyedLimiter(per_minute / 60.0, max(1, hub.settings.unknown_codes_burst))
        if per_minute > 0
        else None
    )
    install_accounts(app, hub)  # players' accounts, ratings and the leaderboard
    return app
