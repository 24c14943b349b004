"""A match of Big 2 RevolutioN: hands one after another, each scored, with running totals.

The expansion's hand is a :class:`~bigtwo.engine.revolution.RevolutionDeal`, whose turn has
more phases than a 52-card deal: this match plays it, and what every match is (the seats, the
results and totals, the clock, the deal numbers) it has of
:class:`~bigtwo.match.match.BaseMatch`. Each hand is shuffled from the match seed
(``"seed:n"``: first the normal deck is dealt, then the Revolution deck shuffled), so a seed
and the actions replay a match exactly. Every action goes through the deal's own checks; once
a hand is over it is scored by :func:`~bigtwo.match.scoring.score_revolution_hand`. No I/O:
the caller counts the time.

>>> match = RevolutionMatch(RuleSet.preset("revolution"), seed=7, deals=1)
>>> match.deal.players, match.deal.deck_left, len(match.deal.gathering)
(4, 48, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from ..engine.deal import deal_hands
from ..engine.errors import IllegalAction
from ..engine.revolution import (
    End,
    RevolutionChoice,
    RevolutionDeal,
    RevolutionView,
    shuffled_deck,
)
from ..engine.views import Action
from .match import BaseMatch
from .scoring import DealScore, score_revolution_hand
from .settings import RuleSet


@dataclass(frozen=True, slots=True)
class RevolutionResult:
    """A finished hand: what was dealt, the Revolution deck's order, every action (the full
    record: face-down cards shown), how it ended and the score."""

    number: int
    dealt: tuple[int, ...]
    deck: tuple[int, ...]
    actions: tuple[Action, ...]
    winner: int
    end: End
    cards_left: tuple[int, ...]
    score: DealScore

    @property
    def points(self) -> tuple[int, ...]:
        return self.score.points


class PlayedHand(NamedTuple):
    """A hand of the match, finished or in play: its number, what was dealt, the Revolution
    deck's order and every action so far."""

    number: int
    dealt: tuple[int, ...]
    deck: tuple[int, ...]
    actions: tuple[Action, ...]


class RevolutionMatch(BaseMatch[RevolutionDeal, RevolutionResult]):
    """Hands of the expansion under one rule set, ``deals`` of them."""

    def __init__(
        self,
        rules: RuleSet,
        names: Sequence[str] | None = None,
        *,
        players: int | None = None,
        seed: int | str | None = None,
        deals: int | None = None,
        hands: Sequence[int] | None = None,
        deck: Iterable[int] | None = None,
        kinds: Sequence[str] | None = None,
    ) -> None:
        """``hands`` and ``deck`` give the first hand's cards outright (else the seed deals)."""
        if rules.rules.revolution is None:
            raise IllegalAction(f"{rules.name} does not play the revolution expansion")
        super().__init__(rules, names, players=players, seed=seed, deals=deals, kinds=kinds)
        self._start(hands, deck)

    def __setstate__(self, state: dict[str, Any]) -> None:
        """A match a table's snapshot froze before this match was one of the family has no
        kinds, first rules or clock: it thaws with them as a new match has them."""
        new = {"first_ruleset": state["ruleset"], "kinds": [""] * len(state["names"])}
        new |= {"deal_seconds": [0.0] * state["deal_number"], "_last_tick": None}
        self.__dict__.update(new | state)

    def _start(self, hands: Sequence[int] | None, deck: Iterable[int] | None) -> RevolutionDeal:
        if hands is None:
            rng = self._shuffle()
            dealt: Sequence[int] = deal_hands(self.ruleset.rules, self.players, rng)
            order = shuffled_deck(rng) if deck is None else tuple(deck)
        else:
            self._check_hands(hands)
            if deck is None:
                raise IllegalAction("Hands given outright need the Revolution deck's order too")
            dealt, order = hands, tuple(deck)
        self._begin(RevolutionDeal(self.ruleset.rules, dealt, deck=order))
        return self.deal

    def next_deal(
        self, hands: Sequence[int] | None = None, deck: Iterable[int] | None = None
    ) -> RevolutionDeal:
        """Start the next hand once the current one is over."""
        self._check_next()
        return self._start(hands, deck)

    def played_hands(self) -> list[PlayedHand]:
        """Every hand so far: the finished ones, then the one in play (if it is not over)."""
        hands = [PlayedHand(r.number, r.dealt, r.deck, r.actions) for r in self.results]
        if self.in_play:
            d = self.deal
            hands.append(PlayedHand(self.deal_number, d.dealt, d.deck, tuple(d.actions)))
        return hands

    # -- actions: each the deal's own, then the hand scored once it is over -----------------
    def take(self, choice: RevolutionChoice) -> Action:
        return self._settled(self.deal.take(choice))

    def play(self, seat: int, cards: int | str) -> Action:
        return self._settled(self.deal.play(seat, cards))

    def pass_(self, seat: int, *, auto: bool = False) -> Action:
        return self._settled(self.deal.pass_(seat, auto=auto))

    def activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> Action:
        return self._settled(self.deal.activate(seat, card, target, give))

    def counter(self, seat: int, card: int | str) -> Action:
        return self._settled(self.deal.counter(seat, card))

    def decline(self, seat: int) -> Action:
        return self._settled(self.deal.decline(seat))

    def draw(self, seat: int, source: int | str) -> Action:
        return self._settled(self.deal.draw(seat, source))

    def stop(self, seat: int) -> Action:
        return self._settled(self.deal.stop(seat))

    def _settled(self, action: Action) -> Action:
        deal = self.deal
        if deal.over and self.in_play:
            assert deal.winner is not None and deal.end is not None
            left = tuple(deal.hands)
            score = score_revolution_hand(
                self.ruleset, left, deal.winner, exhausted=deal.end is End.EXHAUSTION
            )
            self._scored(
                RevolutionResult(
                    self.deal_number,
                    deal.dealt,
                    deal.deck,
                    tuple(deal.actions),
                    deal.winner,
                    deal.end,
                    left,
                    score,
                )
            )
        return action


class RevolutionPlayer(Protocol):
    """What :func:`play_revolution_match` needs of a computer player: a choice from one seat's view."""

    def choose(self, view: RevolutionView, rng: random.Random) -> RevolutionChoice: ...


def play_revolution_match(
    match: RevolutionMatch, players: Sequence[RevolutionPlayer], seed: int | str
) -> None:
    """Play the match to its end, each seat's player choosing from that seat's view only
    (with a generator of its own, from ``seed``), every choice checked by the deal."""
    if len(players) != match.players:
        raise IllegalAction(f"{match.players} seats need {match.players} players")
    rngs = [random.Random(f"{seed}:seat:{s}") for s in range(match.players)]
    while True:
        deal = match.deal
        while not deal.over:
            seat = deal.to_act
            match.take(players[seat].choose(deal.view(seat), rngs[seat]))
        if match.over:
            return
        match.next_deal()
