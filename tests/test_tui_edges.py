"""The terminal game's rough edges, tried as a new user would (issue 15): each test drives the
app with Textual's Pilot, or calls the piece it checks, and fails without its fix.

Helpers come from ``test_tui``: a temporary database, computer moves at once, ``greedy``
computers, so a seed always gives the same game.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input

from bigtwo.engine.cards import parse_cards
from bigtwo.store.matches import MatchStore
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.controller import GameSetup
from bigtwo.tui.dialogs import Confirm, Cover, FinalScore, Menu, ResumeOffer, ScoreSheet
from bigtwo.tui.forms import Choice, CustomDealForm, NewGameForm
from bigtwo.tui.pages import Page
from bigtwo.tui.render import cards_plain as render_cards
from bigtwo.tui.storage import GameOpenElsewhere, TableLock
from bigtwo.tui.table import TableScreen
from bigtwo.tui.words import count, does, whose
from test_tui import (
    LEAD_SEED,
    SIZE,
    make_app,
    message,
    play_deal,
    screen_text,
    select,
    set_prefs,
    status,
)


# -- item 2: the score sheet and the resume offer answer the keys the footer offers ---------
# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_score_sheet_keys_open_pages_and_come_back(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        assert isinstance(app.screen, ScoreSheet)
        for key, title in (("f1", "Help"), ("f4", "High scores"), ("f5", "Statistics")):
            await pilot.press(key)
            await pilot.pause()
            assert isinstance(app.screen, Page), key
            assert title in screen_text(app)
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, ScoreSheet), f"{key} did not come back to the sheet"
        await pilot.press("m")
        await pilot.pause()
        assert isinstance(app.screen, Menu)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 and not app.is_running
    store = MatchStore(tmp_path / "bigtwo.db")
    assert [i.deal_number for i in store.unfinished()] == [1]  # kept, on the sheet
    store.close()


async def test_q_on_the_resume_offer_quits_and_keeps_the_game(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")
        await pilot.pause()
    again = make_app(tmp_path)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeOffer)
        await pilot.press("q")
        await pilot.pause()
    assert not again.is_running
    store = MatchStore(tmp_path / "bigtwo.db")
    assert len(store.unfinished()) == 1  # still offered next time
    store.close()


# -- item 4: a new game never throws the running one away unasked ---------------------------
async def test_new_game_asks_before_ending_the_game_in_play(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        await pilot.press("f7")
        await pilot.pause()
        assert isinstance(app.screen, NewGameForm)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        assert "deal 1 of 10" in screen_text(app)
        await pilot.press("n")  # keep playing
        await pilot.pause()
        assert isinstance(app.screen, NewGameForm)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.game is game
        await pilot.press("f7")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen) and app.game is not game


async def test_enter_in_a_name_field_moves_on_instead_of_starting(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameForm)
        form.query_one("#new-name-0").focus()
        await pilot.press("ctrl+a", *"Zed", "enter")
        await pilot.pause()
        assert app.screen is form and app.game is game
        assert form.focused is not None and form.focused.id != "new-name-0"
        await pilot.press("f6")  # (a key of the table: does nothing here)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("f6")
        await pilot.pause()
        prefs = app.screen
        prefs.query_one("#pref-name-1").focus()
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is prefs  # not saved and closed by Enter


# -- item 5: words for "You", and counted nouns ------------------------------------------------
def test_words_speak_to_you_and_count_right() -> None:
    assert does("You", "takes the trick", "take the trick") == "You take the trick"
    assert does("Ann", "takes the trick", "take the trick") == "Ann takes the trick"
    assert whose("You") == "your" and whose("Ann") == "Ann's"
    assert (count(1, "card"), count(0, "card"), count(10, "deal")) == (
        "1 card",
        "0 cards",
        "10 deals",
    )


async def test_you_take_the_trick_in_the_second_person(tmp_path: Path) -> None:
    """You hold 3♦ and 2♠ (a custom deal): lead 3♦, then 2♠ takes the trick."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        mask = parse_cards("3d 2s").mask
        app._replace_game(GameSetup.from_prefs(app.prefs, seed=LEAD_SEED, custom=((0, mask),)))
        await pilot.pause()
        await select(pilot, app, parse_cards("3d").mask)
        await pilot.press("enter")
        await pilot.pause()
        assert app.game is not None and app.game.human_to_act == 0
        await select(pilot, app, parse_cards("2s").mask)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "You take the trick and lead" in text, text
        assert "You takes" not in text
        assert "Your Lead" in status(app)


async def test_cover_and_custom_deal_speak_to_you(tmp_path: Path) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db, humans=(True, True, False, False))
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Cover)
        text = screen_text(app)
        # behind the cover nobody is on show: the person named You is their seat's player
        assert "Pass the keyboard to Player 1," in text and "to you" not in text.lower()
    (tmp_path / "two").mkdir()
    app = make_app(tmp_path / "two")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        form.query_one("#new-custom").focus()
        await pilot.press("right", "ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, CustomDealForm)
        text = screen_text(app)
        assert "On the grid: your cards" in text and "You's" not in text


def test_help_counts_deals_in_words() -> None:
    from bigtwo.match.settings import RuleSet
    from bigtwo.tui.helptext import rules_help

    assert "A game is 10 deals;" in rules_help(RuleSet.preset("palm"))
    assert "A game is 1 deal;" in rules_help(RuleSet.preset("charlesworth2018"))
    assert "deal(s)" not in rules_help(RuleSet.preset("palm"))


# -- item 1: a name typed at the high-score prompt is the game's only name ------------------
async def test_high_score_name_counts_the_game_once(tmp_path: Path) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db, names=("Tester", "Ann", "Bill", "Cat"))
    app = make_app(tmp_path, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        await pilot.press("enter")  # the score sheet: on to the final score
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        app.screen.query_one("#name-0", Input).value = ""
        await pilot.press(*"Newbie", "enter")
        await pilot.pause()
    store = MatchStore(db)
    try:
        assert store.names() == ["Newbie"]  # not Tester as well
        assert store.stats("Newbie").games == 1
    finally:
        store.close()


# -- item 3: one table at a time on a data file --------------------------------------------------
def test_a_second_table_on_one_data_file_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bigtwo.tui import run

    def no_second_table(self: BigTwoApp) -> None:
        raise AssertionError("a second table was started on the same data file")

    monkeypatch.setattr(BigTwoApp, "run", no_second_table)
    db = tmp_path / "bigtwo.db"
    with TableLock(db):
        with pytest.raises(
            GameOpenElsewhere, match=rf"open in another bigtwo play \(process {os.getpid()}\)"
        ):
            run(db_path=db)
        assert MatchStore(db).unfinished() == []  # nothing was touched
    with TableLock(db):  # the first table has ended: the file is free again
        pass


# -- item 15: player-facing text speaks to players ------------------------------------------------
def test_preset_descriptions_are_whole_sentences_without_paths() -> None:
    from bigtwo.engine.rules import Rules, preset_names
    from bigtwo.tui.helptext import player_words

    for name in preset_names():
        source = player_words(Rules.preset(name).source)
        assert "/" not in source.replace("c<s<h<d", "") or name != "charlesworth2018", source
        assert ".md" not in source and "seed 0" not in source and "seeds 0" not in source
    cw = Rules.preset("charlesworth2018").source
    assert cw.endswith(".") and "shared/" not in cw and "ENCODING" not in cw


def test_bots_command_names_levels_for_players(capsys: pytest.CaptureFixture[str]) -> None:
    from bigtwo.cli import main

    assert main(["bots"]) == 0
    out = capsys.readouterr().out
    assert "docstring" not in out and "see the module" not in out
    rows = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert "Hard" in rows["strong"] and "Easy" in rows["greedy"] and "Expert" in rows["expert"]


async def test_level_names_in_the_forms_have_the_code_name_beside(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f6")
        await pilot.pause()
        text = screen_text(app)
        assert "< Easy (greedy) >" in text
        rules = app.screen.query_one("#pref-rules")
        rules.focus()
        while rules.value != "charlesworth2018":  # type: ignore[attr-defined]
            await pilot.press("right")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "the rules the Learned computer player (ppo2018) was trained under" in text
        assert "(applies from the next deal)" in text


# -- item 8: Enter follows a hint to pass ------------------------------------------------------
async def test_enter_after_a_hint_to_pass_passes(tmp_path: Path) -> None:
    from bigtwo.tui.controller import Hint
    from test_tui import FOLLOW_SEED

    app = make_app(tmp_path, seed=FOLLOW_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.human_to_act == 0 and game.view(0).can_pass
        game.hint = lambda seat=None: Hint(None, "Keep your cards for later: pass")  # type: ignore[method-assign]
        await pilot.press("h")
        await pilot.pause()
        assert "pass" in message(app) and "Enter passes" in message(app)
        before = len(game.match.deal.actions)
        await pilot.press("enter")
        await pilot.pause()
        mine = [a for a in game.match.deal.actions[before:] if a.seat == 0]
        assert mine and mine[0].play is None and not mine[0].auto  # you passed
        assert "Select the cards" not in message(app)


# -- item 9: the cards-left preference says what it does --------------------------------------
async def test_cards_left_preference_says_it_is_about_the_score_sheet(tmp_path: Path) -> None:
    set_prefs(tmp_path / "bigtwo.db", show_cards_left=False)
    app = make_app(tmp_path, deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert "13 cards" in screen_text(app)  # the table always counts the cards
        await pilot.press("f6")
        await pilot.pause()
        text = screen_text(app)
        assert "Show cards left" not in text
        assert "Score sheet shows" in text and "< how many cards only >" in text
        await pilot.press("escape")
        await pilot.pause()
        await play_deal(pilot, app)
        sheet = screen_text(app)
        game = app.game
        assert game is not None
        for row in game.score_rows():
            if row.cards_left:
                assert render_cards(row.cards) not in sheet  # counts only, as it says


# -- item 11: the trick and the messages follow the rules' suit order, as the hand does ---------
async def test_trick_and_messages_in_the_rules_suit_order(tmp_path: Path) -> None:
    set_prefs(tmp_path / "bigtwo.db", rules="taiwan")
    db = tmp_path / "bigtwo.db"
    app = BigTwoApp(db_path=db, seed=LEAD_SEED, delay=30, export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        full_house = parse_cards("3c 3d 3h 8c 8d").mask
        setup = GameSetup.from_prefs(app.prefs, seed=LEAD_SEED, custom=((0, full_house),))
        app._replace_game(setup)
        await pilot.pause()
        assert app.game is not None and app.game.rules.name == "taiwan"
        assert app.game.human_to_act == 0
        await select(pilot, app, full_house)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "3♣ 3♦ 3♥ 8♣ 8♦" in text, text  # clubs lowest, as in the hand
        assert "3♦ 3♣" not in text
        assert app.table is not None
        app.table.say("That does not beat 8♦ 8♣ 8♠: it needs a higher triple", "error")
        assert message(app).startswith("That does not beat 8♣ 8♦ 8♠")


# -- item 6: everything fits 80x24, and a smaller terminal is told so ---------------------------
async def test_side_seats_show_a_back_for_every_card(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for place in ("left", "right", "top"):
            panel = app.screen.query_one(f"#seat-{place}")
            line = str(panel.render()).splitlines()[1]
            assert line.count("▮") == 13, (place, line)


async def test_a_long_name_and_a_five_card_play_with_tens_stay_on_one_line(tmp_path: Path) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db, names=("Alexandria", "Ann", "Bill", "Cat"))
    app = BigTwoApp(db_path=db, seed=LEAD_SEED, delay=30, export_dir=tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        full_house = parse_cards("3d 3c 10d 10h 10s").mask
        app._replace_game(
            GameSetup.from_prefs(app.prefs, seed=LEAD_SEED, custom=((0, full_house),))
        )
        await pilot.pause()
        await select(pilot, app, full_house)
        await pilot.press("enter")
        await pilot.pause()
        text = screen_text(app)
        assert "Alexandria 3♦ 3♣ 10♦ 10♥ 10♠" in text, text
        assert "house" not in text  # the kind did not fit, so it is left out, not wrapped


async def test_keys_help_is_not_wrapped_at_80_columns(tmp_path: Path) -> None:
    from bigtwo.tui.helptext import KEYS_HELP, KEYS_WIDTH

    assert max(len(line) for line in KEYS_HELP.splitlines()) <= KEYS_WIDTH
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f1")
        await pilot.pause()
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert "F4 or o  high scores     F5 or i  statistics      F6 or ,  preferences" in text


async def test_a_terminal_too_small_for_the_table_is_told_so(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        text = screen_text(app)
        assert "too small for the table: 60 x 20" in text
        assert "Your Lead" not in text and "┌───┐" not in text
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        text = screen_text(app)
        assert "too small" not in text and "Your Lead" in text


# -- item 17: a deal-by-deal table, deals per game, resetting statistics ------------------------
async def test_score_sheet_shows_every_deal_on_d(tmp_path: Path) -> None:
    import re

    totals_row = re.compile(r"Total +[+-]?\d")  # the table's last row: every player's total
    app = make_app(tmp_path, deals=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await play_deal(pilot, app)
        assert isinstance(app.screen, ScoreSheet)
        assert not totals_row.search(screen_text(app))
        await pilot.press("d")
        await pilot.pause()
        text = screen_text(app)
        game = app.game
        assert game is not None
        assert totals_row.search(text) and "Cards left" not in text
        row = next(line for line in text.splitlines() if re.search(r"█ +1  ", line))
        for points in game.match.results[0].points:
            assert (f"{points:+d}" if points else "0") in row
        await pilot.press("d")
        await pilot.pause()
        assert not totals_row.search(screen_text(app)) and "Cards left" in screen_text(app)


async def test_new_game_chooses_the_deals_per_game(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f7")
        await pilot.pause()
        form = app.screen
        assert isinstance(form, NewGameForm)
        assert "10 deals, as the rules say" in screen_text(app)
        offered = [value for value, _ in form.query_one("#new-deals", Choice).options]
        assert offered.count(0) == 1 and 10 not in offered  # ten deals offered once
        levels = form.query_one("#new-level", Choice).options
        codes = [code for code, _ in levels]
        assert codes[:5] == ["random", "greedy", "classic-fair", "classic", "strong"]  # by strength
        assert dict(levels)["classic"] == "Palm, sees every hand (classic)"
        deals = form.query_one("#new-deals")
        deals.focus()
        while deals.value != 3:  # type: ignore[attr-defined]
            await pilot.press("right")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert app.game is not None and app.game.match.deals == 3
        assert "Deal 1 of 3" in screen_text(app)
    again = make_app(tmp_path)  # the choice is kept for the next new game
    assert again.prefs.deals == 0  # (read on mount)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert again.prefs.deals == 3


async def test_statistics_can_be_reset_after_a_yes(tmp_path: Path) -> None:
    import random

    from bigtwo.autoplay import play_out
    from bigtwo.bots import make_bot
    from bigtwo.match.match import Match
    from bigtwo.match.settings import RuleSet

    db = tmp_path / "bigtwo.db"
    set_prefs(db)
    store = MatchStore(db)
    match = Match(RuleSet.preset("palm"), ["Zed", "Ann", "Bill", "Cat"], seed=2, deals=1)
    match_id = store.new_match(match)
    play_out(match, [make_bot("random") for _ in range(4)], random.Random(1))
    store.finish(match_id, match, stats_for=[0])
    store.add_high_score("Zed", 5)
    store.close()
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert "Zed" in screen_text(app)
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await pilot.pause()
        assert "Zed" in screen_text(app)  # kept: the answer was no
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        text = screen_text(app)
        assert "No finished games yet." in text and "Statistics reset" in text
    store = MatchStore(db)
    try:
        assert store.names() == [] and [h.name for h in store.high_scores()] == ["Zed"]
    finally:
        store.close()


async def test_a_long_message_wraps_onto_a_second_line_whole(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    long = (
        "Hint: the cheapest play that beats the table keeps your pairs and your straight "
        "together for later tricks"
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert app.table is not None
        app.table.say(long, "hint")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert long in text  # every word, none cut at the edge of the screen


def test_the_high_score_list_shows_the_seconds_bigtwo_scores_shows() -> None:
    """The list in the game said 17 seconds where ``bigtwo scores`` said 18 (it cut, the
    command rounded)."""
    from bigtwo.store.match_schema import HighScore
    from bigtwo.tui.pages import high_scores_text

    score = HighScore(1, "Zoe", 12, "2026-12-04", "palm", 10, 17.6, 9, 12, None)
    line = high_scores_text([score]).plain.splitlines()[1]
    assert line.split()[:5] == ["1", "Zoe", "+12", "10", "18"]
