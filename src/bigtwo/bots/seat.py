"""A computer seat: the one object that chooses a computer player's move, wherever it plays,
in either game (``game``: the 52-card game, or Big 2 RevolutioN, whose players answer with one
of the view's ``choices``).

The table service (and so the server and the terminal game), the arena and the match
autoplay all ask a :class:`ComputerSeat` for a computer's move, so one seed gives one game
everywhere. It holds the seat's bot (made on first use from its level), offers it a peek at
the deal when the bot peeks and the table allows it, draws the bot's randomness from the
*position* (a key, the deal's number and how many actions the deal has had), so a choice
never depends on when or where it was asked, and decides what happens when the bot fails:

* ``strict`` (the arena): an error is an error. A bot that raises, or chooses a play that is
  not legal, or passes at a lead, stops the run with the reason.
* lenient (every table): the failure is logged and the seat makes the :meth:`fallback` move
  instead, the cheapest legal play or a pass when it has no reply (under the expansion: a
  decline, a stop or a pass where one is offered, else the cheapest play), which is also the
  move of a computer whose thinking ran out of time.

A choice travels between processes as a :data:`Decision`: the cards of a play as a mask (None:
a pass), or the expansion's :class:`~bigtwo.engine.revolution.RevolutionChoice` as it is.

It never sees a hidden card except through the bot's own explicit door (:meth:`Bot.peek`).
"""

from __future__ import annotations

import logging
import random
import time
from typing import TYPE_CHECKING, Any, TypeAlias, overload

from ..engine.cards import Mask
from ..engine.errors import BigTwoError
from ..engine.revolution import Move, RevolutionChoice, RevolutionView
from ..engine.rules import BIGTWO

if TYPE_CHECKING:
    from ..engine.deal import Deal
    from ..engine.plays import Play
    from ..match.views import TableView
    from .base import Bot
    from .revolution import RevolutionBot

Decision: TypeAlias = Mask | RevolutionChoice | None

log = logging.getLogger(__name__)

FALLBACK_LEVEL = "greedy"


def position_rng(key: object, deal_number: int, actions: int) -> random.Random:
    """The random generator for the decision at one position: the same key, deal number and
    count of actions so far give the same generator, asked now or after a restart.

    >>> position_rng(7, 1, 3).random() == position_rng(7, 1, 3).random()
    True
    """
    return random.Random(f"{key}:{deal_number}:{actions}")


class ComputerSeat:
    """The computer player of one seat (see the module docstring).

    ``level`` names the bot (``bigtwo bots``) of ``game``; ``bot`` gives one already made
    instead. ``peeking``: whether the table lets a bot that peeks see the deal (the Palm
    players did). A lenient seat whose level is unknown (saved by a newer bigtwo) plays
    ``greedy``.
    """

    __slots__ = ("level", "seat", "strict", "peeking", "_bot", "humans", "last_ms", "game")

    def __init__(
        self,
        level: str,
        seat: int,
        *,
        strict: bool = False,
        peeking: bool = True,
        bot: Bot | RevolutionBot | None = None,
        game: str = BIGTWO,
    ) -> None:
        self.game = game
        self.level = level
        self.seat = seat
        self.strict = strict
        self.peeking = peeking
        self._bot = bot
        self.humans: frozenset[int] | None = None
        self.last_ms = 0.0  # how long the last decision took

    @classmethod
    def of(cls, bot: Bot | RevolutionBot, seat: int, *, strict: bool = False) -> ComputerSeat:
        return cls(bot.name, seat, strict=strict, bot=bot)

    # -- the bot ------------------------------------------------------------------------------
    @property
    def bot(self) -> Bot | RevolutionBot:
        """The seat's bot, made on first use (loading some levels takes a moment)."""
        if self._bot is None:
            from . import make_bot

            try:
                self._bot = make_bot(self.level, self.game)
            except BigTwoError:
                if self.strict:
                    raise
                log.warning(
                    "unknown computer level %r: seat %d plays greedy", self.level, self.seat
                )
                self._bot = make_bot(FALLBACK_LEVEL, self.game)
            self._bot.new_deal(self.seat)
            if self.humans is not None:
                self._bot.tell_humans(self.humans)
        return self._bot

    @bot.setter
    def bot(self, bot: Bot | RevolutionBot) -> None:
        """The bot as it came back from thinking elsewhere (it may keep a plan for the deal)."""
        self._bot = bot

    @property
    def made(self) -> bool:
        return self._bot is not None

    def new_deal(self) -> None:
        """A deal begins: a bot that plans per deal starts afresh (a bot not made yet will
        be told when it is)."""
        if self._bot is not None:
            self._bot.new_deal(self.seat)

    def tell_humans(self, seats: frozenset[int]) -> None:
        """Which seats people play (public): the Palm players fight the humans."""
        self.humans = seats
        if self._bot is not None:
            self._bot.tell_humans(seats)

    # -- choosing -------------------------------------------------------------------------------
    def rng(self, key: object, deal_number: int, view: TableView) -> random.Random:
        return position_rng(key, deal_number, len(view.actions))

    @overload
    def choose(
        self,
        view: TableView,
        *,
        key: object = ...,
        deal_number: int = ...,
        rng: random.Random | None = ...,
        deal: Deal | None = ...,
    ) -> Play | None: ...
    @overload
    def choose(
        self,
        view: RevolutionView,
        *,
        key: object = ...,
        deal_number: int = ...,
        rng: random.Random | None = ...,
        deal: Deal | None = ...,
    ) -> RevolutionChoice: ...
    def choose(
        self,
        view: TableView | RevolutionView,
        *,
        key: object = None,
        deal_number: int = 1,
        rng: random.Random | None = None,
        deal: Deal | None = None,
    ) -> Play | RevolutionChoice | None:
        """The move for ``view`` (None: pass; under the expansion one of its ``choices``),
        always legal for a lenient seat. The random generator is ``rng`` or, usually, the one
        of the position (``key``, ``deal_number`` and the actions of ``view``). ``deal`` is
        offered to a bot that peeks."""
        bot = self.bot
        rng = rng or position_rng(key, deal_number, len(view.actions))
        started = time.perf_counter()
        try:
            if bot.peeks and self.peeking and deal is not None:
                bot.peek(deal)  # type: ignore[union-attr]  # only 52-card players peek
            choice = bot.choose(view, rng)  # type: ignore[arg-type]  # the view of its game
        except Exception:
            if self.strict:
                raise
            log.exception("computer player %s at seat %d failed", self.level, self.seat)
            choice = self.fallback(view)
        finally:
            self.last_ms = (time.perf_counter() - started) * 1000.0
        checked: Play | RevolutionChoice | None = _answers(view).checked(self, view, choice)
        return checked

    def decide(
        self,
        view: TableView | RevolutionView,
        rng: random.Random | None = None,
        deal: Deal | None = None,
    ) -> Decision:
        """:meth:`choose`, answered in the form that travels between processes."""
        decision: Decision = _answers(view).travelling(self.choose(view, rng=rng, deal=deal))
        return decision

    def checked_answer(self, view: TableView | RevolutionView, answer: Decision) -> Decision:
        """An answer that came back from elsewhere, checked as :meth:`choose` checks its own."""
        decision: Decision = _answers(view).arrived(self, view, answer)
        return decision

    def checked_choice(self, view: RevolutionView, choice: RevolutionChoice) -> RevolutionChoice:
        """``choice`` if the view offers it; else the :meth:`fallback` (strict: an error)."""
        if choice in view.choices:
            return choice
        return self._refuse(view, f"chose what it may not do now: {choice.move}")

    @overload
    def _refuse(self, view: TableView, problem: str) -> Play | None: ...
    @overload
    def _refuse(self, view: RevolutionView, problem: str) -> RevolutionChoice: ...
    def _refuse(
        self, view: TableView | RevolutionView, problem: str
    ) -> Play | RevolutionChoice | None:
        name = self._bot.name if self._bot is not None else self.level
        if self.strict:
            raise BigTwoError(f"{name} in seat {self.seat} {problem}")
        log.warning("computer player %s at seat %d %s", name, self.seat, problem)
        return self.fallback(view)

    def checked(self, view: TableView, play: Play | None) -> Play | None:
        """``play`` if it is a move the view allows; else the :meth:`fallback` move (strict:
        a :class:`BigTwoError` that says what was wrong)."""
        legal = play is None or any(p.mask == play.mask for p in view.legal)
        if legal and (play is not None or view.can_pass):
            return play
        problem = "passed at a lead" if play is None else f"chose an illegal play: {play}"
        return self._refuse(view, problem)

    @overload
    @staticmethod
    def fallback(view: TableView) -> Play | None: ...
    @overload
    @staticmethod
    def fallback(view: RevolutionView) -> RevolutionChoice: ...
    @staticmethod
    def fallback(view: TableView | RevolutionView) -> Play | RevolutionChoice | None:
        """The move of a computer that failed or ran out of time: the cheapest legal play,
        or a pass when it has no reply (as ``greedy`` plays). Under the expansion: decline a
        counter window, stop drawing, or pass, where the view offers it; else its first
        (cheapest) play."""
        fallback: Play | RevolutionChoice | None = _answers(view).fallback(view)
        return fallback


class _Plays:
    """How a seat of the 52-card game answers: a play, or None for a pass, which travels
    between processes as the play's mask."""

    checked = ComputerSeat.checked

    @staticmethod
    def travelling(choice: Play | None) -> Decision:
        return None if choice is None else choice.mask

    @staticmethod
    def arrived(seat: ComputerSeat, view: TableView, answer: Decision) -> Decision:
        if answer is None:
            play = seat.checked(view, None)
        elif any(p.mask == answer for p in view.legal):
            return answer
        else:
            play = seat._refuse(view, f"answered with no legal play: {answer}")
        return None if play is None else play.mask

    @staticmethod
    def fallback(view: TableView) -> Play | None:
        return view.legal[0] if view.legal else None


class _Choices:
    """How a seat of Big 2 RevolutioN answers: one of the view's ``choices``, travelling as
    it is."""

    checked = ComputerSeat.checked_choice

    @staticmethod
    def travelling(choice: RevolutionChoice) -> Decision:
        return choice

    @staticmethod
    def arrived(seat: ComputerSeat, view: RevolutionView, answer: Decision) -> Decision:
        if answer is None or isinstance(answer, int):
            return seat._refuse(view, "answered with no choice of the expansion")
        return seat.checked_choice(view, answer)

    @staticmethod
    def fallback(view: RevolutionView) -> RevolutionChoice:
        for move in (Move.DECLINE, Move.STOP, Move.PASS, Move.PLAY):
            for choice in view.choices:
                if choice.move is move:
                    return choice
        return view.choices[0]


def _answers(view: TableView | RevolutionView) -> Any:
    """How the seat answers in the game of ``view``: the one place that tells the games
    apart, by the view each game gives a seat."""
    return _Choices if isinstance(view, RevolutionView) else _Plays
