"""Numbered events and their audiences, and the JSON shapes of views, plays and actions.

An :class:`Event` is one thing that happened at a table, numbered ``v = 1, 2, 3, …`` in the
order it happened, with an audience: one seat, all seats, the spectators, or everyone. Every
card that appears in an event is taken from a :class:`~bigtwo.engine.views.SeatView` of a
seat in that audience (or from a public :class:`~bigtwo.engine.views.Action`), so nothing a
recipient may not see can be written here. Text that people typed (names, titles, chat)
travels as the plain text it is; escaping it for a page is the job of whoever shows it.

Cards are written in the project's notation, a play as cards separated by spaces
(``"3d 4c 5h 6s 7d"``) and a hand the same way, lowest card first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Protocol

import orjson

from ..engine.cards import CARDS, card_text
from ..engine.plays import Play
from ..engine.revolution import RevolutionView
from ..engine.revolution_cards import text as revolution_text
from ..engine.views import Action, Move, SeatView


class Group(StrEnum):
    """An audience of more than one seat."""

    ALL = "all"  # every seat and every spectator
    PLAYERS = "players"  # every seat, no spectator
    SPECTATORS = "spectators"  # spectators only


Audience = int | Group  # a seat number, or a group


def audience_reaches(to: Audience, seat: int | None) -> bool:
    """Whether an event for ``to`` reaches a recipient at ``seat`` (None: a spectator)."""
    if to == Group.ALL:
        return True
    if seat is None:
        return to == Group.SPECTATORS
    return to in (Group.PLAYERS, seat)


@dataclass(slots=True)
class Event:
    """One numbered event. ``data`` holds the fields beside ``type`` and ``v``."""

    v: int
    type: str
    to: Audience
    data: dict[str, Any]  # empty for an event read back from a table's history
    _text: str | None = field(default=None, repr=False)

    def reaches(self, seat: int | None) -> bool:
        """Whether a recipient at ``seat`` (None: a spectator) is in the audience."""
        return audience_reaches(self.to, seat)

    def message(self) -> dict[str, Any]:
        if not self.data and self._text is not None:
            return dict(json.loads(self._text))
        return {"type": self.type, "v": self.v, **self.data}

    def json(self) -> str:
        """The wire text, encoded once however many recipients get it."""
        if self._text is None:
            self._text = dumps(self.message())
        return self._text


def dumps(message: dict[str, Any]) -> str:
    """A message's wire text: compact JSON, UTF-8 as it is (the same text ``json.dumps``
    with ``separators=(",", ":"), ensure_ascii=False`` writes, several times faster). What
    the server builds is not checked again here: its shapes are the protocol's."""
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except orjson.JSONEncodeError:  # an integer past 64 bits: the expansion's 104-bit masks
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def play_json(play: Play | None) -> str | None:
    return None if play is None else play.text


class PublicFacts(Protocol):
    """What every seat and spectator may know of a deal at one moment, as the deal holds it:
    a :class:`~bigtwo.engine.views.SeatView` has it, and so has the match's ``PublicState``
    for each action it applied. Events copy it; they never work it out again."""

    @property
    def turn(self) -> int: ...
    @property
    def counts(self) -> tuple[int, ...]: ...
    @property
    def to_beat(self) -> Play | None: ...
    @property
    def to_beat_seat(self) -> int: ...
    @property
    def passes(self) -> int: ...
    @property
    def locked(self) -> int: ...
    @property
    def winner(self) -> int | None: ...
    @property
    def players(self) -> int: ...


def to_beat_json(state: PublicFacts) -> dict[str, Any] | None:
    """The play to beat and who made it, or None at a lead (sent as the ``table`` key), its
    cards in notation (a play of the expansion's 104 cards with its Revolution cards starred,
    as ``revolution_text`` writes them)."""
    to_beat = state.to_beat
    if to_beat is None:
        return None
    return {"seat": state.to_beat_seat, "cards": to_beat.text, "kind": to_beat.kind.value}


def action_json(action: Action) -> dict[str, Any]:
    """One action of either game as its recipient may see it. The expansion's (``move`` set)
    pass through ``seen_by`` first: ``cards`` is None where a card is hidden (a face-down
    draw seen by another seat), and its cards are written in its notation."""
    if action.move is not None:
        return _expansion_action_json(action)
    return {
        "seat": action.seat,
        "cards": play_json(action.play),
        "kind": None if action.play is None else action.play.kind.value,
        "auto": action.auto,
        "reason": action.reason,
        "trick_over": action.trick_over,
    }


def _expansion_action_json(action: Action) -> dict[str, Any]:
    assert action.move is not None
    out: dict[str, Any] = {
        "seat": action.seat,
        "move": action.move.value,
        "cards": revolution_text(action.cards) if action.cards else None,
        "auto": action.auto,
        "trick_over": action.trick_over,
    }
    if action.function:
        out["function"] = action.function
    if action.target >= 0:
        out["target"] = action.target
    if action.source:
        out["source"] = action.source
    if action.given:
        out["given"] = revolution_text(action.given)
    return out


def locked_seats(mask: int, players: int) -> list[int]:
    return [s for s in range(players) if mask >> s & 1]


def public_state(state: PublicFacts) -> dict[str, Any]:
    """The public part of a deal after a change: whose turn, cards left, the play to beat."""
    return {
        "turn": state.turn,
        "counts": list(state.counts),
        "table": to_beat_json(state),
        "passes": state.passes,
        "locked": locked_seats(state.locked, state.players),
        "winner": state.winner,
    }


def legal_json(legal: Iterable[Play]) -> list[str]:
    return [p.text for p in legal]


def view_json(view: SeatView, deal_number: int) -> dict[str, Any]:
    """A whole view, for a resync: exactly the fields of a SeatView, in notation."""
    out: dict[str, Any] = {
        "deal": deal_number,
        "seat": view.seat,
        "leader": view.leader,
        **public_state(view),
        "opening": None if view.opening is None else str(CARDS[view.opening]),
        "actions": [action_json(a) for a in view.actions],
        "played": card_text(view.played),
        "legal": legal_json(view.legal),
        "can_pass": view.can_pass,
    }
    if view.seat is not None:
        out["hand"] = card_text(view.hand)
    return out


# -- Big 2 RevolutioN: the JSON shapes of its views and actions ----------------------------------
# Every card here comes from a RevolutionView or from an action as one seat may see it
# (Action.seen_by), so a face-down draw or an exchange's card reaches only the seats
# the engine lets see it.


def revolution_public_state(view: RevolutionView) -> dict[str, Any]:
    """The public part of a hand of the expansion: whose turn and whose answer, the phase,
    each seat's normal and Revolution counts, the Gathering, the deck count, the revolution
    marker, the play to beat and the function waiting in the counter window."""
    pending = None
    if view.pending is not None:
        seat, function, card, target = view.pending
        pending = {
            "seat": seat,
            "function": function,
            "card": revolution_text(1 << card),
            "target": None if target < 0 else target,
        }
    return {
        "turn": view.turn,
        "to_act": view.to_act,
        "phase": view.phase.value,
        "counts": list(view.counts),
        "revolution_counts": list(view.revolution_counts),
        "gathering": revolution_text(sum(1 << c for c in view.gathering)),
        "deck_left": view.deck_left,
        "reversed": view.reversed,
        "table": to_beat_json(view),
        "passes": view.passes,
        "pending": pending,
        "winner": view.winner,
        "end": None if view.end is None else view.end.value,
    }


def revolution_choices_json(view: RevolutionView) -> dict[str, Any]:
    """What the seat whose answer is awaited may do now (its own cards: private)."""
    plays: list[str] = []
    activate: list[dict[str, Any]] = []
    counters: list[str] = []
    draws: list[str] = []
    seen: set[int] = set()
    for choice in view.choices:
        if choice.move is Move.PLAY:
            plays.append(revolution_text(choice.cards))
        elif choice.move is Move.ACTIVATE and choice.cards not in seen:
            seen.add(choice.cards)
            card = choice.cards.bit_length() - 1
            activate.append(
                {"card": revolution_text(choice.cards), "function": view.function_of(card)}
            )
        elif choice.move is Move.COUNTER:
            counters.append(revolution_text(choice.cards))
        elif choice.move is Move.DRAW:
            draws.append(revolution_text(choice.cards) if choice.cards else "deck")
    return {
        "phase": view.phase.value,
        "legal": plays,
        "can_pass": view.can_pass,
        "activate": activate,
        "counters": counters,
        "draws": draws,
    }


def revolution_view_json(view: RevolutionView, deal_number: int) -> dict[str, Any]:
    """A whole view of a hand of the expansion, for a resync."""
    out: dict[str, Any] = {
        "deal": deal_number,
        "seat": view.seat,
        "leader": view.leader,
        **revolution_public_state(view),
        "opening": None if view.opening is None else revolution_text(1 << view.opening),
        "discards": revolution_text(view.discards),
        "played": revolution_text(view.played),
        "actions": [action_json(a) for a in view.actions],
    }
    if view.seat is not None:
        out["hand"] = revolution_text(view.hand)
        out["choices"] = revolution_choices_json(view)
    return out
