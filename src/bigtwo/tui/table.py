"""The table screen: opponents around, the trick in the middle, your hand at the bottom.

It turns keys and clicks into calls on the :class:`~bigtwo.tui.controller.GameController`
(or a network table's :class:`~bigtwo.tui.netgame.NetGame`) and redraws the widgets from
the mirror of the seat on show; every refused action shows the engine's reason in words.
Its :class:`~bigtwo.tui.runner.LocalTableRunner` paces the game (each computer move at its
deadline, ``f`` or Enter skips the wait, a slow computer thinks in a worker thread), and
asks the app for the score sheet or a hot-seat game's cover when due. What a game draws and
does its own way is its part, given with the game: a :class:`BigTwoTable`, or for Big 2
RevolutioN a :class:`~bigtwo.tui.revolution_table.RevolutionTable`. The screen must not pace
the game itself nor import the app (:class:`~bigtwo.tui.host.TableHost` is what it needs).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

from rich.style import Style
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Static

from ..engine.cards import Mask
from ..engine.errors import BigTwoError
from .mirrored import last_trick_of, shown_names
from .render import POSITION_KEY_NAMES, avatar, cards_text, in_suit_order
from .runner import LocalTableRunner
from .seating import PLACES, seat_status, trick_number
from .widgets import HandView, SeatPanel, TooSmall, TrickView, sort_cards, trick_text
from .words import count, does, is_you, whose

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..engine.revolution import RevolutionView
    from ..match.views import TableView
    from .host import TableHost
    from .seating import Game


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
        Binding("l", "last_trick", "Last trick", show=False),
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
        # The part's own keys, Big 2 RevolutioN's: the part's action of that name.
        Binding("a", "part('activate')", "Activate", show=False),
        Binding("y", "part('counter')", "Counter", show=False),
        Binding("x", "part('decline')", "Let stand", show=False),
        Binding("d", "part('draw_deck')", "Draw", show=False),
        Binding("k,f9", "part('reference')", "Functions"),
        Binding("b", "beliefs", "Beliefs", show=False),  # the coach's beliefs panel
        Binding("A", "assists", "Assists", show=False),  # the host turns the coach on or off
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
    #chat { height: auto; display: none; }
    TableScreen.-talks #chat { display: block; }
    #chat-log { height: 2; padding: 0 1; color: $text-muted; }
    #chat-input { height: 1; width: 1fr; border: none; padding: 0 1; }
    #chat-row { height: 1; }
    #room-line { width: auto; height: 1; padding: 0 1; color: $accent; }
    #buttons { height: 1; align: center middle; }
    #buttons Button { margin: 0 1; min-width: 6; }
    """

    def __init__(self, *, ascii_only: bool = False) -> None:
        super().__init__()
        self.ascii_only = ascii_only
        self.runner = LocalTableRunner(self)  # paces the game attached
        self.message = Text()
        self._message_trick: tuple[int, int] | None = None
        self._message_kind = "info"
        self.hinted_pass = False  # the hint on show says pass: Enter with nothing raised passes
        self._part: BigTwoTable | None = None  # what the game attached draws and does its own way

    @property
    def game(self) -> Game | None:
        """The game on show (its runner's)."""
        return self.runner.game

    @property
    def bigtwo(self) -> TableHost:
        """The app that pushed the table (what the table needs of it: :mod:`.host`)."""
        return cast("TableHost", self.app)

    def compose(self) -> ComposeResult:
        yield TooSmall("the table", "q quits; the game is kept.", id="too-small")
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
            with Horizontal(id="chat-row"):
                yield ChatLine(placeholder="/ to chat: type a line, Enter sends", id="chat-input")
                yield Static(id="room-line")  # a network table's code and share link
        yield Footer()

    def on_mount(self) -> None:
        self.set_interval(0.5, self._counter_clock)
        if self.game is not None:
            self.redraw()
            if self.runner.deferred:
                self.call_later(self.advance)

    # -- attaching and drawing -------------------------------------------------------------
    def attach(self, game: Game, part: type[BigTwoTable]) -> None:
        """Show ``game``, drawn and played through ``part``, its game's own."""
        self.runner.attach(game)
        self.message = Text()
        self._part = part(self, game)
        self.refresh_bindings()  # the footer offers the part's keys (the reference card)
        if self.drawn:
            hand = self.hand_view
            hand.selected = set()
            hand.cursor = 0
            self.redraw()

    @property
    def part(self) -> BigTwoTable:
        """The part for the game attached: what it draws and does its own way."""
        assert self._part is not None
        return self._part

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "part":  # a key of the part's own, offered once the game has begun
            game = self.game
            return game is not None and game.started and parameters[0] in self.part.keys
        return True

    def action_beliefs(self) -> None:
        from .beliefs import toggle_beliefs

        toggle_beliefs(self)

    def action_assists(self) -> None:
        from .beliefs import toggle_assists

        toggle_assists(self)

    def action_part(self, key: str) -> None:
        if self.game is not None and key in self.part.keys:
            getattr(self.part, key)()

    def _counter_clock(self) -> None:
        """Twice a second: the part's clock (a counter window of the expansion's)."""
        if self._part is not None:
            self._part.tick()

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
            self.query_one("#room-line", Static).update(Text(game.room_line))
        if not game.started:
            self._draw_waiting()
            return
        self.part.draw()
        # A notice fades with its trick; the status line says what is asked now.
        if self._message_trick is not None and self._message_trick != self._trick_now():
            self.message, self._message_trick = Text(), None
        self.query_one("#status", Static).update(self.part.status())
        self.query_one("#message", Static).update(self.message)

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

    def card_name(self, card: int) -> str:
        """A card in words, as the trick's footer and the status line name it."""
        return cards_text(Mask(1 << card), ascii_only=self.ascii_only, colour=False).plain

    def say(self, message: str, kind: str = "info") -> None:
        self.hinted_pass = False  # a new message replaces the hint
        if self.game is not None:  # cards in the rules' suit order, as the hand shows them
            message = in_suit_order(message, self.game.rules)
        colour = {"error": "bright_red", "hint": "cyan", "info": "yellow"}.get(kind, "yellow")
        self.message = Text(message, Style(color=colour, bold=kind == "error"))
        self._message_kind = kind
        # A notice (such as an autopass) is about the trick it happened in: it fades when
        # the next trick begins. Errors and hints stay until your next action.
        self._message_trick = self._trick_now() if kind == "info" else None
        if self.drawn:
            self.query_one("#message", Static).update(self.message)

    def _trick_now(self) -> tuple[int, int] | None:
        if self.game is None:
            return None
        return (self.game.deal_number, trick_number(self.game.mirror.actions))

    # -- pacing the game: the runner's ----------------------------------------------------
    def stop_timer(self) -> None:
        self.runner.stop_timer()

    def advance(self) -> None:
        """Carry the game on until a person must act, a dialog is due, or a timer is set."""
        self.runner.advance()

    def hide_hand(self) -> None:
        """The hand is hidden while the cover of a hot-seat game comes up."""
        self.hand_view.set_cards([], "")

    @property
    def on_top(self) -> bool:
        """Whether the app shows the table (no page or dialog over it)."""
        return self.app.screen is self

    def on_screen_resume(self) -> None:
        if self.game is not None:
            try:
                self.redraw()
            except NoMatches:  # resumed while the app takes the screen down: nothing to draw
                return
            if self.runner.deferred:
                self.advance()

    # -- your actions ------------------------------------------------------------------------
    def acting_seat(self) -> int | None:
        game = self.game
        if game is None:
            return None
        seat = game.human_to_act
        if seat is None or (game.hot_seat and seat != game.viewer):
            return None
        return seat

    def action_play(self) -> None:
        game = self.game
        if game is None or self.part.first("play"):
            return
        seat = self.acting_seat()
        if seat is None:
            if game.computer_to_act:
                self.action_skip()  # Enter while the computers think: play them out now
            elif game.deal_over:
                self.advance()
            return
        cards = self.hand_view.selection_mask
        if not cards and self.hinted_pass and game.kind.can_pass(game.mirror):
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

    def action_pass_turn(self) -> None:
        game = self.game
        if game is None or self.part.first("pass"):
            return
        seat = self.acting_seat()
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
        if (self.game is None or not self.part.clear()) and self._message_kind == "error":
            self.say("")  # what was wrong with the selection goes with it
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
        if self.game is not None:
            self.part.hint()

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
        self.runner.forget_thinking()  # a computer thinking about the old position
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
        if self.game is None or not self.part.pick(index):
            self.hand_view.toggle(index)

    def action_group(self, by: str) -> None:
        self.hand_view.toggle_group(self.hand_view.cursor, by)

    def action_skip(self) -> None:
        self.runner.skip()

    def action_last_trick(self) -> None:
        """``l``: the last trick won in this deal, every play and pass, on a page."""
        if self.game is None or not self.game.started:
            return
        body = self.part.last_trick()
        if body is None:
            self.say("No trick has been won yet in this deal")
            return
        number, text = body
        from .pages import Page

        title = f"The last trick: trick {number} of deal {self.game.deal_number}   (Esc back)"
        self.app.push_screen(Page(text, title=title))

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
            self.hinted_pass = False  # the person chose cards for themselves
        if self.message.plain.startswith("Select the cards"):
            self.say("")


class BigTwoTable:
    """The table screen's part for a game of Big Two (52 cards): see the module docstring."""

    # The actions of the part's own keys (the expansion's: see the table's bindings).
    keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, screen: TableScreen, game: Game) -> None:
        self.screen = screen
        self.game = game

    def names(self) -> list[str]:
        game = self.game
        return shown_names(game.names, hot_seat=game.hot_seat, viewer=game.viewer)

    # -- drawing ---------------------------------------------------------------------------------
    def draw(self) -> None:
        """The deal as the seat on show sees it (the screen then writes the status line)."""
        screen, game = self.screen, self.game
        view = game.view()
        names = self.names()
        bar = self.bar(Text(f"  {count(view.counts[game.home], 'card')}", Style(dim=True)))
        screen.query_one("#topbar", Static).update(bar)

        trick, finished = game.trick()
        passed = {a.seat for a in trick if a.play is None} if not finished else set()
        self.draw_panels(view, passed, view.counts)

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
                footer += f", with {screen.card_name(view.opening)} in the first play"
        else:
            footer = ""
        trick_view = screen.query_one(TrickView)
        trick_view.border_title = f"Trick {trick_number(view.actions)}"
        rows = trick_view.size.height or 6  # content rows (borders excluded)
        trick_view.show(lines, footer, ascii_only=screen.ascii_only, rows=rows, rules=game.rules)

        self.draw_hand()
        my_turn = screen.acting_seat() is not None
        self.draw_buttons(my_turn, lead=view.to_beat is None, can_pass=view.to_beat is not None)

    def bar(self, counts: Text) -> Text:
        """The top bar: the game, the deal, the person at the bottom, total and ``counts``."""
        game = self.game
        names, home = self.names(), game.home
        bar = Text()
        bar.append("Big Two ", Style(bold=True))
        bar.append(f" {game.rules.name} ", Style(reverse=True))
        bar.append(f"  Deal {game.deal_number} of {game.deals}  ")
        if not game.hot_seat or game.viewer is not None:
            bar.append_text(avatar(names[home], home, ascii_only=self.screen.ascii_only))
            bar.append(f" {names[home]} {game.totals[home]:+d}")
            bar.append_text(counts)
        return bar

    def draw_panels(
        self,
        view: TableView | RevolutionView,
        passed: set[int],
        counts: Sequence[int],
        *,
        doing: str = "",
        revolution: Sequence[int] | None = None,
    ) -> None:
        """The opponents' panels in play order from the seat after you: ``doing`` what the seat
        whose turn it is does, ``revolution`` each seat's Revolution cards."""
        game, screen = self.game, self.screen
        names, places = self.names(), PLACES[game.players]
        for place in ("top", "left", "right"):
            screen.query_one(f"#seat-{place}", SeatPanel).set_class(place not in places, "-empty")
        for k, place in enumerate(places, 1):
            seat = (game.home + k) % game.players
            turn = not game.deal_over and view.turn == seat
            status = seat_status(
                game,
                seat,
                turn=turn,
                won=game.deal_over and view.winner == seat,
                passed=seat in passed,
                on_table=view.to_beat is not None and view.to_beat_seat == seat,
                doing=doing if turn else "",
            )
            screen.query_one(f"#seat-{place}", SeatPanel).show(
                seat,
                names[seat],
                counts[seat],
                status,
                game.totals[seat],
                turn=turn,
                ascii_only=screen.ascii_only,
                revolution=None if revolution is None else revolution[seat],
            )

    def draw_hand(self) -> None:
        """Your hand: the viewer's cards, or none while nobody plays or hot-seat hands hide."""
        game, hand = self.game, self.screen.hand_view
        cards: list[int] = []
        if not game.humans:
            note = "You are watching"
        elif game.hot_seat and game.viewer is None:
            note = "Cards hidden until the next person's turn"
        else:
            cards, note = sort_cards(game.hand(), game.rules, self.screen.bigtwo.prefs.sort), ""
        hand.functions = self.functions(cards)
        hand.set_cards(cards, note)

    def functions(self, cards: Sequence[int]) -> dict[int, str]:
        """The function of each card of the hand that has one: none in a game of 52 cards."""
        return {}

    def draw_buttons(self, my_turn: bool, *, lead: bool, can_pass: bool) -> None:
        play = self.screen.query_one("#btn-play", Button)
        play.label = "Lead" if my_turn and lead else "Play"
        play.disabled = not my_turn
        self.screen.query_one("#btn-pass", Button).disabled = not my_turn or not can_pass

    def status(self) -> Text:
        """The status line: trouble with the link, the deal's winner, or the turn's words."""
        game = self.game
        text = Text()
        if game.connection_note:
            text.append(game.connection_note, Style(color="bright_red", bold=True))
        elif game.deal_over:
            names = self.names()
            won = does(names[game.mirror.winner or 0], "wins the deal", "win the deal")
            text.append(won, Style(color="yellow"))
        else:
            self.turn_status(text, self.names())
        return text

    plain = Style(bold=False)  # the words after "Your Lead" or "Your Play"

    def turn_status(self, text: Text, names: list[str]) -> None:
        """Whose turn, in the Palm game's words."""
        self.whose_turn(text, names, self.game.view())

    def whose_turn(
        self,
        text: Text,
        names: list[str],
        view: TableView | RevolutionView,
        *,
        acting: bool = True,
        doing: str = "turn",
    ) -> bool:
        """Your turn when the seat on show acts (``acting``): what to lead or beat (True);
        else whose turn it is, a computer's doing ``doing``."""
        game, screen, seat = self.game, self.screen, view.turn
        if acting and game.is_human(seat) and (seat == game.viewer or not game.hot_seat):
            who = f", {names[seat]}" if game.hot_seat and not is_you(names[seat]) else ""
            green = Style(color="bright_green", bold=True)
            if view.to_beat is None:
                text.append(f"Your Lead{who}", green)
                if view.opening is not None:
                    text.append(f"  - include {screen.card_name(view.opening)}", self.plain)
            else:
                text.append(f"Your Play{who}", green)
                text.append(f"  - beat {whose(names[view.to_beat_seat])} ", self.plain)
                mask = Mask(view.to_beat.mask)
                text.append_text(cards_text(mask, ascii_only=screen.ascii_only, rules=game.rules))
            return True
        if game.is_human(seat):
            text.append(f"Next player's turn: {names[seat]}")
        else:
            text.append(f"{whose(names[seat], capital=True)} {doing}", Style(bold=True))
            if game.computer_to_act:
                text.append("  (f: skip the wait)", Style(dim=True))
        return False

    def tick(self) -> None:
        """Twice a second: a clock of the expansion's, none in a game of 52 cards."""

    def last_trick(self) -> tuple[int, Text] | None:
        """The last trick won in this deal: its number, and its plays and passes with who
        made them and who took it (None before the first is won)."""
        game, names = self.game, self.names()
        actions, number = last_trick_of(game.mirror.actions)
        if not actions:
            return None
        lines = [(names[a.seat], a) for a in actions]
        won = [a.seat for a in actions if a.play is not None]
        footer = does(names[won[-1]], "took the trick", "took the trick") if won else ""
        text = trick_text(
            lines, footer, ascii_only=self.screen.ascii_only, width=76, rules=game.rules
        )
        return number, text

    # -- the keys: True when the part took Enter or p (``first``), a number key, or Esc -------
    def first(self, action: str) -> bool:
        return False

    def pick(self, index: int) -> bool:
        return False

    def clear(self) -> bool:
        return False

    def hint(self) -> None:
        screen, game = self.screen, self.game
        seat = screen.acting_seat()
        if seat is None:
            screen.say("Hints are for your turn", "error")
            return
        hint = game.hint(seat)
        if hint.play is None:
            screen.hand_view.clear()
        else:
            screen.hand_view.select_mask(hint.play.mask)
        passes = hint.play is None and game.view(seat).can_pass
        screen.say(f"Hint: {hint.reason}" + ("  (Enter passes)" if passes else ""), "hint")
        screen.hinted_pass = passes
