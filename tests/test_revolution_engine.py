"""Big 2 RevolutioN in the engine: 104 cards, twins, the turn's phases, every function,
counter and draw, both ends of a hand, undo and what each seat may see."""

from __future__ import annotations

import random
import tomllib
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import Rules, catalog_for
from bigtwo.engine.errors import (
    BigTwoError,
    CannotPass,
    DoesNotBeat,
    IllegalAction,
    NotationError,
    NotYourTurn,
    RulesError,
)
from bigtwo.engine.plays import Kind
from bigtwo.engine.revolution import End, Move, Phase, RevolutionChoice, RevolutionDeal
from bigtwo.engine.revolution_cards import parse, symbols, text

RULES = Rules.preset("revolution")
CARDS = catalog_for(RULES)


def start(hands: list[str], top: str = "", rules: Rules = RULES, **kw: object) -> RevolutionDeal:
    """A hand from known cards; the deck holds the other Revolution cards, ``top`` first."""
    masks = [parse(h) for h in hands]
    held = 0
    for m in masks:
        held |= m
    first = [c for c in _ids(parse(top))] if top else []
    rest = [c for c in range(52, 104) if not held >> c & 1 and c not in first]
    return RevolutionDeal(rules, masks, deck=first + rest, **kw)  # type: ignore[arg-type]


def _ids(mask: int) -> list[int]:
    return [c for c in range(104) if mask >> c & 1]


def play_of(cards: str):  # type: ignore[no-untyped-def]
    play = CARDS.classify(parse(cards))
    assert play is not None, cards
    return play


# -- notation and plays -------------------------------------------------------------------------
def test_notation_reads_and_prints_revolution_cards() -> None:
    mask = parse("Qs* 3d, 10h*")
    assert text(mask) == "3d Th* Qs*"
    assert symbols(mask) == "3♦ 10♥* Q♠*"
    assert parse("Q♠*") == parse("Qs*") == 1 << (52 + 9 * 4 + 3)
    with pytest.raises(NotationError, match="'Zs\\*' is not a card"):
        parse("Zs*")
    with pytest.raises(NotationError, match="Qs\\* is named twice"):
        parse("Qs* Qs*")


def test_twins_make_pairs_and_compare_equal() -> None:
    pair = play_of("7s 7s*")
    assert pair.kind is Kind.PAIR
    assert pair.power == play_of("7s 7h").power  # the strength of 7♠
    assert not CARDS.beats(play_of("7s*"), play_of("7s"), reversed=False)
    assert not CARDS.beats(play_of("7s"), play_of("7s*"), reversed=False)
    assert not CARDS.beats(play_of("7s*"), play_of("7s"), reversed=True)
    assert CARDS.beats(play_of("8d*"), play_of("7s"), reversed=False)


def test_mixed_five_card_plays() -> None:
    assert play_of("7s 7s* 9s Js Ks").kind is Kind.FLUSH
    assert play_of("7s 7s* 7h 7h* 3d").kind is Kind.FOUR_OF_A_KIND
    assert play_of("7s 7s* 7h 8d 8d*").kind is Kind.FULL_HOUSE
    assert play_of("3d 4d* 5d 6d* 7d").kind is Kind.STRAIGHT_FLUSH
    assert CARDS.classify(parse("7d 7c 7h 7s 7s*")) is None  # five of one rank
    assert CARDS.classify(parse("7s 7s* 9h")) is None
    # a flush holding twins loses to one whose next card is higher
    assert CARDS.beats(play_of("5s 7s 9s Js Ks"), play_of("3s 3s* 9s* Js* Ks*"), reversed=False)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=1, max_size=5), st.integers(0, 31))
def test_plays_without_twins_are_as_the_52_card_catalogue_says(cards: set[int], stars: int) -> None:
    """Any play of distinct twins classifies as its 52-card twin does, whichever of its cards
    are Revolution cards."""
    normal = sum(1 << c for c in cards)
    mixed = 0
    for i, c in enumerate(sorted(cards)):
        mixed |= 1 << (c + 52 if stars >> i & 1 else c)
    ours, theirs = CARDS.classify(mixed), catalog_for(RULES).classify(normal)  # type: ignore[arg-type]
    if theirs is None:
        assert ours is None
    else:
        assert ours is not None
        assert (ours.kind, ours.group, ours.power) == (theirs.kind, theirs.group, theirs.power)


def test_a_revolution_reverses_power_within_a_kind_but_not_the_kinds() -> None:
    assert CARDS.beats(play_of("3d"), play_of("2s"), reversed=True)
    assert not CARDS.beats(play_of("2s"), play_of("3d"), reversed=True)
    straight, flush = play_of("3d 4c 5h 6s 7d"), play_of("3h 5h 9h Jh Kh")
    assert CARDS.beats(flush, straight, reversed=True)
    assert not CARDS.beats(straight, flush, reversed=True)
    assert CARDS.beats(play_of("3d 4c 5h 6s 7d"), play_of("4d 5c 6h 7s 8d"), reversed=True)


@settings(max_examples=200, deadline=None)
@given(
    st.sets(st.integers(0, 103), min_size=1, max_size=9),
    st.sets(st.integers(0, 103), min_size=1, max_size=9),
    st.sampled_from([1, 2, 3, 5]),
)
def test_a_revolution_mirrors_every_comparison_within_a_kind(
    a: set[int], b: set[int], size: int
) -> None:
    """Within one kind, a beats b after a revolution exactly when b beats a before it;
    between kinds the order stays; twins never beat each other either way."""
    pa = CARDS.plays_in(sum(1 << c for c in a))
    pb = CARDS.plays_in(sum(1 << c for c in b))
    first = next((p for p in pa if p.size == size), None)
    second = next((p for p in reversed(pb) if p.size == size), None)
    if first is None or second is None:
        return
    if first.kind is second.kind:
        assert CARDS.beats(first, second, reversed=True) == CARDS.beats(
            second, first, reversed=False
        )
    else:
        assert CARDS.beats(first, second, reversed=True) == CARDS.beats(
            first, second, reversed=False
        )


def test_plays_in_a_mixed_hand() -> None:
    plays = [str(p) for p in CARDS.plays_in(parse("7s 7h 7s*"))]
    assert plays == ["7h", "7s", "7s*", "7h 7s", "7h 7s*", "7s 7s*", "7h 7s 7s*"]


# -- the turn ------------------------------------------------------------------------------------
def test_first_play_must_hold_the_lowest_normal_card_and_mix_is_allowed() -> None:
    deal = start(["3d 3d* 9h", "4d 8c", "5d 9c", "6d Tc"])
    assert [str(p) for p in deal.legal_plays()] == ["3d", "3d 3d*"]
    deal.play(0, "3d 3d*")
    with pytest.raises(DoesNotBeat):
        deal.play(1, "4d")
    assert deal.turn == 1


def test_revolution_applies_at_once_to_the_play_on_the_table() -> None:
    deal = start(["3d 2s 9h", "4d 2h* 8c", "5d 9c Tc", "6d Tc* Jc"])
    deal.play(0, "3d")
    deal.play(1, "4d")
    with pytest.raises(IllegalAction, match="Only a Revolution card has a function"):
        deal.activate(2, "5d")
    deal.play(2, "5d")
    deal.play(3, "6d")
    deal.play(0, "2s")
    deal.activate(1, "2h*")
    for seat in (2, 3, 0):
        deal.decline(seat)
    assert deal.reversed
    assert [str(p) for p in deal.legal_plays()] == ["8c"]  # 8c is now below 2s
    deal.play(1, "8c")


def test_jump_skips_the_next_player_counting_as_a_pass() -> None:
    deal = start(["3d Js* 9h Ah", "4d 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.play(1, "4d")
    deal.play(2, "5d")
    deal.play(3, "6d")
    deal.activate(0, "Js*")
    deal.decline(1)
    deal.decline(2)
    deal.decline(3)
    deal.play(0, "9h")
    # seat 1 loses the turn: it counts as a pass, and seat 1 draws nothing
    assert deal.actions[-1].move is Move.SKIP and deal.actions[-1].seat == 1
    assert deal.turn == 2 and deal.passes == 1
    assert deal.normal_counts()[1] == 1 and deal.revolution_counts()[1] == 0


def test_command_ends_the_trick_and_the_player_must_lead() -> None:
    deal = start(["3d Ks* 4h", "4d 2s 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.play(1, "2s")
    deal.pass_(2)
    deal.stop(2)
    deal.pass_(3)
    deal.stop(3)
    assert deal.turn == 0 and deal.to_beat is not None
    deal.activate(0, "Ks*")
    for seat in (1, 2, 3):
        deal.decline(seat)
    assert deal.to_beat is None and deal.turn == 0
    with pytest.raises(CannotPass, match="You lead"):
        deal.pass_(0)
    with pytest.raises(IllegalAction, match="there is no trick on the table to end"):
        start(["3d Ks*", "4d", "5d", "6d"]).activate(0, "Ks*")


def test_exchange_gives_a_normal_card_that_only_the_two_players_see() -> None:
    deal = start(["3d As* 9h Kh", "4d 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.play(1, "8c")
    deal.play(2, "9c")
    deal.play(3, "Tc")
    with pytest.raises(IllegalAction, match="Name the player"):
        deal.activate(0, "As*")
    deal.activate(0, "As*", target=2, give="Kh")
    for seat in (1, 2, 3):
        deal.decline(seat)
    assert deal.hands[2] == parse("5d Kh")
    effect = deal.actions[-1]
    assert effect.move is Move.EFFECT and effect.target == 2
    assert deal.view(2).actions[-1].cards == parse("Kh")
    assert deal.view(0).actions[-1].cards == parse("Kh")
    assert deal.view(1).actions[-1].cards == 0
    assert deal.view(None).actions[-1].cards == 0
    assert deal.problems() == []


def test_exchange_may_not_give_away_the_last_normal_card() -> None:
    deal = start(["3d 9d", "4d As*", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    with pytest.raises(IllegalAction, match="You cannot give away your last normal card"):
        deal.activate(1, "As*", target=2, give="4d")


def test_counter_cancels_and_a_q_cannot_counter_a_q() -> None:
    deal = start(["3d 2s* Qh* 9h", "4d Qs* 8c", "5d 9c", "6d Qd Tc"])
    deal.activate(0, "2s*")
    with pytest.raises(NotYourTurn):
        deal.counter(2, "Qs*")
    deal.counter(1, "Qs*")
    assert not deal.reversed and deal.phase is Phase.ACT and deal.turn == 0
    assert deal.discards == parse("2s* Qs*")
    with pytest.raises(IllegalAction, match="A Q cannot counter a Q"):
        deal.counter(0, "Qh*")
    with pytest.raises(IllegalAction, match="no function in your own turn"):
        deal.activate(0, "Qh*")
    deal = start(["3d 2s* 9h", "4d 8c", "5d 9c", "6d Qd Tc"])
    deal.activate(0, "2s*")
    deal.decline(1)
    deal.decline(2)
    with pytest.raises(IllegalAction, match="Only a Revolution Q can counter"):
        deal.counter(3, "Qd")


def test_functions_per_turn_and_civilians() -> None:
    rules = Rules.from_mapping(
        {"base": "revolution", "revolution": {"functions_per_turn": 1}}, origin="house"
    )
    deal = start(["3d 2s* 2h* 5s*", "4d 8c", "5d 9c", "6d Tc"], rules=rules)
    with pytest.raises(IllegalAction, match="is a Civilian card"):
        deal.activate(0, "5s*")
    deal.activate(0, "2s*")
    for seat in (1, 2, 3):
        deal.decline(seat)
    with pytest.raises(IllegalAction, match="You have used your 1 function this turn"):
        deal.activate(0, "2h*")


# -- drawing and the ends ------------------------------------------------------------------------
def test_drawing_from_the_deck_is_seen_only_by_the_drawer() -> None:
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"], top="3c* 4c* 5c* 6c* 7c* Ks*")
    assert deal.gathering == [_ids(parse(c))[0] for c in ("3c*", "4c*", "5c*", "6c*")]
    deal.play(0, "3d")
    deal.pass_(1)
    assert deal.phase is Phase.DRAW
    deal.draw(1, "deck")
    assert deal.hands[1] == parse("4d 8c 7c*")
    assert deal.view(1).actions[-1].cards == parse("7c*")
    assert all(deal.view(s).actions[-1].cards == 0 for s in (0, 2, 3))
    deal.draw(1, "4c*")  # a Civilian of the Gathering as the second card
    assert deal.gathering[-1] == _ids(parse("Ks*"))[0]  # refilled from the deck
    assert deal.turn == 2 and deal.phase is Phase.ACT
    deal.pass_(2)
    with pytest.raises(IllegalAction, match="not in the Gathering"):
        deal.draw(2, "2s*")
    deal.draw(2, "Ks*")  # a Character is a whole draw
    assert deal.turn == 3
    deal.pass_(3)
    deal.draw(3, "3c*")
    assert deal.problems() == []


def test_a_character_from_the_gathering_is_a_whole_draw() -> None:
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"], top="3c* Ks* 5c* 6c*")
    deal.play(0, "3d")
    deal.pass_(1)
    deal.draw(1, "3c*")
    with pytest.raises(IllegalAction, match="A Character from the Gathering is a whole draw"):
        deal.draw(1, "Ks*")
    deal.stop(1)
    assert deal.turn == 2


def nearly_exhausted(hands: list[str]) -> RevolutionDeal:
    """A known position: the last seat holds every Revolution card but five, so the deck
    holds one card once the Gathering is revealed."""
    deck = "3c* 4c* 5c* 6c* 7c*"
    others = " ".join(text(1 << c) for c in range(52, 104) if not parse(deck) >> c & 1)
    return start([*hands[:-1], hands[-1] + " " + others], top=deck)


def test_a_hand_ends_by_exhaustion_with_the_fewest_normal_cards_free() -> None:
    deal = nearly_exhausted(["3d 9h Jh", "4d 8c 9c", "9s", "6d Tc Ts Th"])
    assert deal.deck_left == 1
    deal.play(0, "3d")
    deal.pass_(1)
    deal.draw(1, "deck")
    assert deal.end is End.EXHAUSTION
    assert deal.winner == 2  # the fewest normal cards
    assert deal.phase is Phase.OVER


def test_an_automatic_pass_draws_as_the_rules_say() -> None:
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.pass_(1, auto=True)
    assert deal.turn == 2 and deal.hands[1] == parse("4d 8c")
    rules = RULES.replace(revolution={"auto_draw": "two"})
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"], rules=rules)
    deal.play(0, "3d")
    deal.pass_(1, auto=True)
    assert deal.turn == 2 and deal.revolution_counts()[1] == 2


def test_a_player_out_of_normal_cards_wins_holding_revolution_cards() -> None:
    deal = start(["3d 4h 9h* 9s*", "4d 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    for seat in (1, 2, 3):
        deal.pass_(seat)
        deal.stop(seat)
    assert deal.end is None and deal.turn == 0 and deal.to_beat is None
    deal.play(0, "4h")
    assert deal.end is End.OUT and deal.winner == 0 and deal.revolution_counts()[0] == 2
    with pytest.raises(IllegalAction, match="The hand is over"):
        deal.play(1, "4d")


def refusal(act: Callable[[], object]) -> tuple[str, dict[str, str | int]]:
    """The reason and params of the refusal ``act`` meets (it must be refused)."""
    with pytest.raises(IllegalAction) as refused:
        act()
    return refused.value.reason, refused.value.params


def test_each_refusal_names_its_reason_and_cards() -> None:
    """Every refusal of the expansion has its own reason word and the cards or numbers it
    names, so that a front end can word it in any language (tests/test_refusal_words.py
    checks that both languages word each of these reasons)."""
    deal = start(["3d 2s* Qh* 9h As* Js* 5s* Ks*", "4d Qs* 8c", "5d 9c", "6d Qd Tc"])
    assert refusal(lambda: deal.activate(0, "9h")) == ("normal_card", {"card": "9♥"})
    assert refusal(lambda: deal.activate(0, "5s*")) == ("civilian_card", {"card": "5♠*"})
    assert refusal(lambda: deal.activate(0, "Qh*")) == ("counter_in_own_turn", {"card": "Q♥*"})
    assert refusal(lambda: deal.activate(0, "Ks*")) == ("command_when_leading", {})
    assert refusal(lambda: deal.activate(0, "As*")) == ("name_a_player", {})
    assert refusal(lambda: deal.activate(0, "As*", 0, "9h")) == ("give_to_another", {})
    assert refusal(lambda: deal.activate(0, "As*", 1)) == ("name_a_card", {})
    given = refusal(lambda: deal.activate(0, "As*", 1, "5s*"))
    assert given == ("give_a_normal_card", {"card": "5♠*"})
    opening = refusal(lambda: deal.activate(0, "As*", 1, "3d"))
    assert opening == ("give_the_opening_card", {"card": "3♦"})
    assert refusal(lambda: deal.activate(0, "Js*", 1)) == ("names_no_player", {})
    assert refusal(lambda: deal.counter(1, "Qs*")) == ("nothing_to_counter", {})
    assert refusal(lambda: deal.decline(1)) == ("nothing_to_answer", {})
    assert refusal(lambda: deal.draw(0, "deck")) == ("draw_after_pass", {})
    assert refusal(lambda: deal.stop(0)) == ("stop_after_pass", {})
    deal.activate(0, "2s*")
    deal.counter(1, "Qs*")
    assert refusal(lambda: deal.counter(0, "Qh*")) == ("q_cannot_counter_q", {})
    deal.activate(0, "Js*")
    deal.decline(1)
    deal.decline(2)
    assert refusal(lambda: deal.counter(3, "Qd")) == ("only_q_counters", {"card": "Q♦"})

    deal = start(["3d 9d", "4d As*", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    assert refusal(lambda: deal.activate(1, "As*", 2, "4d")) == ("last_normal_card", {})
    deal.pass_(1)
    assert refusal(lambda: deal.play(1, "4d")) == ("draw_or_stop", {})

    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"], top="3c* Ks* 5c* 6c*")
    deal.play(0, "3d")
    deal.pass_(1)
    assert refusal(lambda: deal.draw(1, "2s*")) == ("not_in_gathering", {"card": "2♠*"})
    deal.draw(1, "3c*")
    whole = refusal(lambda: deal.draw(1, "Ks*"))
    assert whole == ("character_is_a_whole_draw", {"card": "K♠*"})

    once = Rules.from_mapping(
        {"base": "revolution", "revolution": {"functions_per_turn": 1, "functions": {"K": "none"}}},
        origin="house",
    )
    deal = start(["3d 2s* 2h* Ks*", "4d 8c", "5d 9c", "6d Tc"], rules=once)
    assert refusal(lambda: deal.activate(0, "Ks*")) == ("function_off", {"card": "K♠*"})
    deal.activate(0, "2s*")
    for seat in (1, 2, 3):
        deal.decline(seat)
    assert refusal(lambda: deal.activate(0, "2h*")) == ("functions_used", {"limit": 1})

    # The deck is empty from the start when the hands hold all but the Gathering's four.
    deck = "3c* 4c* 5c* 6c*"
    others = " ".join(text(1 << c) for c in range(52, 104) if not parse(deck) >> c & 1)
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc " + others], top=deck)
    assert deal.deck_left == 0 and deal.end is None
    deal.play(0, "3d")
    deal.pass_(1)
    assert refusal(lambda: deal.draw(1, "deck")) == ("deck_empty", {})


# -- rules as data ---------------------------------------------------------------------------------
def test_house_rules_change_and_check_the_revolution_options() -> None:
    house = Rules.from_toml(
        'base = "revolution"\n[revolution]\nexhaustion = "all_pay"\n'
        '[revolution.functions]\nK = "jump"\n'
    )
    assert house.revolution is not None
    assert house.revolution.exhaustion == "all_pay"
    assert house.revolution.function_of("K") == "jump"
    assert house.revolution.function_of("J") == "jump"
    with pytest.raises(RulesError) as err:
        Rules.from_toml(
            'base = "revolution"\n[revolution]\nauto_draw = "three"\ncounter_seconds = 0\n'
            '[revolution.functions]\nK = "fly"\n'
        )
    text_ = str(err.value)
    assert "auto_draw must be one of none, two, not 'three'" in text_
    assert "counter_seconds must be at least 1" in text_
    assert "'fly' is not a function" in text_
    with pytest.raises(RulesError, match="not played with bombs"):
        Rules.from_mapping({"base": "revolution", "bombs": ["four_of_a_kind"]})
    both = Rules.from_mapping({"base": "revolution", "pass_lock": True, "last_card": True})
    assert both.pass_lock and both.last_card and both.revolution == RULES.revolution
    with pytest.raises(RulesError, match="unknown revolution option 'draws'"):
        Rules.from_mapping({"base": "revolution", "revolution": {"draws": 3}})


def test_rules_show_prints_every_revolution_option(capsys: pytest.CaptureFixture[str]) -> None:
    from bigtwo.cli import main

    assert main(["rules", "show", "revolution"]) == 0
    written = tomllib.loads(capsys.readouterr().out)
    assert written["revolution"] == {
        "functions_per_turn": 0,
        "auto_draw": "none",
        "exhaustion": "fewest_free",
        "revolution_cards_count": False,
        "counter_seconds": 5,
        "functions": {
            "J": "jump",
            "Q": "counter",
            "K": "command",
            "A": "exchange",
            "2": "revolution",
        },
    }


# -- properties over random hands ----------------------------------------------------------------
def play_randomly(deal: RevolutionDeal, rng: random.Random, *, check: bool = True) -> None:
    while not deal.over:
        choices = deal.choices()
        by_move: dict[Move, list] = {}  # type: ignore[type-arg]
        for c in choices:
            by_move.setdefault(c.move, []).append(c)
        move = rng.choice(sorted(by_move))
        deal.take(rng.choice(by_move[move]))
        if check:
            assert deal.problems() == [], deal.actions[-1]


# make test plays a few dozen random hands for each property; the slow run (make test-slow,
# CI) thousands.
SEEDS = st.integers(0, 2**32)


@settings(max_examples=60, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]))
def test_random_hands_keep_every_card_in_one_place_and_hide_what_is_hidden(
    seed: int, players: int
) -> None:
    every_card_in_one_place_and_hidden(seed, players)


@pytest.mark.slow
@settings(max_examples=2000, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]))
def test_thousands_of_random_hands_keep_every_card_in_one_place_and_hide_what_is_hidden(
    seed: int, players: int
) -> None:
    every_card_in_one_place_and_hidden(seed, players)


def every_card_in_one_place_and_hidden(seed: int, players: int) -> None:
    deal = RevolutionDeal.from_seed(RULES, seed, players=players)
    play_randomly(deal, random.Random(seed))
    assert deal.end in (End.OUT, End.EXHAUSTION)
    for seat in range(players):
        view = deal.view(seat)
        for action in view.actions:
            if action.move is Move.DRAW and action.source == "deck" and action.seat != seat:
                assert action.cards == 0


AUTO_TWO = RULES.replace(revolution={"auto_draw": "two"})
# At most one function a turn: the limit in play too.
ONE_FUNCTION = RULES.replace(revolution={"functions_per_turn": 1})


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.sampled_from([RULES, AUTO_TWO]))
def test_undo_restores_the_state_exactly(seed: int, rules: Rules) -> None:
    undo_restores_every_state(seed, rules)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(SEEDS, st.sampled_from([RULES, AUTO_TWO]))
def test_undo_restores_the_state_exactly_over_a_thousand_hands(seed: int, rules: Rules) -> None:
    undo_restores_every_state(seed, rules)


@settings(max_examples=40, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]), st.sampled_from([RULES, ONE_FUNCTION]))
def test_the_unchecked_fast_path_reaches_the_states_take_does(
    seed: int, players: int, rules: Rules
) -> None:
    unchecked_path_follows_take(seed, players, rules)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]), st.sampled_from([RULES, ONE_FUNCTION]))
def test_the_unchecked_fast_path_reaches_the_states_take_does_over_a_thousand_hands(
    seed: int, players: int, rules: Rules
) -> None:
    unchecked_path_follows_take(seed, players, rules)


def unchecked_path_follows_take(seed: int, players: int, rules: Rules) -> None:
    """The search's fast path (no checks, no history) is the engine's rules all the same:
    action by action it reaches the state the checked ``take`` does (the history aside),
    and a saved state restores the hand exactly."""
    rng = random.Random(seed)
    deal = RevolutionDeal.from_seed(rules, seed, players)
    fast = RevolutionDeal.from_seed(rules, seed, players)
    saved = [(fast.saved_state(), fast.state_key())]
    while not deal.over:
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in deal.choices():
            by_move.setdefault(choice.move, []).append(choice)
        choice = rng.choice(by_move[rng.choice(sorted(by_move))])
        deal.take(choice)
        fast.apply_unchecked(choice)
        assert fast.saved_state() == deal.saved_state(), str(choice)
        saved.append((fast.saved_state(), fast.state_key()))
    assert fast.actions == [] and fast.problems() == []
    for state, key in reversed(saved[:: max(1, len(saved) // 5)]):
        fast.restore(state)
        assert fast.state_key() == key


def undo_restores_every_state(seed: int, rules: Rules) -> None:
    """Every action, automatic passes (with their automatic draws) included, is taken back
    to exactly the state before it."""
    rng = random.Random(seed)
    deal = RevolutionDeal.from_seed(rules, seed)
    keys = [deal.state_key()]
    while not deal.over:
        choice = rng.choice(deal.choices())
        if choice.move is Move.PASS and rng.random() < 0.3:
            deal.pass_(choice.seat, auto=True)
        else:
            deal.take(choice)
        keys.append(deal.state_key())
    keys.pop()
    while keys:
        deal.undo()
        assert deal.state_key() == keys.pop()
        assert deal.problems() == []
    with pytest.raises(IllegalAction, match="Nothing to undo"):
        deal.undo()


def test_the_seed_deals_the_normal_deck_then_shuffles_the_revolution_deck() -> None:
    from bigtwo.engine.deal import deal_hands
    from bigtwo.engine.revolution import shuffled_deck

    rng = random.Random("abc")
    hands = deal_hands(RULES, 3, rng)
    deck = shuffled_deck(rng)
    deal = RevolutionDeal.from_seed(RULES, "abc", players=3)
    assert deal.dealt == tuple(hands) and deal.deck == deck
    assert deal.gathering == list(deck[:4]) and deal.deck_left == 48


def test_every_function_counter_and_draw_kind_occurs_in_random_hands() -> None:
    seen: set[str] = set()
    for seed in range(80):
        deal = RevolutionDeal.from_seed(RULES, seed)
        play_randomly(deal, random.Random(seed), check=False)
        for a in deal.actions:
            seen.add(a.move.value)
            if a.move is Move.EFFECT:
                seen.add(a.function)
            if a.move is Move.DRAW:
                seen.add(f"draw {a.source}")
        seen.add(f"end {deal.end}")
    wanted = {"jump", "command", "exchange", "revolution", "counter", "decline", "skip"}
    wanted |= {"draw deck", "draw gathering", "stop", "reveal", "end out", "end exhaustion"}
    assert wanted <= seen, wanted - seen


def test_replaying_the_actions_gives_the_same_hand() -> None:
    for seed in range(10):
        deal = RevolutionDeal.from_seed(RULES, seed, players=3)
        play_randomly(deal, random.Random(seed), check=False)
        again = RevolutionDeal(RULES, deal.dealt, deck=deal.deck)
        for action in deal.actions:
            if not action.follows:
                again.redo(action)
        assert again.state_key() == deal.state_key()


def test_the_52_card_deal_refuses_revolution_rules_and_vice_versa() -> None:
    from bigtwo.engine import Deal

    with pytest.raises(IllegalAction, match="a 52-card deal cannot"):
        Deal(RULES, ["3d", "4d", "5d", "6d"])
    with pytest.raises(IllegalAction, match="palm does not play the revolution expansion"):
        RevolutionDeal(Rules.preset("palm"), ["3d", "4d", "5d", "6d"], deck=range(52, 104))
    with pytest.raises(IllegalAction, match="The Revolution deck must hold"):
        RevolutionDeal(RULES, ["3d", "4d", "5d", "6d"], deck=range(52, 103))


def allows(check: Callable[..., object], *args: object) -> bool:
    """Whether a ``verify_*`` check lets these arguments through (else it raises the reason,
    bad notation included: never a traceback of another kind)."""
    try:
        check(*args)
    except BigTwoError:
        return False
    return True


def test_each_check_answers_a_question() -> None:
    deal = start(["3d 2s* Qh* 9h", "4d Qs* 8c", "5d 9c", "6d Tc"])
    assert allows(deal.verify_play, 0, "3d") and not allows(deal.verify_play, 0, "9h")
    assert not allows(deal.verify_play, 0, "Zz")  # bad notation is a no, not a traceback
    assert allows(deal.verify_activate, 0, "2s*") and not allows(deal.verify_activate, 0, "Qh*")
    assert not allows(deal.verify_counter, 1, "Qs*") and not allows(deal.verify_decline, 1)
    deal.activate(0, "2s*")
    assert allows(deal.verify_counter, 1, "Qs*") and allows(deal.verify_decline, 1)
    assert not allows(deal.verify_decline, 2)
    assert not allows(deal.verify_draw, 1, "deck") and not allows(deal.verify_stop, 1)


def test_both_games_make_one_action_and_one_view_family() -> None:
    """An action of the expansion is the 52-card game's Action with its kind in ``move``; the
    expansion's view is a SeatView whose counts are the normal cards; both pickle and read
    alike, and each tells its action in words."""
    import pickle

    from bigtwo.engine import Deal, SeatView
    from bigtwo.engine.views import Action
    from bigtwo.service.events import action_json

    deal = Deal(Rules.preset("palm"), ["3d 4c", "5d 6c", "7d 8c", "9d Tc"])
    played, passed = deal.play(0, "3d"), deal.pass_(1)
    hand = RevolutionDeal(
        Rules.preset("revolution"), ["3d 2s*", "4d", "5d", "6d"], deck=range(52, 103)
    )
    activated, declined = hand.activate(0, "2s*"), hand.decline(1)
    assert {type(a) for a in (played, passed, activated, declined)} == {Action}
    assert [a.kind for a in (played, passed, activated, declined)] == [
        Move.PLAY,
        Move.PASS,
        Move.ACTIVATE,
        Move.DECLINE,
    ]
    assert [a.is_pass for a in (played, passed, activated, declined)] == [False, True, False, False]
    assert [str(a) for a in (played, passed, activated)] == [
        "0 plays 3d",
        "1 passes",
        "0 activates 2s* (revolution)",
    ]
    assert action_json(played) == {
        "seat": 0,
        "cards": "3d",
        "kind": "single",
        "auto": False,
        "reason": "",
        "trick_over": False,
    }
    assert action_json(activated) == {
        "seat": 0,
        "move": "activate",
        "cards": "2s*",
        "auto": False,
        "trick_over": False,
        "function": "revolution",
    }
    for action in (played, activated):
        assert pickle.loads(pickle.dumps(action)) == action
    view = hand.view(0)
    assert isinstance(view, SeatView) and view.counts == (1, 1, 1, 1)
    assert view.players == 4 and view.revolution_counts == (0, 0, 0, 0)
    assert pickle.loads(pickle.dumps(view)) == view
