"""A match of Big 2 RevolutioN: hands one after another, each scored, with running totals.

The expansion's hand is a :class:`~bigtwo.engine.revolution.RevolutionDeal`, whose turn has
more phases than a 52-card deal, so it has its own match rather than bending
:class:`~bigtwo.match.match.Match`: the 52-card match, its autopass and its records stay as
they are. Each hand is shuffled from the match seed (``"seed:n"``: first the normal deck is
dealt, then the Revolution deck shuffled), so a seed and the actions replay a match exactly.
Every action goes through the deal's own checks; once a hand is over it is scored by
:func:`~bigtwo.match.scoring.score_revolution_hand`. No I/O, no clock.

>>> match = RevolutionMatch(RuleSet.preset("revolution"), seed=7, deals=1)
>>> match.deal.players, match.deal.deck_left, len(match.deal.gathering)
(4, 48, 4)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, Protocol

from ..engine.deal import deal_hands
from ..engine.errors import IllegalAction
from ..engine.revolution import (
    End,
    RevolutionAction,
    RevolutionChoice,
    RevolutionDeal,
    RevolutionView,
    shuffled_deck,
)
from .match import DEFAULT_NAMES
from .scoring import DealScore, score_revolution_hand
from .settings import RuleSet


@dataclass(frozen=True, slots=True)
class RevolutionResult:
    """A finished hand: what was dealt, the Revolution deck's order, every action (the full
    record: face-down cards shown), how it ended and the score."""

    number: int
    dealt: tuple[int, ...]
    deck: tuple[int, ...]
    actions: tuple[RevolutionAction, ...]
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
    actions: tuple[RevolutionAction, ...]


class RevolutionMatch:
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
    ) -> None:
        """``hands`` and ``deck`` give the first hand's cards outright (else the seed deals)."""
        if rules.rules.revolution is None:
            raise IllegalAction(f"{rules.name} does not play the revolution expansion")
        count = players or (len(names) if names else rules.rules.default_players)
        if count not in rules.rules.players:
            allowed = ", ".join(str(p) for p in rules.rules.players)
            raise IllegalAction(f"{rules.name} is played by {allowed} players, not {count}")
        self.names = list(names) if names else list(DEFAULT_NAMES[:count])
        if len(self.names) != count:
            raise IllegalAction(f"{count} players need {count} names, not {len(self.names)}")
        self.ruleset = rules
        self.players = count
        self.seed: int | str = (
            seed if seed is not None else random.SystemRandom().randrange(1 << 62)
        )
        self.deals = deals or rules.match.deals_per_game
        if self.deals < 1:
            raise IllegalAction("A game needs at least one deal")
        self.results: list[RevolutionResult] = []
        self.totals = [0] * count
        self.deal_number = 0
        self.deal = self._start(hands, deck)

    def _start(self, hands: Sequence[int] | None, deck: Iterable[int] | None) -> RevolutionDeal:
        rules = self.ruleset.rules
        number = self.deal_number + 1
        if hands is None:
            rng = random.Random(f"{self.seed}:{number}")
            dealt: Sequence[int] = deal_hands(rules, self.players, rng)
            order = shuffled_deck(rng) if deck is None else tuple(deck)
        else:
            if len(hands) != self.players:
                raise IllegalAction(f"{self.players} players need {self.players} hands")
            if deck is None:
                raise IllegalAction("Hands given outright need the Revolution deck's order too")
            dealt, order = hands, tuple(deck)
        deal = RevolutionDeal(rules, dealt, deck=order)
        self.deal_number = number
        self.deal = deal
        return deal

    def next_deal(
        self, hands: Sequence[int] | None = None, deck: Iterable[int] | None = None
    ) -> RevolutionDeal:
        """Start the next hand once the current one is over."""
        if not self.deal.over:
            raise IllegalAction("The deal is not over yet")
        if self.over:
            raise IllegalAction("The game is over")
        return self._start(hands, deck)

    def played_hands(self) -> list[PlayedHand]:
        """Every hand so far: the finished ones, then the one in play (if it is not over)."""
        hands = [PlayedHand(r.number, r.dealt, r.deck, r.actions) for r in self.results]
        if len(self.results) < self.deal_number:
            d = self.deal
            hands.append(PlayedHand(self.deal_number, d.dealt, d.deck, tuple(d.actions)))
        return hands

    @property
    def over(self) -> bool:
        return self.deal.over and self.deal_number >= self.deals

    # -- actions: each the deal's own, then the hand scored once it is over -----------------
    def take(self, choice: RevolutionChoice) -> RevolutionAction:
        return self._settled(self.deal.take(choice))

    def play(self, seat: int, cards: int | str) -> RevolutionAction:
        return self._settled(self.deal.play(seat, cards))

    def pass_(self, seat: int, *, auto: bool = False) -> RevolutionAction:
        return self._settled(self.deal.pass_(seat, auto=auto))

    def activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> RevolutionAction:
        return self._settled(self.deal.activate(seat, card, target, give))

    def counter(self, seat: int, card: int | str) -> RevolutionAction:
        return self._settled(self.deal.counter(seat, card))

    def decline(self, seat: int) -> RevolutionAction:
        return self._settled(self.deal.decline(seat))

    def draw(self, seat: int, source: int | str) -> RevolutionAction:
        return self._settled(self.deal.draw(seat, source))

    def stop(self, seat: int) -> RevolutionAction:
        return self._settled(self.deal.stop(seat))

    def _settled(self, action: RevolutionAction) -> RevolutionAction:
        deal = self.deal
        if deal.over and len(self.results) < self.deal_number:
            assert deal.winner is not None and deal.end is not None
            left = tuple(deal.hands)
            score = score_revolution_hand(
                self.ruleset, left, deal.winner, exhausted=deal.end is End.EXHAUSTION
            )
            self.results.append(
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
            for seat, points in enumerate(score.points):
                self.totals[seat] += points
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
