"""Protocol fuzzing of the HTTP lobby API: schemathesis reads the server's own
``/openapi.json`` and sends every operation a bounded number of generated requests, valid and
not, to a real ``bigtwo serve`` on loopback. Every answer must be one the document declares
(status, content type, body schema, ``Allow`` on 405), and none may be a server error (5xx).

One check is left out: that every request the schema allows is accepted. The schema cannot
say everything the server checks (a computer level must be one the server has, a rule
override must suit the preset), so such a request is answered 422 naming the option, which
the document declares."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.specs.openapi.checks import positive_data_acceptance
from websockets.sync.client import connect

from bigtwo.protocol import PROTOCOL
from depths import depths
from test_server_support import Server, launch

# make test sends each operation a dozen requests; the thorough run (marked slow: make
# test-slow and CI) a hundred.
FUZZ = settings(
    max_examples=12, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True
)
THOROUGH = settings(FUZZ, max_examples=100)
LEFT_OUT = [positive_data_acceptance]


@pytest.fixture(scope="module")
def api_schema(server: Server) -> schemathesis.BaseSchema:
    return schemathesis.openapi.from_url(server.url + "/openapi.json")


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture(scope="module")
def room_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """A server of its own for the real rooms: the fuzzing above asks for so many codes that
    name no table that its address is refused lookups for a while (429 ``rate_limited``)."""
    srv = launch(tmp_path_factory.mktemp("rooms"))
    yield srv
    srv.stop()


@schema.parametrize()
@FUZZ
def test_every_operation_answers_as_declared(case: schemathesis.Case) -> None:
    case.call_and_validate(excluded_checks=LEFT_OUT)


@pytest.mark.slow
@schema.parametrize()
@THOROUGH
def test_every_operation_answers_as_declared_to_a_hundred_requests(
    case: schemathesis.Case,
) -> None:
    case.call_and_validate(excluded_checks=LEFT_OUT)


@pytest.mark.parametrize("examples", depths(25, 200))
@pytest.mark.parametrize("status", ["waiting", "playing"])
def test_room_operations_on_a_real_room(room_server: Server, status: str, examples: int) -> None:
    """The codes generated above are mostly of no room: here every operation on a room is
    fuzzed against one that exists, waiting for players or being played."""
    server = room_server
    seats = ["human"] + (["computer:greedy"] * 3 if status == "playing" else ["human"] * 3)
    room = httpx.post(
        server.url + "/api/rooms", json={"seats": seats, "computer_delay": 0}, trust_env=False
    ).json()
    if status == "playing":  # one seated player says ready: the computers start the match
        seat = httpx.post(
            server.url + f"/api/rooms/{room['code']}/join", json={}, trust_env=False
        ).json()
        with connect(seat["ws"]) as ws:
            ws.send(json.dumps({"type": "hello", "protocol": PROTOCOL, "token": seat["token"]}))
            ws.send(json.dumps({"type": "ready", "id": "r"}))
            while json.loads(ws.recv(timeout=5)).get("type") != "started":
                pass
    info = httpx.get(server.url + f"/api/rooms/{room['code']}", trust_env=False).json()
    assert info["room"]["status"] == status
    on_rooms = schemathesis.openapi.from_url(server.url + "/openapi.json").include(
        path_regex=r"\{code\}"
    )
    fixed = {"code": room["code"]}
    cases = st.one_of(
        on_rooms.as_strategy(GenerationMode.POSITIVE, path_parameters=fixed),
        on_rooms.as_strategy(GenerationMode.NEGATIVE, path_parameters=fixed),
    )

    @given(case=cases)
    @settings(FUZZ, max_examples=examples)
    def fuzz(case: schemathesis.Case) -> None:
        response = case.call()
        assert response.status_code < 500, (case.method, case.formatted_path, response.text)
        case.validate_response(response, excluded_checks=LEFT_OUT)

    fuzz()
    answer = httpx.get(server.url + f"/api/rooms/{room['code']}", trust_env=False)
    assert answer.status_code == 200, answer.text


# -- what the fuzzing found, each fixed -------------------------------------------------------
def test_a_method_a_path_does_not_take_is_405_naming_those_it_does(server: Server) -> None:
    """Found: PUT /api/presets (any method a known /api path does not take) was 404, and
    OPTIONS on a room's join was the browser client's 405 naming GET."""
    put = httpx.put(server.url + "/api/presets", trust_env=False)
    assert put.status_code == 405 and put.headers["allow"] == "GET, HEAD"
    assert put.json()["error"] == "not_allowed"
    options = httpx.options(server.url + "/api/rooms/ABCDEF/join", trust_env=False)
    assert options.status_code == 405 and options.headers["allow"] == "POST"
    rooms = httpx.delete(server.url + "/api/rooms", trust_env=False)
    assert rooms.status_code == 405 and rooms.headers["allow"] == "GET, HEAD, POST"
    assert httpx.put(server.url + "/api/nothing", trust_env=False).status_code == 404


def test_a_share_link_of_no_room_code_is_404(server: Server) -> None:
    """Found: /r/{code} sent any text, even one no room code can be, to the browser client."""
    for bad in ("IIIIII", "abc", "ABCDEFG", "A%20BCDE"):
        answer = httpx.get(server.url + f"/r/{bad}", trust_env=False)
        assert answer.status_code == 404 and answer.json()["error"] == "no_room", bad
    assert httpx.get(server.url + "/r/ABCDEF", trust_env=False).status_code in (200, 307, 404)
