"""The room request, as declared to clients (and published in /openapi.json), and its check.

:func:`table_config` checks a request made by a stranger (the HTTP lobby) against
:class:`RoomRequest` and the rules and builds the :class:`~bigtwo.service.config.TableConfig`,
saying in words what is wrong; it never trusts a field it did not check. It stands above
:mod:`.config` (which never imports it) because it needs pydantic, which a local table never
does.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError, field_validator

from ..engine.errors import BigTwoError
from ..engine.rules import Rules, expansion_preset_names, preset_names
from ..match.match import SeatKind
from ..match.settings import RuleSet
from .config import (
    DEFAULT_BETWEEN_DEALS,
    DEFAULT_LEVEL,
    DEFAULT_PUBLIC_TURN,
    MAX_DEALS,
    MAX_NAME,
    MAX_SEED,
    MAX_TITLE,
    MAX_TYPED,
    ConfigError,
    SeatConfig,
    TableConfig,
    clean_text,
)
from .declare import (
    MAX_RULE_DEPTH,
    MAX_RULE_LIST,
    MAX_RULE_NUMBER,
    MAX_RULE_OPTIONS,
    MAX_RULE_TEXT,
    Declared,
    check_rule_options,
    words,
)


def _seconds(low: float, high: float, default: float | None, doc: str) -> Any:
    return Field(
        default=default, ge=low, le=high, description=doc, json_schema_extra={"x-unit": "seconds"}
    )


class SeatRequest(Declared):
    """One seat of a room request (or its shorthand ``"human"``, ``"computer:LEVEL"``)."""

    kind: Literal["human", "computer"] = "human"
    level: str = Field(
        default=DEFAULT_LEVEL, max_length=40, description="A computer level (GET /api)"
    )
    name: str = Field(default="", max_length=MAX_TYPED, description=f"Cut to {MAX_NAME} characters")


def _seat_shorthand(value: Any) -> Any:
    """``"human"``, ``"computer"`` or ``"computer:strong"`` as the seat object it stands for."""
    if isinstance(value, str):
        kind, _, level = value.partition(":")
        return {"kind": kind, "level": level or DEFAULT_LEVEL}
    return value


_Shorthand = Annotated[
    str,
    Field(
        pattern=r"^(human|computer)(:[A-Za-z0-9_.-]{1,40})?$",
        description='"human", "computer" or "computer:LEVEL"',
    ),
]
SeatRequestOrShorthand = Annotated[
    SeatRequest,
    BeforeValidator(_seat_shorthand, json_schema_input_type=_Shorthand | SeatRequest),
]


class RoomRequest(Declared):
    """A request to create a room: every field optional (``POST /api/rooms``)."""

    preset: str = Field(
        default="textbook",
        max_length=40,
        json_schema_extra={"enum": [*preset_names(), *expansion_preset_names()]},
    )
    rules: dict[str, Any] = Field(
        default_factory=dict,
        max_length=MAX_RULE_OPTIONS,
        description=(
            "Rule options over the preset (see `bigtwo rules show PRESET`). Each value is true "
            f"or false, a number from {-MAX_RULE_NUMBER} to {MAX_RULE_NUMBER}, text of at most "
            f"{MAX_RULE_TEXT} characters, or a list (at most {MAX_RULE_LIST} items) or object "
            f"(at most {MAX_RULE_OPTIONS} keys) of these, at most {MAX_RULE_DEPTH} deep."
        ),
    )
    seats: list[SeatRequestOrShorthand] | None = Field(
        default=None,
        min_length=2,
        max_length=4,
        description="One entry per seat; default the preset's number of human seats",
    )
    players: int | None = Field(
        default=None, ge=2, le=4, description="All-human seats, when 'seats' is absent"
    )
    deals: int | None = Field(
        default=None, ge=1, le=MAX_DEALS, description="Deals in the match; default the preset's"
    )
    seed: int | None = Field(
        default=None,
        ge=-MAX_SEED,
        le=MAX_SEED,
        description="Only on servers run with --allow-seeds",
    )
    turn_seconds: float | None = _seconds(
        0.2,
        3600.0,
        None,
        f"Turn timer; null: none; default {DEFAULT_PUBLIC_TURN:g} in a public room with more "
        "than one human seat, else none",
    )
    away_seconds: float | None = _seconds(
        0.1, 86400.0, 60.0, "A computer plays for a player away this long; null: never"
    )
    computer_delay: float | None = _seconds(0.0, 10.0, 0.0, "A computer's pause before acting")
    takeover_level: str = Field(default=DEFAULT_LEVEL, max_length=40, description="See GET /api")
    autopass: bool | None = None
    autopass_five: bool | None = None
    title: str = Field(default="", max_length=MAX_TITLE)
    public: bool | None = Field(
        default=None,
        description="Listed in the lobby; false: a private room, with a 12-letter code (which "
        "players join with) that spectators can watch only with its invitation link; null "
        "(the default): listed, but private when every seat but one is a computer's",
    )
    spectators: bool = True
    spectator_chat: bool = Field(
        default=False, description="Spectators may chat (among themselves); default not"
    )
    assists: bool = Field(
        default=True,
        description="The coach during the match: each player's beliefs panel and reviews of "
        "finished deals; false: off for everyone until the match is over",
    )
    between_deals_seconds: float | None = _seconds(
        0.0,
        600.0,
        None,
        "Most seconds between deals (the next starts sooner when every player says next); "
        f"null: no limit; default {DEFAULT_BETWEEN_DEALS:g} with a turn timer, else null (the "
        "players' next)",
    )

    @field_validator("rules")
    @classmethod
    def _bounded_rules(cls, value: dict[str, Any]) -> dict[str, Any]:
        # Only the shape of the values: which options exist is the rules' own check.
        check_rule_options(value)
        return value


@cache
def room_request_schema() -> dict[str, Any]:
    """The JSON schema of :class:`RoomRequest`, with its seats' in ``$defs``."""
    return RoomRequest.model_json_schema()


def table_config(
    data: Any, *, allow_seed: bool = False, rng: random.Random | None = None
) -> TableConfig:
    """Check a room request (parsed JSON) against :class:`RoomRequest` and the rules, and
    build the configuration.

    >>> c = table_config({"preset": "palm", "seats": ["human", "computer:random"]})
    Traceback (most recent call last):
    ...
    bigtwo.service.config.ConfigError: palm is played by 4 players, not 2
    >>> c = table_config({"seats": ["human", "computer", "computer", "human"]})
    >>> [str(s.kind) for s in c.seats], c.preset
    (['human', 'computer', 'computer', 'human'], 'textbook')
    """
    from ..bots import bot_names  # late: the bot registry imports every level

    if not isinstance(data, Mapping):
        raise ConfigError("The room request must be a JSON object")
    try:
        request = RoomRequest.model_validate(dict(data))
    except ValidationError as exc:
        raise ConfigError(words(exc, room_request_schema(), "room option")) from None
    known = (*preset_names(), *expansion_preset_names())
    if request.preset not in known:
        raise ConfigError(f"Unknown preset {request.preset!r} (known: {', '.join(known)})")
    try:
        rules = RuleSet.preset(request.preset).replace(origin="rules", **request.rules)
    except BigTwoError as exc:
        raise ConfigError(str(exc)) from None
    if request.deals is None and rules.match.deals_per_game > MAX_DEALS:
        # the rules' own length of a game is bounded as a room's "deals" is
        raise ConfigError(
            f"A room plays at most {MAX_DEALS} deals, not {rules.match.deals_per_game} "
            "(rules.deals_per_game)"
        )
    game = rules.rules.game
    levels = bot_names(game)  # the levels that play the game (an expansion: so far)
    said = [(f"Seat {i}", s.level) for i, s in enumerate(request.seats or ()) if s.kind != "human"]
    for who, level in [*said, ("The takeover level", request.takeover_level)]:
        if level in bot_names() and level not in levels:
            raise ConfigError(
                f"{who}: the {level} computer does not play {game} yet "
                f"(levels that do: {', '.join(levels)})"
            )
    seats = _seats(request, rules.rules, levels)
    if request.seed is not None and not allow_seed:
        raise ConfigError("This server does not accept a chosen seed")
    if request.seed is not None:
        seed = request.seed
    else:
        seed = (rng or random.SystemRandom()).randrange(1 << 62)
    if request.takeover_level not in levels:
        raise ConfigError(
            f"Unknown computer level {request.takeover_level!r} (known: {', '.join(levels)})"
        )
    given = request.model_fields_set
    # A room nobody else can sit down at (one human seat, the others computers') is a
    # beginner's practice: unlisted and untimed unless asked for. Other rooms are listed,
    # and timed when listed (strangers there cannot stall it by sitting still).
    alone = sum(1 for s in seats if s.kind == SeatKind.HUMAN) <= 1
    public = request.public if request.public is not None else not alone
    turn = (
        request.turn_seconds
        if "turn_seconds" in given or not public or alone
        else DEFAULT_PUBLIC_TURN
    )
    # The next deal never starts under an open score sheet: tables with a turn timer wait a
    # little between deals by default (so nobody reading it is timed out on the next deal's
    # first turn), and tables without one wait until every player has said "next".
    between = (
        request.between_deals_seconds
        if "between_deals_seconds" in given
        else DEFAULT_BETWEEN_DEALS
        if turn is not None and not alone
        else None
    )
    return TableConfig(
        preset=request.preset,
        rules=dict(request.rules),
        seats=seats,
        deals=request.deals,
        seed=seed,
        seeded=request.seed is not None,
        turn_seconds=turn,
        away_seconds=request.away_seconds,
        computer_delay=request.computer_delay or 0.0,
        takeover_level=request.takeover_level,
        autopass=request.autopass,
        autopass_five=request.autopass_five,
        title=clean_text(request.title, MAX_TITLE),
        public=public,
        spectators=request.spectators,
        spectator_chat=request.spectator_chat,
        assists=request.assists,
        between_deals_seconds=between,
        invite="" if public else secrets.token_urlsafe(12),
    )


def _seats(request: RoomRequest, rules: Rules, levels: list[str]) -> tuple[SeatConfig, ...]:
    raw = request.seats
    if raw is None:
        raw = [SeatRequest()] * (request.players or rules.default_players)
    if len(raw) not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise ConfigError(f"{rules.name} is played by {allowed} players, not {len(raw)}")
    seats: list[SeatConfig] = []
    for i, item in enumerate(raw):
        kind = SeatKind(item.kind)
        if kind == SeatKind.COMPUTER and item.level not in levels:
            raise ConfigError(
                f"Seat {i}: unknown computer level {item.level!r} ({', '.join(levels)})"
            )
        seats.append(SeatConfig(kind=kind, level=item.level, name=clean_text(item.name, MAX_NAME)))
    if all(s.kind == SeatKind.COMPUTER for s in seats):
        # A table of computers only would play itself out with nobody to watch for.
        raise ConfigError("At least one seat must be for a human player")
    return tuple(seats)
