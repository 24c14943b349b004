"""What one seat may know of a deal, and nothing more.

A :class:`SeatView` is the only thing a bot, a client or a message to a seat is built from:
the seat's own cards, the public history, every player's card count. It has no field through
which another seat's cards could be read (tests prove it). A spectator's view has no hand.
An :class:`Action` is one entry of the public history, which every seat sees.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

from .cards import FULL_DECK, CardIndex, CardSet, Mask

if TYPE_CHECKING:
    from .plays import Play
    from .rules import Rules


class Action(NamedTuple):
    """One applied action: ``play`` is None for a pass. ``auto`` marks an automatic one."""

    seat: int
    play: Play | None
    auto: bool = False
    reason: str = ""
    trick_over: bool = False  # after this action the trick is over (or the deal)

    @property
    def is_pass(self) -> bool:
        return self.play is None


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a deal (``seat`` None: a spectator's).

    ``hand`` is the seat's own cards; ``counts`` every seat's number of cards; ``to_beat``
    the play to beat (None at a lead) and ``to_beat_seat`` who made it; ``passes`` since
    that play; ``locked`` the seats passed out of the trick (a bit per seat); ``opening`` the
    card the opening play must include, only for the seat that holds it; ``actions`` the
    public history; ``played`` every card played so far; ``legal`` and ``can_pass`` what the
    seat may do now (empty and False when it is not its turn).
    """

    seat: int | None
    rules: Rules
    hand: Mask
    counts: tuple[int, ...]
    turn: int
    leader: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    locked: int
    opening: CardIndex | None
    actions: tuple[Action, ...]
    played: Mask
    winner: int | None
    legal: tuple[Play, ...]
    can_pass: bool

    @property
    def players(self) -> int:
        return len(self.counts)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.turn and self.winner is None

    @property
    def is_lead(self) -> bool:
        return self.to_beat is None

    @property
    def cards(self) -> CardSet:
        return CardSet(self.hand)

    @property
    def unseen(self) -> Mask:
        """Cards this seat has not seen: in other hands or never dealt."""
        return Mask(FULL_DECK & ~self.hand & ~self.played)
