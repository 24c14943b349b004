"""The guided expert: the expert's search with the learned network as prior, cut-off and value.

Its legality on every preset and its fairness (the same choice whatever the hidden hands)
are checked with every other bot in ``test_bots.py``; here, what is its own.
"""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

from bigtwo.bots.expert import sample_hands
from bigtwo.bots.guided import GuidedExpertBot, replayed_world
from bigtwo.bots.learned import encoder_for, shipped_network
from bigtwo.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from bigtwo.policy.encoding import index_of, max_points
from bigtwo.policy.network import LearnedNetwork, Shape


def positions(preset: str, games: int, every: int = 3) -> list[TableView]:
    """Views of the seat to act, with a real choice, every ``every`` decisions of ``games``
    one-deal matches played by the strong player's first choice."""
    from bigtwo.bots import make_bot

    strong = make_bot("strong")
    out = []
    for game in range(games):
        match = Match(RuleSet.preset(preset), players=4, seed=game, deals=1)
        deal = match.deal
        step = 0
        while not deal.over:
            view = match.view(deal.turn)
            if len(view.legal) + view.can_pass > 1:
                step += 1
                if step % every == 0:
                    out.append(view)
            move = strong.choose(view, random.Random(step))
            if move is None:
                match.pass_(deal.turn)
            else:
                match.play(deal.turn, move)
    return out


def test_a_replayed_world_is_encoded_as_the_real_view() -> None:
    """The network's observation of a sampled world's position is the seat's real one: the
    world keeps the public history and the seat's cards; only hidden hands differ."""
    rng = random.Random(5)
    checked = 0
    for preset in ("palm", "charlesworth2018"):
        for view in positions(preset, 3):
            encoder = encoder_for(view.rules, view.scoring)
            world = replayed_world(view, sample_hands(view, rng))
            assert world.hands[view.seat] == view.hand
            assert world.turn == view.turn and world.to_beat == view.to_beat
            assert np.array_equal(encoder.encode(world.view(view.seat)), encoder.encode(view))
            checked += 1
    assert checked >= 20


def test_the_networks_favourites_are_among_the_candidates() -> None:
    bot = GuidedExpertBot(prior=2)
    for view in positions("charlesworth2018", 2):
        options = ([None] if view.can_pass else []) + list(view.legal)
        logits, _ = shipped_network().scores(
            encoder_for(view.rules, view.scoring).encode(view), [index_of(p) for p in options]
        )
        favourite = options[int(np.argmax(logits))]
        candidates = bot.candidates(view)
        assert favourite in candidates
        assert len({0 if m is None else m.mask for m in candidates}) == len(candidates)


def test_it_is_deterministic_for_a_seeded_rng_and_says_why() -> None:
    view = positions("palm", 1)[2]
    bot = GuidedExpertBot(rollouts=60)
    first = bot.decide(view, random.Random(3))
    assert first == bot.decide(view, random.Random(3))
    assert "simulated deals" in first[1] or len(bot.candidates(view)) == 1


def test_early_in_a_deal_each_candidate_is_worth_the_networks_value_in_points() -> None:
    """Early in a deal nobody can go out before the seat's next choice, so every
    candidate's mean is the value head's estimate: with a network whose value is a constant,
    that constant turned into points (× the rules' bound ÷ the reward scale)."""
    constant = LearnedNetwork.initial(Shape(8, 8, 8), seed=2)
    constant.weights["value.w"][:] = 0.0
    constant.weights["value.b"][:] = -0.5
    bot = GuidedExpertBot(constant, rollouts=30, prior=1, mix=0.0)
    view = positions("charlesworth2018", 1, every=1)[0]
    assert min(view.counts) > 5  # nobody can go out in one play
    means, worlds = bot._flat(view, random.Random(1), bot.candidates(view))
    bound = max_points(RuleSet.preset("charlesworth2018"), 4)
    assert worlds >= 2
    assert means == pytest.approx([-0.5 * bound / 10.0] * len(means))


def test_the_second_half_of_the_budget_goes_to_the_finalists() -> None:
    """With ``finalists``, as in the expert, the leaders after half the budget share the rest
    of it (so more worlds are sampled), and the candidates dropped rank below them."""
    constant = LearnedNetwork.initial(Shape(8, 8, 8), seed=2)
    constant.weights["value.w"][:] = 0.0
    constant.weights["value.b"][:] = -0.5
    view = positions("charlesworth2018", 1, every=1)[0]
    assert min(view.counts) > 5  # nobody can go out in one play: every mean is the value
    value = -0.5 * max_points(RuleSet.preset("charlesworth2018"), 4) / 10.0
    worlds = {}
    for finalists in (0, 2):
        bot = GuidedExpertBot(constant, rollouts=60, prior=1, mix=0.0, finalists=finalists)
        candidates = bot.candidates(view)
        assert len(candidates) > 2
        means, worlds[finalists] = bot._flat(view, random.Random(1), candidates)
        if finalists:
            # all equal after the first half: the first two in line go on
            assert means[:2] == pytest.approx([value, value])
            assert all(m < value for m in means[2:])
        else:
            assert means == pytest.approx([value] * len(candidates))
    assert worlds[2] > worlds[0]


def test_the_shipped_guided_bot_travels_without_its_weights() -> None:
    data = pickle.dumps(GuidedExpertBot(rollouts=50, prior=4, max_steps=900, finalists=3))
    assert len(data) < 1000
    again = pickle.loads(data)
    assert again.network is shipped_network()
    assert (again.rollouts, again.prior, again.max_steps, again.finalists) == (50, 4, 900, 3)
