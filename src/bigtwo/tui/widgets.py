"""The table's widgets: your hand, an opponent's place, the trick in play.

Widgets only draw what they are given and report clicks; they never call the match. The
table screen feeds them from the controller after every action. The hand keeps its
selection as cards, not positions, so sorting never changes which cards are raised.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.style import Style
from rich.text import Text
from textual import events
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Static

from ..engine.cards import Mask
from ..engine.plays import catalog_for
from ..engine.revolution_cards import twin
from ..engine.rules import Rules
from ..engine.views import Action
from .render import (
    REVOLUTION_TEXT,
    HandLayout,
    avatar,
    card_backs,
    cards_text,
    render_hand,
)


def sort_cards(mask: Mask, rules: Rules, order: str) -> list[int]:
    """A hand in display order: by rank (then suit, as the rules rank suits) or by suit; a
    Revolution card beside its normal twin."""
    from ..engine.cards import card_indices

    power = catalog_for(rules).card_power
    cards = card_indices(mask)
    if order == "suit":
        suit_rank = catalog_for(rules).suit_rank
        return sorted(cards, key=lambda c: (suit_rank[c & 3], power[twin(c)], c))
    return sorted(cards, key=lambda c: (power[twin(c)], c))


class HandView(Widget):
    """Your cards face up; selected ones raised. Click a card to raise or lower it; right-click
    raises every card of its rank, shift-click (or middle-click) every card of its suit."""

    DEFAULT_CSS = """
    HandView { height: 5; width: 1fr; }
    """

    class Changed(Message):
        """The selection changed."""

    def __init__(self, *, ascii_only: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.ascii_only = ascii_only
        self.cards: list[int] = []
        self.selected: set[int] = set()
        self.cursor = 0
        self.hidden_text = ""
        self.functions: dict[int, str] = {}  # each Character card's function (the revolution)

    # -- state ---------------------------------------------------------------------------
    def set_cards(self, cards: Sequence[int], hidden_text: str = "") -> None:
        """New cards in display order; raised cards that left the hand are dropped."""
        self.cards = list(cards)
        self.selected &= set(self.cards)
        self.cursor = min(self.cursor, max(0, len(self.cards) - 1))
        self.hidden_text = hidden_text
        self.refresh()

    @property
    def selection_mask(self) -> Mask:
        mask = 0
        for c in self.selected:
            mask |= 1 << c
        return Mask(mask)

    def select_mask(self, mask: Mask) -> None:
        self.selected = {c for c in self.cards if mask >> c & 1}
        self._changed()

    def clear(self) -> None:
        self.selected = set()
        self._changed()

    def toggle(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            self.cursor = index
            self.selected ^= {self.cards[index]}
            self._changed()

    def move(self, step: int) -> None:
        if self.cards:
            self.cursor = (self.cursor + step) % len(self.cards)  # wraps, as the Palm's 5-way did
            self.refresh()

    def toggle_group(self, index: int, by: str) -> None:
        """Raise every card sharing the rank (or suit) of the card at ``index``; when they are
        all raised already, lower them."""
        if not 0 <= index < len(self.cards):
            return
        self.cursor = index
        card = self.cards[index]
        if by == "rank":
            group = {c for c in self.cards if twin(c) >> 2 == twin(card) >> 2}
        else:
            group = {c for c in self.cards if c & 3 == card & 3}
        if group <= self.selected:
            self.selected -= group
        else:
            self.selected |= group
        self._changed()

    def _changed(self) -> None:
        self.refresh()
        self.post_message(self.Changed())

    # -- drawing and the mouse -------------------------------------------------------------
    def render(self) -> Text:
        if not self.cards:
            return Text("\n\n" + (self.hidden_text or "").center(self.size.width), Style(bold=True))
        return render_hand(
            self.cards,
            self.selected,
            self.cursor,
            self.size.width,
            ascii_only=self.ascii_only,
            focused=True,
            functions=self.functions,
        )

    def on_click(self, event: events.Click) -> None:
        index = HandLayout(len(self.cards), self.size.width).index_at(event.x)
        if index is None:
            return
        event.stop()
        if event.button == 3:
            self.toggle_group(index, "rank")
        elif event.button == 2 or event.shift or event.ctrl:
            self.toggle_group(index, "suit")
        else:
            self.toggle(index)


class SeatPanel(Static):
    """An opponent's place at the table: avatar, name, cards left and what they did."""

    DEFAULT_CSS = """
    SeatPanel {
        height: 5;
        border: round $secondary;
        padding: 0 1;
        background: $surface;
    }
    SeatPanel.-turn { border: heavy $warning; }
    SeatPanel.-empty { display: none; }
    """

    def show(
        self,
        seat: int,
        name: str,
        count: int,
        status: str,
        total: int | None,
        *,
        turn: bool,
        ascii_only: bool,
        revolution: int | None = None,
    ) -> None:
        """``revolution``: at a table of Big 2 RevolutioN, the Revolution cards the player
        holds besides ``count`` normal cards."""
        self.set_class(turn, "-turn")
        text = Text(no_wrap=True, overflow="crop" if ascii_only else "ellipsis")
        room = self.content_size.width or 15
        # Every line stays one line (a line wrapped pushed the last, what they did, out of
        # the box): the name is cut short so the score fits beside it.
        badge = avatar(name, seat, ascii_only=ascii_only)
        score = f"  {total:+d}" if total is not None else ""
        fits = max(1, room - badge.cell_len - 1 - len(score))
        text.append_text(badge)
        text.append(" ")
        cut = "." if ascii_only else "…"
        text.append(name if len(name) <= fits else name[: fits - 1] + cut, Style(bold=True))
        text.append(score, Style(dim=True))
        text.append("\n")
        # The count, and a back for every card when they all fit beside it: a fan cut short
        # would show fewer cards than the player holds, so then the count is said in words.
        if revolution is not None:
            text.append(f"{count:>2}", Style(bold=True))
            text.append(f" +{revolution}*", REVOLUTION_TEXT)
            text.append(" cards" if count + revolution != 1 else " card", Style(dim=True))
        elif count > 0 and count + 3 <= room:
            text.append(f"{count:>2} ", Style(bold=True))
            text.append_text(card_backs(count, ascii_only=ascii_only, limit=count))
        else:
            text.append(f"{count:>2} {'card' if count == 1 else 'cards'}", Style(bold=True))
        text.append("\n")
        marker = ">" if ascii_only else "▶"
        style = Style(color="yellow", bold=True) if turn else Style(italic=True)
        text.append(f"{marker} {status}" if turn else status, style)
        self.update(text)


# The smallest terminal the game is drawn in whole: two side seats and a trick between them,
# a hand of up to 17 cards four columns each, and every row of the table.
MIN_SIZE = (70, 22)


class TooSmall(Static):
    """Said instead of any screen (the table, a dialog, a page, a form) while the terminal is
    too small to draw it whole: the app's CSS hides the rest of a screen marked -too-small."""

    DEFAULT_CSS = """
    TooSmall { width: 1fr; height: 1fr; content-align: center middle; text-align: center;
               background: $background; display: none; }
    """

    def __init__(self, what: str = "the game", keys: str = "", *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.what = what
        self.keys = keys
        self.kept_focus: Widget | None = None  # what had the focus before the screen shrank

    def say(self, width: int, height: int, need: tuple[int, int]) -> None:
        self.update(
            f"The terminal is too small for {self.what}: {width} x {height}.\n"
            f"Make it at least {need[0]} x {need[1]} (80 x 24 is best)."
            + (f"\n\n{self.keys}" if self.keys else "")
        )


def fit(screen: Screen[Any], width: int, height: int) -> None:
    """Mark ``screen`` too small, saying so at once, or drawn whole again when it fits."""
    small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
    notices = list(screen.query_children(TooSmall))
    if small and not notices:
        notices = [TooSmall()]
        screen.mount(notices[0])
    if not notices:
        return
    notice = notices[0]
    was_small = screen.has_class("-too-small")
    if small:
        notice.say(width, height, MIN_SIZE)
        if not was_small:  # hidden, the field in use loses the focus: it gets it back after
            notice.kept_focus = screen.focused
    screen.set_class(small, "-too-small")
    kept = notice.kept_focus
    if was_small and not small and kept is not None:
        notice.kept_focus = None
        screen.call_after_refresh(kept.focus)


def trick_text(
    lines: Sequence[tuple[str, Action]],
    footer: str,
    *,
    ascii_only: bool,
    width: int,
    rows: int = 0,
    rules: Rules | None = None,
) -> Text:
    """The plays and passes of a trick, a line each with who made it (the last play in
    bold, its kind where it fits in ``width``), the newest that fit in ``rows`` (0: all),
    then ``footer``."""
    text = Text()
    shown = list(lines)
    name_width = min(10, max((len(name) for name, _ in shown), default=1))
    budget = max(1, rows - (1 if footer else 0))
    if rows and len(shown) > budget:
        shown = shown[-budget:]
    last_play = max((i for i, (_, a) in enumerate(shown) if a.play is not None), default=-1)
    for i, (name, action) in enumerate(shown):
        if i:
            text.append("\n")
        top = i == last_play
        text.append(f"{name[:name_width]:<{name_width}} ", Style(bold=top))
        if action.play is None:
            text.append("pass" + (" (auto)" if action.auto else ""), Style(dim=True))
        else:
            cards = cards_text(action.play.mask, ascii_only=ascii_only, rules=rules)
            text.append_text(cards)
            # Each play on one line: the kind is said only where it fits (five cards
            # with a 10 and a long kind name do not, at 80 columns).
            label = f"  {action.play.kind.label}"
            if name_width + 1 + cards.cell_len + len(label) <= width:
                text.append(label, Style(dim=not top, italic=True))
    if footer:
        if shown:
            text.append("\n")
        text.append(footer, Style(color="yellow", italic=True))
    return text


class TrickView(Static):
    """The plays of the trick in play, each with who made it; the last play stands out."""

    DEFAULT_CSS = """
    TrickView {
        height: 1fr;
        border: round $primary;
        padding: 0 1;
    }
    """

    def show(
        self,
        lines: Sequence[tuple[str, Action]],
        footer: str,
        *,
        ascii_only: bool,
        rows: int,
        rules: Rules | None = None,
    ) -> None:
        width = self.content_size.width or 36
        text = trick_text(lines, footer, ascii_only=ascii_only, width=width, rows=rows, rules=rules)
        self.update(text)

    def show_texts(self, head: Text | None, lines: Sequence[Text], footer: str, rows: int) -> None:
        """Lines already drawn (a hand of Big 2 RevolutioN): ``head`` first (the Gathering),
        then the newest of ``lines`` that fit, then ``footer``."""
        text = Text()
        width = self.content_size.width or 36
        budget = max(0, rows - (1 if footer else 0) - (1 if head is not None else 0))
        shown = list(lines)[-budget:] if budget else []
        parts: list[Text] = ([head] if head is not None else []) + shown
        if footer:
            parts.append(Text(footer, Style(color="yellow", italic=True)))
        for i, part in enumerate(parts):
            if i:
                text.append("\n")
            part = part.copy()
            part.truncate(width, overflow="ellipsis")  # one line each: the newest stay in view
            text.append_text(part)
        self.update(text)
