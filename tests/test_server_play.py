"""Network play against a real server: a seeded match of four clients to its end, a fifth
refused, chat to everyone, a drop and a rejoin, a computer taking over an away seat and giving
it back, the turn timer, spectators, and the HTTP lobby. Every message every client got is
checked for cards it may not see. The module's server runs once on each store back end
(SQLite and PostgreSQL), and the stored log rebuilds the same table on both."""

from __future__ import annotations

import asyncio
import html
from typing import Any

import httpx
import pytest

from bigtwo.client import BotClient, Lobby, ServerError, TableClient
from test_server_support import (
    STATS,
    Server,
    assert_no_foreign_cards,
    cards_left,
    dealt_hands,
    restored_table,
)
from test_services import STORE_BACKENDS

pytestmark = [
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
    pytest.mark.parametrize("server", STORE_BACKENDS, indirect=True, scope="module"),
]


async def _seat_bots(
    lobby: Lobby, room: dict, count: int = 4, **options: object
) -> list[BotClient]:
    bots = []
    for i in range(count):
        seat = await lobby.join(room["code"], f"Player {i}")
        bots.append(BotClient(seat["ws"], seat["token"], seed=i, keep=True, **options))  # type: ignore[arg-type]
    return bots


async def test_four_clients_play_a_seeded_match(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(preset="textbook", deals=2, seed=7, away_seconds=None)
            code = room["code"]
            assert room["link"].endswith(f"/r/{code}") and room["ws"].endswith(f"/ws/{code}")
            assert code in [r["code"] for r in await lobby.rooms()]
            bots = await _seat_bots(lobby, room)

            # A fifth player is refused, clearly.
            with pytest.raises(ServerError) as refused:
                await lobby.join(code, "Fifth")
            assert refused.value.status == 409 and refused.value.code == "table_full"
            assert "full" in str(refused.value)

            watcher_seat = await lobby.watch(code)
            watcher = TableClient(watcher_seat["ws"], watcher_seat["token"], keep=True)
            await watcher.connect()
            for bot in bots[:3]:
                await bot.connect()
            # The fourth connects late: the match waits for everyone to be ready.
            await asyncio.sleep(0.2)
            assert bots[0].state.status == "waiting"
            await bots[3].connect()
            await got(bots[0], lambda m: m.get("type") == "started")

            # Chat reaches every player and the spectator, as plain text.
            await bots[1].chat("good luck <all>")
            for client in [*bots, watcher]:
                line = await got(
                    client, lambda m: m.get("type") == "chat" and "good luck" in m["text"], 10
                )
                assert line["text"] == "good luck <all>" and line["seat"] == 1
                assert html.unescape(line["text"]) == "good luck <all>"

            # A client drops mid-deal and comes back by itself: it gets what it missed.
            await got(bots[2], lambda m: m.get("type") == "action", 10)
            before = bots[2].seen
            await bots[2].drop(stay_away=True)
            await got(
                bots[0],
                lambda m: m.get("type") == "presence" and m == {**m, "seat": 2, "connected": False},
            )
            await bots[0].chat("where did you go?")  # an event the away client misses
            await asyncio.sleep(0.2)
            mark = len(bots[0].messages)
            bots[2].come_back()
            await got(bots[0], lambda m: m.get("type") == "presence" and m["connected"], after=mark)
            assert bots[2].reconnects == 1
            replayed = [
                m for m in bots[2].messages if m.get("v", 0) > before and m["type"] != "sync"
            ]
            assert any(m["type"] == "chat" and "where" in m["text"] for m in replayed)

            # Rejoining from elsewhere with the same token (and nothing seen) resyncs and keeps the
            # seat; the old connection is told it was replaced.
            seat3 = bots[3]
            again = BotClient(seat3.url, seat3.token, seed=3, keep=True)
            await again.connect()
            sync = next(m for m in again.messages if m["type"] == "sync")
            assert sync["seat"] == 3 and sync["view"]["hand"]
            await seat3.closed.wait()
            assert seat3.close_code == 4409
            players = [bots[0], bots[1], bots[2], again]

            await asyncio.gather(*(b.finished.wait() for b in players))
            await until(lambda: watcher.state.status == "finished")
            for b in players:
                numbered = [m for m in b.messages if "v" in m and m["type"] != "sync"]
                assert numbered[-1]["type"] == "match_end"
                assert [m["v"] for m in numbered] == sorted({m["v"] for m in numbered})
            assert watcher.state.status == "finished"
            info = (await lobby.room(code))["room"]
            assert info["status"] == "finished" and len(info["results"]) == 2
            assert all(b.state.totals == info["totals"] for b in players)
            async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
                record = (await http.get(f"/api/rooms/{code}/record")).json()
                assert len(record["deals"]) == 2 and record["totals"] == info["totals"]
                assert record["seats"] == [f"Player {i}" for i in range(4)]
                history = await http.get(f"/api/rooms/{code}/history")
                assert history.status_code == 200 and "Player 0" in history.text
            assert not any(b.refusals for b in players)
            for b in players:
                await b.close()
            await watcher.close()

        # Nothing any client got holds a card it may not see.
        table = restored_table(server.db, code)
        hands, left = dealt_hands(table), cards_left(table)
        checked = 0
        for seat, client in enumerate([bots[0], bots[1], bots[2], seat3]):
            checked += assert_no_foreign_cards(client.messages, seat, hands, left)
        checked += assert_no_foreign_cards(again.messages, 3, hands, left)
        checked += assert_no_foreign_cards(watcher.messages, None, hands, left)
        assert checked > 200
        assert not any(
            "hand" in m for m in watcher.messages if m.get("type") == "sync" and m["view"]
        )
        assert not any(m.get("type") in ("hand", "turn") for m in watcher.messages)

    await asyncio.wait_for(scenario(), 60)


async def got(client: TableClient, test: object, timeout: float = 10.0, after: int = 0) -> dict:
    """The first message, already received (from index ``after`` on) or still to come, for
    which ``test`` is true."""
    for msg in client.messages[after:]:
        if test(msg):  # type: ignore[operator]
            return msg
    return await client.wait_for(test, timeout)  # type: ignore[arg-type]


async def until(test: object, timeout: float = 10.0) -> None:
    """Wait until ``test()`` is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not test():  # type: ignore[operator]
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.02)


async def test_computer_takes_over_an_away_seat_and_hands_it_back(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(
                deals=1, seed=21, away_seconds=0.5, takeover_level="greedy"
            )
            bots = await _seat_bots(lobby, room, think=0.02)
            for bot in bots:
                await bot.connect()
            await got(bots[0], lambda m: m.get("type") == "started")
            async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
                early = await http.get(f"/api/rooms/{room['code']}/record")
                assert early.status_code == 409 and early.json()["error"] == "not_over"
            away = bots[1]
            await away.drop(stay_away=True)
            took = await got(bots[0], lambda m: m.get("type") == "control" and m["seat"] == 1, 5)
            assert took["control"] == "computer" and took["reason"] == "away"
            played = await got(
                bots[0],
                lambda m: m.get("type") == "action" and m["seat"] == 1 and m["by"] == "computer",
                10,
            )
            assert played["seat"] == 1
            away.come_back()
            back = await got(
                bots[0],
                lambda m: (
                    m.get("type") == "control" and m["seat"] == 1 and m["control"] == "player"
                ),
                10,
            )
            assert back["reason"] == "returned"
            await asyncio.gather(*(b.finished.wait() for b in bots))
            # The returning player played again after the handback.
            after = [
                m for m in away.messages if m.get("v", 0) > back["v"] and m.get("type") == "action"
            ]
            assert (
                any(m["seat"] == 1 and m["by"] == "player" for m in after)
                or bots[0].state.winner is not None
            )
            for bot in bots:
                await bot.close()

    await asyncio.wait_for(scenario(), 30)


def _lose_first(bot: BotClient, kind: str) -> list[dict[str, Any]]:
    """The bot's first message of ``kind`` never reaches the table and gets no answer (sent to
    a node that died), and its requests of that kind wait 0.5 s for one: the list of what was
    lost."""
    lost: list[dict[str, Any]] = []
    send, request = bot._send, bot.request

    async def lossy(message: dict[str, Any]) -> None:
        if message.get("type") == kind and not lost:
            lost.append(message)
            return
        await send(message)

    async def quick(message: dict[str, Any], timeout: float = 10.0, **options: Any) -> Any:
        return await request(message, 0.5 if message.get("type") == kind else timeout, **options)

    bot._send = lossy  # type: ignore[method-assign]
    bot.request = quick  # type: ignore[method-assign]
    return lost


@pytest.mark.parametrize(
    ("kind", "deals", "awaited"),
    [("ready", 1, "started"), ("next", 2, "deal")],  # the match starts; its second deal comes
)
async def test_a_computer_whose_ready_or_next_was_lost_says_it_again_while_the_table_waits(
    server: Server, kind: str, deals: int, awaited: str
) -> None:
    """A computer player says "ready" in the lobby and "next" between deals from what the
    table shows, not only once: when one is lost (sent to a node that died before it
    answered) it says it again while the table still waits for its seat, and the match starts
    or the next deal comes."""

    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(deals=deals, seed=21, away_seconds=None)
            bots = await _seat_bots(lobby, room)
        lost = _lose_first(bots[0], kind)
        for bot in bots:
            await bot.connect()
        came = await got(
            bots[1], lambda m: m.get("type") == awaited and m.get("deal") in (None, deals), 15
        )
        assert came["type"] == awaited and len(lost) == 1
        await asyncio.gather(*(b.finished.wait() for b in bots))
        for bot in bots:
            await bot.close()

    await asyncio.wait_for(scenario(), 40)


async def test_turn_timer_plays_for_a_silent_player(server: Server) -> None:
    async def scenario() -> None:
        async with Lobby(server.url) as lobby:
            room = await lobby.create_room(
                deals=1,
                seed=5,
                turn_seconds=0.3,
                seats=["human", "computer", "computer", "computer"],
            )
            seat = await lobby.join(room["code"], "Slow")
            client = TableClient(seat["ws"], seat["token"], keep=True)
            await client.connect()
            await client.ready()
            timed = await got(
                client, lambda m: m.get("type") == "action" and m["by"] == "timer", 10
            )
            assert timed["seat"] == 0
            assert any(m.get("type") == "clock" and m["seat"] == 0 for m in client.messages)
            await client.quit()
            await client.closed.wait()
            assert client.close_code == 4410
            info = (await lobby.room(room["code"]))["room"]
            assert info["seats"][0]["control"] == "quit"
            # With nobody left at the table it closes.
            assert info["status"] == "finished" and info["closed"] == "every player quit"

    await asyncio.wait_for(scenario(), 20)


def keys_of(data: object) -> set[str]:
    """Every key at any depth of a JSON value."""
    if isinstance(data, dict):
        return set(data) | {k for v in data.values() for k in keys_of(v)}
    if isinstance(data, list):
        return {k for v in data for k in keys_of(v)}
    return set()


async def test_lobby_http_api(server: Server) -> None:
    async with httpx.AsyncClient(base_url=server.url, trust_env=False) as http:
        info = (await http.get("/api")).json()
        assert (
            info["protocol"] == 1 and "textbook" in info["presets"] and "greedy" in info["levels"]
        )
        spec = (await http.get("/openapi.json")).json()
        for path in (
            "/api/rooms",
            "/api/rooms/{code}",
            "/api/rooms/{code}/join",
            "/api/rooms/{code}/rematch",
            "/api/stats",
        ):
            assert path in spec["paths"]
        made = await http.post(
            "/api/rooms", json={"seats": ["human", "computer:random"] * 2, "title": "<b>Friday</b>"}
        )
        assert made.status_code == 201
        room = made.json()["room"]
        assert "seed" not in keys_of(made.json()) and room["title"] == "<b>Friday</b>"
        assert [s["kind"] for s in room["seats"]] == ["human", "computer"] * 2
        code = room["code"]
        assert (await http.get(f"/api/rooms/{code.lower()}")).json()["room"]["code"] == code
        share = await http.get(f"/r/{code}", follow_redirects=False)
        assert share.status_code in (200, 307)
        bad = await http.post("/api/rooms", json={"preset": "nope"})
        assert bad.status_code == 422 and "Unknown preset" in bad.json()["message"]
        seeded = await http.post("/api/rooms", json={"seats": "human"})
        assert seeded.status_code == 422
        assert (await http.post("/api/rooms/ZZZZZZ/join", json={})).status_code == 404
        taken = await http.post(f"/api/rooms/{code}/join", json={"seat": 1})
        assert taken.status_code == 409 and taken.json()["error"] == "seat_taken"
        assert (await http.get(f"/api/rooms/{code}/record")).status_code == 404
        joined = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ann"})).json()
        assert joined["seat"] == 0 and len(joined["token"]) >= 32
        missing = await http.get("/api/nothing/here")
        assert missing.status_code == 404 and missing.json()["error"] == "not_found"
        assert (await http.get("/api/stats")).status_code == 403  # for the operator only
        stats = (await http.get("/api/stats", headers=STATS)).json()
        assert stats["tables"] >= 1 and stats["rss_mb"] > 0
