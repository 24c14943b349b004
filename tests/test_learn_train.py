"""The trainer (``bigtwo train``, PyTorch): tiny runs that resume bit for bit, an export that
plays as the numpy network computes it, and the command's files and refusals."""

from __future__ import annotations

import csv
import dataclasses
from pathlib import Path

import numpy as np
import pytest

# Collected only when the train marker is asked for (tests/conftest.py): make test-train, which
# installs torch. There a missing torch fails the run instead of skipping it.
import torch  # noqa: E402

from bigtwo.cli import main  # noqa: E402
from bigtwo.engine.errors import BigTwoError  # noqa: E402
from bigtwo.learn.actors import Shard  # noqa: E402
from bigtwo.learn.batch import advantages, normalised, ragged, segment_log_softmax  # noqa: E402
from bigtwo.learn.curves import write_curves  # noqa: E402
from bigtwo.learn.train import CHECKPOINT, CURVES, EXPORT, TrainConfig, Trainer  # noqa: E402
from bigtwo.learn.vector import SelfPlayRunner, uniform_policy  # noqa: E402
from bigtwo.policy.encoding import ACTION_SPACE_SIZE, LearningError  # noqa: E402
from bigtwo.policy.network import LearnedNetwork  # noqa: E402

pytestmark = pytest.mark.train

TINY = TrainConfig(
    deals=8,
    batch=4,
    epochs=2,
    minibatch=64,
    hidden=32,
    action_hidden=16,
    embed=16,
    eval_every=2,
    eval_deals=4,
    eval_opponent="greedy",
)


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def _weights(trainer: Trainer) -> dict[str, np.ndarray]:
    """The policy's weights, and the critic's where the run has one."""
    state = dict(trainer.model.state_dict())
    if trainer.critic is not None:
        state.update({f"critic.{k}": v for k, v in trainer.critic.net.state_dict().items()})
    return {k: v.detach().numpy().copy() for k, v in state.items()}


SCHEDULED = dataclasses.replace(TINY, schedule_deals=40, entropy=0.02, entropy_end=0.004)
CRITIC = dataclasses.replace(TINY, critic="full")
STRUCTURE = dataclasses.replace(TINY, structure=True)
LEAGUE = dataclasses.replace(
    TINY, league=4, league_bots=("strong", "greedy"), league_every=2, league_size=2
)


@pytest.mark.parametrize(
    "config",
    [TINY, SCHEDULED, CRITIC, STRUCTURE, LEAGUE],
    ids=["constant", "scheduled", "critic", "structure", "league"],
)
def test_a_resumed_run_is_the_same_run_bit_for_bit(tmp_path: Path, config: TrainConfig) -> None:
    straight = Trainer.create(tmp_path / "straight", config, device="cpu")
    for _ in range(3):
        straight.iterate()
    first = Trainer.create(tmp_path / "stopped", config, device="cpu")
    first.iterate()
    del first
    again = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert again.iteration == 1
    again.iterate()
    again.iterate()
    a, b = _weights(straight), _weights(again)
    assert a.keys() == b.keys()
    for key in a:
        assert np.array_equal(a[key], b[key]), key
    for p, q in zip(straight.curves, again.curves, strict=True):
        assert (p.policy_loss, p.value_loss, p.entropy, p.eval_points) == (
            q.policy_loss,
            q.value_loss,
            q.entropy,
            q.eval_points,
        )
    assert straight.curves[1].eval_points is not None  # the evaluation ran in both
    # and the optimiser's moments too: one more step from each stays equal
    straight.iterate()
    again.iterate()
    assert all(
        np.array_equal(x, y)
        for x, y in zip(_weights(straight).values(), _weights(again).values(), strict=True)
    )
    # the curves each save keeps, made a row at a time, are the whole curves made at once
    for run in (straight, again):
        whole = tmp_path / "whole.csv"
        write_curves(run.curves, whole)
        assert (run.folder / CURVES).read_bytes() == whole.read_bytes()
        saved = torch.load(run.folder / CHECKPOINT, map_location="cpu", weights_only=False)
        assert saved["curves"] == [dataclasses.asdict(p) for p in run.curves]


def test_learning_changes_the_weights_and_the_checkpoint_keeps_them(tmp_path: Path) -> None:
    trainer = Trainer.create(tmp_path / "run", TINY, device="cpu")
    before = _weights(trainer)
    trainer.iterate()
    after = _weights(trainer)
    assert any(not np.array_equal(before[k], after[k]) for k in before)
    resumed = Trainer.resume(tmp_path / "run", device="cpu")
    assert all(np.array_equal(after[k], v) for k, v in _weights(resumed).items())


@pytest.mark.parametrize("joint", [0, 16])
def test_the_export_scores_moves_as_the_torch_network_does(tmp_path: Path, joint: int) -> None:
    trainer = Trainer.create(tmp_path / "run", dataclasses.replace(TINY, joint=joint), device="cpu")
    trainer.iterate()
    trainer.export()
    network = LearnedNetwork.load(tmp_path / "run" / EXPORT)
    assert network.card["iterations"] == 1 and network.card["deals"] == 8
    assert network.shape.joint == joint
    rollout = SelfPlayRunner("palm", batch=4, seed=5).collect(uniform_policy(1), deals=2)
    rows = np.arange(len(rollout))
    legal, row_of = ragged(rollout.legal, rollout.legal_start, rows)
    with torch.no_grad():
        obs = torch.from_numpy(rollout.observations)
        h = trainer.model.state(obs)
        flat = trainer.model.logits(
            obs, h, torch.from_numpy(legal), torch.from_numpy(row_of)
        ).numpy()
        values = trainer.model.value(h).numpy()
    for row in rows[:40]:
        mine = rollout.legal[rollout.legal_start[row] : rollout.legal_start[row + 1]]
        logits, value = network.scores(rollout.observations[row], mine)
        np.testing.assert_allclose(logits, flat[row_of == row], rtol=1e-4, atol=1e-5)
        assert value == pytest.approx(float(values[row]), rel=1e-4, abs=1e-5)


def test_segment_log_softmax_is_the_masked_softmax() -> None:
    gen = torch.Generator().manual_seed(3)
    dense = torch.randn(5, 40, generator=gen)
    mask = torch.rand(5, 40, generator=gen) < 0.3
    mask[:, 0] = True
    rows, cols = mask.nonzero(as_tuple=True)
    logp, entropy = segment_log_softmax(dense[rows, cols], rows, 5)
    expected = torch.log_softmax(dense.masked_fill(~mask, -torch.inf), dim=1)
    assert torch.allclose(logp, expected[rows, cols], atol=1e-6)
    p = expected.exp()
    want = -(p * expected.masked_fill(~mask, 0.0)).sum(1)
    assert torch.allclose(entropy, want, atol=1e-6)


def test_ragged_picks_each_rows_legal_actions() -> None:
    rollout = SelfPlayRunner("palm", batch=2, seed=2).collect(uniform_policy(0), deals=1)
    rows = np.array([3, 0, 5])
    legal, row_of = ragged(rollout.legal, rollout.legal_start, rows)
    masks = rollout.masks(rows)
    for i in range(3):
        assert sorted(legal[row_of == i].tolist()) == np.flatnonzero(masks[i]).tolist()
    assert legal.max() < ACTION_SPACE_SIZE


@pytest.mark.parametrize("joint", [0, 16])
def test_sampled_moves_are_legal_and_follow_the_network(tmp_path: Path, joint: int) -> None:
    trainer = Trainer.create(tmp_path / "run", dataclasses.replace(TINY, joint=joint), device="cpu")
    trainer.iterate()  # weights of their own, not the initial ones
    shard = Shard(trainer.runners[0], (11, 12, 13), 5)
    [rollout] = trainer.actors.play(trainer.model.export({}), [shard])
    assert rollout.seeds == [11, 12, 13]
    masks = rollout.masks()
    assert masks[np.arange(len(rollout)), rollout.actions].all()
    assert (rollout.extras["logp"] <= 0).all()
    # the logged log-probability is the chosen move's under the torch network, and the value
    rows = np.arange(len(rollout))
    legal, row_of = ragged(rollout.legal, rollout.legal_start, rows)
    with torch.no_grad():
        obs = torch.from_numpy(rollout.observations)
        h = trainer.model.state(obs)
        logits = trainer.model.logits(obs, h, torch.from_numpy(legal), torch.from_numpy(row_of))
        logp, _ = segment_log_softmax(logits, torch.from_numpy(row_of), len(rows))
        values = trainer.model.value(h).numpy()
    chosen = legal == rollout.actions[row_of]
    np.testing.assert_allclose(logp.numpy()[chosen], rollout.extras["logp"], atol=1e-5)
    np.testing.assert_allclose(values, rollout.extras["value"], rtol=1e-4, atol=1e-5)
    # a shard plays the same again, and another sampler seed samples other moves
    [again] = trainer.actors.play(trainer.model.export({}), [shard])
    assert np.array_equal(again.actions, rollout.actions)
    other = [
        trainer.actors.play(trainer.model.export({}), [Shard(shard.runner, shard.seeds, s)])[0]
        for s in range(6, 9)
    ]
    assert any(
        len(o) != len(rollout) or not np.array_equal(o.actions, rollout.actions) for o in other
    )


def test_the_run_is_the_same_on_any_number_of_actor_processes(tmp_path: Path) -> None:
    config = dataclasses.replace(TINY, shards=2, eval_every=0)
    here = Trainer.create(tmp_path / "here", config, device="cpu")
    spread = Trainer.create(tmp_path / "spread", config, device="cpu", actors=2)
    try:
        for _ in range(2):
            a, b = here.iterate(), spread.iterate()
            assert (a.decisions, a.policy_loss, a.value_loss) == (
                b.decisions,
                b.policy_loss,
                b.value_loss,
            )
        assert spread.actors._pool is not None  # it did play on other processes
        rollouts = spread.collect()
    finally:
        spread.close()
    assert [len(r.points) for r in rollouts] == [2, 2, 2, 2]  # 2 rule sets × 2 shards of 4 deals
    for key, value in _weights(here).items():
        assert np.array_equal(value, _weights(spread)[key]), key
    # the CPU time counts the actors' playing, measured where they played
    assert all(r.cpu_seconds > 0.0 for r in rollouts)
    assert spread.curves[-1].cpu_seconds == pytest.approx(spread.cpu_seconds, abs=0.01)


def test_the_schedules_anneal_the_rate_and_move_the_entropy_bonus(tmp_path: Path) -> None:
    config = dataclasses.replace(
        TINY, schedule_deals=16, entropy=0.02, entropy_end=0.004, eval_every=0
    )
    trainer = Trainer.create(tmp_path / "run", config, device="cpu")
    assert trainer.rates() == (config.lr, 0.02)
    trainer.iterate()  # 8 of the 16 deals: half way, having learnt at the first rates
    assert trainer.optimiser.param_groups[0]["lr"] == config.lr
    lr, bonus = trainer.rates()
    assert lr == pytest.approx(config.lr / 2) and bonus == pytest.approx(0.012)
    trainer.iterate()
    assert trainer.rates() == (0.0, pytest.approx(0.004))
    before = _weights(trainer)
    trainer.iterate()  # past the schedule: the rate stays zero and nothing moves
    assert trainer.rates() == (0.0, pytest.approx(0.004))
    assert all(np.array_equal(before[k], v) for k, v in _weights(trainer).items())
    # without a schedule the rates stay as set
    plain = Trainer.create(tmp_path / "plain", TINY, device="cpu")
    plain.iterate()
    assert plain.rates() == (TINY.lr, TINY.entropy)


def test_advantages_are_normalised_within_each_rule_set() -> None:
    # palm's advantages are tens of times charlesworth2018's: normalised together, the
    # second rule set's rows are all but flat; within each rule set, each has unit spread.
    adv = torch.tensor([40.0, -20.0, 10.0, 0.5, -0.3, 0.1], dtype=torch.float64)
    groups = torch.tensor([0, 0, 0, 1, 1, 1])
    together = normalised(adv, None)
    apart = normalised(adv, groups)
    assert float(together[3:].std()) < 0.05
    for g in (0, 1):
        rows = apart[groups == g]
        assert float(rows.mean()) == pytest.approx(0.0, abs=1e-9)
        assert float(rows.std()) == pytest.approx(1.0, abs=1e-6)
    assert torch.equal(normalised(adv[:1], None), adv[:1])  # one row is left as it is
    lone = normalised(adv[:4], groups[:4])
    assert float(lone[3]) == 0.5  # a rule set with one row in the minibatch


def test_a_run_of_two_rule_sets_knows_each_rows_rule_set(tmp_path: Path) -> None:
    config = dataclasses.replace(
        TINY, rules=("palm", "charlesworth2018"), normalise="rules", eval_every=0, shards=2
    )
    trainer = Trainer.create(tmp_path / "run", config, device="cpu")
    grouped = trainer.collect_grouped()
    assert [g for g, _ in grouped] == [0, 0, 1, 1]
    assert all(r.observations.shape[0] > 0 for _, r in grouped)
    trainer.iterate()  # learns with the rule sets apart
    assert np.isfinite(trainer.curves[-1].policy_loss) and np.isfinite(
        trainer.curves[-1].value_loss
    )


def test_bad_settings_are_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(LearningError, match="normalise is one of minibatch, rules"):
        Trainer.create(tmp_path / "n", TrainConfig(normalise="everything"))
    with pytest.raises(LearningError, match="entropy_end needs schedule_deals"):
        Trainer.create(tmp_path / "e", TrainConfig(entropy_end=0.001))
    with pytest.raises(LearningError, match="deals must be at least 1"):
        Trainer.create(tmp_path / "a", TrainConfig(deals=0))
    with pytest.raises(BigTwoError, match="Unknown rule preset 'not-a-preset'"):
        Trainer.create(tmp_path / "b", TrainConfig(rules=("not-a-preset",)))
    with pytest.raises(LearningError, match="No checkpoint to resume"):
        Trainer.resume(tmp_path / "nothing")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / CHECKPOINT).write_text("not a checkpoint")
    with pytest.raises(LearningError, match="cannot be read as a checkpoint"):
        Trainer.resume(tmp_path / "bad")


def test_a_run_against_a_fixed_player_learns_from_its_own_seat_only(tmp_path: Path) -> None:
    config = dataclasses.replace(TINY, deals=2, opponent="strong", opponent_deals=6)
    trainer = Trainer.create(tmp_path / "run", config, device="cpu")
    rollouts = trainer.collect()
    assert [len(r.points) for r in rollouts] == [1, 1, 3, 3]  # self-play, then the fixed player's
    for r in rollouts[2:]:
        assert set(r.seats.tolist()) == {0}  # strong's seats are played, never learnt from
    assert set(rollouts[0].seats.tolist()) > {0}
    trainer.iterate()
    resumed = Trainer.resume(tmp_path / "run", device="cpu")
    assert resumed.config.opponent == "strong" and len(resumed.runners) == 4
    assert "against three strong" in trainer.card()["method"]


def test_a_run_starts_from_another_runs_network(tmp_path: Path) -> None:
    first = Trainer.create(tmp_path / "first", TINY, device="cpu")
    first.iterate()
    exported = first.export()
    for source in (tmp_path / "first" / CHECKPOINT, tmp_path / "first" / EXPORT):
        config = dataclasses.replace(TINY, init=str(source), seed=5)
        second = Trainer.create(tmp_path / f"from-{source.suffix[1:]}", config, device="cpu")
        again = second.model.export({})
        for key, value in exported.weights.items():
            assert np.array_equal(value, again.weights[key]), (source, key)
    with pytest.raises(LearningError, match="cannot start this run"):
        Trainer.create(tmp_path / "bad", dataclasses.replace(TINY, init=str(tmp_path / "none.npz")))
    small = dataclasses.replace(TINY, hidden=8, init=str(tmp_path / "first" / EXPORT))
    with pytest.raises(LearningError, match="cannot start this run"):
        Trainer.create(tmp_path / "other-shape", small)
    with pytest.raises(LearningError, match="name an opponent together with its deals"):
        Trainer.create(tmp_path / "c", dataclasses.replace(TINY, opponent="strong"))
    with pytest.raises(LearningError, match="no computer player called 'nobody'"):
        Trainer.create(
            tmp_path / "d", dataclasses.replace(TINY, opponent="nobody", opponent_deals=4)
        )


def test_the_command_trains_resumes_and_writes_its_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    tiny = ["--deals", "6", "--batch", "3", "--epochs", "1", "--minibatch", "64"]
    tiny += ["--eval-every", "1", "--eval-deals", "4", "--rules", "charlesworth2018"]
    assert main(["train", str(folder), "--iterations", "1", *tiny]) == 0
    assert main(["train", str(folder), "--iterations", "1", *tiny]) == 2
    assert "holds a run already" in capsys.readouterr().err
    assert main(["train", str(folder), "--resume", "--iterations", "2"]) == 0
    with (folder / CURVES).open() as f:
        rows = list(csv.DictReader(f))
    assert [r["iteration"] for r in rows] == ["1", "2"]
    assert [r["deals"] for r in rows] == ["6", "12"]
    assert all(r["eval_points"] != "" and r["eval_rules"] == "charlesworth2018" for r in rows)
    assert LearnedNetwork.load(folder / EXPORT).card["iterations"] == 2
    assert LearnedNetwork.load(folder / "learned-it1.npz").card["iterations"] == 1
    png = (folder / "curves.png").read_bytes()
    assert png.startswith(b"\x89PNG")
    shipped = tmp_path / "shipped.npz"
    assert main(["train", str(folder), "--export", str(shipped)]) == 0
    assert LearnedNetwork.load(shipped).card["deals"] == 12
    mean = tmp_path / "mean.npz"
    assert (
        main(
            [
                "train",
                str(folder),
                "--export",
                str(mean),
                "--average",
                str(folder / "learned-it1.npz"),
            ]
        )
        == 0
    )
    averaged = LearnedNetwork.load(mean)
    assert averaged.card["averaged"] == [1, 2] and averaged.card["iterations"] == 2
    first, last = LearnedNetwork.load(folder / "learned-it1.npz"), LearnedNetwork.load(shipped)
    for name, w in averaged.weights.items():
        assert np.array_equal(
            w, ((first.weights[name] + last.weights[name]) / 2).astype(np.float32)
        )
    assert main(["train", str(folder), "--average", str(shipped)]) == 2
    assert "--average goes with --export" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "none"), "--export", str(shipped)]) == 2
    assert "No checkpoint to resume" in capsys.readouterr().err
    assert main(["train", str(tmp_path / "x"), "--threads", "0"]) == 2
    assert main(["train", str(tmp_path / "x"), "--actors", "-1"]) == 2
    assert "--actors at least 0" in capsys.readouterr().err


def test_advantages_follow_each_seats_own_decisions() -> None:
    rollout = SelfPlayRunner("palm", batch=3, seed=9).collect(uniform_policy(2), deals=3)
    values = np.random.default_rng(0).standard_normal(len(rollout)).astype(np.float32)
    rollout.extras["value"] = values
    # λ = 1: every target is the seat's final reward in its deal (the Monte Carlo return)
    _, targets = advantages(rollout, 10.0, 1.0)
    np.testing.assert_allclose(targets, rollout.returns() * 10.0, rtol=1e-5, atol=1e-5)
    # λ = 0: one step, to the same seat's next decision's value, or the reward at its last
    adv, _ = advantages(rollout, 10.0, 0.0)
    for row in range(len(rollout)):
        later = [
            r
            for r in range(row + 1, len(rollout))
            if rollout.deals[r] == rollout.deals[row] and rollout.seats[r] == rollout.seats[row]
        ]
        nxt = values[later[0]] if later else rollout.rewards[row] * 10.0
        assert not later or rollout.rewards[row] == 0.0
        assert adv[row] == pytest.approx(nxt - values[row], abs=1e-5)
