"""The table protocol's constants, the declaration of every message a client sends, and the
names of everything the server sends.

A client message is one JSON object per WebSocket text frame, with a ``type`` and the fields
that type allows (see docs/protocol.md). Each type is declared once, below, as a strict
pydantic model; together they are one union tagged on ``type``, whose JSON schema the server
publishes and whose declarations also say which rate limit each type counts against.
:func:`parse_message` turns a frame into a checked ``dict`` or raises :class:`BadMessage`
naming what is wrong, so the table code behind it never sees a wrong type, a missing field or
an unknown one. It decides nothing about the game. The server (:mod:`bigtwo.server`) and
the network client (:mod:`bigtwo.client`) both speak it, so it stands below both.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Annotated, Any, ClassVar, Literal, get_args

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from .service.config import MAX_NAME, MAX_TYPED
from .service.declare import Declared, NotJson, parse_json, words
from .service.table import AVATARS, MAX_CHAT

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes of one client frame; larger ones are refused
HARD_MAX_MESSAGE = 65536  # the WebSocket layer closes the connection beyond this
HELLO_TIMEOUT = 10.0  # seconds a new connection has to say hello
ROOMS_PAGE_MAX = 50  # open rooms on one page of the lobby's list

# Close codes (4000-4999 are the application's own).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008  # flooding or repeated bad messages
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_AGAIN = 1013  # too slow to read its messages: reconnect and resync
CLOSE_BAD_HELLO = 4400
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_ROOM = 4404
CLOSE_REPLACED = 4409  # the same seat connected again elsewhere
CLOSE_QUIT = 4410  # the player quit the table, or a finished table was closed

ID_PATTERN = r"^[A-Za-z0-9_.:\-]{1,64}$"
_ID = re.compile(ID_PATTERN)
MAX_CHAT_TYPED = 1000  # characters of a chat line as sent; the table keeps 300


class BadMessage(Exception):
    """A frame that is not a valid client message; ``code`` is a short machine word."""

    def __init__(self, code: str, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.msg_id = msg_id


# -- the client messages, each declared once -------------------------------------------------
ACTION_LIMIT = "actions"  # the rate limit of play, pass and the other table actions
CHAT_LIMIT = "chat"  # the rate limit of chat lines
READY_LIMIT = "ready"  # the rate limit of saying ready (or not ready) before the match
MAX_EVENT_NUMBER = 2**53 - 1  # exact in every JSON reader, JavaScript's included

MessageId = Annotated[
    str, Field(pattern=ID_PATTERN, description="1 to 64 letters, digits or _ . : -")
]
Count = Annotated[int, Field(ge=0, le=MAX_EVENT_NUMBER)]


class ClientMessage(Declared):
    """A message a client sends. ``limit`` names the rate limit it counts against besides
    the one every message does (None: only that one)."""

    limit: ClassVar[str | None] = None


class HelloMessage(ClientMessage):
    """The first message of a connection: who is here (see "Saying hello")."""

    type: Literal["hello"]
    protocol: Count
    token: str = Field(default="", max_length=200, description="A seat or spectator token")
    watch: bool = Field(
        default=False, description="Watch without a token, where the room allows it"
    )
    since: Count = Field(default=0, description="The newest event number the client holds")
    name: str = Field(default="", max_length=MAX_TYPED, description="A spectator's name in chat")
    batch: bool = Field(default=False, description="Take several server messages in one frame")


class PlayMessage(ClientMessage):
    limit = ACTION_LIMIT
    type: Literal["play"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    cards: (
        Annotated[str, Field(max_length=100)]
        | Annotated[list[Annotated[str, Field(max_length=8)]], Field(max_length=20)]
    ) = Field(description='Cards in notation, "3d 3h", or a list of card names')
    seat: Count | None = Field(default=None, description="The client's own seat, if given")

    @field_validator("cards")
    @classmethod
    def _one_text(cls, cards: str | list[str]) -> str:
        return cards if isinstance(cards, str) else " ".join(cards)


class PassMessage(ClientMessage):
    limit = ACTION_LIMIT
    type: Literal["pass"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


# -- the revolution expansion's moves (preset ``revolution``; refused at other tables) ---------
CardName = Annotated[str, Field(max_length=8, description='One card, "Qs*" for a Revolution Q')]


class ActivateMessage(ClientMessage):
    """Activate a Character card for its function; an exchange names the seat given to
    (``target``) and the normal card it gives (``give``)."""

    limit = ACTION_LIMIT
    type: Literal["activate"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    card: CardName
    target: Annotated[int, Field(ge=0, le=3)] | None = Field(
        default=None, description="An exchange: the seat the card goes to"
    )
    give: CardName | None = Field(default=None, description="An exchange: the normal card given")
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


class CounterMessage(ClientMessage):
    """Answer a counter window by cancelling the function with a Revolution Q."""

    limit = ACTION_LIMIT
    type: Literal["counter"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    card: CardName
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


class DeclineMessage(ClientMessage):
    """Answer a counter window by letting the function stand."""

    limit = ACTION_LIMIT
    type: Literal["decline"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


class DrawMessage(ClientMessage):
    """After a pass: take the deck's top card (face down) or a card of the Gathering."""

    limit = ACTION_LIMIT
    type: Literal["draw"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    source: str = Field(max_length=8, description='"deck", or a card of the Gathering')
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


class StopMessage(ClientMessage):
    """After a pass: draw no more."""

    limit = ACTION_LIMIT
    type: Literal["stop"]
    id: MessageId
    v: Count = Field(description="The newest event number the client has seen")
    seat: Count | None = Field(default=None, description="The client's own seat, if given")


class ReadyMessage(ClientMessage):
    limit = READY_LIMIT
    type: Literal["ready"]
    id: MessageId | None = None
    ready: bool = True


class NextMessage(ClientMessage):
    limit = ACTION_LIMIT
    type: Literal["next"]
    id: MessageId | None = None


class ChatMessage(ClientMessage):
    limit = CHAT_LIMIT
    type: Literal["chat"]
    id: MessageId | None = None
    text: str = Field(
        max_length=MAX_CHAT_TYPED, description=f"Cleaned and cut to {MAX_CHAT} characters"
    )


class QuitMessage(ClientMessage):
    limit = ACTION_LIMIT
    type: Literal["quit"]
    id: MessageId | None = None


class SyncMessage(ClientMessage):
    limit = ACTION_LIMIT  # a sync is a whole snapshot: as dear as an action
    type: Literal["sync"]
    id: MessageId | None = None


class KickMessage(ClientMessage):
    """The host removes the player at ``seat``: in the lobby the seat is freed; during the
    match a computer plays it from then on."""

    limit = ACTION_LIMIT
    type: Literal["kick"]
    id: MessageId | None = None
    seat: Annotated[int, Field(ge=0, le=3, description="The seat to free")]


class ComputerMessage(ClientMessage):
    """The host gives ``seat`` (free or taken) to a computer player for good."""

    limit = ACTION_LIMIT
    type: Literal["computer"]
    id: MessageId | None = None
    seat: Annotated[int, Field(ge=0, le=3, description="The seat to give to a computer")]
    level: str = Field(
        default="", max_length=40, description="A computer level (GET /api); default the "
        "table's takeover level",
    )  # fmt: skip


class SettingsMessage(ClientMessage):
    """The host sets the table's timers and whether spectators may watch."""

    limit = ACTION_LIMIT
    type: Literal["settings"]
    id: MessageId | None = None
    turn_seconds: float | None = Field(
        ge=0.2, le=3600.0, description="Turn timer in seconds; null: none"
    )
    away_seconds: float | None = Field(
        ge=0.1, le=86400.0, description="Seconds away before a computer plays; null: never"
    )
    spectators: bool = Field(description="Whether spectators may watch")
    spectator_chat: bool = Field(
        default=False, description="Whether spectators may chat (among themselves); default not"
    )
    assists: bool | None = Field(
        default=None,
        description="Whether the players have the coach's assists (the beliefs panel, the "
        "review of their finished deals); null: unchanged",
    )


class PingMessage(ClientMessage):
    type: Literal["ping"]
    id: MessageId | None = None


MESSAGES: tuple[type[ClientMessage], ...] = (
    HelloMessage,
    ReadyMessage,
    NextMessage,
    PlayMessage,
    PassMessage,
    ChatMessage,
    QuitMessage,
    SyncMessage,
    KickMessage,
    ComputerMessage,
    SettingsMessage,
    PingMessage,
    ActivateMessage,
    CounterMessage,
    DeclineMessage,
    DrawMessage,
    StopMessage,
)
AnyMessage = Annotated[
    HelloMessage
    | ReadyMessage
    | NextMessage
    | PlayMessage
    | PassMessage
    | ChatMessage
    | QuitMessage
    | SyncMessage
    | KickMessage
    | ComputerMessage
    | SettingsMessage
    | PingMessage
    | ActivateMessage
    | CounterMessage
    | DeclineMessage
    | DrawMessage
    | StopMessage,
    Field(discriminator="type"),
]
MESSAGE_ADAPTER: TypeAdapter[ClientMessage] = TypeAdapter(AnyMessage)


def message_type(model: type[ClientMessage]) -> str:
    """The ``type`` a message model is tagged with."""
    tag = model.model_fields["type"].annotation
    return str(get_args(tag)[0])


MESSAGE_TYPES = tuple(message_type(m) for m in MESSAGES)
# Each message type's own rate limit (beside the limit on all messages): the one list.
RATE_LIMITED: dict[str, str] = {message_type(m): m.limit for m in MESSAGES if m.limit}


@cache
def messages_schema() -> dict[str, Any]:
    return MESSAGE_ADAPTER.json_schema()


# -- the lobby's requests (HTTP bodies) ---------------------------------------------------------
class JoinRequest(Declared):
    """Take a seat, or watch (``POST /api/rooms/{code}/join``)."""

    name: str = Field(default="", max_length=MAX_TYPED, description=f"Cut to {MAX_NAME} characters")
    seat: int | None = Field(default=None, ge=0, le=3, description="A free seat; default the first")
    as_: Literal["player", "spectator"] = Field(default="player", alias="as")
    avatar: int | None = Field(
        default=None, ge=0, le=AVATARS - 1, description="The player's picture"
    )
    invite: str = Field(
        default="", max_length=100, description="A private room's invitation key, to watch it"
    )


class RoomsQuery(Declared):
    """Which page of the open rooms to list (``GET /api/rooms?limit=&cursor=``): query
    parameters are text, so whole numbers are read from their digits."""

    model_config = ConfigDict(strict=False, extra="forbid", frozen=True)

    limit: int = Field(default=20, ge=1, le=ROOMS_PAGE_MAX, description="Rooms on the page")
    cursor: int | None = Field(
        default=None,
        ge=1,
        le=MAX_EVENT_NUMBER,
        description="The `next` of the page before; absent: the newest rooms",
    )


class RematchRequest(Declared):
    """A new game for the players of a finished table (``POST /api/rooms/{code}/rematch``)."""

    token: str = Field(min_length=1, max_length=200, description="Your seat token here")


# -- players' accounts (HTTP bodies; bigtwo.server.accounts) ----------------------------------
MAX_PASSWORD = 200  # characters of a password; at least MIN_PASSWORD
MIN_PASSWORD = 8


class SignInRequest(Declared):
    """Register (``POST /api/account/register``) or sign in (``POST /api/account/sign-in``)."""

    name: str = Field(min_length=1, max_length=MAX_TYPED, description="Your player's name")
    password: str = Field(min_length=1, max_length=MAX_PASSWORD)


class PasswordRequest(Declared):
    """Change the password (``POST /api/account/password``), or delete the account with it
    (``POST /api/account/delete``: ``new`` left out)."""

    password: str = Field(min_length=1, max_length=MAX_PASSWORD, description="The password now")
    new: str = Field(default="", max_length=MAX_PASSWORD, description="The new password")


class SeatToken(Declared):
    """A seat's token: kept with the account (``POST /api/account/seats``), or the host's,
    to make the room rated (``POST /api/rooms/{code}/rated``)."""

    code: str = Field(default="", max_length=12, description="The table's code (seats only)")
    token: str = Field(min_length=1, max_length=200, description="Your seat token there")


class CloseRequest(Declared):
    """The host closes a room (``POST /api/rooms/{code}/close``): it ends for everyone."""

    token: str = Field(min_length=1, max_length=200, description="The host's seat token there")


MINE_MAX = 30  # seats asked about at once (the browser keeps its newest 30 tables)


class HeldSeat(Declared):
    """A seat a client was given: the room's code and the seat's token."""

    code: str = Field(min_length=1, max_length=12, description="The room's code")
    token: str = Field(min_length=1, max_length=200, description="The seat's token there")


class MineRequest(Declared):
    """Which of these seats still hold a seat at a room being played
    (``POST /api/my-rooms``)."""

    seats: list[HeldSeat] = Field(max_length=MINE_MAX, description="The seats a client holds")


class ReviewRequest(Declared):
    """Review one seat's decisions in a finished deal (``POST /api/rooms/{code}/review``)."""

    deal: int = Field(ge=1, le=1000, description="The deal, numbered from 1")
    seat: int | None = Field(
        default=None, ge=0, le=3, description="The seat reviewed; default the token's"
    )
    token: str = Field(
        default="",
        max_length=200,
        description="Your seat token: during the match a player reviews their own seat only",
    )


class BeliefsRequest(Declared):
    """What the cards played tell a seated player now (``POST /api/rooms/{code}/beliefs``)."""

    token: str = Field(min_length=1, max_length=200, description="Your seat token")


# -- what the server sends: the event and message types (fields: docs/protocol.md) -------------
EVENT_TYPES = (
    "joined", "left", "ready", "started", "deal", "hand", "turn", "action", "deal_end",
    "next", "match_end", "chat", "control", "quit", "closed", "rematch", "host", "settings", "busy",
    # Only local tables (the terminal game) send these: the protocol has no command for them.
    "autopass", "level", "rules", "custom", "replay", "renamed",
    "undo",
    # Only revolution tables send these: a counter window's prompt, and an answer taken.
    "counter", "answered",
)  # fmt: skip
SERVER_MESSAGE_TYPES = ("welcome", "sync", "ack", "error", "pong", "bye", "presence", "clock")


def parse_message(frame: str | bytes | None) -> dict[str, Any]:
    """Check one client frame against its declaration; return the message as a ``dict``
    (every field, defaults filled in, ``cards`` as one text) or raise :class:`BadMessage`."""
    if frame is None:
        raise BadMessage("bad_message", "Send messages as text frames of JSON")
    size = len(frame.encode("utf-8")) if isinstance(frame, str) else len(frame)
    if size > MAX_MESSAGE:
        raise BadMessage("too_big", f"A message may be at most {MAX_MESSAGE} bytes, not {size}")
    if isinstance(frame, bytes):
        raise BadMessage("bad_message", "Send messages as text frames of JSON, not binary")
    try:  # the common case, read and checked in one pass against the same declarations
        return _fields(MESSAGE_ADAPTER.validate_json(frame))
    except ValidationError:
        pass  # whatever is wrong with it is found, and said in words, the long way
    try:
        message = parse_json(frame)
    except NotJson:
        raise BadMessage("bad_json", "That is not valid JSON") from None
    if not isinstance(message, dict):
        raise BadMessage("bad_message", "A message must be a JSON object")
    raw_id = message.get("id")
    msg_id = raw_id if isinstance(raw_id, str) and _ID.fullmatch(raw_id) else None
    kind = message.get("type")
    if not isinstance(kind, str):
        raise BadMessage("bad_message", "A message needs a 'type'", msg_id)
    if kind not in MESSAGE_TYPES:
        known = ", ".join(sorted(MESSAGE_TYPES))
        raise BadMessage(
            "unknown_type", f"Unknown message type {kind[:40]!r} (known: {known})", msg_id
        )
    try:
        checked = MESSAGE_ADAPTER.validate_python(message)
    except ValidationError as exc:
        said = words(exc, messages_schema(), tagged=True, subject=f"A '{kind}' message")
        raise BadMessage("bad_message", said, msg_id) from None
    return _fields(checked)


def _fields(message: ClientMessage) -> dict[str, Any]:
    """A checked message's fields as they are (a copy of the model's own dict: ``dict(model)``
    walks them in Python, at twice the cost of checking the whole frame)."""
    return dict(message.__dict__)
