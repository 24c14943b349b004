"""Ratings: whole rated games played in process (the person's moves sent over a connection,
the computers thinking inline) give the figures OpenSkill's Plackett-Luce model gives for the
same results, game after game; a game that ends early is settled unrated; only the host makes
a room rated, and only a whole game under a standard preset; a rated game is settled once,
even by two servers at once; a person who keeps beating ``strong`` rises above its fixed
rating (the skill it stands for); the leaderboard ranks players with enough games."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from openskill.models import PlackettLuce

from bigtwo.server import ratings
from bigtwo.server.accounts import Accounts
from bigtwo.server.connection import Connection
from bigtwo.server.ratings import (
    MIN_GAMES,
    MU,
    SIGMA,
    computer_rating,
    computer_ratings,
    rate,
    shown,
)
from bigtwo.store.accounts import Rating, RatingChange, open_accounts
from bigtwo.store.tables import open_store
from test_accounts import register, server
from test_server_hub import FakeSocket


def room(level: str = "greedy", **more: Any) -> dict[str, Any]:
    seat = f"computer:{level}"
    return {"preset": "textbook", "seats": ["human", seat, seat, seat], **more}


async def rated_room(http: httpx.AsyncClient, level: str = "greedy") -> tuple[str, str]:
    """A rated room of one person (its seat kept with the account) and three computers:
    its code and the person's token."""
    code = (await http.post("/api/rooms", json=room(level))).json()["code"]
    token = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ann"})).json()["token"]
    assert (await http.post("/api/account/seats", json={"code": code, "token": token})).is_success
    made = await http.post(f"/api/rooms/{code}/rated", json={"token": token})
    assert made.json() == {
        "code": code,
        "rated": True,
        "family": "bigtwo",
        "settled": False,
        "outcome": "",
        "seats": [],
    }
    return code, token


async def play_out(app: Any, code: str, *, quit_at: int | None = None) -> list[int]:
    """Play the person's seat (seat 0) to the end, the first legal play each turn (or quit
    after ``quit_at`` of its turns): the match's totals."""
    hub = app.state.hub
    runner = hub.get(code)
    conn = Connection(FakeSocket(), hub.settings.limits)
    runner.attach(conn, 0, 0)
    runner.on_frame(conn, json.dumps({"type": "ready", "id": "r1"}))
    svc, turns = runner.service, 0
    while svc.status == "playing":
        if quit_at is not None and turns == quit_at:
            runner.on_frame(conn, json.dumps({"type": "quit", "id": "q1"}))
            break
        view = svc.game.deal.view(0)
        if svc.game.deal.to_act == 0:
            move = {"type": "play", "cards": str(view.legal[0])} if view.legal else {"type": "pass"}
            runner.on_frame(conn, json.dumps({**move, "id": f"a{svc.v}", "v": svc.v}))
            turns += 1
        await asyncio.sleep(0)
    await asyncio.sleep(0.01)  # the settling runs once the table is done
    runner.detach(conn)
    return [int(t) for t in svc.game.totals]


def finish_of(game: Any) -> list[int]:
    """The places of a finished one-deal game under rules that keep no score (textbook): its
    winner first, the others by the cards they were left with."""
    [deal] = game.results
    assert set(game.totals) == {0}
    left = [hand.bit_count() for hand in deal.cards_left]
    return [
        1 if seat == deal.winner else 1 + sum(1 for c in left if c < left[seat])
        for seat in range(4)
    ]


async def test_rated_games_give_the_libraries_figures_game_after_game() -> None:
    model = PlackettLuce()
    mine = model.rating()
    level = "greedy"
    fixed = computer_rating(level, "bigtwo")
    async with server() as (app, client):
        http = client()
        await register(http, "Ann Lee")
        for game in range(MIN_GAMES):
            code, _ = await rated_room(http, level)
            totals = await play_out(app, code)
            finish = finish_of(app.state.hub.get(code).service.game)
            teams = [[mine]] + [[model.rating(mu=fixed[0], sigma=fixed[1])] for _ in range(3)]
            expected = model.rate(teams, ranks=[float(p) for p in finish])[0][0]
            # Settled when the table finished, before anyone asked.
            stored = accounts(app).store.rating(accounts(app).store.find("Ann Lee").id, "bigtwo")  # type: ignore[union-attr]
            assert stored is not None and stored.games == game + 1
            assert (stored.mu, stored.sigma) == pytest.approx((expected.mu, expected.sigma))
            answer = (await http.get(f"/api/rooms/{code}/rated")).json()
            assert answer["settled"] and answer["outcome"] == "rated"
            seats = answer["seats"]
            assert [s["points"] for s in seats] == totals
            assert seats[0]["name"] == "Ann Lee" and seats[0]["who"] == "account"
            assert seats[0]["before"] == shown(mine.mu, mine.sigma)
            assert seats[0]["after"] == shown(expected.mu, expected.sigma)
            # The computers' fixed ratings do not move.
            assert {(s["who"], s["before"], s["after"]) for s in seats[1:]} == {
                ("computer", shown(*fixed), shown(*fixed))
            }
            mine = expected
        me = (await http.get("/api/account")).json()["ratings"]["bigtwo"]
        assert me["rating"] == shown(mine.mu, mine.sigma) and me["games"] == MIN_GAMES
        board = (await http.get("/api/leaderboard")).json()
        assert board["players"] == [board["you"]] and board["you"]["rank"] == 1
        profile = (await http.get("/api/players/Ann%20Lee")).json()
        history = profile["ratings"]["bigtwo"]["history"]
        assert [h["after"] for h in history][0] == shown(mine.mu, mine.sigma)  # newest first
        assert len(history) == MIN_GAMES == len(profile["games"])


async def test_a_game_that_ends_early_is_not_rated() -> None:
    async with server() as (app, client):
        http = client()
        await register(http, "Ann Lee")
        code, _ = await rated_room(http)
        await play_out(app, code, quit_at=1)
        svc = app.state.hub.get(code).service
        assert svc.status == "finished" and svc.closed_reason == "every player quit"
        answer = (await http.get(f"/api/rooms/{code}/rated")).json()
        assert (answer["settled"], answer["outcome"], answer["seats"]) == (True, "ended early", [])
        me = (await http.get("/api/account")).json()["ratings"]["bigtwo"]
        assert me == {"rating": shown(MU, SIGMA), "games": 0, "wins": 0}


async def test_only_the_host_makes_a_whole_standard_game_rated() -> None:
    async with server() as (_app, client):
        http = client()
        two = {"preset": "textbook", "seats": ["human", "human", "computer", "computer"]}
        code = (await http.post("/api/rooms", json=two)).json()["code"]
        host = (await http.post(f"/api/rooms/{code}/join", json={"name": "Ann"})).json()["token"]
        other = (await http.post(f"/api/rooms/{code}/join", json={"name": "Bob"})).json()["token"]
        refused = await http.post(f"/api/rooms/{code}/rated", json={"token": other})
        assert refused.status_code == 403 and refused.json()["error"] == "unauthorized"
        assert (await http.post(f"/api/rooms/{code}/rated", json={"token": host})).is_success
        # The preset's own number of deals, said, is still the preset.
        said = (await http.post("/api/rooms", json=room(deals=1))).json()["code"]
        token = (await http.post(f"/api/rooms/{said}/join", json={})).json()["token"]
        assert (await http.post(f"/api/rooms/{said}/rated", json={"token": token})).is_success
        short = (await http.post("/api/rooms", json=room(deals=2))).json()["code"]
        token = (await http.post(f"/api/rooms/{short}/join", json={})).json()["token"]
        answer = await http.post(f"/api/rooms/{short}/rated", json={"token": token})
        assert answer.status_code == 409
        assert answer.json()["error"] == "not_ratable"
        assert answer.json()["params"] == {"reason": "rules"}
        assert (await http.get(f"/api/rooms/{short}/rated")).json() == {
            "code": short,
            "rated": False,
        }
        missing = await http.get("/api/rooms/NOSUCH/rated")
        assert missing.status_code == 404 and missing.json()["error"] == "no_room"


def test_a_rated_game_is_settled_once_even_by_two_servers(store_db: str) -> None:
    tables = open_store(store_db, checkpoint=False)
    one, two = open_accounts(tables), open_accounts(tables)
    try:
        ann = one.create("Ann Lee", "$argon2id$not-a-real-hash", 1.0)
        one.mark_rated("GAMEAA", "bigtwo", True, 1.0)
        change = RatingChange("GAMEAA", 0, ann.id, "bigtwo", 1, 9, 1000.0, 1050.0, 2.0)
        new = [(ann.id, "bigtwo", Rating(27.0, 8.0, 1, 1))]
        assert one.settle("GAMEAA", "rated", 2.0, [change], new)
        assert not two.settle("GAMEAA", "rated", 3.0, [change], new)
        assert two.rating(ann.id, "bigtwo") == Rating(27.0, 8.0, 1, 1)
        assert len(two.game("GAMEAA")) == 1
    finally:
        one.close()
        two.close()
        tables.close()


@pytest.mark.parametrize("family", ["bigtwo", "revolution"])
def test_a_person_who_keeps_beating_strong_rises_above_it(family: str) -> None:
    strong = computer_rating("strong", family)
    skill = shown(strong[0], 0.0)  # what strong's rating says of its skill, were it certain
    mine, games = (MU, SIGMA), 0
    while shown(*mine) <= skill:
        mine = rate([mine, strong, strong, strong], [1, 2, 3, 4])[0]
        games += 1
        assert games < 60, f"still {shown(*mine)} after {games} wins"
    assert games > 0 and shown(*mine) > skill > shown(*strong)
    # Losing to it instead never does.
    lost = (MU, SIGMA)
    for _ in range(games):
        lost = rate([lost, strong, strong, strong], [4, 1, 2, 3])[0]
    assert shown(*lost) < shown(MU, SIGMA)


def test_every_computer_level_of_each_family_has_a_calibrated_rating() -> None:
    from bigtwo.bots import bot_names

    fixed = computer_ratings()
    assert set(bot_names("bigtwo")) == set(fixed["bigtwo"])
    assert set(bot_names("revolution")) == set(fixed["revolution"])
    assert all(sigma < SIGMA for family in fixed.values() for _mu, sigma in family.values())
    assert ratings.computer_rating("no such level") == (MU, SIGMA)


def accounts(app: Any) -> Accounts:
    found: Accounts = app.state.accounts
    return found


async def test_a_rated_game_taken_up_by_another_node_counts_its_seconds() -> None:
    """A node that loads a rated room made since it started (another node made it, and died
    before its match began) watches for the start too: the game's seconds are counted."""
    async with server() as (app, client):
        http = client()
        await register(http, "Ann Lee")
        code, _ = await rated_room(http)
        hub, watcher = app.state.hub, accounts(app)
        watcher.starting.discard(code)  # as on a node started before the room was made
        hub.unload(code)
        await play_out(app, code)  # loaded again from the store, then played
        room = watcher.store.rated_room(code)
        assert room is not None and room.began is not None and room.settled is not None
