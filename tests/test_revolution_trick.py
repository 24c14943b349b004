"""The one trick logic under Big 2 RevolutioN: ``pass_lock`` and ``last_card`` as the 52-card
deal plays them (bigtwo.engine.trick), with what they mean beside the expansion's functions
and draws (docs/revolution.md, "House rules from Big 2"); the counter window's questions for
a table that takes answers early (``asked``, ``counters``, ``verify_answer``); the house-rules
file that sets both options; and the 52-card deal's turn in the expansion's words."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.engine import Deal, Rules
from bigtwo.engine.errors import IllegalAction, NotationError, NotYourCards, NotYourTurn
from bigtwo.engine.revolution import Move, Phase, RevolutionChoice, RevolutionDeal, SavedState
from bigtwo.engine.revolution_cards import ids, parse
from bigtwo.match.settings import RuleSet
from test_revolution_engine import (
    RULES,
    SEEDS,
    allows,
    refusal,
    start,
    unchecked_path_follows_take,
    undo_restores_every_state,
)

LOCK = RULES.replace(pass_lock=True)
LAST = RULES.replace(last_card=True)
BOTH = RULES.replace(pass_lock=True, last_card=True)
HOUSE = Path(__file__).resolve().parent.parent / "docs" / "house-rules" / "revolution-lock.toml"


def card(notation: str) -> int:
    return ids(parse(notation))[0]


def names(deal: RevolutionDeal) -> list[str]:
    return [str(p) for p in deal.legal_plays()]


# -- pass_lock -------------------------------------------------------------------------------------
def test_a_pass_locks_the_seat_out_of_the_trick_but_not_out_of_drawing_or_countering() -> None:
    deal = start(["3d 8h Kh", "4d 9h Qs*", "5d Th", "6d Jh 2s*"], rules=LOCK)
    deal.play(0, "3d")
    deal.pass_(1)
    # the pass locks seat 1 out, and seat 1 may draw after it all the same
    assert deal.locked == 0b0010 and deal.phase is Phase.DRAW and deal.turn == 1
    assert allows(deal.verify_draw, 1, "deck") and deal.view(2).locked == 0b0010
    deal.stop(1)
    deal.play(2, "5d")
    deal.activate(3, "2s*")
    # a locked seat is asked in a counter window like any other, and may counter
    assert deal.asked() == [0, 1, 2] and deal.counters(1) == [card("Qs*")]
    deal.decline(0)
    deal.counter(1, "Qs*")
    assert not deal.reversed and deal.turn == 3
    deal.play(3, "6d")
    deal.play(0, "8h")
    # seat 1 is passed over: the turn goes to seat 2
    assert deal.turn == 2 and names(deal) == ["Th"]
    assert not deal.can_pass(1) and deal.legal_plays(1) == []
    with pytest.raises(NotYourTurn, match="Not your turn: seat 2 is to play"):
        deal.play(1, "9h")
    deal.pass_(2)
    deal.stop(2)
    assert deal.turn == 3 and deal.locked == 0b0110
    # seat 3's pass leaves every seat but seat 0 (the last to play) locked out: the trick ends
    passed = deal.pass_(3)
    assert passed.trick_over and deal.to_beat is None and deal.locked == 0
    assert deal.phase is Phase.DRAW  # seat 3 draws first, then seat 0 leads
    deal.stop(3)
    assert deal.turn == 0 and deal.is_lead and names(deal) == ["Kh"]
    assert deal.problems() == []


def test_without_pass_lock_the_same_play_gives_a_passed_seat_its_turn_again() -> None:
    deal = start(["3d 8h Kh", "4d 9h Qs*", "5d Th", "6d Jh 2s*"])
    deal.play(0, "3d")
    deal.pass_(1)
    deal.stop(1)
    deal.play(2, "5d")
    deal.play(3, "6d")
    deal.play(0, "8h")
    assert deal.turn == 1 and deal.locked == 0 and names(deal) == ["9h", "Qs*"]


def test_a_turn_lost_to_a_jump_counts_as_a_pass_and_locks_the_seat_out() -> None:
    deal = start(["3d Js* 9h Ah", "4d 8c", "5d 9c", "6d Tc Jc"], rules=LOCK)
    for seat, cards in enumerate(["3d", "4d", "5d", "6d"]):
        deal.play(seat, cards)
    deal.activate(0, "Js*")
    for seat in (1, 2, 3):
        deal.decline(seat)
    deal.play(0, "9h")
    skip = deal.actions[-1]
    assert skip.move is Move.SKIP and skip.seat == 1
    assert deal.turn == 2 and deal.passes == 1 and deal.locked == 0b0010
    deal.pass_(2)
    deal.stop(2)
    deal.play(3, "Tc")
    assert deal.turn == 0  # seats 1 and 2 sit out
    ended = deal.pass_(0)  # every seat but seat 3 is locked out now
    assert ended.trick_over and deal.locked == 0
    deal.stop(0)
    assert deal.turn == 3 and deal.is_lead


def test_a_command_ends_the_trick_and_its_locks() -> None:
    deal = start(["3d 8h", "4d 9c", "5d Tc", "6d Ks* Jc"], rules=LOCK)
    deal.play(0, "3d")
    deal.pass_(1)
    deal.stop(1)
    deal.pass_(2)
    deal.stop(2)
    assert deal.turn == 3 and deal.locked == 0b0110
    deal.activate(3, "Ks*")
    for seat in (0, 1, 2):
        deal.decline(seat)
    assert deal.to_beat is None and deal.locked == 0 and deal.turn == 3
    deal.play(3, "6d")
    assert deal.turn == 0


# -- last_card -------------------------------------------------------------------------------------
def after_a_round_of_passes(hands: list[str], rules: Rules = LAST) -> RevolutionDeal:
    """Seat 0 opens with 3d, every other seat passes (drawing nothing): seat 0 leads again."""
    deal = start(hands, rules=rules)
    deal.play(0, "3d")
    for seat in range(1, deal.players):
        deal.pass_(seat)
        deal.stop(seat)
    assert deal.turn == 0 and deal.is_lead
    return deal


def test_last_card_counts_the_next_players_normal_cards_only() -> None:
    # seat 1 holds one normal card (and a Revolution Q, which keeps nobody in the hand)
    deal = after_a_round_of_passes(["3d 5c 9h Kd", "4c Qs*", "6c Qh", "8c Ah"])
    assert names(deal) == ["Kd"]
    assert [c.cards for c in deal.choices() if c.move is Move.PLAY] == [parse("Kd")]
    assert deal.view(0).legal == tuple(deal.legal_plays())
    assert refusal(lambda: deal.play(0, "5c")) == ("highest_single", {"card": "K♦"})
    with pytest.raises(IllegalAction) as refused:
        deal.play(0, "9h")
    assert str(refused.value) == (
        "The next player has one normal card left: play your highest single (K♦)"
    )
    # two normal cards: no restriction, however many Revolution cards
    free = after_a_round_of_passes(["3d 5c 9h Kd", "4c 7c", "6c Qh", "8c Ah"])
    assert names(free) == ["5c", "9h", "Kd"]


def test_the_highest_single_may_be_a_revolution_card_and_twins_are_both_highest() -> None:
    deal = after_a_round_of_passes(["3d 5c Kd 2s*", "4c", "6c Qh", "8c Ah"])
    assert names(deal) == ["2s*"]  # a Revolution 2 ranks as its twin, the highest card
    assert refusal(lambda: deal.play(0, "Kd")) == ("highest_single", {"card": "2♠*"})
    twins = after_a_round_of_passes(["3d 5c Kd 2s 2s*", "4c", "6c Qh", "8c Ah"])
    assert names(twins) == ["2s", "2s*", "2s 2s*"]  # pairs are not restricted
    with pytest.raises(IllegalAction) as refused:
        twins.play(0, "5c")
    assert str(refused.value).endswith("play your highest single (2♠ or 2♠*)")
    assert refused.value.params == {"card": "2♠/2♠*"}
    twins.play(0, "2s*")
    assert twins.turn == 1


def test_while_the_order_is_reversed_the_highest_single_is_the_lowest_card() -> None:
    deal = after_a_round_of_passes(["3d 5c 9h Kd 2h*", "4c", "6c Qh", "8c Ah"])
    assert names(deal) == ["2h*"]
    deal.activate(0, "2h*")
    for seat in (1, 2, 3):
        deal.decline(seat)
    assert deal.reversed and names(deal) == ["5c"]
    with pytest.raises(IllegalAction) as refused:
        deal.play(0, "Kd")
    assert str(refused.value) == (
        "The next player has one normal card left: play your highest single by the reversed "
        "order (5♣)"
    )
    assert refused.value.params == {"card": "5♣"}


def test_last_card_binds_a_reply_too_and_leaves_a_pass() -> None:
    deal = start(["3d 4h", "5d 9c Kc", "6c", "7c 8c"], rules=LAST)
    deal.play(0, "3d")
    # seat 2 holds one card: seat 1 replies with its highest single, or passes
    assert deal.turn == 1 and names(deal) == ["Kc"] and deal.can_pass()
    assert refusal(lambda: deal.play(1, "5d")) == ("highest_single", {"card": "K♣"})
    deal.pass_(1)
    assert deal.phase is Phase.DRAW


def test_the_first_play_includes_the_lowest_card_before_last_card_binds() -> None:
    deal = start(["3d 9h Kd", "4c", "6c Qh", "8c Ah"], rules=LAST)
    assert names(deal) == ["3d"]
    deal.play(0, "3d")


def test_both_rules_at_once() -> None:
    deal = start(["3d 5c Kd", "4d 9c Tc", "6c", "7c 8h 2d"], rules=BOTH)
    deal.play(0, "3d")
    assert names(deal) == ["Tc"]  # seat 2 holds one card
    deal.pass_(1)
    deal.stop(1)
    assert deal.locked == 0b0010 and deal.turn == 2
    deal.play(2, "6c")  # seat 2 is out
    assert deal.over and deal.winner == 2


# -- the counter window, asked of every seat at once ----------------------------------------------
def test_every_asked_seat_may_answer_early_and_the_engine_says_why_not() -> None:
    deal = start(["3d 2s* Qh* 9h", "4d Qs* 8c", "5d 9c", "6d Qd Tc Qc*"])
    assert deal.asked() == [] and deal.counters(1) == []
    assert refusal(lambda: deal.verify_answer(1, None)) == ("nothing_to_answer", {})
    assert refusal(lambda: deal.verify_answer(1, "Qs*")) == ("nothing_to_counter", {})
    deal.activate(0, "2s*")
    assert deal.asked() == [1, 2, 3] and deal.responder == 1
    assert [deal.counters(s) for s in range(4)] == [[], [card("Qs*")], [], [card("Qc*")]]
    own = refusal(lambda: deal.verify_answer(0, None))
    assert own == ("own_function", {"function": "revolution"})
    with pytest.raises(IllegalAction, match="You activated the function: the other players"):
        deal.verify_answer(0, "Qh*")
    assert refusal(lambda: deal.verify_answer(3, "Qd")) == ("only_q_counters", {"card": "Q♦"})
    with pytest.raises(NotYourCards, match="Not your card: you do not hold Q♠\\*"):
        deal.verify_answer(3, "Qs*")
    with pytest.raises(NotationError):
        deal.verify_answer(3, "Zz")
    # seat 3 answers before its turn: checked now, applied once the window reaches it
    assert deal.verify_answer(3, "Qc*") == card("Qc*") and deal.can_answer(3, "Qc*")
    assert deal.verify_answer(2, None) is None and deal.verify_answer(1, None) is None
    with pytest.raises(NotYourTurn, match="Not your answer: seat 1 is asked now"):
        deal.counter(3, "Qc*")  # the engine still applies the answers in turn order
    deal.decline(1)
    answered = refusal(lambda: deal.verify_answer(1, "Qs*"))
    assert answered == ("answered_already", {"answer": "decline"})
    assert deal.counters(1) == [] and not deal.can_answer(1, None)
    deal.decline(2)
    deal.counter(3, "Qc*")
    assert deal.asked() == [] and not deal.reversed
    assert refusal(lambda: deal.verify_answer(1, "Qs*")) == ("q_cannot_counter_q", {})


def test_the_seats_asked_follow_the_activator_round_the_table() -> None:
    deal = start(["3d 9h", "4d Js* 8c", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.activate(1, "Js*")
    assert deal.asked() == [2, 3, 0] and deal.responder == 2
    deal.decline(2)
    assert [deal.can_answer(s, None) for s in range(4)] == [True, False, False, True]


def test_the_hand_over_is_no_time_to_answer() -> None:
    deal = start(["3d", "4d", "5d", "6d"])
    deal.play(0, "3d")
    assert deal.over
    with pytest.raises(IllegalAction, match="The hand is over"):
        deal.verify_answer(1, None)


# -- properties over random hands ------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]), st.sampled_from([BOTH, LOCK, LAST]))
def test_random_hands_under_both_rules_never_err_and_agree_with_their_checks(
    seed: int, players: int, rules: Rules
) -> None:
    checks_agree_over_a_random_hand(seed, players, rules)


@pytest.mark.slow
@settings(max_examples=1000, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]), st.sampled_from([BOTH, LOCK, LAST]))
def test_a_thousand_random_hands_under_both_rules_agree_with_their_checks(
    seed: int, players: int, rules: Rules
) -> None:
    checks_agree_over_a_random_hand(seed, players, rules)


def checks_agree_over_a_random_hand(seed: int, players: int, rules: Rules) -> None:
    """Random play (every kind of move) under the rules: each choice offered is taken without
    a refusal; the legal plays are exactly the plays of the hand that ``verify_play`` lets
    through; at a counter window every seat asked may answer early exactly as the engine
    would take the answer in its turn; and the invariants (a locked seat never holds the
    turn, locks end with their trick) hold after every action."""
    rng = random.Random(seed)
    deal = RevolutionDeal.from_seed(rules, seed, players)
    while not deal.over:
        if deal.phase is Phase.ACT:
            seat = deal.turn
            legal = {p.mask for p in deal.legal_plays()}
            assert {
                p.mask for p in deal.plays_of(seat) if allows(deal.verify_play, seat, p)
            } == legal
            assert not deal.locked >> seat & 1
        if deal.phase is Phase.COUNTER:
            check_the_window(deal)
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in deal.choices():
            by_move.setdefault(choice.move, []).append(choice)
        deal.take(rng.choice(by_move[rng.choice(sorted(by_move))]))
        assert deal.problems() == [], deal.actions[-1]


def check_the_window(deal: RevolutionDeal) -> None:
    assert deal.pending is not None
    asked = deal.asked()
    assert deal.pending.seat not in asked and len(asked) == deal.players - 1
    due = asked.index(deal.responder)
    offered = [c.cards for c in deal.choices() if c.move is Move.COUNTER]
    assert [1 << c for c in deal.counters(deal.responder)] == offered
    for k, seat in enumerate(asked):
        revolution = ids(deal.hands[seat] >> 52 << 52)
        if k < due:  # its decline is taken already
            assert deal.counters(seat) == [] and not deal.can_answer(seat, None)
            continue
        assert deal.can_answer(seat, None)
        assert [c for c in revolution if deal.can_answer(seat, c)] == deal.counters(seat)
        if seat == deal.responder:
            assert [c for c in revolution if allows(deal.verify_counter, seat, c)] == deal.counters(
                seat
            )


@settings(max_examples=20, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]))
def test_the_fast_path_reaches_the_states_take_does_under_both_rules(
    seed: int, players: int
) -> None:
    unchecked_path_follows_take(seed, players, BOTH)


@settings(max_examples=20, deadline=None)
@given(SEEDS)
def test_undo_restores_every_state_under_both_rules(seed: int) -> None:
    undo_restores_every_state(seed, BOTH)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]))
def test_fast_path_and_undo_over_hundreds_of_hands_under_both_rules(
    seed: int, players: int
) -> None:
    unchecked_path_follows_take(seed, players, BOTH)
    undo_restores_every_state(seed, BOTH)


@settings(max_examples=25, deadline=None)
@given(SEEDS, st.sampled_from([2, 3, 4]), st.sampled_from([BOTH, RULES]))
def test_a_search_world_from_a_view_and_the_true_cards_is_the_hand_itself(
    seed: int, players: int, rules: Rules
) -> None:
    """The search's worlds (``in_position``: a view with what it hides filled in) are the
    hand's own state when filled in with the true cards, at every step, the locks of
    ``pass_lock`` and where the turn goes after a draw included."""
    rng = random.Random(seed)
    deal = RevolutionDeal.from_seed(rules, seed, players)
    while not deal.over:
        give = deal.pending.give if deal.pending is not None else -1
        world = RevolutionDeal.in_position(
            deal.view(deal.to_act),
            list(deal.hands),
            deal.deck[deal.top :],
            opening=deal.opening,
            give=give,
        )
        assert world.saved_state()._replace(top=deal.top) == deal.saved_state()
        by_move: dict[Move, list[RevolutionChoice]] = {}
        for choice in deal.choices():
            by_move.setdefault(choice.move, []).append(choice)
        deal.take(rng.choice(by_move[rng.choice(sorted(by_move))]))


def test_a_hand_saved_before_pass_lock_joined_the_expansion_reads_no_locks() -> None:
    """A hand unpickled from a snapshot written before (no ``locked`` of its own, its undo
    states one field shorter) reads no seat locked out, and plays on."""
    deal = start(["3d 8h Kh", "4d 9h Qs*", "5d Th", "6d Jh 2s*"])
    deal.play(0, "3d")
    old = tuple(deal.saved_state())[:-1]
    del deal.__dict__["locked"]
    assert deal.locked == 0 and SavedState(*old).locked == 0
    deal.restore(SavedState(*old))
    deal.play(1, "4d")
    deal.undo()
    assert deal.turn == 1 and deal.problems() == []


def test_a_search_world_keeps_the_locks_its_view_shows() -> None:
    deal = start(["3d 8h Kh", "4d 9h Qs*", "5d Th", "6d Jh 2s*"], rules=LOCK)
    deal.play(0, "3d")
    deal.pass_(1)
    deal.stop(1)
    view = deal.view(2)
    world = RevolutionDeal.in_position(
        view, list(deal.hands), deal.deck[deal.top :], opening=deal.opening
    )
    assert world.locked == deal.locked == 0b0010
    assert (world.turn, world.to_beat, world.passes) == (deal.turn, deal.to_beat, deal.passes)
    world.play(2, "5d")
    deal.play(2, "5d")
    world.play(3, "6d")
    deal.play(3, "6d")
    world.play(0, "8h")
    deal.play(0, "8h")
    assert world.turn == deal.turn == 2


# -- the house-rules file ---------------------------------------------------------------------------
def test_the_house_rules_file_sets_both_rules_on_the_revolution_preset() -> None:
    house = RuleSet.from_file(HOUSE)
    assert house.rules.pass_lock and house.rules.last_card
    assert house.rules.replace(pass_lock=False, last_card=False, name="revolution", source="") == (
        Rules.preset("revolution").replace(source="")
    )
    assert house.match == RuleSet.preset("revolution").match


def test_a_seeded_match_under_the_house_rules_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bigtwo.cli import main

    out = tmp_path / "lock.txt"
    args = ["simulate", "--rules", str(HOUSE), "--seats", "strong,greedy,classic,random"]
    assert main([*args, "--deals", "3", "--seed", "1", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"Wrote {out}: 3 deals, totals ")
    first = out.read_text(encoding="utf-8")
    assert '"pass_lock":true,"last_card":true' in first.splitlines()[2]
    assert main([*args, "--deals", "3", "--seed", "1", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == first  # the same seed, the same match
    assert main(["record", "check", str(out)]) == 0
    checked = capsys.readouterr().out
    assert "a sound record. revolution-lock, 4 seats, 3 of 3 deals (finished" in checked


# -- the 52-card deal in the expansion's words ------------------------------------------------------
def test_the_52_card_deal_answers_the_turn_questions_of_the_expansion() -> None:
    palm = Rules.preset("palm")
    deal = Deal(palm, ["3d 4c", "5d 6c", "7d 8c", "9d Tc"])
    assert deal.to_act == deal.turn == 0
    assert deal.choices() == [RevolutionChoice(0, Move.PLAY, parse("3d"))]
    deal.take(deal.choices()[0])
    assert deal.to_act == 1
    assert [c.move for c in deal.choices()] == [Move.PLAY, Move.PLAY, Move.PASS]
    action = deal.take(RevolutionChoice(1, Move.PASS))
    assert action.is_pass and deal.to_act == 2
    with pytest.raises(NotYourTurn):
        deal.take(RevolutionChoice(1, Move.PLAY, parse("5d")))
    with pytest.raises(IllegalAction, match="A 52-card deal has no 'draw'"):
        deal.take(RevolutionChoice(2, Move.DRAW))


@settings(max_examples=30, deadline=None)
@given(SEEDS, st.sampled_from(["palm", "pusoy-dos", "taiwan", "charlesworth2018"]))
def test_the_52_card_choices_are_its_legal_plays_and_pass(seed: int, preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    deal = Deal.from_seed(rules, seed)
    twin = Deal.from_seed(rules, seed)
    while not deal.over:
        choices = deal.choices()
        plays = [c.cards for c in choices if c.move is Move.PLAY]
        assert plays == [p.mask for p in deal.legal_plays()]
        assert (choices[-1].move is Move.PASS) == deal.can_pass()
        choice = rng.choice(choices)
        deal.take(choice)
        twin.apply_unchecked(
            None if choice.move is Move.PASS else twin.catalog.classify(choice.cards)
        )
    assert deal.choices() == [] and twin.actions == deal.actions
