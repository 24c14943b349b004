"""The coach's review: planted errors are marked and a better move named, an expert's play is
mostly fine, forced decisions are not rated, the same seed gives the same review, and the
marks follow their documented thresholds."""

from __future__ import annotations

import random

import pytest

from bigtwo.bots.expert import _scale
from bigtwo.coach.replay import seat_turns, view_at
from bigtwo.coach.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    DealReview,
    GameReview,
    Mark,
    MoveReview,
    mark_for,
    move_words,
    rate_move,
    review_data,
    review_deal,
    review_game,
)
from bigtwo.engine.cards import parse_cards
from bigtwo.engine.deal import Deal
from bigtwo.engine.errors import IllegalAction
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from coach_fixtures import expert_game, two_led_alone

HONGKONG = RuleSet.preset("hongkong")


def test_leading_the_two_alone_at_the_first_trick_with_a_weak_hand_is_a_blunder() -> None:
    match, seat = two_led_alone()
    record = match.deal_records()[1]
    turn = next(seat_turns(record, seat))
    assert (turn.step, move_words(turn.action.play)) == (0, "2♠")
    decision = rate_move(turn.view, turn.action.play, random.Random(0), rollouts=300)
    scale = _scale(record.rules.match.scoring)
    assert scale == 38.0
    assert decision.mark is Mark.BLUNDER
    assert decision.loss >= BLUNDER * scale and decision.loss >= 2 * decision.se
    assert move_words(decision.better) == "3♣ 4♦ 5♣ 6♠ 7♦"  # its low straight, kept whole


def test_breaking_a_straight_flush_into_singles_is_a_blunder() -> None:
    # The leader holds a straight flush and a 2: the flush, then the 2, goes out.
    hands = [
        "4s 5s 6s 7s 8s 2h",
        "3d 5h 7c 9s Jd Kh Ac 6d 8c Th Qs 2c 4c",
        "4d 5c 6h 8h 9c Tc Jh Qd Ks 3c 7d 9h 2s",
        "3h 4h 5d 6c 7h 8d Td Ts Js Qh Kc Ah As",
    ]
    deal = Deal(HONGKONG.rules, hands, leader=0)
    view = TableView.of_deal(deal, 0, scoring=HONGKONG.match.scoring)
    four = next(p for p in view.legal if p.mask == parse_cards("4s").mask)
    decision = rate_move(view, four, random.Random(0), rollouts=60)
    assert decision.mark is Mark.BLUNDER
    assert move_words(decision.better) == "4♠ 5♠ 6♠ 7♠ 8♠"
    assert decision.loss > 100  # it wins 3 hands of 13 cards; the single loses 1 to 13
    flush = decision.better
    assert rate_move(view, flush, random.Random(0), rollouts=60).mark is Mark.FINE


def test_an_expert_in_every_seat_plays_mostly_fine() -> None:
    game = expert_game()
    record = game.deal_records()[0]
    decisions = [
        d
        for seat in (0, 3)
        for d in review_deal(record, seat, seed=1, rollouts=100).decisions
        if d.rated
    ]
    fine = sum(d.mark is Mark.FINE for d in decisions)
    assert len(decisions) == 18
    assert fine >= 0.8 * len(decisions)


def test_the_same_seed_gives_the_same_review_and_another_seed_other_figures() -> None:
    record = expert_game().deal_records()[1]
    first = review_deal(record, 0, seed=7, rollouts=16)
    assert review_deal(record, 0, seed=7, rollouts=16) == first
    other = review_deal(record, 0, seed=8, rollouts=16)
    assert [d.loss for d in other.decisions] != [d.loss for d in first.decisions]
    # a deal reviewed with the game's other deals is the same as reviewed alone
    game = review_game(expert_game(), 0, deals=[2], seed=7, rollouts=16)
    assert game.deals == (first,)


def test_forced_decisions_are_not_rated_and_moves_that_go_out_are_fine() -> None:
    record = expert_game().deal_records()[1]
    review = review_deal(record, 0, seed=0, rollouts=16)
    steps = {d.step: d for d in review.decisions}
    # at play 40 seat 0 could not beat the table's five-card play: a pass, its one choice
    forced = [d for d in review.decisions if d.mark is Mark.FORCED]
    assert [(d.step, move_words(d.move)) for d in forced] == [(39, "pass")]
    view = view_at(record, 0, 39)
    assert (view.legal, view.can_pass) == ((), True)
    last = review.decisions[-1]
    assert (move_words(last.move), last.mark, last.worlds) == ("K♠", Mark.FINE, 0)
    assert steps[39].lost == 0.0 and not steps[39].rated
    rated = [d for d in review.decisions if d.rated]
    assert review.accuracy == sum(d.mark is Mark.FINE for d in rated) / len(rated)


def test_the_seat_to_be_judged_must_be_the_seat_to_act() -> None:
    record = expert_game().deal_records()[0]
    with pytest.raises(IllegalAction, match="seat to act"):
        rate_move(view_at(record, 1, 0), None, random.Random(0))


def test_marks_follow_the_thresholds_relative_to_the_scale() -> None:
    scale = 6.0
    assert (INACCURACY, MISTAKE, BLUNDER) == (0.10, 0.25, 0.50)
    assert [mark_for(loss, 0.1, scale) for loss in (0.0, 0.59, 0.6, 1.49, 1.5, 2.99, 3.0)] == [
        Mark.FINE,
        Mark.FINE,
        Mark.INACCURACY,
        Mark.INACCURACY,
        Mark.MISTAKE,
        Mark.MISTAKE,
        Mark.BLUNDER,
    ]
    assert mark_for(-4.0, 0.1, scale) is Mark.FINE  # the move played was the better one
    assert mark_for(5.0, 2.6, scale) is Mark.FINE  # not two standard errors clear of nothing
    assert mark_for(5.0, 2.5, scale) is Mark.BLUNDER
    assert mark_for(19.0, 1.0, 38.0) is Mark.BLUNDER  # palm's scale, 38
    assert mark_for(18.9, 1.0, 38.0) is Mark.MISTAKE


def _decision(deal: int, step: int, mark: Mark, loss: float) -> MoveReview:
    return MoveReview(deal, step, None, mark, loss=loss, se=0.1, worlds=10)


def test_accuracy_and_the_three_costliest_decisions() -> None:
    one = DealReview(
        1,
        0,
        6.0,
        (
            _decision(1, 0, Mark.FINE, 0.2),
            _decision(1, 4, Mark.MISTAKE, 2.0),
            _decision(1, 8, Mark.FORCED, 0.0),
            _decision(1, 12, Mark.INACCURACY, 0.7),
        ),
    )
    two = DealReview(
        2,
        0,
        6.0,
        (_decision(2, 1, Mark.BLUNDER, 9.0), _decision(2, 5, Mark.INACCURACY, 0.9)),
    )
    assert one.accuracy == 1 / 3
    assert [(d.deal, d.step) for d in one.costliest()] == [(1, 4), (1, 12)]
    game = GameReview(0, (one, two))
    assert game.accuracy == 1 / 5
    assert [(d.deal, d.step) for d in game.costliest()] == [(2, 1), (1, 4), (2, 5)]
    assert DealReview(3, 0, 6.0, (_decision(3, 0, Mark.FORCED, 0.0),)).accuracy is None
    data = review_data(game)
    assert data["accuracy"] == 0.2
    assert [c["step"] for c in data["costliest"]] == [1, 4, 5]  # type: ignore[index]


def test_a_game_review_refuses_a_seat_or_deal_the_game_lacks() -> None:
    game = expert_game()
    with pytest.raises(IllegalAction, match="There is no seat 4: the game has seats 0 to 3"):
        review_game(game, 4)
    with pytest.raises(IllegalAction, match="There is no deal 3: the record has deals 1 to 2"):
        review_game(game, 0, deals=[3])


def test_progress_counts_every_chosen_action() -> None:
    game = expert_game()
    seen: list[tuple[int, int]] = []
    review_game(game, 2, deals=[1], rollouts=8, progress=lambda d, t: seen.append((d, t)))
    chosen = sum(1 for a in game.deal_records()[0].actions if a.seat == 2 and not a.auto)
    assert seen == [(i, chosen) for i in range(chosen + 1)]
