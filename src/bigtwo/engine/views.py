"""What one seat may know of a deal, and nothing more.

A :class:`SeatView` is the only thing a bot, a client or a message to a seat is built from:
the seat's own cards, the public history, every player's card count. It has no field through
which another seat's cards could be read (tests prove it). A spectator's view has no hand.
An :class:`Action` is one entry of the history: of either game, as python-chess's one
``Move`` serves its variants (a drop is a move with ``drop`` set). The 52-card game's action is
a play or a pass; the expansion's names its kind of action in ``move`` and adds the fields its
kinds need (a function, a target, a draw's source, the cards a seat may not see).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

from .cards import FULL_DECK, CardIndex, CardSet, Mask
from .revolution_cards import ids, starred_text

if TYPE_CHECKING:
    from .plays import Play
    from .rules import Rules


class Move(StrEnum):
    """The kinds of action: the 52-card game's play and pass, and the expansion's others."""

    PLAY = "play"
    PASS = "pass"
    ACTIVATE = "activate"  # a Character card discarded for its function
    COUNTER = "counter"  # a Revolution Q discarded to cancel it
    DECLINE = "decline"  # a seat lets the function stand
    EFFECT = "effect"  # the function takes effect (the window closed without a counter)
    DRAW = "draw"  # one card taken, from the deck (face down) or the Gathering
    STOP = "stop"  # a player who passed draws no more
    SKIP = "skip"  # a jumped player loses a turn
    REVEAL = "reveal"  # cards turned face up to fill the Gathering


class Action(NamedTuple):
    """One applied action. In the 52-card game ``play`` is the play, None for a pass;
    ``auto`` marks an automatic one and ``reason`` says why; ``trick_over``: after this
    action the trick is over (or the deal).

    The expansion's actions name their kind in ``move`` (None: the 52-card game's, which
    ``play`` tells apart) and their cards in ``cards``, a 104-bit mask (the play, the card
    activated, countered, drawn or given, the cards revealed); ``private`` the seats that may
    see those cards, a bit per seat (0: everyone). ``function`` and ``target`` describe an
    activation or its effect; ``source`` a draw's (``deck`` or ``gathering``). ``follows``
    marks an action the deal made by itself after the one before it (undone together with
    it); ``given`` the card an exchange would give (only its giver sees it)."""

    seat: int
    play: Play | None = None
    auto: bool = False
    reason: str = ""
    trick_over: bool = False
    move: Move | None = None
    cards: int = 0
    function: str = ""
    target: int = -1
    source: str = ""
    private: int = 0
    follows: bool = False
    given: int = 0

    @property
    def kind(self) -> Move:
        """What the action is, in either game."""
        if self.move is not None:
            return self.move
        return Move.PASS if self.play is None else Move.PLAY

    @property
    def is_pass(self) -> bool:
        return self.play is None if self.move is None else self.move is Move.PASS

    def seen_by(self, seat: int | None) -> Action:
        """The action as ``seat`` (None: a spectator) may see it: a private card hidden."""
        action = self
        if self.given and seat != self.seat:
            action = action._replace(given=0)
        if self.private and not (seat is not None and self.private >> seat & 1):
            action = action._replace(cards=0)
        return action

    def __str__(self) -> str:
        if self.move is None:
            return f"{self.seat} passes" if self.play is None else f"{self.seat} plays {self.play}"
        shown = " ".join(starred_text(c) for c in ids(self.cards)) if self.cards else "a card"
        to = f" on {self.target}" if self.target >= 0 else ""
        said = {
            Move.PLAY: f"{self.seat} plays {shown}",
            Move.ACTIVATE: f"{self.seat} activates {shown} ({self.function}){to}",
            Move.EFFECT: f"{self.function} of {self.seat} takes effect{to}",
            Move.DRAW: f"{self.seat} draws {shown} from the {self.source}",
            Move.COUNTER: f"{self.seat} counters with {shown}",
            Move.REVEAL: f"the Gathering gets {shown}",
            Move.PASS: f"{self.seat} passes",
            Move.DECLINE: f"{self.seat} declines",
            Move.STOP: f"{self.seat} draws no more",
            Move.SKIP: f"{self.seat} loses a turn (jump)",
        }
        return said[self.move]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's knowledge of a deal (``seat`` None: a spectator's).

    ``hand`` is the seat's own cards; ``counts`` every seat's number of cards; ``to_beat``
    the play to beat (None at a lead) and ``to_beat_seat`` who made it; ``passes`` since
    that play; ``locked`` the seats passed out of the trick (a bit per seat); ``opening`` the
    card the opening play must include, only for the seat that holds it; ``actions`` the
    public history; ``played`` every card played so far; ``legal`` and ``can_pass`` what the
    seat may do now (empty and False when it is not its turn). The expansion's view
    (:class:`~bigtwo.engine.revolution.RevolutionView`) is a SeatView with what it adds;
    ``cards`` and ``unseen`` speak of the 52-card deck.
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
