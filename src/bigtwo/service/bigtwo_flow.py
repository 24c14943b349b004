"""The match's flow as the 52-card game has it, over what every game shares (:mod:`.flow`): its
match and each deal and its hands, whose turn it is and what they may do, a move and its
actions, what a computer answers from, a turn whose time ran out, and taking back a play. A
seat is told only what the deal's views let it see: no hand reaches anyone but its seat before
the deal is over.
"""

from __future__ import annotations

from random import Random
from typing import Any

from ..bots.seat import ComputerSeat, Decision
from ..engine.cards import Mask, card_text
from ..engine.deal import Deal
from ..engine.revolution import RevolutionChoice, RevolutionView
from ..engine.views import SeatView
from ..match.match import Applied, DealResult, Match
from ..match.revolution import RevolutionResult
from .base import Control, Refused, Seat, TableStatus, View
from .commands import By, Command, Op
from .events import Group, action_json, legal_json, public_state, view_json
from .flow import GameFlow, engine_refusals


class BigTwoFlow(GameFlow):
    """The 52-card game: a turn is a play or a pass."""

    game: Match | None
    MOVES = frozenset({Op.ACT})
    SNAPSHOT_KEY = "match"

    def _new_match(self) -> Match:
        return Match(
            self.ruleset,
            [s.name for s in self.seats],
            seed=self.config.seed,
            deals=self.config.deals,
            autopass=self._switches[0],
            autopass_five=self._switches[1],
            custom=self.custom.pop(1, None),
            # Who sat where, for the match record: "human" or the computer's level.
            kinds=[s.config.kind if s.human else s.config.level for s in self.seats],
        )

    def _deal_next(self, replay: bool) -> None:
        match = self.game
        assert match is not None
        hands = list(match.deal.dealt) if replay else None
        custom = self.custom.pop(match.deal_number + 1, None)
        match.next_deal(custom=None if hands else custom, hands=hands)

    def switches_now(self) -> tuple[bool | None, bool | None]:
        match = self.game
        return self._switches if match is None else (match.autopass, match.autopass_five)

    def _set_switches(self, on: bool, five: bool) -> None:
        """Both switches, at once; the match keeps the switches each action had."""
        if self.game is not None:
            self.game.autopass, self.game.autopass_five = on, five
        self._switches = (on, five)

    def _public_json(self, view: SeatView | RevolutionView) -> dict[str, Any]:
        assert not isinstance(view, RevolutionView)
        return public_state(view)

    def _cards_text(self, cards: int) -> str:
        return card_text(Mask(cards))

    def _seat_dealt(self, seat: Seat) -> None:
        if seat.computer is not None:
            seat.computer.new_deal()

    def _prompt(self, now: float) -> None:
        """Tell the seat to act what it may do (private: the legal plays hold its cards)."""
        self.turn_started = now
        match = self.game
        if match is None or self.status != TableStatus.PLAYING or match.deal.over:
            return
        # What the seat's view would say of its turn, read from the deal without making the
        # whole view (the deal keeps the legal plays its match checked for an autopass).
        deal = match.deal
        seat = deal.turn
        self._emit(
            "turn",
            seat,
            {
                "deal": match.deal_number,
                "seat": seat,
                "legal": legal_json(deal.legal_plays(seat)),
                "can_pass": deal.can_pass(seat),
            },
        )

    def _move(self, seat: Seat, cmd: Command, now: float) -> None:
        match = self.game
        assert match is not None
        with engine_refusals():
            applied = match.take_turn(seat.number, cmd.cards)
        self._remember(seat, cmd)
        self._action_events(cmd, applied, match.deal_number)
        if match.deal.over:
            self._deal_finished(now)
        else:
            self._prompt(now)

    def _action_events(self, cmd: Command, applied: list[Applied], deal_number: int) -> None:
        """One public event per action, each with the public state the match read from the
        deal just after it: the command's own action, then any automatic passes it caused."""
        for i, (action, state) in enumerate(applied):
            by = cmd.by if i == 0 else "auto"
            self._emit(
                "action",
                Group.ALL,
                {"deal": deal_number, **action_json(action), "by": by, **public_state(state)},
                state=True,
            )

    def _left_json(self, result: DealResult | RevolutionResult) -> dict[str, Any]:
        """What each seat held when a deal ended (public then): its count and its cards."""
        assert isinstance(result, DealResult)
        return {
            "counts": [c.bit_count() for c in result.cards_left],
            "left": [card_text(c) for c in result.cards_left],
        }

    def _view_json(self, seat: int | None) -> dict[str, Any] | None:
        match = self.game
        return None if match is None else view_json(match.deal.view(seat), match.deal_number)

    def history_text(self) -> str:
        """The match's history as text, as the Palm game history told it."""
        from ..match.history import match_history  # late: only a finished table's page asks

        assert self.game is not None
        return match_history(self.game)

    # -- computers and clocks ------------------------------------------------------------------
    def _question(self, seat: Seat, computer: ComputerSeat) -> tuple[View, Random, Deal | None]:
        """What a computer at ``seat`` chooses from: its view, the generator of the position,
        and the deal for a bot that peeks (as the Palm players did) where the table lets it."""
        match = self.game
        assert match is not None
        view = match.view(seat.number)
        rng = computer.rng(self.config.seed, match.deal_number, view)
        return view, rng, match.deal if computer.bot.peeks and computer.peeking else None

    def _decision_command(self, number: int, decision: Decision) -> Command:
        assert not isinstance(decision, RevolutionChoice)
        return Command(Op.ACT, seat=number, cards=decision, by=By.COMPUTER)

    def _timer_command(self, seat: Seat) -> Command:
        """Out of time: pass, or at a lead play the cheapest legal play."""
        assert self.game is not None
        view = self._view_now(seat.number)
        cards = None if view.can_pass else view.legal[0].mask
        return Command(Op.ACT, seat=seat.number, cards=cards, by=By.TIMER)

    # -- a local table's undo -----------------------------------------------------------------
    def _undo(self, cmd: Command, now: float) -> None:
        """The one person at a table of computers takes back their last play of the deal in
        play, and every action after it (the computers' replies, automatic passes): it is
        their turn again, with those cards in hand. The computers start the rest of the deal
        afresh, as after a restore, so a table resumed from its log plays on as this one."""
        seat = self._seat(cmd.seat)
        match = self.game
        if self.status != TableStatus.PLAYING or match is None:
            raise Refused("bad_command", "There is no play to undo: the match is not on")
        if self.between is not None or match.deal.over:
            raise Refused("between_deals", "The deal is over: its plays stand")
        people = [s for s in self.seats if s.human]
        if people != [seat] or seat.control != Control.PLAYER:
            raise Refused("bad_command", "Undo is only for one person playing against computers")
        actions = match.deal.actions
        last = next(
            (i for i in range(len(actions) - 1, -1, -1)
             if actions[i].seat == seat.number and not actions[i].auto),
            None,
        )  # fmt: skip
        if last is None:
            raise Refused("bad_command", "You have not played in this deal yet: nothing to undo")
        taken = match.take_back(len(actions) - last)
        for other in self.seats:
            if not other.human:
                other.computer = None
        public = match.deal.view(None)
        self._emit(
            "undo",
            Group.ALL,
            {
                "deal": match.deal_number,
                "seat": seat.number,
                "taken": len(taken),
                **public_state(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        self._hand(seat.number)
        self._prompt(now)
