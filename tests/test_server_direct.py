"""The direct path between a table and its sockets (bigtwo.server.direct): a frame is built
once for every connection that gets the same messages and written straight to each socket
while it keeps up, else sent the ASGI way in order; messages reach the table as they are
parsed, in the order sent, those sent before the table listened included. Against a real
``bigtwo serve`` (whose default stack is ``direct``) and one on plain ``websockets-sansio``."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import httpx
import pytest
import websockets
from websockets.frames import Frame

from bigtwo.client import Lobby
from bigtwo.protocol import PROTOCOL
from bigtwo.server.connection import Connection, SendCounts
from bigtwo.server.direct import text_frame
from bigtwo.server.settings import Settings
from test_server_connection import GatedSocket
from test_server_support import STATS, Server, launch

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.mark.parametrize("size", [0, 5, 125, 126, 65535, 65536, 70000])
def test_a_text_frame_is_what_websockets_reads(size: int) -> None:
    text = "é" * (size // 2) + "x" * (size % 2)
    frame = text_frame(text)
    chunks = [frame]

    def read(n: int):  # the generator protocol of websockets' parser
        data = chunks[0][:n]
        chunks[0] = chunks[0][n:]
        return data
        yield

    def read_exact(n: int):
        return (yield from read(n))

    parser = Frame.parse(read_exact, mask=False)
    with pytest.raises(StopIteration) as done:
        next(parser)
    parsed = done.value.value
    assert parsed.fin and parsed.data.decode() == text and chunks[0] == b""


class DirectStub:
    """A direct path that records what it writes, and can stop taking writes."""

    def __init__(self) -> None:
        self.frames: list[bytes] = []
        self.open = True

    def ready(self) -> bool:
        return self.open

    def write(self, frame: bytes) -> None:
        self.frames.append(frame)


async def test_connections_of_one_audience_are_written_the_same_bytes() -> None:
    stubs = [DirectStub() for _ in range(3)]
    conns = []
    for stub in stubs:
        conn = Connection(GatedSocket(), Settings().limits, direct=stub)  # type: ignore[arg-type]
        conn.batch = True
        asyncio.create_task(conn.writer())
        conns.append(conn)
    await asyncio.sleep(0)
    direct_before = SendCounts.direct
    texts = ['{"n":1}', '{"n":2}']
    for conn in conns:
        conn.send_all(texts)
    await asyncio.sleep(0)
    first = stubs[0].frames[0]
    assert first == text_frame('[{"n":1},{"n":2}]')
    assert all(stub.frames == [first] and stub.frames[0] is first for stub in stubs)
    assert SendCounts.direct - direct_before == 3
    for conn in conns:
        conn.close(1000, "")


async def test_a_socket_that_does_not_keep_up_is_sent_the_asgi_way_in_order() -> None:
    stub = DirectStub()
    socket = GatedSocket()
    conn = Connection(socket, Settings().limits, direct=stub)  # type: ignore[arg-type]
    conn.batch = True
    writer = asyncio.create_task(conn.writer())
    await asyncio.sleep(0)
    conn.send('"a"')
    await asyncio.sleep(0)
    stub.open = False  # the peer stopped reading: flow control holds writes
    conn.send('"b"')
    await asyncio.sleep(0)
    assert stub.frames == [text_frame('"a"')] and socket.frames == ['"b"']
    conn.close(1000, "bye")
    await asyncio.wait_for(writer, 1)
    assert socket.closed == (1000, "bye")


async def _pings_in_order(server: Server) -> dict:
    """Say hello and, in the same breath, 30 pings: every pong comes back, in order, and
    the welcome first. Returns the server's stats after."""
    async with Lobby(server.url) as lobby:
        room = await lobby.create_room(preset="textbook", deals=1, away_seconds=None)
        seat = await lobby.join(room["code"], "Pinger")
    async with websockets.connect(seat["ws"], compression=None) as ws:
        hello = {"type": "hello", "protocol": PROTOCOL, "token": seat["token"]}
        pings = [{"type": "ping", "id": f"p{i}"} for i in range(30)]
        for message in [hello, *pings]:
            await ws.send(json.dumps(message))
        kinds, pongs = [], []
        while len(pongs) < len(pings):
            message = json.loads(await asyncio.wait_for(ws.recv(), 10))
            kinds.append(message["type"])
            if message["type"] == "pong":
                pongs.append(message["id"])
    assert kinds[0] == "welcome"
    assert pongs == [p["id"] for p in pings]
    async with httpx.AsyncClient() as http:
        return (await http.get(f"{server.url}/api/stats", headers=STATS)).json()


def test_the_default_stack_writes_the_direct_way(tmp_path: Path) -> None:
    server = launch(tmp_path)
    try:
        stats = asyncio.run(_pings_in_order(server))
    finally:
        server.stop()
    assert stats["ws_frames_direct"] >= 31 and stats["ws_frames_direct"] <= stats["ws_frames_sent"]


def test_plain_websockets_sansio_plays_the_asgi_way(tmp_path: Path) -> None:
    server = launch(tmp_path, ["--ws", "websockets-sansio"])
    try:
        stats = asyncio.run(_pings_in_order(server))
    finally:
        server.stop()
    assert stats["ws_frames_direct"] == 0 and stats["ws_frames_sent"] >= 31
