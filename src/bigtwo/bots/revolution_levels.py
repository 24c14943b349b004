"""The levels of the computer players of Big 2 RevolutioN, by name: every one from
:mod:`.revolution` and the expert (:mod:`.revolution_expert`, which builds on them), so
neither of those imports the other's level table.
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import BigTwoError
from .revolution import (
    ClassicRevolutionBot,
    GreedyRevolutionBot,
    RandomRevolutionBot,
    RevolutionBot,
    StrongRevolutionBot,
)
from .revolution_expert import ExpertRevolutionBot

_LEVELS: dict[str, Callable[[], RevolutionBot]] = {
    "random": RandomRevolutionBot,
    "greedy": GreedyRevolutionBot,
    "classic": ClassicRevolutionBot,
    "strong": StrongRevolutionBot,
    "expert": ExpertRevolutionBot,
}


def revolution_bot(name: str) -> RevolutionBot:
    """A revolution player of the named level (``random``, ``greedy``, ``classic``,
    ``strong`` or ``expert``)."""
    try:
        factory = _LEVELS[name]
    except KeyError:
        known = ", ".join(sorted(_LEVELS))
        raise BigTwoError(
            f"No computer player '{name}' plays revolution yet (levels: {known})"
        ) from None
    return factory()


def revolution_levels() -> tuple[str, ...]:
    return tuple(sorted(_LEVELS))
