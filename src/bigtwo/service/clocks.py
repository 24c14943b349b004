"""Clocks: what is due, and when. The automatic command due now (a computer's move, a turn
whose time ran out, a seat taken over or handed back, a seat nobody came to freed again, the
next deal after the pause between deals), when to ask next, and the deadlines shown to players
(a turn's timer, the pause between deals, a counter window's clock). It reads no clock of its
own (its caller passes ``now``) and changes nothing: what it finds due is applied as a
command like any other.
"""

from __future__ import annotations

from typing import Any

from .base import Control, Seat, TableState, TableStatus
from .commands import Command, Op

# A player whose connection is gone has a computer take over their seat once the table has
# waited this long for them (their turn, or a counter window asking them), not the whole away
# time: the others do not wait out a turn timer for someone who has left. The seat stays theirs.
GONE_GRACE = 5.0

# A trick just won stays on the table this many computer pauses before a computer leads the
# next, so people can read its last plays (an automatic pass's among them).
TRICK_HOLD = 3


# A clock's deadlines: the turn timer's (seat, time), the wait between deals' (deal, time), the
# counter window's (time); each None when it does not run.
ClockDeadlines = tuple[tuple[int, float] | None, tuple[int, float] | None, float | None]


class Clocks(TableState):
    """What is due when, and the deadlines players see."""

    def clock_deadlines(self) -> ClockDeadlines:
        """The deadlines a clock shows (:meth:`clock`): the turn timer's, the wait between
        deals', the counter window's. While they stay the same, so does the clock."""
        return self.turn_deadline(), self.pause_deadline(), self.counter_deadline()

    def clock(self, now: float, deadlines: ClockDeadlines | None = None) -> dict[str, Any] | None:
        """The running clock, for people: a player's turn timer (``seat``, ``ms`` left), or
        between deals the wait for the next one (``seat`` None, ``ms``, ``next_deal``), from
        the :meth:`clock_deadlines` (given when already worked out)."""
        turn, pause, window = deadlines or self.clock_deadlines()
        if window is not None:
            return {"seat": None, "ms": max(0, round((window - now) * 1000)), "counter": True}
        if turn is not None:
            seat, at = turn
            return {"seat": seat, "ms": max(0, round((at - now) * 1000))}
        if pause is not None:
            deal, at = pause
            return {"seat": None, "ms": max(0, round((at - now) * 1000)), "next_deal": deal}
        return None

    def due(self, now: float) -> Command | None:
        """The automatic command due at ``now``, if any. A computer move of a level that
        thinks elsewhere (``offload``) is never due here: see :meth:`think_request`."""
        if self.status == TableStatus.WAITING:
            return self._unclaimed(now)
        if self.status != TableStatus.PLAYING:
            return None
        for s in self.seats:
            if s.connected:  # a player here: a computer playing for them hands the seat back
                if s.control == Control.COMPUTER and s.human:
                    return Command(Op.HANDBACK, seat=s.number)
            elif s.human:
                at = self._takeover_at(s)
                if at is not None and now >= at:
                    return Command(Op.TAKEOVER, seat=s.number)
        if not self.player_connected():
            return None
        if self.between is not None:
            pause = self.pause_deadline()
            if self._everyone_said_next() or (pause is not None and now >= pause[1]):
                return Command(Op.DEAL)
            return None
        return self._game_due(now)

    def _game_due(self, now: float) -> Command | None:
        """In a deal in play: the computer's move, or the move of a player out of time."""
        number = self._to_act()
        if number is None:
            return None
        seat = self.seats[number]
        if seat.control != Control.PLAYER:
            if now >= self.computer_due() and not self._offloaded(seat):
                return self._computer_command(seat)
        elif (
            self.config.turn_seconds is not None
            and now >= self.turn_started + self.config.turn_seconds
        ):
            return self._timer_command(seat)
        return None

    def deadline(self) -> float | None:
        """When :meth:`due` may next have something (None: only after a new command)."""
        if self.status == TableStatus.WAITING:
            grace = self.seat_grace
            absent = [s.away_since for s in self._absent() if s.away_since is not None]
            return min(absent) + grace if absent and grace is not None else None
        if self.status != TableStatus.PLAYING or self.game is None:
            return None
        # (nobody takes over a seat that someone is connected to)
        times = [
            at for s in self.seats if not s.connected and (at := self._takeover_at(s)) is not None
        ]
        if self.player_connected():
            pause = self.pause_deadline()
            if pause is not None:
                times.append(pause[1])
            elif self.between is None:
                times += self._game_times()
        return min(times) if times else None

    def _game_times(self) -> list[float]:
        """When :meth:`_game_due` may next have something."""
        number = self._to_act()
        if number is None:
            return []
        seat = self.seats[number]
        if seat.control != Control.PLAYER:
            return [] if self._offloaded(seat) else [self.computer_due()]
        if self.config.turn_seconds is not None:
            return [self.turn_started + self.config.turn_seconds]
        return []

    def _takeover_at(self, s: Seat) -> float | None:
        """When a computer takes over the seat of a player whose connection is gone: the
        away time after they went, or sooner, :data:`GONE_GRACE` after the table began to
        wait for them (None: they are here, or the table never takes over)."""
        away = self.config.away_seconds
        if (
            s.connected
            or s.away_since is None
            or away is None
            or s.control != Control.PLAYER
            or not s.human
        ):
            return None
        at = s.away_since + away
        if s.number in self.awaited():
            at = min(at, max(s.away_since, self.turn_started) + GONE_GRACE)
        return at

    def computer_due(self) -> float:
        """When the computer whose turn it is may act: the table's pace after its turn
        began, or :data:`TRICK_HOLD` paces when it leads after a trick just won."""
        delay = self.config.computer_delay
        game = self.game
        if game is not None and not game.deal.over:
            actions = game.deal.actions
            if actions and actions[-1].trick_over:
                delay *= TRICK_HOLD
        return self.turn_started + delay

    def _absent(self) -> list[Seat]:
        """Before the match: taken seats with nobody connected to them."""
        return [
            s
            for s in self.seats
            if s.human and s.taken and not s.connected and s.away_since is not None
        ]

    def _unclaimed(self, now: float) -> Command | None:
        """Before the match: free a seat whose player never came (or went) long enough ago."""
        grace = self.seat_grace
        if grace is None:
            return None
        for s in self._absent():
            if s.away_since is not None and now - s.away_since >= grace:
                reason = "away" if s.ever_connected else "never connected"
                return Command(Op.LEAVE, seat=s.number, text=reason)
        return None

    def turn_deadline(self) -> tuple[int, float] | None:
        """The seat to act and when its turn timer runs out, for clocks shown to players."""
        seat = self._to_act()
        if seat is None or self.config.turn_seconds is None:
            return None
        if self.seats[seat].control != Control.PLAYER:
            return None
        return seat, self.turn_started + self.config.turn_seconds

    def pause_deadline(self) -> tuple[int, float] | None:
        """Between deals: the deal to come and when it starts at the latest (None: no limit)."""
        seconds = self.config.between_deals_seconds
        if self.status != TableStatus.PLAYING or self.between is None or seconds is None:
            return None
        return self.between, self.turn_started + seconds

    def counter_deadline(self) -> float | None:
        """When the open counter window's clock runs out (None: none open; the expansion's)."""
        return None

    def _everyone_said_next(self) -> bool:
        """Every player at the table (connected, in control of their seat) asked for the next
        deal. Presence is not stored, so this only ever leads to a stored ``deal`` command."""
        here = [s for s in self.seats if s.human and s.control == Control.PLAYER and s.connected]
        return bool(here) and all(s.said_next for s in here)
