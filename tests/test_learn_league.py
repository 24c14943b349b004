"""League play in training (``TrainConfig.league``, PyTorch): deterministic draws over the
computer players and the network's past selves, snapshots that join on schedule, only the
network's seat learnt from, the same run on any number of actors, a league taken up when a
run resumes, and the refusals."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

# Collected only when the train marker is asked for (tests/conftest.py), as test_learn_train.py.
import torch  # noqa: E402

from bigtwo.bots.learned import LearnedBot  # noqa: E402
from bigtwo.cli import main  # noqa: E402
from bigtwo.learn.league import League, table_bots  # noqa: E402
from bigtwo.learn.train import CHECKPOINT, Trainer  # noqa: E402
from bigtwo.policy.encoding import LearningError  # noqa: E402
from bigtwo.policy.network import LearnedNetwork  # noqa: E402
from test_learn_train import TINY as TRAIN_TINY  # noqa: E402  (the trainer tests' tiny run)

pytestmark = pytest.mark.train

TINY = dataclasses.replace(TRAIN_TINY, deals=2, epochs=1, eval_every=0)
LEAGUE = dataclasses.replace(TINY, league=6, league_bots=("greedy",), league_every=2, league_size=2)


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def _weights(trainer: Trainer) -> dict[str, np.ndarray]:
    return {k: v.detach().numpy().copy() for k, v in trainer.model.state_dict().items()}


def test_the_draws_are_deterministic_and_cover_bots_and_past_selves() -> None:
    def league(seed: int) -> League:
        made = League(("strong", "greedy"), size=3, seed=seed)
        for iteration in range(3):
            made.join(iteration, LearnedNetwork.initial(seed=iteration))
        return made

    tables = league(1).draw(100, seats=3)
    assert tables == league(1).draw(100, seats=3)
    assert tables != league(2).draw(100, seats=3)
    assert {pick for table in tables for pick in table} == {0, 1, 2, 3, 4}
    members = league(1).members()
    assert members[:2] == ("strong", "greedy")
    bots = table_bots(members, (1, 4, 2), players=4)
    assert sorted(bots) == [1, 2, 3] and bots[1].name == "greedy"
    assert isinstance(bots[2], LearnedBot) and bots[2].network is members[4]
    assert isinstance(bots[3], LearnedBot) and bots[3].network is members[2]


def test_snapshots_join_every_league_every_iterations_and_only_the_newest_stay(
    tmp_path: Path,
) -> None:
    trainer = Trainer.create(tmp_path / "run", LEAGUE, device="cpu")
    start = trainer.model.export({})
    trainer.iterate()
    assert trainer.league is not None
    [(joined, first)] = trainer.league.selves
    assert joined == 0  # the network as the league began is its first snapshot
    assert all(np.array_equal(first.weights[k], v) for k, v in start.weights.items())
    trainer.iterate()
    at_two = trainer.model.export({})
    for _ in range(3):
        trainer.iterate()
    assert [it for it, _ in trainer.league.selves] == [2, 4]  # 0 left: two are kept
    snapshot = trainer.league.selves[0][1]
    assert all(np.array_equal(snapshot.weights[k], v) for k, v in at_two.weights.items())
    resumed = Trainer.resume(tmp_path / "run", device="cpu")
    assert resumed.league is not None
    assert [it for it, _ in resumed.league.selves] == [2, 4]


def test_only_the_networks_own_seat_is_learnt_from_in_league_deals(tmp_path: Path) -> None:
    config = dataclasses.replace(LEAGUE, opponent="greedy", opponent_deals=2)
    trainer = Trainer.create(tmp_path / "run", config, device="cpu")
    grouped = trainer.collect_grouped()
    rollouts = [rollout for _, rollout in grouped]
    # self-play, against the fixed player, then the league's (3 deals a rule set)
    assert [len(r.points) for r in rollouts] == [1, 1, 1, 1, 3, 3]
    assert [g for g, _ in grouped] == [0, 1, 0, 1, 0, 1]
    for r in rollouts[4:]:
        assert set(r.seats.tolist()) == {0}  # the league's seats are played, never learnt from
        assert len(r) > 0
    trainer.iterate()
    assert trainer.curves[-1].decisions > 0
    assert "league deals against greedy and its past selves" in trainer.card()["method"]


def test_the_run_is_the_same_on_any_number_of_actor_processes(tmp_path: Path) -> None:
    config = dataclasses.replace(LEAGUE, shards=2, league_every=1, critic="full")
    here = Trainer.create(tmp_path / "here", config, device="cpu")
    spread = Trainer.create(tmp_path / "spread", config, device="cpu", actors=2)
    try:
        for _ in range(2):
            a, b = here.iterate(), spread.iterate()
            assert (a.decisions, a.policy_loss, a.critic_loss) == (
                b.decisions,
                b.policy_loss,
                b.critic_loss,
            )
        assert spread.actors._pool is not None  # it did play on other processes
    finally:
        spread.close()
    for key, value in _weights(here).items():
        assert np.array_equal(value, _weights(spread)[key]), key


def test_a_league_taken_up_in_one_go_or_across_a_stop_is_the_same_run(tmp_path: Path) -> None:
    options = {"league_bots": ("greedy",), "league_every": 2, "league_size": 2}
    straight = Trainer.create(tmp_path / "straight", TINY, device="cpu")
    straight.iterate()
    # the league's other settings alone take none up: refused in words, not ignored
    with pytest.raises(LearningError, match="no league.*only with --league N"):
        straight.switch_league(league_every=5)
    assert straight.config.league == 0
    assert straight.switch_league(league=6, **options)
    stopped = Trainer.create(tmp_path / "stopped", TINY, device="cpu")
    stopped.iterate()
    del stopped
    again = Trainer.resume(tmp_path / "stopped", device="cpu")
    assert again.switch_league(league=6, **options)
    assert again.config.league_from == 1 and len(again.runners) == 4
    for trainer in (straight, again):
        trainer.iterate()
        trainer.iterate()
    for key, value in _weights(straight).items():
        assert np.array_equal(value, _weights(again)[key]), key
    assert "its past selves after iteration 1" in again.card()["method"]
    # the same league again changes nothing; another league, or none, is refused
    assert not again.switch_league(league=6, **options)
    with pytest.raises(LearningError, match="cannot change or stop"):
        again.switch_league(league=0)
    with pytest.raises(LearningError, match="cannot change or stop"):
        again.switch_league(league_size=3)
    assert not again.switch_league(league_every=2)  # its own settings again
    with pytest.raises(LearningError, match="a league's settings are league, league_bots"):
        again.switch_league(league_from=0)
    # a snapshot without the structure features plays beside a network that took them up
    assert again.switch_structure(True)
    again.iterate()
    assert again.league is not None
    assert [net.shape.structure for _, net in again.league.selves] == [False, True]


def test_bad_league_settings_are_refused_in_words(tmp_path: Path) -> None:
    refusals = {
        "no computer player called 'nobody'": {"league_bots": ("greedy", "nobody")},
        "league cannot be negative": {"league": -1},
        "league must be at least one deal per rule set": {"league": 1},
        "league_every and league_size must be at least 1": {"league_every": 0},
        "league_from is an iteration of a run with a league": {"league": 0, "league_from": 3},
    }
    for words, change in refusals.items():
        with pytest.raises(LearningError, match=words):
            Trainer.create(tmp_path / "bad", dataclasses.replace(LEAGUE, **change))
    with pytest.raises(LearningError, match="league_size"):
        Trainer.create(tmp_path / "bad", dataclasses.replace(LEAGUE, league_size=0))


def test_the_command_takes_a_league_up_and_refuses_to_stop_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "run"
    tiny = ["--deals", "2", "--batch", "2", "--epochs", "1", "--minibatch", "64"]
    tiny += ["--eval-every", "0", "--rules", "charlesworth2018"]
    assert main(["train", str(folder), "--iterations", "1", *tiny]) == 0
    capsys.readouterr()
    args = ["train", str(folder), "--resume", "--iterations", "2"]
    assert main([*args, "--league", "2", "--league-bots", "greedy, random"]) == 0
    assert "league: from iteration 2 on, 2 deals an iteration" in capsys.readouterr().out
    saved = torch.load(folder / CHECKPOINT, map_location="cpu", weights_only=False)
    settings = saved["config"]
    assert (settings["league"], settings["league_bots"], settings["league_from"]) == (
        2,
        ("greedy", "random"),
        1,
    )
    assert [s["iteration"] for s in saved["league"]["selves"]] == [1]
    args[-1] = "3"
    assert main([*args, "--league", "0"]) == 2
    assert "cannot change or stop" in capsys.readouterr().err
    assert main([*args, "--league-size", "9"]) == 2
    assert "cannot change or stop" in capsys.readouterr().err
    assert main([*args, "--league-bots", "greedy,random"]) == 0  # no change
    assert "league:" not in capsys.readouterr().out
    fresh = tmp_path / "fresh"
    command = ["train", str(fresh), "--iterations", "1", *tiny, "--league", "2"]
    assert main([*command, "--league-every", "5", "--league-size", "3"]) == 0
    resumed = Trainer.resume(fresh)
    assert (resumed.config.league, resumed.config.league_bots) == (2, ("strong", "greedy"))
    assert (resumed.config.league_every, resumed.config.league_size) == (5, 3)
    assert resumed.config.league_from == 0
    assert main(["train", str(tmp_path / "bad"), *tiny, "--league", "2", "--league-bots", "x"]) == 2
    assert "no computer player called 'x'" in capsys.readouterr().err
