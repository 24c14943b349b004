"""The 2018 PPO adapter against the worked examples of ENCODING.md section 5.

The data files are read from the shared benchmark folder (``$BIGTWO_PPO2018_DIR``), never
from the repo; tests that need them take the ``ppo2018_data`` fixture (``conftest.py``),
skipped without the data except on CI, where they fail; the others always run.
"""

from __future__ import annotations

import pathlib
import random
from dataclasses import dataclass

import numpy as np
import pytest

from bigtwo.bots import ppo2018_net as ppo
from bigtwo.engine.errors import BigTwoError


@pytest.fixture(scope="module")
def net(ppo2018_data: pathlib.Path) -> ppo.Network:
    return ppo.Network.load(ppo2018_data)


def card(token: str) -> int:
    """A card index from the document's notation, e.g. 'TD' or '2S'."""
    return "3456789TJQKA2".index(token[0]) * 4 + "DCHS".index(token[1])


def mask(tokens: str) -> int:
    return sum(1 << card(t) for t in tokens.split())


@dataclass(frozen=True)
class Example:
    seat: int  # the document's seat numbers, 1..4
    hand: str
    history: str  # "seat cards" or "seat pass" entries joined by "; ", seats 1..4
    bits: str
    legal: int
    value: float
    top3: list[tuple[int, str, float, float]]  # index, cards, raw logit, probability


EXAMPLES = [
    Example(
        seat=4,
        hand="3S 4D 5D 6H 7S 8S 9C 9H TD QS AH AS 2C",
        history="3 3D",
        bits="0 16 20 21 23 35 42 46 57 64 69 81 86 92 104 108 109 115 126 130 131 138 146 149 "
        "152 160 169 171 174 183 189 196 207 214 219 231 235 237 253 258 259 263 276 278 298 "
        "325 351 383 396 401 409",
        legal=14,
        value=0.6478,
        top3=[(0, "3S", 43.2588, 0.9859), (8, "TD", 38.8634, 0.0122), (1, "4D", 36.4615, 0.0011)],
    ),
    Example(
        seat=4,
        hand="3S 4D 4H 4S 6H 7C 7H 8C 8H TC JC KD AC",
        history="1 3D; 2 pass; 3 pass",
        bits="0 16 23 35 39 40 45 59 61 62 67 82 83 84 91 103 114 124 127 131 136 147 149 159 "
        "168 171 175 181 191 193 205 212 219 228 234 241 252 255 275 278 285 297 325 352 383 "
        "396 401 411",
        legal=14,
        value=-1.1293,
        top3=[(4, "6H", 35.1320, 0.9779), (0, "3S", 31.3407, 0.0221), (9, "TC", 23.7282, 0.0)],
    ),
    Example(
        seat=1,
        hand="3C 3H 5S 7D 7S 8D 8S 9H TD JS AS 2C",
        history="4 3D; 1 QS; 2 pass; 3 pass; 4 pass",
        bits="0 14 17 22 37 39 46 60 65 70 79 83 86 92 104 105 108 109 115 123 127 130 137 148 "
        "149 152 153 160 169 174 183 189 196 206 214 218 219 231 236 241 254 256 298 325 351 "
        "370 400",
        legal=23,
        value=-0.4596,
        top3=[
            (80, "3C 3H 7D 7S", 33.5063, 0.9196),
            (13, "3C 3H", 30.9303, 0.0700),
            (1513, "7D 8D 9H TD JS", 28.7709, 0.0081),
        ],
    ),
    Example(
        seat=2,
        hand="3S 5H 5S 6S 7S JD JC JS QC QH QS KD",
        history="1 3D; 2 9H; 3 TS; 4 KS; 1 2H; 2 pass; 3 pass; 4 pass; 1 3C 4C 5C 6D 7C",
        bits="0 16 21 24 37 39 46 60 61 65 69 82 87 92 104 109 118 123 127 128 140 146 149 150 "
        "162 170 171 172 175 185 190 193 194 207 213 215 216 229 236 237 238 241 252 255 297 "
        "324 345 359 364 366 374 381 385 406 408 409",
        legal=15,
        value=-0.2990,
        top3=[
            (574, "3S 5S 6S 7S JS", 23.7381, 0.9999),
            (966, "5H 5S JD JC JS", 13.9278, 0.0001),
            (1639, "JD JC JS QC QS", 13.5335, 0.0),
        ],
    ),
    Example(
        seat=1,
        hand="4S 6H 7D 9D TS JH QD KH AC AS 2D 2C",
        history="1 3D; 2 8S; 3 TD; 4 QC; 1 pass; 2 KS; 3 2S; 4 pass; 1 pass; 2 pass; 3 8C 8H; 4 pass",
        bits="1 16 25 37 48 57 72 79 86 95 104 108 118 125 130 141 145 152 164 169 174 187 190 "
        "193 196 209 214 215 218 232 233 237 240 254 256 259 262 296 321 333 334 351 368 374 "
        "382 388 398 402 410",
        legal=3,
        value=-0.1330,
        top3=[
            (37, "AC AS", 12.2481, 0.9894),
            (1694, "", 7.7108, 0.0106),
            (43, "2D 2C", 0.2902, 0.0),
        ],
    ),
]


def state(ex: Example) -> tuple[int, int, list[tuple[int, int | None]], list[int]]:
    """(seat, hand, history, counts) in the engine's convention (seats 0..3)."""
    history: list[tuple[int, int | None]] = []
    counts = [13, 13, 13, 13]
    for entry in ex.history.split("; "):
        who, _, cards = entry.partition(" ")
        seat = int(who) - 1
        played = None if cards == "pass" else mask(cards)
        history.append((seat, played))
        counts[seat] -= 0 if played is None else played.bit_count()
    return ex.seat - 1, mask(ex.hand), history, counts


@pytest.mark.parametrize("ex", EXAMPLES, ids=[f"example{i}" for i in range(1, 6)])
def test_worked_example(ex: Example, net: ppo.Network) -> None:
    seat, hand, history, counts = state(ex)
    x = ppo.encode(seat, hand, history, counts)
    assert x.dtype == np.float32 and x.shape == (412,)
    assert set(np.unique(x).tolist()) <= {0.0, 1.0}
    assert np.flatnonzero(x).tolist() == [int(b) for b in ex.bits.split()]

    legal = ppo.legal_indices_charlesworth(hand, history)
    assert len(legal) == ex.legal

    logits, value = net.forward(x)
    assert logits.dtype == np.float32 and logits.shape == (1695,)
    assert value == pytest.approx(ex.value, abs=1e-3)

    order = sorted(legal, key=lambda i: -float(logits[i]))
    legal_logits = logits[legal].astype(np.float64)
    probs = np.exp(legal_logits - legal_logits.max())
    probs /= probs.sum()
    prob_of = dict(zip(legal, probs.tolist(), strict=True))
    assert order[:3] == [index for index, _, _, _ in ex.top3]
    for index, cards, logit, p in ex.top3:
        assert float(logits[index]) == pytest.approx(logit, abs=1e-3)
        assert prob_of[index] == pytest.approx(p, abs=1e-4)
        assert ppo.action_cards(hand, index) == (mask(cards) if cards else 0)
        assert ppo.action_index(hand, mask(cards) if cards else 0) == index

    assert ppo.choose(net, x, legal, None, greedy=True) == ex.top3[0][0]


def test_action_tables_match_npz(ppo2018_data: pathlib.Path) -> None:
    with np.load(ppo2018_data / "action_indices.npz") as t:
        assert t["block_start"].tolist() == [0, 13, 46, 77, 407, 1694]
        for name, width, start in (
            ("pair", 2, 13),
            ("triple", 3, 46),
            ("four", 4, 77),
            ("five", 5, 407),
        ):
            inverse = t[f"{name}_positions"]
            forward = t[f"{name}_index_of_positions"]
            for local, row in enumerate(inverse.tolist()):
                assert len(row) == width
                assert ppo.action_positions(start + local) == tuple(row)
                assert forward[tuple(row)] == local
        for index in range(1695):
            positions = ppo.action_positions(index)
            row = t["action_positions"][index].tolist()
            assert tuple(p for p in row if p >= 0) == positions
            assert t["action_num_cards"][index] == len(positions)


def test_sampling_is_seeded_and_follows_the_softmax(net: ppo.Network) -> None:
    seat, hand, history, counts = state(EXAMPLES[4])
    x = ppo.encode(seat, hand, history, counts)
    legal = ppo.legal_indices_charlesworth(hand, history)
    first = [ppo.choose(net, x, legal, random.Random(7), greedy=False) for _ in range(3)]
    assert len(set(first)) == 1
    assert ppo.choose(net, x, legal[::-1], random.Random(7), greedy=False) == first[0]
    rng = random.Random(1)
    draws = [ppo.choose(net, x, legal, rng, greedy=False) for _ in range(2000)]
    # The document gives p(pass) = 0.0106 and p(2D 2C) ~ 0 for this state.
    assert 5 <= draws.count(1694) <= 45
    assert draws.count(43) == 0
    assert set(draws) <= set(legal)


# --- no data needed below ---------------------------------------------------------------


def test_data_dir_override_and_missing(
    tmp_path: pathlib.Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ppo.DATA_DIR_ENV, str(tmp_path))
    with pytest.raises(ppo.Ppo2018Unavailable, match="BIGTWO_PPO2018_DIR"):
        ppo.find_data_dir()
    with pytest.raises(BigTwoError, match="missing weights.npz"):
        ppo.Network.load(tmp_path / "nowhere")
    for name in ("weights.npz", "action_indices.npz"):
        (tmp_path / name).write_bytes(b"")
    assert ppo.find_data_dir() == tmp_path
    other = tmp_path / "other"
    with pytest.raises(ppo.Ppo2018Unavailable, match="argument"):
        ppo.find_data_dir(other)


def test_action_index_round_trip() -> None:
    hand = mask("3D 3C 3H 3S 5D 6D 7D 8D 9D TC JC QC 2S")
    assert ppo.action_index(hand, 0) == 1694 and ppo.action_cards(hand, 1694) == 0
    assert ppo.action_index(hand, mask("2S")) == 12
    assert ppo.action_index(hand, mask("3D 3C")) == 13
    assert ppo.action_index(hand, mask("3D 3C 3H 3S")) == 77
    assert ppo.action_index(hand, mask("3D 3C 3H 3S 5D")) == 407
    for index in range(1694):
        played = ppo.action_cards(hand, index)
        assert ppo.action_index(hand, played) == index
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.action_index(hand, mask("3D 5D"))  # four positions apart: no such pair action
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.action_index(hand, mask("4D"))  # not in the hand
    small = mask("3D 4D")
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.action_cards(small, 2)


def test_legal_quirks() -> None:
    quad = mask("3D 3C 3H 3S 9D")
    lead = ppo.legal_indices_charlesworth(quad, [(0, mask("4D")), (1, None), (2, None), (3, None)])
    triples = [ppo.action_cards(quad, i) for i in lead if len(ppo.action_positions(i)) == 3]
    assert sorted(triples) == sorted([mask("3D 3C 3H"), mask("3D 3H 3S"), mask("3C 3H 3S")])
    assert 1694 not in lead

    sf_hand = mask("4D 5D 6D 7D 8D 9D 9C")
    sf = mask("3S 4S 5S 6S 7S")
    assert ppo.legal_indices_charlesworth(sf_hand, [(0, sf)]) == [1694]
    straight = mask("3C 4C 5C 6D 7C")
    replies = ppo.legal_indices_charlesworth(sf_hand, [(0, straight), (1, None)])
    played = {ppo.action_cards(sf_hand, i) for i in replies if i != 1694}
    assert mask("4D 5D 6D 7D 8D") in played and mask("5D 6D 7D 8D 9C") in played
    assert mask("3C 4C") not in played


def test_encoder_rejects_impossible_states() -> None:
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.encode(1, mask("4D"), [(0, mask("3D"))], [12, 2, 13, 13])  # count mismatch
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.encode(1, mask("3D 4D"), [(0, mask("3D"))], [12, 2, 13, 13])  # 3D played twice
    with pytest.raises(ppo.Ppo2018InputError):
        ppo.encode(0, mask("4D"), [], [1, 1, 1], players=3)
    with pytest.raises(ppo.Ppo2018InputError, match="not a combination"):
        ppo.encode(1, mask("4D"), [(0, mask("3D 3C 3H 3S 5D"))], [8, 1, 13, 13])
