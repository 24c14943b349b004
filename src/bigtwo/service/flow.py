"""The match's flow as every game has it: the start, a move's checks, the end of a deal, the
pause between deals, the next deal. Each game's flow (:mod:`.bigtwo_flow`, :mod:`.revolution_flow`)
subclasses :class:`GameFlow` with what differs: how its match is made and dealt, what a seat is
told at its turn, how a move is applied and told, what its computers answer from.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

from ..engine.errors import BigTwoError, IllegalAction, NotYourTurn
from ..engine.revolution import RevolutionView
from ..engine.views import SeatView
from .base import (
    IDS_KEPT,
    MAX_ACTION_ID,
    AlreadyApplied,
    Control,
    Refused,
    Seat,
    TableState,
    TableStatus,
)
from .commands import By, Command, Op
from .events import Group, action_json


class GameFlow(TableState):
    """The match from its start to its end, deal by deal: what every game shares."""

    MOVES: frozenset[Op]  # the commands that are moves of this game

    def _start(self, now: float) -> None:
        """The match is on: nobody is waiting to be ready, and everyone is told so."""
        self.game = self._new_match()
        self.status = TableStatus.PLAYING
        for seat in self.seats:
            seat.ready = False
        self._emit(
            "started",
            Group.ALL,
            {
                "players": self.config.players,
                "deals": self.game.deals,
                "names": [s.name for s in self.seats],
            },
            state=True,
        )
        self._deal_started(now)

    def _deal_started(self, now: float) -> None:
        """Events for a new deal: the public deal to all (under the expansion the Gathering
        and the deck count too), each seat its own hand."""
        match = self.game
        assert match is not None
        public = match.deal.view(None)
        self._emit(
            "deal",
            Group.ALL,
            {
                "deal": match.deal_number,
                "deals": match.deals,
                "leader": public.leader,
                **self._public_json(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        for seat in self.seats:
            self._hand(seat.number)
            self._seat_dealt(seat)
        self._prompt(now)

    def _hand(self, number: int) -> None:
        """The seat ``number`` told its cards, and the card the opening play must include
        where it holds it."""
        match = self.game
        assert match is not None
        view = match.deal.view(number)
        opening = None if view.opening is None else self._cards_text(1 << view.opening)
        self._emit(
            "hand",
            number,
            {"deal": match.deal_number, "cards": self._cards_text(view.hand), "opening": opening},
        )

    def _seat_dealt(self, seat: Seat) -> None:
        """What a seat does at a new deal beside being told its hand (nothing, unless the
        game says)."""

    # -- questions ---------------------------------------------------------------------------
    def asked_seats(self) -> list[int]:
        """The seats an open counter window asks, in turn order (none: no window is open, or
        the game has none)."""
        return []

    def _to_act(self) -> int | None:
        """The seat whose move the table awaits, or None: no deal in play, or the table awaits
        answers to a counter window instead."""
        game = self.game
        if (
            game is None
            or self.status != TableStatus.PLAYING
            or self.between is not None
            or game.deal.over
            or self.asked_seats()
        ):
            return None
        return game.deal.turn

    def awaited(self) -> list[int]:
        """The seats whose decision the table awaits now: those an open counter window asks
        that have not answered it yet, in turn order; else the seat to act (if any)."""
        number = self._to_act()
        return (
            [s for s in self.asked_seats() if s not in self.answers] if number is None else [number]
        )

    def switches_now(self) -> tuple[bool | None, bool | None]:
        """The autopass switches in force (None: as the rules say)."""
        return self._switches

    def _set_switches(self, on: bool, five: bool) -> None:
        self._switches = (on, five)

    # -- a move ------------------------------------------------------------------------------
    def _act(self, cmd: Command, now: float) -> None:
        seat = self._seat(cmd.seat)
        if cmd.id:
            if len(cmd.id) > MAX_ACTION_ID:
                raise Refused("bad_command", f"An action id is at most {MAX_ACTION_ID} characters")
            done = seat.applied.get(cmd.id)
            if done is not None:
                # (an entry of a snapshot from before revolution tables holds no operation)
                done_op = done[2] if len(done) > 2 else Op.ACT.value
                if done[1] != cmd.cards or done_op != cmd.op.value:
                    raise Refused(
                        "id_reused",
                        f"Action id {cmd.id!r} was already used for another action: "
                        "give each new action a new id",
                    )
                raise AlreadyApplied(cmd.id, done[0])
        if self.status == TableStatus.WAITING:
            raise Refused("not_started", "The match has not started yet")
        if self.status == TableStatus.FINISHED or self.game is None:
            raise Refused("finished", "The match is over")
        if self.between is not None:
            raise Refused("between_deals", "The deal is over: the next one starts soon")
        if cmd.op not in self.MOVES:
            raise Refused(
                "bad_command", f"{cmd.op.value} is a move of the revolution expansion only"
            )
        if cmd.by == By.PLAYER and seat.control != Control.PLAYER:
            raise Refused(
                "not_in_control",
                f"A computer is playing seat {seat.number} now",
                {"seat": seat.number},
            )
        # An answer to the counter window is stale only if the window is not the one it saw
        # (the other seats' answers before it change the table, but not its question).
        newest = self.window_v if cmd.op in (Op.COUNTER, Op.DECLINE) else self.state_v
        if cmd.seen is not None and cmd.seen < newest:
            raise Refused(
                "stale",
                f"The table has moved on since event {cmd.seen} (now at {newest}): "
                "look again and retry",
            )
        self._move(seat, cmd, now)

    def _view_now(self, seat: int) -> SeatView | RevolutionView:
        """``seat``'s view of the deal in play (of the table's game), made once for each state
        of the table: the seat's prompt, a computer's question and its timer read the same
        one (the 52-card game's prompt reads the deal's legal plays without it). The table
        forgets it when a command starts and at every event that changes the state."""
        view = self._views.get(seat)
        if view is None:
            assert self.game is not None
            view = self._views[seat] = self.game.deal.view(seat)
        return view

    def _remember(self, seat: Seat, cmd: Command) -> None:
        """The action id of a move applied, with its first event, for retries."""
        if cmd.id:
            seat.applied[cmd.id] = (self.v + 1, cmd.cards, cmd.op.value)
            if len(seat.applied) > IDS_KEPT:
                seat.applied.popitem(last=False)

    # -- the end of a deal, the pause, the next deal ------------------------------------------
    def _deal_finished(self, now: float) -> None:
        match = self.game
        assert match is not None
        result = match.results[-1]
        pause = self.config.between_deals_seconds != 0 and not match.over
        if pause:
            self.between = result.number + 1
            self.turn_started = now
            for seat in self.seats:
                seat.said_next = False
        self._emit(
            "deal_end",
            Group.ALL,
            {
                "deal": result.number,
                "winner": result.winner,
                "points": list(result.points),
                "totals": list(match.totals),
                # The deal is over: what each seat still held is public now.
                **self._left_json(result),
                "multipliers": list(result.score.multipliers),
                "next_deal": self._next_deal_json(),
            },
            state=True,
        )
        if match.over:
            self.status = TableStatus.FINISHED
            self.closed_reason = "match over"
            self._finished()
            ranking = sorted(range(match.players), key=lambda s: -match.totals[s])
            self._emit(
                "match_end",
                Group.ALL,
                {"totals": list(match.totals), "ranking": ranking, "deals": match.deal_number},
                state=True,
            )
            return
        if not pause:
            self._next_deal(now)

    def _next(self, cmd: Command, now: float) -> None:
        """A player has read the score sheet and is ready for the next deal."""
        seat = self._seat(cmd.seat)
        if self.status != TableStatus.PLAYING or self.between is None:
            raise Refused("bad_command", "The table is not waiting between deals")
        if not (seat.human and seat.taken) or seat.control != Control.PLAYER:
            raise Refused(
                "not_in_control",
                f"Seat {seat.number} is not played by a person now",
                {"seat": seat.number},
            )
        if seat.said_next:
            return  # said twice (two windows, a retry): nothing new to tell anyone
        seat.said_next = True
        self._emit("next", Group.ALL, {"seat": seat.number, "deal": self.between})

    def _deal(self, cmd: Command, now: float) -> None:
        """Between deals: the next deal starts."""
        if self.status != TableStatus.PLAYING or self.between is None or self.game is None:
            raise Refused("bad_command", "The table is not waiting between deals")
        self.between = None
        for seat in self.seats:
            seat.said_next = False
        self._next_deal(now)

    def _next_deal(self, now: float) -> None:
        """The next deal: dealt again when a replay was asked for, else shuffled (with the
        cards chosen for it); computers change level now if asked to."""
        replay, self.replay = self.replay, False
        if self.next_level is not None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=self.next_level)
                    seat.computer = None
            self.next_level = None
        self._deal_next(replay)
        self._deal_started(now)


def engine_refusals() -> _EngineRefusals:
    """The engine's refusal of a move as the table's: not the seat's turn, an illegal move
    (its reason word and details), bad cards (bad notation, a mask that is no set of cards).
    The table's own refusals pass as they are."""
    return _REFUSALS


class _EngineRefusals:
    """The context of :func:`engine_refusals` (a class: a move enters it every time)."""

    __slots__ = ()

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, trace: object
    ) -> Literal[False]:
        if exc is None or isinstance(exc, Refused) or not isinstance(exc, BigTwoError):
            return False  # nothing went wrong, or not the engine's refusal: as it is
        if isinstance(exc, NotYourTurn):
            raise Refused("not_your_turn", str(exc), exc.params) from None
        if isinstance(exc, IllegalAction):
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        raise Refused("bad_cards", str(exc)) from None  # bad notation, or no set of cards


_REFUSALS = _EngineRefusals()
