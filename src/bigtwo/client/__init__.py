"""A Python client for the bigtwo game server: the lobby, a table connection, a computer player.

:class:`Lobby` speaks the HTTP API (create, list, join, watch). :class:`TableClient` holds one
WebSocket to a table: it says hello with its seat token, keeps a :class:`~bigtwo.service.mirror.TableMirror` (its
picture of the table, built only from what the server sent it), numbers what it has seen, and
when the connection drops it reconnects, asks for what it missed, and sends again every
action not yet acknowledged, under the same action id so the server applies it once.
:class:`BotClient` is a computer player that sits at a network table like anyone else: on its
turn it rebuilds its :class:`~bigtwo.engine.views.SeatView` from the mirror and asks a bot.
The client decides nothing about legality: the server sends the legal plays with each turn.

It is a package of its own, below the terminal game and the server's benchmarks that use it:
it speaks the protocol (:mod:`bigtwo.protocol`) and imports nothing of the server, so neither
does the terminal game. It does not pull in Starlette.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from ..bots import make_bot
from ..bots.seat import ComputerSeat
from ..engine.cards import CardSet, Mask, parse_cards, to_mask
from ..engine.errors import BigTwoError
from ..engine.plays import Play
from ..protocol import PROTOCOL
from ..service.mirror import TableMirror
from ..service.table import TableStatus

# Messages outside the numbered event stream (every other server message is an event).
UNNUMBERED = frozenset({"welcome", "sync", "ack", "error", "presence", "clock", "pong", "bye"})
# Close codes after which reconnecting cannot help.
_FINAL_CLOSES = {4400, 4401, 4404, 4409, 4410}
SESSION_COOKIE = "bigtwo_session"  # the cookie of a signed-in player's session at a server


class ServerError(BigTwoError):
    """The server refused an HTTP request; ``code`` is its machine word."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code


class ActionRefused(BigTwoError):
    """The table refused an action; nothing changed. ``code`` says why in one word."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


class ConnectionLost(BigTwoError):
    """The connection closed and could not be made again."""


# -- the lobby ----------------------------------------------------------------------------------
class Lobby:
    """The HTTP lobby of a server at ``url`` (``http://127.0.0.1:8000``).

    ``session``: a signed-in player's session (the value of the server's session cookie),
    sent with every request; signing in or registering replaces it, signing out empties it.
    """

    def __init__(
        self,
        url: str,
        *,
        timeout: float = 10.0,
        client: httpx.AsyncClient | None = None,
        session: str = "",
    ) -> None:
        self.url = url.rstrip("/")
        self._own = client is None
        self.http = client or httpx.AsyncClient(base_url=self.url, timeout=timeout, trust_env=False)
        self.session = session

    async def __aenter__(self) -> Lobby:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._own:
            await self.http.aclose()

    async def _call(
        self, method: str, path: str, body: Any = None, headers: dict[str, str] | None = None
    ) -> Any:
        if method == "POST" and body is None:
            body = {}  # a POST is always JSON, even with nothing to say
        if self.session:
            headers = {**(headers or {}), "Cookie": f"{SESSION_COOKIE}={self.session}"}
        response = await self.http.request(method, self.url + path, json=body, headers=headers)
        given = response.cookies.get(SESSION_COOKIE)
        self.http.cookies.clear()  # the session is kept here, in one place
        if given and response.status_code < 400:
            self.session = given  # a new session (signing in starts one)
        try:
            data = response.json()
        except ValueError:
            data = {}
        if response.status_code >= 400:
            code = data.get("error", "http_error") if isinstance(data, dict) else "http_error"
            message = (
                data.get("message", response.text) if isinstance(data, dict) else response.text
            )
            raise ServerError(response.status_code, code, message)
        return data

    async def info(self) -> dict[str, Any]:
        return dict(await self._call("GET", "/api"))

    async def rooms(self, limit: int = 50, cursor: int | None = None) -> list[dict[str, Any]]:
        """One page of the open rooms, newest first (see :meth:`rooms_page` for the cursor)."""
        return list((await self.rooms_page(limit, cursor))["rooms"])

    async def rooms_page(self, limit: int = 20, cursor: int | None = None) -> dict[str, Any]:
        """``{"rooms", "next", "total"}``: ask again with ``cursor=next`` for the next page."""
        query = f"?limit={limit}" + (f"&cursor={cursor}" if cursor is not None else "")
        return dict(await self._call("GET", "/api/rooms" + query))

    async def create_room(self, **options: Any) -> dict[str, Any]:
        """Create a room; options as in the API (``preset``, ``seats``, ``deals``, …)."""
        return dict(await self._call("POST", "/api/rooms", options))

    async def room(self, code: str) -> dict[str, Any]:
        return dict(await self._call("GET", f"/api/rooms/{code}"))

    async def join(
        self, code: str, name: str = "", seat: int | None = None, avatar: int | None = None
    ) -> dict[str, Any]:
        """Take a seat: the answer holds ``seat``, ``token`` (keep it to rejoin) and ``ws``.
        ``avatar``: the player's picture, 0 to 7."""
        body: dict[str, Any] = {"name": name}
        if seat is not None:
            body["seat"] = seat
        if avatar is not None:
            body["avatar"] = avatar
        return dict(await self._call("POST", f"/api/rooms/{code}/join", body))

    async def rematch(self, code: str, token: str) -> dict[str, Any]:
        """A new game for the players of finished table ``code``, asked with a seat token
        there: the answer is the new table's ``code``, ``ws``, our ``seat`` and ``token``."""
        return dict(await self._call("POST", f"/api/rooms/{code}/rematch", {"token": token}))

    async def mine(self, seats: Iterable[tuple[str, str]]) -> dict[str, Any]:
        """Which rooms these seats (room code, seat token) are still at: ``rooms`` (each with
        its ``seat``, ``ws``, ``link`` and ``room``), and ``gone``, the codes whose token
        holds no seat now."""
        body = {"seats": [{"code": code, "token": token} for code, token in seats]}
        return dict(await self._call("POST", "/api/my-rooms", body))

    async def close_room(self, code: str, token: str) -> dict[str, Any]:
        """Close room ``code`` for everyone, as its host (``token``: the host's seat there)."""
        return dict(await self._call("POST", f"/api/rooms/{code}/close", {"token": token}))

    async def watch(self, code: str, invite: str = "") -> dict[str, Any]:
        """A spectator token (``invite``: a private room's invitation key)."""
        body = {"as": "spectator", **({"invite": invite} if invite else {})}
        return dict(await self._call("POST", f"/api/rooms/{code}/join", body))

    # -- a player's account -----------------------------------------------------------------------
    async def account(self) -> dict[str, Any]:
        """Who is signed in: ``{"signed_in": false}`` for a guest, else the ``name`` and
        ``ratings`` (per family of rules: ``rating``, ``games``, ``wins``)."""
        return dict(await self._call("GET", "/api/account"))

    async def sign_in(self, name: str, password: str) -> dict[str, Any]:
        """Sign in (the session is kept in :attr:`session`); the answer is :meth:`account`'s."""
        body = {"name": name, "password": password}
        return dict(await self._call("POST", "/api/account/sign-in", body))

    async def register(self, name: str, password: str) -> dict[str, Any]:
        """Make an account and sign in to it."""
        body = {"name": name, "password": password}
        return dict(await self._call("POST", "/api/account/register", body))

    async def sign_out(self) -> dict[str, Any]:
        """End the session on the server (and forget it here)."""
        try:
            return dict(await self._call("POST", "/api/account/sign-out"))
        finally:
            self.session = ""

    async def keep_seat(self, code: str, token: str) -> dict[str, Any]:
        """Keep a seat (its token at room ``code``) with the signed-in account, so that it
        follows the player to another terminal or browser."""
        body = {"code": code, "token": token}
        return dict(await self._call("POST", "/api/account/seats", body))

    async def kept_seats(self) -> list[dict[str, Any]]:
        """The signed-in account's seats at tables not yet over (``code``, ``seat``, ``token``)."""
        return list((await self._call("GET", "/api/account/seats"))["seats"])

    async def stats(self, token: str) -> dict[str, Any]:
        """The server's load; ``token`` is its operator's (``bigtwo serve --stats-token``)."""
        auth = {"Authorization": f"Bearer {token}"} if token else {}
        return dict(await self._call("GET", "/api/stats", headers=auth))


# -- a table connection -------------------------------------------------------------------------
class TableClient:
    """One connection to a table at ``url`` (``ws://host:port/ws/CODE``).

    With a ``token`` it plays that seat; with ``watch=True`` and no token it watches. Actions
    (:meth:`play`, :meth:`pass_`, …) wait for the server's answer and raise
    :class:`ActionRefused` with its reason. ``keep`` keeps every message received in
    :attr:`messages` (tests check them). ``on_message`` is called for each message.
    ``also``: the table's address at other servers of a cluster, tried in turn when the one
    in use no longer answers.
    """

    def __init__(
        self,
        url: str,
        token: str | None = None,
        *,
        watch: bool = False,
        name: str = "",
        reconnect: bool = True,
        reconnect_for: float = 30.0,
        keep: bool = False,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        on_connection: Callable[[str], None] | None = None,
        also: Sequence[str] = (),
    ) -> None:
        self.url = url
        # The same table at other servers of a cluster: reconnecting, each is tried in turn.
        self.urls = [url, *also]
        self.token = token
        self.watch = watch
        self.name = name
        self.reconnect = reconnect
        self.reconnect_for = reconnect_for
        self.keep = keep
        self.on_message = on_message
        self.on_connection = on_connection  # told "lost", "back" or "gone" (for good)
        self.connected = False
        self.state = TableMirror()
        self.seen = 0
        self.welcome: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.errors: list[dict[str, Any]] = []  # errors not tied to an awaited action
        self.acked: dict[str, int] = {}  # message id -> event number, for every ack
        self.action_ids: list[str] = []  # ids of every move sent (play, pass, the expansion's)
        self.reconnects = 0
        self.closed = asyncio.Event()
        self.close_code: int | None = None
        self._ws: ClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._pending: dict[str, tuple[dict[str, Any], asyncio.Future[dict[str, Any]]]] = {}
        self._waiters: list[
            tuple[Callable[[dict[str, Any]], bool], asyncio.Future[dict[str, Any]]]
        ] = []
        self._prefix = secrets.token_hex(3)
        self._count = 0
        self._closing = False
        self._back = asyncio.Event()  # cleared while a test keeps us away
        self._back.set()

    # -- connecting ------------------------------------------------------------------------------
    async def connect(self, timeout: float = 10.0) -> dict[str, Any]:
        """Connect and say hello; returns the welcome. Raises ActionRefused when refused."""
        await asyncio.wait_for(self._open(), timeout)
        self._reader = asyncio.create_task(self._run())
        return self.welcome

    async def _open(self) -> None:
        ws = await connect(
            self.url,
            compression=None,  # the messages are small; deflate costs more CPU than it saves
            proxy=None,
            open_timeout=10,
            ping_interval=20,
            ping_timeout=20,
            close_timeout=2,
            max_size=1 << 20,
            max_queue=None,
        )
        hello: dict[str, Any] = {
            "type": "hello",
            "protocol": PROTOCOL,
            "since": self.seen,
            "batch": True,
        }
        if self.token:
            hello["token"] = self.token
        if self.watch:
            hello["watch"] = True
        if self.name:
            hello["name"] = self.name
        await ws.send(orjson.dumps(hello).decode())
        data = orjson.loads(await ws.recv())
        batch = data if isinstance(data, list) else [data]
        first = batch[0] if batch else {}
        if first.get("type") != "welcome":
            await ws.close()
            raise ActionRefused(first.get("code", "refused"), first.get("message", str(first)))
        self.welcome = first
        self.state.seat = first["seat"]
        self._ws = ws
        self.connected = True
        for msg in batch:
            self._handle(msg)

    async def _run(self) -> None:
        while True:
            ws = self._ws
            assert ws is not None
            try:
                async for frame in ws:
                    self._on_frame(frame)
            except ConnectionClosed:
                pass
            self.close_code = ws.close_code
            self.connected = False
            if self._closing or not self.reconnect or ws.close_code in _FINAL_CLOSES:
                break
            self._connection("lost")
            if not await self._reconnect():
                break
        if not self._closing:
            self._connection("gone")  # for good: self.closed is set just below
        self._finish()

    async def _reconnect(self) -> bool:
        """Connect again, asking for the events missed since :attr:`seen`; then send again
        every action still waiting for its answer (same ids: the server applies each once)."""
        deadline = time.monotonic() + self.reconnect_for
        delay = 0.05
        await self._back.wait()
        while not self._closing and time.monotonic() < deadline:
            try:
                await self._open()
            except ActionRefused:
                return False
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidURI, TimeoutError):
                self.url = self.urls[(self.urls.index(self.url) + 1) % len(self.urls)]
                await asyncio.sleep(delay)
                delay = min(delay * 2, 0.5)
                continue
            self.reconnects += 1
            self._connection("back")
            for message, _ in list(self._pending.values()):
                if message is not _NO_RESEND:
                    await self._send(message)
            return True
        return False

    def _connection(self, state: str) -> None:
        if self.on_connection is not None:
            self.on_connection(state)

    def _finish(self) -> None:
        self.connected = False
        self.closed.set()
        for _, future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionLost("The connection to the table was lost"))
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(ConnectionLost("The connection to the table was lost"))
        self._waiters.clear()

    async def close(self) -> None:
        self._closing = True
        self._back.set()
        if self._ws is not None:
            with contextlib.suppress(Exception):
                await self._ws.close()
        if self._reader is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._reader, 5)
        self._finish()

    async def drop(self, *, stay_away: bool = False) -> None:
        """Lose the connection abruptly, as a network failure would (for tests). With
        ``stay_away`` it does not come back until :meth:`come_back`."""
        if stay_away:
            self._back.clear()
        if self._ws is not None:
            self._ws.transport.abort()

    def come_back(self) -> None:
        self._back.set()

    # -- receiving ----------------------------------------------------------------------------
    def _on_frame(self, frame: str | bytes) -> None:
        data = orjson.loads(frame)
        if isinstance(data, list):  # a batch: messages in order
            for msg in data:
                self._handle(msg)
        else:
            self._handle(data)

    def _handle(self, msg: dict[str, Any]) -> bool:
        """Take in one message; False when it is an event already seen (and so ignored)."""
        if self.keep:
            self.messages.append(msg)
        kind = msg.get("type")
        if kind == "sync":
            self.seen = msg["v"]
            self.state.apply(msg)
        elif kind == "welcome":
            if "clock" in msg:
                self.state.clock = msg["clock"]
        elif kind == "ack":
            self.acked[msg["id"]] = msg["event"]
            self._resolve(msg["id"], msg, None)
        elif kind == "pong":
            self._resolve(msg.get("id"), msg, None)
        elif kind == "error":
            msg_id = msg.get("id")
            if msg_id not in self._pending:
                self.errors.append(msg)
            self._resolve(msg_id, None, ActionRefused(msg["code"], msg["message"]))
        elif kind in UNNUMBERED:
            self.state.apply(msg)
        else:
            v = msg["v"]
            if v <= self.seen:
                return False  # already seen (a replay overlapping what we had)
            self.seen = v
            self.state.apply(msg)
        if self.on_message is not None:
            self.on_message(msg)
        if self._waiters:
            for pair in list(self._waiters):
                test, future = pair
                if not future.done() and test(msg):
                    future.set_result(msg)
                    self._waiters.remove(pair)
        return True

    def _resolve(
        self, msg_id: str | None, result: dict[str, Any] | None, exc: Exception | None
    ) -> None:
        entry = self._pending.get(msg_id or "")
        if entry is None or entry[1].done():
            return
        if exc is not None:
            entry[1].set_exception(exc)
        else:
            entry[1].set_result(result or {})

    async def wait_for(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = 10.0
    ) -> dict[str, Any]:
        """The next message for which ``test`` is true."""
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        pair = (test, future)
        self._waiters.append(pair)
        try:
            return await asyncio.wait_for(future, timeout)
        finally:
            if pair in self._waiters:
                self._waiters.remove(pair)

    async def wait_event(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        return await self.wait_for(lambda m: m.get("type") == kind, timeout)

    # -- sending -------------------------------------------------------------------------------
    def new_id(self) -> str:
        self._count += 1
        return f"{self._prefix}-{self._count}"

    async def send_raw(self, text: str | bytes) -> None:
        """Send a frame as is (tests of bad input)."""
        assert self._ws is not None
        await self._ws.send(text)

    async def _send(self, message: dict[str, Any]) -> None:
        ws = self._ws
        if ws is None:
            return
        with contextlib.suppress(ConnectionClosed):
            await ws.send(orjson.dumps(message).decode())

    async def request(
        self, message: dict[str, Any], timeout: float = 10.0, *, resend: bool = False
    ) -> dict[str, Any]:
        """Send a message with a fresh id and wait for its ack (or raise its error).
        With ``resend`` it is sent again after a reconnect until answered."""
        message = dict(message)
        message.setdefault("id", self.new_id())
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        # Only the table's moves are sent again (play, pass and the expansion's: the server
        # applies each id once); ready, next, chat and the rest fail with their connection.
        self._pending[message["id"]] = (message if resend else _NO_RESEND, future)
        if resend:
            self.action_ids.append(message["id"])
        try:
            await self._send(message)
            return await asyncio.wait_for(future, timeout)
        finally:
            self._pending.pop(message["id"], None)

    async def play(
        self, cards: str | Mask | CardSet | Play, timeout: float = 10.0
    ) -> dict[str, Any]:
        """Play cards (notation, a mask, a CardSet or a Play); returns the ack."""
        mask = cards.mask if isinstance(cards, Play) else to_mask(cards)
        text = str(CardSet(mask)) if not isinstance(cards, str) else str(parse_cards(cards))
        return await self.request(
            {"type": "play", "cards": text, "v": self.seen}, timeout, resend=True
        )

    async def pass_(self, timeout: float = 10.0) -> dict[str, Any]:
        return await self.request({"type": "pass", "v": self.seen}, timeout, resend=True)

    async def ready(self, ready: bool = True, timeout: float = 10.0) -> dict[str, Any]:
        return await self.request({"type": "ready", "ready": ready}, timeout)

    async def next_deal(self, timeout: float = 10.0) -> dict[str, Any]:
        """Between deals: say we have read the scores and want the next deal."""
        return await self.request({"type": "next"}, timeout)

    async def chat(self, text: str, timeout: float = 10.0) -> dict[str, Any]:
        return await self.request({"type": "chat", "text": text}, timeout)

    async def quit(self, timeout: float = 10.0) -> dict[str, Any]:
        self.reconnect = False
        return await self.request({"type": "quit"}, timeout)

    async def ping(self, timeout: float = 10.0) -> float:
        """Seconds until the server's ``pong`` came back."""
        sent = time.perf_counter()
        await self.request({"type": "ping"}, timeout)
        return time.perf_counter() - sent

    async def sync(self, timeout: float = 10.0) -> dict[str, Any]:
        await self._send({"type": "sync"})
        return await self.wait_event("sync", timeout)


_NO_RESEND: dict[str, Any] = {}


# -- a computer player at a network table --------------------------------------------------------
class BotClient(TableClient):
    """A computer player of ``level`` that plays its seat over the network.

    It says ready in the lobby (and "next" between deals), and on each of its turns waits
    ``think`` seconds, rebuilds its seat view from the mirror and sends the bot's choice. :attr:`latencies` holds, for each of
    its actions, when it was sent and how long the server took to acknowledge it.
    """

    def __init__(
        self,
        url: str,
        token: str | None,
        *,
        level: str = "greedy",
        think: float = 0.0,
        seed: int | str | None = None,
        auto_ready: bool = True,
        **options: Any,
    ) -> None:
        super().__init__(url, token, **options)
        # The same chooser as at every table; its randomness comes from the position.
        self.computer = ComputerSeat(level, -1, bot=make_bot(level))  # unknown: fails here
        self.think = think
        self.seed_key: object = seed if seed is not None else secrets.token_hex(8)
        self.auto_ready = auto_ready
        self.latencies: list[tuple[float, float]] = []  # (sent at, seconds to ack)
        self.refusals: list[ActionRefused] = []
        self.failures = 0
        self.rate_limited = 0
        self._acting = False
        self._readied = False
        self._saying_next = False
        self._next_refused_at = -1
        self._refused_at = -1
        self._task: asyncio.Task[None] | None = None
        self.finished = asyncio.Event()

    def _handle(self, msg: dict[str, Any]) -> bool:
        if not super()._handle(msg):
            return False
        kind = msg.get("type")
        if kind == "deal" and self.state.seat is not None:
            self.computer.seat = self.state.seat
            self.computer.new_deal()
        self._maybe_say_next()
        if self.state.status == TableStatus.FINISHED:
            self.finished.set()
        self._maybe_say_ready()
        self._maybe_act()
        return True

    def _maybe_say_ready(self) -> None:
        """In the lobby, say "ready" once, and again if it was lost with its connection."""
        if (
            self.auto_ready
            and not self._readied
            and self.state.status == TableStatus.WAITING
            and self.state.room
        ):
            self._readied = True
            asyncio.get_running_loop().create_task(self._ready())

    async def _ready(self) -> None:
        try:
            await self.ready()
        except ActionRefused:
            pass  # refused (the match began, the seat is not ours): not said again
        except (BigTwoError, TimeoutError):
            self._readied = False  # lost with its connection: said again while the room waits
            if not self._closing and not self.closed.is_set():
                self._maybe_say_ready()

    def _maybe_say_next(self) -> None:
        """Between deals, say "next" while the table still waits for this seat: after the deal's
        end, and again after a resync or a "next" that was lost with its connection."""
        waiting = (self.state.next_deal or {}).get("waiting", [])
        if (
            self.auto_ready
            and not self._saying_next
            and self.state.seat in waiting
            and self._next_refused_at != self.seen  # refused: not again until the table moves
        ):
            self._saying_next = True
            asyncio.get_running_loop().create_task(self._next())

    async def _next(self) -> None:
        try:
            await self.next_deal()
        except ActionRefused:
            self._next_refused_at = self.seen
        except (BigTwoError, TimeoutError):
            pass  # lost with its connection: said again below while the table still waits
        finally:
            self._saying_next = False
        if not self._closing and not self.closed.is_set():
            self._maybe_say_next()

    def _maybe_act(self) -> None:
        if self._acting or not self.state.my_turn or self._refused_at == self.seen:
            return
        self._acting = True
        self._task = asyncio.get_running_loop().create_task(self._act())

    async def _act(self) -> None:
        try:
            if self.think:
                await asyncio.sleep(self.think)
            if not self.state.my_turn:
                return
            view = self.state.seat_view()
            self.computer.seat = view.seat if view.seat is not None else -1
            play = self.computer.choose(view, key=self.seed_key, deal_number=self.state.deal_number)
            sent = time.perf_counter()
            if play is None:
                await self.pass_()
            else:
                await self.play(play)
            self.latencies.append((sent, time.perf_counter() - sent))
        except ActionRefused as exc:
            if exc.code == "rate_limited":
                self.rate_limited += 1
                await asyncio.sleep(0.2)  # faster than the server allows: wait, then try again
            else:
                self.refusals.append(exc)
                if exc.code != "stale":
                    self._refused_at = self.seen  # do not repeat it until the table moves
        except (TimeoutError, ConnectionLost):
            self.failures += 1
        finally:
            self._acting = False
        if not self._closing:
            self._maybe_act()
