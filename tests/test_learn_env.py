"""The Gymnasium environment: its API check, seeded resets, rewards that are the deal's points."""

from __future__ import annotations

import random
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from bigtwo.bots import Bot
from bigtwo.engine import BigTwoError, Deal, Mask, Play, Rules, catalog_for
from bigtwo.engine.deal import deal_hands
from bigtwo.learn.env import ENV_ID, BigTwoEnv
from bigtwo.match.scoring import score_deal
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from bigtwo.policy.encoding import ACTION_SPACE_SIZE, PASS, LearningError, max_points


@pytest.mark.parametrize(
    ("rules", "opponents", "players"),
    [
        ("palm", "strong", None),
        ("charlesworth2018", "greedy", None),
        ("pusoy-dos", "random", None),
        ("deduction", "classic", 3),
        ("hongkong", "greedy", 2),
    ],
)
def test_passes_gymnasiums_own_check(rules: str, opponents: str, players: int | None) -> None:
    env = gym.make(ENV_ID, rules=rules, opponents=opponents, players=players, seat=None)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a warning of the checker is a failure here
        check_env(env.unwrapped, skip_render_check=True)


def _play(env: BigTwoEnv, seed: int, pick: int = 0) -> list[tuple[np.ndarray, float, bool]]:
    obs, info = env.reset(seed=seed)
    out = [(obs["observation"], 0.0, False)]
    done = False
    while not done:
        legal = info["legal"]
        obs, reward, done, truncated, info = env.step(legal[pick % len(legal)])
        assert not truncated
        out.append((obs["observation"], float(reward), done))
    return out


def test_a_seeded_reset_reproduces_the_deal_and_the_bots() -> None:
    env = BigTwoEnv("palm", opponents="strong", seat=None)
    first, again = _play(env, 11), _play(env, 11)
    assert len(first) == len(again)
    for (a, ra, da), (b, rb, db) in zip(first, again, strict=True):
        assert np.array_equal(a, b) and ra == rb and da == db
    other = _play(env, 12)
    assert not np.array_equal(first[0][0], other[0][0])


def test_the_reward_is_the_deals_points_for_the_learning_seat() -> None:
    for seed in range(6):
        env = BigTwoEnv("palm", opponents=["greedy", "random", "strong"], seat=2)
        obs, info = env.reset(seed=seed)
        deal_seed = env.deal_seed
        chosen = []
        done = False
        total = 0.0
        while not done:
            action = info["legal"][-1]  # the dearest legal play
            chosen.append(action)
            assert obs["action_mask"][action] == 1 and info["action_mask"][action] == 1
            obs, reward, done, _, info = env.step(action)
            total += float(reward)
        assert info["points"][2] == total
        assert sum(info["points"]) == 0  # palm: the winner collects
        # the hands were those the seed deals
        dealt = deal_hands(Rules.preset("palm"), 4, __import__("random").Random(deal_seed))
        assert env.deal is not None and list(env.deal.match.results[-1].dealt) == dealt


def test_normalised_rewards_lie_within_one() -> None:
    env = BigTwoEnv("palm", opponents="random", normalise=True)
    bound = max_points(RuleSet.preset("palm"), 4)
    for seed in range(8):
        steps = _play(env, seed, pick=1)
        reward = steps[-1][1]
        assert -1.0 <= reward <= 1.0
        assert env.deal is not None
        assert reward == env.deal.points[0] / bound


def test_an_illegal_action_ends_the_episode_with_the_worst_reward() -> None:
    env = BigTwoEnv("palm", opponents="greedy")
    obs, info = env.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, reward, done, truncated, info = env.step(illegal)
    assert done and not truncated
    assert reward == -max_points(RuleSet.preset("palm"), 4)
    assert info["illegal"]  # the reason in words
    with pytest.raises(LearningError, match="call reset"):
        env.step(PASS)
    env.reset(seed=4)
    _, reward, done, _, info = env.step(ACTION_SPACE_SIZE + 3)
    assert done and "There is no action" in info["illegal"]


def test_a_lead_cannot_be_passed() -> None:
    env = BigTwoEnv("palm", opponents="greedy", normalise=True)
    for seed in range(20):
        obs, info = env.reset(seed=seed)
        if obs["action_mask"][PASS] == 0:
            _, reward, done, _, info = env.step(PASS)
            assert done and reward == -1.0 and "cannot pass" in info["illegal"]
            return
    pytest.fail("no deal began with the learning seat to lead")


def test_the_learning_seat_is_asked_only_when_it_has_a_choice() -> None:
    env = BigTwoEnv("palm", opponents="greedy", seat=1)
    obs, info = env.reset(seed=3)
    while True:
        assert len(info["legal"]) >= 1 and info["legal"] != [PASS]
        assert env.deal is not None and env.deal.turn == 1
        obs, _, done, _, info = env.step(info["legal"][0])
        if done:
            break


def test_bad_settings_are_refused_in_words() -> None:
    with pytest.raises(LearningError, match="4 players need 3 opponents, not 2"):
        BigTwoEnv("palm", opponents=["greedy", "strong"])
    with pytest.raises(BigTwoError, match="Unknown computer player 'nobody'"):
        BigTwoEnv("palm", opponents="nobody")
    with pytest.raises(LearningError, match="palm is played by 4 players, not 3"):
        BigTwoEnv("palm", players=3)
    with pytest.raises(LearningError, match="There is no seat 4"):
        BigTwoEnv("palm", seat=4)
    with pytest.raises(BigTwoError, match="Unknown rule preset"):
        BigTwoEnv("nowhere")


def test_the_deal_played_is_a_real_deal() -> None:
    # the same choices through a bare Deal, with the bots' moves read from the match
    env = BigTwoEnv("charlesworth2018", opponents="greedy")
    _play(env, 21)
    assert env.deal is not None
    result = env.deal.match.results[-1]
    deal = Deal(Rules.preset("charlesworth2018"), result.dealt)
    for action in result.actions:
        if action.auto and action.play is not None:
            continue  # the 3d played by itself
        if action.play is None:
            deal.pass_(action.seat)
        else:
            deal.play(action.seat, action.play)
    assert deal.over and deal.winner == result.winner
    expected = score_deal(RuleSet.preset("charlesworth2018"), deal.hands, deal.winner)
    assert expected.points == result.points


def test_ansi_render_shows_the_learning_seats_hand() -> None:
    env = BigTwoEnv("palm", opponents="greedy", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.startswith("seat 0: ") and "to beat" in text
    assert BigTwoEnv("palm").render() is None
    with pytest.raises(LearningError, match="render_mode must be 'ansi'"):
        BigTwoEnv("palm", render_mode="human")


class _Cheat(Bot):
    """Plays cards it does not hold (for the test below)."""

    name = "cheat-for-tests"

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        return next(p for p in catalog_for(view.rules).plays_in(Mask(view.unseen)))


def test_an_opponents_illegal_play_is_an_error_not_the_learners_loss(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from bigtwo import bots

    # Registered for this test only: the other tests' lists of levels never see it.
    monkeypatch.setitem(bots._FACTORIES["bigtwo"], "cheat-for-tests", _Cheat)
    env = BigTwoEnv("palm", opponents="cheat-for-tests", seat=0)
    for seed in range(20):
        try:
            obs, info = env.reset(seed=seed)
        except BigTwoError as exc:
            assert "chose an illegal play" in str(exc)
            continue  # the cheat was to act before the learning seat
        with pytest.raises(BigTwoError, match="cheat-for-tests in seat 1 chose an illegal play"):
            env.step(info["legal"][0])
        return
    pytest.fail("the learning seat never acted first")
