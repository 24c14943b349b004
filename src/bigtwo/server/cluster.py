"""Several ``bigtwo serve`` processes as one: ``--cluster redis://… --db postgresql://…``.

Every node keeps its tables in the same PostgreSQL database; nodes sharing a database form one
cluster (their Redis keys start with a digest of its URL). Each table runs on one node at a
time, the one holding its *lease* in Redis: claimed with ``SET NX``, renewed every
:data:`RENEW_SECONDS`, lapsing :data:`LEASE_MS` after its node stops renewing it. A node that
finds it lost a lease drops the table at once (its connections are told to reconnect), and
the log's ``(code, seq)`` key refuses any late write of a node that did not notice in time.

A client may reach any node. A request or WebSocket for a table another node runs is forwarded
to that node as its ASGI messages, through Redis pub/sub (each node listens on a channel of
its own), and the owner's answer comes back the same way: the owner's application handles it
as if the client were its own, so the client sees exactly the protocol of docs/protocol.md.

Tables that should be running (the set ``running``: started, not finished, not unloaded) and
whose lease lapsed, because their node died, are claimed by whichever node sees it first and
rebuilt from the durable log; their clients reconnect to any node and resync by event number.
A node shutting down (SIGTERM) gives its leases back at once, so that others take its tables
without waiting for the leases to lapse.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
import logging
import random
import re
import secrets
import threading
import time
from collections.abc import Awaitable, Callable, Container, MutableMapping
from typing import Any, Protocol

from ..protocol import CLOSE_TRY_AGAIN
from .handoff import Handoffs

log = logging.getLogger(__name__)

LEASE_MS = 1500  # a lease lapses this long after its node last renewed it
RENEW_SECONDS = 0.4  # how often a node renews its leases and looks for tables left behind
# A node whose event loop has not turned for this long lets its leases lapse: it is stuck,
# and its tables are better run elsewhere.
STUCK_SECONDS = 1.0
FORWARD_TIMEOUT = 10.0  # seconds a forwarded HTTP request waits for the owner's answer
# The paths that name a table: the requests for it go to the node that runs it.
TABLE_PATH = re.compile(r"^/(?:ws|api/rooms|r)/([A-Za-z0-9]{1,12})(?:/|$)")

# Renew the leases this node holds; answers 1 for each it kept, 0 for each it no longer holds.
_RENEW = """
local kept = {}
for i, key in ipairs(KEYS) do
  if redis.call('get', key) == ARGV[1] then
    redis.call('pexpire', key, ARGV[2])
    kept[i] = 1
  else
    kept[i] = 0
  end
end
return kept
"""
# Give a lease back, only if this node holds it.
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class LocalTables(Protocol):
    """What a node's cluster needs of the tables it runs (the hub, :mod:`bigtwo.server.hub`,
    which makes the cluster and hands itself in): which are loaded, one loaded (or rebuilt
    from the store) by its code, one dropped at once, and the rooms to list in the lobby."""

    @property
    def tables(self) -> Container[str]: ...

    def get(self, code: str) -> object | None: ...

    def drop(self, code: str) -> None: ...

    def listed_rooms(self) -> list[tuple[int, dict[str, Any]]]: ...


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def cluster_prefix(db: str) -> str:
    """The Redis key prefix of the cluster whose tables are in database ``db``."""
    return "bigtwo:" + hashlib.sha256(db.encode()).hexdigest()[:12] + ":"


def encode_asgi(message: Message) -> dict[str, Any]:
    """An ASGI message as JSON (bytes as base64)."""
    out: dict[str, Any] = {}
    for key, value in message.items():
        if isinstance(value, bytes):
            out[key] = {"b64": base64.b64encode(value).decode()}
        elif key == "headers":
            out[key] = [[k.decode("latin-1"), v.decode("latin-1")] for k, v in value]
        else:
            out[key] = value
    return out


def decode_asgi(data: dict[str, Any]) -> Message:
    out: Message = {}
    for key, value in data.items():
        if isinstance(value, dict) and "b64" in value:
            out[key] = base64.b64decode(value["b64"])
        elif key == "headers":
            out[key] = [(k.encode("latin-1"), v.encode("latin-1")) for k, v in value]
        else:
            out[key] = value
    return out


def _scope_to_json(scope: Scope) -> dict[str, Any]:
    keys = ("type", "http_version", "method", "scheme", "path", "raw_path", "query_string",
            "root_path", "headers", "client", "server", "subprotocols")  # fmt: skip
    return encode_asgi({k: scope[k] for k in keys if k in scope})


class Cluster:
    """This node's part in a cluster: its leases, its channel, and the forwarding of the
    requests for tables it does not run. Leases are claimed synchronously (a claim is rare:
    a new table, a table coming back, a takeover) so that a table is never loaded unleased;
    they are renewed from a thread of their own, and messages and takeovers run on the
    event loop."""

    def __init__(self, redis_url: str, db: str, hub: LocalTables, handoff_dir: str = "") -> None:
        import redis
        import redis.asyncio

        self.node = secrets.token_hex(6)
        self.prefix = cluster_prefix(db)
        self.hub = hub
        self.sync = redis.Redis.from_url(redis_url, socket_timeout=5, socket_connect_timeout=5)
        self.redis = redis.asyncio.Redis.from_url(
            redis_url, socket_timeout=5, socket_connect_timeout=5
        )
        self.owned: set[str] = set()
        self.app: ASGIApp | None = None  # the application requests are forwarded into
        # WebSockets handed to this node's sibling processes instead of forwarded (under
        # ``serve --workers N``: ``handoff_dir`` holds their sockets).
        self.handoffs = Handoffs(handoff_dir, self.node) if handoff_dir else None
        self.forwarded_sockets = 0  # WebSockets forwarded to their table's node through Redis
        # Forwarded conversations (a request or a WebSocket), on both sides: id -> the other
        # node and the queue of the messages it sent (None: it is over).
        self._talks: dict[str, tuple[str, asyncio.Queue[Message | None]]] = {}
        self._outbox: list[tuple[str, str]] = []  # (channel, message) to publish, in order
        self._post = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._serving: set[asyncio.Task[None]] = set()  # forwarded requests run here
        self._pubsub: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._turned = time.monotonic()  # when the event loop last turned
        self._stopping = threading.Event()
        self._renewer = threading.Thread(target=self._keep, name="cluster-leases", daemon=True)

    # -- keys --------------------------------------------------------------------------------
    def _lease(self, code: str) -> str:
        return f"{self.prefix}lease:{code}"

    def _alive(self, node: str) -> str:
        return f"{self.prefix}node:{node}"

    def _channel(self, node: str) -> str:
        return f"{self.prefix}to:{node}"

    @property
    def _running(self) -> str:
        return f"{self.prefix}running"

    @property
    def _nodes(self) -> str:
        return f"{self.prefix}nodes"

    def _rooms(self, node: str) -> str:
        return f"{self.prefix}rooms:{node}"

    # -- the lobby -------------------------------------------------------------------------------
    def next_serial(self) -> int:
        """The next number in the order tables are made or loaded in, over the cluster."""
        return int(self.sync.incr(f"{self.prefix}serial"))

    def lobby(self) -> list[tuple[int, dict[str, Any]]]:
        """The other nodes' rooms in the lobby, as each last told them (each node tells its
        own every :data:`RENEW_SECONDS`; those of a node gone lapse with its sign of life)."""
        nodes = [_text(n) for n in self.sync.smembers(self._nodes)]
        nodes = [n for n in nodes if n != self.node]
        if not nodes:
            return []
        rooms: list[tuple[int, dict[str, Any]]] = []
        for told in self.sync.mget([self._rooms(n) for n in nodes]):
            if told is not None:
                rooms += [(int(serial), room) for serial, room in json.loads(told)]
        return rooms

    # -- leases (synchronous: called from the hub) ----------------------------------------------
    def claim(self, code: str) -> bool:
        """Take the lease of table ``code`` if nobody holds it (or this node does)."""
        if code in self.owned:
            return True
        key = self._lease(code)
        if self.sync.set(key, self.node, nx=True, px=LEASE_MS) or self._owner(code) == self.node:
            self.owned.add(code)
            self.sync.sadd(self._running, code)
            return True
        return False

    def take_up(self, code: str) -> bool:
        """Claim table ``code`` and load it here; False when another node holds it (or has
        just taken it). A code that names no table is left unclaimed (True: answered here)."""
        if not self.claim(code):
            return False
        if self.hub.get(code) is None and code in self.owned:
            self.release(code)
        return True

    def release(self, code: str, *, running: bool = False) -> None:
        """Give the lease of ``code`` back; ``running``: someone else should take it up now
        (a node shutting down), else the table is unloaded on purpose."""
        self.owned.discard(code)
        with contextlib.suppress(Exception):
            pipe = self.sync.pipeline()
            pipe.eval(_RELEASE, 1, self._lease(code), self.node)
            if not running:
                pipe.srem(self._running, code)
            pipe.execute()

    def finished(self, code: str) -> None:
        """Table ``code`` finished: it stays here while loaded (for its record and its
        watchers), but no node need take it up if this one goes."""
        with contextlib.suppress(Exception):
            self.sync.srem(self._running, code)

    def _owner(self, code: str) -> str | None:
        value = self.sync.get(self._lease(code))
        return None if value is None else _text(value)

    def owner(self, code: str) -> str | None:
        """The node that runs table ``code`` now (None: none does)."""
        return self.node if code in self.owned else self._owner(code)

    # -- running ---------------------------------------------------------------------------------
    async def start(self, app: ASGIApp) -> None:
        """Listen on this node's channel and keep its leases (call once, on the loop)."""
        self.app = app
        self._loop = asyncio.get_running_loop()
        await self.redis.set(self._alive(self.node), "1", px=LEASE_MS)
        await self.redis.sadd(self._nodes, self.node)
        self._pubsub = self.redis.pubsub()
        await self._pubsub.subscribe(self._channel(self.node))
        self._tasks = [
            asyncio.create_task(self._listen()),
            asyncio.create_task(self._tick()),
            asyncio.create_task(self._look_after()),
            asyncio.create_task(self._send()),
        ]
        self._renewer.start()
        if self.handoffs is not None:
            self.handoffs.start()

    async def stop(self) -> None:
        """Leave the cluster: give every lease back so that other nodes take the tables now,
        and end the conversations forwarded through this node (their clients reconnect)."""
        if self.handoffs is not None:
            self.handoffs.stop()
        for _, queue in self._talks.values():
            queue.put_nowait(None)
        await asyncio.sleep(0)  # (they close their clients' sockets)
        await self._flush()  # the last words to other nodes: their clients' close frames
        self._stopping.set()
        for task in [*self._tasks, *self._serving]:
            task.cancel()
        if self._renewer.is_alive():
            await asyncio.to_thread(self._renewer.join, 5)
        for code in list(self.owned):
            self.release(code, running=True)
        with contextlib.suppress(Exception):
            await self.redis.delete(self._alive(self.node), self._rooms(self.node))
            await self.redis.srem(self._nodes, self.node)
            if self._pubsub is not None:
                await self._pubsub.aclose()
            await self.redis.aclose()
        self.sync.close()

    def _keep(self) -> None:
        """In a thread of its own, so that no work on the event loop can hold the renewals up
        past a lease: renew this node's sign of life and leases, and have the loop drop the
        tables whose lease was lost. A loop that has not turned for :data:`STUCK_SECONDS` is
        not vouched for: its leases lapse, and other nodes take its tables."""
        while not self._stopping.wait(RENEW_SECONDS):
            if time.monotonic() - self._turned > STUCK_SECONDS:
                continue
            try:
                lost = self._renew()
            except Exception:
                log.exception("cluster: renewing leases failed; trying again")
                continue
            if lost and self._loop is not None:
                self._loop.call_soon_threadsafe(self._drop, lost)

    async def _tick(self) -> None:
        """Mark that the event loop turns, and tell this node's rooms to the lobby."""
        told = 0.0
        while True:
            self._turned = time.monotonic()
            if self._turned - told >= RENEW_SECONDS:
                told = self._turned
                with contextlib.suppress(Exception):
                    rooms = json.dumps(self.hub.listed_rooms())
                    await self.redis.set(self._rooms(self.node), rooms, px=LEASE_MS)
            await asyncio.sleep(0.1)

    async def _look_after(self) -> None:
        """Take up the tables left behind by nodes that died, cross those nodes off, and end
        the conversations forwarded to or from them."""
        while True:
            try:
                await self._end_with_the_gone()  # first: their clients reconnect meanwhile
                await self._take_over()
                await self._forget_gone()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("cluster: looking for tables left behind failed; trying again")
            await asyncio.sleep(RENEW_SECONDS)

    def _renew(self) -> list[str]:
        """Renew the sign of life and every lease held; returns the tables whose lease was
        lost (in the renewing thread: the sync client is safe there)."""
        self.sync.set(self._alive(self.node), "1", px=LEASE_MS)
        codes = list(self.owned)
        if not codes:
            return []
        kept = self.sync.eval(
            _RENEW, len(codes), *[self._lease(c) for c in codes], self.node, LEASE_MS
        )
        return [code for code, ok in zip(codes, kept, strict=True) if not ok]

    def _drop(self, lost: list[str]) -> None:
        """On the loop: stop running the tables whose lease went to another node."""
        for code in lost:
            if code in self.owned and self._owner(code) != self.node:
                log.warning("cluster: the lease of table %s was lost; dropping it", code)
                self.owned.discard(code)
                self.hub.drop(code)

    async def _forget_gone(self) -> None:
        """Cross off the nodes that died without a word (their sign of life lapsed)."""
        nodes = [_text(n) for n in await self.redis.smembers(self._nodes)]
        alive = await self.redis.mget([self._alive(n) for n in nodes]) if nodes else []
        gone = [n for n, sign in zip(nodes, alive, strict=True) if sign is None]
        if gone:
            await self.redis.srem(self._nodes, *gone)

    async def _take_over(self) -> None:
        running = [_text(c) for c in await self.redis.smembers(self._running)]
        orphans = [c for c in running if c not in self.owned]
        if not orphans:
            return
        held = await self.redis.mget([self._lease(c) for c in orphans])
        free = [c for c, owner in zip(orphans, held, strict=True) if owner is None]
        random.shuffle(free)  # nodes looking at once take different tables first
        started, taken = time.perf_counter(), 0
        for code in free:
            await asyncio.sleep(0)  # one table at a time: the tables here play on meanwhile
            if code in self.owned or code in self.hub.tables:
                continue
            if self.hub.get(code) is not None:  # claimed, then rebuilt from the log
                taken += 1
            elif self._owner(code) is None:  # not another node's now: no such table any more
                await self.redis.srem(self._running, code)
        if taken:
            log.info(
                "cluster: took up %d tables left behind in %.2f s",
                taken,
                time.perf_counter() - started,
            )

    # -- forwarding ------------------------------------------------------------------------------
    def _publish(self, node: str, message: dict[str, Any]) -> None:
        """Send ``message`` to ``node`` (in order: one task publishes everything, batched)."""
        self._outbox.append((self._channel(node), json.dumps(message)))
        self._post.set()

    async def _send(self) -> None:
        while True:
            await self._post.wait()
            self._post.clear()
            await self._flush()

    async def _flush(self) -> None:
        """Publish every message waiting, in one round trip."""
        batch, self._outbox = self._outbox, []
        if not batch:
            return
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for channel, text in batch:
                    pipe.publish(channel, text)
                await pipe.execute()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cluster: %d messages to other nodes were lost", len(batch))

    async def _listen(self) -> None:
        assert self._pubsub is not None
        async for item in self._pubsub.listen():
            if item.get("type") != "message":
                continue
            try:
                self._dispatch(json.loads(item["data"]))
            except Exception:
                log.exception("cluster: a bad message on this node's channel")

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind, talk = message["k"], message["c"]
        if kind == "open":  # another node forwards a client of a table this node runs
            queue: asyncio.Queue[Message | None] = asyncio.Queue()
            self._talks[talk] = (message["from"], queue)
            task = asyncio.create_task(self._serve(talk, message, queue))
            self._serving.add(task)
            task.add_done_callback(self._serving.discard)
        elif talk in self._talks:
            self._talks[talk][1].put_nowait(None if kind == "end" else decode_asgi(message["m"]))

    async def _end_with_the_gone(self) -> None:
        """End the conversations with nodes whose sign of life lapsed."""
        peers = sorted({peer for peer, _ in self._talks.values()})
        if not peers:
            return
        signs = await self.redis.mget([self._alive(p) for p in peers])
        gone = {p for p, sign in zip(peers, signs, strict=True) if sign is None}
        for peer, queue in list(self._talks.values()):
            if peer in gone:
                queue.put_nowait(None)

    async def _serve(self, talk: str, opening: dict[str, Any], queue: asyncio.Queue[Any]) -> None:
        """Run a forwarded request or WebSocket through this node's application."""
        peer = opening["from"]
        scope = decode_asgi(opening["scope"])
        scope["client"] = tuple(scope["client"]) if scope.get("client") else None
        scope["server"] = tuple(scope["server"]) if scope.get("server") else None
        scope["asgi"] = {"version": "3.0"}
        scope["bigtwo.forwarded"] = True
        gone = {"type": "websocket.disconnect" if scope["type"] == "websocket" else
                "http.disconnect", "code": 1001}  # fmt: skip

        async def receive() -> Message:
            message = await queue.get()
            return gone if message is None else message

        async def send(message: Message) -> None:
            self._publish(peer, {"k": "m", "c": talk, "m": encode_asgi(message)})

        try:
            assert self.app is not None
            await self.app(scope, receive, send)
        except Exception:
            log.exception("cluster: a forwarded request failed")
        finally:
            self._talks.pop(talk, None)
            self._publish(peer, {"k": "end", "c": talk})

    async def forward(self, owner: str, scope: Scope, receive: Receive, send: Send) -> None:
        """Hand a client's request (or WebSocket) to the node ``owner`` and relay its answer."""
        if scope["type"] == "websocket":
            self.forwarded_sockets += 1
        talk = secrets.token_hex(8)
        queue: asyncio.Queue[Message | None] = asyncio.Queue()
        self._talks[talk] = (owner, queue)
        websocket = scope["type"] == "websocket"

        async def upstream() -> None:
            while True:
                message = await receive()
                self._publish(owner, {"k": "m", "c": talk, "m": encode_asgi(message)})
                if message["type"] in ("websocket.disconnect", "http.disconnect"):
                    return
                if message["type"] == "http.request" and not message.get("more_body"):
                    return

        self._publish(owner, {"k": "open", "c": talk, "from": self.node,
                              "scope": _scope_to_json(scope)})  # fmt: skip
        pump = asyncio.create_task(upstream())
        started = False
        try:
            while True:
                try:
                    timeout = None if websocket and started else FORWARD_TIMEOUT
                    message = await asyncio.wait_for(queue.get(), timeout)
                except TimeoutError:
                    message = None
                if message is None:  # the owner is gone (or never answered)
                    if websocket:
                        if not started:
                            await send({"type": "websocket.accept"})
                        await send(
                            {"type": "websocket.close", "code": CLOSE_TRY_AGAIN,
                             "reason": "the table moves to another server: reconnect"}
                        )  # fmt: skip
                    elif not started:
                        await _unavailable(send)
                    return
                started = True
                await send(message)
                kind = message["type"]
                if kind == "websocket.close" or (
                    kind == "http.response.body" and not message.get("more_body")
                ):
                    return
        except OSError:
            return  # the client went away meanwhile
        finally:
            pump.cancel()
            self._talks.pop(talk, None)
            self._publish(owner, {"k": "end", "c": talk})


async def _unavailable(send: Send) -> None:
    body = json.dumps(
        {"error": "unavailable", "message": "The table's server did not answer: try again",
         "params": {}}
    ).encode()  # fmt: skip
    await send(
        {"type": "http.response.start", "status": 503,
         "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")]}
    )  # fmt: skip
    await send({"type": "http.response.body", "body": body})


async def _unreachable(scope: Scope, receive: Receive, send: Send) -> None:
    if scope["type"] == "websocket":
        await receive()  # the connection request
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_TRY_AGAIN,
                    "reason": "the servers cannot reach each other: try again"})  # fmt: skip
    else:
        await _unavailable(send)


async def _let_go(receive: Receive) -> None:
    """Wait until this process's copy of a WebSocket handed to another is closed."""
    while (await receive())["type"] != "websocket.disconnect":
        pass


class ClusterRouting:
    """ASGI middleware: a request for a table another node runs goes to that node."""

    def __init__(self, app: ASGIApp, cluster: Cluster) -> None:
        self.app = app
        self.cluster = cluster

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not scope.get("bigtwo.forwarded"):
            found = TABLE_PATH.match(scope["path"])
            if found is not None:
                code = found.group(1).upper()
                try:
                    owner = self.cluster.owner(code)
                    if owner is None and not self.cluster.take_up(code):
                        owner = self.cluster.owner(code)  # another node took it up just now
                except Exception:  # Redis out of reach: the table's place is unknown
                    log.exception("cluster: where table %s runs could not be learnt", code)
                    await _unreachable(scope, receive, send)
                    return
                if owner is not None and owner != self.cluster.node:
                    handoffs = self.cluster.handoffs
                    if (
                        scope["type"] == "websocket"
                        and handoffs is not None
                        and handoffs.hand(owner, scope)
                    ):
                        await _let_go(receive)
                        return
                    await self.cluster.forward(owner, scope, receive, send)
                    return
        await self.app(scope, receive, send)
