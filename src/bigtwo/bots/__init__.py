"""Computer players, from random to expert, and the one registry that makes them by name.

A level (``strong``, ``expert``, …) is registered once for each game it plays: the 52-card
game (``bigtwo``) and Big 2 RevolutioN (``revolution``), the game a rule set names
(:attr:`~bigtwo.engine.rules.Rules.game`). :func:`make_bot` makes the level's player of a
game; :func:`bot_names` lists the levels of a game.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal, overload

from ..engine.errors import BigTwoError
from ..engine.rules import BIGTWO, GAMES, REVOLUTION
from .base import Bot, GreedyBot, RandomBot

if TYPE_CHECKING:
    from .revolution import RevolutionBot

_FACTORIES: dict[str, dict[str, Callable[[], Any]]] = {
    BIGTWO: {"random": RandomBot, "greedy": GreedyBot},
    REVOLUTION: {},
}
# The modules whose levels register themselves, by game.
_MODULES = {
    BIGTWO: ("classic", "strong", "expert", "ppo2018", "learned", "guided"),
    REVOLUTION: ("revolution", "revolution_expert"),
}
# What an unknown level is told, by game ({name}, and {known}: the game's levels).
_UNKNOWN = {
    BIGTWO: "Unknown computer player '{name}' (known: {known})",
    REVOLUTION: "No computer player '{name}' plays revolution yet (levels: {known})",
}


def register_bot(name: str, factory: Callable[[], Any], *, game: str = BIGTWO) -> None:
    """Make level ``name`` of ``game`` by calling ``factory``."""
    _FACTORIES[game][name] = factory


def bot_names(game: str = BIGTWO) -> list[str]:
    """The levels that play ``game``, by name."""
    _load(game)
    return sorted(_FACTORIES[game])


@overload
def make_bot(name: str, game: Literal["bigtwo"] = ...) -> Bot: ...
@overload
def make_bot(name: str, game: Literal["revolution"]) -> RevolutionBot: ...
@overload
def make_bot(name: str, game: str) -> Bot | RevolutionBot: ...
def make_bot(name: str, game: str = BIGTWO) -> Bot | RevolutionBot:
    """A fresh player of the named level for ``game``."""
    _load(game)
    factory = _FACTORIES[game].get(name)
    if factory is None:
        known = ", ".join(sorted(_FACTORIES[game]))
        raise BigTwoError(_UNKNOWN[game].format(name=name, known=known))
    made: Bot | RevolutionBot = factory()
    return made


def _load(game: str) -> None:
    """Import the levels of ``game`` that live in their own modules (they register
    themselves)."""
    import importlib

    if game not in GAMES:
        raise BigTwoError(f"Unknown game {game!r} (games: {', '.join(GAMES)})")
    for module in _MODULES[game]:
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise


__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
