"""A table's configuration: rule preset and options, seats (human or computer), timers.

:class:`TableConfig` is plain data that round-trips through JSON, because it is the first
thing stored for a table and the one thing, with the command log, needed to rebuild it after a
restart. :meth:`TableConfig.from_request` checks a request made by a stranger (the HTTP
lobby) and says in words what is wrong; it never trusts a field it did not check. This module
plays no cards and keeps no state.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from functools import cache
from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, ValidationError, field_validator

from ..engine.errors import BigTwoError
from ..engine.rules import Rules, preset_names
from ..match.match import SeatKind
from ..match.settings import RuleSet
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

MAX_DEALS = 1000
MAX_TITLE = 60
MAX_NAME = 24
MAX_TYPED = 200  # characters of a name as sent; it is then cleaned and cut to MAX_NAME
MAX_SEED = 2**63 - 1
DEFAULT_LEVEL = "greedy"
DEFAULT_BETWEEN_DEALS = 8.0  # seconds between deals at tables with a turn timer
# A public room's turn timer unless its request says otherwise (null: none): strangers at a
# listed table cannot stall it by sitting still.
DEFAULT_PUBLIC_TURN = 30.0


class ConfigError(BigTwoError, ValueError):
    """A table request with a missing, unknown or out-of-range option."""


# -- the room request, as declared to clients (and published in /openapi.json) ----------------
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
        default="textbook", max_length=40, json_schema_extra={"enum": list(preset_names())}
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
        f"Turn timer; null: none; default {DEFAULT_PUBLIC_TURN:g} in a public room, else none",
    )
    away_seconds: float | None = _seconds(
        0.1, 86400.0, 60.0, "A computer plays for a player away this long; null: never"
    )
    computer_delay: float | None = _seconds(0.0, 10.0, 0.0, "A computer's pause before acting")
    takeover_level: str = Field(default=DEFAULT_LEVEL, max_length=40, description="See GET /api")
    autopass: bool | None = None
    autopass_five: bool | None = None
    title: str = Field(default="", max_length=MAX_TITLE)
    public: bool = Field(
        default=True,
        description="Listed in the lobby; false: a private room, which spectators can watch "
        "only with its invitation link",
    )
    spectators: bool = True
    spectator_chat: bool = Field(
        default=False, description="Spectators may chat (among themselves); default not"
    )
    between_deals_seconds: float | None = _seconds(
        0.0,
        600.0,
        None,
        "Most seconds between deals (the next starts sooner when every player says next); "
        f"null: no limit; default {DEFAULT_BETWEEN_DEALS:g} with a turn timer, else 0 (at once)",
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


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """One seat as created: a human seat waits for a player to join; a computer seat is
    filled at once by a computer player of ``level``."""

    kind: SeatKind = SeatKind.HUMAN
    level: str = DEFAULT_LEVEL
    name: str = ""

    def __post_init__(self) -> None:
        # A stored configuration names the kind by its string: hold the member.
        object.__setattr__(self, "kind", SeatKind(self.kind))


@dataclass(frozen=True, slots=True)
class TableConfig:
    """Everything that defines a table before anyone plays.

    ``turn_seconds``: a player who does not act in time is passed (or plays the cheapest
    legal play at a lead); None means no turn timer. ``away_seconds``: a player disconnected
    this long has a computer of ``takeover_level`` play for them until they return; None
    means never. ``computer_delay``: seconds a computer waits before acting, so people can
    follow the play. ``seed`` fixes the shuffle (only servers that allow it accept one).
    ``between_deals_seconds``: after a deal (not the last) the table waits until every
    connected player has said "next", or at most this long (None: no limit); 0 starts the
    next deal at once. The default, 0, is what tables stored before this option had.
    ``invite``: a private room's invitation key (``public`` False), which spectators need to
    watch; never shown in the room. The host may change ``turn_seconds``, ``away_seconds``
    and ``spectators`` at the table (a stored ``settings`` command).
    ``spectator_chat``: spectators may chat (off unless the host allows it, also for tables
    stored before this option).
    """

    preset: str = "textbook"
    rules: Mapping[str, Any] = field(default_factory=dict)
    seats: tuple[SeatConfig, ...] = (SeatConfig(), SeatConfig(), SeatConfig(), SeatConfig())
    deals: int | None = None
    seed: int = 0
    seeded: bool = False
    turn_seconds: float | None = None
    away_seconds: float | None = 60.0
    computer_delay: float = 0.0
    takeover_level: str = DEFAULT_LEVEL
    autopass: bool | None = None
    autopass_five: bool | None = None
    title: str = ""
    public: bool = True
    spectators: bool = True
    spectator_chat: bool = False
    between_deals_seconds: float | None = 0.0
    invite: str = ""  # a private room's invitation key: spectators need it to watch

    # -- derived ------------------------------------------------------------------------------
    def make_rules(self) -> RuleSet:
        """The table's rules: of play, and the match's settings (scoring, game length)."""
        base = RuleSet.preset(self.preset)
        return base.replace(origin="table rules", **dict(self.rules)) if self.rules else base

    @property
    def players(self) -> int:
        return len(self.seats)

    # -- storage ------------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["rules"] = dict(self.rules)
        data["seats"] = [{**asdict(s), "kind": s.kind.value} for s in self.seats]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """Rebuild a stored configuration (already checked when it was created)."""
        values = dict(data)
        values["seats"] = tuple(SeatConfig(**s) for s in values.get("seats", ()))
        values["rules"] = dict(values.get("rules") or {})
        return cls(**values)

    def public_json(self) -> dict[str, Any]:
        """What anyone may know of the configuration: everything but the seed and the
        invitation key."""
        data = self.to_json()
        del data["seed"], data["invite"]
        return data

    # -- requests ------------------------------------------------------------------------------
    @classmethod
    def from_request(
        cls,
        data: Any,
        *,
        allow_seed: bool = False,
        rng: random.Random | None = None,
    ) -> TableConfig:
        """Check a room request (parsed JSON) against :class:`RoomRequest` and the rules, and
        build the configuration.

        >>> c = TableConfig.from_request({"preset": "palm", "seats": ["human", "computer:random"]})
        Traceback (most recent call last):
        ...
        bigtwo.service.config.ConfigError: palm is played by 4 players, not 2
        >>> c = TableConfig.from_request({"seats": ["human", "computer", "computer", "human"]})
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
        if request.preset not in preset_names():
            raise ConfigError(
                f"Unknown preset {request.preset!r} (known: {', '.join(preset_names())})"
            )
        try:
            rules = RuleSet.preset(request.preset).replace(origin="rules", **request.rules)
        except BigTwoError as exc:
            raise ConfigError(str(exc)) from None
        levels = bot_names()
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
        turn = (
            request.turn_seconds
            if "turn_seconds" in given or not request.public
            else DEFAULT_PUBLIC_TURN
        )
        # A player reading the score sheet should not be timed out on the next deal's first
        # turn: tables with a turn timer wait a little between deals by default.
        between = (
            request.between_deals_seconds
            if "between_deals_seconds" in given
            else DEFAULT_BETWEEN_DEALS
            if turn is not None
            else 0.0
        )
        return cls(
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
            public=request.public,
            spectators=request.spectators,
            spectator_chat=request.spectator_chat,
            between_deals_seconds=between,
            invite="" if request.public else secrets.token_urlsafe(12),
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


def clean_text(text: str, limit: int) -> str:
    """Text fit to show anyone: control and format characters dropped, whitespace runs
    collapsed, cut to ``limit`` characters. It stays plain text (``<`` is ``<``): whoever
    shows it escapes it for its medium.

    >>> clean_text("  Ann\\x00\\u202e  Lee \\n", 24)
    'Ann Lee'
    """
    import unicodedata

    kept = "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or unicodedata.category(ch) not in ("Cc", "Cf", "Cs", "Co", "Cn")
    )
    return " ".join(kept.split())[:limit]
