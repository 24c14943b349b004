"""The table service: one match, its seats, turns, timers, computer players and events.

A :class:`TableService` is the single authority over one table, for local play and network
play alike; only the transport differs. It takes :class:`~bigtwo.service.commands.Command`
objects, checks each one completely (the seat, its control, the client's action id, the
staleness of what the client saw, and then the engine's own rules), and either refuses it
with a :class:`Refused` that names the reason, changing nothing, or applies it and returns the
numbered :class:`~bigtwo.service.events.Event` objects it caused, each with its audience.

It has no clock, no I/O and no threads: whoever runs it passes ``now`` (any monotonic clock)
and asks :meth:`TableService.due` for the automatic command that is due (a computer's move, a
turn timeout, a computer taking over for a player who has been away, or handing back, the
next deal after the pause between deals), and :meth:`TableService.deadline` for when to ask
next. A runner that would rather not have a computer think on its own thread passes
``offload`` (which levels think elsewhere): for those, :meth:`TableService.think_request`
hands out what the computer needs to decide, and :meth:`TableService.think_command` turns its
choice into the command to apply. Events are built only from seat views and public actions,
never from the deal's hands, so nothing leaves a table that its audience may not see; the
cards a seat still held become public in ``deal_end`` once the deal is over.

``TableService(config)`` makes the table of the config's game, a :class:`BigTwoService` or,
under the revolution expansion (preset ``revolution``), a :class:`RevolutionService`, whose flow
overrides what differs: the same commands and checks, and more moves (``activate``,
``counter``, ``decline``, ``draw``, ``stop``), each action reaching each seat as the engine
lets that seat see it, its counter window asking every other seat at once (see
:mod:`.revolution_flow`). Its one ``game`` is the match it plays; no other part asks which.

:class:`TableService` is put together from one part per job, each in a module of its own over
the state they share (:mod:`.base`): seats and presence (:mod:`.seats`), clocks
(:mod:`.clocks`), computers and their thinking (:mod:`.thinking`), snapshots
(:mod:`.snapshot`), the commands only a local table has (:mod:`.local_commands`), and the flow
every game shares (:mod:`.flow`). This module keeps the table itself: its making and
rebuilding, its questions, its event log, and the command dispatch.

>>> from bigtwo.service.config import TableConfig, SeatConfig
>>> seats = (SeatConfig(), SeatConfig("computer"), SeatConfig("computer"), SeatConfig("computer"))
>>> table = TableService(TableConfig(seats=seats, seed=3, deals=1), "DEMO")
>>> _ = table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), now=0.0)
>>> [e.type for e in table.apply(Command(Op.READY, seat=0), now=0.0)][:4]
['ready', 'started', 'deal', 'hand']
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable
from typing import Any

from ..engine.cards import Mask
from ..engine.rules import BIGTWO, REVOLUTION
from ..match.match import SeatKind
from .base import (
    AVATARS,
    CHAT_KEPT,
    IDS_KEPT,
    MAX_ACTION_ID,
    MAX_CHAT,
    SETTINGS,
    SWITCHES,
    AlreadyApplied,
    Control,
    Faulted,
    Refused,
    Seat,
    SnapshotError,
    TableStatus,
    hash_token,
)
from .bigtwo_flow import BigTwoFlow
from .clocks import Clocks
from .commands import Command, Op
from .config import MAX_NAME, TableConfig, clean_text
from .events import Audience, Event, Group
from .flow import GameFlow
from .local_commands import LocalCommands
from .revolution_flow import RevolutionFlow
from .revolution_flow import _revolution_command as _revolution_command
from .seats import Seating
from .snapshot import SNAPSHOT_EVENTS, SNAPSHOT_FORMAT, Snapshots
from .snapshot import _SnapshotPickler as _SnapshotPickler
from .snapshot import _SnapshotUnpickler as _SnapshotUnpickler
from .thinking import Thinking, ThinkRequest

__all__ = [
    "AVATARS",
    "CHAT_KEPT",
    "IDS_KEPT",
    "MAX_ACTION_ID",
    "MAX_CHAT",
    "SETTINGS",
    "SNAPSHOT_EVENTS",
    "SNAPSHOT_FORMAT",
    "SWITCHES",
    "AlreadyApplied",
    "BigTwoService",
    "Control",
    "Faulted",
    "Refused",
    "RevolutionService",
    "Seat",
    "SnapshotError",
    "TableService",
    "TableStatus",
    "ThinkRequest",
    "hash_token",
]

log = logging.getLogger(__name__)


class TableService(Seating, Clocks, Thinking, Snapshots, LocalCommands, GameFlow):
    """One table. See the module docstring for the contract."""

    def __new__(cls, config: TableConfig, *args: Any, **kwargs: Any) -> TableService:
        """The table of ``config``'s game (its rules say which), with that game's flow."""
        ruleset = config.make_rules()
        table = object.__new__(_TABLES[ruleset.rules.game] if cls is TableService else cls)
        table.ruleset = ruleset  # made once: __init__ keeps it
        return table

    def __init__(
        self,
        config: TableConfig,
        code: str = "",
        *,
        now: float = 0.0,
        keep_events: int = 2000,
        resync_gap: int = 200,
        offload: Callable[[str], bool] | None = None,
        seat_grace: float | None = None,
    ) -> None:
        self.config = config
        self.room_config = config  # as the room was made (the host may change ``config``)
        # Before the match: seconds a taken seat may stay without a connection (never come,
        # or gone) before it is freed for someone else; None: kept however long.
        self.seat_grace = seat_grace
        # The seat of the host: the first player to sit down, then (when they go) the first
        # player left. The host may kick, give seats to computers and change the settings.
        self.host: int | None = None
        # Which computer levels think away from the caller's thread (None: every one here).
        self.offload = offload
        self.code = code
        self.rules = self.ruleset.rules  # (the rule set: see __new__)
        self.status = TableStatus.WAITING
        self.closed_reason = ""
        self.v = 0  # number of the newest event
        self.state_v = 0  # number of the newest event that changed what a player may do
        # Kept events, as parallel lists of plain values rather than objects: a server holds
        # thousands of tables, and strings cost the garbage collector nothing to scan.
        self._types: list[str] = []
        self._audiences: list[Audience] = []
        self._texts: list[str] = []
        self._base = 1  # v of the first kept event; older ones were dropped
        self._keep = keep_events
        self._new: list[Event] = []  # events of the command being applied
        # Seats' views of the deal as it stands, each made once (see GameFlow._view_now):
        # forgotten when a command starts and at every event that changes the state.
        self._views = {}
        self.resync_gap = resync_gap
        self.chat: deque[Event] = deque(maxlen=CHAT_KEPT)
        self.game = None  # the match once it starts: of the table's game (see .base)
        # The open counter window's answers (seat -> its counter or decline), applied as
        # the window comes to each seat in turn order, and the event that opened the window
        # (answers older than it are stale).
        self.answers: dict[int, Command] = {}
        self.window_v = 0
        self.turn_started = now  # when the turn (or the pause between deals) began
        self.between: int | None = None  # between deals: the number of the deal to come
        self.rematch = ""  # the code of the table opened for a new game, once there is one
        self.faulted = False  # a command failed part-way: rebuild from the log (see Faulted)
        # Local tables' settings (see _autopass .. _replay): chosen cards per deal and seat,
        # the computers' level from the next deal, the next game's rules, a deal played again.
        self.custom: dict[int, dict[int, Mask]] = {}
        self.next_level: str | None = None
        self.next_rules: dict[str, Any] | None = None
        self.replay = False
        self._switches: tuple[bool | None, bool | None] = (config.autopass, config.autopass_five)
        self.seats: list[Seat] = []
        for i, sc in enumerate(config.seats):
            seat = Seat(i, sc)
            if sc.kind == SeatKind.COMPUTER:
                seat.name = sc.name or f"Computer {i + 1}"
                seat.taken = seat.ready = True
                seat.control = Control.COMPUTER
            self.seats.append(seat)

    @classmethod
    def restore(
        cls,
        config: TableConfig,
        code: str,
        commands: list[Command],
        now: float,
        *,
        snapshot: bytes | None = None,
        **options: Any,
    ) -> TableService:
        """Rebuild a table from its stored log: the same commands give the same events with
        the same numbers, so clients that reconnect can ask for what they missed by number.
        With a ``snapshot`` (see :meth:`freeze`), the log is what came after it. Nobody is
        connected after a restore; away timers start now."""
        if snapshot is None:
            table = cls(config, code, now=now, **options)
        else:
            table = cls.thaw(snapshot, config, code, now=now, **options)
        for cmd in commands:
            table.apply(cmd, now)
        for seat in table.seats:
            if seat.human and seat.taken:
                seat.away_since = now
        return table

    # -- questions -----------------------------------------------------------------------------
    def info(self) -> dict[str, Any]:
        """The room as anyone may see it: no seed, no token, no card."""
        played = self.game
        cfg = self.config
        autopass, autopass_five = self.switches_now()
        return {
            "code": self.code,
            "title": cfg.title,
            "status": self.status,
            "closed": self.closed_reason,
            "preset": cfg.preset,
            "rules": self.ruleset.to_mapping(),
            "players": cfg.players,
            "deals": played.deals if played else (cfg.deals or self.ruleset.match.deals_per_game),
            "deal": played.deal_number if played else 0,
            "options": {
                "turn_seconds": cfg.turn_seconds,
                "away_seconds": cfg.away_seconds,
                "computer_delay": cfg.computer_delay,
                "takeover_level": cfg.takeover_level,
                "autopass": autopass,
                "autopass_five": autopass_five,
                "public": cfg.public,
                "spectators": cfg.spectators,
                "spectator_chat": cfg.spectator_chat,
                "seeded": cfg.seeded,
                "between_deals_seconds": cfg.between_deals_seconds,
                "assists": cfg.assists,
            },
            "seats": [s.public() for s in self.seats],
            "totals": list(played.totals) if played else [0] * cfg.players,
            "results": [
                {
                    "deal": r.number,
                    "winner": r.winner,
                    "points": list(r.points),
                    # Public once the deal is over: every seat's cards left, and the band
                    # (2: DOUBLE!, 3: TRIPLE!) each loser's count reached.
                    **self._left_json(r),
                    "multipliers": list(r.score.multipliers),
                }
                for r in (played.results if played else [])
            ],
            "next_deal": self._next_deal_json(),
            "rematch": self.rematch or None,
            "host": self.host,
            "next_rules": self.next_rules,
            "v": self.v,
        }

    def _next_deal_json(self) -> dict[str, Any] | None:
        """Between deals: the deal to come, the longest wait, and whose "next" it awaits."""
        if self.between is None:
            return None
        return {
            "deal": self.between,
            "seconds": self.config.between_deals_seconds,
            "waiting": [
                s.number
                for s in self.seats
                if s.human and s.control == Control.PLAYER and not s.said_next
            ],
        }

    def snapshot(self, seat: int | None, now: float | None = None) -> dict[str, Any]:
        """A full resync for one recipient (``seat`` None: a spectator), at event ``self.v``;
        with ``now``, it carries the running :meth:`clock` too."""
        out = {
            "type": "sync",
            "v": self.v,
            "seat": seat,
            "room": self.info(),
            "view": self._view_json(seat),
            "chat": [e.message() for e in self.chat if e.reaches(seat)],
        }
        if seat is not None:  # the players may invite spectators to a private room
            out["invite"] = self.config.invite or None
        if now is not None:
            out["clock"] = self.clock(now)
        return out

    def events_since(self, since: int, seat: int | None) -> list[Event] | None:
        """Events after ``since`` that reach ``seat``, or None when a resync is better (the
        gap is too large, or those events are no longer kept)."""
        if since == self.v:
            return []
        # Ahead of the table (another incarnation of it?) or behind what is kept: resync.
        if since > self.v or since < 0 or since < self._base - 1:
            return None
        start = since - self._base + 1
        out: list[Event] = []
        for i in range(start, len(self._texts)):
            event = Event(self._base + i, self._types[i], self._audiences[i], {}, self._texts[i])
            if event.reaches(seat):
                out.append(event)
                if len(out) > self.resync_gap:
                    return None
        return out

    # -- running ---------------------------------------------------------------------------------
    def submit(
        self, cmd: Command | None, now: float, limit: int = 400
    ) -> tuple[list[Command], list[Event]]:
        """Apply ``cmd`` (raising :class:`Refused` with nothing changed) and then every
        automatic command due now, at most ``limit`` of them. Returns the commands applied, to
        be stored in this order (``cmd`` only if it changed something), and their events. A
        command that fails part-way raises :class:`Faulted`, whose ``done`` lists the commands
        applied in full before it."""
        applied: list[Command] = []
        events: list[Event] = []
        if cmd is not None:
            caused = self.apply(cmd, now)
            # Every change a command makes is told in an event: one that caused none (a
            # second "ready", a second "next") changed nothing, and is not stored.
            if caused:
                events += caused
                applied.append(cmd)
        while len(applied) < limit:
            try:
                auto = self.due(now)
                if auto is None:
                    break
                events += self.apply(auto, now)
            except Faulted as exc:
                # Memory holds half a command: the caller rebuilds the table from its log and
                # may apply again what went through before it.
                exc.done = applied
                raise
            except Refused:  # a computer or timer move the engine refuses is a bug: stop here
                log.exception("table %s refused its own automatic command %s", self.code, auto)
                break
            except Exception as exc:  # working out what is due failed: nothing applied
                self.faulted = True
                log.exception("table %s failed working out what is due", self.code)
                fault = Faulted()
                fault.done = applied
                raise fault from exc
            applied.append(auto)
        return applied, events

    # -- commands ----------------------------------------------------------------------------
    def apply(self, cmd: Command, now: float) -> list[Event]:
        """Apply one command, or raise :class:`Refused` having changed nothing.

        Every check comes before the first change, so a refusal changes nothing. Anything
        else that goes wrong part-way (a bug, a fault) raises :class:`Faulted` instead: the
        command is not applied, and the table refuses everything until it is rebuilt from
        its stored log, which lacks that command, so memory and log never disagree."""
        if self.faulted:
            raise Faulted("This table is being rebuilt from its log after a failure: retry")
        handler = _HANDLERS.get(cmd.op)
        if handler is None:
            raise Refused("bad_command", f"Unknown command {cmd.op!r}")
        self._new = []
        self._views.clear()
        try:
            getattr(self, handler)(cmd, now)
        except Refused as exc:
            if not self._new:
                raise
            # Refused after it had changed the table (it told of a change): a bug, not a
            # refusal; the table is no longer what its log says.
            self.faulted = True
            self._new = []
            log.error("table %s refused %s after changing the table", self.code, cmd.op)
            raise Faulted() from exc
        except Exception as exc:
            self.faulted = True
            self._new = []
            log.exception("table %s failed part-way through %s", self.code, cmd.op)
            raise Faulted() from exc
        return self._new

    def _rematch(self, cmd: Command, now: float) -> None:
        """The match is over and a table for a new game was opened (its code in ``text``)."""
        if self.status != TableStatus.FINISHED or self.game is None:
            raise Refused("not_over", "A new game can be opened once the match is over")
        if self.rematch:
            raise Refused("bad_command", f"A new game was opened already: table {self.rematch}")
        if not cmd.text:
            raise Refused("bad_command", "A new game needs the code of its table")
        self.rematch = cmd.text
        self._emit("rematch", Group.ALL, {"code": cmd.text, "by": cmd.seat})

    def _busy(self, cmd: Command, now: float) -> None:
        """The server is busy: the computers play at level ``text`` instead of their own
        (``name``) for now; or (``text`` == ``name``) at their own level again."""
        if not cmd.text or not cmd.name:
            raise Refused("bad_command", "Say which level the computers play, and their own")
        busy = cmd.text != cmd.name
        if busy:
            message = f"The server is busy: {cmd.name} computers play at the {cmd.text} level"
        else:
            message = f"The computers play at their own level ({cmd.name}) again"
        self._emit(
            "busy",
            Group.ALL,
            {"busy": busy, "level": cmd.text, "usual": cmd.name, "message": message},
        )

    def _finished(self) -> None:
        """The match is over: computers will not be asked again, so let them go."""
        for seat in self.seats:
            seat.computer = None

    def _chat(self, cmd: Command, now: float) -> None:
        text = clean_text(cmd.text, MAX_CHAT)
        if not text:
            raise Refused("bad_command", "Say something: the chat line is empty")
        if cmd.seat is None:
            name = clean_text(cmd.name, MAX_NAME) or "Spectator"
            self._emit("chat", Group.SPECTATORS, {"seat": None, "name": name, "text": text})
        else:
            seat = self._seat(cmd.seat)
            if not (seat.human and seat.taken):
                raise Refused(
                    "no_seat", f"Nobody sits at seat {seat.number}", {"seat": seat.number}
                )
            self._emit("chat", Group.ALL, {"seat": seat.number, "name": seat.name, "text": text})
        self.chat.append(self._new[-1])

    # -- events ----------------------------------------------------------------------------------
    def _emit(self, kind: str, to: Audience, data: dict[str, Any], *, state: bool = False) -> None:
        self.v += 1
        event = Event(self.v, kind, to, data)
        self._new.append(event)
        self._types.append(kind)
        self._audiences.append(to)
        self._texts.append(event.json())
        if state:
            self.state_v = self.v
            self._views.clear()
        if len(self._texts) > 2 * self._keep:
            drop = len(self._texts) - self._keep
            del self._types[:drop], self._audiences[:drop], self._texts[:drop]
            self._base += drop


class BigTwoService(BigTwoFlow, TableService):
    """A table of the 52-card game."""


class RevolutionService(RevolutionFlow, TableService):
    """A table of Big 2 RevolutioN: a turn of phases, counter windows, draws."""


_TABLES: dict[str, type[TableService]] = {BIGTWO: BigTwoService, REVOLUTION: RevolutionService}

# Each command is applied by the table's method of its name (its game's flow may override it):
# a move of either game by ``_act``, and ``level`` by ``_level_command``.
_MOVES = {Op.ACT, Op.ACTIVATE, Op.COUNTER, Op.DECLINE, Op.DRAW, Op.STOP}
_HANDLERS = {op: "_act" if op in _MOVES else f"_{op.value}" for op in Op}
_HANDLERS[Op.LEVEL] = "_level_command"
