"""Requests and messages are declared once, and everything else follows from the declaration:
docs/protocol.md lists exactly the client message types (with their fields), the server's
event and message types and the rate-limited types the code declares; the OpenAPI document's
schemas are the declarations' own; and bad values, unknown fields and numbers out of range
(NaN, Infinity, integers of thousands of digits, in rule overrides too) are refused with the
server's error codes and a message in words, never a 500."""

from __future__ import annotations

import ast
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bigtwo
from bigtwo.client import UNNUMBERED
from bigtwo.protocol import (
    ACTION_LIMIT,
    CHAT_LIMIT,
    EVENT_TYPES,
    MESSAGE_ADAPTER,
    MESSAGE_TYPES,
    MESSAGES,
    RATE_LIMITED,
    READY_LIMIT,
    SERVER_MESSAGE_TYPES,
    BadMessage,
    message_type,
    parse_message,
)
from bigtwo.server import openapi
from bigtwo.server.app import create_app
from bigtwo.server.hub import Settings
from bigtwo.service.config import ConfigError
from bigtwo.service.declare import NotJson, parse_json
from bigtwo.service.request import RoomRequest, table_config

DOCS = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"
SRC = Path(bigtwo.__file__).resolve().parent


def section(title: str) -> str:
    """The text of the docs' section headed ``title`` (up to the next heading)."""
    text = DOCS.read_text("utf-8")
    start = text.index(f"\n{title}\n")
    end = text.find("\n#", start + len(title) + 2)
    return text[start : end if end > 0 else None]


def table_rows(text: str) -> list[list[str]]:
    """The body rows of the first Markdown table in ``text``, as cells."""
    rows = [line for line in text.splitlines() if line.startswith("|")]
    return [[c.strip() for c in row.strip("|").split("|")] for row in rows[2:]]


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# -- the docs list what the code declares --------------------------------------------------------
def test_docs_list_exactly_the_declared_client_messages_and_their_fields() -> None:
    rows = table_rows(section("### Client messages"))
    documented = {ticked(type_)[0]: fields for type_, fields, _ in rows}
    assert sorted(documented) == sorted(MESSAGE_TYPES)
    for model in MESSAGES:
        fields = documented[message_type(model)]
        optional = {name for name in ticked(fields) if f"`{name}`?" in fields}
        declared = {n: f for n, f in model.model_fields.items() if n != "type"}
        assert set(ticked(fields)) == set(declared), message_type(model)
        assert optional == {n for n, f in declared.items() if not f.is_required()}


def test_docs_list_exactly_the_declared_server_events_and_messages() -> None:
    numbered = [ticked(row[0])[0] for row in table_rows(section("### Numbered events"))]
    assert sorted(numbered) == sorted(EVENT_TYPES)
    unnumbered = [ticked(row[0])[0] for row in table_rows(section("### Unnumbered messages"))]
    assert sorted(unnumbered) == sorted(SERVER_MESSAGE_TYPES)
    assert set(SERVER_MESSAGE_TYPES) == UNNUMBERED  # the project's own client agrees


def test_the_code_sends_exactly_the_declared_types() -> None:
    """Every event the table emits, and every unnumbered message the server writes, is a
    declared type; every declared type is sent somewhere."""
    emitted: set[str] = set()
    for path in (SRC / "service").glob("*.py"):  # the table service is split by job
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_emit"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                emitted.add(str(node.args[0].value))
    assert emitted == set(EVENT_TYPES)
    written: set[str] = set()
    for path in (
        "server/hub.py",
        "server/runner.py",
        "server/connection.py",
        "server/app.py",
        "service/table.py",
    ):
        for node in ast.walk(ast.parse((SRC / path).read_text("utf-8"))):
            if isinstance(node, ast.Dict):
                for key, value in zip(node.keys, node.values, strict=True):
                    if (
                        isinstance(key, ast.Constant)
                        and key.value == "type"
                        and isinstance(value, ast.Constant)
                        and "." not in str(value.value)  # not an ASGI event (websocket.close)
                    ):
                        written.add(str(value.value))
    assert written == set(SERVER_MESSAGE_TYPES)


def test_one_list_of_rate_limited_types_in_the_code_and_the_docs() -> None:
    rows = table_rows(section("### Limits"))
    limits = {row[0].split(" ", 1)[0]: set(ticked(row[0])) for row in rows}
    actions = {t for t, limit in RATE_LIMITED.items() if limit == ACTION_LIMIT}
    assert limits["actions"] == actions == {
        "play", "pass", "next", "quit", "sync", "kick", "computer", "settings",
        "activate", "counter", "decline", "draw", "stop",
    }  # fmt: skip
    assert limits["ready"] == {t for t, limit in RATE_LIMITED.items() if limit == READY_LIMIT}
    assert limits["ready"] == {"ready"}
    assert limits["chat"] == {t for t, limit in RATE_LIMITED.items() if limit == CHAT_LIMIT}


# -- the OpenAPI document is generated from the declarations ---------------------------------------
def refs(data: Any) -> set[str]:
    if isinstance(data, dict):
        found = {data["$ref"]} if isinstance(data.get("$ref"), str) else set()
        return found.union(*(refs(v) for v in data.values()))
    if isinstance(data, list):
        return set().union(*(refs(v) for v in data))
    return set()


def test_openapi_schemas_are_the_declarations() -> None:
    spec = openapi.openapi_spec()
    schemas = spec["components"]["schemas"]
    room = schemas["RoomRequest"]
    declared = RoomRequest.model_json_schema(ref_template=openapi.REF)
    assert schemas["SeatRequest"] == declared.pop("$defs")["SeatRequest"]
    assert room == declared
    assert room["additionalProperties"] is False
    players = room["properties"]["players"]["anyOf"][0]
    assert (players["minimum"], players["maximum"]) == (2, 4)
    assert room["properties"]["away_seconds"]["anyOf"][0]["maximum"] == 86400
    assert room["properties"]["rules"]["maxProperties"] == 40
    assert schemas["JoinRequest"]["properties"]["as"]["enum"] == ["player", "spectator"]
    union = schemas["ClientMessage"]
    assert sorted(union["discriminator"]["mapping"]) == sorted(MESSAGE_TYPES)
    for ref in refs(spec):
        assert ref.removeprefix("#/components/schemas/") in schemas, ref
    app = create_app(settings=Settings(think="inline"))
    served = {getattr(r, "path", "") for r in app.routes} - {"", "/ws/{code}", "/api/{rest:path}"}
    assert set(spec["paths"]) == served


# -- HTTP: bodies checked against their declarations ----------------------------------------------
@pytest.fixture
async def http() -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(settings=Settings(think="inline", allow_seeds=True, stats_token="operator"))
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://lobby") as client:
        yield client


async def post_text(http: httpx.AsyncClient, path: str, text: str) -> httpx.Response:
    return await http.post(
        path, content=text.encode(), headers={"content-type": "application/json"}
    )


@pytest.mark.parametrize(
    ("body", "words"),
    [
        # Python's JSON reader takes these; until now Infinity made a 500.
        ('{"rules": {"scoring": {"multipliers": [[10, Infinity]]}}}', "must be a number from"),
        ('{"rules": {"scoring": {"multipliers": [[10, NaN]]}}}', "must be a number from"),
        ('{"rules": {"scoring": {"multipliers": [[10, 1e999]]}}}', "must be a number from"),
        ('{"rules": {"scoring": {"rank_values": [-Infinity]}}}', "must be a number from"),
        # 4300 digits: it reads, and made the table fail at its first deal end, then after
        # every restart.
        ('{"rules": {"scoring": {"multipliers": [[10, 1' + "0" * 4299 + "]]}}}", "-10000 to 10000"),
        ('{"rules": {"deals_per_game": 1' + "0" * 30 + "}}", "-10000 to 10000"),
        ('{"rules": {"source": "' + "x" * 1001 + '"}}', "at most 1000 characters"),
        ('{"rules": {"straights": [' + ",".join(['"34567"'] * 21) + "]}}", "at most 20 items"),
        ('{"rules": {"scoring": {"multipliers": [[[[1]]]]}}}', "nested too deeply"),
        ('{"rules": {"scoring": null}}', "must be true, false, a number"),
        ('{"turn_seconds": Infinity}', "'turn_seconds' must be a number of seconds from 0.2"),
        ('{"away_seconds": NaN}', "'away_seconds' must be a number of seconds"),
        ('{"away_seconds": 86401}', "from 0.1 to 86400, or null"),
        ('{"players": 5}', "'players' must be a whole number from 2 to 4"),
        ('{"seats": ["human", "human", "human", "human", "human"]}', "a list of 2 to 4 items"),
        ('{"deals": true}', "'deals' must be a whole number from 1 to 1000"),
        ('{"seed": 1' + "0" * 40 + "}", "'seed' must be a whole number"),
        ('{"title": "' + "t" * 61 + '"}', "'title' must be text of at most 60 characters"),
        ('{"seats": [{"kind": "human", "hat": 1}, "human"]}', "Seat 0: unknown field 'hat'"),
        ('{"public": "yes"}', "'public' must be true or false"),
    ],
)
async def test_bad_room_requests_are_422_in_words(
    http: httpx.AsyncClient, body: str, words: str
) -> None:
    answer = await post_text(http, "/api/rooms", body)
    assert answer.status_code == 422, answer.text[:200]
    error = answer.json()
    assert error["error"] == "bad_request" and words in error["message"], error


async def test_a_sound_rule_override_is_taken(http: httpx.AsyncClient) -> None:
    answer = await post_text(
        http,
        "/api/rooms",
        '{"rules": {"scoring": {"multipliers": [[10, 2], [13, 3]]}, "pass_lock": true}}',
    )
    assert answer.status_code == 201, answer.text
    assert answer.json()["room"]["rules"]["pass_lock"] is True


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"as": "referee"}, "'as' must be 'player' or 'spectator', not 'referee'"),
        ({"seat": True}, "'seat' must be a whole number from 0 to 3, or null"),
        ({"seat": 9}, "'seat' must be a whole number from 0 to 3, or null"),
        ({"name": 5}, "'name' must be text of at most 200 characters"),
        (
            {"name": "Ann", "colour": "red"},
            "Unknown field 'colour' (known: as, avatar, invite, name, seat)",
        ),
        ({"avatar": 8}, "'avatar' must be a whole number from 0 to 7, or null"),
    ],
)
async def test_bad_join_requests_are_400_in_words(
    http: httpx.AsyncClient, body: dict[str, Any], words: str
) -> None:
    code = (await http.post("/api/rooms", json={})).json()["code"]
    answer = await http.post(f"/api/rooms/{code}/join", json=body)
    assert answer.status_code == 400
    assert answer.json() == {"error": "bad_request", "message": words, "params": {}}


async def test_bad_rematch_requests_are_400_in_words(http: httpx.AsyncClient) -> None:
    code = (await http.post("/api/rooms", json={})).json()["code"]
    for body, words in (
        ({}, "The request needs the field 'token'"),
        ({"token": ""}, "'token' must be text of 1 to 200 characters"),
        ({"token": "t", "seat": 1}, "Unknown field 'seat'"),
    ):
        answer = await http.post(f"/api/rooms/{code}/rematch", json=body)
        assert answer.status_code == 400 and words in answer.json()["message"]


async def test_real_answers_fit_their_declared_schemas(http: httpx.AsyncClient) -> None:
    made = await http.post("/api/rooms", json={"seats": ["human", "computer:random"] * 2})
    openapi.RoomCreated.model_validate(made.json())
    code = made.json()["code"]
    openapi.RoomAnswer.model_validate((await http.get(f"/api/rooms/{code}")).json())
    openapi.Rooms.model_validate((await http.get("/api/rooms")).json())
    openapi.Joined.model_validate((await http.post(f"/api/rooms/{code}/join", json={})).json())
    openapi.ServerInfo.model_validate((await http.get("/api")).json())
    openapi.Presets.model_validate((await http.get("/api/presets")).json())
    auth = {"Authorization": "Bearer operator"}
    openapi.Stats.model_validate((await http.get("/api/stats", headers=auth)).json())
    bad = await http.post("/api/rooms", json={"deals": 0})
    openapi.Error.model_validate(bad.json())


# -- WebSocket: client messages checked against their union -----------------------------------------
@pytest.mark.parametrize(
    ("frame", "code", "words"),
    [
        ('{"type": "play", "id": "a1", "v": NaN, "cards": "3d"}', "bad_message",
         "'v' must be a whole number from 0 to 9007199254740991"),
        ('{"type": "hello", "protocol": Infinity}', "bad_message", "'protocol' must be"),
        ('{"type": "pass", "id": "a1", "v": 1' + "0" * 20 + "}", "bad_message", "'v' must be"),
        ('{"type": "play", "id": "a1", "v": 1, "cards": [1]}', "bad_message",
         "'cards' must be text of at most 100 characters or a list of at most 20 items"),
        ('{"type": "chat"}', "bad_message", "A 'chat' message needs the field 'text'"),
        ('{"type": "ready", "ready": 1}', "bad_message", "'ready' must be true or false"),
        ('{"type": "ping", "colour": 1}', "bad_message", "Unknown field 'colour' (known: id, type)"),
        ('{"type": "dance"}', "unknown_type", "Unknown message type 'dance'"),
        ('{"type": "chat", "text": "' + "c" * 1001 + '"}', "bad_message",
         "'text' must be text of at most 1000 characters"),
    ],
)  # fmt: skip
def test_bad_client_messages_say_what_is_wrong(frame: str, code: str, words: str) -> None:
    with pytest.raises(BadMessage) as refused:
        parse_message(frame)
    assert refused.value.code == code and words in str(refused.value), str(refused.value)


def test_client_messages_come_out_whole() -> None:
    assert parse_message('{"type": "play", "id": "a1", "v": 3, "cards": ["3d", "3h"]}') == {
        "type": "play", "id": "a1", "v": 3, "cards": "3d 3h", "seat": None,
    }  # fmt: skip
    assert parse_message('{"type": "ready"}') == {"type": "ready", "id": None, "ready": True}
    hello = parse_message(json.dumps({"type": "hello", "protocol": 1, "watch": True}))
    assert hello["token"] == "" and hello["since"] == 0 and hello["watch"] is True


_FIELDS = ("type", "id", "v", "cards", "seat", "text", "ready", "protocol", "since", "level")
_VALUES = st.one_of(
    st.sampled_from(sorted(MESSAGE_TYPES)),
    st.text(max_size=12),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.booleans(),
    st.none(),
    st.lists(st.sampled_from(["3d", "4c", "Ts", "2s", "x"]), max_size=4),
)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(_FIELDS), _VALUES, max_size=6), st.booleans())
def test_messages_read_in_one_pass_as_the_long_way_reads_them(
    message: dict[str, Any], ascii_only: bool
) -> None:
    """The common case is read and checked in one pass: what it takes, and what it refuses
    (then said the long way), is what reading the JSON and checking the object says."""
    frame = json.dumps(message, ensure_ascii=ascii_only)
    try:
        expected: Any = dict(MESSAGE_ADAPTER.validate_python(parse_json(frame)))
    except (ValueError, NotJson):
        expected = BadMessage
    try:
        got: Any = parse_message(frame)
    except BadMessage:
        got = BadMessage
    assert got == expected


def test_room_requests_from_python_refuse_what_json_cannot_say() -> None:
    """The same checks for a request built in Python (tests, tools): no NaN, no huge ints."""
    for rules in ({"scoring": {"multipliers": [[10, float("nan")]]}}, {"deals_per_game": 10**5000}):
        with pytest.raises(ConfigError, match="from -10000 to 10000"):
            table_config({"rules": rules})
