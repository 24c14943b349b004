"""The computer players: the Palm ``classic`` rules, legality everywhere, fairness, search.

``classic`` must reproduce every expected outcome of shared/PALM_BOTS.md with the exact play.
Every bot under every preset must always return a legal move. No fair bot may depend on
cards its seat cannot see: its choice is the same whatever the hidden hands are.
"""

from __future__ import annotations

import os
import pickle
import random
import statistics

import pytest

from bigtwo.arena import lineup_bots
from bigtwo.bots import Bot, bot_names, make_bot
from bigtwo.bots.classic import ClassicBot
from bigtwo.bots.expert import ExpertBot, likelihood, sample_hands
from bigtwo.bots.guided import GuidedExpertBot
from bigtwo.bots.hint import hint
from bigtwo.bots.inference import proven_misses, proven_replies
from bigtwo.bots.ppo2018_net import Ppo2018Unavailable, find_data_dir
from bigtwo.bots.strong import (
    Situation,
    StrongBot,
    UnseenBest,
    beatable,
    best_by_group,
    opponents_held_back,
    planner_for,
)
from bigtwo.engine import Deal, Rules, catalog_for, parse_cards, preset_names
from bigtwo.engine.cards import card_indices
from bigtwo.engine.views import SeatView
from bigtwo.match import Match
from bigtwo.match.settings import RuleSet
from bigtwo.match.views import TableView
from random_play import advance

PALM = Rules.preset("palm")
PALM_SET = RuleSet.preset("palm")


def _have_ppo2018_data() -> bool:
    """Whether the ``ppo2018`` bots can play here. On CI they must: there they are always
    tested, and missing data makes their tests fail instead of leaving them out."""
    if os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no"):
        return True
    try:
        find_data_dir()
    except Ppo2018Unavailable:
        return False
    return True


HAVE_PPO = _have_ppo2018_data()

FAIR = ["random", "greedy", "classic-fair", "strong", "expert", "guided"] + (
    ["ppo2018", "ppo2018-greedy"] if HAVE_PPO else []
)


def view_of(deal: Deal, seat: int | None) -> TableView:
    """A seat's view of a deal played without a match (its preset's scoring, no autopass)."""
    return TableView.of_deal(deal, seat, scoring=RuleSet.preset(deal.rules.name).scoring)


def make(name: str, rollouts: int = 12) -> Bot:
    """A bot for tests: the expert with a small budget so the suite stays quick."""
    if name == "expert":
        return ExpertBot(rollouts=rollouts)
    if name == "expert-ismcts":
        return ExpertBot(rollouts=rollouts, search="ismcts")
    if name == "expert-reading":
        return ExpertBot(rollouts=rollouts, recent=4)
    if name == "guided":
        return GuidedExpertBot(rollouts=rollouts)
    return make_bot(name)


def deal_with(
    rules: Rules, fixed: dict[int, str], leader: int, counts: dict[int, int] | None = None
) -> Deal:
    """A four-seat deal where ``fixed`` seats hold the given cards, the others random cards
    (13, or ``counts[seat]``), and ``leader`` leads freely."""
    rng = random.Random(0)
    hands = [0] * 4
    taken = 0
    for seat, text in fixed.items():
        hands[seat] = parse_cards(text).mask
        taken |= hands[seat]
    deck = [c for c in range(52) if not taken >> c & 1]
    rng.shuffle(deck)
    for seat in range(4):
        if seat not in fixed:
            for _ in range((counts or {}).get(seat, 13)):
                hands[seat] |= 1 << deck.pop()
    return Deal(rules, hands, leader=leader)


def classic_move(deal: Deal, guard: str | None = None, humans: set[int] | None = None) -> str:
    bot = ClassicBot(humans=humans, guard=guard)
    seat = deal.turn
    bot.new_deal(seat)
    bot.peek(deal)
    move = bot.choose(view_of(deal, seat), random.Random(0))
    return "pass" if move is None else str(move)


# -- classic: the expected outcomes of PALM_BOTS.md -------------------------------------------


@pytest.mark.parametrize("guard", ["all", "straights"])
@pytest.mark.parametrize(
    ("hand", "expected"),
    [
        ("3c 4d 5h 6s 7d 9c 9h Kd", "3c 4d 5h 6s 7d"),
        ("Ac 2d 3h 4s 5c 6d 7h 8s", "3h 4s 5c 6d 7h"),  # not A2345
        ("4c 4d 5h 5s 6c 7d 8h Kd", "4d 4c"),  # no straight that breaks two pairs
        ("5c 5d 9h Kd", "5d 5c"),
    ],
)
def test_classic_leads(hand: str, expected: str, guard: str) -> None:
    deal = deal_with(PALM, {2: hand}, leader=2)
    assert classic_move(deal, guard) == str(parse_cards(expected))


@pytest.mark.parametrize("peeking", [True, False])
def test_classic_leads_a_single_when_the_human_is_on_two_cards(peeking: bool) -> None:
    deal = deal_with(PALM, {2: "5c 5d 9h Kd", 0: "3d 3c"}, leader=2)
    bot = ClassicBot() if peeking else make_bot("classic-fair")
    bot.new_deal(2)
    bot.peek(deal)
    move = bot.choose(view_of(deal, 2), random.Random(0))
    assert str(move) == "5d"


def test_classic_lets_a_fellow_bots_king_stand_but_beats_the_humans() -> None:
    fellow = deal_with(PALM, {2: "4c 9h As 2d", 1: "Ks 3d 3c 3h 4d"}, leader=1)
    fellow.play(1, "Ks")
    assert classic_move(fellow) == "pass"
    human = deal_with(PALM, {1: "4c 9h As 2d", 0: "Ks 3d 3c 3h 4d"}, leader=0)
    human.play(0, "Ks")
    assert classic_move(human) == "As"


def test_classic_humans_are_configurable() -> None:
    deal = deal_with(PALM, {2: "4c 9h As 2d", 1: "Ks 3d 3c 3h 4d"}, leader=1)
    deal.play(1, "Ks")
    assert classic_move(deal, humans={1}) == "As"  # seat 1 is a human now: fight it


def test_classic_answers_a_straight_with_its_straight_flush() -> None:
    deal = deal_with(PALM, {2: "4c 5c 6c 7c 8c Kd", 1: "9d Tc Jh Qs Ks 3d"}, leader=1)
    deal.play(1, "9d Tc Jh Qs Ks")
    assert classic_move(deal) == "4c 5c 6c 7c 8c"


def test_greedy_loses_heavily_to_three_classic_players_over_10_deal_games() -> None:
    totals = []
    for seed in range(40):
        bots = lineup_bots(["greedy", "classic", "classic", "classic"])
        match = Match(PALM_SET, players=4, seed=seed)
        rng = random.Random(seed)
        while True:
            deal = match.deal
            for seat, bot in enumerate(bots):
                bot.new_deal(seat)
            while not deal.over:
                view = match.view(deal.turn)
                if not view.legal:
                    match.pass_(deal.turn)
                    continue
                bot = bots[deal.turn]
                bot.peek(deal)
                match.act(deal.turn, bot.choose(view, rng))
            if match.over:
                break
            match.next_deal()
        totals.append(match.totals)
    greedy = [t[0] for t in totals]
    assert statistics.fmean(greedy) < -75
    assert sum(t[0] == min(t) for t in totals) >= 0.35 * len(totals)  # last far beyond 1 in 4


# -- every bot, every preset: always a legal move ---------------------------------------------


# The quick check asks every bot at a few positions of every preset, spread over several deals
# and player counts, with a tiny expert budget (the expert's legality does not depend on how
# long it searches); the exhaustive one, with the usual test budget at many more positions, is
# marked ``slow``: ``make test-slow`` (and CI) runs it.
@pytest.mark.parametrize(
    ("wanted", "share", "rollouts"),
    [
        pytest.param(24, 0.15, 2, id="quick"),
        pytest.param(200, 0.5, 12, id="exhaustive", marks=pytest.mark.slow),
    ],
)
@pytest.mark.parametrize("preset", preset_names())
def test_every_bot_always_returns_a_legal_move(
    preset: str, wanted: int, share: float, rollouts: int
) -> None:
    rules = Rules.preset(preset)
    names = [*FAIR, "classic", "expert-ismcts", "expert-reading"]
    bots = {name: make(name, rollouts) for name in names}
    rng = random.Random(preset)
    positions = 0
    game = 0
    while positions < wanted:
        deal = Deal.from_seed(rules, f"{preset}:{game}", rng.choice(rules.players))
        game += 1
        while not deal.over and positions < wanted:
            view = view_of(deal, deal.turn)
            if view.legal and rng.random() < share:
                positions += 1
                for name, bot in bots.items():
                    bot.peek(deal)
                    move = bot.choose(view, random.Random(positions))
                    if move is None:
                        assert view.can_pass, f"{name} passed at a lead"
                    else:
                        assert move in view.legal, f"{name} chose {move}, not a legal play"
            plays = deal.legal_plays()
            if deal.can_pass() and (not plays or rng.random() < 0.3):
                deal.pass_(deal.turn)
            else:
                deal.play(deal.turn, plays[0] if rng.random() < 0.5 else rng.choice(plays))


def test_every_registered_bot_is_known() -> None:
    names = bot_names()
    for level in ("classic", "classic-fair", "strong", "expert", "greedy", "random"):
        assert level in names
    if HAVE_PPO:
        assert {"ppo2018", "ppo2018-greedy"} <= set(names)


# -- fairness: no fair bot reads hidden cards ---------------------------------------------------


def rehidden(deal: Deal, seat: int, rng: random.Random) -> Deal:
    """The same deal seen from ``seat`` (same history, same own cards), with every card it
    cannot see dealt afresh among the other seats."""
    played_by = [0] * deal.players
    for action in deal.actions:
        if action.play is not None:
            played_by[action.seat] |= action.play.mask
    hidden = [c for s in range(deal.players) if s != seat for c in card_indices(deal.hands[s])]
    rng.shuffle(hidden)
    hands = list(deal.hands)
    for s in range(deal.players):
        if s != seat:
            count = deal.hands[s].bit_count()
            hands[s] = sum(1 << c for c in hidden[:count])
            hidden = hidden[count:]
    again = Deal(deal.rules, [hands[s] | played_by[s] for s in range(deal.players)])
    for action in deal.actions[len(again.actions) :]:
        if action.play is None:
            again.pass_(action.seat, auto=action.auto, reason=action.reason)
        else:
            again.play(action.seat, action.play)
    return again


@pytest.mark.parametrize("name", FAIR)
@pytest.mark.parametrize("preset", ["palm", "charlesworth2018"])
def test_fair_bots_choose_the_same_whatever_the_hidden_hands(name: str, preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"{name}:{preset}")
    checked = 0
    for game in range(40):
        deal = Deal.from_seed(rules, f"fair:{game}")
        advance(deal, rng, rng.randrange(1, 30))
        if deal.over or not deal.legal_plays():
            continue
        seat = deal.turn
        other = rehidden(deal, seat, rng)
        assert other.hands != deal.hands
        view = view_of(deal, seat)
        assert view_of(other, seat) == view
        first = make(name).choose(view, random.Random(7))
        second = make(name).choose(view_of(other, seat), random.Random(7))
        assert first == second
        checked += 1
    assert checked >= 20


def test_a_seat_view_holds_no_other_hand() -> None:
    deal = Deal.from_seed(PALM, 3)
    view = view_of(deal, 1)
    fields = set(SeatView.__dataclass_fields__)
    assert "hands" not in fields and "dealt" not in fields
    assert view.hand == deal.hands[1]
    assert view.unseen & deal.hands[0] == deal.hands[0]


# -- strong --------------------------------------------------------------------------------------


def test_planner_finds_the_fewest_plays() -> None:
    planner = planner_for(PALM)
    plan = planner.plan(parse_cards("3c 4d 5h 6s 7d 9c 9h Kd Ks 2s").mask)
    assert sorted(str(p) for p in plan) == sorted(["3c 4d 5h 6s 7d", "9c 9h", "Kd Ks", "2s"])


@pytest.mark.parametrize("preset", preset_names())
def test_best_by_group_matches_enumeration(preset: str) -> None:
    catalog = catalog_for(Rules.preset(preset))
    rng = random.Random(preset)
    for _ in range(60):
        cards = sum(1 << c for c in rng.sample(range(52), rng.choice([2, 5, 9, 14, 20, 26])))
        truth: dict[object, int] = {}
        for p in catalog.plays_in(cards):
            truth[p.group] = max(truth.get(p.group, -1), p.power)
        assert best_by_group(catalog, cards) == truth
        up_to_four = best_by_group(catalog, cards, fives=False)
        assert {g: up_to_four[g] for g in up_to_four if g in (1, 2, 3, 4)} == {
            g: truth[g] for g in truth if g in (1, 2, 3, 4)
        }


@pytest.mark.parametrize("preset", preset_names())
def test_unseen_best_answers_as_the_full_summary(preset: str) -> None:
    """The lazy summary gives every play the same answer as the full one, whichever group is
    asked about first."""
    catalog = catalog_for(Rules.preset(preset))
    rng = random.Random(preset)
    for _ in range(40):
        cards = sum(1 << c for c in rng.sample(range(52), rng.choice([5, 9, 14, 20, 26, 39])))
        hand = sum(1 << c for c in rng.sample(range(52), 13)) & ~cards
        full = best_by_group(catalog, cards)
        lazy = UnseenBest(catalog, cards)
        plays = catalog.plays_in(hand)
        for p in rng.sample(plays, len(plays)):
            for most in (1, 4, 13):
                assert beatable(catalog, p, lazy, most) == beatable(catalog, p, full, most), p


@pytest.mark.parametrize("preset", preset_names())
def test_losers_are_counted_as_the_plays_that_could_be_beaten(preset: str) -> None:
    """``losers_at_least`` stops counting early, the cheap plays first, and still answers as
    the full count would."""
    rules = Rules.preset(preset)
    planner = planner_for(rules)
    rng = random.Random(preset)
    for n in range(30):
        deal = advance(Deal.from_seed(rules, n), rng, rng.randrange(30))
        if deal.over or not deal.legal_plays():
            continue
        s = Situation.of_deal(deal, deal.legal_plays(), PALM_SET.match.scoring)
        plan = planner.plan(s.hand, s.plays)
        beaten = sum(not s.master(p) for p in plan)
        for k in range(len(plan) + 2):
            assert s.losers_at_least(plan, k) == (beaten >= k), (k, beaten)


@pytest.mark.parametrize("preset", preset_names())
def test_the_simulated_players_move_is_the_move_with_its_reason(preset: str) -> None:
    """``move_in`` (the expert's simulated players, no reason written) plays what
    ``decide_in`` plays, and the reason ``decide_in`` writes names that play."""
    rules = Rules.preset(preset)
    bot = StrongBot()
    rng = random.Random(preset)
    seen = 0
    for n in range(40):
        deal = advance(Deal.from_seed(rules, n), rng, rng.randrange(40))
        if deal.over or not deal.legal_plays():
            continue
        s = Situation.of_deal(deal, deal.legal_plays(), PALM_SET.match.scoring)
        play, reason = bot.decide_in(s)
        assert bot.move_in(s) is play
        assert "{" not in reason
        if play is not None:
            assert reason.startswith(play.symbols()), reason
        seen += 1
    assert seen >= 20


def test_planner_cost_is_the_cost_of_the_plan() -> None:
    planner = planner_for(PALM)
    rng = random.Random(5)
    for _ in range(30):
        hand = sum(1 << c for c in rng.sample(range(52), 13))
        cost, plan = planner.best(hand)
        assert planner.cost(hand) == cost
        assert sum(p.mask for p in plan) == hand


def test_strong_blocks_a_player_on_one_card() -> None:
    deal = deal_with(PALM, {2: "4c 9h As 2d 5c 5d", 1: "Ks 3d 3c"}, leader=1, counts={3: 1})
    deal.play(1, "3c")
    move, reason = StrongBot().decide(view_of(deal, 2))
    assert str(move) == "2d" and "blocks" in reason


def test_strong_goes_out_when_it_can() -> None:
    deal = deal_with(PALM, {2: "9c 9h", 1: "8s 8d 3d"}, leader=1)
    deal.play(1, "8d 8s")
    assert str(StrongBot().choose(view_of(deal, 2), random.Random(0))) == "9c 9h"


def test_strong_unloads_points_when_the_deal_is_lost() -> None:
    hand = "3c 4d 5c 5h 6h 8s Tc Ts"
    deal = deal_with(PALM, {2: hand, 1: "4c 4s 3d 9d 9h Jd Js Kd"}, leader=1, counts={3: 3})
    deal.play(1, "4c 4s")
    move, reason = StrongBot().decide(view_of(deal, 2))
    assert str(move) == "Tc Ts" and "unloads" in reason  # not the cheaper 5c 5h
    deal = deal_with(PALM, {2: hand, 1: "4c 4s 3d 9d 9h Jd Js Kd"}, leader=1)
    deal.play(1, "4c 4s")
    assert str(StrongBot().choose(view_of(deal, 2), random.Random(0))) == "5c 5h"


class Plain(StrongBot):
    """The strong player without its answer to players who hold back."""

    counter_peeking = False


def strong_situation(hand: str, counts: list[int], trick: str | None = None) -> Situation:
    """Seat 0 holding ``hand``, the other seats random cards to make up ``counts``, seat 0 to
    lead or, once seat 3 has led ``trick``, to answer it; the engine gives the legal moves."""
    own, led = parse_cards(hand).mask, parse_cards(trick or "").mask
    deck = [c for c in range(52) if not (own | led) >> c & 1]
    random.Random(0).shuffle(deck)
    hands = [own, 0, 0, led]
    for seat in (1, 2, 3):
        for _ in range(counts[seat]):
            hands[seat] |= 1 << deck.pop()
    deal = Deal(PALM, hands, leader=3 if trick else 0)
    if trick:
        deal.play(3, trick)
    assert deal.turn == 0 and [h.bit_count() for h in deal.hands] == counts
    return Situation.of(view_of(deal, 0))


def chosen(bot: StrongBot, s: Situation, held_back: bool = False) -> str:
    move = bot.decide_in(s, held_back=held_back)[0]
    return "pass" if move is None else str(move)


def test_strong_leads_its_lowest_group_before_a_lower_single() -> None:
    s = strong_situation("3c 5c 5h 9s Kd", [5, 9, 9, 9])
    assert chosen(Plain(), s) == str(parse_cards("3c"))
    assert chosen(StrongBot(), s) == str(parse_cards("5c 5h"))


def test_strong_without_a_group_leads_the_lowest_single() -> None:
    s = strong_situation("3c 6h 9s Kd", [4, 9, 9, 9])
    assert chosen(StrongBot(), s) == chosen(Plain(), s) == str(parse_cards("3c"))


def test_strong_against_players_who_hold_back_does_not_give_up_at_three_cards() -> None:
    s = strong_situation("4c 6h 8s 9d Jc Kh 2s", [7, 3, 9, 9], trick="3d")
    assert chosen(StrongBot(), s) == "2s"  # no evidence: unload the 2
    assert chosen(StrongBot(), s, held_back=True) not in ("2s", "pass")
    # off (as in the expert's rollout players), the evidence changes nothing
    assert chosen(Plain(), s, held_back=True) == "2s"


def test_a_voluntary_pass_is_seen_as_holding_back() -> None:
    match = Match(PALM_SET, hands=["3d 4c 9h", "5d 6c Ah", "7d 8c 2h", "9d Tc Js"])
    match.play(0, "3d")
    match.pass_(1)  # 5d would beat 3d: a choice, not an automatic pass
    assert opponents_held_back(match.view(2))


def test_plain_answers_show_no_holding_back() -> None:
    match = Match(PALM_SET, hands=["3d 4c 9h", "5d 6c Ah", "7d 8c 2h", "9d Tc Js"])
    for seat, card in ((0, "3d"), (1, "5d"), (2, "7d"), (3, "9d")):
        match.play(seat, card)
    assert not opponents_held_back(match.view(0))


def test_without_autopass_a_pass_counts_once_a_higher_card_follows() -> None:
    hands = ["3d 4c 9h", "5d 6c Ah", "7d 8c 2h", "9d Tc Js"]
    match = Match(PALM_SET, hands=hands, autopass=False)
    match.play(0, "3d")
    match.pass_(1)
    assert not opponents_held_back(match.view(2))  # the pass may have been forced
    match.play(2, "7d")
    match.play(3, "9d")
    match.pass_(0)
    match.play(1, "Ah")  # seat 1 held a card above 3d when it passed
    assert opponents_held_back(match.view(2))


# -- expert -------------------------------------------------------------------------------------


def test_expert_is_deterministic_for_a_seeded_rng() -> None:
    deal = Deal.from_seed(PALM, 11)
    view = view_of(deal, deal.turn)
    bot = ExpertBot(rollouts=60)
    assert bot.choose(view, random.Random(3)) == bot.choose(view, random.Random(3))


def test_expert_samples_worlds_that_respect_autopasses() -> None:
    found = 0
    for seed in range(60):
        match = Match(PALM_SET, players=4, seed=seed, deals=1)
        deal = match.deal
        rng = random.Random(seed)
        while not deal.over and found <= seed:
            view = match.view(deal.turn)
            misses = [(s, p) for s, p in proven_misses(view) if p.size == 1]
            if misses and view.legal:
                power = deal.catalog.card_power
                for _ in range(5):
                    hands = sample_hands(view, rng, proven_misses(view))
                    for s, play in misses:
                        assert all(power[c] < play.power for c in card_indices(hands[s]))
                    assert sorted(h.bit_count() for h in hands) == sorted(view.counts)
                    assert hands[deal.turn] == view.hand
                found += 1
                break
            if not view.legal:
                match.pass_(deal.turn)
            else:
                match.act(deal.turn, view.legal[0])
    assert found >= 10


def test_chosen_passes_prove_a_reply_and_worlds_respect_them() -> None:
    """Under autopass a pass the table did not make was a choice: that seat held a reply. Each
    proof is true of the real hands, and the sampled worlds keep it."""
    from bigtwo.engine.movegen import HandPlays

    catalog = catalog_for(PALM)
    proofs = checked = 0
    for seed in range(30):
        match = Match(PALM_SET, players=4, seed=seed, deals=1)
        deal = match.deal
        rng = random.Random(seed)
        strong = StrongBot()
        while not deal.over:
            view = match.view(deal.turn)
            if not view.legal:
                match.pass_(deal.turn)
                continue
            found = proven_replies(view)
            for seat, play, since in found:
                assert not deal.hands[seat] & since  # cards played since are gone from the hand
                assert HandPlays(catalog, deal.hands[seat] | since).replies(play)
            proofs += len(found)
            if found and checked < 40:
                hands = sample_hands(view, rng, proven_misses(view), replies=found)
                for seat, play, since in found:
                    assert HandPlays(catalog, hands[seat] | since).replies(play)
                checked += 1
            match.act(deal.turn, strong.choose(view, rng))
    assert proofs >= 100 and checked == 40
    # without autopass a pass proves nothing
    match = Match(PALM_SET.replace(autopass=False), players=4, seed=5, deals=1)
    deal = match.deal
    while not deal.over:
        view = match.view(deal.turn)
        assert proven_replies(view) == []
        match.act(deal.turn, view.legal[0] if view.legal else None)
    assert any(a.play is None for a in deal.actions)


def test_worlds_that_explain_the_other_seats_choices_weigh_more() -> None:
    """The expert weighs each sampled world by how well it explains the latest choices of
    the other seats: the real hands explain them better than sampled ones."""
    real: list[float] = []
    sampled: list[float] = []
    for seed in range(12):
        match = Match(PALM_SET, players=4, seed=seed, deals=1)
        deal = match.deal
        rng = random.Random(seed)
        bots = [StrongBot(), make_bot("classic-fair"), StrongBot(), make_bot("greedy")]
        while not deal.over:
            view = match.view(deal.turn)
            if not view.legal:
                match.pass_(deal.turn)
                continue
            if deal.turn == 0 and len(view.actions) > 6:
                real.append(likelihood(view, deal.hands))
                for _ in range(4):
                    hands = sample_hands(view, rng, proven_misses(view))
                    assert 0.0 < likelihood(view, hands) <= 1.0
                    sampled.append(likelihood(view, hands))
            match.act(deal.turn, bots[deal.turn].choose(view, rng))
    assert len(real) >= 40
    assert statistics.fmean(real) > 1.3 * statistics.fmean(sampled)
    assert likelihood(view_of(Deal.from_seed(PALM, 3), 0), Deal.from_seed(PALM, 3).hands) == 1.0


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
def test_expert_beats_greedy_on_a_few_deals() -> None:
    from bigtwo.arena import play_deal

    bots: list[Bot] = [ExpertBot(rollouts=30), make_bot("greedy"), make_bot("greedy")]
    bots.append(make_bot("greedy"))
    points = []
    for board in range(4):
        deal = Deal.from_seed(PALM, f"expert:{board}")
        for r in range(4):
            hands = [deal.dealt[(s + r) % 4] for s in range(4)]
            points.append(play_deal(PALM_SET, bots, hands, f"e:{board}:{r}").points[0])
    assert statistics.fmean(points) > 0


# -- hint ---------------------------------------------------------------------------------------


def test_hint_suggests_a_legal_move_with_a_reason() -> None:
    deal = Deal.from_seed(PALM, 5)
    view = view_of(deal, deal.turn)
    hint(view)  # warm the caches a first hint fills
    deal2 = Deal.from_seed(PALM, 6)
    view2 = view_of(deal2, deal2.turn)
    move, reason = hint(view2)  # its speed is measured by the benchmarks, not asserted here
    assert move in view2.legal
    assert reason and "\n" not in reason


def test_hint_when_there_is_nothing_to_do() -> None:
    deal = Deal.from_seed(PALM, 5)
    other = (deal.turn + 1) % 4
    assert hint(view_of(deal, other)) == (None, "It is not your turn")


@pytest.mark.parametrize("name", [*FAIR, "classic"])
def test_bots_pickle_small_for_worker_processes(name: str) -> None:
    bot = make_bot(name)
    deal = Deal.from_seed(PALM, 8)
    bot.new_deal(deal.turn)
    bot.peek(deal)
    bot.choose(view_of(deal, deal.turn), random.Random(0))
    data = pickle.dumps(bot)
    assert len(data) < 10_000
    again = pickle.loads(data)
    assert type(again) is type(bot)
