"""The table screen: opponents around, the trick in the middle, your hand at the bottom.

It turns keys and clicks into calls on the :class:`~bigtwo.tui.controller.GameController`,
redraws the widgets from the mirror of the seat on show, and paces the computer players:
each computer move is scheduled for its deadline, the game speed's delay after its turn
began (0 plays them at once, as tests do), and ``f`` or Enter skips the wait. A computer of a
slow level thinks in a worker thread, so the screen answers keys while it thinks. When a deal ends or a person must take over in a hot-seat game it asks the app
for the score sheet or the cover. Every refused action shows the engine's reason in words.

A hand of Big 2 RevolutioN is drawn on the same table: the Gathering and the deck count in
the trick's frame, the revolution marker beneath it, each player's normal and Revolution
counts, Revolution cards in their own colour with a star and each Character's icon. The
status line asks what is to be done: a counter window's question with its clock (``y``
counters, ``x`` lets it stand), the draw after a pass (``d`` the deck, ``1``-``4`` the
Gathering, Enter stops), an exchange's player (their number); ``a`` activates the raised
Character card and ``k`` shows the reference card of the five functions.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Input, Static

from ..engine.cards import CardIndex, Mask
from ..engine.errors import BigTwoError
from ..engine.revolution import End, Move, Phase, RevolutionView
from ..engine.revolution_cards import REVOLUTION_BASE, ids
from .render import POSITION_KEY_NAMES, REVOLUTION_TEXT, avatar, cards_text, in_suit_order
from .revolution import (
    MARKER,
    card_words,
    function_of,
    functions_in,
    gathering_text,
    move_line,
    trick_moves,
)
from .widgets import HandView, SeatPanel, TooSmall, TrickView, sort_cards
from .words import count, does, whose

if TYPE_CHECKING:
    from collections.abc import Callable

    from .app import BigTwoApp
    from .controller import GameController
    from .netgame import NetGame

    Game = GameController | NetGame

# Where the other seats sit, in the order they play after you (next player on your right,
# the direction Big Two is played in Hong Kong).
PLACES = {2: ("top",), 3: ("right", "left"), 4: ("right", "top", "left")}
# The smallest terminal the table is drawn in whole: two side seats and a trick between them,
# a hand of up to 17 cards four columns each, and every row of the table.
MIN_SIZE = (70, 22)


class TableButton(Button, can_focus=False):
    """A button for the mouse only: with nothing focused, Enter always means Play (a focused
    button would take Enter for itself)."""


class ChatLine(Input):
    """The line to type chat in: focused only by ``/``, so the table keys stay the table's."""

    can_focus = False

    def open(self) -> None:
        self.can_focus = True
        self.focus()

    def shut(self) -> None:
        self.can_focus = False
        self.screen.set_focus(None)


class TableScreen(Screen[None]):
    """The game table. The app attaches a game; the screen drives it until a dialog is due."""

    AUTO_FOCUS = None

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "play", "Play"),
        Binding("p", "pass_turn", "Pass"),
        Binding("c,escape", "clear", "Clear"),
        Binding("h", "hint", "Hint"),
        Binding("u", "undo", "Undo", show=False),
        Binding("r", "sort('rank')", "Rank", show=False),
        Binding("s", "sort('suit')", "Suit", show=False),
        Binding("left", "cursor(-1)", "Left", show=False),
        Binding("right", "cursor(1)", "Right", show=False),
        Binding("space", "toggle_cursor", "Pick", show=False),
        Binding("down", "group('rank')", "Same rank", show=False),
        Binding("up", "group('suit')", "Same suit", show=False),
        Binding("f", "skip", "Skip wait", show=False),
        Binding("m", "menu", "Menu"),
        Binding("f1,question_mark", "open('help')", "Help"),
        Binding("f2,g", "open('history')", "History", show=False),
        Binding("f3,t", "open('tracker')", "Played", show=False),
        Binding("f4,o", "open('scores')", "Scores", show=False),
        Binding("f5,i", "open('stats')", "Stats", show=False),
        Binding("f6,comma", "open('prefs')", "Prefs", show=False),
        Binding("f7,n", "open('new')", "New game", show=False),
        Binding("q", "open('quit')", "Quit"),
        Binding("slash", "chat", "Chat", show=False),
        # Big 2 RevolutioN only (see check_action)
        Binding("a", "activate", "Activate", show=False),
        Binding("y", "counter", "Counter", show=False),
        Binding("x", "decline", "Let stand", show=False),
        Binding("d", "draw_deck", "Draw", show=False),
        Binding("k,f9", "reference", "Functions"),
        *(Binding(key, f"pick({i})", show=False) for i, key in enumerate(POSITION_KEY_NAMES)),
    ]

    DEFAULT_CSS = """
    TableScreen { background: $background; }
    #topbar { height: 1; background: $primary-darken-2; padding: 0 1; }
    #north { height: 5; align: center top; }
    #north SeatPanel { width: 34; }
    #middle { height: 1fr; }
    #middle SeatPanel { width: 19; margin-top: 1; padding: 0 0 0 1; }
    #trick { width: 1fr; }
    #status { height: 1; padding: 0 1; text-style: bold; }
    #message { height: auto; max-height: 2; padding: 0 1; }
    TableScreen.-too-small > * { display: none; }
    TableScreen.-too-small > TooSmall { display: block; }
    #chat { height: auto; display: none; }
    TableScreen.-talks #chat { display: block; }
    #chat-log { height: 2; padding: 0 1; color: $text-muted; }
    #chat-input { height: 1; border: none; padding: 0 1; }
    #buttons { height: 1; align: center middle; }
    #buttons Button { margin: 0 1; min-width: 6; }
    """

    def __init__(self, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.ascii_only = ascii_only
        self.game: Game | None = None
        self._timer: Timer | None = None
        self._thinking: object | None = None  # the decision a worker thread is making
        # A revolution computer's move thought in its thread, shown once its pause is over.
        self._thought: Callable[[], object] | None = None
        self._deferred = False
        self.message = Text()
        self._message_trick: tuple[int, int] | None = None
        self._hinted_pass = False  # the hint on show says pass: Enter with nothing raised passes
        # Big 2 RevolutioN: an exchange waiting for its player (the A*, the card given), and
        # when each counter window was first put to the person on show (its clock).
        self._giving: tuple[int, int] | None = None
        self._asked_since: dict[tuple[int, int, int, int], float] = {}
        self._declined_late: tuple[int, int, int, int] | None = None

    @property
    def bigtwo(self) -> BigTwoApp:
        from .app import BigTwoApp

        assert isinstance(self.app, BigTwoApp)
        return self.app

    def compose(self) -> ComposeResult:
        yield TooSmall(id="too-small")
        yield Static(id="topbar")
        with Horizontal(id="north"):
            yield SeatPanel(id="seat-top")
        with Horizontal(id="middle"):
            yield SeatPanel(id="seat-left")
            yield TrickView(id="trick")
            yield SeatPanel(id="seat-right")
        yield Static(id="status")
        yield Static(id="message")
        yield HandView(ascii_only=self.ascii_only, id="hand")
        with Horizontal(id="buttons"):
            yield TableButton("Play", id="btn-play", compact=True, variant="success")
            yield TableButton("Pass", id="btn-pass", compact=True, variant="warning")
            yield TableButton("Clear", id="btn-clear", compact=True)
            yield TableButton("Rank", id="btn-rank", compact=True, tooltip="Sort by rank")
            yield TableButton("Suit", id="btn-suit", compact=True, tooltip="Sort by suit")
            yield TableButton("Hint", id="btn-hint", compact=True)
            yield TableButton("Menu", id="btn-menu", compact=True)
        with Vertical(id="chat"):
            yield Static(id="chat-log")
            yield ChatLine(placeholder="/ to chat: type a line, Enter sends", id="chat-input")
        yield Footer()

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-too-small")
        if small:
            self.query_one(TooSmall).say(width, height, MIN_SIZE)

    def on_mount(self) -> None:
        self.set_interval(0.5, self._counter_clock)
        if self.game is not None:
            self.redraw()
            if self._deferred:
                self.call_later(self.advance)

    # -- attaching and drawing -------------------------------------------------------------
    def attach(self, game: Game) -> None:
        self.stop_timer()
        self._thinking = None
        self._thought = None
        self.game = game
        self.message = Text()
        self._giving = None
        self._asked_since = {}
        self.refresh_bindings()  # the footer offers the reference card at a revolution table
        if self.drawn:
            hand = self.hand_view
            hand.selected = set()
            hand.cursor = 0
            self.redraw()

    @property
    def hand_view(self) -> HandView:
        return self.query_one(HandView)

    @property
    def drawn(self) -> bool:
        """Whether the table's widgets are there to draw on: mounted, and not being taken
        down (the app quitting, or the screen leaving) while a callback was still queued."""
        return self.is_mounted and not self._pruning and self.app.is_running

    def redraw(self) -> None:
        game = self.game
        if game is None or not self.drawn:
            return
        self.set_class(game.talks, "-talks")
        if game.talks:
            self.query_one("#chat-log", Static).update(Text("\n".join(game.lines[-2:])))
        if not game.started:
            self._draw_waiting()
            return
        if game.revolution:
            self._redraw_revolution()
            return
        view = game.view()
        n = game.players
        home = game.home
        names = game.names
        prefs = self.bigtwo.prefs

        # Top bar: the game, the deal, and the person at the bottom with their total.
        bar = Text()
        bar.append("Big Two ", Style(bold=True))
        bar.append(f" {game.rules.name} ", Style(reverse=True))
        bar.append(f"  Deal {game.deal_number} of {game.deals}  ")
        if not game.hot_seat or game.viewer is not None:
            bar.append_text(avatar(names[home], home, ascii_only=self.ascii_only))
            bar.append(f" {names[home]} {game.totals[home]:+d}")
            bar.append(f"  {count(view.counts[home], 'card')}", Style(dim=True))
        self.query_one("#topbar", Static).update(bar)

        # Opponents, in play order from the seat after you.
        trick, finished = game.trick()
        passed = {a.seat for a in trick if a.play is None} if not finished else set()
        places = PLACES[n]
        for place in ("top", "left", "right"):
            panel = self.query_one(f"#seat-{place}", SeatPanel)
            panel.set_class(place not in places, "-empty")
        for k, place in enumerate(places, 1):
            seat = (home + k) % n
            panel = self.query_one(f"#seat-{place}", SeatPanel)
            turn = not game.deal_over and view.turn == seat
            status = seat_status(
                game,
                seat,
                turn=turn,
                won=game.deal_over and view.winner == seat,
                passed=seat in passed,
                on_table=view.to_beat is not None and view.to_beat_seat == seat,
            )
            panel.show(
                seat,
                names[seat],
                view.counts[seat],
                status,
                game.totals[seat],
                turn=turn,
                ascii_only=self.ascii_only,
            )

        # The trick: every play and pass since the last lead, with who made it.
        lines = [(names[a.seat], a) for a in trick]
        if game.deal_over:
            footer = does(
                names[view.winner or 0], "is out and wins the deal", "are out and win the deal"
            )
        elif finished:
            footer = does(names[view.turn], "takes the trick and leads", "take the trick and lead")
        elif not trick:
            footer = f"{names[view.turn]} to lead"
            if view.opening is not None:
                footer += f", with {self._card(view.opening)} in the first play"
        else:
            footer = ""
        trick_view = self.query_one(TrickView)
        trick_view.border_title = f"Trick {_trick_number(view.actions)}"
        rows = trick_view.size.height or 6  # content rows (borders excluded)
        trick_view.show(lines, footer, ascii_only=self.ascii_only, rows=rows, rules=game.rules)

        # Whose turn, in the Palm game's words.
        if self._message_trick is not None and self._message_trick != self._trick_now():
            self.message, self._message_trick = Text(), None
        self.query_one("#status", Static).update(self._status_text())
        self.query_one("#message", Static).update(self.message)

        # Your hand.
        hand = self.hand_view
        if not game.humans:
            hand.set_cards([], "You are watching")
        elif game.hot_seat and game.viewer is None:
            hand.set_cards([], "Cards hidden until the next person's turn")
        else:
            hand.set_cards(sort_cards(game.hand(), game.rules, prefs.sort))
        my_turn = self._acting_seat() is not None
        play = self.query_one("#btn-play", Button)
        play.label = "Lead" if my_turn and view.to_beat is None else "Play"
        play.disabled = not my_turn
        self.query_one("#btn-pass", Button).disabled = not my_turn or view.to_beat is None

    def _draw_waiting(self) -> None:
        """A network table before its match: who is to come, and nothing dealt."""
        game = self.game
        assert game is not None
        note = game.connection_note or game.waiting_note()
        self.query_one("#topbar", Static).update(Text(f"Big Two  {game.code}"))
        for place in ("top", "left", "right"):
            self.query_one(f"#seat-{place}", SeatPanel).set_class(True, "-empty")
        self.query_one("#status", Static).update(Text(note, Style(color="yellow")))
        self.query_one("#message", Static).update(self.message)
        self.hand_view.set_cards([], "The cards are dealt when every player is here")
        self.query_one("#btn-play", Button).disabled = True
        self.query_one("#btn-pass", Button).disabled = True

    def _card(self, card: CardIndex) -> str:
        return cards_text(Mask(1 << card), ascii_only=self.ascii_only, colour=False).plain

    def _status_text(self) -> Text:
        game = self.game
        assert game is not None
        view = game.view()
        names = game.names
        text = Text()
        if game.connection_note:
            text.append(game.connection_note, Style(color="bright_red", bold=True))
            return text
        if game.deal_over:
            text.append(
                does(names[view.winner or 0], "wins the deal", "win the deal"),
                Style(color="yellow"),
            )
            return text
        seat = view.turn
        if game.is_human(seat) and (seat == game.viewer or not game.hot_seat):
            who = f", {names[seat]}" if game.hot_seat else ""
            if view.to_beat is None:
                text.append(f"Your Lead{who}", Style(color="bright_green", bold=True))
                if view.opening is not None:
                    text.append(f"  - include {self._card(view.opening)}", Style(bold=False))
            else:
                text.append(f"Your Play{who}", Style(color="bright_green", bold=True))
                text.append(f"  - beat {whose(names[view.to_beat_seat])} ", Style(bold=False))
                text.append_text(
                    cards_text(view.to_beat.mask, ascii_only=self.ascii_only, rules=game.rules)
                )
            return text
        if game.is_human(seat):
            text.append(f"Next player's turn: {names[seat]}")
            return text
        text.append(f"{whose(names[seat], capital=True)} turn", Style(bold=True))
        if game.computer_to_act:
            text.append("  (f: skip the wait)", Style(dim=True))
        return text

    def say(self, message: str, kind: str = "info") -> None:
        self._hinted_pass = False  # a new message replaces the hint
        if self.game is not None:  # cards in the rules' suit order, as the hand shows them
            message = in_suit_order(message, self.game.rules)
        colour = {"error": "bright_red", "hint": "cyan", "info": "yellow"}.get(kind, "yellow")
        self.message = Text(message, Style(color=colour, bold=kind == "error"))
        # A notice (such as an autopass) is about the trick it happened in: it fades when
        # the next trick begins. Errors and hints stay until your next action.
        self._message_trick = self._trick_now() if kind == "info" else None
        if self.drawn:
            self.query_one("#message", Static).update(self.message)

    def _trick_now(self) -> tuple[int, int] | None:
        if self.game is None:
            return None
        return (self.game.deal_number, _trick_number(self.game.mirror.actions))

    # -- pacing the game ---------------------------------------------------------------------
    def stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def advance(self) -> None:
        """Carry the game on until a person must act, a dialog is due, or a timer is set."""
        game = self.game
        if game is None or self._timer is not None:
            return
        if not self.drawn or self.app.screen is not self:
            self._deferred = True  # a page is open: carry on when the table is back
            return
        self._deferred = False
        if self._thought is not None:  # its pause is over (or f hurried it)
            apply, self._thought = self._thought, None
            self._thinking = None
            self._guarded(apply)  # nothing when the table moved on meanwhile
        if game.deal_over:
            self._note_autopass()
            self.redraw()
            self.bigtwo.deal_finished()
            return
        if game.computer_to_act:
            request = game.think_request()
            if request is not None:
                self._think(request)
                self.redraw()
                return
            wait = game.deadline(self.bigtwo.turn_delay())
            if wait is None or wait <= 0:
                self._computers_now()
            else:
                self.redraw()
                self._timer = self.set_timer(wait, self._tick)
            return
        if game.needs_cover():
            self.hand_view.set_cards([], "")
            seat = game.cover_for() if game.revolution else game.turn
            self.bigtwo.show_cover(game.turn if seat is None else seat)
            return
        self.bigtwo.autosave()
        self._note_autopass()
        self.redraw()

    def _tick(self) -> None:
        self._timer = None
        game = self.game
        if game is None:
            return
        if self.app.screen is not self:
            self._deferred = True
            return
        self._guarded(game.computer_step)
        self._note_autopass()
        self.redraw()
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

        async def decide() -> None:
            from ..service.local import think
            from .controller import GameController

            answer, bot = await asyncio.to_thread(think, request)
            if isinstance(request.view, RevolutionView):
                assert isinstance(game, GameController)
                if self._thinking != key or self.game is not game:
                    return
                # Shown after the same pause as the others' moves (advance applies it).
                self._thought = lambda: game.revolution_thought(request, answer)
                wait = game.thinking_wait(self.bigtwo.turn_delay())
                if wait > 0 and self._timer is None:
                    self._timer = self.set_timer(wait, self._thought_due)
                    return
                if self.drawn:
                    self.advance()
                return
            if self._thinking != key or self.game is not game:
                return
            self._thinking = None
            self._guarded(lambda: game.thought(request, answer, bot))
            if not self.drawn:
                return
            try:
                self._note_autopass()
                self.redraw()
                self.advance()
            except NoMatches:  # the app is closing under us: the move is made and kept
                pass

        self.run_worker(decide(), group="think", exit_on_error=False)

    def _thought_due(self) -> None:
        self._timer = None
        self.advance()

    def _computers_now(self) -> None:
        game = self.game
        assert game is not None
        self._guarded(game.run_computers)
        self.advance()

    def _note_autopass(self) -> None:
        game = self.game
        if game is not None and game.last_auto:
            action = game.last_auto[-1]
            self.say(f"{game.names[action.seat]} passed automatically: {action.reason}")
            game.last_auto = []

    def _guarded(self, step: Any) -> Any:
        """Run a game step; an engine refusal becomes a message, never a traceback."""
        try:
            return step()
        except BigTwoError as exc:
            self.say(str(exc), "error")
            return None

    def on_screen_resume(self) -> None:
        if self.game is not None:
            try:
                self.redraw()
            except NoMatches:  # resumed while the app takes the screen down: nothing to draw
                return
            if self._deferred:
                self.advance()

    # -- your actions ------------------------------------------------------------------------
    def _acting_seat(self) -> int | None:
        game = self.game
        if game is None:
            return None
        seat = game.human_to_act
        if seat is None or (game.hot_seat and seat != game.viewer):
            return None
        return seat

    def action_play(self) -> None:
        game = self.game
        if game is None:
            return
        if game.revolution and self._drawing() is not None:
            self.action_stop_drawing()
            return
        if game.revolution and self._giving is not None:
            self.say("Give the card to whom? Press the player's number (Esc cancels)", "error")
            return
        if game.revolution and self._viewer_asked() is not None:
            self.say("First answer the function: y counters it, x lets it stand", "error")
            return
        seat = self._acting_seat()
        if seat is None:
            if game.computer_to_act:
                self.action_skip()  # Enter while the computers think: play them out now
            elif game.deal_over:
                self.advance()
            return
        cards = self.hand_view.selection_mask
        if not cards and self._hinted_pass and self._can_pass(seat):
            self.action_pass_turn()  # Enter follows the hint
            return
        if not cards:
            self.say(
                "Select the cards to play first (Space, a click, or the keys under the cards)",
                "error",
            )
            return
        try:
            game.play(seat, cards)
        except BigTwoError as exc:
            self.say(str(exc), "error")
            return
        self.say("")
        self.hand_view.clear()
        self.redraw()
        self.advance()

    def _can_pass(self, seat: int) -> bool:
        game = self.game
        assert game is not None
        if game.revolution:
            return game.revolution_view().can_pass
        return game.view(seat).can_pass

    def action_pass_turn(self) -> None:
        game = self.game
        if game is None:
            return
        if game.revolution and self._drawing() is not None:
            self.action_stop_drawing()
            return
        if game.revolution and self._viewer_asked() is not None:
            self.say("First answer the function: y counters it, x lets it stand", "error")
            return
        seat = self._acting_seat()
        if seat is None:
            self.say("Not your turn" if not game.deal_over else "The deal is over", "error")
            return
        try:
            game.pass_(seat)
        except BigTwoError as exc:
            self.say(str(exc), "error")
            return
        self.say("")
        self.redraw()
        self.advance()

    def action_clear(self) -> None:
        if self._giving is not None:
            self._giving = None
            self.say("The exchange is called off")
            self.redraw()
        self.hand_view.clear()
        if isinstance(self.focused, ChatLine):
            self.focused.shut()  # Esc leaves the chat line

    def action_chat(self) -> None:
        if self.game is not None and self.game.talks:
            self.query_one(ChatLine).open()

    @on(Input.Submitted, "#chat-input")
    def _chat_sent(self, event: Input.Submitted) -> None:
        if self.game is not None:
            self.game.say(event.value)
        event.input.value = ""
        self.query_one(ChatLine).shut()  # Enter plays again

    def action_hint(self) -> None:
        game = self.game
        if game is None:
            return
        if game.revolution:
            self._revolution_hint()
            return
        seat = self._acting_seat()
        if seat is None:
            self.say("Hints are for your turn", "error")
            return
        hint = game.hint(seat)
        if hint.play is None:
            self.hand_view.clear()
        else:
            self.hand_view.select_mask(hint.play.mask)
        passes = hint.play is None and game.view(seat).can_pass
        self.say(f"Hint: {hint.reason}" + ("  (Enter passes)" if passes else ""), "hint")
        self._hinted_pass = passes

    def action_undo(self) -> None:
        """Take back your last play (against computers only; the reason in words if not)."""
        game = self.game
        if game is None:
            return
        why = game.undo_off()
        if why:
            self.say(why, "error")
            return
        self.stop_timer()
        self._thinking = None  # a computer thinking about the old position is not waited for
        self._thought = None
        try:
            game.undo()
        except BigTwoError as exc:
            self.say(str(exc), "error")
            return
        self.hand_view.clear()
        self.say("Your last play is taken back: your turn again")
        self.redraw()
        self.advance()

    def action_sort(self, order: str) -> None:
        self.bigtwo.set_sort(order)
        self.redraw()

    def action_cursor(self, step: int) -> None:
        self.hand_view.move(step)

    def action_toggle_cursor(self) -> None:
        self.hand_view.toggle(self.hand_view.cursor)

    def action_pick(self, index: int) -> None:
        game = self.game
        if game is not None and game.revolution:
            if self._giving is not None:
                self._give_to(index)
                return
            if self._drawing() is not None:
                self._take_from_gathering(index)
                return
        self.hand_view.toggle(index)

    def action_group(self, by: str) -> None:
        self.hand_view.toggle_group(self.hand_view.cursor, by)

    def action_skip(self) -> None:
        game = self.game
        if game is None:
            return
        self.stop_timer()
        if game.computer_to_act:
            self._computers_now()
        else:
            self.advance()

    def action_menu(self) -> None:
        self.bigtwo.open_menu()

    def action_open(self, what: str) -> None:
        self.bigtwo.open_page(what)

    @on(Button.Pressed)
    def _button(self, event: Button.Pressed) -> None:
        actions = {
            "btn-play": self.action_play,
            "btn-pass": self.action_pass_turn,
            "btn-clear": self.action_clear,
            "btn-rank": lambda: self.action_sort("rank"),
            "btn-suit": lambda: self.action_sort("suit"),
            "btn-hint": self.action_hint,
            "btn-menu": self.action_menu,
        }
        action = actions.get(event.button.id or "")
        if action is not None:
            action()

    @on(HandView.Changed)
    def _selection_changed(self) -> None:
        probe = self.bigtwo.startup_probe
        if probe is not None and self.hand_view.selected:  # bigtwo bench startup
            from .startup import note_ready

            note_ready(probe)
            self.bigtwo.startup_probe = None
            self.app.exit()
            return
        if self.hand_view.selected:
            self._hinted_pass = False  # the person chose cards for themselves
        if self.message.plain.startswith("Select the cards"):
            self.say("")

    # -- Big 2 RevolutioN ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("activate", "counter", "decline", "draw_deck", "reference"):
            return self.game is not None and self.game.started and self.game.revolution
        return True

    def _redraw_revolution(self) -> None:
        """The table of a hand of the expansion, from the mirror of the seat on show."""
        game = self.game
        assert game is not None
        rv = game.revolution_view()
        rules = game.rules
        n = game.players
        home = game.home
        names = game.names
        prefs = self.bigtwo.prefs
        ascii_only = self.ascii_only
        over = game.deal_over

        bar = Text()
        bar.append("Big Two ", Style(bold=True))
        bar.append(f" {rules.name} ", Style(reverse=True))
        bar.append(f"  Deal {game.deal_number} of {game.deals}  ")
        if not game.hot_seat or game.viewer is not None:
            bar.append_text(avatar(names[home], home, ascii_only=ascii_only))
            bar.append(f" {names[home]} {game.totals[home]:+d}")
            bar.append(f"  {rv.normal_counts[home]}", Style(dim=True))
            bar.append(f"+{rv.revolution_counts[home]}*", REVOLUTION_TEXT)
        if rv.reversed:
            bar.append("  ")
            bar.append(
                f" {'@' if ascii_only else '↻'} REVOLUTION ",
                Style(reverse=True, bold=True, color="magenta"),
            )
        self.query_one("#topbar", Static).update(bar)

        moves = game.mirror.moves
        trick, finished = trick_moves(moves)
        passed = (
            {a.seat for a in trick if a.move in (Move.PASS, Move.SKIP)} if not finished else set()
        )
        places = PLACES[n]
        for place in ("top", "left", "right"):
            self.query_one(f"#seat-{place}", SeatPanel).set_class(place not in places, "-empty")
        pending = rv.pending
        for k, place in enumerate(places, 1):
            seat = (home + k) % n
            panel = self.query_one(f"#seat-{place}", SeatPanel)
            turn = not over and rv.turn == seat
            doing = ""
            if turn and rv.phase is Phase.COUNTER and pending is not None:
                doing = f"activates {card_words(pending[2], rules, ascii_only=ascii_only).plain}"
            elif turn and rv.phase is Phase.DRAW:
                doing = "drawing"
            status = seat_status(
                game,
                seat,
                turn=turn,
                won=over and rv.winner == seat,
                passed=seat in passed,
                on_table=rv.to_beat is not None and rv.to_beat_seat == seat,
                doing=doing,
            )
            panel.show(
                seat,
                names[seat],
                rv.normal_counts[seat],
                status,
                game.totals[seat],
                turn=turn,
                ascii_only=ascii_only,
                revolution=rv.revolution_counts[seat],
            )

        trick_view = self.query_one(TrickView)
        width = trick_view.content_size.width or 36
        lines = [
            line
            for line in (
                move_line(a, names, rules, ascii_only=ascii_only, width=width) for a in trick
            )
            if line is not None
        ]
        if over:
            how = "is out" if rv.end is End.OUT else "has the fewest cards: the deck ran out"
            footer = f"{names[rv.winner or 0]} {how}"
        elif finished:  # while its last passer draws, the lead waits for the trick's winner
            leader = rv.to_beat_seat if rv.phase is Phase.DRAW else rv.turn
            footer = does(names[leader], "takes the trick and leads", "take the trick and lead")
        elif not any(a.move is Move.PLAY for a in trick) and rv.to_beat is None:
            footer = does(names[rv.turn], "to lead", "to lead")
            if rv.opening is not None and rv.seat == rv.turn:
                footer += f", with {self._card(CardIndex(rv.opening))} in the first play"
        else:
            footer = ""
        head = gathering_text(
            rv.gathering,
            ascii_only=ascii_only,
            numbered=self._drawing() is not None,
            width=width,
        )
        trick_view.border_title = f"Trick {_trick_number(moves)}  deck {rv.deck_left}"
        marker = MARKER if len(MARKER) + 6 <= width else MARKER.split(":")[0]
        icon = "@" if ascii_only else "↻"
        trick_view.border_subtitle = f"{icon} {marker}" if rv.reversed else ""
        rows = trick_view.size.height or 6
        trick_view.show_texts(head, lines, footer, rows)

        if self._message_trick is not None and self._message_trick != self._trick_now():
            self.message, self._message_trick = Text(), None
        self.query_one("#status", Static).update(self._revolution_status(rv))
        self.query_one("#message", Static).update(self.message)

        hand = self.hand_view
        if not game.humans:
            hand.functions = {}
            hand.set_cards([], "You are watching")
        elif game.hot_seat and game.viewer is None:
            hand.functions = {}
            hand.set_cards([], "Cards hidden until the next person's turn")
        else:
            cards = sort_cards(game.hand(), rules, prefs.sort)
            hand.functions = functions_in(cards, rules)
            hand.set_cards(cards)
        my_turn = self._acting_seat() is not None and rv.phase is Phase.ACT
        play = self.query_one("#btn-play", Button)
        play.label = "Lead" if my_turn and rv.to_beat is None else "Play"
        play.disabled = not my_turn
        self.query_one("#btn-pass", Button).disabled = not my_turn or not rv.can_pass

    def _viewer_asked(self) -> int | None:
        """The person on show, when an open counter window asks them and they have not
        answered: their seat."""
        game = self.game
        if game is None or not game.revolution or game.deal_over:
            return None
        seat = game.viewer if game.hot_seat else game.home
        if seat is None or not game.is_human(seat):
            return None
        mirror = game.mirror
        return seat if mirror.seat == seat and mirror.asked else None

    def _drawing(self) -> int | None:
        """The person on show, when they have passed and may draw: their seat."""
        game = self.game
        if game is None or not game.revolution:
            return None
        seat = self._acting_seat()
        if seat is None or game.mirror.phase is not Phase.DRAW or not game.mirror.my_turn:
            return None
        return seat

    def _window_key(self) -> tuple[int, int, int, int] | None:
        """The open counter window: its deal, where its activation stands in the hand, who
        activated what (the answers told since do not make it another window)."""
        game = self.game
        if game is None or game.mirror.pending is None:
            return None
        moves = game.mirror.moves
        at = max((i for i, m in enumerate(moves) if m.move is Move.ACTIVATE), default=-1)
        card = moves[at].cards.bit_length() - 1 if at >= 0 else -1
        return (game.deal_number, at, int(game.mirror.pending["seat"]), card)

    def _seconds_left(self) -> int | None:
        """The counter window's clock for the person on show, from when it was put to them
        (None: no clock)."""
        game = self.game
        key = self._window_key()
        if game is None or key is None or self._viewer_asked() is None:
            return None
        prompt = game.mirror.prompt or {}
        seconds = prompt.get("seconds")
        if seconds is None:
            options = game.rules.revolution
            seconds = options.counter_seconds if options is not None else 5
        now = self.bigtwo.clock()
        since = self._asked_since.setdefault(key, now)
        return max(0, int(since + float(seconds) - now + 0.999))

    def _counter_clock(self) -> None:
        """Twice a second while a counter window asks the person on show: the clock on the
        status line, and at a local table the decline once it runs out (a network table's
        server declines for them)."""
        game = self.game
        if game is None or not game.revolution or not self.drawn:
            return
        if self.app.screen is not self:
            return
        seat = self._viewer_asked()
        if seat is None:
            return
        left = self._seconds_left()
        if left is not None and left <= 0 and not game.talks:
            key = self._window_key()
            if key is not None and key != self._declined_late:
                self._declined_late = key
                pending = game.mirror.pending or {}
                who = game.names[int(pending.get("seat", 0))]
                self._answer(
                    lambda: game.decline(seat), f"Time is up: {whose(who)} function stands"
                )
                return
        with _quiet():
            self.query_one("#status", Static).update(
                self._revolution_status(game.revolution_view())
            )

    def _revolution_status(self, rv: RevolutionView) -> Text:
        """What is asked now, in words: the counter window's question and its clock, the draw,
        an exchange's player, your turn's functions, or whose turn it is."""
        game = self.game
        assert game is not None
        names = game.names
        text = Text()
        ascii_only = self.ascii_only
        if game.connection_note:
            text.append(game.connection_note, Style(color="bright_red", bold=True))
            return text
        if game.deal_over:
            text.append(
                does(names[rv.winner or 0], "wins the deal", "win the deal"), Style(color="yellow")
            )
            return text
        asked = self._viewer_asked()
        if asked is not None and rv.pending is not None:
            seat, function, card, target = rv.pending
            left = self._seconds_left()
            if left is not None:
                text.append(f"{left}s ", Style(color="bright_red", bold=True, reverse=True))
                text.append(" ")
            text.append(f"{names[seat]} activated ", Style(bold=True))
            text.append_text(card_words(card, game.rules, ascii_only=ascii_only))
            if target >= 0:
                text.append(f" to {names[target] if target != asked else 'you'}")
            counters = [c.cards.bit_length() - 1 for c in rv.choices if c.move is Move.COUNTER]
            if counters:
                text.append(". Counter with ")
                text.append_text(cards_text([counters[0]], ascii_only=ascii_only))
                text.append("? ")
                text.append("y", Style(reverse=True, bold=True))
                text.append("/")
                text.append("x", Style(reverse=True, bold=True))
            else:
                text.append(". No Q to counter: ")
                text.append("x", Style(reverse=True, bold=True))
                text.append(" lets it stand")
            return text
        if rv.phase is Phase.COUNTER and rv.pending is not None:
            seat, function, card, _ = rv.pending
            text.append(f"{names[seat]} activated ")
            text.append_text(card_words(card, game.rules, ascii_only=ascii_only))
            answered = game.mirror.answered and game.mirror.seat == game.home
            text.append(
                ": you answered, the others answer" if answered else ": the others answer",
                Style(dim=True),
            )
            return text
        if self._giving is not None:
            _, give = self._giving
            text.append("Give ", Style(color="bright_green", bold=True))
            text.append_text(cards_text([give], ascii_only=ascii_only))
            text.append(" to whom? ", Style(color="bright_green", bold=True))
            for i, seat in enumerate(self._targets()):
                text.append(f"{i + 1}", Style(reverse=True, bold=True))
                text.append(f" {names[seat]}  ")
            text.append("(Esc cancels)", Style(dim=True))
            return text
        drawing = self._drawing()
        if drawing is not None:
            taken = rv.draws_taken
            text.append(
                "Draw" + (" a second card" if taken else "") + ": ",
                Style(color="bright_green", bold=True),
            )
            draws = [c for c in rv.choices if c.move is Move.DRAW]
            if any(c.cards == 0 for c in draws):
                text.append("d", Style(reverse=True, bold=True))
                text.append(" the deck, ")
            if any(c.cards for c in draws):
                text.append("1-4", Style(reverse=True, bold=True))
                text.append(" the Gathering, ")
            text.append("Enter", Style(reverse=True, bold=True))
            text.append(" stops")
            return text
        seat = rv.turn
        if (
            game.is_human(seat)
            and (seat == game.viewer or not game.hot_seat)
            and rv.phase is Phase.ACT
        ):
            who = f", {names[seat]}" if game.hot_seat else ""
            if rv.to_beat is None:
                text.append(f"Your Lead{who}", Style(color="bright_green", bold=True))
                if rv.opening is not None:
                    text.append(f"  - include {self._card(CardIndex(rv.opening))}")
            else:
                text.append(f"Your Play{who}", Style(color="bright_green", bold=True))
                text.append(f"  - beat {whose(names[rv.to_beat_seat])} ")
                text.append_text(
                    cards_text(Mask(rv.to_beat.mask), ascii_only=ascii_only, rules=game.rules)
                )
                if rv.reversed:
                    text.append(" (reversed: lower wins)", REVOLUTION_TEXT)
            if any(c.move is Move.ACTIVATE for c in rv.choices):
                text.append("  a", Style(reverse=True, bold=True))
                text.append(" activates", Style(dim=True))
            return text
        if game.is_human(seat):
            text.append(f"Next player's turn: {names[seat]}")
            return text
        doing = "draw" if rv.phase is Phase.DRAW else "turn"
        text.append(f"{whose(names[seat], capital=True)} {doing}", Style(bold=True))
        if game.computer_to_act:
            text.append("  (f: skip the wait)", Style(dim=True))
        return text

    def _targets(self) -> list[int]:
        """The players an exchange may give to, in play order from the seat on show."""
        game = self.game
        assert game is not None
        return [(game.home + k) % game.players for k in range(1, game.players)]

    def _answer(self, step: Any, done: str = "") -> None:
        """A move of the expansion by a person; a refusal is said in words."""
        try:
            step()
        except BigTwoError as exc:
            self.say(str(exc), "error")
            self.redraw()
            return
        self.say(done)
        self.hand_view.clear()
        self.redraw()
        self.advance()

    def action_activate(self) -> None:
        game = self.game
        if game is None or not game.revolution:
            return
        seat = self._acting_seat()
        rv = game.revolution_view()
        if seat is None or rv.phase is not Phase.ACT:
            self.say("You activate a function in your own turn, before you play or pass", "error")
            return
        raised = self.hand_view.selection_mask
        characters = [c for c in ids(raised) if function_of(c, game.rules)]
        if len(characters) != 1:
            offered = sorted(
                {c.cards.bit_length() - 1 for c in rv.choices if c.move is Move.ACTIVATE}
            )
            if not offered:
                self.say("You have no function to activate now", "error")
            else:
                words = ", ".join(
                    card_words(c, game.rules, ascii_only=self.ascii_only).plain for c in offered
                )
                self.say(f"Raise one Character card, then a: {words}", "error")
            return
        card = characters[0]
        function = function_of(card, game.rules)
        if function == "exchange":
            normal = [c for c in ids(raised) if c < REVOLUTION_BASE]
            if len(normal) != 1 or raised.bit_count() != 2:
                self.say(
                    "An exchange: raise the A* and the one normal card to give, then a", "error"
                )
                return
            targets = self._targets()
            if len(targets) == 1:
                self._answer(lambda: game.activate(seat, card, targets[0], normal[0]))
                return
            self._giving = (card, normal[0])
            self.say("")
            self.redraw()
            return
        if raised.bit_count() != 1:
            self.say(f"A {function} gives no card: raise the Character card alone", "error")
            return
        self._answer(lambda: game.activate(seat, card))

    def _give_to(self, index: int) -> None:
        game = self.game
        assert game is not None and self._giving is not None
        targets = self._targets()
        if not 0 <= index < len(targets):
            self.say(f"Press 1 to {len(targets)} for the player (Esc cancels)", "error")
            return
        seat = self._acting_seat()
        card, give = self._giving
        self._giving = None
        if seat is None:
            self.redraw()
            return
        self._answer(lambda: game.activate(seat, card, targets[index], give))

    def action_counter(self) -> None:
        game = self.game
        seat = self._viewer_asked()
        if game is None or seat is None:
            self.say("There is no function to counter now", "error")
            return
        rv = game.revolution_view()
        counters = [c.cards.bit_length() - 1 for c in rv.choices if c.move is Move.COUNTER]
        raised = [c for c in counters if self.hand_view.selection_mask >> c & 1]
        if not counters:
            self.say("Only a Revolution Q can counter, and you hold none: x lets it stand", "error")
            return
        card = (raised or counters)[0]
        self._answer(lambda: game.counter(seat, card), "")

    def action_decline(self) -> None:
        game = self.game
        seat = self._viewer_asked()
        if game is None or seat is None:
            self.say("There is no function to answer now", "error")
            return
        self._answer(lambda: game.decline(seat))

    def action_draw_deck(self) -> None:
        game = self.game
        seat = self._drawing()
        if game is None or seat is None:
            self.say("You may draw after you pass", "error")
            return
        self._answer(lambda: game.draw(seat, None))

    def _take_from_gathering(self, index: int) -> None:
        game = self.game
        seat = self._drawing()
        assert game is not None and seat is not None
        gathering = game.mirror.gathering
        if not 0 <= index < len(gathering):
            self.say(
                f"The Gathering holds {count(len(gathering), 'card')}: press 1 to {len(gathering)}",
                "error",
            )
            return
        card = gathering[index]
        self._answer(lambda: game.draw(seat, card))

    def action_stop_drawing(self) -> None:
        game = self.game
        seat = self._drawing()
        if game is None or seat is None:
            return
        self._answer(lambda: game.stop(seat))

    def action_reference(self) -> None:
        game = self.game
        if game is None or not game.revolution:
            return
        from .pages import Page
        from .revolution import reference_text

        body = reference_text(game.rules, ascii_only=self.ascii_only)
        self.app.push_screen(Page(body, title="The five functions   (Esc back)"))

    def _revolution_hint(self) -> None:
        game = self.game
        assert game is not None
        seat = self._viewer_asked()
        if seat is None:
            seat = self._acting_seat()
        if seat is None:
            self.say("Hints are for your turn", "error")
            return
        try:
            choice, words = game.revolution_hint(seat)
        except BigTwoError as exc:
            self.say(str(exc), "error")
            return
        keys = {
            Move.PASS: "p",
            Move.DECLINE: "x",
            Move.COUNTER: "y",
            Move.STOP: "Enter",
            Move.ACTIVATE: "a",
            Move.PLAY: "Enter",
        }
        raise_ = choice.cards
        if choice.move is Move.ACTIVATE and choice.give >= 0:
            raise_ |= 1 << choice.give
        if choice.move in (Move.PLAY, Move.ACTIVATE, Move.COUNTER):
            self.hand_view.select_mask(Mask(raise_))
        else:
            self.hand_view.clear()
        key = keys.get(choice.move, "d" if choice.move is Move.DRAW and not choice.cards else "1-4")
        self.say(f"Hint: {words}  ({key})", "hint")
        self._hinted_pass = choice.move is Move.PASS


def seat_status(
    game: Game,
    seat: int,
    *,
    turn: bool,
    won: bool,
    passed: bool,
    on_table: bool,
    doing: str = "",
) -> str:
    """What an opponent's panel says of its seat: what it is doing (``doing`` names a step of
    the turn, else it is to play or thinking), that it won, passed or holds the table, and
    whether it is away."""
    if turn:
        status = doing or ("thinking..." if not game.is_human(seat) else "to play")
    elif won:
        status = "WINS!"
    elif passed:
        status = "passed"
    elif on_table:
        status = "on the table"
    else:
        status = ""
    away = game.presence(seat)
    return f"{status}, {away}" if status and away else status or away


class _quiet:
    """Drawing while the screen is taken down draws nothing (and says nothing)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: object, tb: object) -> bool:
        return isinstance(exc, NoMatches)


def _trick_number(actions: Any) -> int:
    return 1 + sum(1 for a in actions[:-1] if a.trick_over) if actions else 1
