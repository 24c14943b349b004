"""The server's tables at run time: one runner per table, its connections, timers and limits.

A :class:`TableRunner` puts one :class:`~bigtwo.service.table.TableService` on the network: it
turns checked client messages into commands, stores every applied command *before* sending
the events they caused, sends each event only to the connections in its audience, runs the
table's timers, and replays what a reconnecting client missed (or resyncs it). Everything a
runner does happens synchronously on the event loop between two awaits, so commands of one
table never interleave and need no lock. Computer players above the cheapest levels think in
worker processes (:mod:`bigtwo.server.thinking`); their choice comes back as a command like
any other, checked against the position it was made for. Sending is queued per connection,
so one slow reader never holds up a table. The :class:`Hub` holds every runner, creates and
reloads tables, opens rematches, unloads finished tables and hands out seat tokens. Game
rules live in the service and the engine, not here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import secrets
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Mask, parse_cards
from ..engine.errors import BigTwoError
from ..engine.revolution_cards import parse as revolution_parse
from ..protocol import (
    ACTION_LIMIT,
    CHAT_LIMIT,
    CLOSE_GOING_AWAY,
    CLOSE_POLICY,
    CLOSE_QUIT,
    CLOSE_REPLACED,
    CLOSE_SERVER_ERROR,
    CLOSE_TRY_AGAIN,
    PROTOCOL,
    RATE_LIMITED,
    READY_LIMIT,
    BadMessage,
    parse_message,
)
from ..service.commands import Command, Op
from ..service.config import TableConfig
from ..service.events import Event, dumps
from ..service.table import (
    AlreadyApplied,
    Control,
    Faulted,
    Refused,
    TableService,
    TableStatus,
    ThinkRequest,
    hash_token,
)
from ..store.tables import TableStore
from .cluster import Cluster
from .limits import KeyedLimiter, TokenBucket
from .room_limits import RoomLimits, SeatsWaiting
from .thinking import Thinker

# The client messages of the revolution expansion's moves (see protocol.ActivateMessage …).
REVOLUTION_MOVES = frozenset({"activate", "counter", "decline", "draw", "stop"})
log = logging.getLogger(__name__)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud
CODE_LENGTH = 6
CALM_SECONDS = 10.0  # without a step down this long, a table hears its computers are back
MAX_FAULTS = 3  # commands in a row that failed part-way: the table is dropped until revisited
SNAPSHOT_SHARE = 50e-6  # seconds of snapshot-making at most per stored command, on average


def is_room_code(code: str) -> bool:
    """Whether ``code`` (upper case) has the shape of a room code."""
    return len(code) == CODE_LENGTH and set(code) <= set(CODE_ALPHABET)


@dataclass(frozen=True, slots=True)
class Limits:
    """Limits on what one actor sends (rates per second, bursts in messages).

    The limits on what reaches the table (actions, ready, chat) are kept per actor, not per
    connection (see :mod:`bigtwo.server.limits`): a seated player is its seat (which its
    token proves), whatever connections it comes through; anyone else is its client
    address. Reconnecting starts none of them afresh, and ``connects`` limits how often an
    actor connects. ``address_chat`` limits the chat lines from one address over every seat
    it holds. ``messages``, ``strikes`` and ``queue_max`` guard the server from one
    connection and stay with it (each connection costs a ``connects`` token)."""

    messages_rate: float = 30.0
    messages_burst: float = 60.0
    actions_rate: float = 10.0  # a person makes one or two a second at most
    actions_burst: float = 30.0
    chat_rate: float = 1.0
    chat_burst: float = 5.0
    address_chat_rate: float = 3.0
    address_chat_burst: float = 15.0
    ready_rate: float = 0.5  # "ready" and "not ready" messages
    ready_burst: float = 5.0
    connects_rate: float = 1.0  # connections a seat (or an address, to watch) opens
    connects_burst: float = 20.0
    strikes_rate: float = 0.5  # bad or refused-for-rate messages forgiven per second
    strikes_burst: float = 20.0  # more than this in a row closes the connection
    queue_max: int = 4000  # unsent messages before a connection counts as too slow
    actors_max: int = 50_000  # actors remembered per limit; the longest quiet is forgotten


@dataclass(frozen=True, slots=True)
class Settings:
    allow_seeds: bool = False
    limits: Limits = Limits()
    max_tables: int = 5000  # open tables at once, over every address
    max_spectators: int = 50
    max_spectators_per_address: int = 5  # one client cannot take every spectator's place
    stats_token: str = ""  # the operator's token for GET /api/stats ("": stats are refused)
    # Proxies (addresses or networks) whose X-Forwarded-For names the client; else the socket.
    trusted_proxies: tuple[str, ...] = ()
    finished_ttl: float = 600.0  # seconds a finished table stays loaded, watched or not
    idle_ttl: float = 300.0  # seconds an unstarted table nobody is at stays loaded
    # With max_tables open, an unstarted table nobody is at gives way to a new one after this.
    evict_after: float = 60.0
    rooms_per_address: int = 10  # open rooms one address may have made (0: no limit)
    rooms_per_minute: float = 10.0  # rooms one address may make a minute (0: no limit) …
    rooms_burst: int = 10  # … and at once
    seat_grace: float | None = 60.0  # seconds a seat taken in the lobby may stay unconnected
    # Seats one address may hold at once without having connected to them yet (0: no limit).
    seats_per_address: int = 8
    resync_gap: int = 200
    scheduled_gc: bool = False  # set by ``bigtwo serve``: see :mod:`bigtwo.server.collector`
    think: str = "process"  # where computers think: process, thread or inline (the loop)
    think_workers: int | None = None  # default: one fewer than the CPUs, at least one
    think_budget: float = 4.0  # seconds a computer may take before it plays the cheapest
    snapshot_every: int = 200  # commands a table stores between two snapshots of it
    cluster: str = ""  # Redis URL of the cluster this node is part of ("": a server alone)


def actor_of(code: str, seat: int | None, address: str) -> tuple[str | int, ...]:
    """Who acts, for the limits: a seat at a table (its token proves it), else an address."""
    return ("seat", code, seat) if seat is not None else ("address", address)


class ActorLimits:
    """The limits of every actor heard from recently: one
    :class:`~bigtwo.server.limits.KeyedLimiter` per kind of limit, in bounded memory."""

    def __init__(self, limits: Limits) -> None:
        size = limits.actors_max
        self.actions = KeyedLimiter(limits.actions_rate, limits.actions_burst, size)
        self.chat = KeyedLimiter(limits.chat_rate, limits.chat_burst, size)
        self.address_chat = KeyedLimiter(limits.address_chat_rate, limits.address_chat_burst, size)
        self.ready = KeyedLimiter(limits.ready_rate, limits.ready_burst, size)
        self.connects = KeyedLimiter(limits.connects_rate, limits.connects_burst, size)

    def bind(self, conn: Connection, actor: tuple[str | int, ...]) -> None:
        """Give ``conn`` the buckets of ``actor``, shared with the actor's other connections
        and with those it opens later."""
        conn.actions = self.actions.bucket(actor)
        conn.chat = self.chat.bucket(actor)
        conn.ready = self.ready.bucket(actor)
        conn.address_chat = self.address_chat.bucket(("address", conn.address))


class _Close:
    __slots__ = ("code", "reason")

    def __init__(self, code: int, reason: str) -> None:
        self.code, self.reason = code, reason


class Connection:
    """One WebSocket: who it is at its table, its limits, and its outgoing messages.

    Messages queued while the writer is busy go out together: as one frame holding a JSON
    array when the client asked for batches (``batch`` in its hello), which saves a system
    call and a wake-up per message on both sides; else one frame each. ``socket`` needs
    ``send_text(str)`` and ``close(code, reason)`` coroutines (Starlette's WebSocket has both).
    Its rate limits start as its own; once it says who it is, the table gives it the buckets
    of that actor (:meth:`ActorLimits.bind`), which outlive the connection.
    """

    def __init__(self, socket: Any, limits: Limits, address: str = "") -> None:
        self.socket = socket
        self.limits = limits
        self.address = address  # the client's address, as the server believes it
        self.seat: int | None = None
        self.spectator = False
        self.name = ""
        self.batch = False
        self.attached = False
        self.closing = False
        self._out: list[str] = []
        self._wake = asyncio.Event()
        self._close: _Close | None = None
        self.messages = TokenBucket(limits.messages_rate, limits.messages_burst)
        self.actions = TokenBucket(limits.actions_rate, limits.actions_burst)
        self.chat = TokenBucket(limits.chat_rate, limits.chat_burst)
        self.address_chat = TokenBucket(limits.address_chat_rate, limits.address_chat_burst)
        self.ready = TokenBucket(limits.ready_rate, limits.ready_burst)
        self.strikes = TokenBucket(limits.strikes_rate, limits.strikes_burst)

    def send(self, text: str) -> None:
        if self.closing:
            return
        if len(self._out) >= self.limits.queue_max:
            # It cannot keep up; it will reconnect and get a resync instead of a backlog.
            self.close(CLOSE_TRY_AGAIN, "too slow: reconnect and resync")
            return
        self._out.append(text)
        if len(self._out) == 1:
            self._wake.set()

    def reply(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def error(
        self,
        code: str,
        message: str,
        msg_id: str | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        """Refuse a message: its ``code``, the reason in English words, and the ``params`` a
        client words it with in its own language (docs/protocol.md)."""
        self.reply(
            {
                "type": "error",
                "id": msg_id,
                "code": code,
                "message": message,
                "params": dict(params or {}),
            }
        )

    def strike(self, now: float) -> None:
        """Count a bad or rate-limited message; too many in a row close the connection."""
        if not self.strikes.take(now):
            self.close(CLOSE_POLICY, "too many bad or rate-limited messages")

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self._close = _Close(code, reason)
            self._wake.set()

    async def writer(self) -> None:
        """Send queued text in order until closed; ends quietly when the peer is gone."""
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                items, self._out = self._out, []
                if len(items) > 1 and self.batch:
                    await self.socket.send_text("[" + ",".join(items) + "]")
                else:
                    for text in items:
                        await self.socket.send_text(text)
                if self._close is not None and not self._out:
                    await self.socket.close(self._close.code, self._close.reason)
                    return
        except Exception:  # the peer went away mid-send: the reader side cleans up
            self.closing = True


class TableRunner:
    """One table on the network: see the module docstring."""

    def __init__(self, hub: Hub, service: TableService) -> None:
        self.hub = hub
        self.service = service
        self.code = service.code
        self.players: dict[int, Connection] = {}
        self.spectators: set[Connection] = set()
        self._timer: asyncio.TimerHandle | None = None
        self._timer_at: float | None = None
        self._clock: Any = None
        self._thinking: asyncio.Task[None] | None = None
        # Seats at the rematch table for this table's players: seat -> (seat there, token).
        # Kept in memory only (the store keeps token digests), to hand each player its token.
        self.rematch_seats: dict[int, tuple[int, str]] = {}
        self.finished_at: float | None = None
        self.last_active = time.monotonic()
        self.broken = False
        self.creator: str | None = None  # the address that made it (not stored)
        self.serial = hub.next_serial()  # the order tables were made (or loaded) in: the lobby's
        self.faults = 0  # commands in a row that failed part-way (see _rollback)
        self.stepped_down: str | None = None  # computers play below this level (busy server)
        self._stepped_at = 0.0
        self._snapshot_after = hub.settings.snapshot_every  # commands until the next snapshot

    # -- time ----------------------------------------------------------------------------------
    @staticmethod
    def now() -> float:
        return asyncio.get_running_loop().time()

    # -- connections ----------------------------------------------------------------------------
    def connections(self) -> Iterable[Connection]:
        yield from self.players.values()
        yield from self.spectators

    def attach(self, conn: Connection, seat: int | None, since: int) -> None:
        """Seat (or watch) a connection that said hello, and bring it up to date."""
        svc = self.service
        conn.attached = True
        conn.seat = seat
        conn.spectator = seat is None
        # Limits follow the actor: the seat (its token) for a player, else the address.
        actor = actor_of(self.code, seat, conn.address)
        self.hub.actors.bind(conn, actor)
        if seat is not None:
            self.hub.seats_waiting.connected(self.code, seat)
            old = self.players.get(seat)
            if old is not None:
                old.reply({"type": "bye", "reason": "replaced by a newer connection"})
                old.close(CLOSE_REPLACED, "replaced by a newer connection")
                old.attached = False
                svc.disconnect(seat, self.now())
            self.players[seat] = conn
            svc.connect(seat, self.now())
            conn.name = svc.seats[seat].name
        else:
            self.spectators.add(conn)
        now = self.now()
        conn.reply(
            {
                "type": "welcome",
                "protocol": PROTOCOL,
                "room": self.code,
                "role": "spectator" if seat is None else "player",
                "seat": seat,
                "latest": svc.v,
                "clock": svc.clock(now),
            }
        )
        missed = svc.events_since(since, seat) if since > 0 else None
        if missed is None:
            conn.reply(svc.snapshot(seat, now))
        else:
            for event in missed:
                conn.send(self._text(event, conn))
        if seat is not None:
            self._presence(seat, True)
        self.pump()  # a returning player may be handed their seat back now

    def detach(self, conn: Connection) -> None:
        if not conn.attached:
            return
        conn.attached = False
        if conn.seat is not None and self.players.get(conn.seat) is conn:
            del self.players[conn.seat]
            self.service.disconnect(conn.seat, self.now())
            self._presence(conn.seat, False)
            # The players still here may all have asked for the next deal already.
            self.pump()
        self.spectators.discard(conn)

    def _presence(self, seat: int, connected: bool) -> None:
        text = dumps({"type": "presence", "seat": seat, "connected": connected})
        for c in self.connections():
            c.send(text)

    # -- messages ----------------------------------------------------------------------------------
    def on_frame(self, conn: Connection, frame: str | bytes | None) -> None:
        """One frame from an attached connection: limit, check, act, reply."""
        if conn.closing or not conn.attached:
            return  # replaced or being closed: it no longer speaks for its seat
        now = self.now()
        limits_ok = conn.messages.take(now)
        try:
            msg = parse_message(frame)
        except BadMessage as exc:
            conn.strike(now)
            conn.error(exc.code, str(exc), exc.msg_id)
            return
        msg_id = msg.get("id")
        kind = msg["type"]
        limit = RATE_LIMITED.get(kind)
        if (
            not limits_ok
            or (limit == ACTION_LIMIT and not conn.actions.take(now))
            or (limit == READY_LIMIT and not conn.ready.take(now))
            or (limit == CHAT_LIMIT and not self._may_chat(conn, now))
        ):
            conn.strike(now)
            conn.error("rate_limited", f"Too many messages: slow down ({kind} dropped)", msg_id)
            return
        try:
            self._handle(conn, kind, msg, msg_id)
        except Exception:  # a bug must cost one reply, not the table or the server
            log.exception("table %s failed on %s", self.code, kind)
            conn.error("internal", "The server failed on that message", msg_id)

    def _may_chat(self, conn: Connection, now: float) -> bool:
        """Within the chat limits of the actor and of its address (both are spent)."""
        return conn.chat.take(now) and conn.address_chat.take(now)

    def _handle(self, conn: Connection, kind: str, msg: dict[str, Any], msg_id: str | None) -> None:
        seat = conn.seat
        if kind == "ping":
            conn.reply({"type": "pong", "id": msg_id})
            return
        if kind == "sync":
            conn.reply(self.service.snapshot(seat, self.now()))
            return
        if kind == "hello":
            conn.error("bad_message", "Already said hello", msg_id)
            return
        if kind == "chat":
            if seat is None and not (
                self.service.config.spectators and self.service.config.spectator_chat
            ):
                conn.error(
                    "not_seated",
                    "Spectators may not chat at this table (the host has not allowed it)",
                    msg_id,
                )
                return
            self.run(Command(Op.CHAT, seat=seat, name=conn.name, text=msg["text"]), conn, msg_id)
            return
        if seat is None:
            if kind == "quit":
                conn.reply({"type": "bye", "reason": "you left"})
                conn.close(CLOSE_QUIT, "left")
                return
            conn.error("not_seated", "Spectators cannot act at the table", msg_id)
            return
        if kind in REVOLUTION_MOVES:
            self._revolution_move(conn, kind, msg, msg_id)
        elif kind in ("play", "pass"):
            claimed = msg.get("seat")
            if claimed is not None and claimed != seat:
                conn.error(
                    "wrong_seat",
                    f"You sit at seat {seat}; you cannot act for seat {claimed}",
                    msg_id,
                )
                return
            cards = None
            if kind == "play":
                try:
                    cards = self._cards(msg["cards"])
                except BigTwoError as exc:
                    conn.error("bad_cards", str(exc), msg_id)
                    return
                if not cards:
                    conn.error("bad_cards", "Name the cards to play (or send 'pass')", msg_id)
                    return
            cmd = Command(Op.ACT, seat=seat, cards=cards, id=msg["id"], seen=msg["v"])
            self.run(cmd, conn, msg_id)
        elif kind == "ready":
            self.run(Command(Op.READY, seat=seat, ready=msg.get("ready", True)), conn, msg_id)
        elif kind == "next":
            self.run(Command(Op.NEXT, seat=seat), conn, msg_id)
        elif kind == "kick":
            self.run(Command(Op.KICK, seat=seat, target=msg["seat"]), conn, msg_id)
        elif kind == "computer":
            cmd = Command(Op.COMPUTER, seat=seat, target=msg["seat"], text=msg["level"])
            self.run(cmd, conn, msg_id)
        elif kind == "settings":
            options = {
                k: msg[k] for k in ("turn_seconds", "away_seconds", "spectators", "spectator_chat")
            }
            self.run(Command(Op.SETTINGS, seat=seat, value=options), conn, msg_id)
        elif kind == "quit" and self.run(Command(Op.QUIT, seat=seat), conn, msg_id):
            conn.reply({"type": "bye", "reason": "you quit"})
            conn.close(CLOSE_QUIT, "quit")
            self.detach(conn)

    def _cards(self, text: str) -> Mask:
        """Cards as a mask: the 104 cards of the revolution expansion at its tables."""
        if self.service.rules.revolution is not None:
            return Mask(revolution_parse(text))
        return parse_cards(text).mask

    def _revolution_move(
        self, conn: Connection, kind: str, msg: dict[str, Any], msg_id: str | None
    ) -> None:
        """A move of the revolution expansion, as the command the table applies."""
        seat = conn.seat
        claimed = msg.get("seat")
        if claimed is not None and claimed != seat:
            conn.error(
                "wrong_seat", f"You sit at seat {seat}; you cannot act for seat {claimed}", msg_id
            )
            return
        if self.service.rules.revolution is None:
            conn.error("bad_command", f"'{kind}' is a move of the revolution only", msg_id)
            return
        common = {"seat": seat, "id": msg["id"], "seen": msg["v"]}
        try:
            if kind == "activate":
                cards = self._cards(msg["card"])
                if msg.get("give"):
                    cards = Mask(cards | self._cards(msg["give"]))
                cmd = Command(Op.ACTIVATE, cards=cards, target=msg.get("target"), **common)
            elif kind == "counter":
                cmd = Command(Op.COUNTER, cards=self._cards(msg["card"]), **common)
            elif kind == "draw":
                source = msg["source"]
                taken = None if source == "deck" else self._cards(source)
                cmd = Command(Op.DRAW, cards=taken, **common)
            else:
                cmd = Command(Op.DECLINE if kind == "decline" else Op.STOP, **common)
        except BigTwoError as exc:
            conn.error("bad_cards", str(exc), msg_id)
            return
        self.run(cmd, conn, msg_id)

    # -- applying ----------------------------------------------------------------------------
    def run(
        self, cmd: Command | None, conn: Connection | None = None, msg_id: str | None = None
    ) -> bool:
        """Apply a command and whatever falls due after it; store, then send. Returns
        whether the command was applied (a refusal is answered on ``conn``)."""
        self.last_active = time.monotonic()
        if self.broken:
            if conn is not None:
                conn.error("unavailable", "This table is being reloaded: reconnect", msg_id)
            return False
        v_before = self.service.v
        faulted = False
        try:
            commands, events = self.service.submit(cmd, self.now())
        except AlreadyApplied as exc:
            if conn is not None:
                conn.reply({"type": "ack", "id": msg_id, "event": exc.v, "duplicate": True})
            return False
        except Faulted as exc:
            # Part of a command reached memory and none of it the log: back to the log, and
            # on with whatever went through in full before the one that failed.
            faulted = True
            commands, events = self._recover(exc, v_before)
            if not commands:
                if conn is not None:
                    conn.error(exc.code, str(exc), msg_id, exc.params)
                return False
        except Refused as exc:
            if conn is not None:
                conn.error(exc.code, str(exc), msg_id, exc.params)
            return False
        if commands:
            try:
                self.hub.store.append(self.code, [c.to_log() for c in commands])
            except Exception:
                # The table moved on in memory but not on disk: nothing may be sent. Back to
                # what the log holds; the command is refused.
                log.exception("table %s: storing failed; rebuilding it from the log", self.code)
                if conn is not None:
                    conn.error("unavailable", "The table could not store that: retry", msg_id)
                self.faults += 1
                if self.faults >= MAX_FAULTS:
                    self._break()
                else:
                    self._rollback(v_before)
                return False
            if not faulted:
                self.faults = 0
            self._maybe_snapshot()
        for event in events:
            text = event.json()
            personal = event.type == "rematch" and self.rematch_seats
            for c in self.connections():
                if event.reaches(c.seat):
                    c.send(self._text(event, c) if personal else text)
        if conn is not None and msg_id is not None and cmd is not None:
            conn.reply(
                {"type": "ack", "id": msg_id, "event": events[0].v if events else self.service.v}
            )
        self._send_away(events)
        if self.service.status == TableStatus.FINISHED and self.finished_at is None:
            self.finished_at = time.monotonic()
            self.hub.store.set_status(self.code, TableStatus.FINISHED)
            if self.hub.cluster is not None:  # nothing left to run: no node need take it up
                self.hub.cluster.finished(self.code)
        self._send_clock()
        self._reschedule()
        self._maybe_think()
        return True

    def _send_away(self, events: list[Event]) -> None:
        """Close the connections the host's commands removed: a kicked player's (or one
        whose seat went to a computer), and every spectator's once spectators are off."""
        for event in events:
            gone = event.type in ("left", "quit") and event.data.get("reason") in (
                "kicked",
                "computer",
            )
            if gone:
                conn = self.players.get(event.data["seat"])
                if conn is not None:
                    conn.reply({"type": "bye", "reason": "the host gave your seat away"})
                    conn.close(CLOSE_QUIT, "removed by the host")
                    self.detach(conn)
            elif event.type == "settings" and not event.data["spectators"]:
                for conn in list(self.spectators):
                    conn.reply({"type": "bye", "reason": "the host closed the table to spectators"})
                    conn.close(CLOSE_QUIT, "no spectators")
                    self.detach(conn)

    def pump(self) -> None:
        """Apply whatever automatic commands are due now."""
        self.run(None)

    def _maybe_snapshot(self) -> None:
        """Every ``snapshot_every`` stored commands, store the table's state in their place,
        so a restart replays at most that many, however long the table's history. A long
        match makes a larger snapshot, which takes longer to make on the event loop: then
        the next one waits for more commands, so that snapshots never cost more than
        :data:`SNAPSHOT_SHARE` seconds for each command stored (a restart still replays a
        bounded tail: a match has at most 1000 deals)."""
        store = self.hub.store
        if store.since_snapshot(self.code) < self._snapshot_after:
            return
        started = time.perf_counter()
        try:
            store.snapshot(self.code, self.service.freeze())
        except Exception:  # the log is whole without it: try again after the next commands
            log.exception("table %s: storing a snapshot failed", self.code)
        took = time.perf_counter() - started
        self._snapshot_after = max(self.hub.settings.snapshot_every, int(took / SNAPSHOT_SHARE))

    def _text(self, event: Event, conn: Connection) -> str:
        """An event's text for one connection: the same for all, except that a player's copy
        of ``rematch`` also holds its own seat and token at the new table (never stored)."""
        if event.type == "rematch" and conn.seat is not None:
            mine = self.rematch_seats.get(conn.seat)
            if mine is not None:
                return dumps({**event.message(), "seat": mine[0], "token": mine[1]})
        return event.json()

    def _send_clock(self) -> None:
        svc = self.service
        key = (svc.turn_deadline(), svc.pause_deadline(), svc.counter_deadline())
        if key == self._clock:
            return
        self._clock = key
        clock = svc.clock(self.now())
        if clock is None:
            return
        text = dumps({"type": "clock", **clock})
        for c in self.connections():
            c.send(text)

    # -- computers thinking in the pool ---------------------------------------------------------
    def _maybe_think(self) -> None:
        """Start the decision of the computer whose turn it is, if it thinks in the pool."""
        if self._thinking is not None or self.broken:
            return
        request = self.service.think_request()
        if request is not None:
            self._thinking = asyncio.get_running_loop().create_task(self._think(request))

    async def _think(self, request: ThinkRequest) -> None:
        try:
            thought = await self.hub.thinker.think(request, self.code)
            # Thinking counts towards the computer's delay; the rest is waited out here.
            wait = self.service.turn_started + self.service.config.computer_delay - self.now()
            if wait > 0:
                await asyncio.sleep(wait)
        finally:
            if self._thinking is asyncio.current_task():
                self._thinking = None
        if self.broken or self.hub.tables.get(self.code) is not self:
            return
        svc = self.service
        try:
            if thought is None:
                cmd = svc.fallback_command(request)
            else:
                cmd = svc.think_command(request, thought.answer, thought.bot)
            if cmd is None:  # the table moved on meanwhile: think again if it is still due
                self._maybe_think()
                return
            self.run(cmd)
            if thought is not None:
                self._announce_level(request.level, thought.level)
        except Exception:
            log.exception("table %s: a computer's move failed", self.code)

    def _announce_level(self, usual: str, played: str) -> None:
        """Tell the table (a ``busy`` event) when its computers start playing a quicker level
        than their own because the server is busy, and when they are back to their own: back
        only after ``CALM_SECONDS`` without a step down, so a table hears of it rarely."""
        if self.service.status != TableStatus.PLAYING:
            return  # that move ended the match: nothing left to tell
        now = self.now()
        if played != usual:
            self._stepped_at = now
            if self.stepped_down is None:
                self.stepped_down = usual
                self.run(Command(Op.BUSY, text=played, name=usual))
        elif self.stepped_down is not None and now - self._stepped_at >= CALM_SECONDS:
            self.stepped_down = None
            self.run(Command(Op.BUSY, text=usual, name=usual))

    def _reschedule(self) -> None:
        at = self.service.deadline()
        if at == self._timer_at:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._timer_at = at
        if at is not None:
            self._timer = asyncio.get_running_loop().call_at(at, self._on_timer)

    def _on_timer(self) -> None:
        self._timer = None
        self._timer_at = None
        try:
            self.pump()
        except Exception:
            log.exception("table %s: timer failed", self.code)

    def _recover(self, fault: Faulted, v_before: int) -> tuple[list[Command], list[Event]]:
        """After a command failed part-way: the table as its log has it, with the commands
        that went through in full before the failing one applied again (they are not stored
        yet), returned with their events. A table that fails again and again (a computer's or
        a timer's move due at once each time) is dropped instead (see :meth:`_break`): it
        stays stored and reloads on the next visit."""
        self.faults += 1
        if self.faults >= MAX_FAULTS:
            log.error("table %s failed %d commands in a row: dropped", self.code, self.faults)
            self._break()
            return [], []
        if not self._rollback(v_before, resume=not fault.done):
            return [], []
        events: list[Event] = []
        try:
            for cmd in fault.done:
                events += self.service.apply(cmd, self.now())
        except Refused:  # it went through once: this is not expected, so give up on them
            log.exception("table %s: a command failed when applied again", self.code)
            self._rollback(v_before)
            return [], []
        return fault.done, events

    def _rollback(self, v_before: int, *, resume: bool = True) -> bool:
        """Make memory what the stored log says again, after a command failed part-way or
        could not be stored: the table is rebuilt from its log and carries on with the same
        connections. Whoever was sent nothing new needs nothing; if the log somehow holds
        more than was sent (a store that failed after writing), everyone is resynced. If
        even the log cannot be read, the table is dropped and reloads on the next visit.
        ``resume``: schedule the table's timers and computers at once (else the caller
        does, once it has applied more). Returns whether the table is still loaded."""
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None
        service = self.hub.rebuild(self.code)
        if service is None:
            self._break()
            return False
        now = self.now()
        for seat in self.players:
            service.connect(seat, now)
        self.service = service
        if service.v != v_before:
            for c in self.connections():
                c.reply(service.snapshot(c.seat, now))
        self._clock = None
        self._timer_at = -1.0  # whatever it was, schedule afresh
        if resume:
            self._reschedule()
            self._maybe_think()
        return True

    def _break(self) -> None:
        self.broken = True
        for c in list(self.connections()):
            c.close(CLOSE_SERVER_ERROR, "table reloading: reconnect")
        self.stop()
        self.hub.unload(self.code)

    def stop(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None


class Hub:
    """Every loaded table, by room code, over one store."""

    def __init__(self, store: TableStore, settings: Settings | None = None) -> None:
        self.store = store
        self.settings = settings or Settings()
        self.tables: dict[str, TableRunner] = {}
        self.started = time.time()
        self.serial = 0
        self.room_limits = RoomLimits(
            self.settings.rooms_per_minute,
            self.settings.rooms_burst,
            self.settings.rooms_per_address,
        )
        self.seats_waiting = SeatsWaiting(
            self.settings.seats_per_address, self.settings.seat_grace or 60.0
        )
        self.lag = LoopLag()
        self.actors = ActorLimits(self.settings.limits)
        self.thinker = Thinker(
            self.settings.think, self.settings.think_workers, self.settings.think_budget
        )
        # Several servers over one database: each table runs where its lease is.
        self.cluster: Cluster | None = None
        if self.settings.cluster:
            self.cluster = Cluster(self.settings.cluster, getattr(store, "where", "memory"), self)

    def next_serial(self) -> int:
        """The next number in the order tables are made or loaded in (over the whole cluster,
        when there is one: the lobby lists every node's rooms in that order)."""
        if self.cluster is not None:
            return self.cluster.next_serial()
        self.serial += 1
        return self.serial

    # -- connections -----------------------------------------------------------------------------
    def admit(self, runner: TableRunner, conn: Connection, seat: int | None) -> None:
        """Let a connection that said hello (for ``seat``; None: to watch) join its table, or
        raise :class:`Refused` when its actor (the seat, else the address) connects faster
        than its limit: each connection costs a full snapshot, and reconnecting in a loop
        must buy nothing."""
        actor = actor_of(runner.code, seat, conn.address)
        if not self.actors.connects.allow(actor):
            raise Refused("rate_limited", "Connecting too often: wait a little and reconnect")

    # -- tables ----------------------------------------------------------------------------------
    def _service(self, config: TableConfig, code: str) -> TableService:
        return TableService(
            config,
            code,
            now=_loop_time(),
            resync_gap=self.settings.resync_gap,
            offload=self.thinker.offloads,
            seat_grace=self.settings.seat_grace,
        )

    def load_all(self) -> int:
        """Reload every open table from the store (at start-up)."""
        count = 0
        for room in self.store.open_rooms():
            if self._restore(room.code) is not None:
                count += 1
        return count

    def _stored(self, code: str) -> tuple[Any, TableService] | None:
        """A table rebuilt from the store: its stored room and its service (None: no such
        room, or a log that does not replay)."""
        room = self.store.load(code)
        if room is None:
            return None
        try:
            config = TableConfig.from_json(room.config)
            commands = [Command.from_log(c) for c in room.commands]
            service = TableService.restore(
                config,
                code,
                commands,
                _loop_time(),
                snapshot=room.snapshot,
                resync_gap=self.settings.resync_gap,
                offload=self.thinker.offloads,
                seat_grace=self.settings.seat_grace,
            )
        except Exception:
            log.exception("table %s could not be reloaded from its log", code)
            return None
        return room, service

    def rebuild(self, code: str) -> TableService | None:
        """The table ``code`` as its stored log has it (None: it cannot be rebuilt)."""
        try:
            stored = self._stored(code)
        except Exception:
            log.exception("table %s: the store could not be read", code)
            return None
        return None if stored is None else stored[1]

    def _restore(self, code: str) -> TableRunner | None:
        if self.cluster is not None and not self.cluster.claim(code):
            return None  # another node runs it (requests for it are forwarded there)
        stored = self._stored(code)
        if stored is None:
            if self.cluster is not None:
                self.cluster.release(code)
            return None
        room, service = stored
        runner = TableRunner(self, service)
        self.tables[code] = runner
        if service.status == TableStatus.FINISHED:
            runner.finished_at = time.monotonic()
            if room.status != TableStatus.FINISHED:  # it finished just before a crash: say so now
                self.store.set_status(code, TableStatus.FINISHED)
        elif (
            room.status == TableStatus.IDLE
        ):  # someone came back to it: reload it at start-up again
            self.store.set_status(code, service.status)
        return runner

    def get(self, code: str) -> TableRunner | None:
        code = code.strip().upper()
        runner = self.tables.get(code)
        if runner is None and is_room_code(code):
            runner = self._restore(code)  # finished or unloaded tables come back on demand
        return runner

    def unload(self, code: str) -> None:
        self.tables.pop(code, None)
        if self.cluster is not None:
            self.cluster.release(code)

    def drop(self, code: str) -> None:
        """Stop running table ``code`` here at once (its lease went to another node): its
        connections are told to reconnect, and reach it where it runs now."""
        runner = self.tables.pop(code, None)
        if runner is None:
            return
        runner.stop()
        for c in list(runner.connections()):
            c.close(CLOSE_TRY_AGAIN, "the table moved to another server: reconnect")
            runner.detach(c)

    def create(self, config: TableConfig, creator: str | None = None) -> TableRunner:
        """A new table; ``creator`` (an address) is held to :class:`RoomLimits`. With the
        server full, the unstarted table nobody has been at for longest gives way (after
        ``evict_after`` seconds), so no one can keep everybody else from making a room."""
        if creator is not None:
            mine = sum(
                1 for r in self.tables.values() if r.creator == creator and r.finished_at is None
            )
            self.room_limits.check(creator, mine)
        open_tables = [r for r in self.tables.values() if r.finished_at is None]
        if len(open_tables) >= self.settings.max_tables:
            now = time.monotonic()
            idle = [r for r in open_tables if self._idle(r, now - self.settings.evict_after)]
            if not idle:
                raise Refused("busy", "The server has as many tables as it can hold: try later")
            self._unload_idle(min(idle, key=lambda r: r.last_active))
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            free = code not in self.tables and self.store.load(code) is None
            if free and (self.cluster is None or self.cluster.claim(code)):
                break
        self.store.create_room(code, config.to_json())
        runner = TableRunner(self, self._service(config, code))
        runner.creator = creator
        self.tables[code] = runner
        return runner

    @staticmethod
    def _idle(runner: TableRunner, before: float) -> bool:
        """Unstarted, nobody connected, and nothing done there since ``before``."""
        return (
            runner.service.status == TableStatus.WAITING
            and runner.last_active < before
            and not any(runner.connections())
        )

    def _unload_idle(self, runner: TableRunner) -> None:
        """Unload an idle unstarted table: stored as idle, it comes back if someone uses its
        code (but is not reloaded at start-up)."""
        runner.stop()
        self.unload(runner.code)
        self.store.set_status(runner.code, TableStatus.IDLE)

    def join(
        self,
        runner: TableRunner,
        name: str,
        seat: int | None,
        avatar: int | None = None,
        address: str | None = None,
    ) -> tuple[int, str]:
        """Seat a player: returns the seat and its token (the only copy; we keep a digest).
        ``address`` (of an HTTP client) may hold only so many seats it has not connected to."""
        svc = runner.service
        if address is not None:
            self.seats_waiting.check(address)
        free = svc.free_seats()
        if not free:
            taken = len(svc.seats)
            raise Refused(
                "table_full",
                f"Table {runner.code} is full: all {taken} seats are taken",
                {"code": runner.code, "seats": taken},
            )
        if svc.status != TableStatus.WAITING:
            raise Refused(
                "started",
                f"Table {runner.code} has started: seats cannot be taken now",
                {"code": runner.code},
            )
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise Refused(
                "seat_taken",
                f"Seat {seat} is not free (free: {', '.join(map(str, free))})",
                {"seat": seat},
            )
        token = secrets.token_urlsafe(24)
        cmd = Command(Op.JOIN, seat=seat, name=name, token=hash_token(token), avatar=avatar)
        if not runner.run(cmd):
            raise Refused("unavailable", "The table could not seat you: try again")
        if address is not None:
            self.seats_waiting.hold(address, runner.code, seat)
        return seat, token

    def rematch(self, runner: TableRunner, seat: int) -> tuple[TableRunner, int, str, bool]:
        """A new game for the players of a finished table, asked for by the player at
        ``seat``: a new table with the same configuration (a new shuffle), the same computer
        players, and every player still at this table (connected, or the one asking) seated
        where they sat, named and pictured as they were. This table announces it with a
        ``rematch`` event; each player's copy holds its own token there. Asked again (by
        anyone seated here), it answers with the same table: the asker's seat there, or a
        free one. Returns the new table, the seat there, its token, and whether it is new."""
        svc = runner.service
        if svc.status != TableStatus.FINISHED or svc.played_match() is None:
            raise Refused("not_over", "A new game can start once this match is over")
        me = svc.seats[seat]
        if svc.rematch:
            existing = self.get(svc.rematch)
            if existing is None:
                raise Refused("no_room", f"The new game's table {svc.rematch} is gone")
            if seat in runner.rematch_seats:
                there, token = runner.rematch_seats[seat]
                return existing, there, token, False
            free = existing.service.free_seats()
            there, token = self.join(existing, me.name, seat if seat in free else None, me.avatar)
            runner.rematch_seats[seat] = (there, token)
            return existing, there, token, False
        config = svc.config
        seed = config.seed + 1 if config.seeded else random.SystemRandom().randrange(1 << 62)
        new = self.create(dataclasses.replace(config, seed=seed))
        for s in svc.seats:
            here = s.number == seat or (s.connected and s.control == Control.PLAYER)
            if s.human and s.taken and s.control != Control.QUIT and here:
                runner.rematch_seats[s.number] = self.join(new, s.name, s.number, s.avatar)
        if not runner.run(Command(Op.REMATCH, seat=seat, text=new.code)):
            raise Refused("unavailable", "The new game could not be announced: try again")
        there, token = runner.rematch_seats[seat]
        return new, there, token, True

    def watch(self, runner: TableRunner, invite: str = "") -> str:
        """A spectator token; a private room asks for its invitation key."""
        config = runner.service.config
        if not config.spectators:
            raise Refused("no_spectators", "This table does not allow spectators")
        if config.invite and not secrets.compare_digest(invite, config.invite):
            raise Refused(
                "not_invited",
                "This room is private: watch it with the invitation link one of its players shares",
            )
        token = secrets.token_urlsafe(24)
        self.store.add_watcher(hash_token(token), runner.code)
        return token

    def authenticate(self, runner: TableRunner, token: str | None, watch: bool) -> int | None:
        """The seat a token holds (None: a spectator); raises Refused for a bad token."""
        if token:
            seat = runner.service.seat_of_token(token)
            if seat is not None:
                return seat
            if self.store.watcher_room(hash_token(token)) == runner.code:
                if not runner.service.config.spectators:
                    raise Refused("no_spectators", "This table does not allow spectators now")
                return None
            raise Refused("unauthorized", "That token holds no seat at this table")
        config = runner.service.config
        if watch and config.spectators and not config.invite:
            return None
        if watch and config.invite:
            raise Refused("not_invited", "This room is private: watch it with its invitation link")
        raise Refused("unauthorized", "Say hello with your seat token, or with watch: true")

    def open_rooms(
        self, limit: int = 20, cursor: int | None = None
    ) -> tuple[list[dict[str, Any]], int | None, int]:
        """Tables still taking players, listed publicly, newest first: at most ``limit`` of
        them made before ``cursor`` (a serial; None: from the newest). Returns those rooms,
        the cursor of the next page (None: no more) and how many are listed in all."""
        listed: list[tuple[int, TableRunner | dict[str, Any]]] = [
            (r.serial, r) for r in self.tables.values() if self._listed(r)
        ]
        if self.cluster is not None:  # and the other nodes' rooms, as they last told them
            mine = set(self.tables)
            listed += [(n, room) for n, room in self.cluster.lobby() if room["code"] not in mine]
        before = [x for x in listed if cursor is None or x[0] < cursor]
        page = sorted(before, key=lambda x: -x[0])[: limit + 1]
        more = len(page) > limit
        page = page[:limit]
        out = [room if isinstance(room, dict) else self.listing(room) for _, room in page]
        return out, (page[-1][0] if more else None), len(listed)

    @staticmethod
    def _listed(runner: TableRunner) -> bool:
        svc = runner.service
        return svc.status == TableStatus.WAITING and svc.config.public and bool(svc.free_seats())

    def listed_rooms(self) -> list[tuple[int, dict[str, Any]]]:
        """This node's rooms in the lobby: (serial, listing), for the other nodes' lobbies."""
        return [(r.serial, self.listing(r)) for r in self.tables.values() if self._listed(r)]

    @staticmethod
    def listing(runner: TableRunner) -> dict[str, Any]:
        """What the lobby shows of a room."""
        info = runner.service.info()
        return {k: info[k] for k in _LISTED}

    def sweep(self) -> None:
        """Unload finished tables some time after they finished, even with people still
        looking at them (they are told, and the table stays stored: its record, history and
        room come back from the store when asked for), and unstarted ones nobody has been at
        for a long time (marked idle: not reloaded at start-up, but still there for anyone who
        comes back with the code)."""
        now = time.monotonic()
        self.seats_waiting.forget_old(now)
        for code, runner in list(self.tables.items()):
            if (
                runner.finished_at is not None
                and runner.finished_at < now - self.settings.finished_ttl
            ):
                for c in list(runner.connections()):
                    c.reply({"type": "bye", "reason": "the match is over: table closed"})
                    c.close(CLOSE_QUIT, "table closed")
                    runner.detach(c)
                runner.stop()
                self.unload(code)
                continue
            if any(runner.connections()):
                continue
            if self._idle(runner, now - self.settings.idle_ttl):
                self._unload_idle(runner)

    def shutdown(self) -> None:
        for runner in self.tables.values():
            runner.stop()
            for c in list(runner.connections()):
                c.close(CLOSE_GOING_AWAY, "server going down: reconnect")
        self.thinker.close()

    def stats(self) -> dict[str, Any]:
        tables = list(self.tables.values())
        return {
            "tables": len(tables),
            "playing": sum(1 for r in tables if r.service.status == TableStatus.PLAYING),
            "waiting": sum(1 for r in tables if r.service.status == TableStatus.WAITING),
            "connections": sum(len(r.players) + len(r.spectators) for r in tables),
            "uptime_s": round(time.time() - self.started, 1),
            "loop_lag_ms_max": self.lag.take_max(),
            "thinking": self.thinker.stats(),
            **process_memory(),
            **({"node": self.cluster.node} if self.cluster is not None else {}),
        }


_LISTED = ("code", "title", "status", "preset", "players", "deals", "seats", "options", "host")


class LoopLag:
    """How late the event loop wakes a task that asked to sleep a few milliseconds: the
    longest stall since last asked, which is what every table waited on top of its own work."""

    PERIOD = 0.02

    def __init__(self) -> None:
        self.worst = 0.0

    async def watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.PERIOD)
            self.worst = max(self.worst, loop.time() - before - self.PERIOD)

    def take_max(self) -> float:
        worst, self.worst = self.worst, 0.0
        return round(worst * 1000, 1)


def _loop_time() -> float:
    try:
        return asyncio.get_running_loop().time()
    except RuntimeError:
        return time.monotonic()


def process_memory() -> dict[str, float]:
    """This process's resident memory now and at its peak, in MiB (Linux /proc)."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rss = peak
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1]) / 1024
                    break
    except OSError:
        pass
    return {"rss_mb": round(rss, 1), "peak_rss_mb": round(peak, 1)}
