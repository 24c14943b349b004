"""The match's settings apart from the rules of play: a seat's table view says which autopass
switches are on (the ones a table was created with, not the preset's defaults), every action
keeps the switches the table checked before it (they may change mid-deal, and records replay
them exactly), and only a pass made while autopass would have passed a seat with no reply
counts as a chosen one."""

from __future__ import annotations

import random
import tomllib
from typing import Any

import pytest

from bigtwo import bots
from bigtwo.autoplay import play_out
from bigtwo.bots.base import Bot
from bigtwo.bots.inference import proven_replies
from bigtwo.cli import main
from bigtwo.engine import Rules, RulesError, to_mask
from bigtwo.engine.plays import Play
from bigtwo.match import Match, RuleSet, Switches, TableView
from bigtwo.match.record import read_json, read_text, write_json, write_text
from bigtwo.service import (
    Command,
    Op,
    SeatConfig,
    TableConfig,
    TableService,
    hash_token,
)

PALM = RuleSet.preset("palm")
ON = Switches(True, False)
OFF = Switches(False, False)
# Seat 0 opens with a pair of 3s: seat 1 (no pair) has no reply, seat 2 could beat it with As.
NO_REPLY = ["3d 3c 9h 5s", "5d 6c 7c 8s", "7d 8c Ah As", "9d Tc Js Qs"]
THREES = "3d 3c"


class Spy(Bot):
    """Plays the cheapest play, remembering every view it was handed."""

    name = "spy"

    def __init__(self) -> None:
        self.views: list[TableView] = []

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        self.views.append(view)
        return view.legal[0] if view.legal else None


# -- the switches a seat is told ------------------------------------------------------------
def test_a_match_with_autopass_off_tells_its_computers_so() -> None:
    spy = Spy()
    match = Match(PALM, seed=3, deals=1, autopass=False)
    play_out(match, [spy] * 4, random.Random(0))
    assert spy.views and all(not v.autopass and not v.autopass_five for v in spy.views)
    assert all(set(v.action_switches) <= {OFF} for v in spy.views)
    assert PALM.match.autopass  # the preset's default is on: the match's switch is what counts


def test_a_match_tells_the_switches_and_the_scoring_in_force() -> None:
    match = Match(PALM, seed=1, autopass_five=True)
    view = match.view(0)
    assert (view.autopass, view.autopass_five) == (True, True)
    assert view.scoring == PALM.scoring and view.rules == PALM.rules
    assert len(view.action_switches) == len(view.actions)
    assert match.view(None).hand == 0  # a spectator still sees no cards


def test_a_table_created_with_autopass_off_tells_its_computers_so(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spy = Spy()
    monkeypatch.setitem(bots._FACTORIES["bigtwo"], "spy", lambda: spy)
    seats = (SeatConfig(), SeatConfig("computer", "spy"), SeatConfig("computer", "spy"),
             SeatConfig("computer", "spy"))  # fmt: skip
    config = TableConfig(preset="palm", seats=seats, seed=2, deals=1, autopass=False)
    table = TableService(config, "SPY")
    table.apply(Command(Op.JOIN, seat=0, name="P0", token=hash_token("tok0")), 0.0)
    table.connect(0, 0.0)
    table.submit(Command(Op.READY, seat=0), 0.0)
    for _ in range(500):
        if table.status != "playing":
            break
        assert table.game is not None
        view = table.game.view(table.game.deal.turn)
        cards = view.legal[0].mask if view.legal else None
        table.submit(Command(Op.ACT, seat=view.turn, cards=cards, seen=table.state_v), 0.0)
    assert table.status != "playing"
    assert spy.views and all(not v.autopass for v in spy.views)


# -- what a pass proves ---------------------------------------------------------------------
def test_a_forced_pass_with_autopass_off_proves_no_reply() -> None:
    match = Match(PALM, hands=NO_REPLY, autopass=False)
    match.play(0, THREES)
    match.pass_(1)  # nothing beats the pair: the pass was forced
    assert proven_replies(match.view(2)) == []


def test_a_pass_the_table_would_have_made_proves_a_reply_with_autopass_on() -> None:
    match = Match(PALM, hands=NO_REPLY)
    match.play(0, THREES)
    assert [a.auto for a in match.deal.actions] == [False, True]  # seat 1 passed for it
    match.pass_(2)  # seat 2 held a pair of aces: a choice
    proofs = proven_replies(match.view(3))
    assert [(seat, play.mask) for seat, play, _ in proofs] == [(2, to_mask(THREES))]


def test_autopass_turned_on_mid_trick_does_not_make_the_next_pass_a_choice() -> None:
    match = Match(PALM, hands=NO_REPLY, autopass=False)
    match.play(0, THREES)
    match.autopass = True  # read after the next action: seat 1 still has to pass itself
    match.pass_(1)
    assert proven_replies(match.view(2)) == []
    match.pass_(2)  # now the switch was checked before it: a chosen pass over the 3s
    assert [seat for seat, _, _ in proven_replies(match.view(3))] == [2]


# -- the switches of each action --------------------------------------------------------------
def test_switching_autopass_mid_deal_is_kept_with_each_action() -> None:
    match = Match(PALM, hands=NO_REPLY)
    match.play(0, "3d")
    match.autopass = False
    match.play(1, "5d")  # the switch was read after seat 0's play: this one had it on
    match.play(2, "7d")
    match.autopass_five = False  # no change: nothing logged
    match.autopass = True
    match.play(3, "9d")
    expected = (ON, ON, OFF, OFF)
    assert match.action_switches() == expected
    assert match.view(0).action_switches == expected
    assert [(c.index, c.key, c.value) for c in match.changes] == [
        (1, "autopass", False),
        (3, "autopass", True),
    ]
    # records keep the changes at their places, so a replay gives each action its switches
    for again in (read_text(write_text(match)), read_json(write_json(match))):
        assert again.action_switches() == expected


def test_a_finished_deal_keeps_its_actions_switches() -> None:
    spy = Spy()
    match = Match(PALM, seed=5, deals=2, autopass=False)
    play_out(match, [spy] * 4, random.Random(1), deals=1)
    first = match.deal_records()[0]
    assert first.result is not None
    assert len(first.switches) == len(first.actions) and set(first.switches) == {OFF}


# -- one rules file, two parts ----------------------------------------------------------------
def test_the_engine_rules_hold_only_the_play() -> None:
    options = set(Rules.preset("palm").to_mapping())
    assert not options & {"scoring", "deals_per_game", "autopass", "autopass_five"}
    assert set(PALM.match.to_mapping()) == {
        "scoring",
        "deals_per_game",
        "autopass",
        "autopass_five",
    }


def test_a_house_rules_file_sets_both_parts(tmp_path: Any) -> None:
    path = tmp_path / "house.toml"
    path.write_text('base = "palm-hk"\nautopass = false\npass_lock = true\n', encoding="utf-8")
    house = RuleSet.from_file(path)
    assert house.rules.pass_lock and house.rules.next_leader == "winner"
    assert not house.match.autopass and house.match.deals_per_game == 10
    assert not Match(house, seed=1).autopass
    with pytest.raises(RulesError, match="autopass_five extends autopass"):
        RuleSet.from_toml("autopass = false\nautopass_five = true")


@pytest.mark.parametrize("how", [["palm"], ["--file", "HOUSE"]])
def test_rules_show_prints_every_option_of_both_parts(
    how: list[str], tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    house = tmp_path / "house.toml"
    house.write_text('base = "palm"\ndeals_per_game = 4\n', encoding="utf-8")
    argv = ["rules", "show", *(str(house) if a == "HOUSE" else a for a in how)]
    assert main(argv) == 0
    written = tomllib.loads(capsys.readouterr().out)  # TOML, as a rules file holds them
    for option in ("suit_order", "pass_lock", "scoring", "autopass", "autopass_five"):
        assert option in written
    assert written["deals_per_game"] == (4 if "--file" in how else 10)


def test_a_match_needs_the_whole_rule_set() -> None:
    with pytest.raises(TypeError, match="RuleSet"):
        Match(Rules.preset("palm"))  # type: ignore[arg-type]
