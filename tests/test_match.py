"""The match: deals in sequence, the leader rule per preset, rule changes between deals,
autopass, 2 to 4 players, custom deals and time."""

from __future__ import annotations

import pytest

from bigtwo.autoplay import play_out
from bigtwo.bots import Bot, make_bot
from bigtwo.engine import DoesNotBeat, IllegalAction, parse_cards
from bigtwo.match import Change, Match
from bigtwo.match.settings import RuleSet

PALM = RuleSet.preset("palm")
HK = RuleSet.preset("palm-hk")


def bots(n: int, level: str = "random") -> list[Bot]:
    return [make_bot(level) for _ in range(n)]


def m(text: str) -> int:
    return parse_cards(text).mask


# -- deals in sequence ------------------------------------------------------------------------------
def test_a_palm_game_is_ten_deals_each_zero_sum_with_running_totals() -> None:
    match = play_out(Match(PALM, seed=11), bots(4))
    assert match.over and match.deal_number == 10 and len(match.results) == 10
    assert [r.number for r in match.results] == list(range(1, 11))
    for result in match.results:
        assert sum(result.points) == 0
        assert result.cards_left[result.winner] == 0
    assert match.totals == [sum(r.points[s] for r in match.results) for s in range(4)]
    with pytest.raises(IllegalAction, match="game is over"):
        match.next_deal()


def test_next_deal_waits_for_the_deal_to_end_and_a_refused_deal_changes_nothing() -> None:
    match = Match(PALM, seed=2, deals=3)
    with pytest.raises(IllegalAction, match="not over"):
        match.next_deal()
    play_out(match, bots(4), deals=1)
    assert match.deal.over and match.deal_number == 1
    with pytest.raises(IllegalAction):
        match.next_deal(hands=["3d 4d", "3d 5d", "6d", "7d"])  # 3d dealt twice
    assert match.deal_number == 1 and match.deal.over and len(match.deal_seconds) == 1
    match.next_deal()
    assert match.deal_number == 2


def test_the_same_seed_gives_the_same_match() -> None:
    a = play_out(Match(PALM, seed="same"), bots(4))
    b = play_out(Match(PALM, seed="same"), bots(4))
    assert [r.dealt for r in a.results] == [r.dealt for r in b.results]
    assert [r.actions for r in a.results] == [r.actions for r in b.results]
    assert a.totals == b.totals


# -- the leader rule ---------------------------------------------------------------------------------
def test_palm_the_3d_holder_leads_every_deal() -> None:
    match = play_out(Match(PALM, seed=5, deals=4), bots(4))
    for result in match.results:
        assert result.dealt[result.leader] & 1  # 3d is card 0
        assert result.actions[0].play is not None and result.actions[0].play.mask & 1


def test_palm_hk_the_winner_of_each_deal_leads_the_next_without_3d() -> None:
    match = play_out(Match(HK, seed=8), bots(4))
    first = match.results[0]
    assert first.dealt[first.leader] & 1  # deal 1: the 3d holder, as in palm
    led_without_3d = 0
    for before, result in zip(match.results, match.results[1:], strict=False):
        assert result.leader == before.winner
        opening = result.actions[0]
        assert opening.seat == before.winner
        if not opening.play or not opening.play.mask & 1:
            led_without_3d += 1
    assert led_without_3d > 0


def test_palm_hk_winner_leads_with_any_card() -> None:
    match = Match(HK, hands=["3d 9s", "4d Kh", "5d Kc", "6d Ks"], deals=2)
    for seat, cards in ((0, "3d"), (1, "4d"), (2, "5d"), (3, "6d"), (0, "9s")):
        match.play(seat, cards)
    assert match.results[0].winner == 0
    # Deal 2: seat 2 holds 3d, yet seat 0, the winner, leads, and need not play 3d.
    match.next_deal(hands=["8s 9h", "Kd", "3d 7c", "Qd"])
    assert match.deal.turn == 0 and match.deal.opening is None
    match.play(0, "8s")
    assert match.deal.turn == 1


def test_switching_to_palm_hk_mid_deal_changes_nothing_until_the_next_deal() -> None:
    match = Match(PALM, hands=["3d 4c 5h 6s 7d 9s", "2c 3c 4d 5d 6c Kd", "8d", "8c"], deals=2)
    match.play(0, "3d 4c 5h 6s 7d")
    match.set_rules(HK)
    # Still palm in this deal: 23456 is the second-lowest straight and loses to 34567.
    assert match.deal.rules is PALM.rules and match.rules is PALM.rules
    assert match.ruleset is PALM and match.next_ruleset is HK
    with pytest.raises(DoesNotBeat):
        match.play(1, "2c 3c 4d 5d 6c")
    match.pass_(1)
    match.pass_(2)
    match.pass_(3)
    match.play(0, "9s")
    assert match.results[0].rules is PALM and match.results[0].winner == 0
    # From deal 2 on: palm-hk. Seat 0 won, so leads without 3d; 23456 is the top straight.
    match.next_deal(hands=["Td Jc Qh Ks Ad 4s", "2c 3c 4d 5d 6c 7s", "3d 8c", "9h 9c"])
    assert match.deal.rules is HK.rules and match.ruleset is HK
    assert match.deal.turn == 0
    match.play(0, "Td Jc Qh Ks Ad")
    match.play(1, "2c 3c 4d 5d 6c")  # beats TJQKA under palm-hk
    assert match.changes == [Change(1, 1, "rules", HK)]


def test_deduction_two_players_lowest_dealt_card_leads_when_3d_is_not_dealt() -> None:
    rules = RuleSet.preset("deduction")
    seed = next(s for s in range(200) if not _dealt(Match(rules, players=2, seed=s)) & 1)
    match = Match(rules, players=2, seed=seed)
    hands = match.deal.dealt
    assert [h.bit_count() for h in hands] == [13, 13]
    lowest = min(c for c in range(52) if _dealt(match) >> c & 1)
    holder = next(s for s in range(2) if hands[s] >> lowest & 1)
    assert match.deal.turn == holder and match.deal.opening == lowest
    play_out(match, bots(2))
    assert match.over and match.names == ["You", "Ann"]


def test_three_players_hongkong_deal_17_each_and_the_last_card_goes_to_the_leader() -> None:
    match = Match(RuleSet.preset("hongkong"), ["A", "B", "C"], seed=4)
    sizes = sorted(h.bit_count() for h in match.deal.dealt)
    assert sizes == [17, 17, 18]
    assert match.deal.dealt[match.deal.turn].bit_count() == 18
    play_out(match, bots(3), deals=2)
    assert all(sum(r.points) == 0 for r in match.results)


def test_player_counts_the_rules_do_not_allow_are_refused() -> None:
    with pytest.raises(IllegalAction, match="played by 4 players, not 3"):
        Match(PALM, ["A", "B", "C"])
    with pytest.raises(IllegalAction, match="names"):
        Match(PALM, ["A", "B"], players=4)
    match = Match(RuleSet.preset("deduction"), ["A", "B", "C"], seed=1)
    with pytest.raises(IllegalAction, match="not played by 3"):
        match.set_rules(PALM)


def test_names_and_kinds_must_fit_one_line() -> None:
    with pytest.raises(IllegalAction, match="one line"):
        Match(PALM, ["A", "B\nC", "D", "E"])
    with pytest.raises(IllegalAction, match="empty"):
        Match(PALM, ["A", " ", "D", "E"])
    with pytest.raises(IllegalAction, match="one word"):
        Match(PALM, kinds=["human", "a b", "greedy", "greedy"])
    assert Match(PALM, [" Adam ", "Bill", "Carl", "Dean"], seed=1).names[0] == "Adam"


def _dealt(match: Match) -> int:
    out = 0
    for hand in match.deal.dealt:
        out |= hand
    return out


# -- custom deals ------------------------------------------------------------------------------------
def test_custom_deal_gives_chosen_cards_and_deals_the_rest() -> None:
    chosen = "3d 4d 5d 6d 7d 2s 2h 2c 2d As Ah Ac Ad"
    match = Match(PALM, seed=9, custom={2: chosen})
    assert match.deal.dealt[2] == m(chosen)
    assert [h.bit_count() for h in match.deal.dealt] == [13] * 4
    assert sum(match.deal.dealt) == (1 << 52) - 1
    partial = Match(PALM, seed=9, custom={0: "2s"})
    assert partial.deal.dealt[0] & m("2s") and partial.deal.dealt[0].bit_count() == 13
    with pytest.raises(IllegalAction, match="two seats"):
        Match(PALM, seed=9, custom={0: "2s", 1: "2s 3d"})


def test_hands_give_every_seat_its_cards() -> None:
    match = Match(PALM, hands=["3d", "4d", "5d", "6d"])
    assert match.deal.dealt == (1, m("4d"), m("5d"), m("6d"))
    with pytest.raises(IllegalAction, match="4 players need 4 hands"):
        Match(PALM, hands=["3d", "4d"])


# -- autopass -----------------------------------------------------------------------------------------
def test_autopass_is_on_for_one_two_and_three_card_plays_and_recorded_as_auto() -> None:
    match = Match(PALM, hands=["3d 2s 5c", "4d 6c", "7c 8c", "9c 9d"])
    applied = match.play(0, "3d")
    assert len(applied) == 1  # everyone holds a higher single
    match.play(1, "4d")
    match.play(2, "7c")
    match.play(3, "9d")
    applied = match.play(0, "2s")  # nothing beats 2s: all three are passed for them
    assert [(a.seat, a.play, a.auto) for a in applied] == [
        (0, applied[0].play, False),
        (1, None, True),
        (2, None, True),
        (3, None, True),
    ]
    assert applied[1].reason == "no 1-card play beats the table"
    assert applied[-1].trick_over
    # Never at a lead: the trick came back to seat 0, who now leads and is not passed.
    assert match.deal.turn == 0 and match.deal.to_beat is None and not match.autopass_due()


def test_autopass_for_pairs_and_triples() -> None:
    match = Match(PALM, hands=["3d 3c 5c", "4d 4c 6c", "7c 8c", "9c 9d Kd"])
    applied = match.play(0, "3d 3c")
    match_seats = [(a.seat, a.auto) for a in applied]
    assert match_seats == [(0, False)]  # seat 1 holds a higher pair
    applied = match.play(1, "4d 4c")
    assert [(a.seat, a.auto) for a in applied] == [(1, False), (2, True)]
    assert applied[1].reason == "no 2-card play beats the table"
    assert match.deal.turn == 3
    triples = Match(PALM, hands=["3d 3c 3h 5c", "4d 4c 6c", "7c 8c", "9c 9d Kd"])
    applied = triples.play(0, "3d 3c 3h")
    assert [(a.seat, a.auto) for a in applied] == [(0, False), (1, True), (2, True), (3, True)]


FIVE_HANDS = ["3d 4c 5h 6s 7d Kd", "8c 9d Jc Qd Ks As", "7c 8d", "9c 9h Ac"]


def test_autopass_for_five_card_plays_is_a_separate_switch_off_by_default() -> None:
    match = Match(PALM, hands=FIVE_HANDS)
    assert match.autopass and not match.autopass_five
    applied = match.play(0, "3d 4c 5h 6s 7d")
    assert len(applied) == 1 and match.deal.turn == 1  # no 5-card reply, but no autopass
    assert match.deal.legal_plays() == []
    five = Match(PALM, hands=FIVE_HANDS, autopass_five=True)
    applied = five.play(0, "3d 4c 5h 6s 7d")
    assert [(a.seat, a.auto) for a in applied] == [(0, False), (1, True), (2, True), (3, True)]
    assert applied[1].reason == "no 5-card play beats the table"
    assert five.deal.turn == 0 and five.deal.to_beat is None


def test_autopass_off_passes_nobody_and_switching_is_logged() -> None:
    match = Match(PALM, hands=["3d 2s 5c", "4d 6c", "7c 8c", "9c 9d"], autopass=False)
    match.play(0, "3d")
    match.play(1, "4d")
    match.play(2, "7c")
    match.play(3, "9d")
    applied = match.play(0, "2s")
    assert len(applied) == 1 and match.deal.turn == 1
    match.autopass = True  # read after the next action: seat 1 still passes for itself
    assert match.deal.turn == 1
    applied = match.pass_(1)
    assert [(a.seat, a.auto) for a in applied] == [(1, False), (2, True), (3, True)]
    match.autopass = True  # no change, nothing logged
    match.autopass_five = True
    assert match.changes == [Change(1, 5, "autopass", True), Change(1, 8, "autopass_five", True)]


def test_autopass_defaults_come_from_the_rules_and_can_be_overridden() -> None:
    assert Match(PALM, seed=1).autopass is True
    assert Match(PALM, seed=1, autopass=False).autopass is False
    match = Match(PALM.replace(autopass_five=True), seed=1)
    assert (match.autopass, match.autopass_five) == (True, True)
    match = Match(PALM.replace(autopass=False), seed=1)
    assert (match.autopass, match.autopass_five) == (False, False)


# -- time -------------------------------------------------------------------------------------------
def test_time_is_counted_per_deal_from_elapsed_seconds_or_timestamps() -> None:
    match = Match(PALM, seed=3, deals=2)
    match.add_seconds(1.5)
    assert match.tick(100.0) == 0.0  # the first tick starts the clock
    assert match.tick(102.5) == 2.5
    match.pause()
    assert match.tick(500.0) == 0.0  # time away from the game does not count
    assert match.tick(501.0) == 1.0
    assert match.deal_seconds == [5.0]
    play_out(match, bots(4), deals=1)
    match.next_deal()
    match.add_seconds(2)
    assert match.deal_seconds == [5.0, 2.0] and match.seconds == 7.0
    with pytest.raises(IllegalAction):
        match.add_seconds(-1)


def test_deal_records_list_finished_deals_and_the_one_in_play() -> None:
    match = Match(PALM, seed=6, deals=3)
    play_out(match, bots(4), deals=1)
    match.next_deal()
    records = match.deal_records()
    assert [r.number for r in records] == [1, 2]
    assert records[0].result is match.results[0] and records[1].result is None
    assert records[1].dealt == match.deal.dealt
    assert match.leaders() == [r.leader for r in records]
    assert match.best_deal(match.results[0].winner) == max(match.results[0].points)
    assert match.deals_won(match.results[0].winner) == 1
