"""Full-screen pages over the table: game history (with export), the cards played so far,
high scores, statistics and help.

Pages are given text or plain data to show; the only thing one does on its own is write the
history file it was handed when asked to export. :func:`history_text` and
:func:`tracker_text` are pure, so tests and the export share them. A page never shows a card
the person at the table could not know: the history of a deal in play lists plays only.
"""

from __future__ import annotations

import re
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

from ..engine.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, Mask, card_indices
from ..engine.rules import Rules
from ..match import history
from ..service.mirror import TableMirror
from ..store.matches import HighScore, PlayerStats
from .render import RED_TEXT, cards_text, in_suit_order, is_red

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
_ASCII_SUITS = str.maketrans({"♦": "d", "♣": "c", "♥": "h", "♠": "s"})


def history_text(game: GameController, scope: str, *, ascii_only: bool = False) -> str:
    """The Palm-style history of the deal in play (``scope="deal"``) or of the whole game.

    While a deal is in play the other players' opening hands are secret, so each of them is
    replaced by ``(hidden)``; once the deal is over every hand is public.
    """
    if game.revolution:
        text = revolution_history_text(game, scope)
        return text.translate(_ASCII_SUITS) if ascii_only else text
    m = game.match
    shown = () if game.viewer is None else (game.viewer,)
    if scope == "deal":
        text = history.deal_history(m, shown=shown)
    else:
        text = history.match_history(m, shown=shown)
    text = in_suit_order(text, game.rules)
    if ascii_only:
        text = text.translate(_ASCII_SUITS)
    return text


def revolution_history_text(game: GameController, scope: str) -> str:
    """The history of a game of Big 2 RevolutioN: each finished hand in words, and the hand
    in play as the seat on show saw it (a card drawn face down by another player hidden)."""
    from ..match.revolution_history import describe_actions, history_lines

    names = game.names
    lines: list[str] = []
    if scope != "deal":
        for result in game.played.results:
            lines += history_lines(result, names)  # type: ignore[arg-type]
            lines.append("")
    if not game.deal_over:
        lines.append(f"Deal {game.deal_number} (in play)")
        lines += ["  " + line for line in describe_actions(game.mirror.moves, names)]
        if not game.mirror.moves:
            lines.append("  (nothing played yet)")
    elif scope == "deal" and game.played.results:
        lines += history_lines(game.played.results[-1], names)  # type: ignore[arg-type]
    return "\n".join(second_person(line) for line in lines).rstrip("\n") + "\n"


_YOU_DO = re.compile(r"^(\s*)You (plays|passes|draws|activates|counters|does not|loses|had|went)\b")
_SECOND = {"plays": "play", "passes": "pass", "draws": "draw", "activates": "activate",
           "counters": "counter", "does not": "do not", "loses": "lose", "had": "had",
           "went": "went"}  # fmt: skip


def second_person(line: str) -> str:
    """A line of the history about the person called "You" in the second person."""
    line = _YOU_DO.sub(lambda m: f"{m.group(1)}You {_SECOND[m.group(2)]}", line)
    return line.replace("You's ", "Your ")


def revolution_tracker_text(
    mirror: TableMirror, hand: Mask, rules: Rules, *, ascii_only: bool = False
) -> Text:
    """Cards played in a hand of Big 2 RevolutioN: the normal deck's grid (a Revolution card
    played counts for its twin's place), then the Revolution cards played and the Character
    cards discarded."""
    from ..engine.revolution_cards import NORMAL_CARDS

    played = int(mirror.played)
    text = tracker_text(
        Mask(played & NORMAL_CARDS), Mask(hand & NORMAL_CARDS), rules, ascii_only=ascii_only
    )
    starred = played & ~NORMAL_CARDS
    text.append("\n  Revolution cards played: ", Style(bold=True))
    if starred:
        text.append_text(cards_text(card_indices(Mask(starred)), ascii_only=ascii_only))
    else:
        text.append("none")
    text.append("\n  Discarded for a function: ", Style(bold=True))
    if mirror.discards:
        text.append_text(cards_text(card_indices(Mask(mirror.discards)), ascii_only=ascii_only))
    else:
        text.append("none")
    text.append("\n")
    return text


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
    ]

    def __init__(self, match: Match | RevolutionMatch, *, ascii_only: bool = False) -> None:
        self.match = match
        self.ascii_only = ascii_only
        self.steps = replay_steps(match)
        if not self.steps:
            raise ValueError("a replay needs a finished deal")
        self.at = 0
        super().__init__(self._text(), title=self._title())

    def _title(self) -> str:
        return f"Replay: {self.at + 1} of {len(self.steps)}"  # the keys are in the footer

    def _text(self) -> str:
        text = self.steps[self.at][1]()
        return text.translate(_ASCII_SUITS) if self.ascii_only else text

    def _show(self) -> None:
        self.set_body(self._text())
        self.query_one(".page-title", Label).update(self._title())

    def action_step(self, step: int) -> None:
        self.action_go(max(0, min(len(self.steps) - 1, self.at + step)))

    def action_go(self, at: int) -> None:
        self.at = at % len(self.steps)
        self._show()

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


def replay_steps(match: Match | RevolutionMatch) -> list[tuple[int, Callable[[], str]]]:
    """Each position of the deals that are over, as its deal's number and its text with
    every hand face up: a play at a time, or under the revolution an action at a time (with
    the Gathering, the deck, the order of cards and what each function, counter and draw
    did, in words)."""
    from ..match.revolution import RevolutionMatch
    from ..match.revolution_history import revolution_positions

    if not isinstance(match, RevolutionMatch):
        return [
            (p.deal, lambda p=p: history.position_text(match, p))  # type: ignore[misc]
            for p in history.positions(match)
            if p.record.result is not None
        ]

    finished = len(match.results)
    steps: list[tuple[int, Callable[[], str]]] = []
    for text in revolution_positions(match):
        deal = int(text.split(":", 1)[0].split()[1])  # "Deal 2: ..."
        if deal <= finished:
            steps.append((deal, lambda text=text: text))  # type: ignore[misc]
    return steps


# -- cards played ---------------------------------------------------------------------------
def tracker_text(played: Mask, hand: Mask, rules: Rules, *, ascii_only: bool = False) -> Text:
    """Cards played so far by suit and rank; your own cards marked, the rest unseen."""
    text = Text()
    text.append(f"Cards played: {played.bit_count()} of 52\n\n", Style(bold=True))
    text.append(
        "       " + "".join(f"{r:>3}" for r in RANK_NAMES) + "   played\n", Style(bold=True)
    )
    unseen = "." if ascii_only else "·"
    mine = "*" if ascii_only else "▪"
    for suit_char in reversed(rules.suit_order):
        suit = SUITS.index(suit_char)
        label = suit_char if ascii_only else SUIT_SYMBOLS[suit]
        style = RED_TEXT if suit in (0, 2) else Style(bold=True)
        text.append(f"  {label:<4} ", style)
        count = 0
        for rank in range(13):
            card = rank * 4 + suit
            if played >> card & 1:
                text.append(
                    f"{RANK_NAMES[rank]:>3}", RED_TEXT if is_red(card) else Style(bold=True)
                )
                count += 1
            elif hand >> card & 1:
                text.append(f"{mine:>3}", Style(color="cyan"))
            else:
                text.append(f"{unseen:>3}", Style(dim=True))
        text.append(f"   {count:>2}/13\n")
    text.append(f"\n  {mine} in your hand   {unseen} not seen yet\n", Style(dim=True))
    if played:
        text.append("\n  Played: ")
        text.append_text(cards_text(card_indices(played), ascii_only=ascii_only, rules=rules))
        text.append("\n")
    return text


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
