"""A match's settings, apart from the rules of play: scoring, game length and autopass.

The engine's :class:`~bigtwo.engine.rules.Rules` says how a deal is played and nothing more.
What a match adds lives here: the :class:`Scoring` of a finished deal (with :meth:`Scoring.charge`,
the one place a multiplier is worked out), the number of deals in a game and the autopass
defaults (:class:`MatchRules`), and a :class:`RuleSet`, both parts as one preset or house-rules
file holds them (one TOML file, ``base =`` inheritance and all). :class:`Switches` are the
autopass switches a table had in force. Unknown or contradictory options raise
:class:`~bigtwo.engine.errors.RulesError` in words.

>>> palm = RuleSet.preset("palm")
>>> palm.rules.suit_order, palm.match.deals_per_game, palm.match.scoring.charge(10, range(10))
('dchs', 10, (110, 2))
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any, NamedTuple

import tomlkit

from ..engine.errors import RulesError
from ..engine.rules import Rules, preset_data, read_rules_file, read_toml

PER_CARD = ("rank", "one", "none")


@dataclass(frozen=True, slots=True)
class Scoring:
    """How a deal is scored once a player is out.

    ``per_card`` is what each card left costs: by ``rank_values`` (3 first, 2 last), one point
    each, or nothing (a report of cards left only). ``multipliers`` are ``(cards_left, factor)``
    bands, kept in order of their thresholds whatever order they were given in: the largest
    band reached multiplies the cost. With ``winner_collects`` the winner receives what the
    others pay, so every deal sums to zero.
    """

    per_card: str = "rank"
    rank_values: tuple[int, ...] = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)
    multipliers: tuple[tuple[int, int], ...] = ((10, 2),)
    winner_collects: bool = True

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.per_card not in PER_CARD:
            problems.append(f"scoring per_card must be one of {', '.join(PER_CARD)}")
        if len(self.rank_values) != 13:
            problems.append("scoring rank_values needs 13 values, 3 first and 2 last")
        if any(threshold < 1 or multiple < 1 for threshold, multiple in self.multipliers):
            problems.append("scoring multipliers must be [cards_left, factor] pairs of 1 or more")
        thresholds = [threshold for threshold, _ in self.multipliers]
        repeated = sorted({t for t in thresholds if thresholds.count(t) > 1})
        if repeated:
            problems.append(
                f"scoring multipliers give {repeated[0]} cards left two factors: "
                "each threshold may appear once"
            )
        if problems:
            raise RulesError("; ".join(problems), problems)
        # Bands are read smallest threshold first; sorted here, a house rule may list them in
        # any order and still mean the same (a list from the top down once scored ×3 but
        # reported ×2).
        object.__setattr__(self, "multipliers", tuple(sorted(self.multipliers)))

    def charge(self, cards_left: int, ranks: Iterable[int]) -> tuple[int, int]:
        """What a player left with ``cards_left`` cards of these ``ranks`` (0 = 3 … 12 = 2)
        pays, and the factor of the band reached (1: none). Every scorer asks this.

        >>> Scoring().charge(9, range(9))
        (45, 1)
        >>> Scoring().charge(10, range(10))
        (110, 2)
        >>> Scoring(per_card="one", multipliers=((13, 3), (10, 2))).charge(13, [])
        (39, 3)
        """
        if self.per_card == "none" or cards_left == 0:
            return 0, 1
        factor = 1
        for threshold, multiple in self.multipliers:
            if threshold > cards_left:
                break
            factor = multiple
        if self.per_card == "rank":
            values = self.rank_values
            return sum(values[r] for r in ranks) * factor, factor
        return cards_left * factor, factor

    def to_mapping(self) -> dict[str, Any]:
        return {
            "per_card": self.per_card,
            "rank_values": list(self.rank_values),
            "multipliers": [list(m) for m in self.multipliers],
            "winner_collects": self.winner_collects,
        }


class Switches(NamedTuple):
    """The autopass switches a table had in force: ``autopass`` passes a seat with no reply to
    a 1-, 2- or 3-card play (never at a lead); ``autopass_five`` extends it to 5-card plays."""

    autopass: bool
    autopass_five: bool

    def passes(self, size: int) -> bool:
        """Whether a seat with no reply to a play of ``size`` cards is passed for it."""
        return self.autopass and (size < 5 or self.autopass_five)


@dataclass(frozen=True, slots=True)
class MatchRules:
    """What a rules file says about the match rather than the play.

    - ``scoring``: how a finished deal is scored (:class:`Scoring`).
    - ``deals_per_game``: the deals of a game; then the totals are final.
    - ``autopass``, ``autopass_five``: the switches a match starts with (players may change
      them at any time; :class:`~bigtwo.match.match.Match` keeps the ones in force).
    """

    scoring: Scoring = field(default_factory=Scoring)
    deals_per_game: int = 10
    autopass: bool = True
    autopass_five: bool = False

    def __post_init__(self) -> None:
        problems: list[str] = []
        if self.deals_per_game < 1:
            problems.append("deals_per_game must be at least 1")
        if self.autopass_five and not self.autopass:
            problems.append("autopass_five extends autopass, so it needs autopass = true")
        if problems:
            raise RulesError("; ".join(problems), problems)

    @property
    def switches(self) -> Switches:
        return Switches(self.autopass, self.autopass_five)

    def to_mapping(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = value.to_mapping() if isinstance(value, Scoring) else value
        return out


_MATCH_OPTIONS = tuple(f.name for f in dataclasses.fields(MatchRules))
_SCORING_KEYS = tuple(f.name for f in dataclasses.fields(Scoring))


@dataclass(frozen=True, slots=True)
class RuleSet:
    """A whole rules file: the rules of play (``rules``) and the match's settings (``match``).

    >>> house = RuleSet.from_toml('base = "palm"\\npass_lock = true\\ndeals_per_game = 3')
    >>> house.rules.pass_lock, house.match.deals_per_game, house.name
    (True, 3, 'palm')
    """

    rules: Rules = field(default_factory=Rules)
    match: MatchRules = field(default_factory=MatchRules)

    @property
    def name(self) -> str:
        return self.rules.name

    @property
    def source(self) -> str:
        return self.rules.source

    @property
    def scoring(self) -> Scoring:
        return self.match.scoring

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def preset(name: str) -> RuleSet:
        """One of the named presets (see :func:`~bigtwo.engine.rules.preset_names`)."""
        return _load_preset(name)

    @staticmethod
    def from_toml(text: str, *, origin: str = "rules file") -> RuleSet:
        """House rules: a TOML document with an optional ``base`` preset and overrides."""
        return RuleSet.from_mapping(read_toml(text, origin), origin=origin)

    @staticmethod
    def from_file(path: str | Path) -> RuleSet:
        return RuleSet.from_toml(read_rules_file(path), origin=str(Path(path)))

    @staticmethod
    def from_mapping(data: Mapping[str, Any], *, origin: str = "rules") -> RuleSet:
        """Both parts from plain data: every option of play and of the match, and ``base``."""
        options = dict(data)
        base_name = options.pop("base", None)
        if base_name is not None and not isinstance(base_name, str):
            raise RulesError(f"{origin}: 'base' must be a preset name")
        try:
            base = RuleSet.preset(base_name) if base_name else RuleSet()
        except RulesError as exc:
            raise RulesError(f"{origin}: {exc}") from None
        return base.replace(origin=origin, **options)

    def replace(self, *, origin: str = "rules", **options: Any) -> RuleSet:
        """A copy with some options (of play or of the match) changed, each checked. Every
        problem is reported at once, in one :class:`RulesError` naming ``origin``."""
        play, rest = Rules.split(options)
        problems: list[str] = []
        if "base" in play:
            problems.append("'base' only names where a rules file starts from")
            play.pop("base")
        rules = self.rules
        if play:
            try:
                rules = self.rules.replace(origin=origin, **play)
            except RulesError as exc:
                problems += exc.problems
        changes: dict[str, Any] = {}
        for key, value in rest.items():
            if key not in _MATCH_OPTIONS:
                known = sorted(Rules.split(self.rules.to_mapping())[0]) + list(_MATCH_OPTIONS)
                problems.append(f"unknown option '{key}' (known: {', '.join(sorted(known))})")
                continue
            try:
                changes[key] = _coerce(key, value, getattr(self.match, key))
            except RulesError as exc:
                problems += exc.problems
        match = self.match
        try:
            match = dataclasses.replace(self.match, **changes)
        except RulesError as exc:
            problems += exc.problems
        if problems:
            raise RulesError.listing(origin, problems)
        return RuleSet(rules, match)

    def to_mapping(self) -> dict[str, Any]:
        """Every option, of play then of the match, as plain data (TOML-ready)."""
        return self.rules.to_mapping() | self.match.to_mapping()

    def to_toml(self) -> str:
        """Every option, of play then of the match, as a rules file writes them (``bigtwo
        rules show``): TOML that :meth:`from_toml` reads back as these rules."""
        return tomlkit.dumps(self.to_mapping())


@cache
def _load_preset(name: str) -> RuleSet:
    ruleset = RuleSet.from_mapping(preset_data(name), origin=f"preset {name}")
    # The engine reads its part of the same file itself: the two must agree.
    assert ruleset.rules == Rules.preset(name)
    return ruleset


def _coerce(key: str, value: Any, current: Any) -> Any:
    where = f"option '{key}'"
    if key == "scoring":
        return _scoring(value, current, where)
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RulesError(f"{where} must be true or false")
        return value
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(f"{where} must be a whole number")
    return value


def _scoring(value: Any, current: Scoring, where: str) -> Scoring:
    if isinstance(value, Scoring):
        return value
    if not isinstance(value, Mapping):
        raise RulesError(f"{where} must be a table")
    for sub in value:
        if sub not in _SCORING_KEYS:
            raise RulesError(
                f"{where}: unknown key '{sub}' (known: {', '.join(sorted(_SCORING_KEYS))})"
            )
    merged = {name: getattr(current, name) for name in _SCORING_KEYS}
    merged.update(value)
    if not isinstance(merged["per_card"], str):
        raise RulesError(f"{where}: per_card must be text")
    if not isinstance(merged["winner_collects"], bool):
        raise RulesError(f"{where}: winner_collects must be true or false")
    try:
        rank_values = tuple(int(v) for v in merged["rank_values"])
        multipliers = tuple((int(a), int(b)) for a, b in merged["multipliers"])
    except (TypeError, ValueError):
        raise RulesError(f"{where} has a malformed value") from None
    try:
        return Scoring(merged["per_card"], rank_values, multipliers, merged["winner_collects"])
    except RulesError as exc:
        raise RulesError(f"{where}: {exc}") from None
