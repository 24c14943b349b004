"""The coach is fair by construction: it reads one seat's view, so dealing the other seats'
hidden cards differently (the same counts, the same public history) changes nothing in the
review of that seat or in its beliefs."""

from __future__ import annotations

import copy
import dataclasses
import random

import pytest

from bigtwo.bots.expert import sample_hands
from bigtwo.bots.inference import proven_misses, proven_replies
from bigtwo.bots.revolution import StrongRevolutionBot
from bigtwo.bots.revolution_expert import known_cards
from bigtwo.coach.beliefs import beliefs_of
from bigtwo.coach.replay import seat_turns, view_at
from bigtwo.coach.review import review_deal
from bigtwo.engine.cards import Mask
from bigtwo.engine.errors import IllegalAction
from bigtwo.engine.revolution import RevolutionDeal
from bigtwo.engine.revolution_cards import NORMAL_CARDS, ids
from bigtwo.engine.rules import Rules
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


def _revolution_hand(seed: int) -> tuple[RevolutionDeal, RevolutionDeal]:
    """A hand of Big 2 RevolutioN played by ``strong`` in four seats, and the same hand
    unplayed."""
    rules = Rules.preset("revolution")
    start = RevolutionDeal.from_seed(rules, seed)
    deal = RevolutionDeal.from_seed(rules, seed)
    bot, rng = StrongRevolutionBot(), random.Random(seed)
    while not deal.over:
        deal.take(bot.choose(deal.view(deal.to_act), rng))
    return start, deal


def _never_seen(start: RevolutionDeal, played: RevolutionDeal, seat: int) -> int:
    """The cards ``seat`` never sees in the hand: not in its hand, played, discarded, face up,
    named in an action it sees, nor known to be held."""
    replay = copy.deepcopy(start)
    seen = 0
    for action in played.actions:
        view = replay.view(seat)
        seen |= view.hand | view.played | view.discards | sum(1 << c for c in view.gathering)
        for known in known_cards(view):
            seen |= known
        for shown in view.actions:
            seen |= shown.cards | shown.given
        if not action.follows:
            replay.redo(action)
    return ((1 << 104) - 1) & ~seen


def _moved(mask: int, to: dict[int, int]) -> int:
    return sum(1 << to.get(c, c) for c in ids(mask))


def test_the_expansions_beliefs_see_nothing_of_the_hidden_cards() -> None:
    """Big 2 RevolutioN: the hand replayed with the cards seat 0 never sees dealt again (each
    swapped for another it never sees, normal for normal, Revolution for Revolution, in the
    other hands and the deck alike): every choice replays, seat 0's views and its beliefs at
    every step are the same."""
    seat = 0
    for seed in range(20):
        start, played = _revolution_hand(seed)
        hidden = _never_seen(start, played, seat)
        rng = random.Random(seed)
        to: dict[int, int] = {}
        for pool in (ids(hidden & NORMAL_CARDS), ids(hidden & ~NORMAL_CARDS)):
            shuffled = pool[:]
            rng.shuffle(shuffled)
            to.update(zip(pool, shuffled, strict=True))
        hands = [_moved(h, to) for h in start.hands]
        if hands == start.hands:
            continue
        other = RevolutionDeal(start.rules, hands, deck=[to.get(c, c) for c in start.deck])
        first = copy.deepcopy(start)
        try:
            for step, action in enumerate(played.actions):
                if action.follows:
                    continue
                mine = first.view(seat)
                assert other.view(seat) == mine
                if step % 3 == 0 and mine.seat is not None:
                    assert beliefs_of(other.view(seat), random.Random(step), 30) == beliefs_of(
                        mine, random.Random(step), 30
                    )
                first.redo(action)
                other.redo(
                    action._replace(cards=_moved(action.cards, to), given=_moved(action.given, to))
                )
        except IllegalAction:  # another card swapped in broke a rule (the last card's): next
            continue
        assert other.hands != first.hands
        return
    pytest.fail("no hand of the first 20 replays with its hidden cards dealt again")
