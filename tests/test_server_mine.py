"""The way back to your own rooms: ``POST /api/my-rooms`` answers which of the seats a
client holds are still at a room being played (and only those), and the host closes a room
with ``POST /api/rooms/{code}/close``, which ends it for everyone and frees a place among its
maker's open rooms. Over HTTP against the real application in process (the client's address
chosen per request), and one room closed at a real server under a connected player."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest

from bigtwo.client import Lobby, TableClient
from bigtwo.server import openapi
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings
from bigtwo.service.commands import Command, Op
from bigtwo.service.request import table_config
from bigtwo.service.table import Refused, TableService, TableStatus, hash_token
from test_server_support import Server, restored_table

TWO_PEOPLE = {"seats": ["human", "human", "computer", "computer"], "deals": 1}
ONE_PERSON = {"seats": ["human", "computer", "computer", "computer"], "deals": 1}
NO_LIMITS = {"rooms_per_address": 0, "rooms_per_minute": 0.0}


@asynccontextmanager
async def lobby(**settings: Any) -> AsyncIterator[Callable[[str], httpx.AsyncClient]]:
    """A server application, and a client for it from any address (``client("10.0.0.2")``)."""
    app = create_app(settings=Settings(think="inline", **{**NO_LIMITS, **settings}))
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


async def sit(http: httpx.AsyncClient, room: dict[str, Any] | None = None, name: str = "Ann"):
    """A new room (or ``room``) and a seat taken there: (code, token)."""
    if room is None:
        room = (await http.post("/api/rooms", json=TWO_PEOPLE)).json()
    joined = await http.post(f"/api/rooms/{room['code']}/join", json={"name": name})
    assert joined.status_code == 200, joined.text
    return room["code"], joined.json()["token"]


async def got(client: TableClient, kind: str) -> dict[str, Any]:
    """The first message of ``kind`` the client got, or the next one (bounded)."""
    for msg in client.messages:
        if msg.get("type") == kind:
            return msg
    return await client.wait_for(lambda m: m.get("type") == kind, 10)


def held(code: str, token: str) -> dict[str, str]:
    return {"code": code, "token": token}


# -- which rooms are mine -----------------------------------------------------------------------
async def test_mine_answers_the_rooms_the_tokens_hold_and_no_others() -> None:
    async with lobby() as client:
        ann, bob = client("10.0.0.1"), client("10.0.0.2")
        first, token1 = await sit(ann)
        second, token2 = await sit(ann)
        theirs, _ = await sit(bob, name="Bob")  # Bob's room: Ann must not learn of it
        asked = [held(first, token1), held(second, token2)]
        async with Lobby("http://lobby", client=ann) as api:
            assert (await api.mine([(first, token1)]))["rooms"][0]["seat"] == 0
        # Bob's room with Ann's token, and a code of no room, are answered alike: gone.
        asked += [held(theirs, token1), held("ZZZZZZ", token1)]
        answer = await ann.post("/api/my-rooms", json={"seats": asked})
        assert answer.status_code == 200
        mine = answer.json()
        openapi.MyRooms.model_validate(mine)
        assert [r["room"]["code"] for r in mine["rooms"]] == [first, second]
        assert mine["gone"] == [theirs, "ZZZZZZ"]
        room = mine["rooms"][0]
        assert room["seat"] == 0 and room["room"]["host"] == 0
        assert room["link"] == f"http://lobby/r/{first}" and room["ws"].endswith(f"/ws/{first}")
        # Nothing of Bob's room is in the answer: not its code, not its players.
        assert theirs not in str(mine["rooms"]) and "Bob" not in answer.text


async def test_mine_forgets_rooms_that_are_over_and_seats_given_up() -> None:
    async with lobby() as client:
        ann = client("10.0.0.1")
        code, token = await sit(ann)
        closed, host_token = await sit(ann)
        assert (
            await ann.post(f"/api/rooms/{closed}/close", json={"token": host_token})
        ).status_code == 200
        answer = (
            await ann.post(
                "/api/my-rooms", json={"seats": [held(code, token), held(closed, host_token)]}
            )
        ).json()
        assert [r["room"]["code"] for r in answer["rooms"]] == [code]
        assert answer["gone"] == [closed]


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({}, "The request needs the field 'seats'"),
        ({"seats": "ABCDEF"}, "'seats' must be a list"),
        ({"seats": [{"code": "ABCDEF"}]}, "needs the field 'token'"),
        ({"seats": [{"code": "ABCDEF", "token": ""}]}, "1 to 200 characters"),
        ({"seats": [{"code": "A" * 13, "token": "t"}]}, "1 to 12 characters"),
        ({"seats": [held("ABCDEF", "t")] * 31}, "at most 30 items"),
        ({"seats": [], "tokens": []}, "Unknown field 'tokens'"),
    ],
)
async def test_bad_mine_requests_are_400_in_words(body: dict[str, Any], words: str) -> None:
    async with lobby() as client:
        answer = await client("10.0.0.1").post("/api/my-rooms", json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == "bad_request" and words in answer.json()["message"]


async def test_mine_counts_unknown_codes_like_every_lookup() -> None:
    """Codes that name no table spend the address's allowance, as a GET of a room does: the
    seats past it are in neither list (asked later), and then the address is refused."""
    async with lobby(unknown_codes_burst=3, unknown_codes_per_minute=1.0) as client:
        guesser, other = client("10.0.0.9"), client("10.0.0.8")
        code, token = await sit(other)
        guesses = [held(c, "t") for c in ("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD")]
        answer = await guesser.post("/api/my-rooms", json={"seats": guesses})
        assert answer.json() == {"rooms": [], "gone": ["AAAAAA", "BBBBBB", "CCCCCC"]}
        refused = await guesser.post("/api/my-rooms", json={"seats": [held(code, token)]})
        assert refused.status_code == 429
        assert refused.json()["error"] == "rate_limited"
        assert refused.json()["params"]["reason"] == "unknown_codes"
        # Its GET of a room is refused too: one allowance for every lookup.
        assert (await guesser.get(f"/api/rooms/{code}")).status_code == 429
        # Another address is not held back.
        mine = await other.post("/api/my-rooms", json={"seats": [held(code, token)]})
        assert [r["room"]["code"] for r in mine.json()["rooms"]] == [code]


# -- closing a room -------------------------------------------------------------------------------
async def test_only_the_host_closes_a_room() -> None:
    async with lobby() as client:
        ann, bob = client("10.0.0.1"), client("10.0.0.2")
        room = (await ann.post("/api/rooms", json=TWO_PEOPLE)).json()
        code, host = await sit(ann, room)
        _, guest = await sit(bob, room, name="Bob")

        async def close(token: str, where: str = code) -> httpx.Response:
            return await bob.post(f"/api/rooms/{where}/close", json={"token": token})

        not_host = await close(guest)
        assert not_host.status_code == 403 and not_host.json()["error"] == "not_host"
        assert "Only the host" in not_host.json()["message"]
        bad = await close("not-a-token")
        assert bad.status_code == 403 and bad.json()["error"] == "unauthorized"
        unknown = await close(host, "ZZZZZZ")
        assert unknown.status_code == 404 and unknown.json()["error"] == "no_room"
        empty = await bob.post(f"/api/rooms/{code}/close", json={})
        assert empty.status_code == 400 and "needs the field 'token'" in empty.json()["message"]
        assert (await ann.get(f"/api/rooms/{code}")).json()["room"]["status"] == "waiting"

        closed = await close(host)
        assert closed.status_code == 200
        openapi.RoomAnswer.model_validate(closed.json())
        assert closed.json()["room"]["status"] == "finished"
        assert closed.json()["room"]["closed"] == "host closed the room"
        again = await close(host)
        assert again.status_code == 409 and again.json()["error"] == "finished"
        # Closed, it takes nobody, and the lobby no longer lists it.
        late = await client("10.0.0.3").post(f"/api/rooms/{code}/join", json={"name": "Cy"})
        assert late.status_code == 409
        assert code not in [r["code"] for r in (await ann.get("/api/rooms")).json()["rooms"]]


async def test_a_closed_room_no_longer_counts_against_its_makers_limit() -> None:
    """Issue 40: rooms left mid-game filled the maker's allowance, and nothing freed it."""
    async with lobby(rooms_per_address=2) as client:
        ann = client("10.0.0.1")
        codes = []
        for _ in range(2):
            code, token = await sit(ann, (await ann.post("/api/rooms", json=ONE_PERSON)).json())
            codes.append((code, token))
        refused = await ann.post("/api/rooms", json=ONE_PERSON)
        assert refused.status_code == 429 and refused.json()["error"] == "too_many_rooms"
        assert "close one" in refused.json()["message"]
        code, token = codes[0]
        assert (
            await ann.post(f"/api/rooms/{code}/close", json={"token": token})
        ).status_code == 200
        assert (await ann.post("/api/rooms", json=ONE_PERSON)).status_code == 201


# -- at a real server ---------------------------------------------------------------------------
async def test_closing_ends_the_room_for_everyone_and_keeps_it(server: Server) -> None:
    async with Lobby(server.url) as lobby_:
        room = await lobby_.create_room(
            preset="hongkong", seats=["human", "human"], public=False, seed=5, deals=2
        )
        code = room["code"]
        ann_seat = await lobby_.join(code, "Ann")
        bob_seat = await lobby_.join(code, "Bob")
        ann = TableClient(ann_seat["ws"], ann_seat["token"], keep=True)
        bob = TableClient(bob_seat["ws"], bob_seat["token"], keep=True)
        try:
            await ann.connect()
            await bob.connect()
            await ann.ready()
            await bob.ready()
            await got(bob, "deal")
            closed = await lobby_.close_room(code, ann_seat["token"])
            assert closed["room"]["status"] == "finished"
            for client in (ann, bob):
                event = await got(client, "closed")
                assert event["reason"] == "host closed the room"
            mine = await lobby_.mine([(code, ann_seat["token"]), (code, bob_seat["token"])])
            assert mine == {"rooms": [], "gone": [code, code]}
        finally:
            await ann.close()
            await bob.close()
    # Kept as it stood: the stored log replays to a closed table.
    table = restored_table(server.db, code)
    assert table.status == "finished" and table.closed_reason == "host closed the room"


def test_the_table_takes_a_close_from_its_host_only() -> None:
    """The table itself refuses a close from anyone but the host (the hub asks it first, so
    its words reach the client), and a second close."""
    config = table_config(TWO_PEOPLE)
    table = TableService(config, "CLOSED")
    for seat, name in ((0, "Ann"), (1, "Bob")):
        table.apply(Command(Op.JOIN, seat=seat, name=name, token=hash_token(name)), now=0.0)
    with pytest.raises(Refused) as refused:
        table.apply(Command(Op.CLOSE, seat=1), now=0.0)
    assert refused.value.code == "not_host"
    events = table.apply(Command(Op.CLOSE, seat=0), now=0.0)
    assert [(e.type, e.data) for e in events] == [("closed", {"reason": "host closed the room"})]
    assert table.status == TableStatus.FINISHED
    with pytest.raises(Refused) as again:
        table.apply(Command(Op.CLOSE, seat=0), now=0.0)
    assert again.value.code == "finished"
