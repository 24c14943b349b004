"""The flow of Big 2 RevolutioN (preset ``revolution``): the turn's phases. Under the
expansion the match is a RevolutionMatch and a turn has phases: the player to act may activate
Character cards (each opens a counter window), then plays or passes, and after a pass may draw.
The counter window asks every other seat at once, with the rules' clock
(``counter_seconds``): each answer is kept until the engine, which asks in turn order, comes
to that seat, so an early answer tells nobody anything; computers answer after the same pause
(the computer delay) whether or not they hold a Q, and a person who has not answered when the
clock runs out declines. Each action reaches each seat only as the engine lets that seat see
it; what every game shares (the start, a move's checks, the end of a deal) is :mod:`.flow`'s.
"""

from __future__ import annotations

import dataclasses
from random import Random
from typing import Any

from ..bots.seat import ComputerSeat, Decision
from ..engine.cards import Mask
from ..engine.deal import Deal
from ..engine.errors import IllegalAction
from ..engine.revolution import Phase, RevolutionChoice, RevolutionView
from ..engine.revolution_cards import NORMAL_CARDS, REVOLUTION_CARDS
from ..engine.revolution_cards import text as revolution_text
from ..engine.views import Action, Move, SeatView
from ..match.match import DealResult
from ..match.revolution import RevolutionMatch, RevolutionResult
from .base import Control, Refused, Seat, TableStatus, View
from .commands import By, Command, Op
from .events import (
    Group,
    action_json,
    revolution_choices_json,
    revolution_public_state,
    revolution_view_json,
)
from .flow import GameFlow, engine_refusals


class RevolutionFlow(GameFlow):
    """The expansion's turn: its phases, its counter windows, its draws."""

    game: RevolutionMatch | None
    MOVES = frozenset({Op.ACT, Op.ACTIVATE, Op.COUNTER, Op.DECLINE, Op.DRAW, Op.STOP})
    SNAPSHOT_KEY = "revolution"

    def _new_match(self) -> RevolutionMatch:
        cfg = self.config
        return RevolutionMatch(
            self.ruleset, [s.name for s in self.seats], seed=cfg.seed, deals=cfg.deals
        )

    def _deal_next(self, replay: bool) -> None:
        match = self.game
        assert match is not None
        if replay:
            match.next_deal(list(match.deal.dealt), match.deal.deck)
        else:
            match.next_deal()

    def _public_json(self, view: SeatView | RevolutionView) -> dict[str, Any]:
        assert isinstance(view, RevolutionView)
        return revolution_public_state(view)

    def _cards_text(self, cards: int) -> str:
        return revolution_text(cards)

    def _deal_started(self, now: float) -> None:
        self.answers = {}  # no counter window is open at a new hand
        super()._deal_started(now)

    def _move(self, seat: Seat, cmd: Command, now: float) -> None:
        """A move of the expansion (``act``, ``activate``, ``draw``, ``stop``; a counter
        window's ``counter`` or ``decline``), checked by the engine, then told."""
        match = self.game
        assert match is not None
        deal = match.deal
        number = seat.number
        if cmd.op in (Op.COUNTER, Op.DECLINE):
            self._answer(seat, cmd, now)
            return
        before = len(deal.actions)
        hands = list(deal.hands)
        with engine_refusals():
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
        self._remember(seat, cmd)
        self._told(cmd, deal.actions[before:], hands, now)

    def _answer(self, seat: Seat, cmd: Command, now: float) -> None:
        """An answer to the counter window, from any seat it asks, kept until its turn."""
        match = self.game
        assert match is not None
        deal = match.deal
        number = seat.number
        with engine_refusals():
            card = _one_card(cmd.cards) if cmd.op == Op.COUNTER else None
            if deal.phase is Phase.COUNTER and number in self.answers:  # held for its turn
                raise Refused(
                    "illegal",
                    "You have answered this function already",
                    {"reason": "answered_already", "answer": self.answers[number].op.value},
                )
            deal.verify_answer(number, card)  # the engine's checks, for any seat it asks
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
            self._told(answer, deal.actions[before:], hands, now)

    def _told(self, cmd: Command, actions: list[Action], hands: list[int], now: float) -> None:
        """The events of a move: each action as each audience may see it (a face-down card
        only to the seats the engine lets see it), the public state after the move, the
        changed hands to their seats, then the end of the hand or what is asked next."""
        match = self.game
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
                    {**common, **action_json(shown), **public},
                    state=True,
                )
                continue
            for s, own in enumerate(seen):
                self._emit("action", s, {**common, **action_json(own), **public}, state=True)
            self._emit(
                "action",
                Group.SPECTATORS,
                {**common, **action_json(shown), **public},
                state=True,
            )
        for s in range(players):
            if deal.hands[s] != hands[s]:
                self._hand(s)
        if deal.over:
            self.answers = {}
            self._deal_finished(now)
            return
        if deal.phase is not Phase.COUNTER:
            self.answers = {}
        opened = deal.phase is Phase.COUNTER and actions[0].move is Move.ACTIVATE
        if opened or deal.phase is not Phase.COUNTER:
            self._prompt(now)

    def _prompt(self, now: float) -> None:
        """Ask what is to be done now: at a counter window every other seat (each its own
        prompt, with the cards it may counter with, and the clock); else the seat to act."""
        match = self.game
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
                counters = deal.counters(s)
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
        view = self._view_now(deal.turn)
        assert isinstance(view, RevolutionView)
        self._emit(
            "turn",
            deal.turn,
            {"deal": match.deal_number, "seat": deal.turn, **revolution_choices_json(view)},
        )

    # -- the counter window -------------------------------------------------------------------
    def asked_seats(self) -> list[int]:
        """The seats the open counter window asks, in turn order from the activator's next."""
        match = self.game
        if match is None or self.status != TableStatus.PLAYING or self.between is not None:
            return []
        return match.deal.asked()

    def counter_deadline(self) -> float | None:
        """When the open counter window's clock runs out (None: no window open)."""
        options = self.rules.revolution
        assert options is not None
        return self.turn_started + options.counter_seconds if self.asked_seats() else None

    def _game_times(self) -> list[float]:
        window = self.counter_deadline()
        if window is None:
            return super()._game_times()
        waiting = [self.seats[s] for s in self.asked_seats() if s not in self.answers]
        times = [self.turn_started + self.config.computer_delay for _ in self._answering_here()]
        if any(s.control == Control.PLAYER for s in waiting):
            times.append(window)
        return times

    def _game_due(self, now: float) -> Command | None:
        """In a counter window: a computer's answer after its delay, or a person's decline."""
        window = self.counter_deadline()
        if window is None:
            return super()._game_due(now)
        computers = self._answering_here()
        for s in self.asked_seats():
            if s in self.answers:
                continue
            seat = self.seats[s]
            if seat.control != Control.PLAYER:
                if seat in computers and now >= self.turn_started + self.config.computer_delay:
                    return self._computer_command(seat)
            elif now >= window:
                return Command(Op.DECLINE, seat=s, by=By.TIMER)
        return None

    def _timer_command(self, seat: Seat) -> Command:
        """Out of time: stop drawing; else pass, or at a lead play the cheapest play."""
        assert self.game is not None
        deal = self.game.deal
        if deal.phase is Phase.DRAW:
            return Command(Op.STOP, seat=seat.number, by=By.TIMER)
        view = self._view_now(seat.number)
        cards = None if view.can_pass else Mask(view.legal[0].mask)
        return Command(Op.ACT, seat=seat.number, cards=cards, by=By.TIMER)

    # -- computers ------------------------------------------------------------------------------
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

    def _question(self, seat: Seat, computer: ComputerSeat) -> tuple[View, Random, Deal | None]:
        """What a computer at ``seat`` answers from, wherever it thinks: its seat's view (in a
        counter window that asks it before the engine comes to it, the question as it stands,
        the answers before it unknown: counter with one of its Qs, or decline) and the
        generator of the position."""
        match = self.game
        assert match is not None
        deal, number = match.deal, seat.number
        view = self._view_now(number)
        assert isinstance(view, RevolutionView)
        if deal.phase is Phase.COUNTER and view.to_act != number:
            counters = [
                RevolutionChoice(number, Move.COUNTER, 1 << c) for c in deal.counters(number)
            ]
            asked = (*counters, RevolutionChoice(number, Move.DECLINE))
            view = dataclasses.replace(view, to_act=number, choices=asked)
        key = f"{self.config.seed}:{match.deal_number}:{number}:{len(deal.actions)}"
        return view, Random(key), None

    def _decision_command(self, number: int, decision: Decision) -> Command:
        assert isinstance(decision, RevolutionChoice)
        return _revolution_command(decision)

    # -- what the table tells -------------------------------------------------------------------
    def _view_json(self, seat: int | None) -> dict[str, Any] | None:
        match = self.game
        if match is None:
            return None
        view = revolution_view_json(match.deal.view(seat), match.deal_number)
        if seat is not None:  # its own answer to the open window, as its "answered" said (the
            # other seats' are not public until the engine comes to them)
            answer = self.answers.get(seat) if match.deal.phase is Phase.COUNTER else None
            view["answered"] = None if answer is None else answer.op.value
        return view

    def _left_json(self, result: DealResult | RevolutionResult) -> dict[str, Any]:
        """What each seat held when a hand ended (public then): its count of normal cards
        (the cards that are scored) and its cards, a Revolution card with its star."""
        assert isinstance(result, RevolutionResult)
        return {
            "counts": [(c & NORMAL_CARDS).bit_count() for c in result.cards_left],
            "left": [revolution_text(c) for c in result.cards_left],
            "end": result.end.value,
        }

    def history_text(self) -> str:
        """The match's history as text, hand by hand."""
        from ..match.revolution_history import history_lines  # late, as the 52-card game's

        match = self.game
        assert match is not None
        lines = [line for r in match.results for line in history_lines(r, match.names)]
        return "\n".join(lines) + "\n"

    # -- a local table's commands that the expansion has not ----------------------------------
    def _custom(self, cmd: Command, now: float) -> None:
        self._seat(cmd.seat)
        raise Refused("bad_command", "Cards cannot be chosen for a deal of the revolution")

    def _undo(self, cmd: Command, now: float) -> None:
        self._seat(cmd.seat)
        raise Refused("bad_command", "Plays cannot be taken back in the revolution")


def _revolution_command(choice: RevolutionChoice) -> Command:
    """A computer's choice as the command it is stored as."""
    seat, move, by = choice.seat, choice.move, By.COMPUTER
    if move is Move.PLAY:
        return Command(Op.ACT, seat=seat, cards=Mask(choice.cards), by=by)
    if move is Move.PASS:
        return Command(Op.ACT, seat=seat, cards=None, by=by)
    if move is Move.ACTIVATE:
        give = 1 << choice.give if choice.give >= 0 else 0
        target = choice.target if choice.target >= 0 else None
        return Command(
            Op.ACTIVATE, seat=seat, cards=Mask(choice.cards | give), target=target, by=by
        )
    if move is Move.COUNTER:
        return Command(Op.COUNTER, seat=seat, cards=Mask(choice.cards), by=by)
    if move is Move.DECLINE:
        return Command(Op.DECLINE, seat=seat, by=by)
    if move is Move.DRAW:
        return Command(
            Op.DRAW, seat=seat, cards=Mask(choice.cards) if choice.cards else None, by=by
        )
    return Command(Op.STOP, seat=seat, by=by)


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
