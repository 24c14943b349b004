"""How a hand of Big 2 RevolutioN reads in the terminal: pure functions returning Rich text.

The table screen draws a hand of the expansion with the same widgets as any other deal; what
only the expansion has is worded here: each action of the trick (a function activated, a
counter, a draw), the Gathering, the revolution marker, the counter window's question with
its clock, what a drawing player may take, and the reference card of the five functions.
Nothing here knows about Textual or the table: callers pass in what to draw.
"""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from ..engine.cards import Mask
from ..engine.plays import catalog_for
from ..engine.revolution_cards import REVOLUTION_BASE, twin_rank
from ..engine.revolution_rules import CHARACTER_RANKS
from ..engine.rules import Rules
from ..engine.views import Action, Move
from .render import REVOLUTION_TEXT, cards_text, function_icon
from .words import is_you, whom

# Each function in one line, for the reference card and the prompts.
FUNCTION_WORDS = {
    "jump": "the next player loses their next turn",
    "counter": "out of turn: cancels the function just activated",
    "command": "ends the trick on the table: you lead a new one",
    "exchange": "give another player one of your normal cards, face down",
    "revolution": "lower beats higher; another revolution turns it back",
    "none": "no function under these rules",
}
MARKER = "REVOLUTION: order reversed"
REFERENCE_WIDTH = 76  # the reference card fits a page at 80 columns


def function_of(card: int, rules: Rules) -> str:
    """What a card does when activated under ``rules``: a Character's function, else ""."""
    options = rules.revolution
    if options is None or card < REVOLUTION_BASE:
        return ""
    rank = "3456789TJQKA2"[twin_rank(card)]
    if rank not in CHARACTER_RANKS:
        return ""
    function = options.function_of(rank)
    return "" if function == "none" else function


def functions_in(cards: Sequence[int], rules: Rules) -> dict[int, str]:
    """Each Character card among ``cards`` and its function (for the icons on the hand)."""
    out: dict[int, str] = {}
    for card in cards:
        function = function_of(card, rules)
        if function:
            out[card] = function
    return out


def card_words(card: int, rules: Rules, *, ascii_only: bool = False) -> Text:
    """A card as the trick and the prompts write it: ``K♥*`` with its icon and function."""
    text = cards_text([card], ascii_only=ascii_only)
    function = function_of(card, rules)
    if function:
        text.append(
            f" {function_icon(function, ascii_only=ascii_only)} {function}", Style(bold=True)
        )
    return text


def reference_text(rules: Rules, *, ascii_only: bool = False) -> str:
    """The reference card: every Character function in one line, with its card and icon."""
    options = rules.revolution
    lines = ["Big 2 RevolutioN: the Character cards (Revolution J, Q, K, A, 2)", ""]
    for rank in CHARACTER_RANKS:
        function = options.function_of(rank) if options is not None else "none"
        icon = function_icon(function, ascii_only=ascii_only) or " "
        name = rank + "*"
        lines.append(f" {icon}  {name:<3} {function:<10} {FUNCTION_WORDS.get(function, '')}")
    paragraphs = [
        "Before playing or passing you may activate Character cards, one at a time: raise "
        "one and press a (an exchange: raise the A* and the normal card to give, then a, "
        "then the player's number). Every other player may then cancel it with a "
        "Revolution Q: y counters, x lets it stand. After a pass you may draw: d the "
        "deck's top card, 1-4 a card of the Gathering (a Character is a whole draw; else "
        "up to two), Enter stops.",
        "Revolution cards (marked *) also play as the normal card of the same rank and "
        "suit, equally strong. You win when your normal cards are gone; when the Revolution "
        "deck runs out the hand ends and the fewest normal cards pay nothing.",
    ]
    for paragraph in paragraphs:
        lines += ["", *textwrap.wrap(paragraph, REFERENCE_WIDTH)]
    if options is not None and options.functions_per_turn:
        lines.append(f"At most {options.functions_per_turn} function(s) a turn.")
    return "\n".join(lines)


AFTER_A_TRICK = frozenset({Move.DRAW, Move.STOP, Move.REVEAL})


def trick_moves(moves: Sequence[Action]) -> tuple[list[Action], bool]:
    """The actions of the trick in play, or of the trick just ended (``True``) until someone
    leads: the draws of the player whose pass ended it belong to it."""
    ends = [i for i, a in enumerate(moves) if a.trick_over]
    if not ends:
        return list(moves), False
    last = ends[-1]
    if all(a.move in AFTER_A_TRICK for a in moves[last + 1 :]):
        start = ends[-2] + 1 if len(ends) > 1 else 0
        return list(moves[start:]), True
    return list(moves[last + 1 :]), False


def move_line(
    action: Action,
    names: Sequence[str],
    rules: Rules,
    *,
    ascii_only: bool = False,
    width: int = 0,
) -> Text | None:
    """One action of the trick: who, then what (None for what the trick need not show: a
    decline, a player drawing no more, the Gathering filled again). A play says its kind
    where it fits in ``width``."""
    move = action.move
    if move in (Move.DECLINE, Move.STOP, Move.REVEAL):
        return None
    text = Text()
    name = names[action.seat] if 0 <= action.seat < len(names) else ""
    you = is_you(name)
    text.append(f"{name[:10]:<10} ")
    if move is Move.PLAY:
        text.append_text(cards_text(Mask(action.cards), ascii_only=ascii_only, rules=rules))
        play = catalog_for(rules).classify(action.cards)
        label = f"  {play.kind.label}" if play is not None else ""
        if label and (not width or text.cell_len + len(label) <= width):
            text.append(label, Style(dim=True, italic=True))
    elif move is Move.PASS:
        text.append("pass" + (" (auto)" if action.auto else ""), Style(dim=True))
    elif move is Move.ACTIVATE:
        card = action.cards.bit_length() - 1
        text.append_text(card_words(card, rules, ascii_only=ascii_only))
        if action.target >= 0:
            text.append(f" to {whom(names[action.target])}")
    elif move is Move.COUNTER:
        text.append("counter with " if you else "counters with ")
        text.append_text(cards_text(Mask(action.cards), ascii_only=ascii_only))
    elif move is Move.EFFECT:
        words = {
            "jump": "the next player loses a turn",
            "command": "the trick ends",
            "exchange": "a card changes hands",
            "revolution": "the order turns over",
        }.get(action.function, "takes effect")
        if action.function == "exchange" and action.cards:
            words = "give " if you else "gives "
            text.append(
                f"{function_icon('exchange', ascii_only=ascii_only)} {words}", REVOLUTION_TEXT
            )
            text.append_text(cards_text(Mask(action.cards), ascii_only=ascii_only))
            if action.target >= 0:
                text.append(f" to {whom(names[action.target])}", REVOLUTION_TEXT)
            return text
        icon = function_icon(action.function, ascii_only=ascii_only)
        text.append(f"{icon} {action.function}: {words}", REVOLUTION_TEXT)
    elif move is Move.DRAW:
        if action.source == "deck":
            text.append(f"{'draw' if you else 'draws'} from the deck", Style(dim=True))
            if action.cards:
                text.append(" (")
                text.append_text(cards_text(Mask(action.cards), ascii_only=ascii_only))
                text.append(")")
        else:
            text.append("take " if you else "takes ", Style(dim=True))
            text.append_text(cards_text(Mask(action.cards), ascii_only=ascii_only))
    elif move is Move.SKIP:
        icon = function_icon("jump", ascii_only=ascii_only)
        lose = "lose" if you else "loses"
        text.append(f"{lose} a turn ({icon} jump)", Style(dim=True))
    return text


def gathering_text(cards: Sequence[int], *, ascii_only: bool, numbered: bool, width: int) -> Text:
    """The Gathering's face-up cards, numbered 1 to 4 while the player on show draws; with
    its name in front when that fits."""
    body = Text()
    for i, card in enumerate(cards):
        if i:
            body.append("  " if numbered else " ")
        if numbered:
            body.append(f"{i + 1}", Style(reverse=True, bold=True))
            body.append(" ")
        body.append_text(cards_text([card], ascii_only=ascii_only))
    if not cards:
        body.append("(empty)", Style(dim=True))
    text = Text()
    label = "Gathering: " if numbered else "Gathering "
    if len(label) + body.cell_len <= width:
        text.append(label, Style(bold=True))
    text.append_text(body)
    return text
