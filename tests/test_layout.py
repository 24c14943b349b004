"""The package's rooms stay small enough to find one's way in: no source file is longer than
about 800 lines (a file past it is split by job, as the table service, the hub, the terminal's
table screen, the records and the expansion's engine were)."""

from __future__ import annotations

import re
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


# A line of a shared module (one whose name does not say "revolution") that asks which game is
# played: the condition of an if, elif, while or case, or of a conditional expression, names the
# expansion (``revolution_text(cards) if cards else None`` asks about the cards, not the game).
_STATEMENT = re.compile(r"^\s*(?:if|elif|while|case)\b(.*)")
_EXPRESSION = re.compile(r"\bif\b(.+?)\belse\b")
MOST_ASKS = 20


def asks_which_game() -> list[str]:
    """The lines of shared modules that branch on the expansion, as ``path:line: code``."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if "revolution" in path.name:
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code = line.split("#")[0]
            statement = _STATEMENT.match(code)
            conditions = [statement.group(1)] if statement else _EXPRESSION.findall(code)
            if any("revolution" in condition.lower() for condition in conditions):
                found.append(f"{path.relative_to(PACKAGE).as_posix()}:{number}: {code.strip()}")
    return found


def test_shared_modules_seldom_ask_which_game() -> None:
    """Each game's behaviour is chosen once (a per-game object or subclass), so the shared
    modules do not ask "is this the revolution?" at each place."""
    asks = asks_which_game()
    assert len(asks) < MOST_ASKS, "\n".join(asks)
