"""Handing a table's WebSocket to the process on this machine that runs the table.

``bigtwo serve --workers N`` runs N processes on one port, each a node of a cluster
(:mod:`bigtwo.server.cluster`): the kernel gives each new connection to whichever process
accepts it first, which runs the table the connection is for only one time in N. Instead of
forwarding every message of such a connection through Redis to the table's process and back,
the process that accepted a table's WebSocket hands the socket itself to the process that
runs the table, before the handshake is answered: the socket's file descriptor and the
request's head go over a Unix datagram socket of that process (``SCM_RIGHTS``), which adopts
the socket into a uvicorn protocol of its own and reads the head as if the client had just
sent it; the first process then lets go of its copy. The client sees one handshake, from the
table's process, and nothing else changes.

Only processes under one supervisor (one directory of sockets, made by ``bigtwo serve`` and
readable by its user alone) hand sockets to each other; a node on another machine, a request
that is not a WebSocket, and a server without the direct path (:mod:`bigtwo.server.direct`)
still forward.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
from collections.abc import Callable, Mapping
from typing import Any

from .direct import DIRECT

log = logging.getLogger(__name__)

MAX_HEAD = 65536  # bytes of a request's head a hand-off carries (a longer one is forwarded)


def request_head(scope: Mapping[str, Any]) -> bytes:
    """The head of the HTTP request behind a WebSocket ``scope``, as the client sent it (but
    for the case of the header names, which HTTP does not heed)."""
    target = scope.get("raw_path") or scope["path"].encode()
    query = scope.get("query_string") or b""
    if query:
        target += b"?" + query
    version = scope.get("http_version", "1.1").encode()
    lines = [b"GET " + target + b" HTTP/" + version]
    lines += [name + b": " + value for name, value in scope["headers"]]
    return b"\r\n".join(lines) + b"\r\n\r\n"


class Handoffs:
    """This process's end of the hand-offs: the socket it adopts connections on, and the
    hand-off of a connection to another process of the same supervisor.

    ``protocol``: makes the uvicorn protocol an adopted connection starts in (set by the
    worker process once its uvicorn configuration is known; until then nothing is adopted
    and nothing is handed here)."""

    def __init__(self, directory: str, node: str) -> None:
        self.directory = directory
        self.node = node
        self.protocol: Callable[[], asyncio.Protocol] | None = None
        self.handed = 0  # connections handed to another process
        self.adopted = 0  # connections adopted from another process
        self._socket: socket.socket | None = None
        self._opening: set[asyncio.Task[None]] = set()

    def _path(self, node: str) -> str:
        return os.path.join(self.directory, f"{node}.sock")

    def start(self) -> None:
        """Take connections handed to this process (on the event loop)."""
        if self.protocol is None:
            return
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.bind(self._path(self.node))
        sock.setblocking(False)
        self._socket = sock
        asyncio.get_running_loop().add_reader(sock.fileno(), self._receive)

    def stop(self) -> None:
        sock, self._socket = self._socket, None
        if sock is None:
            return
        asyncio.get_running_loop().remove_reader(sock.fileno())
        sock.close()
        with contextlib.suppress(OSError):
            os.unlink(self._path(self.node))

    def hand(self, node: str, scope: Mapping[str, Any]) -> bool:
        """Hand the WebSocket of ``scope`` (not yet answered) to the process of ``node``, if
        it is one of this supervisor's; whether it was handed (then this process must only
        wait for its copy to be closed)."""
        direct = scope.get("extensions", {}).get(DIRECT)
        if self._socket is None or direct is None:
            return False
        path = self._path(node)
        sock = direct.raw_socket()
        if sock is None or not os.path.exists(path):
            return False
        head = request_head(scope)
        if len(head) > MAX_HEAD:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as out:
                out.settimeout(1.0)
                out.connect(path)
                socket.send_fds(out, [head], [sock.fileno()])
        except OSError:  # the other process is gone or stopping: forward instead
            return False
        direct.let_go()
        self.handed += 1
        return True

    def _receive(self) -> None:
        assert self._socket is not None
        while True:
            try:
                head, fds, _, _ = socket.recv_fds(self._socket, MAX_HEAD, 1)
            except (BlockingIOError, InterruptedError):
                return
            except OSError:
                log.exception("a hand-off could not be read")
                return
            if fds:
                task = asyncio.get_running_loop().create_task(self._adopt(fds[0], head))
                self._opening.add(task)
                task.add_done_callback(self._opening.discard)

    async def _adopt(self, fd: int, head: bytes) -> None:
        assert self.protocol is not None
        sock = socket.socket(fileno=fd)
        sock.setblocking(False)
        try:
            loop = asyncio.get_running_loop()
            _, protocol = await loop.connect_accepted_socket(self.protocol, sock)
        except OSError:
            sock.close()
            return
        self.adopted += 1
        protocol.data_received(head)
