"""The table screen's part for a hand of Big 2 RevolutioN, the expansion.

:class:`RevolutionTable`, a :class:`~bigtwo.tui.table.BigTwoTable`, draws a hand of the
expansion from the mirror of the seat on show (the Gathering and the deck count in the
trick's frame, the revolution marker, each player's normal and Revolution counts, the hand's
Character icons), says what is asked (a counter window's question with its clock, the draw
after a pass, an exchange's player, your turn's functions), and turns the expansion's keys
into moves (``a`` activates, ``y`` counters, ``x`` lets it stand, ``d`` draws from the deck,
``1``-``4`` from the Gathering or pick an exchange's player, ``k`` the five functions).

A counter window's clock starts when its question is first drawn for the person on show. At
a local table the screen keeps that clock: it gives a person at least :data:`PERSON_WINDOW`
seconds, and a key pressed while the question shows counts, so the decline is sent only once
the clock has shown 0 for :data:`LATE_KEYS` seconds. A key for a window that has closed is
told so in words ("The counter window has closed"), with how the window ended.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.css.query import NoMatches
from textual.widgets import Static

from ..engine.cards import Mask
from ..engine.errors import BigTwoError
from ..engine.revolution import End, Move, Phase
from ..engine.revolution_cards import REVOLUTION_BASE, ids
from .mirrored import last_trick_of
from .render import REVOLUTION_TEXT, cards_text
from .revolution import (
    MARKER,
    card_words,
    function_of,
    functions_in,
    gathering_text,
    move_line,
    reference_text,
    trick_moves,
)
from .seating import trick_number
from .table import BigTwoTable
from .widgets import TrickView
from .words import count, does, whose

# The shortest counter window a person at one screen is given, in seconds (the rules' own
# may be shorter: a window of 2 s is over before a person has read its question).
PERSON_WINDOW = 5.0
# How long after the clock shows 0 a key still answers (the question is still on screen).
LATE_KEYS = 1.0

if TYPE_CHECKING:
    from .seating import Game
    from .table import TableScreen


class RevolutionTable(BigTwoTable):
    """The table screen's part for Big 2 RevolutioN: see the module docstring."""

    plain = Style()  # the words after "Your Lead" or "Your Play" stay bold
    keys: ClassVar[frozenset[str]] = frozenset(
        {"activate", "counter", "decline", "draw_deck", "reference"}
    )

    def __init__(self, screen: TableScreen, game: Game) -> None:
        super().__init__(screen, game)
        # An exchange waiting for its player (the A*, the card given), and when each counter
        # window was first put to the person on show (its clock).
        self._giving: tuple[int, int] | None = None
        self._asked_since: dict[tuple[int, int, int, int], float] = {}
        self._declined_late: tuple[int, int, int, int] | None = None
        self._last_asked: tuple[int, int, int, int] | None = None  # the last window put to you

    def draw(self) -> None:
        """The table of a hand of the expansion, from the mirror of the seat on show."""
        screen, game = self.screen, self.game
        rv = game.revolution_view()
        rules = game.rules
        home = game.home
        names = self.names()
        ascii_only = screen.ascii_only
        over = game.deal_over

        counts = Text(f"  {rv.counts[home]}", Style(dim=True))
        counts.append(f"+{rv.revolution_counts[home]}*", REVOLUTION_TEXT)
        bar = self.bar(counts)
        if rv.reversed:
            bar.append("  ")
            bar.append(
                f" {'@' if ascii_only else '↻'} REVOLUTION ",
                Style(reverse=True, bold=True, color="magenta"),
            )
        screen.query_one("#topbar", Static).update(bar)

        moves = game.mirror.moves
        trick, finished = trick_moves(moves)
        passed = (
            {a.seat for a in trick if a.move in (Move.PASS, Move.SKIP)} if not finished else set()
        )
        doing = ""
        if rv.phase is Phase.COUNTER and rv.pending is not None:
            doing = f"activates {card_words(rv.pending[2], rules, ascii_only=ascii_only).plain}"
        elif rv.phase is Phase.DRAW:
            doing = "drawing"
        self.draw_panels(rv, passed, rv.counts, doing=doing, revolution=rv.revolution_counts)

        trick_view = screen.query_one(TrickView)
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
                footer += f", with {screen.card_name(rv.opening)} in the first play"
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

        self.draw_hand()
        my_turn = screen.acting_seat() is not None and rv.phase is Phase.ACT
        self.draw_buttons(my_turn, lead=rv.to_beat is None, can_pass=rv.can_pass)

    def last_trick(self) -> tuple[int, Text] | None:
        """The last trick won in this hand: its number and its actions, each in a line."""
        game, names = self.game, self.names()
        moves, number = last_trick_of(game.mirror.moves)
        if not moves:
            return None
        ascii_only = self.screen.ascii_only
        lines = [move_line(a, names, game.rules, ascii_only=ascii_only, width=76) for a in moves]
        return number, Text("\n").join(line for line in lines if line is not None)

    def functions(self, cards: Sequence[int]) -> dict[int, str]:
        """Each Character card of the hand and its function (its icon on the card)."""
        return functions_in(cards, self.game.rules)

    def _viewer_asked(self) -> int | None:
        """The person on show, when an open counter window asks them and they have not
        answered: their seat."""
        game = self.game
        if game.deal_over:
            return None
        seat = game.viewer if game.hot_seat else game.home
        if seat is None or not game.is_human(seat):
            return None
        mirror = game.mirror
        return seat if mirror.seat == seat and mirror.asked else None

    def _drawing(self) -> int | None:
        """The person on show, when they have passed and may draw: their seat."""
        game = self.game
        seat = self.screen.acting_seat()
        if seat is None or game.mirror.phase is not Phase.DRAW or not game.mirror.my_turn:
            return None
        return seat

    def _window_key(self) -> tuple[int, int, int, int] | None:
        """The open counter window: its deal, where its activation stands in the hand, who
        activated what (the answers told since do not make it another window)."""
        game = self.game
        if game.mirror.pending is None:
            return None
        moves = game.mirror.moves
        at = max((i for i, m in enumerate(moves) if m.move is Move.ACTIVATE), default=-1)
        card = moves[at].cards.bit_length() - 1 if at >= 0 else -1
        return (game.deal_number, at, int(game.mirror.pending["seat"]), card)

    def _window(self) -> tuple[float, float] | None:
        """The counter window's clock for the person on show: when its question was first
        drawn for them, and its seconds (None: no window asks them)."""
        game = self.game
        key = self._window_key()
        if key is None or self._viewer_asked() is None:
            return None
        self._last_asked = key
        prompt = game.mirror.prompt or {}
        seconds = prompt.get("seconds")
        if seconds is None:
            options = game.rules.revolution
            seconds = options.counter_seconds if options is not None else 5
        seconds = float(seconds)
        if not game.talks:  # the screen keeps the clock of a local table
            seconds = max(seconds, PERSON_WINDOW)
        since = self._asked_since.setdefault(key, self.screen.bigtwo.clock())
        return since, seconds

    def _seconds_left(self) -> int | None:
        """The whole seconds the counter window's clock shows the person on show, rounded
        up (None: no clock)."""
        window = self._window()
        if window is None:
            return None
        since, seconds = window
        return max(0, math.ceil(since + seconds - self.screen.bigtwo.clock()))

    def _window_over(self) -> bool:
        """The clock has shown 0 long enough: a local table declines for the person."""
        window = self._window()
        if window is None:
            return False
        since, seconds = window
        return self.screen.bigtwo.clock() >= since + seconds + LATE_KEYS

    def tick(self) -> None:
        """Twice a second while a counter window asks the person on show: the clock on the
        status line, and at a local table the decline once it has run out (a network
        table's server declines for them)."""
        game = self.game
        if not self.screen.drawn or not self.screen.on_top:
            return
        seat = self._viewer_asked()
        if seat is None:
            return
        if not game.talks and self._window_over():
            key = self._window_key()
            if key is not None and key != self._declined_late:
                self._declined_late = key
                pending = game.mirror.pending or {}
                who = game.names[int(pending.get("seat", 0))]
                self._answer(
                    lambda: game.decline(seat), f"Time is up: {whose(who)} function stands"
                )
                return
        with contextlib.suppress(NoMatches):  # the screen is being taken down
            self.screen.query_one("#status", Static).update(self.status())

    def closed(self) -> str:
        """A key for a counter window that no longer asks the person on show: that it has
        closed and how it ended, in words ("" when none asked them in this deal)."""
        game = self.game
        key = self._last_asked
        if key is None or key[0] != game.deal_number:
            return ""
        _, at, seat, _ = key
        names = self.names()
        moves = game.mirror.moves
        after = moves[at + 1 :] if 0 <= at < len(moves) else []
        countered = next((m for m in after if m.move is Move.COUNTER), None)
        if countered is not None:
            return f"The counter window has closed: {names[countered.seat]} countered it"
        if game.mirror.pending is not None and self._window_key() == key:
            return "You have answered this function: the others answer"
        return f"The counter window has closed: {whose(names[seat])} function stands"

    def turn_status(self, text: Text, names: list[str]) -> None:
        """What is asked now, in words: the counter window's question and its clock, the draw,
        an exchange's player, your turn's functions, or whose turn it is."""
        game = self.game
        rv = game.revolution_view()
        ascii_only = self.screen.ascii_only
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
            return
        if rv.phase is Phase.COUNTER and rv.pending is not None:
            seat, function, card, _ = rv.pending
            text.append(f"{names[seat]} activated ")
            text.append_text(card_words(card, game.rules, ascii_only=ascii_only))
            answered = game.mirror.answered and game.mirror.seat == game.home
            text.append(
                ": you answered, the others answer" if answered else ": the others answer",
                Style(dim=True),
            )
            return
        if self._giving is not None:
            _, give = self._giving
            text.append("Give ", Style(color="bright_green", bold=True))
            text.append_text(cards_text([give], ascii_only=ascii_only))
            text.append(" to whom? ", Style(color="bright_green", bold=True))
            for i, seat in enumerate(self._targets()):
                text.append(f"{i + 1}", Style(reverse=True, bold=True))
                text.append(f" {names[seat]}  ")
            text.append("(Esc cancels)", Style(dim=True))
            return
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
            return
        drawn = "draw" if rv.phase is Phase.DRAW else "turn"
        if not self.whose_turn(text, names, rv, acting=rv.phase is Phase.ACT, doing=drawn):
            return
        if rv.to_beat is not None and rv.reversed:
            text.append(" (reversed: lower wins)", REVOLUTION_TEXT)
        if any(c.move is Move.ACTIVATE for c in rv.choices):
            text.append("  a", Style(reverse=True, bold=True))
            text.append(" activates", Style(dim=True))

    # -- the keys ----------------------------------------------------------------------------
    def first(self, action: str) -> bool:
        """Enter stops drawing, ``p`` too; neither plays while an exchange waits for its player
        or a counter window for your answer."""
        if self._drawing() is not None:
            self.stop_drawing()
        elif action == "play" and self._giving is not None:
            self.screen.say(
                "Give the card to whom? Press the player's number (Esc cancels)", "error"
            )
        elif self._viewer_asked() is not None:
            self.screen.say("First answer the function: y counters it, x lets it stand", "error")
        else:
            return False
        return True

    def pick(self, index: int) -> bool:
        """A number key picks an exchange's player, or a card of the Gathering to draw."""
        if self._giving is not None:
            self._give_to(index)
        elif self._drawing() is not None:
            self._take_from_gathering(index)
        else:
            return False
        return True

    def clear(self) -> bool:
        """Esc calls off an exchange waiting for its player."""
        if self._giving is None:
            return False
        self._giving = None
        self.screen.say("The exchange is called off")
        self.screen.redraw()
        return True

    def _targets(self) -> list[int]:
        """The players an exchange may give to, in play order from the seat on show."""
        game = self.game
        return [(game.home + k) % game.players for k in range(1, game.players)]

    def _answer(self, step: Callable[[], object], done: str = "") -> None:
        """A move of the expansion by a person; a refusal is said in words."""
        try:
            step()
        except BigTwoError as exc:
            self.screen.say(str(exc), "error")
            self.screen.redraw()
            return
        self.screen.say(done)
        self.screen.hand_view.clear()
        self.screen.redraw()
        self.screen.advance()

    def activate(self) -> None:
        game = self.game
        seat = self.screen.acting_seat()
        rv = game.revolution_view()
        if seat is None or rv.phase is not Phase.ACT:
            self.screen.say(
                "You activate a function in your own turn, before you play or pass", "error"
            )
            return
        raised = self.screen.hand_view.selection_mask
        characters = [c for c in ids(raised) if function_of(c, game.rules)]
        if len(characters) != 1:
            offered = sorted(
                {c.cards.bit_length() - 1 for c in rv.choices if c.move is Move.ACTIVATE}
            )
            if not offered:
                self.screen.say("You have no function to activate now", "error")
            else:
                words = ", ".join(
                    card_words(c, game.rules, ascii_only=self.screen.ascii_only).plain
                    for c in offered
                )
                self.screen.say(f"Raise one Character card, then a: {words}", "error")
            return
        card = characters[0]
        function = function_of(card, game.rules)
        if function == "exchange":
            normal = [c for c in ids(raised) if c < REVOLUTION_BASE]
            if len(normal) != 1 or raised.bit_count() != 2:
                self.screen.say(
                    "An exchange: raise the A* and the one normal card to give, then a", "error"
                )
                return
            targets = self._targets()
            if len(targets) == 1:
                self._answer(lambda: game.activate(seat, card, targets[0], normal[0]))
                return
            self._giving = (card, normal[0])
            self.screen.say("")
            self.screen.redraw()
            return
        if raised.bit_count() != 1:
            self.screen.say(f"A {function} gives no card: raise the Character card alone", "error")
            return
        self._answer(lambda: game.activate(seat, card))

    def _give_to(self, index: int) -> None:
        game = self.game
        assert self._giving is not None
        targets = self._targets()
        if not 0 <= index < len(targets):
            self.screen.say(f"Press 1 to {len(targets)} for the player (Esc cancels)", "error")
            return
        seat = self.screen.acting_seat()
        card, give = self._giving
        self._giving = None
        if seat is None:
            self.screen.redraw()
            return
        self._answer(lambda: game.activate(seat, card, targets[index], give))

    def counter(self) -> None:
        game = self.game
        seat = self._viewer_asked()
        if seat is None:
            self.screen.say(self.closed() or "There is no function to counter now", "error")
            return
        rv = game.revolution_view()
        counters = [c.cards.bit_length() - 1 for c in rv.choices if c.move is Move.COUNTER]
        raised = [c for c in counters if self.screen.hand_view.selection_mask >> c & 1]
        if not counters:
            self.screen.say(
                "Only a Revolution Q can counter, and you hold none: x lets it stand", "error"
            )
            return
        card = (raised or counters)[0]
        self._answer(lambda: game.counter(seat, card), "")

    def _by(self, seat: int | None, refused: str, move: Callable[[int], object]) -> None:
        """The person on show makes ``move`` at their seat, or hears why not (``refused``)."""
        if seat is not None:
            self._answer(lambda: move(seat))
        elif refused:
            self.screen.say(refused, "error")

    def decline(self) -> None:
        refused = self.closed() or "There is no function to answer now"
        self._by(self._viewer_asked(), refused, self.game.decline)

    def draw_deck(self) -> None:
        self._by(self._drawing(), "You may draw after you pass", lambda s: self.game.draw(s, None))

    def _take_from_gathering(self, index: int) -> None:
        game = self.game
        seat = self._drawing()
        assert seat is not None
        gathering = game.mirror.gathering
        if not 0 <= index < len(gathering):
            self.screen.say(
                f"The Gathering holds {count(len(gathering), 'card')}: press 1 to {len(gathering)}",
                "error",
            )
            return
        card = gathering[index]
        self._answer(lambda: game.draw(seat, card))

    def stop_drawing(self) -> None:
        self._by(self._drawing(), "", self.game.stop)

    def reference(self) -> None:
        from .pages import Page

        body = reference_text(self.game.rules, ascii_only=self.screen.ascii_only)
        self.screen.app.push_screen(Page(body, title="The five functions   (Esc back)"))

    def hint(self) -> None:
        game = self.game
        seat = self._viewer_asked()
        if seat is None:
            seat = self.screen.acting_seat()
        if seat is None:
            self.screen.say("Hints are for your turn", "error")
            return
        try:
            choice, words = game.revolution_hint(seat)
        except BigTwoError as exc:
            self.screen.say(str(exc), "error")
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
            self.screen.hand_view.select_mask(Mask(raise_))
        else:
            self.screen.hand_view.clear()
        key = keys.get(choice.move, "d" if choice.move is Move.DRAW and not choice.cards else "1-4")
        self.screen.say(f"Hint: {words}  ({key})", "hint")
        self.screen.hinted_pass = choice.move is Move.PASS
