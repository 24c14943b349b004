"""The terminal game's logic, apart from any widget: one game at a local table.

:class:`GameController` plays a game through a :class:`~bigtwo.service.local.LocalTable`, the
table service in-process, the same one the game server runs: every person's play is a command
to the table, every computer move is the table's own (a
:class:`~bigtwo.bots.seat.ComputerSeat`, so one seed gives one game here and on a server), and
what the screen draws comes from the :class:`~bigtwo.service.mirror.TableMirror` of the seat on
show, built from the events that reach that seat. The table's runner (:mod:`.runner`) decides
*when* a computer moves (by :meth:`GameController.deadline`); a computer of a slow level thinks
in a worker thread (:meth:`GameController.think_request`), never on the screen's loop. It
tracks which person's hand may be shown in a hot-seat game; what it reads the same way as a
network table (the trick in play, hints) it inherits from
:class:`~bigtwo.tui.mirrored.MirroredTable`. The table's command log is stored as it goes, so a
quit game resumes by replaying it. It never draws and never sleeps; refused actions raise
:class:`BigTwoError` with the reason.

A game of Big 2 RevolutioN (preset ``revolution``) is played through the same table: the
person's moves of the expansion (:meth:`GameController.activate`, ``counter``, ``decline``,
``draw``, ``stop``) are the table's commands, the computers answer its counter windows, and a
hot-seat game covers the hand for each person a counter window asks in turn.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, cast

from ..engine.cards import Mask, card_text
from ..engine.errors import BigTwoError, IllegalAction, NotYourTurn
from ..engine.plays import Play
from ..engine.revolution import Phase
from ..engine.rules import BIGTWO, Rules
from ..engine.views import Action
from ..match.history import ScoreRow
from ..match.views import TableView
from ..service.clocks import TRICK_HOLD
from ..service.commands import Command, Op
from ..service.config import SeatConfig, TableConfig
from ..service.local import LocalTable, LogStore
from ..service.mirror import TableMirror
from ..service.table import ThinkRequest
from .mirrored import Hint as Hint
from .mirrored import MirroredTable, hint_for
from .mirrored import cheapest_hint as cheapest_hint
from .prefs import levels_for, playing_level

if TYPE_CHECKING:
    from ..bots.base import Bot
    from ..bots.revolution import RevolutionBot
    from ..bots.seat import ComputerSeat, Decision
    from ..match.match import Match
    from ..match.revolution import RevolutionMatch
    from .prefs import Prefs

# Levels that decide in microseconds think on the screen's loop; the others in a thread.
QUICK_LEVELS = frozenset({"random", "greedy", "classic", "classic-fair"})


def thinks_in_a_thread(level: str) -> bool:
    return level not in QUICK_LEVELS


@dataclass(frozen=True, slots=True)
class SeatSetup:
    """One seat of a new game: who sits there and, for a computer, how well it plays."""

    name: str
    human: bool
    level: str = "greedy"


@dataclass(frozen=True, slots=True)
class GameSetup:
    """Everything needed to start a game; ``custom`` gives seats chosen cards, as
    (seat, cards) for the first deal or (deal, seat, cards) for any deal."""

    seats: tuple[SeatSetup, ...]
    rules: str = "palm"
    seed: int | None = None
    deals: int | None = None
    autopass: bool = True
    autopass_five: bool = False
    custom: tuple[tuple[int, ...], ...] = ()

    @staticmethod
    def from_prefs(
        prefs: Prefs,
        *,
        rules: str | None = None,
        seed: int | None = None,
        deals: int | None = None,
        players: int | None = None,
        humans: Sequence[bool] | None = None,
        custom: Sequence[tuple[int, ...]] = (),
    ) -> GameSetup:
        name = rules or prefs.rules
        preset = Rules.preset(name)
        count = players or prefs.players
        if count not in preset.players:
            count = preset.default_players
        who = list(humans if humans is not None else prefs.humans)
        who = (who + [False] * 4)[:count]
        level = playing_level(name, prefs.bot_level())
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

    def table_config(self, game_number: int = 1) -> TableConfig:
        """The local table for this game: no turn timer, nobody taken over, and between
        deals the table waits for every person's "next"."""
        seed = _game_seed(self.seed, game_number)
        if seed is None:
            seed = random.SystemRandom().randrange(1 << 62)
        return TableConfig(
            preset=self.rules,
            seats=tuple(
                SeatConfig() if s.human else SeatConfig("computer", level=s.level, name=s.name)  # type: ignore[arg-type]
                for s in self.seats
            ),
            deals=self.deals,
            seed=seed,
            seeded=self.seed is not None,
            turn_seconds=None,
            away_seconds=None,
            autopass=self.autopass,
            autopass_five=self.autopass_five,
            between_deals_seconds=None,
        )


class GameController(MirroredTable):
    """One game (a match of several deals) as the table screen drives it."""

    def __init__(
        self,
        setup: GameSetup,
        *,
        local: LocalTable | None = None,
        store: LogStore | None = None,
        clock: Callable[[], float] = time.monotonic,
        game_number: int = 1,
    ) -> None:
        self.setup = setup
        self.game_number = game_number
        self.clock = clock
        if local is None:
            local = self._open(setup, store, clock, game_number)
        self.local = local
        self.humans = list(local.people)
        # The person whose hand is face up. In a hot-seat game it only changes behind the
        # "next player's turn" cover, so two people's hands are never on screen together.
        self.viewer: int | None = self.humans[0] if len(self.humans) == 1 else None
        self.match_id: int | None = None  # the match store's id for this game, once saved
        self.saved_table: dict[str, Any] | None = None  # table data as last stored
        self.taken_back = False  # an undo since the last save: the deal is stored again
        self.seconds_before = 0.0  # the time played before it was resumed (counted_seconds)
        self._taken_up = clock()
        self._tick()

    @staticmethod
    def _open(
        setup: GameSetup, store: LogStore | None, clock: Callable[[], float], game_number: int
    ) -> LocalTable:
        if store is None:
            from ..store.tables import MemoryStore

            store = MemoryStore()
        names = {i: s.name for i, s in enumerate(setup.seats) if s.human}
        first: list[Command] = []
        for item in setup.custom:
            deal, seat, cards = (1, *item) if len(item) == 2 else item
            value = {"deal": deal, "cards": card_text(Mask(cards))}
            first.append(Command(Op.CUSTOM, seat=seat, value=value))
        return LocalTable.open(
            setup.table_config(game_number),
            store,
            names,
            clock=clock,
            offload=thinks_in_a_thread,
            before_start=first,
        )

    # -- what the screen draws: the mirror of the seat on show ------------------------------
    @property
    def mirror(self) -> TableMirror:
        if self.local.watcher is not None:
            return self.local.watcher
        return self.local.mirrors[self.home]

    @property
    def match(self) -> Match:
        """The table's match, for the score sheet, the history and the store (read only:
        every change goes through the table's commands)."""
        match = self.local.service.game
        assert match is not None and self.rules.game == BIGTWO
        return cast("Match", match)

    @property
    def played(self) -> Match | RevolutionMatch:
        """The table's match of either kind (a 52-card one, or Big 2 RevolutioN's)."""
        played = self.local.service.game
        assert played is not None
        return played

    def _tick(self) -> None:
        game = self.local.service.game
        if game is not None:
            game.tick(self.clock())

    @property
    def players(self) -> int:
        return len(self.local.service.seats)

    @property
    def names(self) -> list[str]:
        return [str(s.get("name", "")) for s in self.mirror.room.get("seats", [])]

    @property
    def hot_seat(self) -> bool:
        return len(self.humans) > 1

    def is_human(self, seat: int) -> bool:
        return seat in self.humans

    @property
    def home(self) -> int:
        """The seat drawn at the bottom of the table: the hand on show, else the first person."""
        if self.viewer is not None:
            return self.viewer
        return self.humans[0] if self.humans else 0

    @property
    def bots(self) -> dict[int, ComputerSeat]:
        """The computer seats the table has made so far (tests put their own in)."""
        return _ComputerSeats(self)

    def _computer(self, seat: int) -> ComputerSeat:
        return self.local.service.computer_of(self.local.service.seats[seat])

    # -- settings: commands to the table ------------------------------------------------------
    def set_level(self, level: str) -> None:
        """Computer seats play at ``level`` from the next deal on (bots plan per deal); a
        level that does not play these rules changes nothing (the form offers only those
        that do)."""
        if level not in levels_for(self.setup.rules, [level]):
            return
        self.local.send(Command(Op.LEVEL, value={"level": level}))
        seats = tuple(s if s.human else SeatSetup(s.name, False, level) for s in self.setup.seats)
        self.setup = replace(self.setup, seats=seats)

    def set_names(self, names: Sequence[str]) -> None:
        """Names typed in Preferences, at once."""
        for seat in range(self.players):
            if seat < len(names) and names[seat] and names[seat] != self.names[seat]:
                self.local.send(Command(Op.RENAME, seat=seat, name=names[seat]))
        seats = tuple(
            SeatSetup(self.names[i], s.human, s.level) for i, s in enumerate(self.setup.seats)
        )
        self.setup = replace(self.setup, seats=seats)

    def set_autopass(self, autopass: bool, autopass_five: bool) -> None:
        """Autopass takes effect at once: it decides nothing already played."""
        if not self.kind.autopass:
            self.setup = replace(self.setup, autopass=autopass, autopass_five=autopass_five)
            return
        if (autopass, autopass_five) != (self.match.autopass, self.match.autopass_five):
            value = {"autopass": autopass, "autopass_five": autopass_five}
            self.local.send(Command(Op.AUTOPASS, value=value))
        self.setup = replace(self.setup, autopass=autopass, autopass_five=autopass_five)

    def set_rules(self, name: str) -> bool:
        """Change the rule set from the next game on. False when this game's player count
        cannot play it (the change then waits for a new game with other seats)."""
        try:
            self.local.send(Command(Op.RULES, value={"preset": name}))
        except BigTwoError:
            return False
        return True

    @property
    def next_rules(self) -> str:
        """The rule set the next game is played by."""
        chosen = self.mirror.room.get("next_rules")
        return str(chosen["preset"]) if chosen else self.setup.rules

    # -- the deal --------------------------------------------------------------------------------
    @property
    def totals(self) -> list[int]:
        return list(self.mirror.totals)

    @property
    def deal_over(self) -> bool:
        return self.mirror.winner is not None

    @property
    def game_over(self) -> bool:
        return self.mirror.status == "finished"

    @property
    def computer_to_act(self) -> bool:
        return self.local.computer_to_act()

    @property
    def human_to_act(self) -> int | None:
        if self.deal_over or self.game_over or not self.is_human(self.turn):
            return None
        if self.mirror.phase is Phase.COUNTER:
            return None  # the others answer the counter window: see asked()
        return self.turn

    def asked(self) -> list[int]:
        """The people at this screen a counter window asks and who have not answered yet,
        in turn order."""
        return [] if self.deal_over else self.local.people_asked()

    def cover_for(self) -> int | None:
        """The person to sit down at the keyboard behind the cover (hot-seat), or None: a
        counter window asks the people at this screen one after another (the one on show
        first), else the table waits for the person whose turn it is."""
        if not self.hot_seat:
            return None
        asked = self.asked()
        if asked:
            return None if self.viewer in asked else asked[0]
        seat = self.human_to_act
        if seat is None or seat == self.viewer:
            return None
        return seat if self.local.mirrors[seat].my_turn else None

    def needs_cover(self) -> bool:
        """A different person is to act than the one whose hand is showing (hot-seat): the
        table's turn event (or a counter window) went to a seat that is not on show."""
        return self.cover_for() is not None

    def reveal(self, seat: int) -> None:
        """Show ``seat``'s hand: called once the cover for that person has been dismissed."""
        if not self.is_human(seat):
            raise IllegalAction("Only a person's hand can be shown")
        self.viewer = seat

    def view(self, seat: int | None = None) -> TableView:
        """The table as ``seat`` (default: the seat on show) sees it, from its mirror."""
        if seat is None or not self.humans:
            return self.mirror.seat_view()
        if seat not in self.local.mirrors:
            raise IllegalAction("Only a person's view can be shown")
        return self.local.mirrors[seat].seat_view()

    def hand(self) -> Mask:
        """The cards face up at the bottom: the viewer's, or none while hot-seat hands hide."""
        if not self.humans or (self.viewer is None and self.hot_seat):
            return Mask(0)
        return self.local.mirrors[self.home].hand

    # -- actions -------------------------------------------------------------------------
    def play(self, seat: int, cards: Mask | Play) -> list[Action]:
        """A person plays; refused plays raise with the engine's reason."""
        self._check_person(seat)
        mask = cards.mask if isinstance(cards, Play) else Mask(cards)
        return self._actions(lambda: self.local.play(seat, mask))

    def pass_(self, seat: int) -> list[Action]:
        self._check_person(seat)
        return self._actions(lambda: self.local.play(seat, None))

    # -- the moves of Big 2 RevolutioN ------------------------------------------------------------
    def activate(self, seat: int, card: int, target: int | None = None, give: int = -1) -> None:
        """Activate a Character card (an exchange names the player and the normal card)."""
        self._check_person(seat)
        cards = 1 << card | (1 << give if give >= 0 else 0)
        self._send(Command(Op.ACTIVATE, seat=seat, cards=Mask(cards), target=target))

    def counter(self, seat: int, card: int) -> None:
        """Decision the counter window by cancelling its function with a Revolution Q."""
        self._check_asked(seat)
        self._send(Command(Op.COUNTER, seat=seat, cards=Mask(1 << card)))

    def decline(self, seat: int) -> None:
        """Decision the counter window by letting its function stand."""
        self._check_asked(seat)
        self._send(Command(Op.DECLINE, seat=seat))

    def draw(self, seat: int, card: int | None) -> None:
        """After a pass: the deck's top card (None) or a card of the Gathering."""
        self._check_person(seat)
        cards = None if card is None else Mask(1 << card)
        self._send(Command(Op.DRAW, seat=seat, cards=cards))

    def stop(self, seat: int) -> None:
        """After a pass: draw no more."""
        self._check_person(seat)
        self._send(Command(Op.STOP, seat=seat))

    def _check_asked(self, seat: int) -> None:
        if self.deal_over:
            raise IllegalAction("The deal is over")
        if not self.is_human(seat):
            raise NotYourTurn(f"{self.names[seat]} is a computer player")

    def _send(self, cmd: Command) -> None:
        self.local.send(cmd)

    def set_assists(self, on: bool) -> None:
        """The host (a person at this screen) turns the coach's assists on or off."""
        host = self.local.service.host
        if host is None or host not in self.humans:
            raise IllegalAction("Only the table's host turns the assists on or off")
        self._send(Command(Op.SETTINGS, seat=host, value={"assists": on}))

    def mirror_of(self, seat: int) -> TableMirror:
        return self.local.mirrors[seat]

    def undo_off(self) -> str:
        """Why undo is off at this table, in words ("" when it is on)."""
        if self.kind.undo_off:
            return self.kind.undo_off
        if self.hot_seat:
            return "Undo is off in a hot-seat game: the others have seen your play"
        if not self.humans:
            return "Undo takes back your own plays: nobody plays at this table"
        return ""

    def undo(self) -> None:
        """Take back your last play of this deal and the computers' replies to it."""
        why = self.undo_off()
        if why:
            raise IllegalAction(why)
        if self.deal_over:
            raise IllegalAction("The deal is over: its plays stand")
        self.local.undo(self.humans[0])
        self.taken_back = True

    def _check_person(self, seat: int) -> None:
        if self.deal_over:
            raise IllegalAction("The deal is over")
        if seat != self.turn:
            raise NotYourTurn(f"Not your turn: {self.names[self.turn]} is to play")
        if not self.is_human(seat):
            raise NotYourTurn(f"{self.names[seat]} is a computer player")

    def _actions(self, step: Callable[[], Any]) -> list[Action]:
        """The actions a step of the table made (its events, read back from the mirror)."""
        mirror = self.mirror
        deal, before = mirror.deal_number, len(mirror.actions)
        step()
        self._tick()
        if mirror.deal_number != deal:
            return list(mirror.actions)
        return list(mirror.actions[before:])

    def deadline(self, delay: float) -> float | None:
        """Seconds until the next computer move is due, a computer waiting ``delay`` after
        its turn began (None: a person is to act, or the computer thinks in a thread). A
        trick just won stays on the table :data:`TRICK_HOLD` times as long before the next
        lead, so its last plays (an automatic pass's among them) can be read."""
        if not self.computer_to_act or self.think_request() is not None:
            return None
        self.local.delay = delay  # the speed preference, which may change mid-game
        due = self.local.deadline()
        if due is None:
            return None
        if self.trick()[1] and not self.deal_over:
            due += delay * (TRICK_HOLD - 1)
        return max(0.0, due - self.clock())

    def computer_step(self) -> list[Action]:
        """One computer move (plus any autopasses after it); nothing when a person is to act
        or the computer thinks in a thread."""
        return self._actions(lambda: self.local.hurry(limit=1))

    def run_computers(self, limit: int = 1000) -> list[Action]:
        """Computer moves until a person is to act, the deal ends, or a computer must think
        in a thread."""
        applied: list[Action] = []
        while self.computer_to_act and limit > 0:
            step = self.computer_step()
            if not step:
                break
            applied += step
            limit -= 1
        return applied

    def think_request(self) -> ThinkRequest | None:
        """The decision a computer of a slow level is to make in a worker thread (at a table
        of the revolution, any of its decisions: a move, a draw, an answer to a counter
        window)."""
        return self.local.think_request()

    def revolution_thought(self, request: ThinkRequest, answer: Decision) -> None:
        """Apply what a computer chose in its thread in a hand of the expansion (nothing if
        the table moved on)."""
        self.local.thought(request, answer)

    def thinking_wait(self, delay: float) -> float:
        """Seconds until a move a computer thought in its thread may be shown at a revolution
        table: ``delay`` after its turn (or the counter window) began, as the others' moves,
        so a quick answer (no Q to counter with) looks like a slow one."""
        self.local.delay = delay
        return max(0.0, self.local.thinking_due() - self.clock())

    def thought(
        self, request: ThinkRequest, answer: Decision, bot: Bot | RevolutionBot | None
    ) -> list[Action]:
        """Apply what a computer chose in its thread (nothing if the table moved on)."""
        return self._actions(lambda: self.local.thought(request, answer, bot))

    @property
    def last_auto(self) -> list[Action]:
        """Automatic passes made for people, until the table has told them."""
        return self.local.autopasses

    @last_auto.setter
    def last_auto(self, value: list[Action]) -> None:
        self.local.autopasses = list(value)

    def next_deal(self, seat: int | None = None) -> None:
        """Once a deal is over: ``seat`` (default every person here) has read the score
        sheet; the next deal starts when every person at this screen has said so."""
        seats = self.humans if seat is None else [seat]
        for person in seats:
            self.local.next_deal(person)
        if self.local.between is None:
            self._after_new_deal()

    def replay_deal(self) -> None:
        """Between deals: the next deal is the one just played, dealt again."""
        self.local.send(Command(Op.REPLAY))

    def choose_cards(self, seat: int, cards: Mask, deal: int | None = None) -> None:
        """Chosen cards for ``seat`` in a coming deal (default: the next one)."""
        number = deal if deal is not None else self.deal_number + 1
        value = {"deal": number, "cards": card_text(cards)}
        self.local.send(Command(Op.CUSTOM, seat=seat, value=value))

    def _after_new_deal(self) -> None:
        if self.hot_seat:
            self.viewer = None  # the next person to act is shown behind a cover
        self.last_auto = []

    def hint(self, seat: int | None = None) -> Hint:
        """What to play: the project's hint adviser when installed, else the cheapest play."""
        return hint_for(self.view(self.turn if seat is None else seat))

    # -- what the table shows -------------------------------------------------------------
    # -- what only a network table has (see :class:`~bigtwo.tui.netgame.NetGame`) -----------
    talks = False  # no chat at one screen
    started = True  # a local match starts as it opens
    lines: tuple[str, ...] = ()  # chat and table notices

    def presence(self, seat: int) -> str:
        """Whether a seat's player is here: always, at one screen."""
        return ""

    def say(self, text: str) -> None:
        """Chat: nobody else to hear it at one screen."""

    def waiting_note(self) -> str:
        return ""

    @property
    def code(self) -> str:
        return self.local.code

    @property
    def connection_note(self) -> str:
        """Trouble with the link to the table, in words: none for a local table."""
        return ""

    def score_rows(self, number: int | None = None) -> list[ScoreRow]:
        """The score sheet of deal ``number`` (the last finished one by default)."""
        return self.kind.score_rows(self, number)

    @property
    def seconds(self) -> int:
        return self.kind.seconds(self)

    @property
    def counted_seconds(self) -> float:
        """The time played as this screen counted it: since it took the game up, after what
        was stored before (``seconds_before``), for a game whose match keeps no clock."""
        return self.seconds_before + max(0.0, self.clock() - self._taken_up)

    # -- saving and resuming -------------------------------------------------------------
    def table_data(self) -> dict[str, Any]:
        """What the match store keeps beside the game's record to resume it: the local
        table's code (its command log is in the same database), the game's number this
        session, the seed it came from, the game length asked for, the hand on show."""
        return {
            "room": self.local.code,
            "game_number": self.game_number,
            "seed": self.setup.seed,
            "deals": self.setup.deals,
            "viewer": self.viewer,
        }

    @classmethod
    def resume(
        cls,
        local: LocalTable,
        table: dict[str, Any] | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> GameController:
        """Carry on a game whose table was restored from its stored log."""
        table = table if isinstance(table, dict) else {}
        service = local.service
        seats = tuple(
            SeatSetup(s.name, s.human, s.config.level if not s.human else "greedy")
            for s in service.seats
        )
        config = service.config
        autopass, autopass_five = service.switches_now()
        setup = GameSetup(
            seats=seats,
            rules=config.preset,
            seed=table.get("seed"),
            deals=table.get("deals"),
            autopass=bool(autopass),
            autopass_five=bool(autopass_five),
        )
        game = cls(setup, local=local, clock=clock, game_number=int(table.get("game_number", 1)))
        viewer = table.get("viewer")
        # A hot-seat game resumes behind a cover (viewer None): whoever sits down first may
        # not be the person whose hand was showing when the game was left.
        if isinstance(viewer, int) and not game.hot_seat and viewer in game.humans:
            game.viewer = viewer
        return game

    def new_game(self, store: LogStore | None = None) -> GameController:
        """The next game with the same seats (the Palm game restarts after the last deal),
        under the rules chosen for it."""
        rules = self.next_rules
        seats = tuple(replace(s, level=playing_level(rules, s.level)) for s in self.setup.seats)
        setup = replace(self.setup, custom=(), rules=rules, seats=seats)
        return GameController(
            setup,
            store=store if store is not None else self.local.store,
            game_number=self.game_number + 1,
            clock=self.clock,
        )


class _ComputerSeats(dict[int, "ComputerSeat"]):
    """``game.bots[seat] = ComputerSeat(...)`` puts a computer player at a table's seat."""

    def __init__(self, game: GameController) -> None:
        super().__init__(
            {s.number: s.computer for s in game.local.service.seats if s.computer is not None}
        )
        self._game = game

    def __setitem__(self, seat: int, computer: ComputerSeat) -> None:
        super().__setitem__(seat, computer)
        self._game.local.service.seats[seat].computer = computer


def _game_seed(seed: int | None, game_number: int) -> int | None:
    if seed is None:
        return None
    return seed if game_number == 1 else seed + game_number - 1
