"""The values of a hand of Big 2 RevolutioN: where a turn stands (:class:`Phase`), how a
hand ended (:class:`End`), a choice a seat may make (:class:`RevolutionChoice`), a function
waiting for its counter window (:class:`Pending`) and one seat's view of the hand
(:class:`RevolutionView`). Its actions are the one :class:`~bigtwo.engine.views.Action` of
both games, whose kinds are :class:`~bigtwo.engine.views.Move`.

They belong to :mod:`bigtwo.engine.revolution`, which exports them with the deal that makes
them, and each says so (``__module__``): snapshots pickle them by that module's name, so those
written before this module existed and those written after read each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .views import Move, SeatView


class Phase(StrEnum):
    """Where a turn stands: the player to act may use functions and then play or pass
    (``act``); every other seat answers a function (``counter``); the player who passed
    draws (``draw``); the hand is ``over``."""

    ACT = "act"
    COUNTER = "counter"
    DRAW = "draw"
    OVER = "over"


class End(StrEnum):
    OUT = "out"  # a player has played every normal card
    EXHAUSTION = "exhaustion"  # the Revolution deck ran out


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


@dataclass(frozen=True, slots=True, kw_only=True)
class RevolutionView(SeatView):
    """What one seat (``seat`` None: a spectator) may know of a hand of the expansion: a
    :class:`~bigtwo.engine.views.SeatView` (as a :class:`~bigtwo.match.views.TableView` is
    one) with what the expansion adds.

    ``hand`` and ``played`` are 104-bit masks and ``counts`` every seat's count of normal
    cards; ``revolution_counts`` its Revolution cards; ``gathering`` the face-up cards;
    ``deck_left`` the cards left in the Revolution deck; ``discards`` the Character cards
    discarded for a function or a counter; ``actions`` the history with every card this seat
    may not see hidden; ``to_act`` the seat whose answer is awaited now, ``phase`` what it
    is to do, ``pending`` the function waiting in the counter window (its card and target,
    never an exchange's card); ``choices`` everything it may do now, in every phase (empty
    unless its answer is awaited): what a computer player chooses from."""

    revolution_counts: tuple[int, ...]
    gathering: tuple[int, ...]
    deck_left: int
    discards: int
    reversed: bool
    to_act: int
    phase: Phase
    skips: int
    pending: tuple[int, str, int, int] | None  # seat, function, card, target
    functions_used: int
    draws_taken: int
    end: End | None
    choices: tuple[RevolutionChoice, ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act and self.end is None

    def function_of(self, card: int) -> str:
        """What ``card`` does when activated under the view's rules (``none``: nothing)."""
        options = self.rules.revolution
        return "none" if options is None else options.card_function(card)


# Snapshots (pickles) name these classes by the module that held them before this one and
# exports them still: so it stays their module, and snapshots written before and after the
# move read each other.
for _value in (Phase, End, RevolutionChoice, Pending, RevolutionView):
    _value.__module__ = "bigtwo.engine.revolution"

__all__ = [
    "End",
    "Pending",
    "Phase",
    "RevolutionChoice",
    "RevolutionView",
]
