"""HTTP hardening: security headers on every answer, JSON-only POSTs (a cross-site form post
is refused), ``/api/stats`` for the operator only, client addresses believed from
``X-Forwarded-For`` only when a trusted proxy sends it, and one address cannot take every
spectator's place at a table."""

from __future__ import annotations

import contextlib
import json
import warnings
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

with warnings.catch_warnings():  # Starlette would rather it were httpx2; httpx is what we have
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

from bigtwo.client import Lobby, ServerError
from bigtwo.protocol import PROTOCOL
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

TOKEN = "the-operator"


def _app(**settings: Any) -> Any:
    return create_app(settings=Settings(think="inline", **settings))


@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=_app(stats_token=TOKEN))
    async with httpx.AsyncClient(transport=transport, base_url="http://lobby") as client:
        yield client


async def test_every_answer_carries_the_security_headers(http: httpx.AsyncClient) -> None:
    made = await http.post("/api/rooms", json={})
    answers = [
        await http.get("/"),  # the browser client
        await http.get("/js/main.js"),
        await http.get("/api"),
        await http.get("/api/rooms"),
        made,
        await http.get("/api/nothing"),  # a 404
        await http.post("/api/rooms", json={"deals": 0}),  # a 422
        await http.get("/healthz"),
        await http.get("/openapi.json"),
    ]
    for answer in answers:
        headers = answer.headers
        csp = headers["content-security-policy"]
        assert "default-src 'self'" in csp and "frame-ancestors 'none'" in csp, answer.url
        assert "script-src 'self'" in csp and "unsafe-eval" not in csp
        assert headers["x-content-type-options"] == "nosniff"
        assert headers["x-frame-options"] == "DENY"
        assert headers["referrer-policy"] == "no-referrer"


async def test_a_bad_share_link_opens_the_browser_client(http: httpx.AsyncClient) -> None:
    """/r/qqqq showed the browser the raw JSON of the error; the client says it in words."""
    page = {"accept": "text/html,application/xhtml+xml,*/*;q=0.8"}  # a browser's
    bad = await http.get("/r/qqqq", headers=page, follow_redirects=False)
    assert bad.status_code == 307 and bad.headers["location"] == "/?room=QQQQ"
    odd = await http.get("/r/ab%3Cc%3E", headers=page, follow_redirects=False)
    assert odd.status_code == 307 and odd.headers["location"] == "/?room=ABC"
    data = await http.get("/r/qqqq", follow_redirects=False)  # a program asking for data
    assert data.status_code == 404 and data.json()["error"] == "no_room"


async def test_oversized_headers_are_refused(http: httpx.AsyncClient) -> None:
    """A request with 100 KB of headers was answered as any other."""
    big = {"x-padding": "a" * 100_000}
    refused = await http.get("/healthz", headers=big)
    assert refused.status_code == 431 and refused.json()["error"] == "headers_too_large"
    assert refused.headers["x-content-type-options"] == "nosniff"  # hardened all the same
    assert (await http.get("/healthz", headers={"x-padding": "a" * 4000})).status_code == 200


async def test_a_broken_character_is_named_as_such(http: httpx.AsyncClient) -> None:
    """A lone surrogate (sent escaped in JSON) was refused as text that was too long."""

    async def post(path: str, body: dict[str, Any]) -> httpx.Response:
        return await http.post(
            path, content=json.dumps(body), headers={"content-type": "application/json"}
        )

    made = await post("/api/rooms", {"title": "Fri\ud800day"})
    assert made.status_code == 422
    assert made.json()["message"] == (
        "'title' must be text of whole letters (it holds a broken character)"
    )
    room = await post("/api/rooms", {"seats": ["human", "computer", "computer", "computer"]})
    joined = await post(f"/api/rooms/{room.json()['code']}/join", {"name": "An\ud800n"})
    assert joined.status_code == 400
    assert "'name' must be text of whole letters" in joined.json()["message"]


async def test_only_the_browser_clients_files_are_served(http: httpx.AsyncClient) -> None:
    """The web folder's README was served to anyone who asked for it."""
    assert (await http.get("/README.md")).status_code == 404
    assert (await http.get("/readme.MD")).status_code == 404
    assert (await http.get("/")).status_code == 200
    assert (await http.get("/index.html")).status_code == 200
    assert (await http.get("/favicon.svg")).status_code == 200
    page = (await http.get("/")).text
    scripts = [part.split('"')[0] for part in page.split('src="')[1:]]
    assert scripts
    for src in scripts:
        assert (await http.get("/" + src.lstrip("/"))).status_code == 200


@pytest.mark.parametrize(
    "content_type",
    [None, "text/plain", "text/plain;charset=UTF-8", "application/x-www-form-urlencoded",
     "multipart/form-data; boundary=x", "application/jsonp", "text/json"],
)  # fmt: skip
async def test_posts_that_are_not_json_are_refused(
    http: httpx.AsyncClient, content_type: str | None
) -> None:
    """What another site can make a visitor's browser send without asking the server first
    (a form, a plain fetch) never creates or joins a room."""
    headers = {} if content_type is None else {"content-type": content_type}
    before = len((await http.get("/api/rooms")).json()["rooms"])
    for body in (b'{"title": "from elsewhere"}', b""):
        made = await http.post("/api/rooms", content=body, headers=headers)
        assert made.status_code == 415, (content_type, made.text)
        assert made.json()["error"] == "not_json" and "application/json" in made.json()["message"]
    room = (await http.post("/api/rooms", json={})).json()["code"]
    joined = await http.post(f"/api/rooms/{room}/join", content=b"{}", headers=headers)
    assert joined.status_code == 415
    assert len((await http.get("/api/rooms")).json()["rooms"]) == before + 1  # only the JSON one
    ok = await http.post("/api/rooms", content=b"{}", headers={"content-type": "Application/JSON; charset=utf-8"})  # fmt: skip
    assert ok.status_code == 201


async def test_stats_need_the_operators_token(http: httpx.AsyncClient) -> None:
    assert (await http.get("/api/stats")).status_code == 403
    wrong = await http.get("/api/stats", headers={"Authorization": "Bearer guess"})
    assert wrong.status_code == 403 and wrong.json()["error"] == "unauthorized"
    assert (await http.get("/api/stats", headers={"Authorization": TOKEN})).status_code == 403
    right = await http.get("/api/stats", headers={"Authorization": f"Bearer {TOKEN}"})
    assert right.status_code == 200 and "tables" in right.json()


async def test_the_lobby_client_asks_for_stats_without_a_token_and_hears_the_refusal(
    http: httpx.AsyncClient,
) -> None:
    """``bigtwo bench server --url`` without ``BIGTWO_STATS_TOKEN`` asks with no token: a
    refusal in words, not an illegal ``Bearer`` header."""
    lobby = Lobby("http://lobby", client=http)
    with pytest.raises(ServerError, match="token"):
        await lobby.stats("")
    assert "tables" in await lobby.stats(TOKEN)


async def test_stats_are_refused_when_the_server_has_no_operator_token() -> None:
    transport = httpx.ASGITransport(app=_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://lobby") as http:
        for auth in ({}, {"Authorization": "Bearer "}, {"Authorization": "Bearer x"}):
            refused = await http.get("/api/stats", headers=auth)
            assert refused.status_code == 403 and "--stats-token" in refused.json()["message"]


# -- client addresses and spectators --------------------------------------------------------------
def _watch(
    sockets: contextlib.ExitStack, client: TestClient, code: str, forwarded: str | None = None
) -> dict[str, Any]:
    """Say hello as a spectator (the socket stays open until ``sockets`` closes); the
    server's first answer (welcome or error)."""
    headers = {} if forwarded is None else {"x-forwarded-for": forwarded}
    socket = sockets.enter_context(client.websocket_connect(f"/ws/{code}", headers=headers))
    socket.send_text(json.dumps({"type": "hello", "protocol": PROTOCOL, "watch": True}))
    answer: dict[str, Any] = json.loads(socket.receive_text())
    return answer


def test_one_address_cannot_take_every_spectators_place() -> None:
    app = _app(max_spectators=8, max_spectators_per_address=3)
    with TestClient(app, client=("203.0.113.7", 5000)) as client, contextlib.ExitStack() as ws:
        code = client.post("/api/rooms", json={}).json()["code"]
        kinds = [_watch(ws, client, code)["type"] for _ in range(3)]
        assert kinds == ["welcome"] * 3
        fourth = _watch(ws, client, code)
        assert fourth["type"] == "error" and fourth["code"] == "busy"
        assert "from one address" in fourth["message"]
        # An X-Forwarded-For from an untrusted peer changes nothing: still refused.
        spoofed = _watch(ws, client, code, forwarded="198.51.100.1")
        assert spoofed["type"] == "error" and spoofed["code"] == "busy"


def test_a_trusted_proxy_names_the_client_and_nobody_else_can() -> None:
    app = _app(max_spectators=8, max_spectators_per_address=1, trusted_proxies=("10.0.0.0/8",))
    with TestClient(app, client=("10.1.2.3", 5000)) as proxy, contextlib.ExitStack() as ws:
        code = proxy.post("/api/rooms", json={}).json()["code"]
        # Behind the proxy, two people are two addresses (the header's last hop counts).
        assert _watch(ws, proxy, code, forwarded="198.51.100.1")["type"] == "welcome"
        assert _watch(ws, proxy, code, forwarded="6.6.6.6, 198.51.100.2")["type"] == "welcome"
        again = _watch(ws, proxy, code, forwarded="6.6.6.6, 198.51.100.2")
        assert again["type"] == "error" and again["code"] == "busy"
        # Without the header, the proxy itself is the client.
        assert _watch(ws, proxy, code)["type"] == "welcome"


def test_the_client_address_is_the_socket_unless_a_trusted_proxy_speaks() -> None:
    from starlette.requests import Request

    from bigtwo.server.app import ClientAddress

    def request(peer: str, forwarded: str | None) -> Request:
        headers = [] if forwarded is None else [(b"x-forwarded-for", forwarded.encode())]
        return Request({"type": "http", "client": (peer, 1), "headers": headers})

    nobody = ClientAddress()
    assert nobody.of(request("127.0.0.1", "1.2.3.4")) == "127.0.0.1"  # uvicorn would believe it
    proxies = ClientAddress(["127.0.0.1", "10.0.0.0/8"])
    assert proxies.of(request("127.0.0.1", "1.2.3.4")) == "1.2.3.4"
    assert proxies.of(request("127.0.0.1", "1.2.3.4, 10.9.9.9")) == "1.2.3.4"  # two proxies
    assert proxies.of(request("127.0.0.1", "5.5.5.5, 1.2.3.4")) == "1.2.3.4"  # 5.5.5.5: forged
    assert proxies.of(request("127.0.0.1", "not-an-address")) == "127.0.0.1"
    assert proxies.of(request("127.0.0.1", None)) == "127.0.0.1"
    assert proxies.of(request("192.0.2.9", "1.2.3.4")) == "192.0.2.9"  # not a proxy of ours


def test_serve_refuses_a_trusted_proxy_that_is_no_address(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from bigtwo.cli import main

    assert main(["serve", "--memory", "--trusted-proxy", "my-proxy.example"]) == 2
    assert "is not an address or a network" in capsys.readouterr().err


def test_serve_refuses_a_port_it_cannot_listen_on_in_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A port out of range was uvicorn's traceback, and a port in use its own words."""
    import socket

    from bigtwo.cli import main

    assert main(["serve", "--memory", "--port", "99999"]) == 2
    assert "--port must be from 0 to 65535, not 99999" in capsys.readouterr().err
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert main(["serve", "--memory", "--port", str(port)]) == 2
    assert f"port {port} on 127.0.0.1 is in use by another program" in capsys.readouterr().err
    assert main(["serve", "--memory", "--host", "nowhere.invalid"]) == 2
    assert "is not an address of this machine" in capsys.readouterr().err


async def test_a_client_gone_before_its_body_ended_ends_the_request_without_a_traceback() -> None:
    """A client that leaves while sending a request's body gets the refusal it will never
    read, and the server logs no exception."""
    sent: list[dict[str, Any]] = []
    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/rooms",
        "raw_path": b"/api/rooms",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"lobby"), (b"content-type", b"application/json")],
        "client": ("127.0.0.1", 50000),
        "server": ("127.0.0.1", 80),
    }

    async def receive() -> dict[str, Any]:
        return {"type": "http.disconnect"}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    await _app()(scope, receive, send)
    assert sent[0]["status"] == 400
    refusal = json.loads(sent[1]["body"])
    assert refusal["error"] == "bad_request" and "went away" in refusal["message"]
