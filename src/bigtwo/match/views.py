"""What one seat at a match's table may know: its deal view plus the match settings in force.

The engine's :class:`~bigtwo.engine.views.SeatView` knows the play only. At a table a seat
also knows how the deal is scored and which autopass switches the table applies, and, for
every action of the history, the switches the table had checked before it: only a pass the
table would have made for a seat with no reply, but did not, was the seat's choice. A
:class:`TableView` is a SeatView with those added, so whatever reads a SeatView reads it too;
the computer players choose from it. It holds no other seat's cards.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.views import SeatView
from .settings import Scoring, Switches

if TYPE_CHECKING:
    from ..engine.deal import Deal

OFF = Switches(False, False)


@dataclass(frozen=True, slots=True, kw_only=True)
class TableView(SeatView):
    """A seat's view at a match table (``seat`` None: a spectator's).

    ``scoring`` is the deal's scoring; ``switches`` the autopass switches in force now;
    ``action_switches`` has one entry per action of ``actions``: the switches the table had
    checked just before it (a switch changed in the middle of a trick takes effect after
    the next action, never for the seat already to act).
    """

    scoring: Scoring
    switches: Switches
    action_switches: tuple[Switches, ...]

    @property
    def autopass(self) -> bool:
        return self.switches.autopass

    @property
    def autopass_five(self) -> bool:
        return self.switches.autopass_five

    @staticmethod
    def of(
        view: SeatView,
        *,
        scoring: Scoring,
        switches: Switches,
        action_switches: tuple[Switches, ...],
    ) -> TableView:
        """``view`` with the match settings added."""
        if len(action_switches) != len(view.actions):
            raise ValueError("one set of switches per action is needed")
        fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
        return TableView(
            **fields, scoring=scoring, switches=switches, action_switches=action_switches
        )

    @staticmethod
    def of_deal(deal: Deal, seat: int | None, *, scoring: Scoring) -> TableView:
        """A view of a deal played without a match (scored by ``scoring``): no autopass was
        ever applied to it."""
        view = deal.view(seat)
        return TableView.of(
            view,
            scoring=scoring,
            switches=OFF,
            action_switches=(OFF,) * len(view.actions),
        )
