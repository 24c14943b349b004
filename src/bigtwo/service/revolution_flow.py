"""The flow of Big 2 RevolutioN (preset ``revolution``): the turn's phases. Under the
expansion the match is a RevolutionMatch and a turn has phases: the player to act may activate
Character cards (each opens a counter window), then plays or passes, and after a pass may draw.
The counter window asks every other seat at once, with the rules' clock
(``counter_seconds``): each answer is kept until the engine, which asks in turn order, comes
to that seat, so an early answer tells nobody anything; computers answer after the same pause
(the computer delay) whether or not they hold a Q, and a person who has not answered when the
clock runs out declines. Each action reaches each seat only as the engine lets that seat see
it; what the 52-card game shares with it (the start, a move's checks, the end of a deal) stays
in :mod:`.bigtwo_flow`.
"""

from __future__ import annotations

import dataclasses
from dataclasses import replace

from ..engine.cards import Mask
from ..engine.errors import BigTwoError, IllegalAction, NotYourCards, NotYourTurn
from ..engine.revolution import Move, Phase, RevolutionAction, RevolutionChoice, RevolutionView
from ..engine.revolution_cards import NORMAL_CARDS, REVOLUTION_CARDS, card_symbol, ids
from ..engine.revolution_cards import text as revolution_text
from ..match.revolution import RevolutionMatch
from .base import IDS_KEPT, Control, Refused, Seat, TableState
from .commands import By, Command, Op
from .events import (
    Group,
    revolution_action_json,
    revolution_choices_json,
    revolution_public_state,
)


class RevolutionFlow(TableState):
    """The expansion's turn: its phases, its counter windows, its draws."""

    def _start_revolution(self, now: float) -> None:
        cfg = self.config
        self.revolution = RevolutionMatch(
            self.ruleset, [s.name for s in self.seats], seed=cfg.seed, deals=cfg.deals
        )
        self._announce_start(self.revolution.deals)
        self._revolution_deal_started(now)

    def _revolution_deal_started(self, now: float) -> None:
        """Events for a new hand: the public hand (the Gathering, the deck count) to all,
        each seat its own cards."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        public = deal.view(None)
        self.answers = {}
        self._emit(
            "deal",
            Group.ALL,
            {
                "deal": match.deal_number,
                "deals": match.deals,
                "leader": public.leader,
                **revolution_public_state(public),
                "actions": [revolution_action_json(a) for a in public.actions],
            },
            state=True,
        )
        for seat in self.seats:
            self._revolution_hand(seat.number)
        self._revolution_prompt(now)

    def _revolution_hand(self, number: int) -> None:
        match = self.revolution
        assert match is not None
        view = match.deal.view(number)
        opening = None if view.opening is None else revolution_text(1 << view.opening)
        self._emit(
            "hand",
            number,
            {"deal": match.deal_number, "cards": revolution_text(view.hand), "opening": opening},
        )

    def _next_revolution_deal(self, now: float) -> None:
        match = self.revolution
        assert match is not None
        if self.replay:
            match.next_deal(list(match.deal.dealt), match.deal.deck)
        else:
            match.next_deal()
        self.replay = False
        if self.next_level is not None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=self.next_level)
            self.next_level = None
        self._revolution_deal_started(now)

    def _revolution_move(self, seat: Seat, cmd: Command, now: float) -> None:
        """A move of the expansion (``act``, ``activate``, ``draw``, ``stop``; a counter
        window's ``counter`` or ``decline``), checked by the engine, then told."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        number = seat.number
        if cmd.op in (Op.COUNTER, Op.DECLINE):
            self._revolution_answer(seat, cmd, now)
            return
        before = len(deal.actions)
        hands = list(deal.hands)
        try:
            if cmd.op == Op.ACT:
                if cmd.cards is None:
                    match.pass_(number, auto=cmd.by == By.TIMER)
                else:
                    match.play(number, cmd.cards)
            elif cmd.op == Op.ACTIVATE:
                character, give = _activation(cmd.cards)
                match.activate(number, character, cmd.target, give)
            elif cmd.op == Op.DRAW:
                match.draw(number, "deck" if cmd.cards is None else _one_card(cmd.cards))
            else:
                match.stop(number)
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:  # bad notation or a mask that is no set of cards
            raise Refused("bad_cards", str(exc)) from None
        self._remember(seat, cmd)
        self._revolution_told(cmd, deal.actions[before:], hands, now)

    def _remember(self, seat: Seat, cmd: Command) -> None:
        if cmd.id:
            seat.applied[cmd.id] = (self.v + 1, cmd.cards, cmd.op.value)
            if len(seat.applied) > IDS_KEPT:
                seat.applied.popitem(last=False)

    def _revolution_answer(self, seat: Seat, cmd: Command, now: float) -> None:
        """An answer to the counter window, from any seat it asks, kept until its turn."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        number = seat.number
        try:
            if deal.phase is not Phase.COUNTER or deal.pending is None:
                # The engine's own words: there is nothing to answer now.
                if cmd.op == Op.COUNTER:
                    deal.verify_counter(number, _one_card(cmd.cards))
                deal.verify_decline(number)
            assert deal.pending is not None
            if number == deal.pending.seat:
                raise Refused(
                    "illegal",
                    "You activated the function: the other players answer it",
                    {"reason": "own_function", "function": deal.pending.function},
                )
            if number in self.answers:
                raise Refused(
                    "illegal",
                    "You have answered this function already",
                    {"reason": "answered_already", "answer": self.answers[number].op.value},
                )
            if cmd.op == Op.COUNTER:
                card = _one_card(cmd.cards)
                if number == deal.responder:
                    deal.verify_counter(number, card)
                else:  # the checks the engine makes once it comes to this seat
                    hand = deal.view(number).hand
                    if not hand >> card & 1:
                        raise NotYourCards(
                            f"Not your card: you do not hold {card_symbol(card)}",
                            cards=card_symbol(card),
                        )
                    if deal.function_of(card) != "counter":
                        raise IllegalAction(
                            "Only a Revolution Q can counter",
                            "only_q_counters",
                            card=card_symbol(card),
                        )
        except Refused:  # the table's own refusals above, as they are (not as bad cards)
            raise
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:
            raise Refused("bad_cards", str(exc)) from None
        self._remember(seat, cmd)
        self.answers[number] = cmd
        self._emit(
            "answered",
            number,
            {"deal": match.deal_number, "seat": number, "answer": cmd.op.value},
        )
        # The answers now due in turn order reach the engine, each told as it is applied.
        # (Applied answers stay in ``answers`` until the window closes: each seat answers once.)
        while deal.phase is Phase.COUNTER and deal.responder in self.answers:
            answer = self.answers[deal.responder]
            before = len(deal.actions)
            hands = list(deal.hands)
            assert answer.seat is not None
            if answer.op == Op.COUNTER:
                match.counter(answer.seat, _one_card(answer.cards))
            else:
                match.decline(answer.seat)
            self._revolution_told(answer, deal.actions[before:], hands, now)

    def _revolution_told(
        self, cmd: Command, actions: list[RevolutionAction], hands: list[int], now: float
    ) -> None:
        """The events of a move: each action as each audience may see it (a face-down card
        only to the seats the engine lets see it), the public state after the move, the
        changed hands to their seats, then the end of the hand or what is asked next."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        public = revolution_public_state(deal.view(None))
        players = deal.players
        for i, action in enumerate(actions):
            by = cmd.by.value if i == 0 else "auto"
            shown = action.seen_by(None)
            seen = [action.seen_by(s) for s in range(players)]
            common = {"deal": match.deal_number, "by": by}
            if all(a == shown for a in seen):
                self._emit(
                    "action",
                    Group.ALL,
                    {**common, **revolution_action_json(shown), **public},
                    state=True,
                )
                continue
            for s, own in enumerate(seen):
                self._emit(
                    "action", s, {**common, **revolution_action_json(own), **public}, state=True
                )
            self._emit(
                "action",
                Group.SPECTATORS,
                {**common, **revolution_action_json(shown), **public},
                state=True,
            )
        for s in range(players):
            if deal.hands[s] != hands[s]:
                self._revolution_hand(s)
        if deal.over:
            self.answers = {}
            self._deal_finished(now)
            return
        if deal.phase is not Phase.COUNTER:
            self.answers = {}
        opened = deal.phase is Phase.COUNTER and actions[0].move is Move.ACTIVATE
        if opened or deal.phase is not Phase.COUNTER:
            self._revolution_prompt(now)

    def _revolution_prompt(self, now: float) -> None:
        """Ask what is to be done now: at a counter window every other seat (each its own
        prompt, with the cards it may counter with, and the clock); else the seat to act."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        self.turn_started = now
        if deal.phase is Phase.COUNTER and deal.pending is not None:
            self.window_v = self.state_v
            self.answers = {}
            pending = deal.pending
            options = self.rules.revolution
            assert options is not None
            for s in self.asked_seats():
                hand = deal.view(s).hand
                counters = [
                    c for c in ids(hand & REVOLUTION_CARDS) if deal.function_of(c) == "counter"
                ]
                self._emit(
                    "counter",
                    s,
                    {
                        "deal": match.deal_number,
                        "seat": pending.seat,
                        "function": pending.function,
                        "card": revolution_text(1 << pending.card),
                        "target": None if pending.target < 0 else pending.target,
                        "seconds": options.counter_seconds,
                        "counters": [revolution_text(1 << c) for c in counters],
                    },
                )
            return
        view = deal.view(deal.turn)
        self._emit(
            "turn",
            deal.turn,
            {"deal": match.deal_number, "seat": deal.turn, **revolution_choices_json(view)},
        )

    def asked_seats(self) -> list[int]:
        """The seats the open counter window asks, in turn order from the activator's next."""
        assert self.revolution is not None
        deal = self.revolution.deal
        if deal.phase is not Phase.COUNTER or deal.pending is None:
            return []
        first = deal.pending.seat
        return [(first + k) % deal.players for k in range(1, deal.players)]

    def own_answer(self, seat: int) -> str | None:
        """The seat's own answer to the open counter window (``counter`` or ``decline``, as
        its ``answered`` event said), or None: no window is open, or the seat has not
        answered it. Only ever told to that seat: the other seats' answers are not public
        until the engine comes to them."""
        if self.revolution is None or self.revolution.deal.phase is not Phase.COUNTER:
            return None
        answer = self.answers.get(seat)
        return None if answer is None else answer.op.value

    def _revolution_times(self) -> list[float]:
        """When :meth:`_revolution_due` may next have something."""
        assert self.revolution is not None
        deal = self.revolution.deal
        if deal.over:
            return []
        if deal.phase is Phase.COUNTER:
            window = self.counter_deadline()
            assert window is not None
            waiting = [self.seats[s] for s in self.asked_seats() if s not in self.answers]
            times = [self.turn_started + self.config.computer_delay for _ in self._answering_here()]
            if any(s.control == Control.PLAYER for s in waiting):
                times.append(window)
            return times
        seat = self.seats[deal.turn]
        if seat.control != Control.PLAYER:
            if self._offloaded(seat):
                return []
            return [self.turn_started + self.config.computer_delay]
        if self.config.turn_seconds is not None:
            return [self.turn_started + self.config.turn_seconds]
        return []

    def _revolution_due(self, now: float) -> Command | None:
        match = self.revolution
        assert match is not None
        deal = match.deal
        if deal.over:
            return None
        if deal.phase is Phase.COUNTER:
            window = self.counter_deadline()
            assert window is not None
            computers = self._answering_here()
            for s in self.asked_seats():
                if s in self.answers:
                    continue
                seat = self.seats[s]
                if seat.control != Control.PLAYER:
                    if seat in computers and now >= self.turn_started + self.config.computer_delay:
                        return self._revolution_computer(seat)
                elif now >= window:
                    return Command(Op.DECLINE, seat=s, by=By.TIMER)
            return None
        seat = self.seats[deal.turn]
        if seat.control != Control.PLAYER:
            if now >= self.turn_started + self.config.computer_delay and not self._offloaded(seat):
                return self._revolution_computer(seat)
        elif (
            self.config.turn_seconds is not None
            and now >= self.turn_started + self.config.turn_seconds
        ):
            if deal.phase is Phase.DRAW:
                return Command(Op.STOP, seat=seat.number, by=By.TIMER)
            view = deal.view(seat.number)
            cards = None if view.can_pass else Mask(view.legal[0].mask)
            return Command(Op.ACT, seat=seat.number, cards=cards, by=By.TIMER)
        return None

    def _answering_here(self) -> list[Seat]:
        """In an open counter window: the computers that answer on this thread, in the order
        the table answers for them, up to the first that thinks elsewhere (those after it
        wait for its answer, so the order is the same wherever computers think)."""
        out: list[Seat] = []
        for s in self.asked_seats():
            seat = self.seats[s]
            if s in self.answers or seat.control == Control.PLAYER:
                continue
            if self._offloaded(seat):
                break
            out.append(seat)
        return out

    def revolution_question(self, number: int) -> tuple[RevolutionView, str]:
        """What a computer at seat ``number`` answers from, wherever it thinks: its seat's
        view (in a counter window that asks it before the engine comes to it, the question as
        it stands: counter with one of its Qs, or decline) and the seed of its generator."""
        match = self.revolution
        assert match is not None
        deal = match.deal
        view = deal.view(number)
        if deal.phase is Phase.COUNTER and view.to_act != number:
            counters = [
                RevolutionChoice(number, Move.COUNTER, 1 << c)
                for c in ids(view.hand & REVOLUTION_CARDS)
                if deal.function_of(c) == "counter"
            ]
            asked = (*counters, RevolutionChoice(number, Move.DECLINE))
            view = dataclasses.replace(view, to_act=number, choices=asked)
        return view, f"{self.config.seed}:{match.deal_number}:{number}:{len(deal.actions)}"


def _one_card(cards: Mask | int | None) -> int:
    """The one card a counter or a Gathering draw names."""
    if cards is None or cards <= 0 or cards.bit_count() != 1:
        raise IllegalAction("Name one card", "name_one_card")
    return int(cards).bit_length() - 1


def _activation(cards: Mask | int | None) -> tuple[int, int | None]:
    """An activation's Character card and, for an exchange, the normal card it gives."""
    if cards is None or cards <= 0:
        raise IllegalAction("Name the Character card to activate", "name_a_character")
    if cards.bit_count() == 1:  # the engine says in words what a lone card cannot do
        return cards.bit_length() - 1, None
    character = cards & REVOLUTION_CARDS
    give = cards & NORMAL_CARDS
    if character.bit_count() != 1 or give.bit_count() > 1:
        raise IllegalAction(
            "Name one Character card to activate (and, for an exchange, one normal card to give)",
            "name_one_character",
        )
    return character.bit_length() - 1, give.bit_length() - 1 if give else None
