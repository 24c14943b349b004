"""Forms: preferences, the new-game options, and choosing your own cards for a custom deal.

Each form edits plain values and answers them through ``dismiss`` (``None`` = cancelled); the
app saves preferences and starts games. Options are one-line :class:`Choice` rows (Left and
Right or a click cycle the value) so every form fits an 80×24 terminal.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Static

from ..bots.levels import level_label
from ..engine.cards import (
    RANK_NAMES,
    SUIT_SYMBOLS,
    SUITS,
    Mask,
    card_indices,
    card_symbols,
    card_text,
    to_mask,
)
from ..engine.errors import BigTwoError
from ..engine.rules import Rules
from ..match.settings import RuleSet
from .games import game_of
from .helptext import first_sentence
from .prefs import DEALS_CHOICES, PLAYABLE_PRESETS, SPEEDS, Prefs, levels_for, playing_level
from .render import is_red
from .words import count, whom, whose


class Choice(Widget, can_focus=True):
    """``Label   < value >``: Left / Right, Space, Enter or a click change the value."""

    BINDINGS = [
        Binding("left", "step(-1)", "Previous", show=False),
        Binding("right,space,enter", "step(1)", "Next", show=False),
    ]
    DEFAULT_CSS = """
    Choice { height: 1; width: 1fr; }
    Choice:focus { background: $accent 40%; }
    """

    class Changed(Message):
        def __init__(self, choice: Choice) -> None:
            super().__init__()
            self.choice = choice

        @property
        def control(self) -> Choice:
            return self.choice

    def __init__(
        self,
        label: str,
        options: Sequence[tuple[Any, str]],
        value: Any,
        *,
        id: str | None = None,
        width: int = 24,
    ) -> None:
        super().__init__(id=id)
        self.label = label
        self.options = list(options)
        self.label_width = width
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0

    @property
    def value(self) -> Any:
        return self.options[self.index][0]

    def set_options(self, options: Sequence[tuple[Any, str]], value: Any) -> None:
        self.options = list(options)
        values = [v for v, _ in self.options]
        self.index = values.index(value) if value in values else 0
        self.refresh()

    def render(self) -> Text:
        text = Text(f"{self.label:<{self.label_width}}", Style(bold=True))
        text.append("< ")
        text.append(self.options[self.index][1], Style(color="yellow", bold=True))
        text.append(" >")
        return text

    def action_step(self, step: int) -> None:
        self.index = (self.index + step) % len(self.options)
        self.refresh()
        self.post_message(self.Changed(self))

    def on_click(self, event: events.Click) -> None:
        self.focus()
        self.action_step(-1 if event.button == 3 else 1)


ON_OFF = [(True, "on"), (False, "off")]
_Answer = TypeVar("_Answer")


class Form(Screen[_Answer | None]):
    """A form: Esc or Cancel goes back with no answer; Enter in a field moves to the next
    (ctrl+s or the form's button answers)."""

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.focus_next()


class PrefsForm(Form[Prefs]):
    """Preferences: rule set, autopass, score sheet, speed, sort, computer level, names."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "save", "Save"),
    ]
    DEFAULT_CSS = """
    PrefsForm { background: $surface; }
    PrefsForm .page-title { height: 1; width: 1fr; background: $primary; text-style: bold;
                            padding: 0 1; }
    PrefsForm #prefs-body { padding: 0 2; height: 1fr; }
    PrefsForm .name-row { height: 1; }
    PrefsForm .name-row Label { width: 24; text-style: bold; }
    PrefsForm .name-row Input { width: 20; }
    PrefsForm #prefs-buttons { height: 1; margin-top: 1; }
    PrefsForm #prefs-buttons Button { margin-right: 2; }
    PrefsForm #rules-note { color: $text-muted; width: 1fr; height: auto; max-height: 2;
                            padding-left: 2; }
    """

    def __init__(self, prefs: Prefs, levels: Sequence[str]) -> None:
        super().__init__()
        self.prefs = prefs
        self.levels = list(levels)

    def compose(self) -> ComposeResult:
        p = self.prefs
        yield Label(
            "Preferences   (Enter/arrows change, Tab moves, ctrl+s saves)", classes="page-title"
        )
        with VerticalScroll(id="prefs-body"):
            yield Choice("Rule set", [(r, r) for r in PLAYABLE_PRESETS], p.rules, id="pref-rules")
            yield Label(_rules_note(p.rules), id="rules-note")
            yield Choice("Autopass", ON_OFF, p.autopass, id="pref-autopass")
            yield Choice("Autopass 5-card turns", ON_OFF, p.autopass_five, id="pref-autopass5")
            # What it does, said as it is: the table always shows how many cards each player
            # holds; this is whether the score sheet lists the cards left as well.
            yield Choice(
                "Score sheet shows",
                [(True, "the cards left"), (False, "how many cards only")],
                p.show_cards_left,
                id="pref-cardsleft",
            )
            yield Choice("Game speed", [(s, s) for s in SPEEDS], p.speed, id="pref-speed")
            yield Choice(
                "Sort order", [("rank", "by rank"), ("suit", "by suit")], p.sort, id="pref-sort"
            )
            yield Choice(
                "Computer level",
                [(lv, level_label(lv)) for lv in self.levels],
                p.bot_level(),
                id="pref-level",
            )
            for i, name in enumerate(p.names):
                with Horizontal(classes="name-row"):
                    yield Label(f"Player {i + 1} name")
                    yield Input(value=name, max_length=12, id=f"pref-name-{i}", compact=True)
            with Horizontal(id="prefs-buttons"):
                yield Button("Save", id="save", compact=True, variant="primary")
                yield Button("Cancel", id="cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#pref-rules", Choice).focus()

    @on(Choice.Changed, "#pref-rules")
    def _rules_changed(self, event: Choice.Changed) -> None:
        self.query_one("#rules-note", Label).update(_rules_note(event.choice.value))

    def result(self) -> Prefs:
        def value(name: str) -> Any:
            return self.query_one(f"#pref-{name}", Choice).value

        names = tuple(
            self.query_one(f"#pref-name-{i}", Input).value.strip() or self.prefs.names[i]
            for i in range(len(self.prefs.names))
        )
        return replace(
            self.prefs,
            rules=value("rules"),
            autopass=value("autopass"),
            autopass_five=value("autopass5"),
            show_cards_left=value("cardsleft"),
            speed=value("speed"),
            sort=value("sort"),
            level=value("level"),
            names=names,
        ).checked()

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        self.dismiss(self.result())


def _rules_note(name: str) -> str:
    """The rule set in a line or two of whole words (the help page has all of it)."""
    note = {
        "palm": "Palm Big Two default rules",
        "palm-hk": "Hong Kong rule set: winner leads next deal; 23456 is the top straight",
    }.get(name) or first_sentence(Rules.preset(name).source)
    return f"{note} (applies from the next deal)"


@dataclass(frozen=True, slots=True)
class NewGameRequest:
    rules: str
    players: int
    humans: tuple[bool, ...]
    names: tuple[str, ...]
    level: str
    custom: bool
    deals: int = 0  # 0: as many as the rule set says


class NewGameForm(Form[NewGameRequest]):
    """New game: rule set, number of players, each seat a person or a computer, custom deal."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Start"),
    ]
    DEFAULT_CSS = """
    NewGameForm { background: $surface; }
    NewGameForm .page-title { height: 1; width: 1fr; background: $primary; text-style: bold;
                              padding: 0 1; }
    NewGameForm #new-body { padding: 0 2; height: 1fr; }
    NewGameForm .seat-row { height: 1; }
    NewGameForm .seat-row Label { width: 8; text-style: bold; }
    NewGameForm .seat-row Input { width: 16; margin-right: 2; }
    NewGameForm .seat-row Choice { width: 1fr; }
    NewGameForm .seat-row.-off { display: none; }
    NewGameForm #new-buttons { height: 1; margin-top: 1; }
    NewGameForm #new-buttons Button { margin-right: 2; }
    NewGameForm #new-note { color: $warning; height: 1; }
    """

    def __init__(self, prefs: Prefs, levels: Sequence[str], *, playing: str | None = None) -> None:
        """``playing``: the game in play that a new one would set aside, in words (the form
        asks before starting), or None."""
        super().__init__()
        self.prefs = prefs
        self.levels = list(levels)
        self.playing = playing

    def compose(self) -> ComposeResult:
        p = self.prefs
        rules = Rules.preset(p.rules)
        players = p.players if p.players in rules.players else rules.default_players
        yield Label(
            "New game   (Enter/arrows change, Tab moves, ctrl+s starts)", classes="page-title"
        )
        with VerticalScroll(id="new-body"):
            yield Choice("Rule set", [(r, r) for r in PLAYABLE_PRESETS], p.rules, id="new-rules")
            yield Choice("Players", _player_options(rules), players, id="new-players")
            for i in range(4):
                with Horizontal(classes="seat-row", id=f"seat-row-{i}"):
                    yield Label(f"Seat {i + 1}")
                    yield Input(value=p.names[i], max_length=12, id=f"new-name-{i}", compact=True)
                    yield Choice("", [(True, "person"), (False, "computer")], p.humans[i],
                                 id=f"new-human-{i}", width=0)  # fmt: skip
            levels = levels_for(p.rules, self.levels)
            yield Choice(
                "Computer level",
                [(lv, level_label(lv)) for lv in levels],
                playing_level(p.rules, p.bot_level()),
                id="new-level",
            )
            yield Choice("Deals per game", _deal_options(p.rules), p.deals, id="new-deals")
            yield Choice("Custom deal", _custom_options(rules), False, id="new-custom")
            yield Label("", id="new-note")
            with Horizontal(id="new-buttons"):
                yield Button("Start", id="start", compact=True, variant="primary")
                yield Button("Cancel", id="cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._show_seats()
        self.query_one("#new-rules", Choice).focus()

    @on(Choice.Changed, "#new-rules")
    def _rules_changed(self, event: Choice.Changed) -> None:
        rules = Rules.preset(event.choice.value)
        players = self.query_one("#new-players", Choice)
        current = players.value if players.value in rules.players else rules.default_players
        players.set_options(_player_options(rules), current)
        deals = self.query_one("#new-deals", Choice)
        deals.set_options(_deal_options(event.choice.value), deals.value)
        # Only the computer levels that play these rules (the revolution has its own).
        level = self.query_one("#new-level", Choice)
        levels = levels_for(event.choice.value, self.levels)
        chosen = (
            level.value
            if level.value in levels
            else playing_level(event.choice.value, self.prefs.bot_level())
        )
        level.set_options([(lv, level_label(lv)) for lv in levels], chosen)
        custom = self.query_one("#new-custom", Choice)
        custom.set_options(_custom_options(rules), False)
        self._show_seats()

    @on(Choice.Changed, "#new-players")
    def _show_seats(self) -> None:
        count = self.query_one("#new-players", Choice).value
        for i in range(4):
            self.query_one(f"#seat-row-{i}").set_class(i >= count, "-off")

    def result(self) -> NewGameRequest:
        count = int(self.query_one("#new-players", Choice).value)
        return NewGameRequest(
            rules=self.query_one("#new-rules", Choice).value,
            players=count,
            humans=tuple(bool(self.query_one(f"#new-human-{i}", Choice).value) for i in range(4)),
            names=tuple(
                self.query_one(f"#new-name-{i}", Input).value.strip() or self.prefs.names[i]
                for i in range(4)
            ),
            level=self.query_one("#new-level", Choice).value,
            custom=bool(self.query_one("#new-custom", Choice).value),
            deals=int(self.query_one("#new-deals", Choice).value),
        )

    @on(Button.Pressed, "#start")
    def action_start(self) -> None:
        request = self.result()
        if self.playing is None:
            self.dismiss(request)
            return
        from .dialogs import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(request)

        question = (
            f"Start a new game? The game in play ({self.playing}) ends here: it is set "
            "aside and cannot be continued."
        )
        self.app.push_screen(Confirm(question, yes="Start new game", no="Keep playing"), answered)


def _deal_options(rules_name: str) -> list[tuple[int, str]]:
    """Deals per game: the rule set's own number first, then the usual lengths."""
    own = RuleSet.preset(rules_name).match.deals_per_game
    return [(0, f"{count(own, 'deal')}, as the rules say")] + [
        (n, count(n, "deal")) for n in DEALS_CHOICES if n and n != own
    ]


def _custom_options(rules: Rules) -> list[tuple[bool, str]]:
    """A custom deal, where the rules let cards be chosen (not the revolution's two decks)."""
    if game_of(rules).cards_off:
        return [(False, "off (not for the revolution)")]
    return [(False, "off"), (True, "choose the cards")]


def _player_options(rules: Rules) -> list[tuple[int, str]]:
    return [(n, f"{n} players") for n in rules.players]


class CardGrid(Widget, can_focus=True):
    """All 52 cards, a row per suit: arrows move, Space or a click picks a card. A card typed
    for another seat shows whose it is (the first letters of the seat's name) in its place;
    the cursor shows while the grid has the focus."""

    BINDINGS = [
        Binding("left", "move(-1, 0)", show=False),
        Binding("right", "move(1, 0)", show=False),
        Binding("up", "move(0, -1)", show=False),
        Binding("down", "move(0, 1)", show=False),
        Binding("space", "pick_card", "Pick card"),
    ]
    DEFAULT_CSS = """
    CardGrid { height: 6; width: 1fr; }
    """
    CELL = 4
    LEFT = 6

    class Changed(Message):
        pass

    class Taken(Message):
        """A card picked that another seat's line already names (it is not picked)."""

        def __init__(self, card: int) -> None:
            super().__init__()
            self.card = card

    def __init__(
        self, suit_order: str, limit: int, *, ascii_only: bool, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self.suits = [SUITS.index(s) for s in reversed(suit_order)]  # highest suit on top
        self.limit = limit
        self.ascii_only = ascii_only
        self.chosen = 0
        self.others: dict[int, str] = {}  # card -> the mark of the other seat it is typed for
        self.col = 0
        self.row = len(self.suits) - 1

    def card_at(self, col: int, row: int) -> int:
        return col * 4 + self.suits[row]

    def render(self) -> Text:
        text = Text()
        text.append(
            " " * self.LEFT + "".join(f"{r:>{self.CELL}}" for r in RANK_NAMES) + "\n",
            Style(bold=True),
        )
        for row, suit in enumerate(self.suits):
            label = SUITS[suit] if self.ascii_only else SUIT_SYMBOLS[suit]
            text.append(
                f"  {label:<{self.LEFT - 2}}",
                Style(color="red3" if suit in (0, 2) else None, bold=True),
            )
            for col in range(13):
                card = col * 4 + suit
                picked = bool(self.chosen >> card & 1)
                cell = f"[{RANK_NAMES[col]}]" if picked else RANK_NAMES[col]
                style = Style(color="red3" if is_red(card) else None, bold=picked, reverse=picked)
                if not picked and card in self.others:
                    cell, style = self.others[card], Style(dim=True, italic=True)
                if (col, row) == (self.col, self.row) and self.has_focus:
                    style += Style(underline=True, bgcolor="grey35")
                text.append(f"{cell:>{self.CELL}}", style)
            text.append("\n")
        return text

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def action_move(self, dx: int, dy: int) -> None:
        self.col = (self.col + dx) % 13
        self.row = (self.row + dy) % len(self.suits)
        self.refresh()

    def action_pick_card(self) -> None:
        self.pick(self.card_at(self.col, self.row))

    def pick(self, card: int) -> None:
        bit = 1 << card
        if card in self.others and not self.chosen & bit:
            self.post_message(self.Taken(card))
            return
        if self.chosen & bit:
            self.chosen &= ~bit
        elif self.chosen.bit_count() < self.limit:
            self.chosen |= bit
        self.refresh()
        self.post_message(self.Changed())

    def on_click(self, event: events.Click) -> None:
        col = (event.x - self.LEFT) // self.CELL
        row = event.y - 1
        if 0 <= col < 13 and 0 <= row < len(self.suits) and event.x >= self.LEFT:
            self.col, self.row = col, row
            self.focus()
            self.action_pick_card()


@dataclass(frozen=True, slots=True)
class ChosenCards:
    """What a custom deal form answers: for each deal, the cards chosen for each seat (seats
    left out, and the rest of a part-chosen hand, are dealt at random)."""

    deals: dict[int, dict[int, Mask]]

    def commands(self) -> list[tuple[int, int, Mask]]:
        """(deal, seat, cards), in order."""
        return [
            (deal, seat, mask)
            for deal, hands in sorted(self.deals.items())
            for seat, mask in sorted(hands.items())
        ]


def seat_marks(names: Sequence[str]) -> list[str]:
    """What the card grid writes for a card typed for each seat: the first three letters of
    the name, or where two seats would read alike the first letter and the seat's number."""
    marks = [name.strip()[:3] or f"S{i + 1}" for i, name in enumerate(names)]
    if len({m.casefold() for m in marks}) < len(marks):
        marks = [f"{(name.strip() or 'S')[0]}{i + 1}" for i, name in enumerate(names)]
    return marks


def read_hands(texts: Sequence[str], names: Sequence[str], hand_size: int) -> dict[int, Mask]:
    """The hands typed for one deal, each seat's in card notation (``3d 4c 5h``; empty: dealt
    at random), checked as the table would: a bad card, a card named twice, too many cards
    for a hand, or a card given to two seats is refused in words naming the seat, every
    problem at once (one sentence each, in the order typed)."""
    hands: dict[int, Mask] = {}
    owner: dict[int, int] = {}
    problems: list[str] = []
    for seat, text in enumerate(texts):
        mask = 0
        for token in _TOKENS.split(text.strip()) if text.strip() else ():
            try:
                cards = to_mask(token)
            except BigTwoError as exc:
                problems.append(f"{names[seat]}: {exc}")
                continue
            for card in card_indices(Mask(cards & mask)):
                problems.append(f"{names[seat]}: {card_symbols(Mask(1 << card))} is named twice")
            mask |= cards
        if not mask:
            continue
        if mask.bit_count() > hand_size:
            problems.append(
                f"{names[seat]}: {count(mask.bit_count(), 'card')} typed; "
                f"a hand holds {count(hand_size, 'card')}"
            )
        for card in card_indices(Mask(mask)):
            if card in owner:
                problems.append(
                    f"{card_symbols(Mask(1 << card))} is typed for both "
                    f"{names[owner[card]]} and {names[seat]}"
                )
            else:
                owner[card] = seat
        hands[seat] = Mask(mask)
    if problems:
        raise BigTwoError("; ".join(problems))
    return hands


_TOKENS = re.compile(r"[\s,;]+")


class CustomDealForm(Form[ChosenCards]):
    """Choose the cards of any seat for any deal still to come (the Palm "select card for
    new game", for every seat and every deal): type each seat's cards in notation, or pick
    the cards of the seat last typed in on the grid. Cards not chosen are dealt at random.
    Bad notation, a card typed twice and too many cards are refused in words; nothing is
    answered until every deal typed is right."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+s", "start", "Deal"),
    ]
    DEFAULT_CSS = """
    CustomDealForm { background: $surface; }
    CustomDealForm .page-title { height: 1; width: 1fr; background: $primary; text-style: bold;
                                 padding: 0 1; }
    CustomDealForm #custom-body { padding: 0 1; height: 1fr; }
    CustomDealForm .cards-row { height: 1; }
    CustomDealForm .cards-row Label { width: 14; text-style: bold; }
    CustomDealForm .cards-row Input { width: 1fr; }
    CustomDealForm .cards-row.-current Label { color: $warning; }
    CustomDealForm .cards-row Input:focus { background: $accent 40%; }
    CustomDealForm CardGrid:focus { background: $accent 15%; }
    CustomDealForm #custom-count { height: auto; }
    CustomDealForm #custom-error { height: auto; max-height: 4; color: $error; }
    CustomDealForm #custom-buttons { height: 1; }
    CustomDealForm #custom-buttons Button { margin-right: 2; }
    """

    def __init__(
        self,
        names: Sequence[str],
        rules: Rules,
        hand_size: int,
        *,
        deals: Sequence[int] = (1,),
        seat: int = 0,
        ascii_only: bool,
    ) -> None:
        """``names``: every seat's; ``deals``: the deals cards may be chosen for (the first
        is shown first); ``seat``: the seat the grid picks for at first."""
        super().__init__()
        self.names = list(names)
        self.rules = rules
        self.hand_size = hand_size
        self.deal_numbers = list(deals)
        self.deal = self.deal_numbers[0]
        self.seat = seat
        self.ascii_only = ascii_only
        self.typed: dict[int, list[str]] = {}  # per deal, each seat's text as typed
        self._filling = False  # the form itself is writing the inputs

    def compose(self) -> ComposeResult:
        yield Label(
            "Custom deal: type cards like 3d 4c Th 2s   (Tab moves, ctrl+s deals)",
            classes="page-title",
        )
        with Vertical(id="custom-body"):
            if len(self.deal_numbers) > 1:
                yield Choice(
                    "For deal",
                    [(n, f"deal {n}") for n in self.deal_numbers],
                    self.deal,
                    id="custom-deal",
                    width=14,
                )
            else:
                yield Label(f"For deal {self.deal}", id="custom-deal-label")
            for i, (name, mark) in enumerate(zip(self.names, seat_marks(self.names), strict=True)):
                with Horizontal(classes="cards-row", id=f"cards-row-{i}"):
                    # the grid's mark for the seat, where it is not how the name begins
                    yield Label((name if name.startswith(mark) else f"{mark} {name}")[:13])
                    yield Input(
                        placeholder="dealt at random", id=f"cards-{i}", compact=True,
                        select_on_focus=False,
                    )  # fmt: skip
            yield CardGrid(
                self.rules.suit_order, self.hand_size, ascii_only=self.ascii_only, id="grid"
            )
            yield Static("", id="custom-count")
            yield Static("", id="custom-error")
            with Horizontal(id="custom-buttons"):
                yield Button("Deal", id="deal", compact=True, variant="primary")
                yield Button("Cancel", id="cancel", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        self._set_seat(self.seat)
        self.query_one(f"#cards-{self.seat}", Input).focus()

    # -- the seat the grid picks for ---------------------------------------------------------
    def _set_seat(self, seat: int) -> None:
        self.seat = seat
        for i in range(len(self.names)):
            self.query_one(f"#cards-row-{i}").set_class(i == seat, "-current")
        self._show_grid()

    def _show_grid(self) -> None:
        """The grid: the cards of the seat it picks for, and whose each other card typed is."""
        grid = self.query_one(CardGrid)
        grid.chosen = self._mask_of(self.seat)
        marks = seat_marks(self.names)
        grid.others = {
            card: marks[seat]
            for seat in range(len(self.names))
            if seat != self.seat
            for card in card_indices(self._mask_of(seat))
        }
        grid.refresh()
        self._show_count()

    def _mask_of(self, seat: int) -> Mask:
        try:
            return Mask(to_mask(self.query_one(f"#cards-{seat}", Input).value))
        except BigTwoError:
            return Mask(0)

    def _show_count(self) -> None:
        chosen = self._mask_of(self.seat).bit_count()
        rest = self.hand_size - chosen
        tail = f"; the other {rest} are dealt at random" if rest > 1 else ""
        tail = "; the other one is dealt at random" if rest == 1 else tail
        others = " A card typed for another seat shows whose it is." if self._others() else ""
        self.query_one("#custom-count", Static).update(
            f"On the grid: {whose(self.names[self.seat])} cards, "
            f"{chosen} of {self.hand_size} chosen{tail}.{others}"
        )

    def _others(self) -> dict[int, str]:
        return self.query_one(CardGrid).others

    @on(CardGrid.Taken)
    def _taken(self, event: CardGrid.Taken) -> None:
        owner = next(
            seat
            for seat in range(len(self.names))
            if seat != self.seat and self._mask_of(seat) >> event.card & 1
        )
        self.query_one("#custom-error", Static).update(
            f"{card_symbols(Mask(1 << event.card))} is typed for {whom(self.names[owner])}: "
            f"take it off {whose(self.names[owner])} line first."
        )

    @on(events.DescendantFocus)
    def _focused(self, event: events.DescendantFocus) -> None:
        widget = event.widget
        if isinstance(widget, Input) and widget.id and widget.id.startswith("cards-"):
            self._set_seat(int(widget.id.removeprefix("cards-")))

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        if self._filling:
            return
        self.query_one("#custom-error", Static).update("")
        self._show_grid()

    @on(CardGrid.Changed)
    def _picked(self) -> None:
        grid = self.query_one(CardGrid)
        self._filling = True
        self.query_one(f"#cards-{self.seat}", Input).value = card_text(Mask(grid.chosen))
        self._filling = False
        self.query_one("#custom-error", Static).update("")
        self._show_count()

    # -- deals ---------------------------------------------------------------------------------
    @on(Choice.Changed, "#custom-deal")
    def _deal_changed(self, event: Choice.Changed) -> None:
        self.typed[self.deal] = self._texts()
        self.deal = int(event.choice.value)
        texts = self.typed.get(self.deal, [""] * len(self.names))
        self._filling = True
        for i, text in enumerate(texts):
            self.query_one(f"#cards-{i}", Input).value = text
        self._filling = False
        self._set_seat(self.seat)

    def _texts(self) -> list[str]:
        return [self.query_one(f"#cards-{i}", Input).value for i in range(len(self.names))]

    def result(self) -> ChosenCards:
        """Every deal's hands as typed; raises :class:`BigTwoError` naming every wrong one."""
        self.typed[self.deal] = self._texts()
        deals: dict[int, dict[int, Mask]] = {}
        problems: list[str] = []
        for deal in self.deal_numbers:
            texts = self.typed.get(deal)
            if texts is None:
                continue
            try:
                hands = read_hands(texts, self.names, self.hand_size)
            except BigTwoError as exc:
                where = f"Deal {deal}: " if len(self.deal_numbers) > 1 else ""
                problems.append(f"{where}{exc}")
                continue
            if hands:
                deals[deal] = hands
        if problems:
            raise BigTwoError("\n".join(problems))
        return ChosenCards(deals)

    @on(Button.Pressed, "#deal")
    def action_start(self) -> None:
        try:
            chosen = self.result()
        except BigTwoError as exc:
            self.query_one("#custom-error", Static).update(str(exc))
            return
        self.dismiss(chosen)
