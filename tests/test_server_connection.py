"""A connection's outgoing queue: what one stretch of the event loop queues goes out as one
frame, from a callback while the writer task sleeps; a send that must wait for a slow peer is
finished by the writer, in order with everything queued after it; a peer gone mid-send ends
the writer."""

from __future__ import annotations

import asyncio

from bigtwo.server.connection import Connection
from bigtwo.server.settings import Settings


class GatedSocket:
    """A socket whose sends wait, while ``gate`` is set, until it is opened."""

    def __init__(self) -> None:
        self.frames: list[str] = []
        self.gate: asyncio.Future[None] | None = None
        self.closed: tuple[int, str] | None = None
        self.fail = False

    async def send_text(self, text: str) -> None:
        if self.fail:
            raise OSError("the peer is gone")
        if self.gate is not None:
            await self.gate
        self.frames.append(text)

    async def close(self, code: int, reason: str) -> None:
        self.closed = (code, reason)


async def _connected(batch: bool = True) -> tuple[Connection, GatedSocket, asyncio.Task[None]]:
    socket = GatedSocket()
    conn = Connection(socket, Settings().limits)
    conn.batch = batch
    writer = asyncio.create_task(conn.writer())
    await asyncio.sleep(0)  # the writer starts and waits
    return conn, socket, writer


async def test_one_stretch_goes_out_as_one_frame_without_the_writer() -> None:
    conn, socket, writer = await _connected()
    waiting = conn._wake
    conn.send('{"n":1}')
    conn.send_all(['{"n":2}', '{"n":3}'])
    assert socket.frames == []  # nothing until the stretch is over
    await asyncio.sleep(0)
    assert socket.frames == ['[{"n":1},{"n":2},{"n":3}]']
    assert conn._wake is waiting and not waiting.done()  # the writer slept through it
    conn.send('{"n":4}')
    await asyncio.sleep(0)
    assert socket.frames[-1] == '{"n":4}'
    conn.close(1000, "bye")
    await asyncio.wait_for(writer, 1)
    assert socket.closed == (1000, "bye")


async def test_a_send_that_waits_is_finished_by_the_writer_in_order() -> None:
    loop = asyncio.get_running_loop()
    conn, socket, writer = await _connected()
    socket.gate = loop.create_future()
    conn.send('"first"')
    await asyncio.sleep(0)  # begun from the callback; it waits for the peer
    conn.send('"second"')
    conn.send('"third"')
    await asyncio.sleep(0.01)
    assert socket.frames == []
    socket.gate.set_result(None)
    socket.gate = None
    for _ in range(20):
        await asyncio.sleep(0)
    assert socket.frames == ['"first"', '["second","third"]']
    conn.send('"fourth"')  # the writer sleeps again: sent from the callback
    await asyncio.sleep(0)
    assert socket.frames[-1] == '"fourth"'
    conn.close(1000, "")
    await asyncio.wait_for(writer, 1)


async def test_without_batches_each_message_is_a_frame_of_its_own() -> None:
    conn, socket, writer = await _connected(batch=False)
    conn.send_all(['"a"', '"b"'])
    conn.send('"c"')
    for _ in range(10):
        await asyncio.sleep(0)
    assert socket.frames == ['"a"', '"b"', '"c"']
    conn.close(1000, "")
    await asyncio.wait_for(writer, 1)


async def test_a_peer_gone_mid_send_ends_the_writer() -> None:
    conn, socket, writer = await _connected()
    socket.fail = True
    conn.send('"lost"')
    await asyncio.wait_for(writer, 1)
    assert conn.closing and socket.frames == []
    conn.send('"after"')  # dropped quietly
    assert socket.frames == []
