"""The PettingZoo AEC environment: its API check, seeded resets, every seat's points."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from pettingzoo.test import api_test

from bigtwo.learn.aec import BigTwoAECEnv
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import PASS, max_points


@pytest.mark.parametrize(
    ("rules", "players"),
    [("palm", None), ("charlesworth2018", None), ("pusoy-dos", None), ("deduction", 2)],
)
def test_passes_pettingzoos_own_check(rules: str, players: int | None) -> None:
    with warnings.catch_warnings():
        # the checker's advice for simple spaces: a dict of observation and mask is the
        # convention of PettingZoo's own card and board games
        warnings.filterwarnings("ignore", message="Observation space for each agent probably")
        warnings.filterwarnings("ignore", message="Observation is not a NumPy array")
        api_test(BigTwoAECEnv(rules, players=players, render_mode="ansi"), num_cycles=200)


def _play(env: BigTwoAECEnv, seed: int) -> tuple[list[tuple[str, int]], dict[str, float]]:
    env.reset(seed=seed)
    moves: list[tuple[str, int]] = []
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert sorted(info["legal"]) == legal.tolist()
        action = int(legal[len(moves) % len(legal)])
        moves.append((agent, action))
        env.step(action)
    return moves, final


def test_a_seeded_reset_reproduces_the_deal() -> None:
    env = BigTwoAECEnv("palm")
    first, again = _play(env, 5), _play(env, 5)
    assert first == again
    assert _play(env, 6)[0] != first[0]


def test_every_agent_ends_with_its_points() -> None:
    env = BigTwoAECEnv("palm")
    for seed in range(5):
        _, final = _play(env, seed)
        assert env.deal is not None
        points = env.deal.points
        assert final == {f"player_{s}": float(points[s]) for s in range(4)}
        assert sum(final.values()) == 0 and max(final.values()) > 0


def test_only_the_seat_to_act_has_a_mask() -> None:
    env = BigTwoAECEnv("palm", normalise=True)
    env.reset(seed=2)
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == env.agent_selection)


def test_an_illegal_action_ends_the_deal_for_everyone() -> None:
    env = BigTwoAECEnv("palm", normalise=True)
    env.reset(seed=1)
    offender = env.agent_selection
    obs = env.observe(offender)
    assert obs["action_mask"][PASS] == 0  # the opening lead: no pass
    env.step(PASS)
    assert all(env.terminations.values())
    assert env.rewards[offender] == -1.0
    assert all(r == 0 for a, r in env.rewards.items() if a != offender)
    assert "cannot pass" in env.infos[offender]["illegal"]
    for _agent in env.agent_iter():  # every agent is then stepped out with None
        assert env.last()[2]
        env.step(None)
    assert env.agents == []
    raw = BigTwoAECEnv("palm")
    raw.reset(seed=1)
    raw.step(PASS)
    assert raw.rewards[raw.agent_selection] == -max_points(RuleSet.preset("palm"), 4)
