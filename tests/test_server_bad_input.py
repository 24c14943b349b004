"""Bad input against a real server: malformed frames, unknown types, oversize messages, bad
hellos, actions for another seat, out of turn, illegal plays, stale and replayed actions, and
floods. Each gets an error event or a clean close; a refused action changes nothing; the
server and its other tables carry on."""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bigtwo.client import ActionRefused, BotClient, Lobby, TableClient
from test_server_support import Server


async def _raw(url: str, hello: dict[str, Any] | None = None) -> ClientConnection:
    # A short close timeout: a flooding client that is cut off mid-send waits this long for
    # the server's end of the close handshake, which comes after its backlog is discarded.
    ws = await connect(url, compression=None, proxy=None, close_timeout=1)
    with contextlib.suppress(ConnectionClosed):  # a server that refuses at once has closed
        await ws.send(json.dumps(hello or {"type": "hello", "protocol": 1, "watch": True}))
    return ws


async def _next(ws: ClientConnection, kind: str, timeout: float = 5.0) -> dict[str, Any]:
    async def read() -> dict[str, Any]:
        while True:
            msg = json.loads(await ws.recv())
            if msg.get("type") == kind:
                return dict(msg)

    return await asyncio.wait_for(read(), timeout)


async def _closed(ws: ClientConnection, timeout: float = 5.0) -> int | None:
    async def drain() -> None:
        with pytest.raises(ConnectionClosed):
            while True:
                await ws.recv()

    await asyncio.wait_for(drain(), timeout)
    return ws.close_code


async def _room(server: Server, **options: Any) -> dict[str, Any]:
    async with Lobby(server.url) as lobby:
        return await lobby.create_room(**options)


async def test_malformed_frames_get_error_events(server: Server) -> None:
    room = await _room(server)
    ws = await _raw(room["ws"])
    await _next(ws, "sync")
    cases = [
        ("not json {", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"no": "type"}', "bad_message"),
        ('{"type": "dance"}', "unknown_type"),
        ('{"type": "play", "cards": "3d"}', "bad_message"),
        ('{"type": "play", "id": "a", "v": "1", "cards": "3d"}', "bad_message"),
        ('{"type": "chat", "text": "hi", "extra": 1}', "bad_message"),
        ('{"type": "pass", "id": "bad id with spaces", "v": 1}', "bad_message"),
        ('{"type": "play", "id": "a", "v": 1, "cards": [1, 2]}', "bad_message"),
        ('{"type": "ready", "ready": "yes"}', "bad_message"),
        ("x" * 5000, "too_big"),
    ]
    for frame, code in cases:
        await ws.send(frame)
        error = await _next(ws, "error")
        assert error["code"] == code, (frame[:40], error)
        assert error["message"]
    await ws.send(b"\x00\x01binary")
    assert (await _next(ws, "error"))["code"] == "bad_message"
    # Still served after all that.
    await ws.send('{"type": "ping", "id": "p1"}')
    assert (await _next(ws, "pong"))["id"] == "p1"
    # A frame past the WebSocket limit closes the connection (1009: too big).
    await ws.send("y" * 70000)
    assert await _closed(ws) == 1009


async def test_bad_hellos_are_closed_cleanly(server: Server) -> None:
    room = await _room(server)
    ws = await _raw(server.ws_base + "/ws/NOROOM")
    assert (await _next(ws, "error"))["code"] == "no_room"
    assert await _closed(ws) == 4404
    ws = await _raw(room["ws"], {"type": "hello", "protocol": 1, "token": "not-a-token"})
    assert (await _next(ws, "error"))["code"] == "unauthorized"
    assert await _closed(ws) == 4401
    ws = await _raw(room["ws"], {"type": "hello", "protocol": 2, "watch": True})
    error = await _next(ws, "error")
    assert error["code"] == "bad_hello" and "protocol 1" in error["message"]
    assert await _closed(ws) == 4400
    ws = await _raw(room["ws"], {"type": "ping"})  # type: ignore[dict-item]
    assert (await _next(ws, "error"))["code"] == "bad_hello"
    assert await _closed(ws) == 4400


async def test_refused_actions_change_nothing(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(deals=1, seed=3, away_seconds=None)
            code = room["code"]
            clients = []
            for i in range(4):
                seat = await lobby.join(code, f"P{i}")
                client = TableClient(seat["ws"], seat["token"], keep=True)
                await client.connect()
                clients.append(client)
            for client in clients:
                await client.ready()
            while clients[0].state.status != "playing" or not clients[0].state.counts:
                await asyncio.sleep(0.01)
            turn = clients[0].state.turn
            actor = clients[turn]
            while actor.state.legal is None:
                await asyncio.sleep(0.01)
            other = clients[(turn + 1) % 4]
            before = (await lobby.room(code))["room"]["v"]

            async def refused(coro: Any, code_: str) -> str:
                with pytest.raises(ActionRefused) as exc:
                    await coro
                assert exc.value.code == code_, exc.value
                return str(exc.value)

            legal = actor.state.legal[0]
            assert "Not your turn" in await refused(
                other.play(other.state.hand & -other.state.hand), "not_your_turn"
            )
            stranger = other.state.hand & -other.state.hand  # a card the actor does not hold
            assert "Not your cards" in await refused(actor.play(stranger), "illegal")
            assert "cannot pass" in await refused(actor.pass_(), "illegal")
            assert "not a card" in await refused(
                actor.request({"type": "play", "cards": "1x", "v": actor.seen}), "bad_cards"
            )
            wrong = {"type": "play", "cards": str(legal), "v": actor.seen, "seat": (turn + 2) % 4}
            assert "cannot act for seat" in await refused(actor.request(wrong), "wrong_seat")
            assert "moved on" in await refused(
                actor.request({"type": "play", "cards": str(legal), "v": 1}), "stale"
            )
            spectator_seat = await lobby.watch(code)
            spectator = TableClient(spectator_seat["ws"], spectator_seat["token"])
            await spectator.connect()
            await refused(
                spectator.request({"type": "play", "cards": "3d", "v": spectator.seen}),
                "not_seated",
            )
            await refused(spectator.request({"type": "ready"}), "not_seated")
            await spectator.close()
            assert (await lobby.room(code))["room"]["v"] == before  # nothing changed

            # The same action twice is applied once.
            message = {"type": "play", "cards": str(legal), "v": actor.seen, "id": "once-1"}
            first = await actor.request(message)
            v_after = (await lobby.room(code))["room"]["v"]
            second = await actor.request(message)
            assert second["duplicate"] is True and second["event"] == first["event"]
            assert (await lobby.room(code))["room"]["v"] == v_after
            for client in clients:
                await client.close()

    await asyncio.wait_for(scenario(), 30)


async def test_floods_are_cut_off_and_other_tables_carry_on(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            # A table of computer players at another table, playing throughout.
            busy = await lobby.create_room(deals=2, seed=8, away_seconds=None)
            bots = []
            for i in range(4):
                seat = await lobby.join(busy["code"], f"B{i}")
                bot = BotClient(seat["ws"], seat["token"], seed=i, think=0.02)
                await bot.connect()
                bots.append(bot)

            room = await lobby.create_room()
            seat = await lobby.join(room["code"], "Chatty")
            chatty = TableClient(seat["ws"], seat["token"], keep=True, reconnect=False)
            await chatty.connect()
            for i in range(10):
                await chatty._send({"type": "chat", "text": f"spam {i}"})
            await asyncio.sleep(0.3)
            limited = [m for m in chatty.messages if m.get("type") == "error"]
            assert limited and all(m["code"] == "rate_limited" for m in limited)
            lines = [m for m in chatty.messages if m.get("type") == "chat"]
            assert 1 <= len(lines) <= 6  # the burst allowance, not all ten

            flood = await _raw(room["ws"])
            await _next(flood, "sync")
            with pytest.raises(ConnectionClosed):
                for i in range(2000):
                    await flood.send('{"type": "ping"}')
                    if i % 50 == 0:
                        await asyncio.sleep(0)
                await flood.recv()
                while True:
                    await flood.recv()
            assert flood.close_code == 1008

            # The server and the other table did not notice.
            await asyncio.wait_for(asyncio.gather(*(b.finished.wait() for b in bots)), 20)
            assert not any(b.refusals for b in bots)
            async with httpx.AsyncClient(trust_env=False) as http:
                assert (await http.get(server.url + "/healthz")).status_code == 200
            await chatty.sync()
            for bot in bots:
                await bot.close()
            await chatty.close()

    await asyncio.wait_for(scenario(), 40)


async def test_bad_http_requests(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
        bad_json = await http.post(
            "/api/rooms", content=b"{not json", headers={"content-type": "application/json"}
        )
        assert bad_json.status_code == 400 and bad_json.json()["error"] == "bad_json"
        # A form feed is whitespace to Python but not to JSON: not an empty body.
        feed = await http.post(
            "/api/rooms", content=b"\x0c", headers={"content-type": "application/json"}
        )
        assert feed.status_code == 400 and feed.json()["error"] == "bad_json"
        big = await http.post(
            "/api/rooms",
            content=b"{" + b" " * 20000 + b"}",
            headers={"content-type": "application/json"},
        )
        assert big.status_code == 413
        unknown = await http.post("/api/rooms", json={"colour": "red"})
        assert unknown.status_code == 422 and "colour" in unknown.json()["message"]
        silly = await http.post("/api/rooms", json={"deals": 0})
        assert silly.status_code == 422
        room = (await http.post("/api/rooms", json={})).json()
        odd = await http.post(f"/api/rooms/{room['code']}/join", json={"as": "referee"})
        assert odd.status_code == 400
        listed = await http.post(f"/api/rooms/{room['code']}/join", json=[1, 2])
        assert listed.status_code == 400
