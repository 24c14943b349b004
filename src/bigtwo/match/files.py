"""Files of the match layer: a record read from a file, and text written to one atomically.

Records (:mod:`.record_formats`) and history exports (:mod:`.history`) touch the disk only
here. A file that cannot be read raises a :class:`~bigtwo.match.errors.RecordError` naming
it; one that cannot be written an :class:`~bigtwo.match.errors.ExportError`, and any old
file there stays whole. This module must not read or write what is inside the files.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from .errors import ExportError, RecordError

_Made = TypeVar("_Made")


def read_record_file(path: str | Path, read: Callable[[bytes], _Made]) -> _Made:
    """What ``read`` makes of a record file's bytes; a file that cannot be read, or whose
    record ``read`` refuses, raises a RecordError naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except OSError as exc:
        raise RecordError(str(p), f"cannot read the record: {exc.strerror or exc}") from None
    try:
        return read(raw)
    except RecordError as exc:
        where = f"{p}: {exc.where}" if exc.where else str(p)
        raise RecordError(where, exc.reason, exc.line) from None


def write_atomic(path: str | Path, text: str, *, what: str = "the file") -> Path:
    """Write ``text`` to ``path`` through a temporary file and a rename, so a reader never
    sees half a file and a failed write leaves any old file whole. Raises ExportError."""
    target = Path(path)
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", dir=target.parent or Path("."))
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        # mkstemp makes the file private; give it the old file's mode, else an ordinary one.
        mode = target.stat().st_mode & 0o777 if target.is_file() else 0o644
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        reason = exc.strerror or str(exc)
        raise ExportError(f"Cannot write {what} to {target}: {reason}") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return target
