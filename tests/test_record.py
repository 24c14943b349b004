"""Game records: text and JSON forms replay a match exactly; corrupt or illegal records fail
with the line (or JSON path) and the reason."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from bigtwo.autoplay import play_out
from bigtwo.bots import make_bot
from bigtwo.engine import Action, BigTwoError
from bigtwo.match import ExportError, Match, RecordError
from bigtwo.match.record import (
    body_lines,
    read_json,
    read_text,
    to_data,
    write_json,
    write_text,
)
from bigtwo.match.record_formats import read_game, read_game_file, write_game_file
from bigtwo.match.settings import RuleSet

PALM = RuleSet.preset("palm")
DOC = Path(__file__).resolve().parents[1] / "docs" / "record-format.md"


def eventful_match(deals: int = 4, seed: int = 21) -> Match:
    """A palm match with a rule change, autopass switches and time, played by random bots."""
    match = Match(PALM, ["Adam", "Bill", "Carl", "Dean"], seed=seed, deals=deals,
                  kinds=["human", "random", "random", "random"])  # fmt: skip
    bots = [make_bot("random") for _ in range(4)]
    rng = random.Random(seed)

    def after(actions: list[Action]) -> None:
        match.add_seconds(0.75)
        if match.deal_number == 1 and len(match.deal.actions) == 6:
            match.autopass = False
        if match.deal_number == 2 and len(match.deal.actions) >= 4 and not match.autopass:
            match.autopass = True
            match.autopass_five = True
            match.set_rules(RuleSet.preset("palm-hk"))

    play_out(match, bots, rng, after=after)
    return match


def snapshot(match: Match) -> tuple[object, ...]:
    records = match.deal_records()
    return (
        [r.dealt for r in records],
        [[(a.seat, a.play.mask if a.play else None, a.auto) for a in r.actions] for r in records],
        [r.result.points if r.result else None for r in records],
        [r.rules.name for r in records],
        match.totals,
        match.names,
        match.kinds,
    )


def lines_of(text: str) -> list[str]:
    return text.splitlines()


# -- round trips ---------------------------------------------------------------------------------------
def test_text_record_replays_exactly_and_writes_back_identically() -> None:
    match = eventful_match()
    text = write_text(match)
    again = read_text(text)
    assert snapshot(again) == snapshot(match)
    assert write_text(again) == text
    assert again.deal_seconds == pytest.approx(match.deal_seconds)
    assert again.autopass and again.autopass_five and again.over
    assert "set autopass off" in text and "set rules palm-hk" in text
    assert [r.rules.name for r in again.results] == ["palm", "palm", "palm-hk", "palm-hk"]


def test_json_record_replays_exactly_and_has_the_documented_keys() -> None:
    match = eventful_match()
    data = json.loads(write_json(match))
    assert data["rules"] == "palm" and data["seats"] == ["Adam", "Bill", "Carl", "Dean"]
    deal = data["deals"][0]
    assert len(deal["hands"]) == 4 and all(isinstance(h, str) for h in deal["hands"])
    assert sum(len(h.split()) for h in deal["hands"]) == 52
    autos = [a for a in deal["actions"] if a.get("auto")]
    assert autos and all(a["play"] is None and a["reason"] for a in autos)
    assert all(set(a) >= {"seat", "play"} for a in deal["actions"])
    assert deal["cards_left"][deal["winner"]] == 0 and sum(deal["points"]) == 0
    again = read_json(write_json(match))
    assert snapshot(again) == snapshot(match)
    assert write_text(again) == write_text(match)
    assert snapshot(read_game(write_json(match))) == snapshot(match)
    assert to_data(again) == to_data(match)


def test_the_documented_example_replays_and_writes_back_identically() -> None:
    example = DOC.read_text(encoding="utf-8").split("## A whole example")[1].split("```")[1]
    match = read_text(example)
    assert match.over and match.totals == [21, -7, -7, -7]
    assert write_text(match) == example.lstrip("\n")


def test_rules_that_are_not_a_preset_are_written_in_full() -> None:
    house = PALM.replace(name="house", deals_per_game=2, scoring={"multipliers": [[8, 3]]})
    match = play_out(Match(house, seed=3), [make_bot("greedy") for _ in range(4)])
    text = write_text(match)
    assert lines_of(text)[2].startswith('rules {"name":"house"')
    again = read_text(text)
    assert again.first_ruleset == house and snapshot(again) == snapshot(match)
    tweaked = PALM.replace(deals_per_game=3)  # still named palm, but not the preset
    assert lines_of(write_text(Match(tweaked, seed=1)))[2].startswith("rules {")


def test_a_header_with_a_seed_deals_from_the_seed() -> None:
    header = "bigtwo-record 1\nrules palm\nseed 77\nseat 0 A\nseat 1 B\nseat 2 C\nseat 3 D\n"
    match = read_text(header)
    assert match.deal.dealt == Match(PALM, ["A", "B", "C", "D"], seed=77).deal.dealt
    assert match.deal_number == 1 and not match.deal.actions
    # Deals without hand lines come from the seed too.
    full = play_out(Match(PALM, seed=77, deals=2), [make_bot("greedy") for _ in range(4)])
    bare = "\n".join(line for line in lines_of(write_text(full)) if not line.startswith("hand "))
    assert snapshot(read_text(bare)) == snapshot(full)


def test_every_saved_step_of_a_game_is_a_valid_record() -> None:
    """The store appends the lines of each step: every such prefix must replay."""
    match = Match(PALM, seed=5, deals=2)
    bots = [make_bot("random") for _ in range(4)]
    cuts: list[int] = []

    def after(actions: list[Action]) -> None:
        cuts.append(len(body_lines(match, open_seconds=False)))

    play_out(match, bots, random.Random(5), after=after)
    head = write_text(match).split("\ndeal 1\n")[0]
    body = body_lines(match)
    for cut in cuts[::7] + cuts[-3:]:
        partial = read_text(head + "\n" + "\n".join(body[:cut]))
        assert sum(len(r.actions) for r in partial.deal_records()) <= sum(
            len(r.actions) for r in match.deal_records()
        )


def test_forced_opening_plays_are_recorded_as_automatic() -> None:
    rules = RuleSet.preset("charlesworth2018")
    match = play_out(Match(rules, seed=4), [make_bot("random") for _ in range(4)])
    text = write_text(match)
    first = next(line for line in lines_of(text) if line.startswith(("play", "pass")))
    assert first.endswith("3d auto 3♦ opens the deal by itself")
    assert snapshot(read_text(text)) == snapshot(match)


def test_two_and_three_player_records() -> None:
    for players in (2, 3):
        match = Match(RuleSet.preset("deduction"), players=players, seed=players, deals=2)
        play_out(match, [make_bot("random") for _ in range(players)])
        assert snapshot(read_text(write_text(match))) == snapshot(match)
        assert snapshot(read_json(write_json(match))) == snapshot(match)


# -- bad records -------------------------------------------------------------------------------------
SMALL = """bigtwo-record 1
rules palm
deals 2
seed 7
seat 0 Adam
seat 1 Bill
seat 2 Carl
seat 3 Dean

deal 1
hand 0 3d 9s Kd
hand 1 4d 9d
hand 2 5d 9c
hand 3 6d 9h
play 0 3d
play 1 4d
play 2 5d
play 3 6d
play 0 9s
pass 1 auto no 1-card play beats the table
pass 2 auto no 1-card play beats the table
pass 3 auto no 1-card play beats the table
play 0 Kd
winner 0
left 0 1 1 1
points 21 -7 -7 -7
totals 21 -7 -7 -7
"""


def broken(old: str, new: str) -> str:
    assert old in SMALL
    return SMALL.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(needle))


def test_the_small_record_is_sound() -> None:
    assert read_text(SMALL).totals == [21, -7, -7, -7]


@pytest.mark.parametrize(
    ("text", "line", "reason"),
    [
        (broken("play 2 5d", "play 2 5x"), 17, "'5x' is not a card"),
        (broken("play 3 6d", "play 3 4d"), 18, "Dean: Not your cards"),
        (broken("play 1 4d", "play 1 9d"), 16, None),  # legal: a different game, caught later
        (
            broken("pass 1 auto no 1-card play beats the table", "pass 1"),
            20,
            "Bill's pass (no 1-card play beats the table) happened automatically before this, but the record leaves it out",
        ),
        (broken("play 3 6d", "play 2 6d"), 18, "Not your turn"),
        (
            broken("pass 2 auto no 1-card play beats the table\n", ""),
            21,
            "the record has an automatic action here, but the replay has Carl's pass",
        ),
        (
            broken("play 0 Kd", "pass 0 auto\nplay 0 Kd"),
            23,
            "the record says seat 0 acted automatically",
        ),
        (
            broken("points 21 -7 -7 -7", "points 21 -7 -6 -8"),
            26,
            "the record says points 21 -7 -6 -8, but the replay gives 21 -7 -7 -7",
        ),
        (broken("winner 0", "winner 2"), 24, "the record says seat 2 won"),
        (broken("seat 2 Carl", "frobnicate 2"), 7, "'frobnicate' is not a line of a bigtwo record"),
        (broken("rules palm", "rules poker"), 2, "Unknown rule preset 'poker'"),
        (broken("rules palm", 'rules {"suit_order": "xyz"'), 2, "not valid JSON"),
        (broken("bigtwo-record 1", "bigtwo-record 9"), 1, "version 9 is newer"),
        (broken("bigtwo-record 1", "Big Two game"), 1, "not a bigtwo record"),
        (broken("hand 3 6d 9h", "hand 3 6d 9h 3d"), 10, "dealt twice"),
        (broken("hand 2 5d 9c\n", ""), 10, "every seat's hand"),
        (broken("deal 1", "deal 2"), 10, "deal 1 was expected here, not deal 2"),
        (broken("seat 3 Dean", "seat 5 Dean"), 8, "there is no seat 5: seats are 0 to 3"),
        (broken("seat 2 Carl\n", ""), 9, "the seats must be numbered 0 to 2"),
        (broken("deals 2", "deals two"), 3, "'two' is not a whole number"),
        (SMALL + "deal 2\nhand 0 3d\n", 28, "every seat's hand"),
        (SMALL + "deal 3\n", 28, "deal 2 was expected here, not deal 3"),
        (
            SMALL.replace("winner 0\n", "deal 2\n").replace("play 0 Kd\n", ""),
            23,
            "deal 2 begins before deal 1 is over",
        ),
        (SMALL + "seat 4 Ed\n", 28, "belongs in the header"),
        (SMALL + "play 1 9d\n", 28, "The deal is over"),
        (SMALL + "set rules poker\n", 28, "Unknown rule preset"),
        (SMALL + "set autopass maybe\n", 28, "must be on or off"),
        (SMALL + "seconds -4\n", 28, "not a number of seconds"),
    ],
)
def test_corrupt_or_illegal_text_records_fail_with_the_line_and_reason(
    text: str, line: int, reason: str | None
) -> None:
    with pytest.raises(RecordError) as caught:
        read_text(text)
    error = caught.value
    assert isinstance(error, BigTwoError)
    if reason is not None:
        assert error.line == line, str(error)
        assert str(error).startswith(f"line {line}: ")
        assert reason in str(error)


def test_empty_binary_and_truncated_records() -> None:
    with pytest.raises(RecordError, match="the record is empty"):
        read_text("# nothing\n\n")
    with pytest.raises(RecordError, match="not UTF-8"):
        read_text(b"\xff\xfe\x00garbage")
    with pytest.raises(RecordError, match="header names no seats"):
        read_text("bigtwo-record 1\nrules palm\nseed 1\n")
    with pytest.raises(RecordError, match="no seed"):
        read_text(
            "bigtwo-record 1\nrules palm\nseat 0 A\nseat 1 B\nseat 2 C\nseat 3 D\ndeal 1\nplay 0 3d\n"
        )
    # Cut in the middle of a step: the automatic passes after the 9s are missing.
    cut = SMALL.split("pass 1 auto")[0]
    with pytest.raises(RecordError, match="end of record: Bill's pass .* leaves it out"):
        read_text(cut)


@pytest.mark.parametrize(
    ("change", "where", "reason"),
    [
        (
            lambda d: d["deals"][0]["actions"].__setitem__(1, {"seat": 1, "play": "9d"}),
            "deals[0].actions[1]",
            None,
        ),
        (
            lambda d: d["deals"][0]["actions"].__setitem__(0, {"seat": 0, "play": "3d 4d"}),
            "deals[0].actions[0]",
            "Not your cards",
        ),
        (
            lambda d: d["deals"][0]["actions"].__setitem__(0, {"seat": "x", "play": "3d"}),
            "deals[0].actions[0]",
            "'seat' must be a seat number",
        ),
        (
            lambda d: d["deals"][0]["actions"].__setitem__(0, {"seat": 0, "play": "3d auto"}),
            "deals[0].actions[0]",
            "'auto' is not a card",
        ),
        (
            lambda d: d["deals"][0]["hands"].__setitem__(0, 17),
            "deals[0].hands[0]",
            "cards must be written as text",
        ),
        (lambda d: d.__setitem__("seats", "Adam"), "seats", "must list the seats"),
        (lambda d: d.__setitem__("rules", 4), "rules", "preset name or an object"),
        (
            lambda d: d["deals"][0].__setitem__("points", [1, 2, 3, "x"]),
            "deals[0].points",
            "whole numbers",
        ),
        (
            lambda d: d["deals"][0].__setitem__("points", [21, -7, -7, -6]),
            "deals[0].points",
            "the record says points",
        ),
    ],
)
def test_corrupt_or_illegal_json_records_fail_with_the_path_and_reason(
    change: Callable[[dict[str, Any]], object], where: str, reason: str | None
) -> None:
    data = json.loads(write_json(read_text(SMALL)))
    change(data)
    with pytest.raises(RecordError) as caught:
        read_json(json.dumps(data))
    if reason is not None:
        assert caught.value.where == where, str(caught.value)
        assert reason in str(caught.value)


def test_invalid_json_gives_its_line() -> None:
    with pytest.raises(RecordError) as caught:
        read_json('{\n "rules": "palm",\n "seats": [}\n')
    assert caught.value.line == 3 and "not valid JSON" in str(caught.value)


# -- files ----------------------------------------------------------------------------------------------
def test_files_round_trip_and_errors_name_the_file(tmp_path: Path) -> None:
    match = read_text(SMALL)
    for fmt in ("text", "json"):
        path = write_game_file(match, tmp_path / f"game.{fmt}", form=fmt)
        assert snapshot(read_game_file(path)) == snapshot(match)
    bad = tmp_path / "bad.txt"
    bad.write_text(broken("play 2 5d", "play 2 5x"), encoding="utf-8")
    with pytest.raises(RecordError, match=r"bad\.txt: line 17: '5x' is not a card"):
        read_game_file(bad)
    with pytest.raises(RecordError, match="cannot read the record"):
        read_game_file(tmp_path / "missing.txt")


def test_an_unwritable_export_path_fails_clearly_and_an_old_file_survives(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = read_text(SMALL)
    blocker = tmp_path / "a-file"
    blocker.write_text("keep me", encoding="utf-8")
    with pytest.raises(ExportError, match="Cannot write the record to .*a-file/game.txt"):
        write_game_file(match, blocker / "game.txt")
    with pytest.raises(ExportError, match="Cannot write the record"):
        write_game_file(match, tmp_path)  # a folder
    with pytest.raises(ExportError, match="Unknown record format"):
        write_game_file(match, tmp_path / "x", form="xml")
    old = tmp_path / "old.txt"
    old.write_text("the old record", encoding="utf-8")

    def refuse(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(ExportError, match="No space left on device"):
        write_game_file(match, old)
    assert old.read_text(encoding="utf-8") == "the old record"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "old.txt"]  # no temp left
