"""What a seat may do now in a hand of Big 2 RevolutioN, and the reason in words when it may
not.

:class:`RevolutionChecks` is the part of :class:`~bigtwo.engine.revolution.RevolutionDeal`
that reads the hand's state and changes nothing: the seat to act, its legal plays, functions,
counters and draws and every choice it has (:meth:`~RevolutionChecks.choices`), and the seats
an open counter window asks, each of which may answer before its turn
(:meth:`~RevolutionChecks.asked`, :meth:`~RevolutionChecks.verify_answer`); each
``verify_*`` returns what an action would do or raises an
:class:`~bigtwo.engine.errors.IllegalAction` (a subclass names the kind: not your turn, not
your cards, ...). The trick's own questions
and checks (legal plays, passing, ``pass_lock`` and ``last_card``) are the 52-card deal's,
from :class:`~bigtwo.engine.trick.Trick`.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import RANKS, Cards, CardSet
from .errors import BigTwoError, DealOver, IllegalAction, NotationError, NotYourCards, NotYourTurn
from .plays import Catalog, Play
from .revolution_cards import (
    NORMAL_CARDS,
    REVOLUTION_BASE,
    REVOLUTION_CARDS,
    card_symbol,
    ids,
    parse,
    parse_card,
    twin_rank,
)
from .revolution_rules import RevolutionRules
from .revolution_types import End, Pending, Phase, RevolutionChoice
from .rules import REVOLUTION
from .trick import Trick
from .views import Action, Move

# The Revolution J, the first Character card: the Revolution J, Q, K, A and 2 are the last 20.
FIRST_CHARACTER = REVOLUTION_BASE + 4 * RANKS.index("J")


class RevolutionChecks(Trick):
    """The questions and checks of :class:`~bigtwo.engine.revolution.RevolutionDeal`, on the
    state that the deal keeps (declared here for them). The trick's own (the legal plays,
    ``verify_play``, ``verify_pass``, ``pass_lock`` and ``last_card``) are the 52-card deal's,
    from :class:`~bigtwo.engine.trick.Trick`."""

    options: RevolutionRules
    cards: Catalog
    hands: list[int]
    deck: tuple[int, ...]
    top: int
    gathering: list[int]
    actions: list[Action]
    phase: Phase
    pending: Pending | None
    responder: int
    used: int
    drawn: int
    end: End | None
    _function: dict[str, str]
    _plays: list[tuple[int, list[Play]] | None]
    game = REVOLUTION
    # ``last_card`` counts the next player's normal cards: Revolution cards keep nobody in.
    _last_card_words = "one normal card"

    @property  # the trick's catalogue is the one the hand keeps (as ``cards``)
    def catalog(self) -> Catalog:
        """The rules' catalogue of plays (the hand keeps it as ``cards``)."""
        return self.cards

    @catalog.setter
    def catalog(self, value: Catalog) -> None:
        self.cards = value

    def function_of(self, card: int) -> str:
        """What a card does when activated: a Character's function, else ``none``."""
        if card < REVOLUTION_BASE:
            return "none"
        return self._function.get(RANKS[twin_rank(card)], "none")

    def _is_character(self, card: int) -> bool:
        return card >= FIRST_CHARACTER

    def _counters(self, card: int) -> bool:
        return self.function_of(card) == "counter"

    # -- what may be done now -----------------------------------------------------------------
    @property
    def to_act(self) -> int:
        """The seat whose action is awaited: the responder while the counter window is open."""
        return self.responder if self.phase is Phase.COUNTER else self.turn

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

    def _may_act(self, seat: int) -> bool:
        return self.end is None and self.phase is Phase.ACT and seat == self.turn

    def _plays_now(self, seat: int) -> list[Play]:
        plays = self.plays_of(seat)
        if self.to_beat is None:
            if self.opening is None:
                return list(plays)
            bit = 1 << self.opening
            return [p for p in plays if p.mask & bit]
        beats, to_beat, reversed_ = self.cards.beats, self.to_beat, self.reversed
        return [p for p in plays if beats(p, to_beat, reversed=reversed_)]

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

    # -- the counter window: it asks every other seat, in turn order from the activator's next,
    # and takes their answers in that order (``responder`` is the seat whose answer is due); a
    # table may take each answer early (``verify_answer``) and hold it until it is due.
    def asked(self) -> list[int]:
        """The seats the open counter window asks, in turn order from the activator's next
        (empty when no window is open)."""
        if self.phase is not Phase.COUNTER or self.pending is None:
            return []
        first, n = self.pending.seat, self.players
        return [(first + k) % n for k in range(1, n)]

    def counters(self, seat: int) -> list[int]:
        """The cards ``seat`` may counter with: any seat the open window asks whose answer it
        has not taken yet (empty for every other seat, and when no window is open)."""
        if not self.can_answer(seat, None):
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
        out = self._trick_choices(seat, legal)
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

    def can_answer(self, seat: int, card: int | str | None) -> bool:
        """Whether :meth:`verify_answer` lets this answer through."""
        return _passes(self.verify_answer, seat, card)

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
        """The card ``seat`` would counter with now; else raises the reason in words."""
        counter = self._verify_answer(seat, card, due=True)
        assert counter is not None  # a card was named
        return counter

    def verify_decline(self, seat: int) -> None:
        self._verify_answer(seat, None, due=True)

    def verify_answer(self, seat: int, card: int | str | None) -> int | None:
        """Check an answer to the open counter window from any seat it asks, before the window
        comes to that seat: a counter with ``card``, or a decline (``card`` None). Returns the
        card a counter discards (None for a decline); else raises the reason as
        :meth:`verify_counter` and :meth:`verify_decline` word it for the seat whose answer is
        due. A table that takes answers early checks each here when it comes, and applies it
        with :meth:`counter` or :meth:`decline` once the window reaches that seat
        (``responder``): nothing happens in between, so the answer still holds then."""
        return self._verify_answer(seat, card, due=False)

    def _verify_answer(self, seat: int, card: int | str | None, *, due: bool) -> int | None:
        """The checks of an answer, from the seat whose answer is ``due`` or any seat asked."""
        if self.end is not None:
            raise DealOver("The hand is over")
        c = None if card is None else _card_arg(card)
        pending = self.pending
        if self.phase is not Phase.COUNTER or pending is None:
            if c is None:
                raise IllegalAction("There is no function to answer now", "nothing_to_answer")
            if self.actions and self.actions[-1].move is Move.COUNTER and self._counters(c):
                raise IllegalAction("A Q cannot counter a Q", "q_cannot_counter_q")
            raise IllegalAction("There is no function to counter now", "nothing_to_counter")
        first, n = pending.seat, self.players
        if due and seat != self.responder:
            raise NotYourTurn(
                f"Not your answer: seat {self.responder} is asked now", seat=self.responder
            )
        if seat == first:
            raise IllegalAction(
                "You activated the function: the other players answer it",
                "own_function",
                function=pending.function,
            )
        if not 0 <= seat < n:
            raise NotYourTurn(f"There is no seat {seat} at this table")
        if (seat - first) % n < (self.responder - first) % n:  # its decline is taken already
            raise IllegalAction(
                "You have answered this function already", "answered_already", answer="decline"
            )
        if c is not None and not self.hands[seat] >> c & 1:
            raise NotYourCards(
                f"Not your card: you do not hold {card_symbol(c)}", cards=card_symbol(c)
            )
        if c is not None and not self._counters(c):
            raise IllegalAction(
                "Only a Revolution Q can counter", "only_q_counters", card=card_symbol(c)
            )
        return c

    def _mask_of(self, cards: Cards | Play | int) -> int:
        return _cards_arg(cards)

    def _beaten_words(self, play: Play, to_beat: Play) -> str:
        return " (the order is reversed)" if self.reversed else ""

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


def _card_arg(card: int | str) -> int:
    """One card of the expansion, from its id or its notation."""
    if isinstance(card, str):
        return parse_card(card)
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 104:
        raise NotationError(f"There is no card {card!r}: cards are 0 to 103", str(card))
    return int(card)


def _cards_arg(cards: object) -> int:
    """A set of cards of the expansion, from a mask, notation, a play or a 52-card set."""
    if isinstance(cards, Play | CardSet):
        return cards.mask
    if isinstance(cards, str):
        return parse(cards)
    if isinstance(cards, bool) or not isinstance(cards, int) or cards < 0 or cards >> 104:
        raise NotationError(f"{cards!r} is not a set of cards", str(cards))
    return cards


def _passes(verify: Callable[..., object], *args: object) -> bool:
    """Whether a ``verify_*`` check lets these arguments through."""
    try:
        verify(*args)
    except BigTwoError:
        return False
    return True
