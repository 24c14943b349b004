"""The review of Big 2 RevolutioN: a recorded hand replayed to each choice of a seat, a pass
where a play went out marked a blunder with that play named, forced choices unrated, and the
same seed the same review."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

from bigtwo.coach.review import Mark, move_words
from bigtwo.coach.revolution import (
    choice_of,
    rate_choice,
    review_revolution_game,
    review_revolution_hand,
    revolution_turns,
)
from bigtwo.engine.errors import BigTwoError
from bigtwo.engine.revolution import RevolutionDeal
from bigtwo.engine.revolution_cards import NORMAL_CARDS, ids
from bigtwo.engine.rules import Rules
from bigtwo.engine.views import Move
from bigtwo.match.record_formats import read_game_file
from bigtwo.match.revolution import PlayedHand, RevolutionMatch

RECORD = Path(__file__).with_name("golden") / "simulate-revolution.txt"


def _game() -> RevolutionMatch:
    game = read_game_file(RECORD)
    assert isinstance(game, RevolutionMatch)
    return game


def test_the_turns_are_the_seats_own_recorded_choices() -> None:
    game = _game()
    hand = game.played_hands()[0]
    turns = list(revolution_turns(hand, game.ruleset.rules, 0))
    chosen = [
        (i, choice_of(a))
        for i, a in enumerate(hand.actions)
        if a.seat == 0 and not a.follows and not a.auto
    ]
    assert [(t.step, t.choice) for t in turns] == chosen
    assert all(t.view.seat == 0 and t.choice in t.view.choices for t in turns)


def test_passing_where_a_play_goes_out_is_a_blunder() -> None:
    game = _game()
    hand = game.played_hands()[0]
    turn = next(t for t in revolution_turns(hand, game.ruleset.rules, 1) if t.step == 70)
    assert move_words(turn.choice) == "4♦ 4♣ 5♦ 5♠ 4♣*"  # it went out
    out = rate_choice(turn.view, turn.choice, random.Random(0), rollouts=40)
    assert (out.mark, out.worlds) == (Mark.FINE, 0)
    passing = next(c for c in turn.view.choices if c.move is Move.PASS)
    review = rate_choice(turn.view, passing, random.Random(0), rollouts=40)
    assert review.mark is Mark.BLUNDER
    assert move_words(review.better) in ("4♦ 4♣ 5♦ 5♠ 4♣*", "4♦ 4♣ 5♦ 5♠ 5♥*")


def test_a_hand_review_is_the_same_for_a_seed_and_rates_no_forced_choice() -> None:
    game = _game()
    hand = game.played_hands()[0]
    rules = game.ruleset.rules
    first = review_revolution_hand(hand, rules, 2, seed=3, rollouts=16)
    assert review_revolution_hand(hand, rules, 2, seed=3, rollouts=16) == first
    whole = review_revolution_game(game, 2, deals=[1], seed=3, rollouts=16)
    assert whole.deals == (first,)
    turns = {t.step: t for t in revolution_turns(hand, rules, 2)}
    for decision in first.decisions:
        forced = len(turns[decision.step].view.choices) == 1
        assert (decision.mark is Mark.FORCED) == forced
    assert any(d.mark is Mark.FORCED for d in first.decisions)


def _replayed(hand: PlayedHand, rules: Rules) -> RevolutionDeal:
    deal = RevolutionDeal(rules, hand.dealt, deck=hand.deck)
    for action in hand.actions:
        if not action.follows:
            deal.redo(action)
    return deal


def test_other_hidden_cards_change_nothing_in_a_revolution_review() -> None:
    """Two other seats swap a normal card each that they held from the deal to its end: the
    same public history, other hidden cards; seat 0's views and review are the same."""
    game = _game()
    rules = game.ruleset.rules
    hand = game.played_hands()[0]
    end = _replayed(hand, rules)
    kept = [ids(hand.dealt[s] & end.hands[s] & NORMAL_CARDS) for s in range(4)]
    swapped = None
    for a, b in ((1, 2), (1, 3), (2, 3)):
        for x, y in itertools.product(kept[a], kept[b]):
            dealt = list(hand.dealt)
            dealt[a] ^= 1 << x | 1 << y
            dealt[b] ^= 1 << x | 1 << y
            other = hand._replace(dealt=tuple(dealt))
            try:
                _replayed(other, rules)
            except BigTwoError:
                continue  # that swap breaks the recorded play: try another
            swapped = other
            break
        if swapped is not None:
            break
    assert swapped is not None and swapped.dealt != hand.dealt
    assert list(revolution_turns(swapped, rules, 0)) == list(revolution_turns(hand, rules, 0))
    assert review_revolution_hand(swapped, rules, 0, seed=2, rollouts=16) == (
        review_revolution_hand(hand, rules, 0, seed=2, rollouts=16)
    )
