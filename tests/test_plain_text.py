"""Text people typed stays text: the service sends names, titles and chat exactly as typed
(cleaned of control characters, never HTML-escaped), and the terminal game shows them as
they came, so ``<img …>`` and ``Tom &amp; Jerry`` read the same everywhere."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bigtwo.client import TableClient
from bigtwo.service.commands import Command, Op
from bigtwo.service.request import table_config
from bigtwo.service.table import TableService, hash_token
from bigtwo.tui.netgame import NetGame

IMG = "<img src=x onerror=f(1)>"  # 24 characters: a whole name, not cut
TOM = "Tom &amp; Jerry"


def test_the_service_sends_names_titles_and_chat_as_typed() -> None:
    config = table_config({"preset": "hongkong", "players": 2, "title": "<b>Fri</b>", "deals": 1})
    t = TableService(config, "TEST")
    [joined] = t.apply(Command(Op.JOIN, seat=0, name=IMG, token=hash_token("a")), 0)
    t.apply(Command(Op.JOIN, seat=1, name=TOM, token=hash_token("b")), 0)
    assert joined.type == "joined" and joined.data["name"] == IMG
    info = t.info()
    assert [s["name"] for s in info["seats"]] == [IMG, TOM] and info["title"] == "<b>Fri</b>"
    [line] = t.apply(Command(Op.CHAT, seat=0, text="a & b"), 0)
    assert line.data["text"] == "a & b" and line.data["name"] == IMG
    [tag] = t.apply(Command(Op.CHAT, seat=1, text="<img src=x onerror=alert(1)>"), 0)
    assert tag.data["text"] == "<img src=x onerror=alert(1)>"
    [aside] = t.apply(Command(Op.CHAT, seat=None, name=TOM, text="<i>hi</i>"), 0)
    assert (aside.data["name"], aside.data["text"]) == (TOM, "<i>hi</i>")
    for s in (0, 1):
        t.connect(s, 0)
    started = [e for s in (0, 1) for e in t.submit(Command(Op.READY, seat=s), 0)[1]]
    [start] = [e for e in started if e.type == "started"]
    assert start.data["names"] == [IMG, TOM]
    # On the wire too, and in a resync: JSON carries the characters themselves.
    assert json.loads(line.json())["text"] == "a & b"
    assert t.snapshot(0)["room"]["seats"][1]["name"] == TOM


def net_game(names: list[str]) -> NetGame:
    """A network table's game with these players seated (no connection needed)."""
    game = NetGame(TableClient("ws://127.0.0.1:9/ws/TEST", "token"))
    seats = [
        {"seat": i, "name": n, "kind": "human", "taken": True, "connected": True}
        for i, n in enumerate(names)
    ]
    game.mirror.room = {"code": "TEST", "seats": seats}
    game.mirror.seat = 0
    return game


@pytest.mark.parametrize(
    ("message", "line"),
    [
        ({"type": "chat", "seat": 1, "name": TOM, "text": "a &lt; b"}, f"{TOM}: a &lt; b"),
        ({"type": "chat", "seat": 0, "name": IMG, "text": "[b]a[/b]"}, f"{IMG}: [b]a[/b]"),
        ({"type": "joined", "seat": 1, "name": TOM, "avatar": None}, f"* {TOM} sits down"),
        ({"type": "quit", "seat": 1}, f"* {TOM} left the game"),
        ({"type": "presence", "seat": 1, "connected": False}, f"* {TOM} is away"),
    ],
)
def test_the_terminal_game_shows_network_text_as_it_came(
    message: dict[str, Any], line: str
) -> None:
    game = net_game([IMG, TOM])
    game._message(message)
    assert game.lines[-1] == line


async def test_the_terminal_lobby_and_table_draw_names_as_they_came() -> None:
    from rich.text import Text

    from bigtwo.tui.lobby import LobbyScreen

    game = net_game([IMG, "[b]Bold[/b]"])
    assert game.names == [IMG, "[b]Bold[/b]"]
    # The lobby's cells are Text, which Textual never reads as markup.
    row = LobbyScreen.row({"code": "ABC", "title": "[i]x[/i]", "preset": "palm", "deals": 1,
                           "status": "waiting", "seats": []})  # fmt: skip
    assert all(isinstance(cell, Text) for cell in row)
    assert [cell.plain for cell in row][:2] == ["ABC", "[i]x[/i]"]
