"""Snapshots of the terminal game at 80×24 for one fixed seeded deal: the table, the score
sheet and the history page. Regenerate with ``pytest tests/test_tui_snapshots.py
--snapshot-update`` after a deliberate change of looks, and look at the SVGs before keeping
them (they live in ``tests/__snapshots__/``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from bigtwo.store.matches import MatchStore
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.dialogs import ScoreSheet
from bigtwo.tui.prefs import Prefs, save_prefs
from bigtwo.tui.render import POSITION_KEYS
from bigtwo.tui.storage import TuiStorage
from bigtwo.tui.widgets import HandView

SEED = 4  # you hold 3♦ and lead


def _app(tmp_path: Path) -> BigTwoApp:
    db = tmp_path / "bigtwo.db"
    store = MatchStore(db)
    save_prefs(TuiStorage(store), Prefs(level="greedy"))
    store.close()
    return BigTwoApp(db_path=db, seed=SEED, delay=0, export_dir=tmp_path)


async def _turn(pilot: Pilot[Any]) -> None:
    """The cheapest legal play by its cards' keys, or a pass."""
    app = pilot.app
    assert isinstance(app, BigTwoApp) and app.game is not None
    view = app.game.view(0)
    if view.legal:
        hand = app.screen.query_one(HandView)
        for card in view.legal[0].cards:
            await pilot.press(POSITION_KEYS[hand.cards.index(int(card))])
        await pilot.press("enter")
    else:
        await pilot.press("p")
    await pilot.pause()


def test_snapshot_table(snap_compare: Any, tmp_path: Path) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for _ in range(3):
            await _turn(pilot)
        await pilot.press("3")  # one card raised, to show the selection

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)


def test_snapshot_score_sheet(snap_compare: Any, tmp_path: Path) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for _ in range(60):
            if isinstance(pilot.app.screen, ScoreSheet):
                break
            await _turn(pilot)
        assert isinstance(pilot.app.screen, ScoreSheet)

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)


def test_snapshot_history(snap_compare: Any, tmp_path: Path) -> None:
    async def before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        for _ in range(2):
            await _turn(pilot)
        await pilot.press("f2")
        await pilot.pause()

    assert snap_compare(_app(tmp_path), terminal_size=(80, 24), run_before=before)
