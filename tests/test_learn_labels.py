"""The safe search's moves as labels (:mod:`bigtwo.learn.labels`): a deal played with the search
in every seat, kept as its seed and two actions a decision, replayed to the same decisions, and
files of them read back or refused in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from bigtwo.bots.learned import shipped_network
from bigtwo.bots.sparta import SafeSearch
from bigtwo.learn.labels import (
    LABEL_SEEDS,
    LabelledDeal,
    append_labels,
    decisions,
    labelled_arrays,
    play_labelled,
    read_labels,
)
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import PASS, LearningError, ObservationEncoder

RULES = RuleSet.preset("charlesworth2018")


def _search() -> SafeSearch:
    # a small search (few worlds, short budget), still deciding from each seat's view alone
    return SafeSearch(worlds=4, budget=400, least=2, network=shipped_network())


@pytest.fixture(scope="module")
def labelled() -> LabelledDeal:
    return play_labelled(LABEL_SEEDS, RULES, _search())


def test_a_deal_is_played_to_its_end_with_a_move_and_the_networks_at_each_decision(
    labelled: LabelledDeal,
) -> None:
    assert labelled.seed == LABEL_SEEDS
    assert len(labelled.moves) == len(labelled.network) > 13
    replayed = list(decisions(labelled, RULES, ObservationEncoder(RULES)))
    assert len(replayed) == len(labelled.moves)
    for (obs, legal, move, own), m, n in zip(
        replayed, labelled.moves, labelled.network, strict=True
    ):
        assert (move, own) == (m, n)
        assert move in legal and own in legal
        assert obs.shape == (ObservationEncoder(RULES).size,)
    # the 3♦ is played alone for its holder, so the first decision is the next seat's, who may pass
    assert PASS in replayed[0][1]


def test_the_same_seed_is_the_same_labelled_deal(labelled: LabelledDeal) -> None:
    assert play_labelled(LABEL_SEEDS, RULES, _search()) == labelled
    assert play_labelled(LABEL_SEEDS + 1, RULES, _search()).moves != labelled.moves


def test_the_arrays_hold_every_decision_with_a_choice(labelled: LabelledDeal) -> None:
    data = labelled_arrays([labelled, labelled], RULES)
    choices = sum(
        len(legal) > 1 for _, legal, _, _ in decisions(labelled, RULES, ObservationEncoder(RULES))
    )
    assert data["observations"].shape == (2 * choices, ObservationEncoder(RULES).size)
    assert len(data["legal_start"]) == 2 * choices + 1
    assert list(np.bincount(data["deal"])) == [choices, choices]
    for row in range(2 * choices):
        legal = data["legal"][data["legal_start"][row] : data["legal_start"][row + 1]]
        assert len(legal) > 1
        assert data["moves"][row] in legal and data["network"][row] in legal


def test_a_file_of_labelled_deals_reads_back(tmp_path: Path, labelled: LabelledDeal) -> None:
    path = tmp_path / "labels.jsonl"
    assert read_labels(path) == []
    append_labels(path, labelled)
    append_labels(path, dataclasses.replace(labelled, seed=7))
    assert read_labels(path) == [labelled, dataclasses.replace(labelled, seed=7)]


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("not json", "line 2: not a labelled deal"),
        ('{"seed": 1, "moves": [1, 2]}', "line 2: not a labelled deal"),
        (
            '{"seed": 1, "moves": [1, 2], "network": [1]}',
            "line 2: its moves and the network's differ",
        ),
    ],
)
def test_a_damaged_file_is_refused_with_its_line(
    tmp_path: Path, labelled: LabelledDeal, line: str, words: str
) -> None:
    path = tmp_path / "labels.jsonl"
    path.write_text(labelled.line() + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(LearningError, match=words):
        read_labels(path)


def test_a_deal_that_does_not_replay_is_refused_in_words(labelled: LabelledDeal) -> None:
    encoder = ObservationEncoder(RULES)
    other = dataclasses.replace(labelled, seed=labelled.seed + 5)
    with pytest.raises(LearningError, match="not legal there|is over|not over"):
        list(decisions(other, RULES, encoder))
    short = dataclasses.replace(labelled, moves=labelled.moves[:-1], network=labelled.network[:-1])
    with pytest.raises(LearningError, match="is not over after its labelled moves"):
        list(decisions(short, RULES, encoder))
