"""The terminal game at a real ``bigtwo serve``: the lobby, a table played over the network.

Textual's Pilot drives the app as a person would, against one server for the module (see
``conftest.py``; its room limits are off). A second player is a scripted
:class:`~bigtwo.client.TableClient` in the same event loop. Every wait is bounded.
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable

from bigtwo.client import Lobby, TableClient
from bigtwo.server.bench import free_port
from bigtwo.service.mirror import TableMirror
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.dialogs import ScoreSheet
from bigtwo.tui.lobby import PAGE, LobbyScreen, NewRoomForm
from bigtwo.tui.netgame import NetGame, room_of
from bigtwo.tui.pages import HistoryPage, TrackerPage
from bigtwo.tui.table import TableScreen
from test_server_support import Server, restored_table

SIZE = (100, 32)


def screen_text(app: BigTwoApp) -> str:
    width, height = app.size
    console = Console(
        width=width, height=height, file=io.StringIO(), record=True, force_terminal=True
    )
    console.print(app.screen._compositor.render_update(full=True))
    return console.export_text()


async def until(test: Callable[[], object], what: str, timeout: float = 10.0) -> None:
    """Wait (bounded) until ``test()`` is true."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not test():
        if loop.time() > end:
            raise AssertionError(f"timed out waiting for {what}")
        await asyncio.sleep(0.02)


def app_for(tmp_path: Path, server: str, **kwargs: object) -> BigTwoApp:
    return BigTwoApp(db_path=tmp_path / "bigtwo.db", server=server, delay=0, **kwargs)  # type: ignore[arg-type]


async def two_seat_room(
    server: Server, seed: int = 7, **options: object
) -> tuple[str, TableClient]:
    """A private two-player room (no turn timer) with a scripted player in seat 0, ready."""
    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong", seats=["human", "human"], public=False, seed=seed, deals=2, **options
        )
        seat = await lobby.join(made["code"], "Bob")
    bob = TableClient(seat["ws"], seat["token"])
    await bob.connect()
    await bob.ready()
    return str(made["code"]), bob


async def scripted_move(bob: TableClient) -> None:
    """Bob's turn: the cheapest legal play, else a pass."""
    legal = bob.state.legal or []
    if legal:
        await bob.play(legal[0])
    else:
        await bob.pass_()


async def follow_hints(pilot: Pilot[None], game: NetGame) -> None:
    """Ann plays what the hint says (h, Enter) until the deal is over (bounded)."""
    for _ in range(60):
        await until(lambda: game.mirror.my_turn or game.deal_over, "Ann's turn", 5)
        if game.deal_over:
            return
        before = len(game.mirror.actions)
        await pilot.press("h", "enter")
        await until(
            lambda n=before: len(game.mirror.actions) > n or game.deal_over, "Ann's move", 5
        )
    raise AssertionError("the deal did not end")


def table_game(app: BigTwoApp) -> NetGame:
    assert isinstance(app.screen, TableScreen) and isinstance(app.net, NetGame)
    return app.net


def test_room_of_reads_codes_and_share_links() -> None:
    assert room_of(" abcdef ") == ("", "ABCDEF", "")
    assert room_of("http://h:1/r/abcdef") == ("http://h:1", "ABCDEF", "")
    assert room_of("http://h:1/r/ABCDEF?invite=k-1") == ("http://h:1", "ABCDEF", "k-1")
    assert room_of("https://h/?room=QWERTY&invite=z") == ("https://h", "QWERTY", "z")


def test_the_link_to_the_table_is_said_in_words() -> None:
    game = NetGame(TableClient("ws://127.0.0.1:9/ws/TEST", "token"))
    said: list[str] = []
    game.refused = said.append
    assert game.connection_note == ""
    game._connection("lost")
    assert game.connection_note == "Connection lost: reconnecting…" and game.reconnecting
    game.refused("No answer from the server")  # an action sent while the link was down
    game._connection("back")
    assert game.connection_note == "" and game.lines[-1] == "* Reconnected"
    assert said[-1] == ""  # the failure's words go once the link is back
    game._connection("gone")
    assert game.connection_note.startswith("Disconnected from the table")


async def test_the_lobby_lists_rooms_and_creates_one(server: Server, tmp_path: Path) -> None:
    async with Lobby(server.url) as lobby:
        listed = await lobby.create_room(preset="palm", title="Listed room", public=True)
    app = app_for(tmp_path, server.url, name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        lobby_screen = app.screen
        assert isinstance(lobby_screen, LobbyScreen)
        await until(lambda: lobby_screen.rooms, "the room list")
        assert listed["code"] in [r["code"] for r in lobby_screen.rooms]
        assert lobby_screen.query_one(DataTable).row_count == len(lobby_screen.rooms)
        assert "Listed room" in screen_text(app)

        await pilot.press("n")
        await until(lambda: isinstance(app.screen, NewRoomForm), "the new room form")
        await pilot.press("ctrl+s")  # palm: you and three computers
        await until(lambda: isinstance(app.screen, TableScreen), "the table", 15)
        game = table_game(app)
        await until(lambda: game.started and game.hand(), "the first deal", 15)
        assert bin(game.hand()).count("1") == 13
        room = game.mirror.room
        assert room["preset"] == "palm" and room["seats"][0]["name"] == "Ann"
        assert room["options"]["computer_delay"] == app.prefs.delay > 0  # the terminal's pace
        assert [s["kind"] for s in room["seats"]] == ["human", "computer", "computer", "computer"]
        await pilot.press("u")  # undo is off here, and the table says why
        await pilot.pause()
        said = str(app.screen.query_one("#message").render())
        assert "Undo is off at a network table" in said
        assert "Ann" in screen_text(app)

        await pilot.press("q")  # back to the lobby, which lists the new room
        await until(lambda: app.screen is lobby_screen, "the lobby again")
        assert game.client.closed.is_set()
        assert listed["code"] in [r["code"] for r in lobby_screen.rooms]


async def test_the_new_room_form_asks_for_what_the_server_takes(
    server: Server, tmp_path: Path
) -> None:
    from textual.widgets import Input

    from bigtwo.tui.forms import Choice

    app = app_for(tmp_path, server.url)
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await pilot.press("n")
        await until(lambda: isinstance(app.screen, NewRoomForm), "the form")
        form = app.screen
        assert isinstance(form, NewRoomForm)
        seat = form.query_one("#room-seat-3", Choice)
        seat.set_options(seat.options, "none")
        form.action_create()  # palm with three seats
        await pilot.pause()
        assert "palm is played by 4 players, not 3" in screen_text(app)
        rules = form.query_one("#room-rules", Choice)
        rules.set_options(rules.options, "hongkong")
        form.query_one("#room-deals", Input).value = "0"
        form.action_create()
        await pilot.pause()
        assert "Deals must be a whole number of at least 1, not '0'" in screen_text(app)
        form.query_one("#room-deals", Input).value = "3"
        public = form.query_one("#room-public", Choice)
        public.set_options(public.options, False)
        # The computers' pace: the terminal's first; "none" for no pause (no key skips the
        # server's pause at a network table).
        pace = form.query_one("#room-pace", Choice)
        assert pace.value == app.prefs.delay > 0
        pace.set_options(pace.options, 0.0)
        assert form.request() == {
            "preset": "hongkong",
            "seats": ["human", "computer:classic", "computer:classic"],
            "public": False,
            "computer_delay": 0.0,
            "deals": 3,
        }
        form.action_create()  # a private room: made, and Ann sits down there
        await until(lambda: isinstance(app.screen, TableScreen), "the table")
        room = table_game(app).mirror.room
        assert room["preset"] == "hongkong" and room["deals"] == 3
        assert room["options"]["public"] is False and room["options"]["computer_delay"] == 0


async def test_the_lobby_pages_through_the_open_rooms(server: Server, tmp_path: Path) -> None:
    async with Lobby(server.url) as lobby:
        for i in range(PAGE + 1):
            await lobby.create_room(preset="palm", title=f"Paged {i}", public=True)
        total = (await lobby.rooms_page(1))["total"]
    app = app_for(tmp_path, server.url)
    async with app.run_test(size=SIZE) as pilot:
        lobby_screen = app.screen
        assert isinstance(lobby_screen, LobbyScreen)
        await until(lambda: len(lobby_screen.rooms) == PAGE, "a full first page")
        first = [r["code"] for r in lobby_screen.rooms]
        await pilot.press("right_square_bracket")
        await until(
            lambda: lobby_screen.rooms and lobby_screen.rooms[0]["code"] not in first, "page 2"
        )
        assert len(lobby_screen.rooms) == min(PAGE, total - PAGE)
        assert f"Page 2: {len(lobby_screen.rooms)} of {total} open rooms" in screen_text(app)
        await pilot.press("left_square_bracket")
        await until(lambda: [r["code"] for r in lobby_screen.rooms] == first, "page 1 again")


async def test_an_unreachable_server_and_a_missing_room_are_said_in_words(
    server: Server, tmp_path: Path
) -> None:
    nowhere = f"http://127.0.0.1:{free_port()}"
    app = app_for(tmp_path, nowhere)
    async with app.run_test(size=SIZE):
        await until(lambda: "Cannot reach the server" in screen_text(app), "the refusal")
        assert "Traceback" not in screen_text(app)
    app = app_for(tmp_path, server.url, room="ZZZZZZ")
    async with app.run_test(size=SIZE):
        await until(lambda: "Room ZZZZZZ:" in screen_text(app), "the refusal")
        assert isinstance(app.screen, LobbyScreen)


async def test_a_two_player_room_plays_chats_and_resyncs(server: Server, tmp_path: Path) -> None:
    code, bob = await two_seat_room(server)
    app = app_for(tmp_path, server.url, room=code, name="Ann")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            game = table_game(app)
            await until(lambda: game.started and game.hand(), "the first deal")
            assert game.seat == 1

            # A few moves each: Ann by the hint and Enter, Bob scripted.
            moves = 0
            while moves < 4:
                await until(lambda: game.mirror.my_turn or bob.state.my_turn, "a turn", 5)
                before = len(bob.state.actions)
                if game.mirror.my_turn:
                    await pilot.press("h", "enter")
                elif bob.state.my_turn:
                    await scripted_move(bob)
                await until(lambda n=before: len(bob.state.actions) > n, "a move", 5)
                moves += 1
            await until(lambda: len(game.mirror.actions) == len(bob.state.actions), "in step")
            assert [a.play for a in game.mirror.actions] == [a.play for a in bob.state.actions]
            assert any(a.seat == 1 for a in bob.state.actions)  # Ann's moves reached Bob

            # Chat both ways.
            await pilot.press("slash", *"hello bob", "enter")
            await until(lambda: bob.state.chat, "Ann's line at Bob's", 5)
            assert [(m["name"], m["text"]) for m in bob.state.chat] == [("Ann", "hello bob")]
            await bob.chat("hi ann")
            await until(lambda: "Bob: hi ann" in screen_text(app), "Bob's line on screen")

            # The connection drops: the screen says so, and what happened meanwhile comes back.
            await game.client.drop(stay_away=True)
            await until(lambda: "reconnecting" in screen_text(app), "the reconnecting notice")
            await bob.chat("while you were away")
            if bob.state.my_turn:
                await scripted_move(bob)
            game.client.come_back()
            await until(lambda: not game.reconnecting, "the reconnect")
            await until(lambda: "while you were away" in " ".join(game.lines), "the missed chat")
            await until(
                lambda: len(game.mirror.actions) == len(bob.state.actions), "the missed moves"
            )
            assert "reconnecting" not in screen_text(app)
            assert game.client.reconnects == 1

            truth = TableMirror()
            truth.apply(restored_table(server.db, code).snapshot(1))
            mirror = game.mirror
            assert mirror.hand == truth.hand and mirror.counts == truth.counts
            assert mirror.turn == truth.turn and mirror.totals == truth.totals
            assert [(a.seat, a.play) for a in mirror.actions] == [
                (a.seat, a.play) for a in truth.actions
            ]
            assert [p.mask for p in mirror.legal or []] == [p.mask for p in truth.legal or []]
    finally:
        await bob.close()


async def test_a_refused_play_is_said_and_nothing_is_sent(server: Server, tmp_path: Path) -> None:
    code, bob = await two_seat_room(server, seed=11)
    app = app_for(tmp_path, server.url, room=code)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            game = table_game(app)
            await until(lambda: game.mirror.my_turn or bob.state.my_turn, "a turn")
            if not game.mirror.my_turn:
                await scripted_move(bob)
                await until(lambda: game.mirror.my_turn, "Ann's turn")
            await pilot.press("enter")  # nothing chosen
            assert "Select the cards" in screen_text(app)
            seen = game.client.seen
            await pilot.press("p" if game.mirror.to_beat is None else "c")
            if game.mirror.to_beat is None:  # a lead cannot be passed
                assert "cannot pass" in screen_text(app)
            await pilot.pause(0.2)
            assert game.client.seen == seen  # nothing was sent, so nothing happened
    finally:
        await bob.close()


async def test_a_spectator_watches_a_room_named_by_its_code(server: Server, tmp_path: Path) -> None:
    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong", seats=["human", "computer:classic"], public=True, seed=3
        )
        seat = await lobby.join(made["code"], "Bob")
    bob = TableClient(seat["ws"], seat["token"])
    await bob.connect()
    app = app_for(tmp_path, server.url)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.click("#room-input")
            await pilot.press(*made["code"].lower())
            await pilot.click("#btn-watch")
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            game = table_game(app)
            assert game.seat is None
            await until(lambda: "waiting for everyone to be ready" in screen_text(app), "waiting")
            assert "The cards are dealt when every player is here" in screen_text(app)
            await bob.ready()
            await until(lambda: game.started, "the deal")
            await until(lambda: "You are watching" in screen_text(app), "the watcher's hand")
            await until(lambda: bob.state.my_turn or bob.state.actions, "a turn or a move")
            if bob.state.my_turn:
                await scripted_move(bob)
            await until(lambda: game.mirror.actions, "a move seen")
            await until(lambda: game.mirror.counts == bob.state.counts, "in step with Bob")
            assert game.hand() == 0 and game.mirror.counts == bob.state.counts
            await pilot.press("p")
            assert "Not your turn" in screen_text(app)
            await pilot.press("t")  # the cards played so far, as the watcher saw them
            await until(lambda: isinstance(app.screen, TrackerPage), "the tracker")
    finally:
        await bob.close()


async def test_an_away_player_is_shown_and_a_computer_takes_over_and_hands_back(
    server: Server, tmp_path: Path
) -> None:
    code, bob = await two_seat_room(server, seed=5, away_seconds=0.3)
    app = app_for(tmp_path, server.url, room=code, name="Ann")
    try:
        async with app.run_test(size=SIZE):
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            game = table_game(app)
            await until(lambda: game.started, "the first deal")
            await bob.drop(stay_away=True)
            await until(lambda: game.presence(0).startswith("away"), "Bob away")
            await until(lambda: game.presence(0) == "away: computer", "the takeover", 5)
            assert "* A computer plays for Bob while away" in game.lines
            await until(lambda: "away: computer" in screen_text(app), "shown at his seat")
            bob.come_back()
            await until(lambda: game.presence(0) == "", "the handback", 5)
            assert game.lines[-1] == "* Bob plays again" or "* Bob plays again" in game.lines
            assert "* Bob is back" in game.lines
    finally:
        await bob.close()


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def sheet_room(server: Server) -> str:
    """A private two-deal room, Ann and a computer, whose next deal waits for Ann's "next"."""
    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong",
            seats=["human", "computer:classic"],
            public=False,
            seed=2,
            deals=2,
            between_deals_seconds=None,  # the next deal waits for Ann's "next"
        )
    return str(made["code"])


async def first_sheet(app: BigTwoApp, pilot: Pilot[None]) -> NetGame:
    """Ann at the table plays the first deal by the hints, to its score sheet."""
    await until(lambda: isinstance(app.screen, TableScreen), "the table")
    game = table_game(app)
    await until(lambda: game.started, "the first deal")
    await follow_hints(pilot, game)
    await until(lambda: isinstance(app.screen, ScoreSheet), "the score sheet", 5)
    return game


async def test_the_score_sheet_between_deals_says_next(server: Server, tmp_path: Path) -> None:
    app = app_for(tmp_path, server.url, room=await sheet_room(server), name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        game = await first_sheet(app, pilot)
        # (drawn a moment after it is pushed: a busy machine can read it before)
        await until(lambda: "Score of deal 1 of 2" in screen_text(app), "the sheet's words", 5)
        assert "Ann" in screen_text(app)
        assert game.mirror.next_deal is not None and game.deal_number == 1
        await pilot.press("enter")  # next
        await until(lambda: game.deal_number == 2 and not game.deal_over, "the second deal", 5)
        assert isinstance(app.screen, TableScreen)
        assert game.sheets_shown == 1

        await follow_hints(pilot, game)  # the last deal: the match is over
        await until(lambda: game.game_over and isinstance(app.screen, ScoreSheet), "the end", 5)
        await until(lambda: "Score: the match is over" in screen_text(app), "the last sheet", 5)
        await pilot.press("enter")  # leave the table
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby", 5)
        assert app.net is None and game.client.closed.is_set()


async def test_back_at_the_table_between_deals_the_score_sheet_comes_up_again(
    server: Server, tmp_path: Path
) -> None:
    """As in the browser: the link back while the table waits for us to read a deal's score
    sheet brings the sheet up again when our Next deal went with the link (the table waited
    on, the sheet gone); the link dropping and coming back while the sheet is up leaves one."""
    app = app_for(tmp_path, server.url, room=await sheet_room(server), name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        game = await first_sheet(app, pilot)

        async def link_back(links: int) -> None:
            game.client.come_back()
            await until(lambda: game.client.reconnects == links, "the link back")
            await until(lambda: not game.reconnecting, "the link back")
            await pilot.pause(0.3)

        await game.client.drop(stay_away=True)
        await until(lambda: game.reconnecting, "the link lost")
        await link_back(1)
        assert sum(isinstance(s, ScoreSheet) for s in app.screen_stack) == 1
        await game.client.drop(stay_away=True)
        await until(lambda: game.reconnecting, "the link lost again")
        await pilot.press("enter")  # next, as the link is gone: it never reaches the table
        await until(lambda: isinstance(app.screen, TableScreen), "the sheet closed")
        await link_back(2)
        assert game.mirror.next_deal is not None and game.seat in game.mirror.next_deal["waiting"]
        await until(lambda: isinstance(app.screen, ScoreSheet), "the sheet again", 5)
        await until(lambda: "Score of deal 1 of 2" in screen_text(app), "its words", 5)
        await pilot.press("enter")  # next: the table deals again
        await until(lambda: game.deal_number == 2 and not game.deal_over, "the second deal", 5)
        assert isinstance(app.screen, TableScreen)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["play", "--room", "ABCDEF"], "--room needs --server"),
        (["play", "--server", "ftp://x"], "--server must be an http"),
        (["join", "no such room!"], "neither a room code nor a share link"),
        (["join", "ABCDEF", "--server", "ftp://x"], "--server must be an http"),
        (["join", "http://127.0.0.1:9/r/ABCDEF"], "needs a terminal"),  # pytest's is not one
    ],
)
def test_play_and_join_refuse_bad_rooms_and_servers_in_words(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bigtwo.cli import main

    assert main(argv) == 2
    out = capsys.readouterr()
    assert said in out.out + out.err and "Traceback" not in out.out + out.err


async def test_the_seat_is_remembered_between_runs_and_offered_again(
    server: Server, tmp_path: Path
) -> None:
    """Quit the app at a running room and start it again: it offers the same seat, and
    rejoining sits down there with the same hand (the room is full: no new seat exists)."""
    from bigtwo.tui.dialogs import Confirm

    code, bob = await two_seat_room(server, seed=11)
    try:
        app = app_for(tmp_path, server.url, room=code, name="Ann")
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            game = table_game(app)
            await until(lambda: game.started and game.hand(), "the first deal")
            seat, cards = game.seat, game.hand()
            await pilot.press("ctrl+q")  # back to the lobby, the seat kept on the server
            await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        again = app_for(tmp_path, server.url, name="Ann")
        async with again.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(again.screen, Confirm), "the offer to rejoin")
            text = screen_text(again)
            assert f"You have a seat at room {code}" in text and "Rejoin" in text
            await pilot.press("y")
            await until(lambda: isinstance(again.screen, TableScreen), "the table again")
            back = table_game(again)
            await until(lambda: back.started and back.hand(), "the deal again")
            assert back.seat == seat and back.hand() == cards
            assert back.code == code
        # Joining the room by its code also sits down at the remembered seat.
        third = app_for(tmp_path, server.url, room=code, name="Ann")
        async with third.run_test(size=SIZE):
            await until(lambda: isinstance(third.screen, TableScreen), "the table a third time")
            assert table_game(third).seat == seat
    finally:
        await bob.close()


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_a_new_game_together_after_the_match(server: Server, tmp_path: Path) -> None:
    """On the last score sheet, r opens a new game for the same players (the server's
    rematch): the terminal sits down at its seat there, and the new deal is dealt."""
    async with Lobby(server.url) as lobby:
        made = await lobby.create_room(
            preset="hongkong", seats=["human", "computer:classic"], public=False, seed=3, deals=1
        )
    app = app_for(tmp_path, server.url, room=made["code"], name="Ann")
    async with app.run_test(size=SIZE) as pilot:
        await until(lambda: isinstance(app.screen, TableScreen), "the table")
        game = table_game(app)
        await until(lambda: game.started, "the deal")
        await follow_hints(pilot, game)
        await until(lambda: isinstance(app.screen, ScoreSheet), "the last sheet", 5)
        await until(lambda: "New game together (r)" in screen_text(app), "the offer", 5)
        # History: what this screen saw, then the server's whole record, every hand.
        await pilot.press("g")
        await until(lambda: isinstance(app.screen, HistoryPage), "the history")
        await until(lambda: "every hand, as the server recorded it" in screen_text(app), "record")
        text = screen_text(app)
        assert "Opening hands:" in text and "(hidden)" not in text
        await pilot.press("escape")
        await until(lambda: "New game together (r)" in screen_text(app), "the sheet again", 5)
        await pilot.press("r")
        await until(
            lambda: isinstance(app.net, NetGame) and app.net.code not in ("", made["code"]),
            "the new table",
        )
        new = table_game(app)
        await until(lambda: new.started and new.hand(), "the new deal", 15)
        assert new.seat == 0 and new.mirror.room["seats"][0]["name"] == "Ann"
        assert game.client.closed.is_set()  # the old table was left


def test_the_history_of_a_network_table_is_what_the_screen_saw() -> None:
    """A network table's History: each finished deal's result with the cards left, and the
    plays of the deal in play, from the mirror alone (no hidden hand)."""
    from bigtwo.engine.cards import card_symbols, to_mask
    from bigtwo.tui.controller import GameController, GameSetup, SeatSetup

    seats = (SeatSetup("Ann", True), *(SeatSetup(n, False, "random") for n in ("B", "C", "D")))
    local = GameController(GameSetup(seats=seats, seed=4, deals=2))
    net = NetGame(TableClient("ws://127.0.0.1:9/ws/TEST", "token"))
    net.client.state = local.mirror
    assert net.history_text("deal").startswith("=== Deal 1 of 2: the plays ===\n(no play yet)")
    for _ in range(200):
        if local.deal_over:
            break
        local.run_computers()
        if local.human_to_act is not None:
            view = local.view(0)
            if view.legal:
                local.play(0, view.legal[0])
            else:
                local.pass_(0)
    result = local.mirror.results[0]
    text = net.history_text("game")
    winner = local.names[result["winner"]]
    assert f"=== Deal 1 of 2: {winner} went out ===" in text
    for left in result["left"]:
        if left:
            assert card_symbols(to_mask(left)) in text
    first = local.mirror.actions[0]
    assert f"{local.names[first.seat]}: {card_symbols(first.play.mask)}" in text  # type: ignore[union-attr]
