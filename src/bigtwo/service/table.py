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

Under the revolution expansion (preset ``revolution``) the table plays a
:class:`~bigtwo.match.revolution.RevolutionMatch` (``revolution``; ``match`` stays None) with
the same commands and checks, and more moves (``activate``, ``counter``, ``decline``,
``draw``, ``stop``); each of its actions reaches each seat as the engine lets that seat see
it, and its counter window asks every other seat at once (see the section below).

>>> from bigtwo.service.config import TableConfig, SeatConfig
>>> seats = (SeatConfig(), SeatConfig("computer"), SeatConfig("computer"), SeatConfig("computer"))
>>> table = TableService(TableConfig(seats=seats, seed=3, deals=1), "DEMO")
>>> _ = table.apply(Command(Op.JOIN, seat=0, name="Ann", token=hash_token("t")), now=0.0)
>>> [e.type for e in table.apply(Command(Op.READY, seat=0), now=0.0)][:4]
['ready', 'started', 'deal', 'hand']
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import io
import logging
import pickle
import random
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from ..bots.base import Bot
from ..bots.revolution import RevolutionBot
from ..bots.seat import ComputerSeat, Decision
from ..engine.cards import CARDS, Mask, card_text, to_mask
from ..engine.deal import Deal
from ..engine.errors import BigTwoError, IllegalAction, NotYourCards, NotYourTurn
from ..engine.plays import Catalog, Kind, Play, catalog_for
from ..engine.revolution import (
    Move,
    Phase,
    RevolutionAction,
    RevolutionChoice,
    RevolutionView,
)
from ..engine.revolution_cards import NORMAL_CARDS, REVOLUTION_CARDS, card_symbol, ids
from ..engine.revolution_cards import text as revolution_text
from ..engine.rules import KIND_NAMES
from ..match.match import Applied, Match, SeatKind
from ..match.revolution import RevolutionMatch, RevolutionResult
from ..match.settings import RuleSet
from ..match.views import TableView
from .commands import By, Command, Op
from .config import MAX_NAME, SeatConfig, TableConfig, clean_text
from .events import (
    Audience,
    Event,
    Group,
    action_json,
    legal_json,
    public_state,
    revolution_action_json,
    revolution_choices_json,
    revolution_public_state,
    revolution_view_json,
    view_json,
)

log = logging.getLogger(__name__)


class TableStatus(StrEnum):
    """Where a table is in its life (its stored status too)."""

    WAITING = "waiting"  # seats filling, players getting ready
    PLAYING = "playing"
    FINISHED = "finished"  # the match is over, or everyone quit
    IDLE = "idle"  # stored only: an unstarted table the server unloaded for lack of players


class Control(StrEnum):
    """Who controls a seat during the match."""

    PLAYER = "player"
    COMPUTER = "computer"
    QUIT = "quit"  # the player quit; a computer plays the rest of the match


MAX_CHAT = 300
AVATARS = 8  # a player's picture is one of 0 .. AVATARS - 1
MAX_ACTION_ID = 64
CHAT_KEPT = 30  # chat lines a resync carries
IDS_KEPT = 512  # action ids remembered per seat for retries
# What the host may change at the table, with the bounds a room request has (seconds).
SETTINGS: dict[str, tuple[float, float]] = {
    "turn_seconds": (0.2, 3600.0),
    "away_seconds": (0.1, 86400.0),
    "spectators": (0.0, 0.0),
    "spectator_chat": (0.0, 0.0),
}
SWITCHES = frozenset({"spectators", "spectator_chat"})  # the settings that are on or off
SNAPSHOT_FORMAT = 1  # the layout of :meth:`TableService.freeze`; change it with the state's
SNAPSHOT_EVENTS = 256  # events a snapshot keeps for clients catching up (> the resync gap)


class Refused(BigTwoError):
    """A command the table will not apply; ``code`` is a short machine word, the message
    the reason in words and ``params`` its details (cards, numbers, a ``reason`` word that
    narrows the code), so that a client can word it in its player's language. A refused
    command changes nothing."""

    def __init__(
        self, code: str, message: str, params: Mapping[str, str | int] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, str | int] = dict(params or {})


class SnapshotError(BigTwoError):
    """A stored snapshot that cannot be read back as this table."""


class AlreadyApplied(Refused):
    """A retried action id: it was applied once, as event ``v``, and will not be again."""

    def __init__(self, action_id: str, v: int) -> None:
        super().__init__("duplicate", f"Action {action_id!r} was already applied")
        self.v = v


class Faulted(Refused):
    """A command failed part-way through, for a reason other than a refusal (a bug, a fault):
    the table's memory may hold half of it, so this table must be rebuilt from its stored
    log (:meth:`TableService.restore`) before it is used again; until then it refuses every
    command with this error. The command is not applied and must not be stored."""

    def __init__(self, message: str = "The table failed on that command: nothing was applied"):
        super().__init__("internal", message)
        # From :meth:`TableService.submit`: the commands it had applied in full before the one
        # that failed (the caller's own first), to apply again to the rebuilt table.
        self.done: list[Command] = []


def hash_token(token: str) -> str:
    """Tables keep only a digest of each seat token, so a stolen log seats nobody."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """What a computer needs to choose its move away from the table, in either game: its
    computer seat, its view (under the expansion, in a counter window that has not come to it
    yet, the question as it stands for this seat), the random generator it chooses with, and
    (for a bot that peeks, as the Palm players did) the deal. ``state_v`` and ``deal`` say
    which position it was for: an answer for a position the table has left is thrown away
    (see :meth:`TableService.think_command`)."""

    seat: int
    level: str
    computer: ComputerSeat
    view: TableView | RevolutionView
    rng: random.Random
    state_v: int
    deal: int
    peek: Deal | None

    @property
    def bot(self) -> Bot | RevolutionBot:
        return self.computer.bot


@dataclass(slots=True)
class Seat:
    number: int
    config: SeatConfig
    name: str = ""
    taken: bool = False
    token: str = ""  # digest of the seat token; "" when free
    ready: bool = False
    control: Control = Control.PLAYER
    connected: int = 0  # open connections (presence; not part of the stored state)
    ever_connected: bool = False  # presence too: whether the player has come to the table
    away_since: float | None = None
    computer: ComputerSeat | None = None  # made on the computer's first move
    avatar: int | None = None  # the picture the player chose, if any
    said_next: bool = False  # between deals: this player asked for the next deal
    # Action ids applied recently: id -> (first event number, the cards played (None: a
    # pass), the operation). Snapshots stored before revolution tables hold no operation
    # (they were all plays and passes).
    applied: OrderedDict[str, tuple[int, Mask | None, str]] = field(default_factory=OrderedDict)

    @property
    def human(self) -> bool:
        return self.config.kind == SeatKind.HUMAN

    def public(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.number,
            "name": self.name,
            "kind": self.config.kind,
            "taken": self.taken,
            "ready": self.ready,
            "control": self.control,
            "connected": self.connected > 0 or not self.human,
            "avatar": self.avatar,
        }
        if not self.human:
            out["level"] = self.config.level
        return out


class TableService:
    """One table. See the module docstring for the contract."""

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
        self.ruleset = config.make_rules()
        self.rules = self.ruleset.rules
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
        self.resync_gap = resync_gap
        self.chat: deque[Event] = deque(maxlen=CHAT_KEPT)
        self.match: Match | None = None
        # Under the revolution expansion the match is a RevolutionMatch instead (``match``
        # stays None): its turn has phases that a 52-card match has not.
        self.revolution: RevolutionMatch | None = None
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

    # -- snapshots -------------------------------------------------------------------------------
    def freeze(self) -> bytes:
        """The table's state as bytes, for :meth:`thaw` to rebuild the table exactly as
        replaying its log would: so a stored table is a snapshot and the few commands after
        it, not its whole history. It keeps the last :data:`SNAPSHOT_EVENTS` events (enough
        for a reconnecting client to catch up; one further behind resyncs) and, as a replay
        does, no presence and no computer's memory of the deal (a computer starts afresh).

        It is a pickle, read back only from the server's own database (whoever can write
        that can change every table anyway), tagged with :data:`SNAPSHOT_FORMAT`."""
        state = dict(self.__dict__)
        del state["offload"], state["resync_gap"], state["_keep"], state["seat_grace"]
        state["_new"] = []
        kept = len(self._texts)
        cut = max(0, kept - SNAPSHOT_EVENTS)
        state["_types"] = self._types[cut:]
        state["_audiences"] = self._audiences[cut:]
        state["_texts"] = self._texts[cut:]
        state["_base"] = self._base + cut
        state["seats"] = [
            dataclasses.replace(s, computer=None, connected=0, away_since=None) for s in self.seats
        ]
        out = io.BytesIO()
        _SnapshotPickler(out, protocol=pickle.HIGHEST_PROTOCOL).dump((SNAPSHOT_FORMAT, state))
        return zlib.compress(out.getvalue(), 1)

    @classmethod
    def thaw(
        cls,
        data: bytes,
        config: TableConfig,
        code: str,
        *,
        now: float = 0.0,
        keep_events: int = 2000,
        resync_gap: int = 200,
        offload: Callable[[str], bool] | None = None,
        seat_grace: float | None = None,
    ) -> TableService:
        """The table :meth:`freeze` made ``data`` of (``config`` and ``code`` must be its own:
        a snapshot of another table is refused, as is one of another format)."""
        try:
            fmt, state = _SnapshotUnpickler(io.BytesIO(zlib.decompress(data))).load()
        except Exception as exc:
            raise SnapshotError(f"table {code}: its snapshot cannot be read ({exc})") from None
        if fmt != SNAPSHOT_FORMAT:
            raise SnapshotError(
                f"table {code}: its snapshot is of format {fmt}, this server reads "
                f"{SNAPSHOT_FORMAT}"
            )
        if state.get("code") != code or state.get("room_config") != config:
            raise SnapshotError(f"table {code}: the snapshot is of another table")
        table = cls.__new__(cls)
        # Snapshots stored before revolution tables existed lack their state: none was open.
        table.__dict__.update({"revolution": None, "answers": {}, "window_v": 0})
        table.__dict__.update(state)
        _current_catalogues(table.revolution)
        table.offload, table.resync_gap, table._keep = offload, resync_gap, keep_events
        table.seat_grace = seat_grace  # the server's setting, not the table's state
        table.turn_started = now  # as a replay at ``now`` would have it: clocks restart
        return table

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
        return any(
            s.human and s.control == Control.PLAYER and s.connected for s in self.seats
        ) or not any(s.human for s in self.seats)

    def info(self) -> dict[str, Any]:
        """The room as anyone may see it: no seed, no token, no card."""
        match = self.match
        played = self.played_match()
        cfg = self.config
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
                "autopass": match.autopass if match else self._switches[0],
                "autopass_five": match.autopass_five if match else self._switches[1],
                "public": cfg.public,
                "spectators": cfg.spectators,
                "spectator_chat": cfg.spectator_chat,
                "seeded": cfg.seeded,
                "between_deals_seconds": cfg.between_deals_seconds,
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
                    **_left_json(r),
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

    def played_match(self) -> Match | RevolutionMatch | None:
        """The match being played, of either kind (None before it starts)."""
        return self.match if self.match is not None else self.revolution

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

    def clock(self, now: float) -> dict[str, Any] | None:
        """The running clock, for people: a player's turn timer (``seat``, ``ms`` left), or
        between deals the wait for the next one (``seat`` None, ``ms``, ``next_deal``)."""
        window = self.counter_deadline()
        if window is not None:
            return {"seat": None, "ms": max(0, round((window - now) * 1000)), "counter": True}
        turn = self.turn_deadline()
        if turn is not None:
            seat, at = turn
            return {"seat": seat, "ms": max(0, round((at - now) * 1000))}
        pause = self.pause_deadline()
        if pause is not None:
            deal, at = pause
            return {"seat": None, "ms": max(0, round((at - now) * 1000)), "next_deal": deal}
        return None

    def snapshot(self, seat: int | None, now: float | None = None) -> dict[str, Any]:
        """A full resync for one recipient (``seat`` None: a spectator), at event ``self.v``;
        with ``now``, it carries the running :meth:`clock` too."""
        view = None
        if self.match is not None:
            view = view_json(self.match.deal.view(seat), self.match.deal_number)
        elif self.revolution is not None:
            view = revolution_view_json(
                self.revolution.deal.view(seat), self.revolution.deal_number
            )
            if seat is not None:
                view["answered"] = self.own_answer(seat)
        out = {
            "type": "sync",
            "v": self.v,
            "seat": seat,
            "room": self.info(),
            "view": view,
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

    def due(self, now: float) -> Command | None:
        """The automatic command due at ``now``, if any. A computer move of a level that
        thinks elsewhere (``offload``) is never due here: see :meth:`think_request`."""
        if self.status == TableStatus.WAITING:
            return self._unclaimed(now)
        if self.status != TableStatus.PLAYING:
            return None
        away = self.config.away_seconds
        for s in self.seats:
            if not s.human:
                continue
            if (
                s.control == Control.PLAYER
                and away is not None
                and not s.connected
                and s.away_since is not None
                and now - s.away_since >= away
            ):
                return Command(Op.TAKEOVER, seat=s.number)
            if s.control == Control.COMPUTER and s.connected:
                return Command(Op.HANDBACK, seat=s.number)
        if not self.player_connected():
            return None
        if self.between is not None:
            pause = self.pause_deadline()
            if self._everyone_said_next() or (pause is not None and now >= pause[1]):
                return Command(Op.DEAL)
            return None
        if self.revolution is not None:
            return self._revolution_due(now)
        assert self.match is not None
        seat = self.seats[self.match.deal.turn]
        if seat.control != Control.PLAYER:
            if now >= self.turn_started + self.config.computer_delay and not self._offloaded(seat):
                return self._computer_move(seat)
        elif (
            self.config.turn_seconds is not None
            and now >= self.turn_started + self.config.turn_seconds
        ):
            return self._timer_move(seat)
        return None

    def deadline(self) -> float | None:
        """When :meth:`due` may next have something (None: only after a new command)."""
        if self.status == TableStatus.WAITING:
            grace = self.seat_grace
            absent = [s.away_since for s in self._absent() if s.away_since is not None]
            return min(absent) + grace if absent and grace is not None else None
        if self.status != TableStatus.PLAYING or self.played_match() is None:
            return None
        times: list[float] = []
        away = self.config.away_seconds
        if away is not None:
            times += [
                s.away_since + away
                for s in self.seats
                if s.human
                and s.control == Control.PLAYER
                and not s.connected
                and s.away_since is not None
            ]
        if self.player_connected():
            pause = self.pause_deadline()
            if pause is not None:
                times.append(pause[1])
            elif self.revolution is not None:
                times += self._revolution_times()
            elif self.between is None and self.match is not None:
                seat = self.seats[self.match.deal.turn]
                if seat.control != Control.PLAYER:
                    if not self._offloaded(seat):
                        times.append(self.turn_started + self.config.computer_delay)
                elif self.config.turn_seconds is not None:
                    times.append(self.turn_started + self.config.turn_seconds)
        return min(times) if times else None

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
        if (
            self.status != TableStatus.PLAYING
            or self.config.turn_seconds is None
            or self.between is not None
        ):
            return None
        if self.revolution is not None:
            deal = self.revolution.deal
            if deal.over or deal.phase is Phase.COUNTER:
                return None
            seat = deal.turn
        elif self.match is not None:
            seat = self.match.deal.turn
        else:
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

    def _everyone_said_next(self) -> bool:
        """Every player at the table (connected, in control of their seat) asked for the next
        deal. Presence is not stored, so this only ever leads to a stored ``deal`` command."""
        here = [s for s in self.seats if s.human and s.control == Control.PLAYER and s.connected]
        return bool(here) and all(s.said_next for s in here)

    # -- computers thinking elsewhere ------------------------------------------------------------
    def _level(self, seat: Seat) -> str:
        return seat.config.level if not seat.human else self.config.takeover_level

    def _offloaded(self, seat: Seat) -> bool:
        return self.offload is not None and self.offload(self._level(seat))

    def _thinking_seat(self) -> Seat | None:
        """The computer (or computer playing for a person) whose decision the table takes
        next, in either game: the seat to act or, in a counter window of the expansion, the
        first seat asked that has not answered (the order the table answers for them)."""
        if self.status != TableStatus.PLAYING or self.between is not None:
            return None
        if self.revolution is not None:
            deal = self.revolution.deal
            if deal.over:
                return None
            if deal.phase is Phase.COUNTER:
                waiting = [
                    self.seats[s]
                    for s in self.asked_seats()
                    if s not in self.answers and self.seats[s].control != Control.PLAYER
                ]
                return waiting[0] if waiting else None
            number = deal.turn
        elif self.match is not None:
            number = self.match.deal.turn
        else:
            return None
        seat = self.seats[number]
        return None if seat.control == Control.PLAYER else seat

    def think_request(self) -> ThinkRequest | None:
        """A computer's decision to make now, away from this thread, in either game: at a
        computer's turn (of a level that ``offload`` names) while a player is at the table.
        It may be asked for at once; its move is applied no earlier than the computer delay
        allows. The view and the generator are the ones the table's own move would use, so
        a seed gives one game wherever the computers think."""
        if not self.player_connected():
            return None
        seat = self._thinking_seat()
        if seat is None or not self._offloaded(seat):
            return None
        computer = self.computer_of(seat)
        if self.revolution is not None:
            view, key = self.revolution_question(seat.number)
            return ThinkRequest(
                seat=seat.number,
                level=self._level(seat),
                computer=computer,
                view=view,
                rng=random.Random(key),
                state_v=self.state_v,
                deal=self.revolution.deal_number,
                peek=None,
            )
        assert self.match is not None
        table_view = self.match.view(seat.number)
        return ThinkRequest(
            seat=seat.number,
            level=self._level(seat),
            computer=computer,
            view=table_view,
            rng=computer.rng(self.config.seed, self.match.deal_number, table_view),
            state_v=self.state_v,
            deal=self.match.deal_number,
            peek=self.match.deal if computer.bot.peeks and computer.peeking else None,
        )

    def think_command(
        self, request: ThinkRequest, answer: Decision, bot: Bot | RevolutionBot | None = None
    ) -> Command | None:
        """The command for a computer's answer (the cards of a play as a mask, None: a pass;
        under the expansion one of the view's choices), or None when the table has moved on
        since the request (the answer is thrown away). An answer that is not legal here
        becomes the :meth:`ComputerSeat.fallback` move. ``bot`` is the bot as it was after
        choosing (it may keep a plan for the deal), to keep from now on."""
        game = self.played_match()
        seat = self._thinking_seat()
        if (
            game is None
            or seat is None
            or seat.number != request.seat
            or game.deal_number != request.deal
            or self.state_v != request.state_v
            or seat.computer is not request.computer
        ):
            return None
        if bot is not None:
            request.computer.bot = bot
        checked = request.computer.checked_answer(request.view, answer)
        if isinstance(checked, RevolutionChoice):
            return _revolution_command(checked)
        return Command(Op.ACT, seat=request.seat, cards=checked, by=By.COMPUTER)

    def fallback_command(self, request: ThinkRequest) -> Command | None:
        """The move a computer makes when its thinking ran out of time: the cheapest legal
        play, or a pass when it has no reply (as the greedy level plays); under the expansion
        see :meth:`ComputerSeat.fallback`."""
        choice = ComputerSeat.fallback(request.view)
        if choice is None or isinstance(choice, RevolutionChoice):
            return self.think_command(request, choice)
        return self.think_command(request, choice.mask)

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
        try:
            handler(self, cmd, now)
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
        seat.name = clean_text(cmd.name, MAX_NAME) or f"Player {seat.number + 1}"
        seat.taken, seat.token, seat.ready, seat.control = True, cmd.token, False, Control.PLAYER
        seat.avatar = cmd.avatar
        seat.away_since = now
        self._emit(
            "joined", Group.ALL, {"seat": seat.number, "name": seat.name, "avatar": seat.avatar}
        )
        if self.host is None:  # the first to sit down hosts: clients know it from "joined"
            self.host = seat.number

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

    def _start(self, now: float) -> None:
        cfg = self.config
        if self.rules.revolution is not None:
            self._start_revolution(now)
            return
        self.match = Match(
            self.ruleset,
            [s.name for s in self.seats],
            seed=cfg.seed,
            deals=cfg.deals,
            autopass=self._switches[0],
            autopass_five=self._switches[1],
            custom=self.custom.pop(1, None),
            # Who sat where, for the match record: "human" or the computer's level.
            kinds=[s.config.kind if s.human else s.config.level for s in self.seats],
        )
        self._announce_start(self.match.deals)
        self._deal_started(now)

    def _announce_start(self, deals: int) -> None:
        """The match is on: nobody is waiting to be ready, and everyone is told so."""
        self.status = TableStatus.PLAYING
        for seat in self.seats:
            seat.ready = False
        self._emit(
            "started",
            Group.ALL,
            {
                "players": self.config.players,
                "deals": deals,
                "names": [s.name for s in self.seats],
            },
            state=True,
        )

    def _deal_started(self, now: float) -> None:
        """Events for a new deal: the public deal to all, each seat its own hand."""
        match = self.match
        assert match is not None
        deal = match.deal
        public = deal.view(None)
        self._emit(
            "deal",
            Group.ALL,
            {
                "deal": match.deal_number,
                "deals": match.deals,
                "leader": public.leader,
                **public_state(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        for seat in self.seats:
            view = deal.view(seat.number)
            opening = None if view.opening is None else str(CARDS[view.opening])
            self._emit(
                "hand",
                seat.number,
                {"deal": match.deal_number, "cards": card_text(view.hand), "opening": opening},
            )
            if seat.computer is not None:
                seat.computer.new_deal()
        self._turn(now)

    def _turn(self, now: float) -> None:
        """Tell the seat to act what it may do (private: the legal plays hold its cards)."""
        self.turn_started = now
        match = self.match
        if match is None or self.status != TableStatus.PLAYING or match.deal.over:
            return
        view = match.deal.view(match.deal.turn)
        self._emit(
            "turn",
            view.turn,
            {
                "deal": match.deal_number,
                "seat": view.turn,
                "legal": legal_json(view),
                "can_pass": view.can_pass,
            },
        )

    def _act(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if cmd.id:
            if len(cmd.id) > MAX_ACTION_ID:
                raise Refused("bad_command", f"An action id is at most {MAX_ACTION_ID} characters")
            done = seat.applied.get(cmd.id)
            if done is not None:
                # (an entry of a snapshot from before revolution tables holds no operation)
                done_op = done[2] if len(done) > 2 else Op.ACT.value
                if done[1] != cmd.cards or done_op != cmd.op.value:
                    raise Refused(
                        "id_reused",
                        f"Action id {cmd.id!r} was already used for another action: "
                        "give each new action a new id",
                    )
                raise AlreadyApplied(cmd.id, done[0])
        if self.status == TableStatus.WAITING:
            raise Refused("not_started", "The match has not started yet")
        if self.status == TableStatus.FINISHED or self.played_match() is None:
            raise Refused("finished", "The match is over")
        if self.between is not None:
            raise Refused("between_deals", "The deal is over: the next one starts soon")
        if cmd.op != Op.ACT and self.revolution is None:
            raise Refused(
                "bad_command", f"{cmd.op.value} is a move of the revolution expansion only"
            )
        if cmd.by == By.PLAYER and seat.control != Control.PLAYER:
            raise Refused(
                "not_in_control",
                f"A computer is playing seat {seat.number} now",
                {"seat": seat.number},
            )
        # An answer to the counter window is stale only if the window is not the one it saw
        # (the other seats' answers before it change the table, but not its question).
        newest = self.window_v if cmd.op in (Op.COUNTER, Op.DECLINE) else self.state_v
        if cmd.seen is not None and cmd.seen < newest:
            raise Refused(
                "stale",
                f"The table has moved on since event {cmd.seen} (now at {newest}): "
                "look again and retry",
            )
        if self.revolution is not None:
            self._revolution_move(seat, cmd, now)
            return
        match = self.match
        assert match is not None
        number = seat.number
        try:
            applied = match.take_turn(number, cmd.cards)
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:  # bad notation or a mask that is no set of cards
            raise Refused("bad_cards", str(exc)) from None
        deal_number = match.deal_number
        first_v = self.v + 1
        if cmd.id:
            seat.applied[cmd.id] = (first_v, cmd.cards, cmd.op.value)
            if len(seat.applied) > IDS_KEPT:
                seat.applied.popitem(last=False)
        self._action_events(cmd, applied, deal_number)
        if match.deal.over:
            self._deal_finished(now)
        else:
            self._turn(now)

    def _action_events(self, cmd: Command, applied: list[Applied], deal_number: int) -> None:
        """One public event per action, each with the public state the match read from the
        deal just after it: the command's own action, then any automatic passes it caused."""
        for i, (action, state) in enumerate(applied):
            by = cmd.by if i == 0 else "auto"
            self._emit(
                "action",
                Group.ALL,
                {"deal": deal_number, **action_json(action), "by": by, **public_state(state)},
                state=True,
            )

    def _deal_finished(self, now: float) -> None:
        match = self.played_match()
        assert match is not None
        result = match.results[-1]
        pause = self.config.between_deals_seconds != 0 and not match.over
        if pause:
            self.between = result.number + 1
            self.turn_started = now
            for seat in self.seats:
                seat.said_next = False
        self._emit(
            "deal_end",
            Group.ALL,
            {
                "deal": result.number,
                "winner": result.winner,
                "points": list(result.points),
                "totals": list(match.totals),
                # The deal is over: what each seat still held is public now.
                **_left_json(result),
                "multipliers": list(result.score.multipliers),
                "next_deal": self._next_deal_json(),
            },
            state=True,
        )
        if match.over:
            self.status = TableStatus.FINISHED
            self.closed_reason = "match over"
            self._finished()
            ranking = sorted(range(match.players), key=lambda s: -match.totals[s])
            self._emit(
                "match_end",
                Group.ALL,
                {"totals": list(match.totals), "ranking": ranking, "deals": match.deal_number},
                state=True,
            )
            return
        if not pause:
            self._next_deal(now)

    def _next(self, cmd: Command, now: float) -> None:
        """A player has read the score sheet and is ready for the next deal."""
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.PLAYING or self.between is None:
            raise Refused("bad_command", "The table is not waiting between deals")
        if not (seat.human and seat.taken) or seat.control != Control.PLAYER:
            raise Refused(
                "not_in_control",
                f"Seat {seat.number} is not played by a person now",
                {"seat": seat.number},
            )
        if seat.said_next:
            return  # said twice (two windows, a retry): nothing new to tell anyone
        seat.said_next = True
        self._emit("next", Group.ALL, {"seat": seat.number, "deal": self.between})

    def _deal(self, cmd: Command, now: float) -> None:
        """Between deals: the next deal starts."""
        if (
            self.status != TableStatus.PLAYING
            or self.between is None
            or self.played_match() is None
        ):
            raise Refused("bad_command", "The table is not waiting between deals")
        self.between = None
        for seat in self.seats:
            seat.said_next = False
        self._next_deal(now)

    def _next_deal(self, now: float) -> None:
        """The next deal: dealt again when a replay was asked for, else shuffled with the
        cards chosen for it; computers change level now if asked to."""
        if self.revolution is not None:
            self._next_revolution_deal(now)
            return
        match = self.match
        assert match is not None
        hands = list(match.deal.dealt) if self.replay else None
        custom = self.custom.pop(match.deal_number + 1, None)
        self.replay = False
        if self.next_level is not None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=self.next_level)
                    seat.computer = None
            self.next_level = None
        match.next_deal(custom=None if hands else custom, hands=hands)
        self._deal_started(now)

    # -- a local table's settings (the Palm game's Preferences and New game) ----------------
    def _levels(self) -> list[str]:
        """The computer levels that play this table's rules."""
        from ..bots import bot_names  # late, as for room requests: it imports every level

        return bot_names(self.rules.game)

    def _setting(self, cmd: Command, keys: tuple[str, ...]) -> dict[str, Any]:
        value = cmd.value
        if not isinstance(value, dict) or any(k not in value for k in keys):
            raise Refused("bad_command", f"{cmd.op} needs {', '.join(keys)}")
        if self.status == TableStatus.FINISHED:
            raise Refused("finished", "The match is over")
        return value

    def _autopass(self, cmd: Command, now: float) -> None:
        """Both autopass switches, at once; the match keeps the switches each action had."""
        value = self._setting(cmd, ("autopass", "autopass_five"))
        on, five = bool(value["autopass"]), bool(value["autopass_five"])
        if self.match is not None:
            self.match.autopass = on
            self.match.autopass_five = five
        self._switches = (on, five)
        self._emit("autopass", Group.ALL, {"autopass": on, "autopass_five": five}, state=True)

    def _level_command(self, cmd: Command, now: float) -> None:
        """Every computer seat plays at a new level from the next deal (bots plan per deal)."""
        level = self._setting(cmd, ("level",))["level"]
        levels = self._levels()
        if level not in levels:
            raise Refused("bad_command", f"Unknown computer level {level!r} ({', '.join(levels)})")
        from_deal = 1 if self.match is None else self.match.deal_number + 1
        self.next_level = level
        if self.match is None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=level)
            self.next_level = None
        self._emit("level", Group.ALL, {"level": level, "from_deal": from_deal})

    def _rules(self, cmd: Command, now: float) -> None:
        """The rules of the next game: a game is never played under two rule sets."""
        value = self._setting(cmd, ("preset",))
        options = value.get("rules") or {}
        try:
            rules = RuleSet.preset(str(value["preset"]))
            if options:
                rules = rules.replace(origin="table rules", **dict(options))
        except BigTwoError as exc:
            raise Refused("bad_command", str(exc)) from None
        if self.config.players not in rules.rules.players:
            raise Refused(
                "bad_command",
                f"{rules.name} is not played by {self.config.players}: start a new game",
            )
        self.next_rules = {"preset": str(value["preset"]), "rules": dict(options)}
        self._emit("rules", Group.ALL, {"next_rules": self.next_rules})

    def _custom(self, cmd: Command, now: float) -> None:
        """A seat's chosen cards (all or some of its hand) for a deal still to come."""
        seat = self._seat(cmd.seat)
        if self.rules.revolution is not None:
            raise Refused("bad_command", "Cards cannot be chosen for a deal of the revolution")
        value = self._setting(cmd, ("deal", "cards"))
        deal, text = value["deal"], value["cards"]
        first = 1 if self.match is None else self.match.deal_number + 1
        last = self.match.deals if self.match is not None else (self.config.deals or 1000)
        if not isinstance(deal, int) or isinstance(deal, bool) or not first <= deal <= last:
            raise Refused("bad_command", f"Cards can be chosen for deals {first} to {last}")
        try:
            mask = to_mask(str(text))
        except BigTwoError as exc:
            raise Refused("bad_cards", str(exc)) from None
        size = self.rules.hand_size(self.config.players)
        if mask.bit_count() > size:
            raise Refused("bad_cards", f"A hand holds {size} cards; {mask.bit_count()} were chosen")
        chosen = {s: m for s, m in self.custom.get(deal, {}).items() if s != seat.number}
        taken = 0
        for other in chosen.values():
            taken |= other
        if mask & taken:
            raise Refused("bad_cards", f"{card_text(Mask(mask & taken))} chosen for another seat")
        if mask:
            self.custom[deal] = {**chosen, seat.number: mask}
        elif chosen:
            self.custom[deal] = chosen
        else:
            self.custom.pop(deal, None)
        self._emit(
            "custom", seat.number, {"deal": deal, "seat": seat.number, "cards": card_text(mask)}
        )

    def _rename(self, cmd: Command, now: float) -> None:
        """A seat's new name, at once (the match's record names it so from now on)."""
        seat = self._seat(cmd.seat)
        name = clean_text(cmd.name, MAX_NAME)
        if not name:
            raise Refused("bad_command", "A name needs at least one letter")
        seat.name = name
        played = self.played_match()
        if played is not None:
            played.names[seat.number] = name
        self._emit("renamed", Group.ALL, {"seat": seat.number, "name": name})

    def _replay(self, cmd: Command, now: float) -> None:
        """Between deals: the coming deal is the one just played, with the same hands."""
        played = self.played_match()
        if self.status != TableStatus.PLAYING or self.between is None or played is None:
            raise Refused("bad_command", "A deal can be played again once it is over")
        self.replay = True
        self._emit("replay", Group.ALL, {"deal": self.between, "of": played.deal_number})

    def _undo(self, cmd: Command, now: float) -> None:
        """The one person at a table of computers takes back their last play of the deal in
        play, and every action after it (the computers' replies, automatic passes): it is
        their turn again, with those cards in hand. The computers start the rest of the deal
        afresh, as after a restore, so a table resumed from its log plays on as this one."""
        seat = self._seat(cmd.seat)
        match = self.match
        if self.revolution is not None:
            raise Refused("bad_command", "Plays cannot be taken back in the revolution")
        if self.status != TableStatus.PLAYING or match is None:
            raise Refused("bad_command", "There is no play to undo: the match is not on")
        if self.between is not None or match.deal.over:
            raise Refused("between_deals", "The deal is over: its plays stand")
        people = [s for s in self.seats if s.human]
        if people != [seat] or seat.control != Control.PLAYER:
            raise Refused("bad_command", "Undo is only for one person playing against computers")
        actions = match.deal.actions
        last = next(
            (i for i in range(len(actions) - 1, -1, -1)
             if actions[i].seat == seat.number and not actions[i].auto),
            None,
        )  # fmt: skip
        if last is None:
            raise Refused("bad_command", "You have not played in this deal yet: nothing to undo")
        taken = match.take_back(len(actions) - last)
        for other in self.seats:
            if not other.human:
                other.computer = None
        deal = match.deal
        public = deal.view(None)
        self._emit(
            "undo",
            Group.ALL,
            {
                "deal": match.deal_number,
                "seat": seat.number,
                "taken": len(taken),
                **public_state(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        view = deal.view(seat.number)
        opening = None if view.opening is None else str(CARDS[view.opening])
        self._emit(
            "hand",
            seat.number,
            {"deal": match.deal_number, "cards": card_text(view.hand), "opening": opening},
        )
        self._turn(now)

    def _rematch(self, cmd: Command, now: float) -> None:
        """The match is over and a table for a new game was opened (its code in ``text``)."""
        if self.status != TableStatus.FINISHED or self.match is None:
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
        if (
            self.match is not None
            and self.between is None
            and not self.match.deal.over
            and self.match.deal.turn == seat.number
        ):
            self._turn(now)  # a fresh turn (and timer) for the returning player
        elif (
            self.revolution is not None
            and self.between is None
            and not self.revolution.deal.over
            and self.revolution.deal.to_act == seat.number
            and self.revolution.deal.phase is not Phase.COUNTER
        ):
            self._revolution_prompt(now)

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
        if cmd.op == Op.SETTINGS:
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
             "by": cmd.seat},
        )  # fmt: skip

    # -- computer and timer moves ----------------------------------------------------------
    def computer_of(self, seat: Seat) -> ComputerSeat:
        """The seat's computer player, told which seats people hold now."""
        game = self.rules.game
        if seat.computer is None or seat.computer.game != game:
            seat.computer = ComputerSeat(self._level(seat), seat.number, game=game)
        seat.computer.tell_humans(frozenset(s.number for s in self.seats if s.human))
        return seat.computer

    def _computer_move(self, seat: Seat) -> Command:
        assert self.match is not None
        view = self.match.view(seat.number)
        play = self.computer_of(seat).choose(
            view, key=self.config.seed, deal_number=self.match.deal_number, deal=self.match.deal
        )
        return Command(
            Op.ACT, seat=seat.number, cards=None if play is None else play.mask, by=By.COMPUTER
        )

    def _timer_move(self, seat: Seat) -> Command:
        """Out of time: pass, or at a lead play the cheapest legal play."""
        assert self.match is not None
        view = self.match.deal.view(seat.number)
        cards = None if view.can_pass else view.legal[0].mask
        return Command(Op.ACT, seat=seat.number, cards=cards, by=By.TIMER)

    # -- Big 2 RevolutioN: the turn's phases -------------------------------------------------
    # Under the expansion the match is a RevolutionMatch and a turn has phases: the player to
    # act may activate Character cards (each opens a counter window), then plays or passes,
    # and after a pass may draw. The counter window asks every other seat at once, with the
    # rules' clock (``counter_seconds``): each answer is kept until the engine, which asks in
    # turn order, comes to that seat, so an early answer tells nobody anything; computers
    # answer after the same pause (the computer delay) whether or not they hold a Q, and a
    # person who has not answered when the clock runs out declines.
    def _start_revolution(self, now: float) -> None:
        cfg = self.config
        self.revolution = RevolutionMatch(
            self.ruleset, [s.name for s in self.seats], seed=cfg.seed, deals=cfg.deals
        )
        self._announce_start(self.revolution.deals)
        self._revolution_deal_started(now)

    def _revolution_deal_started(self, now: float) -> None:
        """Events for a new hand: the public hand (the Gathering, the deck count) to all,
        each seat its own cards."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        public = deal.view(None)
        self.answers = {}
        self._emit(
            "deal",
            Group.ALL,
            {
                "deal": match.deal_number,
                "deals": match.deals,
                "leader": public.leader,
                **revolution_public_state(public),
                "actions": [revolution_action_json(a) for a in public.actions],
            },
            state=True,
        )
        for seat in self.seats:
            self._revolution_hand(seat.number)
        self._revolution_prompt(now)

    def _revolution_hand(self, number: int) -> None:
        match = self.revolution
        assert match is not None
        view = match.deal.view(number)
        opening = None if view.opening is None else revolution_text(1 << view.opening)
        self._emit(
            "hand",
            number,
            {"deal": match.deal_number, "cards": revolution_text(view.hand), "opening": opening},
        )

    def _next_revolution_deal(self, now: float) -> None:
        match = self.revolution
        assert match is not None
        if self.replay:
            match.next_deal(list(match.deal.dealt), match.deal.deck)
        else:
            match.next_deal()
        self.replay = False
        if self.next_level is not None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=self.next_level)
            self.next_level = None
        self._revolution_deal_started(now)

    def _revolution_move(self, seat: Seat, cmd: Command, now: float) -> None:
        """A move of the expansion (``act``, ``activate``, ``draw``, ``stop``; a counter
        window's ``counter`` or ``decline``), checked by the engine, then told."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        number = seat.number
        if cmd.op in (Op.COUNTER, Op.DECLINE):
            self._revolution_answer(seat, cmd, now)
            return
        before = len(deal.actions)
        hands = list(deal.hands)
        try:
            if cmd.op == Op.ACT:
                if cmd.cards is None:
                    match.pass_(number, auto=cmd.by == By.TIMER)
                else:
                    match.play(number, cmd.cards)
            elif cmd.op == Op.ACTIVATE:
                character, give = _activation(cmd.cards)
                match.activate(number, character, cmd.target, give)
            elif cmd.op == Op.DRAW:
                match.draw(number, "deck" if cmd.cards is None else _one_card(cmd.cards))
            else:
                match.stop(number)
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:  # bad notation or a mask that is no set of cards
            raise Refused("bad_cards", str(exc)) from None
        self._remember(seat, cmd)
        self._revolution_told(cmd, deal.actions[before:], hands, now)

    def _remember(self, seat: Seat, cmd: Command) -> None:
        if cmd.id:
            seat.applied[cmd.id] = (self.v + 1, cmd.cards, cmd.op.value)
            if len(seat.applied) > IDS_KEPT:
                seat.applied.popitem(last=False)

    def _revolution_answer(self, seat: Seat, cmd: Command, now: float) -> None:
        """An answer to the counter window, from any seat it asks, kept until its turn."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        number = seat.number
        try:
            if deal.phase is not Phase.COUNTER or deal.pending is None:
                # The engine's own words: there is nothing to answer now.
                if cmd.op == Op.COUNTER:
                    deal.verify_counter(number, _one_card(cmd.cards))
                deal.verify_decline(number)
            assert deal.pending is not None
            if number == deal.pending.seat:
                raise Refused(
                    "illegal",
                    "You activated the function: the other players answer it",
                    {"reason": "own_function", "function": deal.pending.function},
                )
            if number in self.answers:
                raise Refused(
                    "illegal",
                    "You have answered this function already",
                    {"reason": "answered_already", "answer": self.answers[number].op.value},
                )
            if cmd.op == Op.COUNTER:
                card = _one_card(cmd.cards)
                if number == deal.responder:
                    deal.verify_counter(number, card)
                else:  # the checks the engine makes once it comes to this seat
                    hand = deal.view(number).hand
                    if not hand >> card & 1:
                        raise NotYourCards(
                            f"Not your card: you do not hold {card_symbol(card)}",
                            cards=card_symbol(card),
                        )
                    if deal.function_of(card) != "counter":
                        raise IllegalAction(
                            "Only a Revolution Q can counter",
                            "only_q_counters",
                            card=card_symbol(card),
                        )
        except Refused:  # the table's own refusals above, as they are (not as bad cards)
            raise
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:
            raise Refused("bad_cards", str(exc)) from None
        self._remember(seat, cmd)
        self.answers[number] = cmd
        self._emit(
            "answered",
            number,
            {"deal": match.deal_number, "seat": number, "answer": cmd.op.value},
        )
        # The answers now due in turn order reach the engine, each told as it is applied.
        # (Applied answers stay in ``answers`` until the window closes: each seat answers once.)
        while deal.phase is Phase.COUNTER and deal.responder in self.answers:
            answer = self.answers[deal.responder]
            before = len(deal.actions)
            hands = list(deal.hands)
            assert answer.seat is not None
            if answer.op == Op.COUNTER:
                match.counter(answer.seat, _one_card(answer.cards))
            else:
                match.decline(answer.seat)
            self._revolution_told(answer, deal.actions[before:], hands, now)

    def _revolution_told(
        self, cmd: Command, actions: list[RevolutionAction], hands: list[int], now: float
    ) -> None:
        """The events of a move: each action as each audience may see it (a face-down card
        only to the seats the engine lets see it), the public state after the move, the
        changed hands to their seats, then the end of the hand or what is asked next."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        public = revolution_public_state(deal.view(None))
        players = deal.players
        for i, action in enumerate(actions):
            by = cmd.by.value if i == 0 else "auto"
            shown = action.seen_by(None)
            seen = [action.seen_by(s) for s in range(players)]
            common = {"deal": match.deal_number, "by": by}
            if all(a == shown for a in seen):
                self._emit(
                    "action",
                    Group.ALL,
                    {**common, **revolution_action_json(shown), **public},
                    state=True,
                )
                continue
            for s, own in enumerate(seen):
                self._emit(
                    "action", s, {**common, **revolution_action_json(own), **public}, state=True
                )
            self._emit(
                "action",
                Group.SPECTATORS,
                {**common, **revolution_action_json(shown), **public},
                state=True,
            )
        for s in range(players):
            if deal.hands[s] != hands[s]:
                self._revolution_hand(s)
        if deal.over:
            self.answers = {}
            self._deal_finished(now)
            return
        if deal.phase is not Phase.COUNTER:
            self.answers = {}
        opened = deal.phase is Phase.COUNTER and actions[0].move is Move.ACTIVATE
        if opened or deal.phase is not Phase.COUNTER:
            self._revolution_prompt(now)

    def _revolution_prompt(self, now: float) -> None:
        """Ask what is to be done now: at a counter window every other seat (each its own
        prompt, with the cards it may counter with, and the clock); else the seat to act."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        self.turn_started = now
        if deal.phase is Phase.COUNTER and deal.pending is not None:
            self.window_v = self.state_v
            self.answers = {}
            pending = deal.pending
            options = self.rules.revolution
            assert options is not None
            for s in self.asked_seats():
                hand = deal.view(s).hand
                counters = [
                    c for c in ids(hand & REVOLUTION_CARDS) if deal.function_of(c) == "counter"
                ]
                self._emit(
                    "counter",
                    s,
                    {
                        "deal": match.deal_number,
                        "seat": pending.seat,
                        "function": pending.function,
                        "card": revolution_text(1 << pending.card),
                        "target": None if pending.target < 0 else pending.target,
                        "seconds": options.counter_seconds,
                        "counters": [revolution_text(1 << c) for c in counters],
                    },
                )
            return
        view = deal.view(deal.turn)
        self._emit(
            "turn",
            deal.turn,
            {"deal": match.deal_number, "seat": deal.turn, **revolution_choices_json(view)},
        )

    def asked_seats(self) -> list[int]:
        """The seats the open counter window asks, in turn order from the activator's next."""
        assert self.revolution is not None
        deal = self.revolution.deal
        if deal.phase is not Phase.COUNTER or deal.pending is None:
            return []
        first = deal.pending.seat
        return [(first + k) % deal.players for k in range(1, deal.players)]

    def own_answer(self, seat: int) -> str | None:
        """The seat's own answer to the open counter window (``counter`` or ``decline``, as
        its ``answered`` event said), or None: no window is open, or the seat has not
        answered it. Only ever told to that seat: the other seats' answers are not public
        until the engine comes to them."""
        if self.revolution is None or self.revolution.deal.phase is not Phase.COUNTER:
            return None
        answer = self.answers.get(seat)
        return None if answer is None else answer.op.value

    def counter_deadline(self) -> float | None:
        """When the open counter window's clock runs out (None: no window open)."""
        if (
            self.revolution is None
            or self.status != TableStatus.PLAYING
            or self.between is not None
        ):
            return None
        if self.revolution.deal.phase is not Phase.COUNTER:
            return None
        options = self.rules.revolution
        assert options is not None
        return self.turn_started + options.counter_seconds

    def _revolution_times(self) -> list[float]:
        """When :meth:`_revolution_due` may next have something."""
        assert self.revolution is not None
        deal = self.revolution.deal
        if deal.over:
            return []
        if deal.phase is Phase.COUNTER:
            window = self.counter_deadline()
            assert window is not None
            waiting = [self.seats[s] for s in self.asked_seats() if s not in self.answers]
            times = [self.turn_started + self.config.computer_delay for _ in self._answering_here()]
            if any(s.control == Control.PLAYER for s in waiting):
                times.append(window)
            return times
        seat = self.seats[deal.turn]
        if seat.control != Control.PLAYER:
            if self._offloaded(seat):
                return []
            return [self.turn_started + self.config.computer_delay]
        if self.config.turn_seconds is not None:
            return [self.turn_started + self.config.turn_seconds]
        return []

    def _revolution_due(self, now: float) -> Command | None:
        match = self.revolution
        assert match is not None
        deal = match.deal
        if deal.over:
            return None
        if deal.phase is Phase.COUNTER:
            window = self.counter_deadline()
            assert window is not None
            computers = self._answering_here()
            for s in self.asked_seats():
                if s in self.answers:
                    continue
                seat = self.seats[s]
                if seat.control != Control.PLAYER:
                    if seat in computers and now >= self.turn_started + self.config.computer_delay:
                        return self._revolution_computer(seat)
                elif now >= window:
                    return Command(Op.DECLINE, seat=s, by=By.TIMER)
            return None
        seat = self.seats[deal.turn]
        if seat.control != Control.PLAYER:
            if now >= self.turn_started + self.config.computer_delay and not self._offloaded(seat):
                return self._revolution_computer(seat)
        elif (
            self.config.turn_seconds is not None
            and now >= self.turn_started + self.config.turn_seconds
        ):
            if deal.phase is Phase.DRAW:
                return Command(Op.STOP, seat=seat.number, by=By.TIMER)
            view = deal.view(seat.number)
            cards = None if view.can_pass else Mask(view.legal[0].mask)
            return Command(Op.ACT, seat=seat.number, cards=cards, by=By.TIMER)
        return None

    def _answering_here(self) -> list[Seat]:
        """In an open counter window: the computers that answer on this thread, in the order
        the table answers for them, up to the first that thinks elsewhere (those after it
        wait for its answer, so the order is the same wherever computers think)."""
        out: list[Seat] = []
        for s in self.asked_seats():
            seat = self.seats[s]
            if s in self.answers or seat.control == Control.PLAYER:
                continue
            if self._offloaded(seat):
                break
            out.append(seat)
        return out

    def _revolution_computer(self, seat: Seat) -> Command:
        """A computer's move, chosen from its seat's view only. Asked in a counter window
        before the engine comes to it, it answers the question as it stands (the answers of
        the seats before it are not known to it, nor to anyone, until they are applied)."""
        view, key = self.revolution_question(seat.number)
        choice = self.computer_of(seat).choose(view, rng=random.Random(key))
        return _revolution_command(choice)

    def revolution_question(self, number: int) -> tuple[RevolutionView, str]:
        """What a computer at seat ``number`` answers from, wherever it thinks: its seat's
        view (in a counter window that asks it before the engine comes to it, the question as
        it stands: counter with one of its Qs, or decline) and the seed of its generator."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        view = deal.view(number)
        if deal.phase is Phase.COUNTER and view.to_act != number:
            counters = [
                RevolutionChoice(number, Move.COUNTER, 1 << c)
                for c in ids(view.hand & REVOLUTION_CARDS)
                if deal.function_of(c) == "counter"
            ]
            asked = (*counters, RevolutionChoice(number, Move.DECLINE))
            view = dataclasses.replace(view, to_act=number, choices=asked)
        return view, f"{self.config.seed}:{match.deal_number}:{number}:{len(deal.actions)}"

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
        if len(self._texts) > 2 * self._keep:
            drop = len(self._texts) - self._keep
            del self._types[:drop], self._audiences[:drop], self._texts[:drop]
            self._base += drop


class _SnapshotPickler(pickle.Pickler):
    """A pickler that writes a rule set's catalog of plays (shared by every deal under those
    rules, and large) as a reference to its rules, to be looked up again when read back."""

    def persistent_id(self, obj: Any) -> Any:
        if isinstance(obj, Catalog):
            return ("catalog", obj.rules)
        return None


class _SnapshotUnpickler(pickle.Unpickler):
    """Reads what :class:`_SnapshotPickler` wrote (only ever the server's own snapshots),
    and what bigtwo wrote before the expansion's plays joined the one catalogue (a revolution
    deal then kept a catalogue of its own: see :func:`_current_catalogues`)."""

    def persistent_load(self, pid: Any) -> Any:
        kind, rules = pid
        if kind != "catalog":
            raise pickle.UnpicklingError(f"unknown reference {kind!r} in a snapshot")
        return catalog_for(rules)

    def find_class(self, module: str, name: str) -> Any:
        if module == "bigtwo.engine.revolution_cards" and name in _RETIRED:
            return _RETIRED[name]
        return super().find_class(module, name)


class _RetiredCatalogue:
    """A revolution deal's own catalogue, as snapshots written before the one catalogue hold
    it: read, then replaced by the rules' catalogue (:func:`_current_catalogues`)."""

    def __setstate__(self, state: dict[str, Any]) -> None:
        pass


def _retired_play(mask: int, kind: Kind, group: object, power: int) -> Play:
    """A play of the expansion as snapshots written before the one catalogue hold it."""
    return Play(mask, kind, group, power, KIND_NAMES.index(kind.value))


_RETIRED: dict[str, Any] = {
    "RevolutionCatalog": _RetiredCatalogue,
    "RevolutionPlay": _retired_play,
}


def _current_catalogues(match: RevolutionMatch | None) -> None:
    """Give a revolution deal read from an older snapshot the rules' catalogue again (its
    play on the table classified by it, its cached plays dropped)."""
    if match is None or isinstance(match.deal.cards, Catalog):
        return
    deal = match.deal
    deal.cards = catalog_for(deal.rules)
    if deal.to_beat is not None:
        deal.to_beat = deal.cards.classify(Mask(deal.to_beat.mask))
    deal._plays = [None] * deal.players


_HANDLERS = {
    Op.JOIN: TableService._join,
    Op.LEAVE: TableService._leave,
    Op.READY: TableService._ready,
    Op.ACT: TableService._act,
    Op.CHAT: TableService._chat,
    Op.TAKEOVER: TableService._takeover,
    Op.HANDBACK: TableService._handback,
    Op.QUIT: TableService._quit,
    Op.NEXT: TableService._next,
    Op.DEAL: TableService._deal,
    Op.REMATCH: TableService._rematch,
    Op.KICK: TableService._kick,
    Op.COMPUTER: TableService._computer,
    Op.SETTINGS: TableService._settings,
    Op.BUSY: TableService._busy,
    Op.AUTOPASS: TableService._autopass,
    Op.LEVEL: TableService._level_command,
    Op.RULES: TableService._rules,
    Op.CUSTOM: TableService._custom,
    Op.REPLAY: TableService._replay,
    Op.RENAME: TableService._rename,
    Op.UNDO: TableService._undo,
    Op.ACTIVATE: TableService._act,
    Op.COUNTER: TableService._act,
    Op.DECLINE: TableService._act,
    Op.DRAW: TableService._act,
    Op.STOP: TableService._act,
}


def _left_json(result: Any) -> dict[str, Any]:
    """What each seat held when a deal ended (public then): its count of normal cards (the
    cards that are scored) and its cards, a Revolution card with its star."""
    if isinstance(result, RevolutionResult):
        return {
            "counts": [(c & NORMAL_CARDS).bit_count() for c in result.cards_left],
            "left": [revolution_text(c) for c in result.cards_left],
            "end": result.end.value,
        }
    return {
        "counts": [c.bit_count() for c in result.cards_left],
        "left": [card_text(c) for c in result.cards_left],
    }


def _one_card(cards: Mask | int | None) -> int:
    """The one card a counter or a Gathering draw names."""
    if cards is None or cards <= 0 or cards.bit_count() != 1:
        raise IllegalAction("Name one card", "name_one_card")
    return int(cards).bit_length() - 1


def _activation(cards: Mask | int | None) -> tuple[int, int | None]:
    """An activation's Character card and, for an exchange, the normal card it gives."""
    if cards is None or cards <= 0:
        raise IllegalAction("Name the Character card to activate", "name_a_character")
    if cards.bit_count() == 1:  # the engine says in words what a lone card cannot do
        return cards.bit_length() - 1, None
    character = cards & REVOLUTION_CARDS
    give = cards & NORMAL_CARDS
    if character.bit_count() != 1 or give.bit_count() > 1:
        raise IllegalAction(
            "Name one Character card to activate (and, for an exchange, one normal card to give)",
            "name_one_character",
        )
    return character.bit_length() - 1, give.bit_length() - 1 if give else None


def _revolution_command(choice: RevolutionChoice) -> Command:
    """A computer's choice as the command it is stored as."""
    seat, move, by = choice.seat, choice.move, By.COMPUTER
    if move is Move.PLAY:
        return Command(Op.ACT, seat=seat, cards=Mask(choice.cards), by=by)
    if move is Move.PASS:
        return Command(Op.ACT, seat=seat, cards=None, by=by)
    if move is Move.ACTIVATE:
        give = 1 << choice.give if choice.give >= 0 else 0
        target = choice.target if choice.target >= 0 else None
        return Command(
            Op.ACTIVATE, seat=seat, cards=Mask(choice.cards | give), target=target, by=by
        )
    if move is Move.COUNTER:
        return Command(Op.COUNTER, seat=seat, cards=Mask(choice.cards), by=by)
    if move is Move.DECLINE:
        return Command(Op.DECLINE, seat=seat, by=by)
    if move is Move.DRAW:
        return Command(
            Op.DRAW, seat=seat, cards=Mask(choice.cards) if choice.cards else None, by=by
        )
    return Command(Op.STOP, seat=seat, by=by)
