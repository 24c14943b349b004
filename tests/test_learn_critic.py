"""The critic that sees every hand (``TrainConfig.critic="full"``, PyTorch): the rollout keeps
the other seats' hands, the advantages take the critic's values, the policy never reads the
hands, and a run turns the critic on when it resumes (never off)."""

from __future__ import annotations

import csv
import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

# Collected only when the train marker is asked for (tests/conftest.py), as test_learn_train.py.
import torch  # noqa: E402

from bigtwo.cli import main  # noqa: E402
from bigtwo.engine.deal import deal_hands  # noqa: E402
from bigtwo.learn.batch import merge  # noqa: E402
from bigtwo.learn.critic import hand_bits  # noqa: E402
from bigtwo.learn.train import CHECKPOINT, CURVES, EXPORT, Trainer  # noqa: E402
from bigtwo.learn.vector import SelfPlayRunner, uniform_policy  # noqa: E402
from bigtwo.match.settings import RuleSet  # noqa: E402
from bigtwo.policy.encoding import OBS_SIZE, OBS_SLICES, LearningError, play_of  # noqa: E402
from bigtwo.policy.network import LearnedNetwork  # noqa: E402
from test_learn_train import TINY as TRAIN_TINY  # noqa: E402  (the trainer tests' tiny run)

pytestmark = pytest.mark.train

TINY = dataclasses.replace(TRAIN_TINY, eval_every=0)
FULL = dataclasses.replace(TINY, critic="full")
# A tiny run's options on the command line (the critic's and the structure's command tests).
TINY_ARGS = ["--deals", "4", "--batch", "2", "--epochs", "1", "--minibatch", "64"]
TINY_ARGS += ["--eval-every", "0", "--rules", "charlesworth2018"]


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def _mask(bits: np.ndarray) -> int:
    return sum(1 << int(i) for i in np.flatnonzero(bits))


def _policy_weights(trainer: Trainer) -> dict[str, np.ndarray]:
    return {k: v.detach().numpy().copy() for k, v in trainer.model.state_dict().items()}


def _critic_weights(trainer: Trainer) -> dict[str, np.ndarray]:
    assert trainer.critic is not None
    return {k: v.detach().numpy().copy() for k, v in trainer.critic.net.state_dict().items()}


@pytest.mark.parametrize(("rules", "players"), [("palm", 4), ("deduction", 3)])
def test_the_rollout_keeps_the_other_hands_of_every_decision(rules: str, players: int) -> None:
    runner = SelfPlayRunner(rules, batch=3, players=players, seed=4)
    rollout = runner.collect(uniform_policy(1), deals=3)
    ruleset = RuleSet.preset(rules)
    assert rollout.others.shape == (len(rollout), 3) and rollout.others.dtype == np.uint64
    # replayed from the dealt hands: before each decision, the hands the other seats hold, from
    # the acting seat on (the next, the one after, the one before; 0 past the table's seats)
    for number, seed in enumerate(rollout.seeds):
        hands = [int(h) for h in deal_hands(ruleset.rules, players, random.Random(seed))]
        rows = np.flatnonzero(rollout.deals == number)
        assert len(rows) > 0
        for row in rows.tolist():
            seat = int(rollout.seats[row])
            want = [hands[(seat + k) % players] if k < players else 0 for k in (1, 2, 3)]
            assert [int(m) for m in rollout.others[row]] == want
            assert _mask(rollout.observations[row, :52]) == hands[seat]  # its own, as seen
            play = play_of(int(rollout.actions[row]), ruleset.rules)
            if play is not None:
                hands[seat] &= ~play.mask
    bits = hand_bits(rollout.others)
    assert bits.shape == (len(rollout), 156)
    for row in (0, len(rollout) - 1):
        assert [_mask(bits[row, 52 * k : 52 * k + 52]) for k in range(3)] == [
            int(m) for m in rollout.others[row]
        ]


def test_deals_against_a_fixed_player_keep_its_hands_too() -> None:
    runner = SelfPlayRunner("palm", batch=2, seed=3, opponents={1: "greedy", 2: "greedy"})
    rollout = runner.collect(uniform_policy(2), deals=3)
    played = OBS_SLICES["played"]
    counts = OBS_SLICES["counts"].start
    for row in range(len(rollout)):
        obs = rollout.observations[row]
        own, seen = _mask(obs[:52]), _mask(obs[played])
        others = [int(m) for m in rollout.others[row]]
        # the four hands and the cards played so far are the deck, each card once
        assert sum(m.bit_count() for m in [own, seen, *others]) == 52
        assert own | seen | others[0] | others[1] | others[2] == (1 << 52) - 1
        for k, hand in enumerate(others, start=1):
            assert hand.bit_count() == round(float(obs[counts + k]) * 13)


def test_with_the_full_critic_the_advantages_take_its_values(tmp_path: Path) -> None:
    lam, scale, c = 0.95, TINY.reward_scale, 0.75
    trainer = Trainer.create(
        tmp_path / "run", dataclasses.replace(FULL, rules=("palm",)), device="cpu"
    )
    assert trainer.critic is not None
    with torch.no_grad():  # a critic whose every value is c
        last = trainer.critic.net.layers[-1]
        assert isinstance(last, torch.nn.Linear)
        last.weight.zero_()
        last.bias.fill_(c)
    grouped = trainer.collect_grouped()
    batch = trainer.batch_of(grouped)
    rollouts = [r for _, r in grouped]
    # with every value c, a seat's advantage k decisions before its last is λ^k (R − c)
    want = []
    for r in rollouts:
        returns = r.returns() * scale
        for row in range(len(r)):
            same = (r.deals == r.deals[row]) & (r.seats == r.seats[row])
            later = int(np.count_nonzero(same[row + 1 :]))
            want.append(lam**later * (returns[row] - c))
    np.testing.assert_allclose(batch.advantages, want, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(batch.targets, batch.advantages + c, rtol=1e-6, atol=1e-6)
    # the actors' own values give other advantages: these are not theirs
    actors = merge(rollouts, scale, lam)
    assert not np.allclose(actors.advantages, batch.advantages)
    np.testing.assert_array_equal(actors.observations, batch.observations)


def test_the_policy_never_sees_the_other_hands(tmp_path: Path) -> None:
    own = Trainer.create(tmp_path / "own", TINY, device="cpu")
    full = Trainer.create(tmp_path / "full", FULL, device="cpu")
    # the same seed, the same policy: the actors play the same moves from the same observations
    a, b = own.collect(), full.collect()
    for x, y in zip(a, b, strict=True):
        for name in ("observations", "actions", "others"):
            assert np.array_equal(getattr(x, name), getattr(y, name)), name
        for name in ("logp", "value"):
            assert np.array_equal(x.extras[name], y.extras[name]), name
    # the policy learns the same from other hands: the same batch with no hand at all in it
    twin = Trainer.create(tmp_path / "twin", FULL, device="cpu")
    batch = full.batch_of(full.collect_grouped())
    blind = dataclasses.replace(batch, others=np.zeros_like(batch.others))
    full.update(batch)
    twin.update(blind)
    for key, value in _policy_weights(full).items():
        assert np.array_equal(value, _policy_weights(twin)[key]), key
    assert any(
        not np.array_equal(v, _critic_weights(twin)[k]) for k, v in _critic_weights(full).items()
    )
    # and the export is the network of a run without a critic: the observation alone goes in
    full.iterate()
    own.iterate()
    mine, theirs = full.export(), own.export()
    assert {k: v.shape for k, v in mine.weights.items()} == {
        k: v.shape for k, v in theirs.weights.items()
    }
    assert mine.weights["state1.w"].shape[0] == OBS_SIZE


def _starts_as_the_value_head(trainer: Trainer) -> None:
    """The critic's values are the policy's value head's, whatever the other hands."""
    assert trainer.critic is not None
    [rollout, *_] = trainer.collect()
    with torch.no_grad():
        head = trainer.model.value(trainer.model.state(torch.from_numpy(rollout.observations)))
    np.testing.assert_allclose(rollout.extras["value"], head.numpy(), rtol=1e-4, atol=1e-5)
    critic = trainer.critic.values(rollout.observations, rollout.others)
    np.testing.assert_allclose(critic, head.numpy(), rtol=1e-5, atol=1e-6)
    assert rollout.others.any()


def test_the_critic_starts_as_the_value_head_and_learns(tmp_path: Path) -> None:
    first = Trainer.create(tmp_path / "first", TINY, device="cpu")
    first.iterate()
    _starts_as_the_value_head(Trainer.create(tmp_path / "new", FULL, device="cpu"))
    init = dataclasses.replace(FULL, init=str(tmp_path / "first" / CHECKPOINT), seed=3)
    started = Trainer.create(tmp_path / "started", init, device="cpu")
    _starts_as_the_value_head(started)  # the network it starts from, not random weights
    resumed = Trainer.resume(tmp_path / "first", device="cpu")
    resumed.switch_critic("full")
    _starts_as_the_value_head(resumed)
    before = _critic_weights(resumed)
    resumed.iterate()
    moved = [k for k, v in _critic_weights(resumed).items() if not np.array_equal(v, before[k])]
    assert "layers.0.weight" in moved  # the hands' weights among them: they start at zero
    assert _critic_weights(resumed)["layers.0.weight"][:, OBS_SIZE:].any()


def test_the_critic_learns_and_its_run_resumes_bit_for_bit(tmp_path: Path) -> None:
    straight = Trainer.create(tmp_path / "straight", FULL, device="cpu")
    before = _critic_weights(straight)
    straight.iterate()
    assert any(not np.array_equal(v, _critic_weights(straight)[k]) for k, v in before.items())
    progress = straight.curves[-1]
    assert progress.critic_loss is not None and np.isfinite(progress.critic_loss)
    straight.iterate()
    stopped = Trainer.create(tmp_path / "stopped", FULL, device="cpu")
    stopped.iterate()
    again = Trainer.resume(tmp_path / "stopped", device="cpu")
    again.iterate()
    for weights in (_policy_weights, _critic_weights):
        for key, value in weights(straight).items():
            assert np.array_equal(value, weights(again)[key]), key
    assert [p.critic_loss for p in straight.curves] == [p.critic_loss for p in again.curves]
    assert Trainer.create(tmp_path / "plain", TINY).critic is None


def test_a_run_turns_the_critic_on_when_it_resumes_and_never_off(tmp_path: Path) -> None:
    # turned on after iteration 1, in one go or across a stop: the same run
    straight = Trainer.create(tmp_path / "straight", TINY, device="cpu")
    straight.iterate()
    assert straight.switch_critic("full") and straight.config.critic_from == 1
    straight.iterate()
    straight.iterate()
    first = Trainer.create(tmp_path / "stopped", TINY, device="cpu")
    first.iterate()
    resumed = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert resumed.critic is None and resumed.switch_critic("full")
    resumed.iterate()
    again = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert (again.config.critic, again.config.critic_from) == ("full", 1)
    assert not again.switch_critic("full")  # on already
    with pytest.raises(LearningError, match="cannot be turned off"):
        again.switch_critic("own")
    again.iterate()
    for weights in (_policy_weights, _critic_weights):
        for key, value in weights(straight).items():
            assert np.array_equal(value, weights(again)[key]), key
    assert "a critic seeing every hand after iteration 1" in again.card()["method"]
    assert again.curves[0].critic_loss is None and again.curves[1].critic_loss is not None


def test_the_command_turns_the_critic_on_and_refuses_to_turn_it_off(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    assert main(["train", str(folder), "--iterations", "1", *TINY_ARGS]) == 0
    capsys.readouterr()
    assert main(["train", str(folder), "--resume", "--iterations", "2", "--critic", "full"]) == 0
    assert "critic full: from iteration 2 on, a critic that sees every hand" in (
        capsys.readouterr().out
    )
    saved = torch.load(folder / CHECKPOINT, map_location="cpu", weights_only=False)
    assert (saved["config"]["critic"], saved["config"]["critic_from"]) == ("full", 1)
    with (folder / CURVES).open() as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["critic_loss"] == "" and float(rows[1]["critic_loss"]) > 0.0
    card = LearnedNetwork.load(folder / EXPORT).card
    assert card["config"]["critic_from"] == 1 and "every hand after iteration 1" in card["method"]
    assert main(["train", str(folder), "--resume", "--iterations", "3", "--critic", "own"]) == 2
    assert "cannot be turned off" in capsys.readouterr().err
    assert main(["train", str(folder), "--resume", "--iterations", "3", "--critic", "full"]) == 0
    assert "critic full" not in capsys.readouterr().out  # on already: nothing to switch
    fresh = tmp_path / "fresh"
    assert main(["train", str(fresh), "--iterations", "1", "--critic", "full", *TINY_ARGS]) == 0
    assert Trainer.resume(fresh).config.critic == "full"


def test_bad_critic_settings_are_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(LearningError, match="critic is one of own, full"):
        Trainer.create(tmp_path / "a", dataclasses.replace(TINY, critic="half"))
    with pytest.raises(LearningError, match="critic_from is an iteration of a run whose critic"):
        Trainer.create(tmp_path / "b", dataclasses.replace(TINY, critic_from=3))
    trainer = Trainer.create(tmp_path / "c", TINY)
    with pytest.raises(LearningError, match="critic is one of own, full, not 'half'"):
        trainer.switch_critic("half")
