"""The beliefs panel at the table: what the cards played tell of each opponent's hand.

Toggled by ``b`` (:func:`toggle_beliefs`), it shows, for each opponent of the seat on show,
the chance it holds a 2, an ace, a card that beats the single on the table, a pair, a triple
and a five-card play (each of the last three one that beats the table's, when a play of its
kind is to beat: its column then reads ``>pr``, ``>3k`` or ``>5c``), from
:func:`bigtwo.coach.beliefs.beliefs_of`: the seat's own view alone, so public information
only. A figure counted exactly is shown as it is; one estimated from sampled worlds is
marked ``~``. The panel is worked out again in a worker thread whenever the position
changes, from worlds drawn by a generator seeded by the position, so a position always shows
the same figures. At a table of Big 2 RevolutioN the figures are
:mod:`bigtwo.coach.revolution_beliefs`' (a starred card stands for its twin, so a 2 is either
2; the count is of normal cards, and a seat's Revolution cards follow it after a ``+``). It
is not offered at a table whose host turned assists off (a host who turns them off during
the match closes it at once), nor to a spectator (a view without a hand).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import work
from textual.widgets import Static
from textual.worker import get_current_worker

from ..coach.beliefs import beliefs_of
from ..coach.chances import Beliefs, Chance
from ..engine.errors import BigTwoError
from ..engine.revolution_types import RevolutionView
from ..match.views import TableView
from .coaching import ASSISTS_OFF, assists_on

PANEL_WORLDS = 200  # worlds sampled for what counting does not reach
SPECTATOR = "Beliefs are a player's: a spectator sees none while a hand is in play"
STARRED = "A starred card stands for its twin: 2 counts 2 and 2*\n"
COLUMNS = (
    ("two", "2"),
    ("ace", "A"),
    ("beats_single", ">1"),
    ("pair", "pr"),
    ("triple", "3k"),
    ("five", "5c"),
)
BEATING = {"pair": 2, "triple": 3, "five": 5}  # the columns that beat a play of their size
BEATS_WORDS = {  # the legend's line for a column of plays beating the table's
    2: ">pr: a pair beating the table's\n",
    3: ">3k: a triple beating the table's\n",
    5: ">5c: a 5-card play beating the table's\n",
}


def column_label(name: str, label: str, beating: int) -> str:
    """A column's label: ``>`` before it where it is of plays beating the table's.

    >>> column_label("pair", "pr", 2), column_label("pair", "pr", 5)
    ('>pr', 'pr')
    """
    return f">{label}" if beating and BEATING.get(name) == beating else label


def chance_words(chance: Chance | None) -> str:
    """A chance in four characters: ``82%``, ``~40%`` when sampled, ``-`` when none.

    >>> chance_words(Chance(0.8182)), chance_words(Chance(0.4, 0.02, exact=False))
    (' 82%', '~40%')
    """
    if chance is None:
        return "   -"
    shown = f"{100 * chance.p:.0f}%"
    return f"{'' if chance.exact else '~'}{shown:>{4 if chance.exact else 3}}"


def beliefs_text(beliefs: Beliefs, names: Sequence[str]) -> Text:
    """The panel's text: a row an opponent, a column a chance; at a table of Big 2
    RevolutioN a row reads ``10+2`` for ten normal cards and two Revolution cards."""
    text = Text("What the cards played tell\n", Style(bold=True))
    labels = [column_label(name, label, beliefs.beating) for name, label in COLUMNS]
    head = f"{'':<8}" + "".join(f"{label:>5}" for label in labels) + "\n"
    text.append(head, Style(underline=True))
    for seat in beliefs.opponents:
        chances = seat.chances()
        cards = f"{seat.cards}" if seat.starred is None else f"{seat.cards}+{seat.starred}"
        row = f"{names[seat.seat][:5]:<5}{cards:>3}"
        row += "".join(f" {chance_words(chances[name])}" for name, _ in COLUMNS)
        text.append(row + "\n")
    how = " under what passes proved" if beliefs.proofs else ", rest counted"
    text.append(
        "2 A: holds one; >1: beats the single\n"
        "pr 3k 5c: pair, triple, 5-card play\n"
        + BEATS_WORDS.get(beliefs.beating, "")
        + (STARRED if any(o.starred is not None for o in beliefs.opponents) else "")
        + f"~ sampled ({beliefs.worlds} worlds){how}",
        Style(dim=True),
    )
    return text


def refused(game: Any) -> str:
    """Why ``game``'s table offers no beliefs, in words ("" when it does)."""
    if game is None or not game.started:
        return "Beliefs are shown once the cards are dealt"
    if not assists_on(game.mirror):
        return ASSISTS_OFF
    if seat_view(game).seat is None:
        return SPECTATOR
    if not game.hand():
        return "Beliefs are shown beside a hand on show"
    return ""


def seat_view(game: Any) -> TableView | RevolutionView:
    """The view of the seat on show, of either game."""
    view: TableView | RevolutionView = game.kind.seat_view(game.mirror)
    return view


class BeliefsPanel(Static):
    """The panel; it follows the position of the table it is mounted on."""

    DEFAULT_CSS = """
    BeliefsPanel { dock: right; width: 40; height: auto; border: round $secondary;
                   background: $surface; padding: 0; }
    """

    def __init__(self) -> None:
        super().__init__("Counting…", id="beliefs")
        self.position: tuple[object, ...] | None = None

    @property
    def game(self) -> Any:
        """The game on the table the panel is on."""
        return getattr(self.screen, "game", None)

    def on_mount(self) -> None:
        self.set_interval(0.25, self.follow)
        self.follow()

    def follow(self) -> None:
        """Work the figures out again when the position has changed."""
        why = refused(self.game)
        # The host turning assists off hides the panel at once, and on again shows it.
        self.display = why != ASSISTS_OFF
        if why:  # the hand on show went away (a hot-seat cover) or the table changed
            self.update(why)
            self.position = None
            return
        view = seat_view(self.game)
        position = (self.game.deal_number, len(view.actions), view.seat, int(view.hand))
        if position != self.position:
            self.position = position
            self.work_out(view, list(self.game.names), position)

    @work(thread=True, exclusive=True, group="beliefs", exit_on_error=False)
    def work_out(
        self, view: TableView | RevolutionView, names: list[str], position: tuple[object, ...]
    ) -> None:
        rng = random.Random(f"beliefs:{position}")
        text = beliefs_text(beliefs_of(view, rng, PANEL_WORLDS), names)
        if not get_current_worker().is_cancelled:
            self.app.call_from_thread(self._show, text, position)

    def _show(self, text: Text, position: tuple[object, ...]) -> None:
        if self.is_mounted and position == self.position:
            self.update(text)


def toggle_assists(screen: Any) -> None:
    """The table's host turns the coach's assists off, or on again, for every player (``A``):
    the beliefs panel follows at once, at every screen of the table."""
    game = screen.game
    if game is None or not game.started:
        screen.say("The assists are turned once the cards are dealt", "error")
        return
    on = not assists_on(game.mirror)
    try:
        game.set_assists(on)
    except BigTwoError as exc:
        screen.say(str(exc), "error")
        return
    screen.say(f"Assists {'on' if on else 'off'} for every player at this table")


def toggle_beliefs(screen: Any) -> None:
    """Show or hide the beliefs panel on the table ``screen``; a table that offers none says
    why."""
    shown = screen.query(BeliefsPanel)
    if shown:
        shown.remove()
        return
    why = refused(screen.game)
    if why:
        screen.say(why, "error")
        return
    screen.mount(BeliefsPanel())
