"""Replaying a game inside the app: from the final score and from History, read from the
game's stored record, stepped through forwards and backwards, by plays and by deals."""

from __future__ import annotations

from pathlib import Path

import pytest

from bigtwo.engine.cards import card_symbols
from bigtwo.match.history import describe
from bigtwo.tui.dialogs import FinalScore
from bigtwo.tui.pages import HistoryPage, ReplayPage
from test_tui import SIZE, make_app, play_deal, screen_text


def page_title(app: object) -> str:
    return str(app.screen.query_one(".page-title").render())  # type: ignore[attr-defined]


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_replay_the_finished_game_from_the_final_score(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=2)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        for _ in range(2):
            await play_deal(pilot, app)
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(app.screen, FinalScore)
        assert "Replay the game (F8)" in screen_text(app)
        match = game.match
        first, second = match.results
        steps = len(first.actions) + 1 + len(second.actions) + 1
        await pilot.press("f8")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage)
        assert f"Replay: 1 of {steps}" in page_title(app)
        text = screen_text(app)
        assert "Deal 1 of 2" in text and "Dealt. Lead:" in text
        # Every hand face up, the computers' too.
        for seat in range(4):
            assert card_symbols(first.dealt[seat]) in text
        await pilot.press("right")
        await pilot.pause()
        assert f"Replay: 2 of {steps}" in page_title(app)
        assert f"Last: {describe(match, first.actions[0])}" in screen_text(app)
        await pilot.press("down")  # the next deal
        await pilot.pause()
        assert f"Replay: {len(first.actions) + 2} of {steps}" in page_title(app)
        assert "Deal 2 of 2" in screen_text(app) and "Dealt." in screen_text(app)
        await pilot.press("left")  # back a step: the end of deal 1, with its score sheet
        await pilot.pause()
        assert "Deal 1 of 2" in screen_text(app) and "*WIN!*" in screen_text(app)
        await pilot.press("up", "up")  # the start of deal 1
        await pilot.pause()
        assert "Replay: 1 of" in page_title(app)
        await pilot.press("left")  # nothing before the start
        await pilot.pause()
        assert "Replay: 1 of" in page_title(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, FinalScore)  # the standings wait meanwhile


async def test_history_replays_only_the_deals_that_are_over(tmp_path: Path) -> None:
    app = make_app(tmp_path, deals=3)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("g", "r")
        await pilot.pause()
        assert isinstance(app.screen, HistoryPage)
        assert "No deal is over yet" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        await play_deal(pilot, app)
        await pilot.press("enter")  # deal 2 begins
        await pilot.pause()
        game = app.game
        assert game is not None and game.deal_number == 2
        await pilot.press("g", "r")
        await pilot.pause()
        assert isinstance(app.screen, ReplayPage)
        await pilot.press("end")
        await pilot.pause()
        text = screen_text(app)
        assert "Deal 1 of 3" in text and "*WIN!*" in text
        await pilot.press("down")  # there is no deal 2 to show: it is still being played
        await pilot.pause()
        assert "Deal 2" not in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HistoryPage)
