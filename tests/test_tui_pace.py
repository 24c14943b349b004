"""Pace in the terminal: a counter window a person can answer, plays that stay on screen long
enough to be read, and the last trick on demand. Textual's Pilot presses the keys; the app's
clock is a test's own, moved by hand, so what is due when is exact.
"""

from __future__ import annotations

from pathlib import Path

from textual.pilot import Pilot

from bigtwo.engine.revolution import Move
from bigtwo.tui.app import BigTwoApp
from test_tui import SIZE, message, status
from test_tui_revolution import Person, revolution_app


async def _until_asked(pilot: Pilot[None], app: BigTwoApp) -> None:
    """Play as the test's person does until a counter window asks you (Bill's exchange on
    the seed the revolution tests use)."""
    person = Person()
    game = app.game
    assert game is not None
    for _ in range(60):
        if game.mirror.asked:
            return
        await person.act(pilot, app)
    raise AssertionError("no counter window asked you")


async def test_a_key_pressed_while_the_question_shows_counts(tmp_path: Path) -> None:
    """The clock starts when the question is drawn; at 0 the question still shows for a
    moment, and y then still counters (it used to be declined under the key)."""
    now = [1.0]
    app = revolution_app(tmp_path, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await _until_asked(pilot, app)
        game = app.game
        assert game is not None and app.table is not None
        assert status(app).startswith("5s  ")
        # The clock is the screen's from the first time it showed the question.
        start = app.table.part._asked_since  # type: ignore[attr-defined]
        assert list(start.values()) == [1.0]
        now[0] = 1.0 + 5.4  # the window's 5 s are over, the question still on screen
        app.table._counter_clock()
        await pilot.pause()
        assert game.mirror.asked and status(app).startswith("0s  ")
        assert "Time is up" not in message(app)
        await pilot.press("y")
        await pilot.pause()
        assert any(m.move is Move.COUNTER and m.seat == 0 for m in game.mirror.moves)


async def test_a_closed_window_says_so(tmp_path: Path) -> None:
    """Once the clock has shown 0 for a second the function stands for you; a key after that
    hears that the window has closed, and how it ended."""
    now = [1.0]
    app = revolution_app(tmp_path, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await _until_asked(pilot, app)
        game = app.game
        assert game is not None and app.table is not None
        now[0] += 6.1
        app.table._counter_clock()
        await pilot.pause()
        assert "Time is up: Bill's function stands" in message(app)
        assert not game.mirror.asked
        await pilot.press("y")
        await pilot.pause()
        assert "The counter window has closed" in message(app)
        assert "There is no function" not in message(app)


async def test_a_short_window_is_long_enough_for_a_person(tmp_path: Path) -> None:
    """A window of 2 s (the question the table put says so) gives a person at one screen
    5 s all the same: it is still open 3 s after its question was drawn."""
    now = [1.0]
    app = revolution_app(tmp_path, clock=lambda: now[0])
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await _until_asked(pilot, app)
        game = app.game
        assert game is not None and app.table is not None and game.mirror.prompt
        game.mirror.prompt["seconds"] = 2
        app.table.part._asked_since.clear()  # type: ignore[attr-defined]
        app.table.redraw()
        assert status(app).startswith("5s  ")
        now[0] += 3
        app.table._counter_clock()
        await pilot.pause()
        assert game.mirror.asked and status(app).startswith("2s  ")
