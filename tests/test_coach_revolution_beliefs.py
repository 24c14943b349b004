"""What a seat may believe of the other hands in Big 2 RevolutioN: exact counts over the two
draws (the normal cards and the Revolution cards a seat has not seen), checked against every
hand an opponent could hold; probabilities that agree with worlds the expert's own sampler
deals; what the view proves (Gathering draws, undealt cards) read; worlds before the first
play."""

from __future__ import annotations

import itertools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from bigtwo.bots.revolution import StrongRevolutionBot
from bigtwo.bots.revolution_expert import known_cards, sample_world
from bigtwo.coach.beliefs import beliefs_of
from bigtwo.coach.revolution_beliefs import holds_group_of_two, undealt_cards
from bigtwo.engine.plays import catalog_for
from bigtwo.engine.revolution import RevolutionDeal, RevolutionView
from bigtwo.engine.revolution_cards import NORMAL_CARDS, REVOLUTION_CARDS, ids, parse, twin
from bigtwo.engine.rules import Rules
from bigtwo.engine.views import Move
from test_coach_beliefs import agrees_with_worlds

RULES = Rules.preset("revolution")
CATALOG = catalog_for(RULES)
POWER = CATALOG.card_power


def _positions(seed: int, players: int = 4) -> list[RevolutionDeal]:
    """Every position of a hand of ``seed`` played by ``strong``, as deals."""
    deal = RevolutionDeal.from_seed(RULES, seed, players)
    bot, rng = StrongRevolutionBot(), random.Random(seed)
    out = []
    while not deal.over:
        out.append(deal.view(deal.to_act))
        deal.take(bot.choose(out[-1], rng))
    return out


def _view_at(seed: int, seat: int, step: int, players: int = 4) -> RevolutionView:
    """``seat``'s view of the hand of ``seed`` after ``step`` choices."""
    deal = RevolutionDeal.from_seed(RULES, seed, players)
    bot, rng = StrongRevolutionBot(), random.Random(seed)
    for _ in range(step):
        deal.take(bot.choose(deal.view(deal.to_act), rng))
    return deal.view(seat)


def _facts(view: RevolutionView, hand: int) -> dict[str, bool]:
    """What the beliefs ask of one hand, worked out plainly: a card stands for its twin, a
    group of one rank is as strong as its highest card, a revolution turns the order."""
    to_beat = view.to_beat
    cards = ids(hand)
    ranks = [twin(c) >> 2 for c in cards]
    top = None if to_beat is None else max(POWER[twin(c)] for c in ids(to_beat.mask))

    def stronger(power: int) -> bool:
        assert top is not None
        return power < top if view.reversed else power > top

    facts = {
        "two": 12 in ranks,
        "ace": 11 in ranks,
        "pair": max((ranks.count(r) for r in ranks), default=0) >= 2,
        "triple": max((ranks.count(r) for r in ranks), default=0) >= 3,
    }
    if to_beat is not None and to_beat.size == 1:
        facts["beats_single"] = any(stronger(POWER[twin(c)]) for c in cards)
    if to_beat is not None and to_beat.size in (2, 3):
        size = to_beat.size
        facts[{2: "pair", 3: "triple"}[size]] = any(
            len({twin(c) >> 2 for c in group}) == 1 and stronger(max(POWER[twin(c)] for c in group))
            for group in itertools.combinations(cards, size)
        )
    return facts


def _every_hand(view: RevolutionView, seat: int) -> dict[str, Fraction]:
    """``seat``'s chances over every hand it could hold: its known cards, any of the unseen
    normal cards to its normal count and any of the unseen Revolution cards to its count."""
    known = known_cards(view)
    seen = view.hand | view.played | view.discards | sum(1 << c for c in view.gathering)
    for k in known:
        seen |= k
    normal = ids(NORMAL_CARDS & ~seen)
    star = ids(REVOLUTION_CARDS & ~seen)
    mine = known[seat]
    kn = view.counts[seat] - (mine & NORMAL_CARDS).bit_count()
    ks = view.revolution_counts[seat] - (mine & REVOLUTION_CARDS).bit_count()
    hits: dict[str, int] = {}
    ways = 0
    for a in itertools.combinations(normal, kn):
        for b in itertools.combinations(star, ks):
            ways += 1
            hand = mine | sum(1 << c for c in a + b)
            for name, yes in _facts(view, hand).items():
                hits[name] = hits.get(name, 0) + yes
    return {name: Fraction(h, ways) for name, h in hits.items()}


def _late(seed: int, most: int) -> RevolutionView:
    """Seat 0's first view in a hand of ``seed``, on its own turn, with at most ``most``
    hands each opponent could hold, something on the table and a Revolution card out of the
    deck in some opponent's hand."""
    for view in _positions(seed):
        if view.seat != 0 or view.to_beat is None or not sum(view.revolution_counts[1:]):
            continue
        seat0 = view
        known = known_cards(seat0)
        seen = seat0.hand | seat0.played | seat0.discards | sum(1 << c for c in seat0.gathering)
        for k in known:
            seen |= k
        normal, star = (NORMAL_CARDS & ~seen).bit_count(), (REVOLUTION_CARDS & ~seen).bit_count()
        if all(
            math.comb(normal, seat0.counts[s]) * math.comb(star, seat0.revolution_counts[s]) <= most
            for s in (1, 2, 3)
        ):
            return seat0
    raise LookupError(f"no such position in hand {seed}")


@pytest.mark.parametrize("seed", [0, 4, 8])
def test_the_chances_are_the_exact_counts_of_every_hand_an_opponent_could_hold(seed: int) -> None:
    view = _late(seed, 40_000)
    beliefs = beliefs_of(view, random.Random(0), worlds=50)
    assert beliefs.proofs == 0 and beliefs.beating == view.to_beat.size  # type: ignore[union-attr]
    for opponent in beliefs.opponents:
        counted = _every_hand(view, opponent.seat)
        for name, chance in opponent.chances().items():
            if name == "five":
                assert not chance.exact  # type: ignore[union-attr]
                continue
            if chance is None:
                assert name == "beats_single" and name not in counted
                continue
            assert chance.exact and chance.se == 0, name
            assert chance.p == pytest.approx(float(counted[name]), abs=1e-12), (
                opponent.seat,
                name,
            )


def test_groups_over_two_draws_against_every_hand() -> None:
    """holds_group_of_two against every hand of small pools of normal and Revolution cards,
    with a card known, for pairs and triples, against a pair or triple on the table or
    none, with and without a revolution."""
    rng = random.Random(4)
    for _ in range(6):
        picked = rng.sample(range(104), 14)
        normal = sum(1 << c for c in picked[:6] if c < 52) | sum(
            1 << (c - 52) for c in picked[:6] if c >= 52
        )
        star = sum(1 << (c | 0) for c in picked[6:11] if c >= 52) | sum(
            1 << (c + 52) for c in picked[6:11] if c < 52
        )
        star &= ~(normal << 52)  # the draws are of distinct cards: twins differ by 52
        known = 1 << picked[11] if not (normal | star) >> picked[11] & 1 else 0
        table = [
            p
            for p in CATALOG.plays_in(sum(1 << c for c in picked[12:14]) | normal)
            if p.size in (2, 3)
        ]
        for to_beat in [None, *table[:2]]:
            for rev in (False, True):
                for size in (2, 3):
                    tb = to_beat if to_beat is not None and to_beat.size == size else None
                    for kn, ks in ((1, 1), (2, 1), (3, 2)):
                        hits = ways = 0
                        for a in itertools.combinations(ids(normal), kn):
                            for b in itertools.combinations(ids(star), ks):
                                ways += 1
                                hand = known | sum(1 << c for c in a + b)
                                hits += any(
                                    (p := CATALOG.classify(sum(1 << c for c in g))) is not None
                                    and (tb is None or CATALOG.beats(p, tb, reversed=rev))
                                    for g in itertools.combinations(ids(hand), size)
                                )
                        got = holds_group_of_two(
                            normal, star, (kn, ks), known, size, CATALOG, tb, rev
                        )
                        assert got == pytest.approx(hits / ways, abs=1e-12)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 5_000), step=st.integers(1, 120), seat=st.integers(0, 3))
def test_beliefs_are_probabilities_that_agree_with_the_experts_sampled_worlds(
    seed: int, step: int, seat: int
) -> None:
    """A hypothesis property: every chance is a probability, and each exact one agrees with
    the share of 1,000 worlds dealt by the expert's own sampler (a separate implementation)
    within 4.5 standard errors."""
    positions = _positions(seed)
    assume(step < len(positions))
    deal = RevolutionDeal.from_seed(RULES, seed)
    bot, rng = StrongRevolutionBot(), random.Random(seed)
    for _ in range(step):
        deal.take(bot.choose(deal.view(deal.to_act), rng))
    view = deal.view(seat)
    assume(any(a.move is Move.PLAY for a in view.actions))  # the first play is made
    beliefs = beliefs_of(view, random.Random(seed), worlds=20)
    worlds, counts = 1000, {s: dict[str, int]() for s in range(4) if s != seat}
    sampler = random.Random(seed + 1)
    for _ in range(worlds):
        world = sample_world(view, sampler)
        for s in counts:
            for name, yes in _facts(view, world.hands[s]).items():
                counts[s][name] = counts[s].get(name, 0) + yes
    agrees_with_worlds(beliefs, counts, worlds)


def test_a_card_taken_from_the_gathering_is_known_to_be_held() -> None:
    """A 2 or an ace an opponent took from the Gathering face up makes its chance certain."""
    for seed in range(60):
        deal = RevolutionDeal.from_seed(RULES, seed)
        bot, rng = StrongRevolutionBot(), random.Random(seed)
        while not deal.over:
            view = deal.view(0)
            known = known_cards(view)
            for name, rank in (("two", 12), ("ace", 11)):
                holders = [s for s in (1, 2, 3) if known[s] & _rank(rank)]
                if holders:
                    beliefs = beliefs_of(view, random.Random(0), worlds=10)
                    for s in holders:
                        chance = beliefs.of(s).chances()[name]
                        assert chance is not None and (chance.p, chance.exact) == (1.0, True)
                    return
            deal.take(bot.choose(deal.view(deal.to_act), rng))
    pytest.fail("no hand of the first 60 has a 2 or an ace taken from the Gathering")


def _rank(rank: int) -> int:
    return 0xF << (4 * rank) | 0xF << (52 + 4 * rank)


def test_before_the_first_play_every_chance_is_sampled_where_the_leader_holds_the_lowest_card() -> (
    None
):
    view = _view_at(3, 0, 0, players=3)
    assert not any(a.move is Move.PLAY for a in view.actions)
    beliefs = beliefs_of(view, random.Random(0), worlds=60)
    assert {c.method for o in beliefs.opponents for c in o.chances().values() if c} == {"sampled"}
    assert beliefs_of(view, random.Random(0), worlds=60) == beliefs  # seeded: the same


def test_the_first_play_of_three_players_proves_the_lower_cards_undealt() -> None:
    hands = [
        "4c 4h 5d 6c 7d 8h 9s Tc Jd Qs Kc Ah 2d",
        "5c 6h 7c 8d 8s 9c Th Jc Qh Kd Ad 2c 2s",
        "4s 5h 5s 6d 6s 7h 8c 9d 9h Ts Js Qc Kh",
    ]
    deal = RevolutionDeal(RULES, hands, deck=range(52, 104))
    assert deal.leader == 0  # 4♣ is the lowest card dealt
    assert undealt_cards(deal.view(1)) == 0  # nothing played yet
    opening = parse("4c")
    deal.take(next(c for c in deal.view(0).choices if c.move is Move.PLAY and c.cards == opening))
    assert undealt_cards(deal.view(1)) == parse("3d 3c 3h 3s 4d")
    # seat 1 has not seen 33 normal cards (52, less its 13, 4♣ and the 5 undealt), 2♦ and
    # 2♥ among them; seat 2 holds 13 of them
    beliefs = beliefs_of(deal.view(1), random.Random(0), worlds=10)
    two = beliefs.of(2).two
    assert two.exact and two.p == pytest.approx(1 - math.comb(31, 13) / math.comb(33, 13))


def test_a_spectator_has_no_beliefs_in_the_expansion() -> None:
    deal = RevolutionDeal.from_seed(RULES, 1)
    with pytest.raises(ValueError, match="spectator"):
        beliefs_of(deal.view(None), random.Random())
