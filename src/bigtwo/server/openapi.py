"""The OpenAPI 3.1 description of the HTTP lobby API, served at ``/openapi.json``.

Its schemas are generated from declarations, never written twice: the requests from the
models the server checks bodies against (:class:`~bigtwo.service.request.RoomRequest`,
:class:`~bigtwo.protocol.JoinRequest`, …), the WebSocket's client messages from their
tagged union, and the answers from the models below, which tests hold the real answers to.
The paths are listed here, each with its answers and errors; a test checks that they are the
application's routes. The table protocol itself is described in docs/protocol.md.
"""

from __future__ import annotations

from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, Field
from pydantic.json_schema import models_json_schema

from .. import __version__
from ..protocol import (
    MESSAGE_ADAPTER,
    PROTOCOL,
    BeliefsRequest,
    CloseRequest,
    JoinRequest,
    MineRequest,
    RematchRequest,
    ReviewRequest,
    RoomsQuery,
)
from ..service.declare import Declared
from ..service.request import RoomRequest
from .openapi_parts import GUESSED, LIMITED, NO_ROOM, NOT_JSON, REF, Answer, _op, _ref
from .openapi_players import ACCOUNT_DECLARED, account_paths

# Characters of a record sent to be read: the longest game a preset plays (10 deals) writes
# about 21 kB as text and 66 kB as JSON, so this leaves room to spare.
MAX_RECORD = 256 * 1024
# A record's body may hold that many characters each written as an escaped surrogate pair (12
# bytes), so that a record over its length is refused for its length (422), not its size.
MAX_RECORD_BODY = 12 * MAX_RECORD + 1024


class RecordText(Declared):
    """A match record sent to be read (``POST /api/records/convert``)."""

    record: str = Field(
        max_length=MAX_RECORD,
        description="The record as a file holds it: the text form `bigtwo simulate --out` and "
        "the terminal write (docs/record-format.md), or the JSON form",
    )


# -- the answers ------------------------------------------------------------------------------


class Error(Answer):
    error: str = Field(
        description="bad_json, bad_request, not_json, too_big, headers_too_large, not_found, "
        "not_allowed, no_room, table_full, seat_taken, started, not_over, no_spectators, "
        "not_invited, unauthorized, not_host, finished, busy, unavailable, rate_limited, "
        "too_many_rooms, too_many_seats, bad_record"
    )
    message: str = Field(description="What is wrong, in English words")
    params: dict[str, str | int] = Field(
        description="The details a client words the refusal with in its own language: cards, "
        "numbers, a table's code, and a `reason` that narrows the code (docs/protocol.md)"
    )


class ServerInfo(Answer):
    server: str
    protocol: int
    presets: list[str]
    levels: list[str] = Field(description="Computer levels")


class Preset(Answer):
    name: str
    players: list[int]
    source: str
    deals: int
    levels: list[str] | None = Field(
        None,
        description="The computer levels that play this preset (an expansion's); "
        "absent: every level GET /api lists",
    )


class Presets(Answer):
    presets: list[Preset]


class RoomSeat(Answer):
    seat: int
    name: str = Field(description="Plain text, as the player typed it (cleaned)")
    kind: Literal["human", "computer"]
    level: str | None = Field(None, description="A computer seat's level")
    taken: bool
    ready: bool
    control: Literal["player", "computer", "quit"]
    connected: bool
    avatar: int | None


class RoomOptions(Answer):
    turn_seconds: float | None
    away_seconds: float | None
    computer_delay: float
    takeover_level: str
    autopass: bool | None
    autopass_five: bool | None
    public: bool
    spectators: bool
    spectator_chat: bool
    seeded: bool
    between_deals_seconds: float | None
    assists: bool = Field(description="Whether the coach helps during the match")


class DealSummary(Answer):
    deal: int
    winner: int
    points: list[int]
    counts: list[int]
    left: list[str] = Field(description="Each seat's cards left (public once the deal is over)")
    multipliers: list[int] = Field(description="1: none, 2: DOUBLE!, 3: TRIPLE!")


class NextDeal(Answer):
    deal: int
    seconds: float | None = Field(description="The longest wait; null: no limit")
    waiting: list[int] = Field(description="Seats whose players have not said next")


class OpenRoom(Answer):
    code: str
    title: str = Field(description="Plain text, as typed (cleaned)")
    status: Literal["waiting", "playing", "finished"]
    preset: str
    players: int
    deals: int
    options: RoomOptions
    seats: list[RoomSeat]
    host: int | None = Field(description="The host's seat: the first player to sit down")


class Rooms(Answer):
    rooms: list[OpenRoom] = Field(description="Newest first")
    next: int | None = Field(description="The cursor of the next page; null: the last page")
    total: int = Field(description="Open rooms listed in all")


class Room(OpenRoom):
    closed: str = Field(description="Why a finished table closed")
    rules: dict[str, Any] = Field(description="Every rule option")
    deal: int
    totals: list[int]
    results: list[DealSummary]
    next_deal: NextDeal | None
    rematch: str | None = Field(description="The code of the table opened for a new game")
    v: int = Field(description="Newest event number")


class RoomAnswer(Answer):
    ws: str
    link: str
    room: Room


class RoomCreated(RoomAnswer):
    code: str
    invite: str | None = Field(
        None, description="A private room's invitation key (only in this answer)"
    )
    watch_link: str | None = Field(
        None, description="A private room's invitation link, for spectators"
    )


class HeldRoom(RoomAnswer):
    seat: int = Field(description="The seat the token holds there")


class MyRooms(Answer):
    rooms: list[HeldRoom] = Field(
        description="The rooms still being played where a token given holds its seat"
    )
    gone: list[str] = Field(
        description="The codes whose token holds no seat now (the room is over or gone, or "
        "the seat was given up): forget them. A code in neither list was not looked up now "
        "(this address asked for too many unknown codes): ask again later"
    )


class Joined(Answer):
    code: str
    role: Literal["player", "spectator"]
    seat: int | None
    token: str = Field(description="Secret: say hello with it")
    ws: str
    link: str


class Rematch(Joined):
    room: Room


class Stats(Answer):
    tables: int
    playing: int
    waiting: int
    connections: int
    uptime_s: float
    loop_lag_ms_max: float
    thinking: dict[str, Any] = Field(
        description="Computer players: mode, workers, moves, fallbacks (out of time), "
        "stepped_down (moves played at a quicker level while the pool was contended), "
        "in_flight, waiting (decisions waiting for a worker), ms_mean, ms_max, wait_ms_max "
        "(the longest wait for a worker since last asked)"
    )
    rss_mb: float
    peak_rss_mb: float


class ReviewedDecision(Answer):
    step: int = Field(description="The actions of the deal before this decision")
    mark: Literal["forced", "fine", "inaccuracy", "mistake", "blunder"]
    move: str = Field(description="The move played, in words (`pass`)")
    move_cards: str | None = Field(description="Its cards in notation; null: a pass")
    lost: float = Field(description="Points lost against the better move, never below 0")
    better: str | None = Field(None, description="The best alternative found (rated moves)")
    better_cards: str | None = None
    loss: float | None = Field(None, description="Points lost (negative: the move was better)")
    se: float | None = Field(None, description="The standard error of `loss`")
    hand: str = Field(description="The seat's own cards before the decision")
    counts: list[int] = Field(description="Every seat's cards left then")
    table: str | None = Field(description="The play to beat then; null: a lead")
    table_seat: int | None


class DealReviewed(Answer):
    deal: int
    seat: int
    scale: float = Field(description="The rule set's scale the marks are shares of")
    accuracy: float | None = Field(description="The share of rated decisions marked fine")
    decisions: list[ReviewedDecision]
    costliest: list[int] = Field(description="Up to three decisions (indices), costliest first")


class ReviewAnswer(Answer):
    status: Literal["done", "pending"]
    review: DealReviewed | None = Field(None, description="Once done")
    done: int | None = Field(None, description="While pending: the decisions judged so far")
    total: int | None = Field(None, description="While pending: the decisions to judge")


class ChanceAnswer(Answer):
    p: float
    se: float = Field(description="0 where counted exactly")
    exact: bool


class OpponentBeliefs(Answer):
    seat: int
    cards: int = Field(description="Its cards (in Big 2 RevolutioN: its normal cards)")
    starred: int | None = Field(None, description="Big 2 RevolutioN: its Revolution cards")
    chances: dict[str, ChanceAnswer | None] = Field(
        description="two, ace, beats_single (null: no single on the table), pair, triple, "
        "five (each of the last three: one that beats the play on the table when 'beating' "
        "is its number of cards)"
    )


class BeliefsAnswer(Answer):
    game: str = Field("bigtwo", description="bigtwo (52 cards) or revolution")
    seat: int
    deal: int
    proofs: int = Field(description="The passes that proved something")
    worlds: int = Field(description="The worlds sampled for what counting does not reach")
    beating: int = Field(description="The cards of the play on the table (0: none)")
    opponents: list[OpponentBeliefs]


DECLARED: tuple[type[BaseModel], ...] = (
    *ACCOUNT_DECLARED,
    RoomRequest,
    JoinRequest,
    RematchRequest,
    CloseRequest,
    MineRequest,
    ReviewRequest,
    BeliefsRequest,
    RecordText,
    Error,
    ServerInfo,
    Presets,
    Rooms,
    RoomAnswer,
    RoomCreated,
    Joined,
    Rematch,
    MyRooms,
    Stats,
    ReviewAnswer,
    BeliefsAnswer,
)


@cache
def schemas() -> dict[str, Any]:
    """Every component schema, by name, from the declarations."""
    _, top = models_json_schema([(m, "validation") for m in DECLARED], ref_template=REF)
    out: dict[str, Any] = dict(top["$defs"])
    union: dict[str, Any] = MESSAGE_ADAPTER.json_schema(ref_template=REF)
    out.update(union.pop("$defs"))
    out["ClientMessage"] = {
        **union,
        "description": "A message a client sends on the table WebSocket (docs/protocol.md)",
    }
    return out


# -- the paths --------------------------------------------------------------------------------


def _coach_op(*, review: bool) -> dict[str, Any]:
    """The coach's two routes (:mod:`bigtwo.server.coach`)."""
    during = "assists_off: the host turned the coach off for this match"
    if review:
        op = _op(
            "The review of one seat's decisions in a finished deal",
            "ReviewAnswer",
            {
                400: "Bad request body",
                403: "unauthorized: during the match, a player reviews their own seat only "
                f"(params.reason: spectator, other_seat); {during}",
                **NO_ROOM,
                409: "not_over: the deal is still being played (params.reason: deal)",
                **NOT_JSON,
                503: "busy: as many reviews are under way as the server computes at once; "
                "unavailable: the review failed (asked again, it starts afresh)",
            },
            body="ReviewRequest",
            room=True,
            description="The first request starts the review in the server's worker pool and "
            "is answered 202 `pending` (with the decisions judged so far); ask again until it "
            "is answered 200 `done`. A review is computed once (drawn from the room's seed) "
            "and kept. No such finished deal: 404 no_deal.",
        )
        op["responses"]["202"] = {
            "description": "pending: ask again in a moment",
            "content": {"application/json": {"schema": _ref("ReviewAnswer")}},
        }
    else:
        op = _op(
            "What the cards played tell a seated player of each opponent's hand, now",
            "BeliefsAnswer",
            {
                400: "Bad request body",
                403: f"unauthorized: the token holds no seat here; {during}",
                **NO_ROOM,
                409: "not_started, between_deals or finished",
                **NOT_JSON,
            },
            body="BeliefsRequest",
            room=True,
        )
    op["requestBody"]["required"] = True
    return op


def openapi_spec() -> dict[str, Any]:
    finished = {
        404: "No such room, or no match played",
        409: "not_over: still being played",
        **GUESSED,
    }
    text = {
        "200": {"description": "Text", "content": {"text/plain": {"schema": {"type": "string"}}}}
    }
    history = _op("The finished match's history as text", None, finished, room=True)
    history["responses"].update(text)
    record = _op("The finished match as a JSON record (every hand)", None, finished, room=True)
    record["responses"]["200"]["content"] = {"application/json": {"schema": {"type": "object"}}}
    convert = _op(
        "A match record read and given back in its JSON form",
        None,
        {
            400: "Bad request body",
            413: f"too_big: a body over {MAX_RECORD_BODY // 1024} KiB",
            **NOT_JSON,
            422: "bad_record",
            **LIMITED,
        },
        body="RecordText",
        description="The record is read by the server's reader, which replays every play "
        "(`bigtwo record convert --format json`): the 52-card game's JSON form, or a game of "
        "Big 2 RevolutioN's text record inside JSON with its seats and totals, as "
        "`GET /api/rooms/{code}/record` answers. The browser's replay viewer sends the text "
        "records it is given here.",
    )
    convert["responses"]["200"]["content"] = {"application/json": {"schema": {"type": "object"}}}
    rematch = _op(
        "A new game for the players of a finished table",
        "Rematch",
        {
            400: "Bad request body",
            403: "unauthorized: the token holds no seat here",
            **NO_ROOM,
            409: "not_over, or the new game started without you",
            **NOT_JSON,
            429: "rate_limited: too many requests, or too many codes that name no table",
            503: "The server holds as many tables as it can",
        },
        body="RematchRequest",
        status=201,
        room=True,
        description="Opens a table with the same options and rules (a new shuffle), the same "
        "computer players, and every player still at this table seated where they sat; each "
        "connected player gets its token there in the `rematch` event. Asked again, it "
        "answers 200 with the same table.",
    )
    mine = _op(
        "The rooms your seats are at",
        "MyRooms",
        {400: "Bad request body", **NOT_JSON, **GUESSED},
        body="MineRequest",
        description="Send each seat you were given (the room's code and the seat's token): "
        "the answer lists the rooms still being played where the token holds its seat, and "
        "the codes whose token holds nothing now. A wrong token is answered as a room that "
        "does not exist: nobody learns of anyone else's rooms. Codes that name no table "
        "count against the address's allowance of unknown codes, as every lookup's do.",
    )
    close = _op(
        "Close the room (its host only)",
        "RoomAnswer",
        {
            400: "Bad request body",
            403: "unauthorized: the token holds no seat here; not_host: only the host may",
            **NO_ROOM,
            409: "finished: the room is closed already",
            **NOT_JSON,
            429: "rate_limited: too many requests, or too many codes that name no table",
        },
        body="CloseRequest",
        room=True,
        description="The room ends for everyone at once, the match where it stands: each "
        "connection gets a `closed` event (reason `host closed the room`). It is kept as a "
        "finished table (its record, once a match was played) and no longer counts among "
        "the open rooms of the address that made it.",
    )
    rooms = _op(
        "Open rooms: public tables still waiting for players, a page at a time",
        "Rooms",
        {400: "bad_request: a query parameter is unknown or out of range"},
    )
    query = RoomsQuery.model_json_schema()
    rooms["parameters"] = [
        {
            "name": name,
            "in": "query",
            "required": False,
            "description": field.get("description", ""),
            "schema": {k: v for k, v in field.items() if k not in ("description", "title")},
        }
        for name, field in query["properties"].items()
    ]
    share = _op(
        "Share link: to the browser client (307), or the room", "RoomAnswer", NO_ROOM, room=True
    )
    share["responses"]["307"] = {
        "description": "To the browser client, which opens the room (/?room=CODE)",
        "headers": {"Location": {"schema": {"type": "string"}}},
    }
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "bigtwo game server",
            "version": __version__,
            "description": (
                "Lobby API of the Big Two game server. Tables are played over the WebSocket "
                f"`/ws/{{code}}` with the JSON table protocol version {PROTOCOL} described in "
                "docs/protocol.md (its client messages: the ClientMessage schema). Errors are "
                "JSON objects with a machine `error` code and a `message` in words. Text "
                "people typed (names, titles, chat) is sent as plain text: escape it to show it."
            ),
        },
        "paths": {
            "/api": {
                "get": _op("Server, protocol, rule presets and computer levels", "ServerInfo")
            },
            "/api/presets": {"get": _op("The rule presets a room may use", "Presets")},
            "/api/rooms": {
                "get": rooms,
                "post": _op(
                    "Create a room",
                    "RoomCreated",
                    {
                        400: "bad_json",
                        413: "Body too large",
                        **NOT_JSON,
                        422: "An option is unknown or out of range (the message says which)",
                        429: "rate_limited: too many rooms made from this address lately; "
                        "too_many_rooms: as many open rooms as one address may have",
                        503: "The server holds as many tables as it can",
                    },
                    body="RoomRequest",
                    status=201,
                ),
            },
            "/api/my-rooms": {"post": mine},
            "/api/rooms/{code}": {
                "get": _op(
                    "One room: seats, status, scores (no cards, no seed)",
                    "RoomAnswer",
                    NO_ROOM,
                    room=True,
                )
            },
            "/api/rooms/{code}/join": {
                "post": _op(
                    "Take a seat (or watch) and get the token to say hello with",
                    "Joined",
                    {
                        400: "Bad request body",
                        403: "no_spectators, or not_invited: a private room's invitation "
                        "key is needed to watch",
                        **NO_ROOM,
                        409: "table_full, seat_taken, or started",
                        **NOT_JSON,
                        429: "rate_limited (too many requests, or too many codes that name "
                        "no table: params.seconds), or too_many_seats: this address holds as "
                        "many seats it has not connected to as it may",
                    },
                    body="JoinRequest",
                    room=True,
                )
            },
            "/api/rooms/{code}/rematch": {"post": rematch},
            "/api/rooms/{code}/close": {"post": close},
            "/api/rooms/{code}/record": {"get": record},
            "/api/rooms/{code}/history": {"get": history},
            "/api/rooms/{code}/review": {"post": _coach_op(review=True)},
            "/api/rooms/{code}/beliefs": {"post": _coach_op(review=False)},
            "/api/records/convert": {"post": convert},
            "/r/{code}": {"get": share},
            "/api/stats": {
                "get": _op(
                    "Load: tables, connections, memory, computers (for the operator)",
                    "Stats",
                    {403: "unauthorized: no or a wrong operator token, or stats are off"},
                    description=(
                        "Send `Authorization: Bearer TOKEN` with the token the server was "
                        "started with (`bigtwo serve --stats-token`, or BIGTWO_STATS_TOKEN); a "
                        "server started without one refuses stats to everyone."
                    ),
                )
            },
            "/healthz": {"get": _op("Liveness", None)},
            "/openapi.json": {"get": _op("This document", None)},
            **account_paths(),
        },
        "components": {"schemas": schemas()},
    }
