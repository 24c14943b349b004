"""The coach is fair by construction: it reads one seat's view, so dealing the other seats'
hidden cards differently (the same counts, the same public history) changes nothing in the
review of that seat or in its beliefs."""

from __future__ import annotations

import dataclasses
import random

from bigtwo.bots.expert import sample_hands
from bigtwo.bots.inference import proven_misses, proven_replies
from bigtwo.coach.beliefs import beliefs_of
from bigtwo.coach.replay import seat_turns, view_at
from bigtwo.coach.review import review_deal
from bigtwo.engine.cards import Mask
from bigtwo.match.match import DealRecord
from coach_fixtures import expert_game


def _other_hidden_cards(record: DealRecord, seat: int, seed: int) -> DealRecord:
    """The deal with the cards the other seats never played dealt among them again, as
    ``seat`` could imagine them (what the passes proved kept): every action the same."""
    end = view_at(record, seat, len(record.actions))
    left = sample_hands(end, random.Random(seed), proven_misses(end), replies=proven_replies(end))
    played = [0] * len(record.dealt)
    for action in record.actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    dealt = tuple(
        hand if s == seat else Mask(played[s] | left[s]) for s, hand in enumerate(record.dealt)
    )
    return dataclasses.replace(record, dealt=dealt, result=None)


def test_other_hidden_cards_change_nothing_in_the_review_or_the_beliefs() -> None:
    record = expert_game().deal_records()[0]
    seat = 0
    other = _other_hidden_cards(record, seat, seed=2)
    changed = [s for s in range(4) if other.dealt[s] != record.dealt[s]]
    assert changed == [1, 2]  # seat 3 went out: it hid nothing at the end
    assert [h.bit_count() for h in other.dealt] == [13] * 4
    # the same views: the hidden cards never reach them
    assert list(seat_turns(other, seat)) == list(seat_turns(record, seat))
    assert review_deal(other, seat, seed=4, rollouts=16) == review_deal(
        record, seat, seed=4, rollouts=16
    )
    for step in (0, 5, 12, 20, 30):
        assert beliefs_of(view_at(other, seat, step), random.Random(step), 40) == beliefs_of(
            view_at(record, seat, step), random.Random(step), 40
        )


def test_a_seat_that_still_hides_cards_sees_the_same_of_its_own_deal() -> None:
    record = expert_game().deal_records()[1]
    seat = 1  # seat 1 is left with 4 cards, seats 2 and 3 with 9 and 2 hidden from it
    other = _other_hidden_cards(record, seat, seed=1)
    assert [s for s in range(4) if other.dealt[s] != record.dealt[s]] == [2, 3]
    assert review_deal(other, seat, seed=0, rollouts=16) == review_deal(
        record, seat, seed=0, rollouts=16
    )
