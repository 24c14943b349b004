"""What the terminal's coach asks of Big 2 RevolutioN: its hands over, a hand's review
(:mod:`bigtwo.coach.revolution`) and each choice's position as the seat saw it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from ..coach.review import DealReview
from ..coach.revolution import REVOLUTION_ROLLOUTS, review_revolution_hand, revolution_turns
from ..engine.cards import Mask, card_symbols
from ..engine.errors import IllegalAction
from ..engine.revolution_cards import NORMAL_CARDS
from ..engine.rules import Rules
from ..match.revolution import PlayedHand
from .coaching import DealCoach, position_lines


class RevolutionSubject(NamedTuple):
    """A hand of the expansion that is over, with the rules it was played by."""

    hand: PlayedHand
    rules: Rules


class RevolutionCoach(DealCoach):
    """The review of a hand of Big 2 RevolutioN."""

    rollouts = REVOLUTION_ROLLOUTS

    def deals_over(self, match: Any) -> list[int]:
        return [r.number for r in match.results]

    def subject(self, match: Any, deal: int) -> RevolutionSubject:
        if deal not in self.deals_over(match):
            raise IllegalAction(f"Deal {deal} is not over: a deal is reviewed once it is over")
        hand = next(h for h in match.played_hands() if h.number == deal)
        return RevolutionSubject(hand, match.ruleset.rules)

    def decisions(self, subject: RevolutionSubject, seat: int) -> int:
        return sum(1 for a in subject.hand.actions if a.seat == seat and not (a.follows or a.auto))

    def review(
        self,
        subject: RevolutionSubject,
        seat: int,
        *,
        seed: int,
        rollouts: int,
        progress: Callable[[], None],
    ) -> DealReview:
        return review_revolution_hand(
            subject.hand, subject.rules, seat, seed=seed, rollouts=rollouts, progress=progress
        )

    def positions(
        self, subject: RevolutionSubject, seat: int, names: Sequence[str]
    ) -> dict[int, str]:
        out: dict[int, str] = {}
        for turn in revolution_turns(subject.hand, subject.rules, seat):
            view = turn.view
            beat = view.to_beat
            shown = None if beat is None else (card_symbols(Mask(beat.mask)), view.to_beat_seat)
            hand = card_symbols(Mask(view.hand & NORMAL_CARDS))
            lines = position_lines(names, seat, hand, shown, view.counts)
            extra = view.hand & ~NORMAL_CARDS
            if extra:
                lines.insert(1, f"Revolution cards: {card_symbols(Mask(extra))}")
            out[turn.step] = "\n".join(lines)
        return out
