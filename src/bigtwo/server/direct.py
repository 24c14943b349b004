"""uvicorn's ``websockets-sansio`` WebSocket stack, with a direct path between a socket and
its table.

:class:`DirectProtocol` is uvicorn's own protocol class (``bigtwo serve --ws direct``, the
default) with one ASGI extension in the scope of every WebSocket it accepts (:data:`DIRECT`):
a :class:`DirectSocket`, through which

- :meth:`~DirectSocket.write` puts a frame built once (:func:`text_frame`) on the socket, so
  that the same bytes go to every connection of an audience, without passing each copy
  through Starlette's, uvicorn's and websockets' ``send``;
- :meth:`~DirectSocket.listen` hands each message to a callback as soon as it is parsed,
  instead of queueing it for the application's task to wake up and read.

The handshake, the size limit, pings, flow control and closing stay uvicorn's and websockets'
own: a write is taken only while the socket is open and the peer keeps up (else the caller
sends the ASGI way, which waits). A server without the extension (Granian, another of
uvicorn's stacks, Starlette's test client) runs the application the ASGI way throughout.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import State

log = logging.getLogger(__name__)

DIRECT = "bigtwo.direct"  # the scope's extension: a DirectSocket


def text_frame(text: str) -> bytes:
    """The bytes of a server's (unmasked, uncompressed) text frame holding ``text``."""
    return Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


class DirectSocket:
    """One WebSocket's direct path (see the module docstring)."""

    __slots__ = ("_protocol",)

    def __init__(self, protocol: DirectProtocol) -> None:
        self._protocol = protocol

    def ready(self) -> bool:
        """Whether :meth:`write` may be called now: the socket is open, the application has
        not closed it, and the peer reads what it is sent (no flow control holds writes)."""
        p = self._protocol
        return (
            p.writable.is_set()
            and not p.close_sent
            and not p.disconnected
            and p.conn.state is State.OPEN
            and not p.transport.is_closing()
        )

    def write(self, frame: bytes) -> None:
        """Send a frame made by :func:`text_frame` (only when :meth:`ready`)."""
        self._protocol.transport.write(frame)

    def raw_socket(self) -> Any:
        """The connection's socket (for :mod:`bigtwo.server.handoff`), or None."""
        return self._protocol.transport.get_extra_info("socket")

    def let_go(self) -> None:
        """Close this process's copy of a socket handed to another process, writing
        nothing: the other process answers the client."""
        self._protocol.transport.abort()

    def listen(self, listener: Callable[[str | bytes], None]) -> None:
        """Hand every message from now on to ``listener`` (a text as ``str``, a binary
        message as ``bytes``), those already waiting for the application first; the
        application's ``receive`` then hears only the disconnect."""
        p = self._protocol
        waiting = []
        while not p.queue.empty():
            waiting.append(p.queue.get_nowait())
        p.listener = listener
        for message in waiting:
            if message["type"] == "websocket.receive":
                text = message.get("text")
                listener(text if text is not None else message.get("bytes") or b"")
            else:
                p.queue.put_nowait(message)
        if p.read_paused:
            p.read_paused = False
            p.transport.resume_reading()


class DirectProtocol(WebSocketsSansIOProtocol):
    """uvicorn's ``websockets-sansio`` protocol that offers each socket a
    :class:`DirectSocket` (the scope's :data:`DIRECT` extension)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.listener: Callable[[str | bytes], None] | None = None

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the handshake was refused
        if scope is not None:
            scope["extensions"][DIRECT] = DirectSocket(self)

    def send_receive_event_to_app(self) -> None:
        listener = self.listener
        if listener is None or self.close_sent:
            super().send_receive_event_to_app()
            return
        data = self.frames[0] if len(self.frames) == 1 else b"".join(self.frames)
        message: str | bytes = data
        if self.curr_msg_data_type == "text":
            try:
                message = data.decode()
            except UnicodeDecodeError:  # uvicorn's own way: close with 1007
                super().send_receive_event_to_app()
                return
        self.frames = []
        try:
            listener(message)
        except Exception:  # a bug must cost this message, not the connection
            log.exception("a table socket's listener failed")
