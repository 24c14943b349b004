"""The table service: seats, turns, timers, computer players and numbered events for one
match, shared by local play and the game server (which adds only transport and storage).

Nothing here does I/O or reads a clock; see :mod:`bigtwo.service.table` for the contract.
"""

from .commands import (
    ACT,
    CHAT,
    DEAL,
    HANDBACK,
    JOIN,
    LEAVE,
    NEXT,
    QUIT,
    READY,
    REMATCH,
    TAKEOVER,
    Command,
)
from .config import COMPUTER, HUMAN, ConfigError, SeatConfig, TableConfig
from .events import ALL, PLAYERS, SPECTATORS, Event
from .table import (
    FINISHED,
    PLAYING,
    WAITING,
    AlreadyApplied,
    Refused,
    TableService,
    ThinkRequest,
    hash_token,
)

__all__ = [
    "ACT",
    "ALL",
    "CHAT",
    "COMPUTER",
    "DEAL",
    "FINISHED",
    "HANDBACK",
    "HUMAN",
    "JOIN",
    "LEAVE",
    "NEXT",
    "PLAYERS",
    "PLAYING",
    "QUIT",
    "READY",
    "REMATCH",
    "SPECTATORS",
    "TAKEOVER",
    "WAITING",
    "AlreadyApplied",
    "Command",
    "ConfigError",
    "Event",
    "Refused",
    "SeatConfig",
    "TableConfig",
    "TableService",
    "ThinkRequest",
    "hash_token",
]
