"""The table protocol's constants and the checking of every message a client sends.

A client message is one JSON object per WebSocket text frame, with a ``type`` and the fields
that type allows (see docs/protocol.md). :func:`parse_message` turns a frame into a checked
``dict`` or raises :class:`BadMessage` naming what is wrong, so the table code behind it
never sees a wrong type, a missing field or an unknown one. It decides nothing about the game.
"""

from __future__ import annotations

import json
import re
from typing import Any

PROTOCOL = 1
MAX_MESSAGE = 4096  # bytes of one client frame; larger ones are refused
HARD_MAX_MESSAGE = 65536  # the WebSocket layer closes the connection beyond this
HELLO_TIMEOUT = 10.0  # seconds a new connection has to say hello

# Close codes (4000-4999 are the application's own).
CLOSE_NORMAL = 1000
CLOSE_GOING_AWAY = 1001
CLOSE_POLICY = 1008  # flooding or repeated bad messages
CLOSE_TOO_BIG = 1009
CLOSE_SERVER_ERROR = 1011
CLOSE_TRY_AGAIN = 1013  # too slow to read its messages: reconnect and resync
CLOSE_BAD_HELLO = 4400
CLOSE_UNAUTHORIZED = 4401
CLOSE_NO_ROOM = 4404
CLOSE_REPLACED = 4409  # the same seat connected again elsewhere
CLOSE_QUIT = 4410  # the player quit the table, or a finished table was closed

_ID = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")


class BadMessage(Exception):
    """A frame that is not a valid client message; ``code`` is a short machine word."""

    def __init__(self, code: str, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.msg_id = msg_id


# type -> {field: (accepted python types, required)}
_STR = (str,)
_INT = (int,)
_BOOL = (bool,)
SCHEMAS: dict[str, dict[str, tuple[tuple[type, ...], bool]]] = {
    "hello": {
        "protocol": (_INT, True),
        "token": (_STR, False),
        "watch": (_BOOL, False),
        "since": (_INT, False),
        "name": (_STR, False),
        "batch": (_BOOL, False),
    },
    "play": {
        "id": (_STR, True),
        "v": (_INT, True),
        "cards": ((str, list), True),
        "seat": (_INT, False),
    },
    "pass": {"id": (_STR, True), "v": (_INT, True), "seat": (_INT, False)},
    "ready": {"id": (_STR, False), "ready": (_BOOL, False)},
    "next": {"id": (_STR, False)},
    "chat": {"id": (_STR, False), "text": (_STR, True)},
    "quit": {"id": (_STR, False)},
    "sync": {"id": (_STR, False)},
    "ping": {"id": (_STR, False)},
}
ACTION_TYPES = frozenset({"play", "pass", "ready", "quit", "next"})


def parse_message(frame: str | bytes | None) -> dict[str, Any]:
    """Check one client frame; return the message or raise :class:`BadMessage`."""
    if frame is None:
        raise BadMessage("bad_message", "Send messages as text frames of JSON")
    size = len(frame.encode("utf-8")) if isinstance(frame, str) else len(frame)
    if size > MAX_MESSAGE:
        raise BadMessage("too_big", f"A message may be at most {MAX_MESSAGE} bytes, not {size}")
    if isinstance(frame, bytes):
        raise BadMessage("bad_message", "Send messages as text frames of JSON, not binary")
    try:
        message = json.loads(frame)
    except (ValueError, RecursionError):
        raise BadMessage("bad_json", "That is not valid JSON") from None
    if not isinstance(message, dict):
        raise BadMessage("bad_message", "A message must be a JSON object")
    raw_id = message.get("id")
    msg_id = raw_id if isinstance(raw_id, str) and _ID.fullmatch(raw_id) else None
    kind = message.get("type")
    if not isinstance(kind, str):
        raise BadMessage("bad_message", "A message needs a 'type'", msg_id)
    schema = SCHEMAS.get(kind)
    if schema is None:
        known = ", ".join(sorted(SCHEMAS))
        raise BadMessage(
            "unknown_type", f"Unknown message type {kind[:40]!r} (known: {known})", msg_id
        )
    for key, value in message.items():
        if key == "type":
            continue
        spec = schema.get(key)
        if spec is None:
            raise BadMessage("bad_message", f"'{kind}' has no field {key[:40]!r}", msg_id)
        types, _ = spec
        # bool is an int in Python; a JSON true is never a number here.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            names = " or ".join(_TYPE_NAMES[t] for t in types)
            raise BadMessage("bad_message", f"'{key}' must be {names}", msg_id)
    for key, (_, required) in schema.items():
        if required and key not in message:
            raise BadMessage("bad_message", f"'{kind}' needs the field '{key}'", msg_id)
    if "id" in message and msg_id is None:
        raise BadMessage("bad_message", "'id' must be 1 to 64 letters, digits or _ . : -", None)
    cards = message.get("cards")
    if isinstance(cards, list):
        if len(cards) > 20 or not all(isinstance(c, str) and len(c) <= 8 for c in cards):
            raise BadMessage("bad_message", "'cards' must be a list of card names", msg_id)
        message["cards"] = " ".join(cards)
    for key in ("v", "since", "seat", "protocol"):
        value = message.get(key)
        if isinstance(value, int) and not 0 <= value < 1 << 53:
            raise BadMessage("bad_message", f"'{key}' is out of range", msg_id)
    return message


_TYPE_NAMES = {str: "text", int: "a whole number", bool: "true or false", list: "a list"}
