"""Computers and their thinking, in either game: a seat's computer player, its move when it
thinks on the table's thread, and for the levels that think elsewhere (``offload``) the
:class:`ThinkRequest` handed out and the command its answer becomes. A computer decides from
its seat's view only (a bot that peeks, as the Palm players did, gets the deal), and a seed
gives one game wherever the computers think. It applies no move itself: what it returns is
applied as a command.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..bots.base import Bot
from ..bots.revolution import RevolutionBot
from ..bots.seat import ComputerSeat, Decision
from ..engine.cards import Mask
from ..engine.deal import Deal
from ..engine.revolution import Move, Phase, RevolutionChoice, RevolutionView
from ..match.views import TableView
from .base import Control, Seat, TableState, TableStatus
from .commands import By, Command, Op


@dataclass(frozen=True, slots=True)
class ThinkRequest:
    """What a computer needs to choose its move away from the table, in either game: its
    computer seat, its view (under the expansion, in a counter window that has not come to it
    yet, the question as it stands for this seat), the random generator it chooses with, and
    (for a bot that peeks, as the Palm players did) the deal. ``state_v`` and ``deal`` say
    which position it was for: an answer for a position the table has left is thrown away
    (see :meth:`TableService.think_command`)."""

    seat: int
    level: str
    computer: ComputerSeat
    view: TableView | RevolutionView
    rng: random.Random
    state_v: int
    deal: int
    peek: Deal | None

    @property
    def bot(self) -> Bot | RevolutionBot:
        return self.computer.bot


class Thinking(TableState):
    """Computer players: their moves here, and their thinking elsewhere."""

    # -- computers thinking elsewhere ------------------------------------------------------------
    def _level(self, seat: Seat) -> str:
        return seat.config.level if not seat.human else self.config.takeover_level

    def _offloaded(self, seat: Seat) -> bool:
        return self.offload is not None and self.offload(self._level(seat))

    def _thinking_seat(self) -> Seat | None:
        """The computer (or computer playing for a person) whose decision the table takes
        next, in either game: the seat to act or, in a counter window of the expansion, the
        first seat asked that has not answered (the order the table answers for them)."""
        if self.status != TableStatus.PLAYING or self.between is not None:
            return None
        if self.revolution is not None:
            deal = self.revolution.deal
            if deal.over:
                return None
            if deal.phase is Phase.COUNTER:
                waiting = [
                    self.seats[s]
                    for s in self.asked_seats()
                    if s not in self.answers and self.seats[s].control != Control.PLAYER
                ]
                return waiting[0] if waiting else None
            number = deal.turn
        elif self.match is not None:
            number = self.match.deal.turn
        else:
            return None
        seat = self.seats[number]
        return None if seat.control == Control.PLAYER else seat

    def think_request(self) -> ThinkRequest | None:
        """A computer's decision to make now, away from this thread, in either game: at a
        computer's turn (of a level that ``offload`` names) while a player is at the table.
        It may be asked for at once; its move is applied no earlier than the computer delay
        allows. The view and the generator are the ones the table's own move would use, so
        a seed gives one game wherever the computers think."""
        if not self.player_connected():
            return None
        seat = self._thinking_seat()
        if seat is None or not self._offloaded(seat):
            return None
        computer = self.computer_of(seat)
        if self.revolution is not None:
            view, key = self.revolution_question(seat.number)
            return ThinkRequest(
                seat=seat.number,
                level=self._level(seat),
                computer=computer,
                view=view,
                rng=random.Random(key),
                state_v=self.state_v,
                deal=self.revolution.deal_number,
                peek=None,
            )
        assert self.match is not None
        table_view = self.match.view(seat.number)
        return ThinkRequest(
            seat=seat.number,
            level=self._level(seat),
            computer=computer,
            view=table_view,
            rng=computer.rng(self.config.seed, self.match.deal_number, table_view),
            state_v=self.state_v,
            deal=self.match.deal_number,
            peek=self.match.deal if computer.bot.peeks and computer.peeking else None,
        )

    def think_command(
        self, request: ThinkRequest, answer: Decision, bot: Bot | RevolutionBot | None = None
    ) -> Command | None:
        """The command for a computer's answer (the cards of a play as a mask, None: a pass;
        under the expansion one of the view's choices), or None when the table has moved on
        since the request (the answer is thrown away). An answer that is not legal here
        becomes the :meth:`ComputerSeat.fallback` move. ``bot`` is the bot as it was after
        choosing (it may keep a plan for the deal), to keep from now on."""
        game = self.played_match()
        seat = self._thinking_seat()
        if (
            game is None
            or seat is None
            or seat.number != request.seat
            or game.deal_number != request.deal
            or self.state_v != request.state_v
            or seat.computer is not request.computer
        ):
            return None
        if bot is not None:
            request.computer.bot = bot
        checked = request.computer.checked_answer(request.view, answer)
        if isinstance(checked, RevolutionChoice):
            return _revolution_command(checked)
        return Command(Op.ACT, seat=request.seat, cards=checked, by=By.COMPUTER)

    def fallback_command(self, request: ThinkRequest) -> Command | None:
        """The move a computer makes when its thinking ran out of time: the cheapest legal
        play, or a pass when it has no reply (as the greedy level plays); under the expansion
        see :meth:`ComputerSeat.fallback`."""
        choice = ComputerSeat.fallback(request.view)
        if choice is None or isinstance(choice, RevolutionChoice):
            return self.think_command(request, choice)
        return self.think_command(request, choice.mask)

    # -- computers thinking here ---------------------------------------------------------------
    def computer_of(self, seat: Seat) -> ComputerSeat:
        """The seat's computer player, told which seats people hold now."""
        game = self.rules.game
        if seat.computer is None or seat.computer.game != game:
            seat.computer = ComputerSeat(self._level(seat), seat.number, game=game)
        seat.computer.tell_humans(frozenset(s.number for s in self.seats if s.human))
        return seat.computer

    def _computer_move(self, seat: Seat) -> Command:
        assert self.match is not None
        view = self.match.view(seat.number)
        play = self.computer_of(seat).choose(
            view, key=self.config.seed, deal_number=self.match.deal_number, deal=self.match.deal
        )
        return Command(
            Op.ACT, seat=seat.number, cards=None if play is None else play.mask, by=By.COMPUTER
        )

    def _revolution_computer(self, seat: Seat) -> Command:
        """A computer's move, chosen from its seat's view only. Asked in a counter window
        before the engine comes to it, it answers the question as it stands (the answers of
        the seats before it are not known to it, nor to anyone, until they are applied)."""
        view, key = self.revolution_question(seat.number)
        choice = self.computer_of(seat).choose(view, rng=random.Random(key))
        return _revolution_command(choice)


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
