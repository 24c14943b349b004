"""The bot interface: a computer player chooses an action from a seat's view.

A bot sees a seat's :class:`~bigtwo.match.views.TableView` (the engine's view of the deal
plus the scoring and the autopass switches the table applies) and a seeded ``random.Random``
and returns a :class:`~bigtwo.engine.plays.Play` from ``view.legal`` or ``None`` to pass. It never
sees hidden cards; the one exception (the Palm ``classic`` bot's peeking) receives the full deal
through :meth:`Bot.peek`, an explicit door that only a table offering peeking calls.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..engine.plays import Play
    from ..engine.views import SeatView
    from ..match.views import TableView

# Ranks the players' judgement names, as indices into the rank order 3 4 … K A 2.
RANK_9 = 6
RANK_K = 10
RANK_A = 11
RANK_2 = 12


class Bot(ABC):
    """Base of every computer player. Subclasses set ``name`` and implement ``choose``."""

    name: ClassVar[str] = "bot"
    peeks: ClassVar[bool] = False

    @abstractmethod
    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        """The play to make (one of ``view.legal``), or None to pass."""

    def peek(self, deal: Deal) -> None:  # noqa: B027 - an optional hook
        """Only for bots with ``peeks`` set: the full deal before a decision."""

    def new_deal(self, seat: int) -> None:  # noqa: B027 - an optional hook
        """Called when a deal starts, for bots that keep per-deal plans."""

    def tell_humans(self, seats: frozenset[int]) -> None:  # noqa: B027 - an optional hook
        """Which seats people play, for bots that treat them apart (the Palm players fight
        the humans); a table calls it before a decision. Seats are public knowledge."""


class RandomBot(Bot):
    """Uniform over every legal play and, when allowed, a pass."""

    name = "random"

    def choose(self, view: SeatView, rng: random.Random) -> Play | None:
        options = len(view.legal) + (1 if view.can_pass else 0)
        pick = rng.randrange(options)
        return view.legal[pick] if pick < len(view.legal) else None


class GreedyBot(Bot):
    """Always the cheapest legal play; passes only when it has no reply."""

    name = "greedy"

    def choose(self, view: SeatView, rng: random.Random) -> Play | None:
        return view.legal[0] if view.legal else None
