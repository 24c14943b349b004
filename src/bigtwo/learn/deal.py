"""One deal played for learning: the seats a learner decides for, the others bigtwo bots.

A :class:`LearningDeal` plays a one-deal :class:`~bigtwo.match.Match` (autopass and scoring
as the rule set says, as the arena plays) and stops at each decision of a learning seat. A
seat with nothing to play but a pass is passed for, as the arena does: only real choices are
asked for. The bots see their :class:`~bigtwo.match.views.TableView` and a random generator
seeded per deal and seat, as in the arena. Moves come in as action indices
(:mod:`bigtwo.policy.encoding`); a move the deal refuses raises a :class:`~bigtwo.engine.errors.BigTwoError`
saying why, and leaves the deal as it was.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from ..bots import Bot, make_bot
from ..engine.cards import Mask
from ..engine.deal import deal_hands
from ..engine.errors import BigTwoError
from ..engine.views import SeatView
from ..match import Match
from ..match.settings import RuleSet
from ..policy.encoding import LearningError, check_rules, max_points, play_of


def ruleset_of(rules: str | RuleSet) -> RuleSet:
    """A rule set from a preset name (or as given), checked for the action space."""
    ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
    if not isinstance(ruleset, RuleSet):
        raise LearningError("rules must be a preset name or a RuleSet")
    check_rules(ruleset.rules)
    return ruleset


def players_of(ruleset: RuleSet, players: int | None) -> int:
    count = ruleset.rules.default_players if players is None else players
    if count not in ruleset.rules.players:
        allowed = ", ".join(str(p) for p in ruleset.rules.players)
        raise LearningError(f"{ruleset.name} is played by {allowed} players, not {count}")
    return count


def make_bots(names: Mapping[int, str], players: int) -> dict[int, Bot]:
    """Bots by seat, told which seats are not Palm players (the ``classic`` bots' humans)."""
    from ..bots.classic import ClassicBot

    bots = {seat: make_bot(name) for seat, name in names.items()}
    palm = {seat for seat, bot in bots.items() if isinstance(bot, ClassicBot)}
    humans = frozenset(range(players)) - palm
    for bot in bots.values():
        bot.tell_humans(humans)
    return bots


class LearningDeal:
    """One deal: ``bots`` play their seats, every other seat is decided from outside."""

    def __init__(
        self,
        ruleset: RuleSet,
        hands: Sequence[Mask],
        bots: Mapping[int, Bot],
        rng_key: str,
    ) -> None:
        n = len(hands)
        self.ruleset = ruleset
        self.match = Match(ruleset, players=n, hands=list(hands), deals=1, seed=0)
        self.bots = dict(bots)
        for seat, bot in self.bots.items():
            bot.new_deal(seat)
        self._rngs = {seat: random.Random(f"{rng_key}:{seat}") for seat in self.bots}
        self.advance()

    @classmethod
    def dealt(
        cls, ruleset: RuleSet, players: int, seed: int, bots: Mapping[int, Bot]
    ) -> LearningDeal:
        """A deal shuffled from ``seed`` (the same seed, the same hands and bot choices)."""
        hands = deal_hands(ruleset.rules, players, random.Random(seed))
        return cls(ruleset, hands, bots, str(seed))

    @property
    def players(self) -> int:
        return self.match.players

    @property
    def over(self) -> bool:
        return self.match.deal.over

    @property
    def turn(self) -> int:
        """The seat to decide (meaningful while the deal is not over)."""
        return self.match.deal.turn

    def view(self, seat: int) -> SeatView:
        """What ``seat`` may know of the deal (the engine's view: all an encoding reads)."""
        return self.match.deal.view(seat)

    def other_hands(self, seat: int) -> tuple[int, int, int]:
        """The hands the other seats hold now, counted from ``seat`` as the observation counts
        them: the next to act after it, the one after that (across, at four), the one before
        it; 0 for a slot the table has no seat for. Training's critic reads them, a policy never."""
        hands = self.match.deal.hands
        n = len(hands)
        a, b, c = (int(hands[(seat + k) % n]) if k < n else 0 for k in (1, 2, 3))
        return a, b, c

    def advance(self) -> None:
        """Play bots' turns and forced passes until a learning seat has a choice, or the end."""
        match = self.match
        deal = match.deal
        while not deal.over:
            seat = deal.turn
            if not deal.legal_plays():  # no reply: a pass, not a decision
                match.pass_(seat)
                continue
            bot = self.bots.get(seat)
            if bot is None:
                return
            if bot.peeks:
                bot.peek(deal)
            view = match.view(seat)
            play = bot.choose(view, self._rngs[seat])
            if play is not None and all(p.mask != play.mask for p in view.legal):
                raise BigTwoError(f"{bot.name} in seat {seat} chose an illegal play: {play}")
            match.act(seat, play)

    def take(self, index: int) -> None:
        """The seat to act takes action ``index``, and nothing more is played. A move the
        deal refuses raises the reason (a :class:`BigTwoError`) and changes nothing."""
        if self.over:
            raise LearningError("The deal is over: start a new one")
        seat = self.turn
        if seat in self.bots:
            raise LearningError(f"Seat {seat} is played by {self.bots[seat].name}")
        self.match.act(seat, play_of(index, self.match.rules))

    def act(self, index: int) -> None:
        """:meth:`take` the action, then play the bots' turns and forced passes after it."""
        self.take(index)
        self.advance()

    @property
    def points(self) -> tuple[int, ...]:
        """Every seat's points for the finished deal."""
        if not self.match.results:
            raise LearningError("The deal is not over yet")
        return self.match.results[-1].points

    def bound(self) -> int:
        """The largest size of a seat's points (to normalise rewards to -1 … 1)."""
        return max_points(self.ruleset, self.players)
