"""The exact endgame solver (:mod:`bigtwo.bots.endgame`): max-n play of a deal whose every hand
is known, with a table of positions solved, cuts that keep the answer exact and a node bound."""

from __future__ import annotations

import random

import pytest

from bigtwo.bots.endgame import ENDGAME_CARDS, best_option, small_enough, solve
from bigtwo.bots.expert import deal_points
from bigtwo.engine.deal import Deal
from bigtwo.engine.plays import Play
from bigtwo.match.settings import RuleSet, Scoring
from random_play import snapshot

C2018 = RuleSet.preset("charlesworth2018")
# Rules that reach every part of the key and of the cuts: ``pass_lock``, ``last_card``,
# bombs, scoring by rank with a multiplier, and a winner who collects nothing.
HOUSE = RuleSet.from_toml('base = "palm"\nlast_card = true\npass_lock = true')
RULE_SETS = [
    C2018,
    RuleSet.preset("palm"),
    RuleSet.preset("pusoy-dos"),
    RuleSet.preset("deduction"),
    RuleSet.preset("taiwan"),
    HOUSE,
]


def options(deal: Deal) -> list[Play | None]:
    """What the seat to act may do: a pass when there is a play to beat, then its plays."""
    return ([None] if deal.to_beat is not None else []) + deal.legal_plays()


def endgame(rules: RuleSet, rng: random.Random, cards: int) -> Deal:
    """A deal played forward at random until at most ``cards`` cards are left in hands."""
    while True:
        deal = Deal.from_seed(rules.rules, rng.random())
        while deal.winner is None and sum(deal.counts()) > cards:
            chosen = options(deal)
            pick = None if deal.to_beat is not None and rng.random() < 0.3 else rng.choice(chosen)
            deal.apply_unchecked(pick)
        if deal.winner is None:
            return deal


def state(deal: Deal) -> tuple[object, ...]:
    """Everything that says where a deal stands, and its actions."""
    return (*snapshot(deal), list(deal.actions))


def reference(deal: Deal, scoring: Scoring) -> tuple[int, ...]:
    """Plain max-n, no cuts: the first best of the plays from the last to the first, then
    the pass (the solver's documented order), remembered by the whole state."""
    memo: dict[tuple[object, ...], tuple[int, ...]] = {}

    def value() -> tuple[int, ...]:
        if deal.winner is not None:
            winner = deal.winner
            return tuple(deal_points(scoring, deal.hands, winner, s) for s in range(4))
        key = (*deal.hands, deal.turn, deal.to_beat, deal.to_beat_seat, deal.passes, deal.locked)
        if key in memo:
            return memo[key]
        seat = deal.turn
        order: list[Play | None] = deal.legal_plays()[::-1]
        if deal.to_beat is not None:
            order.append(None)
        best: tuple[int, ...] | None = None
        for p in order:
            deal.apply_unchecked(p)
            v = value()
            deal.undo()
            if best is None or v[seat] > best[seat]:
                best = v
        assert best is not None
        memo[key] = best
        return best

    return value()


def test_a_seat_that_can_go_out_does_and_is_paid_what_deal_points_says() -> None:
    deal = Deal(C2018.rules, ["5d", "6d 7d", "8d 9d Td", "Jd Qd"], leader=0)
    found = best_option(deal, C2018.scoring)
    assert found is not None
    move, points = found
    assert move is not None and str(move) == "5d"
    deal.apply_unchecked(move)
    assert deal.winner == 0
    assert points == [deal_points(C2018.scoring, deal.hands, 0, s) for s in range(4)]
    assert points == [7, -2, -3, -2]


def test_the_pair_first_wins_where_the_cheapest_single_loses() -> None:
    """Seat 0 holds a pair and a low single; seat 1 waits with the 2 of spades. The single
    first (the cheapest play) lets seat 1 out; the pair, which nobody can beat, wins."""
    deal = Deal(C2018.rules, ["3d 4d 4c", "2s", "5d 6c 8h", "7d 9c Th"], leader=0)
    assert str(deal.legal_plays()[0]) == "3d"
    found = best_option(deal, C2018.scoring)
    assert found is not None
    move, points = found
    assert move is not None and move.size == 2
    assert points == [7, -1, -3, -3]
    # the cheapest single first: seat 1 goes out at once
    deal.apply_unchecked(deal.legal_plays()[0])
    assert solve(deal, C2018.scoring) == [-2, 8, -3, -3]


def test_the_top_single_first_wins_where_the_cheapest_reply_loses() -> None:
    """Seat 1 answers the 5d: with its 6d seat 2's ace goes out; with its 2 of spades, which
    nobody beats, it leads the 6d next and is out first."""
    deal = Deal(C2018.rules, ["5d 9s", "6d 2s", "Ah", "3c 4c"], leader=0)
    deal.apply_unchecked(deal.legal_plays()[0])  # 5d
    assert deal.turn == 1 and [str(p) for p in deal.legal_plays()] == ["6d", "2s"]
    found = best_option(deal, C2018.scoring)
    assert found is not None
    assert str(found[0]) == "2s"
    assert found[1] == [-1, 4, -1, -2] == list(reference(deal, C2018.scoring))
    deal.apply_unchecked(deal.legal_plays()[0])  # 6d
    assert solve(deal, C2018.scoring) == [-1, -1, 4, -2]


def test_the_deal_is_left_as_it_was_given() -> None:
    rng = random.Random(7)
    for rules in RULE_SETS[:3]:
        deal = endgame(rules, rng, 12)
        before = state(deal)
        assert solve(deal, rules.scoring, nodes=10**6) is not None
        assert state(deal) == before
        assert solve(deal, rules.scoring, nodes=3) is None  # cut short deep in the search
        assert state(deal) == before


def test_none_comes_back_past_the_node_bound_and_the_bound_is_deterministic() -> None:
    rng = random.Random(3)
    deal = endgame(C2018, rng, 12)
    while solve(deal, C2018.scoring, nodes=30) is not None:
        deal = endgame(C2018, rng, 12)
    exact = solve(deal, C2018.scoring, nodes=10**6)
    assert exact is not None
    assert solve(deal, C2018.scoring, nodes=30) is None
    lo, hi = 30, 10**6  # the least bound that solves it, found twice alike
    while lo + 1 < hi:
        mid = (lo + hi) // 2
        lo, hi = (lo, mid) if solve(deal, C2018.scoring, nodes=mid) is not None else (mid, hi)
    assert solve(deal, C2018.scoring, nodes=hi) == exact
    assert solve(deal, C2018.scoring, nodes=hi - 1) is None


def test_small_enough_counts_the_cards_left() -> None:
    deal = Deal(C2018.rules, ["5d", "6d 7d", "8d 9d Td", "Jd Qd"], leader=0)
    assert small_enough(deal, 8) and not small_enough(deal, 7)
    assert small_enough(deal) == (ENDGAME_CARDS >= 8)
    deal.apply_unchecked(deal.legal_plays()[0])
    assert not small_enough(deal, 52)  # over: nothing to solve


def test_a_deal_already_over_gives_its_points() -> None:
    deal = Deal(C2018.rules, ["5d", "6d 7d", "8d 9d Td", "Jd Qd"], leader=0)
    deal.apply_unchecked(deal.legal_plays()[0])
    assert solve(deal, C2018.scoring) == [7, -2, -3, -2]


def test_a_scoring_that_rewards_some_cards_is_searched_in_full() -> None:
    """With low cards worth points to their holder, going out at once need not be best: no
    cut applies, and the answer is still plain max-n's where the cuts would have changed it."""
    odd = Scoring(per_card="rank", rank_values=(-9, -9, -9, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13))
    rng = random.Random(0)
    for _ in range(6):
        deal = endgame(C2018, rng, 8)
        before = state(deal)
        assert solve(deal, odd, nodes=10**6) == list(reference(deal, odd))
        assert state(deal) == before


@pytest.mark.parametrize("rules", RULE_SETS[:2], ids=["charlesworth2018", "palm"])
def test_the_cuts_change_no_answer(rules: RuleSet) -> None:
    """Ends of 10 and 11 cards, where both cuts bite often: the points are plain max-n's."""
    rng = random.Random(99)
    for i in range(12):
        deal = endgame(rules, rng, 10 + i % 2)
        assert solve(deal, rules.scoring, nodes=10**6) == list(reference(deal, rules.scoring))


@pytest.mark.parametrize("rules", RULE_SETS, ids=[r.name for r in RULE_SETS[:-1]] + ["house"])
def test_max_n_is_consistent_and_its_line_reaches_its_points(rules: RuleSet) -> None:
    """On random endgames: the solver's points are plain max-n's; no option of the seat to act,
    followed by the solver's play, gets that seat more; and following the solver's choices to
    the end of the deal reaches exactly the points it gave."""
    scoring = rules.scoring
    rng = random.Random(rules.name)
    for i in range(12):
        deal = endgame(rules, rng, 8 + i % 4)
        before = state(deal)
        found = best_option(deal, scoring, nodes=10**6)
        assert found is not None
        move, points = found
        assert points == list(reference(deal, scoring))
        seat = deal.turn
        for option in options(deal):
            deal.apply_unchecked(option)
            after = solve(deal, scoring, nodes=10**6)
            deal.undo()
            assert after is not None and after[seat] <= points[seat]
            if option == move:
                assert after == points
        assert state(deal) == before
        depth = len(deal.actions)
        while deal.winner is None:
            step = best_option(deal, scoring, nodes=10**6)
            assert step is not None and step[1] == points
            deal.apply_unchecked(step[0])
        winner = deal.winner
        assert points == [deal_points(scoring, deal.hands, winner, s) for s in range(4)]
        while len(deal.actions) > depth:
            deal.undo()
        assert state(deal) == before
