"""The match's flow, as the 52-card game has it: the start, each deal and its hands, whose
turn it is and what they may do, a move's checks and its actions, the end of a deal, the pause
between deals and the next deal. The expansion shares the start, a move's checks, the end of
a deal and the pause between deals, and branches off at each step of its own to
:mod:`.revolution_flow`. A seat is told only what the deal's views let it see: no hand reaches
anyone but its seat before the deal is over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..engine.cards import CARDS, card_text
from ..engine.errors import BigTwoError, IllegalAction, NotYourTurn
from ..engine.revolution_cards import NORMAL_CARDS
from ..engine.revolution_cards import text as revolution_text
from ..match.match import Applied, Match
from ..match.revolution import RevolutionResult
from .base import IDS_KEPT, MAX_ACTION_ID, AlreadyApplied, Control, Refused, TableState, TableStatus
from .commands import By, Command, Op
from .events import Group, action_json, legal_json, public_state


class BigTwoFlow(TableState):
    """The match from its start to its end, deal by deal, turn by turn."""

    def _start(self, now: float) -> None:
        cfg = self.config
        if self.rules.revolution is not None:
            self._start_revolution(now)
            return
        self.match = Match(
            self.ruleset,
            [s.name for s in self.seats],
            seed=cfg.seed,
            deals=cfg.deals,
            autopass=self._switches[0],
            autopass_five=self._switches[1],
            custom=self.custom.pop(1, None),
            # Who sat where, for the match record: "human" or the computer's level.
            kinds=[s.config.kind if s.human else s.config.level for s in self.seats],
        )
        self._announce_start(self.match.deals)
        self._deal_started(now)

    def _announce_start(self, deals: int) -> None:
        """The match is on: nobody is waiting to be ready, and everyone is told so."""
        self.status = TableStatus.PLAYING
        for seat in self.seats:
            seat.ready = False
        self._emit(
            "started",
            Group.ALL,
            {
                "players": self.config.players,
                "deals": deals,
                "names": [s.name for s in self.seats],
            },
            state=True,
        )

    def _deal_started(self, now: float) -> None:
        """Events for a new deal: the public deal to all, each seat its own hand."""
        match = self.match
        assert match is not None
        deal = match.deal
        public = deal.view(None)
        self._emit(
            "deal",
            Group.ALL,
            {
                "deal": match.deal_number,
                "deals": match.deals,
                "leader": public.leader,
                **public_state(public),
                "actions": [action_json(a) for a in public.actions],
            },
            state=True,
        )
        for seat in self.seats:
            view = deal.view(seat.number)
            opening = None if view.opening is None else str(CARDS[view.opening])
            self._emit(
                "hand",
                seat.number,
                {"deal": match.deal_number, "cards": card_text(view.hand), "opening": opening},
            )
            if seat.computer is not None:
                seat.computer.new_deal()
        self._turn(now)

    def _turn(self, now: float) -> None:
        """Tell the seat to act what it may do (private: the legal plays hold its cards)."""
        self.turn_started = now
        match = self.match
        if match is None or self.status != TableStatus.PLAYING or match.deal.over:
            return
        view = match.deal.view(match.deal.turn)
        self._emit(
            "turn",
            view.turn,
            {
                "deal": match.deal_number,
                "seat": view.turn,
                "legal": legal_json(view),
                "can_pass": view.can_pass,
            },
        )

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
        if self.status == TableStatus.FINISHED or self.played_match() is None:
            raise Refused("finished", "The match is over")
        if self.between is not None:
            raise Refused("between_deals", "The deal is over: the next one starts soon")
        if cmd.op != Op.ACT and self.revolution is None:
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
        if self.revolution is not None:
            self._revolution_move(seat, cmd, now)
            return
        match = self.match
        assert match is not None
        number = seat.number
        try:
            applied = match.take_turn(number, cmd.cards)
        except NotYourTurn as exc:
            raise Refused("not_your_turn", str(exc), exc.params) from None
        except IllegalAction as exc:
            raise Refused("illegal", str(exc), {"reason": exc.reason, **exc.params}) from None
        except BigTwoError as exc:  # bad notation or a mask that is no set of cards
            raise Refused("bad_cards", str(exc)) from None
        deal_number = match.deal_number
        first_v = self.v + 1
        if cmd.id:
            seat.applied[cmd.id] = (first_v, cmd.cards, cmd.op.value)
            if len(seat.applied) > IDS_KEPT:
                seat.applied.popitem(last=False)
        self._action_events(cmd, applied, deal_number)
        if match.deal.over:
            self._deal_finished(now)
        else:
            self._turn(now)

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

    def _deal_finished(self, now: float) -> None:
        match = self.played_match()
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
                **_left_json(result),
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
        if (
            self.status != TableStatus.PLAYING
            or self.between is None
            or self.played_match() is None
        ):
            raise Refused("bad_command", "The table is not waiting between deals")
        self.between = None
        for seat in self.seats:
            seat.said_next = False
        self._next_deal(now)

    def _next_deal(self, now: float) -> None:
        """The next deal: dealt again when a replay was asked for, else shuffled with the
        cards chosen for it; computers change level now if asked to."""
        if self.revolution is not None:
            self._next_revolution_deal(now)
            return
        match = self.match
        assert match is not None
        hands = list(match.deal.dealt) if self.replay else None
        custom = self.custom.pop(match.deal_number + 1, None)
        self.replay = False
        if self.next_level is not None:
            for seat in self.seats:
                if not seat.human:
                    seat.config = replace(seat.config, level=self.next_level)
                    seat.computer = None
            self.next_level = None
        match.next_deal(custom=None if hands else custom, hands=hands)
        self._deal_started(now)


def _left_json(result: Any) -> dict[str, Any]:
    """What each seat held when a deal ended (public then): its count of normal cards (the
    cards that are scored) and its cards, a Revolution card with its star."""
    if isinstance(result, RevolutionResult):
        return {
            "counts": [(c & NORMAL_CARDS).bit_count() for c in result.cards_left],
            "left": [revolution_text(c) for c in result.cards_left],
            "end": result.end.value,
        }
    return {
        "counts": [c.bit_count() for c in result.cards_left],
        "left": [card_text(c) for c in result.cards_left],
    }
