"""How cards, plays and players look in the terminal: pure functions returning Rich text.

Everything drawn for a card goes through here, so the plain-ASCII mode (suit letters, ``+-|``
borders) and the colours (red ♥ ♦) are decided in one place. Nothing here knows about
Textual widgets, the match or whose turn it is: callers pass in what to draw.

Cards of Big 2 RevolutioN (ids 52 to 103, each the Revolution twin of ``id - 52``) are drawn
by the same functions: their label carries a star (``Q♠*``, ``Qs*`` in ASCII), their face a
colour of its own, and a Character card the icon of its function on its top edge.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ..engine.cards import RANK_NAMES, RANKS, SUIT_SYMBOLS, SUITS, Mask, card_indices
from ..engine.plays import catalog_for
from ..engine.revolution_cards import REVOLUTION_BASE, twin
from ..engine.rules import Rules

RED_SUITS = (0, 2)  # ♦ and ♥
CARD_STYLE = Style(color="black", bgcolor="white")
RED_CARD_STYLE = Style(color="red3", bgcolor="white", bold=True)
SELECTED_STYLE = Style(color="black", bgcolor="light_goldenrod1")
RED_SELECTED_STYLE = Style(color="red3", bgcolor="light_goldenrod1", bold=True)
# On the table's green the suit colours must read without a card face behind them.
RED_TEXT = Style(color="bright_red", bold=True)
BLACK_TEXT = Style(bold=True)

# Keys that pick a card by its place in the hand: the top row of the keyboard, then the
# same keys shifted, so up to 20 cards (the largest hand of any preset is 18) have a key.
POSITION_KEYS = "1234567890!@#$%^&*()"
POSITION_KEY_NAMES = [
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "7",
    "8",
    "9",
    "0",
    "exclamation_mark",
    "at",
    "number_sign",
    "dollar_sign",
    "percent_sign",
    "circumflex_accent",
    "ampersand",
    "asterisk",
    "left_parenthesis",
    "right_parenthesis",
]

AVATAR_COLOURS = ("dark_green", "dark_blue", "dark_magenta", "dark_orange3")

# A Revolution card's face: a colour of its own, so the two decks tell apart at a glance.
REVOLUTION_CARD_STYLE = Style(color="black", bgcolor="plum1")
RED_REVOLUTION_CARD_STYLE = Style(color="red3", bgcolor="plum1", bold=True)
REVOLUTION_TEXT = Style(color="magenta", bold=True)
# Each Character function's icon: one cell wide, and a letter or sign in ASCII mode.
FUNCTION_ICONS = {
    "jump": "»",
    "counter": "×",
    "command": "!",
    "exchange": "⇄",
    "revolution": "↻",
}
FUNCTION_ICONS_ASCII = {
    "jump": ">",
    "counter": "x",
    "command": "!",
    "exchange": "~",
    "revolution": "@",
}


def function_icon(function: str, *, ascii_only: bool = False) -> str:
    """The icon of a Character function ("" for none)."""
    return (FUNCTION_ICONS_ASCII if ascii_only else FUNCTION_ICONS).get(function, "")


def is_red(card: int) -> bool:
    return card & 3 in RED_SUITS


def card_label(
    card: int, *, ascii_only: bool = False, short: bool = False, star: bool = True
) -> str:
    """``10♥``, or ``10h`` in ASCII mode; ``short`` writes ten as ``T`` to fit narrow cards.
    A Revolution card has its star (``Q♠*``) unless ``star`` is False."""
    normal = twin(card)
    rank = RANKS[normal >> 2] if short else RANK_NAMES[normal >> 2]
    suit = SUITS[card & 3] if ascii_only else SUIT_SYMBOLS[card & 3]
    return rank + suit + ("*" if star and card >= REVOLUTION_BASE else "")


def in_order(mask: Mask | Sequence[int], rules: Rules | None = None) -> list[int]:
    """Cards low to high as ``rules`` rank them (rank, then the rules' suit order, as the hand
    is sorted); without rules, in the order given (a mask: by rank, then ♦ ♣ ♥ ♠)."""
    cards: list[int] = list(card_indices(Mask(mask)) if isinstance(mask, int) else mask)
    if rules is None:
        return cards
    power = catalog_for(rules).card_power
    return sorted(cards, key=lambda c: (power[twin(c)], c))


# A card in a message; a Revolution card (with its star) is left where it is.
_CARD = r"(?:10|[2-9JQKA])[♦♣♥♠](?!\*)"
_CARD_RUN = re.compile(rf"{_CARD}(?: {_CARD})+")


def in_suit_order(message: str, rules: Rules) -> str:
    """A message with every run of cards in it (``8♦ 8♣ 8♠``, written by the engine or a
    computer player in the order ♦ ♣ ♥ ♠) put in the order of ``rules``, as the hand and the
    trick show them (taiwan: ``8♣ 8♦ 8♠``).

    >>> from bigtwo.engine.rules import Rules
    >>> in_suit_order("That does not beat 8♦ 8♣ 8♠", Rules.preset("taiwan"))
    'That does not beat 8♣ 8♦ 8♠'
    """

    def reorder(run: re.Match[str]) -> str:
        cards = [
            RANK_NAMES.index(token[:-1]) * 4 + SUIT_SYMBOLS.index(token[-1])
            for token in run.group().split()
        ]
        return " ".join(card_label(c) for c in in_order(cards, rules))

    return _CARD_RUN.sub(reorder, message)


def cards_text(
    mask: Mask | Sequence[int],
    *,
    ascii_only: bool = False,
    colour: bool = True,
    rules: Rules | None = None,
) -> Text:
    """Cards in a line, red suits in red: ``3♦ 4♣ 10♥`` (in the suit order of ``rules``)."""
    cards = in_order(mask, rules)
    text = Text()
    for i, card in enumerate(cards):
        if i:
            text.append(" ")
        style = (RED_TEXT if is_red(card) else BLACK_TEXT) if colour else Style()
        text.append(card_label(card, ascii_only=ascii_only, star=False), style)
        if card >= REVOLUTION_BASE:
            text.append("*", REVOLUTION_TEXT if colour else Style())
    return text


def cards_plain(mask: Mask | Sequence[int], *, ascii_only: bool = False) -> str:
    cards = card_indices(Mask(mask)) if isinstance(mask, int) else list(mask)
    return " ".join(card_label(c, ascii_only=ascii_only) for c in cards)


def initials(name: str) -> str:
    """The avatar letters of a name: the first letter of up to two words (``Ann Lee`` → ``AL``),
    or the first letter of one word."""
    words = [w for w in name.replace("_", " ").split() if w]
    if not words:
        return "?"
    return "".join(w[0] for w in words[:2]).upper()


def avatar(name: str, seat: int, *, ascii_only: bool = False) -> Text:
    """A coloured initials badge; ASCII mode brackets it so it still stands out in mono."""
    letters = initials(name)
    if ascii_only:
        return Text(f"[{letters}]", Style(bold=True))
    colour = AVATAR_COLOURS[seat % len(AVATAR_COLOURS)]
    return Text(f" {letters} ", Style(color="white", bgcolor=colour, bold=True))


class HandLayout:
    """Where each card of a hand sits on screen, so drawing and mouse hits agree.

    Cards are ``width`` columns wide side by side; a hand too wide for 5-column cards gets
    4-column ones (ten written ``T``), and one too wide even for those (a hand of Big 2
    RevolutioN may grow past 20 cards) 3-column ones without side edges.
    """

    HEIGHT = 5  # a raised row, three card rows, a row of position keys

    def __init__(self, count: int, available: int) -> None:
        self.count = count
        self.width = 5 if count * 5 <= available else 4 if count * 4 <= available else 3
        self.left = max(0, (available - count * self.width) // 2)

    def index_at(self, x: int) -> int | None:
        """Which card column ``x`` falls on, or None outside the hand."""
        if x < self.left:
            return None
        i = (x - self.left) // self.width
        return i if 0 <= i < self.count else None


def render_hand(
    cards: Sequence[int],
    selected: set[int] | frozenset[int],
    cursor: int | None,
    available: int,
    *,
    ascii_only: bool = False,
    focused: bool = True,
    functions: dict[int, str] | None = None,
) -> Text:
    """A hand face up: selected cards raised one row, position keys below, cursor marked.
    A Revolution card has its own face colour and its star (on the label, or on the top edge
    where the label has no room); ``functions`` names each Character card's function, whose
    icon goes on its top edge."""
    layout = HandLayout(len(cards), available)
    w = layout.width
    inner = max(1, w - 2)
    if ascii_only:
        corner, edge, side = "+", "-", "|"
    else:
        corner, edge, side = "┌", "─", "│"
    low, low_edge = ("+", "-") if ascii_only else ("└", "─")
    rows = [Text(" " * layout.left) for _ in range(HandLayout.HEIGHT)]
    for i, card in enumerate(cards):
        up = card in selected
        red = is_red(card)
        revolution = card >= REVOLUTION_BASE
        if up:
            face_style = RED_SELECTED_STYLE if red else SELECTED_STYLE
        elif revolution:
            face_style = RED_REVOLUTION_CARD_STYLE if red else REVOLUTION_CARD_STYLE
        else:
            face_style = RED_CARD_STYLE if red else CARD_STYLE
        border_style = Style(color="black", bgcolor=face_style.bgcolor)
        label = card_label(card, ascii_only=ascii_only, short=w < 5, star=False)
        mark = function_icon((functions or {}).get(card, ""), ascii_only=ascii_only)
        if revolution:
            if len(label) + 1 <= (inner if w > 3 else w):
                label += "*"
            else:
                mark += "*"
        if w == 3:  # no side edges: the face alone, its marks on the top row
            top = (mark[:3]).ljust(3)
            parts = [(top, border_style), ("", border_style), ("   ", border_style)]
            label = label.ljust(3)[:3]
        else:
            top = corner + (mark + edge * inner)[:inner] + ("┐" if not ascii_only else "+")
            bottom = low + low_edge * inner + ("┘" if not ascii_only else "+")
            parts = [(top, border_style), (side, border_style), (bottom, border_style)]
            label = label.rjust(inner)
        first = 0 if up else 1
        for r in range(4):
            k = r - first
            if 0 <= k < 3:
                if k == 1:
                    if w > 3:
                        rows[r].append(side, border_style)
                    rows[r].append(label, face_style)
                    if w > 3:
                        rows[r].append(side, border_style)
                else:
                    rows[r].append(*parts[k])
            else:
                rows[r].append(" " * w)
        key = POSITION_KEYS[i] if i < len(POSITION_KEYS) else " "
        at_cursor = cursor == i
        mark = f"[{key}]" if at_cursor and ascii_only else key
        key_style = Style(reverse=True, bold=True) if at_cursor and focused else Style(dim=True)
        if at_cursor and not focused:
            key_style = Style(bold=True)
        rows[4].append(mark.center(w), key_style)
    out = Text()
    for r, row in enumerate(rows):
        if r:
            out.append("\n")
        out.append_text(row)
    return out


def card_backs(count: int, *, ascii_only: bool = False, limit: int = 13) -> Text:
    """A fan of face-down cards showing how many a player holds."""
    shown = min(count, limit)
    glyph = "#" if ascii_only else "▮"
    return Text(glyph * shown, Style(color="blue" if not ascii_only else None))
