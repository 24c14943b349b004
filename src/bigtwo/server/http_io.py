"""Reading the lobby API's requests and writing its refusals, for every HTTP module of the
server (the lobby's routes in :mod:`.app`, the players' accounts in :mod:`.accounts`): a POST
body must say it is JSON and stay small, and is checked against its declaration; a refusal is
a code, the reason in English words, and the parameters a client words it with.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from pydantic import ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.types import Scope

from ..service.declare import Declared, NotJson, parse_json, words

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
    "unauthorized": 403,
    "not_json": 415,
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
) -> JSONResponse:
    """A refusal: its code, the reason in English words, and the parameters a client words
    it with in its player's language."""
    return JSONResponse(
        {"error": code, "message": message, "params": dict(params or {})},
        status_code=status or _STATUS.get(code, 400),
    )


async def _read_json(request: Request, limit: int = MAX_BODY) -> Any:
    """The body of a POST, which must say it is JSON (``Content-Type: application/json``,
    else 415), even an empty one. A browser sends a cross-site form or a plain ``fetch`` as
    ``text/plain``, form data or no type at all, and JSON only after a CORS check this
    server never grants, so another site cannot create or join rooms from a visitor's
    browser."""
    if not _is_json(request.scope):
        raise _HttpError(
            "not_json", "Send the request body as JSON (Content-Type: application/json)"
        )
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise _HttpError("too_big", f"A request body may be at most {limit} bytes")
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise _HttpError("too_big", f"A request body may be at most {limit} bytes")
    if not body.strip():
        return {}
    try:
        return parse_json(body)
    except NotJson:
        raise _HttpError("bad_json", "The request body is not valid JSON") from None


async def _read_request(request: Request, model: type[Declared], limit: int = MAX_BODY) -> Any:
    """The request body checked against its declaration (an empty body: every default)."""
    data = await _read_json(request, limit)
    if not isinstance(data, dict):
        raise _HttpError("bad_request", "The request body must be a JSON object")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        schema = model.model_json_schema()
        raise _HttpError("bad_request", words(exc, schema, subject="The request")) from None


class _HttpError(Exception):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
