"""The table service: seats, turns, timers, computer players and numbered events for one
match, shared by local play (:mod:`.local`, the terminal game's in-process table) and the
game server (which adds only transport and storage); :mod:`.mirror` is a recipient's picture
of a table built from its events.

The table does no I/O and reads no clock (see :mod:`bigtwo.service.table` for the contract);
a local table writes its log through the store it is given and reads the clock it is given.
"""

from ..match.match import SeatKind
from .commands import By, Command, Op
from .config import ConfigError, SeatConfig, TableConfig
from .events import Event, Group
from .mirror import TableMirror
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
    "TableMirror",
    "TableService",
    "TableStatus",
    "ThinkRequest",
    "hash_token",
]
