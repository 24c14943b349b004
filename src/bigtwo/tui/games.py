"""What the terminal does its own way for each game: Big Two (52 cards), or Big 2 RevolutioN.

:func:`game_of` is the one place that asks which game a rule set plays; the terminal asks the
:class:`BigTwoGame` it gives (or its subclass :class:`RevolutionGame`) what differs: undo,
chosen cards, the computer levels, a network table's plays, the history, the cards played,
the score sheet, the help, and the time played kept with the record. The table screen's
drawing is its part's (:class:`~bigtwo.tui.table.BigTwoTable`). Nothing here draws or sends.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from rich.style import Style
from rich.text import Text

from ..engine.cards import RANK_NAMES, SUIT_SYMBOLS, SUITS, Mask, card_indices, card_symbols
from ..engine.plays import Play
from ..engine.revolution import Move
from ..engine.revolution_cards import NORMAL_CARDS
from ..engine.rules import BIGTWO, REVOLUTION, Rules
from ..match import history
from ..match.history import ScoreRow, score_rows
from .render import RED_TEXT, cards_text, in_suit_order, is_red
from .revolution import reference_text
from .words import second_person

if TYPE_CHECKING:
    from ..engine.revolution_types import RevolutionView
    from ..match.match import Match
    from ..match.revolution import RevolutionMatch
    from ..match.views import TableView
    from ..service.mirror import TableMirror
    from ..store.matches import MatchStore


class LocalGame(Protocol):
    """What the words and the clock of a game read of a local table's game."""

    viewer: int | None
    match_id: int | None
    seconds_before: float
    clock: Callable[[], float]

    @property
    def rules(self) -> Rules: ...
    @property
    def mirror(self) -> TableMirror: ...
    @property
    def names(self) -> list[str]: ...
    @property
    def match(self) -> Match: ...
    @property
    def played(self) -> Match | RevolutionMatch: ...
    @property
    def deal_over(self) -> bool: ...
    @property
    def deal_number(self) -> int: ...
    @property
    def counted_seconds(self) -> float: ...


class BigTwoGame:
    """Big Two with 52 cards, as the terminal plays it."""

    # Why plays cannot be taken back, and why cards cannot be chosen for a deal ("": they can).
    undo_off = ""
    cards_off = ""
    autopass = True  # the table passes for whoever cannot beat the table, if asked to
    deal_heading = "the plays"  # the deal in play in a network table's history
    opens_with_card = True  # a refused first play names the card it must include

    def levels(self, levels: Sequence[str]) -> list[str]:
        """The computer levels that play this game, of ``levels`` (those of 52 cards)."""
        return list(levels)

    # -- a computer's decision, thought in a worker thread ---------------------------------
    # Shown at once: the thinking took the computer's pause.
    paced_thoughts = False

    def take_thought(self, game: Any, request: Any, answer: Any, bot: Any) -> object:
        """Make at the local ``game`` the decision a computer thought for ``request``."""
        return game.thought(request, answer, bot)

    # -- a network table: what the seat may play -------------------------------------------
    def plays(self, mirror: TableMirror) -> set[int]:
        """The plays the table told the seat it may make, as cards."""
        return {p.mask for p in mirror.legal or ()}

    def can_pass(self, mirror: TableMirror) -> bool:
        return mirror.can_pass and mirror.my_turn

    def to_beat(self, mirror: TableMirror) -> Play | None:
        return mirror.to_beat

    def deal_lines(self, mirror: TableMirror, names: Sequence[str]) -> list[str]:
        """The deal in play as the seat saw it, one line a play or pass."""
        lines = []
        for action in mirror.actions:
            name = names[action.seat] if action.seat < len(names) else "?"
            if action.play is None:
                lines.append(f"{name}: pass" + (" (auto)" if action.auto else ""))
            else:
                lines.append(f"{name}: {card_symbols(action.play.mask)}")
        return lines

    # -- words ---------------------------------------------------------------------------
    def history_text(self, game: LocalGame, scope: str) -> str:
        """The Palm-style history of the deal in play (``scope="deal"``) or of the whole
        game, the other players' opening hands hidden while the deal is in play."""
        shown = () if game.viewer is None else (game.viewer,)
        told = history.deal_history if scope == "deal" else history.match_history
        return in_suit_order(told(game.match, shown=shown), game.rules)

    def tracker_text(self, mirror: TableMirror, hand: Mask, rules: Rules, ascii_only: bool) -> Text:
        """The cards played so far, your own (``hand``) marked."""
        return tracker_text(mirror.played, hand, rules, ascii_only=ascii_only)

    def seat_view(self, mirror: TableMirror) -> TableView | RevolutionView:
        """The seat's view rebuilt from its mirror, as the coach's beliefs read it."""
        return mirror.seat_view()

    def reference(self, rules: Rules, *, ascii_only: bool) -> str:
        return ""  # the help says all after the rules and the keys

    def score_rows(self, game: LocalGame, number: int | None) -> list[ScoreRow]:
        return score_rows(game.match, number)

    def replay_steps(self, match: Match | RevolutionMatch) -> list[tuple[int, Callable[[], str]]]:
        """Each position of the deals that are over, as its deal's number and its text with
        every hand face up: a play at a time."""
        return [
            (p.deal, lambda p=p: history.position_text(match, p))  # type: ignore[misc, arg-type]
            for p in history.positions(match)  # type: ignore[arg-type]
            if p.record.result is not None
        ]

    def sheet_note(self, text: Text, game: LocalGame) -> Text:
        return text  # the score sheet as it is

    # -- the time played ------------------------------------------------------------------
    def seconds(self, game: LocalGame) -> int:
        game.match.tick(game.clock())
        return int(game.match.seconds)

    def kept_seconds(self, game: LocalGame) -> float | None:
        """The time played kept beside the record: none (the match's record has its clock)."""
        return None

    def resume_clock(self, game: LocalGame, store: MatchStore, match_id: int) -> None:
        """A resumed game's time played so far, from its stored record."""
        played = store.load_match(match_id).deal_seconds
        if len(played) == len(game.match.deal_seconds):
            game.match.deal_seconds[:] = played

    def final_seconds(self, game: LocalGame, store: MatchStore) -> float | None:
        return None  # the time a finished game took, for its high score: the record's


class RevolutionGame(BigTwoGame):
    """Big 2 RevolutioN, the expansion: two decks, Character functions and draws."""

    undo_off = "Plays cannot be taken back in Big 2 RevolutioN"
    cards_off = "Cards cannot be chosen for a deal of the revolution"
    autopass = False  # the revolution has no autopass
    deal_heading = "as you saw it"
    opens_with_card = False
    paced_thoughts = True  # shown after the same pause as the others' moves

    def take_thought(self, game: Any, request: Any, answer: Any, bot: Any) -> object:
        return game.revolution_thought(request, answer)

    def levels(self, levels: Sequence[str]) -> list[str]:
        from ..bots import bot_names
        from ..bots.levels import by_strength

        return by_strength(bot_names("revolution"))

    def plays(self, mirror: TableMirror) -> set[int]:
        choices = mirror.revolution_view().choices
        return {c.cards for c in choices if c.move is Move.PLAY}

    def can_pass(self, mirror: TableMirror) -> bool:
        return mirror.revolution_view().can_pass

    def deal_lines(self, mirror: TableMirror, names: Sequence[str]) -> list[str]:
        from ..match.revolution_history import describe_actions

        return [second_person(line) for line in describe_actions(mirror.moves, names)]

    def history_text(self, game: LocalGame, scope: str) -> str:
        """Each finished hand in words, and the hand in play as the seat on show saw it (a
        card drawn face down by another player hidden)."""
        from ..match.revolution_history import describe_actions, history_lines

        names = game.names
        results = game.played.results
        lines: list[str] = []
        if scope != "deal":
            for result in results:
                lines += history_lines(result, names)  # type: ignore[arg-type]
                lines.append("")
        if not game.deal_over:
            lines.append(f"Deal {game.deal_number} (in play)")
            lines += ["  " + line for line in describe_actions(game.mirror.moves, names)]
            if not game.mirror.moves:
                lines.append("  (nothing played yet)")
        elif scope == "deal" and results:
            lines += history_lines(results[-1], names)  # type: ignore[arg-type]
        return "\n".join(second_person(line) for line in lines).rstrip("\n") + "\n"

    def tracker_text(self, mirror: TableMirror, hand: Mask, rules: Rules, ascii_only: bool) -> Text:
        """The normal deck's grid (a Revolution card played counts for its twin's place),
        then the Revolution cards played and the Character cards discarded."""
        played = int(mirror.played)
        normal = Mask(played & NORMAL_CARDS)
        text = tracker_text(normal, Mask(hand & NORMAL_CARDS), rules, ascii_only=ascii_only)
        for title, cards in (
            ("Revolution cards played", played & ~NORMAL_CARDS),
            ("Discarded for a function", mirror.discards),
        ):
            text.append(f"\n  {title}: ", Style(bold=True))
            if cards:
                text.append_text(cards_text(card_indices(Mask(cards)), ascii_only=ascii_only))
            else:
                text.append("none")
        text.append("\n")
        return text

    def seat_view(self, mirror: TableMirror) -> TableView | RevolutionView:
        return mirror.revolution_view()

    def reference(self, rules: Rules, *, ascii_only: bool) -> str:
        """The reference card of the five functions."""
        return "\n\n" + reference_text(rules, ascii_only=ascii_only)

    def score_rows(self, game: LocalGame, number: int | None) -> list[ScoreRow]:
        """The normal cards left, which are the ones scored."""
        rows = score_rows(game.played, number)  # type: ignore[arg-type]
        kept = [(r, Mask(r.cards & NORMAL_CARDS)) for r in rows]
        return [replace(r, cards=n, cards_left=n.bit_count()) for r, n in kept]

    def replay_steps(self, match: Match | RevolutionMatch) -> list[tuple[int, Callable[[], str]]]:
        """An action at a time (with the Gathering, the deck, the order of cards and what
        each function, counter and draw did, in words)."""
        from ..match.revolution_history import revolution_positions

        finished = len(match.results)
        steps: list[tuple[int, Callable[[], str]]] = []
        for text in revolution_positions(match):  # type: ignore[arg-type]
            deal = int(text.split(":", 1)[0].split()[1])  # "Deal 2: ..."
            if deal <= finished:
                steps.append((deal, lambda text=text: text))  # type: ignore[misc]
        return steps

    def sheet_note(self, text: Text, game: LocalGame) -> Text:
        """How the hand ended, and that only normal cards are scored."""
        end = getattr(game.played.results[-1], "end", None)
        note = Text()
        if end is not None and end.value == "exhaustion":
            note.append("The Revolution deck ran out: the fewest normal cards pay nothing.\n")
        note.append("Cards left are normal cards; Revolution cards cost nothing.\n\n")
        note.append_text(text)
        return note

    def seconds(self, game: LocalGame) -> int:
        return int(game.counted_seconds)

    def kept_seconds(self, game: LocalGame) -> float | None:
        """The time this screen counted (the match keeps no clock)."""
        return game.counted_seconds

    def resume_clock(self, game: LocalGame, store: MatchStore, match_id: int) -> None:
        game.seconds_before = store.revolution_seconds(match_id)

    def final_seconds(self, game: LocalGame, store: MatchStore) -> float | None:
        """The time the game was finished with, as its statistics keep it."""
        stored = None if game.match_id is None else store.revolution_seconds(game.match_id)
        return stored or game.counted_seconds


_BIG_TWO = BigTwoGame()
_REVOLUTION = RevolutionGame()


_GAMES = {BIGTWO: _BIG_TWO, REVOLUTION: _REVOLUTION}


def game_of(rules: Rules) -> BigTwoGame:
    """The game ``rules`` play."""
    return _GAMES[rules.game]


def tracker_text(played: Mask, hand: Mask, rules: Rules, *, ascii_only: bool = False) -> Text:
    """Cards played so far by suit and rank; your own cards marked, the rest unseen."""
    text = Text()
    text.append(f"Cards played: {played.bit_count()} of 52\n\n", Style(bold=True))
    text.append(
        "       " + "".join(f"{r:>3}" for r in RANK_NAMES) + "   played\n", Style(bold=True)
    )
    unseen = "." if ascii_only else "·"
    mine = "*" if ascii_only else "▪"
    for suit_char in reversed(rules.suit_order):
        suit = SUITS.index(suit_char)
        label = suit_char if ascii_only else SUIT_SYMBOLS[suit]
        style = RED_TEXT if suit in (0, 2) else Style(bold=True)
        text.append(f"  {label:<4} ", style)
        count = 0
        for rank in range(13):
            card = rank * 4 + suit
            if played >> card & 1:
                text.append(
                    f"{RANK_NAMES[rank]:>3}", RED_TEXT if is_red(card) else Style(bold=True)
                )
                count += 1
            elif hand >> card & 1:
                text.append(f"{mine:>3}", Style(color="cyan"))
            else:
                text.append(f"{unseen:>3}", Style(dim=True))
        text.append(f"   {count:>2}/13\n")
    text.append(f"\n  {mine} in your hand   {unseen} not seen yet\n", Style(dim=True))
    if played:
        text.append("\n  Played: ")
        text.append_text(cards_text(card_indices(played), ascii_only=ascii_only, rules=rules))
        text.append("\n")
    return text
