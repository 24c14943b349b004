"""The hostile clients of ``bigtwo bench abuse`` (:mod:`.abuse`, which runs them against a real
server beside the legitimate tables it measures): each pattern as fast as the server answers,
from its own source addresses in 127.0.0.0/8, counting what the server accepted and refused.

- ``chat_seated``, ``chat_spectator``: chat lines, reconnecting after every few (seat token;
  anonymous ``watch: true``);
- ``ready_toggle``: ready, not ready, ready… at a table that never fills, reconnecting;
- ``room_flood``: ``POST /api/rooms``;
- ``seat_squat``: ``GET /api/rooms`` and ``POST /join`` on every free seat listed, never
  connecting;
- ``crafted_rules``: rooms with crafted rule overrides, then played by computers;
- ``cross_site``: ``text/plain`` POSTs from another site's ``Origin``;
- ``spectator_grab``: spectator places taken and held open at the legitimate table;
- ``reused_action_id``: a play or pass sent again under an id already used, with other cards;
- ``sign_in_address``: wrong sign-ins from one address, each under another name (the limit
  per address);
- ``sign_in_name``: wrong passwords for one account's name, from every address of the pattern
  in turn (the limit per name).

A refusal that says how long to wait (``rate_limited`` with ``seconds``) is kept: the longest
wait said is reported with the pattern. Every loop is bounded in count and in time.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, WebSocketException

from ..protocol import PROTOCOL

PATTERNS = (
    "chat_seated", "chat_spectator", "ready_toggle", "room_flood", "seat_squat",
    "crafted_rules", "cross_site", "spectator_grab", "reused_action_id",
    "sign_in_address", "sign_in_name",
)  # fmt: skip
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
VICTIM = "Flood Victim"  # the account whose name the sign-in flood guesses passwords for
VICTIM_PASSWORD = "the victim's own password"


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
    longest_wait: int | None = None  # the longest wait a rate_limited refusal said, seconds
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
            data = response.json()
            code = str(data.get("error", response.status_code))
            seconds = (data.get("params") or {}).get("seconds")
        except (ValueError, AttributeError):
            code, seconds = str(response.status_code), None
        if isinstance(seconds, int):
            self.longest_wait = max(seconds, self.longest_wait or 0)
        self.refuse(code)

    def summary(self) -> dict[str, Any]:
        return {
            "accepted": self.accepted,
            "refused": self.refused,
            "server_5xx": self.server_errors,
            "internal_errors": self.internal,
            "failed_connections": self.failures,
            "refusals": dict(sorted(self.refusals.items())),
            "longest_wait_said_s": self.longest_wait,
        }


class Abusers:
    """The patterns of one run against the server at ``url``, each with its own addresses
    (``source_addresses`` of them, from 127.0.0.2 up), until :attr:`deadline`."""

    def __init__(self, url: str, source_addresses: int) -> None:
        self.url = url
        self.ws_url = "ws" + url[4:]
        self.deadline = 0.0
        self.legit_code = ""  # the legitimate table (the spectator grab's target)
        self.patterns: dict[str, Pattern] = {}
        host = 2
        for name in PATTERNS:
            addresses = [f"127.0.0.{host + i}" for i in range(source_addresses)]
            host += source_addresses
            self.patterns[name] = Pattern(name, addresses)

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

    @contextlib.asynccontextmanager
    async def clients(self, pattern: Pattern) -> AsyncIterator[list[httpx.AsyncClient]]:
        """An HTTP client from each of the pattern's addresses, closed afterwards."""
        clients = [self.http(a) for a in pattern.addresses]
        try:
            yield clients
        finally:
            for c in clients:
                await c.aclose()

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
        async with self.clients(pattern) as clients:
            for n in self.rounds():
                client = clients[n % len(clients)]
                try:
                    pattern.answer(await client.post("/api/rooms", json={"title": f"flood {n}"}))
                except httpx.HTTPError:
                    pattern.failures += 1

    async def seat_squat(self, pattern: Pattern) -> None:
        async with self.clients(pattern) as clients:
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
        async with self.clients(pattern) as clients:
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

    async def spectator_grab(self, pattern: Pattern) -> None:
        held: list[ClientConnection] = []
        drains: list[asyncio.Task[None]] = []
        async with self.clients(pattern) as clients:
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

    # -- sign-in floods ----------------------------------------------------------------------
    async def sign_in_address(self, pattern: Pattern) -> None:
        """Wrong sign-ins from one address, each under a new name: limited per address."""
        async with self.http(pattern.addresses[0]) as client:
            for n in self.rounds():
                await self.sign_in(client, pattern, f"guess {n}", f"password {n}")

    async def sign_in_name(self, pattern: Pattern) -> None:
        """Wrong passwords for one real account, from each address in turn: limited per name
        (before any one address is)."""
        async with self.clients(pattern) as clients:
            try:
                made = await clients[0].post(
                    "/api/account/register", json={"name": VICTIM, "password": VICTIM_PASSWORD}
                )
                if made.status_code >= 500:
                    pattern.server_errors += 1
                for n in self.rounds():
                    await self.sign_in(clients[n % len(clients)], pattern, VICTIM, f"guess {n}")
            except httpx.HTTPError:
                pattern.failures += 1

    async def sign_in(
        self, client: httpx.AsyncClient, pattern: Pattern, name: str, password: str
    ) -> None:
        body = {"name": name, "password": password}
        try:
            pattern.answer(await client.post("/api/account/sign-in", json=body))
        except httpx.HTTPError:
            pattern.failures += 1

    def jobs(self) -> dict[str, Callable[[], Coroutine[Any, Any, None]]]:
        """Each pattern's loop, by its name."""
        p = self.patterns
        return {
            "chat_seated": lambda: self.chat_flood(p["chat_seated"], True),
            "chat_spectator": lambda: self.chat_flood(p["chat_spectator"], False),
            "ready_toggle": lambda: self.ready_toggle(p["ready_toggle"]),
            "room_flood": lambda: self.room_flood(p["room_flood"]),
            "seat_squat": lambda: self.seat_squat(p["seat_squat"]),
            "crafted_rules": lambda: self.crafted_rules(p["crafted_rules"]),
            "cross_site": lambda: self.cross_site(p["cross_site"]),
            "spectator_grab": lambda: self.spectator_grab(p["spectator_grab"]),
            "reused_action_id": lambda: self.reused_action_id(p["reused_action_id"]),
            "sign_in_address": lambda: self.sign_in_address(p["sign_in_address"]),
            "sign_in_name": lambda: self.sign_in_name(p["sign_in_name"]),
        }


def _move(msg_id: str, cards: list[str], seen: int) -> dict[str, Any]:
    """A play of ``cards[0]``, or a pass when ``cards`` is empty."""
    if cards:
        return {"type": "play", "id": msg_id, "cards": cards[0], "v": seen}
    return {"type": "pass", "id": msg_id, "v": seen}
