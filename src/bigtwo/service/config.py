"""A table's configuration: rule preset and options, seats (human or computer), timers.

:class:`TableConfig` is plain data that round-trips through JSON, because it is the first
thing stored for a table and the one thing, with the command log, needed to rebuild it after a
restart. A request made by a stranger (the HTTP lobby) is checked above it, in
:mod:`.request` (:func:`~bigtwo.service.request.table_config`), which builds the
configuration from it. This module plays no cards and keeps no state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from ..engine.errors import BigTwoError
from ..match.match import SeatKind
from ..match.settings import RuleSet

MAX_DEALS = 1000
MAX_TITLE = 60
MAX_NAME = 24
MAX_TYPED = 200  # characters of a name as sent; it is then cleaned and cut to MAX_NAME
MAX_SEED = 2**63 - 1
DEFAULT_LEVEL = "greedy"
# The longest pause between deals at a table of several people with a turn timer: the next
# deal starts sooner once every person has pressed "Next deal" (one person alone with
# computers is waited for however long the score sheet is read).
DEFAULT_BETWEEN_DEALS = 60.0
# A public room's turn timer unless its request says otherwise (null: none): strangers at a
# listed table cannot stall it by sitting still. A room with one human seat, the others
# computers', is private and untimed by default (see service.request.table_config).
DEFAULT_PUBLIC_TURN = 30.0


class ConfigError(BigTwoError, ValueError):
    """A table request with a missing, unknown or out-of-range option."""


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
    ``assists``: the coach's help during the match (each player's beliefs panel and the
    review of a finished deal before the match is over); the host may turn it off.
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
    # The coach's assists (a deal's review, the beliefs panel) for the players; the host may
    # turn them off when the table is made (on for tables stored before this option).
    assists: bool = True

    def __setstate__(self, state: list[Any]) -> None:
        """Thawed from a snapshot: a configuration stored before a later option was added
        (options are only ever added at the end) holds that option's default."""
        for f in fields(self):
            default = f.default_factory() if callable(f.default_factory) else f.default
            object.__setattr__(self, f.name, default)
        for f, value in zip(fields(self), state, strict=False):
            object.__setattr__(self, f.name, value)

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
