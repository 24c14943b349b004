"""Room features over the network, against a real server: the score sheet's cards left and
multipliers, the turn clock in ``welcome`` and ``sync``, avatars, the pause between deals and
the players' "next", and rematches that seat the same people at a new table."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import httpx
import pytest

from bigtwo.client import Lobby, ServerError, TableClient
from bigtwo.engine.cards import to_mask
from test_server_support import Server

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
ONE_HUMAN = ["human", "computer", "computer", "computer"]


@contextlib.asynccontextmanager
async def autoplay(client: TableClient) -> AsyncIterator[None]:
    """While inside, ``client`` plays its cheapest legal play (or passes) on each turn."""
    stop = asyncio.Event()

    async def loop() -> None:
        # Stopped by a flag, not by cancelling: a cancel that lands as an answer arrives
        # can be lost inside ``wait_for`` on Python 3.11.
        while not stop.is_set():
            if client.state.my_turn:
                legal = client.state.legal or []
                with contextlib.suppress(Exception):
                    await (client.play(legal[0]) if legal else client.pass_())
            await asyncio.sleep(0.005)

    task = asyncio.create_task(loop())
    try:
        yield
    finally:
        stop.set()
        await asyncio.wait_for(task, 15)


async def seated(lobby: Lobby, room: dict[str, Any], name: str = "Ann", **join: Any) -> TableClient:
    seat = await lobby.join(room["code"], name, **join)
    client = TableClient(seat["ws"], seat["token"], keep=True)
    await client.connect()
    return client


async def got(
    client: TableClient, test: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict:
    for msg in client.messages:
        if test(msg):
            return msg
    return await client.wait_for(test, timeout)


def typed(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


async def test_deal_end_and_room_show_cards_left_and_multipliers(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(preset="palm", deals=1, seed=3, seats=ONE_HUMAN)
        client = await seated(lobby, room)
        await client.ready()
        async with autoplay(client):
            end = await got(client, typed("deal_end"), 20)
        assert len(end["left"]) == 4 and end["left"][end["winner"]] == ""
        assert [len(c.split()) for c in end["left"]] == end["counts"]
        assert end["multipliers"] == [2 if n >= 10 else 1 for n in end["counts"]]
        # Our own cards left are what we held; the room (public) shows the same.
        assert to_mask(end["left"][0]) == client.state.hand
        [result] = (await lobby.room(room["code"]))["room"]["results"]
        assert result["left"] == end["left"] and result["multipliers"] == end["multipliers"]
        await client.close()


async def test_welcome_and_sync_carry_the_turn_clock(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(deals=1, seed=5, seats=ONE_HUMAN, turn_seconds=30)
        seat = await lobby.join(room["code"], "Ann")
        first = TableClient(seat["ws"], seat["token"], keep=True)
        await first.connect()
        assert first.welcome["clock"] is None  # nothing runs before the start
        await first.ready()
        await got(first, typed("turn", seat=0))
        await asyncio.sleep(0.3)
        # A reload: the same seat connects afresh and learns the clock at once.
        again = TableClient(seat["ws"], seat["token"], keep=True)
        await again.connect()
        sync = await got(again, typed("sync"))
        for clock in (again.welcome["clock"], sync["clock"]):
            assert clock["seat"] == 0 and 25_000 < clock["ms"] < 29_800
        assert again.state.clock == sync["clock"]
        await again.close()
        await first.close()


async def test_avatars_are_chosen_on_joining(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=["human", "human", "computer", "computer"])
        watcher = await seated(lobby, room, "Bo", avatar=1)
        ann = await lobby.join(room["code"], "Ann", avatar=6)
        joined = await got(watcher, typed("joined", seat=ann["seat"]))
        assert joined["avatar"] == 6
        seats = (await lobby.room(room["code"]))["room"]["seats"]
        assert [s["avatar"] for s in seats] == [1, 6, None, None]
        for bad in (8, -1, "3", True):
            with pytest.raises(ServerError) as refused:
                await lobby.join(room["code"], "Cy", avatar=bad)  # type: ignore[arg-type]
            assert refused.value.status == 400 and "avatar" in str(refused.value)
        await watcher.close()


async def test_the_next_deal_waits_for_next_or_for_the_time(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        # The table waits between deals at most as long as it is told (here 8 s).
        room = await lobby.create_room(
            deals=3, seed=8, seats=ONE_HUMAN, turn_seconds=60, between_deals_seconds=8
        )
        assert room["room"]["options"]["between_deals_seconds"] == 8
        client = await seated(lobby, room)
        await client.ready()
        async with autoplay(client):
            end = await got(client, typed("deal_end", deal=1), 20)
        assert end["next_deal"] == {"deal": 2, "seconds": 8, "waiting": [0]}
        clock = await got(client, lambda m: m.get("type") == "clock" and m["seat"] is None)
        assert clock["next_deal"] == 2 and 7_000 < clock["ms"] <= 8_000
        info = (await lobby.room(room["code"]))["room"]
        assert info["next_deal"]["deal"] == 2 and info["deal"] == 1
        await asyncio.sleep(0.3)
        assert not any(m.get("type") == "deal" and m["deal"] == 2 for m in client.messages)
        # The only player says next: the deal starts at once.
        loop = asyncio.get_running_loop()
        said = loop.time()
        await client.next_deal()
        await got(client, typed("next", seat=0, deal=2))
        await got(client, typed("deal", deal=2))
        assert loop.time() - said < 2
        with pytest.raises(Exception, match="not waiting"):
            await client.next_deal()
        await client.close()

        # Nobody says next: the deal starts when the time is up.
        room = await lobby.create_room(deals=2, seed=8, seats=ONE_HUMAN, between_deals_seconds=0.5)
        client = await seated(lobby, room)
        await client.ready()
        async with autoplay(client):
            end = await got(client, typed("deal_end", deal=1), 20)
            ended = loop.time()
            await got(client, typed("deal", deal=2), 5)
            assert loop.time() - ended >= 0.4
        await client.close()


async def test_without_a_timer_the_next_deal_waits_for_the_players(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(deals=2, seed=8, seats=ONE_HUMAN, turn_seconds=None)
        assert room["room"]["options"]["between_deals_seconds"] is None
        client = await seated(lobby, room)
        await client.ready()
        async with autoplay(client):
            end = await got(client, typed("deal_end", deal=1), 20)
        assert end["next_deal"] == {"deal": 2, "seconds": None, "waiting": [0]}
        await asyncio.sleep(0.5)  # the computers do not deal on while the sheet is read
        assert not any(m.get("type") == "deal" and m["deal"] == 2 for m in client.messages)
        await client.next_deal()
        await got(client, typed("deal", deal=2))
        await client.close()


async def test_rematch_seats_the_same_people_at_a_new_table(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(
            deals=1,
            seed=12,
            seats=[
                "human",
                "human",
                {"kind": "computer", "level": "greedy", "name": "Cat"},
                "computer",
            ],
            rules={"pass_lock": True},
            title="Friday",
            turn_seconds=45,
            computer_delay=0.01,
        )
        code = room["code"]
        ann = await seated(lobby, room, "Ann", avatar=3)
        bob = await seated(lobby, room, "Bob", avatar=4)
        watch = await lobby.watch(code)
        watcher = TableClient(watch["ws"], watch["token"], keep=True)
        await watcher.connect()
        with pytest.raises(ServerError) as early:
            await lobby.rematch(code, ann.token or "")
        assert early.value.status == 409 and early.value.code == "not_over"
        await ann.ready()
        await bob.ready()
        async with autoplay(ann), autoplay(bob):
            await got(ann, typed("match_end"), 30)

        with pytest.raises(ServerError) as stranger:
            await lobby.rematch(code, "not-a-token")
        assert stranger.value.status == 403
        made = await lobby.rematch(code, ann.token or "")
        new = made["code"]
        assert new != code and made["seat"] == 0 and made["token"]
        info = made["room"]
        assert info["title"] == "Friday" and info["rules"]["pass_lock"] is True
        assert info["options"]["turn_seconds"] == 45 and info["status"] == "waiting"
        assert [(s["name"], s["kind"], s["taken"], s["avatar"]) for s in info["seats"]] == [
            ("Ann", "human", True, 3),
            ("Bob", "human", True, 4),
            ("Cat", "computer", True, None),
            ("Computer 4", "computer", True, None),
        ]
        # Bob's token for the new table came to Bob alone, with the announcement.
        told = await got(bob, typed("rematch"))
        assert told["code"] == new and told["seat"] == 1 and told["by"] == 0
        seen = await got(watcher, typed("rematch"))
        assert seen["code"] == new and "token" not in seen and "seat" not in seen
        mine = await got(ann, typed("rematch"))
        assert mine["token"] == made["token"] and mine["seat"] == 0
        assert (await lobby.room(code))["room"]["rematch"] == new
        # Asking again gives the same table and the same seat.
        again = await lobby.rematch(code, bob.token or "")
        assert again["code"] == new and again["seat"] == 1 and again["token"] == told["token"]
        # The tokens seat each of them there.
        for token, seat in ((made["token"], 0), (told["token"], 1)):
            there = TableClient(f"{server.ws_base}/ws/{new}", token)
            assert (await there.connect())["seat"] == seat
            await there.ready()
            await there.close()
        assert (await lobby.room(new))["room"]["status"] == "playing"
        async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
            bad = await http.post(f"/api/rooms/{code}/rematch", json={"seat": 1})
            assert bad.status_code == 400
        for client in (ann, bob, watcher):
            await client.close()
