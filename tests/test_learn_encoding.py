"""The learning encoding: every move has an index and back, and no hidden card is observed."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bigtwo.engine import Deal, IllegalAction, Mask, Rules, catalog_for
from bigtwo.engine.cards import FULL_DECK, card_indices
from bigtwo.engine.errors import RulesError
from bigtwo.engine.rules import preset_names
from bigtwo.match.settings import RuleSet
from bigtwo.policy.encoding import (
    ACTION_MASKS,
    ACTION_SPACE_SIZE,
    BLOCKS,
    OBS_HIGH,
    OBS_SIZE,
    OBS_SLICES,
    PASS,
    RULES_START,
    STRUCTURE_SLICE,
    LearningError,
    ObservationEncoder,
    action_card_matrix,
    action_mask,
    check_rules,
    index_of,
    legal_indices,
    max_points,
    play_of,
)
from bigtwo.policy.structure import HandStructure
from random_play import advance

PRESETS = preset_names()
TABLES = [(name, n) for name in PRESETS for n in Rules.preset(name).players]


def test_the_action_space_is_blocks_of_distinct_card_sets() -> None:
    assert ACTION_SPACE_SIZE == 25780 and PASS == 0 and ACTION_MASKS[PASS] == 0
    at = 0
    for block in BLOCKS:
        assert block.start == at
        at += block.size
    assert at == ACTION_SPACE_SIZE
    assert len(set(ACTION_MASKS)) == ACTION_SPACE_SIZE
    sizes = {b.name: {ACTION_MASKS[i].bit_count() for i in range(b.start, b.start + b.size)}
             for b in BLOCKS}  # fmt: skip
    assert sizes["single"] == {1} and sizes["pair"] == {2} and sizes["two_pair"] == {4}
    assert sizes["run"] == sizes["flush"] == sizes["full_house"] == {5}
    cards = action_card_matrix()
    assert cards.shape == (ACTION_SPACE_SIZE, 52)
    for i in (1, 60, 5000, 20000, ACTION_SPACE_SIZE - 1):
        assert set(np.flatnonzero(cards[i])) == set(card_indices(Mask(ACTION_MASKS[i])))


@pytest.mark.parametrize("name", PRESETS)
def test_every_play_of_every_preset_has_an_index_and_back(name: str) -> None:
    # every play a full deck holds: all the plays the rule set has
    rules = Rules.preset(name)
    plays = catalog_for(rules).plays_in(Mask(FULL_DECK))
    indices = [index_of(p) for p in plays]
    assert len(set(indices)) == len(plays)
    for index, play in zip(indices, plays, strict=True):
        assert ACTION_MASKS[index] == play.mask
        back = play_of(index, rules)
        assert back == play and back is not None and back.kind is play.kind


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_legal_plays_of_random_positions_map_to_set_mask_bits(name: str, players: int) -> None:
    rules = Rules.preset(name)
    rng = random.Random(f"{name}:{players}")
    for trial in range(12):
        deal = advance(Deal.from_seed(rules, trial, players), rng, rng.randrange(60))
        if deal.over:
            continue
        view = deal.view(deal.turn)
        mask = action_mask(view)
        assert mask.dtype == np.int8
        assert int(mask.sum()) == len(view.legal) + view.can_pass  # no other bit is set
        assert bool(mask[PASS]) == view.can_pass
        for play in view.legal:
            index = index_of(play)
            assert mask[index] == 1
            assert play_of(index, rules) == play
        assert sorted(legal_indices(view)) == sorted(np.flatnonzero(mask).tolist())


def test_bad_indices_and_rule_sets_are_refused_in_words() -> None:
    palm = Rules.preset("palm")
    with pytest.raises(LearningError, match="There is no action 25780"):
        play_of(ACTION_SPACE_SIZE, palm)
    two_pair = next(b for b in BLOCKS if b.name == "two_pair").start
    with pytest.raises(LearningError, match="is no play here"):
        play_of(two_pair, palm)  # two pair is a play under charlesworth2018 only
    assert play_of(PASS, palm) is None and index_of(None) == PASS
    # A straight that is no run of five ranks never reaches the encoding: the rules refuse it.
    with pytest.raises(RulesError, match="'3579J' is not five ranks in a row"):
        palm.replace(straights=["3579J"])
    check_rules(palm.replace(straights=["QKA23", "KA234"]))  # house rules that wrap


@pytest.mark.parametrize(("name", "players"), TABLES)
def test_observations_are_fixed_size_and_within_bounds(name: str, players: int) -> None:
    ruleset = RuleSet.preset(name)
    encoder = ObservationEncoder(ruleset)
    rng = random.Random(name)
    for trial in range(5):
        deal = advance(Deal.from_seed(ruleset.rules, trial, players), rng, rng.randrange(80))
        for seat in range(players):
            obs = encoder.encode(deal.view(seat))
            assert obs.shape == (OBS_SIZE,) and obs.dtype == np.float32
            assert (obs >= 0).all() and (obs <= OBS_HIGH).all()
            hand = obs[OBS_SLICES["hand"]]
            assert set(np.flatnonzero(hand)) == set(card_indices(deal.hands[seat]))
            assert obs[OBS_SLICES["present"]].sum() == players


def test_the_rules_part_tells_the_presets_apart() -> None:
    parts = {
        name: ObservationEncoder(RuleSet.preset(name)).encode(
            Deal.from_seed(Rules.preset(name), 1).view(0)
        )[RULES_START:]
        for name in PRESETS
    }
    for a in PRESETS:
        for b in PRESETS:
            if a < b and a != "deduction" and b != "deduction":
                assert not np.array_equal(parts[a], parts[b]), (a, b)
    # deduction plays as palm and differs in its scoring only: that part tells them apart
    assert not np.array_equal(parts["deduction"], parts["palm"])


def test_seats_are_counted_from_the_observer() -> None:
    ruleset = RuleSet.preset("palm")
    deal = Deal.from_seed(ruleset.rules, 5)
    first = deal.turn
    deal.play(first, deal.legal_plays()[0])
    encoder = ObservationEncoder(ruleset)
    for seat in range(4):
        obs = encoder.encode(deal.view(seat))
        slot = (first - seat) % 4
        played_by = obs[OBS_SLICES["played_by"]].reshape(4, 52)
        assert played_by[slot].sum() == deal.actions[0].play.size  # type: ignore[union-attr]
        assert obs[OBS_SLICES["to_beat_seat"]][slot] == 1
        assert obs[OBS_SLICES["leader"]][slot] == 1


def test_max_points_bounds_every_score() -> None:
    assert max_points(RuleSet.preset("charlesworth2018"), 4) == 39  # 13 cards each of three
    assert max_points(RuleSet.preset("hongkong"), 3) == 2 * 3 * 18  # ×3 at 13+, 18 cards
    palm = RuleSet.preset("palm")
    assert max_points(palm, 4) == 3 * 2 * (4 * (13 + 12 + 11) + 10)


# -- no hidden card reaches an observation ---------------------------------------------


def _shuffle_hidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same public history, with the other seats' unplayed cards dealt among them
    again (each keeps its count): what ``seat`` cannot tell apart."""
    played = [0] * deal.players
    for action in deal.actions:
        if action.play is not None:
            played[action.seat] |= action.play.mask
    others = [s for s in range(deal.players) if s != seat]
    pool = [c for s in others for c in card_indices(deal.hands[s])]
    rng.shuffle(pool)
    dealt = list(deal.dealt)
    for s in others:
        count = deal.hands[s].bit_count()
        mine, pool = pool[:count], pool[count:]
        dealt[s] = Mask(played[s] | sum(1 << c for c in mine))
    other = Deal(deal.rules, dealt)
    for action in deal.actions:
        if action.auto and action.play is not None:
            continue  # played by the deal itself (an opening card alone), again by itself
        if action.play is None:
            other.pass_(action.seat)
        else:
            other.play(action.seat, action.play)
    return other


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    table=st.sampled_from(TABLES),
    seed=st.integers(0, 10**6),
    steps=st.integers(1, 60),
    observer=st.integers(0, 3),
)
def test_other_seats_hidden_cards_never_change_an_observation(
    table: tuple[str, int], seed: int, steps: int, observer: int
) -> None:
    name, players = table
    ruleset = RuleSet.preset(name)
    rng = random.Random(seed)
    deal = advance(Deal.from_seed(ruleset.rules, seed, players), rng, steps)
    seat = observer % deal.players
    try:
        other = _shuffle_hidden(deal, seat, rng)
    except IllegalAction:
        assume(False)  # a replay the rules refuse with the new hands (never with these presets)
    assert other.hands[seat] == deal.hands[seat]
    before, after = deal.view(seat), other.view(seat)
    # with the hand-structure block too: it reads the seat's own hand and the rules alone
    for encoder in (ObservationEncoder(ruleset), ObservationEncoder(ruleset, structure=True)):
        assert np.array_equal(encoder.encode(before), encoder.encode(after))
    assert np.array_equal(action_mask(before), action_mask(after))


def test_the_hidden_card_check_can_fail() -> None:
    # the shuffle does move cards, and an observation that read them would differ
    ruleset = RuleSet.preset("palm")
    encoder = ObservationEncoder(ruleset)
    moved = changed = 0
    structured = HandStructure(ruleset.rules).masks
    for seed in range(20):
        rng = random.Random(seed)
        deal = advance(Deal.from_seed(ruleset.rules, seed), rng, 8)
        other = _shuffle_hidden(deal, 0, rng)
        if other.hands[1:] != deal.hands[1:]:
            moved += 1
            assert not np.array_equal(
                encoder.encode(deal.view(1)), encoder.encode(other.view(1))
            )  # seat 1's own hand did change, and its observation shows it
            block = ObservationEncoder(ruleset, structure=True)
            if structured(deal.hands[1]) != structured(other.hands[1]):
                flags = [block.encode(d.view(1))[STRUCTURE_SLICE] for d in (deal, other)]
                assert not np.array_equal(*flags)  # and its hand-structure block, when it moved
                changed += 1
    assert changed >= 10
    assert moved >= 18
