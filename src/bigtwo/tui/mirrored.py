"""What the table screen reads the same way from any table, local or over the network.

:class:`MirroredTable` is the common ground of :class:`~bigtwo.tui.controller.GameController`
(a local table) and :class:`~bigtwo.tui.netgame.NetGame` (a server's): the rules, whose turn,
the deal and the trick in play, all from the :class:`~bigtwo.service.mirror.TableMirror` of
the seat on show. Beside it the words both give a person: a :class:`Hint` (the hint adviser
when installed, else the cheapest play) and a choice of the expansion in words. It reads
mirrors and views only: it must not send commands to a table, draw, or import a screen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from ..engine.cards import Mask, card_symbols
from ..engine.errors import BigTwoError, IllegalAction
from ..engine.plays import Play
from ..engine.revolution import Move, RevolutionChoice, RevolutionView
from ..engine.revolution_cards import symbols
from ..engine.rules import Rules
from ..engine.views import Action, SeatView
from ..match.views import TableView
from ..service.mirror import TableMirror
from .games import BigTwoGame, game_of
from .words import is_you


@dataclass(frozen=True, slots=True)
class Hint:
    play: Play | None  # None: pass
    reason: str


class MirroredTable:
    """What the table screen reads the same way from any table, local or over the network:
    the mirror of the seat on show (a subclass says which) and the deal in it."""

    @property
    def mirror(self) -> TableMirror:
        raise NotImplementedError

    if TYPE_CHECKING:

        @property
        def names(self) -> list[str]: ...

    @property
    def room_line(self) -> str:
        """The room's code and share link, for the table's header: a network table's."""
        return ""

    @property
    def rules(self) -> Rules:
        rules = self.mirror.rules
        assert rules is not None
        return rules

    @property
    def turn(self) -> int:
        return self.mirror.turn

    @property
    def deal_number(self) -> int:
        return self.mirror.deal_number

    @property
    def deals(self) -> int:
        return int(self.mirror.room.get("deals", 0))

    def trick(self) -> tuple[list[Action], bool]:
        """The actions of the trick in play, or of the trick just won when the next lead is
        still to come (``True``), so the last plays stay on the table until someone leads."""
        return trick_of(self.mirror.actions)

    @property
    def kind(self) -> BigTwoGame:
        """The game played: what the terminal does its own way for it (:mod:`.games`)."""
        return game_of(self.rules)

    def revolution_view(self) -> RevolutionView:
        """The hand of the expansion as the seat on show sees it, with what it may do now."""
        return self.mirror.revolution_view()

    def mirror_of(self, seat: int) -> TableMirror:
        """The mirror of ``seat`` (a network table has only the one on show)."""
        return self.mirror

    def revolution_hint(self, seat: int) -> tuple[RevolutionChoice, str]:
        """What to do now in a hand of the expansion, as the greedy computer would, in words."""
        import random

        from ..bots import make_bot

        view = self.mirror_of(seat).revolution_view()
        if not view.choices:
            raise IllegalAction("Hints are for your turn")
        choice = make_bot("greedy", "revolution").choose(view, random.Random(0))
        return choice, choice_words(choice, self.names)


def shown_names(names: Sequence[str], *, hot_seat: bool, viewer: int | None) -> list[str]:
    """The seats' names as the screen speaks of them: in hot-seat "you" is only the seat on
    show, so a person named "You" at another seat (or at any, behind the cover) is called by
    their seat's number.

    >>> shown_names(["You", "Ann", "Zed"], hot_seat=True, viewer=2)
    ['Player 1', 'Ann', 'Zed']
    >>> shown_names(["You", "Ann", "Zed"], hot_seat=True, viewer=0)
    ['You', 'Ann', 'Zed']
    """
    if not hot_seat:
        return list(names)
    return [
        f"Player {seat + 1}" if is_you(name) and seat != viewer else name
        for seat, name in enumerate(names)
    ]


def hint_for(view: TableView) -> Hint:
    """What to play: the project's hint adviser when installed, else the cheapest play."""
    try:
        from ..bots import hint as hint_module
    except ImportError:
        hint_module = None  # type: ignore[assignment]
    if hint_module is not None and hasattr(hint_module, "hint"):
        try:
            return _as_hint(hint_module.hint(view))
        except BigTwoError:
            pass
    return cheapest_hint(view)


class _Ends(Protocol):
    @property
    def trick_over(self) -> bool: ...


_A = TypeVar("_A", bound=_Ends)


def trick_of(actions: Sequence[_A]) -> tuple[list[_A], bool]:
    """The actions of the trick in play, or of the trick just won when the next lead is
    still to come (``True``): 52-card actions, or those of a hand of the expansion."""
    actions = list(actions)
    if not actions:
        return [], False
    ends = [i for i, a in enumerate(actions) if a.trick_over]
    if ends and ends[-1] == len(actions) - 1:
        start = ends[-2] + 1 if len(ends) > 1 else 0
        return actions[start:], True
    start = ends[-1] + 1 if ends else 0
    return actions[start:], False


def last_trick_of(actions: Sequence[_A]) -> tuple[list[_A], int]:
    """The actions of the last trick won in ``actions`` and its number in the deal (empty
    and 0 before the first trick is won).

    >>> from types import SimpleNamespace as A
    >>> lead, over = A(trick_over=False), A(trick_over=True)
    >>> last_trick_of([lead, over, lead]) == ([lead, over], 1)
    True
    >>> last_trick_of([lead])
    ([], 0)
    """
    ends = [i for i, a in enumerate(actions) if a.trick_over]
    if not ends:
        return [], 0
    start = ends[-2] + 1 if len(ends) > 1 else 0
    return list(actions[start : ends[-1] + 1]), len(ends)


def choice_words(choice: RevolutionChoice, names: Sequence[str]) -> str:
    """One choice of the expansion in words (for a hint)."""
    move, cards = choice.move, symbols(choice.cards) if choice.cards else ""
    if move is Move.PLAY:
        return f"play {cards}"
    if move is Move.PASS:
        return "pass"
    if move is Move.ACTIVATE:
        if choice.target >= 0:
            give = symbols(1 << choice.give)
            return f"activate {cards} (exchange): give {give} to {names[choice.target]}"
        return f"activate {cards}"
    if move is Move.COUNTER:
        return f"counter with {cards}"
    if move is Move.DECLINE:
        return "let it stand"
    if move is Move.DRAW:
        return f"draw {cards} from the Gathering" if cards else "draw from the deck"
    return "stop drawing"


def cheapest_hint(view: SeatView) -> Hint:
    """The fallback adviser: the cheapest legal play, or a pass when there is no reply."""
    if not view.legal:
        if view.to_beat is not None:
            return Hint(None, f"Nothing in your hand beats {view.to_beat.symbols()}: pass")
        return Hint(None, "No play is possible")
    play = view.legal[0]
    if view.to_beat is None:
        if view.opening is not None:
            return Hint(
                play, f"Lead the cheapest play with {card_symbols(Mask(1 << view.opening))}"
            )
        return Hint(play, "Lead your cheapest play")
    return Hint(play, f"The cheapest play that beats {view.to_beat.symbols()}")


def _as_hint(value: Any) -> Hint:
    """Accept the adviser's answer as a Hint, a (play, reason) pair or an object with both."""
    if isinstance(value, Hint):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        return Hint(value[0], str(value[1]))
    if isinstance(value, Play) or value is None:
        return Hint(value, "Suggested play" if value is not None else "Pass")
    play = getattr(value, "play", None)
    reason = getattr(value, "reason", "") or getattr(value, "text", "")
    return Hint(play, str(reason))
