"""A table's configuration: rule preset and options, seats (human or computer), timers.

:class:`TableConfig` is plain data that round-trips through JSON, because it is the first
thing stored for a table and the one thing, with the command log, needed to rebuild it after a
restart. :meth:`TableConfig.from_request` checks a request made by a stranger (the HTTP
lobby) and says in words what is wrong; it never trusts a field it did not check. This module
plays no cards and keeps no state.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from ..engine.errors import BigTwoError
from ..engine.rules import Rules, preset_names
from ..match.settings import RuleSet

HUMAN = "human"
COMPUTER = "computer"

MAX_DEALS = 1000
MAX_TITLE = 60
DEFAULT_LEVEL = "greedy"
DEFAULT_BETWEEN_DEALS = 8.0  # seconds between deals at tables with a turn timer


class ConfigError(BigTwoError, ValueError):
    """A table request with a missing, unknown or out-of-range option."""


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """One seat as created: a human seat waits for a player to join; a computer seat is
    filled at once by a computer player of ``level``."""

    kind: str = HUMAN
    level: str = DEFAULT_LEVEL
    name: str = ""


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
    between_deals_seconds: float | None = 0.0

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
        data["seats"] = [asdict(s) for s in self.seats]
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableConfig:
        """Rebuild a stored configuration (already checked when it was created)."""
        values = dict(data)
        values["seats"] = tuple(SeatConfig(**s) for s in values.get("seats", ()))
        values["rules"] = dict(values.get("rules") or {})
        return cls(**values)

    def public_json(self) -> dict[str, Any]:
        """What anyone may know of the configuration: everything but the seed."""
        data = self.to_json()
        del data["seed"]
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
        """Check a room request (parsed JSON) and build the configuration.

        >>> c = TableConfig.from_request({"preset": "palm", "seats": ["human", "computer:random"]})
        Traceback (most recent call last):
        ...
        bigtwo.service.config.ConfigError: palm is played by 4 players, not 2
        >>> c = TableConfig.from_request({"seats": ["human", "computer", "computer", "human"]})
        >>> [s.kind for s in c.seats], c.preset
        (['human', 'computer', 'computer', 'human'], 'textbook')
        """
        from ..bots import bot_names  # late: the bot registry imports every level

        if not isinstance(data, Mapping):
            raise ConfigError("The room request must be a JSON object")
        known = {
            "preset", "rules", "seats", "players", "deals", "seed", "turn_seconds",
            "away_seconds", "computer_delay", "takeover_level", "autopass", "autopass_five",
            "title", "public", "spectators", "between_deals_seconds",
        }  # fmt: skip
        unknown = sorted(set(data) - known)
        if unknown:
            raise ConfigError(
                f"Unknown room option {', '.join(repr(u) for u in unknown)} "
                f"(known: {', '.join(sorted(known))})"
            )
        preset = data.get("preset", "textbook")
        if not isinstance(preset, str) or preset not in preset_names():
            raise ConfigError(f"Unknown preset {preset!r} (known: {', '.join(preset_names())})")
        overrides = data.get("rules", {})
        if not isinstance(overrides, Mapping):
            raise ConfigError("'rules' must be an object of rule options")
        try:
            rules = RuleSet.preset(preset).replace(origin="rules", **dict(overrides))
        except BigTwoError as exc:
            raise ConfigError(str(exc)) from None
        levels = bot_names()
        seats = _seats(data, rules.rules, levels)
        deals = _optional_int(data, "deals", 1, MAX_DEALS)
        seed_value = data.get("seed")
        seeded = seed_value is not None
        if seeded and not allow_seed:
            raise ConfigError("This server does not accept a chosen seed")
        if seeded:
            if not isinstance(seed_value, int) or isinstance(seed_value, bool):
                raise ConfigError("'seed' must be an integer")
            seed = seed_value
        else:
            seed = (rng or random.SystemRandom()).randrange(1 << 62)
        takeover = data.get("takeover_level", DEFAULT_LEVEL)
        if takeover not in levels:
            raise ConfigError(f"Unknown computer level {takeover!r} (known: {', '.join(levels)})")
        title = data.get("title", "")
        if not isinstance(title, str) or len(title) > MAX_TITLE:
            raise ConfigError(f"'title' must be text of at most {MAX_TITLE} characters")
        turn_seconds = _optional_seconds(data, "turn_seconds", 0.2, 3600.0, None)
        # A player reading the score sheet should not be timed out on the next deal's first
        # turn: tables with a turn timer wait a little between deals by default.
        between = _optional_seconds(
            data,
            "between_deals_seconds",
            0.0,
            600.0,
            DEFAULT_BETWEEN_DEALS if turn_seconds is not None else 0.0,
        )
        config = cls(
            preset=preset,
            rules=dict(overrides),
            seats=seats,
            deals=deals,
            seed=seed,
            seeded=seeded,
            turn_seconds=turn_seconds,
            away_seconds=_optional_seconds(data, "away_seconds", 0.1, 86400.0, 60.0),
            computer_delay=_optional_seconds(data, "computer_delay", 0.0, 10.0, 0.0) or 0.0,
            takeover_level=takeover,
            autopass=_optional_bool(data, "autopass", None),
            autopass_five=_optional_bool(data, "autopass_five", None),
            title=clean_text(title, MAX_TITLE),
            public=bool(_optional_bool(data, "public", True)),
            spectators=bool(_optional_bool(data, "spectators", True)),
            between_deals_seconds=between,
        )
        return config


def _seats(data: Mapping[str, Any], rules: Rules, levels: list[str]) -> tuple[SeatConfig, ...]:
    raw = data.get("seats")
    if raw is None:
        count = _optional_int(data, "players", 2, 4) or rules.default_players
        raw = [HUMAN] * count
    if not isinstance(raw, list) or not raw:
        raise ConfigError("'seats' must be a list with one entry per seat")
    if len(raw) not in rules.players:
        allowed = ", ".join(str(p) for p in rules.players)
        raise ConfigError(f"{rules.name} is played by {allowed} players, not {len(raw)}")
    seats: list[SeatConfig] = []
    for i, item in enumerate(raw):
        # Shorthand "human", "computer" or "computer:strong"; or an object.
        if isinstance(item, str):
            kind, _, level = item.partition(":")
            item = {"kind": kind, "level": level or DEFAULT_LEVEL}
        if not isinstance(item, Mapping):
            raise ConfigError(f'Seat {i}: give "human", "computer:LEVEL" or an object')
        extra = set(item) - {"kind", "level", "name"}
        if extra:
            raise ConfigError(f"Seat {i}: unknown field {', '.join(sorted(extra))}")
        kind = item.get("kind", HUMAN)
        if kind not in (HUMAN, COMPUTER):
            raise ConfigError(f"Seat {i}: kind must be 'human' or 'computer', not {kind!r}")
        level = item.get("level", DEFAULT_LEVEL)
        if kind == COMPUTER and level not in levels:
            raise ConfigError(f"Seat {i}: unknown computer level {level!r} ({', '.join(levels)})")
        name = item.get("name", "")
        if not isinstance(name, str):
            raise ConfigError(f"Seat {i}: name must be text")
        seats.append(SeatConfig(kind=kind, level=str(level), name=clean_text(name, MAX_NAME)))
    if all(s.kind == COMPUTER for s in seats):
        # A table of computers only would play itself out with nobody to watch for.
        raise ConfigError("At least one seat must be for a human player")
    return tuple(seats)


def _optional_int(data: Mapping[str, Any], key: str, low: int, high: int) -> int | None:
    value = data.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ConfigError(f"'{key}' must be a whole number from {low} to {high}")
    return value


def _optional_seconds(
    data: Mapping[str, Any], key: str, low: float, high: float, default: float | None
) -> float | None:
    if key not in data:
        return default
    value = data[key]
    if value is None:
        return None
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ConfigError(f"'{key}' must be a number of seconds from {low:g} to {high:g}, or null")
    return float(value)


def _optional_bool(data: Mapping[str, Any], key: str, default: bool | None) -> bool | None:
    value = data.get(key, default)
    if value is not None and not isinstance(value, bool):
        raise ConfigError(f"'{key}' must be true, false or null")
    return value


MAX_NAME = 24


def clean_text(text: str, limit: int) -> str:
    """Text fit to show anyone: control and format characters dropped, whitespace runs
    collapsed, cut to ``limit`` characters. Escaping for HTML happens where text enters an
    event (see :mod:`bigtwo.service.events`), so stored text stays readable.

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
