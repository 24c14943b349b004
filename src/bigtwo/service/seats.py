"""Seats and presence: who sits where, who is at the table, and who controls each seat.
Joining, leaving and getting ready before the match; connections (presence, never stored: a
restart starts everyone away); a computer taking over for a player who is away, and handing
the seat back; quitting; and the host's commands (kicking a player, giving a seat to a
computer, changing the table's settings, closing the room). It plays no part of the game itself: the match
starts, and a turn is told, by each game's flow.
"""

from __future__ import annotations

import dataclasses
import hmac

from ..match.match import SeatKind
from .base import (
    AVATARS,
    SETTINGS,
    SWITCHES,
    Control,
    Refused,
    Seat,
    TableState,
    TableStatus,
    hash_token,
)
from .commands import Command, Op
from .config import MAX_NAME, SeatConfig, clean_text
from .events import Group


class Seating(TableState):
    """Seats, presence, control of a seat, and the host's commands."""

    # -- questions -----------------------------------------------------------------------------
    def seat_of_token(self, token: str) -> int | None:
        digest = hash_token(token)
        for seat in self.seats:
            if seat.token and hmac.compare_digest(seat.token, digest):
                return seat.number
        return None

    def free_seats(self) -> list[int]:
        return [s.number for s in self.seats if s.human and not s.taken]

    def player_connected(self) -> bool:
        """Whether any player is at the table; computers wait while nobody is (a table of
        computers only, which only a local table makes, plays for whoever watches)."""
        people = False
        for s in self.seats:
            if s.human:
                if s.connected and s.control == Control.PLAYER:
                    return True
                people = True
        return not people

    # -- presence (not stored: a restart starts everyone away) ---------------------------------
    def connect(self, seat: int, now: float) -> None:
        s = self.seats[seat]
        s.connected += 1
        s.ever_connected = True
        s.away_since = None

    def disconnect(self, seat: int, now: float) -> None:
        s = self.seats[seat]
        s.connected = max(0, s.connected - 1)
        if not s.connected:
            s.away_since = now

    # -- joining, leaving, taking over, quitting ----------------------------------------------
    def _seat(self, number: int | None) -> Seat:
        if number is None or not 0 <= number < len(self.seats):
            raise Refused(
                "no_seat", f"There is no seat {number}", {"seat": -1 if number is None else number}
            )
        return self.seats[number]

    def _join(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.WAITING:
            raise Refused("started", "The match has already started: no seat is free")
        if not seat.human:
            raise Refused(
                "seat_taken", f"Seat {seat.number} is for a computer player", {"seat": seat.number}
            )
        if seat.taken:
            raise Refused("seat_taken", f"Seat {seat.number} is taken", {"seat": seat.number})
        if not cmd.token:
            raise Refused("bad_command", "A seat needs a token")
        if cmd.avatar is not None and (
            not isinstance(cmd.avatar, int)
            or isinstance(cmd.avatar, bool)
            or not 0 <= cmd.avatar < AVATARS
        ):
            raise Refused("bad_command", f"An avatar is a number from 0 to {AVATARS - 1}")
        seat.name = self._told_apart(seat, clean_text(cmd.name, MAX_NAME))
        seat.taken, seat.token, seat.ready, seat.control = True, cmd.token, False, Control.PLAYER
        seat.avatar = cmd.avatar
        seat.away_since = now
        self._emit(
            "joined", Group.ALL, {"seat": seat.number, "name": seat.name, "avatar": seat.avatar}
        )
        if self.host is None:  # the first to sit down hosts: clients know it from "joined"
            self.host = seat.number

    def _told_apart(self, seat: Seat, name: str) -> str:
        """The name a player sits down with, told apart from everyone already at the table: a
        second "Ann" (a person, or a computer of that name) sits as "Ann (2)"."""
        name = name or f"Player {seat.number + 1}"
        others = {s.name.casefold() for s in self.seats if s.taken and s is not seat}
        number = 1
        shown = name
        while shown.casefold() in others:
            number += 1
            suffix = f" ({number})"
            shown = name[: MAX_NAME - len(suffix)].rstrip() + suffix
        return shown

    def _leave(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.WAITING:
            raise Refused("started", "The match has started: quit instead of leaving")
        if not (seat.human and seat.taken):
            raise Refused("no_seat", f"Nobody sits at seat {seat.number}", {"seat": seat.number})
        self._free(seat, cmd.text or "left")

    def _free(self, seat: Seat, reason: str) -> None:
        """Before the match: the seat is free again (its player left, never came, or was
        kicked); a host who goes hands the table to the first player left."""
        seat.taken, seat.token, seat.ready, seat.name, seat.avatar = False, "", False, "", None
        seat.ever_connected = False
        self._emit("left", Group.ALL, {"seat": seat.number, "reason": reason})
        if self.host == seat.number:
            self._set_host(self._next_host())

    def _next_host(self) -> int | None:
        for s in self.seats:
            if s.human and s.taken and s.control == Control.PLAYER:
                return s.number
        return None

    def _set_host(self, seat: int | None) -> None:
        if seat != self.host:
            self.host = seat
            self._emit("host", Group.ALL, {"seat": seat})

    def _ready(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.WAITING:
            raise Refused("started", "The match has already started")
        if not (seat.human and seat.taken):
            raise Refused("no_seat", f"Nobody sits at seat {seat.number}", {"seat": seat.number})
        if seat.ready == cmd.ready:
            return  # said again: nothing new to tell anyone, nothing to store
        seat.ready = cmd.ready
        self._emit("ready", Group.ALL, {"seat": seat.number, "ready": seat.ready})
        if all(s.taken and s.ready for s in self.seats):
            self._start(now)

    def _takeover(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.PLAYING or not seat.human or seat.control != Control.PLAYER:
            raise Refused("bad_command", f"Seat {seat.number} cannot be taken over now")
        seat.control = Control.COMPUTER
        self._emit(
            "control",
            Group.ALL,
            {"seat": seat.number, "control": Control.COMPUTER, "reason": "away"},
        )

    def _handback(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if not seat.human or seat.control != Control.COMPUTER:
            raise Refused("bad_command", f"Seat {seat.number} has no computer to hand back")
        seat.control = Control.PLAYER
        seat.computer = None
        self._emit(
            "control",
            Group.ALL,
            {"seat": seat.number, "control": Control.PLAYER, "reason": "returned"},
        )
        if self._to_act() == seat.number:
            self._prompt(now)  # a fresh turn (and timer) for the returning player

    def _quit(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if not (seat.human and seat.taken) or seat.control == Control.QUIT:
            raise Refused("no_seat", f"Nobody sits at seat {seat.number}", {"seat": seat.number})
        if self.status == TableStatus.WAITING:
            self._leave(cmd, now)
            return
        if self.status == TableStatus.FINISHED:
            raise Refused("finished", "The match is over")
        self._drop(seat, "quit")

    def _drop(self, seat: Seat, reason: str) -> None:
        """During the match: the seat's player is gone for good (quit, kicked, or given to a
        computer by the host); a computer plays the rest of the match for them."""
        seat.control = Control.QUIT
        seat.token = ""
        self._emit("quit", Group.ALL, {"seat": seat.number, "reason": reason})
        if self.host == seat.number:
            self._set_host(self._next_host())
        if not any(s.human and s.control != Control.QUIT for s in self.seats):
            self.status = TableStatus.FINISHED
            self.closed_reason = "every player quit"
            self.between = None
            self._finished()
            self._emit("closed", Group.ALL, {"reason": self.closed_reason}, state=True)

    # -- the host's commands -------------------------------------------------------------------
    def _host_check(self, cmd: Command, what: str) -> Seat:
        """The seat the command is about, once it is sure the host sent it."""
        if self.status == TableStatus.FINISHED:
            raise Refused("finished", "The match is over")
        if cmd.seat is None or cmd.seat != self.host:
            host = (
                "nobody"
                if self.host is None
                else f"{self.seats[self.host].name} (seat {self.host})"
            )
            raise Refused("not_host", f"Only the host can {what}; the host is {host}")
        if cmd.op in (Op.SETTINGS, Op.CLOSE):
            return self.seats[cmd.seat]
        target = self._seat(cmd.target)
        if target.number == cmd.seat:
            raise Refused("bad_command", "That is your own seat: leave or quit instead")
        return target

    def _kick(self, cmd: Command, now: float) -> None:
        seat = self._host_check(cmd, "kick a player")
        if not (seat.human and seat.taken) or seat.control == Control.QUIT:
            raise Refused("no_seat", f"Nobody sits at seat {seat.number}", {"seat": seat.number})
        if self.status == TableStatus.WAITING:
            self._free(seat, "kicked")
        else:
            self._drop(seat, "kicked")

    def _computer(self, cmd: Command, now: float) -> None:
        seat = self._host_check(cmd, "give a seat to a computer")
        level = cmd.text or self.config.takeover_level
        levels = self._levels()
        if level not in levels:
            raise Refused("bad_command", f"Unknown computer level {level!r} ({', '.join(levels)})")
        if self.status == TableStatus.PLAYING:
            if not seat.human or seat.control == Control.QUIT:
                raise Refused("bad_command", f"A computer plays seat {seat.number} already")
            self._drop(seat, "computer")
            return
        if not seat.human:
            raise Refused("bad_command", f"A computer plays seat {seat.number} already")
        if seat.taken:
            self._free(seat, "computer")
        seat.config = SeatConfig(SeatKind.COMPUTER, level)
        seat.computer = None  # made afresh, at the level just chosen
        seat.name = f"Computer {seat.number + 1}"
        seat.taken = seat.ready = True
        seat.control = Control.COMPUTER
        # The table's configuration says so too, so that a rematch keeps the computer.
        self.config = dataclasses.replace(self.config, seats=tuple(s.config for s in self.seats))
        self._emit(
            "joined",
            Group.ALL,
            {"seat": seat.number, "name": seat.name, "avatar": None, "kind": "computer",
             "level": level},
        )  # fmt: skip
        if all(s.taken and s.ready for s in self.seats):
            self._start(now)

    def _close(self, cmd: Command, now: float) -> None:
        """The host closes the room: it ends for everyone now, the match where it stands
        (what was played is kept, as at any finished table)."""
        self._host_check(cmd, "close the room")
        self.status = TableStatus.FINISHED
        self.closed_reason = "host closed the room"
        self.between = None
        self._finished()
        self._emit("closed", Group.ALL, {"reason": self.closed_reason}, state=True)

    def _settings(self, cmd: Command, now: float) -> None:
        self._host_check(cmd, "change the table's settings")
        options = dict(cmd.value or {})
        unknown = set(options) - set(SETTINGS)
        if unknown:
            known = ", ".join(SETTINGS)
            raise Refused("bad_command", f"Unknown setting {sorted(unknown)[0]!r} (known: {known})")
        for key, value in options.items():
            low, high = SETTINGS[key]
            if key in SWITCHES:
                ok = isinstance(value, bool)
            else:
                ok = value is None or (
                    isinstance(value, int | float) and not isinstance(value, bool)
                    and low <= value <= high
                )  # fmt: skip
            if not ok:
                said = (
                    "true or false" if key in SWITCHES else f"{low:g} to {high:g} seconds, or null"
                )
                raise Refused("bad_command", f"The setting {key!r} must be {said}")
        timer_changed = (
            options.get("turn_seconds", self.config.turn_seconds) != self.config.turn_seconds
        )
        self.config = dataclasses.replace(self.config, **options)
        if timer_changed and self.status == TableStatus.PLAYING and self.between is None:
            self.turn_started = now  # the player to act gets the new timer in full
        cfg = self.config
        self._emit(
            "settings",
            Group.ALL,
            {"turn_seconds": cfg.turn_seconds, "away_seconds": cfg.away_seconds,
             "spectators": cfg.spectators, "spectator_chat": cfg.spectator_chat,
             "assists": cfg.assists, "by": cmd.seat},
        )  # fmt: skip
