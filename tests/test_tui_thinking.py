"""Computers never think on the screen's loop: the app answers keys while a computer thinks."""

from __future__ import annotations

import random
import threading
from pathlib import Path

import pytest

from bigtwo.bots.base import Bot
from bigtwo.engine.plays import Play
from bigtwo.match.views import TableView
from bigtwo.tui.controller import GameSetup, SeatSetup
from bigtwo.tui.dialogs import Menu
from bigtwo.tui.table import TableScreen
from test_tui import SIZE, make_app, take_turn

RELEASE = threading.Event()
THINKING = threading.Event()


class Slow(Bot):
    """A deliberately slow computer: it thinks until the test lets it go (at most 10 s)."""

    name = "slow-test"

    def choose(self, view: TableView, rng: random.Random) -> Play | None:
        THINKING.set()
        RELEASE.wait(10)
        return view.legal[0] if view.legal else None


async def test_the_app_answers_keys_while_a_slow_computer_thinks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bigtwo.bots

    bigtwo.bots.bot_names()  # every level registered first, so the slow one is only added
    monkeypatch.setitem(bigtwo.bots._FACTORIES["bigtwo"], "slow-test", Slow)  # for this test only
    RELEASE.clear()
    THINKING.clear()
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        seats = (SeatSetup("You", True), *(SeatSetup(n, False, "slow-test") for n in "ABC"))
        app.start_game(GameSetup(seats=seats, seed=4, deals=1))  # you lead: seed 4
        await pilot.pause()
        game = app.game
        assert game is not None and game.human_to_act == 0
        await take_turn(pilot, app)  # now a slow computer is to move
        for _ in range(100):
            if THINKING.is_set():
                break
            await pilot.pause(0.02)
        assert THINKING.is_set() and game.computer_to_act
        moves = len(game.mirror.actions)
        await pilot.press("m")  # the screen answers at once, while the computer thinks
        await pilot.pause()
        assert isinstance(app.screen, Menu)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, TableScreen)
        assert len(game.mirror.actions) == moves and not RELEASE.is_set()
        RELEASE.set()  # the computer decides; its move comes back to the table
        for _ in range(200):
            if len(game.mirror.actions) > moves:
                break
            await pilot.pause(0.02)
        assert len(game.mirror.actions) > moves
        assert game.mirror.actions[moves].seat == 1


# A long scenario: run by make test-slow (and CI); make test keeps the quicker tests beside it.
@pytest.mark.slow
async def test_hot_seat_each_person_reads_the_score_sheet_before_the_next_deal(
    tmp_path: Path,
) -> None:
    from bigtwo.tui.dialogs import Cover, ScoreSheet
    from test_tui import LEAD_SEED, screen_text, set_prefs

    set_prefs(tmp_path / "bigtwo.db", humans=(True, False, True, False), names=NAMES)
    app = make_app(tmp_path, seed=LEAD_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None and game.hot_seat
        for _ in range(300):
            if isinstance(app.screen, ScoreSheet):
                break
            if isinstance(app.screen, Cover):
                await pilot.press("x")
                await pilot.pause()
                continue
            await take_turn(pilot, app)
        assert isinstance(app.screen, ScoreSheet)
        assert "Ann, press Next deal" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ScoreSheet) and game.deal_number == 1
        assert "Cy, press Next deal" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert game.deal_number == 2 and game.local.between is None


NAMES = ("Ann", "Bo", "Cy", "Di")


async def test_play_this_deal_again_from_the_score_sheet(tmp_path: Path) -> None:
    from bigtwo.tui.dialogs import ScoreSheet
    from test_tui import LEAD_SEED, play_deal

    app = make_app(tmp_path, seed=LEAD_SEED)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        dealt = game.match.deal.dealt
        await play_deal(pilot, app)
        assert isinstance(app.screen, ScoreSheet)
        await pilot.press("a")
        await pilot.pause()
        assert game.deal_number == 2 and game.match.deal.dealt == dealt
