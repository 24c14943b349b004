"""Handing a table's WebSocket to the process that runs the table (``bigtwo.server.handoff``):
the request's head is rebuilt as the client sent it, and a connection handed from one end to
another goes on at the other end, with the head read there first; a process that is not there
is not handed anything. (A game through two worker processes, every WebSocket reaching its
table's process without forwarding: ``tests/test_server_workers.py``.)"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bigtwo.server.direct import DIRECT
from bigtwo.server.handoff import Handoffs, request_head


def test_the_head_of_the_request_is_rebuilt_as_it_was_sent() -> None:
    scope = {
        "type": "websocket",
        "path": "/ws/ABCDEF",
        "raw_path": b"/ws/ABCDEF",
        "query_string": b"since=3",
        "http_version": "1.1",
        "headers": [(b"host", b"127.0.0.1:8000"), (b"upgrade", b"websocket")],
    }
    assert request_head(scope) == (
        b"GET /ws/ABCDEF?since=3 HTTP/1.1\r\nhost: 127.0.0.1:8000\r\nupgrade: websocket\r\n\r\n"
    )
    assert request_head({**scope, "query_string": b""}).startswith(b"GET /ws/ABCDEF HTTP/1.1\r\n")


class _Accepted(asyncio.Protocol):
    """The accepting process's end of a connection."""

    def __init__(self, accepted: asyncio.Queue[asyncio.Transport]) -> None:
        self.accepted = accepted

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.accepted.put_nowait(transport)


class _Adopted(asyncio.Protocol):
    """The other process's end: answers each piece of data with what it has read so far."""

    def __init__(self) -> None:
        self.read = b""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self.read += data
        if not data.startswith(b"GET "):  # the client's own bytes, after the head
            self.transport.write(b"read: " + self.read)


class _Direct:
    """The direct path's part in a hand-off, over a plain transport."""

    def __init__(self, transport: asyncio.Transport) -> None:
        self.transport = transport

    def raw_socket(self) -> Any:
        return self.transport.get_extra_info("socket")

    def let_go(self) -> None:
        self.transport.abort()


async def test_a_connection_handed_over_goes_on_at_the_other_end(tmp_path: Path) -> None:
    loop = asyncio.get_running_loop()
    here, there = Handoffs(str(tmp_path), "here"), Handoffs(str(tmp_path), "there")
    here.protocol = there.protocol = _Adopted
    here.start()
    there.start()
    accepted: asyncio.Queue[asyncio.Transport] = asyncio.Queue()
    server = await loop.create_server(lambda: _Accepted(accepted), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        transport = await asyncio.wait_for(accepted.get(), 5)
        scope = {
            "type": "websocket",
            "path": "/ws/ABCDEF",
            "query_string": b"",
            "headers": [(b"host", b"here")],
            "extensions": {DIRECT: _Direct(transport)},
        }
        assert not here.hand("elsewhere", scope)  # no such process: nothing is handed
        assert not transport.is_closing()
        assert here.hand("there", scope)
        assert transport.is_closing()  # this end let go of its copy
        writer.write(b"hello")
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(1000), 5)
        assert answer == b"read: GET /ws/ABCDEF HTTP/1.1\r\nhost: here\r\n\r\nhello"
        assert (here.handed, here.adopted, there.handed, there.adopted) == (1, 0, 0, 1)
    finally:
        writer.close()
        server.close()
        here.stop()
        there.stop()
    assert list(tmp_path.iterdir()) == []  # each end took its socket away
