"""Playing a match through with computer players, for simulations, tests and demos.

Each seat's bot chooses through a strict :class:`~bigtwo.bots.seat.ComputerSeat`, the same
object that chooses for a computer at every table, from that seat's view only (a peeking bot
also gets the deal through its explicit door); the match applies autopass and scoring. A
callback after every step lets the caller persist each action as it happens. The bots are
passed in, so this module depends on the bot interface only, not on any bot. It stands
beside the arena (:mod:`bigtwo.arena`), above the bots and the match.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar, Protocol, cast

from .bots.seat import ComputerSeat
from .engine.errors import BigTwoError
from .engine.views import Action
from .match.match import Match

if TYPE_CHECKING:
    from .bots.base import Bot
    from .engine.deal import Deal
    from .engine.plays import Play
    from .match.views import TableView


class Player(Protocol):
    """What :func:`play_out` needs of a computer player (:class:`bigtwo.bots.Bot` has it)."""

    peeks: ClassVar[bool]

    def choose(self, view: TableView, rng: random.Random) -> Play | None: ...

    def peek(self, deal: Deal) -> None: ...

    def new_deal(self, seat: int) -> None: ...


def play_out(
    match: Match,
    bots: Sequence[Player],
    rng: random.Random | None = None,
    *,
    after: Callable[[list[Action]], object] | None = None,
    deals: int | None = None,
) -> Match:
    """Play ``match`` to its end (or until ``deals`` more deals are over) with one bot per
    seat. ``after`` is called with the actions of each step, including a new deal's
    automatic ones. Each decision draws from ``rng`` when one is given, else from the
    position seeded by the match's seed, as at a table: the same seed gives the same game."""
    if len(bots) != match.players:
        raise BigTwoError(f"{match.players} seats need {match.players} computer players")
    seats = [
        ComputerSeat(getattr(bot, "name", "bot"), seat, strict=True, bot=cast("Bot", bot))
        for seat, bot in enumerate(bots)
    ]
    finished = 0
    started = True
    while True:
        deal = match.deal
        if started:
            for computer in seats:
                computer.new_deal()
            started = False
        if deal.over:
            finished += 1
            if match.over or (deals is not None and finished >= deals):
                return match
            before = match.deal_number
            match.next_deal()
            assert match.deal_number == before + 1
            started = True
            if after is not None:
                after(list(match.deal.actions))
            continue
        seat = deal.turn
        choice = seats[seat].choose(
            match.view(seat), key=match.seed, deal_number=match.deal_number, rng=rng, deal=deal
        )
        actions = match.act(seat, choice)
        if after is not None:
            after(actions)
