"""Seat views: every field of every seat's view, at every step of random deals of every
preset, holds only what that seat may know; never another seat's unplayed cards."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import Deal, IllegalAction, Play, Rules, SeatView, preset_names
from bigtwo.engine.cards import FULL_DECK
from depths import depths

PRESETS = preset_names()
FIELDS = {
    "seat",
    "rules",
    "hand",
    "counts",
    "turn",
    "leader",
    "to_beat",
    "to_beat_seat",
    "passes",
    "locked",
    "opening",
    "actions",
    "played",
    "winner",
    "legal",
    "can_pass",
}


def check_view(deal: Deal, seat: int | None) -> None:
    """Every field of the view, one by one: a new field must be added here to pass."""
    view = deal.view(seat)
    assert {f.name for f in dataclasses.fields(SeatView)} == FIELDS
    own = 0 if seat is None else deal.hands[seat]
    hidden = 0  # every card in another seat's hand, not yet played
    for other, hand in enumerate(deal.hands):
        if other != seat:
            hidden |= hand

    def no_hidden_cards(mask: int) -> None:
        assert not mask & hidden

    def seat_number(value: int | None, allow_none: bool = False, allow_minus: bool = False) -> None:
        if value is None:
            assert allow_none
            return
        assert isinstance(value, int) and not isinstance(value, bool)
        assert (-1 if allow_minus else 0) <= value < deal.players

    assert view.seat == seat
    assert view.rules is deal.rules
    assert view.hand == own and view.cards.mask == own
    assert view.counts == tuple(deal.counts())
    seat_number(view.turn)
    seat_number(view.leader)
    seat_number(view.to_beat_seat, allow_minus=True)
    seat_number(view.winner, allow_none=True)
    assert isinstance(view.passes, int) and 0 <= view.passes < deal.players
    assert isinstance(view.locked, int) and 0 <= view.locked < 1 << deal.players
    if view.to_beat is not None:
        assert isinstance(view.to_beat, Play)
        no_hidden_cards(view.to_beat.mask)
    if view.opening is not None:
        assert own >> view.opening & 1  # only its holder is told the lead card
    for action in view.actions:
        assert isinstance(action.seat, int) and isinstance(action.reason, str)
        if action.play is not None:
            no_hidden_cards(action.play.mask)
    no_hidden_cards(view.played)
    dealt = 0
    for hand in deal.dealt:
        dealt |= hand
    assert view.played | own | hidden == dealt
    assert not view.unseen & own and not view.unseen & view.played
    for play in view.legal:
        assert play.mask & ~own == 0
    if view.my_turn:
        assert list(view.legal) == deal.legal_plays(seat)
        assert view.can_pass == deal.can_pass(seat)
    else:
        assert view.legal == () and view.can_pass is False
    assert view.players == deal.players and view.is_lead == (deal.to_beat is None)


@pytest.mark.parametrize("examples", depths(30))
@pytest.mark.parametrize("preset", PRESETS)
def test_a_view_never_holds_another_seats_cards(
    preset: str, examples: int, random_deal_steps: Callable[..., Iterator[Deal]]
) -> None:
    rules = Rules.preset(preset)

    @settings(max_examples=examples, deadline=None)
    @given(seed=st.integers(0, 2**32))
    def check(seed: int) -> None:
        for deal in random_deal_steps(rules, seed):
            for seat in [*range(deal.players), None]:
                check_view(deal, seat)

    check()


def test_the_opening_card_is_told_only_to_its_holder() -> None:
    deal = Deal(Rules.preset("palm"), ["3d 4c", "5d 6c", "7d 8c", "9d Tc"])
    assert deal.view(0).opening == 0 and deal.view(0).legal
    assert [deal.view(s).opening for s in (1, 2, 3, None)] == [None] * 4


def test_spectator_view_holds_no_hand() -> None:
    deal = Deal.from_seed(Rules.preset("palm"), 3)
    view = deal.view(None)
    assert view.hand == 0 and view.legal == () and not view.can_pass and not view.my_turn
    assert view.unseen == FULL_DECK


def test_view_of_a_seat_that_does_not_exist() -> None:
    with pytest.raises(IllegalAction, match="There is no seat 4"):
        Deal.from_seed(Rules.preset("palm"), 3).view(4)


def test_views_are_immutable_snapshots() -> None:
    deal = Deal.from_seed(Rules.preset("palm"), 3)
    view = deal.view(deal.turn)
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = 0  # type: ignore[misc]
    deal.play(deal.turn, deal.legal_plays()[0])
    assert view.actions == () and len(deal.view(0).actions) == 1
