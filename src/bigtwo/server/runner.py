"""One table on the network: a :class:`TableRunner` puts one
:class:`~bigtwo.service.table.TableService` in front of its connections.

It turns each checked client message into a command (:func:`~bigtwo.server.wire.command_of`),
applies it, stores every applied command *before* sending the events it caused, sends each
event only to the connections in its audience, runs the table's timers, and replays what a
reconnecting client missed (or resyncs it). Everything a runner does happens synchronously on
the event loop between two awaits, so commands of one table never interleave and need no
lock. Computer players above the cheapest levels think in worker processes
(:mod:`bigtwo.server.thinking`); their choice comes back as a command like any other, checked
against the position it was made for. A table that fails part-way is rebuilt from its stored
log. The runner must not apply a rule of the game (the service and the engine do), nor make,
find or unload tables (the hub does, :mod:`bigtwo.server.hub`): it reaches the hub only
through :class:`RunnerHost`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from ..protocol import (
    ACTION_LIMIT,
    CHAT_LIMIT,
    CLOSE_QUIT,
    CLOSE_REPLACED,
    CLOSE_SERVER_ERROR,
    PROTOCOL,
    RATE_LIMITED,
    READY_LIMIT,
    BadMessage,
    parse_message,
)
from ..service.commands import Command, Op
from ..service.events import Audience, Event, Group, audience_reaches, dumps
from ..service.table import (
    AlreadyApplied,
    Faulted,
    Refused,
    TableService,
    TableStatus,
    ThinkRequest,
)
from ..store.tables import TableStore
from .cluster import Cluster
from .connection import ActorLimits, Connection, actor_of
from .room_limits import SeatsWaiting
from .settings import Settings
from .thinking import Thinker
from .wire import Refusal, Sender, command_of

log = logging.getLogger(__name__)

CALM_SECONDS = 10.0  # without a step down this long, a table hears its computers are back
MAX_FAULTS = 3  # commands in a row that failed part-way: the table is dropped until revisited
SNAPSHOT_SHARE = 50e-6  # seconds of snapshot-making at most per stored command, on average


class RunnerHost(Protocol):
    """What a runner needs of the hub that holds it (:class:`~bigtwo.server.hub.Hub`): the
    settings, the store, the computers' thinker, the limits and waiting seats of every
    table, the tables loaded, and a table rebuilt from its log or unloaded."""

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> TableStore: ...

    @property
    def cluster(self) -> Cluster | None: ...

    @property
    def thinker(self) -> Thinker: ...

    @property
    def actors(self) -> ActorLimits: ...

    @property
    def seats_waiting(self) -> SeatsWaiting: ...

    @property
    def tables(self) -> Mapping[str, TableRunner]: ...

    def next_serial(self) -> int: ...

    def rebuild(self, code: str) -> TableService | None: ...

    def unload(self, code: str) -> None: ...


class TableRunner:
    """One table on the network: see the module docstring."""

    def __init__(self, hub: RunnerHost, service: TableService) -> None:
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
        """Act on a checked message: run the command it stands for, send its refusal, or
        answer it here (a ping, a resync, a spectator leaving)."""
        config = self.service.config
        sender = Sender(
            conn.seat,
            conn.name,
            game=self.service.rules.game,
            spectator_chat=config.spectators and config.spectator_chat,
        )
        order = command_of(msg, sender)
        if isinstance(order, Refusal):
            conn.error(order.code, order.message, msg_id)
        elif isinstance(order, Command):
            if self.run(order, conn, msg_id) and order.op == Op.QUIT:
                conn.reply({"type": "bye", "reason": "you quit"})
                conn.close(CLOSE_QUIT, "quit")
                self.detach(conn)
        elif kind == "ping":
            conn.reply({"type": "pong", "id": msg_id})
        elif kind == "sync":
            conn.reply(self.service.snapshot(conn.seat, self.now()))
        elif kind == "quit":  # a spectator leaves
            conn.reply({"type": "bye", "reason": "you left"})
            conn.close(CLOSE_QUIT, "left")

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
        ack = None
        if conn is not None and msg_id is not None and cmd is not None:
            ack = dumps(
                {"type": "ack", "id": msg_id, "event": events[0].v if events else self.service.v}
            )
        self._send(events, conn, ack, self._clock_text())
        self._send_away(events)
        if self.service.status == TableStatus.FINISHED and self.finished_at is None:
            self.finished_at = time.monotonic()
            self.hub.store.set_status(self.code, TableStatus.FINISHED)
            if self.hub.cluster is not None:  # nothing left to run: no node need take it up
                self.hub.cluster.finished(self.code)
        self._reschedule()
        self._maybe_think()
        return True

    def _send(
        self, events: list[Event], actor: Connection | None, ack: str | None, clock: str | None
    ) -> None:
        """Hand each connection what one run sends it, in one queueing: the events of its
        audience, each encoded once (:meth:`Event.json`) and the same text to every connection
        it reaches (a player's ``rematch`` aside, see :meth:`_text`); then the ``ack`` of the
        connection whose message it was (``actor``); then the ``clock``, if it changed."""
        tail = [] if clock is None else [clock]
        own_copies = bool(self.rematch_seats) and any(e.type == "rematch" for e in events)
        texts = [] if own_copies else [(e.to, e.json()) for e in events]
        everyone = None  # what every connection but the actor gets, when it is the same
        if not own_copies and all(to == Group.ALL for to, _ in texts):
            everyone = [text for _, text in texts] + tail
        acked = False
        for c in self.connections():
            if c is actor and ack is not None:
                c.send_all([*self._texts_for(c, events, texts, own_copies), ack, *tail])
                acked = True
            elif everyone is not None:
                c.send_all(everyone)
            else:
                c.send_all([*self._texts_for(c, events, texts, own_copies), *tail])
        if ack is not None and actor is not None and not acked:  # (no longer the table's)
            actor.send_all([ack])

    def _texts_for(
        self,
        conn: Connection,
        events: list[Event],
        texts: list[tuple[Audience, str]],
        own_copies: bool,
    ) -> list[str]:
        """The texts of the events that reach ``conn`` (``texts``: each event's audience and
        text, unless the connections get ``own_copies``)."""
        seat = conn.seat
        if own_copies:
            return [self._text(e, conn) for e in events if e.reaches(seat)]
        return [text for to, text in texts if audience_reaches(to, seat)]

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

    def _clock_text(self) -> str | None:
        """The ``clock`` message, when the deadlines players see changed since the last one
        sent (None: unchanged, or no clock runs)."""
        svc = self.service
        key = svc.clock_deadlines()
        if key == self._clock:
            return None
        self._clock = key
        clock = svc.clock(self.now(), key)
        return None if clock is None else dumps({"type": "clock", **clock})

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
            wait = self.service.computer_due() - self.now()
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
        """Have the timer fire by the table's next deadline. A timer set for earlier is kept
        (nearly every action moves the deadline later): it fires, finds nothing due, and is
        set again for the deadline then, which costs less than setting it on every action."""
        at = self.service.deadline()
        if at is None:
            self.stop_timer()
            return
        if self._timer_at is not None and self._timer_at <= at:
            return
        self.stop_timer()
        self._timer_at = at
        self._timer = asyncio.get_running_loop().call_at(at, self._on_timer)

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._timer_at = None

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
        self.stop_timer()  # whatever it was, schedule afresh
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
        self.stop_timer()
        if self._thinking is not None:
            self._thinking.cancel()
            self._thinking = None
