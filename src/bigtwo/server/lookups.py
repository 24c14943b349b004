"""Looking tables up by code: the limit on codes that name no table, and which rooms a
client's seats are still at (what ``POST /api/my-rooms`` answers).

Every code asked for that names no table counts against the asking address (a private room's
code is its invitation: it must not be found by guessing); :func:`may_look_up` refuses an
address that asked for too many of late, before it learns anything of any code.

A client (the browser, the terminal) keeps each seat it was given as its room's code and the
seat's token. Asked about them, :func:`held_seats` finds the rooms where a token still holds
its seat and the match is not over, and the seats that hold nothing now (the room is over or
gone, or the seat was given up), which the client may forget. Only a token proves a seat: a
seat whose token is wrong is answered as holding nothing, exactly as one at a room that does
not exist, so the answer tells nobody of anyone else's rooms. Codes that name no table count
against the address's allowance of unknown codes, as every lookup's do; once it is spent the
seats not yet looked up are left out of both lists (asked again later, they are looked up). A
table another node of a cluster runs is left out the same way. This module decides nothing
about the game, and sends nothing to a table.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..service.table import Refused, TableStatus
from .limits import KeyedLimiter

if TYPE_CHECKING:
    from .hub import Hub
    from .runner import TableRunner

PLAYED = (TableStatus.WAITING, TableStatus.PLAYING)  # a room still being played


def may_look_up(misses: KeyedLimiter | None, address: str) -> KeyedLimiter | None:
    """``misses`` (the limiter of codes that name no table; None: no limit), once it is sure
    ``address`` may ask for a code now, else :class:`Refused` (``rate_limited``)."""
    wait = misses.ready(address) if misses is not None else 0.0
    if wait > 0:
        seconds = max(1, math.ceil(wait))
        raise Refused(
            "rate_limited",
            f"Too many codes of tables that do not exist asked for from your address: "
            f"try again in {seconds} s",
            {"seconds": seconds, "reason": "unknown_codes"},
        )
    return misses


def held_seats(
    hub: Hub,
    seats: Iterable[tuple[str, str]],
    misses: KeyedLimiter | None,
    address: str,
) -> tuple[list[tuple[TableRunner, int]], list[str]]:
    """Of ``seats`` (code, token), the rooms still played where the token holds its seat (the
    table and the seat), and the codes whose seat holds nothing now."""
    held: list[tuple[TableRunner, int]] = []
    gone: list[str] = []
    for given, token in seats:
        code = given.strip().upper()
        if misses is not None and misses.ready(address) > 0:
            break  # the rest are looked up when asked again
        cluster = hub.cluster
        if cluster is not None and code not in hub.tables:
            owner = cluster.owner(code)
            if owner is not None and owner != cluster.node:
                continue  # another node runs it: not known here
        runner = hub.get(code)
        if runner is None:
            if misses is not None:
                misses.wait(address)
            gone.append(given)
            continue
        seat = runner.service.seat_of_token(token)
        if seat is None or runner.service.status not in PLAYED:
            gone.append(given)
        else:
            held.append((runner, seat))
    return held, gone
