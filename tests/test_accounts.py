"""Players' accounts against the real application in process, on SQLite and PostgreSQL where
the store matters: passwords kept as argon2 hashes only; a wrong password and an unknown name
answered alike after the same work; failed sign-ins limited per address and per name, the
wait said in words; a new session at every sign-in (a planted cookie is worth nothing);
signing out and inactivity end a session on the server; another player's account details and
private games out of reach; hostile names refused or folded into the one they imitate; a
changed password ends the other sessions; a deleted account's games stay, under "a former
player"; a seat kept with the account follows its player to another browser."""

from __future__ import annotations

import asyncio
import statistics
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher

from bigtwo.server.accounts import COOKIE, Accounts
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings
from bigtwo.store import sql
from bigtwo.store.accounts import Rating, RatingChange
from bigtwo.store.tables import open_store

PASSWORD = "correct horse battery"
ONE_HUMAN = {"preset": "textbook", "seats": ["human", "computer", "computer", "computer"]}

Client = Callable[..., httpx.AsyncClient]


@asynccontextmanager
async def server(db: str | None = None, **settings: Any) -> AsyncIterator[tuple[Any, Client]]:
    """The application (over the table database ``db``; None: in memory) and a maker of
    clients, each its own browser (its own cookies) from an address of its own choosing."""
    store = open_store(db, checkpoint=False) if db is not None else None
    app = create_app(store, Settings(think="inline", **settings))
    clients: list[httpx.AsyncClient] = []

    def client(address: str = "10.0.0.1") -> httpx.AsyncClient:
        transport = httpx.ASGITransport(app=app, client=(address, 40000))
        made = httpx.AsyncClient(transport=transport, base_url="http://lobby")
        clients.append(made)
        return made

    try:
        yield app, client
    finally:
        for c in clients:
            await c.aclose()
        app.state.hub.store.close()


async def register(http: httpx.AsyncClient, name: str, password: str = PASSWORD) -> Any:
    answer = await http.post("/api/account/register", json={"name": name, "password": password})
    assert answer.status_code == 201, answer.text
    return answer.json()


async def sign_in(http: httpx.AsyncClient, name: str, password: str = PASSWORD) -> httpx.Response:
    return await http.post("/api/account/sign-in", json={"name": name, "password": password})


def accounts(app: Any) -> Accounts:
    found: Accounts = app.state.accounts
    return found


# -- passwords and sign-in ---------------------------------------------------------------------
async def test_a_password_is_stored_as_its_argon2_hash_only(store_db: str) -> None:
    async with server(store_db) as (_app, client):
        await register(client(), "Ann Lee")
    db = sql.connect(store_db)
    try:
        rows = db.execute("SELECT name, name_key, password FROM accounts").fetchall()
    finally:
        db.close()
    assert len(rows) == 1
    name, key, stored = rows[0]
    assert (name, key) == ("Ann Lee", "annlee")
    assert stored.startswith("$argon2id$") and PASSWORD not in stored
    assert PasswordHasher().verify(stored, PASSWORD)


async def test_a_wrong_password_and_an_unknown_name_get_the_same_answer_after_the_same_work() -> (
    None
):
    async with server(sign_ins_burst=100, name_sign_ins_burst=100) as (app, client):
        http = client()
        await register(http, "Ann Lee")
        hasher = accounts(app).hasher
        checked: list[str] = []

        class Counting(PasswordHasher):
            def verify(self, hash: str | bytes, password: str | bytes) -> bool:
                checked.append(str(hash))
                return super().verify(hash, password)

        await sign_in(http, "Nobody Yet", "not the password")  # the first makes its hash
        accounts(app).hasher = Counting()
        wrong, unknown = [], []
        times: dict[str, list[float]] = {"wrong": [], "unknown": []}
        for _ in range(5):
            for kind, name in (("wrong", "Ann Lee"), ("unknown", "Nobody Here")):
                start = time.perf_counter()
                answer = await sign_in(http, name, "not the password")
                times[kind].append(time.perf_counter() - start)
                (wrong if kind == "wrong" else unknown).append((answer.status_code, answer.json()))
        accounts(app).hasher = hasher
    assert wrong == unknown == [(401, wrong[0][1])] * 5
    assert wrong[0][1]["error"] == "bad_sign_in"
    assert "do not match" in wrong[0][1]["message"]
    # Each sign-in checked one argon2 hash: the account's, or the hash of nothing.
    assert len(checked) == 10 and all(h.startswith("$argon2id$") for h in checked)
    ratio = statistics.median(times["unknown"]) / statistics.median(times["wrong"])
    assert 0.5 < ratio < 2.0, times


async def test_failed_sign_ins_are_limited_per_address_and_per_name_with_the_wait_in_words() -> (
    None
):
    async with server(sign_ins_burst=3, name_sign_ins_burst=5) as (_app, client):
        await register(client("10.0.0.9"), "Ann Lee")
        await register(client("10.0.0.9"), "Bob Ray")
        first = client("10.0.0.1")
        for _ in range(3):
            assert (await sign_in(first, "Ann Lee", "guess one")).status_code == 401
        limited = await sign_in(first, "Ann Lee", PASSWORD)  # even the right one, for now
        assert limited.status_code == 429
        body = limited.json()
        assert body["error"] == "rate_limited" and body["params"]["reason"] == "sign_in"
        assert body["params"]["seconds"] >= 1
        assert "try again in" in body["message"] and "second" in body["message"]
        # From other addresses, the name has two failures left.
        for address in ("10.0.0.2", "10.0.0.3"):
            assert (await sign_in(client(address), "Ann Lee", "guess")).status_code == 401
        assert (await sign_in(client("10.0.0.4"), "ann lee", PASSWORD)).status_code == 429
        # Another name from a fresh address is not held up.
        assert (await sign_in(client("10.0.0.4"), "Bob Ray")).status_code == 200


# -- sessions ----------------------------------------------------------------------------------
async def test_a_session_id_changes_at_sign_in_and_a_planted_one_is_worth_nothing() -> None:
    async with server() as (_app, client):
        http = client()
        await register(http, "Ann Lee")
        registered = http.cookies[COOKIE]
        victim = client("10.0.0.2")
        victim.cookies.set(COOKIE, "planted-by-someone-else", domain="lobby.local", path="/")
        assert (await sign_in(victim, "Ann Lee")).status_code == 200
        signed = victim.cookies[COOKIE]
        assert signed not in ("planted-by-someone-else", registered)
        attacker = client("10.0.0.3")
        attacker.cookies.set(COOKIE, "planted-by-someone-else", domain="lobby.local", path="/")
        assert (await attacker.get("/api/account")).json() == {"signed_in": False}
        # Signing in again in the same browser ends its session before.
        assert (await sign_in(victim, "Ann Lee")).status_code == 200
        assert victim.cookies[COOKIE] != signed
        old = client("10.0.0.4")
        old.cookies.set(COOKIE, signed, domain="lobby.local", path="/")
        assert (await old.get("/api/account")).json() == {"signed_in": False}


async def test_the_session_cookie_is_httponly_lax_and_secure_behind_a_proxy() -> None:
    async with server() as (_app, client):
        answer = await client().post(
            "/api/account/register", json={"name": "Ann Lee", "password": PASSWORD}
        )
    cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie and "samesite=lax" in cookie and "secure" not in cookie
    async with server(trusted_proxies=("10.0.0.0/8",)) as (_app, client):
        answer = await client().post(
            "/api/account/register", json={"name": "Ann Lee", "password": PASSWORD}
        )
    assert "; secure" in answer.headers["set-cookie"].lower()


async def test_signing_out_ends_the_session_on_the_server(store_db: str) -> None:
    async with server(store_db) as (app, client):
        http = client()
        await register(http, "Ann Lee")
        session = http.cookies[COOKIE]
        assert (await http.post("/api/account/sign-out", json={})).status_code == 200
        replay = client("10.0.0.2")
        replay.cookies.set(
            COOKIE, session, domain="lobby.local", path="/"
        )  # a copy of the cookie kept from before
        assert (await replay.get("/api/account")).json() == {"signed_in": False}
        account = accounts(app).store.find("Ann Lee")
        assert account is not None and accounts(app).store.sessions(account.id) == 0


async def test_a_session_unused_for_too_long_ends() -> None:
    async with server(session_idle=1.0) as (app, client):
        http = client()
        await register(http, "Ann Lee")
        session = http.cookies[COOKIE]
        assert (await http.get("/api/account")).json()["signed_in"]
        await asyncio.sleep(1.3)
        late = client("10.0.0.2")  # the cookie kept past its time: the server refuses it
        late.cookies.set(COOKIE, session, domain="lobby.local", path="/")
        assert (await late.get("/api/account")).json() == {"signed_in": False}
        account = accounts(app).store.find("Ann Lee")
        assert account is not None and accounts(app).store.sessions(account.id) == 0


async def test_a_changed_password_ends_every_other_session() -> None:
    async with server() as (_app, client):
        laptop, phone = client(), client("10.0.0.2")
        await register(laptop, "Ann Lee")
        assert (await sign_in(phone, "Ann Lee")).status_code == 200
        short = await laptop.post(
            "/api/account/password", json={"password": PASSWORD, "new": "short"}
        )
        assert short.status_code == 422 and short.json()["error"] == "bad_password"
        changed = await laptop.post(
            "/api/account/password", json={"password": PASSWORD, "new": "a new long secret"}
        )
        assert changed.status_code == 200
        assert (await laptop.get("/api/account")).json()["signed_in"]
        assert (await phone.get("/api/account")).json() == {"signed_in": False}
        assert (await sign_in(phone, "Ann Lee")).status_code == 401
        assert (await sign_in(phone, "Ann Lee", "a new long secret")).status_code == 200


# -- names -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("<script>alert(1)</script>", "bad_name"),
        ("Ann\x00Lee", "bad_name"),
        ("Ann\u202eeeL", "bad_name"),  # right-to-left override
        ("Ann\u200bLee", "bad_name"),  # zero-width space
        ("Аnn Lee", "bad_name"),  # Cyrillic А among Latin letters
        ("A", "bad_name"),
        ("x" * 25, "bad_name"),
        ("ANN LEE", "name_taken"),
        ("Ａｎｎ Ｌｅｅ", "name_taken"),  # full-width letters: the same name
        ("ann  lee", "name_taken"),
        ("AnnLee", "name_taken"),
    ],
)
async def test_hostile_and_look_alike_names_are_refused(typed: str, code: str) -> None:
    async with server() as (_app, client):
        http = client()
        await register(http, "Ann Lee")
        answer = await http.post(
            "/api/account/register", json={"name": typed, "password": PASSWORD}
        )
        assert answer.json()["error"] == code, answer.text
        assert answer.status_code == (409 if code == "name_taken" else 422)
        assert answer.json()["message"]


async def test_names_of_other_alphabets_are_welcome_and_kept_as_typed() -> None:
    async with server() as (_app, client):
        assert (await register(client(), "  李 小龙 "))["name"] == "李 小龙"
        assert (await register(client(), "Анна"))["name"] == "Анна"
        assert (await register(client(), "O'Neil-Smith Jr."))["name"] == "O'Neil-Smith Jr."


# -- what others may see -----------------------------------------------------------------------
async def test_another_players_account_details_and_private_games_are_out_of_reach() -> None:
    async with server() as (app, client):
        ann, bob = client(), client("10.0.0.2")
        await register(ann, "Ann Lee")
        await register(bob, "Bob Ray")
        made = (await ann.post("/api/rooms", json=ONE_HUMAN)).json()
        joined = (await ann.post(f"/api/rooms/{made['code']}/join", json={"name": "Ann"})).json()
        kept = await ann.post(
            "/api/account/seats", json={"code": made["code"], "token": joined["token"]}
        )
        assert kept.status_code == 200
        store = accounts(app).store
        ann_id = store.find("Ann Lee").id  # type: ignore[union-attr]
        for code, public in (("PUBLIC", True), ("SECRET", False)):
            store.mark_rated(code, "bigtwo", public, 1.0)
            change = RatingChange(code, 0, ann_id, "bigtwo", 1, 12, 1000.0, 1040.0, 2.0)
            store.settle(code, "rated", 2.0, [change], [(ann_id, "bigtwo", Rating(26, 8, 1, 1))])
        seen_by_bob = await bob.get("/api/players/Ann%20Lee")
        seen_by_ann = await ann.get("/api/players/ann%20lee")
        assert [g["code"] for g in seen_by_bob.json()["games"]] == ["PUBLIC"]
        assert sorted(g["code"] for g in seen_by_ann.json()["games"]) == ["PUBLIC", "SECRET"]
        text = seen_by_bob.text
        assert "argon2" not in text and joined["token"] not in text and ann_id not in text
        assert (await bob.get("/api/account/seats")).json() == {"seats": []}
        assert (await client("10.0.0.3").get("/api/account/seats")).status_code == 401
        # Bob cannot keep Ann's seat without its token.
        stolen = await bob.post(
            "/api/account/seats", json={"code": made["code"], "token": "not-the-token"}
        )
        assert stolen.status_code == 403
        assert (await bob.get("/api/players/Nobody%20Here")).status_code == 404


async def test_a_deleted_accounts_games_stay_under_a_former_player(store_db: str) -> None:
    async with server(store_db) as (app, client):
        ann = client()
        await register(ann, "Ann Lee")
        store = accounts(app).store
        ann_id = store.find("Ann Lee").id  # type: ignore[union-attr]
        code = (await ann.post("/api/rooms", json=ONE_HUMAN)).json()["code"]
        store.mark_rated(code, "bigtwo", True, 1.0)
        changes = [
            RatingChange(code, 0, ann_id, "bigtwo", 1, 12, 1000.0, 1040.0, 2.0),
            RatingChange(code, 1, None, "bigtwo", 2, -12, 1840.0, 1840.0, 2.0, "computer"),
        ]
        store.settle(code, "rated", 2.0, changes, [(ann_id, "bigtwo", Rating(26, 8, 1, 1))])
        wrong = await ann.post("/api/account/delete", json={"password": "not it at all"})
        assert wrong.status_code == 401 and store.find("Ann Lee") is not None
        assert (await ann.post("/api/account/delete", json={"password": PASSWORD})).json() == {
            "deleted": True
        }
        assert store.find("Ann Lee") is None and store.sessions(ann_id) == 0
        assert (await sign_in(client(), "Ann Lee")).status_code == 401
        seats = (await ann.get(f"/api/rooms/{code}/rated")).json()["seats"]
        assert [(s["name"], s["after"]) for s in seats] == [("a former player", 1040), (None, 1840)]
        # The name is free again.
        await register(client("10.0.0.2"), "ann lee")


# -- seats -------------------------------------------------------------------------------------
async def test_a_seat_kept_with_the_account_follows_its_player_to_another_browser() -> None:
    async with server() as (app, client):
        laptop, phone = client(), client("10.0.0.2")
        await register(laptop, "Ann Lee")
        made = (await laptop.post("/api/rooms", json=ONE_HUMAN)).json()
        code = made["code"]
        joined = (await laptop.post(f"/api/rooms/{code}/join", json={"name": "Ann"})).json()
        assert (await phone.get("/api/account/seats")).status_code == 401
        kept = await laptop.post(
            "/api/account/seats", json={"code": code, "token": joined["token"]}
        )
        assert kept.json() == {"code": code, "seat": joined["seat"]}
        assert (await sign_in(phone, "Ann Lee")).status_code == 200
        seats = (await phone.get("/api/account/seats")).json()["seats"]
        assert seats == [{"code": code, "seat": joined["seat"], "token": joined["token"]}]
        runner = app.state.hub.get(code)
        assert app.state.hub.authenticate(runner, seats[0]["token"], False) == joined["seat"]
