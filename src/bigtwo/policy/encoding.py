"""Fixed-size encodings for learning: a seat's view as a vector, every move as an integer.

The **action space** is one list of card sets, the same for every rule set: index 0 is the
pass, and indices 1 … 25,779 are every set of cards that is a play under some rule set
(singles, pairs, triples, two pairs, four of a rank, runs of five ranks, flushes, full houses,
four of a kind with a kicker). A play's index depends on its cards only; the rule set says
which indices are plays at all and which beat which, and :func:`action_mask` marks the ones
legal now. The **observation** is a float32 vector of :data:`OBS_SIZE` built from a
:class:`~bigtwo.engine.views.SeatView` and the rule set alone, so no other seat's hidden cards
can reach it. Seats are counted from the observer: slot 0 is the seat itself, slot 1 the next
to act after it, and so on. ``docs/learning.md`` lists every slice and block.

>>> from bigtwo.engine import Deal, Rules
>>> from bigtwo.match.settings import RuleSet
>>> deal = Deal.from_seed(Rules.preset("palm"), seed=1)
>>> view = deal.view(deal.turn)
>>> play = view.legal[0]
>>> index = index_of(play)
>>> bool(action_mask(view)[index]), play_of(index, view.rules) == play
(True, True)
>>> ObservationEncoder(RuleSet.preset("palm")).encode(view).shape == (OBS_SIZE,)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..engine.cards import RANKS, Mask
from ..engine.errors import BigTwoError
from ..engine.plays import Kind, Play, catalog_for
from ..engine.rules import FIVE_CARD_KINDS, FOUR_CARD_KINDS, KIND_NAMES, Rules
from ..engine.views import SeatView
from ..match.settings import PER_CARD, RuleSet
from .structure import STRUCTURE_SIZE, HandStructure

ObsArray = npt.NDArray[np.float32]
BoolArray = npt.NDArray[np.bool_]

MAX_PLAYERS = 4
PASS = 0


class LearningError(BigTwoError, ValueError):
    """A rule set, a move or a setting the learning environments cannot take, in words."""


# -- the action space ----------------------------------------------------------------------


class Block(NamedTuple):
    """A run of action indices holding one shape of play: ``start`` … ``start + size - 1``."""

    name: str
    start: int
    size: int


def _bit(rank: int, suit: int) -> int:
    return 1 << (rank * 4 + suit)


def run_ranks(window: int) -> tuple[int, ...]:
    """The five ranks of run ``window`` (0 … 12): five ranks in a row in the order 3 … K A 2,
    counting round from 2 to 3, starting at rank ``window`` (0: 34567, 8: JQKA2, 11: A2345,
    12: 23456)."""
    return tuple((window + i) % 13 for i in range(5))


_RUN_OF_RANKS = {frozenset(run_ranks(w)): w for w in range(13)}


def _build_actions() -> tuple[list[int], list[Block]]:
    masks: list[int] = [0]
    blocks: list[Block] = [Block("pass", 0, 1)]

    def block(name: str, items: Sequence[int]) -> None:
        blocks.append(Block(name, len(masks), len(items)))
        masks.extend(items)

    pairs = list(combinations(range(4), 2))
    block("single", [1 << c for c in range(52)])
    block("pair", [_bit(r, a) | _bit(r, b) for r in range(13) for a, b in pairs])
    block(
        "triple",
        [sum(_bit(r, s) for s in t) for r in range(13) for t in combinations(range(4), 3)],
    )
    block(
        "two_pair",
        [
            _bit(lo, a) | _bit(lo, b) | _bit(hi, c) | _bit(hi, d)
            for lo, hi in combinations(range(13), 2)
            for a, b in pairs
            for c, d in pairs
        ],
    )
    block("four", [sum(_bit(r, s) for s in range(4)) for r in range(13)])
    block(
        "run",
        [
            sum(_bit(r, s) for r, s in zip(run_ranks(w), suits, strict=True))
            for w in range(13)
            for suits in product(range(4), repeat=5)
        ],
    )
    block(
        "flush",
        [
            sum(_bit(r, s) for r in ranks)
            for s in range(4)
            for ranks in combinations(range(13), 5)
            if frozenset(ranks) not in _RUN_OF_RANKS
        ],
    )
    block(
        "full_house",
        [
            sum(_bit(r3, s) for s in t) | _bit(r2, a) | _bit(r2, b)
            for r3 in range(13)
            for t in combinations(range(4), 3)
            for r2 in range(13)
            if r2 != r3
            for a, b in pairs
        ],
    )
    block(
        "four_of_a_kind",
        [
            sum(_bit(r, s) for s in range(4)) | 1 << k
            for r in range(13)
            for k in range(52)
            if k >> 2 != r
        ],
    )
    return masks, blocks


_MASKS, BLOCKS = _build_actions()
ACTION_SPACE_SIZE = len(_MASKS)
"""Size of the action space: the pass and 25,779 card sets."""
ACTION_MASKS: tuple[int, ...] = tuple(_MASKS)
"""The cards (a 52-bit mask) of each action index; 0 for the pass."""
_INDEX: dict[int, int] = {m: i for i, m in enumerate(_MASKS)}
assert len(_INDEX) == ACTION_SPACE_SIZE, "every action is a different set of cards"
del _MASKS


def index_of(play: Play | None) -> int:
    """The action index of a play (:data:`PASS` for None)."""
    if play is None:
        return PASS
    index = _INDEX.get(play.mask)
    if index is None:  # only a straight outside the 13 runs (refused by check_rules)
        raise LearningError(f"{play.symbols()} has no index in the learning action space")
    return index


def play_of(index: int, rules: Rules) -> Play | None:
    """The play of an action index under ``rules`` (None for the pass); a clear error when
    the index is out of range or its cards are no play under these rules."""
    if not 0 <= index < ACTION_SPACE_SIZE:
        raise LearningError(f"There is no action {index}: actions are 0 to {ACTION_SPACE_SIZE - 1}")
    if index == PASS:
        return None
    mask = ACTION_MASKS[index]
    play = catalog_for(rules).classify(Mask(mask))
    if play is None:
        from ..engine.cards import card_symbols

        raise LearningError(f"Action {index} ({card_symbols(Mask(mask))}) is no play here")
    return play


@cache
def action_card_matrix() -> npt.NDArray[np.uint8]:
    """A ``(ACTION_SPACE_SIZE, 52)`` 0/1 matrix: the cards of every action, for networks that score
    each legal move from its cards rather than keep one output per index."""
    out = np.zeros((ACTION_SPACE_SIZE, 52), dtype=np.uint8)
    for i, m in enumerate(ACTION_MASKS):
        out[i] = _bits52(m)
    out.setflags(write=False)
    return out


def legal_indices(view: SeatView) -> list[int]:
    """The action indices the view's seat may take now (the pass first, when allowed)."""
    out = [PASS] if view.can_pass else []
    out.extend(index_of(p) for p in view.legal)
    return out


def action_mask(view: SeatView) -> npt.NDArray[np.int8]:
    """A ``ACTION_SPACE_SIZE`` vector of 0/1 (int8): 1 for every action legal now."""
    out = np.zeros(ACTION_SPACE_SIZE, dtype=np.int8)
    out[legal_indices(view)] = 1
    return out


def check_rules(rules: Rules) -> None:
    """Refuse, in words, a rule set whose plays the action space cannot name: a house rule's
    straight that is not five ranks in a row."""
    for seq in rules.straights:
        ranks = frozenset(RANKS.index(c) for c in seq)
        if ranks not in _RUN_OF_RANKS:
            raise LearningError(
                f"{rules.name}: the straight '{seq}' is not five ranks in a row, which the "
                "learning action space needs"
            )


# -- the observation -----------------------------------------------------------------------


def _bits52_rows(masks: Sequence[int]) -> npt.NDArray[np.uint8]:
    """The 52 bits of each mask, one row per mask."""
    raw = np.frombuffer(b"".join(m.to_bytes(7, "little") for m in masks), dtype=np.uint8)
    return np.unpackbits(raw.reshape(len(masks), 7), axis=1, bitorder="little")[:, :52]


def _bits52(mask: int) -> npt.NDArray[np.uint8]:
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:52]


_KINDS = tuple(Kind(k) for k in KIND_NAMES)
_MULTIPLIER_CARDS = 13  # the factor reached with 1 … 13 cards left

# (name, size, high): the observation's slices in order; ``high`` is the largest value.
_LAYOUT: tuple[tuple[str, int, float], ...] = (
    ("hand", 52, 1.0),
    ("played", 52, 1.0),
    ("played_by", MAX_PLAYERS * 52, 1.0),
    ("counts", MAX_PLAYERS, 52 / 13),
    ("present", MAX_PLAYERS, 1.0),
    ("passed", MAX_PLAYERS, 1.0),
    ("locked", MAX_PLAYERS, 1.0),
    ("to_beat", 52, 1.0),
    ("to_beat_kind", len(_KINDS), 1.0),
    ("to_beat_seat", MAX_PLAYERS, 1.0),
    ("lead", 1, 1.0),
    ("can_pass", 1, 1.0),
    ("opening", 52, 1.0),
    ("leader", MAX_PLAYERS, 1.0),
    ("players", 3, 1.0),
    ("card_power", 52, 1.0),
    ("suit_order", 16, 1.0),
    ("straights", 13, 1.0),
    ("straight_top_of_sequence", 1, 1.0),
    ("flush_suit_first", 1, 1.0),
    ("kinds", len(_KINDS), 1.0),
    ("four_card_order", len(FOUR_CARD_KINDS), 1.0),
    ("five_card_order", len(FIVE_CARD_KINDS), 1.0),
    ("kinds_beat_lower", 1, 1.0),
    ("bombs", len(_KINDS), 1.0),
    ("straight_flush_unbeatable", 1, 1.0),
    ("pass_lock", 1, 1.0),
    ("last_card", 1, 1.0),
    ("rank_values", 13, 1.0),
    ("multipliers", _MULTIPLIER_CARDS, 1.0),
    ("winner_collects", 1, 1.0),
    ("per_card", len(PER_CARD), 1.0),
)


def _slices() -> dict[str, slice]:
    out: dict[str, slice] = {}
    at = 0
    for name, size, _ in _LAYOUT:
        out[name] = slice(at, at + size)
        at += size
    return out


OBS_SLICES: dict[str, slice] = _slices()
"""Where each part of the observation lies (see ``docs/learning.md``)."""
assert OBS_SLICES["played_by"].stop == 6 * 52, "hand, played, played_by come first"
OBS_SIZE = sum(size for _, size, _ in _LAYOUT)
OBS_HIGH: ObsArray = np.concatenate(
    [np.full(size, high, dtype=np.float32) for _, size, high in _LAYOUT]
)
"""The largest value of each element (the smallest is 0)."""
RULES_START = OBS_SLICES["card_power"].start
"""Elements from here on (to :data:`OBS_SIZE`) describe the rule set and its scoring only (the
same every turn)."""
STRUCTURE_SLICE = slice(OBS_SIZE, OBS_SIZE + STRUCTURE_SIZE)
"""Where the block ``structure`` lies in the observation of an encoder with ``structure=True``:
the hand-structure features of :mod:`.structure`, after the 599 floats."""


def observation_size(structure: bool = False) -> int:
    """The observation's length: :data:`OBS_SIZE`, and the hand-structure block with ``structure``."""
    return OBS_SIZE + STRUCTURE_SIZE if structure else OBS_SIZE


class ObservationEncoder:
    """Encodes views of deals under one rule set (its part of the vector is built once); with
    ``structure`` the observation ends with the hand-structure block (:data:`STRUCTURE_SLICE`)."""

    def __init__(self, ruleset: RuleSet, *, structure: bool = False) -> None:
        rules = ruleset.rules
        check_rules(rules)
        self.ruleset = ruleset
        self.rules = rules
        self.structure = structure
        self.size = observation_size(structure)
        self._rules_part = _rules_part(ruleset)
        self._hand_structure = HandStructure(rules) if structure else None

    def encode(self, view: SeatView) -> ObsArray:
        """The observation of ``view`` (its seat's, or a spectator's with no hand)."""
        if view.rules is not self.rules and view.rules != self.rules:
            raise LearningError(f"This encoder is for {self.rules.name}, not {view.rules.name}")
        s = OBS_SLICES
        out = np.zeros(self.size, dtype=np.float32)
        n = view.players
        me = view.seat if view.seat is not None else 0

        def slot(seat: int) -> int:
            return (seat - me) % n

        played_by = [0] * MAX_PLAYERS
        for action in view.actions:
            if action.play is not None:
                played_by[slot(action.seat)] |= action.play.mask
        to_beat = view.to_beat.mask if view.to_beat is not None else 0
        # hand, played and played_by lie side by side: one unpacking for all seven card sets
        # (and the hand-structure block's five, when the encoder has it)
        sets = [view.hand, view.played, *played_by, to_beat]
        if self._hand_structure is not None:
            sets.extend(self._hand_structure.masks(view.hand))
        cards = _bits52_rows(sets)
        out[: s["played_by"].stop] = cards[:6].ravel()
        out[s["to_beat"]] = cards[6]
        if self._hand_structure is not None:
            out[STRUCTURE_SLICE] = cards[7:].ravel()
        counts, present = s["counts"].start, s["present"].start
        locked, passed = s["locked"].start, s["passed"].start
        for seat, count in enumerate(view.counts):
            k = slot(seat)
            out[counts + k] = count / 13
            out[present + k] = 1.0
            if view.locked >> seat & 1:
                out[locked + k] = 1.0
        if view.to_beat is not None:
            for action in reversed(view.actions):
                if action.play is not None:
                    break
                out[passed + slot(action.seat)] = 1.0
            out[s["to_beat_kind"].start + _KINDS.index(view.to_beat.kind)] = 1.0
            out[s["to_beat_seat"].start + slot(view.to_beat_seat)] = 1.0
        else:
            out[s["lead"].start] = 1.0
        out[s["can_pass"].start] = 1.0 if view.can_pass else 0.0
        if view.opening is not None:
            out[s["opening"].start + view.opening] = 1.0
        out[s["leader"].start + slot(view.leader)] = 1.0
        out[s["players"].start + n - 2] = 1.0
        out[RULES_START:OBS_SIZE] = self._rules_part
        return out


def _rules_part(ruleset: RuleSet) -> ObsArray:
    """The rule set's and scoring's slices (everything from :data:`RULES_START` on)."""
    rules, scoring = ruleset.rules, ruleset.scoring
    s = OBS_SLICES
    out = np.zeros(OBS_SIZE, dtype=np.float32)
    catalog = catalog_for(rules)
    out[s["card_power"]] = np.asarray(catalog.card_power, dtype=np.float32) / 51
    for suit, char in enumerate("dchs"):
        out[s["suit_order"].start + suit * 4 + rules.suit_order.index(char)] = 1.0
    for i, seq in enumerate(rules.straights):
        window = _RUN_OF_RANKS[frozenset(RANKS.index(c) for c in seq)]
        out[s["straights"].start + window] = (i + 1) / len(rules.straights)
    out[s["straight_top_of_sequence"].start] = rules.straight_tiebreak == "top_of_sequence"
    out[s["flush_suit_first"].start] = rules.flush_order == "suit_first"
    present = {"single", "pair", *rules.four_card_kinds, *rules.five_kinds}
    if rules.triples:
        present.add("triple")
    for i, kind in enumerate(KIND_NAMES):
        out[s["kinds"].start + i] = kind in present
    for i, kind in enumerate(FOUR_CARD_KINDS):
        if kind in rules.four_card_kinds:
            position = rules.four_card_kinds.index(kind) + 1
            out[s["four_card_order"].start + i] = position / len(rules.four_card_kinds)
    for i, kind in enumerate(FIVE_CARD_KINDS):
        if kind in rules.five_kinds:
            position = rules.five_kinds.index(kind) + 1
            out[s["five_card_order"].start + i] = position / len(rules.five_kinds)
    out[s["kinds_beat_lower"].start] = rules.kinds_beat_lower
    for i, kind in enumerate(KIND_NAMES):
        if kind in rules.bombs:
            out[s["bombs"].start + i] = (rules.bombs.index(kind) + 1) / len(rules.bombs)
    out[s["straight_flush_unbeatable"].start] = not rules.straight_flush_beatable
    out[s["pass_lock"].start] = rules.pass_lock
    out[s["last_card"].start] = rules.last_card
    if scoring.per_card == "rank":
        top = max(scoring.rank_values) or 1
        out[s["rank_values"]] = np.asarray(scoring.rank_values, dtype=np.float32) / top
    elif scoring.per_card == "one":
        out[s["rank_values"]] = 1.0
    top_factor = max([f for _, f in scoring.multipliers] + [1])
    for k in range(1, _MULTIPLIER_CARDS + 1):
        _, factor = scoring.charge(k, [0] * k)
        out[s["multipliers"].start + k - 1] = factor / top_factor
    out[s["winner_collects"].start] = scoring.winner_collects
    out[s["per_card"].start + PER_CARD.index(scoring.per_card)] = 1.0
    return out[RULES_START:].copy()


def max_points(ruleset: RuleSet, players: int) -> int:
    """A bound on the size of one seat's points for a deal (for normalised rewards): what the
    winner collects when every other seat keeps a whole hand of the costliest cards."""
    rules, scoring = ruleset.rules, ruleset.scoring
    size = rules.hand_size(players)
    rest = 52 - size * players
    if rest and rest < players and rules.leftover == "to_leader":
        size += rest  # the cards left over go to the lead-card holder
    ranks = sorted(range(13), key=lambda r: scoring.rank_values[r], reverse=True)
    costly = [r for r in ranks for _ in range(4)][:size]
    loss, _ = scoring.charge(size, costly)
    return max(1, loss * (players - 1) if scoring.winner_collects else loss)
