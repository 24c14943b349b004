"""The network taught the search's moves (:mod:`bigtwo.learn.distill`, PyTorch): it learns the
labelled moves, the KL term holds it to where it started, held-out deals stay apart, the result
loads and plays as the ``learned`` player, and bad settings are refused in words."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

# Collected only when the train marker is asked for (tests/conftest.py), as test_learn_train.py.
import torch  # noqa: E402

from bigtwo.bots import make_bot  # noqa: E402
from bigtwo.bots.learned import WEIGHTS, LearnedBot, shipped_network  # noqa: E402
from bigtwo.learn.deal import LearningDeal  # noqa: E402
from bigtwo.learn.distill import DistilConfig, distil  # noqa: E402
from bigtwo.learn.labels import LabelledDeal  # noqa: E402
from bigtwo.match.settings import RuleSet  # noqa: E402
from bigtwo.policy.encoding import LearningError, index_of  # noqa: E402
from bigtwo.policy.network import LearnedNetwork  # noqa: E402

pytestmark = pytest.mark.train
RULES = RuleSet.preset("charlesworth2018")


@pytest.fixture(autouse=True)
def one_thread() -> None:
    torch.set_num_threads(1)


def _teacher_deal(seed: int) -> LabelledDeal:
    """A deal whose labels are ``greedy``'s moves (a teacher that often differs from the
    network, so there is something to learn), with the network's favourite beside each."""
    deal = LearningDeal.dealt(RULES, 4, seed, {})
    greedy, network = make_bot("greedy"), LearnedBot()
    rng = random.Random(seed)
    moves, own = [], []
    while not deal.over:
        view = deal.match.view(deal.turn)
        moves.append(index_of(greedy.choose(view, rng)))
        own.append(index_of(network.choose(view, rng)))
        deal.act(moves[-1])
    return LabelledDeal(seed, tuple(moves), tuple(own))


@pytest.fixture(scope="module")
def deals() -> list[LabelledDeal]:
    return [_teacher_deal(seed) for seed in range(5)]


def test_it_learns_the_labelled_moves_and_keeps_the_held_out_deals_apart(
    deals: list[LabelledDeal],
) -> None:
    config = DistilConfig(epochs=30, lr=1e-3, minibatch=32, kl=0.0, holdout=0.2)
    network, figures = distil(WEIGHTS, deals, RULES, config)
    before, after = figures["before"], figures["after"]
    assert before["learn"]["overruled"] > 10  # greedy and the network differ often
    assert before["learn"]["agree_overruled"] == 0.0  # the start's favourite is the network's move
    assert after["learn"]["agree"] > before["learn"]["agree"] + 0.2
    assert after["learn"]["agree_overruled"] > 0.5
    assert figures["loss_last"] < figures["loss_first"]
    # the last of five deals is held out: its rows are counted apart, never learnt from
    assert before["held"]["rows"] == after["held"]["rows"] > 0
    assert before["learn"]["rows"] + before["held"]["rows"] == sum(
        1 for d in deals for _ in d.moves
    ) - _forced(deals)
    assert network.card["distilled"]["deals"] == 5
    assert network.card["method"].endswith("then taught the safe search's moves")


def _forced(deals: list[LabelledDeal]) -> int:
    from bigtwo.learn.labels import decisions
    from bigtwo.policy.encoding import ObservationEncoder

    encoder = ObservationEncoder(RULES)
    return sum(len(legal) < 2 for d in deals for _, legal, _, _ in decisions(d, RULES, encoder))


def test_the_kl_term_holds_it_where_it_started(deals: list[LabelledDeal]) -> None:
    config = DistilConfig(epochs=3, lr=1e-4, minibatch=32, kl=1000.0, holdout=0.2)
    _, figures = distil(WEIGHTS, deals, RULES, config)
    kept = figures["after"]["learn"]
    assert kept["agree_overruled"] <= 0.1
    assert kept["agree"] >= figures["before"]["learn"]["agree"] - 0.02


def test_the_taught_network_loads_and_plays(tmp_path: Path, deals: list[LabelledDeal]) -> None:
    network, _ = distil(WEIGHTS, deals, RULES, DistilConfig(epochs=1, holdout=0.2))
    path = tmp_path / "taught.npz"
    network.save(path)
    loaded = LearnedNetwork.load(path)
    assert loaded.shape == shipped_network().shape
    assert loaded.card["distilled"]["config"]["epochs"] == 1
    view = LearningDeal.dealt(RULES, 4, 99, {}).match
    seat = view.deal.turn
    play = LearnedBot(loaded).choose(view.view(seat), random.Random(0))
    assert play is None or any(p.mask == play.mask for p in view.view(seat).legal)


@pytest.mark.parametrize(
    ("count", "config", "words"),
    [
        (1, DistilConfig(), "at least two labelled deals"),
        (3, DistilConfig(holdout=1.0), "holdout is a fraction"),
    ],
)
def test_bad_settings_are_refused_in_words(
    deals: list[LabelledDeal], count: int, config: DistilConfig, words: str
) -> None:
    with pytest.raises(LearningError, match=words):
        distil(WEIGHTS, deals[:count], RULES, config)
