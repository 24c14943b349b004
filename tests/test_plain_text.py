"""Text people typed stays text: the service sends names, titles and chat exactly as typed
(cleaned of control characters, never HTML-escaped), and the terminal client prints them as
they came, so ``<img …>`` and ``Tom &amp; Jerry`` read the same everywhere."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest

from bigtwo.commands.server import _Screen
from bigtwo.service.commands import Command, Op
from bigtwo.service.config import TableConfig
from bigtwo.service.table import TableService, hash_token

IMG = "<img src=x onerror=f(1)>"  # 24 characters: a whole name, not cut
TOM = "Tom &amp; Jerry"


def test_the_service_sends_names_titles_and_chat_as_typed() -> None:
    config = TableConfig.from_request(
        {"preset": "hongkong", "players": 2, "title": "<b>Fri</b>", "deals": 1}
    )
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


def screen(names: list[str]) -> _Screen:
    shown = _Screen()
    seats = [{"seat": i, "name": n, "ready": False} for i, n in enumerate(names)]
    room = {"code": "TEST", "seats": seats}
    shown.client = SimpleNamespace(state=SimpleNamespace(room=room, seat=0, status="waiting"))
    return shown


@pytest.mark.parametrize(
    ("message", "printed"),
    [
        ({"type": "chat", "seat": 1, "name": TOM, "text": "a &lt; b"}, f"[{TOM}] a &lt; b"),
        ({"type": "chat", "seat": 0, "name": IMG, "text": "a & b"}, f"[{IMG}] a & b"),
        ({"type": "joined", "seat": 1, "name": TOM, "avatar": None}, f"{TOM} sits at seat 1"),
        ({"type": "ready", "seat": 1, "ready": True}, f"{TOM} is ready"),
        ({"type": "quit", "seat": 0}, f"{IMG} quit"),
    ],
)
def test_the_terminal_client_prints_text_as_it_came(
    message: dict[str, Any], printed: str, capsys: pytest.CaptureFixture[str]
) -> None:
    screen([IMG, TOM]).show(message)
    assert printed in capsys.readouterr().out


def test_the_terminal_lobby_lists_names_as_they_came(capsys: pytest.CaptureFixture[str]) -> None:
    screen([IMG, TOM]).render()
    out = capsys.readouterr().out
    assert f"0: {IMG}" in out and f"1: {TOM}" in out
