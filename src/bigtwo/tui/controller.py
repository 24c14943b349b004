"""The terminal game's logic, apart from any widget: one match, its seats, and whose move it is.

:class:`GameController` owns the :class:`~bigtwo.match.match.Match`, knows which seats are
people and which are computer players, makes the computer moves one at a time (the screen
decides *when*, so delays stay out of here and tests run at full speed), gives hints, tracks
which person's hand may be shown in a hot-seat game, and says which plays make up the trick.
A quit game resumes from the match's record (kept by the store) plus the few facts of
:meth:`GameController.table_data`. It never draws, never sleeps and never stores anything;
refused actions raise :class:`BigTwoError` with the reason in words.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..engine.cards import Mask, card_symbols
from ..engine.deal import Action, Deal
from ..engine.errors import BigTwoError, IllegalAction, NotYourTurn
from ..engine.plays import Play
from ..engine.rules import Rules
from ..engine.views import SeatView
from ..match.history import ScoreRow, score_rows
from ..match.match import Match, SeatKind
from ..match.settings import RuleSet
from ..match.views import TableView

if TYPE_CHECKING:
    from ..bots.base import Bot
    from .prefs import Prefs


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """One seat of a new game: who sits there and, for a computer, how well it plays."""

    name: str
    human: bool
    level: str = "greedy"


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start a game; ``custom`` gives seats chosen first-deal cards."""

    seats: tuple[SeatSetup, ...]
    rules: str = "palm"
    seed: int | None = None
    deals: int | None = None
    autopass: bool = True
    autopass_five: bool = False
    custom: tuple[tuple[int, Mask], ...] = ()

    @staticmethod
    def from_prefs(
        prefs: Prefs,
        *,
        rules: str | None = None,
        seed: int | None = None,
        deals: int | None = None,
        players: int | None = None,
        humans: Sequence[bool] | None = None,
        custom: Sequence[tuple[int, Mask]] = (),
    ) -> GameSetup:
        name = rules or prefs.rules
        preset = Rules.preset(name)
        count = players or prefs.players
        if count not in preset.players:
            count = preset.default_players
        who = list(humans if humans is not None else prefs.humans)
        who = (who + [False] * 4)[:count]
        level = prefs.bot_level()
        seats = tuple(SeatSetup(prefs.names[i], bool(who[i]), level) for i in range(count))
        return GameSetup(
            seats=seats,
            rules=name,
            seed=seed,
            deals=deals,
            autopass=prefs.autopass,
            autopass_five=prefs.autopass_five,
            custom=tuple(custom),
        )


@dataclass(frozen=True, slots=True)
class Hint:
    play: Play | None  # None: pass
    reason: str


class GameController:
    """One game (a match of several deals) as the table screen drives it."""

    def __init__(
        self,
        setup: GameSetup,
        *,
        match: Match | None = None,
        clock: Callable[[], float] = time.monotonic,
        game_number: int = 1,
    ) -> None:
        self.setup = setup
        self.game_number = game_number
        names = [s.name for s in setup.seats]
        if match is None:
            match = Match(
                RuleSet.preset(setup.rules),
                names,
                seed=_game_seed(setup.seed, game_number),
                deals=setup.deals,
                autopass=setup.autopass,
                autopass_five=setup.autopass_five,
                custom=dict(setup.custom) or None,
                kinds=[SeatKind.HUMAN if seat.human else seat.level for seat in setup.seats],
            )
        self.match = match
        self.clock = clock
        match.tick(clock())
        self.humans = [i for i, s in enumerate(setup.seats) if s.human]
        self.bots: dict[int, Bot] = {}
        self.rng = random.Random(f"{match.seed}:bots")
        # The person whose hand is face up. In a hot-seat game it only changes behind the
        # "next player's turn" cover, so two people's hands are never on screen together.
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.last_auto: list[Action] = []
        self.match_id: int | None = None  # the store's id for this match, once saved
        self.saved_table: dict[str, Any] | None = None  # table data as last stored
        self._pending_level = False
        self._start_bots()

    # -- seats ---------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return self.match.players

    @property
    def names(self) -> list[str]:
        return self.match.names

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def is_human(self, seat: int) -> bool:
        return self.setup.seats[seat].human

    @property
    def home(self) -> int:
        """The seat drawn at the bottom of the table: the hand on show, else the first person."""
        if self.viewer is not None:
            return self.viewer
        return self.humans[0] if self.humans else 0

    def _start_bots(self) -> None:
        """Tell each computer player a deal has begun (made on first use, see _bot)."""
        for seat, bot in self.bots.items():
            bot.new_deal(seat)

    def _bot(self, seat: int) -> Bot:
        # Made when first asked to move, not with the game: loading the levels (some need
        # numpy) would otherwise delay the table's first appearance.
        bot = self.bots.get(seat)
        if bot is None:
            from ..bots import make_bot

            try:
                bot = make_bot(self.setup.seats[seat].level)
            except BigTwoError:
                bot = make_bot("greedy")  # a level saved by a newer version of bigtwo
            bot.tell_humans(frozenset(self.humans))
            bot.new_deal(seat)
            self.bots[seat] = bot
        return bot

    def set_level(self, level: str) -> None:
        """Computer seats play at ``level`` from the next deal on (bots plan per deal)."""
        seats = tuple(s if s.human else SeatSetup(s.name, False, level) for s in self.setup.seats)
        self.setup = _replace_setup(self.setup, seats=seats)
        self._pending_level = True

    def set_names(self, names: Sequence[str]) -> None:
        for seat in range(self.players):
            if seat < len(names) and names[seat]:
                self.match.names[seat] = names[seat]
        seats = tuple(
            SeatSetup(self.match.names[i], s.human, s.level) for i, s in enumerate(self.setup.seats)
        )
        self.setup = _replace_setup(self.setup, seats=seats)

    def set_autopass(self, autopass: bool, autopass_five: bool) -> None:
        """Autopass takes effect at once: it decides nothing already played."""
        self.match.autopass = autopass
        self.match.autopass_five = autopass_five
        self.setup = _replace_setup(self.setup, autopass=autopass, autopass_five=autopass_five)

    def set_rules(self, name: str) -> bool:
        """Change the rule set from the next deal on. False when this game's player count
        cannot play it (the change then waits for a new game)."""
        rules = RuleSet.preset(name)
        if self.players not in rules.rules.players:
            return False
        self.match.set_rules(rules)
        return True

    # -- the deal ------------------------------------------------------------------------
    @property
    def deal(self) -> Deal:
        return self.match.deal

    @property
    def rules(self) -> Rules:
        return self.match.deal.rules

    @property
    def turn(self) -> int:
        return self.match.deal.turn

    @property
    def deal_over(self) -> bool:
        return self.match.deal.over

    @property
    def game_over(self) -> bool:
        return self.match.over

    @property
    def computer_to_act(self) -> bool:
        return not self.deal_over and not self.is_human(self.turn)

    @property
    def human_to_act(self) -> int | None:
        if self.deal_over or not self.is_human(self.turn):
            return None
        return self.turn

    def needs_cover(self) -> bool:
        """A different person is to act than the one whose hand is showing (hot-seat)."""
        seat = self.human_to_act
        return self.hot_seat and seat is not None and seat != self.viewer

    def reveal(self, seat: int) -> None:
        """Show ``seat``'s hand: called once the cover for that person has been dismissed."""
        if not self.is_human(seat):
            raise IllegalAction("Only a person's hand can be shown")
        self.viewer = seat

    def view(self, seat: int | None = None) -> TableView:
        return self.match.view(self.home if seat is None else seat)

    def hand(self) -> Mask:
        """The cards face up at the bottom: the viewer's, or none while hot-seat hands hide."""
        if not self.humans or (self.viewer is None and self.hot_seat):
            return Mask(0)
        return self.match.deal.hands[self.home]

    # -- actions -------------------------------------------------------------------------
    def play(self, seat: int, cards: Mask | Play) -> list[Action]:
        """A person plays; refused plays raise with the engine's reason."""
        self._check_person(seat)
        return self._applied(self.match.play(seat, cards))

    def pass_(self, seat: int) -> list[Action]:
        self._check_person(seat)
        return self._applied(self.match.pass_(seat))

    def _check_person(self, seat: int) -> None:
        if self.deal_over:
            raise IllegalAction("The deal is over")
        if seat != self.turn:
            raise NotYourTurn(f"Not your turn: {self.names[self.turn]} is to play")
        if not self.is_human(seat):
            raise NotYourTurn(f"{self.names[seat]} is a computer player")

    def computer_step(self) -> list[Action]:
        """One computer move (plus any autopasses after it); nothing when a person is to act."""
        if not self.computer_to_act:
            return []
        seat = self.turn
        deal = self.match.deal
        bot = self._bot(seat)
        view = self.match.view(seat)
        if bot.peeks:
            bot.peek(deal)
        choice = bot.choose(view, self.rng)
        # A bot's mistake must not stop the game: fall back to the cheapest legal move.
        if choice is not None and choice not in view.legal:
            choice = view.legal[0] if view.legal else None
        if choice is None and not view.can_pass:
            choice = view.legal[0]
        return self._applied(self.match.act(seat, choice))

    def run_computers(self, limit: int = 1000) -> list[Action]:
        """Computer moves until a person is to act or the deal ends."""
        applied: list[Action] = []
        while self.computer_to_act and limit > 0:
            applied += self.computer_step()
            limit -= 1
        return applied

    def _applied(self, actions: list[Action]) -> list[Action]:
        self.match.tick(self.clock())
        # Kept until the table has told the person (several computer moves may come first).
        self.last_auto += [a for a in actions if a.auto and self.is_human(a.seat)]
        return actions

    def next_deal(self) -> None:
        """Deal again once a deal is over (scores already counted by the match)."""
        self.match.next_deal()
        self._after_new_deal()

    def _after_new_deal(self) -> None:
        if self._pending_level:
            self.bots = {}
            self._pending_level = False
        self._start_bots()
        if self.hot_seat:
            self.viewer = None  # the next person to act is shown behind a cover
        self.last_auto = []

    def hint(self, seat: int | None = None) -> Hint:
        """What to play: the project's hint adviser when installed, else the cheapest play."""
        view = self.view(self.turn if seat is None else seat)
        try:
            from ..bots import hint as hint_module
        except ImportError:
            hint_module = None  # type: ignore[assignment]
        if hint_module is not None and hasattr(hint_module, "hint"):
            try:
                return _as_hint(hint_module.hint(view))
            except BigTwoError:
                pass
        return cheapest_hint(view)

    # -- what the table shows -------------------------------------------------------------
    def trick(self) -> tuple[list[Action], bool]:
        """The actions of the trick in play, or of the trick just won when the next lead is
        still to come (``True``), so the last plays stay on the table until someone leads."""
        actions = list(self.match.deal.actions)
        if not actions:
            return [], False
        ends = [i for i, a in enumerate(actions) if a.trick_over]
        if ends and ends[-1] == len(actions) - 1:
            start = ends[-2] + 1 if len(ends) > 1 else 0
            return actions[start:], True
        start = ends[-1] + 1 if ends else 0
        return actions[start:], False

    def score_rows(self, number: int | None = None) -> list[ScoreRow]:
        """The score sheet of deal ``number`` (the last finished one by default)."""
        return score_rows(self.match, number)

    @property
    def seconds(self) -> int:
        self.match.tick(self.clock())
        return int(self.match.seconds)

    def max_deal_score(self, seat: int) -> int:
        return self.match.best_deal(seat)

    # -- saving and resuming -------------------------------------------------------------
    def table_data(self) -> dict[str, Any]:
        """What the table adds to the match's record to resume it as it was: the game's
        number this session, the seed it came from, the game length asked for, the hand on
        show. The record itself (cards, actions, seats and their kinds) is the store's."""
        return {
            "game_number": self.game_number,
            "seed": self.setup.seed,
            "deals": self.setup.deals,
            "viewer": self.viewer,
        }

    @classmethod
    def from_match(
        cls,
        match: Match,
        table: dict[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> GameController:
        """Carry on a match replayed from its record; seats come from the match's kinds
        (``human`` or a computer level)."""
        table = table if isinstance(table, dict) else {}
        seats = tuple(
            SeatSetup(
                name, kind == SeatKind.HUMAN, kind if kind not in (SeatKind.HUMAN, "") else "greedy"
            )
            for name, kind in zip(match.names, match.kinds, strict=True)
        )
        if not any(s.human for s in seats):
            # A record from elsewhere that says nothing of who sat where: you take the first
            # seat it leaves unnamed (else seat 0), computers the rest.
            kinds = list(match.kinds)
            you = kinds.index("") if "" in kinds else 0
            seats = tuple(SeatSetup(s.name, i == you, s.level) for i, s in enumerate(seats))
        setup = GameSetup(
            seats=seats,
            rules=match.next_ruleset.name,
            seed=table.get("seed"),
            deals=table.get("deals"),
            autopass=match.autopass,
            autopass_five=match.autopass_five,
        )
        game = cls(setup, match=match, clock=clock, game_number=int(table.get("game_number", 1)))
        viewer = table.get("viewer")
        # A hot-seat game resumes behind a cover (viewer None): whoever sits down first may
        # not be the person whose hand was showing when the game was left.
        if isinstance(viewer, int) and not game.hot_seat and viewer in game.humans:
            game.viewer = viewer
        return game

    def new_game(self) -> GameController:
        """The next game with the same seats (the Palm game restarts after the last deal)."""
        setup = _replace_setup(self.setup, custom=(), rules=self.match.next_ruleset.name)
        return GameController(setup, game_number=self.game_number + 1, clock=self.clock)


def cheapest_hint(view: SeatView) -> Hint:
    """The fallback adviser: the cheapest legal play, or a pass when there is no reply."""
    if not view.legal:
        if view.to_beat is not None:
            return Hint(None, f"Nothing in your hand beats {view.to_beat.symbols()}: pass")
        return Hint(None, "No play is possible")
    play = view.legal[0]
    if view.to_beat is None:
        if view.opening is not None:
            return Hint(
                play, f"Lead the cheapest play with {card_symbols(Mask(1 << view.opening))}"
            )
        return Hint(play, "Lead your cheapest play")
    return Hint(play, f"The cheapest play that beats {view.to_beat.symbols()}")


def _as_hint(value: Any) -> Hint:
    """Accept the adviser's answer as a Hint, a (play, reason) pair or an object with both."""
    if isinstance(value, Hint):
        return value
    if isinstance(value, tuple) and len(value) == 2:
        return Hint(value[0], str(value[1]))
    if isinstance(value, Play) or value is None:
        return Hint(value, "Suggested play" if value is not None else "Pass")
    play = getattr(value, "play", None)
    reason = getattr(value, "reason", "") or getattr(value, "text", "")
    return Hint(play, str(reason))


def _game_seed(seed: int | None, game_number: int) -> int | None:
    if seed is None:
        return None
    return seed if game_number == 1 else seed + game_number - 1


def _replace_setup(setup: GameSetup, **changes: Any) -> GameSetup:
    return replace(setup, **changes)
