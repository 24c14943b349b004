"""``bigtwo serve --server granian``: the application on Granian (a Rust HTTP server with its
own WebSocket stack) instead of uvicorn. A match is played to its end through it with every
acknowledged action stored once and no hidden card in any message; the client's address
reaches the application (its limits per address hold); SIGTERM stops it cleanly; and the
options reach Granian and each of its worker processes as they reach uvicorn's.

(The whole server suite runs on Granian with ``BIGTWO_SERVER=granian`` in the environment,
the default of ``--server``: README, the server's benchmark.)"""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from bigtwo.cli import main
from bigtwo.commands.server import WORKER_APP, WORKER_OPTIONS, worker_application
from test_cluster import _applied_once, _four_players_through, _play
from test_server_support import (
    assert_no_foreign_cards,
    cards_left,
    dealt_hands,
    launch,
    restored_table,
)

pytest.importorskip("granian")


async def test_a_match_is_played_on_granian_and_sigterm_stops_it_cleanly(tmp_path: Path) -> None:
    server = launch(tmp_path, ["--server", "granian"])
    try:
        code, bots = await _four_players_through(server, server, deals=1, keep=True)
        try:
            await _play(bots)
        finally:
            for bot in bots:
                await bot.close()
        assert [b.state.status for b in bots] == ["finished"] * 4
        assert len({b.seen for b in bots}) == 1  # the same numbered events reached all
        _applied_once(bots, str(server.db), code)
        table = restored_table(server.db, code)
        hands, left = dealt_hands(table), cards_left(table)
        for seat, bot in enumerate(bots):
            assert assert_no_foreign_cards(bot.messages, seat, hands, left) > 0
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(20) == 0
    finally:
        server.stop()


async def test_the_clients_address_reaches_the_application(tmp_path: Path) -> None:
    """Granian puts the socket's address in the scope: the limit of rooms one address may
    have open refuses this address's second room."""
    server = launch(tmp_path, ["--server", "granian", "--rooms-per-address", "1"])
    try:
        async with httpx.AsyncClient(timeout=10, trust_env=False) as http:
            first = await http.post(server.url + "/api/rooms", json={"seats": ["human"] * 4})
            second = await http.post(server.url + "/api/rooms", json={"seats": ["human"] * 4})
        assert first.status_code == 201, first.text
        assert second.status_code == 429, second.text
    finally:
        server.stop()


def test_granian_gets_the_options_and_each_worker_builds_the_application(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The options reach Granian (the application's factory, the address, the processes,
    the event loop) and, through the environment, the application each worker builds."""
    import granian.server

    started: list[dict[str, Any]] = []

    class Recorded:
        def __init__(self, target: str, **options: Any) -> None:
            started.append({"target": target, **options})

        def serve(self) -> None:
            pass

    monkeypatch.setattr(granian.server, "Server", Recorded)
    monkeypatch.delenv(WORKER_OPTIONS, raising=False)
    db = str(tmp_path / "t.sqlite3")
    serve = ["serve", "--host", "127.0.0.1", "--port", "0", "--db", db, "--server", "granian"]
    assert main([*serve, "--loop", "plain", "--rooms-per-address", "3"]) == 0
    [options] = started
    assert options["target"] == WORKER_APP and options["factory"] is True
    assert (options["address"], options["port"], options["workers"]) == ("127.0.0.1", 0, 1)
    assert (str(options["interface"]), str(options["loop"])) == ("asgi", "asyncio")
    handed = json.loads(os.environ[WORKER_OPTIONS])
    assert handed["rooms_per_address"] == 3 and handed["db"] == db
    assert worker_application().state is not None  # a Starlette application over that db


def test_an_unknown_server_in_the_environment_is_refused_in_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("BIGTWO_SERVER", "gunicorn")
    assert main(["serve", "--port", "0", "--db", str(tmp_path / "t.sqlite3")]) == 2
    assert main(["bench", "server", "--tables", "1"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err == [
        "bigtwo serve: BIGTWO_SERVER must be uvicorn or granian, not 'gunicorn'",
        "bigtwo bench server: BIGTWO_SERVER must be uvicorn or granian, not 'gunicorn'",
    ]


def test_the_worker_ends_with_its_supervisor_even_killed(tmp_path: Path) -> None:
    """SIGKILL to Granian's supervisor (what a crash or the cluster's kill test does to a
    node) ends its worker too, as it ends a one-process server: it does not go on serving
    the node's tables alone."""
    server = launch(tmp_path, ["--server", "granian"])
    pid = server.process.pid
    try:
        workers = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        assert workers
    finally:
        server.process.kill()
        server.process.wait()
    deadline = time.monotonic() + 30
    while any(_running(w) for w in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(_running(w) for w in workers)


def _running(pid: str) -> bool:
    """Whether process ``pid`` is still there and not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False
