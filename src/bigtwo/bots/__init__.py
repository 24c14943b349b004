"""Computer players, from random to expert, and the registry that makes them by name."""

from __future__ import annotations

from collections.abc import Callable

from ..engine.errors import BigTwoError
from .base import Bot, GreedyBot, RandomBot

_FACTORIES: dict[str, Callable[[], Bot]] = {
    "random": RandomBot,
    "greedy": GreedyBot,
}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    _FACTORIES[name] = factory


def bot_names() -> list[str]:
    _load_all()
    return sorted(_FACTORIES)


def make_bot(name: str) -> Bot:
    """A fresh bot of the named level."""
    _load_all()
    try:
        return _FACTORIES[name]()
    except KeyError:
        raise BigTwoError(
            f"Unknown computer player '{name}' (known: {', '.join(sorted(_FACTORIES))})"
        ) from None


def _load_all() -> None:
    """Import the levels that live in their own modules (they register themselves)."""
    import importlib

    for module in ("classic", "strong", "expert", "ppo2018", "learned", "guided"):
        try:
            importlib.import_module(f"{__name__}.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module}":
                raise


__all__ = ["Bot", "GreedyBot", "RandomBot", "bot_names", "make_bot", "register_bot"]
