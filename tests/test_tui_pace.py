"""Pace in the terminal: a counter window a person can answer, plays that stay on screen long
enough to be read, and the last trick on demand. Textual's Pilot presses the keys; the app's
clock is a test's own, moved by hand, so what is due when is exact.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot

from bigtwo.engine.cards import parse_cards
from bigtwo.engine.revolution import Move
from bigtwo.tui.app import BigTwoApp
from bigtwo.tui.controller import GameController, GameSetup, SeatSetup
from bigtwo.tui.mirrored import last_trick_of
from bigtwo.tui.pages import Page
from bigtwo.tui.seating import trick_number
from test_tui import SIZE, make_app, message, screen_text, status, take_turn
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


# -- plays that stay on screen --------------------------------------------------------------------
def _game(clock: list[float]) -> GameController:
    seats = tuple(
        SeatSetup(name, human, "greedy")
        for name, human in zip(
            ("You", "Ann", "Bill", "Cat"), (True, False, False, False), strict=True
        )
    )
    return GameController(GameSetup(seats=seats, seed=4), clock=lambda: clock[0])


def test_a_trick_won_stays_on_the_table_longer_than_a_play() -> None:
    """Each computer play waits the pace after the move before it; the lead after a trick
    won waits three paces, so the trick's last plays (and an automatic pass) can be read."""
    now = [10.0]
    game = _game(now)
    game.play(0, parse_cards("3d").mask)
    assert game.computer_to_act and game.deadline(0.6) == pytest.approx(0.6)
    game.run_computers()
    for _ in range(40):
        trick, finished = game.trick()
        if finished and game.computer_to_act:
            break
        if game.human_to_act == 0:
            game.pass_(0)
        else:
            game.computer_step()
    else:
        raise AssertionError("no computer was to lead after a trick")
    assert trick[-1].trick_over
    assert game.deadline(0.6) == pytest.approx(1.8)
    assert game.deadline(0.0) == 0.0  # no pace: no wait (f, and the tests' tables)
    now[0] += 1.0
    assert game.deadline(0.6) == pytest.approx(0.8)


async def test_l_shows_the_last_trick(tmp_path: Path) -> None:
    """``l`` shows the last trick won, every play and pass and who took it; before the first
    trick is won it says so."""
    app = make_app(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert "No trick has been won yet in this deal" in message(app)
        game = app.game
        assert game is not None
        for _ in range(40):
            if trick_number(game.mirror.actions) > 1 or game.trick()[1]:
                break
            await take_turn(pilot, app)
        actions, number = last_trick_of(game.mirror.actions)
        assert number == 1 and actions
        names = game.names
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, Page)
        assert "The last trick: trick 1 of deal 1" in screen_text(app)
        text = str(app.screen.query_one("#page-body").render())
        taker = names[[a.seat for a in actions if a.play is not None][-1]]
        assert f"{taker} took the trick" in text or "You took the trick" in text
        for a in actions:
            if a.play is not None:
                assert all(card in text for card in a.play.symbols().split())
        assert text.count("pass") >= sum(1 for a in actions if a.play is None)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is app.table


async def test_l_shows_the_last_trick_of_a_revolution_hand(tmp_path: Path) -> None:
    """In a hand of Big 2 RevolutioN ``l`` shows the last trick's actions as the trick does."""
    app = revolution_app(tmp_path)
    person = Person()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        game = app.game
        assert game is not None
        for _ in range(60):
            if last_trick_of(game.mirror.moves)[1]:
                break
            await person.act(pilot, app)
        moves, number = last_trick_of(game.mirror.moves)
        assert number >= 1 and moves
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, Page)
        assert f"The last trick: trick {number} of deal 1" in screen_text(app)
        text = str(app.screen.query_one("#page-body").render())
        names = game.names
        first = moves[0]
        assert text.startswith(names[first.seat][:10])
