"""The terminal game's logic without any screen: the controller, preferences and help text.

These run synchronously and fast; the Pilot tests in ``test_tui.py`` cover the same paths
through keys and clicks.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bigtwo.bots.base import Bot
from bigtwo.bots.seat import ComputerSeat
from bigtwo.engine import parse_cards, preset_names
from bigtwo.engine.errors import BigTwoError, NotYourTurn
from bigtwo.match.settings import RuleSet
from bigtwo.store.matches import MatchStore
from bigtwo.tui.controller import GameController, GameSetup, SeatSetup, cheapest_hint
from bigtwo.tui.helptext import rules_help
from bigtwo.tui.prefs import Prefs
from bigtwo.tui.render import HandLayout, initials, render_hand
from bigtwo.tui.storage import TuiStorage


def setup(humans: tuple[bool, ...] = (True, False, False, False), **kw: Any) -> GameSetup:
    seats = tuple(
        SeatSetup(name, human, "greedy")
        for name, human in zip(("You", "Ann", "Bill", "Cat"), humans, strict=False)
    )
    return GameSetup(seats=seats, seed=kw.pop("seed", 4), **kw)


def test_a_person_plays_and_the_computers_answer() -> None:
    game = GameController(setup())
    assert game.human_to_act == 0 and not game.computer_to_act
    with pytest.raises(BigTwoError, match="First play must include 3♦"):
        game.play(0, parse_cards("4h").mask)
    game.play(0, parse_cards("3d").mask)
    assert game.computer_to_act
    with pytest.raises(NotYourTurn):
        game.pass_(0)
    game.run_computers()
    assert game.human_to_act == 0
    trick, finished = game.trick()
    assert [a.seat for a in trick] == [0, 1, 2, 3] and not finished


def test_a_finished_trick_stays_on_show_until_the_next_lead() -> None:
    game = GameController(setup())
    game.play(0, parse_cards("3d").mask)
    game.run_computers()
    while game.human_to_act == 0 and game.view().to_beat is not None:
        game.pass_(0)
        game.run_computers()
        trick, finished = game.trick()
        if finished:
            assert trick[-1].trick_over
            break


def test_hot_seat_needs_a_cover_between_people() -> None:
    game = GameController(setup((True, False, True, False)))
    assert game.hot_seat and game.viewer is None and game.hand() == 0
    assert game.needs_cover()
    game.reveal(0)
    assert not game.needs_cover() and game.hand() == game.match.deal.hands[0]
    game.play(0, parse_cards("3d").mask)
    game.run_computers()
    assert game.human_to_act == 2 and game.needs_cover()
    assert game.hand() == game.match.deal.hands[0]  # still You's, until the cover lifts
    game.reveal(2)
    assert game.hand() == game.match.deal.hands[2]
    with pytest.raises(BigTwoError):
        game.reveal(1)  # a computer's hand is never shown


def test_a_bots_illegal_choice_falls_back_to_a_legal_move() -> None:
    class Wrong(Bot):
        name = "wrong"

        def choose(self, view: Any, rng: random.Random) -> Any:
            return None  # tries to pass, even when leading

    game = GameController(setup((False, True, True, True), seed=4))
    game.bots[0] = ComputerSeat.of(Wrong(), 0)
    game.computer_step()
    assert game.match.deal.actions[0].play is not None


def test_saved_game_resumes_through_the_store(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "b.db")
    storage = TuiStorage(store)
    game = GameController(setup(), store=storage.tables, clock=lambda: 0.0)
    game.play(0, parse_cards("3d").mask)
    game.run_computers()
    storage.save_game(game)
    saved = storage.unfinished()
    assert saved is not None and "deal 1 of 10" in saved.summary()
    back = storage.load(saved, clock=lambda: 0.0)
    assert back is not None
    assert back.match.deal.actions == game.match.deal.actions
    assert [s.human for s in back.setup.seats] == [True, False, False, False]
    assert back.human_to_act == 0 and back.viewer == 0
    store.close()


def test_a_game_saved_without_its_table_log_says_it_cannot_continue(tmp_path: Any) -> None:
    store = MatchStore(tmp_path / "b.db")
    errors: list[str] = []
    storage = TuiStorage(store, errors.append)
    game = GameController(setup(), clock=lambda: 0.0)  # its log kept elsewhere (in memory)
    storage.save_game(game)
    saved = storage.unfinished()
    assert saved is not None
    assert storage.load(saved, clock=lambda: 0.0) is None
    assert errors and "cannot be continued" in errors[0]
    storage.close()


def test_cheapest_hint_words() -> None:
    game = GameController(setup())
    hint = cheapest_hint(game.view(0))
    assert hint.play is not None and hint.play.mask == 1
    assert "3♦" in hint.reason


def test_set_rules_waits_for_the_next_deal() -> None:
    game = GameController(setup())
    assert game.set_rules("palm-hk")
    assert game.rules.name == "palm"
    assert not game.set_rules("textbook") or game.players == 4


def test_prefs_survive_damaged_values() -> None:
    prefs = Prefs.from_data({"speed": "warp", "names": ["Zed"], "humans": [1], "rules": 5, "x": 1})
    assert prefs.speed == "medium" and prefs.names[0] == "Zed" and prefs.names[1] == "Ann"
    assert prefs.humans == (True, False, False, False) and prefs.rules == "palm"
    assert Prefs.from_data("not json") == Prefs()
    assert Prefs.from_data(Prefs(sort="suit").to_data()).sort == "suit"


@pytest.mark.parametrize("name", [n for n in preset_names() if n != "revolution"])
def test_help_describes_every_preset(name: str) -> None:
    text = rules_help(RuleSet.preset(name))
    assert f"Rules: {name}" in text and "Scoring:" in text
    assert rules_help(RuleSet.preset(name), ascii_only=True).isascii()


def test_help_names_the_hong_kong_rules() -> None:
    text = rules_help(RuleSet.preset("palm-hk"))
    assert "winner of the last deal leads" in text
    straights = next(line for line in text.splitlines() if "straights, low to high" in line)
    assert straights.index("TJQKA") < straights.index("23456")


def test_hand_layout_and_initials() -> None:
    assert HandLayout(13, 78).width == 5 and HandLayout(18, 78).width == 4
    layout = HandLayout(13, 78)
    assert layout.index_at(layout.left) == 0 and layout.index_at(layout.left - 1) is None
    assert layout.index_at(layout.left + 13 * 5) is None
    assert initials("Ann Lee") == "AL" and initials("bill") == "B"
    assert "10♥" in render_hand([30], set(), 0, 78).plain
    assert "T♥" in render_hand(list(range(18, 36)), set(), 0, 78).plain  # narrow cards
    assert render_hand([30], {30}, 0, 78, ascii_only=True).plain.isascii()


def test_palm_computer_players_fight_the_people_at_the_table() -> None:
    from bigtwo.bots.classic import ClassicBot

    seats = (
        SeatSetup("Ann", False, "classic"),
        SeatSetup("You", True, "greedy"),
        SeatSetup("Bob", True, "greedy"),
        SeatSetup("Cat", False, "classic"),
    )
    game = GameController(GameSetup(seats=seats, seed=4))
    bot = game._computer(0).bot
    assert isinstance(bot, ClassicBot) and bot.humans == frozenset({1, 2})
