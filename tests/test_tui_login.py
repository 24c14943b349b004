"""``bigtwo login`` and ``bigtwo logout`` against a real ``bigtwo serve``, and the terminal
lobby of a signed-in player: their name and rating in its title line, and a seat taken there
kept with their account.

One server for the module (``conftest.py``). Hashing a password with argon2 is slow on a
loaded machine, so the tests make few accounts and few sign-ins: two registrations, seven
failed sign-ins (all from 127.0.0.1: under the address's limit of ten at once).
"""

from __future__ import annotations

import asyncio
import io
import stat
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Input, Static

from bigtwo.cli import main
from bigtwo.client import Lobby, ServerError
from bigtwo.server.bench import free_port
from bigtwo.store.matches import MatchStore
from bigtwo.tui.lobby import LobbyScreen
from bigtwo.tui.storage import keep_session, kept_session
from bigtwo.tui.table import TableScreen
from test_server_support import Server
from test_tui_network import SIZE, app_for, screen_text, table_game, two_seat_room, until

PASSWORD = "correct horse battery"


def session_in(db: Path, server: str) -> str:
    store = MatchStore(db)
    try:
        return kept_session(store, server)
    finally:
        store.close()


def account_of(server: str, session: str) -> dict[str, Any]:
    async def ask() -> dict[str, Any]:
        async with Lobby(server, session=session) as lobby:
            return await lobby.account()

    return asyncio.run(ask())


def test_login_keeps_the_session_privately_and_logout_ends_it(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "bigtwo.db"
    asked: list[str] = []

    def hidden(prompt: str = "") -> str:  # the prompt that does not echo
        asked.append(prompt)
        return PASSWORD

    monkeypatch.setattr("getpass.getpass", hidden)
    command = ["login", "--server", server.url + "/", "--db", str(db)]
    assert main([*command, "--name", "Ann Login", "--register"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Registered and signed in at {server.url} as Ann Login; rating 1000")
    assert asked == ["Password: ", "The password again: "]
    session = session_in(db, server.url)
    assert session
    assert stat.S_IMODE(db.stat().st_mode) == 0o600  # the data file is its owner's only
    you = account_of(server.url, session)
    assert you["signed_in"] and you["name"] == "Ann Login"

    # A wrong password, read from standard input: said in words, the session kept stays.
    monkeypatch.setattr("sys.stdin", io.StringIO("not the password\n"))
    assert main([*command, "--name", "Ann Login", "--password-stdin"]) == 1
    err = capsys.readouterr().err
    assert "That name and password do not match an account" in err and "Traceback" not in err
    assert session_in(db, server.url) == session

    assert main(["logout", "--server", server.url, "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"Signed out at {server.url}\n"
    assert session_in(db, server.url) == ""
    assert account_of(server.url, session) == {"signed_in": False}  # ended on the server
    assert main(["logout", "--server", server.url, "--db", str(db)]) == 0
    assert capsys.readouterr().out == f"Not signed in at {server.url}\n"


def test_login_says_why_it_failed(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = str(tmp_path / "bigtwo.db")
    monkeypatch.setattr("getpass.getpass", lambda prompt="": "a wrong password")
    assert main(["login", "--server", "ftp://x", "--name", "Cal", "--db", db]) == 2
    assert "must be an http:// or https:// address" in capsys.readouterr().out
    nowhere = f"http://127.0.0.1:{free_port()}"
    assert main(["login", "--server", nowhere, "--name", "Cal", "--db", db]) == 1
    assert f"cannot reach the server at {nowhere}" in capsys.readouterr().err

    # Five failed sign-ins against one name use up its tries: the sixth is told the wait.
    async def fail(times: int) -> list[str]:
        codes = []
        async with Lobby(server.url) as lobby:
            for _ in range(times):
                with pytest.raises(ServerError) as failed:
                    await lobby.sign_in("Nobody Here", "a wrong password")
                codes.append(failed.value.code)
        return codes

    assert asyncio.run(fail(5)) == ["bad_sign_in"] * 5
    assert main(["login", "--server", server.url, "--name", "Nobody Here", "--db", db]) == 1
    err = capsys.readouterr().err
    assert "Too many failed sign-ins" in err and "try again in" in err and "second" in err
    assert session_in(Path(db), server.url) == ""


async def test_the_lobby_names_the_player_signed_in_and_keeps_their_seat(
    server: Server, tmp_path: Path
) -> None:
    async with Lobby(server.url) as lobby:
        you = await lobby.register("Bea Lobby", PASSWORD)
        session = lobby.session
    assert you["ratings"]["bigtwo"] == {"rating": 1000, "games": 0, "wins": 0}
    store = MatchStore(tmp_path / "bigtwo.db")
    keep_session(store, server.url, session)
    store.close()
    code, bob = await two_seat_room(server)
    app = app_for(tmp_path, server.url, name="Bea")
    try:
        async with app.run_test(size=SIZE) as pilot:
            await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            title = app.screen.query_one("#lobby-title", Static)
            line = f"open rooms at {server.url}  -  signed in as Bea Lobby, rating 1000"
            await until(lambda: line in str(title.render()), "the rating line")
            assert line in screen_text(app)
            app.screen.query_one("#room-input", Input).value = code
            app.screen.query_one("#room-input", Input).focus()
            await pilot.press("enter")
            await until(lambda: isinstance(app.screen, TableScreen), "the table")
            seat = table_game(app).seat
        async with Lobby(server.url, session=session) as lobby:
            kept = await lobby.kept_seats()
        assert [(s["code"], s["seat"]) for s in kept] == [(code, seat)]
    finally:
        await bob.close()


async def test_a_guest_lobby_names_no_one(server: Server, tmp_path: Path) -> None:
    app = app_for(tmp_path, server.url)
    async with app.run_test(size=SIZE):
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(lambda: "open rooms at" in screen_text(app), "the title")
        assert "signed in" not in screen_text(app) and "session" not in screen_text(app)


async def test_a_lobby_whose_session_has_ended_says_so(server: Server, tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "bigtwo.db")
    keep_session(store, server.url, "a-session-the-server-never-made")
    store.close()
    app = app_for(tmp_path, server.url)
    async with app.run_test(size=SIZE):
        await until(lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        ended = f"open rooms at {server.url}  -  session ended: bigtwo login"
        await until(lambda: ended in screen_text(app), "the ended session")


async def test_the_title_line_counts_rated_games() -> None:
    screen = LobbyScreen("http://h:1/")
    rating = {"rating": 1040, "games": 3, "wins": 1}
    you = {"signed_in": True, "name": "Ann", "ratings": {"bigtwo": rating}}
    assert screen.title_line(you) == (
        "Big Two  -  open rooms at http://h:1  -  signed in as Ann, rating 1040 (3 rated games)"
    )
    one = {"signed_in": True, "name": "Ann", "ratings": {"bigtwo": {**rating, "games": 1}}}
    assert screen.title_line(one).endswith("rating 1040 (1 rated game)")
    assert screen.title_line(None) == "Big Two  -  open rooms at http://h:1"
    await screen.lobby.close()
