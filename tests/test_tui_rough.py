"""More of the terminal game's rough edges a new player met (issue 39): the custom deal form,
a terminal too small for any screen, and the seat boxes of a network table. Each test drives
the app with Textual's Pilot, or calls the piece it checks, and fails without its fix.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.app import App, ComposeResult
from textual.widgets import Input

from bigtwo.client import TableClient
from bigtwo.tui.dialogs import ResumeOffer
from bigtwo.tui.forms import CardGrid, CustomDealForm
from bigtwo.tui.netgame import NetGame
from bigtwo.tui.pages import Page
from bigtwo.tui.table import TableScreen
from bigtwo.tui.widgets import SeatPanel
from test_tui import SIZE, make_app, screen_text
from test_tui_custom import error_text, open_custom_form, type_cards


# -- item 10: the custom deal form ---------------------------------------------------------------
async def test_the_focused_field_of_the_custom_deal_form_is_marked(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_custom_form(pilot, app)
        form = app.screen
        focused, other = form.query_one("#cards-1", Input), form.query_one("#cards-2", Input)
        focused.focus()
        await pilot.pause()
        assert focused.styles.background != other.styles.background
        # The grid's cursor shows only while the grid has the focus.
        grid = form.query_one(CardGrid)
        assert "grey35" not in repr(grid.render())
        grid.focus()
        await pilot.pause()
        assert "grey35" in repr(grid.render())
        assert grid.styles.background != form.styles.background


async def test_the_grid_shows_whose_each_card_typed_is(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_custom_form(pilot, app)
        await type_cards(pilot, app, 1, "2s")  # Ann's
        await type_cards(pilot, app, 2, "3d")  # Bill's
        await type_cards(pilot, app, 0, "4c")  # yours: the grid picks for you
        rows = {line.split()[0]: line for line in screen_text(app).splitlines() if line.strip()}
        assert rows["♠"].rstrip().endswith("Ann")  # 2♠, the last column, is Ann's
        assert rows["♦"].split()[1] == "Bil"  # 3♦, the first, Bill's
        assert "[4]" in rows["♣"]  # your own card, picked
        said = str(app.screen.query_one("#custom-count").render())
        assert "A card typed for another seat shows whose it is" in said
        # Picking Ann's card for you is refused in words; the grid stays as it was.
        grid = app.screen.query_one(CardGrid)
        grid.focus()
        await pilot.press("up", "up", "up", "left", "space")
        await pilot.pause()
        assert "2♠ is typed for Ann: take it off Ann's line first" in error_text(app)
        assert app.screen.query_one("#cards-0", Input).value == "4c"
    from bigtwo.tui.forms import seat_marks  # new with the marks

    assert seat_marks(["You", "Ann", "Bill", "Cat"]) == ["You", "Ann", "Bil", "Cat"]
    assert seat_marks(["Player 1", "Player 2", "Pam", "Lee"]) == ["P1", "P2", "P3", "L4"]


async def test_every_wrong_deal_is_reported_at_once(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_custom_form(pilot, app)
        form = app.screen
        assert isinstance(form, CustomDealForm)
        await type_cards(pilot, app, 0, "3d zz")
        form.query_one("#custom-deal").focus()
        await pilot.press("right")
        await pilot.pause()
        await type_cards(pilot, app, 1, "2s 2s")
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is form
        said = error_text(app)
        assert (
            "Deal 1: You: 'zz' is not a card" in said and "Deal 2: Ann: 2♠ is named twice" in said
        )


# -- item 11: a terminal too small, on every screen ----------------------------------------------
async def test_every_screen_says_at_once_the_terminal_is_too_small(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("q")  # keep a game to resume
        await pilot.pause()
    again = make_app(tmp_path)
    async with again.run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        assert isinstance(again.screen, ResumeOffer)
        text = screen_text(again)
        assert "too small" in text and "60 x 20" in text
        assert "Continue the game" not in text  # no dialog drawn cut short
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        text = screen_text(again)
        assert "too small" not in text and "Continue the game" in text
        await pilot.press("enter")  # the dialog still answers its keys
        await pilot.pause()
        assert isinstance(again.screen, TableScreen)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(again.screen, Page)
        await pilot.resize_terminal(64, 18)
        await pilot.pause()
        assert "too small" in screen_text(again) and "Help" not in screen_text(again)
        await pilot.press("escape")  # the table under it says so too
        await pilot.pause()
        assert isinstance(again.screen, TableScreen)
        assert "too small for the table: 64 x 18" in screen_text(again)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert "too small" not in screen_text(again)


async def test_a_form_grows_back_with_its_field_still_focused(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await open_custom_form(pilot, app)
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        assert "too small" in screen_text(app) and "Custom deal" not in screen_text(app)
        await pilot.resize_terminal(*SIZE)
        await pilot.pause()
        assert "too small" not in screen_text(app) and "Custom deal" in screen_text(app)
        await pilot.press("3", "d")
        await pilot.pause()
        assert app.screen.query_one("#cards-0", Input).value == "3d"


# -- item 8: a network table's seat boxes and its link ---------------------------------------------
class _Seats(App[None]):
    def compose(self) -> ComposeResult:
        yield SeatPanel(id="side")

    def on_mount(self) -> None:
        self.query_one(SeatPanel).styles.width = 19  # a side seat's box


async def test_a_side_seat_box_keeps_the_score_on_the_name_line_and_what_they_did() -> None:
    app = _Seats()
    async with app.run_test(size=(40, 8)) as pilot:
        await pilot.pause()
        panel = app.query_one(SeatPanel)
        panel.show(1, "Bartholomew", 13, "passed", 0, turn=False, ascii_only=False)
        await pilot.pause()
        lines = [line.strip("│ ") for line in screen_text(app).splitlines()[1:4]]
        assert lines[0].endswith("+0") and "Barth" in lines[0]
        assert lines[2] == "passed"


def test_no_answer_from_the_server_is_not_said_after_reconnected() -> None:
    async def scene() -> list[str]:
        game = NetGame(TableClient("ws://127.0.0.1:9/ws/TEST", "token"))
        said: list[str] = []
        game.refused = said.append
        answer: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        game._connection("lost")
        game._send(answer)  # an action sent while the link was down
        await asyncio.sleep(0)
        game._connection("back")
        answer.set_exception(TimeoutError())  # its wait ends only after the link is back
        for _ in range(3):
            await asyncio.sleep(0)
        return said

    said = asyncio.run(scene())
    assert "No answer from the server" not in said and said[-1:] == [""]
