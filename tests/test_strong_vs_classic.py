"""StrongBot's ``counter_peeking`` behaviour on known positions (no arena runs here)."""

from __future__ import annotations

from bigtwo.bots.expert import RacingStrong
from bigtwo.bots.strong import Situation, StrongBot, opponents_held_back
from bigtwo.engine.cards import to_mask
from bigtwo.engine.plays import catalog_for
from bigtwo.engine.rules import Rules
from bigtwo.match import Match, RuleSet

PALM = Rules.preset("palm")
PALM_SET = RuleSet.preset("palm")
FULL = (1 << 52) - 1


class Plain(StrongBot):
    counter_peeking = False


def situation(hand: str, counts: list[int], trick: str | None = None) -> Situation:
    catalog = catalog_for(PALM)
    mask = to_mask(hand)
    plays = catalog.plays_in(mask)
    if trick is None:
        to_beat, legal = None, plays
    else:
        to_beat = catalog.classify(to_mask(trick))
        assert to_beat is not None
        legal = sorted(
            (p for p in plays if p.size == to_beat.size and p.power > to_beat.power),
            key=lambda p: p.order,
        )
    return Situation.make(
        PALM, 0, mask, counts, to_beat, legal, trick is not None, plays, FULL & ~mask,
        PALM_SET.scoring,
    )  # fmt: skip


def test_leads_its_lowest_group_before_a_lower_single() -> None:
    s = situation("3c 5c 5h 9s Kd", [5, 9, 9, 9])
    assert Plain().decide_in(s)[0].mask == to_mask("3c")
    assert StrongBot().decide_in(s)[0].mask == to_mask("5c 5h")


def test_no_group_leads_the_lowest_single_as_before() -> None:
    s = situation("3c 6h 9s Kd", [4, 9, 9, 9])
    assert StrongBot().decide_in(s)[0].mask == Plain().decide_in(s)[0].mask == to_mask("3c")


def test_against_players_who_hold_back_it_does_not_give_up_at_three_cards() -> None:
    s = situation("4c 6h 8s 9d Jc Kh 2s", [7, 3, 9, 9], trick="3d")
    unload = to_mask("2s")
    assert StrongBot().decide_in(s)[0].mask == unload  # no evidence: unload as before
    held = StrongBot().decide_in(s, held_back=True)[0]
    assert held is not None and held.mask != unload
    # off (as in the expert's rollout players), the evidence changes nothing
    assert Plain().decide_in(s, held_back=True)[0].mask == unload


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


def test_the_rollout_players_of_the_expert_keep_their_tuning() -> None:
    assert StrongBot.counter_peeking and not RacingStrong.counter_peeking
