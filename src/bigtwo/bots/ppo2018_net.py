"""Clean-room adapter for the Charlesworth (2018) PPO Big Two network: the 412-bit input
encoder, the 1695-way action mapping, the legal-action mask the network was trained with, and
a numpy forward pass, all written from ``shared/anchors/charlesworth2018/ENCODING.md``. This
module holds no data: the weights (``weights.npz``) are never redistributed with bigtwo and are
loaded at run time from the shared benchmark folder found by :func:`find_data_dir`; the action
tables are regenerated here from the rule in section 3 (a test checks them against
``action_indices.npz``). Cards use the engine's convention (``rank * 4 + suit``, 3♦ = 0,
2♠ = 51, sets as bitmasks); the network's card number is that index plus one.
"""

from __future__ import annotations

import functools
import itertools
import math
import os
import pathlib
import random
from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt

from ..engine.errors import BigTwoError

__all__ = [
    "ACTION_PASS",
    "DATA_DIR_ENV",
    "INPUT_SIZE",
    "NUM_ACTIONS",
    "Network",
    "Ppo2018InputError",
    "Ppo2018Unavailable",
    "action_cards",
    "action_index",
    "action_positions",
    "choose",
    "encode",
    "encode_bits",
    "find_data_dir",
    "legal_indices_charlesworth",
    "never_offered",
]

INPUT_SIZE = 412
NUM_ACTIONS = 1695
ACTION_PASS = 1694
DATA_DIR_ENV = "BIGTWO_PPO2018_DIR"
_SHARED_SUBDIR = pathlib.Path("shared", "anchors", "charlesworth2018")
_DATA_FILES = ("weights.npz", "action_indices.npz")

FloatArray = npt.NDArray[np.float32]
History = Sequence[tuple[int, int | None]]


class Ppo2018Unavailable(BigTwoError):
    """The 2018 network's data files are not where they were looked for."""


class Ppo2018InputError(BigTwoError, ValueError):
    """A state the 2018 network cannot be shown (inconsistent, or outside its rules)."""


# ---------------------------------------------------------------------------------------------
# Data directory and network


def find_data_dir(path: str | os.PathLike[str] | None = None) -> pathlib.Path:
    """The folder holding ``weights.npz`` and ``action_indices.npz``.

    An explicit ``path`` wins, then the environment variable ``BIGTWO_PPO2018_DIR``; otherwise
    every ancestor of this module and of the working directory is tried for a
    ``shared/anchors/charlesworth2018`` folder, which finds the shared folder beside the repo.
    """
    explicit = path if path is not None else os.environ.get(DATA_DIR_ENV) or None
    if explicit is not None:
        folder = pathlib.Path(explicit).expanduser()
        missing = [name for name in _DATA_FILES if not (folder / name).is_file()]
        if missing:
            source = "argument" if path is not None else f"${DATA_DIR_ENV}"
            raise Ppo2018Unavailable(
                f"The 2018 PPO network data is not in {folder} (given by {source}): "
                f"missing {', '.join(missing)}."
            )
        return folder
    starts = [pathlib.Path(__file__).resolve().parent, pathlib.Path.cwd().resolve()]
    tried: list[pathlib.Path] = []
    for start in starts:
        for ancestor in (start, *start.parents):
            folder = ancestor / _SHARED_SUBDIR
            if folder in tried:
                continue
            tried.append(folder)
            if all((folder / name).is_file() for name in _DATA_FILES):
                return folder
    raise Ppo2018Unavailable(
        "The 2018 PPO network data (weights.npz, action_indices.npz) was not found: no "
        f"'{_SHARED_SUBDIR.as_posix()}' folder above {starts[0]} or {starts[1]}. Point "
        f"${DATA_DIR_ENV} at the folder; the data is never copied into the repo."
    )


_WEIGHT_SHAPES: dict[str, tuple[int, ...]] = {
    "fc1_w": (INPUT_SIZE, 512),
    "fc1_b": (512,),
    "fc2_w": (512, 256),
    "fc2_b": (256,),
    "pi_w": (256, NUM_ACTIONS),
    "pi_b": (NUM_ACTIONS,),
    "fc3_w": (512, 256),
    "fc3_b": (256,),
    "vf_w": (256, 1),
    "vf_b": (1,),
}


class Network:
    """The trained MLP: shared trunk, policy head (1695 logits) and value head."""

    def __init__(self, weights: dict[str, FloatArray]) -> None:
        for name, shape in _WEIGHT_SHAPES.items():
            if name not in weights:
                raise Ppo2018Unavailable(f"The 2018 PPO weights lack the array '{name}'.")
            if weights[name].shape != shape:
                raise Ppo2018Unavailable(
                    f"The 2018 PPO weight '{name}' has shape {weights[name].shape}, "
                    f"expected {shape}."
                )
        w = {k: np.ascontiguousarray(weights[k], dtype=np.float32) for k in _WEIGHT_SHAPES}
        self.fc1_w, self.fc1_b = w["fc1_w"], w["fc1_b"]
        self.fc2_w, self.fc2_b = w["fc2_w"], w["fc2_b"]
        self.pi_w, self.pi_b = w["pi_w"], w["pi_b"]
        self.fc3_w, self.fc3_b = w["fc3_w"], w["fc3_b"]
        self.vf_w, self.vf_b = w["vf_w"], w["vf_b"]

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> Network:
        """The network from ``weights.npz`` in :func:`find_data_dir` ``(path)``."""
        folder = find_data_dir(path)
        with np.load(folder / "weights.npz") as data:
            return cls({name: data[name] for name in data.files})

    def forward(self, x: npt.ArrayLike) -> tuple[FloatArray, float]:
        """Raw logits (1695) and value for one 412-long input, in float32 (section 1)."""
        v = np.asarray(x, dtype=np.float32)
        if v.shape != (INPUT_SIZE,):
            raise Ppo2018InputError(f"Input must have shape ({INPUT_SIZE},), not {v.shape}.")
        h1 = np.maximum(v @ self.fc1_w + self.fc1_b, np.float32(0))
        h2 = np.maximum(h1 @ self.fc2_w + self.fc2_b, np.float32(0))
        logits: FloatArray = h2 @ self.pi_w + self.pi_b
        h3 = np.maximum(h1 @ self.fc3_w + self.fc3_b, np.float32(0))
        value = (h3 @ self.vf_w + self.vf_b)[0]
        return logits, float(value)


def choose(
    net: Network,
    x: npt.ArrayLike,
    legal_indices: Sequence[int],
    rng: random.Random | None,
    greedy: bool,
) -> int:
    """The action index the network plays among ``legal_indices``.

    Greedy takes the highest logit (lowest index on a tie). Otherwise it samples the masked
    softmax by the Gumbel-max trick, as the original program did, drawing one ``rng.random()``
    per legal action in ascending index order, so a seeded ``rng`` gives the same choice
    whatever order the caller lists the actions in.
    """
    legal = sorted(set(legal_indices))
    if not legal:
        raise Ppo2018InputError("The 2018 PPO network was asked to act with no legal action.")
    if legal[0] < 0 or legal[-1] >= NUM_ACTIONS:
        raise Ppo2018InputError(f"Action indices must lie in 0..{NUM_ACTIONS - 1}.")
    logits, _ = net.forward(x)
    scores = logits[legal].astype(np.float64)
    if not greedy:
        draw = (rng or random.Random()).random
        # u == 0 would give -inf noise, which only ever loses the argmax: no clamping needed.
        noise = [-math.log(-math.log(u)) if u > 0.0 else -math.inf for u in (draw() for _ in legal)]
        scores = scores + np.asarray(noise)
    return legal[int(np.argmax(scores))]


# ---------------------------------------------------------------------------------------------
# Action space (section 3)

_BLOCK_START = (0, 13, 46, 77, 407, 1694)


def _block_tuples() -> list[list[tuple[int, ...]]]:
    """The valid position tuples of each block, in the lexicographic order that numbers them."""

    def subsets(size: int) -> list[tuple[int, ...]]:
        return list(itertools.combinations(range(13), size))

    # Cards of one rank sit in at most four adjacent positions, hence the span limits.
    pairs = [t for t in subsets(2) if t[1] - t[0] <= 3]
    triples = [t for t in subsets(3) if t[2] - t[0] <= 3]
    fours = [t for t in subsets(4) if t[1] - t[0] <= 3 and t[3] - t[2] <= 3]
    return [subsets(1), pairs, triples, fours, subsets(5)]


_BLOCKS = _block_tuples()
# Global action index -> positions, and back; pass (1694) is deliberately absent from both.
_POSITIONS_OF_ACTION: tuple[tuple[int, ...], ...] = tuple(t for block in _BLOCKS for t in block)
_ACTION_OF_POSITIONS: dict[tuple[int, ...], int] = {
    t: i for i, t in enumerate(_POSITIONS_OF_ACTION)
}
assert len(_POSITIONS_OF_ACTION) == ACTION_PASS
assert [_ACTION_OF_POSITIONS[b[0]] for b in _BLOCKS] == list(_BLOCK_START[:5])


def action_positions(index: int) -> tuple[int, ...]:
    """The hand positions an action index plays (empty for pass)."""
    if index == ACTION_PASS:
        return ()
    if not 0 <= index < ACTION_PASS:
        raise Ppo2018InputError(f"Action index {index} is outside 0..{ACTION_PASS}.")
    return _POSITIONS_OF_ACTION[index]


def _cards_of(mask: int) -> list[int]:
    """Card indices in ``mask``, ascending."""
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def action_index(hand_mask: int, play_mask: int) -> int:
    """The network's index of playing ``play_mask`` from ``hand_mask`` (0 = pass -> 1694)."""
    if not play_mask:
        return ACTION_PASS
    if play_mask & ~hand_mask:
        raise Ppo2018InputError("The play contains cards that are not in the hand.")
    if hand_mask.bit_count() > 13:
        raise Ppo2018InputError("The 2018 PPO network handles hands of at most 13 cards.")
    positions = tuple((hand_mask & ((1 << c) - 1)).bit_count() for c in _cards_of(play_mask))
    try:
        return _ACTION_OF_POSITIONS[positions]
    except KeyError:
        raise Ppo2018InputError(
            f"The 2018 PPO network has no action for playing positions {positions} "
            "(more than 5 cards, or cards too far apart in the hand to be one combination)."
        ) from None


def action_cards(hand_mask: int, index: int) -> int:
    """The cards (mask) that action ``index`` plays from ``hand_mask``; 0 for pass."""
    positions = action_positions(index)
    if not positions:
        return 0
    hand = _cards_of(hand_mask)
    if positions[-1] >= len(hand):
        raise Ppo2018InputError(
            f"Action {index} plays position {positions[-1]} but the hand has {len(hand)} cards."
        )
    mask = 0
    for p in positions:
        mask |= 1 << hand[p]
    return mask


# ---------------------------------------------------------------------------------------------
# Combinations under the 2018 rules (section 4)

SINGLE, PAIR, TRIPLE, TWO_PAIR, FOUR, STRAIGHT, FLUSH, FULL_HOUSE, STRAIGHT_FLUSH = range(1, 10)


@functools.lru_cache(maxsize=1 << 16)
def _classify(mask: int) -> tuple[int, int]:
    """(kind, key) of a play: key compares plays of one kind (card index or rank)."""
    cards = _cards_of(mask)
    n = len(cards)
    ranks = [c >> 2 for c in cards]
    top = cards[-1]
    distinct = len(set(ranks))
    if n == 1:
        return SINGLE, top
    if n == 2 and distinct == 1:
        return PAIR, top
    if n == 3 and distinct == 1:
        return TRIPLE, ranks[0]
    if n == 4:
        if distinct == 1:
            return FOUR, ranks[0]
        if distinct == 2 and ranks[1] == ranks[0] and ranks[3] == ranks[2]:
            return TWO_PAIR, top
    if n == 5:
        flush = len({c & 3 for c in cards}) == 1
        # Ranks run 3..2 as 0..12 with no wrap, so A-2-3-4-5 is simply not consecutive.
        straight = distinct == 5 and ranks[4] - ranks[0] == 4
        if straight:
            return (STRAIGHT_FLUSH if flush else STRAIGHT), top
        if flush:
            return FLUSH, top
        if distinct == 2 and ranks.count(ranks[2]) == 3:
            return FULL_HOUSE, ranks[2]
    names = " ".join("3456789TJQKA2"[c >> 2] + "dchs"[c & 3] for c in cards)
    raise Ppo2018InputError(f"'{names}' is not a combination under the 2018 network's rules.")


# Section 2.5 offsets (within an opponent block) each kind sets; a plain straight sets the
# full-house offset too, faithfully to the original encoder.
_OPP_TYPE_OFFSETS: dict[int, tuple[int, ...]] = {
    SINGLE: (),
    PAIR: (21,),
    TRIPLE: (22,),
    TWO_PAIR: (23,),
    FOUR: (23,),
    STRAIGHT: (24, 26),
    STRAIGHT_FLUSH: (24, 25),
    FLUSH: (25,),
    FULL_HOUSE: (26,),
}
# Section 2.7 type bits of the hand to beat; a plain straight again borrows the full-house bit.
_TRICK_TYPE_BITS: dict[int, tuple[int, ...]] = {
    SINGLE: (401,),
    PAIR: (402,),
    TRIPLE: (403,),
    TWO_PAIR: (404,),
    FOUR: (405,),
    STRAIGHT_FLUSH: (406, 407),
    FLUSH: (407,),
    FULL_HOUSE: (408,),
    STRAIGHT: (406, 408),
}


@functools.lru_cache(maxsize=1 << 16)
def _trick_bits(mask: int) -> tuple[int, ...]:
    """Bits 383..408 of the hand to beat (section 2.7, case 1, without the pass counter)."""
    kind, _ = _classify(mask)
    cards = _cards_of(mask)
    if kind in (FULL_HOUSE, STRAIGHT):
        return (383 + (cards[2] >> 2), *_TRICK_TYPE_BITS[kind])
    top = cards[-1]
    return (383 + (top >> 2), 396 + (top & 3), *_TRICK_TYPE_BITS[kind])


# ---------------------------------------------------------------------------------------------
# The trick state read from the history


def _trick_state(history: History, players: int) -> tuple[int | None, int | None, int]:
    """(seat of H, cards of H, passes since H); H is None when the next player leads freely."""
    passes = 0
    for seat, mask in reversed(history):
        if mask:
            if passes >= players - 1:
                return seat, None, passes
            return seat, mask, passes
        passes += 1
    return None, None, passes


# ---------------------------------------------------------------------------------------------
# Encoder (section 2)

_SUIT_MASKS = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
_HIGH_SHIFT = 36  # Q♦, network card 37: bits 367.. record cards 36..51
_ACE_SHIFT = 44  # A♦, network card 45: opponent offsets 13.. record cards 44..51
_OPP_BASES = (286, 313, 340)


def _bit_positions(value: int, base: int) -> Iterable[int]:
    while value:
        low = value & -value
        yield base + low.bit_length() - 1
        value ^= low


def encode_bits(
    seat: int,
    hand_mask: int,
    history: History,
    counts: Sequence[int],
    players: int = 4,
) -> list[int]:
    """The indices of the set bits of :func:`encode`'s vector (same arguments)."""
    if players != 4:
        raise Ppo2018InputError(
            f"The 2018 PPO network was trained for four players only, not {players}."
        )
    if len(counts) != players or not 0 <= seat < players:
        raise Ppo2018InputError("Seat or card counts do not match a four-player game.")
    n = hand_mask.bit_count()
    if not 1 <= n <= 13 or counts[seat] != n:
        raise Ppo2018InputError(
            f"Seat {seat} holds {n} cards but its count says {counts[seat]} (must be 1..13)."
        )

    bits: list[int] = []

    # 2.4 my hand: per-rank and per-suit facts first, then two one-hots and flags per card.
    rank_counts = [((hand_mask >> (4 * r)) & 15).bit_count() for r in range(13)]
    rank_set = sum(1 << r for r in range(13) if rank_counts[r])
    # A rank lies in a run of 5+ exactly when some window of 5 consecutive held ranks covers
    # it: find the window starts with shifted ANDs, then smear each start over its window.
    starts = rank_set & rank_set >> 1 & rank_set >> 2 & rank_set >> 3 & rank_set >> 4
    in_run = starts | starts << 1 | starts << 2 | starts << 3 | starts << 4
    suit5 = [(hand_mask & m).bit_count() >= 5 for m in _SUIT_MASKS]
    base = 0
    for card in _cards_of(hand_mask):
        rank, suit = card >> 2, card & 3
        bits.append(base + rank)
        bits.append(base + 13 + suit)
        held = rank_counts[rank]
        if held >= 2:
            bits.append(base + 17)
            if held >= 3:
                bits.append(base + 18)
                if held == 4:
                    bits.append(base + 19)
        if in_run >> rank & 1:
            bits.append(base + 20)
        if suit5[suit]:
            bits.append(base + 21)
        base += 22

    # 2.5 / 2.6 sticky facts gathered from every play of the deal.
    played_all = 0
    played_by = [0] * players
    types_by: list[set[int]] = [set() for _ in range(players)]
    for who, mask in history:
        if mask:
            played_all |= mask
            played_by[who] |= mask
            types_by[who].update(_OPP_TYPE_OFFSETS[_classify(mask)[0]])
    if played_all & hand_mask:
        raise Ppo2018InputError("The hand holds cards the history says were already played.")

    for rel, opp_base in enumerate(_OPP_BASES, start=1):
        opp = (seat + rel) % players
        count = counts[opp]
        if not 0 <= count <= 13:
            raise Ppo2018InputError(f"Seat {opp} cannot hold {count} cards.")
        if count:
            bits.append(opp_base + count - 1)
        bits.extend(_bit_positions((played_by[opp] >> _ACE_SHIFT) & 0xFF, opp_base + 13))
        bits.extend(opp_base + off for off in types_by[opp])

    bits.extend(_bit_positions((played_all >> _HIGH_SHIFT) & 0xFFFF, 367))

    # 2.7 the hand to beat, or control.
    h_seat, h_mask, passes = _trick_state(history, players)
    if h_mask is None:
        if h_seat is not None and h_seat != seat:
            raise Ppo2018InputError(
                f"Seat {h_seat} has control after {passes} passes, but seat {seat} is to act."
            )
        bits.append(400)
    else:
        bits.extend(_trick_bits(h_mask))
        bits.append(409 + passes)
    return bits


def encode(
    seat: int,
    hand_mask: int,
    history: History,
    counts: Sequence[int],
    players: int = 4,
) -> FloatArray:
    """The 412-long float32 0/1 input for ``seat`` to act (section 2).

    ``history`` is the whole deal in order as ``(seat, cards)`` with ``cards`` None (or 0) for
    a pass, starting with the automatic 3♦; seats act in increasing cyclic order and
    ``counts[s]`` is how many cards seat ``s`` holds now. The hand to beat and the pass
    counter come from the history; an empty history means a free lead.
    """
    x = np.zeros(INPUT_SIZE, dtype=np.float32)
    x[encode_bits(seat, hand_mask, history, counts, players)] = 1.0
    return x


# ---------------------------------------------------------------------------------------------
# Legal actions as the original engine offered them (section 3.1)


_DCS = 0b1011  # the ♦, ♣ and ♠ of one rank (card bits 0, 1 and 3 of the rank's four)


def never_offered(hand_mask: int, play_mask: int) -> bool:
    """Whether the original generator never offered this play from this hand: the ♦♣♠
    triple of a rank held four times, alone or as a full house's triple (section 3.1).
    Another triple of that rank, of the same strength, is always offered instead."""
    if play_mask.bit_count() not in (3, 5):
        return False
    for rank in range(13):
        shift = rank * 4
        if (play_mask >> shift) & 0xF == _DCS and (hand_mask >> shift) & 0xF == 0xF:
            return True
    return False


def _candidates(hand_mask: int) -> list[tuple[int, int, int]]:
    """(action index, kind, key) of every play the original engine could offer a leader."""
    cards = _cards_of(hand_mask)
    if len(cards) > 13:
        raise Ppo2018InputError("The 2018 PPO network handles hands of at most 13 cards.")
    by_rank: list[list[int]] = [[] for _ in range(13)]
    by_suit: list[list[int]] = [[] for _ in range(4)]
    for pos, card in enumerate(cards):
        by_rank[card >> 2].append(pos)
        by_suit[card & 3].append(pos)
    index = _ACTION_OF_POSITIONS
    out = [(pos, SINGLE, card) for pos, card in enumerate(cards)]
    pairs_of: list[list[tuple[int, ...]]] = [list(itertools.combinations(ps, 2)) for ps in by_rank]
    triples_of: list[list[tuple[int, ...]]] = []
    for ps in by_rank:
        if len(ps) == 4:
            # The original generator never offers the ♦♣♠ triple of a four of a kind.
            p0, p1, p2, p3 = ps
            triples_of.append([(p0, p1, p2), (p0, p2, p3), (p1, p2, p3)])
        else:
            triples_of.append(list(itertools.combinations(ps, 3)))
    for rank in range(13):
        out.extend((index[p], PAIR, cards[p[1]]) for p in pairs_of[rank])
        out.extend((index[t], TRIPLE, rank) for t in triples_of[rank])
        if len(by_rank[rank]) == 4:
            out.append((index[tuple(by_rank[rank])], FOUR, rank))
    for low, high in itertools.combinations(range(13), 2):
        for pa in pairs_of[low]:
            out.extend((index[pa + pb], TWO_PAIR, cards[pb[1]]) for pb in pairs_of[high])
    fives: dict[int, tuple[int, int]] = {}
    for low in range(9):
        for t in itertools.product(*by_rank[low : low + 5]):
            fives[index[t]] = _classify(sum(1 << cards[p] for p in t))
    for ps in by_suit:
        for t in itertools.combinations(ps, 5):
            fives[index[t]] = _classify(sum(1 << cards[p] for p in t))
    for trank, triples in enumerate(triples_of):
        for t in triples:
            for prank, pairs in enumerate(pairs_of):
                if prank != trank:
                    for p in pairs:
                        fives[index[tuple(sorted(t + p))]] = (FULL_HOUSE, trank)
    out.extend((i, kind, key) for i, (kind, key) in fives.items())
    return out


# For each kind of H, the kinds that beat it whatever their key, and the one kind (H's own)
# that beats it only with a higher key.
_BEATS_ANY: dict[int, frozenset[int]] = {
    SINGLE: frozenset(),
    PAIR: frozenset(),
    TRIPLE: frozenset(),
    TWO_PAIR: frozenset({FOUR}),
    FOUR: frozenset(),
    STRAIGHT: frozenset({FLUSH, FULL_HOUSE, STRAIGHT_FLUSH}),
    FLUSH: frozenset({FULL_HOUSE, STRAIGHT_FLUSH}),
    FULL_HOUSE: frozenset({STRAIGHT_FLUSH}),
    STRAIGHT_FLUSH: frozenset(),
}


def legal_indices_charlesworth(hand_mask: int, history: History, players: int = 4) -> list[int]:
    """The legal action indices, ascending, exactly as the original engine masked them.

    Control (three passes after the last play, or no play yet) allows every generated play
    and no pass; otherwise only same-size plays that beat the hand to beat, plus pass, with
    the original's quirks: a straight flush can never be beaten, and the ♦♣♠ triple of a four
    of a kind is never offered (nor any full house built on it).
    """
    _, h_mask, _ = _trick_state(history, players)
    candidates = _candidates(hand_mask)
    if h_mask is None:
        return sorted(i for i, _, _ in candidates)
    h_kind, h_key = _classify(h_mask)
    size = h_mask.bit_count()
    beats_any = _BEATS_ANY[h_kind]
    own = h_kind if h_kind != STRAIGHT_FLUSH else None
    legal = [
        i
        for i, kind, key in candidates
        if len(_POSITIONS_OF_ACTION[i]) == size
        and (kind in beats_any or (kind == own and key > h_key))
    ]
    legal.append(ACTION_PASS)
    return sorted(legal)
