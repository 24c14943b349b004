"""The coach over HTTP (bigtwo.server.coach): a finished deal's review computed off the event
loop (pending, then done, then kept), the refusals (an unknown room, a deal not over, a
spectator or another seat during the match, assists turned off), a seat's beliefs, and that
neither answer names a card the asking seat could not see."""

from __future__ import annotations

import asyncio
import json
import random
import re
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bigtwo.coach.beliefs import beliefs_of, holds_any
from bigtwo.coach.review import review_deal
from bigtwo.engine.cards import to_mask
from bigtwo.match.match import Match
from bigtwo.server.app import create_app
from bigtwo.server.connection import Connection
from bigtwo.server.settings import Settings
from bigtwo.service.request import table_config
from bigtwo.store.tables import MemoryStore
from test_server_hub import FakeSocket
from test_server_support import CARD_TOKEN

ROLLOUTS = 24  # small: the tests check the plumbing, the coach's own tests its judgement
ROOM = {
    "seats": ["human", "computer", "computer", "computer"],
    "deals": 2,
    "seed": 11,
    "public": True,
}
SUITS = {"♦": "d", "♣": "c", "♥": "h", "♠": "s"}
SYMBOL = re.compile(r"(10|[2-9JQKA])([♦♣♥♠])")


class Table:
    """A room of one person (seat 0, holding ``token``) and three computers, run by the
    application's hub, played by hand here."""

    def __init__(self, app: Any, options: dict[str, Any]) -> None:
        hub = app.state.hub
        self.runner = hub.create(table_config({**ROOM, **options}, allow_seed=True))
        self.code = self.runner.code
        seat, self.token = hub.join(self.runner, "Ann", None)
        assert seat == 0
        self.conn = Connection(FakeSocket(), hub.settings.limits)  # type: ignore[arg-type]
        self.writer = asyncio.create_task(self.conn.writer())
        self.runner.attach(self.conn, 0, 0)
        self.watch_token = hub.watch(self.runner)

    @property
    def game(self) -> Match:
        game = self.runner.service.game
        assert isinstance(game, Match)
        return game

    def send(self, message: dict[str, Any]) -> None:
        svc = self.runner.service
        self.runner.on_frame(self.conn, json.dumps({**message, "id": f"m{svc.v}", "v": svc.v}))

    async def start(self) -> None:
        self.runner.on_frame(self.conn, json.dumps({"type": "ready", "id": "r"}))
        while self.runner.service.game is None:
            await asyncio.sleep(0)

    async def play_until(self, done: Any) -> None:
        """Seat 0 plays its first legal play (or passes) until ``done()``."""
        for _ in range(2000):
            if done():
                return
            deal = self.game.deal
            if not deal.over and deal.turn == 0:
                view = deal.view(0)
                self.send(
                    {"type": "play", "cards": str(view.legal[0])}
                    if view.legal and not view.can_pass
                    else {"type": "pass"}
                )
            await asyncio.sleep(0)
        raise AssertionError("the table did not get there")

    async def finish_deal(self) -> None:
        await self.play_until(lambda: self.game.deal.over)


@pytest.fixture
async def app() -> AsyncIterator[Any]:
    app = create_app(MemoryStore(), Settings(think="inline", allow_seeds=True))
    app.state.coach.rollouts = ROLLOUTS
    app.state.coach.worlds = 60
    yield app


@pytest.fixture
async def http(app: Any) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        yield client


async def review(http: httpx.AsyncClient, code: str, **body: Any) -> httpx.Response:
    return await http.post(f"/api/rooms/{code}/review", json=body)


async def reviewed(http: httpx.AsyncClient, code: str, **body: Any) -> dict[str, Any]:
    """Ask until the review is done (the browser's polling)."""
    for _ in range(600):
        answer = await review(http, code, **body)
        if answer.status_code == 200:
            data = answer.json()
            assert data["status"] == "done"
            return dict(data["review"])
        assert answer.status_code == 202, answer.text
        pending = answer.json()
        assert pending["status"] == "pending" and 0 <= pending["done"] <= max(1, pending["total"])
        await asyncio.sleep(0.05)
    raise AssertionError("the review never finished")


def named_cards(data: Any) -> int:
    """Every card a JSON answer names, in notation or with its suit's symbol, as a mask."""
    text = json.dumps(data, ensure_ascii=False)
    mask = 0
    for token in CARD_TOKEN.findall(text):
        mask |= to_mask(token)
    for rank, suit in SYMBOL.findall(text):
        mask |= to_mask(("T" if rank == "10" else rank) + SUITS[suit])
    return mask


async def test_a_finished_deal_is_reviewed_off_the_loop_then_kept(
    app: Any, http: httpx.AsyncClient
) -> None:
    table = Table(app, {})
    await table.start()
    # Deal 1 in play: not reviewed yet, by its player or anyone else.
    refused = await review(http, table.code, deal=1, token=table.token)
    assert refused.status_code == 409 and refused.json()["error"] == "not_over"
    assert refused.json()["params"] == {"reason": "deal", "deal": 1}
    await table.finish_deal()
    seed = table.runner.service.config.seed
    spectator = await review(http, table.code, deal=1, seat=0)
    assert spectator.status_code == 403 and spectator.json()["params"]["reason"] == "spectator"
    watcher = await review(http, table.code, deal=1, seat=0, token=table.watch_token)
    assert watcher.status_code == 403 and watcher.json()["error"] == "unauthorized"
    other = await review(http, table.code, deal=1, seat=2, token=table.token)
    assert other.status_code == 403 and other.json()["params"]["reason"] == "other_seat"
    later = await review(http, table.code, deal=2, token=table.token)
    assert later.status_code == 409 and later.json()["error"] == "not_over"
    beyond = await review(http, table.code, deal=3, token=table.token)
    assert beyond.status_code == 404 and beyond.json()["error"] == "no_deal"
    nowhere = await review(http, "ZZZZZZ", deal=1, token=table.token)
    assert nowhere.status_code == 404 and nowhere.json()["error"] == "no_room"

    first = await review(http, table.code, deal=1, token=table.token)
    assert first.status_code == 202 and first.json()["status"] == "pending"
    got = await reviewed(http, table.code, deal=1, token=table.token)
    # The coach's own review of the deal, with the room's seed: the same marks and losses.
    record = table.game.deal_records()[0]
    expected = review_deal(record, 0, seed=seed, rollouts=ROLLOUTS)
    assert [d["step"] for d in got["decisions"]] == [d.step for d in expected.decisions]
    assert [d["mark"] for d in got["decisions"]] == [d.mark.value for d in expected.decisions]
    assert [d.get("loss", 0.0) for d in got["decisions"]] == [
        round(d.loss, 3) if d.rated and d.worlds else 0.0 for d in expected.decisions
    ]
    assert got["accuracy"] == expected.accuracy and got["seat"] == 0 and got["deal"] == 1
    costliest = [got["decisions"][i]["step"] for i in got["costliest"]]
    assert costliest == [d.step for d in expected.costliest()]
    # Kept: asked again, it is answered at once, the same.
    started = time.perf_counter()
    again = await review(http, table.code, deal=1, token=table.token)
    assert again.status_code == 200 and again.json()["review"] == got
    assert time.perf_counter() - started < 1.0
    assert app.state.coach.jobs == {}


async def test_the_review_names_only_cards_its_seat_could_see(
    app: Any, http: httpx.AsyncClient
) -> None:
    """As strict as the server's leak test: each decision names only the seat's own cards at
    that moment and the cards played before it; its ``hand`` is exactly the seat's cards."""
    table = Table(app, {})
    await table.start()
    await table.finish_deal()
    got = await reviewed(http, table.code, deal=1, token=table.token)
    record = table.game.deal_records()[0]
    assert got["decisions"]
    for decision in got["decisions"]:
        step = decision["step"]
        before = record.actions[:step]
        played = 0
        for action in before:
            if action.play is not None:
                played |= action.play.mask
        own = record.dealt[0] & ~played
        assert to_mask(decision["hand"]) == own
        named = named_cards(decision)
        assert named & ~(own | played) == 0, (decision, named & ~(own | played))
    # The answer as a whole (its costliest list points into the decisions).
    assert all(0 <= i < len(got["decisions"]) for i in got["costliest"])


def told_as(opponent: dict[str, Any], want: Any) -> None:
    """An opponent's chances as the route told them are ``want``'s, rounded."""
    for name, chance in want.chances().items():
        got = opponent["chances"][name]
        assert (got is None) == (chance is None)
        if chance is not None:
            assert got == {
                "p": round(chance.p, 4),
                "se": round(chance.se, 4),
                "exact": chance.exact,
            }


async def test_beliefs_are_the_seats_own_and_never_a_spectators(
    app: Any, http: httpx.AsyncClient
) -> None:
    table = Table(app, {})
    await table.start()
    # Play into the deal a little, then ask at seat 0's turn.
    await table.play_until(lambda: len(table.game.deal.actions) >= 5)
    answer = await http.post(f"/api/rooms/{table.code}/beliefs", json={"token": table.token})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    view = table.game.view(0)
    rng = random.Random(f"beliefs:{table.runner.service.config.seed}:1:{len(view.actions)}")
    expected = beliefs_of(view, rng, 60)
    assert [o["seat"] for o in data["opponents"]] == [1, 2, 3]
    assert data["beating"] == expected.beating == (0 if view.to_beat is None else view.to_beat.size)
    for opponent in data["opponents"]:
        want = expected.of(opponent["seat"])
        assert opponent["cards"] == view.counts[opponent["seat"]]
        told_as(opponent, want)
    if expected.proofs == 0:  # counted exactly: a 2 among the cards seat 0 has not seen
        u = view.unseen.bit_count()
        twos = (view.unseen >> 48).bit_count()
        assert data["opponents"][0]["chances"]["two"]["p"] == round(
            holds_any(u, view.counts[1], twos), 4
        )
    # Nothing in it names a card seat 0 could not see.
    assert named_cards(data) & ~(view.hand | view.played) == 0
    # A spectator, and a token of no seat, are refused.
    watcher = await http.post(f"/api/rooms/{table.code}/beliefs", json={"token": table.watch_token})
    assert watcher.status_code == 403 and watcher.json()["error"] == "unauthorized"
    nobody = await http.post(f"/api/rooms/{table.code}/beliefs", json={})
    assert nobody.status_code == 400 and nobody.json()["error"] == "bad_request"


async def test_assists_turned_off_refuse_the_coach_during_the_match(
    app: Any, http: httpx.AsyncClient
) -> None:
    table = Table(app, {"assists": False})
    assert table.runner.service.info()["options"]["assists"] is False
    await table.start()
    beliefs = await http.post(f"/api/rooms/{table.code}/beliefs", json={"token": table.token})
    assert beliefs.status_code == 403 and beliefs.json()["error"] == "assists_off"
    await table.finish_deal()
    refused = await review(http, table.code, deal=1, token=table.token)
    assert refused.status_code == 403 and refused.json()["error"] == "assists_off"
    # Once the match is over the record is anyone's, and so is its review.
    table.runner.on_frame(table.conn, json.dumps({"type": "next", "id": "n"}))
    await table.play_until(lambda: table.runner.service.status == "finished")
    got = await reviewed(http, table.code, deal=2, seat=1)
    assert got["seat"] == 1 and got["deal"] == 2


def _where() -> tuple[int, int]:
    import os
    import threading

    return os.getpid(), threading.get_ident()


@pytest.mark.parametrize("mode", ["inline", "process"])
async def test_the_coach_computes_off_the_event_loop(mode: str) -> None:
    """The coach's jobs never run on the loop: in a worker process of the pool, or in a
    thread where computers think inline; while one runs, a slow level would step down."""
    import os
    import threading

    from bigtwo.server.thinking import Thinker

    thinker = Thinker(mode, workers=1)
    try:
        job = asyncio.ensure_future(thinker.compute(_where))
        await asyncio.sleep(0)
        assert thinker.coaching == 1 and thinker._contended()
        pid, thread = await job
        assert thinker.coaching == 0
        if mode == "process":
            assert pid != os.getpid()
        else:
            assert pid == os.getpid() and thread != threading.get_ident()
    finally:
        thinker.close()


async def test_a_hand_of_big_2_revolution_is_reviewed_as_the_command_does() -> None:
    """The same route reviews the expansion's hands: the coach's own review of the hand, with
    the room's seed, decision for decision; its position shows the seat's own cards."""
    from bigtwo.coach.revolution import review_revolution_hand
    from bigtwo.server.coach import Coach
    from bigtwo.server.thinking import Thinker
    from test_service_revolution import COMPUTERS, revolution_table

    table = revolution_table(COMPUTERS, seed=11, deals=1)
    table._start(0.0)
    while table.status == "playing":
        table.submit(None, 0.0)
    coach = Coach(Thinker("inline"), rollouts=8)
    status, pending = coach.review(table, "REVO", 1, 2)
    assert status == 202 and pending["status"] == "pending"
    job = coach.jobs[("REVO", table.config.seed, 1, 2)]
    assert job.task is not None
    await job.task
    status, done = coach.review(table, "REVO", 1, 2)
    assert status == 200
    got = done["review"]
    game = table.game
    assert game is not None
    hand = game.played_hands()[0]
    expected = review_revolution_hand(hand, table.rules, 2, seed=table.config.seed, rollouts=8)
    assert [d["mark"] for d in got["decisions"]] == [d.mark.value for d in expected.decisions]
    assert [d["step"] for d in got["decisions"]] == [d.step for d in expected.decisions]
    # Each position is the seat's own view before the choice: its cards, the counts.
    from bigtwo.coach.revolution import revolution_turns
    from bigtwo.engine.cards import Mask, card_text

    views = [t.view for t in revolution_turns(hand, table.rules, 2)]
    assert [d["hand"] for d in got["decisions"]] == [card_text(Mask(v.hand)) for v in views]
    assert [d["counts"] for d in got["decisions"]] == [list(v.counts) for v in views]


async def test_reviews_under_way_are_bounded(app: Any, http: httpx.AsyncClient) -> None:
    """So many reviews at once and the next is refused in words (503 busy) until one is done;
    one under way already is still answered."""
    from bigtwo.server import coach as coach_module

    table = Table(app, {})
    await table.start()
    await table.finish_deal()
    coach = app.state.coach
    for n in range(coach_module.UNDER_WAY):  # stand-ins of reviews under way elsewhere
        coach.jobs[("OTHER", 0, n, 0)] = coach_module._Job()
    busy = await review(http, table.code, deal=1, token=table.token)
    assert busy.status_code == 503 and busy.json()["error"] == "busy"
    assert busy.json()["params"] == {"reason": "reviews"}
    coach.jobs.pop(("OTHER", 0, 0, 0))
    started = await review(http, table.code, deal=1, token=table.token)
    assert started.status_code == 202
    assert len(coach.jobs) == coach_module.UNDER_WAY
    again = await review(http, table.code, deal=1, token=table.token)
    assert again.status_code == 202
    mine = coach.jobs[(table.code, table.runner.service.config.seed, 1, 0)]
    await mine.task  # done, and kept
    assert (await review(http, table.code, deal=1, token=table.token)).status_code == 200


async def test_a_review_that_failed_says_so_once_then_starts_afresh(
    app: Any, http: httpx.AsyncClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bigtwo.server import coach as coach_module

    def broken(*args: Any) -> Any:
        raise RuntimeError("a worker failed")

    table = Table(app, {})
    await table.start()
    await table.finish_deal()
    monkeypatch.setattr(coach_module, "judge_decision", broken)
    assert (await review(http, table.code, deal=1, token=table.token)).status_code == 202
    job = app.state.coach.jobs[(table.code, table.runner.service.config.seed, 1, 0)]
    assert job.task is not None
    await job.task
    failed = await review(http, table.code, deal=1, token=table.token)
    assert failed.status_code == 503 and failed.json()["error"] == "unavailable"
    monkeypatch.undo()
    assert (await review(http, table.code, deal=1, token=table.token)).status_code == 202
    assert (await reviewed(http, table.code, deal=1, token=table.token))["deal"] == 1


async def test_a_review_is_kept_with_the_game_across_a_restart(
    store_db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reviewed once, the review is in the table database: a server started afresh on it
    answers the same review at once, with no decision judged (no worker job runs)."""
    from bigtwo.server import coach as coach_module
    from bigtwo.store.reviews import open_reviews
    from bigtwo.store.tables import open_store

    first = create_app(open_store(store_db, checkpoint=False), Settings(think="inline"))
    first.state.coach.rollouts = ROLLOUTS
    transport = httpx.ASGITransport(app=first)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
        table = Table(first, {})
        await table.start()
        await table.finish_deal()
        got = await reviewed(client, table.code, deal=1, token=table.token)
    seed = table.runner.service.config.seed
    first.state.hub.shutdown()
    first.state.hub.store.close()
    first.state.coach.close()
    table.writer.cancel()

    jobs: list[Any] = []

    def counted(*args: Any) -> Any:
        jobs.append(args)
        raise AssertionError("a kept review was computed again")

    monkeypatch.setattr(coach_module, "judge_decision", counted)
    second = create_app(open_store(store_db, checkpoint=False), Settings(think="inline"))
    second.state.coach.rollouts = ROLLOUTS
    assert second.state.coach.kept == {}
    transport = httpx.ASGITransport(app=second)
    try:
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as client:
            again = await review(client, table.code, deal=1, token=table.token)
            assert again.status_code == 200, again.text
            assert again.json() == {"status": "done", "review": got}
        assert jobs == [] and second.state.coach.jobs == {}
    finally:
        second.state.hub.shutdown()
        second.state.hub.store.close()
        second.state.coach.close()
    # The row itself: one review of the room, under its seed, deal, seat and rollouts.
    tables = open_store(store_db, checkpoint=False)
    reviews = open_reviews(tables)
    try:
        assert reviews.count(table.code) == 1
        assert reviews.get((table.code, seed, 1, 0, ROLLOUTS)) == got
        assert reviews.get((table.code, seed, 1, 0, ROLLOUTS + 1)) is None
    finally:
        reviews.close()
        tables.close()


async def test_the_host_turns_assists_off_and_on_during_the_match(
    app: Any, http: httpx.AsyncClient
) -> None:
    """The room's ``settings`` command with ``assists``: every connection is told at once
    (the room's options say so), the beliefs and the review are refused while they are off
    and answered again once they are on; a settings message that does not name ``assists``
    leaves them as they are, and a spectator is refused throughout."""
    table = Table(app, {})
    await table.start()
    await table.play_until(lambda: len(table.game.deal.actions) >= 5)
    socket = table.conn.socket
    asked = {"token": table.token}

    async def set_assists(on: bool | None) -> dict[str, Any]:
        settings = {"turn_seconds": None, "away_seconds": None, "spectators": True}
        said = {"type": "settings", "id": f"s{on}", **settings}
        table.runner.on_frame(
            table.conn, json.dumps(said | ({} if on is None else {"assists": on}))
        )
        for _ in range(50):
            told = [m for m in socket.messages() if m["type"] == "settings"]  # type: ignore[attr-defined]
            if told and told[-1]["v"] == table.runner.service.v:
                return dict(told[-1])
            await asyncio.sleep(0)
        raise AssertionError("no settings event")

    told = await set_assists(False)
    assert told["assists"] is False and told["by"] == 0
    assert table.runner.service.info()["options"]["assists"] is False
    off = await http.post(f"/api/rooms/{table.code}/beliefs", json=asked)
    assert off.status_code == 403 and off.json()["error"] == "assists_off"
    assert (await set_assists(None))["assists"] is False  # unchanged
    told = await set_assists(True)
    assert told["assists"] is True
    on = await http.post(f"/api/rooms/{table.code}/beliefs", json=asked)
    assert on.status_code == 200 and on.json()["opponents"]
    watcher = await http.post(f"/api/rooms/{table.code}/beliefs", json={"token": table.watch_token})
    assert watcher.status_code == 403 and watcher.json()["error"] == "unauthorized"
    # Only the host may turn them: the room refuses anyone else in words.
    svc = table.runner.service
    from bigtwo.service import Command, Op
    from bigtwo.service.table import Refused

    with pytest.raises(Refused, match="Only the host"):
        svc.apply(Command(Op.SETTINGS, seat=1, value={"assists": False}), 0.0)
    with pytest.raises(Refused, match="'assists' must be true or false"):
        svc.apply(Command(Op.SETTINGS, seat=0, value={"assists": "no"}), 0.0)


async def test_a_hand_of_big_2_revolution_tells_its_beliefs(
    app: Any, http: httpx.AsyncClient
) -> None:
    """At a table of the expansion a seated player is told what it may believe, as
    :func:`beliefs_of` counts it from the seat's own view of the hand (its Revolution
    cards counted too)."""
    table = Table(app, {"preset": "revolution"})
    await table.start()
    game = table.runner.service.game
    answer = await http.post(f"/api/rooms/{table.code}/beliefs", json={"token": table.token})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    assert game is not None and data["game"] == "revolution"
    view = game.deal.view(0)
    rng = random.Random(f"beliefs:{table.runner.service.config.seed}:1:{len(view.actions)}")
    expected = beliefs_of(view, rng, 60)
    for opponent in data["opponents"]:
        seat = opponent["seat"]
        assert opponent["cards"] == view.counts[seat]
        assert opponent["starred"] == view.revolution_counts[seat]
        told_as(opponent, expected.of(seat))
