"""The player's preferences for the terminal game, and turning them into a new game's setup.

Preferences are plain data (:class:`Prefs`) saved as one JSON value under one key of the
store, so adding an option never needs a schema change and an unknown or damaged value falls
back to the defaults instead of stopping the game. This module draws nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Protocol

from ..engine.rules import Rules, expansion_preset_names, preset_names
from ..match.match import DEFAULT_NAMES
from .games import game_of

PREFS_KEY = "tui.prefs"
SPEEDS: dict[str, float] = {"slow": 1.2, "medium": 0.6, "fast": 0.2}
SORTS = ("rank", "suit")
DEALS_CHOICES = (0, 1, 2, 3, 5, 10, 15, 20)  # deals per game offered in New game (0: the rules')
# Presets the terminal game plays: every one, Big 2 RevolutioN (``revolution``) included.
PLAYABLE_PRESETS = (*preset_names(), *expansion_preset_names())


def levels_for(rules: str, levels: Sequence[str]) -> list[str]:
    """The computer levels that play ``rules``, of ``levels`` (those of 52 cards)."""
    return game_of(Rules.preset(rules)).levels(levels)


def playing_level(rules: str, level: str) -> str:
    """``level`` when it plays ``rules``, else ``greedy`` (which plays every rule set)."""
    return level if level in levels_for(rules, [level]) else "greedy"


class PrefStore(Protocol):
    def get_pref(self, key: str, default: Any = None) -> Any: ...
    def set_pref(self, key: str, value: Any) -> None: ...


def default_level() -> str:
    """The Palm game's own computer player when it is installed, else ``greedy``.

    Looks for the module without importing it: importing every level (some need numpy)
    would cost start-up time before the table is on screen.
    """
    from importlib.util import find_spec

    for level in ("classic", "strong"):
        if find_spec(f"bigtwo.bots.{level}") is not None:
            return level
    return "greedy"


@dataclass(frozen=True, slots=True)
class Prefs:
    rules: str = "palm"
    autopass: bool = True
    autopass_five: bool = False
    show_cards_left: bool = True
    speed: str = "medium"
    sort: str = "rank"
    level: str = ""  # "" = default_level(), resolved late so importing bots stays lazy
    names: tuple[str, ...] = DEFAULT_NAMES
    players: int = 4
    humans: tuple[bool, ...] = (True, False, False, False)
    deals: int = 0  # deals per game chosen in New game; 0 = the rule set's
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def delay(self) -> float:
        return SPEEDS.get(self.speed, SPEEDS["medium"])

    def bot_level(self) -> str:
        return self.level or default_level()

    def to_data(self) -> dict[str, Any]:
        data = asdict(self)
        data["names"] = list(self.names)
        data["humans"] = list(self.humans)
        return data

    @staticmethod
    def from_data(data: Any) -> Prefs:
        """Prefs from saved data (or its JSON text); bad or unknown values fall back to the
        defaults one by one."""
        if isinstance(data, str):
            try:
                data = json.loads(data)
            except ValueError:
                return Prefs()
        if not isinstance(data, dict):
            return Prefs()
        base = Prefs()
        known = {f.name for f in fields(Prefs)}
        changes: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                continue
            current = getattr(base, key)
            if isinstance(current, bool):
                if isinstance(value, bool):
                    changes[key] = value
            elif isinstance(current, int):
                if isinstance(value, int) and not isinstance(value, bool):
                    changes[key] = value
            elif isinstance(current, str):
                if isinstance(value, str):
                    changes[key] = value
            elif isinstance(current, tuple):
                if isinstance(value, list):
                    changes[key] = tuple(value)
            elif isinstance(current, dict) and isinstance(value, dict):
                changes[key] = value
        prefs = replace(base, **changes)
        return prefs.checked()

    def checked(self) -> Prefs:
        """The same prefs with any value out of range put back to its default."""
        p = self
        if p.rules not in PLAYABLE_PRESETS:
            p = replace(p, rules="palm")
        if p.speed not in SPEEDS:
            p = replace(p, speed="medium")
        if p.sort not in SORTS:
            p = replace(p, sort="rank")
        names = tuple(str(n)[:12] or d for n, d in zip(p.names, DEFAULT_NAMES, strict=False))
        names = names + DEFAULT_NAMES[len(names) :]
        p = replace(p, names=names)
        humans = tuple(bool(h) for h in p.humans[:4])
        humans = humans + (False,) * (4 - len(humans))
        p = replace(p, humans=humans)
        if p.players not in (2, 3, 4):
            p = replace(p, players=4)
        if p.deals not in DEALS_CHOICES:
            p = replace(p, deals=0)
        return p


def load_prefs(store: PrefStore | None) -> Prefs:
    if store is None:
        return Prefs()
    try:
        return Prefs.from_data(store.get_pref(PREFS_KEY, None))
    except Exception:  # a damaged store must not stop the game from starting
        return Prefs()


def save_prefs(store: PrefStore | None, prefs: Prefs) -> None:
    if store is not None:
        store.set_pref(PREFS_KEY, prefs.to_data())
