"""Custom deals for every seat and every deal, playing a deal again, and undo, as a person
uses them: Textual's Pilot types the cards and presses the keys."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Input

from bigtwo.engine.cards import parse_cards
from bigtwo.engine.errors import BigTwoError
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.dialogs import Cover, ResumeOffer, ScoreSheet
from bigtwo.tui.forms import CustomDealForm, read_hands
from bigtwo.tui.table import TableScreen
from test_tui import (
    FOLLOW_SEED,
    SIZE,
    hand,
    make_app,
    message,
    play_deal,
    screen_text,
    set_prefs,
    take_turn,
)


async def type_cards(  # type: ignore[no-untyped-def]
    pilot, app: BigTwoApp, seat: int, text: str, *, by_keys: bool = False
) -> None:
    """Fill a seat's line of the custom deal form: key by key with ``by_keys``, else the
    whole text at once, as a paste puts it (the form reads the field's value either way)."""
    field = app.screen.query_one(f"#cards-{seat}", Input)
    field.focus()
    field.value = ""
    await pilot.pause()
    if by_keys:
        await pilot.press(*(" " if c == " " else c for c in text))
    else:
        field.insert_text_at_cursor(text)
    await pilot.pause()


def error_text(app: BigTwoApp) -> str:
    return str(app.screen.query_one("#custom-error").render())


async def open_custom_form(pilot, app: BigTwoApp) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("f7")
    await pilot.pause()
    app.screen.query_one("#new-custom").focus()
    await pilot.press("right", "ctrl+s")
    await pilot.pause()
    await pilot.press("y")  # set the game in play aside
    await pilot.pause()
    assert isinstance(app.screen, CustomDealForm)


def test_typed_hands_are_checked_in_words() -> None:
    names = ["You", "Ann", "Bill", "Cat"]
    assert read_hands(["3d 4c", "", "2s", ""], names, 13) == {
        0: parse_cards("3d 4c").mask,
        2: parse_cards("2s").mask,
    }
    with pytest.raises(BigTwoError, match=r"^Ann: 'zz' is not a card"):
        read_hands(["", "3d zz"], names, 13)
    with pytest.raises(BigTwoError, match=r"^Bill: 3♦ is named twice$"):
        read_hands(["", "", "3d 3d"], names, 13)
    # every problem at once ("3d 3d 1x" said only that 3d was named twice)
    with pytest.raises(BigTwoError) as every:
        read_hands(["3d 3d 1x", "", "3d"], names, 13)
    assert str(every.value) == (
        "You: 3♦ is named twice; You: '1x' is not a card (write it like 3d, Th, 10h or 3♦); "
        "3♦ is typed for both You and Bill"
    )
    with pytest.raises(BigTwoError, match=r"^4♣ is typed for both You and Cat"):
        read_hands(["4c", "", "", "5d 4c"], names, 13)
    fourteen = "3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 6d 6c"
    with pytest.raises(BigTwoError, match=r"^You: 14 cards typed; a hand holds 13 cards"):
        read_hands([fourteen], names, 13)


async def test_new_game_chooses_any_seat_for_any_deal(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_custom_form(pilot, app)
        form = app.screen
        assert "For deal" in screen_text(app) and "Bill" in screen_text(app)
        # Bad notation, a card for two seats and too many cards are refused in words, and
        # the form stays open.
        await type_cards(pilot, app, 2, "3d zz", by_keys=True)
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form
        assert "Bill: 'zz' is not a card" in error_text(app)
        await type_cards(pilot, app, 2, "2s 2h 2c")
        await type_cards(pilot, app, 0, "3d 2h")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form and "2♥ is typed for both You and Bill" in error_text(app)
        await type_cards(pilot, app, 0, "3d 3c 3h 3s 4d 4c 4h 4s 5d 5c 5h 5s 6d 6c")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "You: 14 cards typed; a hand holds 13 cards" in error_text(app)
        await type_cards(pilot, app, 0, "3d 3c 3h 3s")
        assert "your cards, 4 of 13 chosen" in screen_text(app)  # the grid shows your seat's cards
        # Deal 2: Ann (a computer) holds the top pair.
        form.query_one("#custom-deal").focus()
        await pilot.press("right")
        await pilot.pause()
        assert form.query_one("#cards-0", Input).value == ""  # deal 2 starts empty
        await type_cards(pilot, app, 1, "2s 2d")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        game = app.game
        assert game is not None
        dealt = game.match.deal.dealt
        assert dealt[0] & parse_cards("3d 3c 3h 3s").mask == parse_cards("3d 3c 3h 3s").mask
        assert dealt[2] & parse_cards("2s 2h 2c").mask == parse_cards("2s 2h 2c").mask
        await play_deal(pilot, app)
        await pilot.press("enter")
        await pilot.pause()
        assert game.deal_number == 2
        assert game.match.deal.dealt[1] & parse_cards("2s 2d").mask == parse_cards("2s 2d").mask


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_between_deals_choose_cards_and_play_a_deal_again(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        first = game.match.deal.dealt
        await play_deal(pilot, app)
        await pilot.pause()
        assert "Cards (c)" in screen_text(app)  # offered on the sheet
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, CustomDealForm)
        assert app.screen.deal_numbers == [2, 3]  # the deals still to come
        await type_cards(pilot, app, 3, "As Ah 2s")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet)  # the sheet comes back
        assert "Cards chosen for deal 2" in message(app)
        await pilot.press("enter")
        await pilot.pause()
        assert game.deal_number == 2
        chosen = parse_cards("As Ah 2s").mask
        assert game.match.deal.dealt[3] & chosen == chosen
        assert game.match.deal.dealt != first
        second = game.match.deal.dealt
        await play_deal(pilot, app)
        await pilot.press("a")  # play this deal again
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert game.deal_number == 3 and game.match.deal.dealt == second


async def test_undo_your_last_play_and_resume_after_a_restart(tmp_path: Path) -> None:
    app = make_app(tmp_path, seed=FOLLOW_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.human_to_act == 0
        before = hand(app).cards
        actions = list(game.mirror.actions)
        await take_turn(pilot, app)
        assert hand(app).cards != before and len(game.mirror.actions) > len(actions) + 1
        await pilot.press("u")
        await pilot.pause()
        assert "Your last play is taken back: your turn again" in message(app)
        assert hand(app).cards == before
        assert game.mirror.actions == actions and game.human_to_act == 0
        shown = screen_text(app)
        await pilot.press("q")
        await pilot.pause()
    again = make_app(tmp_path, seed=FOLLOW_SEED)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeOffer)
        await pilot.press("enter")
        await pilot.pause()
        resumed = again.game
        assert resumed is not None
        assert hand(again).cards == before and resumed.mirror.actions == actions
        assert resumed.human_to_act == 0
        text = screen_text(again)
        said = "Your last play is taken back: your turn again"
        # The table as it was after the undo (but for the message said then).
        assert text == shown.replace(said, " " * len(said))
        # The game's record was stored again without the plays taken back.
        assert again.storage is not None and resumed.match_id is not None
        stored = again.storage.store.load_match(resumed.match_id)
        assert stored.deal.actions == resumed.match.deal.actions
        await take_turn(pilot, again)  # and play goes on from there, and is stored
        assert len(resumed.mirror.actions) > len(actions)
        again.autosave()
        stored = again.storage.store.load_match(resumed.match_id)
        assert stored.deal.actions == resumed.match.deal.actions


async def test_undo_is_off_in_hot_seat_and_says_why(tmp_path: Path) -> None:
    db = tmp_path / "bigtwo.db"
    set_prefs(db, humans=(True, True, False, False))
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, Cover)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert "Undo is off in a hot-seat game" in message(app)
