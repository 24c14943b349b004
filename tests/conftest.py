"""Shared helpers for the engine tests: card shorthand, random hands and random deals.

Helpers are session-scoped fixtures (so hypothesis tests may use them) that return plain
functions; nothing here decides a rule, it only drives the engine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from bigtwo.engine import Deal, Play, Rules, parse_cards, preset_names

PRESETS = preset_names()


@pytest.fixture(scope="session")
def cards() -> Callable[[str], int]:
    """``cards("3d 4c")`` is the mask of those cards."""

    def mask(text: str) -> int:
        return parse_cards(text).mask

    return mask


def _random_deal_steps(
    rules: Rules, seed: int, players: int | None = None, pass_bias: float = 0.3
) -> Iterator[Deal]:
    """Play a random deal with random legal choices, yielding the deal before each action
    and once more at the end. The same seed gives the same deal."""
    rng = random.Random(seed)
    count = players if players is not None else rng.choice(rules.players)
    deal = Deal.from_seed(rules, rng.randrange(1 << 30), count)
    while not deal.over:
        yield deal
        plays = deal.legal_plays()
        if deal.can_pass() and (not plays or rng.random() < pass_bias):
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, rng.choice(plays))
    yield deal


@pytest.fixture(scope="session")
def random_deal_steps() -> Callable[..., Iterator[Deal]]:
    return _random_deal_steps


@pytest.fixture(scope="session")
def play_names() -> Callable[[list[Play]], list[str]]:
    def names(plays: list[Play]) -> list[str]:
        return [str(p) for p in plays]

    return names
