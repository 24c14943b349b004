"""Where the other players sit around the table, what their panels say, and which trick it is.

Shared by the table screen (:mod:`.table`) and the drawing of a hand of the expansion
(:mod:`.revolution_table`), so that both place and label the seats alike. Plain functions
of the game on show: this module must not draw, query widgets or import a screen.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from typing import TypeAlias

    from .controller import GameController
    from .netgame import NetGame

    # A game the table screen can show: a local table, or a server's table joined or watched.
    Game: TypeAlias = GameController | NetGame

# Where the other seats sit, in the order they play after you (next player on your right,
# the direction Big Two is played in Hong Kong).
PLACES = {2: ("top",), 3: ("right", "left"), 4: ("right", "top", "left")}


def seat_status(
    game: Game,
    seat: int,
    *,
    turn: bool,
    won: bool,
    passed: bool,
    on_table: bool,
    doing: str = "",
) -> str:
    """What an opponent's panel says of its seat: what it is doing (``doing`` names a step of
    the turn, else it is to play or thinking), that it won, passed or holds the table, and
    whether it is away."""
    if turn:
        status = doing or ("thinking..." if not game.is_human(seat) else "to play")
    elif won:
        status = "WINS!"
    elif passed:
        status = "passed"
    elif on_table:
        status = "on the table"
    else:
        status = ""
    away = game.presence(seat)
    return f"{status}, {away}" if status and away else status or away


def trick_number(actions: Any) -> int:
    """The number of the trick on show, from the deal's actions (or the expansion's moves) so
    far: a trick that is over stays the one on show until the next play leads the next (under
    the expansion a pass that ends a trick may be followed by draws before it).

    >>> from types import SimpleNamespace as A
    >>> lead, over = A(play=1, trick_over=False), A(play=None, trick_over=True)
    >>> trick_number([]), trick_number([lead, over]), trick_number([lead, over, lead])
    (1, 1, 2)
    >>> draw = A(move="draw", cards=8, trick_over=False)
    >>> trick_number([lead, over, draw]), trick_number([lead, over, draw, A(move="play", cards=1, trick_over=False)])
    (1, 2)
    """
    number, ended = 1, 0
    for a in actions:
        if ended and _is_play(a):
            number, ended = number + ended, 0
        if a.trick_over:
            ended += 1
    return number


def _is_play(action: Any) -> bool:
    """A play of cards: a 52-card action with a play, or the expansion's ``play`` move."""
    move = getattr(action, "move", None)  # None in the 52-card game
    if move is not None:
        return bool(move == "play")
    return action.play is not None
