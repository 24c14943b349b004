"""One client's WebSocket session at a table: who it is there, its rate limits, and the queue
of what it is sent.

A :class:`Connection` queues outgoing text and sends what one table run queued together (in
one batched frame when the client asked for it): from a callback when the socket takes it at
once, else from a writer task of its own, so one slow reader never holds up a table; it
closes itself when it falls too far behind or sends too many bad messages. Its limits start
as its own and become its actor's (:class:`ActorLimits`) once its table knows who it is. It
must not decide anything about a table or a game: what a message means and whether the table
takes it is the runner's and the service's business (:mod:`bigtwo.server.runner`).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine, Generator, Mapping
from typing import Any

from ..protocol import CLOSE_POLICY, CLOSE_TRY_AGAIN
from ..service.events import dumps
from .direct import DirectSocket, text_frame
from .limits import KeyedLimiter, TokenBucket
from .settings import Limits


def actor_of(code: str, seat: int | None, address: str) -> tuple[str | int, ...]:
    """Who acts, for the limits: a seat at a table (its token proves it), else an address."""
    return ("seat", code, seat) if seat is not None else ("address", address)


class ActorLimits:
    """The limits of every actor heard from recently: one
    :class:`~bigtwo.server.limits.KeyedLimiter` per kind of limit, in bounded memory."""

    def __init__(self, limits: Limits) -> None:
        size = limits.actors_max
        self.actions = KeyedLimiter(limits.actions_rate, limits.actions_burst, size)
        self.chat = KeyedLimiter(limits.chat_rate, limits.chat_burst, size)
        self.address_chat = KeyedLimiter(limits.address_chat_rate, limits.address_chat_burst, size)
        self.ready = KeyedLimiter(limits.ready_rate, limits.ready_burst, size)
        self.connects = KeyedLimiter(limits.connects_rate, limits.connects_burst, size)

    def bind(self, conn: Connection, actor: tuple[str | int, ...]) -> None:
        """Give ``conn`` the buckets of ``actor``, shared with the actor's other connections
        and with those it opens later."""
        conn.actions = self.actions.bucket(actor)
        conn.chat = self.chat.bucket(actor)
        conn.ready = self.ready.bucket(actor)
        conn.address_chat = self.address_chat.bucket(("address", conn.address))


class SendCounts:
    """Every connection's frames and messages sent by this process, for the server's stats
    (``bigtwo bench server`` reports them per action), and the frames of them written the
    direct way (:mod:`bigtwo.server.direct`)."""

    frames = 0
    messages = 0
    direct = 0


class _Close:
    __slots__ = ("code", "reason")

    def __init__(self, code: int, reason: str) -> None:
        self.code, self.reason = code, reason


class Connection:
    """One WebSocket: who it is at its table, its limits, and its outgoing messages.

    Messages queued in one stretch of the event loop (one table run), or while the writer is
    busy, go out together: as one frame holding a JSON array when the client asked for
    batches (``batch`` in its hello), which saves a system call and a wake-up per message on
    both sides; else one frame each. While the writer is idle they are sent from a callback
    (:meth:`_flush`) and the writer sleeps on; a send that would have to wait for a slow peer
    is handed to the writer to finish, and so is everything after it. ``socket`` needs
    ``send_text(str)`` and ``close(code, reason)`` coroutines (Starlette's WebSocket has both).
    Its rate limits start as its own; once it says who it is, the table gives it the buckets
    of that actor (:meth:`ActorLimits.bind`), which outlive the connection.
    """

    def __init__(
        self, socket: Any, limits: Limits, address: str = "", direct: DirectSocket | None = None
    ) -> None:
        self.socket = socket
        self.direct = direct  # the server's direct path to the socket, where it offers one
        self.limits = limits
        self.address = address  # the client's address, as the server believes it
        self.seat: int | None = None
        self.spectator = False
        self.name = ""
        self.batch = False
        self.attached = False
        self.closing = False
        self._out: list[str] = []
        # The writer, waiting for something to send (a bare future: an Event costs more, and
        # this is on every message's path).
        self._wake: asyncio.Future[None] | None = None
        self._close: _Close | None = None
        self._rest: _Rest | None = None  # a send begun here that waits for the peer
        self._gone = False  # a send begun here found the peer gone
        self._flush_due = False  # a callback will send what is queued (see _wake_writer)
        self.messages = TokenBucket(limits.messages_rate, limits.messages_burst)
        self.actions = TokenBucket(limits.actions_rate, limits.actions_burst)
        self.chat = TokenBucket(limits.chat_rate, limits.chat_burst)
        self.address_chat = TokenBucket(limits.address_chat_rate, limits.address_chat_burst)
        self.ready = TokenBucket(limits.ready_rate, limits.ready_burst)
        self.strikes = TokenBucket(limits.strikes_rate, limits.strikes_burst)

    def send(self, text: str) -> None:
        if self.closing:
            return
        if len(self._out) >= self.limits.queue_max:
            # It cannot keep up; it will reconnect and get a resync instead of a backlog.
            self.close(CLOSE_TRY_AGAIN, "too slow: reconnect and resync")
            return
        self._out.append(text)
        self._wake_writer()

    def send_all(self, texts: list[str]) -> None:
        """Queue several texts at once (what one command sends this connection): the same
        as sending each in turn, with one wake-up of the writer."""
        if self.closing or not texts:
            return
        if len(self._out) + len(texts) > self.limits.queue_max:
            self.close(CLOSE_TRY_AGAIN, "too slow: reconnect and resync")
            return
        self._out += texts
        self._wake_writer()

    def _wake_writer(self) -> None:
        wake = self._wake
        if wake is None or wake.done() or self._flush_due:
            return  # the writer is awake, or will be: it sends what is queued
        # The writer is idle, so nothing is on its way: once the table is done for now (so
        # that what it sends goes out together, as the writer would send it), send from a
        # plain callback if the socket takes it at once (nearly always), which saves a task's
        # wake-up for each frame.
        self._flush_due = True
        wake.get_loop().call_soon(self._flush)

    def _flush(self) -> None:
        self._flush_due = False
        wake = self._wake
        if wake is None or wake.done():
            return
        if self._close is None and (not self._out or self._send_now()):
            return
        wake.set_result(None)

    def _send_now(self) -> bool:
        """Send the queue as one frame without the writer, unless that takes more than one
        frame. True when it was sent, or the peer is gone (then the writer ends); False when
        the writer must go on: with the frames, or with the rest of a send that had to wait
        for the peer to read (:class:`_Rest`)."""
        if len(self._out) > 1 and not self.batch:
            return False
        items, self._out = self._out, []
        if self._write_direct(items):
            return True
        sending = self.socket.send_text(_frame(items))
        try:
            waiting = sending.send(None)
        except StopIteration:
            return True
        except Exception:  # the peer went away mid-send: the reader side cleans up
            self.closing = True
            self._gone = True
            return False
        self._rest = _Rest(sending, waiting)
        return False

    def reply(self, message: dict[str, Any]) -> None:
        self.send(dumps(message))

    def error(
        self,
        code: str,
        message: str,
        msg_id: str | None = None,
        params: Mapping[str, str | int] | None = None,
    ) -> None:
        """Refuse a message: its ``code``, the reason in English words, and the ``params`` a
        client words it with in its own language (docs/protocol.md)."""
        self.reply(
            {
                "type": "error",
                "id": msg_id,
                "code": code,
                "message": message,
                "params": dict(params or {}),
            }
        )

    def strike(self, now: float) -> None:
        """Count a bad or rate-limited message; too many in a row close the connection."""
        if not self.strikes.take(now):
            self.close(CLOSE_POLICY, "too many bad or rate-limited messages")

    def close(self, code: int, reason: str) -> None:
        if not self.closing:
            self.closing = True
            self._close = _Close(code, reason)
            self._wake_writer()

    async def writer(self) -> None:
        """Send queued text in order until closed; ends quietly when the peer is gone."""
        try:
            loop = asyncio.get_running_loop()
            while True:
                if not self._out and self._close is None and self._rest is None:
                    self._wake = loop.create_future()
                    await self._wake
                    self._wake = None
                if self._gone:
                    return
                if self._rest is not None:
                    rest, self._rest = self._rest, None
                    await rest
                items, self._out = self._out, []
                if items and (len(items) == 1 or self.batch):
                    await self._write(items)
                else:
                    for text in items:
                        await self._write([text])
                if self._close is not None and not self._out:
                    await self.socket.close(self._close.code, self._close.reason)
                    return
        except Exception:  # the peer went away mid-send: the reader side cleans up
            self.closing = True

    async def _write(self, items: list[str]) -> None:
        """Send one frame of ``items`` from the writer: the direct way while the socket
        takes it, else the ASGI way (which waits for a slow peer)."""
        if not self._write_direct(items):
            await self.socket.send_text(_frame(items))

    def _write_direct(self, items: list[str]) -> bool:
        """Write one frame of ``items`` the direct way, if the socket offers it and takes
        it now; whether it did."""
        direct = self.direct
        if direct is None or not direct.ready():
            return False
        direct.write(_frame_bytes(items))
        return True


def _frame(items: list[str]) -> str:
    """One frame of queued messages (a JSON array of them when there are several), counted."""
    SendCounts.messages += len(items)
    SendCounts.frames += 1
    return items[0] if len(items) == 1 else "[" + ",".join(items) + "]"


_last_frame: tuple[list[str], bytes] = ([], b"")  # the latest frame built, and its messages


def _frame_bytes(items: list[str]) -> bytes:
    """The bytes of :func:`_frame`'s frame, for a direct write: made once for the
    connections of one audience, which flush one after another with the same messages."""
    global _last_frame
    SendCounts.direct += 1
    last, frame = _last_frame
    if items == last:
        SendCounts.messages += len(items)
        SendCounts.frames += 1
    else:
        frame = text_frame(_frame(items))
        _last_frame = (items, frame)
    return frame


class _Rest:
    """The rest of a send begun outside the writer (:meth:`Connection._send_now`) that had to
    wait: awaiting it awaits what it waits for, then runs it to its end, as if the writer had
    made the whole call."""

    def __init__(self, sending: Coroutine[Any, Any, None], waiting: Any) -> None:
        self.sending, self.waiting = sending, waiting

    def __await__(self) -> Generator[Any, Any, None]:
        sending, waiting = self.sending, self.waiting
        while True:
            try:
                answer = yield waiting
            except BaseException as exc:  # (a cancellation): it reaches the send
                step: Callable[[], Any] = functools.partial(sending.throw, exc)
            else:
                step = functools.partial(sending.send, answer)
            try:
                waiting = step()
            except StopIteration:
                return
