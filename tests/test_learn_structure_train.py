"""The hand-structure features in training (``TrainConfig.structure``, PyTorch): a run that
takes them up when it resumes plays as before at the switch and then learns, the critic reads
them too, a network without them starts a run with them, and they are never dropped."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

# Collected only when the train marker is asked for (tests/conftest.py), as test_learn_train.py.
import torch  # noqa: E402

from bigtwo.cli import main  # noqa: E402
from bigtwo.learn.train import CHECKPOINT, EXPORT, Trainer  # noqa: E402
from bigtwo.policy.encoding import OBS_SIZE, STRUCTURE_SLICE, LearningError  # noqa: E402
from bigtwo.policy.network import LearnedNetwork  # noqa: E402
from test_learn_critic import TINY_ARGS  # noqa: E402
from test_learn_train import TINY as TRAIN_TINY  # noqa: E402  (the trainer tests' tiny run)
from test_learn_train import _weights  # noqa: E402

pytestmark = pytest.mark.train

TINY = dataclasses.replace(TRAIN_TINY, eval_every=0)


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def _first_moments(trainer: Trainer) -> dict[str, np.ndarray]:
    state = trainer.optimiser.state[trainer.model.layers["state1"].weight]
    return {k: state[k].numpy().copy() for k in ("exp_avg", "exp_avg_sq")}


def test_taking_them_up_at_resume_plays_the_same_moves_then_learns(tmp_path: Path) -> None:
    first = Trainer.create(tmp_path / "run", TINY, device="cpu")
    first.iterate()
    plain = Trainer.resume(tmp_path / "run", device="cpu")
    switched = Trainer.resume(tmp_path / "run", device="cpu")
    before = _weights(switched)
    moments = _first_moments(switched)
    assert switched.switch_structure(True) and switched.config.structure_from == 1
    assert switched.model.shape.structure and all(r.structure for r in switched.runners)
    after = _weights(switched)
    wide = after["layers.state1.weight"]
    assert wide.shape == (32, 859)
    assert np.array_equal(wide[:, :OBS_SIZE], before["layers.state1.weight"])
    assert not wide[:, STRUCTURE_SLICE].any()
    assert all(np.array_equal(v, after[k]) for k, v in before.items() if "state1.weight" not in k)
    for key, value in _first_moments(switched).items():  # Adam's moments: zero for the new columns
        assert value.shape == (32, 859) and not value[:, STRUCTURE_SLICE].any()
        assert np.array_equal(value[:, :OBS_SIZE], moments[key])
    # the same seed, the same moves with the same probabilities, from the longer observations
    a, b = plain.collect(), switched.collect()
    for x, y in zip(a, b, strict=True):
        assert x.observations.shape[1] == 599 and y.observations.shape[1] == 859
        assert np.array_equal(x.observations, y.observations[:, :OBS_SIZE])
        assert y.observations[:, STRUCTURE_SLICE].any()
        assert np.array_equal(x.actions, y.actions)
        for name in ("logp", "value"):
            np.testing.assert_allclose(x.extras[name], y.extras[name], rtol=1e-6, atol=1e-6)
    with torch.no_grad():  # the torch network too
        obs = torch.from_numpy(b[0].observations)
        np.testing.assert_allclose(
            plain.model.value(plain.model.state(obs[:, :OBS_SIZE])).numpy(),
            switched.model.value(switched.model.state(obs)).numpy(),
            rtol=1e-6,
            atol=1e-6,
        )
    switched.iterate()
    assert switched.model.layers["state1"].weight[:, STRUCTURE_SLICE].abs().sum() > 0  # learns
    exported = switched.export()
    assert exported.shape.structure and exported.weights["state1.w"].shape == (859, 32)
    assert "hand-structure features after iteration 1" in exported.card["method"]
    assert exported.card["config"]["structure_from"] == 1


@pytest.mark.parametrize("critic", ["own", "full"])
def test_a_switch_in_one_go_or_across_a_stop_is_the_same_run(tmp_path: Path, critic: str) -> None:
    config = dataclasses.replace(TINY, critic=critic)
    straight = Trainer.create(tmp_path / "straight", config, device="cpu")
    straight.iterate()
    assert straight.switch_structure(True)
    straight.iterate()
    straight.iterate()
    first = Trainer.create(tmp_path / "stopped", config, device="cpu")
    first.iterate()
    resumed = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert resumed.switch_structure(True)
    resumed.iterate()
    again = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert (again.config.structure, again.config.structure_from) == (True, 1)
    assert not again.switch_structure(True)  # on already
    with pytest.raises(LearningError, match="reads the hand-structure features .* cannot stop"):
        again.switch_structure(False)
    again.iterate()
    a, b = _weights(straight), _weights(again)
    assert a.keys() == b.keys()
    for key, value in a.items():
        assert np.array_equal(value, b[key]), key


def test_the_critic_gains_the_same_zero_columns_and_keeps_its_values(tmp_path: Path) -> None:
    full = dataclasses.replace(TINY, critic="full")
    trainer = Trainer.create(tmp_path / "run", full, device="cpu")
    trainer.iterate()
    [rollout, *_] = trainer.collect()
    assert trainer.critic is not None
    before = trainer.critic.values(rollout.observations, rollout.others)
    old = trainer.critic.net.layers[0].weight.detach().numpy().copy()
    trainer.switch_structure(True)
    new = trainer.critic.net.layers[0].weight.detach().numpy()
    assert new.shape == (32, 859 + 156)
    assert np.array_equal(new[:, :OBS_SIZE], old[:, :OBS_SIZE])
    assert not new[:, STRUCTURE_SLICE].any()
    assert np.array_equal(new[:, 859:], old[:, OBS_SIZE:])  # the other hands' weights move along
    flags = np.random.default_rng(1).random((len(rollout), 260)) < 0.3  # whatever they are
    wide = np.concatenate([rollout.observations, flags.astype(np.float32)], axis=1)
    np.testing.assert_allclose(
        trainer.critic.values(wide, rollout.others), before, rtol=1e-6, atol=1e-6
    )
    trainer.iterate()
    # a critic turned on in a run with the features starts as its value path, all 859 columns
    late = Trainer.create(tmp_path / "late", dataclasses.replace(TINY, structure=True), "cpu")
    late.iterate()
    late.switch_critic("full")
    assert late.critic is not None
    [rows, *_] = late.collect()
    with torch.no_grad():
        head = late.model.value(late.model.state(torch.from_numpy(rows.observations))).numpy()
    np.testing.assert_allclose(
        late.critic.values(rows.observations, rows.others), head, rtol=1e-5, atol=1e-6
    )


def test_a_network_without_them_starts_a_run_with_them(tmp_path: Path) -> None:
    first = Trainer.create(tmp_path / "first", TINY, device="cpu")
    first.iterate()
    exported = first.export()
    for source in (tmp_path / "first" / CHECKPOINT, tmp_path / "first" / EXPORT):
        config = dataclasses.replace(TINY, init=str(source), structure=True)
        second = Trainer.create(tmp_path / f"from-{source.suffix[1:]}", config, device="cpu")
        again = second.model.export({})
        assert again.shape.structure
        for key, value in exported.weights.items():
            if key == "state1.w":
                assert np.array_equal(value, again.weights[key][:OBS_SIZE])
                assert not again.weights[key][OBS_SIZE:].any()
            else:
                assert np.array_equal(value, again.weights[key]), key
    # one with them cannot start a run without them
    rich = Trainer.create(tmp_path / "rich", dataclasses.replace(TINY, structure=True), "cpu")
    rich.export()
    plain = dataclasses.replace(TINY, init=str(tmp_path / "rich" / EXPORT))
    with pytest.raises(LearningError, match="reads the hand-structure features .*--structure"):
        Trainer.create(tmp_path / "plain", plain)
    with pytest.raises(
        LearningError, match="structure_from is an iteration of a run with hand-structure"
    ):
        Trainer.create(tmp_path / "bad", dataclasses.replace(TINY, structure_from=2))


def test_the_command_takes_them_up_and_refuses_to_drop_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    assert main(["train", str(folder), "--iterations", "1", *TINY_ARGS]) == 0
    capsys.readouterr()
    args = ["train", str(folder), "--resume", "--iterations", "2"]
    assert main([*args, "--structure", "--critic", "full"]) == 0
    assert "structure: from iteration 2 on, the network reads the hand-structure" in (
        capsys.readouterr().out
    )
    saved = torch.load(folder / CHECKPOINT, map_location="cpu", weights_only=False)
    assert (saved["config"]["structure"], saved["config"]["structure_from"]) == (True, 1)
    card = LearnedNetwork.load(folder / EXPORT).card
    assert card["config"]["structure_from"] == 1
    assert LearnedNetwork.load(folder / EXPORT).shape.structure
    args[-1] = "3"
    assert main([*args, "--no-structure"]) == 2
    assert "cannot stop" in capsys.readouterr().err
    assert main([*args, "--structure"]) == 0
    assert "structure:" not in capsys.readouterr().out  # on already: nothing to switch
    fresh = tmp_path / "fresh"
    assert main(["train", str(fresh), "--iterations", "1", "--structure", *TINY_ARGS]) == 0
    resumed = Trainer.resume(fresh)
    assert resumed.config.structure and resumed.config.structure_from == 0
    assert "hand-structure features" in resumed.card()["method"]
    assert "after iteration" not in resumed.card()["method"]
