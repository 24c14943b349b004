"""Reading the lobby API's requests and writing its refusals, for every HTTP module of the
server (the lobby's routes in :mod:`.app`, the players' accounts in :mod:`.accounts`): a POST
body must say it is JSON and stay small, and is checked against its declaration; a refusal is
a code, the reason in English words, and the parameters a client words it with; and the
table a path's code names, looked up under the limit on codes that name no table.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, ParamSpec

from pydantic import ValidationError
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response
from starlette.types import Scope
from starlette.websockets import WebSocket

from ..service.declare import Declared, NotJson, parse_json, words
from ..service.table import Refused
from .hub import Hub
from .lookups import may_look_up
from .runner import TableRunner

MAX_BODY = 16384  # bytes of an HTTP request body

# HTTP status for each refusal code the lobby can meet.
_STATUS = {
    "table_full": 409,
    "seat_taken": 409,
    "started": 409,
    "no_spectators": 403,
    "busy": 503,
    "unavailable": 503,
    "no_room": 404,
    "rate_limited": 429,
    "too_many_rooms": 429,
    "too_many_seats": 429,
    "not_invited": 403,
    "too_big": 413,
    "not_over": 409,
    "not_host": 403,
    "finished": 409,
    "unauthorized": 403,
    "not_json": 415,
    "signed_out": 401,
    "bad_sign_in": 401,
    "bad_name": 422,
    "bad_password": 422,
    # the coach's (:mod:`.coach`)
    "assists_off": 403,
    "no_deal": 404,
    "not_started": 409,
    "between_deals": 409,
}


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            media = value.split(b";", 1)[0].strip().lower()
            return bool(media == b"application/json")
    return False


def _error(
    code: str,
    message: str,
    status: int | None = None,
    params: Mapping[str, str | int] | None = None,
    headers: Mapping[str, str] | None = None,
) -> JSONResponse:
    """A refusal: its code, the reason in English words, and the parameters a client words
    it with in its player's language."""
    return JSONResponse(
        {"error": code, "message": message, "params": dict(params or {})},
        status_code=status or _STATUS.get(code, 400),
        headers=headers,
    )


async def _read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The body of a POST, which must say it is JSON (``Content-Type: application/json``,
    else 415), even an empty one. A browser sends a cross-site form or a plain ``fetch`` as
    ``text/plain``, form data or no type at all, and JSON only after a CORS check this
    server never grants, so another site cannot create or join rooms from a visitor's
    browser."""
    if not _is_json(request.scope):
        raise Refused("not_json", "Send the request body as JSON (Content-Type: application/json)")
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise Refused("too_big", f"A request body may be at most {limit} bytes")
    body = b""
    try:
        async for chunk in request.stream():
            body += chunk
            if len(body) > limit:
                raise Refused("too_big", f"A request body may be at most {limit} bytes")
    except ClientDisconnect:  # (no one is left to read the answer: it only ends the request)
        raise Refused(
            "bad_request", "The client went away before its request's body ended"
        ) from None
    if not body.strip(b" \t\n\r"):  # JSON's whitespace only (not a form feed)
        return {}
    try:
        return parse_json(body)
    except NotJson:
        raise Refused("bad_json", "The request body is not valid JSON") from None


async def _read_request(request: Request, model: type[Declared], limit: int = MAX_BODY) -> Any:
    """The request body checked against its declaration (an empty body: every default)."""
    data = await _read_json(request, limit)
    if not isinstance(data, dict):
        raise Refused("bad_request", "The request body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        schema = model.model_json_schema()
        raise Refused("bad_request", words(exc, schema, subject="The request")) from None


_Route = ParamSpec("_Route")


def refusals_answered(
    route: Callable[_Route, Awaitable[Response]],
) -> Callable[_Route, Awaitable[Response]]:
    """``route`` with every :class:`Refused` it raises answered in words: a request body
    :func:`_read_request` refuses, a table the path names that does not exist, a lobby write
    :func:`slow_down` refuses, the hub's own refusals."""

    @functools.wraps(route)
    async def answer(*args: _Route.args, **kwargs: _Route.kwargs) -> Response:
        try:
            return await route(*args, **kwargs)
        except Refused as exc:
            return _error(exc.code, str(exc), params=exc.params)

    return answer


def slow_down(request: Request) -> None:
    """Refuse (``rate_limited``) a lobby write from an address that writes too often."""
    if not request.app.state.limiter.allow(_address(request)):
        raise Refused("rate_limited", "Too many requests: slow down")


def seat_of(runner: TableRunner, token: str) -> int:
    """The seat ``token`` holds at ``runner``'s table, else :class:`Refused`."""
    seat = runner.service.seat_of_token(token)
    if seat is None:
        raise Refused("unauthorized", "That token holds no seat at this table")
    return seat


def _no_room(code: str) -> str:
    return f"There is no table {code[:12]!r}"


def _lookup(request: Request | WebSocket) -> TableRunner:
    """The table the path's code names, or :class:`Refused`: ``no_room``, or
    ``rate_limited`` once this address has asked for too many codes that name no table. A
    private room's code is its invitation (see :data:`~bigtwo.server.hub.PRIVATE_CODE_LENGTH`):
    while an address may not ask, it learns nothing of any code, one that exists or not."""
    code = request.path_params["code"]
    misses = may_look_up(request.app.state.misses, _address(request))
    runner = _hub(request).get(code)
    if runner is None:
        if misses is not None:
            misses.wait(_address(request))
        raise Refused("no_room", _no_room(code), {"code": code[:12]})
    return runner


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def _address(request: Request | WebSocket) -> str:
    """Who a request comes from (the server's ``ClientAddress``: the socket, or behind a
    trusted proxy the client it names)."""
    address: str = request.app.state.addresses.of(request)
    return address
