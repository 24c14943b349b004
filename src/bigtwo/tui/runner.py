"""The local table's runner: carries the game on between a person's actions, as the server's
``TableRunner`` does for a table on the network.

:class:`LocalTableRunner` asks the game what is due (a computer's move at its deadline, the
game speed's delay after its turn began, 0 plays them at once as tests do; a deal's end; the
cover of a hot-seat game), lets a computer of a slow level think in a worker thread so the
screen answers keys meanwhile, applies the moves, and hands the outcome to its screen (a
redraw, a message, an automatic pass said in words) and to the app (the score sheet, the
cover, a save whenever a person is to act). A network table passes through it too, but
there the server moves the game and nothing is due here. The one call on the computers'
thinking is :func:`think_in_a_thread`, kept apart so that it can be swapped. The runner
never draws and never reads keys: it must not query widgets or import a screen or the app.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from textual.css.query import NoMatches

from ..engine.errors import BigTwoError
from ..service import local
from .controller import GameController
from .mirrored import shown_names

if TYPE_CHECKING:
    from textual.timer import Timer

    from .host import TableHost
    from .seating import Game


class RunnerScreen(Protocol):
    """The screen a runner hands the game's outcome to (the table screen)."""

    @property
    def bigtwo(self) -> TableHost: ...

    @property
    def drawn(self) -> bool: ...

    @property
    def on_top(self) -> bool: ...

    def redraw(self) -> None: ...

    def say(self, message: str, kind: str = "info") -> None: ...

    def hide_hand(self) -> None: ...

    def set_timer(self, delay: float, callback: Callable[[], Any]) -> Timer: ...

    def run_worker(self, work: Any, *, group: str, exit_on_error: bool) -> Any: ...


@dataclass(frozen=True, slots=True)
class LocalThought:
    """A computer's decision, made in a worker thread: ``apply`` makes it at the table;
    ``paced`` waits out the rest of the computer's pause first (else it is made at once)."""

    apply: Callable[[], object]
    paced: bool


def think_in_a_thread(game: Game, request: Any) -> LocalThought:
    """The computers' thinking (run in a worker thread, never on the screen's loop): the
    decision of the computer ``request`` names, as the step that makes it at ``game``. A
    move of Big 2 RevolutioN is shown after the same pause as the others' moves; a move of
    a normal deal at once, its thinking having taken the pause."""
    answer, bot = local.think(request)
    kind = game.kind
    return LocalThought(
        lambda: kind.take_thought(game, request, answer, bot), paced=kind.paced_thoughts
    )


class LocalTableRunner:
    """Paces one table's game for one screen: see the module docstring."""

    def __init__(self, screen: RunnerScreen) -> None:
        self.screen = screen
        self.game: Game | None = None
        self._timer: Timer | None = None
        self._thinking: object | None = None  # the decision a worker thread is making
        # A revolution computer's move thought in its thread, shown once its pause is over.
        self._thought: Callable[[], object] | None = None
        self.deferred = False  # a page was open when the game was due: carry on once back

    def attach(self, game: Game) -> None:
        """Run ``game`` from now on; what was pending for the one before is dropped."""
        self.stop_timer()
        self.forget_thinking()
        self.game = game

    def forget_thinking(self) -> None:
        """A computer thinking about the position of before (an undo, another game) is not
        waited for: its move is dropped when it comes back."""
        self._thinking = None
        self._thought = None

    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def advance(self) -> None:
        """Carry the game on until a person must act, a dialog is due, or a timer is set."""
        game = self.game
        screen = self.screen
        if game is None or self._timer is not None:
            return
        if not screen.drawn or not screen.on_top:
            self.deferred = True  # a page is open: carry on when the table is back
            return
        self.deferred = False
        if self._thought is not None:  # its pause is over (or f hurried it)
            apply, self._thought = self._thought, None
            self._thinking = None
            self.guarded(apply)  # nothing when the table moved on meanwhile
        if game.deal_over:
            self.note_autopass()
            screen.redraw()
            screen.bigtwo.deal_finished()
            return
        if game.computer_to_act:
            request = game.think_request()
            if request is not None:
                self._think(request)
                screen.redraw()
                return
            wait = game.deadline(screen.bigtwo.turn_delay())
            if wait is None or wait <= 0:
                self.computers_now()
            else:
                screen.redraw()
                self._timer = screen.set_timer(wait, self._tick)
            return
        if game.needs_cover():
            screen.hide_hand()
            seat = game.cover_for()  # the person a counter window asks, or whose turn it is
            screen.bigtwo.show_cover(game.turn if seat is None else seat)
            return
        screen.bigtwo.autosave()
        self.note_autopass()
        screen.redraw()

    def skip(self) -> None:
        """``f``: the computers' wait is skipped, their moves made now."""
        game = self.game
        if game is None:
            return
        self.stop_timer()
        if game.computer_to_act:
            self.computers_now()
        else:
            self.advance()

    def _tick(self) -> None:
        self._timer = None
        game = self.game
        if game is None:
            return
        if not self.screen.on_top:
            self.deferred = True
            return
        self.guarded(game.computer_step)
        self.note_autopass()
        self.screen.redraw()
        self.advance()

    def _think(self, request: Any) -> None:
        """A computer of a slow level decides in a worker thread; its move is applied when
        it comes back (dropped if the table has moved on meanwhile)."""
        key = (request.deal, request.state_v, request.seat)
        if self._thinking == key:
            return  # already thinking about this position
        self._thinking = key
        game = self.game
        assert game is not None
        screen = self.screen

        async def decide() -> None:
            thought = await asyncio.to_thread(think_in_a_thread, game, request)
            if self._thinking != key or self.game is not game:
                return
            if thought.paced:
                # Shown after the same pause as the others' moves (advance applies it).
                self._thought = thought.apply
                assert isinstance(game, GameController)
                wait = game.thinking_wait(screen.bigtwo.turn_delay())
                if wait > 0 and self._timer is None:
                    self._timer = screen.set_timer(wait, self._thought_due)
                    return
                if screen.drawn:
                    self.advance()
                return
            self._thinking = None
            self.guarded(thought.apply)
            if not screen.drawn:
                return
            try:
                self.note_autopass()
                screen.redraw()
                self.advance()
            except NoMatches:  # the app is closing under us: the move is made and kept
                pass

        screen.run_worker(decide(), group="think", exit_on_error=False)

    def _thought_due(self) -> None:
        self._timer = None
        self.advance()

    def computers_now(self) -> None:
        game = self.game
        assert game is not None
        self.guarded(game.run_computers)
        self.advance()

    def note_autopass(self) -> None:
        game = self.game
        if game is not None and game.last_auto:
            action = game.last_auto[-1]
            name = shown_names(game.names, hot_seat=game.hot_seat, viewer=game.viewer)[action.seat]
            self.screen.say(f"{name} passed automatically: {action.reason}")
            game.last_auto = []

    def guarded(self, step: Any) -> Any:
        """Run a game step; an engine refusal becomes a message, never a traceback."""
        try:
            return step()
        except BigTwoError as exc:
            self.screen.say(str(exc), "error")
            return None
