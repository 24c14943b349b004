"""The safe search (:mod:`bigtwo.bots.sparta`): it plays the network's move unless a candidate
clearly beats it on common worlds."""

from __future__ import annotations

import math
import os
import random
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bigtwo.bots.endgame import solve
from bigtwo.bots.expert import rollout, sample_hands
from bigtwo.bots.inference import proven_misses, proven_replies
from bigtwo.bots.learned import LearnedBot, encoder_for, rollout_policy, shipped_network
from bigtwo.bots.sparta import (
    SafeSearch,
    likelihoods,
    network_rollouts,
    paired_gain,
    resample,
    tempered,
    world_with_history,
)
from bigtwo.bots.strong import StrongBot
from bigtwo.engine import Deal
from bigtwo.engine.cards import Mask
from bigtwo.engine.plays import Play
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from bigtwo.policy.encoding import index_of
from bigtwo.policy.network import LearnedNetwork
from random_play import advance

RULES = RuleSet.preset("charlesworth2018")


def view_of(deal: Deal) -> TableView:
    return TableView.of_deal(deal, deal.turn, scoring=RULES.scoring)


def positions(count: int = 6) -> list[TableView]:
    """Seeded positions, part way through deals, where the seat to act has a choice."""
    out = []
    board = 0
    while len(out) < count:
        deal = Deal.from_seed(RULES.rules, f"sparta:{board}")
        advance(deal, random.Random(board), 6 + 5 * (board % 4))
        board += 1
        if deal.over:
            continue
        view = view_of(deal)
        if len(view.legal) + view.can_pass > 1:
            out.append(view)
    return out


def test_an_infinite_threshold_plays_the_networks_move() -> None:
    bot = SafeSearch(worlds=4, z=math.inf)
    network = LearnedBot()
    for i, view in enumerate(positions()):
        verdict = bot.decide(view, random.Random(i))
        assert verdict.chosen == 0
        assert verdict.move == network.choose(view, random.Random(0))


def test_a_zero_threshold_is_the_flat_search_on_the_same_worlds() -> None:
    """With no bar the move is the best sampled mean (the network's move on a tie), and the
    batched rollouts score every world as the one-at-a-time network rollouts do."""
    bot = SafeSearch(worlds=4, z=0.0, margin=0.0)
    policy = rollout_policy(RULES.scoring, shipped_network())
    for i, view in enumerate(positions(4)):
        verdict = bot.decide(view, random.Random(i))
        rng = random.Random(i)
        misses, replies = proven_misses(view), proven_replies(view)
        totals = [0] * len(verdict.candidates)
        for _ in range(len(verdict.points[0])):
            hands = sample_hands(view, rng, misses, replies=replies)
            for c, move in enumerate(verdict.candidates):
                deal = world_with_history(view, hands)
                deal.apply_unchecked(move)
                assert view.seat is not None
                totals[c] += rollout(deal, view.seat, RULES.scoring, policy)
        assert totals == [sum(p) for p in verdict.points]
        flat = max(range(len(totals)), key=lambda c: (totals[c], -c))
        assert verdict.chosen == flat


def test_the_same_seed_gives_the_same_move() -> None:
    bot = SafeSearch(worlds=4)
    for i, view in enumerate(positions(3)):
        first = bot.decide(view, random.Random(100 + i))
        again = bot.decide(view, random.Random(100 + i))
        assert first.move == again.move
        assert first.points == again.points


def going_out_position() -> TableView:
    """A lead with a pair left in hand (the other seats holding many cards): the pair goes
    out at once."""
    for board in range(200):
        deal = Deal.from_seed(RULES.rules, f"out:{board}")
        rng = random.Random(board)
        while not deal.over:
            view = view_of(deal)
            hand = deal.hands[deal.turn]
            if (
                view.to_beat is None
                and hand.bit_count() == 2
                and any(p.mask == hand for p in view.legal)
                and min(deal.counts()) == 2
            ):
                return view
            advance(deal, rng, 1)
    raise AssertionError("no such position in 200 seeded deals")


def test_it_leaves_the_network_for_a_clearly_better_move() -> None:
    """A network of random weights rarely leads the pair that goes out; the search always
    finds it and takes it, the gain clearing the bar in every world."""
    view = going_out_position()
    out = next(p for p in view.legal if p.mask == view.hand)
    # (the weights are seeded, so which network passes over the pair is fixed: the first one)
    networks = (LearnedNetwork.initial(seed=seed) for seed in range(1, 40))
    network = next(
        (n for n in networks if LearnedBot(n).choose(view, random.Random(0)) != out), None
    )
    assert network is not None, "every seeded random network led the pair"
    bot = SafeSearch(worlds=6, network=network)
    verdict = bot.decide(view, random.Random(5))
    assert verdict.candidates[0] != out
    assert verdict.move == out
    assert verdict.gains[verdict.chosen] > 2 * verdict.errors[verdict.chosen]


def test_worlds_keep_the_view_and_its_history() -> None:
    for i, view in enumerate(positions(3)):
        assert view.seat is not None
        hands = sample_hands(view, random.Random(i))
        deal = world_with_history(view, hands)
        assert deal.hands[view.seat] == view.hand
        assert [a.play for a in deal.actions] == [a.play for a in view.actions]
        assert deal.view(view.seat).played == view.played
        assert deal.turn == view.turn and deal.counts() == list(view.counts)
        assert all(Mask(h) == deal.hands[s] for s, h in enumerate(hands))


def test_judge_needs_the_gain_to_clear_the_bar() -> None:
    bot = SafeSearch(worlds=4, z=2.0, margin=0.5)
    moves = [None, None, None]  # the rule reads the points alone
    noisy = bot.judge(moves, [[0, 0, 0, 0], [8, -6, 6, -4], [1, 1, 1, 1]])
    assert noisy.chosen == 2  # +1 in every world clears it; +1 ± 3.4 does not
    small = bot.judge(moves, [[0, 0, 0, 0], [8, -6, 6, -4], [0, 0, 1, 0]])
    assert small.chosen == 0


def test_the_budget_caps_the_worlds_of_long_rollouts() -> None:
    deal = Deal.from_seed(RULES.rules, "budget")
    view = view_of(deal)  # 52 cards in hands
    bot = SafeSearch(worlds=24, budget=4000, least=8)
    assert bot.worlds_for(view, 5) == 15  # 4000 // (5 × 52)
    assert bot.worlds_for(view, 40) == 8  # never fewer than ``least``
    assert SafeSearch(worlds=24, budget=10**6).worlds_for(view, 5) == 24


def test_the_diagnostic_registers_the_level_with_its_network(tmp_path: Path) -> None:
    """Loading the search diagnostic registers ``expert-safe`` (as the arena's spawned workers
    load it), over the network the environment names. In a fresh process: the registry is
    the process's."""
    weights = tmp_path / "net.npz"
    LearnedNetwork.initial(seed=3).save(weights)
    script = Path(__file__).parents[1] / "scripts" / "search_diagnostic.py"
    code = (
        "import importlib.util, sys\n"
        f"spec = importlib.util.spec_from_file_location('diag', {str(script)!r})\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "from bigtwo.bots import make_bot\n"
        "bot = make_bot('expert-safe')\n"
        "print(type(bot).__mro__[1].__name__, float(bot.network.weights['state1.w'][0, 0]))\n"
    )
    env = {**os.environ, "BIGTWO_SEARCH_NETWORK": str(weights)}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout.split()
    assert out[0] == "SafeSearch"
    assert float(out[1]) == pytest.approx(
        float(LearnedNetwork.load(weights).weights["state1.w"][0, 0])
    )


def network_positions(count: int) -> list[tuple[Deal, TableView]]:
    """Seeded positions of deals the shipped network plays in every seat, part way through,
    where the seat to act has a choice: the deal (its true hands) and the seat's view."""
    network = LearnedBot()
    out = []
    board = 0
    while len(out) < count:
        deal = Deal.from_seed(RULES.rules, f"beliefs:{board}")
        rng = random.Random(board)
        for _ in range(12 + 3 * (board % 5)):
            if deal.over:
                break
            deal.apply_unchecked(network.choose(view_of(deal), rng))
        board += 1
        if not deal.over and len(view_of(deal).legal) + view_of(deal).can_pass > 1:
            out.append((deal, view_of(deal)))
    return out


def test_a_worlds_likelihood_is_the_networks_probability_of_the_other_seats_moves() -> None:
    """The true world's log-likelihood is the sum, over the other seats' actions with a choice
    (but the opening), of the log of the network's softmax probability of each, computed one
    decision at a time on the deal itself."""
    network = shipped_network()
    encoder = encoder_for(RULES.rules, RULES.scoring)
    for deal, view in network_positions(3):
        true_hands = [Mask(h) for h in deal.hands]
        replay = Deal(RULES.rules, list(deal.dealt))
        expected = 0.0
        for i, action in enumerate(deal.actions):
            if i < len(replay.actions):
                continue  # the deal's own opening (``first_play = "alone"``)
            options: list[Play | None] = [] if replay.to_beat is None else [None]
            options.extend(replay.legal_plays())
            if action.seat != view.seat and len(options) > 1 and i > 0 and not action.auto:
                logits, _ = network.scores(
                    encoder.encode(replay.view(replay.turn)), [index_of(p) for p in options]
                )
                chosen = [index_of(p) for p in options].index(index_of(action.play))
                top = logits.max()
                expected += float(logits[chosen] - top - np.log(np.exp(logits - top).sum()))
            replay.apply_unchecked(action.play)
        got = likelihoods(view, [true_hands], network, recent=1000)
        assert got[0] == pytest.approx(expected, abs=1e-4)  # float32 logits, batched or not
        assert expected < 0


def test_only_the_recent_actions_weigh() -> None:
    network = shipped_network()
    deal, view = network_positions(1)[0]
    hands = [Mask(h) for h in deal.hands]
    few, many = (
        likelihoods(view, [hands, hands], network, recent=2),
        likelihoods(view, [hands], network, recent=1000),
    )
    assert few[0] == few[1]
    assert many[0] <= few[0] <= 0


def test_resampling_draws_in_proportion_to_the_weights() -> None:
    rng = random.Random(1)
    assert resample(np.array([0.0, -math.inf, 0.0]), 4, rng) == [0, 0, 2, 2]
    assert resample(np.array([-50.0, 0.0, -60.0]), 5, rng) == [1, 1, 1, 1, 1]
    assert resample(np.array([-math.inf, -math.inf]), 3, rng) == [0, 1, 0]
    half = resample(np.array([np.log(3.0), 0.0]), 8, rng)  # three to one
    assert half.count(0) == 6 and half.count(1) == 2


def test_weighted_worlds_keep_the_search_seeded_and_within_the_pool() -> None:
    bot = SafeSearch(worlds=6, beliefs=0.1, pool=2)
    for i, (_, view) in enumerate(network_positions(2)):
        first = bot.decide(view, random.Random(7 + i))
        again = bot.decide(view, random.Random(7 + i))
        assert first.move == again.move and first.points == again.points
        if len(first.candidates) > 1:
            worlds = bot.worlds_for(view, len(first.candidates))
            assert sum(first.counts) == worlds and len(first.points[0]) == len(first.counts)


def test_a_world_drawn_twice_does_not_pass_for_two() -> None:
    once = paired_gain(np.array([2.0, -1.0, 4.0, 3.0]))
    assert once == paired_gain(np.array([2.0, -1.0, 4.0, 3.0]), [1, 1, 1, 1])
    assert once[0] == 2.0
    assert once[1] == pytest.approx(np.std([2, -1, 4, 3], ddof=1) / 2)
    gain, error = paired_gain(np.array([3.0, 0.0]), [2, 1])
    assert gain == 2.0  # (3 + 3 + 0) / 3
    # over the drawn worlds as if distinct the error would be √3 / √3 = 1; two distinct
    # worlds, one drawn twice, are 1.8 effective worlds: √(2 × 1.8 / 0.8 / 1.8) = 1.58
    assert error == pytest.approx(math.sqrt(2.0 * 1.8 / 0.8 / 1.8))
    assert paired_gain(np.array([5.0]), [4]) == (5.0, math.inf)


def test_rollouts_hand_small_ends_to_the_exact_solver() -> None:
    """With ``endgame``, a rollout that reaches that few cards is finished by exact play: its
    points are the solver's from there, where the network alone may play it otherwise."""
    network = shipped_network()
    differ = 0
    for board in range(30):
        deal = Deal.from_seed(RULES.rules, f"ends:{board}")
        rng = random.Random(board)
        while not deal.over and sum(deal.counts()) > 10:
            advance(deal, rng, 1)
        if deal.over:
            continue
        seat = (deal.turn + board) % 4
        exact = solve(deal, RULES.scoring)
        assert exact is not None
        copies = [Deal(RULES.rules, list(deal.dealt)) for _ in range(2)]
        for copy in copies:
            for action in deal.actions[len(copy.actions) :]:
                copy.apply_unchecked(action.play)
        ended = network_rollouts([copies[0]], seat, RULES.scoring, network, endgame=10)
        alone = network_rollouts([copies[1]], seat, RULES.scoring, network)
        assert ended == [exact[seat]]
        differ += ended != alone
    assert differ > 0  # the solver does change some ends


def kish(log_weights: np.ndarray) -> float:
    w = np.exp(log_weights - log_weights[np.isfinite(log_weights)].max())
    return float(w.sum() ** 2 / (w * w).sum())


def test_weights_are_tempered_to_keep_enough_worlds() -> None:
    mild = np.array([0.0, -0.1, -0.2, -0.3])
    assert np.allclose(tempered(mild, 1.0, 2.0), mild - 0.0)  # already four worlds' worth
    sharp = np.array([0.0, -40.0, -45.0, -50.0, -60.0, -80.0, -math.inf])
    out = tempered(sharp, 1.0, 3.0)
    assert kish(out) == pytest.approx(3.0, rel=1e-3)  # as sharp as three worlds allow
    assert out[0] == 0.0 and out[-1] == -math.inf  # the likeliest first, impossible kept out
    assert list(np.argsort(-out[:-1])) == [0, 1, 2, 3, 4, 5]  # the order kept
    assert np.array_equal(tempered(np.array([-math.inf, -math.inf]), 1.0, 2.0), [0.0, 0.0])


def test_strongs_move_is_a_candidate_too() -> None:
    plain, with_strong = SafeSearch(worlds=4, strong=False), SafeSearch(worlds=4)
    added = 0
    for view in positions(12):
        base, more = plain.candidates(view), with_strong.candidates(view)
        assert more[: len(base)] == base  # the network's candidates first, as before
        move = StrongBot().decide(view)[0]
        assert any(
            m is move or (m is not None and move is not None and m.mask == move.mask) for m in more
        )
        added += len(more) - len(base)
        assert len(more) - len(base) <= 1
    assert added > 0  # strong sometimes names a move the network does not rank high


def test_a_close_call_is_looked_at_again_on_fresh_worlds(monkeypatch: pytest.MonkeyPatch) -> None:
    """With ``more``, a candidate whose gain clears the margin but not its noise bar meets that
    many fresh worlds beside the network's move, and the rule is applied to all its worlds;
    a decision with no close call samples nothing more."""
    view = positions(1)[0]
    bot = SafeSearch(worlds=4, z=2.0, margin=0.5, more=12)
    first = [[0, 0, 0, 0], [8, -6, 6, -4], [0, 0, 1, 0]]  # +1 ± 3.4: close; +0.25: under margin
    asked: list[tuple[int, int | None]] = []

    def evaluate(view_, rng, candidates, worlds=None):  # type: ignore[no-untyped-def]
        asked.append((len(candidates), worlds))
        if worlds is None:
            return [row[:] for row in first], [1, 1, 1, 1]
        return [[0] * 12, [2] * 12], [1] * 12  # the second look: +2 in every fresh world

    monkeypatch.setattr(bot, "candidates", lambda v: ["own", "close", "small"])
    monkeypatch.setattr(bot, "evaluate", evaluate)
    verdict = bot.decide(view, random.Random(1))
    assert asked == [(3, None), (2, 12)]
    assert verdict.candidates == ["own", "close"]
    assert verdict.points[1] == [8, -6, 6, -4] + [2] * 12
    assert verdict.move == "close"  # +1.75 ± 0.79 on sixteen worlds clears the bar
    gain, error = paired_gain(np.asarray(verdict.points[1], dtype=np.float64))
    assert gain > max(0.5, 2 * error)

    asked.clear()
    first = [[0, 0, 0, 0], [1, 1, 1, 1], [0, 0, 1, 0]]  # a clear gain: no second look
    assert bot.decide(view, random.Random(1)).move == "close"
    assert asked == [(3, None)]
