"""The ground the parts of the table service share: the values a table is made of (its
status, who controls a seat, a seat), its limits, its refusals, and :class:`TableState`, the
attributes every part reads and writes and, for the type checker, what each part calls of the
others. It holds none of the table's behaviour and imports none of its parts (each of them
imports it); :mod:`.table` exports its public names, and the rest of the code imports them
from there.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from random import Random
from typing import TYPE_CHECKING, Any, Self, TypeAlias

from ..bots.seat import ComputerSeat, Decision
from ..engine.cards import Mask
from ..engine.deal import Deal
from ..engine.errors import BigTwoError
from ..engine.revolution import RevolutionView
from ..engine.rules import Rules
from ..engine.views import SeatView
from ..match.match import DealResult, SeatKind
from ..match.revolution import RevolutionResult
from ..match.settings import RuleSet
from ..match.views import TableView
from .commands import Command
from .config import SeatConfig, TableConfig
from .events import Audience, Event

if TYPE_CHECKING:
    # The match a table plays, of either game: the table's class (its game's flow) says which.
    from ..match.record_formats import Game

View: TypeAlias = TableView | RevolutionView  # a seat's view of either game's deal


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
    "assists": (0.0, 0.0),  # the coach's help for the players (beliefs, reviews), as it plays
}
SWITCHES = frozenset({"spectators", "spectator_chat", "assists"})  # the settings on or off


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


# A snapshot pickles the table's state (see :mod:`.snapshot`), and these classes with it, by
# name: ``bigtwo.service.table.<name>``, where they were defined when the first snapshots were
# stored, and where :mod:`.table` still exports them. They keep that name, so that snapshots
# old and new read alike, in this version and in another that a cluster runs at the same time.
for _value in (TableStatus, Control, Seat):
    _value.__module__ = "bigtwo.service.table"


class TableState:
    """The state of one table as every part of :class:`~bigtwo.service.table.TableService`
    sees it: its ``__init__`` sets it and says what each attribute is, and a snapshot is this
    state. Below, for the type checker only, what the parts call of each other."""

    SNAPSHOT_KEY: str  # where a snapshot keeps the match (each game's flow says)
    config: TableConfig
    room_config: TableConfig
    seat_grace: float | None
    host: int | None
    offload: Callable[[str], bool] | None
    code: str
    ruleset: RuleSet
    rules: Rules
    status: TableStatus
    closed_reason: str
    v: int
    state_v: int
    _types: list[str]
    _audiences: list[Audience]
    _texts: list[str]
    _base: int
    _keep: int
    _new: list[Event]
    _views: dict[int, SeatView | RevolutionView]
    resync_gap: int
    chat: deque[Event]
    game: Game | None
    answers: dict[int, Command]
    window_v: int
    turn_started: float
    between: int | None
    rematch: str
    faulted: bool
    custom: dict[int, dict[int, Mask]]
    next_level: str | None
    next_rules: dict[str, Any] | None
    replay: bool
    _switches: tuple[bool | None, bool | None]
    seats: list[Seat]

    if TYPE_CHECKING:
        # Of .table (the table and its log): TableService makes the table of its config's game
        def __new__(cls, config: TableConfig, *args: Any, **kwargs: Any) -> Self: ...
        def _next_deal_json(self) -> dict[str, Any] | None: ...
        def _finished(self) -> None: ...
        def _emit(
            self, kind: str, to: Audience, data: dict[str, Any], *, state: bool = False
        ) -> None: ...
        # Of .seats
        def player_connected(self) -> bool: ...
        def _seat(self, number: int | None) -> Seat: ...
        # Of .clocks
        def counter_deadline(self) -> float | None: ...
        def _game_due(self, now: float) -> Command | None: ...
        def _game_times(self) -> list[float]: ...
        # Of .thinking
        def _offloaded(self, seat: Seat) -> bool: ...
        def _computer_command(self, seat: Seat) -> Command: ...
        # Of .local_commands
        def _levels(self) -> list[str]: ...
        # Of .flow, shared by every game
        def asked_seats(self) -> list[int]: ...
        def _to_act(self) -> int | None: ...
        def awaited(self) -> list[int]: ...
        def _start(self, now: float) -> None: ...
        def _set_switches(self, on: bool, five: bool) -> None: ...
        # Of each game's flow (.bigtwo_flow, .revolution_flow): what differs
        def _new_match(self) -> Game: ...
        def _deal_next(self, replay: bool) -> None: ...
        def _deal_started(self, now: float) -> None: ...
        def _public_json(self, view: SeatView | RevolutionView) -> dict[str, Any]: ...
        def _cards_text(self, cards: int) -> str: ...
        def _seat_dealt(self, seat: Seat) -> None: ...
        def _hand(self, number: int) -> None: ...
        def _move(self, seat: Seat, cmd: Command, now: float) -> None: ...
        def _prompt(self, now: float) -> None: ...
        def _timer_command(self, seat: Seat) -> Command: ...
        def _question(
            self, seat: Seat, computer: ComputerSeat
        ) -> tuple[View, Random, Deal | None]: ...
        def _decision_command(self, number: int, decision: Decision) -> Command: ...
        def _view_json(self, seat: int | None) -> dict[str, Any] | None: ...
        def _left_json(self, result: DealResult | RevolutionResult) -> dict[str, Any]: ...
        def history_text(self) -> str: ...
