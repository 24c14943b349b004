"""One hand of Big 2 RevolutioN as a state machine: functions, counters, play, pass, drawing.

The expansion adds a second, 52-card Revolution deck to a 52-card rule set (see
:mod:`bigtwo.engine.revolution_cards` for the cards and plays and
:mod:`bigtwo.engine.revolution_rules` for the options). A turn runs in phases: the player to
act may activate Character cards one at a time, each followed by a counter window in which
every other seat in turn order may cancel it with a Revolution Q or decline; then the player
plays or passes; a player who passed may draw. The hand ends when a player has played all
their normal cards, or when the Revolution deck runs out. As in the 52-card
:class:`~bigtwo.engine.deal.Deal`, every action is checked first (``verify_*`` raises an
:class:`~bigtwo.engine.errors.IllegalAction` whose message is the reason in words), then
applied (returning an immutable :class:`RevolutionAction`), and can be taken back with
:meth:`RevolutionDeal.undo`. :meth:`RevolutionDeal.view` gives one seat what it may know: never
a card another seat drew face down, nor the card an exchange gave to someone else. This
module has no clock, no I/O and no global randomness, and leaves the 52-card deal untouched.

>>> from bigtwo.engine.rules import Rules
>>> from bigtwo.engine.revolution_cards import parse
>>> rules = Rules.preset("revolution")
>>> hand = RevolutionDeal(rules, ["3d 2s*", "4d", "5d", "6d"], deck=range(52, 103))
>>> hand.turn, str(hand.phase), [str(p) for p in hand.legal_plays()]
(0, 'act', ['3d'])
>>> [str(a) for a in (hand.activate(0, "2s*"), hand.decline(1), hand.decline(2), hand.decline(3))]
['0 activates 2s* (revolution)', '1 declines', '2 declines', '3 declines']
>>> hand.reversed, str(hand.phase), hand.turn
(True, 'act', 0)
>>> hand.play(1, "4d")
Traceback (most recent call last):
...
bigtwo.engine.errors.NotYourTurn: Not your turn: seat 0 is to play
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .cards import CARDS, RANKS, CardSet, Mask
from .deal import deal_hands, opening_of
from .errors import (
    BigTwoError,
    CannotPass,
    DealOver,
    DoesNotBeat,
    IllegalAction,
    MustInclude,
    NotACombination,
    NotationError,
    NotYourCards,
    NotYourTurn,
)
from .plays import Play, catalog_for
from .revolution_cards import (
    NORMAL_CARDS,
    REVOLUTION_BASE,
    REVOLUTION_CARDS,
    card_symbol,
    ids,
    parse,
    parse_card,
    starred_text,
    symbols,
    twin_rank,
)
from .revolution_rules import CHARACTER_RANKS, RevolutionRules
from .rules import Rules

GATHERING_SIZE = 4
DRAWS_PER_TURN = 2


class Phase(StrEnum):
    """Where a turn stands: the player to act may use functions and then play or pass
    (``act``); every other seat answers a function (``counter``); the player who passed
    draws (``draw``); the hand is ``over``."""

    ACT = "act"
    COUNTER = "counter"
    DRAW = "draw"
    OVER = "over"


class Move(StrEnum):
    """The kinds of action in a hand of the expansion."""

    PLAY = "play"
    PASS = "pass"
    ACTIVATE = "activate"  # a Character card discarded for its function
    COUNTER = "counter"  # a Revolution Q discarded to cancel it
    DECLINE = "decline"  # a seat lets the function stand
    EFFECT = "effect"  # the function takes effect (the window closed without a counter)
    DRAW = "draw"  # one card taken, from the deck (face down) or the Gathering
    STOP = "stop"  # a player who passed draws no more
    SKIP = "skip"  # a jumped player loses a turn
    REVEAL = "reveal"  # cards turned face up to fill the Gathering


class End(StrEnum):
    OUT = "out"  # a player has played every normal card
    EXHAUSTION = "exhaustion"  # the Revolution deck ran out


class RevolutionAction(NamedTuple):
    """One applied action. ``cards`` is a 104-bit mask (the play, the card activated,
    countered, drawn or given, the cards revealed); ``private`` the seats that may see those
    cards, a bit per seat (0: everyone). ``function`` and ``target`` describe an activation
    or its effect; ``source`` a draw's (``deck`` or ``gathering``). ``follows`` marks an
    action the deal made by itself after the one before it (undone together with it)."""

    seat: int
    move: Move
    cards: int = 0
    function: str = ""
    target: int = -1
    source: str = ""
    private: int = 0
    auto: bool = False
    follows: bool = False
    trick_over: bool = False
    given: int = 0  # the card an exchange would give: only its giver sees it here

    def seen_by(self, seat: int | None) -> RevolutionAction:
        """The action as ``seat`` (None: a spectator) may see it: a private card hidden."""
        action = self
        if self.given and seat != self.seat:
            action = action._replace(given=0)
        if self.private and not (seat is not None and self.private >> seat & 1):
            action = action._replace(cards=0)
        return action

    @property
    def is_pass(self) -> bool:
        return self.move is Move.PASS

    def __str__(self) -> str:
        shown = " ".join(starred_text(c) for c in ids(self.cards)) if self.cards else "a card"
        if self.move is Move.PLAY:
            return f"{self.seat} plays {shown}"
        if self.move is Move.ACTIVATE:
            to = f" on {self.target}" if self.target >= 0 else ""
            return f"{self.seat} activates {shown} ({self.function}){to}"
        if self.move is Move.EFFECT:
            to = f" on {self.target}" if self.target >= 0 else ""
            return f"{self.function} of {self.seat} takes effect{to}"
        if self.move is Move.DRAW:
            return f"{self.seat} draws {shown} from the {self.source}"
        if self.move is Move.COUNTER:
            return f"{self.seat} counters with {shown}"
        if self.move is Move.REVEAL:
            return f"the Gathering gets {shown}"
        words = {
            Move.PASS: "passes",
            Move.DECLINE: "declines",
            Move.STOP: "draws no more",
            Move.SKIP: "loses a turn (jump)",
        }
        return f"{self.seat} {words[self.move]}"


class RevolutionChoice(NamedTuple):
    """One thing the seat to act may do now, as :meth:`RevolutionDeal.choices` lists them
    and :meth:`RevolutionDeal.take` applies them: ``cards`` the play, the card activated or
    countered, or the Gathering card drawn (0 for the deck); ``target`` and ``give`` an
    exchange's player and card."""

    seat: int
    move: Move
    cards: int = 0
    target: int = -1
    give: int = -1


class Pending(NamedTuple):
    """A function activated and waiting for the counter window to close."""

    seat: int
    function: str
    card: int
    target: int
    give: int  # the normal card an exchange gives (a card id), else -1


@dataclass(frozen=True, slots=True)
class RevolutionView:
    """What one seat (``seat`` None: a spectator) may know of a hand of the expansion.

    ``hand`` is the seat's own cards (a 104-bit mask); ``normal_counts`` and
    ``revolution_counts`` every seat's counts; ``gathering`` the face-up cards;
    ``deck_left`` the cards left in the Revolution deck; ``discards`` the Character cards
    discarded for a function or a counter; ``played`` every card played; ``actions`` the
    history with every card this seat may not see hidden; ``to_act`` the seat whose answer
    is awaited now, ``phase`` what it is to do, ``pending`` the function waiting in the
    counter window (its card and target, never an exchange's card); ``legal`` and
    ``can_pass`` what this seat may play now; ``choices`` everything it may do now, in every
    phase (empty unless its answer is awaited): what a computer player chooses from."""

    seat: int | None
    rules: Rules
    hand: int
    normal_counts: tuple[int, ...]
    revolution_counts: tuple[int, ...]
    gathering: tuple[int, ...]
    deck_left: int
    discards: int
    played: int
    reversed: bool
    turn: int
    to_act: int
    phase: Phase
    leader: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    skips: int
    pending: tuple[int, str, int, int] | None  # seat, function, card, target
    functions_used: int
    draws_taken: int
    opening: int | None
    actions: tuple[RevolutionAction, ...]
    winner: int | None
    end: End | None
    legal: tuple[Play, ...]
    can_pass: bool
    choices: tuple[RevolutionChoice, ...] = ()

    @property
    def players(self) -> int:
        return len(self.normal_counts)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act and self.end is None


class _Saved(NamedTuple):
    hands: tuple[int, ...]
    top: int
    gathering: tuple[int, ...]
    discards: int
    played: int
    turn: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    opening: int | None
    reversed: bool
    phase: Phase
    pending: Pending | None
    responder: int
    skips: int
    used: int
    drawn: int
    after_draw: int
    winner: int | None
    end: End | None


def _card_arg(card: int | str) -> int:
    """One card of the expansion, from its id or its notation."""
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 104:
        raise NotationError(f"There is no card {card!r}: cards are 0 to 103", str(card))
    return int(card)


def _cards_arg(cards: int | str | Play) -> int:
    if isinstance(cards, Play):
        return cards.mask
    if isinstance(cards, str):
        return parse(cards)
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0 or cards >> 104:
        raise NotationError(f"{cards!r} is not a set of cards", str(cards))
    return cards


def shuffled_deck(rng: random.Random) -> tuple[int, ...]:
    """The Revolution deck shuffled: card ids 52..103, top card first."""
    deck = list(range(REVOLUTION_BASE, REVOLUTION_BASE + 52))
    rng.shuffle(deck)
    return tuple(deck)


class RevolutionDeal:
    """The state of one hand of the expansion. Seats are 0..players-1 and act in increasing
    order; ``turn`` is the seat whose turn it is and ``to_act`` the seat whose answer is
    awaited now (another seat while the counter window is open)."""

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int | str | CardSet],
        *,
        deck: Iterable[int],
        leader: int | None = None,
    ) -> None:
        """Start a hand from the normal cards dealt (``hands``) and the Revolution deck's
        order (``deck``, top card first); the Gathering is revealed from its top. A known
        position (a test, a puzzle) may give hands Revolution cards too: the deck then holds
        the others."""
        if rules.revolution is None:
            raise IllegalAction(f"{rules.name} does not play the revolution expansion")
        masks = [_hand(h) for h in hands]
        if len(masks) not in rules.players:
            allowed = ", ".join(str(p) for p in rules.players)
            raise IllegalAction(f"{rules.name} is played by {allowed} players, not {len(masks)}")
        seen = 0
        for m in masks:
            if m & seen:
                raise IllegalAction(f"{symbols(m & seen)} dealt twice")
            if not m:
                raise IllegalAction("Every player must be dealt cards")
            seen |= m
        order = tuple(deck)
        if sorted(order + tuple(ids(seen & REVOLUTION_CARDS))) != list(
            range(REVOLUTION_BASE, REVOLUTION_BASE + 52)
        ):
            raise IllegalAction(
                "The Revolution deck must hold each Revolution card not in a hand, once"
            )
        self.rules = rules
        self.options: RevolutionRules = rules.revolution
        self.cards = catalog_for(rules)
        self.players = len(masks)
        self.dealt: tuple[int, ...] = tuple(masks)
        self.aside = NORMAL_CARDS & ~seen  # normal cards not dealt (fewer than four players)
        self.deck: tuple[int, ...] = order
        self.hands: list[int] = list(masks)
        self.top = 0  # the next card of the deck to reveal or draw
        self.gathering: list[int] = []
        self.discards = 0
        self.played = 0
        self.actions: list[RevolutionAction] = []
        # Each seat's history as it may see it (the spectator's last), kept as actions come.
        self._seen: list[list[RevolutionAction]] = [[] for _ in range(len(masks) + 1)]
        self._saved: list[_Saved] = []
        self.to_beat: Play | None = None
        self.to_beat_seat = -1
        self.passes = 0
        self.reversed = False
        self.phase = Phase.ACT
        self.pending: Pending | None = None
        self.responder = -1
        self.skips = 0
        self.used = 0
        self.drawn = 0
        self.after_draw = -1
        self.winner: int | None = None
        self.end: End | None = None
        self.opening: int | None = None
        self._plays: list[tuple[int, list[Play]] | None] = [None] * self.players
        self._function = {rank: self.options.function_of(rank) for rank in CHARACTER_RANKS}
        if leader is None:
            seat, card = opening_of(rules, [Mask(m & NORMAL_CARDS) for m in masks])
            self.turn = seat
            if rules.first_play != "any":
                self.opening = int(card)
        else:
            if not 0 <= leader < self.players:
                raise IllegalAction(f"There is no seat {leader}")
            self.turn = leader
        self.leader = self.turn
        while len(self.gathering) < GATHERING_SIZE and self.top < len(self.deck):
            self.gathering.append(self.deck[self.top])
            self.top += 1

    @classmethod
    def from_seed(cls, rules: Rules, seed: int | str, players: int | None = None) -> RevolutionDeal:
        """A hand shuffled from a seed: the normal deck dealt, then the Revolution deck."""
        rng = random.Random(seed)
        hands = deal_hands(rules, players or rules.default_players, rng)
        return cls(rules, hands, deck=shuffled_deck(rng))

    # -- questions -------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.end is not None

    @property
    def is_lead(self) -> bool:
        return self.to_beat is None

    @property
    def to_act(self) -> int:
        """The seat whose action is awaited: the responder while the counter window is open."""
        return self.responder if self.phase is Phase.COUNTER else self.turn

    @property
    def deck_left(self) -> int:
        return len(self.deck) - self.top

    def normal_counts(self) -> list[int]:
        return [(h & NORMAL_CARDS).bit_count() for h in self.hands]

    def revolution_counts(self) -> list[int]:
        return [(h & REVOLUTION_CARDS).bit_count() for h in self.hands]

    def next_seat(self, seat: int) -> int:
        return (seat + 1) % self.players

    def function_of(self, card: int) -> str:
        """What a card does when activated: a Character's function, else ``none``."""
        if card < REVOLUTION_BASE:
            return "none"
        return self._function.get(RANKS[twin_rank(card)], "none")

    def plays_of(self, seat: int) -> list[Play]:
        """Every play of ``seat``'s hand. When cards have only left the hand since the last
        call its plays are filtered, not enumerated again (as the 52-card movegen does)."""
        hand = self.hands[seat]
        known = self._plays[seat]
        if known is not None:
            before, plays = known
            if before == hand:
                return plays
            if not hand & ~before:
                gone = before & ~hand
                plays = [p for p in plays if not p.mask & gone]
                self._plays[seat] = (hand, plays)
                return plays
        plays = self.cards.plays_in(hand)
        self._plays[seat] = (hand, plays)
        return plays

    def legal_plays(self, seat: int | None = None) -> list[Play]:
        """The plays the seat to act may make now (empty for other seats and phases)."""
        if seat is None:
            seat = self.turn
        if self.end is not None or self.phase is not Phase.ACT or seat != self.turn:
            return []
        plays = self.plays_of(seat)
        if self.to_beat is None:
            if self.opening is None:
                return list(plays)
            bit = 1 << self.opening
            return [p for p in plays if p.mask & bit]
        beats, to_beat, reversed_ = self.cards.beats, self.to_beat, self.reversed
        return [p for p in plays if beats(p, to_beat, reversed=reversed_)]

    def can_pass(self, seat: int | None = None) -> bool:
        seat = self.turn if seat is None else seat
        return (
            self.end is None
            and self.phase is Phase.ACT
            and seat == self.turn
            and self.to_beat is not None
        )

    def activations(self, seat: int | None = None) -> list[tuple[int, str]]:
        """The Character cards ``seat`` may activate now and their functions (targets and
        the card an exchange gives are chosen apart: see :meth:`exchange_choices`)."""
        seat = self.turn if seat is None else seat
        out: list[tuple[int, str]] = []
        for card in ids(self.hands[seat] & REVOLUTION_CARDS):
            function = self.function_of(card)
            if function in ("none", "counter"):
                continue
            try:
                self._check_activation(seat, card, function)
            except IllegalAction:
                continue
            out.append((card, function))
        return out

    def exchange_choices(self, seat: int) -> list[int]:
        """The normal cards an exchange by ``seat`` may give."""
        hand = self.hands[seat] & NORMAL_CARDS
        if hand.bit_count() < 2:
            return []
        return [c for c in ids(hand) if c != self.opening]

    def counters(self, seat: int) -> list[int]:
        """The cards ``seat`` may counter with now (empty unless it is asked)."""
        if self.phase is not Phase.COUNTER or seat != self.responder:
            return []
        return [c for c in ids(self.hands[seat] & REVOLUTION_CARDS) if self._counters(c)]

    def draw_choices(self) -> list[int | str]:
        """What the player drawing may take now: ``deck`` and cards of the Gathering."""
        if self.phase is not Phase.DRAW:
            return []
        out: list[int | str] = ["deck"] if self.top < len(self.deck) else []
        for card in self.gathering:
            if not (self.drawn and self._is_character(card)):
                out.append(card)
        return out

    def _is_character(self, card: int) -> bool:
        return card >= REVOLUTION_BASE and RANKS[twin_rank(card)] in "JQKA2"

    def _counters(self, card: int) -> bool:
        return self.function_of(card) == "counter"

    def choices(self) -> list[RevolutionChoice]:
        """Everything the seat to act may do now (an exchange once per player and card)."""
        return self._choices(None)

    def _choices(self, legal: list[Play] | None) -> list[RevolutionChoice]:
        """:meth:`choices`, given the legal plays when they are known already."""
        if self.end is not None:
            return []
        seat = self.to_act
        if self.phase is Phase.COUNTER:
            out = [RevolutionChoice(seat, Move.COUNTER, 1 << c) for c in self.counters(seat)]
            return out + [RevolutionChoice(seat, Move.DECLINE)]
        if self.phase is Phase.DRAW:
            out = [
                RevolutionChoice(seat, Move.DRAW, 0 if c == "deck" else 1 << int(c))
                for c in self.draw_choices()
            ]
            return out + [RevolutionChoice(seat, Move.STOP)]
        if legal is None:
            legal = self.legal_plays(seat)
        out = [RevolutionChoice(seat, Move.PLAY, p.mask) for p in legal]
        if self.can_pass(seat):
            out.append(RevolutionChoice(seat, Move.PASS))
        for card, function in self.activations(seat):
            if function != "exchange":
                out.append(RevolutionChoice(seat, Move.ACTIVATE, 1 << card))
                continue
            for target in range(self.players):
                if target != seat:
                    out += [
                        RevolutionChoice(seat, Move.ACTIVATE, 1 << card, target, give)
                        for give in self.exchange_choices(seat)
                    ]
        return out

    def take(self, choice: RevolutionChoice) -> RevolutionAction:
        """Apply one of :meth:`choices` (checked like any other action)."""
        seat, move = choice.seat, choice.move
        if move is Move.PLAY:
            return self.play(seat, choice.cards)
        if move is Move.PASS:
            return self.pass_(seat)
        if move is Move.ACTIVATE:
            card = choice.cards.bit_length() - 1
            if choice.target < 0:
                return self.activate(seat, card)
            return self.activate(seat, card, choice.target, choice.give)
        if move is Move.COUNTER:
            return self.counter(seat, choice.cards.bit_length() - 1)
        if move is Move.DECLINE:
            return self.decline(seat)
        if move is Move.DRAW:
            return self.draw(seat, choice.cards.bit_length() - 1 if choice.cards else "deck")
        if move is Move.STOP:
            return self.stop(seat)
        raise IllegalAction(f"{move} is not something a player chooses")

    def redo(self, action: RevolutionAction) -> RevolutionAction:
        """Apply again an action of a full record (one the players chose, not one the deal
        made by itself): the replay of records and of positions. A deck draw must find the
        card the record says on top of the deck."""
        if action.follows:
            raise IllegalAction(f"'{action}' is made by the deal itself")
        seat, move = action.seat, action.move
        if move is Move.PASS:
            return self.pass_(seat, auto=action.auto)
        if move is Move.DRAW and action.source == "deck":
            card = action.cards.bit_length() - 1
            if self.top < len(self.deck) and self.deck[self.top] != card:
                top = card_symbol(self.deck[self.top])
                raise IllegalAction(f"The deck's top card is {top}, not {card_symbol(card)}")
            return self.draw(seat, "deck")
        give = action.given.bit_length() - 1 if action.given else -1
        return self.take(RevolutionChoice(seat, move, action.cards, action.target, give))

    # -- can: each check as a question ----------------------------------------------------------
    def can_play(self, seat: int, cards: int | str | Play) -> bool:
        return _passes(self.verify_play, seat, cards)

    def can_activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> bool:
        return _passes(self.verify_activate, seat, card, target, give)

    def can_counter(self, seat: int, card: int | str) -> bool:
        return _passes(self.verify_counter, seat, card)

    def can_decline(self, seat: int) -> bool:
        return _passes(self.verify_decline, seat)

    def can_draw(self, seat: int, source: int | str) -> bool:
        return _passes(self.verify_draw, seat, source)

    def can_stop(self, seat: int) -> bool:
        return _passes(self.verify_stop, seat)

    # -- checks ------------------------------------------------------------------------------
    def _verify_acting(self, seat: int) -> None:
        if self.end is not None:
            raise DealOver("The hand is over")
        if self.phase is Phase.COUNTER:
            function = self.pending.function if self.pending else "function"
            raise NotYourTurn(
                f"Wait: seat {self.responder} is answering the {function} (counter or decline)",
                seat=self.responder,
            )
        if seat != self.turn:
            raise NotYourTurn(f"Not your turn: seat {self.turn} is to play", seat=self.turn)
        if self.phase is Phase.DRAW:
            raise IllegalAction("You passed: draw a card or stop drawing", "draw_or_stop")

    def verify_activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> Pending:
        """The function ``seat`` would activate with ``card``; else raises the reason."""
        self._verify_acting(seat)
        c = _card_arg(card)
        if not self.hands[seat] >> c & 1:
            raise NotYourCards(
                f"Not your card: you do not hold {card_symbol(c)}", cards=card_symbol(c)
            )
        if c < REVOLUTION_BASE:
            raise IllegalAction(
                f"Only a Revolution card has a function: {card_symbol(c)} is a normal card",
                "normal_card",
                card=card_symbol(c),
            )
        function = self.function_of(c)
        rank = RANKS[twin_rank(c)].replace("T", "10")
        if not self._is_character(c):
            raise IllegalAction(
                f"A Revolution {rank} is a Civilian card: it has no function",
                "civilian_card",
                card=card_symbol(c),
            )
        if function == "none":
            raise IllegalAction(
                f"A Revolution {rank} has no function under these rules",
                "function_off",
                card=card_symbol(c),
            )
        if function == "counter":
            raise IllegalAction(
                f"A Revolution {rank} has no function in your own turn: it only counters "
                "another player's function",
                "counter_in_own_turn",
                card=card_symbol(c),
            )
        self._check_activation(seat, c, function)
        tgt, given = -1, -1
        if function == "exchange":
            if target is None or not isinstance(target, int) or not 0 <= target < self.players:
                raise IllegalAction("Name the player to give a card to", "name_a_player")
            if target == seat:
                raise IllegalAction("Give the card to another player", "give_to_another")
            if give is None:
                raise IllegalAction("Name the normal card you give", "name_a_card")
            given = _card_arg(give)
            if not self.hands[seat] >> given & 1:
                raise NotYourCards(
                    f"Not your card: you do not hold {card_symbol(given)}",
                    cards=card_symbol(given),
                )
            if given >= REVOLUTION_BASE:
                raise IllegalAction(
                    f"An exchange gives a normal card, not {card_symbol(given)}",
                    "give_a_normal_card",
                    card=card_symbol(given),
                )
            if given == self.opening:
                raise IllegalAction(
                    f"{card_symbol(given)} must open the hand: you cannot give it away",
                    "give_the_opening_card",
                    card=card_symbol(given),
                )
            tgt = target
        elif target is not None or give is not None:
            raise IllegalAction(
                f"A {function} names no player and gives no card", "names_no_player"
            )
        return Pending(seat, function, c, tgt, given)

    def _check_activation(self, seat: int, card: int, function: str) -> None:
        limit = self.options.functions_per_turn
        if limit and self.used >= limit:
            what = "function" if limit == 1 else "functions"
            raise IllegalAction(
                f"You have used your {limit} {what} this turn", "functions_used", limit=limit
            )
        if function == "command" and self.to_beat is None:
            raise IllegalAction(
                "You lead already: there is no trick on the table to end", "command_when_leading"
            )
        if function == "exchange" and (self.hands[seat] & NORMAL_CARDS).bit_count() < 2:
            raise IllegalAction("You cannot give away your last normal card", "last_normal_card")

    def verify_counter(self, seat: int, card: int | str) -> int:
        """The card ``seat`` would counter with; else raises the reason in words."""
        if self.end is not None:
            raise DealOver("The hand is over")
        c = _card_arg(card)
        if self.phase is not Phase.COUNTER:
            if self.actions and self.actions[-1].move is Move.COUNTER and self._counters(c):
                raise IllegalAction("A Q cannot counter a Q", "q_cannot_counter_q")
            raise IllegalAction("There is no function to counter now", "nothing_to_counter")
        if seat != self.responder:
            raise NotYourTurn(
                f"Not your answer: seat {self.responder} is asked now", seat=self.responder
            )
        if not self.hands[seat] >> c & 1:
            raise NotYourCards(
                f"Not your card: you do not hold {card_symbol(c)}", cards=card_symbol(c)
            )
        if not self._counters(c):
            raise IllegalAction(
                "Only a Revolution Q can counter", "only_q_counters", card=card_symbol(c)
            )
        return c

    def verify_decline(self, seat: int) -> None:
        if self.end is not None:
            raise DealOver("The hand is over")
        if self.phase is not Phase.COUNTER:
            raise IllegalAction("There is no function to answer now", "nothing_to_answer")
        if seat != self.responder:
            raise NotYourTurn(
                f"Not your answer: seat {self.responder} is asked now", seat=self.responder
            )

    def verify_play(self, seat: int, cards: int | str | Play) -> Play:
        """The play if ``seat`` may play ``cards`` now; else raises the reason in words."""
        self._verify_acting(seat)
        mask = _cards_arg(cards)
        if mask & ~self.hands[seat]:
            missing = symbols(mask & ~self.hands[seat])
            raise NotYourCards(f"Not your cards: you do not hold {missing}", cards=missing)
        play = self.cards.classify(mask)
        if play is None:
            what = symbols(mask) or "nothing"
            raise NotACombination(f"Not a legal combination: {what}", cards=symbols(mask))
        if self.to_beat is None:
            if self.opening is not None and not mask >> self.opening & 1:
                lead = CARDS[self.opening].symbol()
                raise MustInclude(f"First play must include {lead}", card=lead)
        elif not self.cards.beats(play, self.to_beat, reversed=self.reversed):
            order = " (the order is reversed)" if self.reversed else ""
            raise DoesNotBeat(
                f"That does not beat {self.to_beat.symbols()}{order}",
                cards=self.to_beat.symbols(),
            )
        return play

    def verify_pass(self, seat: int) -> None:
        self._verify_acting(seat)
        if self.to_beat is None:
            raise CannotPass("You lead: you cannot pass")

    def verify_draw(self, seat: int, source: int | str) -> int:
        """The card ``seat`` would take (``deck``, or a card of the Gathering); -1 for the
        deck's top card, which nobody may know before it is drawn."""
        if self.end is not None:
            raise DealOver("The hand is over")
        if self.phase is not Phase.DRAW:
            raise IllegalAction("Only a player who has just passed may draw", "draw_after_pass")
        if seat != self.turn:
            raise NotYourTurn(f"Not your turn: seat {self.turn} is drawing", seat=self.turn)
        if source == "deck":
            if self.top >= len(self.deck):
                raise IllegalAction("The Revolution deck is empty", "deck_empty")
            return -1
        c = _card_arg(source)
        if c not in self.gathering:
            raise IllegalAction(
                f"{card_symbol(c)} is not in the Gathering",
                "not_in_gathering",
                card=card_symbol(c),
            )
        if self.drawn and self._is_character(c):
            raise IllegalAction(
                "A Character from the Gathering is a whole draw: take it first or not at all",
                "character_is_a_whole_draw",
                card=card_symbol(c),
            )
        return c

    def verify_stop(self, seat: int) -> None:
        if self.end is not None:
            raise DealOver("The hand is over")
        if self.phase is not Phase.DRAW or seat != self.turn:
            raise IllegalAction(
                "Only a player who has just passed may stop drawing", "stop_after_pass"
            )

    # -- actions -----------------------------------------------------------------------------
    def activate(
        self, seat: int, card: int | str, target: int | None = None, give: int | str | None = None
    ) -> RevolutionAction:
        """Discard a Character card for its function; the counter window opens."""
        pending = self.verify_activate(seat, card, target, give)
        self._save()
        self.hands[seat] &= ~(1 << pending.card)
        self.discards |= 1 << pending.card
        self.used += 1
        self.pending = pending
        self.phase = Phase.COUNTER
        self.responder = self.next_seat(seat)
        return self._log(
            RevolutionAction(
                seat,
                Move.ACTIVATE,
                1 << pending.card,
                pending.function,
                pending.target,
                given=1 << pending.give if pending.give >= 0 else 0,
            )
        )

    def counter(self, seat: int, card: int | str) -> RevolutionAction:
        """Discard a Revolution Q to cancel the function in the counter window."""
        c = self.verify_counter(seat, card)
        self._save()
        assert self.pending is not None
        self.hands[seat] &= ~(1 << c)
        self.discards |= 1 << c
        function = self.pending.function
        self._close_window()
        return self._log(RevolutionAction(seat, Move.COUNTER, 1 << c, function))

    def decline(self, seat: int, *, auto: bool = False) -> RevolutionAction:
        """Let the function stand; once every other seat has, it takes effect."""
        self.verify_decline(seat)
        self._save()
        action = self._log(RevolutionAction(seat, Move.DECLINE, auto=auto))
        nxt = self.next_seat(seat)
        if self.pending is not None and nxt == self.pending.seat:
            self._take_effect(self.pending)
        else:
            self.responder = nxt
        return action

    def _close_window(self) -> None:
        assert self.pending is not None
        self.turn = self.pending.seat
        self.pending, self.responder, self.phase = None, -1, Phase.ACT

    def _take_effect(self, pending: Pending) -> None:
        self._close_window()
        seat, function = pending.seat, pending.function
        cards, private = 0, 0
        if function == "jump":
            self.skips |= 1 << self.next_seat(seat)
        elif function == "command":
            self.to_beat, self.to_beat_seat, self.passes = None, seat, 0
        elif function == "exchange":
            self.hands[seat] &= ~(1 << pending.give)
            self.hands[pending.target] |= 1 << pending.give
            cards, private = 1 << pending.give, 1 << seat | 1 << pending.target
        elif function == "revolution":
            self.reversed = not self.reversed
        self._log(
            RevolutionAction(
                seat,
                Move.EFFECT,
                cards,
                function,
                pending.target,
                private=private,
                follows=True,
                trick_over=function == "command",
            )
        )

    def play(self, seat: int, cards: int | str | Play) -> RevolutionAction:
        """Play ``cards`` (normal and Revolution cards) for ``seat`` after checking them."""
        play = self.verify_play(seat, cards)
        self._save()
        self.hands[seat] &= ~play.mask
        self.played |= play.mask
        self.to_beat, self.to_beat_seat, self.passes, self.opening = play, seat, 0, None
        self.used = 0
        out = not self.hands[seat] & NORMAL_CARDS
        action = self._log(RevolutionAction(seat, Move.PLAY, play.mask, trick_over=out))
        if out:
            self.winner, self.end, self.phase = seat, End.OUT, Phase.OVER
        else:
            self._give_turn(self.next_seat(seat))
        return action

    def pass_(self, seat: int, *, auto: bool = False) -> RevolutionAction:
        """Pass for ``seat``; the player may then draw. An automatic pass (``auto``) draws
        as the rules' ``auto_draw`` says, and nothing else."""
        self.verify_pass(seat)
        self._save()
        self.used = 0
        nxt, trick_over = self._after_pass(seat)
        action = self._log(RevolutionAction(seat, Move.PASS, auto=auto, trick_over=trick_over))
        if self.top < len(self.deck) or self.gathering:
            self.phase, self.drawn, self.after_draw = Phase.DRAW, 0, nxt
            if auto:
                self._auto_draw(seat)
        else:
            self._give_turn(nxt)
        return action

    def _auto_draw(self, seat: int) -> None:
        if self.options.auto_draw == "two":
            while self.phase is Phase.DRAW and self.top < len(self.deck):
                self._draw(seat, -1, follows=True)
        if self.phase is Phase.DRAW:
            self._stop(seat, follows=True)

    def _after_pass(self, seat: int) -> tuple[int, bool]:
        """Count a pass (or a lost turn): the next seat to act, and whether the trick ended."""
        self.passes += 1
        if self.passes >= self.players - 1:
            nxt = self.to_beat_seat
            self.to_beat, self.passes = None, 0
            return nxt, True
        return self.next_seat(seat), False

    def _give_turn(self, seat: int) -> None:
        """The turn passes to ``seat``, or past it while jumped seats lose theirs."""
        self.phase, self.drawn, self.after_draw, self.used = Phase.ACT, 0, -1, 0
        while self.skips >> seat & 1:
            self.skips &= ~(1 << seat)
            if self.to_beat is None:  # a jumped leader loses the lead to the next player
                nxt, over = self.next_seat(seat), False
            else:
                nxt, over = self._after_pass(seat)
            self._log(RevolutionAction(seat, Move.SKIP, auto=True, follows=True, trick_over=over))
            seat = nxt
        self.turn = seat

    def draw(self, seat: int, source: int | str) -> RevolutionAction:
        """Take one card after passing: ``deck`` (face down) or a card of the Gathering."""
        card = self.verify_draw(seat, source)
        self._save()
        return self._draw(seat, card, follows=False)

    def _draw(self, seat: int, card: int, *, follows: bool) -> RevolutionAction:
        if card < 0:
            card = self.deck[self.top]
            self.top += 1
            source, private = "deck", 1 << seat
        else:
            self.gathering.remove(card)
            source, private = "gathering", 0
        self.hands[seat] |= 1 << card
        self.drawn += 1
        character = source == "gathering" and self._is_character(card)
        action = self._log(
            RevolutionAction(
                seat, Move.DRAW, 1 << card, source=source, private=private, follows=follows
            )
        )
        self._refill()
        if self.top >= len(self.deck):
            self._exhausted()
        elif character or self.drawn >= DRAWS_PER_TURN or not self.draw_choices():
            self._give_turn(self.after_draw)
        return action

    def _refill(self) -> None:
        revealed = 0
        while len(self.gathering) < GATHERING_SIZE and self.top < len(self.deck):
            card = self.deck[self.top]
            self.top += 1
            self.gathering.append(card)
            revealed |= 1 << card
        if revealed:
            self._log(RevolutionAction(-1, Move.REVEAL, revealed, follows=True))

    def stop(self, seat: int) -> RevolutionAction:
        """Draw no more (a player who passed need not draw at all)."""
        self.verify_stop(seat)
        self._save()
        return self._stop(seat, follows=False)

    def _stop(self, seat: int, *, follows: bool) -> RevolutionAction:
        action = self._log(RevolutionAction(seat, Move.STOP, follows=follows))
        self._give_turn(self.after_draw)
        return action

    def _exhausted(self) -> None:
        counts = self.normal_counts()
        fewest = min(counts)
        seat = self.leader
        while counts[seat] != fewest:
            seat = self.next_seat(seat)
        self.winner, self.end, self.phase = seat, End.EXHAUSTION, Phase.OVER

    def _log(self, action: RevolutionAction) -> RevolutionAction:
        self.actions.append(action)
        seen = self._seen
        for seat in range(self.players):
            seen[seat].append(action.seen_by(seat))
        seen[-1].append(action.seen_by(None))
        return action

    def _save(self) -> None:
        self._saved.append(self._state())

    def _state(self) -> _Saved:
        """What an undo restores: the hand's whole state but its list of actions."""
        return _Saved(
            tuple(self.hands),
            self.top,
            tuple(self.gathering),
            self.discards,
            self.played,
            self.turn,
            self.to_beat,
            self.to_beat_seat,
            self.passes,
            self.opening,
            self.reversed,
            self.phase,
            self.pending,
            self.responder,
            self.skips,
            self.used,
            self.drawn,
            self.after_draw,
            self.winner,
            self.end,
        )

    def undo(self) -> RevolutionAction:
        """Take back the last action (with what the deal did by itself after it)."""
        if not self._saved:
            raise IllegalAction("Nothing to undo")
        while self.actions[-1].follows:
            self.actions.pop()
        action = self.actions.pop()
        for history in self._seen:
            del history[len(self.actions) :]
        s = self._saved.pop()
        self.hands, self.top, self.gathering = list(s.hands), s.top, list(s.gathering)
        self.discards, self.played, self.turn = s.discards, s.played, s.turn
        self.to_beat, self.to_beat_seat, self.passes = s.to_beat, s.to_beat_seat, s.passes
        self.opening, self.reversed, self.phase = s.opening, s.reversed, s.phase
        self.pending, self.responder, self.skips = s.pending, s.responder, s.skips
        self.used, self.drawn, self.after_draw = s.used, s.drawn, s.after_draw
        self.winner, self.end = s.winner, s.end
        return action

    def state_key(self) -> tuple[object, ...]:
        """Everything the hand's future depends on, for tests of undo and replay."""
        return (*self._state(), tuple(self.actions))

    # -- views -------------------------------------------------------------------------------
    def view(self, seat: int | None) -> RevolutionView:
        """What ``seat`` may know (None: a spectator, who holds no hand): its own cards, the
        public cards and counts, and the history with every card it may not see hidden."""
        if seat is not None and not 0 <= seat < self.players:
            raise IllegalAction(f"There is no seat {seat}")
        own = 0 if seat is None else self.hands[seat]
        opening = self.opening if self.opening is not None and own >> self.opening & 1 else None
        pending = None
        if self.pending is not None:
            p = self.pending
            pending = (p.seat, p.function, p.card, p.target)
        acting = seat is not None and seat == self.turn and self.phase is Phase.ACT
        legal = self.legal_plays(seat) if acting else []
        return RevolutionView(
            seat=seat,
            rules=self.rules,
            hand=own,
            normal_counts=tuple(self.normal_counts()),
            revolution_counts=tuple(self.revolution_counts()),
            gathering=tuple(self.gathering),
            deck_left=self.deck_left,
            discards=self.discards,
            played=self.played,
            reversed=self.reversed,
            turn=self.turn,
            to_act=self.to_act,
            phase=self.phase,
            leader=self.leader,
            to_beat=self.to_beat,
            to_beat_seat=self.to_beat_seat,
            passes=self.passes,
            skips=self.skips,
            pending=pending,
            functions_used=self.used,
            draws_taken=self.drawn,
            opening=opening,
            actions=tuple(self._history(seat)),
            winner=self.winner,
            end=self.end,
            legal=tuple(legal),
            can_pass=acting and self.can_pass(seat),
            choices=(
                tuple(self._choices(legal if acting else None))
                if seat is not None and seat == self.to_act
                else ()
            ),
        )

    def _history(self, seat: int | None) -> list[RevolutionAction]:
        """The actions as ``seat`` sees them (None: a spectator): what its view shows."""
        return self._seen[-1 if seat is None else seat]

    # -- invariants ----------------------------------------------------------------------------
    def problems(self, since: int = 0) -> list[str]:
        """What is wrong with the state, in words (nothing, unless the engine has a bug): the
        104 cards each in exactly one place, and no seat's view showing a hidden card (in
        the history its view shows, from action ``since`` on: a fuzz run checks each action
        once)."""
        out: list[str] = []
        places = [*self.hands, self.aside, self.played, self.discards, _mask(self.gathering)]
        places.append(_mask(self.deck[self.top :]))
        seen = 0
        for place in places:
            if place & seen:
                out.append(f"{symbols(place & seen)} in two places")
            seen |= place
        if seen != (1 << 104) - 1:
            out.append(f"{symbols(((1 << 104) - 1) & ~seen)} nowhere")
        if len(self.gathering) < GATHERING_SIZE and self.top < len(self.deck):
            out.append("the Gathering is not full while the deck holds cards")
        for seat in range(self.players):
            for action in self._history(seat)[since:]:
                if action.private and not action.private >> seat & 1 and action.cards:
                    out.append(f"seat {seat} sees a card private to others: {action}")
                if action.given and action.seat != seat:
                    out.append(f"seat {seat} sees the card another's exchange would give")
        return out


def _passes(verify: Callable[..., object], *args: object) -> bool:
    """Whether a ``verify_*`` check lets these arguments through."""
    try:
        verify(*args)
    except BigTwoError:
        return False
    return True


def _mask(cards: Iterable[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _hand(cards: int | str | CardSet) -> int:
    if isinstance(cards, CardSet):
        return cards.mask
    if isinstance(cards, str):
        return parse(cards)
    return int(cards)


__all__ = [
    "RevolutionChoice",
    "End",
    "Move",
    "Phase",
    "RevolutionAction",
    "RevolutionDeal",
    "RevolutionView",
    "shuffled_deck",
]
