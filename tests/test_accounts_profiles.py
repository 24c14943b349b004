"""A player's profile: the Palm high-score table's figures over their rated games (deals
played, seconds of play, most points in one deal, score balance) and points a deal, from whole
rated games played in process; each recent game's coach's reviews kept of the player's seat,
the same the coach then answers at once; a private room's games only to its players (the
player, and whoever else played in it), never to anyone else, nor their codes in the rating
history. Games rated before those figures were kept read as naught."""

from __future__ import annotations

import asyncio
from contextlib import closing
from typing import Any

from bigtwo.store.accounts import Palm, Rating, RatingChange, open_accounts
from bigtwo.store.migrations import migrate
from bigtwo.store.sql import connect
from bigtwo.store.tables import open_store
from test_accounts import accounts, register, server
from test_accounts_ratings import play_out, rated_room


class Ticking:
    """A wall clock that moves on a second each time it is read."""

    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def test_the_palm_figures_sum_the_rated_games() -> None:
    async with server() as (app, client):
        accounts(app).clock = Ticking()
        http = client()
        await register(http, "Ann Lee")
        store = accounts(app).store
        ann = store.find("Ann Lee")
        assert ann is not None
        rounds, seconds, best, balance = 0, 0.0, [], 0
        for _ in range(2):
            code, _token = await rated_room(http)
            totals = await play_out(app, code)
            game = app.state.hub.get(code).service.game
            room = store.rated_room(code)
            assert room is not None and room.began is not None and room.settled is not None
            assert room.settled > room.began  # counted from the match's start, not the room's
            rounds += len(game.results)
            seconds += room.settled - room.began
            best.append(game.best_deal(0))
            balance += totals[0]
        profile = (await http.get("/api/players/Ann%20Lee")).json()
    assert rounds == 2  # textbook: one deal a game
    assert profile["total_rounds"] == rounds
    assert profile["total_seconds"] == round(seconds)
    assert profile["max_score"] == max(best)
    assert profile["score_balance"] == balance
    assert profile["points_per_deal"] == round(balance / rounds, 2)
    games = profile["games"]
    assert [g["rounds"] for g in games] == [1, 1] and [g["seat"] for g in games] == [0, 0]
    assert sorted(g["best"] for g in games) == sorted(best)
    assert sum(g["points"] for g in games) == balance


async def test_a_profile_links_the_coachs_reviews_kept_of_the_players_seat() -> None:
    async with server(review_rollouts=2) as (app, client):
        http = client()
        await register(http, "Ann Lee")
        code, _token = await rated_room(http)
        await play_out(app, code)
        before = (await http.get("/api/players/Ann%20Lee")).json()["games"]
        assert [g["reviews"] for g in before] == [[]]
        asked = {"deal": 1, "seat": 0}
        for _ in range(600):
            answer = await http.post(f"/api/rooms/{code}/review", json=asked)
            if answer.status_code == 200:
                break
            await asyncio.sleep(0.05)
        assert answer.status_code == 200 and answer.json()["status"] == "done", answer.text
        other = await http.post(f"/api/rooms/{code}/review", json={"deal": 1, "seat": 1})
        assert other.status_code in (200, 202)  # another seat's: not the player's review
        game = (await http.get("/api/players/Ann%20Lee")).json()["games"][0]
        assert (game["code"], game["seat"], game["reviews"]) == (code, 0, [1])
        # The link's review is the one kept: answered at once, the same.
        again = await http.post(f"/api/rooms/{code}/review", json=asked)
        assert again.status_code == 200 and again.json() == answer.json()


async def test_a_private_rooms_games_are_shown_only_to_its_players() -> None:
    async with server() as (app, client):
        ann, bob, cal, guest = client(), client("10.0.0.2"), client("10.0.0.3"), client("10.0.0.4")
        for http, name in ((ann, "Ann Lee"), (bob, "Bob Ray"), (cal, "Cal Poe")):
            await register(http, name)
        store = accounts(app).store
        ann_id, bob_id = (store.find(n).id for n in ("Ann Lee", "Bob Ray"))  # type: ignore[union-attr]
        for code, public, settled in (("OPENAA", True, 2.0), ("SECRET", False, 3.0)):
            store.mark_rated(code, "bigtwo", public, 1.0)
            changes = [
                RatingChange(code, 0, ann_id, "bigtwo", 1, 12, 1000.0, 1040.0, settled),
                RatingChange(code, 1, bob_id, "bigtwo", 2, -12, 1000.0, 980.0, settled),
            ]
            ratings = [
                (ann_id, "bigtwo", Rating(26, 8, 1, 1)),
                (bob_id, "bigtwo", Rating(24, 8, 1, 0)),
            ]
            store.settle(code, "rated", settled, changes, ratings)

        async def seen(http: Any, name: str) -> tuple[list[str], Any]:
            answer = await http.get(f"/api/players/{name}")
            assert answer.status_code == 200
            return [g["code"] for g in answer.json()["games"]], answer

        assert (await seen(ann, "Ann%20Lee"))[0] == ["SECRET", "OPENAA"]
        assert (await seen(bob, "Ann%20Lee"))[0] == ["SECRET", "OPENAA"]  # he played in it
        for outsider in (cal, guest):
            codes, answer = await seen(outsider, "Ann%20Lee")
            assert codes == ["OPENAA"]
            assert "SECRET" not in answer.text  # nor in the rating's history
            assert len(answer.json()["ratings"]["bigtwo"]["history"]) == 2
        assert (await seen(cal, "Bob%20Ray"))[0] == ["OPENAA"]


def test_games_rated_before_the_palm_figures_were_kept_read_as_naught(store_db: str) -> None:
    with closing(connect(store_db)) as db:
        migrate(db, 5)
        db.execute("INSERT INTO accounts VALUES ('a1', 'Ann Lee', 'annlee', '$argon2id$x', 1.0)")
        db.execute("INSERT INTO rated_rooms VALUES ('OLDONE', 'bigtwo', 1, 1.0, 2.0, 'rated')")
        db.execute(
            "INSERT INTO rating_changes VALUES "
            "('OLDONE', 0, 'a1', 'account', 'bigtwo', 1, 9, 1000.0, 1040.0, 2.0)"
        )
    tables = open_store(store_db, checkpoint=False)
    store = open_accounts(tables)
    try:
        [(change, room)] = store.changes("a1")
        assert (change.points, change.rounds, change.seconds, change.best) == (9, 0, 0.0, 0)
        assert (room.seed, room.began, room.public) == (0, None, True)
        assert store.palm("a1") == Palm(games=1, rounds=0, seconds=0.0, best=0, balance=9)
    finally:
        store.close()
        tables.close()
