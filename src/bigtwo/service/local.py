"""A local table: the table service in-process, for the people at one screen.

A :class:`LocalTable` owns a :class:`~bigtwo.service.table.TableService` and keeps its
command log in a table store (the SQLite store the server uses, or one in memory), so a
local game is played, stored and resumed exactly as a network one: every command is stored
before its events are shown, and resuming is :meth:`TableService.restore` from the log. It
seats every local person (hot-seat is several of them), and feeds one
:class:`~bigtwo.service.mirror.TableMirror` per person with the events that reach that seat,
so a front end draws from the mirror of the seat on show and never from the deal itself.

It paces nothing by itself and has no thread: the front end asks :meth:`LocalTable.deadline`
when the next automatic move (a computer's, the next deal) is due, calls :meth:`step` then,
or :meth:`hurry` to play the computers out at once (``f``). A computer of a level that
``offload`` names thinks away from the caller: :meth:`think_request` hands out the decision
to make (see :func:`think`, safe to run in a worker thread) and :meth:`thought` applies its
answer. Refused commands raise :class:`~bigtwo.service.table.Refused` with the reason.

At a table of Big 2 RevolutioN the computers also answer counter windows (after the same
pause, whether or not they hold a Q). A counter window's clock is the front end's at one
screen: the table never declines for a local person because time ran out (a hot-seat person
may first have to sit down at the keyboard), so the front end shows the clock and sends the
decline itself when it runs out. Its computers think away from the caller the same way, for
every decision of the expansion (a move, a draw, an answer to a counter window). The choice
is the one the table would have made itself (the same view, the same generator), so a seed
gives one game whichever thread the computers think on.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from ..engine.cards import Mask
from ..engine.views import Action
from .commands import Command, Op
from .config import TableConfig
from .events import Event
from .mirror import TableMirror
from .table import (
    Refused,
    TableService,
    TableStatus,
    ThinkRequest,
    hash_token,
)

if TYPE_CHECKING:
    from ..bots.base import Bot
    from ..bots.revolution import RevolutionBot
    from ..bots.seat import Decision


class LogStore(Protocol):
    """What a local table needs of a table store (:mod:`bigtwo.store.tables` has it)."""

    def create_room(self, code: str, config: dict[str, Any]) -> None: ...
    def append(self, code: str, commands: Sequence[dict[str, Any]]) -> None: ...
    def set_status(self, code: str, status: TableStatus) -> None: ...


class StoredLog(Protocol):
    config: dict[str, Any]
    commands: list[dict[str, Any]]


class LocalTable:
    """One table played at this screen; ``people`` are the seats of the local persons."""

    def __init__(
        self,
        service: TableService,
        store: LogStore,
        people: Sequence[int],
        *,
        clock: Callable[[], float] = time.monotonic,
        delay: float = 0.0,
    ) -> None:
        self.service = service
        self.store = store
        self.code = service.code
        self.people = list(people)
        self.clock = clock
        self.delay = delay  # seconds a computer waits before its move, so people can follow
        self.mirrors: dict[int, TableMirror] = {}
        # With nobody seated here (computers only), the screen watches as a spectator.
        self.watcher: TableMirror | None = None if self.people else TableMirror()
        # Automatic passes made for people, kept until the front end has told them.
        self.autopasses: list[Action] = []
        for seat in self.people:
            service.connect(seat, self.clock())
        self.resync()

    # -- opening and resuming --------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        config: TableConfig,
        store: LogStore,
        names: dict[int, str],
        *,
        code: str = "",
        clock: Callable[[], float] = time.monotonic,
        delay: float = 0.0,
        offload: Callable[[str], bool] | None = None,
        before_start: Sequence[Command] = (),
    ) -> LocalTable:
        """A new table with a person at each seat of ``names`` (each human seat of the
        configuration), stored from its first command; ``before_start`` (chosen cards for
        the first deal, say) are applied once everyone is seated, and the match starts."""
        code = code or "local-" + secrets.token_hex(4)
        now = clock()
        service = TableService(config, code, now=now, offload=offload)
        store.create_room(code, config.to_json())
        people = [s for s, seat in enumerate(service.seats) if seat.human]
        table = cls(service, store, people, clock=clock, delay=delay)
        opening = [
            Command(
                Op.JOIN, seat=seat, name=names.get(seat, ""), token=hash_token(f"{code}:{seat}")
            )
            for seat in people
        ]
        opening += [*before_start, *(Command(Op.READY, seat=seat) for seat in people)]
        applied: list[Command] = []
        for cmd in opening:  # checked one by one, stored in one transaction
            done, events = service.submit(cmd, now, limit=1)
            applied += done
            table.show(events)
        store.append(code, [c.to_log() for c in applied])
        if not people:  # computers only: nobody to say ready, so the match starts now
            service._start(now)
            table.resync()
        return table

    @classmethod
    def restore(
        cls,
        stored: StoredLog,
        store: LogStore,
        code: str,
        *,
        clock: Callable[[], float] = time.monotonic,
        delay: float = 0.0,
        offload: Callable[[str], bool] | None = None,
    ) -> LocalTable:
        """The table of a stored log, as it was (the same commands, the same events)."""
        config = TableConfig.from_json(stored.config)
        commands = [Command.from_log(c) for c in stored.commands]
        service = TableService.restore(config, code, commands, clock(), offload=offload)
        people = [s.number for s in service.seats if s.human and s.taken]
        return cls(service, store, people, clock=clock, delay=delay)

    def resync(self) -> None:
        """Every mirror afresh from a snapshot (after opening or restoring)."""
        for seat in self.people:
            mirror = TableMirror()
            mirror.apply(self.service.snapshot(seat))
            self.mirrors[seat] = mirror
        if self.watcher is not None:
            self.watcher = TableMirror()
            self.watcher.apply(self.service.snapshot(None))

    # -- questions ---------------------------------------------------------------------------------
    @property
    def status(self) -> TableStatus:
        return self.service.status

    @property
    def between(self) -> int | None:
        """Between deals: the number of the deal to come."""
        return self.service.between

    def waiting_for_next(self) -> list[int]:
        """Between deals: the local people who have not yet said "next"."""
        if self.service.between is None:
            return []
        return [s for s in self.people if not self.service.seats[s].said_next]

    def computer_to_act(self) -> bool:
        """A computer's move (or, at a revolution table, a computer's answer to a counter
        window) is what the table waits for."""
        return any(
            s not in self.people or not self._person_in_control(s) for s in self.service.awaited()
        )

    def people_asked(self) -> list[int]:
        """In an open counter window: the local people still to answer it, in turn order."""
        service = self.service
        return [
            s
            for s in service.asked_seats()
            if s in self.people and s not in service.answers and self._person_in_control(s)
        ]

    def _now(self) -> float:
        """The time the table is told. While a local person has a counter window to answer
        it stops short of the window's end: at one screen the front end keeps that clock."""
        now = self.clock()
        if self.people_asked():
            end = self.service.counter_deadline()
            if end is not None:
                now = min(now, max(self.service.turn_started, end - 1e-3))
        return now

    def _person_in_control(self, seat: int) -> bool:
        return self.service.seats[seat].control == "player"

    def deadline(self) -> float | None:
        """When (on ``clock``) the next automatic move is due: a computer's move (``delay``
        after its turn began), or the next deal once every person has said next. None:
        nothing is due until a person acts."""
        service = self.service
        if service.status != TableStatus.PLAYING:
            return None
        if service.between is not None:
            return self.clock() if not self.waiting_for_next() else None
        if self.computer_to_act():
            return service.turn_started + self.delay
        return None

    # -- acting ---------------------------------------------------------------------------------
    def send(self, cmd: Command) -> list[Event]:
        """Apply a person's command (raising :class:`Refused`, nothing changed), store it,
        and show its events."""
        return self._submit(cmd, limit=1)

    def play(self, seat: int, cards: Mask | None) -> list[Event]:
        return self.send(Command(Op.ACT, seat=seat, cards=cards))

    def next_deal(self, seat: int) -> list[Event]:
        """Between deals: ``seat`` has read the score sheet; the next deal starts once every
        local person has said so."""
        events = self.send(Command(Op.NEXT, seat=seat))
        if not self.waiting_for_next():
            events += self._submit(None, limit=1)
        return events

    def undo(self, seat: int) -> list[Event]:
        """The person at ``seat`` takes back their last play of the deal and everything
        after it (a table of one person and computers only). The undo is a stored command
        like any other, so a table restored from the log is the table after the undo."""
        events = self.send(Command(Op.UNDO, seat=seat))
        self.autopasses.clear()
        self.resync()  # the mirrors drop the actions taken back
        return events

    def step(self) -> list[Event]:
        """The automatic move due now, if any (one: the front end paces the computers). A
        computer that thinks elsewhere is not due here: see :meth:`think_request`."""
        due = self.deadline()
        if due is None or self.clock() < due or self.think_request() is not None:
            return []
        return self._submit(None, limit=1)

    def hurry(self, limit: int = 1000) -> list[Event]:
        """Every computer move up to a person's turn or the deal's end, without waiting
        (computers that think elsewhere are not waited for: see :meth:`think_request`)."""
        events: list[Event] = []
        while limit > 0 and self.computer_to_act() and self.think_request() is None:
            step = self._submit(None, limit=1)
            if not step:
                break  # nothing was due after all
            events += step
            limit -= 1
        return events

    def _submit(self, cmd: Command | None, *, limit: int) -> list[Event]:
        now = self._now()
        applied, events = self.service.submit(cmd, now, limit=limit)
        if applied:
            self.store.append(self.code, [c.to_log() for c in applied])
            if self.service.status != TableStatus.PLAYING:
                self.store.set_status(self.code, self.service.status)
        self.show(events)
        return events

    def show(self, events: Iterable[Event]) -> None:
        for event in events:
            message = event.message()
            for seat, mirror in self.mirrors.items():
                if event.reaches(seat):
                    mirror.apply(message)
            if self.watcher is not None and event.reaches(None):
                self.watcher.apply(message)
            if event.type == "action" and message.get("auto") and message["seat"] in self.people:
                mirror = self.mirrors[message["seat"]]
                if mirror.actions:
                    self.autopasses.append(mirror.actions[-1])

    # -- computers thinking elsewhere ------------------------------------------------------------
    def think_request(self) -> ThinkRequest | None:
        """The decision a computer of a level that ``offload`` names is to make now, away
        from this thread (None: none is due, or the computer decides on the table's own)."""
        return self.service.think_request()

    def thinking_due(self) -> float:
        """When (on ``clock``) a move thought elsewhere may be shown: ``delay`` after the
        turn (or the counter window) began, as the table's own computer moves are, so how
        long a computer thought tells nobody anything."""
        return self.service.turn_started + self.delay

    def thought(
        self, request: ThinkRequest, answer: Decision, bot: Bot | RevolutionBot | None = None
    ) -> list[Event]:
        """Apply a computer's answer made elsewhere (nothing when the table moved on)."""
        cmd = self.service.think_command(request, answer, bot)
        if cmd is None:
            return []
        try:
            return self._submit(cmd, limit=1)
        except Refused:  # the table moved on between the check and now
            return []


def think(request: ThinkRequest) -> tuple[Decision, Bot | RevolutionBot]:
    """Make a computer's decision away from the table (in a worker thread), in either game:
    its answer and its bot afterwards, for :meth:`LocalTable.thought`."""
    computer = request.computer
    return computer.decide(request.view, rng=request.rng, deal=request.peek), computer.bot


__all__ = ["LocalTable", "LogStore", "think"]
