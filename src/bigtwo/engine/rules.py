"""Rule sets as data: every option a preset or a house rule can set, and the presets.

A :class:`Rules` value is plain, frozen data: the rules of play, and only those. Presets live
as TOML files in ``bigtwo/presets/`` (each with its source), and house rules load from a TOML
file that names a ``base`` preset and overrides options. A rules file also holds the match's
settings (scoring, game length): :mod:`bigtwo.match.settings` reads those, and this module
leaves every option it does not know to it (:meth:`Rules.split`). Unknown or
contradictory options raise :class:`RulesError` in words. This module does not play: it only
says what the rules are.

>>> rules = Rules.preset("palm")
>>> rules.suit_order, rules.straights[0], rules.straights[-1]
('dchs', 'A2345', 'TJQKA')
>>> Rules.preset("textbook").flush_order
'suit_first'
"""

from __future__ import annotations

import dataclasses
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from .cards import RANKS, SUITS, Card
from .errors import RulesError
from .revolution_rules import RevolutionRules

KIND_NAMES = (
    "single",
    "pair",
    "triple",
    "two_pair",
    "bare_four",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
)
FIVE_CARD_KINDS = ("straight", "flush", "full_house", "four_of_a_kind", "straight_flush")
FOUR_CARD_KINDS = ("two_pair", "bare_four")
LEAD_CARDS = ("3d", "3c", "lowest")
FIRST_PLAYS = ("include", "alone", "any")
NEXT_LEADERS = ("lead_card", "winner")
STRAIGHT_TIEBREAKS = ("top_of_sequence", "highest_card")
FLUSH_ORDERS = ("top_card", "suit_first")
LEFTOVERS = ("aside", "to_leader")

_PRESET_NAMES = (
    "palm",
    "palm-hk",
    "textbook",
    "deduction",
    "hongkong",
    "taiwan",
    "pusoy-dos",
    "charlesworth2018",
)
# Presets that play more than the 52-card game: loaded by name like the others, but not listed
# among the presets every 52-card front end, bot and arena plays.
_EXPANSION_PRESETS = ("revolution",)
# The games a rule set plays: the 52-card game, or Big 2 RevolutioN (rules with ``revolution``
# options). Computer levels are registered per game (``bigtwo.bots``).
BIGTWO = "bigtwo"
REVOLUTION = "revolution"
GAMES = (BIGTWO, REVOLUTION)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every rule option, with the ``palm`` defaults.

    - ``suit_order``: suits low to high (``dchs`` is ♦ ♣ ♥ ♠).
    - ``players``, ``default_players``, ``cards_per_player``: who may play and how many cards
      each gets; ``leftover``: cards not dealt stay ``aside``, or (``to_leader``) when fewer
      are left than there are players, they go to the lead-card holder (17 each for three
      players and the 52nd card to the 3♦ holder); whole hands left over always stay aside.
    - ``lead_card``: ``3d``, ``3c`` or ``lowest``; a lead card nobody holds falls back to the
      lowest dealt card. ``first_play``: the opening play must ``include`` that card, is the
      card ``alone`` (played automatically as a single), or is ``any`` play by its holder.
    - ``next_leader``: who leads later deals, the ``lead_card`` holder or the previous
      ``winner`` (the match passes that seat to ``Deal(leader=...)``).
    - ``straights``: the five-rank sequences that exist, low to high;
      ``straight_tiebreak``: equal sequences compare by the ``top_of_sequence`` card (the
      sequence's last rank as listed: the 5 of A2345) or the ``highest_card``.
    - ``flush_order``: by ``top_card`` (rank, then suit) or ``suit_first`` (suit, then top rank).
    - ``five_kinds``: the five-card kinds that exist, low to high; with ``kinds_beat_lower`` a
      higher kind beats any lower one, otherwise a five-card play only meets its own kind.
    - ``four_card_kinds``: ``two_pair`` and/or ``bare_four`` (four of a rank without a fifth
      card; four of a kind is then not a five-card kind), low to high.
    - ``triples``: whether three of a rank is a play by itself.
    - ``bombs``: kinds that beat any play that is not a bomb, of any size; among themselves
      later-listed kinds beat earlier ones. ``straight_flush_beatable``: False makes a
      straight flush unbeatable once played.
    - ``pass_lock``: a player who passes sits out the rest of the trick.
    - ``last_card``: when the next player holds one card, a single played must be your
      highest card. Both hold in the revolution expansion too, on the same trick logic
      (:class:`~bigtwo.engine.trick.Trick`; ``docs/revolution.md`` says what they mean there).
    - ``revolution``: the Big 2 RevolutioN expansion's options
      (:class:`~bigtwo.engine.revolution_rules.RevolutionRules`), or None for the 52-card
      game; a deal under such rules is a :class:`~bigtwo.engine.revolution.RevolutionDeal`.

    How a deal is scored, how many deals make a game and the other table settings are the
    match's (:class:`bigtwo.match.settings.MatchRules`), not the play's.
    """

    name: str = "palm"
    source: str = ""
    suit_order: str = "dchs"
    players: tuple[int, ...] = (4,)
    default_players: int = 4
    cards_per_player: tuple[tuple[int, int], ...] = ((4, 13),)
    leftover: str = "aside"
    lead_card: str = "3d"
    first_play: str = "include"
    next_leader: str = "lead_card"
    straights: tuple[str, ...] = (
        "A2345", "23456", "34567", "45678", "56789",
        "6789T", "789TJ", "89TJQ", "9TJQK", "TJQKA",
    )  # fmt: skip
    straight_tiebreak: str = "top_of_sequence"
    flush_order: str = "top_card"
    five_kinds: tuple[str, ...] = FIVE_CARD_KINDS
    kinds_beat_lower: bool = True
    four_card_kinds: tuple[str, ...] = ()
    triples: bool = True
    bombs: tuple[str, ...] = ()
    straight_flush_beatable: bool = True
    pass_lock: bool = False
    last_card: bool = False
    revolution: RevolutionRules | None = None

    def __post_init__(self) -> None:
        _check(self)

    # -- construction -------------------------------------------------------------------
    @staticmethod
    def preset(name: str) -> Rules:
        """One of the named presets (see :func:`preset_names`)."""
        return _load_preset(name)

    @staticmethod
    def from_toml(text: str, *, origin: str = "rules file") -> Rules:
        """House rules: a TOML document with an optional ``base`` preset and overrides."""
        return Rules.from_mapping(read_toml(text, origin), origin=origin)

    @staticmethod
    def from_file(path: str | Path) -> Rules:
        return Rules.from_toml(read_rules_file(path), origin=str(Path(path)))

    @staticmethod
    def from_mapping(data: Mapping[str, Any], *, origin: str = "rules") -> Rules:
        """Rules from plain data (every key one of these rules' options, or ``base``)."""
        options = dict(data)
        base_name = options.pop("base", None)
        if base_name is not None and not isinstance(base_name, str):
            raise RulesError(f"{origin}: 'base' must be a preset name")
        base = Rules.preset(base_name) if base_name else Rules()
        return base.replace(origin=origin, **options)

    @staticmethod
    def split(data: Mapping[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        """A rules file's data in two: the options of play (with ``base``) and the rest, which
        another layer reads (the match's settings) and which this module never looks into.

        >>> Rules.split({"base": "palm", "pass_lock": True, "deals_per_game": 3})
        ({'base': 'palm', 'pass_lock': True}, {'deals_per_game': 3})
        """
        own: dict[str, Any] = {}
        rest: dict[str, Any] = {}
        for key, value in data.items():
            (own if key == "base" or key in _OPTIONS else rest)[key] = value
        return own, rest

    def replace(self, *, origin: str = "rules", **options: Any) -> Rules:
        """A copy with some options changed, each checked. Every problem is reported at once,
        in one :class:`RulesError` naming ``origin`` (the house-rules file, not its base)."""
        fields = {f.name: f for f in dataclasses.fields(self)}
        changes: dict[str, Any] = {}
        problems: list[str] = []
        for key, value in options.items():
            if key not in fields:
                problems.append(f"unknown option '{key}' (known: {', '.join(sorted(fields))})")
                continue
            try:
                changes[key] = _coerce(key, value, getattr(self, key))
            except RulesError as exc:
                problems += exc.problems
        current = {name: getattr(self, name) for name in fields}
        problems += _problems(SimpleNamespace(**(current | changes)))
        if problems:
            raise RulesError.listing(origin, problems)
        return dataclasses.replace(self, **changes)

    def to_mapping(self) -> dict[str, Any]:
        """Every option as plain data (TOML-ready)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None:
                continue  # an expansion not played (TOML has no None, and nothing to say)
            if f.name == "cards_per_player":
                value = {str(k): v for k, v in value}
            elif f.name in _NESTED:
                value = value.to_mapping()
            elif isinstance(value, tuple):
                value = list(value)
            out[f.name] = value
        return out

    # -- questions ------------------------------------------------------------------------
    @property
    def game(self) -> str:
        """The game these rules play: ``bigtwo`` (52 cards) or ``revolution``."""
        return BIGTWO if self.revolution is None else REVOLUTION

    def hand_size(self, players: int) -> int:
        for count, size in self.cards_per_player:
            if count == players:
                return size
        raise RulesError(f"{self.name} is not played by {players} players")

    def lead_card_index(self) -> int | None:
        """The card whose holder leads the first deal, or None for 'lowest dealt card'."""
        return None if self.lead_card == "lowest" else int(Card.parse(self.lead_card))


_OPTIONS = frozenset(f.name for f in dataclasses.fields(Rules))
# The options that are sets of options of their own (an expansion's), None when not played.
_NESTED: dict[str, type[RevolutionRules]] = {"revolution": RevolutionRules}


def read_toml(text: str, origin: str) -> dict[str, Any]:
    """A rules file's TOML as data; bad TOML is a :class:`RulesError` naming ``origin``."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{origin} is not valid TOML: {exc}") from None


def read_rules_file(path: str | Path) -> str:
    """A rules file's text; a missing or unreadable file is a :class:`RulesError` in words."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8")
    except OSError as exc:
        raise RulesError(f"Cannot read rules file {p}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise RulesError(f"Rules file {p} is not UTF-8 text") from None


def preset_names() -> tuple[str, ...]:
    """The presets of the 52-card game (the expansion's are :func:`expansion_preset_names`)."""
    return _PRESET_NAMES


def expansion_preset_names() -> tuple[str, ...]:
    """Presets that play an expansion (``revolution``): loaded by name like the others."""
    return _EXPANSION_PRESETS


@cache
def _load_preset(name: str) -> Rules:
    own, _match_settings = Rules.split(preset_data(name))
    return Rules.from_mapping(own, origin=f"preset {name}")


@cache
def _preset_text(name: str) -> str:
    if name not in _PRESET_NAMES and name not in _EXPANSION_PRESETS:
        known = ", ".join(_PRESET_NAMES + _EXPANSION_PRESETS)
        raise RulesError(f"Unknown rule preset '{name}' (presets: {known})")
    return resources.files("bigtwo").joinpath("presets", f"{name}.toml").read_text("utf-8")


def preset_data(name: str) -> dict[str, Any]:
    """A preset file's data as written: the options of play and the match's settings."""
    return tomllib.loads(_preset_text(name))


def _coerce(key: str, value: Any, current: Any) -> Any:
    where = f"option '{key}'"
    nested = _NESTED.get(key)
    if nested is not None:  # options of their own (a TOML table): ``false`` leaves them unset
        if value is False:
            return None
        return value if isinstance(value, nested) else nested.from_mapping(value, current)
    if key == "cards_per_player":
        if not isinstance(value, Mapping):
            raise RulesError(f"{where} must map player counts to cards, like {{4 = 13}}")
        try:
            return tuple(sorted((int(k), int(v)) for k, v in value.items()))
        except (TypeError, ValueError):
            raise RulesError(f"{where} must map player counts to cards") from None
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise RulesError(f"{where} must be true or false")
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise RulesError(f"{where} must be a whole number")
        return value
    if isinstance(current, str):
        if not isinstance(value, str):
            raise RulesError(f"{where} must be text")
        return value
    if isinstance(current, tuple):
        if not isinstance(value, list | tuple):
            raise RulesError(f"{where} must be a list")
        item_type = int if key == "players" else str
        for item in value:
            if isinstance(item, bool) or not isinstance(item, item_type):
                what = "whole numbers" if item_type is int else "text"
                raise RulesError(f"{where} must list {what}, not {item!r}")
        return tuple(value)
    return value


def _one_of(rules: Any, key: str, allowed: tuple[str, ...]) -> list[str]:
    value = getattr(rules, key)
    if value not in allowed:
        return [f"{key} must be one of {', '.join(allowed)}, not '{value}'"]
    return []


def _is_run(seq: str) -> bool:
    """Whether ``seq`` is five ranks in a row, low to high, going round from 2 to 3 (A2345)."""
    starts = [i for i in range(len(RANKS)) if RANKS[i] == seq[0]]
    return bool(starts) and all(RANKS[(starts[0] + k) % len(RANKS)] == c for k, c in enumerate(seq))


def _check(rules: Rules) -> None:
    """Refuse options that are malformed or contradict each other, naming every one."""
    found = _problems(rules)
    if found:
        raise RulesError.listing(rules.name, found)


def _problems(rules: Any) -> list[str]:
    """Every option of ``rules`` (a Rules, or anything with its fields) that is malformed or
    contradicts another, in words."""
    out: list[str] = []
    if sorted(rules.suit_order) != sorted(SUITS) or len(rules.suit_order) != 4:
        out.append(f"suit_order must name d, c, h, s once each, not '{rules.suit_order}'")
    out += _one_of(rules, "lead_card", LEAD_CARDS)
    out += _one_of(rules, "first_play", FIRST_PLAYS)
    out += _one_of(rules, "next_leader", NEXT_LEADERS)
    out += _one_of(rules, "straight_tiebreak", STRAIGHT_TIEBREAKS)
    out += _one_of(rules, "flush_order", FLUSH_ORDERS)
    out += _one_of(rules, "leftover", LEFTOVERS)
    if not rules.players or any(p not in (2, 3, 4) for p in rules.players):
        out.append("players must be a list drawn from 2, 3 and 4")
    elif rules.default_players not in rules.players:
        out.append(f"default_players {rules.default_players} is not in players")
    sizes = dict(rules.cards_per_player)
    for count in rules.players:
        if count not in sizes:
            out.append(f"cards_per_player says nothing for {count} players")
        elif sizes[count] < 1 or sizes[count] * count > 52:
            out.append(f"{count} players cannot get {sizes[count]} cards each")
    if rules.first_play == "alone" and rules.lead_card == "lowest":
        out.append("first_play 'alone' needs a named lead_card")
    seen: set[str] = set()
    for seq in rules.straights:
        if len(seq) != 5 or any(c not in RANKS for c in seq) or len(set(seq)) != 5:
            out.append(f"'{seq}' is not a sequence of five different ranks")
            continue
        if not _is_run(seq):
            out.append(
                f"the straight '{seq}' is not five ranks in a row, written low to high "
                "(like 34567, TJQKA or A2345)"
            )
        key = "".join(sorted(seq))
        if key in seen:
            out.append(f"the straight '{seq}' is listed twice")
        seen.add(key)
    for kind in rules.five_kinds:
        if kind not in FIVE_CARD_KINDS:
            out.append(f"'{kind}' is not a five-card kind ({', '.join(FIVE_CARD_KINDS)})")
    if len(set(rules.five_kinds)) != len(rules.five_kinds):
        out.append("five_kinds names a kind twice")
    if len(set(rules.four_card_kinds)) != len(rules.four_card_kinds):
        out.append("four_card_kinds names a kind twice")
    if len(set(rules.bombs)) != len(rules.bombs):
        out.append("bombs names a kind twice")
    for kind in rules.four_card_kinds:
        if kind not in FOUR_CARD_KINDS:
            out.append(f"'{kind}' is not a four-card kind ({', '.join(FOUR_CARD_KINDS)})")
    kinds = set(rules.five_kinds)
    if {"straight", "flush"} <= kinds and "straight_flush" not in kinds:
        out.append("with straights and flushes, straight_flush must be a kind too")
    if ("straight" in kinds or "straight_flush" in kinds) and not rules.straights:
        out.append("straights are a kind but no sequences are listed")
    if "four_of_a_kind" in kinds and "bare_four" in rules.four_card_kinds:
        out.append("four of a kind cannot be both a five-card and a four-card play")
    for bomb in rules.bombs:
        if bomb not in kinds and bomb not in rules.four_card_kinds:
            out.append(f"bomb '{bomb}' is not a kind these rules have")
    if rules.revolution is not None:
        # What the expansion's turn is defined for: REVOLUTION.md builds on deduction's play.
        if rules.bombs:
            out.append("the revolution expansion is not played with bombs")
        if rules.first_play == "alone":
            out.append("the revolution expansion is not played with first_play 'alone'")
        if any(size > 13 for _, size in rules.cards_per_player):
            out.append("the revolution expansion deals at most 13 normal cards a player")
    return out
