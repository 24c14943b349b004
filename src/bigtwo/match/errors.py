"""The errors of matches, records, history export and storage, each saying what went wrong.

They extend the engine's :class:`~bigtwo.engine.errors.BigTwoError`, so a front end that
catches that one type shows every message here too and never a traceback. This module only
defines the types.
"""

from __future__ import annotations

from ..engine.errors import BigTwoError


class RecordError(BigTwoError, ValueError):
    """A game record that cannot be read or does not replay.

    ``where`` is ``"line 12"`` for the text form or a path such as ``"deals[0].actions[3]"``
    for JSON; ``line`` is the line number when there is one; ``reason`` is the bare reason.
    """

    def __init__(self, where: str, reason: str, line: int | None = None) -> None:
        super().__init__(f"{where}: {reason}" if where else reason)
        self.where = where
        self.reason = reason
        self.line = line


class ExportError(BigTwoError, OSError):
    """A record or a history could not be written to the file asked for."""


class StoreError(BigTwoError):
    """The database cannot do what was asked; nothing stored was changed or lost."""


class StoreLocked(StoreError):
    """Another program holds the database; trying again later will work."""


class StoreCorrupt(StoreError):
    """The database file is damaged or is not a bigtwo database; it was left untouched."""
