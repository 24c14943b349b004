"""The engine's values pickle with plain ``pickle``, and come back equal.

Computer players think in worker processes, so plays, card sets, actions and seat views
travel by pickle. Play and CardSet are immutable (they refuse attribute assignment, which is
how pickle restores slots by default), so they say themselves how they are rebuilt; nothing
has to register them with a pickler first.
"""

from __future__ import annotations

import pickle
import random

import pytest

from bigtwo.engine import (
    Action,
    Card,
    CardSet,
    Deal,
    Play,
    Rules,
    SeatView,
    catalog_for,
    parse_cards,
    preset_names,
)
from random_play import advance

SLOTS = ("mask", "kind", "size", "group", "power", "order")


def round_trip(value: object) -> object:
    return pickle.loads(pickle.dumps(value))


def played_deal(rules: Rules, seed: int, steps: int) -> Deal:
    """A deal a few random actions in, so that its views hold plays and actions."""
    deal = Deal.from_seed(rules, seed)
    rng = random.Random(seed)
    return advance(deal, rng, steps)


def test_cards_and_card_sets() -> None:
    for value in (Card(0), Card(51), Card.parse("Th"), CardSet(), parse_cards("3d Th 2s")):
        back = round_trip(value)
        assert back == value and type(back) is type(value)
    assert str(round_trip(parse_cards("3d Th 2s"))) == "3d Th 2s"


@pytest.mark.parametrize("name", preset_names())
def test_every_play_of_a_hand_comes_back_whole(name: str) -> None:
    """Every slot survives, the group (an int, a Kind or the bombs') and order included, so a
    play from a worker compares and sorts as the one that was sent."""
    rules = Rules.preset(name)
    catalog = catalog_for(rules)
    hand = parse_cards("3d 3c 3h 3s 4d 5d 6d 7d 8c 9h Th Jh Qh Kh Ah 2s")
    plays = catalog.plays_in(hand.mask)
    assert plays
    for play in plays:
        back = round_trip(play)
        assert isinstance(back, Play) and back == play
        assert [getattr(back, s) for s in SLOTS] == [getattr(play, s) for s in SLOTS]
    assert round_trip(plays) == plays


def test_actions_and_seat_views() -> None:
    rules = Rules.preset("palm")
    start = Deal.from_seed(rules, seed=1)
    views = [start.view(0), start.view(start.turn), start.view(None)]
    later = played_deal(rules, seed=1, steps=12)
    views += [later.view(seat) for seat in range(later.players)] + [later.view(None)]
    assert any(v.legal for v in views) and later.actions
    for view in views:
        back = round_trip(view)
        assert isinstance(back, SeatView) and back == view
    for action in later.actions:
        back = round_trip(action)
        assert isinstance(back, Action) and back == action
    assert round_trip(later.actions) == later.actions
    assert round_trip(rules) == rules
