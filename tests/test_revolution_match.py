"""Big 2 RevolutioN matches: scoring, the record (exact replay, refusals in words), history,
replay and ``bigtwo record check``."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bigtwo.cli import main
from bigtwo.engine.revolution import Move
from bigtwo.engine.revolution_cards import parse
from bigtwo.match.errors import RecordError
from bigtwo.match.revolution import RevolutionMatch
from bigtwo.match.revolution_history import history_lines, revolution_positions
from bigtwo.match.revolution_record import read_revolution_text, write_revolution_text
from bigtwo.match.scoring import score_revolution_hand
from bigtwo.match.settings import RuleSet

REVOLUTION = RuleSet.preset("revolution")


def known_match(rules: RuleSet = REVOLUTION) -> RevolutionMatch:
    hands = [parse(h) for h in ("3d 9h Jh As*", "4d 8c Qs*", "5d 9c", "6d Tc")]
    held = 0
    for h in hands:
        held |= h
    deck = [c for c in range(52, 104) if not held >> c & 1]
    return RevolutionMatch(rules, ["Ann", "Bob", "Cat", "Dan"], hands=hands, deck=deck, deals=1)


def play_out(match: RevolutionMatch, rng: random.Random) -> None:
    while True:
        while not match.deal.over:
            choices = match.deal.choices()
            moves = sorted({c.move for c in choices})
            move = rng.choice(moves)
            picked = rng.choice([c for c in choices if c.move is move])
            if picked.move is Move.PASS and rng.random() < 0.2:
                match.pass_(picked.seat, auto=True)
            else:
                match.take(picked)
        if match.over:
            return
        match.next_deal()


# -- scoring -----------------------------------------------------------------------------------------
def test_scoring_of_a_hand_won_by_going_out() -> None:
    left = [0, parse("4d 8c Qs* Ks*"), parse("5d 9c Th Jh Qh Kh Ah 2h 3s 4s"), parse("6d")]
    assert score_revolution_hand(REVOLUTION, left, winner=0, exhausted=False).points == (
        0,
        -2,  # Revolution cards cost nothing
        -20,  # ten cards: ×2
        -1,
    )
    counting = REVOLUTION.replace(revolution={"revolution_cards_count": True})
    assert score_revolution_hand(counting, left, winner=0, exhausted=False).points == (
        0,
        -4,
        -20,
        -1,
    )


def test_scoring_of_a_hand_ended_by_exhaustion() -> None:
    left = [parse("9h Jc"), parse("4d 8c Qs*"), parse("5d 9c"), parse("6d Tc Ts")]
    free = score_revolution_hand(REVOLUTION, left, winner=0, exhausted=True)
    assert free.points == (0, 0, 0, -3)
    all_pay = REVOLUTION.replace(revolution={"exhaustion": "all_pay"})
    assert score_revolution_hand(all_pay, left, winner=0, exhausted=True).points == (
        -2,
        -2,
        -2,
        -3,
    )


# -- the record --------------------------------------------------------------------------------------
def test_a_known_hand_records_every_activation_counter_decline_and_draw() -> None:
    match = known_match()
    match.play(0, "3d")
    match.pass_(1)
    match.draw(1, "deck")
    match.stop(1)
    match.play(2, "5d")
    match.play(3, "6d")
    match.activate(0, "As*", target=2, give="9h")
    match.decline(1)
    match.decline(2)
    match.decline(3)
    text = write_revolution_text(match)
    body = text.split("deck ", 1)[1].splitlines()[1:]
    assert body == [
        "play 0 3d",
        "pass 1",
        "draw 1 deck 4d*",
        "stop 1",
        "play 2 5d",
        "play 3 6d",
        "activate 0 As* exchange 2 9h",
        "decline 1",
        "decline 2",
        "decline 3",
        "effect 0 exchange 2 9h",
    ]
    assert write_revolution_text(read_revolution_text(text)) == text
    history = history_lines_of(match)
    assert history[:4] == [
        "Ann plays 3♦",
        "Bob passes",
        "Bob draws 4♦* from the deck",
        "Bob draws no more",
    ]


def history_lines_of(match: RevolutionMatch) -> list[str]:
    from bigtwo.match.revolution_history import describe_actions

    return describe_actions(match.deal.actions, match.names)


def test_a_seat_that_stops_without_drawing_draws_nothing_in_the_history() -> None:
    """The history said "Cat draws no more" of a Cat who had drawn nothing."""
    match = known_match()
    match.play(0, "3d")
    match.pass_(1)
    match.stop(1)  # Bob draws nothing
    match.play(2, "5d")
    history = history_lines_of(match)
    assert history[:4] == ["Ann plays 3♦", "Bob passes", "Bob draws nothing", "Cat plays 5♦"]


def test_a_finished_known_hand_has_its_result_lines_and_history() -> None:
    match = known_match()
    match.play(0, "3d")
    match.play(1, "8c")
    match.play(2, "9c")
    match.play(3, "Tc")
    match.activate(0, "As*", target=3, give="9h")
    match.counter(1, "Qs*")
    assert match.deal.hands[0] == parse("9h Jh")  # the counter kept the card with Ann
    for seat in (0, 1, 2):
        match.pass_(seat)
        match.stop(seat)
    match.play(3, "6d")  # the trick came back to Dan, who goes out
    assert match.over and match.results[0].winner == 3
    text = write_revolution_text(match)
    assert text.rstrip().splitlines()[-4:] == [
        "end out",
        "winner 3",
        "points -2 -1 -1 0",
        "totals -2 -1 -1 0",
    ]
    lines = history_lines(match.results[0], match.names)
    assert "  Ann activates A♠*: exchange on Dan" in lines
    assert "  Bob counters with Q♠*" in lines
    assert lines[-2:] == ["  Dan went out.", "  Points: Ann -2, Bob -1, Cat -1, Dan +0"]
    assert read_revolution_text(text).totals == match.totals


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_records_of_random_matches_replay_exactly(seed: int, players: int) -> None:
    record_replays_exactly(seed, players)


@pytest.mark.slow  # a thousand matches of two hands: make test-slow (and CI)
@settings(max_examples=1000, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from([2, 3, 4]))
def test_records_of_a_thousand_random_matches_replay_exactly(seed: int, players: int) -> None:
    record_replays_exactly(seed, players)


def record_replays_exactly(seed: int, players: int) -> None:
    match = RevolutionMatch(REVOLUTION, players=players, seed=seed, deals=2)
    play_out(match, random.Random(seed))
    text = write_revolution_text(match)
    again = read_revolution_text(text)
    assert write_revolution_text(again) == text
    assert again.totals == match.totals
    assert [r.actions for r in again.results] == [r.actions for r in match.results]
    assert len(revolution_positions(again)) == sum(
        1 + sum(not a.follows for a in r.actions) for r in match.results
    )


def _finished_text() -> str:
    match = RevolutionMatch(REVOLUTION, seed=4, deals=1)
    play_out(match, random.Random(4))
    return write_revolution_text(match)


def _edit_first(text: str, start: str, edit: Callable[[str], str], having: str = "") -> str:
    """The record with the first line that starts with ``start`` (and holds ``having``)
    edited."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(start) and having in line:
            lines[i] = edit(line)
            break
    return "\n".join(lines) + "\n"


def _rename_function(line: str) -> str:
    words = line.split()
    words[3] = "nonsense"
    return " ".join(words)


BAD_RECORDS: dict[str, tuple[Callable[[str], str], str]] = {
    "unknown rules": (
        lambda t: t.replace("rules revolution", "rules nosuch"),
        "Unknown rule preset 'nosuch'",
    ),
    "another card drawn": (
        lambda t: _edit_first(t, "draw ", lambda line: line.rsplit(" ", 1)[0] + " 2s*", "deck"),
        "the deck's top card is",
    ),
    "effect left out": (
        lambda t: _edit_first(t, "effect ", lambda line: ""),
        "the replay makes 'effect",
    ),
    "wrong points": (
        lambda t: _edit_first(t, "points ", lambda line: "points 1 2 3 4"),
        "the replay gives points",
    ),
    "wrong function": (
        lambda t: _edit_first(t, "activate ", _rename_function),
        r"activates \w+, not nonsense",
    ),
    "a lost turn made up": (
        lambda t: _edit_first(t, "decline ", lambda line: "skip 3"),
        "the replay makes no 'skip 3' here",
    ),
    "a normal card in the deck": (
        lambda t: _edit_first(t, "deck ", lambda line: line.replace("deck ", "deck 3d ")),
        "The Revolution deck must hold each Revolution card not in a hand, once",
    ),
    "a line of the 52-card record": (
        lambda t: _edit_first(t, "points ", lambda line: "left 1 2 3 4"),
        "'left' is not a line of a revolution record",
    ),
}


@pytest.mark.parametrize("name", sorted(BAD_RECORDS))
def test_a_bad_record_is_refused_with_its_line_and_reason(name: str) -> None:
    change, reason = BAD_RECORDS[name]
    text = _finished_text()
    bad = change(text)
    assert bad != text
    with pytest.raises(RecordError, match=reason) as err:
        read_revolution_text(bad)
    assert str(err.value).startswith("line ")


def test_record_check_replay_and_history_commands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "hand.txt"
    path.write_text(_finished_text(), encoding="utf-8")
    assert main(["record", "check", str(path)]) == 0
    out = capsys.readouterr().out
    assert "a sound record. revolution, 4 seats, 1 of 1 deals (finished; ends:" in out
    assert main(["replay", str(path), "--at", "0"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Deal 1: the hand begins\n  Gathering ")
    assert "deck 48 cards; order normal" in out
    assert main(["history", str(path)]) == 0
    assert capsys.readouterr().out.startswith("revolution: You, Ann, Bill, Cat\nDeal 1\n")
    path.write_text(_finished_text().replace("points ", "points 9 "), encoding="utf-8")
    assert main(["record", "check", str(path)]) != 0
    assert "line 107: 4 numbers were expected, one per seat, not 5" in capsys.readouterr().err


def test_a_house_rules_record_carries_every_revolution_option() -> None:
    house = RuleSet.from_toml(
        'base = "revolution"\n[revolution]\nfunctions_per_turn = 1\nauto_draw = "two"\n'
        '[revolution.functions]\nK = "jump"\n'
    )
    match = RevolutionMatch(house, seed=2, deals=1)
    play_out(match, random.Random(2))
    text = write_revolution_text(match)
    assert '"revolution":{"functions_per_turn":1,' in text.splitlines()[2]
    again = read_revolution_text(text)
    assert again.ruleset == house
    assert write_revolution_text(again) == text


def test_simulate_writes_a_revolution_record_that_checks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "sim.txt"
    args = ["simulate", "--rules", "revolution", "--seats", "greedy,random,greedy"]
    assert main([*args, "--deals", "2", "--seed", "5", "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"Wrote {out}: 2 deals, totals ")
    first = out.read_text(encoding="utf-8")
    assert first.startswith("bigtwo-revolution-record 1\n")
    assert main([*args, "--deals", "2", "--seed", "5", "--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == first  # the same seed, the same match
    assert main(["record", "check", str(out)]) == 0
    assert "a sound record. revolution, 3 seats, 2 of 2 deals (finished" in capsys.readouterr().out
    assert main(["simulate", "--rules", "revolution", "--seats", "ppo2018,random"]) != 0
    assert "No computer player 'ppo2018' plays revolution yet" in capsys.readouterr().err
