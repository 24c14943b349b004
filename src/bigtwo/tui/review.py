"""The coach's review of a finished deal, in the terminal.

:class:`ReviewPage` shows one seat's decisions in a deal that is over, each judged by the
coach (:mod:`bigtwo.coach.review`, or :mod:`bigtwo.coach.revolution` for Big 2 RevolutioN):
the move list with each decision's mark, the deal's accuracy, the three costliest decisions
first, and a plot (a :class:`~textual.widgets.Sparkline`) of the points lost at each decision.
Stepping to a decision shows the position as that seat saw it (its hand, the play to beat,
the cards the others had left), the move played and the better one.

The review runs in a worker thread, with a progress bar, from a deal taken out of the match
before it starts; its seed is :data:`SEED`, so it is the same every time. Once done it is kept
with the game (a preference of the game's store, keyed by the game, the deal and the seat),
so a deal is reviewed once: opened again, it is read back. The score sheet opens it
(:func:`open_review`, "Review this deal"), and so does the replay (:func:`open_stored_review`).
Neither opens it at a table whose host turned assists off.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from rich.style import Style
from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Label, OptionList, ProgressBar, Sparkline, Static
from textual.worker import get_current_worker

from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, REVOLUTION, Rules
from .coaching import ASSISTS_OFF, DealCoach, assists_on
from .pages import ASCII_SUITS
from .revolution_coaching import RevolutionCoach

if TYPE_CHECKING:
    from .controller import GameController

SEED = 0  # the review's seed: a deal's review is the same every time
_KEY = "tui.review.{}.{}.{}"  # the game's id in the store, the deal, the seat
_COACHES: dict[str, DealCoach] = {BIGTWO: DealCoach(), REVOLUTION: RevolutionCoach()}
MARK_STYLES = {
    "forced": Style(dim=True),
    "fine": Style(color="green"),
    "inaccuracy": Style(color="yellow"),
    "mistake": Style(color="dark_orange", bold=True),
    "blunder": Style(color="bright_red", bold=True),
}


def coach_of(rules: Rules) -> DealCoach:
    """What the review asks of the game ``rules`` play."""
    return _COACHES[rules.game]


class Shelf(Protocol):
    """Where a review is kept with its game (the terminal's store)."""

    def get_pref(self, key: str, default: Any = None) -> Any: ...
    def set_pref(self, key: str, value: Any) -> None: ...


class _Stopped(Exception):
    """The page closed while its review was running."""


def lost(decision: dict[str, Any]) -> float:
    """The points a decision (as review data) lost, never below nothing."""
    return max(0.0, float(decision.get("loss", 0.0)))


def decision_line(number: int, decision: dict[str, Any]) -> Text:
    """One line of the move list: the decision's number, the move, its mark and the points
    lost."""
    mark = str(decision["mark"])
    text = Text(f"{number:>2}. {decision['move']:<18} ")
    text.append(f"{mark:<10}", MARK_STYLES.get(mark, Style()))
    if "loss" in decision:
        text.append(f" {-lost(decision) or 0.0:>6.1f}")  # never -0.0
    return text


def summary_text(data: dict[str, Any], name: str) -> Text:
    """The deal's accuracy and its three costliest decisions, costliest first."""
    deal = data["deals"][0]
    accuracy = deal["accuracy"]
    shown = "nothing to rate" if accuracy is None else f"{100 * accuracy:.0f}% of decisions fine"
    text = Text(f"{name}, deal {deal['deal']}: accuracy {shown}\n", Style(bold=True))
    costliest = data["costliest"]
    if not costliest:
        text.append("No decision cost points the search could tell apart from noise.\n")
    for decision in costliest:
        text.append("  ")
        text.append(str(decision["mark"]), MARK_STYLES.get(str(decision["mark"]), Style()))
        text.append(
            f": {decision['move']} lost {lost(decision):.1f} ± {decision['se']:.1f} points;"
            f" better {decision['better']}\n"
        )
    return text


def detail_text(decision: dict[str, Any], position: str) -> Text:
    """A decision stepped to: the position as the seat saw it, the move played and the
    better one."""
    text = Text(position + "\n\n")
    mark = str(decision["mark"])
    text.append(f"Played: {decision['move']}   ")
    text.append(mark, MARK_STYLES.get(mark, Style()))
    if mark == "forced":
        text.append("  (the only choice)")
    elif "better" in decision:
        text.append(f"\nBetter: {decision['better']}")
        text.append(f"\nPoints lost: {decision['loss']:+.2f} ± {decision['se']:.2f}")
        if "worlds" in decision:  # a server's review does not say
            text.append(f" ({decision['worlds']} worlds)", Style(dim=True))
    else:
        text.append("  (it goes out)")
    return text


class ReviewPage(Screen[None]):
    """One seat's decisions in a deal that is over, judged by the coach."""

    BINDINGS = [
        Binding("escape,q", "close", "Back"),
        Binding("n", "step(1)", "Next decision"),
        Binding("p", "step(-1)", "Previous"),
        Binding("s", "seat", "Next seat"),
    ]
    DEFAULT_CSS = """
    ReviewPage { background: $surface; }
    ReviewPage .page-title { height: 1; width: 1fr; background: $primary; color: $text;
                             text-style: bold; padding: 0 1; }
    #review-progress { height: 1; padding: 0 1; }
    #review-summary { height: auto; padding: 0 1; }
    #review-plot-label { height: 1; padding: 0 1; color: $text-muted; }
    #review-plot { height: 3; margin: 0 1; }
    #review-body { height: 1fr; }
    #review-moves { width: 44; height: 1fr; }
    #review-detail { width: 1fr; height: 1fr; padding: 0 1; }
    #review-note { height: 1; color: $warning; padding: 0 1; }
    """
    rollouts: int | None = None  # rollouts a decision (None: the coach's default)

    def __init__(
        self,
        subject: Any,
        coach: DealCoach,
        *,
        deal: int,
        seat: int,
        names: Sequence[str],
        shelf: Shelf | None = None,
        game_id: int | None = None,
        ascii_only: bool = False,
    ) -> None:
        """``subject``: the deal to review (:meth:`DealCoach.subject`); ``shelf`` and
        ``game_id``: where the review is kept with its game (None: not kept)."""
        super().__init__()
        self.subject = subject
        self.coach = coach
        self.deal = deal
        self.seat = seat
        self.names = list(names)
        self.shelf = shelf
        self.game_id = game_id
        self.ascii_only = ascii_only
        self.data: dict[str, Any] | None = None
        self.positions: dict[int, str] = {}

    @property
    def budget(self) -> int:
        return self.rollouts if self.rollouts is not None else self.coach.rollouts

    def compose(self) -> ComposeResult:
        yield Label("", classes="page-title")
        yield ProgressBar(id="review-progress", show_eta=False)
        yield Static("", id="review-summary")
        yield Label("Points lost, decision by decision:", id="review-plot-label")
        yield Sparkline([0.0], id="review-plot")
        with Horizontal(id="review-body"):
            yield OptionList(id="review-moves")
            yield Static("", id="review-detail")
        yield Label("", id="review-note")
        yield Footer()

    def on_mount(self) -> None:
        self.start()

    def _words(self, text: str) -> str:
        return text.translate(ASCII_SUITS) if self.ascii_only else text

    def note(self, text: str) -> None:
        self.query_one("#review-note", Label).update(text)

    # -- the review: kept, or worked out in a thread -----------------------------------------
    def _key(self) -> str | None:
        if self.shelf is None or self.game_id is None:
            return None
        return _KEY.format(self.game_id, self.deal, self.seat)

    def start(self) -> None:
        """Show this seat's review: the one kept with the game, else work it out."""
        name = self.names[self.seat]
        title = f"Review: deal {self.deal}, {name}   (n/p step, s next seat, Esc back)"
        self.query_one(".page-title", Label).update(title)
        try:
            self.positions = self.coach.positions(self.subject, self.seat, self.names)
        except BigTwoError as exc:
            self.note(f"This deal cannot be reviewed: {exc}")
            return
        key = self._key()
        kept = self.shelf.get_pref(key) if self.shelf is not None and key else None
        if (
            isinstance(kept, dict)
            and kept.get("seed") == SEED
            and kept.get("rollouts") == self.budget
        ):
            self.show(kept["review"])
            self.note("Reviewed before: kept with the game")
            return
        self.data = None
        self.query_one("#review-moves", OptionList).clear_options()
        self.query_one("#review-summary", Static).update("")
        self.query_one("#review-detail", Static).update("")
        bar = self.query_one("#review-progress", ProgressBar)
        bar.display = True
        bar.update(total=self.coach.decisions(self.subject, self.seat), progress=0)
        self.note(f"Reviewing {name}'s decisions ({self.budget} rollouts each)…")
        self.work_out(self.seat)

    @work(thread=True, exclusive=True, group="review", exit_on_error=False)
    def work_out(self, seat: int) -> None:
        """The review of ``seat``, in a worker thread; the page is told as it goes."""
        worker = get_current_worker()

        def step() -> None:
            if worker.is_cancelled:
                raise _Stopped
            self.app.call_from_thread(self._advance)

        try:
            data = self.coach.review_data(
                self.subject, seat, seed=SEED, rollouts=self.budget, progress=step
            )
        except _Stopped:
            return
        except BigTwoError as exc:
            self.app.call_from_thread(self.note, f"This deal cannot be reviewed: {exc}")
            return
        if not worker.is_cancelled:
            self.app.call_from_thread(self._done, seat, data)

    def _advance(self) -> None:
        if self.is_mounted:
            self.query_one("#review-progress", ProgressBar).advance(1)

    def _done(self, seat: int, data: dict[str, Any]) -> None:
        if not self.is_mounted or seat != self.seat:
            return
        key = self._key()
        if not self.positions:  # a server's review says them with its answer
            self.positions = self.coach.positions(self.subject, seat, self.names)
        if self.shelf is not None and key:
            self.shelf.set_pref(key, {"seed": SEED, "rollouts": self.budget, "review": data})
        self.show(data)
        self.note("Reviewed: kept with the game" if key else "Reviewed")

    # -- drawing -----------------------------------------------------------------------------
    @property
    def decisions(self) -> list[dict[str, Any]]:
        return list(self.data["deals"][0]["decisions"]) if self.data is not None else []

    def show(self, data: dict[str, Any]) -> None:
        """Draw a finished review: the summary, the plot and the move list."""
        self.data = data
        self.query_one("#review-progress", ProgressBar).display = False
        summary = summary_text(data, self.names[self.seat])
        if self.ascii_only:
            summary = Text(self._words(summary.plain))
        self.query_one("#review-summary", Static).update(summary)
        plot = [lost(d) for d in self.decisions] or [0.0]
        sparkline = self.query_one("#review-plot", Sparkline)
        sparkline.data = plot
        sparkline.styles.width = 3 * len(plot)  # three columns a decision, in order
        moves = self.query_one("#review-moves", OptionList)
        moves.clear_options()
        lines = [decision_line(i, d) for i, d in enumerate(self.decisions, 1)]
        if self.ascii_only:
            lines = [Text(self._words(t.plain)) for t in lines]
        moves.add_options(lines)
        if lines:
            costliest = data["costliest"]
            first = costliest[0]["step"] if costliest else self.decisions[0]["step"]
            moves.highlighted = next(i for i, d in enumerate(self.decisions) if d["step"] == first)
            moves.focus()
        else:
            self.query_one("#review-detail", Static).update(
                f"{self.names[self.seat]} made no decision in this deal"
            )

    @on(OptionList.OptionHighlighted, "#review-moves")
    def _stepped(self, event: OptionList.OptionHighlighted) -> None:
        self.show_decision(event.option_index)

    def show_decision(self, index: int) -> None:
        """Step to the ``index``-th decision: its position, the move played, the better."""
        decision = self.decisions[index]
        text = detail_text(decision, self.positions.get(int(decision["step"]), ""))
        if self.ascii_only:
            text = Text(self._words(text.plain))
        self.query_one("#review-detail", Static).update(text)

    def action_step(self, step: int) -> None:
        moves = self.query_one("#review-moves", OptionList)
        if moves.option_count:
            now = moves.highlighted if moves.highlighted is not None else 0
            moves.highlighted = max(0, min(moves.option_count - 1, now + step))

    def action_seat(self) -> None:
        """The next seat's review of the same deal."""
        self.workers.cancel_group(self, "review")
        self.seat = (self.seat + 1) % len(self.names)
        self.start()

    def action_close(self) -> None:
        self.workers.cancel_group(self, "review")
        self.dismiss(None)


# -- opening it ------------------------------------------------------------------------------
class ReviewHost(Protocol):
    """What opening a review needs of the app."""

    storage: Any
    ascii_only: bool

    def push_screen(self, screen: Any, callback: Any = None) -> Any: ...
    def notify(self, message: str, *, severity: Any = "information") -> None: ...


def review_page(
    host: ReviewHost, match: Any, deal: int, seat: int, game_id: int | None
) -> ReviewPage:
    """The review page of ``deal`` of ``match`` for ``seat`` (an error in words when the
    deal is not over)."""
    coach = coach_of(match.ruleset.rules)
    return ReviewPage(
        coach.subject(match, deal),
        coach,
        deal=deal,
        seat=seat,
        names=match.names,
        shelf=host.storage,
        game_id=game_id,
        ascii_only=host.ascii_only,
    )


def open_review(host: ReviewHost, game: GameController, then: Callable[[Any], None]) -> None:
    """Open the review of the last deal over of the local ``game``, for the seat on show;
    ``then`` when it closes. When it cannot open, a notice says why, in words, and ``then``
    follows at once."""
    why = ""
    match = game.played
    over = coach_of(match.ruleset.rules).deals_over(match)
    if not assists_on(game.mirror):
        why = ASSISTS_OFF
    elif not over:
        why = "No deal is over yet: a deal is reviewed once it is over"
    else:
        try:
            host.push_screen(review_page(host, match, max(over), game.home, game.match_id), then)
        except BigTwoError as exc:
            why = str(exc)
    if why:
        host.notify(why, severity="warning")
        then(None)


def open_stored_review(host: ReviewHost, game: GameController, match: Any, deal: int) -> str:
    """Open the review of ``deal`` of a stored ``match`` (the replay's), for the seat on
    show at ``game``'s table; why not, in words ("" when it opened)."""
    if not assists_on(game.mirror):
        return ASSISTS_OFF
    try:
        page = review_page(host, match, deal, game.home, game.match_id)
    except BigTwoError as exc:
        return str(exc)
    host.push_screen(page)
    return ""
