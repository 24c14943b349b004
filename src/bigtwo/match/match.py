"""A match: a sequence of deals under one rule set, with scores, autopass and the leader rule.

The match owns the current :class:`~bigtwo.engine.deal.Deal`, deals each new one (from the
match seed, or with a player's chosen cards: the Palm "select card for new game"), applies
autopass after every action, scores each finished deal and keeps the running totals. A change
of rules waits for the next deal. It logs every change of a setting at its place among the
actions, so a record can replay the match exactly, and keeps with every action the autopass
switches the table had checked before it. Seats see the deal through :meth:`Match.view`,
which adds those switches and the scoring to the engine's view. It has no I/O and no clock:
the caller passes elapsed seconds (:meth:`Match.add_seconds`) or timestamps
(:meth:`Match.tick`); records, history text and storage build on it.

>>> match = Match(RuleSet.preset("palm"), ["You", "Ann", "Bill", "Cat"], seed=7)
>>> match.deal_number, match.deal.players, match.deals
(1, 4, 10)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Generic, NamedTuple, Protocol, TypeVar

from ..engine.cards import Cards, CardSet, Mask, to_mask
from ..engine.deal import Deal, deal_hands
from ..engine.errors import IllegalAction
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.views import Action
from .scoring import DealScore, score_deal
from .settings import RuleSet, Switches
from .views import TableView

DEFAULT_NAMES = ("You", "Ann", "Bill", "Cat")


class SeatKind(StrEnum):
    """Who sits in a seat: a person, or a computer player. In a match's ``kinds`` (and its
    record) a person's seat is ``human`` and a computer's is its level."""

    HUMAN = "human"
    COMPUTER = "computer"


@dataclass(frozen=True, slots=True)
class DealResult:
    """A finished deal: who dealt what, every action, and the score."""

    number: int
    rules: RuleSet
    dealt: tuple[Mask, ...]
    leader: int
    actions: tuple[Action, ...]
    winner: int
    cards_left: tuple[Mask, ...]
    score: DealScore
    switches: tuple[Switches, ...]  # per action: the autopass switches checked before it

    @property
    def points(self) -> tuple[int, ...]:
        return self.score.points


@dataclass(frozen=True, slots=True)
class Change:
    """A setting changed during the match: ``index`` actions of deal ``deal`` came before it.

    ``key`` is one of ``rules`` (takes effect from the next deal), ``autopass`` or
    ``autopass_five``; ``value`` is the new :class:`~bigtwo.match.settings.RuleSet` or flag.
    """

    deal: int
    index: int
    key: str
    value: RuleSet | bool


@dataclass(frozen=True, slots=True)
class DealRecord:
    """One deal of the match, finished or in play: what a record or a history shows."""

    number: int
    rules: RuleSet
    dealt: tuple[Mask, ...]
    leader: int
    actions: tuple[Action, ...]
    result: DealResult | None  # None while the deal is in play
    seconds: float
    switches: tuple[Switches, ...]  # per action: the autopass switches checked before it


class PublicState(NamedTuple):
    """The public part of a deal at one moment, copied from the deal (so a table announces
    the engine's own state and never works it out again): whose ``turn``, each seat's
    ``counts`` of cards, the play to beat (``to_beat``, None at a lead) and who made it
    (``to_beat_seat``), ``passes`` since that play, the ``locked`` seats (a bit per seat, under
    ``pass_lock``), and the ``winner`` once the deal is over. (A named tuple, as an
    :class:`~bigtwo.engine.views.Action` is: one is made for every action.)"""

    turn: int
    counts: tuple[int, ...]
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    locked: int
    winner: int | None

    @property
    def players(self) -> int:
        return len(self.counts)

    @classmethod
    def of(cls, deal: Deal) -> PublicState:
        """The state ``deal`` is in now."""
        return cls(
            deal.turn,
            tuple(deal.counts()),
            deal.to_beat,
            deal.to_beat_seat,
            deal.passes,
            deal.locked,
            deal.winner,
        )


class Applied(NamedTuple):
    """An action just applied and the deal's public state right after it (the action's
    ``trick_over`` says whether it ended the trick)."""

    action: Action
    state: PublicState


class _Dealing(Protocol):
    """What a match asks of its deal, in either game."""

    @property
    def over(self) -> bool: ...


class _Finished(Protocol):
    """What a match asks of a finished deal's result, in either game."""

    @property
    def winner(self) -> int: ...
    @property
    def points(self) -> tuple[int, ...]: ...


_DealT = TypeVar("_DealT", bound=_Dealing)
_ResultT = TypeVar("_ResultT", bound=_Finished)


class BaseMatch(Generic[_DealT, _ResultT]):
    """A match of either game: ``deals`` deals under a rule set, one after another, with the
    seats' ``names`` and ``kinds`` (``human`` or a computer level: carried so a saved game
    knows whom to seat again), each finished deal's result, the running ``totals`` and the
    seconds played per deal. :class:`Match` and
    :class:`~bigtwo.match.revolution.RevolutionMatch` deal and score each deal their way."""

    deal: _DealT

    def __init__(
        self,
        rules: RuleSet,
        names: Sequence[str] | None,
        *,
        players: int | None,
        seed: int | str | None,
        deals: int | None,
        kinds: Sequence[str] | None,
    ) -> None:
        if not isinstance(rules, RuleSet):
            # The engine's Rules lack the scoring and the game length a match needs.
            raise TypeError("A match is played under a RuleSet, such as RuleSet.preset('palm')")
        play = rules.rules
        count = players or (len(names) if names else play.default_players)
        if count not in play.players:
            allowed = ", ".join(str(p) for p in play.players)
            raise IllegalAction(f"{rules.name} is played by {allowed} players, not {count}")
        self.names = [_check_name(n) for n in names] if names else list(DEFAULT_NAMES[:count])
        if len(self.names) != count:
            raise IllegalAction(f"{count} players need {count} names, not {len(self.names)}")
        self.kinds = [_check_kind(k) for k in kinds] if kinds else [""] * count
        if len(self.kinds) != count:
            raise IllegalAction(f"{count} players need {count} kinds, not {len(self.kinds)}")
        self.players = count
        self.ruleset = rules
        self.first_ruleset = rules
        self.seed: int | str = random.SystemRandom().randrange(1 << 62) if seed is None else seed
        self.deals = deals or rules.match.deals_per_game
        if self.deals < 1:
            raise IllegalAction("A game needs at least one deal")
        self.results: list[_ResultT] = []
        self.totals = [0] * count
        self.deal_number = 0
        self.deal_seconds: list[float] = []
        self._last_tick: float | None = None

    # -- deals ----------------------------------------------------------------------------------
    def _shuffle(self) -> random.Random:
        """The generator that deals the next deal: from the match seed and its number."""
        return random.Random(f"{self.seed}:{self.deal_number + 1}")

    def _check_hands(self, hands: Sequence[object]) -> None:
        if len(hands) != self.players:
            raise IllegalAction(f"{self.players} players need {self.players} hands")

    def _begin(self, deal: _DealT) -> None:
        """``deal`` is the next deal, now in play."""
        self.deal_number += 1
        self.deal_seconds.append(0.0)
        self.deal = deal

    def _check_next(self) -> None:
        """Refuse a next deal while this one is in play or once the game is over."""
        if not self.deal.over:
            raise IllegalAction("The deal is not over yet")
        if self.over:
            raise IllegalAction("The game is over")

    def _scored(self, result: _ResultT) -> None:
        """Keep a finished deal's result and add its points to the totals."""
        self.results.append(result)
        for seat, points in enumerate(result.points):
            self.totals[seat] += points

    @property
    def rules(self) -> Rules:
        """The rules of play of the deal in play."""
        return self.ruleset.rules

    @property
    def in_play(self) -> bool:
        """Whether the deal in play is not over yet (its result is still to come)."""
        return len(self.results) < self.deal_number

    @property
    def over(self) -> bool:
        """Every deal of the game has been played."""
        return self.deal.over and self.deal_number >= self.deals

    # -- time -----------------------------------------------------------------------------------
    def add_seconds(self, seconds: float) -> None:
        """Count ``seconds`` of play towards the current deal (until the next one starts)."""
        if seconds < 0:
            raise IllegalAction("Elapsed time cannot be negative")
        self.deal_seconds[-1] += seconds

    def tick(self, now: float) -> float:
        """Count the time since the previous tick (``now`` from any monotonic clock); the
        first tick, and the first after :meth:`pause`, only starts counting. Returns the
        seconds added."""
        last, self._last_tick = self._last_tick, now
        if last is None or now <= last:
            return 0.0
        self.deal_seconds[-1] += now - last
        return now - last

    def pause(self) -> None:
        """Stop counting: time until the next :meth:`tick` is not play (a saved game)."""
        self._last_tick = None

    @property
    def seconds(self) -> float:
        """Seconds of play over every deal so far."""
        return sum(self.deal_seconds)

    # -- questions ------------------------------------------------------------------------------
    def best_deal(self, seat: int) -> int:
        """The most points ``seat`` scored in one deal (0 before any deal ends)."""
        return max((r.points[seat] for r in self.results), default=0)

    def deals_won(self, seat: int) -> int:
        return sum(1 for r in self.results if r.winner == seat)


class Match(BaseMatch[Deal, DealResult]):
    """Deals of the 52-card game played one after another, ``deals`` of them (the preset's
    game length).

    ``ruleset`` holds the rules of the deal in play (both parts), ``rules`` their part of play;
    ``next_ruleset`` the rules of the next deal and ``first_ruleset`` those the match began
    with. ``autopass`` and ``autopass_five`` are the switches in force, which start as the
    rules say unless given.
    """

    def __init__(
        self,
        rules: RuleSet,
        names: Sequence[str] | None = None,
        *,
        players: int | None = None,
        seed: int | str | None = None,
        deals: int | None = None,
        autopass: bool | None = None,
        autopass_five: bool | None = None,
        custom: Mapping[int, Cards] | None = None,
        hands: Sequence[Cards] | None = None,
        kinds: Sequence[str] | None = None,
    ) -> None:
        """``custom`` gives some seats chosen cards for the first deal (the rest dealt at
        random); ``hands`` gives every seat's cards for the first deal outright."""
        super().__init__(rules, names, players=players, seed=seed, deals=deals, kinds=kinds)
        self.next_ruleset = rules
        settings = rules.match
        self._autopass = settings.autopass if autopass is None else bool(autopass)
        self._autopass_five = (
            settings.autopass_five if autopass_five is None else bool(autopass_five)
        )
        self.first_autopass = self._autopass
        self.first_autopass_five = self._autopass_five
        # The switches the last autopass check read, and those of each action of the deal.
        self._checked = self.switches
        self._action_switches: list[Switches] = []
        self.changes: list[Change] = []
        self._leaders: list[int] = []
        self._start_deal(custom=custom, hands=hands)

    # -- deals --------------------------------------------------------------------------------
    def _start_deal(
        self,
        custom: Mapping[int, Cards] | None = None,
        hands: Sequence[Cards] | None = None,
    ) -> Deal:
        ruleset = self.next_ruleset
        rules = ruleset.rules
        if hands is None:
            dealt: Sequence[Cards] = deal_with_choice(
                rules, self.players, self._shuffle(), custom or {}
            )
        else:
            self._check_hands(hands)
            dealt = hands
        leader = None
        if rules.next_leader == "winner" and self.results:
            leader = self.results[-1].winner
        # Build the deal before touching any state, so a refused deal leaves the match as it was.
        deal = Deal(rules, dealt, leader=leader)
        self.ruleset = ruleset
        self._begin(deal)
        self._leaders.append(deal.leader)
        self._action_switches = []
        self._checked = self.switches
        self._keep_switches()
        self._autopass_now()
        return self.deal

    def next_deal(
        self,
        custom: Mapping[int, Cards] | None = None,
        hands: Sequence[Cards] | None = None,
    ) -> Deal:
        """Start the next deal once the current one is over."""
        self._check_next()
        return self._start_deal(custom=custom, hands=hands)

    def set_rules(self, rules: RuleSet) -> None:
        """Change the rules from the next deal on; the deal in play keeps its rules."""
        if self.players not in rules.rules.players:
            raise IllegalAction(f"{rules.name} is not played by {self.players} players")
        if rules != self.next_ruleset:
            self.next_ruleset = rules
            self._log("rules", rules)

    @property
    def autopass(self) -> bool:
        """Pass automatically a seat with no reply to a 1-, 2- or 3-card play."""
        return self._autopass

    @autopass.setter
    def autopass(self, value: bool) -> None:
        # No pass happens here: the switch is read after the next action, so the seat to
        # act now keeps its turn. Replays do the same, which keeps them exact.
        if bool(value) != self._autopass:
            self._autopass = bool(value)
            self._log("autopass", self._autopass)

    @property
    def autopass_five(self) -> bool:
        """Extend autopass to 5-card plays."""
        return self._autopass_five

    @autopass_five.setter
    def autopass_five(self, value: bool) -> None:
        if bool(value) != self._autopass_five:
            self._autopass_five = bool(value)
            self._log("autopass_five", self._autopass_five)

    @property
    def switches(self) -> Switches:
        """The autopass switches in force now."""
        return Switches(self._autopass, self._autopass_five)

    def _log(self, key: str, value: RuleSet | bool) -> None:
        self.changes.append(Change(self.deal_number, len(self.deal.actions), key, value))

    # -- actions ------------------------------------------------------------------------------
    def play(self, seat: int, cards: Cards | Play) -> list[Action]:
        """Play for ``seat``; returns that action and any autopasses that follow it."""
        applied = [self.deal.play(seat, cards)]
        self._keep_switches()
        return applied + self._after()

    def pass_(self, seat: int) -> list[Action]:
        applied = [self.deal.pass_(seat)]
        self._keep_switches()
        return applied + self._after()

    def act(self, seat: int, play: Play | None) -> list[Action]:
        """A play or, with None, a pass."""
        return self.pass_(seat) if play is None else self.play(seat, play)

    def take_turn(self, seat: int, cards: Cards | Play | None) -> list[Applied]:
        """Play ``cards`` for ``seat`` (None: pass), as :meth:`act` does, and return that
        action and any autopasses that follow it, each with the public state right after it.

        >>> hands = ["3d 4d", "5c 6c", "7h 8h", "9s Ts"]
        >>> match = Match(RuleSet.preset("palm"), hands=hands, deals=1, autopass=False)
        >>> [(a.action.seat, a.state.turn, a.state.counts) for a in match.take_turn(0, "3d")]
        [(0, 1, (1, 2, 2, 2))]
        """
        deal = self.deal
        action = deal.pass_(seat) if cards is None else deal.play(seat, cards)
        self._keep_switches()
        applied = [Applied(action, PublicState.of(deal))]
        self._checked = self.switches  # as in _autopass_now
        while self.autopass_due():
            applied.append(Applied(self._autopass_once(), PublicState.of(deal)))
        self._finish_if_over()
        return applied

    def take_back(self, count: int) -> list[Action]:
        """Take back the last ``count`` actions of the deal in play (an undo at a local
        table), newest first; a finished deal's plays stand."""
        if self.deal.over:
            raise IllegalAction("The deal is over: its plays stand")
        if not 0 < count <= len(self.deal.actions):
            raise IllegalAction(f"The deal has {len(self.deal.actions)} actions to take back")
        taken = [self.deal.undo() for _ in range(count)]
        del self._action_switches[len(self.deal.actions) :]
        self._checked = self.switches
        return taken

    def _after(self) -> list[Action]:
        applied = self._autopass_now()
        self._finish_if_over()
        return applied

    def _finish_if_over(self) -> None:
        if self.deal.over and self.in_play:
            self._finish()

    def autopass_due(self) -> bool:
        """Whether the seat to act would be passed automatically now."""
        deal = self.deal
        if deal.over or deal.to_beat is None or not self.switches.passes(deal.to_beat.size):
            return False
        return not deal.legal_plays()

    def _autopass_now(self) -> list[Action]:
        # The seat to act next was passed, or not, by the switches read here: they are what
        # its next action is recorded with (a switch changed before it acts is read after).
        self._checked = self.switches
        applied: list[Action] = []
        while self.autopass_due():
            applied.append(self._autopass_once())
        return applied

    def _autopass_once(self) -> Action:
        """Pass the seat to act automatically (only when :meth:`autopass_due`)."""
        size = self.deal.to_beat.size if self.deal.to_beat else 0
        reason = f"no {size}-card play beats the table"
        action = self.deal.pass_(self.deal.turn, auto=True, reason=reason)
        self._keep_switches()
        return action

    def _keep_switches(self) -> None:
        """Give every action of the deal not yet given them the switches last checked
        (the deal may act by itself, as when its opening card is played alone)."""
        while len(self._action_switches) < len(self.deal.actions):
            self._action_switches.append(self._checked)

    def action_switches(self) -> tuple[Switches, ...]:
        """For each action of the deal in play, the autopass switches checked before it."""
        return tuple(self._action_switches)

    def view(self, seat: int | None) -> TableView:
        """What ``seat`` (None: a spectator) may know of the deal in play, with the scoring
        and the autopass switches, now and for each action: what a computer player reads."""
        return TableView.of(
            self.deal.view(seat),
            scoring=self.ruleset.match.scoring,
            switches=self.switches,
            action_switches=tuple(self._action_switches),
        )

    def _finish(self) -> None:
        deal = self.deal
        assert deal.winner is not None
        left = tuple(deal.hands)
        score = score_deal(self.ruleset, left, deal.winner)
        self._scored(
            DealResult(
                number=self.deal_number,
                rules=self.ruleset,
                dealt=deal.dealt,
                leader=deal.leader,
                actions=tuple(deal.actions),
                winner=deal.winner,
                cards_left=left,
                score=score,
                switches=tuple(self._action_switches),
            )
        )

    # -- questions ------------------------------------------------------------------------------
    def deal_records(self) -> list[DealRecord]:
        """Every deal so far, the one in play last (with ``result`` None until it is over)."""
        seconds = self.deal_seconds
        # fmt: off
        out = [DealRecord(r.number, r.rules, r.dealt, r.leader, r.actions, r,
                          seconds[r.number - 1], r.switches) for r in self.results]
        # fmt: on
        if self.in_play:
            d = self.deal
            now = (d.dealt, d.leader, tuple(d.actions), None, seconds[-1], self.action_switches())
            out.append(DealRecord(self.deal_number, self.ruleset, *now))
        return out

    def leaders(self) -> list[int]:
        """Who led each deal so far."""
        return list(self._leaders)


def _check_name(name: str) -> str:
    # Records are line-based, so a name must fit on one line.
    text = str(name).strip()
    if not text:
        raise IllegalAction("A player's name cannot be empty")
    if text.splitlines() != [text] or "\t" in text:
        raise IllegalAction(f"A player's name must be one line of text: {name!r}")
    return text


def _check_kind(kind: str) -> str:
    text = str(kind).strip()
    if text and (len(text.split()) != 1 or text.splitlines() != [text]):
        raise IllegalAction(f"A seat's kind must be one word, like human or greedy: {kind!r}")
    return text


def deal_with_choice(
    rules: Rules, players: int, rng: random.Random, chosen: Mapping[int, Cards]
) -> list[Mask]:
    """Deal at random, except that some seats hold cards they chose (all or some of a hand)."""
    if not chosen:
        return deal_hands(rules, players, rng)
    size = rules.hand_size(players)
    hands = [Mask(0)] * players
    taken = 0
    for seat, cards in chosen.items():
        if not 0 <= seat < players:
            raise IllegalAction(f"There is no seat {seat}")
        mask = to_mask(cards)
        if mask.bit_count() > size:
            raise IllegalAction(f"A hand holds {size} cards; {mask.bit_count()} were chosen")
        if mask & taken:
            raise IllegalAction(f"{CardSet(Mask(mask & taken))} chosen for two seats")
        hands[seat] = mask
        taken |= mask
    deck = [c for c in range(52) if not taken >> c & 1]
    rng.shuffle(deck)
    for seat in range(players):
        while hands[seat].bit_count() < size:
            hands[seat] = Mask(hands[seat] | 1 << deck.pop())
    return hands
