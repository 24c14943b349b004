"""The values of a hand of Big 2 RevolutioN: where a turn stands (:class:`Phase`), the kinds
of action (:class:`Move`), an applied action (:class:`RevolutionAction`), a choice a seat may
make (:class:`RevolutionChoice`), a function waiting for its counter window
(:class:`Pending`) and one seat's view of the hand (:class:`RevolutionView`).

They belong to :mod:`bigtwo.engine.revolution`, which exports them with the deal that makes
them, and each says so (``__module__``): snapshots pickle them by that module's name, so those
written before this module existed and those written after read each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .plays import Play
from .revolution_cards import ids, starred_text
from .rules import Rules


class Phase(StrEnum):
    """Where a turn stands: the player to act may use functions and then play or pass
    (``act``); every other seat answers a function (``counter``); the player who passed
    draws (``draw``); the hand is ``over``."""

    ACT = "act"
    COUNTER = "counter"
    DRAW = "draw"
    OVER = "over"


class Move(StrEnum):
    """The kinds of action in a hand of the expansion."""

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


class End(StrEnum):
    OUT = "out"  # a player has played every normal card
    EXHAUSTION = "exhaustion"  # the Revolution deck ran out


class RevolutionAction(NamedTuple):
    """One applied action. ``cards`` is a 104-bit mask (the play, the card activated,
    countered, drawn or given, the cards revealed); ``private`` the seats that may see those
    cards, a bit per seat (0: everyone). ``function`` and ``target`` describe an activation
    or its effect; ``source`` a draw's (``deck`` or ``gathering``). ``follows`` marks an
    action the deal made by itself after the one before it (undone together with it)."""

    seat: int
    move: Move
    cards: int = 0
    function: str = ""
    target: int = -1
    source: str = ""
    private: int = 0
    auto: bool = False
    follows: bool = False
    trick_over: bool = False
    given: int = 0  # the card an exchange would give: only its giver sees it here

    def seen_by(self, seat: int | None) -> RevolutionAction:
        """The action as ``seat`` (None: a spectator) may see it: a private card hidden."""
        action = self
        if self.given and seat != self.seat:
            action = action._replace(given=0)
        if self.private and not (seat is not None and self.private >> seat & 1):
            action = action._replace(cards=0)
        return action

    @property
    def is_pass(self) -> bool:
        return self.move is Move.PASS

    def __str__(self) -> str:
        shown = " ".join(starred_text(c) for c in ids(self.cards)) if self.cards else "a card"
        if self.move is Move.PLAY:
            return f"{self.seat} plays {shown}"
        if self.move is Move.ACTIVATE:
            to = f" on {self.target}" if self.target >= 0 else ""
            return f"{self.seat} activates {shown} ({self.function}){to}"
        if self.move is Move.EFFECT:
            to = f" on {self.target}" if self.target >= 0 else ""
            return f"{self.function} of {self.seat} takes effect{to}"
        if self.move is Move.DRAW:
            return f"{self.seat} draws {shown} from the {self.source}"
        if self.move is Move.COUNTER:
            return f"{self.seat} counters with {shown}"
        if self.move is Move.REVEAL:
            return f"the Gathering gets {shown}"
        words = {
            Move.PASS: "passes",
            Move.DECLINE: "declines",
            Move.STOP: "draws no more",
            Move.SKIP: "loses a turn (jump)",
        }
        return f"{self.seat} {words[self.move]}"


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


@dataclass(frozen=True, slots=True)
class RevolutionView:
    """What one seat (``seat`` None: a spectator) may know of a hand of the expansion.

    ``hand`` is the seat's own cards (a 104-bit mask); ``normal_counts`` and
    ``revolution_counts`` every seat's counts; ``gathering`` the face-up cards;
    ``deck_left`` the cards left in the Revolution deck; ``discards`` the Character cards
    discarded for a function or a counter; ``played`` every card played; ``actions`` the
    history with every card this seat may not see hidden; ``to_act`` the seat whose answer
    is awaited now, ``phase`` what it is to do, ``pending`` the function waiting in the
    counter window (its card and target, never an exchange's card); ``locked`` the seats
    that sit out the rest of the trick after passing (``pass_lock``); ``legal`` and
    ``can_pass`` what this seat may play now; ``choices`` everything it may do now, in every
    phase (empty unless its answer is awaited): what a computer player chooses from."""

    seat: int | None
    rules: Rules
    hand: int
    normal_counts: tuple[int, ...]
    revolution_counts: tuple[int, ...]
    gathering: tuple[int, ...]
    deck_left: int
    discards: int
    played: int
    reversed: bool
    turn: int
    to_act: int
    phase: Phase
    leader: int
    to_beat: Play | None
    to_beat_seat: int
    passes: int
    skips: int
    pending: tuple[int, str, int, int] | None  # seat, function, card, target
    functions_used: int
    draws_taken: int
    opening: int | None
    actions: tuple[RevolutionAction, ...]
    winner: int | None
    end: End | None
    legal: tuple[Play, ...]
    can_pass: bool
    choices: tuple[RevolutionChoice, ...] = ()
    locked: int = 0  # the seats locked out of the trick by their pass (pass_lock), a bit each

    @property
    def players(self) -> int:
        return len(self.normal_counts)

    @property
    def my_turn(self) -> bool:
        return self.seat is not None and self.seat == self.to_act and self.end is None


# Snapshots (pickles) name these classes by the module that held them before this one and
# exports them still: so it stays their module, and snapshots written before and after the
# move read each other.
for _value in (Phase, Move, End, RevolutionAction, RevolutionChoice, Pending, RevolutionView):
    _value.__module__ = "bigtwo.engine.revolution"

__all__ = [
    "End",
    "Move",
    "Pending",
    "Phase",
    "RevolutionAction",
    "RevolutionChoice",
    "RevolutionView",
]
