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
from ..engine.deal import Deal
from ..engine.plays import Play
from .base import Control, Seat, TableState, View
from .commands import Command


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
    view: View
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
        for number in self.awaited():
            seat = self.seats[number]
            if seat.control != Control.PLAYER:
                return seat
        return None

    def think_request(self) -> ThinkRequest | None:
        """A computer's decision to make now, away from this thread, in either game: at a
        computer's turn (of a level that ``offload`` names) while a player is at the table.
        It may be asked for at once; its move is applied no earlier than the computer delay
        allows. The view and the generator are the ones the table's own move would use, so
        a seed gives one game wherever the computers think."""
        seat = self._thinking_seat()
        if seat is None or not self.player_connected() or not self._offloaded(seat):
            return None
        computer = self.computer_of(seat)
        view, rng, peek = self._question(seat, computer)
        assert self.game is not None
        return ThinkRequest(
            seat=seat.number,
            level=self._level(seat),
            computer=computer,
            view=view,
            rng=rng,
            state_v=self.state_v,
            deal=self.game.deal_number,
            peek=peek,
        )

    def think_command(
        self, request: ThinkRequest, answer: Decision, bot: Bot | RevolutionBot | None = None
    ) -> Command | None:
        """The command for a computer's answer (the cards of a play as a mask, None: a pass;
        under the expansion one of the view's choices), or None when the table has moved on
        since the request (the answer is thrown away). An answer that is not legal here
        becomes the :meth:`ComputerSeat.fallback` move. ``bot`` is the bot as it was after
        choosing (it may keep a plan for the deal), to keep from now on."""
        game = self.game
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
        return self._decision_command(request.seat, checked)

    def fallback_command(self, request: ThinkRequest) -> Command | None:
        """The move a computer makes when its thinking ran out of time: the cheapest legal
        play, or a pass when it has no reply (as the greedy level plays); under the expansion
        see :meth:`ComputerSeat.fallback`."""
        choice = ComputerSeat.fallback(request.view)
        return self.think_command(request, choice.mask if isinstance(choice, Play) else choice)

    # -- computers thinking here ---------------------------------------------------------------
    def computer_of(self, seat: Seat) -> ComputerSeat:
        """The seat's computer player, told which seats people hold now."""
        game = self.rules.game
        if seat.computer is None or seat.computer.game != game:
            seat.computer = ComputerSeat(self._level(seat), seat.number, game=game)
        seat.computer.tell_humans(frozenset(s.number for s in self.seats if s.human))
        return seat.computer

    def _computer_command(self, seat: Seat) -> Command:
        """The computer's move here, as it would choose it elsewhere (see :meth:`_question`)."""
        computer = self.computer_of(seat)
        view, rng, peek = self._question(seat, computer)
        return self._decision_command(seat.number, computer.decide(view, rng=rng, deal=peek))
