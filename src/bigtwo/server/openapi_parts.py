"""What every part of the lobby API's description shares (:mod:`.openapi`,
:mod:`.openapi_players`): the base of the server's answers, and one operation written from its
answer's schema name and its errors by HTTP status."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

REF = "#/components/schemas/{model}"


class Answer(BaseModel):
    """An answer of the server: clients ignore fields they do not know (version 1 grows)."""

    model_config = ConfigDict(extra="allow")


def _ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def _op(
    summary: str,
    ok: str | None,
    errors: dict[int, str] | None = None,
    *,
    body: str | None = None,
    status: int = 200,
    room: bool = False,
    description: str = "",
) -> dict[str, Any]:
    """One operation: its answer ``ok`` (a schema name) and its errors by HTTP status."""
    answer: dict[str, Any] = {"description": ok or summary}
    if ok is not None:
        answer["content"] = {"application/json": {"schema": _ref(ok)}}
    responses: dict[str, Any] = {str(status): answer}
    for code, said in (errors or {}).items():
        responses[str(code)] = {
            "description": said,
            "content": {"application/json": {"schema": _ref("Error")}},
        }
    op: dict[str, Any] = {"summary": summary, "responses": responses}
    if description:
        op["description"] = description
    if room:
        op["parameters"] = [
            {
                "name": "code",
                "in": "path",
                "required": True,
                "description": "Room code: 6 letters and digits (no 0, O, 1, I or L).",
                "schema": {"type": "string", "pattern": "^[A-HJKMNP-Za-hjkmnp-z2-9]{6}$"},
            }
        ]
    if body is not None:
        op["requestBody"] = {
            "required": body in ("RematchRequest", "CloseRequest", "MineRequest", "RecordText"),
            "content": {"application/json": {"schema": _ref(body)}},
        }
    return op


# A lookup by code: an address that asked for too many codes that name no table waits.
GUESSED = {
    429: "rate_limited: this address asked for too many codes that name no table; "
    "params.seconds says how long to wait"
}
NO_ROOM = {404: "No such room", **GUESSED}
LIMITED = {429: "Too many requests"}
NOT_JSON = {415: "not_json: a POST body must be sent as Content-Type: application/json"}
