"""The game's pop-ups: the score sheet, the final score with high-score entry, the hot-seat
cover, the offer to resume, a yes-or-no question, and the menu.

Each dialog is handed the plain data it shows and answers through ``dismiss``; none of them
touches the match or the store, so the app decides what an answer means. The score sheet's
text is built by :func:`score_sheet_text`, a pure function the tests can read directly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Input, Label, Static

from ..engine.rules import Rules
from ..match.history import REAL_MONEY as ZERO_TEXT
from ..match.history import WIN as WIN_TEXT
from ..match.history import ScoreRow, band_word
from .render import RED_TEXT, cards_text
from .words import count, whom

if TYPE_CHECKING:
    pass


def score_sheet_text(
    rows: Sequence[ScoreRow],
    *,
    number: int,
    deals: int,
    show_cards_left: bool,
    ascii_only: bool,
    scored: bool = True,
    rules: Rules | None = None,
) -> Text:
    """The score sheet after a deal: cards left, DOUBLE!, *WIN!*, points and totals."""
    text = Text()
    text.append(f"Deal {number} of {deals}\n\n", Style(bold=True))
    header = f"{'Player':<12}{'Cards left':<20}{'Points':>8}{'Total':>9}\n"
    text.append(header, Style(bold=True, underline=True))
    for row in rows:
        text.append(f"{row.name[:11]:<12}")
        if row.won:
            text.append(f"{WIN_TEXT:<20}", RED_TEXT)
        else:
            band = band_word(row.multiplier)
            text.append(f"{row.cards_left:>2} ")
            text.append(f"{band:<17}", Style(color="yellow", bold=True) if band else Style())
        if scored:
            text.append(f"{row.points:>+8d}{row.total:>+9d}\n")
        else:
            text.append(f"{'':>8}{'':>9}\n")
        if show_cards_left and row.cards_left:
            text.append(" " * 4)
            text.append_text(cards_text(row.cards, ascii_only=ascii_only, rules=rules))
            text.append("\n")
    if scored and all(r.total == 0 for r in rows):
        text.append(f"\n{ZERO_TEXT}\n", Style(italic=True))
    return text


class ScoreSheet(ModalScreen[str]):
    """After each deal; answers ``"next"``, ``"menu"``, ``"quit"``, ``"again"`` (with ``again``
    offered: play this deal again), ``"cards"`` (choose cards for the deals to come) or the page to open first (``"history"``, ``"help"``,
    ...): the app shows the sheet again when the page closes."""

    BINDINGS = [
        Binding("enter,space", "dismiss_with('next')", "Continue"),
        Binding("escape", "dismiss_with('next')", "Continue", show=False),
        Binding("g,f2", "dismiss_with('history')", "History"),
        Binding("d", "by_deal", "All deals"),
        # The table's keys work here too: each page opens over the sheet and comes back to
        # it, and q quits (the game is kept, on this sheet).
        Binding("m", "dismiss_with('menu')", "Menu", show=False),
        Binding("q", "dismiss_with('quit')", "Quit", show=False),
        Binding("f1,question_mark", "dismiss_with('help')", "Help", show=False),
        Binding("f3,t", "dismiss_with('tracker')", "Played", show=False),
        Binding("f4,o", "dismiss_with('scores')", "Scores", show=False),
        Binding("f5,i", "dismiss_with('stats')", "Stats", show=False),
        Binding("f6,comma", "dismiss_with('prefs')", "Prefs", show=False),
        Binding("f7,n", "dismiss_with('new')", "New game", show=False),
        Binding("a", "again", "Play again"),
        Binding("c", "dismiss_with('cards')", "Choose cards"),
        Binding("r", "dismiss_with('rematch')", "New game together"),
        Binding("v", "dismiss_with('review')", "Review"),
    ]
    DEFAULT_CSS = """
    ScoreSheet { align: center middle; }
    #sheet { width: 68; height: auto; max-height: 22; border: thick $warning;
             background: $surface; padding: 0 1; }
    #sheet-title { text-style: bold; width: 1fr; content-align: center middle; }
    #sheet-buttons { height: 1; align: center middle; margin-top: 1; }
    #sheet-buttons Button { margin: 0 1; min-width: 0; width: auto; }
    #sheet-coach { height: 1; align: center middle; }
    """

    def __init__(
        self,
        text: Text,
        *,
        title: str,
        button: str,
        deals: str | None = None,
        again: bool = False,
        rematch: bool = False,
        cards: bool = True,
        review: bool = False,
    ) -> None:
        """``deals``: every deal's points so far, a row a deal (``d`` shows it), or None;
        ``again``: offer to play this deal again, or to choose cards for the next (``c``);
        ``rematch``: at a network table whose match is over, offer a new game together;
        ``review``: offer the coach's review of this deal (``v``)."""
        super().__init__()
        self.sheet_text = text
        self.sheet_title = title
        self.button_label = button
        self.deals_text = deals
        self.by_deal = False
        self.again = again
        self.rematch = rematch
        self.cards = cards  # cards may be chosen for the deals to come (not the revolution)
        self.review = review

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet"):
            yield Label(self.sheet_title, id="sheet-title")
            yield Static(self.sheet_text, id="sheet-body")
            with Horizontal(id="sheet-buttons"):
                yield Button(self.button_label, id="next", compact=True, variant="primary")
                if self.deals_text is not None:
                    yield Button("All deals (d)", id="deals", compact=True)
                yield Button("History", id="history", compact=True)
                if self.again:
                    yield Button("Again (a)", id="again", compact=True)
                    if self.cards:
                        yield Button("Cards (c)", id="cards", compact=True)
                if self.rematch:
                    yield Button("New game together (r)", id="rematch", compact=True)
            if self.review:  # the coach's, on a line of its own
                with Horizontal(id="sheet-coach"):
                    yield Button("Review this deal (v)", id="review", compact=True)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "dismiss_with" and parameters == ("cards",):
            return self.again and self.cards
        if action == "again":
            return self.again  # a deal to come: play this one again, or choose its cards
        if action == "dismiss_with" and parameters == ("rematch",):
            return self.rematch
        if action == "dismiss_with" and parameters == ("review",):
            return self.review
        return True

    def action_again(self) -> None:
        self.dismiss("again")

    def action_dismiss_with(self, answer: str) -> None:
        self.dismiss(answer)

    def action_by_deal(self) -> None:
        """Between this deal's sheet and the table of every deal so far."""
        if self.deals_text is None:
            return
        self.by_deal = not self.by_deal
        body = Text(self.deals_text) if self.by_deal else self.sheet_text
        self.query_one("#sheet-body", Static).update(body)
        label = "This deal (d)" if self.by_deal else "All deals (d)"
        self.query_one("#deals", Button).label = label

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "deals":
            self.action_by_deal()
            return
        self.dismiss(event.button.id or "next")


class FinalScore(ModalScreen[dict[int, str]]):
    """After the last deal of a game: standings, and a name entry for each person whose score
    makes the high-score list. Answers the names entered, by seat."""

    BINDINGS = [
        Binding("escape", "skip", "Skip", show=False),
        Binding("ctrl+r,f8", "replay", "Replay", show=False),
    ]
    DEFAULT_CSS = """
    FinalScore { align: center middle; }
    #final { width: 60; height: auto; border: thick $success; background: $surface; padding: 0 1; }
    #final-title { text-style: bold; width: 1fr; content-align: center middle; }
    .entry { height: 1; }
    .entry Label { width: 26; }
    .entry Input { width: 1fr; }
    #final-buttons { height: 1; align: center middle; margin-top: 1; }
    #final-buttons Button { margin: 0 1; }
    #final-note { height: auto; color: $warning; }
    """

    def __init__(
        self,
        standings: Sequence[tuple[str, int]],
        entries: Sequence[tuple[int, str, int]],
        *,
        deals: int,
        replay: Callable[[], str] | None = None,
        save: Callable[[dict[int, str]], None] | None = None,
    ) -> None:
        """``standings``: (name, total) best first; ``entries``: (seat, name, score) of each
        person who made the high-score list; ``replay``: open the game's replay (it answers
        why not, in words, or ""); ``save``: keep the names entered on the high-score list
        (called once, when Enter is pressed in the last name; the screen answers only the
        names not saved so)."""
        super().__init__()
        self.standings = list(standings)
        self.entries = list(entries)
        self.deals = deals
        self.replay = replay
        self.save = save
        self.saved = False

    def compose(self) -> ComposeResult:
        with Vertical(id="final"):
            yield Label(f"Final score after {count(self.deals, 'deal')}", id="final-title")
            text = Text()
            for place, (name, total) in enumerate(self.standings, 1):
                style = RED_TEXT if place == 1 else Style()
                text.append(f"{place}. {name[:14]:<16}{total:>+8d}\n", style)
            if all(total == 0 for _, total in self.standings):
                text.append(f"{ZERO_TEXT}\n", Style(italic=True))
            yield Static(text)
            if self.entries:
                yield Label("New high score! Enter your name:")
                for seat, name, score in self.entries:
                    with Horizontal(classes="entry"):
                        yield Label(f"{name} ({score:+d})")
                        yield Input(value=name, max_length=12, id=f"name-{seat}", compact=True)
            yield Static("", id="final-note")
            with Horizontal(id="final-buttons"):
                yield Button("New game", id="done", compact=True, variant="primary")
                if self.replay is not None:
                    yield Button("Replay the game (F8)", id="replay", compact=True)

    def on_mount(self) -> None:
        inputs = self.query(Input)
        if inputs:
            inputs.first().focus()

    def _names(self) -> dict[int, str]:
        out: dict[int, str] = {}
        for seat, name, _ in self.entries:
            value = self.query_one(f"#name-{seat}", Input).value.strip()
            out[seat] = value or name
        return out

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        """Enter in a name goes on to the next; in the last it keeps the names and stays on
        the final score, where the buttons (a new game, the replay) are chosen."""
        inputs = list(self.query(Input))
        i = inputs.index(event.input)
        if i + 1 < len(inputs):
            inputs[i + 1].focus()
            return
        if self.save is not None and not self.saved:
            self.save(self._names())
            self.saved = True
            for field in inputs:
                field.disabled = True
        replay = "; F8: replay the game" if self.replay is not None else ""
        self.query_one("#final-note", Static).update(f"Saved. Enter: a new game{replay}.")
        self.query_one("#done", Button).focus()

    def _answer(self) -> dict[int, str]:
        """The names to keep: none when they were saved already."""
        return {} if self.saved else self._names()

    @on(Button.Pressed, "#replay")
    def action_replay(self) -> None:
        """Step through the game just played; the standings wait here meanwhile."""
        why = self.replay() if self.replay is not None else ""
        if why:
            self.query_one("#final-note", Static).update(why)

    def key_enter(self) -> None:
        if not self.entries:
            self.dismiss({})

    @on(Button.Pressed, "#done")
    def action_skip(self) -> None:
        self.dismiss(self._answer())


class Cover(Screen[None]):
    """The hot-seat cover: fills the screen so the last person's hand is hidden until the next
    person presses a key (the key does nothing else)."""

    DEFAULT_CSS = """
    Cover { align: center middle; background: $panel; }
    #cover { width: 60; height: 7; border: double $warning; content-align: center middle;
             text-align: center; text-style: bold; background: $surface; }
    """

    def __init__(self, name: str, *, note: str = "") -> None:
        """``note``: why this person is asked (a counter window), instead of their turn."""
        super().__init__()
        self.player = name
        self.note = note

    def compose(self) -> ComposeResult:
        head = self.note or f"Next player's turn: {self.player}"
        yield Static(
            f"{head}\n\nPass the keyboard to {whom(self.player)},\nthen press any key or click.",
            id="cover",
        )

    def on_key(self, event: events.Key) -> None:
        event.stop()
        event.prevent_default()
        self.dismiss(None)

    def on_click(self, event: events.Click) -> None:
        event.stop()
        self.dismiss(None)


class _YesOrNo(ModalScreen[bool]):
    """A question answered yes (the ``yes`` button, or the key bound to ``answer(True)``) or
    no."""

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ResumeOffer(_YesOrNo):
    """At start-up when a game was left unfinished: continue it, or start a new one (the
    app then asks which, with the New game form). The arrow keys move between the buttons,
    and Enter presses the one in focus."""

    BINDINGS = [
        Binding("enter,y,c", "answer(True)", "Continue"),
        Binding("n,escape", "answer(False)", "New game"),
        Binding("q", "app.quit", "Quit"),  # leaves the game to be offered next time
        Binding("left,up", "app.focus_previous", "Previous", show=False),
        Binding("right,down", "app.focus_next", "Next", show=False),
    ]
    DEFAULT_CSS = """
    ResumeOffer { align: center middle; }
    #resume { width: 60; height: auto; border: thick $primary; background: $surface; padding: 0 1; }
    #resume-buttons { height: 1; align: center middle; margin-top: 1; }
    #resume-buttons Button { margin: 0 1; }
    """

    def __init__(self, summary: str) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        with Vertical(id="resume"):
            yield Label("Continue the game you left?", classes="title")
            yield Static(self.summary)
            with Horizontal(id="resume-buttons"):
                yield Button("Continue (Enter)", id="yes", compact=True, variant="primary")
                yield Button("New game (N)", id="no", compact=True)


class Confirm(_YesOrNo):
    """A yes-or-no question before something that cannot be undone; Escape or n says no."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]
    DEFAULT_CSS = """
    Confirm { align: center middle; }
    #confirm { width: 60; height: auto; border: thick $warning; background: $surface;
               padding: 0 1; }
    #confirm-buttons { height: 1; align: center middle; margin-top: 1; }
    #confirm-buttons Button { margin: 0 1; }
    """

    def __init__(self, question: str, *, yes: str, no: str) -> None:
        super().__init__()
        self.question = question
        self.yes_label = yes
        self.no_label = no

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(self.question, id="confirm-question")
            with Horizontal(id="confirm-buttons"):
                yield Button(f"{self.yes_label} (y)", id="yes", compact=True, variant="warning")
                yield Button(f"{self.no_label} (n)", id="no", compact=True, variant="primary")

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()  # Enter keeps what there is


MENU_ITEMS = (
    ("help", "Help and rules", "F1"),
    ("history", "Game history", "F2"),
    ("tracker", "Cards played", "F3"),
    ("scores", "High scores", "F4"),
    ("stats", "Statistics", "F5"),
    ("prefs", "Preferences", "F6"),
    ("new", "New game", "F7"),
    ("quit", "Quit (the game is kept)", "q"),
)


class Menu(ModalScreen[str | None]):
    """Every screen of the game, reachable by mouse as well as by its key."""

    BINDINGS = [Binding("escape,m", "dismiss_none", "Close")]
    DEFAULT_CSS = """
    Menu { align: center middle; }
    #menu { width: 36; height: auto; border: thick $primary; background: $surface; }
    #menu Button { width: 1fr; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="menu"):
            for key, label, shortcut in MENU_ITEMS:
                yield Button(f"{label}  ({shortcut})", id=f"menu-{key}", compact=True)

    def action_dismiss_none(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "").removeprefix("menu-") or None)
