"""Seats that cannot be squatted and hosts who control their rooms, against a real server
(with a one-second seat grace, and two unconnected seats an address): a seat taken but never connected is freed and the table is
told; only the host kicks, gives seats to computers and changes the timers or lets
spectators in; a timer set at the table moves an idle player on; private rooms need their
invitation to be watched over the WebSocket too."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from bigtwo.client import ActionRefused, Lobby, ServerError, TableClient
from test_server_support import Server, launch, restored_table

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")
TWO_HUMANS = ["human", "human", "computer", "computer"]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    srv = launch(tmp_path_factory.mktemp("host"), ["--seat-grace", "1", "--seats-per-address", "2"])
    yield srv
    srv.stop()


async def seated(lobby: Lobby, code: str, name: str, seat: int | None = None) -> TableClient:
    joined = await lobby.join(code, name, seat)
    client = TableClient(joined["ws"], joined["token"], keep=True)
    await client.connect()
    return client


async def got(
    client: TableClient, test: Callable[[dict[str, Any]], bool], timeout: float = 10
) -> dict[str, Any]:
    for msg in client.messages:
        if test(msg):
            return msg
    return await client.wait_for(test, timeout)


def typed(kind: str, **fields: Any) -> Callable[[dict[str, Any]], bool]:
    return lambda m: m.get("type") == kind and all(m.get(k) == v for k, v in fields.items())


async def refused(client: TableClient, message: dict[str, Any]) -> ActionRefused:
    with pytest.raises(ActionRefused) as caught:
        await client.request(message)
    return caught.value


async def test_a_seat_taken_but_never_connected_is_freed(server: Server) -> None:
    """On main ``POST /join`` took a seat for good without ever connecting."""
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=TWO_HUMANS, deals=1)
        ann = await seated(lobby, room["code"], "Ann")
        squatter = await lobby.join(room["code"], "Squat")
        left = await got(ann, typed("left", seat=squatter["seat"]), 10)
        assert left["reason"] == "never connected"
        seats = (await lobby.room(room["code"]))["room"]["seats"]
        assert not seats[squatter["seat"]]["taken"] and seats[0]["taken"]  # Ann is connected
        late = TableClient(squatter["ws"], squatter["token"], reconnect=False)
        with pytest.raises(ActionRefused):
            await late.connect()
        await ann.close()


async def test_one_address_holds_only_so_many_seats_it_has_not_connected_to(
    server: Server,
) -> None:
    """On main a script reading ``GET /api/rooms`` could fill every public room's seats."""
    async with Lobby(server.url) as lobby:
        rooms = [await lobby.create_room(seats=TWO_HUMANS, deals=1) for _ in range(3)]
        first = await lobby.join(rooms[0]["code"], "S1")
        await lobby.join(rooms[1]["code"], "S2")
        with pytest.raises(ServerError) as refused:
            await lobby.join(rooms[2]["code"], "S3")
        assert refused.value.status == 429 and refused.value.code == "too_many_seats"
        assert "connect to them first" in str(refused.value)
        sitting = TableClient(first["ws"], first["token"], reconnect=False)
        await sitting.connect()  # a seat sat at no longer counts
        await lobby.join(rooms[2]["code"], "S3")
        await sitting.close()
    await asyncio.sleep(1.2)  # the seats left unconnected are freed: the next test starts clean


async def test_only_the_host_kicks_and_the_kicked_player_is_sent_away(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=TWO_HUMANS, deals=1)
        ann = await seated(lobby, room["code"], "Ann")
        bo = await seated(lobby, room["code"], "Bo")
        assert (await lobby.room(room["code"]))["room"]["host"] == 0
        no = await refused(bo, {"type": "kick", "seat": 0})
        assert no.code == "not_host" and "Only the host can kick a player" in str(no)
        assert "Ann (seat 0)" in str(no)
        own = await refused(ann, {"type": "kick", "seat": 0})
        assert own.code == "bad_command"
        await ann.request({"type": "kick", "seat": 1})
        assert (await got(bo, typed("left", seat=1)))["reason"] == "kicked"
        await asyncio.wait_for(bo.closed.wait(), 5)
        assert bo.close_code == 4410
        assert not (await lobby.room(room["code"]))["room"]["seats"][1]["taken"]
        # The host leaves: the table passes to the first player left.
        cy = await seated(lobby, room["code"], "Cy")
        await ann.quit()
        assert (await got(cy, typed("host")))["seat"] == cy.welcome["seat"]
        await cy.close()


async def test_the_host_gives_a_seat_to_a_computer(server: Server) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=TWO_HUMANS, deals=1, turn_seconds=None)
        ann = await seated(lobby, room["code"], "Ann")
        await ann.request({"type": "computer", "seat": 1, "level": "random"})
        joined = await got(ann, typed("joined", seat=1))
        assert joined["kind"] == "computer" and joined["level"] == "random"
        seat = (await lobby.room(room["code"]))["room"]["seats"][1]
        assert seat["kind"] == "computer" and seat["level"] == "random"
        bad = await refused(ann, {"type": "computer", "seat": 2})
        assert "already" in str(bad)
        await ann.ready()
        await got(ann, typed("started"))
        await ann.close()


async def test_a_timer_set_at_the_table_moves_an_idle_player_on(server: Server) -> None:
    """On main an idle connected player stalled a table without a timer forever, and the
    host could do nothing; now the host sets a timer, or gives the seat to a computer."""
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(
            seats=TWO_HUMANS, deals=1, seed=5, turn_seconds=None, away_seconds=None
        )
        ann = await seated(lobby, room["code"], "Ann")
        bo = await seated(lobby, room["code"], "Bo")  # connected, and never plays
        await ann.ready()
        await bo.ready()
        await got(ann, typed("started"))
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 20
        while ann.state.turn != 1 and loop.time() < deadline:
            if ann.state.my_turn:
                legal = ann.state.legal or []
                with contextlib.suppress(ActionRefused):
                    await (ann.play(legal[0]) if legal else ann.pass_())
            await asyncio.sleep(0.01)
        assert ann.state.turn == 1
        no = await refused(bo, {"type": "settings", "turn_seconds": 1, "away_seconds": None,
                                "spectators": True})  # fmt: skip
        assert no.code == "not_host"
        await ann.request({"type": "settings", "turn_seconds": 0.5, "away_seconds": 30,
                           "spectators": True})  # fmt: skip
        said = await got(ann, typed("settings"))
        assert (said["turn_seconds"], said["away_seconds"], said["by"]) == (0.5, 30, 0)
        moved = await got(ann, lambda m: typed("action", seat=1)(m) and m["by"] == "timer", 5)
        assert moved["by"] == "timer"
        options = (await lobby.room(room["code"]))["room"]["options"]
        assert options["turn_seconds"] == 0.5 and options["away_seconds"] == 30
        # Given to a computer during the match: the player is sent away, a computer plays on.
        await ann.request({"type": "computer", "seat": 1})
        assert (await got(bo, typed("quit", seat=1)))["reason"] == "computer"
        await asyncio.wait_for(bo.closed.wait(), 5)
        live = (await lobby.room(room["code"]))["room"]
        assert live["seats"][1]["control"] == "quit"
        # Host commands are stored like any other: the log rebuilds the same table.
        restored = restored_table(server.db, room["code"]).info()
        assert restored["options"] == live["options"] and restored["host"] == live["host"] == 0
        assert [s["control"] for s in restored["seats"]] == [s["control"] for s in live["seats"]]
        await ann.close()


async def test_spectators_can_be_turned_off_and_private_rooms_need_the_invitation(
    server: Server,
) -> None:
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=TWO_HUMANS, deals=1)
        ann = await seated(lobby, room["code"], "Ann")
        watcher = TableClient(room["ws"], watch=True, keep=True, reconnect=False)
        await watcher.connect()
        await ann.request({"type": "settings", "turn_seconds": 30, "away_seconds": 60,
                           "spectators": False})  # fmt: skip
        await asyncio.wait_for(watcher.closed.wait(), 5)
        assert watcher.close_code == 4410
        late = TableClient(room["ws"], watch=True, reconnect=False)
        with pytest.raises(ActionRefused):
            await late.connect()
        await ann.close()

        private = await lobby.create_room(seats=TWO_HUMANS, deals=1, public=False)
        uninvited = TableClient(private["ws"], watch=True, reconnect=False)
        with pytest.raises(ActionRefused, match="private"):
            await uninvited.connect()
        token = (await lobby.watch(private["code"], private["invite"]))["token"]
        invited = TableClient(private["ws"], token, reconnect=False)
        assert (await invited.connect())["role"] == "spectator"
        host = await seated(lobby, private["code"], "Ann")
        sync = await got(host, typed("sync"))
        assert sync["invite"] == private["invite"]  # a player can share the invitation
        await invited.close()
        await host.close()


async def test_the_host_lets_spectators_chat_at_the_table(server: Server) -> None:
    """Spectators' chat is off by default; the host may turn it on (and off) at the table."""
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(seats=TWO_HUMANS, deals=1)
        ann = await seated(lobby, room["code"], "Ann")
        watcher = TableClient(room["ws"], watch=True, keep=True, reconnect=False)
        await watcher.connect()
        with pytest.raises(ActionRefused) as before:
            await watcher.chat("hello")
        assert before.value.code == "not_seated"
        await ann.request({"type": "settings", "turn_seconds": 30, "away_seconds": 60,
                           "spectators": True, "spectator_chat": True})  # fmt: skip
        said = await got(watcher, typed("settings"))
        assert said["spectator_chat"] is True
        await watcher.chat("hello now")
        line = await got(watcher, typed("chat"))  # spectators chat among themselves
        assert line["text"] == "hello now"
        info = (await lobby.room(room["code"]))["room"]["options"]
        assert info["spectator_chat"] is True
        await ann.close()
        await watcher.close()
