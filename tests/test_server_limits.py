"""The lobby under a flood, over HTTP against the real application (in process, with the
client address chosen per request): room limits per address that trigger, a full server
whose idle unstarted rooms give way, the open rooms a page at a time, a turn timer in public
rooms by default, and private rooms that need their invitation to be watched."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from bigtwo.server import openapi
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings

ONE_HUMAN = {"seats": ["human", "computer", "computer", "computer"], "deals": 1}
LISTED = {**ONE_HUMAN, "public": True}
TWO_HUMANS = {"seats": ["human", "computer", "human", "computer"], "deals": 1}
NO_LIMITS = {"rooms_per_address": 0, "rooms_per_minute": 0.0}

Clients = Callable[[str], Any]


@asynccontextmanager
async def lobby(**settings: Any) -> AsyncIterator[Callable[[str], httpx.AsyncClient]]:
    """A server application, and a client for it from any address (``client("10.0.0.2")``)."""
    app = create_app(settings=Settings(think="inline", **settings))
    clients: list[httpx.AsyncClient] = []

    def client(address: str) -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        made = httpx.AsyncClient(transport=transport, base_url="http://lobby")
        clients.append(made)
        return made

    try:
        yield client
    finally:
        for c in clients:
            await c.aclose()


# -- room limits ------------------------------------------------------------------------------
async def test_one_address_may_have_only_so_many_open_rooms() -> None:
    """On main one client made 5,000 rooms in 14 s; now its eleventh open room is refused
    (429, in words), while another address still makes rooms."""
    async with lobby(rooms_per_minute=0.0) as client:
        flooder, other = client("10.0.0.1"), client("10.0.0.2")
        for _ in range(10):
            assert (await flooder.post("/api/rooms", json=ONE_HUMAN)).status_code == 201
        refused = await flooder.post("/api/rooms", json=ONE_HUMAN)
        assert refused.status_code == 429
        assert refused.json()["error"] == "too_many_rooms"
        assert "10 open rooms" in refused.json()["message"]
        assert (await other.post("/api/rooms", json=ONE_HUMAN)).status_code == 201


async def test_room_creation_is_rate_limited_per_address() -> None:
    async with lobby(rooms_per_address=0, rooms_per_minute=6.0, rooms_burst=3) as client:
        flooder, other = client("10.0.0.1"), client("10.0.0.2")
        made = [(await flooder.post("/api/rooms", json=ONE_HUMAN)).status_code for _ in range(4)]
        assert made == [201, 201, 201, 429]
        refused = (await flooder.post("/api/rooms", json=ONE_HUMAN)).json()
        assert refused["error"] == "rate_limited" and "try again in" in refused["message"]
        assert (await other.post("/api/rooms", json=ONE_HUMAN)).status_code == 201


async def test_a_full_server_lets_idle_unstarted_rooms_give_way() -> None:
    """On main, 5,000 rooms from one flooder answered 503 to everyone for an hour. Now, with
    every table taken, the unstarted room nobody has been at for longest makes way for a new
    one; it stays stored and comes back by its code. Only when every table is in use (here:
    evict_after not yet passed) is the server busy."""
    async with lobby(max_tables=5, evict_after=0.0, **NO_LIMITS) as client:
        flooder, player = client("10.0.0.1"), client("10.0.0.2")
        codes = [
            (await flooder.post("/api/rooms", json=ONE_HUMAN)).json()["code"] for _ in range(5)
        ]
        made = await player.post("/api/rooms", json=ONE_HUMAN)
        assert made.status_code == 201, made.text
        assert (await player.get(f"/api/rooms/{codes[0]}")).status_code == 200  # from the store
    async with lobby(max_tables=2, evict_after=600.0, **NO_LIMITS) as client:
        flooder = client("10.0.0.1")
        for _ in range(2):
            await flooder.post("/api/rooms", json=ONE_HUMAN)
        busy = await client("10.0.0.2").post("/api/rooms", json=ONE_HUMAN)
        assert busy.status_code == 503 and busy.json()["error"] == "busy"


def test_idle_unstarted_rooms_expire_in_minutes() -> None:
    """On main an unstarted room nobody was at stayed loaded for an hour."""
    settings = Settings()
    assert settings.idle_ttl <= 300 and settings.evict_after <= 60
    assert settings.rooms_per_address and settings.rooms_per_minute


# -- the open rooms, a page at a time ---------------------------------------------------------
async def test_the_open_rooms_are_listed_a_page_at_a_time() -> None:
    """On main every open lobby downloaded the whole list (4.4 MB with 5,000 rooms) every 4 s."""
    async with lobby(**NO_LIMITS) as client:
        http = client("10.0.0.1")
        made = [(await http.post("/api/rooms", json=LISTED)).json()["code"] for _ in range(25)]
        seen: list[str] = []
        cursor = None
        pages = 0
        while True:
            query = "?limit=10" + (f"&cursor={cursor}" if cursor else "")
            answer = await http.get("/api/rooms" + query)
            assert answer.status_code == 200
            page = answer.json()
            openapi.Rooms.model_validate(page)
            assert len(page["rooms"]) <= 10 and page["total"] == 25
            seen += [r["code"] for r in page["rooms"]]
            pages += 1
            cursor = page["next"]
            if cursor is None:
                break
        assert pages == 3 and seen == made[::-1]  # every room once, newest first
        first = (await http.get("/api/rooms")).json()
        assert len(first["rooms"]) == 20 and first["next"] is not None


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("limit=0", "'limit' must be a whole number from 1 to 50"),
        ("limit=51", "'limit' must be a whole number from 1 to 50"),
        ("limit=ten", "'limit' must be a whole number from 1 to 50"),
        ("cursor=-3", "'cursor' must be a whole number"),
        ("page=2", "Unknown query parameter 'page' (known: cursor, limit)"),
        ("limit=5&limit=6", "Give each query parameter once"),
    ],
)
async def test_bad_room_list_queries_are_400_in_words(query: str, words: str) -> None:
    async with lobby() as client:
        answer = await client("10.0.0.1").get(f"/api/rooms?{query}")
        assert answer.status_code == 400
        assert answer.json()["error"] == "bad_request" and words in answer.json()["message"]


def test_the_openapi_document_declares_the_room_list_query() -> None:
    spec = openapi.openapi_spec()
    listing = spec["paths"]["/api/rooms"]["get"]
    params = {p["name"]: p for p in listing["parameters"]}
    assert set(params) == {"limit", "cursor"} and all(p["in"] == "query" for p in params.values())
    assert (params["limit"]["schema"]["minimum"], params["limit"]["schema"]["maximum"]) == (1, 50)
    rooms = spec["components"]["schemas"]["Rooms"]["properties"]
    assert {"rooms", "next", "total"} <= set(rooms)
    assert "400" in listing["responses"]


# -- timers and private rooms -----------------------------------------------------------------
async def test_public_rooms_have_a_turn_timer_by_default() -> None:
    """On main an idle player stalled a table without a timer forever."""
    async with lobby() as client:
        http = client("10.0.0.1")

        async def timer(body: dict[str, Any]) -> Any:
            answer = await http.post("/api/rooms", json={**TWO_HUMANS, **body})
            return answer.json()["room"]["options"]["turn_seconds"]

        assert await timer({}) == 30
        assert await timer({"turn_seconds": 12}) == 12
        assert await timer({"turn_seconds": None}) is None  # asked for: no timer
        assert await timer({"public": False}) is None


async def test_a_room_against_computers_alone_is_unlisted_and_untimed() -> None:
    """Issue 40 #13: a beginner's room (every other seat a computer) had a 30-second turn
    timer and was listed in the lobby, where nobody else could sit down anyway. Now it has
    neither unless its request asks; a room with other people keeps both."""
    async with lobby() as client:
        http = client("10.0.0.1")

        async def made(body: dict[str, Any]) -> dict[str, Any]:
            answer = await http.post("/api/rooms", json=body)
            assert answer.status_code == 201, answer.text
            room: dict[str, Any] = answer.json()["room"]
            return room

        alone = await made(ONE_HUMAN)
        assert alone["options"]["turn_seconds"] is None
        assert alone["options"]["between_deals_seconds"] is None
        assert alone["options"]["public"] is False
        listed = {r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]}
        assert alone["code"] not in listed
        asked = await made({**ONE_HUMAN, "public": True, "turn_seconds": 20})
        assert (asked["options"]["public"], asked["options"]["turn_seconds"]) == (True, 20)
        assert (await made({**ONE_HUMAN, "public": True}))["options"]["turn_seconds"] is None
        people = await made(TWO_HUMANS)
        assert (people["options"]["public"], people["options"]["turn_seconds"]) == (True, 30)
        listed = {r["code"] for r in (await http.get("/api/rooms")).json()["rooms"]}
        assert {asked["code"], people["code"]} <= listed


async def test_private_rooms_are_watched_only_with_their_invitation() -> None:
    """On main a room that was not listed could be watched by anyone who had its code."""
    async with lobby() as client:
        http = client("10.0.0.1")
        made = (await http.post("/api/rooms", json={**ONE_HUMAN, "public": False})).json()
        openapi.RoomCreated.model_validate(made)
        code, invite = made["code"], made["invite"]
        assert made["watch_link"].endswith(f"/r/{code}?invite={invite}")
        assert invite not in str(made["room"])  # the room itself never shows it
        assert code not in str((await http.get("/api/rooms")).json())
        guesses = ("guess", "é", "\U0001f600")  # letters outside ASCII too
        for body in ({"as": "spectator"}, *({"as": "spectator", "invite": g} for g in guesses)):
            refused = await http.post(
                f"/api/rooms/{code}/join",
                content=json.dumps(body),
                headers={"content-type": "application/json"},
            )
            assert refused.status_code == 403 and refused.json()["error"] == "not_invited"
            assert "private" in refused.json()["message"]
        watching = await http.post(
            f"/api/rooms/{code}/join", json={"as": "spectator", "invite": invite}
        )
        assert watching.status_code == 200 and watching.json()["role"] == "spectator"
        # Players still join with the code alone; the share link carries the invitation.
        assert (await http.post(f"/api/rooms/{code}/join", json={"name": "Ann"})).status_code == 200
        link = await http.get(f"/r/{code}?invite={invite}", follow_redirects=False)
        assert link.headers["location"] == f"/?room={code}&invite={invite}"
        public = (await http.post("/api/rooms", json=LISTED)).json()
        assert "invite" not in public
