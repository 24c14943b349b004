"""The deal: who leads, playing, passing (with and without pass-lock), trick end, deal end,
refusals in words, immutable action records, undo, and a test of each rule option's effect on
play; plus properties over random deals of every preset."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import (
    Action,
    BigTwoError,
    CannotPass,
    Deal,
    DealOver,
    DoesNotBeat,
    IllegalAction,
    MustInclude,
    NotACombination,
    NotYourCards,
    NotYourTurn,
    Rules,
    RulesError,
    opening_of,
    parse_cards,
    preset_names,
    to_mask,
)
from bigtwo.engine.cards import FULL_DECK
from bigtwo.engine.deal import deal_hands
from depths import depths
from random_play import snapshot

PRESETS = preset_names()
PALM = Rules.preset("palm")


def names(deal: Deal) -> list[str]:
    return [str(p) for p in deal.legal_plays()]


def refused(deal: Deal, seat: int, cards: str | None, error: type[Exception], start: str) -> None:
    """The action is refused with ``error`` and a message that starts with ``start``, and the
    deal is left as it was."""
    before = (list(deal.hands), deal.turn, deal.to_beat, len(deal.actions))
    with pytest.raises(error) as info:
        if cards is None:
            deal.pass_(seat)
        else:
            deal.play(seat, cards)
    assert str(info.value).startswith(start), str(info.value)
    assert isinstance(info.value, IllegalAction) and isinstance(info.value, BigTwoError)
    assert (list(deal.hands), deal.turn, deal.to_beat, len(deal.actions)) == before


# -- refusals in words ---------------------------------------------------------------------
def palm_deal() -> Deal:
    return Deal(PALM, ["3d 4c 5h 6s 7c Kd", "3c 4d 8d 9c Td 2s", "5c 6d 7h 8s 9h", "Jc Jd Qh Qs"])


def test_first_play_must_include_3d() -> None:
    deal = palm_deal()
    assert deal.turn == 0 and deal.leader == 0 and deal.opening == 0
    refused(deal, 0, "Kd", MustInclude, "First play must include 3♦")
    assert names(deal) == ["3d", "3d 4c 5h 6s 7c"]
    deal.play(0, "3d 4c 5h 6s 7c")
    assert deal.opening is None


def test_not_your_turn_cards_or_combination() -> None:
    deal = palm_deal()
    refused(deal, 1, "3c", NotYourTurn, "Not your turn")
    refused(deal, 1, None, NotYourTurn, "Not your turn")
    refused(deal, 0, "3d 2s", NotYourCards, "Not your cards")
    refused(deal, 0, "3d 4c", NotACombination, "Not a legal combination")
    refused(deal, 0, "", NotACombination, "Not a legal combination")
    refused(deal, 0, None, CannotPass, "You lead: you cannot pass")


def test_does_not_beat_names_the_table() -> None:
    hk = Rules.preset("palm-hk")
    deal = Deal(hk, ["7d 8c 9d Ts Jd 2s", "3c 4d 5h 6s 7s Ks", "5c 6d", "Jc Qd"], leader=0)
    deal.play(0, "7d 8c 9d Ts Jd")
    refused(deal, 1, "3c 4d 5h 6s 7s", DoesNotBeat, "That does not beat 7♦ 8♣ 9♦ 10♠ J♦")
    refused(deal, 1, "Ks", DoesNotBeat, "That does not beat 7♦ 8♣ 9♦ 10♠ J♦")
    assert deal.legal_plays() == [] and deal.can_pass()


def test_deal_over_refuses_everything() -> None:
    deal = Deal(PALM, ["3d", "4c 5c", "6c 7c", "8c 9c"])
    action = deal.play(0, "3d")
    assert action.trick_over and deal.over and deal.winner == 0
    refused(deal, 1, "4c", DealOver, "The deal is over")
    refused(deal, 1, None, DealOver, "The deal is over")
    assert deal.legal_plays() == [] and not deal.can_pass()


def test_bad_notation_is_a_bigtwo_error_too() -> None:
    with pytest.raises(BigTwoError, match="'1x'"):
        palm_deal().play(0, "3d 1x")


# -- who may deal and lead ---------------------------------------------------------------------
def test_players_per_preset() -> None:
    with pytest.raises(IllegalAction, match="palm is played by 4 players, not 3"):
        Deal(PALM, ["3d", "4d", "5d"])
    with pytest.raises(RulesError, match="palm is not played by 2 players"):
        Deal.from_seed(PALM, 1, 2)
    deduction = Rules.preset("deduction")
    for players in (2, 3, 4):
        deal = Deal.from_seed(deduction, 7, players)
        assert deal.counts() == [13] * players


def test_bad_hands_are_refused() -> None:
    with pytest.raises(IllegalAction, match="3d dealt twice"):
        Deal(PALM, ["3d 4d", "3d", "5d", "6d"])
    with pytest.raises(IllegalAction, match="Every player must be dealt cards"):
        Deal(PALM, ["3d", "", "5d", "6d"])
    with pytest.raises(IllegalAction, match="There is no seat 4"):
        Deal(Rules.preset("palm-hk"), ["3d", "4d", "5d", "6d"], leader=4)


def test_from_seed_is_reproducible_and_deals_every_card() -> None:
    a, b = Deal.from_seed(PALM, "seed"), Deal.from_seed(PALM, "seed")
    assert a.hands == b.hands and a.hands != Deal.from_seed(PALM, "other").hands
    assert sum(a.hands) == FULL_DECK and a.counts() == [13] * 4
    holder = next(s for s, h in enumerate(a.hands) if h & 1)
    assert a.turn == holder == a.leader


def test_leftover_goes_to_the_lead_card_holder_among_three() -> None:
    hk = Rules.preset("hongkong")
    for seed in range(20):
        deal = Deal.from_seed(hk, seed, 3)
        assert sorted(deal.counts()) == [17, 17, 18]
        assert sum(deal.hands) == FULL_DECK
        assert deal.counts()[deal.turn] == 18 and deal.hands[deal.turn] & 1  # holds 3d
    two = Deal.from_seed(hk, 1, 2)
    assert two.counts() == [13, 13]  # the rest stays aside: no 39-card hands


def test_leftover_aside() -> None:
    deal = Deal.from_seed(Rules.preset("deduction"), 3, 3)
    assert deal.counts() == [13, 13, 13]
    assert deal_hands(Rules.preset("deduction"), 2, random.Random(5))[0].bit_count() == 13


def test_lead_card_not_dealt_falls_back_to_the_lowest_card() -> None:
    deduction = Rules.preset("deduction")
    deal = Deal(deduction, ["5d 9s", "3h Kd"])
    assert deal.turn == 1 and opening_of(deduction, deal.hands) == (
        1,
        to_mask("3h").bit_length() - 1,
    )
    refused(deal, 1, "Kd", MustInclude, "First play must include 3♥")
    assert names(deal) == ["3h"]


def test_lead_card_lowest_option() -> None:
    lowest = PALM.replace(lead_card="lowest")
    deal = Deal(lowest, ["5d", "4h 9c", "4c 2s", "3s Ah"])
    assert deal.turn == 3 and names(deal) == ["3s"]
    # the lowest card follows the suit order of the rules: 3c is below 3d in taiwan
    taiwan_lowest = Rules.preset("taiwan").replace(lead_card="lowest")
    assert opening_of(taiwan_lowest, [to_mask("3d"), to_mask("3c")]) == (1, 1)


@pytest.mark.parametrize(("preset", "card"), [("taiwan", "3c"), ("pusoy-dos", "3c")])
def test_three_of_clubs_leads(preset: str, card: str) -> None:
    deal = Deal(Rules.preset(preset), ["3d 4d", "5d 6d", "3c 8d", "9d Td"])
    assert deal.turn == 2
    refused(deal, 2, "8d", MustInclude, "First play must include 3♣")


def test_first_play_any_option() -> None:
    deal = Deal(PALM.replace(first_play="any"), ["3d Kd", "4c", "5c", "6c"])
    assert deal.turn == 0 and names(deal) == ["3d", "Kd"]
    deal.play(0, "Kd")


def test_first_play_alone_option() -> None:
    cw = Rules.preset("charlesworth2018")
    deal = Deal(cw, ["4c 5c", "6c 7c", "3d 8c", "9c Tc"])
    assert len(deal.actions) == 1
    first = deal.actions[0]
    assert first.seat == 2 and first.auto and str(first.play) == "3d"
    assert "3♦" in first.reason and not first.trick_over
    assert deal.turn == 3 and str(deal.to_beat) == "3d" and deal.counts() == [2, 2, 1, 2]
    assert deal.can_pass() and deal.opening is None
    # the holder's seat is not in control: three passes give it the lead
    for seat in (3, 0, 1):
        deal.pass_(seat)
    assert deal.turn == 2 and deal.to_beat is None
    # with first_play 'alone' taken back, only the lead card alone may open
    deal = Deal(cw, ["3d 3c 4c", "6c 7c", "8c 9c", "Tc Jc"])
    deal.undo()
    assert names(deal) == ["3d"]
    refused(deal, 0, "3d 3c", MustInclude, "First play must be 3♦ alone")


def test_next_leader_winner_via_leader() -> None:
    hk = Rules.preset("palm-hk")
    deal = Deal(hk, ["3d 4c", "5d 6c", "Kd Ks 7c", "9d Tc"], leader=2)
    assert deal.turn == 2 and deal.leader == 2 and deal.opening is None
    assert names(deal) == ["7c", "Kd", "Ks", "Kd Ks"]  # no lead card needed
    deal.play(2, "Kd Ks")
    # without a leader, the lead card's holder leads as usual
    assert Deal(hk, ["3d 4c", "5d 6c", "Kd Ks 7c", "9d Tc"]).turn == 0


# -- tricks ----------------------------------------------------------------------------------
def test_trick_ends_when_everyone_else_passes() -> None:
    deal = Deal(PALM, ["3d 9d", "4d Td", "5d Jd", "6d Qd"])
    deal.play(0, "3d")
    assert [deal.pass_(s).trick_over for s in (1, 2, 3)] == [False, False, True]
    assert deal.turn == 0 and deal.to_beat is None and deal.passes == 0 and not deal.can_pass()
    assert deal.to_beat_seat == 0


def test_without_pass_lock_a_passed_player_plays_again() -> None:
    deal = Deal(PALM, ["3d 9d", "4d Td", "5d Jd", "6d Qd"])
    deal.play(0, "3d")
    deal.pass_(1)
    deal.play(2, "5d")
    deal.pass_(3)
    deal.pass_(0)
    assert deal.turn == 1 and deal.locked == 0
    assert names(deal) == ["Td"]
    deal.play(1, "Td")
    assert deal.turn == 2


@pytest.mark.parametrize("rules", [PALM.replace(pass_lock=True), Rules.preset("pusoy-dos")])
def test_pass_lock_option(rules: Rules) -> None:
    lead = "3c" if rules.lead_card == "3c" else "3d"
    deal = Deal(rules, [f"{lead} 9h Kh Ah", "4h Th", "5h Jh 7h", "6h Qh 8h"])
    deal.play(0, lead)
    deal.pass_(1)
    assert deal.locked == 0b10
    deal.play(2, "5h")
    deal.play(3, "6h")
    assert deal.turn == 0
    deal.play(0, "9h")
    assert deal.turn == 2  # seat 1 passed: it sits out the rest of the trick
    assert deal.view(1).locked == 0b10
    deal.pass_(2)
    action = deal.pass_(3)  # seats 1, 2, 3 are all out: the trick ends at once
    assert action.trick_over and deal.turn == 0 and deal.to_beat is None and deal.locked == 0
    # the lock lasts for one trick only
    deal.play(0, "Kh")
    assert deal.turn == 1 and deal.can_pass()


def test_last_card_option() -> None:
    rules = PALM.replace(last_card=True)
    deal = Deal(rules, ["3d 5c 9h Kd", "4c", "6c Qs", "8c Ah"])
    # the opening lead card comes first
    assert names(deal) == ["3d"]
    deal.play(0, "3d")
    assert names(deal) == ["4c"]
    deal.pass_(1)
    deal.pass_(2)
    deal.pass_(3)
    # seat 0 leads and seat 1 holds one card: the only single seat 0 may play is its highest
    assert names(deal) == ["Kd"]
    refused(deal, 0, "5c", IllegalAction, "The next player has one card left")
    deal.play(0, "Kd")
    # seat 3 is followed by seat 0 with two cards: no restriction
    assert Deal(PALM.replace(last_card=True), ["3d 5c 5d", "4c", "6c", "8c"]).legal_plays()
    plain = Deal(PALM, ["3d 5c 9h Kd", "4c", "6c Qs", "8c Ah"])
    plain.play(0, "3d")
    for seat in (1, 2, 3):
        plain.pass_(seat)
    assert names(plain) == ["5c", "9h", "Kd"]


def test_last_card_allows_pairs_and_replies_with_the_top_single() -> None:
    rules = PALM.replace(last_card=True)
    deal = Deal(rules, ["3d 4d 6s", "5c 5d 9h Kd", "4c", "Ac Ad"])
    deal.play(0, "3d")
    deal.pass_(1)
    deal.pass_(2)
    deal.pass_(3)
    deal.play(0, "4d")
    assert names(deal) == ["Kd"]  # seat 2 holds one card; 5c and 9h would beat 4d too
    deal.pass_(1)
    deal.pass_(2)
    deal.pass_(3)
    assert names(deal) == ["6s"]  # seat 1 follows seat 0 with four cards
    deal.undo()
    deal.undo()
    deal.undo()
    deal.play(1, "Kd")
    assert deal.turn == 2
    deal = Deal(rules, ["3d 4d 6s", "5c 5d 9h Kd", "4c", "Ac Ad"])
    deal.play(0, "3d")
    deal.pass_(1)
    deal.pass_(2)
    deal.pass_(3)
    deal.play(0, "6s")
    assert names(deal) == ["Kd"]
    deal.pass_(1)
    deal.pass_(2)
    deal.pass_(3)
    assert names(deal) == ["4d"]
    deal = Deal(rules, ["3d 4d 6s", "5c 5d 9h Kd 7c", "4c", "Ac Ad"])
    for action in ("3d", None, None, None, "4d", "Kd", None, None, None):
        if action is None:
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, action)
    assert names(deal) == ["9h", "5d 5c"]  # pairs are not restricted


def test_bombs_in_a_deal() -> None:
    taiwan = Rules.preset("taiwan")
    deal = Deal(taiwan, ["3c 9d", "2s 5d", "4d 4c 4h 4s 6d 9s", "7d 8d"])
    deal.play(0, "3c")
    deal.play(1, "2s")
    assert names(deal) == ["4c 4d 4h 4s 6d", "4c 4d 4h 4s 9s"] or names(deal) == [
        "4d 4c 4h 4s 6d",
        "4d 4c 4h 4s 9s",
    ]
    deal.play(2, "4d 4c 4h 4s 6d")
    assert str(deal.to_beat) == "4d 4c 4h 4s 6d" and deal.turn == 3
    assert names(deal) == []
    palm = Deal(PALM, ["3c 9d 3d", "2s 5d", "4d 4c 4h 4s 6d 9s", "7d 8d"])
    palm.play(0, "3d")
    palm.play(1, "2s")
    assert names(palm) == []  # no bombs in palm


def test_four_card_kinds_in_a_deal() -> None:
    cw = Rules.preset("charlesworth2018")
    deal = Deal(cw, ["3d 5d 5c 8h 8s 2s", "9d 9c Jd Js 3c", "4d 4c 4h 4s 6d", "7d 7c Ad"])
    for seat in (1, 2, 3):
        deal.pass_(seat)
    assert "5d 5c 8h 8s" in names(deal)
    deal.play(0, "5d 5c 8h 8s")
    assert names(deal) == ["9d 9c Jd Js"]
    deal.pass_(1)
    assert names(deal) == ["4d 4c 4h 4s"]  # four of a kind beats any two pair
    deal.play(2, "4d 4c 4h 4s")
    refused(deal, 3, "7d 7c", DoesNotBeat, "That does not beat 4♦ 4♣ 4♥ 4♠")


def test_straight_flush_unbeatable_in_a_deal() -> None:
    cw = Rules.preset("charlesworth2018")
    sf_low, sf_high = "4h 5h 6h 7h 8h", "9s Ts Js Qs Ks"
    deal = Deal(cw, [f"3d {sf_low} 2d", f"{sf_high} 2s", "3c 4c", "5c 6c"])
    for seat in (1, 2, 3):
        deal.pass_(seat)
    deal.play(0, sf_low)
    assert names(deal) == [] and deal.can_pass()
    refused(deal, 1, sf_high, DoesNotBeat, "That does not beat")
    palm = Deal(PALM, [f"3d {sf_low} 2d", f"{sf_high} 2s", "3c 4c", "5c 6c"])
    palm.play(0, "3d")
    for seat in (1, 2, 3):
        palm.pass_(seat)
    palm.play(0, sf_low)
    assert names(palm) == [sf_high]


def test_triples_option_in_a_deal() -> None:
    deal = Deal(PALM.replace(triples=False), ["3d 3c 3h 3s", "4d", "4c", "4h"])
    assert names(deal) == ["3d", "3d 3c", "3d 3h", "3d 3s"]
    refused(deal, 0, "3d 3c 3h", NotACombination, "Not a legal combination")


def test_a_deal_played_to_its_end() -> None:
    deal = Deal(PALM, ["3d 4d", "5d 6d", "7d 8d", "9d Td"])
    log = [
        deal.play(0, "3d"),
        deal.play(1, "5d"),
        deal.play(2, "7d"),
        deal.play(3, "9d"),
        deal.pass_(0),
        deal.pass_(1),
        deal.pass_(2),
        deal.play(3, "Td"),
    ]
    assert [a.trick_over for a in log] == [False] * 6 + [True, True]
    assert deal.winner == 3 and deal.over and deal.counts() == [1, 1, 1, 0]
    assert deal.actions == log


# -- action records and undo ---------------------------------------------------------------------
def test_actions_are_immutable_records() -> None:
    deal = palm_deal()
    action = deal.play(0, "3d")
    assert isinstance(action, Action) and action.seat == 0 and not action.is_pass
    assert not action.auto and action.reason == ""
    with pytest.raises(AttributeError):
        action.seat = 1  # type: ignore[misc]
    pass_ = deal.pass_(1, auto=True, reason="no single beats 3♦")
    assert pass_.is_pass and pass_.play is None and pass_.auto and pass_.reason
    assert deal.actions == [action, pass_]


def test_undo_with_nothing_to_undo() -> None:
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        palm_deal().undo()


def test_undo_takes_back_the_winning_play() -> None:
    deal = Deal(PALM, ["3d", "4c 5c", "6c 7c", "8c 9c"])
    action = deal.play(0, "3d")
    assert deal.undo() == action
    assert not deal.over and deal.winner is None and deal.hands[0] == 1 and deal.turn == 0
    assert deal.opening == 0 and names(deal) == ["3d"]


def test_apply_unchecked_is_the_fast_path() -> None:
    deal = palm_deal()
    play = deal.legal_plays()[0]
    action = deal.apply_unchecked(play)
    assert action.seat == 0 and action.play == play and deal.turn == 1
    deal.apply_unchecked(None)
    assert deal.actions[-1].is_pass and deal.turn == 2


# -- properties over random deals -------------------------------------------------------------
@pytest.mark.parametrize("examples", depths(60))
@pytest.mark.parametrize("preset", PRESETS)
def test_random_deals_conserve_cards_and_end_with_one_player_out(
    preset: str, examples: int, random_deal_steps: Callable[..., Iterator[Deal]]
) -> None:
    rules = Rules.preset(preset)

    @settings(max_examples=examples, deadline=None)
    @given(seed=st.integers(0, 2**32))
    def check(seed: int) -> None:
        conserves_cards(random_deal_steps(rules, seed))

    check()


def conserves_cards(steps: Iterator[Deal]) -> None:
    deal: Deal | None = None
    for deal in steps:
        dealt = 0
        for hand in deal.dealt:
            dealt |= hand
        played = 0
        for action in deal.actions:
            if action.play is not None:
                assert not played & action.play.mask  # no card played twice
                played |= action.play.mask
        held = 0
        for hand in deal.hands:
            assert not held & hand
            held |= hand
        assert not held & played and held | played == dealt
        assert sum(deal.counts()) + played.bit_count() == dealt.bit_count()
    assert deal is not None and deal.over
    out = [seat for seat, hand in enumerate(deal.hands) if not hand]
    assert out == [deal.winner]
    last = deal.actions[-1]
    assert last.seat == deal.winner and last.play is not None and last.trick_over


@pytest.mark.parametrize("examples", depths(30))
@pytest.mark.parametrize("preset", PRESETS)
def test_undo_restores_the_exact_state(preset: str, examples: int) -> None:
    rules = Rules.preset(preset)

    @settings(max_examples=examples, deadline=None)
    @given(seed=st.integers(0, 2**32))
    def check(seed: int) -> None:
        undo_restores(rules, seed)

    check()


def undo_restores(rules: Rules, seed: int) -> None:
    rng = random.Random(seed)
    deal = Deal.from_seed(rules, rng.randrange(1 << 30), rng.choice(rules.players))
    history = [snapshot(deal)]
    steps = 0
    while not deal.over and steps < 300:
        steps += 1
        if len(history) > 1 and rng.random() < 0.25:
            for _ in range(rng.randint(1, min(4, len(history) - 1))):
                deal.undo()
                history.pop()
                assert snapshot(deal) == history[-1]
            continue
        plays = deal.legal_plays()
        if deal.can_pass() and (not plays or rng.random() < 0.3):
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, rng.choice(plays))
        history.append(snapshot(deal))
    while len(history) > 1:
        deal.undo()
        history.pop()
        assert snapshot(deal) == history[-1]
    automatic = 1 if rules.first_play == "alone" else 0
    assert len(deal.actions) == automatic
    if not automatic:
        assert deal.hands == list(deal.dealt)


@pytest.mark.parametrize("preset", PRESETS)
@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_legal_plays_are_exactly_what_verify_accepts(
    preset: str, seed: int, random_deal_steps: Callable[..., Iterator[Deal]]
) -> None:
    for step, deal in enumerate(random_deal_steps(Rules.preset(preset), seed)):
        if deal.over or step % 5:
            continue
        legal = {p.mask for p in deal.legal_plays()}
        for play in deal.catalog.plays_in(deal.hands[deal.turn]):
            try:
                deal.verify_play(deal.turn, play)
                accepted = True
            except IllegalAction:
                accepted = False
            assert accepted == (play.mask in legal), (str(play), deal.to_beat)
        other = (deal.turn + 1) % deal.players
        assert deal.legal_plays(other) == [] and not deal.can_pass(other)


def test_random_deals_with_every_player_count(
    random_deal_steps: Callable[..., Iterator[Deal]],
) -> None:
    for preset in PRESETS:
        rules = Rules.preset(preset)
        for players in rules.players:
            *_, deal = random_deal_steps(rules, players * 101, players)
            assert deal.over and deal.players == players
            assert parse_cards(" ".join(str(a.play) for a in deal.actions if a.play))


def test_a_play_that_does_not_beat_says_what_would() -> None:
    """Issue 15, item 7: "That does not beat ..." alone left a new player guessing."""
    deal = Deal(PALM, ["3d 4d 5d 6d 7d 2h", "8s 9s", "3c 4c", "5c 6c"])
    deal.play(0, "3d 4d 5d 6d 7d")
    refused(deal, 1, "8s", DoesNotBeat, "That does not beat 3♦ 4♦ 5♦ 6♦ 7♦: it needs a 5-card play")
    deal = Deal(PALM, ["3d 4d", "2s 9s", "4c 5h", "5c 6c"])
    deal.play(0, "3d")
    deal.play(1, "2s")
    refused(deal, 2, "4c", DoesNotBeat, "That does not beat 2♠: it needs a higher single")
    cw = Rules.preset("charlesworth2018")
    sf_low, sf_high = "4h 5h 6h 7h 8h", "9s Ts Js Qs Ks"
    deal = Deal(cw, [f"3d {sf_low} 2d", f"{sf_high} 2s", "3c 4c", "5c 6c"])
    for seat in (1, 2, 3):
        deal.pass_(seat)
    deal.play(0, sf_low)
    refused(deal, 1, sf_high, DoesNotBeat, "That does not beat 4♥ 5♥ 6♥ 7♥ 8♥: nothing beats")


def test_the_legal_plays_are_worked_out_once_for_each_state_and_never_kept_past_it() -> None:
    """A deal remembers the legal plays of the state it is in (each caller gets its own list),
    forgets them at every action and undo, and neither a pickle nor a copy keeps them."""
    import copy
    import pickle

    from bigtwo.engine.trick import Trick

    deal = Deal.from_seed(Rules.preset("palm"), 11)
    for _ in range(30):
        plays = deal.legal_plays()
        assert plays == Trick.legal_plays(deal) and plays is not deal.legal_plays()
        assert deal.legal_plays(deal.next_seat(deal.turn)) == []
        if not plays or (deal.to_beat is not None and len(deal.actions) % 3 == 0):
            deal.pass_(deal.turn)
        else:
            deal.play(deal.turn, plays[-1])
        if deal.over:
            break
    before = deal.legal_plays()
    taken = deal.undo()
    assert deal.legal_plays() == Trick.legal_plays(deal)
    deal.apply_unchecked(taken.play)
    assert deal.legal_plays() == before
    assert "_legal" not in pickle.loads(pickle.dumps(deal)).__dict__
    assert "_legal" not in copy.copy(deal).__dict__
