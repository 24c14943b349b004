"""The table service: seats, turns, timers, computer players and numbered events for one
match, shared by local play and the game server (which adds only transport and storage).

Nothing here does I/O or reads a clock; see :mod:`bigtwo.service.table` for the contract.
"""

from ..match.match import SeatKind
from .commands import By, Command, Op
from .config import ConfigError, SeatConfig, TableConfig
from .events import Event, Group
from .table import (
    AlreadyApplied,
    Control,
    Faulted,
    Refused,
    TableService,
    TableStatus,
    ThinkRequest,
    hash_token,
)

__all__ = [
    "AlreadyApplied",
    "By",
    "Command",
    "ConfigError",
    "Control",
    "Event",
    "Faulted",
    "Group",
    "Op",
    "Refused",
    "SeatConfig",
    "SeatKind",
    "TableConfig",
    "TableService",
    "TableStatus",
    "ThinkRequest",
    "hash_token",
]
