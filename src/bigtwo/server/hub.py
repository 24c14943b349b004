"""The server's tables: the :class:`Hub` holds every table loaded on this server, by room code.

It creates tables (within the room limits, giving way to idle ones when the server is full),
reloads them from the store at start-up or on demand, seats players and hands out their seat
tokens, spectator tokens and rematch tables, closes a room for its host, lets connections in
(:meth:`Hub.admit`), lists the lobby's open rooms, unloads finished and idle tables, and, in a
cluster, runs only the tables whose lease this node holds
(:class:`~bigtwo.server.cluster.Cluster`). Each loaded table is a
:class:`~bigtwo.server.runner.TableRunner`, which does all that happens at the table. The hub
must not read client messages or send events (the runners and their connections do), and
applies no rule of the game (the service and the engine do).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import math
import random
import secrets
import time
from typing import Any

from ..protocol import CLOSE_GOING_AWAY, CLOSE_QUIT, CLOSE_TRY_AGAIN
from ..service.commands import Command, Op
from ..service.config import TableConfig
from ..service.table import Control, Refused, TableService, TableStatus, hash_token
from ..store.tables import TableStore
from .cluster import Cluster
from .connection import ActorLimits, Connection, SendCounts, actor_of
from .room_limits import RoomLimits, SeatsWaiting
from .runner import TableRunner
from .settings import Settings as Settings  # (the hub's settings, for ``bigtwo serve``)
from .thinking import Thinker

log = logging.getLogger(__name__)

SWEEP_EVERY = 30.0  # seconds between two sweeps of finished and idle tables (see Hub.sweep)

CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: codes are read aloud
CODE_LENGTH = 6  # a listed room's code: anyone can read it in the lobby anyway
# A private room's code, which is its invitation: 31**12 codes (about 8e17) cannot be found
# by guessing, where 31**6 (about 9e8) could, so the code alone lets people sit down there.
PRIVATE_CODE_LENGTH = 12


def is_room_code(code: str) -> bool:
    """Whether ``code`` (upper case) has the shape of a room code (listed or private)."""
    return len(code) in (CODE_LENGTH, PRIVATE_CODE_LENGTH) and set(code) <= set(CODE_ALPHABET)


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
            where = getattr(store, "where", "memory")
            self.cluster = Cluster(self.settings.cluster, where, self, self.settings.handoff_dir)

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
            mine = [
                r for r in self.tables.values() if r.creator == creator and r.finished_at is None
            ]
            self.room_limits.check(creator, len(mine), self._minutes_to_close(mine))
        open_tables = [r for r in self.tables.values() if r.finished_at is None]
        if len(open_tables) >= self.settings.max_tables:
            now = time.monotonic()
            idle = [r for r in open_tables if self._idle(r, now - self.settings.evict_after)]
            if not idle:
                raise Refused("busy", "The server has as many tables as it can hold: try later")
            self._unload_idle(min(idle, key=lambda r: r.last_active))
        length = CODE_LENGTH if config.public else PRIVATE_CODE_LENGTH
        while True:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(length))
            free = code not in self.tables and self.store.load(code) is None
            if free and (self.cluster is None or self.cluster.claim(code)):
                break
        self.store.create_room(code, config.to_json())
        runner = TableRunner(self, self._service(config, code))
        runner.creator = creator
        self.tables[code] = runner
        return runner

    def _minutes_to_close(self, rooms: list[TableRunner]) -> int | None:
        """Whole minutes until the first of ``rooms`` that nobody is at and that has not
        started closes by itself (the sweep runs every 30 seconds); None: every one is in
        use (it closes when its match is played)."""
        now = time.monotonic()
        left = [
            r.last_active + self.settings.idle_ttl + SWEEP_EVERY - now
            for r in rooms
            if r.service.status == TableStatus.WAITING and not any(r.connections())
        ]
        return max(1, math.ceil(min(left) / 60)) if left else None

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
        if svc.status != TableStatus.WAITING:  # (its seats are all taken too: say why)
            raise Refused(
                "started",
                f"Table {runner.code} has started: seats cannot be taken now",
                {"code": runner.code},
            )
        free = svc.free_seats()
        if not free:
            taken = len(svc.seats)
            raise Refused(
                "table_full",
                f"Table {runner.code} is full: all {taken} seats are taken",
                {"code": runner.code, "seats": taken},
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
        if svc.status != TableStatus.FINISHED or svc.game is None:
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

    def close(self, runner: TableRunner, seat: int) -> None:
        """The host, at ``seat``, closes the room: it ends for everyone, who are told why
        (a ``closed`` event), and is kept as a finished table (its log, its record once a
        match was played); it no longer counts among its creator's open rooms."""
        svc = runner.service
        if svc.status == TableStatus.FINISHED:
            raise Refused("finished", f"Table {runner.code} is closed already")
        if svc.host != seat:
            raise Refused("not_host", "Only the host can close the room")
        if not runner.run(Command(Op.CLOSE, seat=seat)):
            raise Refused("unavailable", "The room could not be closed: try again")

    def watch(self, runner: TableRunner, invite: str = "") -> str:
        """A spectator token; a private room asks for its invitation key."""
        config = runner.service.config
        if not config.spectators:
            raise Refused("no_spectators", "This table does not allow spectators")
        # compared as bytes: compare_digest refuses text outside ASCII (a key typed or
        # guessed with any letter must be refused in words, not fail)
        given = invite.encode("utf-8", "replace")
        if config.invite and not secrets.compare_digest(given, config.invite.encode("utf-8")):
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
            "ws_frames_sent": SendCounts.frames,
            "ws_messages_sent": SendCounts.messages,
            "ws_frames_direct": SendCounts.direct,
            **process_memory(),
            **self._cluster_stats(),
        }

    def _cluster_stats(self) -> dict[str, Any]:
        """In a cluster: this node, and the WebSockets it forwarded to their table's node,
        handed to a sibling process and adopted from one (:mod:`bigtwo.server.handoff`)."""
        cluster = self.cluster
        if cluster is None:
            return {}
        handoffs = cluster.handoffs
        return {
            "node": cluster.node,
            "ws_forwarded": cluster.forwarded_sockets,
            "ws_handed_off": handoffs.handed if handoffs is not None else 0,
            "ws_adopted": handoffs.adopted if handoffs is not None else 0,
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
