"""Full-screen pages over the table: game history (with export), the cards played so far,
high scores, statistics and help.

Pages are given text or plain data to show; the only thing one does on its own is write the
history file it was handed when asked to export. :func:`history_text` and
:func:`tracker_text` are pure, so tests and the export share them. A page never shows a card
the person at the table could not know: the history of a deal in play lists plays only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Label, Static

from ..store.matches import HighScore, PlayerStats
from .games import game_of

if TYPE_CHECKING:
    from ..match.match import Match
    from ..match.revolution import RevolutionMatch
    from .controller import GameController


class Page(Screen[None]):
    """A page with a title, a scrolling body and Escape to go back to the table."""

    BINDINGS = [Binding("escape,q", "close", "Back")]
    DEFAULT_CSS = """
    Page { background: $surface; }
    Page .page-title { height: 1; width: 1fr; background: $primary;
                       color: $text; text-style: bold; padding: 0 1; }
    Page .page-note { height: 1; width: 1fr; color: $warning; padding: 0 1; }
    Page VerticalScroll { padding: 0 1; height: 1fr; }
    """
    TITLE_TEXT = ""

    def __init__(self, body: Text | str, *, title: str | None = None) -> None:
        super().__init__()
        self.body = body
        self.page_title = title or self.TITLE_TEXT

    def compose(self) -> ComposeResult:
        yield Label(self.page_title, classes="page-title")
        with VerticalScroll():
            yield Static(self.body, id="page-body")
        yield Label("", classes="page-note", id="page-note")
        yield Footer()

    def set_body(self, body: Text | str) -> None:
        self.body = body
        self.query_one("#page-body", Static).update(body)

    def note(self, text: str) -> None:
        self.query_one("#page-note", Label).update(text)

    def action_close(self) -> None:
        self.dismiss(None)


# -- history -------------------------------------------------------------------------------
ASCII_SUITS = str.maketrans({"♦": "d", "♣": "c", "♥": "h", "♠": "s"})


def history_text(game: GameController, scope: str, *, ascii_only: bool = False) -> str:
    """The history of the deal in play (``scope="deal"``) or of the whole game, in the
    game's own words (:meth:`~bigtwo.tui.games.BigTwoGame.history_text`)."""
    text = game.kind.history_text(game, scope)
    return text.translate(ASCII_SUITS) if ascii_only else text


class HistoryPage(Page):
    """The history of the deal or the whole game; ``e`` writes it to a text file."""

    TITLE_TEXT = "Game history"
    BINDINGS = [
        Binding("d", "scope('deal')", "This deal"),
        Binding("g", "scope('game')", "Whole game"),
        Binding("e", "export", "Export"),
        Binding("r", "replay", "Replay"),
    ]

    def __init__(
        self,
        make_text: Callable[[str], str],
        export: Callable[[str, str], Path],
        scope: str = "deal",
        replay: Callable[[], str] | None = None,
    ) -> None:
        """``replay``: open the replay of the game's finished deals; it answers why not, in
        words, when there is none ("" when it opened)."""
        self.make_text = make_text
        self.export_to = export
        self.replay = replay
        self.scope = scope
        super().__init__(make_text(scope), title=self._title())

    def _title(self) -> str:
        which = "this deal" if self.scope == "deal" else "the whole game"
        return f"Game history: {which}   (d deal, g game, e export, r replay, Esc back)"

    def action_scope(self, scope: str) -> None:
        self.scope = scope
        self.set_body(self.make_text(scope))
        self.query_one(".page-title", Label).update(self._title())

    def action_replay(self) -> None:
        why = self.replay() if self.replay is not None else "This game cannot be replayed here"
        if why:
            self.note(why)

    def action_export(self) -> None:
        try:
            path = self.export_to(self.scope, self.make_text(self.scope))
        except OSError as exc:
            self.note(f"Could not export: {exc.strerror or exc}")
            return
        self.note(f"Exported to {path}")


# -- replaying a game ----------------------------------------------------------------------------
class ReplayPage(Page):
    """Step through a game as its stored record has it, every hand face up, forwards and
    backwards, a play or a deal at a time. Only deals that are over are shown: a deal in play
    would give away the hands still hidden."""

    BINDINGS = [
        Binding("right,n,space", "step(1)", "Next"),
        Binding("left,p", "step(-1)", "Back"),
        Binding("down,pagedown", "deal(1)", "Next deal"),
        Binding("up,pageup", "deal(-1)", "Previous deal"),
        Binding("home", "go(0)", "Start", show=False),
        Binding("end", "go(-1)", "End", show=False),
        Binding("v", "review", "Review this deal"),
    ]

    def __init__(
        self,
        match: Match | RevolutionMatch,
        *,
        ascii_only: bool = False,
        review: Callable[[int], str] | None = None,
    ) -> None:
        """``review``: open the coach's review of a deal (by number); it answers why not, in
        words ("" when it opened)."""
        self.match = match
        self.ascii_only = ascii_only
        self.review = review
        self.steps = game_of(match.ruleset.rules).replay_steps(match)
        if not self.steps:
            raise ValueError("a replay needs a finished deal")
        self.at = 0
        super().__init__(self._text(), title=self._title())

    def _title(self) -> str:
        return f"Replay: {self.at + 1} of {len(self.steps)}"  # the keys are in the footer

    def _text(self) -> str:
        text = self.steps[self.at][1]()
        return text.translate(ASCII_SUITS) if self.ascii_only else text

    def _show(self) -> None:
        self.set_body(self._text())
        self.query_one(".page-title", Label).update(self._title())

    def action_step(self, step: int) -> None:
        self.action_go(max(0, min(len(self.steps) - 1, self.at + step)))

    def action_go(self, at: int) -> None:
        self.at = at % len(self.steps)
        self._show()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.review is not None if action == "review" else True

    def action_review(self) -> None:
        """The coach's review of the deal on show."""
        why = self.review(self.steps[self.at][0]) if self.review is not None else ""
        if why:
            self.note(why)

    def action_deal(self, step: int) -> None:
        """The start of the next deal (``step`` 1), or of this one and then the one before."""
        deal = self.steps[self.at][0]
        starts = {d: i for i, (d, _) in reversed(list(enumerate(self.steps)))}
        if step > 0:
            later = [i for d, i in starts.items() if d > deal]
            target = min(later) if later else len(self.steps) - 1
        else:
            here = starts[deal]
            earlier = [i for d, i in starts.items() if d < deal]
            target = here if self.at > here or not earlier else max(earlier)
        self.action_go(target)


# -- cards played ---------------------------------------------------------------------------
class TrackerPage(Page):
    TITLE_TEXT = "Cards played so far   (Esc back)"


# -- high scores and statistics -------------------------------------------------------------
def high_scores_text(scores: Sequence[HighScore]) -> Text:
    """The Palm high-score list: name and score, with each game's rounds, seconds, best
    deal and the name's balance over every game."""
    text = Text()
    head = f"{'#':>2}  {'Name':<12}{'Score':>7}{'Rounds':>8}{'Seconds':>9}{'Max deal':>10}{'Balance':>9}  Rules"
    text.append(head + "\n", Style(bold=True, underline=True))
    if not scores:
        text.append("  No high scores yet: finish a game to enter one.\n", Style(italic=True))
    for i, s in enumerate(scores, 1):
        text.append(
            f"{i:>2}  {s.name[:12]:<12}{s.score:>+7d}{s.rounds:>8}{round(s.seconds):>9}"
            f"{s.max_score:>+10d}{s.balance:>+9d}  {s.rules[:10]}\n"
        )
    return text


def stats_text(stats: Sequence[PlayerStats]) -> Text:
    """Lifetime statistics, one row per name that finished a game."""
    text = Text()
    head = f"{'Name':<12}{'Games':>6}{'Won':>5}{'Deals':>7}{'Won':>5}{'Win %':>7}{'Balance':>9}{'Best':>6}{'Time':>9}"
    text.append(head + "\n", Style(bold=True, underline=True))
    if not stats:
        text.append("No finished games yet.\n", Style(italic=True))
    for st in stats:
        rate = f"{100 * st.deals_won // st.deals}%" if st.deals else "-"
        text.append(
            f"{st.name[:12]:<12}{st.games:>6}{st.games_won:>5}{st.deals:>7}{st.deals_won:>5}"
            f"{rate:>7}{st.balance:>+9d}{st.best_deal:>+6d}{_duration(round(st.seconds)):>9}\n"
        )
    text.append(
        "\nWon: games with the best total; deals won: deals you went out first.\n", Style(dim=True)
    )
    return text


class StatsPage(Page):
    """Lifetime statistics; ``r`` resets them, once the player has said yes."""

    TITLE_TEXT = "Statistics   (r reset, Esc back)"
    BINDINGS = [Binding("r", "reset", "Reset statistics")]

    def __init__(self, stats: Callable[[], Sequence[PlayerStats]], reset: Callable[[], None]):
        self.stats = stats
        self.reset = reset
        super().__init__(stats_text(stats()))

    def action_reset(self) -> None:
        from .dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.reset()
                self.set_body(stats_text(self.stats()))
                self.note("Statistics reset; the high scores are kept.")

        question = (
            "Reset the statistics of every player? Games, deals won and balances start again "
            "from nothing; the high-score list is kept."
        )
        self.app.push_screen(Confirm(question, yes="Reset", no="Keep them"), answered)


def _duration(seconds: int) -> str:
    m, s = divmod(int(seconds), 60)
    h, m = divmod(m, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"
