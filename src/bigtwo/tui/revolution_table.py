"""The table's controls and drawing for a hand of Big 2 RevolutioN, the expansion.

:class:`RevolutionControls` is a part of the table screen (:class:`~bigtwo.tui.table.TableScreen`
inherits it): it draws a hand of the expansion from the mirror of the seat on show (the
Gathering and the deck count in the trick's frame, the revolution marker beneath it, each
player's normal and Revolution counts, the hand's Character icons), says on the status line
what is asked (a counter window's question with its clock, the draw after a pass, an
exchange's player, your turn's functions), and turns the expansion's keys into the game's
moves (``a`` activates, ``y`` counters, ``x`` lets it stand, ``d`` draws from the deck,
``1``-``4`` from the Gathering or pick an exchange's player, ``k`` the five functions). A
local table's counter window declines for the person on show once its clock runs out. It
never paces the game (that is :mod:`.runner`'s) and draws nothing of a normal deal.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.css.query import NoMatches
from textual.widgets import Button, Static

from ..engine.cards import CardIndex, Mask
from ..engine.errors import BigTwoError
from ..engine.revolution import End, Move, Phase, RevolutionView
from ..engine.revolution_cards import REVOLUTION_BASE, ids
from .mirrored import shown_names
from .render import REVOLUTION_TEXT, avatar, cards_text
from .revolution import (
    MARKER,
    card_words,
    function_of,
    functions_in,
    gathering_text,
    move_line,
    trick_moves,
)
from .seating import PLACES, seat_status, trick_number
from .widgets import SeatPanel, TrickView, sort_cards
from .words import count, does, is_you, whose

if TYPE_CHECKING:
    from textual.screen import Screen

    from .host import TableHost
    from .seating import Game
    from .widgets import HandView

    _ScreenPart = Screen[None]
else:
    _ScreenPart = object

# The expansion's keys, offered at a revolution table only (see check_action).
REVOLUTION_BINDINGS = [
    Binding("a", "activate", "Activate", show=False),
    Binding("y", "counter", "Counter", show=False),
    Binding("x", "decline", "Let stand", show=False),
    Binding("d", "draw_deck", "Draw", show=False),
    Binding("k,f9", "reference", "Functions"),
]


class RevolutionControls(_ScreenPart):
    """The table screen's part for Big 2 RevolutioN: see the module docstring."""

    if TYPE_CHECKING:  # what the table screen gives this part
        ascii_only: bool
        message: Text
        _message_trick: tuple[int, int] | None
        _hinted_pass: bool

        @property
        def game(self) -> Game | None: ...

        @property
        def bigtwo(self) -> TableHost: ...

        @property
        def hand_view(self) -> HandView: ...

        @property
        def drawn(self) -> bool: ...

        @property
        def on_top(self) -> bool: ...

        def say(self, message: str, kind: str = "info") -> None: ...

        def redraw(self) -> None: ...

        def advance(self) -> None: ...

        def _acting_seat(self) -> int | None: ...

        def _card(self, card: CardIndex) -> str: ...

        def _trick_now(self) -> tuple[int, int] | None: ...

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # An exchange waiting for its player (the A*, the card given), and when each counter
        # window was first put to the person on show (its clock).
        self._giving: tuple[int, int] | None = None
        self._asked_since: dict[tuple[int, int, int, int], float] = {}
        self._declined_late: tuple[int, int, int, int] | None = None

    def _forget_asking(self) -> None:
        """Another game: no exchange waits for its player, and no counter window is timed."""
        self._giving = None
        self._asked_since = {}

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
        names = shown_names(game.names, hot_seat=game.hot_seat, viewer=game.viewer)
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
        trick_view.border_title = f"Trick {trick_number(moves)}  deck {rv.deck_left}"
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
        if not self.on_top:
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
        names = shown_names(game.names, hot_seat=game.hot_seat, viewer=game.viewer)
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
            who = f", {names[seat]}" if game.hot_seat and not is_you(names[seat]) else ""
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


class _quiet:
    """Drawing while the screen is taken down draws nothing (and says nothing)."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: object, tb: object) -> bool:
        return isinstance(exc, NoMatches)
