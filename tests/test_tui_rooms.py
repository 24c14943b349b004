"""The way back to your own rooms in the terminal, against a real ``bigtwo serve``: the table
shows its room's code and share link all along, and the lobby lists the rooms you have a seat
in at its top, each with Rejoin (issue 39: after ``q`` the lobby said "No open rooms" of a
private room still being played, and only a restart offered to rejoin it)."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Button

from bigtwo.client import Lobby
from bigtwo.tui.lobby import LobbyScreen
from bigtwo.tui.table import TableScreen
from test_server_support import Server
from test_tui_network import SIZE, app_for, screen_text, table_game, two_seat_room, until


async def test_the_table_shows_its_code_and_share_link(server: Server, tmp_path: Path) -> None:
    code, bob = await two_seat_room(server, seed=5)
    try:
        app = app_for(tmp_path, server.url, room=code, name="Ann")
        async with app.run_test(size=SIZE):
            await until(lambda: isinstance(app.screen, TableScreen), "the table", 20)
            game = table_game(app)
            await until(lambda: game.started and game.hand(), "the first deal", 20)
            line = f"Room {code} · {server.url}/r/{code}"
            assert game.room_line == line
            await until(lambda: line in screen_text(app), "the room's line on screen", 20)
    finally:
        await bob.close()


async def test_the_lobby_lists_your_rooms_and_rejoins_one(server: Server, tmp_path: Path) -> None:
    """Back in the lobby with q, the private room still being played is under "Your rooms"
    (it is in no list of open rooms), and Rejoin sits down at the same seat, same hand."""
    code, bob = await two_seat_room(server, seed=13)
    async with Lobby(server.url) as lobby:  # somebody else's room: not ours to list
        other = (await lobby.create_room(preset="palm", public=True))["code"]
    try:
        app = app_for(tmp_path, server.url, room=code, name="Ann")
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, TableScreen), "the table", 20)
            game = table_game(app)
            await until(lambda: game.started and game.hand(), "the first deal", 20)
            seat, cards = game.seat, game.hand()
            await pilot.press("ctrl+q")  # back to the lobby, the seat kept on the server
            await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby", 20)
            lobby_screen = app.screen
            assert isinstance(lobby_screen, LobbyScreen)
            await until(lambda: lobby_screen.mine, "your rooms", 20)
            assert [held["room"]["code"] for held in lobby_screen.mine] == [code]
            assert code not in [room["code"] for room in lobby_screen.rooms]  # private
            await until(lambda: f"your seat {seat + 1}" in screen_text(app), "the row", 20)
            text = screen_text(app)
            assert "Your rooms" in text and other not in text.split("Your rooms")[1][:200]
            assert f"{code}, deal 1 of 2: playing, your seat {seat + 1}" in text
            rejoin = lobby_screen.query_one(f"#rejoin-{code}", Button)
            assert str(rejoin.label) == "Rejoin"
            assert not lobby_screen.query(f"#close-{code}")  # Bob is the host, not Ann
            await pilot.click(f"#rejoin-{code}")
            await until(lambda: isinstance(app.screen, TableScreen), "the table again", 20)
            back = table_game(app)
            await until(lambda: back.started and back.hand(), "the deal again", 20)
            assert (back.code, back.seat, back.hand()) == (code, seat, cards)
    finally:
        await bob.close()


async def test_rooms_that_are_over_leave_the_list_and_are_forgotten(
    server: Server, tmp_path: Path
) -> None:
    """A room its host closed meanwhile is not listed, and its seat is forgotten."""
    code, bob = await two_seat_room(server, seed=17)
    try:
        app = app_for(tmp_path, server.url, room=code, name="Ann")
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, TableScreen), "the table", 20)
            game = table_game(app)
            await until(lambda: game.started, "the first deal", 20)
            await pilot.press("ctrl+q")
            await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby", 20)
            lobby_screen = app.screen
            assert isinstance(lobby_screen, LobbyScreen)
            await until(lambda: lobby_screen.mine, "your rooms", 20)
            assert lobby_screen.remembered(server.url, code) is not None
            async with Lobby(server.url) as lobby:  # Bob sat down first: he is the host
                await lobby.close_room(code, bob.token or "")
            await lobby_screen.action_refresh()
            assert lobby_screen.mine == []
            assert lobby_screen.remembered(server.url, code) is None
            await until(lambda: "Your rooms" not in screen_text(app), "the list hidden", 20)
    finally:
        await bob.close()


async def test_the_host_closes_a_room_from_the_lobby(server: Server, tmp_path: Path) -> None:
    from bigtwo.tui.dialogs import Confirm

    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong", seats=["human", "human"], public=False, seed=3, deals=1
        )
    code = str(made["code"])
    app = app_for(tmp_path, server.url, room=code, name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, TableScreen), "the table", 20)
        await pilot.press("ctrl+q")
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby", 20)
        lobby_screen = app.screen
        assert isinstance(lobby_screen, LobbyScreen)
        await until(lambda: lobby_screen.mine, "your rooms", 20)
        row = f"{code}: waiting for players, your seat 1 (host)"
        await until(lambda: row in screen_text(app), "the room's row", 20)
        await pilot.click(f"#close-{code}")
        await until(lambda: isinstance(app.screen, Confirm), "the question", 20)
        question = f"Close room {code} for everyone?"
        await until(lambda: question in screen_text(app), "the question's words", 20)
        await pilot.press("y")
        await until(lambda: not lobby_screen.mine, "the room gone from your rooms", 20)
        await until(lambda: f"Room {code} is closed" in screen_text(app), "the words", 20)
    async with Lobby(server.url) as lobby:
        room = (await lobby.room(code))["room"]
    assert (room["status"], room["closed"]) == ("finished", "host closed the room")
