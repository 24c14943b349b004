"""Hints for a human player: what the expert would play, and why, in one line.

:func:`hint` runs the ``expert`` search on the seat's own view (so a hint never uses hidden
cards) under a time limit that keeps it interactive (0.2 s of search); the random
numbers are seeded from the position, so asking twice gives the same answer unless the clock
cut the search short. It only advises: it never acts.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from .expert import ExpertBot

if TYPE_CHECKING:
    from ..engine.plays import Play
    from ..match.views import TableView

HINT_SECONDS = 0.2
HINT_ROLLOUTS = 600


def hint(
    view: TableView, *, seconds: float = HINT_SECONDS, rng: random.Random | None = None
) -> tuple[Play | None, str]:
    """The move the expert suggests (None: pass) and a one-line reason for people."""
    if not view.my_turn:
        return None, "It is not your turn"
    if not view.legal:
        return None, "Pass: nothing you hold beats the table"
    if rng is None:
        rng = random.Random(f"hint:{view.hand}:{len(view.actions)}:{view.seat}")
    bot = ExpertBot(rollouts=HINT_ROLLOUTS, time_limit=seconds)
    move, reason = bot.decide(view, rng)
    return move, reason[:1].upper() + reason[1:]
