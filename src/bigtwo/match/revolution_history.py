"""A game of Big 2 RevolutioN told for people: each hand's history in words, Palm-style, and
every position of every hand with the cards face up.

:func:`revolution_match_history` tells every finished hand of a match, :func:`history_lines`
one finished hand one line per action, :func:`describe_action`
one action (with suit symbols), and :func:`revolution_positions` gives the positions
``bigtwo replay`` and the terminal's replay page step through. It is the expansion's
counterpart of :mod:`.history`. This module must not write or read records
(:mod:`.revolution_record` does) or touch files.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..engine.revolution import End, RevolutionDeal
from ..engine.revolution_cards import card_symbol, symbols
from ..engine.views import Action, Move
from .revolution import RevolutionMatch, RevolutionResult


def revolution_match_history(match: RevolutionMatch) -> str:
    """The history of every finished hand of the match, after a line with the rules and the
    seats."""
    lines = [f"{match.ruleset.name}: {', '.join(match.names)}"]
    for result in match.results:
        lines += history_lines(result, match.names)
    return "\n".join(lines) + "\n"


def history_lines(result: RevolutionResult, names: Sequence[str]) -> list[str]:
    """A finished hand in words, one line per action (Palm-style), face-down cards shown."""
    out = [f"Deal {result.number}"]
    out += ["  " + line for line in describe_actions(result.actions, names)]
    how = "went out" if result.end is End.OUT else "had the fewest cards when the deck ran out"
    out.append(f"  {names[result.winner]} {how}.")
    points = ", ".join(f"{n} {p:+d}" for n, p in zip(names, result.points, strict=True))
    out.append(f"  Points: {points}")
    return out


def describe_actions(actions: Iterable[Action], names: Sequence[str]) -> list[str]:
    """A hand's actions for people, one line each, from its start: a seat that stops drawing
    without having drawn a card draws nothing (one that drew draws no more)."""
    out: list[str] = []
    drew = False
    for a in actions:
        if a.move is Move.PASS:
            drew = False
        elif a.move is Move.DRAW:
            drew = True
        elif a.move is Move.STOP and not drew:
            out.append(f"{names[a.seat]} draws nothing")
            continue
        out.append(describe_action(a, names))
    return out


def describe_action(action: Action, names: Sequence[str]) -> str:
    """One action for people, with suit symbols."""
    a, who = action, names[action.seat] if action.seat >= 0 else ""
    move = a.move
    if move is Move.PLAY:
        return f"{who} plays {symbols(a.cards)}"
    if move is Move.PASS:
        return f"{who} passes" + (" (automatically)" if a.auto else "")
    if move is Move.ACTIVATE:
        to = f" on {names[a.target]}" if a.target >= 0 else ""
        return f"{who} activates {symbols(a.cards)}: {a.function}{to}"
    if move is Move.COUNTER:
        return f"{who} counters with {symbols(a.cards)}"
    if move is Move.DECLINE:
        return f"{who} does not counter"
    if move is Move.EFFECT:
        given = f" ({symbols(a.cards)})" if a.cards else ""
        return f"{who}'s {a.function} takes effect{given}"
    if move is Move.DRAW:
        card = symbols(a.cards) if a.cards else "a card"
        return f"{who} draws {card} from the {a.source}"
    if move is Move.STOP:
        return f"{who} draws no more"
    if move is Move.SKIP:
        return f"{who} loses a turn"
    return f"The Gathering gets {symbols(a.cards)}"


# -- replay ----------------------------------------------------------------------------------------
def revolution_positions(match: RevolutionMatch) -> list[str]:
    """Every position of every hand so far, each as text with every hand face up: the
    start of each hand, then one after each action (what ``bigtwo replay`` steps through)."""
    out: list[str] = []
    rules = match.ruleset.rules
    for number, dealt, deck, actions in match.played_hands():
        deal = RevolutionDeal(rules, dealt, deck=deck)
        out.append(_position(deal, match.names, number, "the hand begins"))
        for action in actions:
            if action.follows:
                continue
            deal.redo(action)
            made = deal.actions
            last = [describe_action(a, match.names) for a in made[_start_of_last(made) :]]
            out.append(_position(deal, match.names, number, "; ".join(last)))
    return out


def _start_of_last(actions: Sequence[Action]) -> int:
    """Where the last action a player chose begins, with what the deal did after it."""
    i = len(actions) - 1
    while i > 0 and actions[i].follows:
        i -= 1
    return i


def _position(deal: RevolutionDeal, names: Sequence[str], number: int, caption: str) -> str:
    lines = [f"Deal {number}: {caption}"]
    order = "reversed" if deal.reversed else "normal"
    gathering = " ".join(card_symbol(c) for c in deal.gathering) or "(empty)"
    lines.append(f"  Gathering {gathering}; deck {deal.deck_left} cards; order {order}")
    to_beat = deal.to_beat.symbols() if deal.to_beat is not None else "(a lead)"
    lines.append(f"  To beat: {to_beat}")
    for seat, name in enumerate(names):
        mark = ">" if seat == deal.to_act and not deal.over else " "
        lines.append(f" {mark}{name}: {symbols(deal.hands[seat]) or '(no cards)'}")
    if deal.over and deal.winner is not None:
        lines.append(f"  Over ({deal.end}): {names[deal.winner]} wins")
    return "\n".join(lines) + "\n"
