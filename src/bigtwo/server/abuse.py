"""``bigtwo bench abuse``: every abuse pattern of a hostile client at full speed against a real
server, while a legitimate table plays on; it measures what the server let through and what
it cost.

It starts its own ``bigtwo serve`` on a free loopback port with a fresh database, seats a
legitimate table of four network bots (from 127.0.0.1), six tables of three ``expert``
computers and one of three ``strong`` computers (each with one quick network bot), and for
``seconds`` runs every pattern below from its own source addresses in 127.0.0.0/8 (client
sockets bound to 127.0.0.2, 127.0.0.3, …), each as fast as the server answers:

- ``chat_seated``, ``chat_spectator``: chat lines, reconnecting after every few (seat token;
  anonymous ``watch: true``);
- ``ready_toggle``: ready, not ready, ready… at a table that never fills, reconnecting;
- ``room_flood``: ``POST /api/rooms``;
- ``seat_squat``: ``GET /api/rooms`` and ``POST /join`` on every free seat listed, never
  connecting;
- ``crafted_rules``: rooms with crafted rule overrides, then played by computers;
- ``cross_site``: ``text/plain`` POSTs from another site's ``Origin``;
- ``spectator_grab``: spectator places taken and held open at the legitimate table;
- ``reused_action_id``: a play or pass sent again under an id already used, with other cards.

Per pattern it counts the requests the server accepted and those it refused. Then it
reports the database's growth (the file and its write-ahead log), the legitimate table's
action latency p99, the server's 5xx answers and internal errors (``internal`` error
messages, server errors logged), the strong table's computer wait p99, and the time the
server takes to answer again after a SIGKILL and a restart on the same database; each beside
its target, met or missed. Every loop is bounded in count and in time. It measures; it
changes nothing in the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from ..client import BotClient
from ..protocol import PROTOCOL
from ..service.table import TableStatus
from .bench import _percentile, _raise_file_limit, _run, free_port, wait_ready

# The targets of issue 17, each: (what is measured, the largest value that meets it).
TARGETS: dict[str, tuple[str, float]] = {
    "database_growth_mb": ("database growth, MB (file and WAL)", 5.0),
    "legit_latency_ms_p99": ("legitimate table's action latency p99, ms", 100.0),
    "server_5xx": ("server 5xx answers", 0),
    "internal_errors": ("internal errors", 0),
    "restart_s": ("restart after SIGKILL, s", 1.0),
    "strong_wait_ms_p99": ("strong computers' wait p99 beside six expert tables, ms", 500.0),
}
MAX_LOOPS = 1_000_000  # every loop's bound in count (beside the deadline)
BURST = 8  # messages sent on one connection before reconnecting
HOLD_SPECTATORS = 200  # spectator connections one grabber keeps open at most
CRAFTED_RULES: list[dict[str, Any]] = [
    {"scoring": {"multipliers": [[13, 10**6]]}},
    {"scoring": {"multipliers": [[0, 3], [13, -(10**6)]]}},
    {"scoring": {"rank_values": [10**6] * 13, "per_card": "rank"}},
    {"scoring": {"rank_values": [1, 2]}},
    {"cards_per_player": {"4": 52}},
    {"cards_per_player": {"4": 0}},
    {"players": [2, 3, 4, 5]},
    {"straights": ["A2345"] * 50},
    {"straights": ["ZZZZZ"]},
    {"five_kinds": []},
    {"bombs": ["straight_flush", "pair"]},
    {"lead_card": "2s", "first_play": "alone"},
    {"lead_card": "15x"},
    {"suit_order": "ssss"},
    {"deals_per_game": 10**6},
    {"nested": {"a": {"b": {"c": {"d": {"e": 1}}}}}},
    {"leftover": "to_the_winner", "cards_per_player": {"4": 14}},
    {"multipliers": 1e308},
]


@dataclass
class Pattern:
    """What one abuse pattern did: requests accepted and refused, answers seen."""

    name: str
    addresses: list[str]
    accepted: int = 0
    refused: int = 0
    server_errors: int = 0  # 5xx answers
    internal: int = 0  # "internal" error messages
    failures: int = 0  # connections or requests that failed outright (refused, reset, timed out)
    refusals: dict[str, int] = field(default_factory=dict)
    _next: itertools.cycle[str] | None = None

    def address(self) -> str:
        if self._next is None:
            self._next = itertools.cycle(self.addresses)
        return next(self._next)

    def refuse(self, code: str) -> None:
        self.refused += 1
        self.refusals[code] = self.refusals.get(code, 0) + 1

    def answer(self, response: httpx.Response) -> None:
        if response.status_code >= 500:
            self.server_errors += 1
        if response.status_code < 400:
            self.accepted += 1
            return
        try:
            code = str(response.json().get("error", response.status_code))
        except ValueError:
            code = str(response.status_code)
        self.refuse(code)

    def summary(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "refused": self.refused,
            "server_5xx": self.server_errors,
            "internal_errors": self.internal,
            "failed_connections": self.failures,
            "refusals": dict(sorted(self.refusals.items())),
        }


def db_size_mb(db: Path) -> float:
    """The database with its write-ahead log and shared memory file, in MB."""
    total = 0
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            total += (db.parent / (db.name + suffix)).stat().st_size
    return total / 1e6


class Abuse:
    """One run: the server's URL, the patterns and the legitimate tables."""

    def __init__(self, url: str, seconds: float, source_addresses: int) -> None:
        self.url = url
        self.ws_url = "ws" + url[4:]
        self.seconds = seconds
        self.deadline = 0.0
        names = [
            "chat_seated", "chat_spectator", "ready_toggle", "room_flood", "seat_squat",
            "crafted_rules", "cross_site", "spectator_grab", "reused_action_id",
        ]  # fmt: skip
        self.patterns: dict[str, Pattern] = {}
        host = 2
        for name in names:
            addresses = [f"127.0.0.{host + i}" for i in range(source_addresses)]
            host += source_addresses
            self.patterns[name] = Pattern(name, addresses)
        self.http_5xx = 0  # beside the patterns': the legitimate tables' set-up
        self.legit: list[BotClient] = []
        self.others: list[BotClient] = []
        self.strong_waits: list[float] = []
        self.strong_pending: float | None = None  # since when a strong computer has the turn
        self.legit_code = ""
        self.internal = 0

    # -- helpers ---------------------------------------------------------------------------
    def live(self) -> bool:
        return time.monotonic() < self.deadline

    def wait(self) -> float:
        """How long to wait for one answer: 5 s, or until a little after the deadline."""
        return max(2.0, min(5.0, self.deadline - time.monotonic() + 0.5))

    def rounds(self) -> Iterator[int]:
        """A pattern's rounds: the first always, then more until the deadline (bounded)."""
        for n in range(MAX_LOOPS):
            if n > 0 and not self.live():
                return
            yield n

    def http(self, address: str) -> httpx.AsyncClient:
        transport = httpx.AsyncHTTPTransport(local_address=address)
        return httpx.AsyncClient(
            base_url=self.url, transport=transport, timeout=10.0, trust_env=False
        )

    async def ws(self, pattern: Pattern, code: str) -> ClientConnection | None:
        try:
            return await connect(
                f"{self.ws_url}/ws/{code}",
                local_addr=(pattern.address(), 0),
                compression=None,
                proxy=None,
                open_timeout=5,
                close_timeout=1,
                max_queue=None,
            )
        except (OSError, WebSocketException, TimeoutError):
            pattern.failures += 1
            return None

    async def exchange(
        self, pattern: Pattern, ws: ClientConnection, messages: list[dict[str, Any]]
    ) -> None:
        """Send messages (each with an id) and count the server's answer to each."""
        ids = {m["id"] for m in messages if m.get("id")}
        try:
            for m in messages:
                await ws.send(json.dumps(m))
            answered = 0
            while answered < len(ids):
                frame = await asyncio.wait_for(ws.recv(), self.wait())
                data = json.loads(frame)
                for msg in data if isinstance(data, list) else [data]:
                    self.count_reply(pattern, msg, ids)
                    if msg.get("id") in ids:
                        answered += 1
        except (ConnectionClosed, TimeoutError):
            pattern.failures += 1

    def count_reply(self, pattern: Pattern, msg: dict[str, Any], ids: set[str]) -> None:
        if msg.get("type") == "error" and msg.get("code") == "internal":
            pattern.internal += 1
        if msg.get("id") not in ids:
            return
        if msg.get("type") == "ack":  # an ack marked duplicate counts too: it was let by
            pattern.accepted += 1
        elif msg.get("type") == "error":
            pattern.refuse(str(msg.get("code")))

    async def hello(
        self, pattern: Pattern, ws: ClientConnection, hello: dict[str, Any]
    ) -> dict[str, Any] | None:
        """Say hello; the welcome, or None (counted as refused) when the server said no."""
        try:
            await ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, **hello}))
            data = json.loads(await asyncio.wait_for(ws.recv(), self.wait()))
        except (ConnectionClosed, TimeoutError):
            pattern.failures += 1
            return None
        first = (data[0] if data else {}) if isinstance(data, list) else data
        if first.get("type") != "welcome":
            pattern.refuse(str(first.get("code", "refused")))
            if first.get("code") == "internal":
                pattern.internal += 1
            return None
        return dict(first)

    async def room(self, client: httpx.AsyncClient, pattern: Pattern, **options: Any) -> Any:
        try:
            response = await client.post("/api/rooms", json=options)
        except httpx.HTTPError:
            pattern.failures += 1
            return None
        if response.status_code >= 500:
            pattern.server_errors += 1
        return response.json() if response.status_code == 201 else None

    async def seat(self, client: httpx.AsyncClient, pattern: Pattern, code: str) -> Any:
        try:
            response = await client.post(f"/api/rooms/{code}/join", json={"name": "abuser"})
        except httpx.HTTPError:
            pattern.failures += 1
            return None
        if response.status_code >= 500:
            pattern.server_errors += 1
        return response.json() if response.status_code == 200 else None

    # -- the patterns ----------------------------------------------------------------------
    async def chat_flood(self, pattern: Pattern, seated: bool) -> None:
        async with self.http(pattern.address()) as client:
            room = await self.room(client, pattern, seats=["human"] * 4)
            if room is None:
                return
            token = ""
            if seated:
                joined = await self.seat(client, pattern, room["code"])
                if joined is None:
                    return
                token = joined["token"]
            hello = {"token": token} if seated else {"watch": True, "name": "flood"}
            lines = itertools.count()
            for _ in self.rounds():
                ws = await self.ws(pattern, room["code"])
                if ws is None:
                    await asyncio.sleep(0.01)
                    continue
                async with ws:
                    if await self.hello(pattern, ws, hello) is None:
                        continue
                    burst = [
                        {"type": "chat", "id": f"c{n}", "text": f"flood line {n}"}
                        for n in itertools.islice(lines, BURST)
                    ]
                    await self.exchange(pattern, ws, burst)

    async def ready_toggle(self, pattern: Pattern) -> None:
        async with self.http(pattern.address()) as client:
            room = await self.room(client, pattern, seats=["human"] * 4)
            joined = room and await self.seat(client, pattern, room["code"])
            if not joined:
                return
            flips = itertools.count()
            for _ in self.rounds():
                ws = await self.ws(pattern, room["code"])
                if ws is None:
                    await asyncio.sleep(0.01)
                    continue
                async with ws:
                    if await self.hello(pattern, ws, {"token": joined["token"]}) is None:
                        continue
                    burst = [
                        {"type": "ready", "id": f"r{n}", "ready": n % 2 == 0}
                        for n in itertools.islice(flips, BURST)
                    ]
                    await self.exchange(pattern, ws, burst)

    async def room_flood(self, pattern: Pattern) -> None:
        clients = [self.http(a) for a in pattern.addresses]
        try:
            for n in self.rounds():
                client = clients[n % len(clients)]
                try:
                    pattern.answer(await client.post("/api/rooms", json={"title": f"flood {n}"}))
                except httpx.HTTPError:
                    pattern.failures += 1
        finally:
            for c in clients:
                await c.aclose()

    async def seat_squat(self, pattern: Pattern) -> None:
        clients = [self.http(a) for a in pattern.addresses]
        try:
            for n in self.rounds():
                client = clients[n % len(clients)]
                try:
                    listed = await client.get("/api/rooms")
                    if listed.status_code >= 500:
                        pattern.server_errors += 1
                    rooms = listed.json().get("rooms", []) if listed.status_code == 200 else []
                    free = [(room["code"], seat["seat"]) for room in rooms[:20]
                            for seat in room["seats"]
                            if seat["kind"] == "human" and not seat["taken"]]  # fmt: skip
                    if not free:  # no free seat listed: make a room to squat (every round squats)
                        made = await client.post("/api/rooms", json={"title": "squat"})
                        if made.status_code != 201:
                            pattern.answer(made)
                            continue
                        room = made.json()["room"]
                        free = [(room["code"], s["seat"]) for s in room["seats"]
                                if s["kind"] == "human" and not s["taken"]]  # fmt: skip
                    for k, (code, seat_no) in enumerate(free):
                        if k > 0 and not self.live():
                            return
                        body = {"name": "squatter", "seat": seat_no}
                        pattern.answer(await client.post(f"/api/rooms/{code}/join", json=body))
                except (httpx.HTTPError, ValueError):
                    pattern.failures += 1
        finally:
            for c in clients:
                await c.aclose()

    async def crafted_rules(self, pattern: Pattern) -> None:
        async with self.http(pattern.address()) as client:
            for n in self.rounds():
                rules = CRAFTED_RULES[n % len(CRAFTED_RULES)]
                body = {
                    "rules": rules,
                    "seats": ["human", "computer:greedy", "computer:greedy", "computer:greedy"],
                    "deals": 2,
                }
                try:
                    made = await client.post("/api/rooms", json=body)
                except httpx.HTTPError:
                    pattern.failures += 1
                    continue
                pattern.answer(made)
                if made.status_code != 201:
                    continue
                # Accepted: play it (one seat, ready; the computers play), then look at it.
                code = made.json()["code"]
                joined = await self.seat(client, pattern, code)
                ws = joined and await self.ws(pattern, code)
                if ws:
                    async with ws:
                        if await self.hello(pattern, ws, {"token": joined["token"]}):
                            await ws.send(json.dumps({"type": "ready"}))  # not counted
                            await self.play_a_little(pattern, ws)
                try:
                    looked = await client.get(f"/api/rooms/{code}")
                    if looked.status_code >= 500:
                        pattern.server_errors += 1
                except httpx.HTTPError:
                    pattern.failures += 1

    async def play_a_little(self, pattern: Pattern, ws: ClientConnection) -> None:
        """Play the first legal play offered, for up to a second."""
        until = min(self.deadline, time.monotonic() + 1.0)
        n = seen = 0
        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while time.monotonic() < until:
                frame = await asyncio.wait_for(ws.recv(), max(0.01, until - time.monotonic()))
                data = json.loads(frame)
                for msg in data if isinstance(data, list) else [data]:
                    seen = max(seen, msg.get("v") or 0)
                    if msg.get("type") == "error" and msg.get("code") == "internal":
                        pattern.internal += 1
                    if msg.get("type") == "turn" and msg.get("legal") is not None:
                        n += 1
                        await ws.send(json.dumps(_move(f"p{n}", msg["legal"][:1], seen)))

    async def cross_site(self, pattern: Pattern) -> None:
        headers = {"content-type": "text/plain", "origin": "https://elsewhere.example"}
        clients = [self.http(a) for a in pattern.addresses]
        try:
            for n in self.rounds():
                client = clients[n % len(clients)]
                try:
                    if n % 2 == 0 or not self.legit_code:
                        response = await client.post("/api/rooms", content="{}", headers=headers)
                    else:
                        response = await client.post(
                            f"/api/rooms/{self.legit_code}/join",
                            content='{"as": "spectator"}',
                            headers=headers,
                        )
                    pattern.answer(response)
                except httpx.HTTPError:
                    pattern.failures += 1
        finally:
            for c in clients:
                await c.aclose()

    async def spectator_grab(self, pattern: Pattern) -> None:
        held: list[ClientConnection] = []
        drains: list[asyncio.Task[None]] = []
        clients = [self.http(a) for a in pattern.addresses]
        try:
            for n in self.rounds():
                if len(held) >= HOLD_SPECTATORS:
                    await asyncio.sleep(0.05)
                    continue
                client = clients[n % len(clients)]
                try:
                    response = await client.post(
                        f"/api/rooms/{self.legit_code}/join", json={"as": "spectator"}
                    )
                except httpx.HTTPError:
                    pattern.failures += 1
                    continue
                if response.status_code >= 500:
                    pattern.server_errors += 1
                if response.status_code != 200:
                    pattern.answer(response)
                    continue
                ws = await self.ws(pattern, self.legit_code)
                if ws is None:
                    continue
                if await self.hello(pattern, ws, {"token": response.json()["token"]}):
                    pattern.accepted += 1
                    held.append(ws)  # kept open: the place stays taken
                    drains.append(asyncio.create_task(self.drain(pattern, ws)))
                else:
                    await ws.close()
        finally:
            for ws in held:
                with contextlib.suppress(Exception):
                    await ws.close()
            for task in drains:
                task.cancel()
            for c in clients:
                await c.aclose()

    async def drain(self, pattern: Pattern, ws: ClientConnection) -> None:
        """Read a held connection (so its queue does not fill) until it closes."""
        with contextlib.suppress(ConnectionClosed, Exception):
            async for frame in ws:
                if '"internal"' in str(frame):
                    pattern.internal += 1

    async def reused_action_id(self, pattern: Pattern) -> None:
        async with self.http(pattern.address()) as client:
            for _ in self.rounds():
                room = await self.room(
                    client,
                    pattern,
                    seats=["human", "computer:greedy", "computer:greedy", "computer:greedy"],
                    deals=1000,
                )
                joined = room and await self.seat(client, pattern, room["code"])
                ws = joined and await self.ws(pattern, room["code"])
                if not ws:
                    await asyncio.sleep(0.05)
                    continue
                async with ws:
                    if await self.hello(pattern, ws, {"token": joined["token"]}):
                        await ws.send(json.dumps({"type": "ready"}))  # not counted
                        await self.reuse_ids(pattern, ws)

    async def reuse_ids(self, pattern: Pattern, ws: ClientConnection) -> None:
        """At each turn: first the last acknowledged action's id again with other content
        (which should be refused), then a fresh move; until the deadline or the table ends.
        Messages are taken in order: a turn that comes before the answer awaited is kept for
        after it (the server may send the next turn before the ack of the last move)."""
        acked: str | None = None  # the id of our last acknowledged move
        awaiting: str | None = None  # the id whose answer we wait for
        reusing = False  # whether that message reused ``acked``
        turn: dict[str, Any] | None = None  # a turn not yet acted on
        fresh = itertools.count()
        seen = answered = 0
        give_up = self.deadline + 5  # past the deadline only to answer once at least

        async def act() -> None:
            nonlocal awaiting, reusing, turn
            assert turn is not None
            legal = turn["legal"]
            if acked is not None and not reusing:  # the same id, other content
                other = legal[-1:] if len(legal) > 1 and not turn.get("can_pass") else []
                awaiting, reusing = acked, True
                await ws.send(json.dumps(_move(acked, other, seen)))
                return
            awaiting, reusing = f"a{next(fresh)}-{random.randrange(1 << 30)}", False
            turn = None
            await ws.send(json.dumps(_move(awaiting, legal[:1], seen)))

        with contextlib.suppress(ConnectionClosed, TimeoutError):
            while self.live() or (not answered and time.monotonic() < give_up):
                data = json.loads(await asyncio.wait_for(ws.recv(), self.wait()))
                for msg in data if isinstance(data, list) else [data]:
                    kind = msg.get("type")
                    seen = max(seen, msg.get("v") or 0)
                    if kind == "error" and msg.get("code") == "internal":
                        pattern.internal += 1
                    if kind in ("match_end", "closed"):
                        return
                    if awaiting is not None and msg.get("id") == awaiting:
                        if reusing:
                            self.count_reply(pattern, msg, {awaiting})
                            answered += 1
                            if msg.get("type") == "ack" and not msg.get("duplicate"):
                                turn = None  # it was played as a new move: the turn is gone
                        elif msg.get("type") == "ack":
                            acked = awaiting
                        awaiting = None
                        if turn is not None:
                            await act()
                        reusing = False if awaiting is None else reusing
                    elif kind == "turn" and msg.get("legal") is not None:
                        turn = msg
                        if awaiting is None:
                            await act()

    # -- the tables that measure ---------------------------------------------------------------
    async def tables(self) -> None:
        """The legitimate table (four bots), six expert tables and the strong one."""
        async with httpx.AsyncClient(base_url=self.url, timeout=30, trust_env=False) as http:

            async def make(seats: list[str]) -> tuple[str, list[dict[str, Any]]]:
                made = await http.post(
                    "/api/rooms", json={"seats": seats, "deals": 1000, "away_seconds": None}
                )
                if made.status_code >= 500:
                    self.http_5xx += 1
                made.raise_for_status()
                code = made.json()["code"]
                joined = []
                for _ in range(seats.count("human")):
                    seat = await http.post(f"/api/rooms/{code}/join", json={"name": "legit"})
                    seat.raise_for_status()
                    joined.append(seat.json())
                return code, joined

            # Each table's players connect before the next table is made, as people would: the
            # server frees, and limits, seats taken but never connected to.
            self.legit_code, seats = await make(["human"] * 4)
            for i, s in enumerate(seats):
                self.legit.append(
                    BotClient(
                        s["ws"], s["token"], level="greedy", seed=i, think=0.05, reconnect=False
                    )  # fmt: skip
                )
            for bot in self.legit:
                await bot.connect(timeout=30)
            for i in range(6):
                _, seats = await make(["human"] + ["computer:expert"] * 3)
                expert = BotClient(seats[0]["ws"], seats[0]["token"], seed=f"x{i}", reconnect=False)
                self.others.append(expert)
                await expert.connect(timeout=30)
            _, seats = await make(["human"] + ["computer:strong"] * 3)
            strong = BotClient(seats[0]["ws"], seats[0]["token"], seed="s", reconnect=False)
            strong.on_message = self._computer_wait(seat=seats[0]["seat"])
            self.others.append(strong)
            await strong.connect(timeout=30)

    def _computer_wait(self, seat: int) -> Callable[[dict[str, Any]], None]:
        """Times each computer's move at the strong table: from the event that gave it the
        turn to its action (the computer delay is 0: this is all queue and thinking)."""
        waiting: dict[str, Any] = {}

        def on_message(msg: dict[str, Any]) -> None:
            kind = msg.get("type")
            now = time.perf_counter()
            if kind == "action" and waiting.get("seat") == msg.get("seat"):
                if self.live():
                    self.strong_waits.append(now - waiting["since"])
                waiting.clear()
            self.strong_pending = waiting.get("since")
            if kind in ("action", "deal") and msg.get("winner") is None:
                turn = msg.get("turn")
                if isinstance(turn, int) and turn != seat:
                    waiting.update(seat=turn, since=now)
                else:
                    waiting.clear()
            elif kind == "deal_end":
                waiting.clear()

        return on_message

    # -- the run -----------------------------------------------------------------------------
    async def run(self, progress: Callable[[float, int], None] | None) -> dict[str, Any]:
        await self.tables()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not all(
            b.state.status == TableStatus.PLAYING for b in self.legit
        ):
            await asyncio.sleep(0.05)
        t0 = time.perf_counter()
        self.deadline = time.monotonic() + self.seconds
        work: dict[str, Callable[[], Coroutine[Any, Any, None]]] = {
            "chat_seated": lambda: self.chat_flood(self.patterns["chat_seated"], True),
            "chat_spectator": lambda: self.chat_flood(self.patterns["chat_spectator"], False),
            "ready_toggle": lambda: self.ready_toggle(self.patterns["ready_toggle"]),
            "room_flood": lambda: self.room_flood(self.patterns["room_flood"]),
            "seat_squat": lambda: self.seat_squat(self.patterns["seat_squat"]),
            "crafted_rules": lambda: self.crafted_rules(self.patterns["crafted_rules"]),
            "cross_site": lambda: self.cross_site(self.patterns["cross_site"]),
            "spectator_grab": lambda: self.spectator_grab(self.patterns["spectator_grab"]),
            "reused_action_id": lambda: self.reused_action_id(self.patterns["reused_action_id"]),
        }
        tasks = [asyncio.create_task(job()) for job in work.values()]
        while self.live():
            await asyncio.sleep(min(0.25, max(0.0, self.deadline - time.monotonic())))
            if progress is not None:
                done = sum(p.accepted + p.refused for p in self.patterns.values())
                progress(time.perf_counter() - t0, done)
        t1 = time.perf_counter()
        if self.strong_pending is not None:  # a move still awaited counts as waited so far
            self.strong_waits.append(t1 - self.strong_pending)
        # Each loop looks at the deadline between two requests; a request under way ends by
        # its own timeout (at most 10 s).
        _, late = await asyncio.wait(tasks, timeout=15)
        for task in late:
            task.cancel()
        for task in tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                name = list(work)[tasks.index(task)]
                self.patterns[name].failures += 1
        latencies = sorted(lat for b in self.legit for sent, lat in b.latencies if t0 <= sent < t1)
        legit_actions = len(latencies)
        legit_errors = sum(len(b.refusals) + b.failures + len(b.errors) for b in self.legit)
        self.internal += sum(
            1 for b in [*self.legit, *self.others] for e in b.errors if e.get("code") == "internal"
        )
        await asyncio.gather(*(b.close() for b in [*self.legit, *self.others]))
        waits = sorted(self.strong_waits)
        return {
            "seconds": round(t1 - t0, 2),
            "patterns": {name: p.summary() for name, p in self.patterns.items()},
            "source_addresses": {name: p.addresses for name, p in self.patterns.items()},
            "legit_actions": legit_actions,
            "legit_errors": legit_errors,
            "legit_latency_ms_p50": _ms(latencies, 0.50),
            "legit_latency_ms_p99": _ms(latencies, 0.99),
            "strong_moves": len(waits),
            "strong_wait_ms_p50": round(_percentile(waits, 0.50) * 1000, 1) if waits else None,
            "strong_wait_ms_p99": round(_percentile(waits, 0.99) * 1000, 1) if waits else None,
            "server_5xx": self.http_5xx + sum(p.server_errors for p in self.patterns.values()),
            "internal_errors": self.internal + sum(p.internal for p in self.patterns.values()),
        }


def _ms(sorted_seconds: list[float], fraction: float) -> float | None:
    """A percentile in milliseconds; None when nothing was measured (a target then missed)."""
    return round(_percentile(sorted_seconds, fraction) * 1000, 2) if sorted_seconds else None


def _move(msg_id: str, cards: list[str], seen: int) -> dict[str, Any]:
    """A play of ``cards[0]``, or a pass when ``cards`` is empty."""
    if cards:
        return {"type": "play", "id": msg_id, "cards": cards[0], "v": seen}
    return {"type": "pass", "id": msg_id, "v": seen}


def _start(port: int, db: Path, log: IO[bytes]) -> subprocess.Popen[bytes]:
    command = [
        sys.executable, "-m", "bigtwo.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
        "--db", str(db), "--log-level", "warning",
    ]  # fmt: skip
    return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log)


def _logged_errors(path: Path) -> list[str]:
    """The errors the server logged (``ERROR`` lines: each failure it caught)."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return [line for line in text.splitlines() if line.startswith(("ERROR", "CRITICAL"))]


def _restart_seconds(port: int, db: Path, server: subprocess.Popen[bytes], log: IO[bytes]) -> Any:
    """SIGKILL the server, start it again on the same database, and time until it answers."""
    server.send_signal(signal.SIGKILL)
    server.wait()
    start = time.perf_counter()
    again = _start(port, db, log)
    try:
        wait_ready(f"http://127.0.0.1:{port}", timeout=60, process=again)
        return round(time.perf_counter() - start, 3), again
    except RuntimeError:
        return None, again


def targets(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each target beside its figure, met or missed (a figure not measured: missed)."""
    out = {}
    for key, (what, limit) in TARGETS.items():
        value = result.get(key)
        if key in ("server_5xx", "internal_errors"):
            met = value == 0
        else:
            met = value is not None and value < limit
        out[key] = {"what": what, "target": f"< {limit:g}" if limit else "0", "value": value,
                    "met": met}  # fmt: skip
    return out


def run_abuse(
    seconds: float = 30.0,
    *,
    source_addresses: int = 3,
    progress: Callable[[float, int], None] | None = None,
) -> dict[str, Any]:
    """Run every pattern against a fresh server for ``seconds``; see the module docstring."""
    if seconds <= 0 or source_addresses < 1:
        raise ValueError("--seconds and --addresses must be positive")
    if 2 + 9 * source_addresses > 254:
        raise ValueError("at most 28 source addresses per pattern fit in 127.0.0.0/24")
    _raise_file_limit()
    with tempfile.TemporaryDirectory(prefix="bigtwo-abuse-") as tmp:
        db = Path(tmp) / "abuse.sqlite3"
        log_path = Path(tmp) / "server.log"
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        load_before = os.getloadavg()[0]
        with open(log_path, "wb") as log:
            server = _start(port, db, log)
            try:
                wait_ready(base, process=server)
                before = db_size_mb(db)
                abuse = Abuse(base, seconds, source_addresses)
                result = _run(abuse.run(progress))
                result["database_mb_before"] = round(before, 2)
                result["database_mb_after"] = round(db_size_mb(db), 2)
                result["database_growth_mb"] = round(db_size_mb(db) - before, 2)
                logged = _logged_errors(log_path)
                result["server_logged_errors"] = len(logged)
                result["server_logged_error_kinds"] = sorted(set(logged))[:10]
                result["internal_errors"] += len(logged)
                result["restart_s"], server = _restart_seconds(port, db, server, log)
            finally:
                if server.poll() is None:
                    server.terminate()
                    try:
                        server.wait(10)
                    except subprocess.TimeoutExpired:
                        server.kill()
                        server.wait()
    result["cpus"] = os.cpu_count()
    result["load_avg_1m_before"] = round(load_before, 2)
    result["load_avg_1m_after"] = round(os.getloadavg()[0], 2)
    result["targets"] = targets(result)
    return result
