"""A match: a sequence of deals under one rule set, with scores, autopass and the leader rule.

The match owns the current :class:`~bigtwo.engine.deal.Deal`, deals each new one (from the
match seed, or with a player's chosen cards: the Palm "select card for new game"), applies
autopass after every action, scores each finished deal and keeps the running totals. A change
of rules waits for the next deal. It has no I/O: records, history text and storage build on it.

>>> from bigtwo.engine import Rules
>>> match = Match(Rules.preset("palm"), ["You", "Ann", "Bill", "Cat"], seed=7)
>>> match.deal_number, match.deal.players, match.deals
(1, 4, 10)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from ..engine.cards import CardSet, card_indices, to_mask
from ..engine.deal import Action, Deal, deal_hands
from ..engine.errors import IllegalAction
from ..engine.plays import Play
from ..engine.rules import Rules
from .scoring import DealScore, score_deal

DEFAULT_NAMES = ("You", "Ann", "Bill", "Cat")


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: who dealt what, every action, and the score."""

    number: int
    rules: Rules
    dealt: tuple[int, ...]
    leader: int
    actions: tuple[Action, ...]
    winner: int
    cards_left: tuple[int, ...]
    score: DealScore

    @property
    def points(self) -> tuple[int, ...]:
        return self.score.points


class Match:
    """Deals played one after another, ``deals`` of them (the preset's game length)."""

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str] | None = None,
        *,
        players: int | None = None,
        seed: int | str | None = None,
        deals: int | None = None,
        autopass: bool | None = None,
        autopass_five: bool | None = None,
        custom: Mapping[int, int | str | CardSet] | None = None,
        hands: Sequence[int] | None = None,
    ) -> None:
        """``custom`` gives some seats chosen cards for the first deal (the rest dealt at
        random); ``hands`` gives every seat's cards for the first deal outright."""
        count = players or (len(names) if names else rules.default_players)
        if count not in rules.players:
            allowed = ", ".join(str(p) for p in rules.players)
            raise IllegalAction(f"{rules.name} is played by {allowed} players, not {count}")
        self.names = list(names) if names else list(DEFAULT_NAMES[:count])
        if len(self.names) != count:
            raise IllegalAction(f"{count} players need {count} names, not {len(self.names)}")
        self.players = count
        self.rules = rules
        self.next_rules = rules
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1 << 62)
        self.deals = deals or rules.deals_per_game
        self.autopass = rules.autopass if autopass is None else autopass
        self.autopass_five = rules.autopass_five if autopass_five is None else autopass_five
        self.results: list[DealResult] = []
        self.totals = [0] * count
        self.deal_number = 0
        self.deal: Deal = self._start_deal(custom=custom, hands=hands)

    # -- deals --------------------------------------------------------------------------------
    def _start_deal(
        self,
        custom: Mapping[int, int | str | CardSet] | None = None,
        hands: Sequence[int] | None = None,
    ) -> Deal:
        self.rules = self.next_rules
        self.deal_number += 1
        if hands is None:
            rng = random.Random(f"{self.seed}:{self.deal_number}")
            hands = deal_with_choice(self.rules, self.players, rng, custom or {})
        leader = None
        if self.rules.next_leader == "winner" and self.results:
            leader = self.results[-1].winner
        self.deal = Deal(self.rules, hands, leader=leader)
        self._autopass()
        return self.deal

    def next_deal(
        self,
        custom: Mapping[int, int | str | CardSet] | None = None,
        hands: Sequence[int] | None = None,
    ) -> Deal:
        """Start the next deal once the current one is over."""
        if not self.deal.over:
            raise IllegalAction("The deal is not over yet")
        if self.over:
            raise IllegalAction("The game is over")
        return self._start_deal(custom=custom, hands=hands)

    def set_rules(self, rules: Rules) -> None:
        """Change the rules from the next deal on; the deal in play keeps its rules."""
        if self.players not in rules.players:
            raise IllegalAction(f"{rules.name} is not played by {self.players} players")
        self.next_rules = rules

    @property
    def over(self) -> bool:
        """Every deal of the game has been played."""
        return self.deal.over and self.deal_number >= self.deals

    # -- actions ------------------------------------------------------------------------------
    def play(self, seat: int, cards: int | str | CardSet | Play) -> list[Action]:
        """Play for ``seat``; returns that action and any autopasses that follow it."""
        applied = [self.deal.play(seat, cards)]
        return applied + self._after()

    def pass_(self, seat: int) -> list[Action]:
        applied = [self.deal.pass_(seat)]
        return applied + self._after()

    def act(self, seat: int, play: Play | None) -> list[Action]:
        """A play or, with None, a pass."""
        return self.pass_(seat) if play is None else self.play(seat, play)

    def _after(self) -> list[Action]:
        applied = self._autopass()
        if self.deal.over and len(self.results) < self.deal_number:
            self._finish()
        return applied

    def autopass_due(self) -> bool:
        """Whether the seat to act would be passed automatically now."""
        deal = self.deal
        if deal.over or deal.table is None or not self.autopass:
            return False
        if deal.table.size == 5 and not self.autopass_five:
            return False
        return not deal.legal_plays()

    def _autopass(self) -> list[Action]:
        applied: list[Action] = []
        while self.autopass_due():
            size = self.deal.table.size if self.deal.table else 0
            reason = f"no {size}-card play beats the table"
            applied.append(self.deal.pass_(self.deal.turn, auto=True, reason=reason))
        return applied

    def _finish(self) -> None:
        deal = self.deal
        assert deal.winner is not None
        left = tuple(deal.hands)
        score = score_deal(self.rules, left, deal.winner)
        self.results.append(
            DealResult(
                number=self.deal_number,
                rules=self.rules,
                dealt=deal.dealt,
                leader=deal.leader,
                actions=tuple(deal.actions),
                winner=deal.winner,
                cards_left=left,
                score=score,
            )
        )
        for seat, points in enumerate(score.points):
            self.totals[seat] += points


def deal_with_choice(
    rules: Rules, players: int, rng: random.Random, chosen: Mapping[int, int | str | CardSet]
) -> list[int]:
    """Deal at random, except that some seats hold cards they chose (all or some of a hand)."""
    if not chosen:
        return deal_hands(rules, players, rng)
    size = rules.hand_size(players)
    hands = [0] * players
    taken = 0
    for seat, cards in chosen.items():
        if not 0 <= seat < players:
            raise IllegalAction(f"There is no seat {seat}")
        mask = to_mask(cards)
        if mask.bit_count() > size:
            raise IllegalAction(f"A hand holds {size} cards; {mask.bit_count()} were chosen")
        if mask & taken:
            raise IllegalAction(f"{CardSet(mask & taken)} chosen for two seats")
        hands[seat] = mask
        taken |= mask
    deck = [c for c in range(52) if not taken >> c & 1]
    rng.shuffle(deck)
    for seat in range(players):
        while hands[seat].bit_count() < size:
            hands[seat] |= 1 << deck.pop()
    return hands


