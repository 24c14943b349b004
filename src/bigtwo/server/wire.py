"""What a client's message asks of its table: :func:`command_of` turns one checked message off
the wire (the ``dict`` :func:`~bigtwo.protocol.parse_message` returns) and the little it
needs to know of its sender and table (:class:`Sender`) into the table
:class:`~bigtwo.service.commands.Command` it stands for, or a :class:`Refusal` in the words
the server sends back, or None for a message that asks nothing of the table.

It is a pure function: it sends nothing, reads no clock, holds no state and changes nothing,
so it can be checked on its own. It must not decide whether the table takes a command (the
service does: staleness, turns, the rules of the game), nor answer a message itself (pings,
resyncs, goodbyes and errors are the runner's, :mod:`bigtwo.server.runner`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from ..engine.cards import Mask, parse_cards
from ..engine.errors import BigTwoError
from ..engine.revolution_cards import parse as revolution_parse
from ..engine.rules import BIGTWO, REVOLUTION
from ..service.commands import Command, Op

# The moves of a turn, in either game, and the table command each is.
TURN_MOVES = {
    "play": Op.ACT,
    "pass": Op.ACT,
    "activate": Op.ACTIVATE,
    "counter": Op.COUNTER,
    "decline": Op.DECLINE,
    "draw": Op.DRAW,
    "stop": Op.STOP,
}
# The table settings a host's ``settings`` message sets.
SETTINGS_FIELDS = ("turn_seconds", "away_seconds", "spectators", "spectator_chat")


# Each game's moves (the expansion's more: see protocol.ActivateMessage …), and its cards in
# notation as a mask (the expansion's 104, a Revolution card with its star).
GAME_MOVES = {BIGTWO: frozenset({"play", "pass"}), REVOLUTION: frozenset(TURN_MOVES)}
GAME_CARDS: dict[str, Callable[[str], Mask]] = {
    BIGTWO: lambda text: parse_cards(text).mask,
    REVOLUTION: lambda text: Mask(revolution_parse(text)),
}


@dataclass(frozen=True, slots=True)
class Sender:
    """Who sent a message, and what of their table its meaning depends on."""

    seat: int | None  # None: a spectator
    name: str = ""  # the name a chat line goes out under
    game: str = BIGTWO  # the game the table plays (its rules' ``game``)
    spectator_chat: bool = False  # spectators may chat at the table


@dataclass(frozen=True, slots=True)
class Refusal:
    """A message refused before it reaches the table: the error's ``code`` and its words."""

    code: str
    message: str


def command_of(msg: Mapping[str, Any], sender: Sender) -> Command | Refusal | None:
    """The command a checked client message stands for, or why it is refused. None: it asks
    nothing of the table (``ping``, ``sync``, a spectator's ``quit``: the runner answers).

    >>> command_of({"type": "next", "id": "n1"}, Sender(seat=2))
    Command(op=<Op.NEXT: 'next'>, seat=2, cards=None, id='', seen=None, by=<By.PLAYER: 'player'>, name='', text='', token='', ready=True, avatar=None, target=None, value=None)
    >>> command_of({"type": "next", "id": "n1"}, Sender(seat=None))
    Refusal(code='not_seated', message='Spectators cannot act at the table')
    """
    kind = msg["type"]
    seat = sender.seat
    if kind in ("ping", "sync"):
        return None
    if kind == "hello":
        return Refusal("bad_message", "Already said hello")
    if kind == "chat":
        if seat is None and not sender.spectator_chat:
            return Refusal(
                "not_seated",
                "Spectators may not chat at this table (the host has not allowed it)",
            )
        return Command(Op.CHAT, seat=seat, name=sender.name, text=msg["text"])
    if seat is None:
        if kind == "quit":
            return None
        return Refusal("not_seated", "Spectators cannot act at the table")
    if kind in TURN_MOVES:
        return _move(kind, msg, seat, sender.game)
    if kind == "ready":
        return Command(Op.READY, seat=seat, ready=msg.get("ready", True))
    if kind == "next":
        return Command(Op.NEXT, seat=seat)
    if kind == "kick":
        return Command(Op.KICK, seat=seat, target=msg["seat"])
    if kind == "computer":
        return Command(Op.COMPUTER, seat=seat, target=msg["seat"], text=msg["level"])
    if kind == "settings":
        value = {k: msg[k] for k in SETTINGS_FIELDS}
        if msg.get("assists") is not None:  # the coach's assists: unchanged unless said
            value["assists"] = msg["assists"]
        return Command(Op.SETTINGS, seat=seat, value=value)
    if kind == "quit":
        return Command(Op.QUIT, seat=seat)
    return None


def _wrong_seat(msg: Mapping[str, Any], seat: int) -> Refusal | None:
    """The refusal of a move that names a seat other than the sender's own."""
    claimed = msg.get("seat")
    if claimed is not None and claimed != seat:
        return Refusal("wrong_seat", f"You sit at seat {seat}; you cannot act for seat {claimed}")
    return None


def _move(kind: str, msg: Mapping[str, Any], seat: int, game: str) -> Command | Refusal:
    """A move of a turn (``kind`` in :data:`TURN_MOVES`), as the command the table applies: the
    cards it names (a play's, the Character card activated with the card an exchange gives,
    the Q that counters, the Gathering card drawn; none for a pass, a draw from the deck, a
    decline or a stop) and, for an exchange, the player it gives to."""
    wrong = _wrong_seat(msg, seat)
    if wrong is not None:
        return wrong
    if kind not in GAME_MOVES[game]:
        return Refusal("bad_command", f"'{kind}' is a move of the revolution only")
    cards_of = GAME_CARDS[game]
    try:
        cards: Mask | None = None
        if kind == "play":
            cards = cards_of(msg["cards"])
            if not cards:
                return Refusal("bad_cards", "Name the cards to play (or send 'pass')")
        elif kind in ("activate", "counter"):
            cards = cards_of(msg["card"])
            if kind == "activate" and msg.get("give"):
                cards = Mask(cards | cards_of(msg["give"]))
        elif kind == "draw" and msg["source"] != "deck":
            cards = cards_of(msg["source"])
    except BigTwoError as exc:
        return Refusal("bad_cards", str(exc))
    target = msg.get("target") if kind == "activate" else None
    return Command(
        TURN_MOVES[kind], seat=seat, cards=cards, target=target, id=msg["id"], seen=msg["v"]
    )
