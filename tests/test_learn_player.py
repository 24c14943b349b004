"""The ``learned`` computer player: the shipped network's moves, numpy only, fast, fair, and
the weights file's refusals in words (no torch needed: this runs in make test)."""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.arena import run_arena
from bigtwo.bots import bot_names, make_bot
from bigtwo.bots.learned import WEIGHTS, LearnedBot, shipped_network
from bigtwo.bots.levels import level_label
from bigtwo.engine.deal import deal_hands
from bigtwo.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import OBS_SIZE, LearningError, ObservationEncoder, index_of
from bigtwo.policy.network import ACTION_FEATURES, LearnedNetwork, Shape, action_features

CARD = WEIGHTS.with_suffix(".md")


def test_learned_is_a_level_with_shipped_weights_and_a_card() -> None:
    assert "learned" in bot_names()
    assert level_label("learned") == "Self-taught (learned)"
    assert WEIGHTS.stat().st_size < 4_000_000
    network = shipped_network()
    assert network.card["method"].startswith("PPO")
    text = CARD.read_text()
    for word in ("trained", "self-play", "deals", "arena", "95%"):
        assert word in text, word


def test_the_network_file_round_trips(tmp_path: Path) -> None:
    net = LearnedNetwork.initial(Shape(16, 8, 8), seed=4)
    net.card["note"] = "test"
    net.save(tmp_path / "w.npz")
    again = LearnedNetwork.load(tmp_path / "w.npz")
    assert again.card == {"note": "test"} and again.shape == Shape(16, 8, 8)
    obs = np.random.default_rng(0).random(OBS_SIZE, dtype=np.float32)
    a, va = net.scores(obs, [0, 5, 900])
    b, vb = again.scores(obs, [0, 5, 900])
    assert np.array_equal(a, b) and va == vb


def test_averaged_networks_hold_the_mean_of_each_weight_and_say_so() -> None:
    """Weight averaging of a run's snapshots: each weight the exact float32 mean, the card the
    last network's with the iterations averaged; another shape is refused in words."""
    a = LearnedNetwork.initial(Shape(16, 8, 8), seed=1)
    b = LearnedNetwork.initial(Shape(16, 8, 8), seed=2)
    a.card, b.card = {"iterations": 10}, {"iterations": 20, "note": "last"}
    mean = LearnedNetwork.averaged([a, b])
    for name, w in mean.weights.items():
        assert w.dtype == np.float32
        assert np.array_equal(w, ((a.weights[name] + b.weights[name]) / 2).astype(np.float32))
    assert mean.card == {"iterations": 20, "note": "last", "averaged": [10, 20]}
    alone = LearnedNetwork.averaged([a])
    assert all(np.array_equal(alone.weights[k], a.weights[k]) for k in a.weights)
    with pytest.raises(LearningError, match="one shape"):
        LearnedNetwork.averaged([a, LearnedNetwork.initial(Shape(16, 8, 4), seed=3)])
    with pytest.raises(LearningError, match="at least one"):
        LearnedNetwork.averaged([])


@pytest.mark.parametrize("shape", [Shape(16, 8, 8), Shape(16, 8, 8, joint=12)])
def test_a_batch_of_observations_scores_as_each_one_alone(tmp_path: Path, shape: Shape) -> None:
    """The trainer's actors score many deals' moves in one call; each row's logits and value
    are those of the observation alone, for the product network and the joint one."""
    net = LearnedNetwork.initial(shape, seed=7)
    net.save(tmp_path / "w.npz")
    assert LearnedNetwork.load(tmp_path / "w.npz").shape == shape
    rng = random.Random(2)
    ruleset = RuleSet.preset("palm")
    encoder = ObservationEncoder(ruleset)
    obs, rows, legal = [], [], []
    for row in range(5):
        match = Match(ruleset, players=4, hands=deal_hands(ruleset.rules, 4, rng), seed=row)
        view = match.deal.view(match.deal.turn)
        obs.append(encoder.encode(view))
        moves = [index_of(play) for play in match.deal.legal_plays()]
        rows += [row] * len(moves)
        legal += moves
    batch = np.stack(obs)
    logits, values = net.batch_scores(batch, np.array(rows), np.array(legal))
    for row in range(5):
        mine = np.array(rows) == row
        alone, value = net.scores(batch[row], np.array(legal)[mine])
        np.testing.assert_allclose(logits[mine], alone, rtol=1e-5, atol=1e-6)
        assert values[row] == pytest.approx(value, rel=1e-5, abs=1e-6)


def test_a_missing_or_foreign_weights_file_is_refused_in_words(tmp_path: Path) -> None:
    with pytest.raises(LearningError, match="No network weights at"):
        LearnedNetwork.load(tmp_path / "none.npz")
    (tmp_path / "junk.npz").write_bytes(b"not a zip")
    with pytest.raises(LearningError, match="is not a bigtwo network weights file"):
        LearnedNetwork.load(tmp_path / "junk.npz")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    with pytest.raises(LearningError, match="is not a bigtwo network weights file"):
        LearnedNetwork.load(tmp_path / "other.npz")


def test_the_forward_pass_is_the_same_whatever_the_blas_threads() -> None:
    """The network runs on one BLAS thread whatever the process allows, so its numbers (and
    the guided expert's choices) do not depend on the machine's cores: a batch split across
    threads sums in another order and differs in the last bits."""
    from threadpoolctl import threadpool_limits

    network = shipped_network()
    rng = np.random.default_rng(3)
    obs = (rng.random((400, OBS_SIZE)) < 0.2).astype(np.float32)
    answers = []
    for threads in (1, 2, 4):
        with threadpool_limits(limits=threads, user_api="blas"):
            answers.append((network.values(obs), network.scores(obs[0], [0, 5, 60])[0]))
    for values, logits in answers[1:]:
        assert np.array_equal(values, answers[0][0])
        assert np.array_equal(logits, answers[0][1])


def test_action_features_are_the_cards_and_the_block() -> None:
    feats = action_features()
    assert feats.shape[1] == ACTION_FEATURES
    assert feats[0].sum() == 1.0 and feats[0, 52] == 1.0  # the pass: no cards, its block
    assert feats[1, 0] == 1.0 and feats[1, 53] == 1.0  # 3♦ alone: one card, the singles
    assert set(feats[:, 52:].sum(axis=1).tolist()) == {1.0}


@settings(max_examples=15, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    rules=st.sampled_from(["palm", "charlesworth2018", "pusoy-dos", "deduction"]),
)
def test_it_plays_whole_deals_legally_with_the_networks_favourite(seed: int, rules: str) -> None:
    ruleset = RuleSet.preset(rules)
    players = ruleset.rules.default_players
    match = Match(
        ruleset,
        players=players,
        hands=deal_hands(ruleset.rules, players, random.Random(seed)),
        deals=1,
        seed=0,
    )
    bot = LearnedBot()
    encoder = ObservationEncoder(ruleset)
    rng = random.Random(seed)
    while not match.deal.over:
        seat = match.deal.turn
        view = match.view(seat)
        if not view.legal:
            match.pass_(seat)
            continue
        play = bot.choose(view, rng)
        options = ([None] if view.can_pass else []) + list(view.legal)
        assert play in options
        if len(options) > 1:
            logits, _ = bot.network.scores(encoder.encode(view), [index_of(p) for p in options])
            assert index_of(play) == index_of(options[int(np.argmax(logits))])
        match.act(seat, play)


def test_it_plays_house_rules_wrapping_straights() -> None:
    ruleset = RuleSet.preset("palm")
    ruleset = RuleSet(
        rules=ruleset.rules.replace(straights=["QKA23", "KA234", "34567"]), match=ruleset.match
    )
    match = Match(
        ruleset, players=4, hands=deal_hands(ruleset.rules, 4, random.Random(1)), deals=1, seed=0
    )
    bot = make_bot("learned")
    seat = match.deal.turn
    view = match.view(seat)
    assert bot.choose(view, random.Random(1)) in view.legal


def test_it_decides_in_under_five_milliseconds_a_move() -> None:
    ruleset = RuleSet.preset("palm")
    bot = LearnedBot()
    times = []
    for seed in range(6):
        match = Match(
            ruleset,
            players=4,
            hands=deal_hands(ruleset.rules, 4, random.Random(seed)),
            deals=1,
            seed=0,
        )
        while not match.deal.over:
            seat = match.deal.turn
            view = match.view(seat)
            if not view.legal:
                match.pass_(seat)
                continue
            start = time.process_time()  # CPU time: the machine's other work does not count
            play = bot.choose(view, random.Random(0))
            times.append(time.process_time() - start)
            match.act(seat, play)
    assert statistics.median(times) < 0.005


def test_it_plays_in_the_arena_same_results_for_the_same_seed() -> None:
    ruleset = RuleSet.preset("charlesworth2018")
    one = run_arena(
        ruleset, ["learned", "greedy", "greedy", "greedy"], deals=8, duplicate=True, seed=3
    )
    two = run_arena(
        ruleset, ["learned", "greedy", "greedy", "greedy"], deals=8, duplicate=True, seed=3
    )
    assert one.stats[0].points == two.stats[0].points
    assert sum(sum(s.points) for s in one.stats) == 0  # the winner collects what the others pay


def test_the_shipped_weights_play_without_torch() -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"  # any import of torch now fails
        "from bigtwo.arena import run_arena\n"
        "from bigtwo.match.settings import RuleSet\n"
        "r = run_arena(RuleSet.preset('palm'), ['learned', 'greedy', 'greedy', 'greedy'], deals=4, duplicate=True)\n"
        "print(len(r.stats[0].points))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "4"


def test_bigtwo_train_without_torch_says_how_to_get_it(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['torch'] = None\n"
        "from bigtwo.cli import main\n"
        f"sys.exit(main(['train', {str(tmp_path / 'run')!r}]))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert out.returncode == 2
    assert "bigtwo train needs PyTorch: pip install 'bigtwo[train]'" in out.stderr
    assert "Traceback" not in out.stderr
    assert not (tmp_path / "run").exists()


def test_the_shipped_bot_travels_to_other_processes_without_its_weights() -> None:
    import pickle

    data = pickle.dumps(LearnedBot())
    assert len(data) < 1000
    assert pickle.loads(data).network is shipped_network()
    own = LearnedNetwork.initial(Shape(8, 8, 8), seed=1)
    again = pickle.loads(pickle.dumps(LearnedBot(own)))
    assert again.network.shape == Shape(8, 8, 8)


def test_the_search_with_learned_rollouts_plays_the_networks_move_in_every_seat() -> None:
    """``ExpertBot(policy="learned")``: each seat of a rollout plays the network's move from
    its own view of the simulated deal, and the network's move is the first candidate."""
    from bigtwo.bots.expert import ExpertBot
    from bigtwo.bots.learned import rollout_policy

    ruleset = RuleSet.preset("charlesworth2018")
    match = Match(ruleset, None, players=4, seed=11, deals=1)
    view = match.view(match.deal.turn)
    learned = LearnedBot()
    bot = ExpertBot(policy="learned", rollouts=24)
    assert bot.candidates(view)[0] == learned.choose(view, random.Random(0))
    move = bot.choose(view, random.Random(3))
    assert move is None or any(p.mask == move.mask for p in view.legal)
    # The rollout policy is the network's choice for the seat to act, from that seat's view:
    # on the real deal it is what the learned player chooses at the table, move for move.
    policy = rollout_policy(view.scoring)
    for _ in range(16):
        seat = match.deal.turn
        table_view = match.view(seat)
        if not table_view.legal:
            break
        chosen = policy(match.deal)
        assert chosen == learned.choose(table_view, random.Random(0))
        if chosen is None:
            match.pass_(seat)
        else:
            match.play(seat, chosen)
    with pytest.raises(ValueError, match="'learned'"):
        ExpertBot(policy="other")
