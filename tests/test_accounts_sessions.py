"""A session's life: it ends after a time unused, but each use pushes that end back (sliding
expiry); the time of use is written at most once every touch_every seconds, not at every
request; no session lives past the longest life however active; the cookie lives as long as
that longest life (the server ends the session sooner). Time is the test's own clock."""

from __future__ import annotations

from typing import Any

from bigtwo.server.accounts import COOKIE, LONGEST, touch_every
from bigtwo.store import sql
from test_accounts import accounts, register, server

IDLE = 1000.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


def seen(store_db: str) -> list[float]:
    db = sql.connect(store_db)
    try:
        return [float(r[0]) for r in db.execute("SELECT seen FROM sessions").fetchall()]
    finally:
        db.close()


async def signed_in(http: Any) -> bool:
    return bool((await http.get("/api/account")).json()["signed_in"])


async def test_use_pushes_the_end_of_a_session_back_and_inactivity_ends_it() -> None:
    async with server(session_idle=IDLE) as (app, client):
        clock = accounts(app).clock = Clock()
        http = client()
        await register(http, "Ann Lee")
        # Used every 60% of the idle time, it outlives the idle time many times over.
        for _ in range(5):
            clock.now += 0.6 * IDLE
            assert await signed_in(http)
        # Then unused for longer than the idle time: ended, on the server too.
        clock.now += IDLE + 1
        assert not await signed_in(http)
        account = accounts(app).store.find("Ann Lee")
        assert account is not None and accounts(app).store.sessions(account.id) == 0


async def test_the_time_of_use_is_written_only_once_in_a_while(store_db: str) -> None:
    every = touch_every(IDLE)
    assert 0 < every < IDLE / 10
    async with server(store_db, session_idle=IDLE) as (app, client):
        clock = accounts(app).clock = Clock()
        http = client()
        await register(http, "Ann Lee")
        started = clock.now
        assert seen(store_db) == [started]
        for _ in range(5):  # requests in quick succession: nothing written
            clock.now += every / 10
            assert await signed_in(http)
        assert seen(store_db) == [started]
        clock.now = started + every  # once touch_every has passed: written
        assert await signed_in(http)
        assert seen(store_db) == [started + every]
        # The end is counted from the last time written: a little early, never late.
        clock.now = started + every + IDLE + 0.5
        assert not await signed_in(http)


async def test_no_session_outlives_its_longest_life_and_the_cookie_lasts_that_long() -> None:
    idle = LONGEST / 5
    async with server(session_idle=idle) as (app, client):
        clock = accounts(app).clock = Clock()
        http = client()
        answer = await http.post(
            "/api/account/register", json={"name": "Ann Lee", "password": "correct horse battery"}
        )
        cookie = answer.headers["set-cookie"]
        assert f"{COOKIE}=" in cookie and f"Max-Age={int(LONGEST)}" in cookie
        end = clock.now + LONGEST
        while clock.now + 0.9 * idle < end:
            clock.now += 0.9 * idle
            assert await signed_in(http)
        clock.now = end + 1
        assert not await signed_in(http)
