"""The table screen's part for a game of Big Two: what it draws and does its own way.

The table screen (:class:`~bigtwo.tui.table.TableScreen`) takes one part for the game it
shows, chosen when the game is attached: :class:`BigTwoTable` for a game of 52 cards, or
:class:`~bigtwo.tui.revolution_table.RevolutionTable` (a subclass) for Big 2 RevolutioN. The
part draws the deal (the top bar, the opponents' panels, the trick, the hand, the buttons),
says on the status line whose turn it is, gives a hint, and has the first word on the keys
the expansion uses otherwise (Enter, ``p``, Esc, the number keys); the screen keeps what
every game shares. It never paces the game (that is :mod:`.runner`'s).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.style import Style
from rich.text import Text
from textual.widgets import Button, Static

from .mirrored import shown_names
from .render import avatar, cards_text
from .seating import PLACES, seat_status, trick_number
from .widgets import SeatPanel, TrickView, sort_cards
from .words import count, does, is_you, whose

if TYPE_CHECKING:
    from collections.abc import Sequence

    from .host import PartHost
    from .seating import Game


class BigTwoTable:
    """The table screen's part for a game of Big Two (52 cards): see the module docstring."""

    # The actions of the part's own keys (the expansion's: see the table's bindings).
    keys: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, screen: PartHost, game: Game) -> None:
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

        # Opponents, in play order from the seat after you.
        trick, finished = game.trick()
        passed = {a.seat for a in trick if a.play is None} if not finished else set()
        for seat, panel in self.panels():
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
                ascii_only=screen.ascii_only,
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
        """The top bar: the game, the deal, and the person at the bottom with their total and
        ``counts`` (their cards)."""
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

    def panels(self) -> list[tuple[int, SeatPanel]]:
        """The opponents' panels in play order from the seat after you, each with its seat
        (the panels of the places nobody sits at are hidden)."""
        game, screen = self.game, self.screen
        places = PLACES[game.players]
        for place in ("top", "left", "right"):
            screen.query_one(f"#seat-{place}", SeatPanel).set_class(place not in places, "-empty")
        return [
            ((game.home + k) % game.players, screen.query_one(f"#seat-{place}", SeatPanel))
            for k, place in enumerate(places, 1)
        ]

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

    def turn_status(self, text: Text, names: list[str]) -> None:
        """Whose turn, in the Palm game's words."""
        game, screen = self.game, self.screen
        view = game.view()
        seat = view.turn
        if game.is_human(seat) and (seat == game.viewer or not game.hot_seat):
            who = f", {names[seat]}" if game.hot_seat and not is_you(names[seat]) else ""
            if view.to_beat is None:
                text.append(f"Your Lead{who}", Style(color="bright_green", bold=True))
                if view.opening is not None:
                    text.append(f"  - include {screen.card_name(view.opening)}", Style(bold=False))
            else:
                text.append(f"Your Play{who}", Style(color="bright_green", bold=True))
                text.append(f"  - beat {whose(names[view.to_beat_seat])} ", Style(bold=False))
                text.append_text(
                    cards_text(view.to_beat.mask, ascii_only=screen.ascii_only, rules=game.rules)
                )
            return
        self.others_turn(text, names, seat)

    def others_turn(self, text: Text, names: list[str], seat: int, doing: str = "turn") -> None:
        """Another person's turn, or a computer's (``doing``: what it does in it)."""
        if self.game.is_human(seat):
            text.append(f"Next player's turn: {names[seat]}")
            return
        text.append(f"{whose(names[seat], capital=True)} {doing}", Style(bold=True))
        if self.game.computer_to_act:
            text.append("  (f: skip the wait)", Style(dim=True))

    def tick(self) -> None:
        """Twice a second (a clock of the expansion's): nothing to do in a game of 52 cards."""

    # -- the keys ----------------------------------------------------------------------------
    def first(self, action: str) -> bool:
        """Enter (``action`` "play") or ``p`` ("pass") while the game asks something else
        first: done or said here (True). Nothing is asked first in a game of 52 cards."""
        return False

    def can_pass(self, seat: int) -> bool:
        return self.game.view(seat).can_pass

    def pick(self, index: int) -> bool:
        """A number key that means something else than raising a card (True when done)."""
        return False

    def clear(self) -> bool:
        """Esc calls off what the part was asking (True), else it clears the selection."""
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
