"""The package's rooms stay small enough to find one's way in: no source file is longer than
about 800 lines (a file past it is split by job, as the table service, the hub, the terminal's
table screen, the records and the expansion's engine were)."""

from __future__ import annotations

from pathlib import Path

import bigtwo

PACKAGE = Path(bigtwo.__file__).parent
MOST_LINES = 800


def test_no_source_file_is_over_800_lines() -> None:
    long = {
        path.relative_to(PACKAGE).as_posix(): lines
        for path in sorted(PACKAGE.rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}, f"split these by job: {long}"
