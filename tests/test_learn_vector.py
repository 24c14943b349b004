"""The self-play runner: its deals are real games, batched, reproducible, ready for a trainer."""

from __future__ import annotations

import random

import numpy as np
import numpy.typing as npt
import pytest

from bigtwo.engine import Deal
from bigtwo.engine.deal import deal_hands
from bigtwo.learn.deal import make_bots
from bigtwo.learn.vector import (
    Rollout,
    SelfPlayRunner,
    bench_learn,
    mlp_policy,
    uniform_policy,
)
from bigtwo.match.scoring import score_deal
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import (
    ACTION_SPACE_SIZE,
    LearningError,
    ObservationEncoder,
    action_mask,
    max_points,
    play_of,
)


def _replay(rollout: Rollout, ruleset: RuleSet, players: int, number: int) -> Deal:
    """Deal ``number`` of the rollout played again through a bare Deal from its seed: the
    rows' actions, and a pass wherever the seat to act had nothing to play; every row's
    observation and mask must be that Deal's."""
    rules = ruleset.rules
    deal = Deal(rules, deal_hands(rules, players, random.Random(rollout.seeds[number])))
    encoder = ObservationEncoder(ruleset)
    rows = np.flatnonzero(rollout.deals == number)
    masks = rollout.masks(rows)
    for row, mask in zip(rows, masks, strict=True):
        while not deal.legal_plays():
            deal.pass_(deal.turn)
        assert deal.turn == rollout.seats[row]
        view = deal.view(deal.turn)
        assert np.array_equal(rollout.observations[row], encoder.encode(view))
        assert np.array_equal(mask, action_mask(view).astype(bool))
        play = play_of(int(rollout.actions[row]), rules)
        if play is None:
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, play)
    assert deal.over
    return deal


@pytest.mark.parametrize(
    ("rules", "players"), [("palm", 4), ("pusoy-dos", 4), ("charlesworth2018", 4), ("deduction", 3)]
)
def test_the_runners_deals_are_real_games(rules: str, players: int) -> None:
    ruleset = RuleSet.preset(rules)
    runner = SelfPlayRunner(ruleset, batch=5, players=players, seed=3, normalise=False)
    rollout = runner.collect(uniform_policy(1), deals=7)
    assert len(rollout.points) == 7 and set(rollout.deals.tolist()) == set(range(7))
    for number in range(7):
        deal = _replay(rollout, ruleset, players, number)
        assert deal.winner is not None
        expected = score_deal(ruleset, deal.hands, deal.winner).points
        assert rollout.points[number] == expected
        for seat in range(players):
            rows = np.flatnonzero((rollout.deals == number) & (rollout.seats == seat))
            if rows.size:
                assert rollout.dones[rows].tolist() == [False] * (rows.size - 1) + [True]
                assert rollout.rewards[rows[-1]] == expected[seat]
                assert (rollout.returns()[rows] == expected[seat]).all()


def test_the_same_seed_and_policy_play_the_same_games() -> None:
    def run(batch: int) -> Rollout:
        return SelfPlayRunner("palm", batch=batch, seed=9).collect(uniform_policy(2), deals=6)

    a, b = run(3), run(3)
    assert a.seeds == b.seeds and a.points == b.points
    assert np.array_equal(a.actions, b.actions) and np.array_equal(a.observations, b.observations)
    assert run(6).seeds == a.seeds  # the hands do not depend on the batch size
    # the same deals, given by their seeds to a runner of another stream
    again = SelfPlayRunner("palm", batch=3, seed=4).collect(uniform_policy(2), seeds=a.seeds)
    assert again.points == a.points and np.array_equal(again.actions, a.actions)
    assert SelfPlayRunner("palm", seed=9).draw(6) == a.seeds  # draw: the stream's next seeds


def test_the_policy_is_called_once_per_step_on_the_whole_batch() -> None:
    sizes: list[int] = []
    uniform = uniform_policy(0)

    def policy(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> object:
        sizes.append(obs.shape[0])
        assert mask.shape == (obs.shape[0], ACTION_SPACE_SIZE) and mask.any(axis=1).all()
        actions = uniform(obs, mask)
        return actions, {"value": np.arange(obs.shape[0], dtype=np.float32)}

    rollout = SelfPlayRunner("palm", batch=8, seed=1).collect(policy, deals=8)  # type: ignore[arg-type]
    assert sizes[0] == 8 and sum(sizes) == len(rollout)
    assert rollout.extras["value"].shape == (len(rollout),)
    assert rollout.extras["value"][:8].tolist() == list(range(8))


def test_normalised_rewards_and_bot_seats() -> None:
    runner = SelfPlayRunner("palm", batch=4, seed=2, opponents={1: "greedy", 3: "strong"})
    rollout = runner.collect(uniform_policy(0), deals=4)
    assert set(rollout.seats.tolist()) <= {0, 2}
    bound = max_points(RuleSet.preset("palm"), 4)
    for number, points in enumerate(rollout.points):
        for seat in (0, 2):
            rows = np.flatnonzero((rollout.deals == number) & (rollout.seats == seat))
            assert rollout.rewards[rows[-1]] == np.float32(points[seat] / bound)


def test_each_deal_may_seat_bots_of_its_own() -> None:
    runner = SelfPlayRunner("palm", batch=2, seed=2)
    bots = [make_bots({1: "greedy", 2: "strong", 3: "greedy"}, 4), {}]
    rollout = runner.collect(uniform_policy(0), seeds=(5, 6), bots=bots)
    assert set(rollout.seats[rollout.deals == 0].tolist()) == {0}  # the bots' seats, not learnt
    assert set(rollout.seats[rollout.deals == 1].tolist()) == {0, 1, 2, 3}
    with pytest.raises(LearningError, match="name the bots of each of the 2 deals, not 1"):
        runner.collect(uniform_policy(0), seeds=(5, 6), bots=bots[:1])


def test_a_bad_policy_is_stopped_in_words() -> None:
    runner = SelfPlayRunner("palm", batch=2, seed=0)

    def passes(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> object:
        return np.zeros(obs.shape[0], dtype=np.int64)  # a pass, even at the opening lead

    with pytest.raises(LearningError, match="chose action 0, which is not legal"):
        runner.collect(passes, deals=2)  # type: ignore[arg-type]

    def short(obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_]) -> object:
        return np.zeros(1, dtype=np.int64)

    with pytest.raises(LearningError, match="must return 2 integer actions"):
        runner.collect(short, deals=2)  # type: ignore[arg-type]
    for asked in ({}, {"deals": 2, "seeds": [1, 2]}):
        with pytest.raises(LearningError, match="name the number of deals or their seeds"):
            runner.collect(uniform_policy(0), **asked)  # type: ignore[arg-type]
    with pytest.raises(LearningError, match="deals must be at least 1"):
        runner.collect(uniform_policy(0), seeds=[])
    with pytest.raises(LearningError, match="batch must be at least 1"):
        SelfPlayRunner("palm", batch=0)
    with pytest.raises(LearningError, match="At least one seat"):
        SelfPlayRunner("palm", opponents=dict.fromkeys(range(4), "greedy"))


def test_the_bench_reports_decisions_per_second() -> None:
    result = bench_learn("palm", deals=8, batch=4)
    assert result["decisions"] > 8 * 4 and result["decisions_per_second"] > 0
    assert result["deals"] == 8 and result["batch"] == 4 and result["policy"] == "uniform"
    network = bench_learn("palm", deals=2, batch=2, policy="mlp")
    assert network["policy"] == "mlp" and network["decisions"] > 2 * 4
    with pytest.raises(LearningError, match="Unknown policy 'best'"):
        bench_learn("palm", policy="best")


def test_the_network_policy_takes_legal_moves_only() -> None:
    rollout = SelfPlayRunner("taiwan", batch=3, seed=4).collect(mlp_policy(1, hidden=16), deals=3)
    masks = rollout.masks()
    assert masks[np.arange(len(rollout)), rollout.actions].all()


def test_bench_learn_command(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from bigtwo.cli import main

    assert main(["bench", "learn", "--deals", "4", "--batch", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["deals"] == 4 and result["decisions_per_second"] > 0
    assert result["decisions_per_second_one_deal_at_a_time"] > 0
    assert main(["bench", "learn", "--batch", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().out
    assert main(["bench", "learn", "--rules", "nowhere", "--deals", "1"]) == 2
    assert "Unknown rule preset 'nowhere'" in capsys.readouterr().err


def test_a_sparse_policy_plays_as_it_would_from_the_dense_mask() -> None:
    """The trainer's sampling policy reads each row's legal actions as index pairs, so the
    runner never builds the dense mask; handed the mask instead (its pairs found again by
    ``np.nonzero``), the same policy makes every move, log-probability and value the same."""
    from bigtwo.learn.actors import sampling_policy
    from bigtwo.learn.vector import Sparse
    from bigtwo.policy.network import LearnedNetwork, Shape

    network = LearnedNetwork.initial(Shape(16, 8, 8), seed=3)
    for preset in ("palm", "charlesworth2018"):
        sparse = sampling_policy(network, np.random.default_rng(11))
        assert isinstance(sparse, Sparse)
        dense = sampling_policy(network, np.random.default_rng(11))

        def from_mask(
            obs: npt.NDArray[np.float32], mask: npt.NDArray[np.bool_], dense: Sparse = dense
        ) -> object:
            return dense(obs, mask)  # Sparse called with a mask: an ordinary dense policy

        a = SelfPlayRunner(preset, batch=5, seed=4).collect(sparse, deals=6)
        b = SelfPlayRunner(preset, batch=5, seed=4).collect(from_mask, deals=6)  # type: ignore[arg-type]
        assert np.array_equal(a.actions, b.actions) and len(a.actions) > 100
        for name in ("logp", "value"):
            assert np.array_equal(a.extras[name], b.extras[name]), name
    # a sparse policy's illegal move is stopped in words too
    illegal = Sparse(lambda obs, rows, cols: np.full(obs.shape[0], ACTION_SPACE_SIZE + 5))
    with pytest.raises(LearningError, match=f"chose action {ACTION_SPACE_SIZE + 5}, which is not"):
        SelfPlayRunner("palm", batch=2, seed=0).collect(illegal, deals=2)
