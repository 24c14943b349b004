"""What the terminal's coach asks of a game: the deals over, a deal's review, its positions.

:class:`DealCoach` is the 52-card game's way (:mod:`bigtwo.coach.review` and
:mod:`bigtwo.coach.replay`); :class:`~bigtwo.tui.revolution_coaching.RevolutionCoach` is Big 2
RevolutioN's. A deal to review is first taken out of the match on the screen's loop (a
*subject*: the deal's record, which nothing changes any more), so that the review, run in a
worker thread, never touches the match in play. :func:`assists_on` says whether the table's host
left the assists (the review and the beliefs panel) on. Nothing here draws.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from ..coach.replay import seat_turns
from ..coach.review import (
    ROLLOUTS,
    DealReview,
    GameReview,
    chosen_actions,
    review_data,
    review_deal,
)
from ..engine.cards import Mask, card_symbols
from ..engine.errors import IllegalAction
from .words import whose

if TYPE_CHECKING:
    from ..service.mirror import TableMirror

ASSISTS_OFF = "The table's host turned assists off: no review and no beliefs at this table"


def assists_on(mirror: TableMirror) -> bool:
    """Whether the table's host left the assists on (the default: on)."""
    options = mirror.room.get("options") or {}
    return bool(options.get("assists", True))


def position_lines(
    names: Sequence[str],
    seat: int,
    hand: str,
    to_beat: tuple[str, int] | None,
    counts: Sequence[int],
) -> list[str]:
    """A position as ``seat`` saw it, in words: its hand, the play to beat (its cards and who
    made it; None at a lead) and the cards every other seat had left."""
    lines = [f"{whose(names[seat], capital=True)} hand ({len(hand.split())}): {hand}"]
    if to_beat is None:
        lines.append("The table is empty: a lead")
    else:
        lines.append(f"To beat: {to_beat[0]} by {names[to_beat[1]]}")
    left = ", ".join(f"{names[s]} {counts[s]}" for s in range(len(counts)) if s != seat)
    lines.append(f"Cards left: {left}")
    return lines


class DealCoach:
    """The review of a 52-card deal."""

    rollouts = ROLLOUTS  # the coach's default budget of rollouts a decision

    def deals_over(self, match: Any) -> list[int]:
        """The numbers of the deals of ``match`` that are over."""
        return [r.number for r in match.deal_records() if r.result is not None]

    def subject(self, match: Any, deal: int) -> Any:
        """Deal ``deal`` of ``match``, once it is over; else an error in words."""
        for record in match.deal_records():
            if record.number == deal and record.result is not None:
                return record
        raise IllegalAction(f"Deal {deal} is not over: a deal is reviewed once it is over")

    def decisions(self, subject: Any, seat: int) -> int | None:
        """How many decisions of ``seat`` the review judges (None: not known before)."""
        return chosen_actions(subject, seat)

    def review(
        self,
        subject: Any,
        seat: int,
        *,
        seed: int,
        rollouts: int,
        progress: Callable[[], None],
    ) -> DealReview:
        return review_deal(subject, seat, seed=seed, rollouts=rollouts, progress=progress)

    def review_data(
        self, subject: Any, seat: int, *, seed: int, rollouts: int, progress: Callable[[], None]
    ) -> dict[str, Any]:
        """The review of ``seat`` as the review page's data (``review_data``'s)."""
        review = self.review(subject, seat, seed=seed, rollouts=rollouts, progress=progress)
        return review_data(GameReview(seat, (review,)))

    def positions(self, subject: Any, seat: int, names: Sequence[str]) -> dict[int, str]:
        """Each decision's position (by its step in the deal) as ``seat`` saw it."""
        out: dict[int, str] = {}
        for turn in seat_turns(subject, seat):
            view = turn.view
            beat = view.to_beat
            shown = None if beat is None else (card_symbols(Mask(beat.mask)), view.to_beat_seat)
            lines = position_lines(names, seat, card_symbols(view.hand), shown, view.counts)
            out[turn.step] = "\n".join(lines)
        return out
