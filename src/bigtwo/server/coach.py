"""The coach over HTTP: the review of a finished deal, and what the cards played tell a seat.

``POST /api/rooms/{code}/review`` judges one seat's decisions in one finished deal
(:mod:`bigtwo.coach.review`, or :mod:`bigtwo.coach.revolution` for Big 2 RevolutioN). During
the match a player reviews only their own seat (its token proves it), and only where the host
left the room's ``assists`` on; once the match is over anyone who may fetch its record may
review any seat. The review runs in the server's worker pool (:meth:`Thinker.compute
<bigtwo.server.thinking.Thinker.compute>`), one decision at a time, never on the event loop;
the first request starts it and is answered ``pending`` (202, with how many decisions are
judged so far) until it is done. Each decision's worlds are drawn from the room's seed, so a
review is the same however often it is computed; it is kept with the game, in the table
store's database (:mod:`bigtwo.store.reviews`, by room, seed, deal, seat and rollouts: a
finished deal never changes), with the :data:`KEPT` latest in memory in front, so a second
request returns it at once, also after the server restarted.

``POST /api/rooms/{code}/beliefs`` answers a seated player, during a deal of either game,
what it may believe of each opponent's hand (:func:`bigtwo.coach.beliefs.beliefs_of`; for Big 2
RevolutioN :mod:`bigtwo.coach.revolution_beliefs`, each opponent's Revolution cards counted
too), from its own view, with the same assists switch, which the host may turn during the
match (the room's ``assists`` command). Neither answer is made from anything but the asking
seat's view: the review of a deal reads the view of the seat reviewed before each of its
decisions, and during the match that seat is the asker's own.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..coach.beliefs import WORLDS, beliefs_of
from ..coach.chances import Beliefs
from ..coach.replay import seat_turns
from ..coach.review import Chosen, DealReview, MoveReview, _rng, move_words, rate_move
from ..coach.revolution import rate_choice, revolution_turns
from ..engine.cards import Mask, card_text
from ..engine.plays import Play
from ..engine.revolution_types import RevolutionChoice, RevolutionView
from ..match.match import Match
from ..match.views import TableView
from ..protocol import BeliefsRequest, ReviewRequest
from ..service.table import Refused, TableService, TableStatus
from ..store.reviews import ReviewKey, ReviewStore
from .runner import TableRunner
from .thinking import Thinker

log = logging.getLogger(__name__)

KEPT = 512  # reviews kept in memory, the least recently asked for forgotten first
BELIEFS_KEPT = 256  # beliefs kept, by room, seat and moment of the deal
UNDER_WAY = 16  # reviews computed at once at most; more are refused (busy) until one is done

Key = tuple[str, int, int, int]  # room, seed, deal, seat


# -- in a worker ---------------------------------------------------------------------------------
def judge_decision(
    view: TableView | RevolutionView,
    move: Chosen,
    seed: int,
    deal: int,
    step: int,
    rollouts: int,
) -> MoveReview:
    """In a worker: one decision judged, with the worlds the command's review would draw."""
    rng = _rng(seed, deal, step)
    if isinstance(view, RevolutionView):
        assert isinstance(move, RevolutionChoice)
        return rate_choice(view, move, rng, rollouts=rollouts, deal=deal, step=step)
    assert not isinstance(move, RevolutionChoice)
    return rate_move(view, move, rng, rollouts=rollouts, deal=deal, step=step)


def seat_beliefs(view: TableView | RevolutionView, seed: int, deal: int, worlds: int) -> Beliefs:
    """In a worker: what ``view``'s seat may believe now, the same each time it is asked."""
    rng = random.Random(f"beliefs:{seed}:{deal}:{len(view.actions)}")
    return beliefs_of(view, rng, worlds)


# -- as data ------------------------------------------------------------------------------------
def _cards(move: Chosen) -> str | None:
    """A move's cards in notation (None: a pass, or a choice that plays no card)."""
    if isinstance(move, Play):
        return card_text(move.mask)
    if isinstance(move, RevolutionChoice) and move.cards:
        return card_text(Mask(move.cards))
    return None


def _position(view: TableView | RevolutionView) -> dict[str, Any]:
    """The table as the seat saw it before a decision: its own cards, every seat's count,
    and the play to beat (who played it)."""
    to_beat = view.to_beat
    return {
        "hand": card_text(Mask(view.hand)),
        "counts": list(view.counts),
        "table": None if to_beat is None else card_text(to_beat.mask),
        "table_seat": None if to_beat is None else view.to_beat_seat,
    }


def review_json(review: DealReview, positions: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """A deal's review as the browser shows it: each decision with its mark, the move played
    and the better one (in words and cards), the points lost ± their standard error, and the
    position before it; the deal's accuracy and its costliest decisions (by index)."""
    decisions = []
    for decision, position in zip(review.decisions, positions, strict=True):
        data: dict[str, Any] = {
            "step": decision.step,
            "mark": decision.mark.value,
            "move": move_words(decision.move),
            "move_cards": _cards(decision.move),
            "lost": round(decision.lost, 3),
            **position,
        }
        if decision.rated and decision.worlds:
            data |= {
                "better": move_words(decision.better),
                "better_cards": _cards(decision.better),
                "loss": round(decision.loss, 3),
                "se": round(decision.se, 3),
            }
        decisions.append(data)
    index = {d.step: i for i, d in enumerate(review.decisions)}
    return {
        "deal": review.deal,
        "seat": review.seat,
        "scale": review.scale,
        "accuracy": review.accuracy,
        "decisions": decisions,
        "costliest": [index[d.step] for d in review.costliest()],
    }


def beliefs_json(beliefs: Beliefs, deal: int) -> dict[str, Any]:
    """A seat's beliefs as JSON: each opponent's chances (``null``: not asked of this
    table, e.g. beating a single when no single is on it); ``beating``: the cards of the play
    on the table (0: none), so ``pair``, ``triple`` or ``five`` is the chance of one that
    beats it when it is 2, 3 or 5. In Big 2 RevolutioN each opponent says its ``starred``
    cards (its Revolution cards) too, and ``game`` says so."""
    return {
        "game": "revolution" if any(b.starred is not None for b in beliefs.opponents) else "bigtwo",
        "seat": beliefs.seat,
        "deal": deal,
        "proofs": beliefs.proofs,
        "worlds": beliefs.worlds,
        "beating": beliefs.beating,
        "opponents": [
            {
                "seat": b.seat,
                "cards": b.cards,
                **({} if b.starred is None else {"starred": b.starred}),
                "chances": {
                    name: None
                    if c is None
                    else {"p": round(c.p, 4), "se": round(c.se, 4), "exact": c.exact}
                    for name, c in b.chances().items()
                },
            }
            for b in beliefs.opponents
        ],
    }


# -- the reviews kept and under way ---------------------------------------------------------------
@dataclass(eq=False)
class _Job:
    total: int = 0
    done: int = 0
    task: asyncio.Task[None] | None = None
    failed: bool = False
    positions: list[dict[str, Any]] = field(default_factory=list)


class Coach:
    """The reviews a server has computed (kept in ``store``, the latest :data:`KEPT` also in
    memory; no store: in memory only) and those under way, and the beliefs it last told."""

    def __init__(self, thinker: Thinker, rollouts: int, store: ReviewStore | None = None) -> None:
        self.thinker = thinker
        self.rollouts = rollouts
        self.store = store
        self.worlds = WORLDS
        self.kept: OrderedDict[Key, dict[str, Any]] = OrderedDict()
        self.jobs: dict[Key, _Job] = {}
        self.beliefs: OrderedDict[tuple[str, int, int, int], dict[str, Any]] = OrderedDict()
        self._one = asyncio.Lock()  # one decision of one review in the pool at a time

    def review(self, svc: TableService, code: str, deal: int, seat: int) -> tuple[int, Any]:
        """The review of ``seat`` in ``deal`` (checked: finished) as (status, answer): 200
        with it when kept, else 202 ``pending`` (starting it on the first request)."""
        key = (code, svc.config.seed, deal, seat)
        kept = self.kept.get(key)
        if kept is None and key not in self.jobs:
            kept = self._stored(key)
        if kept is not None:
            self._keep(key, kept)
            return 200, {"status": "done", "review": kept}
        job = self.jobs.get(key)
        if job is not None and job.failed:  # said once; asked again, it starts afresh
            del self.jobs[key]
            raise Refused("unavailable", "The review could not be made: try again")
        if job is None:
            if len(self.jobs) >= UNDER_WAY:
                raise Refused(
                    "busy",
                    "The coach is reviewing as many deals as it can: try again in a minute",
                    {"reason": "reviews"},
                )
            job = self.jobs[key] = _Job()
            job.task = asyncio.get_running_loop().create_task(self._run(key, svc, job))
        return 202, {"status": "pending", "done": job.done, "total": job.total}

    async def _run(self, key: Key, svc: TableService, job: _Job) -> None:
        _code, seed, deal, seat = key
        try:
            turns = await asyncio.to_thread(_turns, svc, deal, seat)
            job.total = len(turns)
            judged: list[MoveReview] = []
            for step, view, move in turns:
                async with self._one:
                    judged.append(
                        await self.thinker.compute(
                            judge_decision, view, move, seed, deal, step, self.rollouts
                        )
                    )
                job.done += 1
            scale = _scale_of(svc, deal)
            review = DealReview(deal, seat, scale, tuple(judged))
            kept = review_json(review, [_position(v) for _, v, _ in turns])
            self._keep(key, kept)
            del self.jobs[key]
            self._store(key, kept)
        except Exception:
            log.exception("the review of deal %d, seat %d failed", deal, seat)
            job.failed = True

    def _keep(self, key: Key, review: dict[str, Any]) -> None:
        self.kept[key] = review
        self.kept.move_to_end(key)
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)

    def _stored_key(self, key: Key) -> ReviewKey:
        return (*key, self.rollouts)

    def _stored(self, key: Key) -> dict[str, Any] | None:
        """The review kept in the store (None: none, no store, or the store failed: then it
        is computed again)."""
        if self.store is None:
            return None
        try:
            return self.store.get(self._stored_key(key))
        except Exception:
            log.exception("the reviews kept could not be read")
            return None

    def _store(self, key: Key, review: dict[str, Any]) -> None:
        if self.store is None:
            return
        try:
            self.store.put(self._stored_key(key), review)
        except Exception:  # kept in memory still; a restart computes it again
            log.exception("the review of deal %d, seat %d could not be stored", key[2], key[3])

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    async def seat_beliefs(self, svc: TableService, seat: int) -> dict[str, Any]:
        """What ``seat`` may believe now (the deal in play: checked), kept until the next
        action."""
        game = svc.game
        assert game is not None
        view = game.view(seat) if isinstance(game, Match) else game.deal.view(seat)
        key = (svc.code, seat, game.deal_number, len(view.actions))
        kept = self.beliefs.get(key)
        if kept is None:
            got = await self.thinker.compute(
                seat_beliefs, view, svc.config.seed, game.deal_number, self.worlds
            )
            kept = self.beliefs[key] = beliefs_json(got, game.deal_number)
            while len(self.beliefs) > BELIEFS_KEPT:
                self.beliefs.popitem(last=False)
        return kept


def _turns(
    svc: TableService, deal: int, seat: int
) -> list[tuple[int, TableView | RevolutionView, Chosen]]:
    """Each decision ``seat`` chose in finished ``deal``: its place, the seat's view before
    it, and the move (the deal replayed from its record)."""
    game = svc.game
    if isinstance(game, Match):
        record = game.deal_records()[deal - 1]
        return [(t.step, t.view, t.action.play) for t in seat_turns(record, seat)]
    assert game is not None
    hand = game.played_hands()[deal - 1]
    return [(t.step, t.view, t.choice) for t in revolution_turns(hand, svc.rules, seat)]


def _scale_of(svc: TableService, deal: int) -> float:
    from ..bots.expert import _scale
    from ..bots.revolution_expert import scoring_rules_of

    if isinstance(svc.game, Match):
        return _scale(svc.game.deal_records()[deal - 1].rules.match.scoring)
    return _scale(scoring_rules_of(svc.rules).match.scoring)


# -- the routes -----------------------------------------------------------------------------------
_Route = Callable[[Request], Awaitable[Response]]


def _seat_of(svc: TableService, token: str) -> int | None:
    """The seat ``token`` holds (None: no token given); refused when it holds none."""
    if not token:
        return None
    seat = svc.seat_of_token(token)
    if seat is None:
        raise Refused("unauthorized", "That token holds no seat at this table")
    return seat


def check_review(svc: TableService, asked: ReviewRequest) -> int:
    """The seat to review, once the asker may see its review of the deal asked for; else
    :class:`Refused` in words."""
    game = svc.game
    if game is None:
        raise Refused("no_room", "This table never started a match", {"reason": "never_started"})
    mine = _seat_of(svc, asked.token)
    seat = asked.seat if asked.seat is not None else mine
    if seat is None:
        raise Refused("bad_request", "Say which seat to review, or send your seat token")
    if not 0 <= seat < svc.config.players:
        raise Refused("bad_request", f"There is no seat {seat} at this table")
    if svc.status != TableStatus.FINISHED:
        if mine is None:
            raise Refused(
                "unauthorized",
                "During the match only its players review its deals: send your seat token",
                {"reason": "spectator"},
            )
        if seat != mine:
            raise Refused(
                "unauthorized",
                "During the match a player reviews only their own seat",
                {"reason": "other_seat"},
            )
        if not svc.config.assists:
            raise Refused("assists_off", "The host turned the coach off for this match")
    finished = len(game.results)
    if asked.deal > finished:
        if svc.status != TableStatus.FINISHED and asked.deal == finished + 1:
            raise Refused(
                "not_over",
                f"Deal {asked.deal} is not over: a deal is reviewed once it ends",
                {"reason": "deal", "deal": asked.deal},
            )
        raise Refused(
            "no_deal",
            f"There is no finished deal {asked.deal} at this table",
            {"deal": asked.deal, "deals": finished},
        )
    return seat


def check_beliefs(svc: TableService, asked: BeliefsRequest) -> int:
    """The asker's seat, once it may be told its beliefs now; else :class:`Refused`."""
    seat = _seat_of(svc, asked.token)
    if seat is None:  # pragma: no cover - the request declares a token
        raise Refused("unauthorized", "Send your seat token")
    if not svc.config.assists:
        raise Refused("assists_off", "The host turned the coach off for this match")
    if svc.status == TableStatus.FINISHED:
        raise Refused("finished", "The match is over")
    if svc.game is None or svc.status != TableStatus.PLAYING:
        raise Refused("not_started", "The match has not started yet")
    if svc.game.deal.over:
        raise Refused("between_deals", "The deal is over: the next one starts soon")
    return seat


def coach_routes(
    answered: Callable[[_Route], _Route],
    lookup: Callable[[Request], TableRunner],
    read: Callable[[Request, Any], Awaitable[Any]],
) -> list[Route]:
    """The coach's routes, with the application's way of answering refusals, its room lookup
    and its body reader."""

    async def review(request: Request) -> Response:
        runner = lookup(request)
        asked: ReviewRequest = await read(request, ReviewRequest)
        seat = check_review(runner.service, asked)
        coach: Coach = request.app.state.coach
        status, answer = coach.review(runner.service, runner.code, asked.deal, seat)
        return JSONResponse(answer, status_code=status)

    async def beliefs(request: Request) -> Response:
        runner = lookup(request)
        asked: BeliefsRequest = await read(request, BeliefsRequest)
        seat = check_beliefs(runner.service, asked)
        coach: Coach = request.app.state.coach
        return JSONResponse(await coach.seat_beliefs(runner.service, seat))

    return [
        Route("/api/rooms/{code}/review", answered(review), methods=["POST"]),
        Route("/api/rooms/{code}/beliefs", answered(beliefs), methods=["POST"]),
    ]
