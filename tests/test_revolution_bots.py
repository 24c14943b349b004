"""Every computer level plays Big 2 RevolutioN legally and sensibly; the expert searches
fairly (its worlds come from its view alone) and deterministically."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.bench import bench_revolution_bots
from bigtwo.bots import bot_names, make_bot
from bigtwo.bots.revolution import RevolutionBot
from bigtwo.bots.revolution_expert import ExpertRevolutionBot, sample_world
from bigtwo.cli import main
from bigtwo.engine import Rules
from bigtwo.engine.errors import BigTwoError
from bigtwo.engine.revolution import Move, RevolutionDeal
from bigtwo.engine.revolution_cards import parse

RULES = Rules.preset("revolution")
GREEDY = make_bot("greedy", "revolution")
STRONG = make_bot("strong", "revolution")
CLASSIC = make_bot("classic", "revolution")
# The expert with a small budget: the same search, quick enough for many hands in a test.
QUICK_EXPERT = ExpertRevolutionBot(rollouts=12)


def player(level: str) -> RevolutionBot:
    return QUICK_EXPERT if level == "expert" else make_bot(level, "revolution")


def start(hands: list[str], top: str = "") -> RevolutionDeal:
    masks = [parse(h) for h in hands]
    held = 0
    for m in masks:
        held |= m
    first = [c for c in range(104) if parse(top) >> c & 1] if top else []
    rest = [c for c in range(52, 104) if not held >> c & 1 and c not in first]
    return RevolutionDeal(RULES, masks, deck=first + rest)


@settings(max_examples=8, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(bot_names("revolution")))
def test_every_choice_is_one_the_view_offers_and_the_hand_ends(seed: int, level: str) -> None:
    deal = RevolutionDeal.from_seed(RULES, seed)
    bot, rng = player(level), random.Random(seed)
    while not deal.over:
        seat = deal.to_act
        view = deal.view(seat)
        for other in range(deal.players):
            if other != seat:
                assert deal.view(other).choices == ()
        for choice in view.choices:  # made of this seat's cards and public ones only
            assert choice.cards & ~(view.hand | sum(1 << c for c in view.gathering)) == 0
        choice = bot.choose(view, rng)
        assert choice in view.choices
        deal.take(choice)
    assert deal.problems() == []


def test_the_same_seed_gives_the_same_hand() -> None:
    def run() -> tuple[object, ...]:
        deal = RevolutionDeal.from_seed(RULES, 9)
        bot, rng = make_bot("random", "revolution"), random.Random(9)
        while not deal.over:
            deal.take(bot.choose(deal.view(deal.to_act), rng))
        return tuple(deal.actions)

    assert run() == run()


def test_greedy_counters_a_jump_aimed_at_it_and_lets_others_stand() -> None:
    deal = start(["3d Js* 9h", "4d Qs* 8c", "5d Qh* 9c", "6d Tc"])
    deal.activate(0, "Js*")
    assert GREEDY.choose(deal.view(1), random.Random(0)).move is Move.COUNTER
    deal = start(["3d 2s* 9h 9s Tc Jc Qc", "4d Qs* 8c 8d 8h", "5d 9c", "6d Td"])
    deal.activate(0, "2s*")  # a revolution while Bob's hand is low helps him
    assert GREEDY.choose(deal.view(1), random.Random(0)).move is Move.DECLINE


def test_greedy_exchanges_its_worst_card_to_the_player_with_fewest() -> None:
    deal = start(["3d 4c 9h Kh As*", "4d 8c", "5d", "6d Tc Js"])
    choice = GREEDY.choose(deal.view(0), random.Random(0))
    assert (choice.move, choice.target, choice.give) == (Move.ACTIVATE, 2, 5)  # 4♣ to Cat


def test_greedy_commands_when_it_cannot_beat_the_table() -> None:
    deal = start(["3d 2s 9h", "4d 5c Ks*", "5d 9c", "6d Tc"])
    deal.play(0, "3d")
    deal.play(1, "4d")
    deal.play(2, "9c")
    deal.play(3, "Tc")
    deal.play(0, "2s")
    choice = GREEDY.choose(deal.view(1), random.Random(0))
    assert choice.move is Move.ACTIVATE and choice.cards == parse("Ks*")


def test_greedy_takes_a_character_from_the_gathering() -> None:
    deal = start(["3d 9h", "4d 8c", "5d 9c", "6d Tc"], top="3c* Ks* 5c* 6c*")
    deal.play(0, "3d")
    deal.pass_(1)
    choice = GREEDY.choose(deal.view(1), random.Random(0))
    assert choice.move is Move.DRAW and choice.cards == parse("Ks*")


def test_levels_without_revolution_play_say_so() -> None:
    with pytest.raises(BigTwoError, match="No computer player 'ppo2018' plays revolution yet"):
        make_bot("ppo2018", "revolution")


def test_greedy_beats_random_over_many_hands() -> None:
    result = bench_revolution_bots(["greedy", "random", "greedy", "random"], deals=60, seed=3)
    assert result["violations"] == 0
    assert result["mean_points_per_seat"]["greedy"] > result["mean_points_per_seat"]["random"]
    assert result["functions_per_deal"] > 0


def _rows(out: str) -> dict[str, list[str]]:
    """A printed table's rows by their first cell (the cells stripped of the box lines)."""
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.strip("│").split("│")]
        if line.startswith("│") and cells[0]:
            rows[cells[0]] = cells[1:]
    return rows


def test_the_levels_that_play_revolution() -> None:
    assert bot_names("revolution") == ["classic", "expert", "greedy", "random", "strong"]


def test_strong_leads_the_play_that_keeps_its_plan() -> None:
    deal = start(["3d 4c 5h 6s 7d 9h", "4d 8c", "5d 9c", "6d Tc"])
    assert GREEDY.choose(deal.view(0), random.Random(0)).cards == parse("3d")
    assert STRONG.choose(deal.view(0), random.Random(0)).cards == parse("3d 4c 5h 6s 7d")


def test_strong_sheds_normal_cards_before_their_revolution_twins() -> None:
    deal = start(["3d 3c 9d", "4c 4h 8c", "7h 7h* 7s 9c", "6d Tc"])
    deal.play(0, "3d 3c")
    deal.play(1, "4c 4h")
    assert GREEDY.choose(deal.view(2), random.Random(0)).cards == parse("7h 7h*")
    assert STRONG.choose(deal.view(2), random.Random(0)).cards == parse("7h 7s")


def test_strong_beats_greedy_over_many_hands() -> None:
    result = bench_revolution_bots(["strong", "greedy", "greedy", "greedy"], deals=80, seed=5)
    assert result["violations"] == 0
    assert result["mean_points_per_seat"]["strong"] > result["mean_points_per_seat"]["greedy"]
    assert result["functions_per_deal"] > 0


def test_bench_revolution_prints_its_figures_as_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "revolution", "--deals", "6", "--seed", "4", "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert main(["bench", "revolution", "--deals", "6", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert out.lstrip().startswith("6 random hands, 4 players, ")  # the title is centred
    rows = _rows(out)
    assert rows["invariant violations"] == ["0"]
    assert rows["functions per hand"] == [str(figures["functions_per_deal"])]
    assert rows["ended by exhaustion"] == [f"{figures['ended_by_exhaustion']:.1%}"]
    for move, times in {**figures["moves"], **figures["functions"]}.items():
        assert rows[move] == [f"{times:,}", f"{times / 6:.2f}"], move
    assert out.index("activate") < out.index("jump") < out.index("decline")  # functions under it


def test_bench_revolution_prints_the_computer_players_as_tables(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["bench", "revolution", "--deals", "8", "--seed", "2", "--bots", "greedy,random,greedy"]
    assert main([*args, "--json"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    rows = _rows(capsys.readouterr().out)
    for level, seats in (("greedy", "2"), ("random", "1")):
        points = f"{figures['mean_points_per_seat'][level]:+.2f}"
        won = f"{figures['win_share_per_seat'][level]:.1%}"
        assert rows[level] == [seats, points, won]
    assert rows["functions"] == [f"{figures['functions_per_deal']:.2f}"]
    assert rows["draws"] == [f"{figures['draws_per_deal']:.2f}"]
    assert rows["hands with a violation"] == ["0"]
    assert main(["bench", "revolution", "--bots", "greedy"]) == 2
    assert "--bots names 2 to 4 levels" in capsys.readouterr().out
    assert main(["bench", "revolution", "--deals", "0"]) == 2
    assert "--deals must be at least 1" in capsys.readouterr().out


def test_every_level_plays_legally_at_a_table_of_every_level() -> None:
    levels = bot_names("revolution")
    for number in range(8):
        deal = RevolutionDeal.from_seed(RULES, f"levels:{number}", 4 - number % 3)
        seated = [player(levels[(s + number) % len(levels)]) for s in range(deal.players)]
        rng = random.Random(number)
        while not deal.over:
            view = deal.view(deal.to_act)
            choice = seated[deal.to_act].choose(view, rng)
            assert choice in view.choices
            deal.take(choice)
        assert deal.problems() == []


@pytest.mark.slow
def test_every_level_plays_legally_over_many_hands() -> None:
    for number in range(120):
        deal = RevolutionDeal.from_seed(RULES, f"many:{number}", 2 + number % 3)
        names = bot_names("revolution")
        seated = [player(names[(s + number) % len(names)]) for s in range(deal.players)]
        rng = random.Random(number)
        while not deal.over:
            view = deal.view(deal.to_act)
            choice = seated[deal.to_act].choose(view, rng)
            assert choice in view.choices
            deal.take(choice)
        assert deal.problems() == []


def test_classic_plays_simply() -> None:
    # leading: the longest play that holds its lowest normal card
    deal = start(["3d 3c 3h 9h Kd", "4d 8c", "5d 9c", "6d Tc"])
    assert CLASSIC.choose(deal.view(0), random.Random(0)).cards == parse("3d 3c 3h")
    # it commands when it cannot beat the table, and uses no exchange or revolution
    deal = start(["3d 2s 9h", "4d 5c Ks* As* 2h*", "5d 9c", "6d Tc"])
    for seat, cards in ((0, "3d"), (1, "4d"), (2, "9c"), (3, "Tc"), (0, "2s")):
        deal.play(seat, cards)
    choice = CLASSIC.choose(deal.view(1), random.Random(0))
    assert choice.move is Move.ACTIVATE and choice.cards == parse("Ks*")
    deal = start(["3d 4c 9h Kh As* 2h*", "4d 8c 9d", "5d 9s Th", "6d Tc Jc"])
    choice = CLASSIC.choose(deal.view(0), random.Random(0))
    assert choice.move is Move.PLAY and choice.cards == parse("3d")


def _positions(seed: str, players: int = 4) -> list[RevolutionDeal]:
    """A hand's positions, played by greedy players: one deal per position."""
    out = []
    actions = []
    deal = RevolutionDeal.from_seed(RULES, seed, players)
    rng = random.Random(seed)
    while not deal.over:
        choice = GREEDY.choose(deal.view(deal.to_act), rng)
        actions.append(choice)
        deal.take(choice)
        copy = RevolutionDeal(RULES, deal.dealt, deck=deal.deck)
        for done in actions:
            copy.take(done)
        out.append(copy)
    return out[:-1]


def test_a_world_agrees_with_everything_the_view_shows() -> None:
    for position in _positions("worlds")[::3]:
        seat = position.to_act
        view = position.view(seat)
        world = sample_world(view, random.Random(1))
        assert world.hands[seat] == view.hand
        assert [(h & NORMAL).bit_count() for h in world.hands] == list(view.counts)
        assert [(h >> 52).bit_count() for h in world.hands] == list(view.revolution_counts)
        assert len(world.deck) - world.top == view.deck_left
        assert world.gathering == list(view.gathering)
        held = 0
        for hand in world.hands:
            assert not hand & held
            held |= hand
        assert not held & (view.played | view.discards)
        assert (world.turn, world.phase, world.reversed) == (view.turn, view.phase, view.reversed)


def test_the_expert_is_deterministic_for_a_seed_and_never_reads_hidden_cards() -> None:
    """Two hands that look the same from one seat (the other seats' cards swapped and the
    deck below the Gathering reordered) get the same choices from the expert, whatever the
    hidden cards; and the same view with the same seed gives the same choice twice."""
    expert = ExpertRevolutionBot(rollouts=24)
    checked = 0
    for number in range(3):
        real = RevolutionDeal.from_seed(RULES, f"hidden:{number}")
        hands = list(real.dealt)
        one, two = hands[1], hands[2]
        low_one = [c for c in range(1, 52) if one >> c & 1][0]
        low_two = [c for c in range(1, 52) if two >> c & 1][0]
        hands[1] = one ^ (1 << low_one) | 1 << low_two
        hands[2] = two ^ (1 << low_two) | 1 << low_one
        deck = list(real.deck)
        deck[6:] = reversed(deck[6:])
        twin = RevolutionDeal(RULES, hands, deck=deck)
        rng = random.Random(number)
        while not real.over and checked < 4 * (number + 1):
            seen = real.view(0)
            if twin.view(0) != seen:
                break  # the hidden cards now show (a play, a draw): the two hands part
            seat = real.to_act
            view = real.view(seat)
            if seat == 0 and len(view.choices) > 1:
                key = f"{number}:{len(real.actions)}"
                first = expert.choose(view, random.Random(key))
                again = expert.choose(view, random.Random(key))
                other = expert.choose(twin.view(0), random.Random(key))
                assert first == again == other
                checked += 1
            choice = GREEDY.choose(view, rng)
            real.take(choice)
            try:
                twin.take(choice)
            except BigTwoError:
                break
    assert checked >= 3


def test_the_expert_takes_a_play_that_goes_out_at_once() -> None:
    deal = start(["3d 9h 4c*", "4d 8c", "5d 7c", "6d Tc"])
    for seat, cards in ((0, "3d"), (1, "4d"), (2, "5d"), (3, "6d")):
        deal.play(seat, cards)
    view = deal.view(0)
    assert len(view.choices) > 1
    choice = ExpertRevolutionBot().choose(view, random.Random(0))
    assert (choice.move, choice.cards) == (Move.PLAY, parse("9h"))  # its last normal card


def test_the_expert_answers_a_counter_window_without_a_q_at_once() -> None:
    deal = start(["3d Js* 9h", "4d 8c", "5d Qh* 9c", "6d Tc"])
    deal.activate(0, "Js*")
    view = deal.view(1)
    assert [c.move for c in view.choices] == [Move.DECLINE]
    assert ExpertRevolutionBot().choose(view, random.Random(0)).move is Move.DECLINE


NORMAL = (1 << 52) - 1
