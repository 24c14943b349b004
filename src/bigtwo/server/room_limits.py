"""How many rooms one address may make, and how fast: a token bucket per address, kept for a
bounded number of addresses (the one least recently heard from is forgotten first, never
everyone at once), and the count of open rooms each address has made; and how many seats one
address may hold without connecting to them.

The hub asks :meth:`RoomLimits.check` before it creates a room and :meth:`SeatsWaiting.check`
before it seats a player; this module decides nothing else and knows no rule of the game.
"""

from __future__ import annotations

import math
import time

from ..service.table import Refused
from .limits import KeyedLimiter


class RoomLimits:
    """Rooms per address: made per minute (``per_minute``, with a ``burst``) and open at once
    (``open_rooms``; a room closed by its host, or over, no longer counts). Zero turns a limit
    off."""

    def __init__(self, per_minute: float, burst: int, open_rooms: int) -> None:
        self.open_rooms = open_rooms
        self.rate = KeyedLimiter(per_minute / 60.0, max(1, burst)) if per_minute > 0 else None

    def check(
        self,
        address: str,
        open_now: int,
        minutes: int | None = None,
        now: float | None = None,
    ) -> None:
        """Raise :class:`Refused` (``rate_limited``, ``too_many_rooms``) if ``address``, which
        has ``open_now`` open rooms, may not make one more now; else count this one.
        ``minutes``: how long until the first of them that nobody is at closes by itself
        (None: every one is in use)."""
        if self.open_rooms and open_now >= self.open_rooms:
            params: dict[str, str | int] = {"rooms": open_now}
            # A room's host closes it from the lobby's list of their rooms (or at the table).
            close = "close one (the lobby lists your rooms) or play one to its end"
            if minutes is None:
                advice = close
            else:
                params.update(minutes=minutes, reason="wait")
                unit = "minute" if minutes == 1 else "minutes"
                advice = (
                    f"{close}, or try again in {minutes} {unit} (an unstarted room nobody is "
                    "at closes by itself by then)"
                )
            raise Refused(
                "too_many_rooms",
                f"You have {open_now} open rooms, as many as one address may have: {advice}",
                params,
            )
        if self.rate is not None:
            wait = self.rate.wait(address, now)
            if wait > 0:
                seconds = max(1, math.ceil(wait))
                raise Refused(
                    "rate_limited",
                    f"Too many rooms made from your address: try again in {seconds} s",
                    {"seconds": seconds},
                )


class SeatsWaiting:
    """Seats taken over HTTP whose players have not connected yet, by the address that took
    them: at most ``limit`` at once (0: no limit). A seat counts until its player connects,
    or for ``grace`` seconds (by then the table has freed it)."""

    def __init__(self, limit: int, grace: float) -> None:
        self.limit, self.grace = limit, grace
        self._held: dict[str, dict[tuple[str, int], float]] = {}  # address -> seat -> since
        self._by: dict[tuple[str, int], str] = {}  # seat -> address

    def check(self, address: str, now: float | None = None) -> None:
        """Raise :class:`Refused` (``too_many_seats``) if ``address`` holds its fill."""
        if not self.limit:
            return
        now = time.monotonic() if now is None else now
        held = self._held.get(address, {})
        for key, since in list(held.items()):
            if since < now - self.grace:
                self._drop(key)
        held = self._held.get(address, {})
        if len(held) >= self.limit:
            raise Refused(
                "too_many_seats",
                f"You hold {len(held)} seats you have not sat down at yet: connect to them "
                f"first (a seat nobody connects to is freed after {self.grace:g} s)",
            )

    def hold(self, address: str, code: str, seat: int, now: float | None = None) -> None:
        if self.limit:
            key = (code, seat)
            self._drop(key)
            self._held.setdefault(address, {})[key] = time.monotonic() if now is None else now
            self._by[key] = address

    def connected(self, code: str, seat: int) -> None:
        """The seat's player is at the table: it no longer counts."""
        self._drop((code, seat))

    def forget_old(self, now: float) -> None:
        for key, address in list(self._by.items()):
            if self._held.get(address, {}).get(key, now) < now - self.grace:
                self._drop(key)

    def _drop(self, key: tuple[str, int]) -> None:
        address = self._by.pop(key, None)
        if address is not None:
            held = self._held.get(address)
            if held is not None:
                held.pop(key, None)
                if not held:
                    del self._held[address]
