"""The hand-structure features: exact flags of known hands under rule sets whose straights
differ, an observation that ends with them only when asked, networks that read them (saved,
loaded and played by every player of a network), and networks without them unchanged."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import numpy as np
import pytest

import bigtwo.bots
from bigtwo.arena import run_arena
from bigtwo.bots import bot_names
from bigtwo.bots.guided import GuidedExpertBot
from bigtwo.bots.learned import LearnedBot, encoder_for, shipped_network
from bigtwo.bots.sparta import SafeSearch
from bigtwo.engine import Deal, Rules
from bigtwo.engine.cards import card_indices, parse_cards, to_mask
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from bigtwo.policy.encoding import (
    OBS_SIZE,
    STRUCTURE_SLICE,
    LearningError,
    ObservationEncoder,
    observation_size,
)
from bigtwo.policy.network import LearnedNetwork, Shape
from bigtwo.policy.structure import STRUCTURE_FLAGS, STRUCTURE_SIZE, HandStructure
from random_play import advance


def flagged(rules: str, hand: str) -> dict[str, set[str]]:
    """The cards (as text) each flag marks in ``hand`` under the preset ``rules``."""
    flags = HandStructure(Rules.preset(rules)).features(to_mask(parse_cards(hand)))
    assert flags.shape == (STRUCTURE_SIZE,) and flags.dtype == np.float32
    assert set(np.unique(flags)) <= {0.0, 1.0}
    names = {i: text for text in hand.split() for i in card_indices(to_mask(parse_cards(text)))}
    return {
        flag: {names[int(c)] for c in np.flatnonzero(flags.reshape(5, 52)[k])}
        for k, flag in enumerate(STRUCTURE_FLAGS)
    }


HAND = "3d 3c 3h 3s 4d 4c 4h 5c 5d 9d Td Ad 2s"


@pytest.mark.parametrize("rules", ["palm", "charlesworth2018"])
def test_the_flags_of_a_known_hand(rules: str) -> None:
    got = flagged(rules, HAND)
    assert got["pair"] == {"3d", "3c", "3h", "3s", "4d", "4c", "4h", "5c", "5d"}
    assert got["triple"] == {"3d", "3c", "3h", "3s", "4d", "4c", "4h"}
    assert got["four"] == {"3d", "3c", "3h", "3s"}
    assert got["flush"] == {"3d", "4d", "5d", "9d", "Td", "Ad"}  # six diamonds
    # A2345 is a straight in palm, none in charlesworth2018 (34567 up to JQKA2 only)
    wheel = {"Ad", "2s", "3d", "3c", "3h", "3s", "4d", "4c", "4h", "5c", "5d"}
    assert got["straight"] == (wheel if rules == "palm" else set())


def test_a_straight_one_rule_set_counts_and_another_does_not() -> None:
    top = "Jc Qd Kh As 2d 7c 7d"  # JQKA2: charlesworth2018's highest straight, not palm's
    assert flagged("charlesworth2018", top)["straight"] == {"Jc", "Qd", "Kh", "As", "2d"}
    assert flagged("palm", top)["straight"] == set()
    assert flagged("palm", top)["pair"] == {"7c", "7d"}
    assert flagged("palm", "3c 4c 5c 6c 8d")["straight"] == set()  # four in a row only
    six = "3c 4d 5h 6s 7c 8d"  # two straights overlapping: every card is in one
    assert flagged("palm", six)["straight"] == set(six.split())
    assert flagged("palm", "3c 4c 5c 6c 8c")["flush"] == {"3c", "4c", "5c", "6c", "8c"}
    assert flagged("palm", "3c 4c 5c 6c")["flush"] == set()
    assert not any(flagged("palm", "").values())


def test_the_observation_ends_with_them_only_when_asked() -> None:
    assert observation_size() == OBS_SIZE == 599 and observation_size(True) == 859
    assert slice(599, 859) == STRUCTURE_SLICE
    rng = random.Random(4)
    for rules in ("palm", "charlesworth2018", "pusoy-dos"):
        ruleset = RuleSet.preset(rules)
        plain = ObservationEncoder(ruleset)
        both = ObservationEncoder(ruleset, structure=True)
        hands = HandStructure(ruleset.rules)
        for seed in range(6):
            deal = advance(Deal.from_seed(ruleset.rules, seed), rng, rng.randrange(40))
            for seat in range(deal.players):
                view = deal.view(seat)
                a, b = plain.encode(view), both.encode(view)
                assert a.shape == (599,) and b.shape == (859,) and b.dtype == np.float32
                assert np.array_equal(a, b[:599])
                assert np.array_equal(b[STRUCTURE_SLICE], hands.features(view.hand))
                assert b[STRUCTURE_SLICE].reshape(5, 52)[:, ~a[:52].astype(bool)].sum() == 0


def test_a_network_reads_them_when_its_shape_says_so(tmp_path: Path) -> None:
    shape = Shape(16, 8, 8, structure=True)
    assert shape.layers()["state1"] == (859, 16) and Shape(16, 8, 8).layers()["state1"][0] == 599
    net = LearnedNetwork.initial(shape, seed=3)
    net.save(tmp_path / "s.npz")
    again = LearnedNetwork.load(tmp_path / "s.npz")
    assert again.shape == shape and again.shape.observation == 859
    obs = np.random.default_rng(0).random(859, dtype=np.float32)
    assert np.array_equal(net.scores(obs, [0, 7])[0], again.scores(obs, [0, 7])[0])
    with pytest.raises(LearningError, match="reads observations of 859 floats, not 599"):
        net.scores(obs[:599], [0, 7])
    old = LearnedNetwork.initial(Shape(16, 8, 8), seed=3)
    old.save(tmp_path / "o.npz")
    with np.load(tmp_path / "o.npz") as data:
        assert '"shape": [16, 8, 8, 0]' in str(data["__meta__"])  # written as before
    assert LearnedNetwork.load(tmp_path / "o.npz").shape.structure is False
    with pytest.raises(LearningError, match="weights lack layer 'state1'"):
        LearnedNetwork(shape, old.weights, {})


def test_the_shipped_network_reads_599_floats_as_before() -> None:
    network = shipped_network()
    assert network.shape.structure is False and network.shape.layers()["state1"][0] == 599
    view = Deal.from_seed(Rules.preset("palm"), 2).view(0)
    ruleset = RuleSet.preset("palm")
    encoder = encoder_for(ruleset.rules, ruleset.scoring)
    assert encoder.encode(view).shape == (599,) and not encoder.structure


def widened(network: LearnedNetwork) -> LearnedNetwork:
    """``network`` reading the hand-structure block with weights of zero on it."""
    weights = dict(network.weights)
    weights["state1.w"] = np.concatenate(
        [weights["state1.w"], np.zeros((STRUCTURE_SIZE, network.shape.hidden), np.float32)]
    )
    shape = dataclasses.replace(network.shape, structure=True)
    return LearnedNetwork(shape, weights, dict(network.card))


def views(rules: str, count: int) -> list[TableView]:
    """Seeded positions with a choice, part way through deals."""
    ruleset = RuleSet.preset(rules)
    out: list[TableView] = []
    board = 0
    while len(out) < count:
        deal = Deal.from_seed(ruleset.rules, f"structure:{board}")
        advance(deal, random.Random(board), 4 + 3 * (board % 5))
        board += 1
        if not deal.over:
            view = TableView.of_deal(deal, deal.turn, scoring=ruleset.scoring)
            if len(view.legal) + view.can_pass > 1:
                out.append(view)
    return out


def test_every_player_of_a_network_plays_one_with_zero_weights_on_them_as_before() -> None:
    shipped = shipped_network()
    wide = widened(shipped)
    for i, view in enumerate(views("charlesworth2018", 8)):
        rng = random.Random(i)
        assert LearnedBot(wide).choose(view, rng) == LearnedBot(shipped).choose(view, rng)
        for make in (
            lambda net: GuidedExpertBot(net, rollouts=12, prior=2),
            lambda net: SafeSearch(network=net, worlds=3),
        ):
            mine, theirs = make(wide), make(shipped)
            assert mine.choose(view, random.Random(i)) == theirs.choose(view, random.Random(i))
    net = LearnedNetwork.initial(Shape(16, 8, 8, structure=True), seed=2)
    for i, view in enumerate(views("palm", 3)):
        options = [None, *view.legal] if view.can_pass else list(view.legal)
        for bot in (GuidedExpertBot(net, rollouts=12), SafeSearch(network=net, worlds=3)):
            assert bot.choose(view, random.Random(i)) in options


def test_a_network_with_the_features_plays_arena_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    net = LearnedNetwork.initial(Shape(32, 16, 16, structure=True), seed=9)
    shipped = widened(shipped_network())
    bot_names()  # the registry is loaded before this test's players join it
    factories = bigtwo.bots._FACTORIES["bigtwo"]
    monkeypatch.setitem(factories, "learned-structure-test", lambda: LearnedBot(net))
    monkeypatch.setitem(factories, "learned-wide-test", lambda: LearnedBot(shipped))
    ruleset = RuleSet.preset("palm")
    points = {}
    for name in ("learned-structure-test", "learned-wide-test", "learned"):
        result = run_arena(ruleset, [name, "greedy", "greedy", "greedy"], deals=8, seed=5)
        assert len(result.stats[0].points) == 8
        points[name] = result.stats[0].points
    assert points["learned-wide-test"] == points["learned"]  # zero weights: the same play
