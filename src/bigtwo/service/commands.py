"""Commands: the inputs a table accepts, and the unit of its stored log.

A table's state is its configuration plus the commands it accepted, applied in order: that is
what makes a table durable (the log is stored before any event is sent) and what makes its
events reproducible after a restart (the same commands give the same numbered events). So a
command records *outcomes*, never intentions that would need the clock or a random draw to
replay: a computer's move is stored as the cards it chose, a timeout as the pass it forced.
This module only describes commands; :mod:`bigtwo.service.table` applies them.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..engine.cards import Mask


class Op(StrEnum):
    """A command's operation (its stored ``op``)."""

    JOIN = "join"  # a player takes a free human seat (lobby only)
    LEAVE = "leave"  # a player gives the seat up before the match starts
    READY = "ready"  # a player is (or is no longer) ready to start
    ACT = "act"  # a play (cards) or a pass (cards None)
    CHAT = "chat"  # a line of chat from a seat or a spectator
    TAKEOVER = "takeover"  # a computer plays for a seat whose player is away
    HANDBACK = "handback"  # the player is back: the computer gives the seat back
    QUIT = "quit"  # the player leaves for good (a computer finishes their match)
    NEXT = "next"  # between deals: a player has read the score sheet and wants the next deal
    DEAL = "deal"  # between deals: the next deal starts (everyone said next, or time is up)
    REMATCH = "rematch"  # the match is over: a new table for the same people was opened
    KICK = "kick"  # the host removes a player (in the lobby the seat is freed)
    COMPUTER = "computer"  # the host gives a seat to a computer player for good
    SETTINGS = "settings"  # the host changes the table's timers or lets spectators in or not
    CLOSE = "close"  # the host closes the room: it ends for everyone, as it stands
    BUSY = "busy"  # the server is busy: computers play at a quicker level (text), or again
    # at their own (text == name, their own level)
    # Local tables only (the server's protocol makes none of these): the Palm game's settings.
    AUTOPASS = "autopass"  # both autopass switches, at once (``value``: the two flags)
    LEVEL = "level"  # every computer seat plays at ``value["level"]`` from the next deal
    RULES = "rules"  # the rules of the next game (``value``: preset and options)
    CUSTOM = "custom"  # a seat's chosen cards for a coming deal (``value``: deal, cards)
    REPLAY = "replay"  # between deals: the next deal is the one just played, dealt again
    RENAME = "rename"  # a seat's new name (``name``), as typed in Preferences
    UNDO = "undo"  # the one person at a table of computers takes back their last play
    # Big 2 RevolutioN (preset ``revolution``): the turn's other phases.
    ACTIVATE = "activate"  # a Character card for its function (``cards``; ``target``: a seat)
    COUNTER = "counter"  # a Revolution Q (``cards``) cancels the function just activated
    DECLINE = "decline"  # the seat lets the function stand (``by``: its player, a computer,
    # or the counter clock)
    DRAW = "draw"  # after a pass: a card of the Gathering (``cards``), or the deck (None)
    STOP = "stop"  # after a pass: draw no more


class By(StrEnum):
    """Who made an ``act``: the seat's player, a computer, or the turn timer."""

    PLAYER = "player"
    COMPUTER = "computer"
    TIMER = "timer"


# The operations that are moves of a seat in the deal: their ``cards`` and maker are stored.
MOVES = frozenset({Op.ACT, Op.ACTIVATE, Op.COUNTER, Op.DECLINE, Op.DRAW, Op.STOP})
_OPS = frozenset(Op)
_BYS = frozenset(By)


@dataclass(frozen=True, slots=True)
class Command:
    """One input to a table. Only the fields an operation uses are set.

    ``seen`` is the newest event number the sender had seen (for the staleness check); it is
    never stored, because a stored command was already accepted. ``avatar`` is the picture a
    joining player chose (0 to 7, or None); ``text`` is a chat line, the new table's code
    for ``rematch``, why a seat was freed for ``leave``, or the computer's level for
    ``computer``; ``target`` is the seat a host command is about (``seat`` is the host's own);
    ``value`` the plain JSON data of a setting: the table's settings a host's ``settings``
    sets, or a local table's ``autopass``, ``level``, ``rules`` or ``custom``.

    Under the revolution expansion ``cards`` is a mask of the 104 cards: for ``activate``
    the Character card, with an exchange's normal card beside it (and ``target`` the seat
    it goes to); for ``counter`` the Revolution Q; for ``draw`` the Gathering card taken
    (None: the deck's top card, which nobody knows before it is drawn).

    >>> c = Command(Op.ACT, seat=2, cards=3, id="a1", seen=7)
    >>> Command.from_log(c.to_log())
    Command(op=<Op.ACT: 'act'>, seat=2, cards=3, id='a1', seen=None, by=<By.PLAYER: 'player'>, name='', text='', token='', ready=True, avatar=None, target=None, value=None)
    """

    op: Op
    seat: int | None = None
    cards: Mask | None = None
    id: str = ""
    seen: int | None = None
    by: By = By.PLAYER
    name: str = ""
    text: str = ""
    token: str = ""
    ready: bool = True
    avatar: int | None = None
    target: int | None = None
    value: Any = None

    def __post_init__(self) -> None:
        # Callers may name an operation by its plain string (a stored log, a test): the
        # command always holds the members, so every comparison and the stored form agree,
        # and a command no table knows cannot be made at all.
        if type(self.op) is Op and type(self.by) is By:
            return  # (the server's own commands: members already, checked for nothing)
        if self.op not in _OPS or self.by not in _BYS:
            raise ValueError(
                f"Unknown command {self.op!r} (known: {', '.join(Op)})"
                if self.op not in _OPS
                else f"Unknown maker of an act {self.by!r} (known: {', '.join(By)})"
            )
        object.__setattr__(self, "op", Op(self.op))
        object.__setattr__(self, "by", By(self.by))

    def to_log(self) -> dict[str, Any]:
        """The stored form: only fields that differ from the defaults, never ``seen``."""
        out: dict[str, Any] = {"op": self.op.value}
        if self.seat is not None:
            out["seat"] = self.seat
        if self.op in MOVES:
            if self.op not in (Op.DECLINE, Op.STOP):
                out["cards"] = self.cards
            if self.by != By.PLAYER:
                out["by"] = self.by.value
        if self.id:
            out["id"] = self.id
        for key in ("name", "text", "token"):
            value = getattr(self, key)
            if value:
                out[key] = value
        if self.op == Op.READY:
            out["ready"] = self.ready
        if self.avatar is not None:
            out["avatar"] = self.avatar
        if self.target is not None:
            out["target"] = self.target
        if self.value is not None:
            out["value"] = self.value
        return out

    @classmethod
    def from_log(cls, data: dict[str, Any]) -> Command:
        return cls(
            op=data["op"],
            seat=data.get("seat"),
            cards=data.get("cards"),
            id=data.get("id", ""),
            by=data.get("by", By.PLAYER),
            name=data.get("name", ""),
            text=data.get("text", ""),
            token=data.get("token", ""),
            ready=data.get("ready", True),
            avatar=data.get("avatar"),
            target=data.get("target"),
            value=data.get("value"),
        )
